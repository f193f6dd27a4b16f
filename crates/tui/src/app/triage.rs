//! The app's side of triage: what `T`, `u`, `:triage` and `:triage-all`
//! apply to, the keys while the dialog is open, the replies, and what a
//! triage changed going to every pane and the detail.

use super::App;
use crate::detail::Enriched;
use crate::message::{Changed, Owner};
use crate::triage::plan::{Matched, Scope};
use crossterm::event::KeyEvent;
use findings_requests::triage::Target;

impl App {
    /// What a triage here applies to: the open finding detail's finding,
    /// else the pane's marked rows or selected one.
    fn triage_targets(&self) -> Option<Vec<Target>> {
        match &self.detail {
            Some(detail) => detail
                .best_issue(&self.enriched)
                .filter(|i| !i.id().is_empty())
                .map(|i| vec![Target::finding(i).note_unread()]),
            None => self.current().triage_targets(),
        }
    }

    /// `T`.
    pub(super) fn open_triage(&mut self) {
        let Some(targets) = self.triage_targets() else {
            self.status = Some("nothing to triage here: select a finding".into());
            return;
        };
        self.outbox.act_for(Owner::Triage);
        self.triage.open(Scope::Ids(targets), &mut self.outbox);
    }

    /// `u`.
    pub(super) fn undo_triage(&mut self) {
        self.outbox.act_for(Owner::Triage);
        self.triage.undo(&mut self.outbox);
    }

    /// `:undo-list`.
    pub(super) fn triage_history(&mut self) {
        self.triage.show_history();
    }

    /// `:triage STATE [REASON] [NOTE...]` (`all`: `:triage-all`, over the
    /// marked rows, else the rows a `/` filter shows, else the Issues
    /// pane's server-side filter).
    pub(super) fn triage_command(&mut self, words: &str, all: bool) -> Result<(), String> {
        let seen = all
            .then(|| {
                self.detail
                    .is_none()
                    .then(|| self.current().triage_all_targets())
            })
            .flatten()
            .flatten();
        let scope = if let Some(targets) = seen {
            Scope::Ids(targets?)
        } else if all {
            // The filter of the pane on show, else of the first that has one.
            let selection = self
                .current()
                .filter_scope()
                .or_else(|| self.panes().find_map(|p| p.filter_scope()))
                .ok_or("nothing to triage by filter here")?;
            Scope::Filter {
                filter: Box::new(selection.filter.clone()),
                issue_types: selection.issue_types.clone(),
                matched: Matched::Listing(None),
            }
        } else {
            Scope::Ids(
                self.triage_targets()
                    .ok_or("nothing to triage here: select a finding")?,
            )
        };
        self.outbox.act_for(Owner::Triage);
        self.triage.open_with(scope, words, &mut self.outbox)
    }

    /// A key while the triage dialog or review is open.
    pub(super) fn on_triage_key(&mut self, key: KeyEvent) {
        self.outbox.act_for(Owner::Triage);
        // The review's end, from its lines and the body's geometry.
        let body = self.geometry.screen.body;
        self.triage.bound = crate::triage::content::shown(body, &self.triage, &self.theme)
            .map(|(_, d)| d.bound(body))
            .unwrap_or_default();
        self.triage.on_key(key, self.now, &mut self.outbox);
    }

    /// What a triage changed: every pane takes it, and the finding detail
    /// fetches its finding again (state, activity).
    pub(super) fn on_changed(&mut self, change: Changed) {
        let ids: Vec<super::PaneId> = self.panes().map(|p| p.id()).collect();
        for id in ids {
            self.with_pane(id, |p, cx| p.changed(&change, cx));
        }
        match &change {
            Changed::Findings(fresh) => {
                for item in fresh {
                    let Some(issue) = &item.issue else { continue };
                    self.enriched.remove(issue.id());
                    if let Some(detail) =
                        self.detail.as_mut().filter(|d| d.issue.id() == issue.id())
                    {
                        detail.issue = issue.clone();
                        detail.refetch(&mut self.enriched);
                    }
                }
            }
            Changed::FindingsReload => {
                self.enriched
                    .retain(|_, e| matches!(e, Enriched::Failed(_)));
                if let Some(detail) = &mut self.detail {
                    detail.refetch(&mut self.enriched);
                }
            }
            _ => {}
        }
    }
}
