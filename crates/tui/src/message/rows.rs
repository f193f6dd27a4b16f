//! How the finding lists keep what they load: each loaded finding is a
//! [`FindingRow`], what the table draws and the few fields a triage needs,
//! in about 100 bytes and one small heap block. The whole finding is not
//! kept (it took 1,100 bytes a row, LZ4-compressed): the detail comes from
//! the single-issue fetch, and what needs more of a finding than its row
//! (its link, an export) fetches it. The text `/` searches is kept apart,
//! every row's in one index ([`SearchIndex`]).

pub use super::search::SearchIndex;
use findings_model::{
    AggregateState, ExceptionState, Issue, IssueItem, IssueType, ListIssuesResponse, Repository,
    Severity, Timestamp, TriagePermission, TriageReason, TriageState,
};
use findings_requests::triage::expiry;
use std::collections::HashMap;
use std::marker::PhantomData;
use std::sync::Arc;

/// What a list row can be made of: a List issues item or a report finding.
pub trait Finding: Sized {
    fn finding(&self) -> Option<&Issue>;
    /// This kind of row made from a List issues item.
    fn from_item(item: &IssueItem) -> Option<Self>;
    /// This kind of row holding `issue` alone.
    fn from_issue(issue: Issue) -> Self;
}

impl Finding for IssueItem {
    fn finding(&self) -> Option<&Issue> {
        self.issue.as_ref()
    }
    fn from_item(item: &IssueItem) -> Option<Self> {
        Some(item.clone())
    }
    fn from_issue(issue: Issue) -> Self {
        IssueItem {
            issue: Some(issue),
            ..IssueItem::default()
        }
    }
}

impl Finding for Issue {
    fn finding(&self) -> Option<&Issue> {
        Some(self)
    }
    fn from_item(item: &IssueItem) -> Option<Self> {
        item.issue.clone()
    }
    fn from_issue(issue: Issue) -> Self {
        issue
    }
}

/// Takes fresh copies of findings in place: each row whose finding is
/// among `fresh` is made again from it (order and selection stay).
/// Returns how many rows changed.
pub fn refresh_rows<T: Finding>(rows: &mut [FindingRow<T>], fresh: &[IssueItem]) -> usize {
    // One pass over the rows, whatever the number of fresh findings (a
    // pass a finding was minutes for a triage of thousands at millions).
    let mut by_id: std::collections::HashMap<&str, T> =
        std::collections::HashMap::with_capacity(fresh.len());
    for item in fresh {
        let Some(id) = item
            .issue
            .as_ref()
            .map(Issue::id)
            .filter(|id| !id.is_empty())
        else {
            continue;
        };
        if let Some(new) = T::from_item(item) {
            by_id.insert(id, new);
        }
    }
    if by_id.is_empty() {
        return 0;
    }
    let mut changed = 0;
    for row in rows.iter_mut() {
        if let Some(new) = by_id.get(row.id()) {
            *row = FindingRow::new(new);
            changed += 1;
        }
    }
    changed
}

/// What was done to a finding beyond triage, as a list flags it: a fix
/// pull request asked for or open, a ticket, or both.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[repr(u8)]
pub enum Acted {
    #[default]
    Nothing,
    Ticket,
    FixPr,
    Both,
}

impl Acted {
    pub fn of(issue: &Issue) -> Acted {
        use findings_model::FixPrStatus;
        let pr = matches!(
            issue.fix_pr_status(),
            Some(FixPrStatus::Requested | FixPrStatus::Opened)
        ) || (issue.fix_pr_status().is_none() && issue.click_to_fix_pr_url.is_some());
        match (pr, issue.external_ticket.is_some()) {
            (true, true) => Acted::Both,
            (true, false) => Acted::FixPr,
            (false, true) => Acted::Ticket,
            (false, false) => Acted::Nothing,
        }
    }

    /// With a fix pull request as well (a ticket is kept).
    pub fn with_fix_pr(self) -> Acted {
        match self {
            Acted::Ticket | Acted::Both => Acted::Both,
            Acted::Nothing | Acted::FixPr => Acted::FixPr,
        }
    }

