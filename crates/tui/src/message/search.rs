//! What `/` searches, for every loaded row, in little memory and read in
//! order. A finding's text is mostly repeated across findings (14
//! repositories for 90,955 findings, a rule's message for each of its
//! findings): each distinct lower-case text is kept once ([`Strings`]) and a
//! row points at its own by number. Only what is a row's own (its id and
//! path) is kept per row, every row's in one block. A search looks at each
//! distinct text once, then at each row's numbers: the cost grows with the
//! rows, not with the length of their texts.

use super::texts::{NONE, Strings, Texts};
use findings_model::Issue;
use std::collections::HashMap;

/// The shared texts of a row, by number: severity, state, rule label, rule
/// name, repository, message and file path (findings of one file share
/// it).
type Fields = [u32; 7];

/// The places of some shared texts in [`Fields`].
pub const SEVERITY: usize = 0;
pub const STATE: usize = 1;
pub const RULE: usize = 2;
pub const REPOSITORY: usize = 4;

/// The text `/` searches of every loaded row, in order.
#[derive(Debug, Clone, Default)]
pub struct SearchIndex {
    /// Each row's own text: its id.
    own: Texts,
    /// Each row's own text as the set of its characters ([`char_bit`]):
    /// a row whose id lacks one of a needle's characters is passed over
    /// without a search, and a first key of a letter or digit is answered
    /// from this alone (8 bytes a row, read in order).
    own_chars: Vec<u64>,
    /// Each row's relevant-since, in seconds since 1970 (0: none), read
    /// in order by a sort.
    since: Vec<u32>,
    /// Each row's shared texts, as the number of their combination: rows
    /// of one rule, repository, state and message share one (a search
    /// looks at each combination once, then at one number per row).
    kind_of_row: Vec<u32>,
    kinds: Vec<Fields>,
    /// How many rows each combination has.
    rows_of_kind: Vec<u32>,
    kind_numbers: HashMap<Fields, u32>,
    strings: Strings,
    /// Each row's ref (branch), as the number of its name in `refs`: a
    /// sort key only (`/` does not search it), 4 bytes a row.
    ref_of_row: Vec<u32>,
    refs: Refs,
}

/// The distinct ref names, as sent (the server orders them so).
#[derive(Debug, Clone, Default)]
struct Refs {
    names: Vec<Box<str>>,
    numbers: HashMap<Box<str>, u32>,
}

impl Refs {
    fn intern(&mut self, name: &str) -> u32 {
        if name.is_empty() {
            return NONE;
        }
        if let Some(&k) = self.numbers.get(name) {
            return k;
        }
        let k = super::row_number(self.names.len());
        self.names.push(name.into());
        self.numbers.insert(name.into(), k);
        k
    }
}

impl SearchIndex {
    pub fn push(&mut self, issue: Option<&Issue>) {
        let fields = match issue {
            None => {
                self.own.push(&[]);
                self.own_chars.push(0);
                self.since.push(0);
                self.ref_of_row.push(NONE);
                [NONE; 7]
            }
            Some(i) => {
                self.own.push(&[i.id()]);
                self.own_chars
                    .push(chars_of(self.own.get(self.own.len() - 1)));
                let r = self.refs.intern(i.ref_.as_deref().unwrap_or(""));
                self.ref_of_row.push(r);
                let since = i.relevant_since.map_or(0, |t| t.timestamp());
                self.since
                    .push(u32::try_from(since.clamp(0, i64::from(u32::MAX))).unwrap_or(u32::MAX));
                let s = &mut self.strings;
                [
                    s.intern(i.severity.as_ref().map_or("", |v| v.label())),
                    s.intern(i.aggregate_state.as_ref().map_or("", |v| v.label())),
                    s.intern(&i.rule_label()),
                    s.intern(i.rule_name()),
                    s.intern(i.repository_name()),
                    s.intern(i.message.as_deref().unwrap_or("")),
                    s.intern(i.file_path.as_deref().unwrap_or("")),
                ]
            }
        };
        let kind = self.kind(fields);
        self.kind_of_row.push(kind);
    }

    /// The number of the combination `fields`, added if new; one more row
    /// of it.
    fn kind(&mut self, fields: Fields) -> u32 {
        let next = super::row_number(self.kinds.len());
        let kind = *self.kind_numbers.entry(fields).or_insert(next);
        if kind == next {
            self.kinds.push(fields);
            self.rows_of_kind.push(0);
        }
        self.rows_of_kind[kind as usize] += 1;
        kind
    }

