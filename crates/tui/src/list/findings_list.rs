//! What the finding lists (Issues, Report) share: marks, "new since the
//! last visit", the keys every list answers the same way, and what export
//! and copy read of a list. Each pane keeps its own `PagedList` of packed
//! rows and hands it here.

use crate::keymap::Action;
use crate::list::load::PagedList;
use crate::message::rows::{Finding, FindingRow};
use crate::message::{ApiRequest, AppEvent, ExportItems, Fetch, Outbox, Then};
use crate::pane::FindingsSource;
use findings_base::handoff::{ClipboardText, SafeUrl};
use findings_export::Needs;
use findings_model::{Issue, IssueItem, ListIssuesRequest, MAX_PAGE_SIZE, Timestamp};
use std::collections::HashSet;
use std::sync::Arc;

/// The finding ids marked on a pane (`Space`).
#[derive(Debug, Clone, Default)]
pub struct Marks {
    ids: HashSet<String>,
}

impl Marks {
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    pub fn contains(&self, id: &str) -> bool {
        self.ids.contains(id)
    }

    pub fn clear(&mut self) {
        self.ids.clear();
    }

    /// Unmarks these findings (their marks were spent on a triage).
    pub fn unmark(&mut self, ids: &[String]) {
        for id in ids {
            self.ids.remove(id);
        }
    }

    /// Marks or unmarks the finding `id`; `Err` when it has no id to mark
    /// it by.
    pub fn toggle(&mut self, id: &str) -> Result<bool, String> {
        if id.is_empty() {
            return Err("this finding has no id; it cannot be marked".into());
        }
        if self.ids.remove(id) {
            Ok(false)
        } else {
            self.ids.insert(id.to_owned());
            Ok(true)
        }
    }

    /// Marks every row `list` shows (under a `/` filter, the rows it
    /// shows); says how many, and when more rows are still loading.
    pub fn mark_shown<T>(&mut self, list: &PagedList<FindingRow<T>>) -> String {
        let count = |n: usize| findings_base::text::thousands_of(n);
        let shown: Vec<&str> = (0..list.len())
            .filter_map(|r| list.row(r))
            .map(FindingRow::id)
            .filter(|id| !id.is_empty())
            .collect();
        let added = shown
            .iter()
            .filter(|id| self.ids.insert((**id).to_owned()))
            .count();
        let rows = |n: usize| if n == 1 { "row" } else { "rows" };
        let mut said = match (shown.len(), added) {
            (0, _) => "no row is shown to mark".to_owned(),
            (n, 0) => format!("the {} shown {} were marked already", count(n), rows(n)),
            (n, a) if a == n => format!("{} shown {} marked", count(n), rows(n)),
            (n, a) => format!("{} more of the {} shown rows marked", count(a), count(n)),
        };
        if !shown.is_empty() {
            said.push_str(&format!(" ({} marked in all)", count(self.len())));
        }
        if list.loader.is_loading() {
            said.push_str("; more rows are loading: mark again once they are in");
        }
        said
    }
}

/// "New since the last visit" on a findings pane: the last visit, how many
/// loaded findings came after it, and when the list on show was asked for
/// (the visit to record).
#[derive(Debug, Clone, Default)]
pub struct NewSince {
    /// The last visit under this profile (none on a first visit).
    pub last_visit: Option<Timestamp>,
    /// How many loaded findings are new.
    pub count: usize,
    /// When the list on show was asked for.
    pub listed_at: Option<Timestamp>,
}

impl NewSince {
    pub fn new(last_visit: Option<Timestamp>) -> Self {
        NewSince {
            last_visit,
            ..NewSince::default()
        }
    }

    /// The list is asked for anew at `now`.
    pub fn restart(&mut self, now: Timestamp) {
        self.listed_at = Some(now);
        self.count = 0;
    }

    /// Counts the new ones of a page: their `date` is after the last visit.
    pub fn count_page<T>(
        &mut self,
        rows: &[FindingRow<T>],
        date: fn(&FindingRow<T>) -> Option<Timestamp>,
    ) {
        let Some(last) = self.last_visit else { return };
        self.count += rows
            .iter()
            .filter(|r| date(r).is_some_and(|d| d > last))
            .count();
    }

