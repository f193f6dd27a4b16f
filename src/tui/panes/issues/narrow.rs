//! Narrowing the Issues list to a set of findings (a rule's group, or a
//! finding's relatives), and `Esc` back to the list as it was: one
//! mechanism for both.

use super::IssuesPane;
use crate::api::model::ListSelection;
use crate::tui::pane::Cx;

/// How many narrowings `Esc` can walk back.
const DEPTH: usize = 20;

/// The list before a narrowing.
#[derive(Debug, Clone)]
pub struct Before {
    selection: ListSelection,
    local_query: String,
    /// The narrowing came from the groups view: `Esc` shows it again.
    from_groups: bool,
    /// What the list was narrowed to, as the status line says it.
    pub what: String,
}

impl IssuesPane {
    /// Shows the findings of `selection` (`what` names them); `Esc` comes
    /// back to the list (or the groups) as it is now.
    pub fn narrow(&mut self, selection: ListSelection, what: String, cx: &mut Cx) {
        if self.narrowed.len() == DEPTH {
            self.narrowed.remove(0);
        }
        self.narrowed.push(Before {
            selection: std::mem::replace(&mut self.selection, selection),
            local_query: std::mem::take(&mut self.local_query),
            from_groups: self.groups.shown,
            what,
        });
        self.local_input = None;
        self.groups.shown = false;
        self.reload(cx);
    }

    /// `Esc` in a narrowed list: the list as it was before (and the groups
    /// view if it came from there). `false` when the list is not narrowed.
    pub fn restore(&mut self, cx: &mut Cx) -> bool {
        let Some(before) = self.narrowed.pop() else {
            return false;
        };
        self.selection = before.selection;
        self.local_query = before.local_query;
        self.reload(cx);
        if before.from_groups {
            self.groups.show(&self.selection, cx.outbox);
        }
        true
    }

    /// What the list is narrowed to, if it is.
    pub fn narrowed_to(&self) -> Option<&str> {
        self.narrowed.last().map(|b| b.what.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::model::Severity;
    use crate::tui::keymap::Action;
    use crate::tui::message::{ApiRequest, Outbox};
    use crate::tui::pane::testing::{Drive, cx};

    fn last_filter(outbox: &Outbox) -> ListSelection {
        let sent = outbox.requests();
        let Some((_, ApiRequest::ListRows(req))) = sent
            .iter()
            .rev()
            .find(|(_, r)| matches!(r, ApiRequest::ListRows(_)))
        else {
            panic!("a list request: {sent:?}")
        };
        ListSelection {
            issue_types: req.issue_types.clone(),
            filter: req.filter.clone().unwrap_or_default(),
        }
    }

    #[test]
    fn esc_walks_back_narrowing_by_narrowing() {
        let mut outbox = Outbox::default();
        let mut pane = IssuesPane::default();
        pane.selection.filter.severities = vec![Severity::High];
        pane.local_query = "sql".into();
        pane.start(&mut outbox);
        let mut rule = ListSelection::default();
        rule.filter.rule_ids = vec!["r1".into()];
        pane.narrow(rule.clone(), "rule r1".into(), &mut cx(&mut outbox, 20));
        assert_eq!(last_filter(&outbox), rule);
        assert!(pane.local_query.is_empty(), "the local filter is set aside");
        let mut repo = ListSelection::default();
        repo.filter.repository_names = vec!["api".into()];
        pane.narrow(
            repo.clone(),
            "repository api".into(),
            &mut cx(&mut outbox, 20),
        );
        assert_eq!(pane.narrowed_to(), Some("repository api"));
        pane.act(Action::Back, 20, &mut outbox); // stops the load in flight
        pane.act(Action::Back, 20, &mut outbox);
        assert_eq!(last_filter(&outbox), rule);
        pane.act(Action::Back, 20, &mut outbox);
        pane.act(Action::Back, 20, &mut outbox);
        assert_eq!(last_filter(&outbox).filter.severities, vec![Severity::High]);
        assert_eq!(pane.local_query, "sql", "the local filter is back");
        assert_eq!(pane.narrowed_to(), None);
        assert!(!pane.groups.shown);
    }
}
