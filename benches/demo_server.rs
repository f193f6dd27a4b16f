//! The demo server answering one 1,000-item page of a 1,000,000-finding set:
//! the query (filter, sort order, cursor) and the JSON body it sends, for
//! every sort and a spread of filters, from dense to matching nothing; the
//! report, the counts by state and the groups by rule; and the server's
//! start-up (every finding generated, every sort order built), with its
//! resident memory printed. Targets (issue 28): every answer within 50 ms,
//! start-up within 5 s and under 500 MB.
//!
//! Issue 52: at 10,000,000 (`FINDINGS=10000000`), up within 50 s and
//! 3 GB, each page answered as fast as at a million.
//!
//! Run: `cargo bench --bench demo_server` (FINDINGS=n for another size;
//! divan prints the fastest, median and slowest of each bench's samples).
//! Side by side: run it at `FINDINGS=1000000` and at `FINDINGS=10000000`;
//! at ten million leave out `list_page_deep` and `start` (`-- --skip
//! list_page_deep --skip start`): the first walks 7,500 pages a case
//! before it times one, the second builds the set three more times.

use findings_demo::{DemoOptions, DemoState, query};
use findings_model::*;
use std::sync::OnceLock;

fn main() {
    divan::main();
}

/// The set's size: `FINDINGS`, else a million.
fn findings() -> usize {
    std::env::var("FINDINGS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000)
}

fn options(findings: usize) -> DemoOptions {
    DemoOptions {
        findings,
        anchor: chrono::DateTime::parse_from_rfc3339("2026-11-01T00:00:00Z")
            .ok()
            .map(|t| t.to_utc()),
        ..Default::default()
    }
}

/// One server for every bench (it takes a second or two to build), its
/// start-up time and resident memory printed once.
fn state() -> &'static DemoState {
    static STATE: OnceLock<DemoState> = OnceLock::new();
    STATE.get_or_init(|| {
        let started = std::time::Instant::now();
        let state = DemoState::new(&options(findings()));
        eprintln!(
            "demo_server: {} findings, started in {} ms, resident {} (peak {})",
            findings(),
            started.elapsed().as_millis(),
            proc_status("VmRSS:"),
            proc_status("VmHWM:"),
        );
        state
    })
}

/// A line of `/proc/self/status` (Linux), e.g. the resident memory.
fn proc_status(key: &str) -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix(key).map(|v| v.trim().to_owned()))
        })
        .unwrap_or_else(|| "unknown".into())
}