    /// `n`: the start of the time range to ask for next, given the one in
    /// force. Only the findings new since the last visit, or all of them
    /// again; says which in the status line.
    pub fn toggle(&self, in_force: Option<Timestamp>, outbox: &mut Outbox) -> Option<Timestamp> {
        match self.last_visit {
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
}

/// What a key did to a findings list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListKey {
    /// Nothing more to do.
    Handled,
    /// Ask for the next page (`r` after a failure part-way).
    LoadNext,
    /// Ask for the list anew (`r`).
    Reload,
    /// Not a key every list answers alike: the pane's own.
    Unhandled,
}

/// The keys every findings list answers alike: moving, `Enter`, `r`,
/// `Esc` (stops a load), `o`, `y`, `Space`, `*` (mark the shown rows) and
/// `U` (clear the marks).
/// `rows` is how many rows the list shows.
pub fn on_list_key<T: Exportable>(
    list: &mut PagedList<FindingRow<T>>,
    marks: &mut Marks,
    action: Action,
    rows: usize,
    outbox: &mut Outbox,
) -> ListKey {
    if list.navigate(action, rows) {
        return ListKey::Handled;
    }
    // The link is not in the row: the finding is fetched for it.
    let fetch = |list: &PagedList<FindingRow<T>>, then: Then, outbox: &mut Outbox| {
        if let Some(row) = list.selected_item() {
            let fetch = Fetch::one(row.id(), T::ITEMS, then);
            outbox.events.push(AppEvent::Fetch(Box::new(fetch)));
        }
    };
    match action {
        Action::Open => {
            if let Some(row) = list.selected_item() {
                let issue = row.summary().finding().cloned().unwrap_or_default();
                outbox.events.push(AppEvent::OpenDetail(Box::new(issue)));
            }
        }
        Action::Refresh if list.retry_failed_page() => return ListKey::LoadNext,
        Action::Refresh => return ListKey::Reload,
        Action::Back => {
            if !list.stop(outbox) {
                return ListKey::Unhandled;
            }
        }
        Action::OpenInBrowser => fetch(list, Then::OpenUrl, outbox),
        Action::Copy => fetch(list, Then::CopyLink, outbox),
        Action::Mark => {
            if let Some(row) = list.selected_item() {
                match marks.toggle(row.id()) {
                    Ok(_marked_or_not) => list.move_by(1),
                    Err(e) => outbox.status(e),
                }
            }
        }
        Action::MarkShown => outbox.status(marks.mark_shown(list)),
        Action::ClearMarks => {
            let n = marks.len();
            marks.clear();
            outbox.status(match n {
                0 => "no row is marked".to_owned(),
                1 => "1 mark cleared".to_owned(),
                n => format!("{n} marks cleared"),
            });
        }
        _ => return ListKey::Unhandled,
    }
    ListKey::Handled
}

/// Opens the finding's line of code, if it is a web URL (it comes from the
/// server: it is checked and cleaned, and anything else is refused).
pub fn open_url(outbox: &mut Outbox, issue: Option<&Issue>) {
    match issue.and_then(|i| i.line_of_code_url.as_deref()) {
        Some(url) => match SafeUrl::parse(url) {
            Ok(url) => {
                outbox.status(opening(url.as_str()));
                outbox.effects.push(crate::message::Effect::OpenUrl(url));
            }
            Err(why) => outbox.status(format!("the finding's link is not opened: {why}")),
        },
        None => outbox.status("this finding has no line-of-code URL"),
    }
}

/// The status line while `url` opens.
pub fn opening(url: &str) -> String {
    format!("opening {}", findings_base::text::one_line(url))
}

/// The status line once `url` opened, or did not: the message of the
/// opening is replaced (if it is still there), a failure always shows.
pub fn opened(status: &mut Option<String>, url: &str, result: Result<(), String>) {
    match result {
        Ok(()) if status.as_deref() == Some(opening(url).as_str()) => {
            *status = Some(format!("opened {}", findings_base::text::one_line(url)));
        }
        Ok(()) => {}
        // The reason first: a long URL is what the status line cuts.
        Err(why) => {
            *status = Some(format!(
                "cannot open the link: {} · {}",
                findings_base::text::one_line(&why),
                findings_base::text::one_line(url)
            ));
        }
    }
}

/// Copies the finding's URL (checked and cleaned), or its id (cleaned)
/// when it has no usable URL.
pub fn copy_link(outbox: &mut Outbox, issue: Option<&Issue>) {
    let Some(issue) = issue else { return };
    let url = issue.line_of_code_url.as_deref().map(SafeUrl::parse);
    let text = match url {
        Some(Ok(url)) => ClipboardText::url(&url),
        _ => match ClipboardText::line(issue.id()) {
            Some(id) => id,
            None => return,
        },
    };
    outbox.status(format!("copied {text}"));
    outbox.effects.push(crate::message::Effect::Copy(text));
}

/// The most marked findings an export fetches one by one; more are
/// picked out of the listing again (pages of 1,000).
const FETCHED_ONE_BY_ONE: usize = 100;

/// How a list's items become export items.
pub trait Exportable: Finding + Sized {
    /// Whether the list holds List issues items (else report findings).
    const ITEMS: bool;
    fn export(items: Vec<Self>) -> ExportItems;
}

impl Exportable for IssueItem {
    const ITEMS: bool = true;
    fn export(items: Vec<Self>) -> ExportItems {
        ExportItems::Issues(items)
    }
}

impl Exportable for Issue {
    const ITEMS: bool = false;
    fn export(items: Vec<Self>) -> ExportItems {
        ExportItems::Findings(items)
    }
}

/// What an export of a list writes unless told otherwise: the list's
/// columns, and the targets and time its AGE column counts with.
#[derive(Debug, Clone, Default)]
pub struct ListColumns {
    /// By their names in the export catalog, in the list's order
    /// (`findings_table::export_columns`).
    pub names: Vec<&'static str>,
    pub targets: findings_model::SlaDays,
    /// The time the list counts ages to, when not now (`O` holds it).
    pub age_at: Option<Timestamp>,
}

/// A findings list and its marks, as export and copy read them.
pub struct Findings<'a, T> {
    pub list: &'a PagedList<FindingRow<T>>,
    pub marks: &'a Marks,
    pub columns: ListColumns,
    /// The List issues request the list was loaded with, when it was: an
    /// export of every row shown lists them again (pages of the largest
    /// size) rather than fetching them one by one.
    pub listing: Option<ListIssuesRequest>,
}