    /// Whether a fix pull request is flagged.
    pub fn has_fix_pr(self) -> bool {
        matches!(self, Acted::FixPr | Acted::Both)
    }

    /// The flag column's symbols: P a fix pull request, T a ticket.
    pub fn flag(self) -> &'static str {
        match self {
            Acted::Nothing => " ",
            Acted::Ticket => "T",
            Acted::FixPr => "P",
            Acted::Both => "PT",
        }
    }
}

/// One loaded finding: the table's cells and what a triage reads (its
/// states and permission). Strings are as the server sent them; views make
/// them safe.
#[derive(Debug, Clone)]
pub struct FindingRow<T> {
    /// The id, then the file path.
    text: Box<str>,
    id_len: u32,
    /// The line (0: none).
    line: u32,
    /// The rule as the table shows it ([`Issue::rule_label`]) and the
    /// repository's name: shared by the rows of a page.
    rule: Arc<str>,
    repository: Arc<str>,
    relevant_since: Stamp,
    created_at: Stamp,
    /// When the finding was first detected, when the list asked for it
    /// (`includeFirstDetectedAt`): what its open age counts from.
    first_detected: Stamp,
    /// When an ignore ends, if the finding is ignored with an expiry in its
    /// triage note ([`findings_requests::triage::expiry`]).
    expires: Stamp,
    severity: Code,
    state: Code,
    /// Where its exception request stands, when the server said
    /// ([`Issue::exception_state`]).
    exception: Code,
    triage_state: Code,
    triage_reason: Code,
    permission: Code,
    issue_type: Code,
    /// Its ticket or fix pull request, as the list flags it.
    pub acted: Acted,
    /// Values of those fields this build does not know, as sent (rare).
    unknown: Option<Box<[Unknown]>>,
    item: PhantomData<fn() -> T>,
}

impl<T: Finding> FindingRow<T> {
    pub fn new(item: &T) -> Self {
        Self::new_sharing(item, &mut Shared::default())
    }

    /// [`FindingRow::new`], the texts many rows repeat taken from `shared`.
    pub fn new_sharing(item: &T, shared: &mut Shared) -> Self {
        let Some(i) = item.finding() else {
            return Self::new_sharing(&T::from_issue(Issue::default()), shared);
        };
        let id = i.id();
        let path = i.file_path.as_deref().unwrap_or("");
        let mut unknown = Vec::new();
        let mut code = |field: u8, value: Option<&dyn Coded>| match value {
            None => 0,
            Some(v) => v.code().unwrap_or_else(|| {
                unknown.push((field, v.raw().into()));
                OTHER
            }),
        };
        let severity = code(0, i.severity.as_ref().map(|v| v as _));
        let state = code(1, i.aggregate_state.as_ref().map(|v| v as _));
        let exception_state = i.exception_state();
        let exception = code(2, exception_state.as_ref().map(|v| v as _));
        let triage_state = code(3, i.triage_state.as_ref().map(|v| v as _));
        let triage_reason = code(4, i.triage_reason.as_ref().map(|v| v as _));
        let permission = code(5, i.triage_permission.as_ref().map(|v| v as _));
        let issue_type = code(6, i.issue_type.as_ref().map(|v| v as _));
        FindingRow {
            text: [id, path].concat().into(),
            // An id is a short server string; saturating else (its text is cut short).
            id_len: u32::try_from(id.len()).unwrap_or(u32::MAX),
            line: i.line.and_then(|l| u32::try_from(l).ok()).unwrap_or(0),
            rule: shared.get(&i.rule_label()),
            repository: shared.get(i.repository_name()),
            relevant_since: Stamp::of(i.relevant_since),
            created_at: Stamp::of(i.created_at),
            first_detected: Stamp::of(i.first_detected_at),
            expires: Stamp::of(
                Some(i)
                    .filter(|i| {
                        expiry::is_ignored(i.triage_state.as_ref(), i.aggregate_state.as_ref())
                    })
                    .and_then(expiry::expiry_of),
            ),
            severity,
            state,
            exception,
            triage_state,
            triage_reason,
            permission,
            issue_type,
            acted: Acted::of(i),
            unknown: (!unknown.is_empty()).then(|| unknown.into_boxed_slice()),
            item: PhantomData,
        }
    }

