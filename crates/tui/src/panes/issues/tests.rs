//! The Issues pane driven as the app drives it: each request filed in its
//! slot, each reply handled there, none dropped unseen.

use super::*;
use crate::message::{ApiRequest, AppEvent, Outbox};
use crate::pane::testing::Drive;
use findings_model::{GetIssueCountsResponse, ListIssuesResponse};

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

/// A pane holding every finding of `severities` (one page, the last).
fn complete(severities: &[Severity]) -> (IssuesPane, Outbox) {
    complete_with(IssuesPane::default(), severities)
}

/// [`complete`] for a pane set up by the caller (the search's slice).
pub(super) fn complete_with(mut pane: IssuesPane, severities: &[Severity]) -> (IssuesPane, Outbox) {
    let mut outbox = Outbox::default();
    pane.start(&mut outbox);
    let (list, _, _) = sent(&outbox)[0];
    let issues = severities
        .iter()
        .enumerate()
        .map(|(i, s)| IssueItem {
            issue: Some(Issue {
                id: Some(format!("f{i}")),
                severity: Some(s.clone()),
                message: Some(format!("message {} of row {i}", ["alpha", "beta"][i % 2])),
                ..Default::default()
            }),
            ..Default::default()
        })
        .collect();
    let page = ListIssuesResponse {
        issues,
        cursor: None,
    };
    pane.reply(
        list,
        Ok(ApiResponse::Rows(RowPage::from(page))),
        &mut outbox,
    );
    (pane, outbox)
}

pub(super) fn shown_ids(pane: &IssuesPane) -> Vec<String> {
    (0..pane.list.len())
        .map(|r| pane.list.row(r).unwrap().id().to_owned())
        .collect()
}

#[test]
fn everything_loaded_s_sorts_here_and_the_filter_keeps_the_order() {
    use Severity::*;
    let (mut pane, mut outbox) = complete(&[Low, Critical, High, Critical, Medium]);
    let before = outbox.requests().len();
    // relevant-since → severity: sorted here, nothing asked of the server.
    pane.act(Action::CycleSort, 20, &mut outbox);
    assert_eq!(outbox.requests().len(), before, "no request");
    assert_eq!(shown_ids(&pane), ["f1", "f3", "f2", "f4", "f0"]);
    pane.act(Action::ToggleSortDirection, 20, &mut outbox);
    assert_eq!(shown_ids(&pane), ["f0", "f4", "f2", "f1", "f3"]);
    // `/` keeps the order of the sort.
    pane.set_local_query("beta".into());
    assert_eq!(shown_ids(&pane), ["f1", "f3"]);
    pane.set_local_query(String::new());
    assert_eq!(shown_ids(&pane).len(), 5);
}

#[test]
fn a_backspace_takes_back_the_rows_of_the_shorter_query() {
    use Severity::*;
    let severities: Vec<Severity> = [Low, High, Critical].into_iter().cycle().take(40).collect();
    let (mut pane, _) = complete(&severities);
    let mut typed = String::new();
    let mut after = Vec::new();
    for c in "row 1".chars() {
        typed.push(c);
        pane.set_local_query(typed.clone());
        after.push(shown_ids(&pane));
    }
    // Each back as it was, and as a search from scratch finds it.
    for k in (0..after.len() - 1).rev() {
        typed.pop();
        pane.set_local_query(typed.clone());
        assert_eq!(shown_ids(&pane), after[k], "{typed:?}");
        let mut fresh = IssuesPane {
            local_query: typed.clone(),
            ..complete(&severities).0
        };
        fresh.apply_local_filter();
        assert_eq!(shown_ids(&fresh), after[k], "{typed:?} from scratch");
    }
    assert_eq!(after.last().unwrap().len(), 11, "row 1, row 10 to row 19");
}

#[test]
fn the_rows_kept_for_backspaces_hold_one_number_a_loaded_row_at_most() {
    use Severity::*;
    let severities: Vec<Severity> = [Low, High].into_iter().cycle().take(40).collect();
    let (mut pane, _) = complete(&severities);
    let mut typed = String::new();
    let mut after = Vec::new();
    // Every row holds "message ": each query keeps all 40 shown.
    for c in "message ".chars() {
        typed.push(c);
        pane.set_local_query(typed.clone());
        after.push(shown_ids(&pane));
        let held: usize = pane
            .typed
            .iter()
            .filter_map(|(_, s)| s.as_ref())
            .map(Vec::len)
            .sum();
        assert!(held <= 40, "{held} numbers kept after {typed:?}");
    }
    assert!(after.iter().all(|ids| ids.len() == 40));
    // Backspaces past what is kept search again, and find the same.
    for k in (0..after.len() - 1).rev() {
        typed.pop();
        pane.set_local_query(typed.clone());
        assert_eq!(shown_ids(&pane), after[k], "{typed:?}");
    }
}

