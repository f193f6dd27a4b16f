//! What changed between two snapshots (or a snapshot and the live
//! deployment): the old side is held as a compact map (an id and a few
//! small numbers per finding), the new side compared as it streams, and
//! the old side read again for the findings the new one no longer has.

use super::{Entry, SnapshotError};
use findings_export::{Column, Cut, Record, col};
use findings_model::Timestamp;
use serde::Serialize;
use std::collections::HashMap;

/// A kind of change. A finding may show in more than one (fixed, and its
/// severity changed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Category {
    /// In the new side only.
    New,
    /// Its state became fixed or removed.
    Fixed,
    /// In the old side only: no longer matches the filter (fixed or
    /// removed, when the filter leaves those out).
    Gone,
    /// Fixed, removed or ignored before; open, reviewing or fixing now (or
    /// its triage state became reopened).
    Reopened,
    /// Untriaged before, triaged now.
    Triaged,
    /// Triaged before, triaged again (another state, reason or time).
    Retriaged,
    /// Its severity changed.
    Severity,
}

impl Category {
    pub const ALL: [Category; 7] = [
        Category::New,
        Category::Fixed,
        Category::Gone,
        Category::Reopened,
        Category::Triaged,
        Category::Retriaged,
        Category::Severity,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Category::New => "new",
            Category::Fixed => "fixed",
            Category::Gone => "gone",
            Category::Reopened => "reopened",
            Category::Triaged => "triaged",
            Category::Retriaged => "retriaged",
            Category::Severity => "severity",
        }
    }

    pub fn parse(name: &str) -> Option<Category> {
        Category::ALL.into_iter().find(|c| c.name() == name.trim())
    }
}

/// One change of one finding: the finding as it is now (as it was, for
/// `gone`), and what it was.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Change {
    pub category: &'static str,
    pub id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub severity: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// What it was: the old state, severity or triage, as the category says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub was: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub triage: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub triaged_by: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub triaged_at: Option<Timestamp>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repo: Option<String>,
    #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
    pub ref_: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
}

/// The fields of a change, for `--json`.
pub const CHANGE_FIELDS: &[&str] = &[
    "category",
    "id",
    "path",
    "ref",
    "repo",
    "rule",
    "severity",
    "state",
    "triage",
    "triagedAt",
    "triagedBy",
    "was",
];

impl Change {
    fn of(category: Category, entry: &Entry, was: Option<String>) -> Change {
        Change {
            category: category.name(),
            id: entry.id.clone(),
            severity: entry.severity.clone(),
            state: entry.state.clone(),
            was,
            triage: triage_of(
                entry.triage_state.as_deref(),
                entry.triage_reason.as_deref(),
            ),
            triaged_by: entry.triaged_by.clone(),
            triaged_at: entry.triaged_at,
            rule: entry.rule.clone(),
            repo: entry.repo.clone(),
            ref_: entry.ref_.clone(),
            path: entry.path.clone(),
        }
    }
}

/// "ignored (false positive)", "reopened"; `None` when untriaged.
fn triage_of(state: Option<&str>, reason: Option<&str>) -> Option<String> {
    let state = state.filter(|s| !s.is_empty() && *s != "untriaged")?;
    Some(match reason.filter(|r| !r.is_empty()) {
        Some(reason) => format!("{state} ({reason})"),
        None => state.to_owned(),
    })
}

/// A narrow table keeps what changed and what it is about longest (the
/// change, the finding, its severity and state, the rule by its short
/// name); the time and who give way first, then the path, the triage, the
/// repository and what it was.
const COLUMNS: &[Column] = &[
    col("category", 9, 9),
    col("id", 8, 6),
    col("severity", 8, 8),
    col("state", 10, 9),
    col("was", 16, 9).dropped(6),
    col("triage", 18, 9).dropped(4),
    col("by", 14, 8).dropped(2),
    col("at", 16, 10).dropped(1).cut(Cut::Date),
    col("rule", 24, 16).shown(findings_model::short_rule),
    col("repo", 18, 14).dropped(5).cut(Cut::Left),
    col("path", 30, 12).dropped(3).cut(Cut::Left),
];

