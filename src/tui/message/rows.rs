//! How the finding lists keep what they load. A typed finding costs about
//! 12 KB in memory (3.3 KB inline, the rest in small heap blocks) against
//! about 3 KB of JSON, so a list of 100,000 would hold about 1 GB. Each
//! loaded finding is kept instead as a [`FindingRow`]: the few cells the
//! table draws and the whole item packed (its JSON,
//! LZ4-compressed against a dictionary of typical findings, so the field
//! names and enum values shared by every finding cost almost nothing). The
//! item is unpacked only when it is opened, copied or exported. The text
//! `/` searches is kept apart, every row's in one block ([`SearchIndex`]),
//! so a search reads memory in order.

use crate::api::model::{
    AggregateState, ExceptionState, Issue, IssueItem, ListIssuesResponse, Severity, Timestamp,
};
use crate::triage::expiry;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::marker::PhantomData;
use std::sync::OnceLock;

/// What a list row can be made of: a List issues item or a report finding.
pub trait Finding: Serialize + DeserializeOwned {
    fn finding(&self) -> Option<&Issue>;
    /// This kind of row made from a List issues item.
    fn from_item(item: &IssueItem) -> Option<Self>;
}

impl Finding for IssueItem {
    fn finding(&self) -> Option<&Issue> {
        self.issue.as_ref()
    }
    fn from_item(item: &IssueItem) -> Option<Self> {
        Some(item.clone())
    }
}

impl Finding for Issue {
    fn finding(&self) -> Option<&Issue> {
        Some(self)
    }
    fn from_item(item: &IssueItem) -> Option<Self> {
        item.issue.clone()
    }
}

/// Takes fresh copies of findings in place: each row whose finding is
/// among `fresh` is made again from it (order and selection stay).
/// Returns how many rows changed.
pub fn refresh_rows<T: Finding>(rows: &mut [FindingRow<T>], fresh: &[IssueItem]) -> usize {
    let mut changed = 0;
    for item in fresh {
        let Some(id) = item
            .issue
            .as_ref()
            .map(Issue::id)
            .filter(|id| !id.is_empty())
        else {
            continue;
        };
        let Some(new) = T::from_item(item) else {
            continue;
        };
        for row in rows.iter_mut().filter(|r| &*r.id == id) {
            *row = FindingRow::new(&new);
            changed += 1;
        }
    }
    changed
}

/// What was done to a finding beyond triage, as a list flags it: a fix
/// pull request asked for or open wins over a ticket.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Acted {
    #[default]
    Nothing,
    Ticket,
    FixPr,
}

impl Acted {
    pub fn of(issue: &Issue) -> Acted {
        use crate::api::model::FixPrStatus;
        let pr = matches!(
            issue.fix_pr_status(),
            Some(FixPrStatus::Requested | FixPrStatus::Opened)
        ) || (issue.fix_pr_status().is_none() && issue.click_to_fix_pr_url.is_some());
        if pr {
            Acted::FixPr
        } else if issue.external_ticket.is_some() {
            Acted::Ticket
        } else {
            Acted::Nothing
        }
    }

    /// The flag column's symbol.
    pub fn flag(self) -> &'static str {
        match self {
            Acted::Nothing => " ",
            Acted::Ticket => "T",
            Acted::FixPr => "P",
        }
    }
}

/// One loaded finding: the table's cells and the packed item. Strings are as the server sent them; views make them safe.
#[derive(Debug, Clone)]
pub struct FindingRow<T> {
    pub id: Box<str>,
    pub severity: Option<Severity>,
    pub state: Option<AggregateState>,
    /// Where its exception request stands, when the server said
    /// ([`Issue::exception_state`]).
    pub exception: Option<ExceptionState>,
    pub rule: Box<str>,
    pub repository: Box<str>,
    /// `path:line`
    pub location: Box<str>,
    pub relevant_since: Option<Timestamp>,
    pub created_at: Option<Timestamp>,
    /// When an ignore ends, if the finding is ignored with an expiry in its
    /// triage note ([`crate::triage::expiry`]).
    pub expires: Option<Timestamp>,
    /// Its ticket or fix pull request, as the list flags it.
    pub acted: Acted,
    packed: Box<[u8]>,
    item: PhantomData<fn() -> T>,
}

impl<T: Finding> FindingRow<T> {
    pub fn new(item: &T) -> Self {
        let packed = crate::json::encode(item)
            .map(|json| lz4_flex::block::compress_prepend_size_with_dict(&json, dictionary()))
            .unwrap_or_default()
            .into_boxed_slice();
        let issue = item.finding();
        let text = |f: fn(&Issue) -> &str| issue.map_or("", f);
        FindingRow {
            id: text(Issue::id).into(),
            severity: issue.and_then(|i| i.severity.clone()),
            state: issue.and_then(|i| i.aggregate_state.clone()),
            exception: issue.and_then(Issue::exception_state),
            rule: issue.map(Issue::rule_label).unwrap_or_default().into(),
            repository: text(Issue::repository_name).into(),
            location: issue.map(Issue::location).unwrap_or_default().into(),
            relevant_since: issue.and_then(|i| i.relevant_since),
            created_at: issue.and_then(|i| i.created_at),
            expires: issue
                .filter(|i| expiry::is_ignored(i.triage_state.as_ref(), i.aggregate_state.as_ref()))
                .and_then(expiry::expiry_of),
            acted: issue.map(Acted::of).unwrap_or_default(),
            packed,
            item: PhantomData,
        }
    }