    /// Appends the rows of another index (a page's).
    pub fn extend(&mut self, other: &SearchIndex) {
        let base = self.own.text.len();
        self.own.text.push_str(&other.own.text);
        self.own
            .ends
            .extend(other.own.ends.iter().map(|e| e + base));
        self.own_chars.extend(&other.own_chars);
        self.since.extend(&other.since);
        let refs: Vec<u32> = other
            .refs
            .names
            .iter()
            .map(|name| self.refs.intern(name))
            .collect();
        self.ref_of_row.extend(
            other
                .ref_of_row
                .iter()
                .map(|&k| refs.get(k as usize).copied().unwrap_or(NONE)),
        );
        let strings: Vec<u32> = (0..other.strings.texts.len())
            .map(|k| self.strings.intern_lower(other.strings.texts.get(k)))
            .collect();
        let kinds: Vec<u32> = other
            .kinds
            .iter()
            .map(|fields| {
                let fields = fields.map(|k| strings.get(k as usize).copied().unwrap_or(NONE));
                let kind = self.kind(fields);
                // Counted below, row by row.
                self.rows_of_kind[kind as usize] -= 1;
                kind
            })
            .collect();
        for &k in &other.kind_of_row {
            let kind = kinds[k as usize];
            self.rows_of_kind[kind as usize] += 1;
            self.kind_of_row.push(kind);
        }
    }

    pub fn clear(&mut self) {
        *self = SearchIndex::default();
    }

    /// Rows indexed.
    pub fn len(&self) -> usize {
        self.kind_of_row.len()
    }

    pub fn is_empty(&self) -> bool {
        self.kind_of_row.is_empty()
    }

    /// Bytes held (for the memory bench).
    pub fn heap_bytes(&self) -> usize {
        self.own.text.capacity()
            + self.own.ends.capacity() * size_of::<usize>()
            + self.own_chars.capacity() * size_of::<u64>()
            + self.kind_of_row.capacity() * size_of::<u32>()
            + self.since.capacity() * size_of::<u32>()
            + self.ref_of_row.capacity() * size_of::<u32>()
            + self.kinds.capacity() * (size_of::<Fields>() + 4)
            + self.kind_numbers.capacity() * (size_of::<Fields>() + 4 + 8)
            + self.strings.texts.text.capacity()
            + self.strings.texts.ends.capacity() * size_of::<usize>()
            + self.strings.by_hash.capacity() * 16
    }

    /// Each row's relevant-since in seconds (0: none): a sort key.
    pub fn since_keys(&self) -> &[u32] {
        &self.since
    }

    /// Each row's rank by its ref's name (as sent, as the server orders
    /// them), rows without one last: a sort key.
    pub fn ref_keys(&self) -> Vec<u32> {
        let names = &self.refs.names;
        let mut sorted: Vec<u32> = (0..super::row_number(names.len())).collect();
        sorted.sort_unstable_by(|&a, &b| names[a as usize].cmp(&names[b as usize]));
        let mut rank = vec![0u32; names.len()];
        for (r, &k) in sorted.iter().enumerate() {
            rank[k as usize] = super::row_number(r);
        }
        self.ref_of_row
            .iter()
            .map(|&k| rank.get(k as usize).copied().unwrap_or(u32::MAX - 1))
            .collect()
    }

    /// Each row's key by its shared text `field` ([`SEVERITY`] and
    /// [`STATE`]: `rank` of the text; else the text's place in string
    /// order, rows without one last): a sort key read from one number a
    /// row.
    pub fn field_keys(&self, field: usize, rank: impl Fn(&str) -> u32) -> Vec<u32> {
        let texts = &self.strings.texts;
        let of_text: Vec<u32> = (0..texts.len()).map(|k| rank(texts.get(k))).collect();
        let none = rank("");
        let of_kind: Vec<u32> = self
            .kinds
            .iter()
            .map(|kind| {
                kind.get(field)
                    .and_then(|&k| of_text.get(k as usize).copied())
                    .unwrap_or(none)
            })
            .collect();
        self.kind_of_row
            .iter()
            .map(|&k| of_kind[k as usize])
            .collect()
    }