/// List issues bodies, by name: each sort field and direction, and filters
/// from the dense (every finding) to the sparse (one, or none, in 200,000).
const LIST: &[(&str, &str)] = &[
    ("default", r"{}"),
    (
        "critical",
        r#"{"filter":{"severities":["SEVERITY_CRITICAL"]}}"#,
    ),
    ("severity-desc", r#"{"sortBy":"SORT_BY_SEVERITY"}"#),
    (
        "severity-asc",
        r#"{"sortBy":"SORT_BY_SEVERITY","sortDirection":"SORT_DIRECTION_ASC"}"#,
    ),
    ("ref-desc", r#"{"sortBy":"SORT_BY_REF"}"#),
    (
        "ref-asc",
        r#"{"sortBy":"SORT_BY_REF","sortDirection":"SORT_DIRECTION_ASC"}"#,
    ),
    ("repo-desc", r#"{"sortBy":"SORT_BY_REPO"}"#),
    (
        "repo-asc",
        r#"{"sortBy":"SORT_BY_REPO","sortDirection":"SORT_DIRECTION_ASC"}"#,
    ),
    ("rule-desc", r#"{"sortBy":"SORT_BY_RULE"}"#),
    (
        "rule-asc",
        r#"{"sortBy":"SORT_BY_RULE","sortDirection":"SORT_DIRECTION_ASC"}"#,
    ),
    ("state-desc", r#"{"sortBy":"SORT_BY_STATE"}"#),
    (
        "relevant-since-asc",
        r#"{"sortDirection":"SORT_DIRECTION_ASC"}"#,
    ),
    (
        "sca-by-repo",
        r#"{"sortBy":"SORT_BY_REPO","filter":{"issueTypes":["ISSUE_TYPE_SCA"]}}"#,
    ),
    (
        "one-repo-by-severity",
        r#"{"sortBy":"SORT_BY_SEVERITY","filter":{"repositoryNames":["acme/payments-api"]}}"#,
    ),
    (
        "open-primary-by-rule",
        r#"{"sortBy":"SORT_BY_RULE","filter":{"excludeHistorical":true,"onPrimaryBranch":true,"includeTicketed":false}}"#,
    ),
    (
        "last-week",
        r#"{"filter":{"since":"2026-10-25T00:00:00Z"}}"#,
    ),
    (
        "one-cve-by-ref",
        r#"{"sortBy":"SORT_BY_REF","filter":{"cves":["CVE-2021-44906"]}}"#,
    ),
    (
        "one-rule-by-rule",
        r#"{"sortBy":"SORT_BY_RULE","filter":{"ruleIds":["python.flask.security.injection.subprocess-injection.subprocess-injection"]}}"#,
    ),
    (
        "folder-by-state",
        r#"{"sortBy":"SORT_BY_STATE","filter":{"filePaths":["src"]}}"#,
    ),
    (
        "issue-parent",
        r#"{"filter":{"issueParentIds":["ip-3-5"]}}"#,
    ),
    (
        "memory-in-scope",
        r#"{"sortBy":"SORT_BY_SEVERITY","filter":{"memoryIdInScope":"mem-004"}}"#,
    ),
    ("one-id", r#"{"filter":{"ids":["150000"]}}"#),
    (
        "matches-nothing",
        r#"{"sortBy":"SORT_BY_RULE","filter":{"repositoryNames":["acme/no-such-repo"]}}"#,
    ),
    (
        "team-and-secrets",
        r#"{"sortBy":"SORT_BY_REPO","sortDirection":"SORT_DIRECTION_ASC","filter":{"issueTypes":["ISSUE_TYPE_SECRETS"],"teamNames":["platform-infra"]}}"#,
    ),
];

fn list_request(name: &str) -> ListIssuesRequest {
    let body = LIST
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, b)| *b)
        .expect("a named request");
    let mut req: ListIssuesRequest = serde_json::from_str(body).expect("a request body");
    req.limit = Some(1000);
    req
}

fn names() -> Vec<&'static str> {
    LIST.iter().map(|(n, _)| *n).collect()
}

/// The first page: query and JSON body, as the route answers it.
#[divan::bench(args = names(), sample_count = 20, sample_size = 1)]
fn list_first_page(bencher: divan::Bencher, name: &str) {
    let st = state();
    let req = list_request(name);
    bencher.bench(|| {
        let page =
            query::list_issues(&st.dataset, &st.orders, divan::black_box(&req)).expect("page");
        serde_json::to_vec(&page).expect("serialise")
    });
}

/// The filters of the cold benches: the first page of a query not seen
/// before, and its next page.
const COLD: &[&str] = &[
    "default",
    "critical",
    "one-repo-by-severity",
    "one-cve-by-ref",
    "one-rule-by-rule",
    "sca-by-repo",
    "matches-nothing",
    "folder-by-state",
    "memory-in-scope",
];

/// `name`'s request, not seen before: `until` moved `k` seconds past the
/// newest finding, which changes the query but not its answer.
fn unseen(name: &str, k: i64) -> ListIssuesRequest {
    let mut req = list_request(name);
    let filter = req.filter.get_or_insert_with(Default::default);
    filter.until = Some(state().dataset.anchor + chrono::Duration::seconds(k));
    req
}

/// The first page of a query not seen before: what it costs to find the
/// page without the rows of an earlier query (no count to give: the page
/// and its cursor need the first 1,001 matches, not every one).
#[divan::bench(args = COLD, sample_count = 20, sample_size = 1)]
fn list_first_page_cold(bencher: divan::Bencher, name: &str) {
    let st = state();
    let mut k = 0;
    bencher
        .with_inputs(|| {
            k += 1;
            unseen(name, k)
        })
        .bench_local_values(|req| {
            let page = query::list_issues(&st.dataset, &st.orders, &req).expect("page");
            serde_json::to_vec(&page).expect("serialise")
        });
}

/// The second page of a query not seen before (its first page asked just
/// before, untimed; the filter matching nothing has none).
#[divan::bench(args = COLD.iter().filter(|n| **n != "matches-nothing"), sample_count = 20, sample_size = 1)]
fn list_next_page_cold(bencher: divan::Bencher, name: &str) {
    let st = state();
    let mut k = 1_000;
    bencher
        .with_inputs(|| {
            k += 1;
            let mut req = unseen(name, k);
            let first = query::list_issues(&st.dataset, &st.orders, &req).expect("page");
            req.cursor = first.cursor;
            req
        })
        .bench_local_values(|req| {
            let page = query::list_issues(&st.dataset, &st.orders, &req).expect("page");
            serde_json::to_vec(&page).expect("serialise")
        });
}

/// A page deep in the listing: three quarters of the way through.
#[divan::bench(args = ["default", "rule-asc", "sca-by-repo", "one-cve-by-ref"], sample_count = 20, sample_size = 1)]
fn list_page_deep(bencher: divan::Bencher, name: &str) {
    let st = state();
    let mut req = list_request(name);
    // Follow cursors to three quarters of the set (or the last page).
    for _ in 0..findings() * 3 / 4 / 1000 {
        let page = query::list_issues(&st.dataset, &st.orders, &req).expect("page");
        match page.cursor {
            Some(c) => req.cursor = Some(c),
            None => break,
        }
    }
    bencher.bench(|| {
        let page =
            query::list_issues(&st.dataset, &st.orders, divan::black_box(&req)).expect("page");
        serde_json::to_vec(&page).expect("serialise")
    });
}

const REPORT: &[(&str, &str)] = &[
    ("default", r"{}"),
    (
        "critical-code-30d",
        r#"{"filters":{"findingSeverities":["FINDING_SEVERITY_CRITICAL"],"findingTypes":["FINDING_TYPE_CODE"],"timePeriod":{"since":"2026-10-02T00:00:00Z"}}}"#,
    ),
    (
        "fixed-by-team",
        r#"{"reportType":"REPORT_TYPE_TOTAL_FIXED","filters":{"teams":["platform-infra"]}}"#,
    ),
    (
        "matches-nothing",
        r#"{"filters":{"projects":["acme/no-such-repo"]}}"#,
    ),
];

fn report_request(name: &str) -> ReportRequest {
    let body = REPORT
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, b)| *b)
        .expect("a named request");
    let mut req: ReportRequest = serde_json::from_str(body).expect("a request body");
    req.limit = Some(1000);
    req
}

/// Report findings: a page and the totals over the whole filtered set.
#[divan::bench(args = REPORT.iter().map(|(n, _)| *n), sample_count = 20, sample_size = 1)]
fn report_first_page(bencher: divan::Bencher, name: &str) {
    let st = state();
    let req = report_request(name);
    bencher.bench(|| {
        let page =
            query::report_findings(&st.dataset, &st.orders, divan::black_box(&req)).expect("page");
        serde_json::to_vec(&page).expect("serialise")
    });
}

/// A report query not seen before: its totals scan included (see
/// `list_first_page_cold`).
#[divan::bench(args = ["default", "critical-code-30d"], sample_count = 20, sample_size = 1)]
fn report_first_page_cold(bencher: divan::Bencher, name: &str) {
    let st = state();
    let mut req = report_request(name);
    let newest = st.dataset.anchor;
    let mut k = 0;
    bencher.bench_local(|| {
        k += 1;
        let filters = req.filters.get_or_insert_with(Default::default);
        let period = filters.time_period.get_or_insert_with(Default::default);
        period.until = Some(newest + chrono::Duration::seconds(k));
        let page =
            query::report_findings(&st.dataset, &st.orders, divan::black_box(&req)).expect("page");
        serde_json::to_vec(&page).expect("serialise")
    });
}

/// The report's second page (the totals are those of the first).
#[divan::bench(args = ["default", "critical-code-30d"], sample_count = 20, sample_size = 1)]
fn report_next_page(bencher: divan::Bencher, name: &str) {
    let st = state();
    let mut req = report_request(name);
    let first = query::report_findings(&st.dataset, &st.orders, &req).expect("page");
    req.cursor = first.cursor;
    bencher.bench(|| {
        let page =
            query::report_findings(&st.dataset, &st.orders, divan::black_box(&req)).expect("page");
        serde_json::to_vec(&page).expect("serialise")
    });
}

/// Counts by state of List issues' selection, bodies by name.
const COUNTS: &[(&str, &str)] = &[
    ("default", r"{}"),
    ("sca", r#"{"issueTypes":["ISSUE_TYPE_SCA"]}"#),
    (
        "one-repo",
        r#"{"filter":{"repositoryNames":["acme/payments-api"]}}"#,
    ),
];

fn named<T: serde::de::DeserializeOwned>(list: &[(&str, &str)], name: &str) -> T {
    let body = list
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, b)| *b)
        .expect("a named request");
    serde_json::from_str(body).expect("a request body")
}

