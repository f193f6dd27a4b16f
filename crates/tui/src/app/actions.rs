//! The app's side of the Act menu: the findings `A` acts on (the open
//! detail's finding, else the pane's marked rows or selected one), the
//! keys while it is open; its replies come back through `Owner::Actions`.

use super::App;
use crate::message::{Owner, Then};
use crossterm::event::KeyEvent;
use findings_model::Issue;

impl App {
    /// `A`: the Act menu on the open detail's finding, else on the pane's
    /// marked rows or selected one, fetched whole first (a row keeps only
    /// what its table shows; the menu checks type, verdict and ticket).
    pub(super) fn open_actions(&mut self) {
        if let Some(detail) = &self.detail {
            let issues: Vec<Issue> = detail
                .best_issue(&self.enriched)
                .filter(|i| !i.id().is_empty())
                .cloned()
                .into_iter()
                .collect();
            return self.open_actions_on(issues);
        }
        let fetch = self.current().findings().and_then(|findings| {
            if findings.marked() > 0 {
                findings.export_fetch(Then::Act)
            } else {
                findings.selected_fetch(Then::Act)
            }
        });
        match fetch {
            Some(fetch) => self.start_fetch(fetch),
            None => self.status = Some("nothing to act on here: select a finding".into()),
        }
    }

    /// The Act menu on `issues`, fetched whole.
    pub(super) fn open_actions_on(&mut self, issues: Vec<Issue>) {
        let issues: Vec<Issue> = issues.into_iter().filter(|i| !i.id().is_empty()).collect();
        if issues.is_empty() {
            self.status = Some("nothing to act on here: select a finding".into());
            return;
        }
        // Tickets by the server-side filter are not offered under a `/`
        // filter: they would reach findings it hides (`*` marks its rows).
        let local = self
            .current()
            .findings()
            .is_some_and(|f| f.locally_filtered());
        let filter = if self.detail.is_none() && !local {
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
        // The review's end, from its lines and the body's geometry.
        let body = self.geometry.screen.body;
        self.actions.bound = crate::actions::content::shown(body, &self.actions, &self.theme)
            .map(|(_, d)| d.bound(body))
            .unwrap_or_default();
        self.actions.on_key(key, &mut self.outbox);
    }
}