impl Record for Change {
    const COLUMNS: &'static [Column] = COLUMNS;
    fn cells(&self) -> Vec<String> {
        let s = |v: &Option<String>| v.clone().unwrap_or_default();
        vec![
            self.category.to_owned(),
            self.id.clone(),
            s(&self.severity),
            s(&self.state),
            s(&self.was),
            s(&self.triage),
            s(&self.triaged_by),
            self.triaged_at
                .map(|t| t.format("%Y-%m-%d %H:%M").to_string())
                .unwrap_or_default(),
            s(&self.rule),
            s(&self.repo),
            s(&self.path),
        ]
    }
}

/// The old side of a diff: per id, the few fields compared, labels kept
/// once each. About 24 bytes a finding with a numeric id (a million: 24 MB),
/// more for another kind of id.
#[derive(Default)]
pub struct Baseline {
    /// Findings with a numeric id (the usual kind), by id; sorted (and a
    /// repeated id's last entry kept) on the first look-up.
    by_number: Vec<(u64, Compact)>,
    sorted: bool,
    /// Findings with any other id.
    by_text: HashMap<Box<str>, Compact>,
    /// The distinct (severity, state, triage state, triage reason) labels.
    fields: Vec<[u32; 4]>,
    field_ids: HashMap<[u32; 4], u32>,
    labels: Vec<Box<str>>,
    label_ids: HashMap<Box<str>, u32>,
    /// The bytes of text held (labels, ids that are not numbers), at most
    /// [`MAX_BASELINE_TEXT`].
    text_bytes: usize,
}

/// The most text the old side of a diff holds: distinct labels (who
/// triaged, states) and ids that are not numbers. A snapshot needing more
/// is refused (every finding triaged by another 4 KB name, say) rather
/// than held.
pub const MAX_BASELINE_TEXT: usize = 64 * 1024 * 1024;

/// The compared fields of one old finding: label numbers (0 is none), the
/// four enumerations as one number of [`Baseline::fields`].
#[derive(Debug, Clone, Copy)]
struct Compact {
    /// Milliseconds; `i64::MIN` for none.
    triaged_at: i64,
    triaged_by: u32,
    /// The index of its labels in `fields`, and [`SEEN`].
    fields: u32,
}

/// The bit of [`Compact::fields`] that says the new side had it.
const SEEN: u32 = 1 << 31;

impl Compact {
    fn seen(self) -> bool {
        self.fields & SEEN != 0
    }
}

/// The number of a canonical decimal id ("100042"; not "0042" or "+1"),
/// which prints back as the same id.
fn numeric_id(id: &str) -> Option<u64> {
    let canonical = !id.is_empty()
        && id.bytes().all(|b| b.is_ascii_digit())
        && (id == "0" || !id.starts_with('0'));
    canonical.then(|| id.parse().ok()).flatten()
}

const FIXED_STATES: [&str; 2] = ["fixed", "removed"];
const CLOSED_STATES: [&str; 5] = [
    "fixed",
    "removed",
    "ignored",
    "ignored in code",
    "provisionally ignored",
];
const OPEN_STATES: [&str; 3] = ["open", "reviewing", "fixing"];

impl Baseline {
    /// Adds an old finding (a later entry of the same id replaces it, and
    /// is not held twice). Past [`MAX_BASELINE_TEXT`] of text, an error.
    pub fn add(&mut self, entry: &Entry) -> Result<(), SnapshotError> {
        let labels = [
            self.label(entry.severity.as_deref())?,
            self.label(entry.state.as_deref())?,
            self.label(entry.triage_state.as_deref())?,
            self.label(entry.triage_reason.as_deref())?,
        ];
        let fields = if let Some(&n) = self.field_ids.get(&labels) {
            n
        } else {
            let n = self.fields.len() as u32;
            self.fields.push(labels);
            self.field_ids.insert(labels, n);
            n
        };
        let compact = Compact {
            triaged_at: entry.triaged_at.map_or(i64::MIN, |t| t.timestamp_millis()),
            triaged_by: self.label(entry.triaged_by.as_deref())?,
            fields,
        };
        if let Some(n) = numeric_id(&entry.id) {
            if self.by_number.len() == self.by_number.capacity() {
                self.compact();
            }
            self.by_number.push((n, compact));
            self.sorted = false;
        } else {
            if !self.by_text.contains_key(entry.id.as_str()) {
                self.hold(entry.id.len())?;
            }
            self.by_text.insert(entry.id.as_str().into(), compact);
        }
        Ok(())
    }

