//! What the finding lists (Issues, Report) share: marks, "new since the
//! last visit", the keys every list answers the same way, and what export
//! and copy read of a list. Each pane keeps its own `PagedList` of packed
//! rows and hands it here.

use crate::api::model::{Issue, IssueItem, Timestamp};
use crate::handoff::{ClipboardText, SafeUrl};
use crate::tui::keymap::Action;
use crate::tui::list::load::PagedList;
use crate::tui::message::rows::{Finding, FindingRow};
use crate::tui::message::{AppEvent, ExportItems, Outbox};
use crate::tui::pane::FindingsSource;
use std::collections::HashSet;

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
/// `Esc` (stops a load), `o`, `y`, `Space` and `U` (clear the marks).
/// `rows` is how many rows the list shows.
pub fn on_list_key<T: Finding>(
    list: &mut PagedList<FindingRow<T>>,
    marks: &mut Marks,
    action: Action,
    rows: usize,
    outbox: &mut Outbox,
) -> ListKey {
    if list.navigate(action, rows) {
        return ListKey::Handled;
    }
    let issue = |list: &PagedList<FindingRow<T>>| {
        let item = list.selected_item()?.unpack()?;
        item.finding().cloned()
    };
    match action {
        Action::Open => {
            if let Some(issue) = issue(list) {
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
        Action::OpenInBrowser => open_url(outbox, issue(list).as_ref()),
        Action::Copy => copy_link(outbox, issue(list).as_ref()),
        Action::Mark => {
            if let Some(row) = list.selected_item() {
                match marks.toggle(&row.id) {
                    Ok(_) => list.move_by(1),
                    Err(e) => outbox.status(e),
                }
            }
        }
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
                outbox
                    .effects
                    .push(crate::tui::message::Effect::OpenUrl(url));
            }
            Err(why) => outbox.status(format!("the finding's link is not opened: {why}")),
        },
        None => outbox.status("this finding has no line-of-code URL"),
    }
}

/// The status line while `url` opens.
pub fn opening(url: &str) -> String {
    format!("opening {}", crate::text::one_line(url))
}

/// The status line once `url` opened, or did not: the message of the
/// opening is replaced (if it is still there), a failure always shows.
pub fn opened(status: &mut Option<String>, url: &str, result: Result<(), String>) {
    match result {
        Ok(()) if status.as_deref() == Some(opening(url).as_str()) => {
            *status = Some(format!("opened {}", crate::text::one_line(url)));
        }
        Ok(()) => {}
        // The reason first: a long URL is what the status line cuts.
        Err(why) => {
            *status = Some(format!(
                "cannot open the link: {} · {}",
                crate::text::one_line(&why),
                crate::text::one_line(url)
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
    outbox.effects.push(crate::tui::message::Effect::Copy(text));
}

/// How a list's items become export items.
pub trait Exportable: Finding + Sized {
    fn export(items: Vec<Self>) -> ExportItems;
}

impl Exportable for IssueItem {
    fn export(items: Vec<Self>) -> ExportItems {
        ExportItems::Issues(items)
    }
}

impl Exportable for Issue {
    fn export(items: Vec<Self>) -> ExportItems {
        ExportItems::Findings(items)
    }
}

/// A findings list and its marks, as export and copy read them.
pub struct Findings<'a, T> {
    pub list: &'a PagedList<FindingRow<T>>,
    pub marks: &'a Marks,
}

impl<'a, T: Exportable + 'a> Findings<'a, T> {
    pub fn boxed(
        list: &'a PagedList<FindingRow<T>>,
        marks: &'a Marks,
    ) -> Box<dyn FindingsSource + 'a> {
        Box::new(Findings { list, marks })
    }
}

impl<T: Exportable> FindingsSource for Findings<'_, T> {
    fn marked(&self) -> usize {
        self.marks.len()
    }

    fn shown(&self) -> usize {
        self.list.len()
    }

    fn selected_issue(&self) -> Option<Issue> {
        self.list.selected_item()?.unpack()?.finding().cloned()
    }

    fn export_items(&self) -> ExportItems {
        let items = if self.marks.is_empty() {
            (0..self.list.len())
                .filter_map(|r| self.list.row(r)?.unpack())
                .collect()
        } else {
            self.list
                .items
                .iter()
                .filter(|row| self.marks.contains(&row.id))
                .filter_map(FindingRow::unpack)
                .collect()
        };
        T::export(items)
    }

    fn selected_items(&self) -> ExportItems {
        T::export(
            self.list
                .selected_item()
                .and_then(FindingRow::unpack)
                .into_iter()
                .collect(),
        )
    }
}
