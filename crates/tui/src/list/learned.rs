//! What a list learned of its findings from fresh fetches (after a triage,
//! a ticket, a fix request: they ask with the activity history) that a page
//! of List issues does not say: the published request cannot ask for
//! `exceptionRequest`, and the list does not ask for every finding's
//! history. Kept by id for the session, so a reload keeps "exc. requested"
//! and the P flag on the rows that had them.

use crate::message::rows::{Acted, Finding, FindingRow};
use findings_model::{ExceptionState, IssueItem};
use std::collections::HashMap;

#[derive(Debug, Clone, Default)]
pub struct Learned {
    of: HashMap<String, (Option<ExceptionState>, Acted)>,
}

impl Learned {
    /// Learns from findings fetched anew (whole, with their history): what
    /// they say now replaces what was learned before.
    pub fn learn(&mut self, fresh: &[IssueItem]) {
        for issue in fresh.iter().filter_map(|i| i.issue.as_ref()) {
            let id = issue.id();
            if id.is_empty() {
                continue;
            }
            let exception = issue.exception_state();
            let acted = Acted::of(issue);
            if exception.is_none() && acted == Acted::Nothing {
                self.of.remove(id);
            } else {
                self.of.insert(id.to_owned(), (exception, acted));
            }
        }
    }

    /// Gives `rows` what was learned of their findings, where their items
    /// said nothing of it (what the server says wins).
    pub fn apply<T: Finding>(&self, rows: &mut [FindingRow<T>]) {
        if self.of.is_empty() {
            return;
        }
        for row in rows {
            if let Some((exception, acted)) = self.of.get(row.id()) {
                row.learn(exception.as_ref(), *acted);
            }
        }
    }
}

/// The names the lists' rows gave supply-chain rules (`CVE-2021-44906
/// minimist`), by rule id: a group of such a rule is named by it, as its
/// rows are (the group's answer and the filter values have the advisory
/// alone). The model's, shared with the CLI.
pub use findings_model::RuleLabels;

#[cfg(test)]
mod tests {
    use super::*;
    use findings_model::{ActivityEvent, HistoryType, Issue};

    fn issue(id: &str) -> Issue {
        Issue {
            id: Some(id.into()),
            ..Issue::default()
        }
    }

    #[test]
    fn a_requested_exception_is_kept_for_rows_loaded_again_until_it_is_gone() {
        let mut fresh = issue("7");
        fresh.activity_history = vec![ActivityEvent {
            history_type: Some(HistoryType::ExceptionRequestCreated),
            ..ActivityEvent::default()
        }];
        let mut learned = Learned::default();
        learned.learn(&[IssueItem {
            issue: Some(fresh),
            ..IssueItem::default()
        }]);
        // A page of the list says nothing of it.
        let mut rows = vec![
            FindingRow::new(&IssueItem {
                issue: Some(issue("7")),
                ..IssueItem::default()
            }),
            FindingRow::new(&IssueItem {
                issue: Some(issue("8")),
                ..IssueItem::default()
            }),
        ];
        learned.apply(&mut rows);
        assert_eq!(rows[0].exception(), Some(ExceptionState::Requested));
        assert_eq!(rows[1].exception(), None);
        // Fetched again without one: forgotten.
        learned.learn(&[IssueItem {
            issue: Some(issue("7")),
            ..IssueItem::default()
        }]);
        let mut again = vec![FindingRow::new(&IssueItem {
            issue: Some(issue("7")),
            ..IssueItem::default()
        })];
        learned.apply(&mut again);
        assert_eq!(again[0].exception(), None);
    }
}
