//! The Issues pane's groups view: the findings of the list's server-side
//! filter grouped by rule (`IssuesService_ListIssueGroups`), with counts;
//! `Enter` narrows the list to a group (see `narrow`).

use crate::keymap::Action;
use crate::list::choices;
use crate::list::load::PagedList;
use crate::message::{ApiRequest, ApiResponse, ApiResult, Outbox, RequestId};
use findings_model::*;

/// Groups per page.
const PAGE: i64 = 200;

/// The orders `s` walks.
const SORTS: [GroupSortBy; 2] = [GroupSortBy::IssueCounts, GroupSortBy::Severity];

#[derive(Debug, Default)]
pub struct Groups {
    /// The groups view is on show (else the findings).
    pub shown: bool,
    pub list: PagedList<RuleGroup>,
    pub sort_by: Option<GroupSortBy>,
    pub direction: Option<SortDirection>,
    /// The selection the groups were asked for: another one asks again.
    of: Option<ListSelection>,
    /// How many groups there are in all, as the server says.
    pub total: Option<i64>,
}

/// What a key in the groups view asks of the pane.
#[derive(Debug, PartialEq)]
pub enum GroupKey {
    Handled,
    /// Narrow the list to this selection (the group's), showing `what`.
    Narrow(Box<ListSelection>, String),
    /// Back to the findings.
    Leave,
}

impl Groups {
    /// Shows the groups of `selection`, asking for them unless they are
    /// already those.
    pub fn show(&mut self, selection: &ListSelection, outbox: &mut Outbox) {
        self.shown = true;
        if self.of.as_ref() != Some(selection) || self.list.loader.error.is_some() {
            self.reload(selection, outbox);
        }
    }

    /// The counts may no longer hold (a triage moved findings between
    /// states): the next `show` asks again, even for the same selection.
    pub fn forget_counts(&mut self) {
        self.of = None;
    }

    pub fn reload(&mut self, selection: &ListSelection, outbox: &mut Outbox) {
        outbox.cancel(self.list.reset());
        self.of = Some(selection.clone());
        self.total = None;
        self.load_next(outbox);
    }

    pub fn load_next(&mut self, outbox: &mut Outbox) {
        let Some(of) = &self.of else { return };
        let req = ListIssueGroupsRequest {
            limit: Some(PAGE),
            cursor: self.list.next_cursor.clone(),
            sort_by: self.sort_by.clone(),
            sort_direction: self.direction.clone(),
            ..ListIssueGroupsRequest::by_rule(of)
        };
        let sent = outbox.in_slot(super::Slot::Groups, |o| o.send(ApiRequest::ListGroups(req)));
        if let Some(id) = sent {
            outbox.cancel(self.list.loader.started(id));
        }
    }

    /// A reply to a groups request (one superseded is dropped).
    pub fn on_reply(&mut self, id: RequestId, result: ApiResult, outbox: &mut Outbox) {
        if !self.list.loader.accept(id) {
            return;
        }
        match result {
            Ok(ApiResponse::Groups(page)) => {
                self.total = page.total.or(self.total);
                self.list
                    .add_page(page.groups, page.cursor, "Loading groups", outbox);
            }
            Ok(other) => self
                .list
                .failed("Loading groups", &other.unexpected(), outbox),
            Err(e) => self.list.failed("Loading groups", &e, outbox),
        }
    }

    pub fn on_action(&mut self, action: Action, rows: usize, outbox: &mut Outbox) -> GroupKey {
        if self.list.navigate(action, rows) {
            return GroupKey::Handled;
        }
        match action {
            Action::Open => {
                let narrowed = self.list.selected_item().and_then(|g| {
                    let of = self.of.as_ref()?;
                    Some((g.narrow(of)?, format!("rule {}", g.label())))
                });
                match narrowed {
                    Some((selection, what)) => {
                        return GroupKey::Narrow(Box::new(selection), what);
                    }
                    None => outbox.status("no group selected"),
                }
            }
            Action::Back if self.list.stop(outbox) => {}
            Action::Back | Action::Groups => return GroupKey::Leave,
            Action::Refresh if self.list.retry_failed_page() => self.load_next(outbox),
            Action::Refresh => {
                if let Some(of) = self.of.clone() {
                    self.reload(&of, outbox);
                }
            }
            Action::CycleSort => {
                let current = self.sort_by.clone().unwrap_or(GroupSortBy::IssueCounts);
                self.sort_by = choices::next(&SORTS, Some(&current));
                self.reorder(outbox);
            }
            Action::ToggleSortDirection => {
                self.direction = Some(choices::flip(&self.direction));
                self.reorder(outbox);
            }
            _ => {}
        }
        GroupKey::Handled
    }