    /// The whole item, as received. `None` only if it could not be packed,
    /// which a value that was just decoded never fails.
    pub fn unpack(&self) -> Option<T> {
        let json = lz4_flex::block::decompress_size_prepended_with_dict(&self.packed, dictionary())
            .ok()?;
        crate::json::decode(&json).ok()
    }

    /// Bytes held on the heap for this row (for the memory bench).
    pub fn heap_bytes(&self) -> usize {
        self.id.len()
            + self.rule.len()
            + self.repository.len()
            + self.location.len()
            + self.packed.len()
    }
}

/// A List issues page as the Issues pane keeps it.
#[derive(Debug, Clone, Default)]
pub struct RowPage {
    pub rows: Vec<FindingRow<IssueItem>>,
    /// The rows' search text, in order.
    pub search: SearchIndex,
    pub cursor: Option<String>,
}

impl From<ListIssuesResponse> for RowPage {
    fn from(page: ListIssuesResponse) -> Self {
        let mut search = SearchIndex::default();
        for item in &page.issues {
            search.push(item.issue.as_ref());
        }
        RowPage {
            rows: page.issues.iter().map(FindingRow::new).collect(),
            search,
            cursor: page.cursor,
        }
    }
}

/// The lower-case text `/` searches (what a row shows, and the message) of
/// every row, in one string: a search over 100,000 rows reads ~25 MB in
/// order instead of chasing 100,000 pointers.
#[derive(Debug, Clone, Default)]
pub struct SearchIndex {
    text: String,
    /// Where each row's text ends in `text`.
    ends: Vec<usize>,
}

impl SearchIndex {
    pub fn push(&mut self, issue: Option<&Issue>) {
        if let Some(i) = issue {
            push_search_text(&mut self.text, i);
        }
        self.ends.push(self.text.len());
    }

    /// Appends the rows of another index (a page's).
    pub fn extend(&mut self, other: &SearchIndex) {
        let base = self.text.len();
        self.text.push_str(&other.text);
        self.ends.extend(other.ends.iter().map(|e| e + base));
    }

    pub fn clear(&mut self) {
        self.text.clear();
        self.ends.clear();
    }

    /// Rows indexed.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Whether row `row`'s text holds the lower-case `needle`.
    pub fn matches(&self, row: usize, needle: &str) -> bool {
        let start = self.row_start(row);
        let end = self.ends.get(row).copied().unwrap_or(start);
        self.text
            .get(start..end)
            .is_some_and(|hay| hay.contains(needle))
    }

    /// The rows from `from` on whose text holds the lower-case `needle`,
    /// in order. One search through the text, skipping to the next row
    /// after a hit: no per-row call.
    pub fn matching(&self, from: usize, needle: &str) -> Vec<usize> {
        let mut hits = Vec::new();
        let mut row = from;
        let mut pos = self.row_start(from);
        let finder = memchr::memmem::Finder::new(needle.as_bytes());
        let text = self.text.as_bytes();
        while row < self.ends.len() {
            let Some(found) = text.get(pos..).and_then(|rest| finder.find(rest)) else {
                break;
            };
            let at = pos + found;
            // The row holding `at`: the first whose end is past it (a
            // walk: hits are mostly a few rows apart).
            while self.ends.get(row).is_some_and(|&end| end <= at) {
                row += 1;
            }
            let Some(&end) = self.ends.get(row) else {
                break;
            };
            hits.push(row);
            row += 1;
            pos = end;
        }
        hits
    }

    fn row_start(&self, row: usize) -> usize {
        match row.checked_sub(1) {
            Some(prev) => self.ends.get(prev).copied().unwrap_or(self.text.len()),
            None => 0,
        }
    }
}

/// The text `/` searches in: what the row shows, and the message.
fn push_search_text(s: &mut String, i: &Issue) {
    for part in [
        i.id(),
        i.severity.as_ref().map_or("", |s| s.label()),
        i.aggregate_state.as_ref().map_or("", |s| s.label()),
        i.rule_name(),
        i.repository_name(),
        i.file_path.as_deref().unwrap_or(""),
        i.message.as_deref().unwrap_or(""),
    ] {
        // Lower case, char by char (as `str::to_lowercase`, without the
        // final-sigma rule, which a substring search does not need).
        s.extend(part.chars().flat_map(char::to_lowercase));
        s.push('\u{1f}');
    }
}

