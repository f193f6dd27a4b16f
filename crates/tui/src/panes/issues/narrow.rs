//! Narrowing the Issues list to a set of findings (a rule's group, or a
//! finding's relatives), and `Esc` back to the list as it was: one
//! mechanism for both.

use super::IssuesPane;
use crate::message::{AppEvent, Asker, Question};
use crate::pane::Cx;
use crate::state::session::SavedView;
use findings_model::{DEFAULT_PAGE_SIZE, ListSelection};

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

/// A new server-side selection that would drop everything loaded, until
/// `y` says to go ahead.
#[derive(Debug, Clone)]
pub enum Pending {
    /// `:filter`, the filter form.
    Filter(ListSelection),
    /// A rule's group, a finding's relatives.
    Narrow(ListSelection, String),
    /// `:view NAME`, a view picked in the form.
    View(SavedView),
}

impl IssuesPane {
    /// Whether the loaded rows are worth keeping: the whole listing, more
    /// than a page (a new selection asks the server and drops them).
    pub(super) fn holds_a_whole_set(&self) -> bool {
        self.list.complete
            && self.list.items.len()
                > usize::try_from(self.page_size.unwrap_or(DEFAULT_PAGE_SIZE).max(1))
                    .unwrap_or(usize::MAX)
    }

    /// Applies `pending` at once, or, when it would drop a whole set
    /// loaded, asks first (`y` goes ahead, `n` keeps the rows).
    pub(super) fn change_selection(&mut self, pending: Pending, cx: &mut Cx) {
        if self.holds_a_whole_set() {
            self.pending = Some(pending);
            let question = self.drop_question();
            return cx.outbox.events.push(AppEvent::Ask(Box::new(question)));
        }
        self.apply_pending(pending, cx);
    }

    fn apply_pending(&mut self, pending: Pending, cx: &mut Cx) {
        match pending {
            Pending::Filter(selection) => {
                self.selection = selection;
                self.reload(cx);
            }
            Pending::Narrow(selection, what) => self.narrow_now(selection, what, cx),
            Pending::View(view) => match self.apply_view(&view) {
                Ok(()) => {
                    self.reload(cx);
                    cx.outbox.status(format!(
                        "view {}",
                        findings_base::text::one_line(&view.name)
                    ));
                }
                Err(e) => cx.outbox.status(e),
            },
        }
    }

    /// The question a new selection asks before it drops the list loaded
    /// whole.
    fn drop_question(&self) -> Question {
        let n = findings_base::text::thousands_of(self.list.items.len());
        Question {
            title: format!("Drop the {n} findings loaded?"),
            said: format!(
                "The new filter is the server's to apply: its list replaces the {n} \
                 findings loaded here. (/ filters the loaded ones instead.)"
            ),
            items: Vec::new(),
            yes: "apply the new filter: its first page loads".into(),
            no: format!("keep the {n} findings loaded, the filter as it was"),
            asker: Asker::Pane(super::ID),
        }
    }

    /// The answer to [`IssuesPane::drop_question`]: yes applies the new
    /// selection, no keeps what is loaded.
    pub(super) fn answer_drop(&mut self, yes: bool, cx: &mut Cx) {
        let Some(pending) = self.pending.take() else {
            return;
        };
        if yes {
            return self.apply_pending(pending, cx);
        }
        cx.outbox.status(format!(
            "kept the {} loaded findings; the filter is as it was",
            findings_base::text::thousands_of(self.list.items.len())
        ));
    }

    /// Shows the findings of `selection` (`what` names them), asking first
    /// when that drops a whole set loaded; `Esc` comes back to the list
    /// (or the groups) as it is now.
    pub fn narrow(&mut self, selection: ListSelection, what: String, cx: &mut Cx) {
        self.change_selection(Pending::Narrow(selection, what), cx);
    }

    fn narrow_now(&mut self, selection: ListSelection, what: String, cx: &mut Cx) {
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
    use crate::keymap::Action;
    use crate::message::{ApiRequest, Outbox};
    use crate::pane::testing::{Drive, cx};
    use findings_model::Severity;

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
