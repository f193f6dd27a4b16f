//! The Issues pane driven as the app drives it: each request filed in its
//! slot, each reply handled there, none dropped unseen.

use super::*;
use crate::api::model::{GetIssueCountsResponse, ListIssuesResponse};
use crate::tui::message::{AppEvent, Outbox};
use crate::tui::pane::testing::Drive;

/// The requests sent so far, with the slot each was filed under.
fn sent(outbox: &Outbox) -> Vec<(RequestId, Slot, &'static str)> {
    outbox
        .requests()
        .into_iter()
        .map(|(id, request)| {
            let kind = match request {
                ApiRequest::ListRows(_) => "rows",
                ApiRequest::IssueCounts(_) => "counts",
                ApiRequest::IssueFilters(_) => "filters",
                ApiRequest::ListGroups(_) => "groups",
                _ => "other",
            };
            (id, Slot::of(outbox.slot_of(id)), kind)
        })
        .collect()
}

fn first_page(n: usize) -> ApiResponse {
    let issues = (0..n)
        .map(|i| IssueItem {
            issue: Some(Issue {
                id: Some(format!("f{i}")),
                ..Default::default()
            }),
            ..Default::default()
        })
        .collect();
    let page = ListIssuesResponse {
        issues,
        cursor: Some("next".into()),
    };
    ApiResponse::Rows(RowPage::from(page))
}

#[test]
fn each_request_is_filed_in_its_slot_and_its_reply_handled_there() {
    let mut pane = IssuesPane::default();
    let mut outbox = Outbox::default();
    pane.start(&mut outbox);
    let first = sent(&outbox);
    let (list, counts) = (first[0], first[1]);
    assert_eq!((list.1, list.2), (Slot::List, "rows"), "{first:?}");
    assert_eq!((counts.1, counts.2), (Slot::Counts, "counts"), "{first:?}");

    pane.reply(
        counts.0,
        Ok(ApiResponse::IssueCounts(GetIssueCountsResponse::default())),
        &mut outbox,
    );
    assert!(!pane.counts.is_loading(), "the counts took their answer");
    assert!(
        pane.list.loader.is_loading(),
        "the list still waits for its own"
    );

    pane.reply(list.0, Ok(first_page(3)), &mut outbox);
    assert_eq!(pane.list.items.len(), 3);
    // Once the list is up, the filter values are asked, in their slot.
    let filters = sent(&outbox)
        .into_iter()
        .find(|s| s.2 == "filters")
        .unwrap();
    assert_eq!(filters.1, Slot::FilterValues);

    pane.act(Action::Groups, 20, &mut outbox);
    let groups = sent(&outbox).into_iter().find(|s| s.2 == "groups").unwrap();
    assert_eq!(groups.1, Slot::Groups);
}

#[test]
fn an_answer_of_the_wrong_kind_is_said_where_it_was_awaited_not_dropped() {
    let mut pane = IssuesPane::default();
    let mut outbox = Outbox::default();
    pane.start(&mut outbox);
    let (list, _, _) = sent(&outbox)[0];
    pane.reply(
        list,
        Ok(ApiResponse::IssueCounts(GetIssueCountsResponse::default())),
        &mut outbox,
    );
    let error = pane.list.loader.error.clone().unwrap_or_default();
    assert!(
        error.contains("an answer of another kind (issue counts) came back"),
        "{error}"
    );
    assert!(
        outbox.events.iter().any(
            |e| matches!(e, AppEvent::Error { title, .. } if title == "Loading findings failed")
        ),
        "the user is told: {:?}",
        outbox.events
    );
}

#[test]
fn a_superseded_page_is_dropped_by_its_generation() {
    let mut pane = IssuesPane::default();
    let mut outbox = Outbox::default();
    pane.start(&mut outbox);
    let (old, _, _) = sent(&outbox)[0];
    // `r` asks again: the first request is superseded.
    pane.act(Action::Refresh, 20, &mut outbox);
    pane.reply(old, Ok(first_page(2)), &mut outbox);
    assert!(pane.list.items.is_empty(), "the old page is not shown");
    assert!(pane.list.loader.is_loading());
}