/// Typical findings of each kind, written as this model writes them: what
/// most of any finding's JSON repeats.
fn dictionary() -> &'static [u8] {
    static DICTIONARY: OnceLock<Vec<u8>> = OnceLock::new();
    DICTIONARY.get_or_init(|| {
        let samples: Vec<IssueItem> =
            crate::json::decode(include_bytes!("../../../assets/pack-samples.json"))
                .unwrap_or_default();
        let mut dict = Vec::new();
        for sample in &samples {
            if let Ok(json) = crate::json::encode(sample) {
                dict.extend(json);
            }
        }
        // LZ4 looks back at most 64 KB.
        let keep = dict.len().saturating_sub(64 * 1024);
        dict.split_off(keep)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn samples() -> Vec<IssueItem> {
        serde_json::from_str(include_str!("../../../assets/pack-samples.json")).unwrap()
    }

    #[test]
    fn the_dictionary_is_made_of_every_sample() {
        assert!(samples().len() >= 4);
        assert!(dictionary().len() > 10_000, "{}", dictionary().len());
    }

    #[test]
    fn an_item_comes_back_as_it_went_in_and_packs_small() {
        for item in samples() {
            let row = FindingRow::new(&item);
            assert_eq!(row.unpack().as_ref(), Some(&item));
            let json = serde_json::to_vec(&item).unwrap().len();
            assert!(
                row.packed.len() * 4 < json,
                "{} packed of {json}",
                row.packed.len()
            );
            let issue = item.issue.as_ref().unwrap();
            assert_eq!(&*row.id, issue.id());
            assert_eq!(&*row.location, issue.location());
            assert_eq!(row.severity, issue.severity);
        }
    }

    #[test]
    fn hostile_text_survives_the_round_trip_and_is_searchable() {
        let mut item = samples().remove(0);
        let issue = item.issue.as_mut().unwrap();
        issue.message = Some("\u{1b}]52;c;SGVsbG8=\u{7}ÉCHO \u{202e}zero\u{200b}".into());
        let row = FindingRow::new(&item);
        assert_eq!(row.unpack().as_ref(), Some(&item));
        let mut index = SearchIndex::default();
        index.push(None);
        index.push(item.issue.as_ref());
        assert!(index.matches(1, "écho"));
        assert!(!index.matches(1, "absent"));
        assert!(
            !index.matches(0, "écho"),
            "a row without an issue has no text"
        );
        assert!(!index.matches(7, "écho"), "no such row");
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
        for needle in ["a", "sql", "secret", "\u{1f}", "zz-absent", "é"] {
            for from in [0, 1, 17, 39, 40, 55] {
                let one_by_one: Vec<usize> = (from..index.len())
                    .filter(|&r| index.matches(r, needle))
                    .collect();
                assert_eq!(
                    index.matching(from, needle),
                    one_by_one,
                    "{needle:?} from {from}"
                );
            }
        }
        assert!(!index.matching(0, "a").is_empty());
    }

    #[test]
    fn a_finding_without_an_issue_has_empty_cells() {
        let row = FindingRow::new(&IssueItem::default());
        assert_eq!(&*row.id, "");
        assert!(row.severity.is_none());
        assert_eq!(row.unpack(), Some(IssueItem::default()));
    }

    #[test]
    fn a_row_says_where_its_exception_request_stands() {
        use crate::api::model::{ActivityEvent, ExceptionRequest, HistoryType};
        let event = |kind: HistoryType, day: u32| ActivityEvent {
            history_type: Some(kind),
            date: chrono::TimeZone::with_ymd_and_hms(&chrono::Utc, 2026, 10, day, 0, 0, 0).single(),
            ..Default::default()
        };
        let mut issue = Issue {
            id: Some("7".into()),
            activity_history: vec![
                event(HistoryType::ExceptionRequestCreated, 2),
                event(HistoryType::Triage, 3),
            ],
            ..Issue::default()
        };
        assert_eq!(
            FindingRow::new(&issue).exception,
            Some(ExceptionState::Requested)
        );
        // The latest by date, whatever the order sent.
        issue
            .activity_history
            .insert(0, event(HistoryType::ExceptionRequestRejected, 4));
        assert_eq!(issue.exception_state(), Some(ExceptionState::Rejected));
        // What the server says of the request itself comes first.
        issue.exception_request = Some(ExceptionRequest {
            exception_state: Some(ExceptionState::Approved),
            ..Default::default()
        });
        assert_eq!(issue.exception_state(), Some(ExceptionState::Approved));
        assert_eq!(FindingRow::new(&Issue::default()).exception, None);
    }

    #[test]
    fn report_findings_pack_too() {
        let issue = samples().remove(1).issue.unwrap();
        let row = FindingRow::new(&issue);
        assert_eq!(row.unpack(), Some(issue));
    }
}
