//! The app's side of the Act menu: the findings `A` acts on (the open
//! detail's finding, else the pane's marked rows or selected one), the
//! keys while it is open; its replies come back through `Owner::Actions`.

use super::App;
use crate::api::model::Issue;
use crate::tui::message::{ExportItems, Owner};
use crossterm::event::KeyEvent;

impl App {
    /// The findings here, whole (type, autotriage, ticket: what the menu
    /// checks before anything is sent).
    fn action_issues(&self) -> Vec<Issue> {
        if let Some(detail) = &self.detail {
            return detail
                .best_issue(&self.enriched)
                .filter(|i| !i.id().is_empty())
                .cloned()
                .into_iter()
                .collect();
        }
        let Some(findings) = self.current().findings() else {
            return Vec::new();
        };
        let issues: Vec<Issue> = if findings.marked() > 0 {
            match findings.export_items() {
                ExportItems::Issues(items) => items.into_iter().filter_map(|i| i.issue).collect(),
                ExportItems::Findings(list) => list,
            }
        } else {
            findings.selected_issue().into_iter().collect()
        };
        issues.into_iter().filter(|i| !i.id().is_empty()).collect()
    }

    /// `A`.
    pub(super) fn open_actions(&mut self) {
        let issues = self.action_issues();
        if issues.is_empty() {
            self.status = Some("nothing to act on here: select a finding".into());
            return;
        }
        let filter = if self.detail.is_none() {
            self.current().filter_scope().cloned()
        } else {
            None
        };
        self.outbox.act_for(Owner::Actions);
        self.actions.open(issues, filter, &mut self.outbox);
    }

    /// A key while the Act menu, a form, the review or the result is open.
    pub(super) fn on_actions_key(&mut self, key: KeyEvent) {
        self.outbox.act_for(Owner::Actions);
        self.actions.on_key(key, &mut self.outbox);
    }
}
