//! Which findings have a fix pull request asked for or open, as this
//! session last fetched them whole. A List issues page does not say (the
//! published list carries no pull request state), so a reload would lose
//! the list's `P` flag; the worker notes it from every whole finding that
//! passes through it and flags the rows of the pages it packs.

use crate::message::rows::Acted;
use crate::message::{ApiResponse, ExportItems};
use findings_model::Issue;
use std::collections::HashSet;

#[derive(Debug, Default)]
pub struct FixPrs {
    ids: HashSet<String>,
}

/// [`FixPrs`] shared by the worker and its tasks: an export written as its
/// findings come notes them on its way, without handing them back.
#[derive(Debug, Default, Clone)]
pub struct SharedFixPrs(std::sync::Arc<std::sync::Mutex<FixPrs>>);

impl SharedFixPrs {
    /// The notes, for a moment (never held across an await).
    pub fn lock(&self) -> std::sync::MutexGuard<'_, FixPrs> {
        // A task that panicked while noting left them whole enough.
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl FixPrs {
    /// Notes what `response` says of fix pull requests, and flags the rows
    /// of a page of rows with one.
    pub fn note(&mut self, response: &mut ApiResponse) {
        match response {
            ApiResponse::Issue(issue) => self.learn(issue),
            ApiResponse::Items(ExportItems::Findings(list)) => {
                for i in list {
                    self.learn(i);
                }
            }
            ApiResponse::Items(ExportItems::Issues(items)) => self.learn_items(items),
            ApiResponse::ListIssues(page) => self.learn_items(&page.issues),
            ApiResponse::Rows(page) | ApiResponse::RowsSoFar(page) => {
                for row in &mut page.rows {
                    if self.ids.contains(row.id()) {
                        row.acted = row.acted.with_fix_pr();
                    }
                }
            }
            _ => {}
        }
    }

    pub fn learn_items(&mut self, items: &[findings_model::IssueItem]) {
        items
            .iter()
            .filter_map(|i| i.issue.as_ref())
            .for_each(|i| self.learn(i));
    }

    /// A finding fetched with what tells its pull request (its activity, or
    /// the pull request's link): noted, or forgotten when it has none.
    pub fn learn(&mut self, issue: &Issue) {
        if issue.activity_history.is_empty() && issue.click_to_fix_pr_url.is_none() {
            return;
        }
        if Acted::of(issue).has_fix_pr() {
            self.ids.insert(issue.id().to_owned());
        } else {
            self.ids.remove(issue.id());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::rows::RowPage;
    use findings_model::{ActivityEvent, HistoryType, IssueItem, ListIssuesResponse};

    fn page(ids: &[&str]) -> ApiResponse {
        ApiResponse::Rows(RowPage::from(ListIssuesResponse {
            issues: ids
                .iter()
                .map(|id| IssueItem {
                    issue: Some(Issue {
                        id: Some((*id).to_owned()),
                        ..Default::default()
                    }),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        }))
    }

    fn flags(response: &ApiResponse) -> Vec<Acted> {
        match response {
            ApiResponse::Rows(p) => p.rows.iter().map(|r| r.acted).collect(),
            _ => Vec::new(),
        }
    }

    #[test]
    fn a_pull_request_seen_on_a_whole_finding_flags_its_rows_until_it_is_gone() {
        let mut prs = FixPrs::default();
        let whole = |pr: bool| Issue {
            id: Some("7".into()),
            activity_history: vec![ActivityEvent {
                history_type: Some(if pr {
                    HistoryType::ClickToFixPrRequested
                } else {
                    HistoryType::Status
                }),
                ..Default::default()
            }],
            ..Default::default()
        };
        let mut rows = page(&["6", "7"]);
        prs.note(&mut rows);
        assert_eq!(flags(&rows), [Acted::Nothing, Acted::Nothing]);
        prs.note(&mut ApiResponse::Issue(Box::new(whole(true))));
        let mut rows = page(&["6", "7"]);
        prs.note(&mut rows);
        assert_eq!(flags(&rows), [Acted::Nothing, Acted::FixPr]);
        // A list item says nothing of it: what was seen stands.
        prs.note(&mut ApiResponse::Items(ExportItems::Findings(vec![
            Issue {
                id: Some("7".into()),
                ..Default::default()
            },
        ])));
        let mut rows = page(&["7"]);
        prs.note(&mut rows);
        assert_eq!(flags(&rows), [Acted::FixPr]);
        // Fetched whole again without one: forgotten.
        prs.note(&mut ApiResponse::Issue(Box::new(whole(false))));
        let mut rows = page(&["7"]);
        prs.note(&mut rows);
        assert_eq!(flags(&rows), [Acted::Nothing]);
    }

    /// A finding with a fix pull request and a ticket shows both flags:
    /// neither hides the other.
    #[test]
    fn a_fix_pull_request_and_a_ticket_are_both_flagged() {
        let both = Issue {
            id: Some("8".into()),
            click_to_fix_pr_url: Some("https://scm.example.com/a/b/pull/1".into()),
            external_ticket: Some(findings_model::ExternalTicket::default()),
            ..Default::default()
        };
        assert_eq!(Acted::of(&both), Acted::Both);
        assert_eq!(Acted::Both.flag(), "PT");
        assert_eq!(Acted::Ticket.with_fix_pr(), Acted::Both);
        assert_eq!(Acted::Nothing.with_fix_pr(), Acted::FixPr);
        let mut prs = FixPrs::default();
        prs.note(&mut ApiResponse::Issue(Box::new(both)));
        let mut rows = page(&["8"]);
        if let ApiResponse::Rows(p) = &mut rows {
            p.rows[0].acted = Acted::Ticket;
        }
        prs.note(&mut rows);
        assert_eq!(flags(&rows), [Acted::Both]);
    }
}
