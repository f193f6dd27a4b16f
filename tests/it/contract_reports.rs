//! Contract tests of the dashboard's reports (`ReportsService_Get*Report`):
//! the real client against the demo server, every exchange checked against
//! the published schemas; the ground truth is Report findings' totals and
//! the reports' own sums, and a triage moves the numbers it should.

use crate::common;
use crate::published::Watched;
use findings_client::Client;
use findings_model::*;

fn request(f: ReportFilters) -> GetReportRequest {
    GetReportRequest { filters: Some(f) }
}

/// The period of `days` days ending a day after the wall clock (a triage
/// written now falls in its last bucket), in buckets of `size`.
fn period(days: i64, size: TimeBucketSize) -> ReportFilters {
    let until = chrono::Utc::now() + chrono::Duration::days(1);
    ReportFilters {
        time_period: Some(TimePeriod {
            since: Some(until - chrono::Duration::days(days)),
            until: Some(until),
        }),
        time_bucket_size: Some(size),
        ..Default::default()
    }
}

/// The ids of `n` open findings of `severity` the user may ignore, from
/// the first page of Report findings.
async fn ignorable(client: &Client, severity: FindingSeverity, n: usize) -> Vec<String> {
    client
        .report_findings(&ReportRequest {
            report_type: Some(ReportType::TotalOpen),
            filters: Some(ReportFilters {
                finding_severities: vec![severity],
                ..Default::default()
            }),
            limit: Some(50),
            ..Default::default()
        })
        .await
        .unwrap()
        .findings
        .into_iter()
        .filter(|f| f.triage_permission == Some(TriagePermission::Ignore))
        .filter_map(|f| f.id)
        .take(n)
        .collect()
}

