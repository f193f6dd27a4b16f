//! "Since last visit" (`N`, `:since`): what changed in the findings the
//! filter matches since the last session with this profile and filter,
//! by the categories of `findings diff` (new, fixed, gone, reopened,
//! triaged, retriaged, severity). The comparison runs in the worker when
//! the pane first shows and its count is known (by itself up to
//! [`AUTO_MAX`] findings; above, and for another filter, when asked); its
//! counts go in the list's title; the view lists the categories, `Enter`
//! narrows to one (its findings, what each was and is), `Enter` again opens
//! a finding. When the app ends, this visit becomes the last one.

use crate::keymap::Action;
use crate::list::load::PagedList;
use crate::message::since::SinceReport;
use crate::message::{ApiRequest, ApiResponse, ApiResult, AppEvent, Outbox, RequestId};
use findings_model::{Issue, ListIssuesRequest, ListSelection, Repository, Timestamp};
use findings_snapshot::BaselineFiles;
use findings_snapshot::{Category, Change};
use std::path::PathBuf;

/// Up to this many findings, the first filter of a session is compared
/// with the last visit by itself (every finding is listed for it, with
/// its activity); above, only when asked (`N`, `r`).
pub const AUTO_MAX: i64 = 100_000;

/// Where the last visits are kept: the state folder and the profile's key.
pub type KeptIn = Option<(PathBuf, String)>;

#[derive(Debug, Default)]
pub struct Since {
    /// The view is on show (else the findings).
    pub shown: bool,
    kept_in: KeptIn,
    /// The selection compared (or being compared), and the request.
    of: Option<ListSelection>,
    pending: Option<RequestId>,
    pub report: Option<SinceReport>,
    pub error: Option<String>,
    /// The categories (every one, counted or not) and, once one is chosen,
    /// its changes.
    pub categories: PagedList<Category>,
    pub changes: Option<(Category, PagedList<Change>)>,
    /// The snapshots this session kept, to become the last visits.
    kept: Vec<BaselineFiles>,
    /// The first filter is compared once its count is known (and small
    /// enough: [`AUTO_MAX`]).
    pub auto: bool,
}

impl Since {
    pub fn new(kept_in: KeptIn) -> Since {
        let mut categories = PagedList::default();
        let _ = categories.append(Category::ALL.to_vec(), None);
        Since {
            kept_in,
            categories,
            ..Since::default()
        }
    }

    /// Whether last visits are kept at all (not in a run without a state
    /// folder).
    pub fn is_kept(&self) -> bool {
        self.kept_in.is_some()
    }

    pub fn is_loading(&self) -> bool {
        self.pending.is_some()
    }

    /// The report, when it is of `selection`.
    pub fn report_for(&self, selection: &ListSelection) -> Option<&SinceReport> {
        self.report
            .as_ref()
            .filter(|_| self.of.as_ref() == Some(selection))
    }

    /// Compares `request` (the list's, of `selection`) with the last visit,
    /// unless that is done or under way.
    pub fn ask(
        &mut self,
        selection: &ListSelection,
        request: ListIssuesRequest,
        again: bool,
        now: Timestamp,
        outbox: &mut Outbox,
    ) {
        let Some((dir, profile)) = &self.kept_in else {
            return;
        };
        if self.of.as_ref() == Some(selection)
            && !again
            && (self.pending.is_some() || self.report.is_some())
        {
            return;
        }
        let files = BaselineFiles::of(dir, profile, &request);
        outbox.cancel(self.pending.take());
        self.of = Some(selection.clone());
        self.report = None;
        self.error = None;
        self.changes = None;
        let sent = outbox.in_slot(super::Slot::Since, |o| {
            o.send(ApiRequest::SinceLastVisit {
                request,
                files,
                now,
            })
        });
        self.pending = sent;
    }

    pub fn on_reply(&mut self, id: RequestId, result: ApiResult, outbox: &mut Outbox) {
        if self.pending != Some(id) {
            return;
        }
        self.pending = None;
        match result {
            Ok(ApiResponse::Since(report)) => {
                if let Some(files) = &report.files
                    && !self.kept.contains(files)
                {
                    self.kept.push(files.clone());
                }
                for note in &report.notes {
                    outbox.status(format!("since last visit: {note}"));
                }
                self.report = Some(*report);
            }
            Ok(other) => self.error = Some(other.unexpected().to_string()),
            Err(e) => {
                outbox.status(format!("since last visit: {e}"));
                self.error = Some(e.to_string());
            }
        }
    }

    /// The snapshots to make the last visits when the app ends.
    pub fn kept(&self) -> &[BaselineFiles] {
        &self.kept
    }