impl<'a, T: Exportable + 'a> Findings<'a, T> {
    pub fn boxed(
        list: &'a PagedList<FindingRow<T>>,
        marks: &'a Marks,
        columns: ListColumns,
    ) -> Box<dyn FindingsSource + 'a> {
        Box::new(Findings {
            list,
            marks,
            columns,
            listing: None,
        })
    }

    /// The marked rows, in list order (shown or not).
    fn marked_rows(&self) -> impl Iterator<Item = &FindingRow<T>> {
        self.list
            .items
            .iter()
            .filter(|row| self.marks.contains(row.id()))
    }

    fn shown_rows(&self) -> impl Iterator<Item = &FindingRow<T>> {
        (0..self.list.len()).filter_map(|r| self.list.row(r))
    }
}

impl<T: Exportable> FindingsSource for Findings<'_, T> {
    fn marked(&self) -> usize {
        self.marks.len()
    }

    fn export_columns(&self, now: Timestamp) -> findings_export::Chosen {
        let names: Vec<&str> = std::iter::once("id")
            .chain(self.columns.names.iter().copied())
            .collect();
        let context = findings_export::Context {
            now: Some(self.columns.age_at.unwrap_or(now)),
            targets: self.columns.targets,
        };
        match findings_export::catalog::parse_list(&names) {
            Ok(columns) => findings_export::Chosen::new(columns, context),
            Err(_) => findings_export::Chosen::preset("default", context),
        }
    }

    fn shown(&self) -> usize {
        self.list.len()
    }

    fn selected_issue(&self) -> Option<Issue> {
        self.list.selected_item()?.summary().finding().cloned()
    }

    fn marked_issues(&self) -> Vec<Issue> {
        self.marked_rows()
            .filter_map(|row| row.summary().finding().cloned())
            .collect()
    }

    fn locally_filtered(&self) -> bool {
        self.list.visible.is_some()
    }

    fn filtered_issues(&self) -> Option<Result<Vec<Issue>, String>> {
        self.list.visible.as_ref()?;
        if self.list.loader.is_loading() {
            return Some(Err(
                "the rows the / filter shows are still loading: wait for them (or mark some)"
                    .into(),
            ));
        }
        Some(Ok(self
            .shown_rows()
            .filter_map(|row| row.summary().finding().cloned())
            .collect()))
    }

    fn export_fetch(&self, then: Then) -> Option<Fetch> {
        let asked = match &then {
            Then::Export { columns, .. } => [Needs::FirstDetected, Needs::Activity]
                .into_iter()
                .filter(|n| columns.needs(*n))
                .collect(),
            _ => Vec::new(),
        };
        let needs = |n: Needs| asked.contains(&n);
        let fetch = |request, count| Fetch {
            request,
            one: None,
            items: T::ITEMS,
            count,
            then,
        };
        let ids = |rows: &mut dyn Iterator<Item = &FindingRow<T>>| -> Vec<String> {
            rows.map(|r| r.id().to_owned())
                .filter(|id| !id.is_empty())
                .collect()
        };
        let marked = !self.marks.is_empty();
        if marked && (self.listing.is_none() || self.marks.len() <= FETCHED_ONE_BY_ONE) {
            let ids = ids(&mut self.marked_rows());
            let count = ids.len();
            let request = ApiRequest::GetIssues {
                ids,
                items: T::ITEMS,
            };
            return (count > 0).then(|| fetch(request, count));
        }
        let count = if marked {
            self.marks.len()
        } else {
            self.list.len()
        };
        if count == 0 {
            return None;
        }
        if let Some(listing) = &self.listing {
            // Only the rows marked, or shown (under a local filter).
            let keep = if marked {
                Some(Arc::new(ids(&mut self.marked_rows()).into_iter().collect()))
            } else {
                self.list
                    .visible
                    .is_some()
                    .then(|| Arc::new(ids(&mut self.shown_rows()).into_iter().collect()))
            };
            let mut request = ListIssuesRequest {
                limit: Some(MAX_PAGE_SIZE),
                cursor: None,
                ..listing.clone()
            };
            // What the export's columns need of each finding, asked for.
            if needs(Needs::FirstDetected) {
                request.include_first_detected_at = Some(true);
            }
            if needs(Needs::Activity) {
                request.include_activity_history = Some(true);
            }
            let request = ApiRequest::Relist {
                request,
                keep,
                max: self.list.items.len(),
            };
            Some(fetch(request, count))
        } else {
            let request = ApiRequest::GetIssues {
                ids: ids(&mut self.shown_rows()),
                items: T::ITEMS,
            };
            Some(fetch(request, count))
        }
    }

    fn selected_fetch(&self, then: Then) -> Option<Fetch> {
        let row = self.list.selected_item()?;
        Some(Fetch::one(row.id(), T::ITEMS, then))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(n: usize) -> PagedList<FindingRow<IssueItem>> {
        let mut list = PagedList::default();
        let rows = (0..n)
            .map(|i| {
                FindingRow::new(&IssueItem::from_issue(Issue {
                    id: Some(format!("f{i}")),
                    ..Issue::default()
                }))
            })
            .collect();
        list.append(rows, None).unwrap();
        list
    }

    fn request_of(findings: &Findings<'_, IssueItem>) -> ApiRequest {
        findings.export_fetch(Then::CopyLink).unwrap().request
    }

    #[test]
    fn an_export_fetches_few_marked_rows_by_id_and_many_out_of_the_listing() {
        let list = list(300);
        let mut marks = Marks::default();
        let listing = Some(ListIssuesRequest::default());
        for i in 0..3 {
            marks.toggle(&format!("f{i}")).unwrap();
        }
        let findings = Findings {
            list: &list,
            marks: &marks,
            columns: ListColumns::default(),
            listing: listing.clone(),
        };
        assert!(
            matches!(request_of(&findings), ApiRequest::GetIssues { ids, items: true } if ids.len() == 3)
        );
        let mut many = Marks::default();
        for i in 0..150 {
            many.toggle(&format!("f{i}")).unwrap();
        }
        let findings = Findings {
            list: &list,
            marks: &many,
            columns: ListColumns::default(),
            listing: listing.clone(),
        };
        let ApiRequest::Relist { request, keep, max } = request_of(&findings) else {
            panic!("listed again")
        };
        assert_eq!((keep.unwrap().len(), max), (150, 300));
        assert_eq!(request.limit, Some(MAX_PAGE_SIZE));
        // Nothing marked, no local filter: the first 300 of the listing.
        let none = Marks::default();
        let findings = Findings {
            list: &list,
            marks: &none,
            columns: ListColumns::default(),
            listing,
        };
        assert!(matches!(
            request_of(&findings),
            ApiRequest::Relist {
                keep: None,
                max: 300,
                ..
            }
        ));
        // Listed again for an export, with what its columns need.
        let export = |list: &str| {
            let columns = findings_export::Chosen::new(
                findings_export::catalog::parse(list).unwrap(),
                findings_export::Context::default(),
            );
            let then = Then::Export {
                path: "x.csv".into(),
                format: findings_export::Format::Csv,
                columns,
            };
            match findings.export_fetch(then).unwrap().request {
                ApiRequest::Relist { request, .. } => (
                    request.include_first_detected_at,
                    request.include_activity_history,
                ),
                other => panic!("{other:?}"),
            }
        };
        assert_eq!(export("default"), (None, None));
        assert_eq!(export("id,age"), (Some(true), None));
        assert_eq!(export("fixed_at"), (None, Some(true)));
    }
}
