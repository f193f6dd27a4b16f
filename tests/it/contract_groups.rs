//! Contract tests of List issue groups (`IssuesService_ListIssueGroups`):
//! the real client against the demo server, every exchange checked against
//! the published schemas; the ground truth is the List issues listing.

use crate::common;
use crate::published::Watched;
use findings_client::Client;
use findings_model::*;
use std::collections::BTreeMap;

async fn all_groups(client: &Client, mut req: ListIssueGroupsRequest) -> Vec<RuleGroup> {
    let mut out = Vec::new();
    loop {
        let page = client.list_issue_groups(&req).await.expect("groups");
        let fetched = page.fetched.expect("fetched");
        out.extend(page.groups);
        assert_eq!(
            fetched as usize,
            out.len(),
            "fetched counts the groups so far"
        );
        if let Some(c) = page.cursor {
            req.cursor = Some(c);
        } else {
            assert_eq!(page.total, Some(out.len() as i64));
            return out;
        }
    }
}

/// Findings per rule id, as List issues gives them for `selection`.
async fn listed(client: &Client, selection: &ListSelection) -> BTreeMap<String, i64> {
    let mut req = ListIssuesRequest {
        limit: Some(1000),
        ..Default::default()
    };
    selection.apply_to(&mut req);
    let mut counts = BTreeMap::new();
    loop {
        let page = client.list_issues(&req).await.expect("list");
        for item in page.issues {
            let rule = item.issue.and_then(|i| i.rule_id).expect("a rule id");
            *counts.entry(rule).or_insert(0) += 1;
        }
        match page.cursor {
            Some(c) => req.cursor = Some(c),
            None => return counts,
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn groups_count_what_list_issues_lists_in_the_order_asked() {
    let server = Watched::new(common::demo(600).await);
    let client = common::client_for(&server);
    let mut narrowed = ListSelection::default();
    narrowed.filter.severities = vec![Severity::High, Severity::Critical];
    for selection in [ListSelection::default(), narrowed] {
        let groups = all_groups(
            &client,
            ListIssueGroupsRequest {
                limit: Some(7),
                ..ListIssueGroupsRequest::by_rule(&selection)
            },
        )
        .await;
        let got: BTreeMap<String, i64> = groups
            .iter()
            .map(|g| (g.rule_id.clone().unwrap(), g.issues_count.unwrap()))
            .collect();
        assert_eq!(got.len(), groups.len(), "one group per rule");
        assert_eq!(got, listed(&client, &selection).await);
        let counts: Vec<i64> = groups.iter().map(|g| g.issues_count.unwrap()).collect();
        assert!(
            counts.windows(2).all(|w| w[0] >= w[1]),
            "most findings first by default: {counts:?}"
        );
    }
    let asc = all_groups(
        &client,
        ListIssueGroupsRequest {
            sort_direction: Some(SortDirection::Asc),
            ..ListIssueGroupsRequest::by_rule(&ListSelection::default())
        },
    )
    .await;
    let counts: Vec<i64> = asc.iter().map(|g| g.issues_count.unwrap()).collect();
    assert!(counts.windows(2).all(|w| w[0] <= w[1]), "{counts:?}");
    // By severity: a group with a critical finding before any without.
    let by_severity = all_groups(
        &client,
        ListIssueGroupsRequest {
            sort_by: Some(GroupSortBy::Severity),
            ..ListIssueGroupsRequest::by_rule(&ListSelection::default())
        },
    )
    .await;
    let mut criticals = ListSelection::default();
    criticals.filter.severities = vec![Severity::Critical];
    let critical_rules = listed(&client, &criticals).await;
    let flags: Vec<bool> = by_severity
        .iter()
        .map(|g| critical_rules.contains_key(g.rule_id.as_deref().unwrap()))
        .collect();
    assert!(flags.iter().any(|f| *f) && flags.iter().any(|f| !*f));
    assert!(flags.windows(2).all(|w| w[0] >= w[1]), "{flags:?}");
    drop(server);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cursor_of_other_groups_is_refused() {
    let server = Watched::new(common::demo(100).await);
    let client = common::client_for(&server);
    let page = client
        .list_issue_groups(&ListIssueGroupsRequest {
            limit: Some(2),
            ..ListIssueGroupsRequest::by_rule(&ListSelection::default())
        })
        .await
        .expect("groups");
    let other = ListIssueGroupsRequest {
        cursor: page.cursor,
        sort_by: Some(GroupSortBy::Severity),
        ..ListIssueGroupsRequest::by_rule(&ListSelection::default())
    };
    assert!(client.list_issue_groups(&other).await.is_err());
    drop(server);
}