    /// Takes what a fresh fetch said of the finding's exception request and
    /// ticket or pull request (the list keeps what it learned so) where the
    /// list's item said nothing of them.
    pub fn learn(&mut self, exception: Option<&ExceptionState>, acted: Acted) {
        if self.exception == 0
            && let Some(code) = exception.and_then(Coded::code)
        {
            self.exception = code;
        }
        if self.acted == Acted::Nothing {
            self.acted = acted;
        }
    }

    /// What the row knows of its finding: enough to open it (the detail
    /// fetches the rest by id) and to triage it, but not its link, message
    /// or anything else the table does not show.
    pub fn summary(&self) -> T {
        let rule = (!self.rule.is_empty()).then(|| self.rule.to_string());
        let repository = (!self.repository.is_empty()).then(|| Repository {
            name: Some(self.repository.to_string()),
            ..Repository::default()
        });
        let text = |s: &str| (!s.is_empty()).then(|| s.to_owned());
        T::from_issue(Issue {
            id: text(self.id()),
            file_path: text(self.path()),
            line: (self.line > 0).then_some(i64::from(self.line)),
            rule_display_name: rule,
            repository,
            severity: self.severity(),
            aggregate_state: self.state(),
            triage_state: self.decode(3, self.triage_state),
            triage_reason: self.decode(4, self.triage_reason),
            triage_permission: self.decode(5, self.permission),
            issue_type: self.decode(6, self.issue_type),
            relevant_since: self.relevant_since(),
            created_at: self.created_at(),
            first_detected_at: self.first_detected(),
            ..Issue::default()
        })
    }
}

impl<T> FindingRow<T> {
    pub fn id(&self) -> &str {
        self.text.get(..self.id_len as usize).unwrap_or("")
    }

    pub fn path(&self) -> &str {
        self.text.get(self.id_len as usize..).unwrap_or("")
    }

    /// `path:line`, or just the path when there is no line.
    pub fn location(&self) -> String {
        match self.line {
            0 => self.path().to_owned(),
            line => format!("{}:{line}", self.path()),
        }
    }

    pub fn rule(&self) -> &str {
        &self.rule
    }

    pub fn repository(&self) -> &str {
        &self.repository
    }

    pub fn severity(&self) -> Option<Severity> {
        self.decode(0, self.severity)
    }

    pub fn state(&self) -> Option<AggregateState> {
        self.decode(1, self.state)
    }

    pub fn exception(&self) -> Option<ExceptionState> {
        self.decode(2, self.exception)
    }

    pub fn relevant_since(&self) -> Option<Timestamp> {
        self.relevant_since.get()
    }

    /// [`FindingRow::relevant_since`] in microseconds since 1970 (a sort
    /// key, read without making a time).
    pub fn relevant_since_micros(&self) -> Option<i64> {
        (self.relevant_since.0 != i64::MIN).then_some(self.relevant_since.0)
    }

    pub fn created_at(&self) -> Option<Timestamp> {
        self.created_at.get()
    }

    pub fn first_detected(&self) -> Option<Timestamp> {
        self.first_detected.get()
    }

    pub fn expires(&self) -> Option<Timestamp> {
        self.expires.get()
    }

    /// The severity's rank (0 most severe; none last), for sorting.
    pub fn severity_rank(&self) -> u8 {
        match self.severity {
            0 => u8::MAX,
            OTHER => 6,
            code => code,
        }
    }

    /// The aggregate state's code, for sorting (its declaration order).
    pub fn state_rank(&self) -> u8 {
        self.state
    }