/// Get issue counts: every state counted over the filter's findings.
#[divan::bench(args = COUNTS.iter().map(|(n, _)| *n), sample_count = 20, sample_size = 1)]
fn counts(bencher: divan::Bencher, name: &str) {
    let st = state();
    let req: GetIssueCountsRequest = named(COUNTS, name);
    bencher.bench(|| {
        let counts =
            query::issue_counts(&st.dataset, &st.orders, divan::black_box(&req)).expect("counts");
        serde_json::to_vec(&counts).expect("serialise")
    });
}

/// Counts for a filter not seen before (its scan included; see
/// `list_first_page_cold`).
#[divan::bench(args = ["default", "one-repo"], sample_count = 20, sample_size = 1)]
fn counts_cold(bencher: divan::Bencher, name: &str) {
    let st = state();
    let mut req: GetIssueCountsRequest = named(COUNTS, name);
    let newest = st.dataset.anchor;
    let mut k = 0;
    bencher.bench_local(|| {
        k += 1;
        let filter = req.filter.get_or_insert_with(Default::default);
        filter.until = Some(newest + chrono::Duration::seconds(k));
        let counts =
            query::issue_counts(&st.dataset, &st.orders, divan::black_box(&req)).expect("counts");
        serde_json::to_vec(&counts).expect("serialise")
    });
}

/// List issue groups, bodies by name (a page of 100 groups by rule).
const GROUPS: &[(&str, &str)] = &[
    ("default", r#"{"limit":100}"#),
    (
        "by-severity",
        r#"{"limit":100,"sortBy":"SORT_BY_SEVERITY"}"#,
    ),
    (
        "secrets-one-team",
        r#"{"limit":100,"issueTypes":["ISSUE_TYPE_SECRETS"],"filter":{"teamNames":["platform-infra"]}}"#,
    ),
];

/// A page of groups by rule: every matched finding tallied.
#[divan::bench(args = GROUPS.iter().map(|(n, _)| *n), sample_count = 20, sample_size = 1)]
fn groups(bencher: divan::Bencher, name: &str) {
    let st = state();
    let req: ListIssueGroupsRequest = named(GROUPS, name);
    bencher.bench(|| {
        let groups = query::list_issue_groups(&st.dataset, &st.orders, divan::black_box(&req))
            .expect("groups");
        serde_json::to_vec(&groups).expect("serialise")
    });
}

/// Start-up: generating every finding and building every sort order.
#[divan::bench(sample_count = 3, sample_size = 1)]
fn start() -> DemoState {
    DemoState::new(&options(findings()))
}