    /// Each row's rank by its shared text `field` ([`RULE`],
    /// [`REPOSITORY`]) in string order, rows without one last: a sort key.
    pub fn sort_keys(&self, field: usize) -> Option<Vec<u32>> {
        let texts = &self.strings.texts;
        // Only the texts of that field are ranked (not every message).
        let mut used = vec![false; texts.len()];
        for kind in &self.kinds {
            if let Some(u) = kind.get(field).and_then(|&k| used.get_mut(k as usize)) {
                *u = true;
            }
        }
        let mut sorted: Vec<u32> = (0..super::row_number(texts.len()))
            .filter(|&k| used[k as usize])
            .collect();
        sorted.sort_unstable_by(|&a, &b| texts.get(a as usize).cmp(texts.get(b as usize)));
        let mut rank = vec![u32::MAX - 1; texts.len()];
        for (r, &k) in sorted.iter().enumerate() {
            rank[k as usize] = super::row_number(r);
        }
        let of_kind: Vec<u32> = self
            .kinds
            .iter()
            .map(|kind| {
                kind.get(field)
                    .and_then(|&k| rank.get(k as usize).copied())
                    .unwrap_or(u32::MAX - 1)
            })
            .collect();
        Some(
            self.kind_of_row
                .iter()
                .map(|&k| of_kind[k as usize])
                .collect(),
        )
    }

    /// A search for the lower-case `needle`, ready to test rows.
    /// It owns its needle: a search sliced across frames keeps it.
    pub fn matcher(&self, needle: &str) -> Matcher {
        let finder = memchr::memmem::Finder::new(needle.as_bytes()).into_owned();
        let texts = &self.strings.texts;
        let mut shared = vec![false; texts.len()];
        for k in texts.matching(0, texts.len(), &finder) {
            shared[k] = true;
        }
        let hit = |k: u32| shared.get(k as usize).copied().unwrap_or(false);
        let kinds: Vec<bool> = self
            .kinds
            .iter()
            .map(|fields| fields.iter().any(|&k| hit(k)))
            .collect();
        let rows_by_kind = kinds
            .iter()
            .zip(&self.rows_of_kind)
            .filter(|(hit, _)| **hit)
            .map(|(_, &n)| n as usize)
            .sum();
        let mut chars = needle.chars();
        let one_char = chars.next().filter(|_| chars.as_str().is_empty());
        Matcher {
            finder,
            kinds,
            rows_by_kind,
            needs: chars_of(needle),
            by_chars_alone: one_char.is_some_and(|c| c.is_ascii_alphanumeric()),
        }
    }

    /// `m` built again if rows of new texts came since it was: it knows
    /// only the combinations of shared texts there were then.
    pub fn refresh(&self, m: Matcher) -> Matcher {
        if m.kinds.len() == self.kinds.len() {
            return m;
        }
        let needle = String::from_utf8_lossy(m.finder.needle()).into_owned();
        self.matcher(&needle)
    }

    /// Whether row `row`'s text holds what `m` looks for.
    pub fn matches(&self, row: usize, m: &Matcher) -> bool {
        row < self.len()
            && (m.kind_hit(self.kind_of_row[row]) || self.own_holds(row, self.own_chars[row], m))
    }

    /// Whether row `row`'s own text (its characters `chars`) holds the
    /// needle: not when it lacks one of its characters, at once when the
    /// needle is one letter or digit, else searched.
    fn own_holds(&self, row: usize, chars: u64, m: &Matcher) -> bool {
        chars & m.needs == m.needs && (m.by_chars_alone || self.own.holds(row, &m.finder))
    }

    /// The rows from `from` on whose text holds what `m` looks for, in
    /// order.
    pub fn matching(&self, from: usize, m: &Matcher) -> Vec<usize> {
        self.matching_in(from, self.len(), m)
    }