    /// Before the numeric ids grow: a repeated id's copies are merged (a
    /// file of one finding a million times holds one), and the list grows
    /// only when that frees less than a quarter (so the sorts cost
    /// O(log n) a finding).
    fn compact(&mut self) {
        let before = self.by_number.capacity();
        self.sort_and_merge();
        if self.by_number.len() > before / 4 * 3 {
            self.by_number.reserve(before.max(64));
        }
    }

    /// Sorts the numeric ids, keeping of a repeated id the last added.
    fn sort_and_merge(&mut self) {
        // Stable: of a repeated id, the last added is kept.
        self.by_number.sort_by_key(|(n, _)| *n);
        self.by_number.dedup_by(|later, earlier| {
            let same = later.0 == earlier.0;
            if same {
                earlier.1 = later.1;
            }
            same
        });
    }

    /// Counts `len` more bytes of text held.
    fn hold(&mut self, len: usize) -> Result<(), SnapshotError> {
        self.text_bytes += len;
        if self.text_bytes > MAX_BASELINE_TEXT {
            return Err(SnapshotError::TooLarge(format!(
                "its labels and ids take more than the {} MiB a diff holds",
                MAX_BASELINE_TEXT >> 20
            )));
        }
        Ok(())
    }

    /// Readies the look-ups (sorts the numeric ids), once every old
    /// finding is added: the sort's scratch space is then taken before the
    /// new side's pages arrive rather than beside them. The first look-up
    /// does it otherwise.
    pub fn ready(&mut self) {
        if !self.sorted {
            self.sort_and_merge();
            self.by_number.shrink_to_fit();
            self.sorted = true;
        }
    }

    /// The entry of `id`.
    fn find(&mut self, id: &str) -> Option<&mut Compact> {
        let Some(n) = numeric_id(id) else {
            return self.by_text.get_mut(id);
        };
        self.ready();
        let at = self.by_number.binary_search_by_key(&n, |(n, _)| *n).ok()?;
        Some(&mut self.by_number[at].1)
    }

    /// Compares a finding of the new side; `each` gets its changes.
    pub fn compare(&mut self, new: &Entry, mut each: impl FnMut(Change)) {
        let Some(old) = self.find(&new.id) else {
            each(Change::of(Category::New, new, None));
            return;
        };
        if old.seen() {
            return; // the same id twice on the new side: compared once
        }
        old.fields |= SEEN;
        let old = *old;
        let [severity, state, triage_state, triage_reason] =
            self.fields[(old.fields & !SEEN) as usize];
        let old_triaged_at = (old.triaged_at != i64::MIN).then_some(old.triaged_at);
        let text = |n: u32| self.text(n);
        let (old_state, new_state) = (text(state), new.state.as_deref().unwrap_or(""));
        if !FIXED_STATES.contains(&old_state) && FIXED_STATES.contains(&new_state) {
            each(Change::of(Category::Fixed, new, some(old_state)));
        }
        let reopened_now =
            new.triage_state.as_deref() == Some("reopened") && text(triage_state) != "reopened";
        // Open again now: closed before, or triaged as reopened since (one
        // reopened and fixed again in between is not).
        if OPEN_STATES.contains(&new_state) && (CLOSED_STATES.contains(&old_state) || reopened_now)
        {
            each(Change::of(Category::Reopened, new, some(old_state)));
        }
        let was_triaged = old_triaged_at.is_some() || is_triaged(text(triage_state));
        let is_now =
            new.triaged_at.is_some() || is_triaged(new.triage_state.as_deref().unwrap_or(""));
        let old_triage = triage_of(Some(text(triage_state)), Some(text(triage_reason)));
        let retriaged = old_triaged_at != new.triaged_at.map(|t| t.timestamp_millis())
            || text(triage_state) != new.triage_state.as_deref().unwrap_or("")
            || text(triage_reason) != new.triage_reason.as_deref().unwrap_or("");
        if !was_triaged && is_now {
            each(Change::of(Category::Triaged, new, Some("untriaged".into())));
        } else if was_triaged && is_now && retriaged {
            let by = text(old.triaged_by);
            let was = match (old_triage, by) {
                (Some(t), "") => t,
                (Some(t), by) => format!("{t} by {by}"),
                (None, "") => "triaged".into(),
                (None, by) => format!("triaged by {by}"),
            };
            each(Change::of(Category::Retriaged, new, Some(was)));
        }
        let old_severity = text(severity);
        if !old_severity.is_empty() && new.severity.as_deref().is_some_and(|s| s != old_severity) {
            each(Change::of(Category::Severity, new, some(old_severity)));
        }
    }

