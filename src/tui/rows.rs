//! How the finding lists keep what they load. A typed finding costs about
//! 12 KB in memory (3.3 KB inline, the rest in small heap blocks) against
//! about 3 KB of JSON, so a list of 100,000 would hold about 1 GB. Each
//! loaded finding is kept instead as a [`FindingRow`]: the few cells the
//! table draws, the text `/` searches, and the whole item packed (its JSON,
//! LZ4-compressed against a dictionary of typical findings, so the field
//! names and enum values shared by every finding cost almost nothing). The
//! item is unpacked only when it is opened, copied or exported.

use crate::api::model::{
    AggregateState, Issue, IssueItem, ListIssuesResponse, Severity, Timestamp,
};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::marker::PhantomData;
use std::sync::OnceLock;

/// What a list row can be made of: a List issues item or a report finding.
pub trait Finding: Serialize + DeserializeOwned {
    fn finding(&self) -> Option<&Issue>;
}

impl Finding for IssueItem {
    fn finding(&self) -> Option<&Issue> {
        self.issue.as_ref()
    }
}

impl Finding for Issue {
    fn finding(&self) -> Option<&Issue> {
        Some(self)
    }
}

/// One loaded finding: the table's cells, the search text and the packed
/// item. Strings are as the server sent them; views make them safe.
#[derive(Debug, Clone)]
pub struct FindingRow<T> {
    pub id: Box<str>,
    pub severity: Option<Severity>,
    pub state: Option<AggregateState>,
    pub rule: Box<str>,
    pub repository: Box<str>,
    /// `path:line`
    pub location: Box<str>,
    pub relevant_since: Option<Timestamp>,
    pub created_at: Option<Timestamp>,
    /// Lower-case text of what the row shows and the message.
    search: Box<str>,
    packed: Box<[u8]>,
    item: PhantomData<fn() -> T>,
}

impl<T: Finding> FindingRow<T> {
    pub fn new(item: &T) -> Self {
        let packed = serde_json::to_vec(item)
            .map(|json| lz4_flex::block::compress_prepend_size_with_dict(&json, dictionary()))
            .unwrap_or_default()
            .into_boxed_slice();
        let issue = item.finding();
        let text = |f: fn(&Issue) -> &str| issue.map_or("", f);
        FindingRow {
            id: text(Issue::id).into(),
            severity: issue.and_then(|i| i.severity.clone()),
            state: issue.and_then(|i| i.aggregate_state.clone()),
            rule: issue.map(Issue::rule_label).unwrap_or_default().into(),
            repository: text(Issue::repository_name).into(),
            location: issue.map(Issue::location).unwrap_or_default().into(),
            relevant_since: issue.and_then(|i| i.relevant_since),
            created_at: issue.and_then(|i| i.created_at),
            search: issue.map(search_text).unwrap_or_default().into(),
            packed,
            item: PhantomData,
        }
    }

    /// The whole item, as received. `None` only if it could not be packed,
    /// which a value that was just decoded never fails.
    pub fn unpack(&self) -> Option<T> {
        let json = lz4_flex::block::decompress_size_prepended_with_dict(&self.packed, dictionary())
            .ok()?;
        serde_json::from_slice(&json).ok()
    }

    /// Whether the lower-case `needle` is in what the row shows or its
    /// message.
    pub fn matches(&self, needle: &str) -> bool {
        self.search.contains(needle)
    }

    /// Bytes held on the heap for this row (for the memory bench).
    pub fn heap_bytes(&self) -> usize {
        self.id.len()
            + self.rule.len()
            + self.repository.len()
            + self.location.len()
            + self.search.len()
            + self.packed.len()
    }
}

/// A List issues page as the Issues pane keeps it.
#[derive(Debug, Clone, Default)]
pub struct RowPage {
    pub rows: Vec<FindingRow<IssueItem>>,
    pub cursor: Option<String>,
}

impl From<ListIssuesResponse> for RowPage {
    fn from(page: ListIssuesResponse) -> Self {
        RowPage {
            rows: page.issues.iter().map(FindingRow::new).collect(),
            cursor: page.cursor,
        }
    }
}

/// How many of `rows` are new: their `date` is after the last visit.
pub fn count_new<T>(
    rows: &[FindingRow<T>],
    last_visit: Option<Timestamp>,
    date: fn(&FindingRow<T>) -> Option<Timestamp>,
) -> usize {
    let Some(last) = last_visit else { return 0 };
    rows.iter().filter(|r| date(r).is_some_and(|d| d > last)).count()
}

/// `n` on a findings pane: the start of the time range to ask for next,
/// given the one in force. Only the findings new since the last visit, or
/// all of them again; says which in the status line.
pub fn toggle_new_only(
    last_visit: Option<Timestamp>,
    in_force: Option<Timestamp>,
    outbox: &mut crate::tui::app::Outbox,
) -> Option<Timestamp> {
    match last_visit {
        None => {
            outbox.status("no earlier visit recorded under this profile: nothing is new yet");
            in_force
        }
        Some(last) if in_force == Some(last) => {
            outbox.status("showing every finding again");
            None
        }
        Some(last) => {
            outbox.status(format!(
                "only the findings new since your last visit ({})",
                last.format("%Y-%m-%d %H:%M UTC")
            ));
            Some(last)
        }
    }
}

/// The text `/` searches in: what the row shows, and the message.
fn search_text(i: &Issue) -> String {
    let mut s = String::with_capacity(160);
    for part in [
        i.id(),
        i.severity.as_ref().map_or("", |s| s.label()),
        i.aggregate_state.as_ref().map_or("", |s| s.label()),
        i.rule_name(),
        i.repository_name(),
        i.file_path.as_deref().unwrap_or(""),
        i.message.as_deref().unwrap_or(""),
    ] {
        s.push_str(part);
        s.push('\u{1f}');
    }
    s.to_lowercase()
}

/// Typical findings of each kind, written as this model writes them: what
/// most of any finding's JSON repeats.
fn dictionary() -> &'static [u8] {
    static DICTIONARY: OnceLock<Vec<u8>> = OnceLock::new();
    DICTIONARY.get_or_init(|| {
        let samples: Vec<IssueItem> =
            serde_json::from_str(include_str!("../../assets/pack-samples.json"))
                .unwrap_or_default();
        let mut dict = Vec::new();
        for sample in &samples {
            if let Ok(json) = serde_json::to_vec(sample) {
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
        serde_json::from_str(include_str!("../../assets/pack-samples.json")).unwrap()
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
        assert_eq!(row.unpack(), Some(item));
        assert!(row.matches("écho"));
        assert!(!row.matches("absent"));
    }

    #[test]
    fn a_finding_without_an_issue_has_empty_cells() {
        let row = FindingRow::new(&IssueItem::default());
        assert_eq!(&*row.id, "");
        assert!(row.severity.is_none());
        assert_eq!(row.unpack(), Some(IssueItem::default()));
    }

    #[test]
    fn report_findings_pack_too() {
        let issue = samples().remove(1).issue.unwrap();
        let row = FindingRow::new(&issue);
        assert_eq!(row.unpack(), Some(issue));
    }
}