    /// The rows from `from` to `to` (not included) whose text holds what
    /// `m` looks for, in order: a slice of a search. When most rows hold
    /// it in their shared texts, each row is looked at (its own text only
    /// if they do not); else one search through the rows' own text,
    /// joined with the rows whose shared texts hold it.
    pub fn matching_in(&self, from: usize, to: usize, m: &Matcher) -> Vec<usize> {
        let to = to.min(self.len());
        if from >= to {
            return Vec::new();
        }
        // A first key, or most rows holding the needle in their shared
        // texts: one pass over two numbers a row (the kind, the characters
        // of the id), an id searched only where it has every character.
        if m.by_chars_alone || m.rows_by_kind * 2 > self.len() {
            let kinds = self.kind_of_row.iter().zip(&self.own_chars);
            return kinds
                .enumerate()
                .take(to)
                .skip(from)
                .filter(|&(row, (&kind, &chars))| m.kind_hit(kind) || self.own_holds(row, chars, m))
                .map(|(row, _)| row)
                .collect();
        }
        let own = self.own.matching(from, to, &m.finder);
        if m.rows_by_kind == 0 {
            return own;
        }
        let mut own = own.into_iter().peekable();
        let mut hits = Vec::new();
        for (row, &kind) in self.kind_of_row.iter().enumerate().take(to).skip(from) {
            let in_own = own.next_if_eq(&row).is_some();
            if in_own || m.kind_hit(kind) {
                hits.push(row);
            }
        }
        hits
    }
}

/// One search: its needle, and which combinations of shared texts hold
/// it.
pub struct Matcher {
    finder: memchr::memmem::Finder<'static>,
    kinds: Vec<bool>,
    /// How many rows hold it in their shared texts.
    rows_by_kind: usize,
    /// The needle's characters ([`chars_of`]): a row's own text lacking
    /// one of them does not hold it.
    needs: u64,
    /// The needle is one ASCII letter or digit, whose bit is its own: a
    /// row's characters alone say whether its own text holds it.
    by_chars_alone: bool,
}

/// A character's bit: each ASCII letter and digit its own, any other one
/// of the 28 left (shared: it only passes rows over, never answers alone).
fn char_bit(c: char) -> u64 {
    let bit = match c {
        'a'..='z' => c as u32 - 'a' as u32,
        '0'..='9' => 26 + (c as u32 - '0' as u32),
        _ => 36 + c as u32 % 28,
    };
    1 << bit
}

/// The set of the characters of a lower-case text.
fn chars_of(text: &str) -> u64 {
    text.chars().fold(0, |set, c| set | char_bit(c))
}

impl std::fmt::Debug for Matcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Matcher")
            .field("needle", &String::from_utf8_lossy(self.finder.needle()))
            .finish_non_exhaustive()
    }
}