    /// Loads in the new order, and says it (`:messages` keeps it).
    fn reorder(&mut self, outbox: &mut Outbox) {
        if let Some(of) = self.of.clone() {
            self.reload(&of, outbox);
        }
        outbox.status(format!("order {}", self.sort_label()));
    }

    /// The order in force, as shown.
    pub fn sort_label(&self) -> String {
        let by = match self.sort_by {
            Some(GroupSortBy::Severity) => "severity",
            _ => "count",
        };
        let dir = match self.direction {
            Some(SortDirection::Asc) => "↑",
            _ => "↓",
        };
        format!("{by} {dir}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group(id: &str, n: i64) -> RuleGroup {
        RuleGroup {
            rule_id: Some(id.into()),
            issues_count: Some(n),
            ..Default::default()
        }
    }

    fn answered(groups: &mut Groups, outbox: &mut Outbox, items: Vec<RuleGroup>) {
        let (id, _) = *outbox.requests().last().unwrap();
        let page = ListIssueGroupsResponse {
            groups: items,
            ..Default::default()
        };
        groups.on_reply(id, Ok(ApiResponse::Groups(page)), outbox);
    }

    #[test]
    fn enter_narrows_to_the_selected_group_within_the_filter() {
        let mut outbox = Outbox::default();
        let mut groups = Groups::default();
        let mut selection = ListSelection::default();
        selection.filter.severities = vec![Severity::High];
        groups.show(&selection, &mut outbox);
        let sent = outbox.requests();
        let ApiRequest::ListGroups(req) = sent[0].1 else {
            panic!("{sent:?}")
        };
        assert_eq!(
            req.filter.as_ref().unwrap().severities,
            vec![Severity::High]
        );
        answered(&mut groups, &mut outbox, vec![group("a", 5), group("b", 2)]);
        groups.on_action(Action::Down, 10, &mut outbox);
        let GroupKey::Narrow(narrowed, what) = groups.on_action(Action::Open, 10, &mut outbox)
        else {
            panic!("Enter narrows")
        };
        assert_eq!(narrowed.filter.rule_ids, vec!["b"]);
        assert_eq!(narrowed.filter.severities, vec![Severity::High]);
        assert_eq!(what, "rule b");
        // Shown again for the same filter: not asked again.
        let before = outbox.requests().len();
        groups.show(&selection, &mut outbox);
        assert_eq!(outbox.requests().len(), before);
        groups.show(&ListSelection::default(), &mut outbox);
        assert_eq!(outbox.requests().len(), before + 1);
        // Counts forgotten (a triage): the same selection is asked again.
        groups.forget_counts();
        groups.show(&ListSelection::default(), &mut outbox);
        assert_eq!(outbox.requests().len(), before + 2);
    }

    #[test]
    fn s_orders_by_severity_and_esc_leaves_when_nothing_loads() {
        let mut outbox = Outbox::default();
        let mut groups = Groups::default();
        groups.show(&ListSelection::default(), &mut outbox);
        assert_eq!(
            groups.on_action(Action::Back, 10, &mut outbox),
            GroupKey::Handled
        );
        assert_eq!(outbox.cancelled().len(), 1, "Esc first stops the load");
        assert_eq!(
            groups.on_action(Action::Back, 10, &mut outbox),
            GroupKey::Leave
        );
        groups.on_action(Action::CycleSort, 10, &mut outbox);
        let sent = outbox.requests();
        let ApiRequest::ListGroups(req) = sent.last().unwrap().1 else {
            panic!()
        };
        assert_eq!(req.sort_by, Some(GroupSortBy::Severity));
        assert_eq!(groups.sort_label(), "severity ↓");
    }
}