    /// The change of an old finding the new side did not have; `None` for
    /// one it had.
    pub fn gone(&mut self, old: &Entry) -> Option<Change> {
        let compact = self.find(&old.id)?;
        (!compact.seen()).then(|| {
            let mut change = Change::of(Category::Gone, old, old.state.clone());
            change.state = None;
            change
        })
    }

    fn label(&mut self, text: Option<&str>) -> Result<u32, SnapshotError> {
        let Some(text) = text.filter(|t| !t.is_empty()) else {
            return Ok(0);
        };
        if let Some(&n) = self.label_ids.get(text) {
            return Ok(n);
        }
        // Held twice: in the list and as the map's key.
        self.hold(2 * text.len())?;
        self.labels.push(text.into());
        let n = self.labels.len() as u32;
        self.label_ids.insert(text.into(), n);
        Ok(n)
    }

    fn text(&self, n: u32) -> &str {
        match n {
            0 => "",
            n => &self.labels[n as usize - 1],
        }
    }
}

fn is_triaged(triage_state: &str) -> bool {
    !triage_state.is_empty() && triage_state != "untriaged"
}

fn some(text: &str) -> Option<String> {
    (!text.is_empty()).then(|| text.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: &str, severity: &str, state: &str) -> Entry {
        Entry {
            id: id.into(),
            severity: Some(severity.into()),
            state: Some(state.into()),
            ..Entry::default()
        }
    }

    fn triaged(mut e: Entry, state: &str, reason: &str, by: &str, at: &str) -> Entry {
        e.triage_state = Some(state.into());
        e.triage_reason = Some(reason.into());
        e.triaged_by = Some(by.into());
        e.triaged_at = Some(at.parse().unwrap());
        e
    }

    /// The changes from `old` to `new`, as (category, id, was).
    fn diff(old: &[Entry], new: &[Entry]) -> Vec<(&'static str, String, Option<String>)> {
        let mut baseline = Baseline::default();
        for e in old {
            baseline.add(e).unwrap();
        }
        let mut changes = Vec::new();
        for e in new {
            baseline.compare(e, |c| changes.push(c));
        }
        changes.extend(old.iter().filter_map(|e| baseline.gone(e)));
        changes
            .into_iter()
            .map(|c| (c.category, c.id, c.was))
            .collect()
    }

    #[test]
    fn each_kind_of_change_is_found_with_what_it_was() {
        let t1 = "2026-11-01T10:00:00Z";
        let t2 = "2026-11-08T10:00:00Z";
        let old = [
            entry("same", "high", "open"),
            entry("fixed", "high", "open"),
            entry("gone", "low", "open"),
            entry("reopened", "high", "fixed"),
            entry("triaged", "high", "open"),
            triaged(
                entry("retriaged", "high", "ignored"),
                "ignored",
                "no time",
                "ana",
                t1,
            ),
            entry("severity", "medium", "open"),
        ];
        let new = [
            entry("same", "high", "open"),
            entry("fixed", "high", "fixed"),
            entry("reopened", "high", "open"),
            triaged(
                entry("triaged", "high", "ignored"),
                "ignored",
                "false positive",
                "bo",
                t2,
            ),
            triaged(
                entry("retriaged", "high", "ignored"),
                "ignored",
                "acceptable risk",
                "bo",
                t2,
            ),
            entry("severity", "critical", "open"),
            entry("brand-new", "critical", "open"),
        ];
        let s = |t: &str| Some(t.to_owned());
        assert_eq!(
            diff(&old, &new),
            [
                ("fixed", "fixed".into(), s("open")),
                ("reopened", "reopened".into(), s("fixed")),
                ("triaged", "triaged".into(), s("untriaged")),
                (
                    "retriaged",
                    "retriaged".into(),
                    s("ignored (no time) by ana")
                ),
                ("severity", "severity".into(), s("medium")),
                ("new", "brand-new".into(), None),
                ("gone", "gone".into(), s("open")),
            ]
        );
        // Nothing against itself.
        assert_eq!(diff(&new, &new), []);
    }

    #[test]
    fn a_finding_reopened_and_fixed_again_in_between_is_not_reopened() {
        let mut now = entry("a", "high", "fixed");
        now.triage_state = Some("reopened".into());
        // Its triage changed (to reopened), its state did not open.
        let changes = diff(&[entry("a", "high", "removed")], &[now]);
        assert_eq!(changes, [("triaged", "a".into(), Some("untriaged".into()))]);
    }

    #[test]
    fn a_repeated_id_keeps_its_last_entry_whatever_kind_of_id() {
        let old = [
            entry("100", "high", "open"),
            entry("a-1", "high", "open"),
            entry("100", "low", "open"),
            entry("a-1", "low", "open"),
        ];
        let new = [entry("100", "low", "open"), entry("a-1", "low", "open")];
        assert_eq!(diff(&old, &new), []);
    }

    #[test]
    fn an_id_that_reads_as_a_number_is_not_the_same_as_the_number() {
        // "042" is not "42": each is new, and each old one gone.
        let changes = diff(
            &[entry("042", "high", "open"), entry("7", "high", "open")],
            &[entry("42", "high", "open"), entry("07", "high", "open")],
        );
        let s = |t: &str| Some(t.to_owned());
        assert_eq!(
            changes,
            [
                ("new", "42".into(), None),
                ("new", "07".into(), None),
                ("gone", "042".into(), s("open")),
                ("gone", "7".into(), s("open")),
            ]
        );
    }

    #[test]
    fn every_old_finding_is_gone_when_the_new_side_is_empty() {
        let old = [entry("9", "high", "open"), entry("3", "low", "fixed")];
        let gone: Vec<String> = diff(&old, &[]).into_iter().map(|c| c.1).collect();
        assert_eq!(gone, ["9", "3"]);
    }

    /// What a million old findings cost: 24 bytes each with a numeric id
    /// (24 MB), the labels kept once.
    #[test]
    fn an_old_finding_with_a_numeric_id_takes_24_bytes() {
        assert_eq!(std::mem::size_of::<(u64, Compact)>(), 24);
    }

    #[test]
    fn categories_parse_by_their_names() {
        for c in Category::ALL {
            assert_eq!(Category::parse(c.name()), Some(c));
        }
        assert_eq!(Category::parse("moved"), None);
    }

    /// A file of one finding many times holds it once, as it is read; a
    /// snapshot whose labels pass the cap is refused.
    #[test]
    fn a_repeated_finding_is_held_once_and_labels_are_capped() {
        let mut baseline = Baseline::default();
        for _ in 0..100_000 {
            baseline.add(&entry("7", "high", "open")).unwrap();
        }
        assert!(
            baseline.by_number.capacity() < 1_000,
            "{} held",
            baseline.by_number.capacity()
        );
        let mut changes = Vec::new();
        baseline.compare(&entry("7", "high", "fixed"), |c| changes.push(c.category));
        assert_eq!(changes, ["fixed"]);
        let mut baseline = Baseline::default();
        let by = |n: usize| format!("{n}{}", "x".repeat(1 << 20));
        let e = (0..100)
            .map(|n| {
                let mut e = entry(&n.to_string(), "high", "open");
                e.triaged_by = Some(by(n));
                baseline.add(&e)
            })
            .find_map(Result::err)
            .expect("refused");
        assert!(e.to_string().contains("MiB a diff holds"), "{e}");
    }
}