impl Matcher {
    fn kind_hit(&self, kind: u32) -> bool {
        self.kinds.get(kind as usize).copied().unwrap_or(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use findings_model::IssueItem;

    fn samples() -> Vec<IssueItem> {
        serde_json::from_str(include_str!("../../../../assets/pack-samples.json")).unwrap()
    }

    fn hits(index: &SearchIndex, from: usize, needle: &str) -> Vec<usize> {
        index.matching(from, &index.matcher(needle))
    }

    #[test]
    fn hostile_text_is_searchable() {
        let mut item = samples().remove(0);
        let issue = item.issue.as_mut().unwrap();
        issue.message = Some("\u{1b}]52;c;SGVsbG8=\u{7}ÉCHO \u{202e}zero\u{200b}".into());
        let mut index = SearchIndex::default();
        index.push(None);
        index.push(item.issue.as_ref());
        let m = index.matcher("écho");
        assert!(index.matches(1, &m));
        assert!(!index.matches(1, &index.matcher("absent")));
        assert!(!index.matches(0, &m), "a row without an issue has no text");
        assert!(!index.matches(7, &m), "no such row");
    }

    #[test]
    fn one_search_finds_the_rows_a_row_by_row_search_finds() {
        let items = samples();
        let mut index = SearchIndex::default();
        for k in 0..40 {
            // Rows with no text, and a needle at the very end of a row.
            index.push(if k % 5 == 0 {
                None
            } else {
                items[k % items.len()].issue.as_ref()
            });
        }
        let path = items[1].issue.as_ref().unwrap().file_path.clone().unwrap();
        let tail = &path[path.len() - 3..];
        for needle in [
            "a",
            "sql",
            "secret",
            tail,
            "zz-absent",
            "é",
            "high",
            "critical",
        ] {
            let m = index.matcher(needle);
            for from in [0, 1, 17, 39, 40, 55] {
                let one_by_one: Vec<usize> = (from..index.len())
                    .filter(|&r| index.matches(r, &m))
                    .collect();
                assert_eq!(
                    hits(&index, from, needle),
                    one_by_one,
                    "{needle:?} from {from}"
                );
            }
        }
        assert!(!hits(&index, 0, "a").is_empty());
        assert!(!hits(&index, 0, tail).is_empty());
    }

    #[test]
    fn each_shared_text_is_kept_once_and_pages_join_as_one() {
        let items = samples();
        let mut whole = SearchIndex::default();
        let mut pages = SearchIndex::default();
        for chunk in items.chunks(2) {
            let mut page = SearchIndex::default();
            for item in chunk.iter().cycle().take(50) {
                whole.push(item.issue.as_ref());
                page.push(item.issue.as_ref());
            }
            pages.extend(&page);
        }
        assert_eq!(whole.len(), pages.len());
        assert_eq!(whole.strings.texts.len(), pages.strings.texts.len());
        assert_eq!(whole.kinds.len(), pages.kinds.len());
        assert_eq!(whole.rows_of_kind, pages.rows_of_kind);
        assert!(whole.strings.texts.len() <= items.len() * 6);
        let repo = items[0]
            .issue
            .as_ref()
            .unwrap()
            .repository_name()
            .to_lowercase();
        for needle in [repo.as_str(), "a", "sql", "zz"] {
            assert_eq!(hits(&whole, 0, needle), hits(&pages, 0, needle), "{needle}");
        }
    }

    /// What a plain `contains` over each row's texts finds.
    fn by_contains(index: &SearchIndex, needle: &str) -> Vec<usize> {
        let texts = &index.strings.texts;
        (0..index.len())
            .filter(|&row| {
                let kind = &index.kinds[index.kind_of_row[row] as usize];
                index.own.get(row).contains(needle)
                    || kind.iter().any(|&k| {
                        (k as usize) < texts.len() && texts.get(k as usize).contains(needle)
                    })
            })
            .collect()
    }

    #[test]
    fn the_characters_of_an_id_skip_rows_but_never_lose_one() {
        let mut index = SearchIndex::default();
        // '%' and 'é' share a bit (neither is a letter or digit of ASCII):
        // an id holding one of them is searched for the other, not taken.
        let ids = [
            "agw-07105",
            "AGW-7",
            "f%1",
            "fé2",
            "Q_x",
            "",
            "150000",
            "z9-é%",
            "abc",
        ];
        for (k, id) in ids.iter().cycle().take(90).enumerate() {
            index.push(Some(&Issue {
                id: Some(id.to_string()),
                message: (k % 7 == 0).then(|| "Quoted secret".to_string()),
                ..Issue::default()
            }));
        }
        index.push(None);
        assert_eq!(char_bit('%'), char_bit('é'), "the test's collision holds");
        for needle in [
            "a", "q", "7", "0", "%", "é", "-", "_", "agw", "w-0", "%1", "é2", "9-é", "zz",
            "secret", "x", "",
        ] {
            let m = index.matcher(needle);
            let expected = by_contains(&index, needle);
            assert_eq!(index.matching(0, &m), expected, "{needle:?}");
            let one_by_one: Vec<usize> =
                (0..index.len()).filter(|&r| index.matches(r, &m)).collect();
            assert_eq!(one_by_one, expected, "{needle:?} row by row");
            let from_40: Vec<usize> = expected.iter().copied().filter(|&r| r >= 40).collect();
            assert_eq!(index.matching(40, &m), from_40, "{needle:?} from 40");
            // Slices of any size, joined, find what one search finds.
            for slice in [1, 7, 40, 200] {
                let sliced: Vec<usize> = (0..index.len())
                    .step_by(slice)
                    .flat_map(|from| index.matching_in(from, from + slice, &m))
                    .collect();
                assert_eq!(sliced, expected, "{needle:?} in slices of {slice}");
            }
        }
        assert!(!by_contains(&index, "%").is_empty() && !by_contains(&index, "é").is_empty());
    }

    #[test]
    fn a_needle_across_a_row_end_is_no_hit() {
        let mut index = SearchIndex::default();
        let issue = |id: &str, path: &str| Issue {
            id: Some(id.into()),
            file_path: Some(path.into()),
            ..Issue::default()
        };
        index.push(Some(&issue("1", "ab")));
        index.push(Some(&issue("cd", "x")));
        assert!(hits(&index, 0, "bcd").is_empty());
        assert_eq!(hits(&index, 0, "cd"), vec![1]);
        assert_eq!(hits(&index, 0, "ab"), vec![0]);
    }
}
