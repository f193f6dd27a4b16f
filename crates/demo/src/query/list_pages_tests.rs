//! Every way `list_pages` finds a page gives the page and the cursor a scan
//! of every row gives (the answer List issues gave before it): page by
//! page, for filters from every row to none, every sort, with and without
//! triage since start-up.

use super::list::selection;
use super::list_match::ListMatcher;
use super::list_pages::{ListQuery, Way, page_by};
use super::order::Orders;
use super::pages::collect_page;
use crate::dataset::Dataset;
use findings_model::*;

const FILTERS: &[&str] = &[
    r"{}",
    r#"{"severities":["SEVERITY_CRITICAL"]}"#,
    r#"{"repositoryNames":["acme/payments-api"]}"#,
    r#"{"cves":["CVE-2021-44906"]}"#,
    r#"{"ruleIds":["python.flask.security.injection.subprocess-injection.subprocess-injection"]}"#,
    r#"{"issueTypes":["ISSUE_TYPE_SCA"]}"#,
    r#"{"issueTypes":["ISSUE_TYPE_SECRETS"],"teamNames":["platform-infra"]}"#,
    r#"{"repositoryNames":["acme/no-such-repo"]}"#,
    r#"{"memoryIdInScope":"mem-999"}"#,
    r#"{"ids":["100007","100042","100999","102500","999999999"]}"#,
    r#"{"ids":["999999999"]}"#,
    r#"{"refs":["main"],"onPrimaryBranch":true}"#,
    r#"{"onPrimaryBranch":false,"severities":["SEVERITY_LOW"]}"#,
    r#"{"repositoryRefIds":["61000","61004"]}"#,
    r#"{"issueParentIds":["ip-3-5","ip-0-1"]}"#,
    r#"{"filePaths":["src"]}"#,
    r#"{"filePaths":["zzqq"]}"#,
    r#"{"includeArchived":true}"#,
    r#"{"since":"2026-09-01T00:00:00Z","excludeHistorical":true}"#,
    r#"{"aggregateIssueStates":["AGGREGATE_ISSUE_STATE_OPEN"],"repositoryNames":["acme/ledger-core","acme/crypto-vault"]}"#,
    r#"{"exposures":["REACHABLE"],"dependencies":["lodash"]}"#,
];

/// Every page of the query, following the cursors from the start.
fn pages(
    next_page: impl Fn(usize) -> (Vec<usize>, Option<usize>),
) -> Vec<(Vec<usize>, Option<usize>)> {
    let mut pages = vec![next_page(0)];
    while let Some(at) = pages.last().and_then(|p| p.1) {
        pages.push(next_page(at));
    }
    pages
}

/// Each way against a scan of every row, for each filter, sort and limit,
/// and from starts no cursor gives (between matches, past the end).
fn each_way_pages_as_the_scan(ds: &Dataset) {
    // (`Way::Chosen` sorts every filter of 1,500 rows.)
    let ways = [
        Way::Sorted,
        Way::Walk { budget: usize::MAX },
        Way::Walk { budget: 40 },
        Way::Scan,
    ];
    let parsed: Vec<ListIssuesFilter> = FILTERS
        .iter()
        .map(|body| serde_json::from_str(body).expect("a filter"))
        .collect();
    let filters: Vec<_> = FILTERS
        .iter()
        .zip(&parsed)
        .map(|(body, f)| {
            (
                body,
                selection(&None, &[], Some(f)).expect("a known filter"),
            )
        })
        .collect();
    let changes = ds.changes();
    let mut nonempty = 0;
    for by in SortBy::ALL {
        for dir in [SortDirection::Asc, SortDirection::Desc] {
            // The order of every row does not depend on the filter.
            let order = Orders::default().list_order(ds, &changes, by, &dir);
            let starts = [1, 2, 999, order.len() - 1, order.len(), order.len() + 3];
            for (body, (f, types)) in &filters {
                let scan = ListMatcher::new(ds, &changes, f, types).scan();
                nonempty += usize::from(scan.count() > 0);
                let wants = [251, 1000]
                    .map(|limit| pages(|at| collect_page(&order, at, limit, |i| scan.get(i))));
                for way in ways {
                    // Fresh memos: each way finds its pages itself (the
                    // second limit reads what the first kept).
                    let orders = Orders::default();
                    let q = ListQuery {
                        ds,
                        orders: &orders,
                        changes: &changes,
                        filter: f,
                        types,
                        by,
                        dir: &dir,
                    };
                    for (limit, want) in [251, 1000].into_iter().zip(&wants) {
                        let got = pages(|at| page_by(&q, &order, at, limit, way));
                        assert_eq!(&got, want, "{body} {by:?} {dir:?} limit {limit} {way:?}");
                        for at in starts {
                            assert_eq!(
                                page_by(&q, &order, at, limit, way),
                                collect_page(&order, at, limit, |i| scan.get(i)),
                                "{body} {by:?} {dir:?} limit {limit} {way:?} from {at}"
                            );
                        }
                    }
                }
            }
        }
    }
    // Most filters match something, some nothing.
    assert!(nonempty > FILTERS.len() * 12 * 3 / 4, "{nonempty}");
}

#[test]
fn every_way_gives_the_pages_a_scan_of_every_row_gives() {
    let ds = Dataset::generate(1_500, 7, super::at(1_790_000_000), "1234");
    each_way_pages_as_the_scan(&ds);
}

/// Severities and states changed since start-up: the state order is the
/// state now, the other orders the generated one; the filters read now.
#[test]
fn every_way_pages_as_the_scan_after_triage() {
    let ds = Dataset::generate_moved_on(1_500, 7, super::at(1_790_000_000), "1234", 14);
    assert!(ds.changes().generation > 0 && !ds.changes().findings.is_empty());
    each_way_pages_as_the_scan(&ds);
}