    fn decode<E: Coded + Sized>(&self, field: u8, code: Code) -> Option<E> {
        match code {
            0 => None,
            OTHER => self
                .unknown
                .iter()
                .flat_map(|u| u.iter())
                .find(|(f, _)| *f == field)
                .map(|(_, raw)| E::from_raw(raw)),
            code => E::from_code(code),
        }
    }

    /// Bytes held on the heap for this row (for the memory bench; the
    /// shared texts are counted once per page in [`Shared`]).
    pub fn heap_bytes(&self) -> usize {
        self.text.len()
            + self
                .unknown
                .as_ref()
                .map_or(0, |u| u.iter().map(|(_, r)| r.len() + 24).sum())
    }
}

/// A field's value unknown to this build: the field's number, the value as
/// sent.
type Unknown = (u8, Box<str>);

/// A wire enum's value as one byte: 0 none, 1.. its known values in
/// declaration order, [`OTHER`] one this build does not know (kept apart).
type Code = u8;
const OTHER: Code = u8::MAX;

/// The wire enums a row keeps as a [`Code`].
pub trait Coded {
    /// The code of a known value (`None`: unknown to this build).
    fn code(&self) -> Option<Code>;
    /// The value as sent.
    fn raw(&self) -> &str;
    fn from_code(code: Code) -> Option<Self>
    where
        Self: Sized;
    fn from_raw(raw: &str) -> Self
    where
        Self: Sized;
}

macro_rules! coded {
    ($($e:ty),*) => {$(
        impl Coded for $e {
            fn code(&self) -> Option<Code> {
                let k = <$e>::ALL.iter().position(|v| v == self)?;
                Code::try_from(k + 1).ok()
            }
            fn raw(&self) -> &str {
                self.as_wire()
            }
            fn from_code(code: Code) -> Option<Self> {
                <$e>::ALL.get(usize::from(code).checked_sub(1)?).cloned()
            }
            fn from_raw(raw: &str) -> Self {
                <$e>::from_wire(raw)
            }
        }
    )*};
}

coded!(
    Severity,
    AggregateState,
    ExceptionState,
    TriageState,
    TriageReason,
    TriagePermission,
    IssueType
);

/// A time to the microsecond in 8 bytes (`i64::MIN`: none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Stamp(i64);

impl Stamp {
    fn of(t: Option<Timestamp>) -> Stamp {
        Stamp(t.map_or(i64::MIN, |t| t.timestamp_micros()))
    }

    fn get(self) -> Option<Timestamp> {
        if self.0 == i64::MIN {
            return None;
        }
        chrono::DateTime::from_timestamp_micros(self.0)
    }
}

/// The texts the rows of a page share (rules, repositories): each kept
/// once.
#[derive(Debug, Default)]
pub struct Shared(HashMap<Box<str>, Arc<str>>);

impl Shared {
    fn get(&mut self, text: &str) -> Arc<str> {
        if let Some(shared) = self.0.get(text) {
            return shared.clone();
        }
        let shared: Arc<str> = text.into();
        self.0.insert(text.into(), shared.clone());
        shared
    }
}

/// A List issues page as the Issues pane keeps it.
#[derive(Debug, Clone, Default)]
pub struct RowPage {
    pub rows: Vec<FindingRow<IssueItem>>,
    /// The rows' search text, in order.
    pub search: SearchIndex,
    pub cursor: Option<String>,
    /// Each supply-chain rule of the page with the name its rows show
    /// (`CVE-2021-44906 minimist`): what names a group of that rule, whose
    /// answer has only the rule's id.
    pub rule_labels: Vec<(String, String)>,
    /// Held while the page waits to be taken: a stream asks for no more
    /// pages than it holds credits (the worker's `stream_rows`).
    pub credit: Option<std::sync::Arc<tokio::sync::OwnedSemaphorePermit>>,
}

/// Notes `issue`'s rule and its label when a supply-chain finding names
/// its advisory and package (the rule's id is opaque), once a page.
pub fn note_rule_label(labels: &mut Vec<(String, String)>, issue: Option<&findings_model::Issue>) {
    let Some(issue) = issue else { return };
    let Some(rule) = issue.rule_id.as_deref().filter(|r| !r.is_empty()) else {
        return;
    };
    let named = issue
        .sca_attributes
        .as_ref()
        .is_some_and(|s| s.vuln_database_identifier.is_some());
    if named && !labels.iter().any(|(r, _)| r == rule) {
        labels.push((rule.to_owned(), issue.rule_label()));
    }
}