    /// A key while the view shows; false: leave it.
    pub fn on_action(&mut self, action: Action, rows: usize, outbox: &mut Outbox) -> bool {
        if let Some((_, list)) = &mut self.changes {
            if list.navigate(action, rows) {
                return true;
            }
            match action {
                Action::Open => {
                    if let Some(change) = list.selected_item() {
                        outbox
                            .events
                            .push(AppEvent::OpenDetail(Box::new(finding_of(change))));
                    }
                }
                Action::Back => self.changes = None,
                Action::SinceLastVisit => return false,
                _ => {}
            }
            return true;
        }
        if self.categories.navigate(action, rows) {
            return true;
        }
        match action {
            Action::Open => self.narrow(outbox),
            Action::Back | Action::SinceLastVisit => return false,
            _ => {}
        }
        true
    }

    /// `Enter` on a category: its changes.
    fn narrow(&mut self, outbox: &mut Outbox) {
        let Some(&category) = self.categories.selected_item() else {
            return;
        };
        let Some(report) = &self.report else {
            return outbox.status(if self.pending.is_some() {
                "still comparing with the last visit"
            } else {
                "nothing to compare with yet"
            });
        };
        let count = report.count(category);
        if count == 0 {
            return outbox.status(format!("no finding is {}", category.name()));
        }
        // The most severe first (then as found).
        let mut changes: Vec<Change> = report.of(category).cloned().collect();
        changes.sort_by_key(|c| severity_rank(c.severity.as_deref()));
        let mut list = PagedList::default();
        let _ = list.append(changes, None);
        self.changes = Some((category, list));
    }
}

/// A severity label's rank: critical first, none last.
fn severity_rank(label: Option<&str>) -> u8 {
    label
        .and_then(findings_model::Severity::parse_known)
        .map_or(u8::MAX, |s| s.rank())
}

impl super::IssuesPane {
    /// Compares the filter's findings with the last visit (once per
    /// filter unless `again`).
    pub(super) fn compare_with_last_visit(&mut self, again: bool, cx: &mut crate::pane::Cx) {
        let request = self.request(None);
        self.since
            .ask(&self.selection, request, again, cx.now, cx.outbox);
    }

    /// Once the filter's count is known on a session's first show: the
    /// comparison, by itself when the set is small enough.
    pub(super) fn compare_when_counted(&mut self, cx: &mut crate::pane::Cx) {
        if !self.since.auto || !self.since.is_kept() {
            return;
        }
        let Some(listed) = self.counts.known_for(&self.selection).map(|c| c.listed()) else {
            return;
        };
        self.since.auto = false;
        if listed <= AUTO_MAX {
            self.compare_with_last_visit(false, cx);
        }
    }

    /// `N`, `:since`: the view, compared for the filter in force (at
    /// once, whatever its size: asked for).
    pub(super) fn show_since(&mut self, cx: &mut crate::pane::Cx) {
        if !self.since.is_kept() {
            return cx
                .outbox
                .status("last visits are not kept in this run (no state folder)");
        }
        self.since.shown = true;
        self.compare_with_last_visit(false, cx);
    }

    /// The snapshots this session kept, to become the last visits when
    /// the app ends.
    pub fn kept_visits(&self) -> &[findings_snapshot::BaselineFiles] {
        self.since.kept()
    }
}

/// What a category means, as the view says it.
pub fn meaning(category: Category) -> &'static str {
    match category {
        Category::New => "match the filter now, not at the last visit",
        Category::Fixed => "fixed or removed since",
        Category::Gone => "matched the filter then, not now",
        Category::Reopened => "open again: closed then, or triaged reopened since",
        Category::Triaged => "untriaged then, triaged now",
        Category::Retriaged => "triaged then, triaged again since",
        Category::Untriaged => "triaged then, untriaged now (undone or cleared)",
        Category::Severity => "rescored: another severity",
        Category::Ticket => "a ticket linked, unlinked or replaced since",
    }
}

/// The finding of a change, as much as the detail needs to fetch it.
fn finding_of(change: &Change) -> Issue {
    Issue {
        id: Some(change.id.clone()),
        rule_display_name: change.rule.clone(),
        file_path: change.path.clone(),
        repository: change.repo.clone().map(|name| Repository {
            name: Some(name),
            ..Repository::default()
        }),
        ..Issue::default()
    }
}

/// The counts for a title: `12 new · 5 fixed · 2 reopened`, the categories
/// with none left out; `no change` when nothing changed.
pub fn summary(report: &SinceReport) -> String {
    if report.last_visit.is_none() {
        return "first visit with this filter".to_owned();
    }
    let parts: Vec<String> = Category::ALL
        .iter()
        .filter(|c| report.count(**c) > 0)
        .map(|c| {
            format!(
                "{} {}",
                findings_base::text::thousands_of(report.count(*c)),
                c.name()
            )
        })
        .collect();
    if parts.is_empty() {
        "no change".to_owned()
    } else {
        parts.join(" · ")
    }
}
