//! Contract tests of Get issue counts (`IssuesService_GetIssueCounts`):
//! the real client against the demo server, every exchange checked against
//! the published schemas; the ground truth is the List issues listing.

use crate::common;
use crate::published::Watched;
use findings_client::Client;
use findings_model::*;
use std::collections::BTreeMap;

/// Findings per aggregate state, as List issues lists them for `filter`.
async fn listed(client: &Client, filter: &ListIssuesFilter) -> BTreeMap<String, i64> {
    let mut req = ListIssuesRequest {
        limit: Some(1000),
        filter: Some(filter.clone()),
        ..Default::default()
    };
    let mut by_state = BTreeMap::new();
    loop {
        let page = client.list_issues(&req).await.expect("list");
        for item in page.issues {
            let issue = item.issue.expect("an issue");
            let state = issue.aggregate_state.expect("a state").label().to_owned();
            *by_state.entry(state).or_insert(0) += 1;
        }
        match page.cursor {
            Some(c) => req.cursor = Some(c),
            None => return by_state,
        }
    }
}

fn total(by_state: &BTreeMap<String, i64>) -> i64 {
    by_state.values().sum()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn counts_agree_with_what_list_issues_lists_and_name_the_archived() {
    let server = Watched::new(common::demo(600).await);
    let client = common::client_for(&server);
    let critical = ListIssuesFilter {
        severities: vec![Severity::Critical],
        ..Default::default()
    };
    for filter in [ListIssuesFilter::default(), critical] {
        let counts = client
            .issue_counts(&GetIssueCountsRequest {
                filter: Some(filter.clone()),
                ..Default::default()
            })
            .await
            .expect("counts");
        let by_state = listed(&client, &filter).await;
        let state = |label: &str| by_state.get(label).copied().unwrap_or(0);
        // The published counts have no field for the unknown state.
        assert_eq!(
            counts.listed(),
            total(&by_state) - state("unknown"),
            "{counts:?} {by_state:?}"
        );
        assert_eq!(counts.open, Some(state("open")));
        assert_eq!(
            counts.ignored,
            Some(state("ignored") + state("ignored in code"))
        );
        assert_eq!(counts.ignored_code, Some(state("ignored in code")));
        assert_eq!(counts.closed, Some(state("fixed") + state("removed")));
        assert_eq!(
            counts.provisionally_ignored,
            Some(state("provisionally ignored"))
        );
        let reasons = [
            counts.ignored_false_positive,
            counts.ignored_acceptable_risk,
            counts.ignored_no_time,
            counts.ignored_duplicate,
            counts.ignored_no_triage_reason,
        ];
        assert_eq!(
            reasons.iter().map(|n| n.unwrap()).sum::<i64>(),
            state("ignored"),
            "the reasons split the ignored-in-the-app: {counts:?}"
        );
        // The archived ones are what List issues gives when asked for them.
        let archived_only = ListIssuesFilter {
            include_archived: Some(true),
            ..filter.clone()
        };
        let archived = total(&listed(&client, &archived_only).await);
        assert!(archived > 0, "the demo has archived projects");
        assert_eq!(counts.archived, Some(archived));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_triage_moves_a_finding_between_the_counts() {
    let server = Watched::new(common::demo(300).await);
    let client = common::client_for(&server);
    let before = client
        .issue_counts(&GetIssueCountsRequest::default())
        .await
        .expect("counts");
    let open = ListIssuesFilter {
        aggregate_issue_states: vec![AggregateState::Open],
        ..Default::default()
    };
    let page = client
        .list_issues(&ListIssuesRequest {
            limit: Some(1),
            filter: Some(open),
            ..Default::default()
        })
        .await
        .expect("list");
    let id = page.issues[0].issue.as_ref().unwrap().id().to_owned();
    client
        .update_findings(&UpdateFindingsRequest::for_ids(
            vec![id],
            UpdateFindingParams {
                triage_state: Some(TriageState::Ignored),
                triage_reason: Some(TriageReason::FalsePositive),
                note: None,
            },
        ))
        .await
        .expect("triage");
    let after = client
        .issue_counts(&GetIssueCountsRequest::default())
        .await
        .expect("counts");
    assert_eq!(after.open.unwrap(), before.open.unwrap() - 1);
    assert_eq!(after.ignored.unwrap(), before.ignored.unwrap() + 1);
    assert_eq!(
        after.ignored_false_positive.unwrap(),
        before.ignored_false_positive.unwrap() + 1
    );
    assert_eq!(after.listed(), before.listed());
}