impl From<ListIssuesResponse> for RowPage {
    fn from(page: ListIssuesResponse) -> Self {
        let mut search = SearchIndex::default();
        let mut shared = Shared::default();
        let mut rows = Vec::with_capacity(page.issues.len());
        let mut rule_labels = Vec::new();
        for item in &page.issues {
            search.push(item.issue.as_ref());
            note_rule_label(&mut rule_labels, item.issue.as_ref());
            rows.push(FindingRow::new_sharing(item, &mut shared));
        }
        RowPage {
            rows,
            search,
            cursor: page.cursor,
            rule_labels,
            credit: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn samples() -> Vec<IssueItem> {
        serde_json::from_str(include_str!("../../../../assets/pack-samples.json")).unwrap()
    }

    #[test]
    fn a_row_keeps_what_the_table_and_a_triage_read_in_little_room() {
        for item in samples() {
            let row = FindingRow::new(&item);
            let issue = item.issue.as_ref().unwrap();
            assert_eq!(row.id(), issue.id());
            assert_eq!(row.location(), issue.location());
            assert_eq!(row.severity(), issue.severity);
            assert_eq!(row.state(), issue.aggregate_state);
            assert_eq!(row.rule(), issue.rule_label());
            assert_eq!(row.repository(), issue.repository_name());
            assert_eq!(row.relevant_since(), issue.relevant_since);
            let summary = row.summary().issue.unwrap();
            assert_eq!(
                findings_requests::triage::Target::finding(&summary).note_unread(),
                findings_requests::triage::Target::finding(issue).note_unread(),
                "a triage of the row is the triage of the finding"
            );
            assert_eq!(summary.issue_type, issue.issue_type);
            assert_eq!(summary.line_of_code_url, None, "fetched when wanted");
        }
        assert!(size_of::<FindingRow<IssueItem>>() <= 112);
    }

    #[test]
    fn values_this_build_does_not_know_are_kept_as_sent() {
        let issue = Issue {
            id: Some("7".into()),
            severity: Some(Severity::Other("SEVERITY_CATASTROPHIC".into())),
            triage_state: Some(TriageState::Other("FINDING_TRIAGE_STATE_NEW".into())),
            aggregate_state: Some(AggregateState::ALL[0].clone()),
            ..Issue::default()
        };
        let row = FindingRow::new(&issue);
        assert_eq!(row.severity(), issue.severity);
        assert_eq!(row.state(), issue.aggregate_state);
        assert_eq!(row.summary().triage_state, issue.triage_state);
        assert_eq!(row.severity_rank(), 6);
    }

    #[test]
    fn rows_of_a_page_share_their_repeated_texts() {
        let items: Vec<IssueItem> = samples().into_iter().cycle().take(40).collect();
        let page = RowPage::from(ListIssuesResponse {
            issues: items,
            ..Default::default()
        });
        let a = &page.rows[0];
        let b = page
            .rows
            .iter()
            .skip(1)
            .find(|r| r.repository() == a.repository())
            .unwrap();
        assert!(Arc::ptr_eq(&a.repository, &b.repository));
        assert_eq!(page.search.len(), 40);
    }

    #[test]
    fn a_finding_without_an_issue_has_empty_cells() {
        let row = FindingRow::new(&IssueItem::default());
        assert_eq!(row.id(), "");
        assert!(row.severity().is_none());
        assert_eq!(row.location(), "");
    }

    #[test]
    fn a_row_says_where_its_exception_request_stands() {
        use findings_model::{ActivityEvent, ExceptionRequest, HistoryType};
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
            FindingRow::new(&issue).exception(),
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
        assert_eq!(FindingRow::new(&Issue::default()).exception(), None);
    }
}