/// The open backlog by severity now, as Report findings counts it.
async fn open_now(client: &Client, severity: FindingSeverity) -> i64 {
    client
        .report_findings(&ReportRequest {
            report_type: Some(ReportType::TotalOpen),
            filters: Some(ReportFilters {
                finding_severities: vec![severity],
                ..Default::default()
            }),
            limit: Some(1),
            ..Default::default()
        })
        .await
        .expect("report findings")
        .total
        .expect("a total")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_backlog_reports_agree_with_report_findings_and_with_each_other() {
    let server = Watched::new(common::demo(800).await);
    let client = common::client_for(&server);
    let req = request(period(400, TimeBucketSize::Month));
    let by_severity = client.backlog_by_severity_report(&req).await.unwrap();
    assert!(
        by_severity.buckets.len() >= 13,
        "{}",
        by_severity.buckets.len()
    );
    // Buckets tile the period, in order.
    for pair in by_severity.buckets.windows(2) {
        let end = pair[0].time_period.as_ref().and_then(|p| p.until);
        let start = pair[1].time_period.as_ref().and_then(|p| p.since);
        assert_eq!(end, start);
    }
    let last = by_severity.buckets.last().unwrap().counts;
    let severities = [
        FindingSeverity::Critical,
        FindingSeverity::High,
        FindingSeverity::Medium,
        FindingSeverity::Low,
    ];
    let mut now = [0; 4];
    for (slot, severity) in severities.into_iter().enumerate() {
        now[slot] = open_now(&client, severity).await;
    }
    assert_eq!(
        last.most_severe_first(),
        now,
        "the backlog now is what Report findings counts open"
    );
    // The backlog grows from nothing: the first month holds fewer.
    assert!(by_severity.buckets[0].counts.total() < last.total());

    // By project at the period's end: the same backlog, by repository.
    let by_project = client.by_project_report(&req).await.unwrap();
    let summed: i64 = by_project.by_project.values().map(BySeverity::total).sum();
    assert_eq!(summed, last.total());
    assert!(
        by_project.by_project.keys().all(|k| k.starts_with("acme/")),
        "{:?}",
        by_project.by_project.keys()
    );

    // By rule at each bucket's end: the same totals.
    let by_rule = client.backlog_by_rule_report(&req).await.unwrap();
    for (rules, severity) in by_rule.buckets.iter().zip(&by_severity.buckets) {
        let n: i64 = rules.open.values().map(|c| c.0.unwrap_or(0)).sum();
        assert_eq!(n, severity.counts.total());
    }

    // The median open age: days, at most the period's length.
    let ages = client.median_open_age_report(&req).await.unwrap();
    let last_ages = ages.buckets.last().unwrap().counts;
    for (age, open) in last_ages.most_severe_first().iter().zip(now) {
        assert!(*age >= 0 && *age <= 400 + 366, "{last_ages:?}");
        if open == 0 {
            assert_eq!(*age, 0, "nothing open: no age");
        }
    }
    assert!(last_ages.critical.is_some() || now[0] == 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn activity_nets_add_up_and_a_triage_moves_a_finding_out_of_the_backlog() {
    let server = Watched::new(common::demo(300).await);
    let client = common::client_for(&server);
    let req = request(period(60, TimeBucketSize::Week));
    let before = client.activity_report(&req).await.unwrap();
    let n = |v: Option<i64>| v.unwrap_or(0);
    let mut sums = [0; 5];
    for b in &before.buckets {
        let parts = [
            b.opened,
            b.fixed,
            b.removed,
            b.ignored,
            b.provisionally_ignored,
        ]
        .map(n);
        assert_eq!(
            n(b.net),
            parts[0] - parts[1] - parts[2] - parts[3] - parts[4],
            "{b:?}"
        );
        for (sum, part) in sums.iter_mut().zip(parts) {
            *sum += part;
        }
    }
    let this = before.this_period.expect("this period");
    assert_eq!(n(this.total_new), sums[0]);
    assert_eq!(n(this.total_fixed), sums[1]);
    assert_eq!(n(this.total_ignored), sums[3]);
    assert_eq!(before.total_new, this.total_new);
    assert!(before.previous_period.is_some());
    assert!(sums[0] > 0, "findings were opened in 60 days: {before:?}");

    // Ignore one open finding now: this week's ignores grow by one, the
    // backlog shrinks by one.
    let backlog = |r: BySeverityReport| r.buckets.last().map_or(0, |b| b.counts.total());
    let open_before = backlog(client.backlog_by_severity_report(&req).await.unwrap());
    let id = ignorable(&client, FindingSeverity::High, 1)
        .await
        .pop()
        .expect("an open finding that may be ignored");
    let answer = client
        .update_findings(&UpdateFindingsRequest::for_ids(
            vec![id],
            UpdateFindingParams {
                triage_state: Some(TriageState::Ignored),
                triage_reason: Some(TriageReason::AcceptableRisk),
                note: None,
            },
        ))
        .await
        .unwrap();
    assert_eq!(answer.num_ignored, Some(1));
    let after = client.activity_report(&req).await.unwrap();
    let ignored = |r: &ActivityReport| n(r.buckets.last().unwrap().ignored);
    assert_eq!(ignored(&after), ignored(&before) + 1);
    let open_after = backlog(client.backlog_by_severity_report(&req).await.unwrap());
    assert_eq!(open_after, open_before - 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_period_the_reports_cannot_answer_is_refused_with_the_reason() {
    let server = Watched::new(common::demo(50).await);
    let client = common::client_for(&server);
    let days_of_years = request(period(800, TimeBucketSize::Day));
    let err = client.activity_report(&days_of_years).await.unwrap_err();
    assert!(err.to_string().contains("more than 366 buckets"), "{err}");
    let mut backwards = period(30, TimeBucketSize::Week);
    if let Some(p) = &mut backwards.time_period {
        std::mem::swap(&mut p.since, &mut p.until);
    }
    let err = client
        .backlog_by_severity_report(&request(backwards))
        .await
        .unwrap_err();
    assert!(
        err.to_string().contains("since must be before until"),
        "{err}"
    );
    // No period: the 30 days before the data set's now, by week.
    let default = client
        .backlog_by_rule_report(&GetReportRequest::default())
        .await
        .unwrap();
    assert_eq!(default.buckets.len(), 5);
}

/// Open findings per rule id, as the groups view counts them for `filter`
/// (every page).
async fn grouped(
    client: &Client,
    filter: ListIssuesFilter,
) -> std::collections::BTreeMap<String, i64> {
    let selection = ListSelection {
        filter,
        ..Default::default()
    };
    let mut req = ListIssueGroupsRequest {
        limit: Some(100),
        ..ListIssueGroupsRequest::by_rule(&selection)
    };
    let mut counts = std::collections::BTreeMap::new();
    loop {
        let page = client.list_issue_groups(&req).await.expect("groups");
        for g in page.groups {
            *counts.entry(g.rule_id.unwrap_or_default()).or_insert(0) +=
                g.issues_count.unwrap_or(0);
        }
        match page.cursor {
            Some(c) => req.cursor = Some(c),
            None => return counts,
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_backlog_by_rule_now_is_what_the_groups_view_counts_open() {
    let server = Watched::new(common::demo(600).await);
    let client = common::client_for(&server);
    let open = ListIssuesFilter {
        aggregate_issue_states: vec![
            AggregateState::Open,
            AggregateState::Reviewing,
            AggregateState::Fixing,
        ],
        ..Default::default()
    };
    // The reports count archived projects too; the list counts them apart.
    let mut expected = grouped(&client, open.clone()).await;
    let archived = ListIssuesFilter {
        include_archived: Some(true),
        ..open
    };
    for (rule, n) in grouped(&client, archived).await {
        *expected.entry(rule).or_insert(0) += n;
    }
    expected.retain(|_, n| *n > 0);
    let by_rule = client
        .backlog_by_rule_report(&request(period(30, TimeBucketSize::Week)))
        .await
        .unwrap();
    let now: std::collections::BTreeMap<String, i64> = by_rule
        .buckets
        .last()
        .unwrap()
        .open
        .iter()
        .map(|(k, v)| (k.clone(), v.0.unwrap_or(0)))
        .collect();
    assert!(now.len() > 5, "{now:?}");
    assert_eq!(now, expected);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn count_issues_is_what_search_issues_lists() {
    let server = Watched::new(common::demo(100).await);
    let client = common::client_for(&server);
    let critical = SearchFilters {
        severities: vec![Severity::Critical],
        ..Default::default()
    };
    for filters in [None, Some(&critical)] {
        let count = client.count_issues(filters).await.unwrap().count;
        let mut listed = 0;
        let mut req = SearchIssuesRequest {
            filters: filters.cloned(),
            limit: Some(100),
            ..Default::default()
        };
        loop {
            let page = client.search_issues(&req).await.unwrap();
            listed += page.issues.len() as i64;
            match page.cursor {
                Some(c) => req.cursor = Some(c),
                None => break,
            }
        }
        assert_eq!(count, Some(listed), "{filters:?}");
        assert!(listed > 0);
    }
}

/// With no period (what the TUI's views and `report --kind` ask by
/// default), every backlog report counts a triage made a moment ago: a
/// finding ignored now has left the open backlog "now", as List issues and
/// the counts say at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_backlog_report_follows_a_triage_at_once() {
    let server = Watched::new(common::demo(300).await);
    let client = common::client_for(&server);
    let req = request(ReportFilters::default());
    let figures = async |client: &Client| {
        let by_project: i64 = client
            .by_project_report(&req)
            .await
            .unwrap()
            .by_project
            .values()
            .map(BySeverity::total)
            .sum();
        let by_rule: i64 = client
            .backlog_by_rule_report(&req)
            .await
            .unwrap()
            .buckets
            .last()
            .map_or(0, |b| b.open.values().map(|c| c.0.unwrap_or(0)).sum());
        let by_severity = client
            .backlog_by_severity_report(&req)
            .await
            .unwrap()
            .buckets
            .last()
            .map_or(0, |b| b.counts.total());
        [by_project, by_rule, by_severity]
    };
    let before = figures(&client).await;
    let ids = ignorable(&client, FindingSeverity::Critical, 2).await;
    assert_eq!(ids.len(), 2);
    client
        .update_findings(&UpdateFindingsRequest::for_ids(
            ids,
            UpdateFindingParams {
                triage_state: Some(TriageState::Ignored),
                ..Default::default()
            },
        ))
        .await
        .unwrap();
    let after = figures(&client).await;
    assert_eq!(after, before.map(|n| n - 2), "before {before:?}");
}

/// For every period the TUI offers and every bucket size: each bucket's
/// net is its opened less the four ways out, and the headline (the rows
/// added up) is the period's own totals, term by term.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_headline_is_the_rows_added_up_for_every_period_and_bucket() {
    let server = Watched::new(common::demo(400).await);
    let client = common::client_for(&server);
    let n = |v: Option<i64>| v.unwrap_or(0);
    for days in [7, 30, 90, 365] {
        for size in [
            TimeBucketSize::Day,
            TimeBucketSize::Week,
            TimeBucketSize::Month,
        ] {
            let report = client
                .activity_report(&request(period(days, size.clone())))
                .await
                .unwrap();
            for b in &report.buckets {
                let out = n(b.fixed) + n(b.removed) + n(b.ignored) + n(b.provisionally_ignored);
                assert_eq!(n(b.net), n(b.opened) - out, "{days}d {size:?}: {b:?}");
            }
            let rows = report.row_sums();
            let totals = report.this_period.expect("this period").sums();
            assert_eq!(rows, totals, "{days}d {size:?}");
            assert_eq!(
                rows.net,
                rows.opened - rows.fixed - rows.removed - rows.ignored - rows.provisionally_ignored,
                "{days}d {size:?}"
            );
        }
    }
}