#[test]
fn the_first_filter_is_compared_with_the_last_visit_by_itself_only_when_small() {
    let asked = |outbox: &Outbox| {
        outbox
            .requests()
            .iter()
            .any(|(_, r)| matches!(r, ApiRequest::SinceLastVisit { .. }))
    };
    for (open, by_itself) in [(since::AUTO_MAX, true), (since::AUTO_MAX + 1, false)] {
        let mut pane = IssuesPane {
            since: since::Since::new(Some(("/state".into(), "work".into()))),
            ..IssuesPane::default()
        };
        let mut outbox = Outbox::default();
        pane.start(&mut outbox);
        assert!(!asked(&outbox), "not before the count");
        let counts = sent(&outbox).into_iter().find(|s| s.2 == "counts").unwrap();
        let answer = GetIssueCountsResponse {
            open: Some(open),
            ..Default::default()
        };
        pane.reply(counts.0, Ok(ApiResponse::IssueCounts(answer)), &mut outbox);
        assert_eq!(asked(&outbox), by_itself, "{open} findings");
        // `N` compares whatever the size: it was asked for.
        pane.act(Action::SinceLastVisit, 20, &mut outbox);
        assert!(asked(&outbox) && pane.since.shown);
    }
}

#[test]
fn offline_ages_count_to_the_snapshots_time_online_to_now() {
    let saved: Timestamp = "2026-11-01T00:00:00Z".parse().unwrap();
    let now: Timestamp = "2026-11-26T00:00:00Z".parse().unwrap();
    let offline = Session {
        offline: Some(saved),
        ..Session::default()
    };
    assert_eq!(IssuesPane::new(&offline).open_age(now).now, saved);
    assert_eq!(IssuesPane::new(&Session::default()).open_age(now).now, now);
}

/// A page of findings `ids` in `state`.
fn page_in(ids: std::ops::Range<usize>, state: AggregateState, last: bool) -> ApiResponse {
    let issues = ids
        .map(|i| IssueItem {
            issue: Some(Issue {
                id: Some(format!("f{i}")),
                aggregate_state: Some(state.clone()),
                ..Default::default()
            }),
            ..Default::default()
        })
        .collect();
    let page = RowPage::from(ListIssuesResponse {
        issues,
        cursor: (!last).then(|| "next".into()),
    });
    if last {
        ApiResponse::Rows(page)
    } else {
        ApiResponse::RowsSoFar(page)
    }
}

#[test]
fn the_rows_past_the_counts_are_kept_as_pages_come_and_rows_change() {
    let mut pane = IssuesPane::default();
    let mut outbox = Outbox::default();
    pane.start(&mut outbox);
    let first = sent(&outbox);
    let (list, counts) = (first[0].0, first[1].0);
    // Counted before the findings came: 2 open.
    let c = GetIssueCountsResponse {
        open: Some(2),
        ..Default::default()
    };
    pane.reply(counts, Ok(ApiResponse::IssueCounts(c.clone())), &mut outbox);
    let every_row = |pane: &IssuesPane| {
        crate::list::issue_counts::ListedStates::of(pane.list.items.iter().map(|r| r.state()))
            .past_the_counts(&c)
    };
    // Two pages of one stream (as `G` gets them).
    let stream = list;
    pane.reply(
        stream,
        Ok(page_in(0..3, AggregateState::Open, false)),
        &mut outbox,
    );
    assert_eq!(pane.past_the_counts(&c), vec![("open", 1)]);
    pane.reply(
        stream,
        Ok(page_in(3..5, AggregateState::Fixed, true)),
        &mut outbox,
    );
    assert_eq!(pane.past_the_counts(&c), vec![("open", 1), ("closed", 2)]);
    assert_eq!(pane.past_the_counts(&c), every_row(&pane));

    // A triage moves two open findings to ignored, in place.
    let fresh: Vec<IssueItem> = [0, 1]
        .iter()
        .map(|i| IssueItem {
            issue: Some(Issue {
                id: Some(format!("f{i}")),
                aggregate_state: Some(AggregateState::IgnoredApp),
                ..Default::default()
            }),
            ..Default::default()
        })
        .collect();
    pane.change(&Changed::Findings(fresh), &mut outbox);
    assert_eq!(pane.past_the_counts(&c), every_row(&pane));
    assert_eq!(
        pane.past_the_counts(&c),
        vec![("ignored", 2), ("closed", 2)],
        "1 open of 2 counted: none past; in the order the rows show them"
    );

    // A new filter starts over.
    pane.reload(&mut crate::pane::testing::cx(&mut outbox, 20));
    assert!(pane.list.items.is_empty());
    assert_eq!(pane.past_the_counts(&c), Vec::new());
}
