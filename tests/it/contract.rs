//! Contract tests: the real client (`findings_client::Client`) against the
//! embedded demo server, over real HTTP.
//!
//! Ground truth is computed here, independently of the server's matcher: from
//! the full, unfiltered listing (and, for the few facts the wire does not
//! carry, such as project tags, from the demo catalog), by applying the
//! semantics of `docs/src/api.md` ("Semantics of filters") to the returned
//! fields. The read-only tests share one server (started once, on a runtime
//! of its own) and the full listings read from it; a test that changes the
//! server's data starts its own.

use chrono::{DateTime, Duration, TimeZone, Utc};
use findings_client::{
    ApiError, Client, ClientConfig, Page, PagedRequest, ServerMessage, Token, pages,
};
use findings_demo::routes::TOKEN_WITHOUT_WEB_API;
use findings_demo::{DemoOptions, DemoServer};
use findings_model::*;
use futures_util::StreamExt;
use std::cmp::{Ordering, Reverse};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The shared server's findings: enough for every filter case to match some
/// and not all, few enough that the full listings stay cheap to read.
const FINDINGS: usize = 1_000;
const AGENTIC: usize = 200;
const TOKEN: &str = "demo-token";

fn anchor() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 1, 0, 0, 0)
        .single()
        .expect("a valid anchor")
}

// ------------------------------------------------------------------ harness

/// Catalog facts of a project that the wire does not carry.
#[derive(Debug, Clone)]
struct Project {
    tags: Vec<String>,
    archived: bool,
    deployment_status: String,
    public_exposure: String,
    /// The teams the repository is assigned to.
    teams: Vec<String>,
}

/// A demo server and a client for it.
struct Env {
    server: Server,
    client: Client,
}

/// The shared server, or a test's own.
enum Server {
    Shared(&'static DemoServer),
    Own(DemoServer),
}

impl std::ops::Deref for Server {
    type Target = DemoServer;
    fn deref(&self) -> &DemoServer {
        match self {
            Server::Shared(s) => s,
            Server::Own(s) => s,
        }
    }
}

async fn start_server() -> DemoServer {
    start_server_of(FINDINGS).await
}

async fn start_server_of(findings: usize) -> DemoServer {
    let server = DemoServer::start_local(DemoOptions {
        findings,
        seed: 1,
        token: TOKEN.into(),
        own_token_only: false,
        anchor: Some(anchor()),
        days_later: 0,
    })
    .await
    .expect("the demo server starts");
    assert_eq!(server.state().dataset.rows.len(), findings);
    crate::published::watch(&server);
    server
}

/// The server the read-only tests share. It runs on a runtime of its own:
/// each test has its own runtime, and a server spawned on one would end
/// with that test.
fn shared_server() -> &'static DemoServer {
    static SERVER: std::sync::OnceLock<DemoServer> = std::sync::OnceLock::new();
    SERVER.get_or_init(|| {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .expect("a runtime for the shared server");
            runtime.block_on(async move {
                tx.send(start_server().await).expect("the test waits");
                std::future::pending::<()>().await;
            });
        });
        rx.recv().expect("the shared server starts")
    })
}

/// The full listings of the shared server, read once.
static LIST_TRUTH: tokio::sync::OnceCell<Truth> = tokio::sync::OnceCell::const_new();
static LIST_TRUTH_WITH_ACTIVITY: tokio::sync::OnceCell<Truth> = tokio::sync::OnceCell::const_new();
static REPORT_TRUTH: tokio::sync::OnceCell<Truth> = tokio::sync::OnceCell::const_new();
static SEARCH_TRUTH: tokio::sync::OnceCell<SearchTruth> = tokio::sync::OnceCell::const_new();

fn client_for(server: &DemoServer, token: &str, deployment: &str) -> Client {
    Client::new(ClientConfig::new(
        server.url(),
        deployment,
        Token::new(token),
    ))
    .expect("a valid client configuration")
}

/// Every exchange with a contract test's server is checked against the
/// published schemas as it happens; a test fails when it ends if any broke
/// them (the shared server's exchanges may be another test's: any test that
/// sees a violation fails, so none passes unseen).
impl Drop for Env {
    fn drop(&mut self) {
        crate::published::assert_no_violations();
    }
}

impl Env {
    /// The shared server (for tests that do not change its data).
    async fn start() -> Env {
        Env::with(Server::Shared(shared_server()))
    }

    /// A server of the test's own (for tests that change its data).
    async fn own() -> Env {
        Env::with(Server::Own(start_server().await))
    }

    /// A server of the test's own with `findings` findings.
    async fn own_of(findings: usize) -> Env {
        Env::with(Server::Own(start_server_of(findings).await))
    }

    fn with(server: Server) -> Env {
        let client = client_for(&server, server.token(), server.deployment());
        Env { server, client }
    }

    /// `read` once per shared server (cached in `cell`), every time on a
    /// test's own.
    async fn cached<T: Clone, F: std::future::Future<Output = T>>(
        &self,
        cell: &'static tokio::sync::OnceCell<T>,
        read: impl FnOnce() -> F,
    ) -> T {
        match self.server {
            Server::Shared(_) => cell.get_or_init(read).await.clone(),
            Server::Own(_) => read().await,
        }
    }

    fn url(&self, path: &str) -> String {
        format!("{}{}", self.server.url(), path)
    }

    fn projects(&self) -> HashMap<String, Project> {
        let ds = &self.server.state().dataset;
        ds.catalog
            .repositories
            .iter()
            .zip(&ds.repos)
            .map(|(r, info)| {
                (
                    r.name.clone(),
                    Project {
                        tags: r.tags.clone(),
                        archived: r.archived,
                        deployment_status: r.deployment_status.clone(),
                        public_exposure: r.public_exposure.clone(),
                        teams: info
                            .teams
                            .iter()
                            .map(|&k| ds.catalog.people.teams[k as usize].name.clone())
                            .collect(),
                    },
                )
            })
            .collect()
    }

    /// Every finding of List issues, with isArchived.
    async fn list_truth(&self) -> Truth {
        self.list_truth_with(false).await
    }

    /// Every finding of List issues, with isArchived and, when asked, the
    /// activity history.
    async fn list_truth_with(&self, activity: bool) -> Truth {
        let cell = if activity {
            &LIST_TRUTH_WITH_ACTIVITY
        } else {
            &LIST_TRUTH
        };
        self.cached(cell, || self.read_list_truth(activity)).await
    }

    /// Every finding: no List issues request gives them all, since
    /// archived projects' findings come only with `includeArchived` true
    /// and only then; the two listings together do.
    async fn read_list_truth(&self, activity: bool) -> Truth {
        let mut issues = Vec::new();
        for archived in [None, Some(true)] {
            let pages = self
                .raw_all_pages(
                    "/api/agent/deployments/1234/issues",
                    ListIssuesRequest {
                        limit: Some(1000),
                        include_is_archived: Some(true),
                        include_activity_history: activity.then_some(true),
                        filter: archived.map(|a| ListIssuesFilter {
                            include_archived: Some(a),
                            ..Default::default()
                        }),
                        ..Default::default()
                    },
                )
                .await;
            issues.extend(
                pages
                    .into_iter()
                    .flat_map(|p| p.issues)
                    .map(|item| item.issue.expect("every list item carries an issue")),
            );
        }
        Truth::new(issues, self.projects())
    }

    /// Every finding of the PROJECT report (all states).
    async fn report_truth(&self) -> Truth {
        self.cached(&REPORT_TRUTH, || self.read_report_truth())
            .await
    }

    async fn read_report_truth(&self) -> Truth {
        let findings = self
            .raw_all_pages(
                "/api/reporting/1234/findings",
                ReportRequest {
                    report_type: Some(ReportType::Project),
                    limit: Some(1000),
                    ..Default::default()
                },
            )
            .await
            .into_iter()
            .flat_map(|p| p.findings)
            .collect();
        Truth::new(findings, self.projects())
    }

    /// Every page of a listing over plain HTTP without gzip: the ground truth
    /// is read independently of the client (and faster in debug builds).
    async fn raw_all_pages<R>(&self, path: &str, mut req: R) -> Vec<R::Page>
    where
        R: PagedRequest + serde::Serialize,
        R::Page: serde::de::DeserializeOwned,
    {
        let http = crate::common::http_builder()
            .gzip(false)
            .build()
            .expect("an HTTP client");
        let mut out = Vec::new();
        loop {
            let body = serde_json::to_string(&req).expect("a JSON body");
            let answer = raw(
                &http,
                reqwest::Method::POST,
                &self.url(path),
                Some(TOKEN),
                &body,
            )
            .await;
            assert_eq!(answer.status, 200, "{path}: {}", answer.text());
            let page: R::Page = serde_json::from_slice(&answer.body).expect("a page");
            let next = page
                .next_cursor()
                .filter(|c| !c.is_empty())
                .map(str::to_owned);
            out.push(page);
            match next {
                Some(cursor) => req.set_cursor(Some(cursor)),
                None => return out,
            }
        }
    }

    /// Every agentic-workflow issue, and the job ids the demo gives each.
    async fn search_truth(&self) -> SearchTruth {
        self.cached(&SEARCH_TRUTH, || self.read_search_truth())
            .await
    }

    async fn read_search_truth(&self) -> SearchTruth {
        let issues: Vec<AgenticIssue> = all_pages(
            &self.client,
            SearchIssuesRequest {
                limit: Some(1000),
                ..Default::default()
            },
        )
        .await
        .into_iter()
        .flat_map(|p| p.issues)
        .collect();
        assert_eq!(issues.len(), AGENTIC);
        let jobs = self
            .server
            .state()
            .dataset
            .agentic
            .iter()
            .map(|r| {
                (
                    r.issue.id.clone().unwrap_or_default(),
                    r.workflow_job_ids.clone(),
                )
            })
            .collect();
        SearchTruth { issues, jobs }
    }

    /// Lists with `req` (all pages) and compares the id set with `expected`,
    /// the findings the filter selects among all, narrowed as
    /// `includeArchived` says: archived projects' findings only when true,
    /// none otherwise.
    async fn assert_list(&self, what: &str, req: ListIssuesRequest, expected: BTreeSet<String>) {
        let archived = req.filter.as_ref().and_then(|f| f.include_archived) == Some(true);
        let truth = self.list_truth().await;
        let expected: BTreeSet<String> = expected
            .into_iter()
            .filter(|id| truth.project(&truth.by_id[id]).archived == archived)
            .collect();
        assert!(
            !expected.is_empty(),
            "{what}: the chosen values match nothing; the case tests nothing"
        );
        assert!(
            expected.len() < FINDINGS,
            "{what}: the chosen values match every finding; the case tests nothing"
        );
        let got = list_all(
            &self.client,
            ListIssuesRequest {
                limit: Some(250),
                ..req
            },
        )
        .await;
        assert_same_ids(what, got.iter().map(|i| i.id().to_owned()), &expected);
    }

    /// Pages through a report and checks ids, totals and the default order.
    async fn assert_report(
        &self,
        what: &str,
        req: ReportRequest,
        expected: &BTreeSet<String>,
        truth: &Truth,
    ) {
        let pages = all_pages(
            &self.client,
            ReportRequest {
                limit: Some(300),
                ..req
            },
        )
        .await;
        let findings: Vec<Issue> = pages.iter().flat_map(|p| p.findings.clone()).collect();
        assert_same_ids(what, findings.iter().map(|i| i.id().to_owned()), expected);
        let count = |types: &[IssueType]| {
            expected
                .iter()
                .filter(|id| {
                    truth.by_id[*id]
                        .issue_type
                        .as_ref()
                        .is_some_and(|t| types.contains(t))
                })
                .count() as i64
        };
        for page in &pages {
            assert_eq!(page.total, Some(expected.len() as i64), "{what}: total");
            assert_eq!(
                page.total_code,
                Some(count(&[IssueType::Sast, IssueType::AiSast])),
                "{what}: totalCode"
            );
            assert_eq!(
                page.total_sca,
                Some(count(&[IssueType::Sca])),
                "{what}: totalSca"
            );
            assert_eq!(
                page.total_secrets,
                Some(count(&[IssueType::Secrets])),
                "{what}: totalSecrets"
            );
        }
        // Report findings come by severity descending (docs/src/api.md §10).
        assert_order(
            what,
            &keyed(&findings, |i| Reverse(severity_rank(i.severity.as_ref()))),
            true,
        );
    }
}

/// Every page of a listing.
async fn all_pages<R: PagedRequest>(client: &Client, req: R) -> Vec<R::Page> {
    let mut stream = std::pin::pin!(pages(client.clone(), req));
    let mut out = Vec::new();
    while let Some(page) = stream.next().await {
        out.push(page.expect("every page is answered"));
    }
    out
}

async fn list_all(client: &Client, req: ListIssuesRequest) -> Vec<Issue> {
    all_pages(client, req)
        .await
        .into_iter()
        .flat_map(|p| p.issues)
        .map(|item| item.issue.expect("every list item carries an issue"))
        .collect()
}

fn assert_same_ids(
    what: &str,
    got: impl Iterator<Item = String>,
    expected: &BTreeSet<String>,
) -> Vec<String> {
    let got: Vec<String> = got.collect();
    let set: BTreeSet<String> = got.iter().cloned().collect();
    assert_eq!(set.len(), got.len(), "{what}: an item came more than once");
    if &set != expected {
        let missing: Vec<_> = expected.difference(&set).take(10).collect();
        let extra: Vec<_> = set.difference(expected).take(10).collect();
        panic!(
            "{what}: got {} items, expected {}; missing (first 10) {missing:?}; unexpected (first 10) {extra:?}",
            set.len(),
            expected.len()
        );
    }
    got
}

/// The full listing and the catalog facts, with value pickers.
#[derive(Clone)]
struct Truth {
    issues: Vec<Issue>,
    by_id: HashMap<String, Issue>,
    projects: HashMap<String, Project>,
}

impl Truth {
    fn new(issues: Vec<Issue>, projects: HashMap<String, Project>) -> Truth {
        assert_eq!(
            issues.len(),
            FINDINGS,
            "the full listing holds every finding"
        );
        let by_id: HashMap<String, Issue> = issues
            .iter()
            .map(|i| (i.id().to_owned(), i.clone()))
            .collect();
        assert_eq!(by_id.len(), FINDINGS, "finding ids are unique");
        Truth {
            issues,
            by_id,
            projects,
        }
    }

    /// The findings a listing without `includeArchived` gives: those of
    /// projects that are not archived.
    fn listed(&self) -> BTreeSet<String> {
        self.ids_where(|i| !self.project(i).archived)
    }

    fn project(&self, i: &Issue) -> &Project {
        self.projects
            .get(i.repository_name())
            .unwrap_or_else(|| panic!("repository {:?} is in the catalog", i.repository_name()))
    }

    fn ids_where(&self, pred: impl Fn(&Issue) -> bool) -> BTreeSet<String> {
        self.issues
            .iter()
            .filter(|i| pred(i))
            .map(|i| i.id().to_owned())
            .collect()
    }

    /// Distinct values of a field, most frequent first (then by value).
    fn ranked(&self, values: impl Fn(&Issue) -> Vec<String>) -> Vec<(String, usize)> {
        let mut counts: BTreeMap<String, usize> = BTreeMap::new();
        for i in &self.issues {
            let mut vs = values(i);
            vs.sort();
            vs.dedup();
            for v in vs {
                *counts.entry(v).or_default() += 1;
            }
        }
        let mut ranked: Vec<(String, usize)> = counts.into_iter().collect();
        ranked.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        ranked
    }

    /// Two values of a field (the most frequent and a middling one), so the
    /// filter is tested with OR between values.
    fn pick2(&self, values: impl Fn(&Issue) -> Vec<String>) -> Vec<String> {
        let ranked = self.ranked(values);
        assert!(ranked.len() >= 2, "the field has at least two values");
        vec![ranked[0].0.clone(), ranked[ranked.len() / 2].0.clone()]
    }
}

/// The full search listing and the job ids of each issue.
#[derive(Clone)]
struct SearchTruth {
    issues: Vec<AgenticIssue>,
    jobs: HashMap<String, Vec<String>>,
}

impl SearchTruth {
    fn ids_where(&self, pred: impl Fn(&AgenticIssue) -> bool) -> BTreeSet<String> {
        self.issues
            .iter()
            .filter(|i| pred(i))
            .map(|i| i.id.clone().unwrap_or_default())
            .collect()
    }

    fn pick2(&self, values: impl Fn(&AgenticIssue) -> Vec<String>) -> Vec<String> {
        let mut counts: BTreeMap<String, usize> = BTreeMap::new();
        for i in &self.issues {
            for v in values(i) {
                *counts.entry(v).or_default() += 1;
            }
        }
        let mut ranked: Vec<(String, usize)> = counts.into_iter().collect();
        ranked.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        assert!(ranked.len() >= 2, "the field has at least two values");
        vec![ranked[0].0.clone(), ranked[ranked.len() / 2].0.clone()]
    }
}

// ------------------------------------------------------------ field access

fn one(v: Option<&str>) -> Vec<String> {
    v.filter(|s| !s.is_empty())
        .map(str::to_owned)
        .into_iter()
        .collect()
}

fn repo_id(i: &Issue) -> Option<&str> {
    i.repository.as_ref()?.id.as_deref()
}

fn primary_ref_id(i: &Issue) -> Option<&str> {
    i.repository.as_ref()?.primary_ref.as_ref()?.id.as_deref()
}

fn primary_ref_name(i: &Issue) -> Option<&str> {
    i.repository.as_ref()?.primary_ref.as_ref()?.ref_.as_deref()
}

fn vuln_id(i: &Issue) -> Option<&str> {
    i.sca_attributes
        .as_ref()?
        .vuln_database_identifier
        .as_deref()
}

fn package(i: &Issue) -> Option<&str> {
    i.sca_attributes
        .as_ref()?
        .found_dependency
        .as_ref()?
        .package
        .as_deref()
}

fn secret_type(i: &Issue) -> Option<&str> {
    i.secrets_attributes.as_ref()?.secret_type.as_deref()
}

fn validation(i: &Issue) -> Option<&ValidationState> {
    i.secrets_attributes.as_ref()?.validation_state.as_ref()
}

fn reachability(i: &Issue) -> Option<&Reachability> {
    i.sca_attributes.as_ref()?.reachability.as_ref()
}

fn sensitivity(i: &Issue) -> Option<&Sensitivity> {
    i.ai_tags.as_ref()?.sensitivity.as_ref()
}

fn team_names(i: &Issue) -> Vec<String> {
    i.codeowners
        .iter()
        .filter(|c| c.is_team == Some(true))
        .filter_map(|c| c.name.clone())
        .collect()
}

fn verdict(i: &Issue) -> Option<&Verdict> {
    i.autotriage.as_ref()?.verdict.as_ref()
}

fn memories_referenced(i: &Issue) -> &[String] {
    i.autotriage
        .as_ref()
        .map_or(&[][..], |a| a.memory_ids_referenced.as_slice())
}

fn memories_rendered(i: &Issue) -> &[String] {
    i.autotriage
        .as_ref()
        .map_or(&[][..], |a| a.memory_ids_rendered.as_slice())
}

/// A code finding: the SAST type the published type-scoped filters name
/// (SAST and AI SAST).
fn is_code(i: &Issue) -> bool {
    matches!(i.issue_type, Some(IssueType::Sast | IssueType::AiSast))
}

fn is_type(i: &Issue, t: IssueType) -> bool {
    i.issue_type == Some(t)
}

fn is_historical_secret(i: &Issue) -> bool {
    i.secrets_attributes
        .as_ref()
        .is_some_and(|s| s.historical_info.is_some())
}

fn aggregate(i: &Issue) -> AggregateState {
    i.aggregate_state.clone().unwrap_or(AggregateState::Unknown)
}

fn is_open(i: &Issue) -> bool {
    matches!(
        aggregate(i),
        AggregateState::Open | AggregateState::Reviewing | AggregateState::Fixing
    )
}

fn severity_rank(s: Option<&Severity>) -> u8 {
    s.map_or(9, Severity::rank)
}

fn last_activity(i: &Issue) -> Option<DateTime<Utc>> {
    i.activity_history.iter().filter_map(|e| e.date).max()
}

fn with_filter(filter: ListIssuesFilter) -> ListIssuesRequest {
    ListIssuesRequest {
        filter: Some(filter),
        ..Default::default()
    }
}

fn keyed<K>(issues: &[Issue], key: impl Fn(&Issue) -> K) -> Vec<(String, K)> {
    issues.iter().map(|i| (i.id().to_owned(), key(i))).collect()
}

/// The order is by key (ascending, or descending when `desc`), ties broken by
/// ascending id (docs/src/api.md §10).
fn assert_order<K: Ord + std::fmt::Debug>(what: &str, items: &[(String, K)], desc: bool) {
    for w in items.windows(2) {
        let (a, b) = (&w[0], &w[1]);
        let c = a.1.cmp(&b.1);
        let c = if desc { c.reverse() } else { c };
        assert!(
            c == Ordering::Less || (c == Ordering::Equal && a.0 < b.0),
            "{what}: {a:?} comes before {b:?}"
        );
    }
}

/// Items of equal key are contiguous and ordered by ascending id; returns the
/// order of the keys.
fn assert_grouped<K: PartialEq + Clone + std::fmt::Debug>(
    what: &str,
    items: &[(String, K)],
) -> Vec<K> {
    let mut groups: Vec<K> = Vec::new();
    for (k, (id, key)) in items.iter().enumerate() {
        if k > 0 && items[k - 1].1 == *key {
            assert!(
                items[k - 1].0 < *id,
                "{what}: ties not by ascending id at {id}"
            );
        } else {
            assert!(
                !groups.contains(key),
                "{what}: {key:?} appears in two separate runs"
            );
            groups.push(key.clone());
        }
    }
    groups
}

// ------------------------------------------------------------ raw HTTP

struct Raw {
    status: u16,
    content_type: String,
    body: Vec<u8>,
}

impl Raw {
    fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "the body is JSON ({e}): {}",
                String::from_utf8_lossy(&self.body)
            )
        })
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// A JSON error body `{"error": ..., "code": ...}` (docs/src/api.md §12).
    fn assert_error(&self, status: u16) -> (String, String) {
        assert_eq!(
            self.status,
            status,
            "status of {}",
            self.text().chars().take(300).collect::<String>()
        );
        assert!(
            self.content_type.starts_with("application/json"),
            "error content type {:?}",
            self.content_type
        );
        let body = self.json();
        let error = body["error"]
            .as_str()
            .unwrap_or_else(|| panic!("`error` is a string in {body}"))
            .to_owned();
        let code = body["code"]
            .as_str()
            .unwrap_or_else(|| panic!("`code` is a string in {body}"))
            .to_owned();
        assert!(!error.is_empty() && !code.is_empty(), "{body}");
        (error, code)
    }
}

async fn raw(
    http: &reqwest::Client,
    method: reqwest::Method,
    url: &str,
    token: Option<&str>,
    body: &str,
) -> Raw {
    let mut req = http
        .request(method, url)
        .header(reqwest::header::CONTENT_TYPE, "application/json")
        .body(body.to_owned());
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    let resp = req.send().await.expect("the demo server answers");
    let header = |name: reqwest::header::HeaderName| {
        resp.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    let status = resp.status().as_u16();
    let content_type = header(reqwest::header::CONTENT_TYPE).unwrap_or_default();
    let body = resp.bytes().await.expect("a body").to_vec();
    Raw {
        status,
        content_type,
        body,
    }
}

fn server_message(e: &ApiError) -> &ServerMessage {
    match e {
        ApiError::BadRequest(m)
        | ApiError::Unauthorized(m)
        | ApiError::Forbidden(m)
        | ApiError::NotFound(m)
        | ApiError::Gone(m)
        | ApiError::Server(m)
        | ApiError::UnexpectedStatus(m)
        | ApiError::RateLimited { message: m, .. } => m,
        other => panic!("expected an answer with an HTTP status, got {other:?}"),
    }
}

/// The client's typed error carries the status, message and code of the
/// server's JSON error body.
fn assert_error_as_raw(what: &str, e: &ApiError, raw: &Raw, status: u16) {
    let (error, code) = raw.assert_error(status);
    assert_eq!(e.status(), Some(status), "{what}: {e:?}");
    let m = server_message(e);
    assert_eq!(m.message, error, "{what}: the server's message is kept");
    assert_eq!(m.code.as_deref(), Some(code.as_str()), "{what}: code");
    assert!(e.to_string().contains(&error), "{what}: shown: {e}");
}

/// The four operations, as (name, method, path, body) for raw HTTP.
fn raw_operations(deployment: &str) -> [(&'static str, reqwest::Method, String, String); 4] {
    let d = deployment;
    [
        (
            "report",
            reqwest::Method::POST,
            format!("/api/reporting/{d}/findings"),
            "{}".to_owned(),
        ),
        (
            "search",
            reqwest::Method::POST,
            format!("/api/issues/{d}/search"),
            format!(r#"{{"deploymentId":"{d}"}}"#),
        ),
        (
            "list",
            reqwest::Method::POST,
            format!("/api/agent/deployments/{d}/issues"),
            format!(r#"{{"deploymentId":"{d}"}}"#),
        ),
        (
            "scm",
            reqwest::Method::PATCH,
            format!("/api/scm/deployments/{d}/configs/1001"),
            format!(r#"{{"deploymentId":"{d}","configId":"1001"}}"#),
        ),
    ]
}

/// The four operations through the client, each expected to fail.
async fn client_operation_errors(client: &Client) -> [(&'static str, ApiError); 4] {
    [
        (
            "report",
            client
                .report_findings(&ReportRequest::default())
                .await
                .expect_err("report fails"),
        ),
        (
            "search",
            client
                .search_issues(&SearchIssuesRequest::default())
                .await
                .expect_err("search fails"),
        ),
        (
            "list",
            client
                .list_issues(&ListIssuesRequest::default())
                .await
                .expect_err("list fails"),
        ),
        (
            "scm",
            client
                .update_scm_config("1001", &ScmConfigPatch::default())
                .await
                .expect_err("scm update fails"),
        ),
    ]
}

/// Checks one failing case on all four operations, through the client and
/// raw, and returns the client's errors.
async fn assert_all_operations_fail(
    env: &Env,
    client: &Client,
    raw_token: Option<&str>,
    deployment: &str,
    status: u16,
) -> Vec<ApiError> {
    let http = crate::common::http();
    let errors = client_operation_errors(client).await;
    let raws = raw_operations(deployment);
    let mut out = Vec::new();
    for ((name, err), (raw_name, method, path, body)) in errors.into_iter().zip(raws) {
        assert_eq!(name, raw_name);
        let answer = raw(&http, method, &env.url(&path), raw_token, &body).await;
        assert_error_as_raw(name, &err, &answer, status);
        out.push(err);
    }
    out
}

// ================================================================ 1. paging

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn paging_list_issues_returns_every_finding_exactly_once_in_any_sort() {
    let env = Env::start().await;
    // Without includeArchived: every finding of the projects not archived.
    let all = env.list_truth().await.listed();
    let sorts = [
        (None, None),
        (Some(SortBy::Severity), Some(SortDirection::Asc)),
        (Some(SortBy::Repo), Some(SortDirection::Desc)),
        (Some(SortBy::Rule), Some(SortDirection::Asc)),
        (Some(SortBy::State), Some(SortDirection::Desc)),
    ];
    for (sort_by, sort_direction) in sorts {
        let what = format!("list limit 137 sorted {sort_by:?} {sort_direction:?}");
        let pages = all_pages(
            &env.client,
            ListIssuesRequest {
                limit: Some(137),
                sort_by,
                sort_direction,
                ..Default::default()
            },
        )
        .await;
        assert_eq!(pages.len(), all.len().div_ceil(137), "{what}: page count");
        for (k, page) in pages.iter().enumerate() {
            if k + 1 < pages.len() {
                assert_eq!(page.issues.len(), 137, "{what}: page {k} is full");
                assert!(
                    page.cursor.as_deref().is_some_and(|c| !c.is_empty()),
                    "{what}: page {k} has a cursor"
                );
            } else {
                assert_eq!(page.issues.len(), all.len() % 137, "{what}: last page");
                assert!(
                    page.cursor.as_deref().unwrap_or("").is_empty(),
                    "{what}: the last page has no cursor"
                );
            }
        }
        let ids = pages
            .iter()
            .flat_map(|p| &p.issues)
            .map(|i| i.issue.as_ref().expect("an issue").id().to_owned());
        assert_same_ids(&what, ids, &all);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn paging_project_report_returns_total_items_and_totals_add_up() {
    let env = Env::start().await;
    let all: BTreeSet<String> = env.list_truth().await.by_id.keys().cloned().collect();
    let pages = all_pages(
        &env.client,
        ReportRequest {
            report_type: Some(ReportType::Project),
            limit: Some(137),
            ..Default::default()
        },
    )
    .await;
    assert_eq!(pages.len(), FINDINGS.div_ceil(137));
    let first = &pages[0];
    let total = first.total.expect("total");
    assert_eq!(total, FINDINGS as i64, "PROJECT counts every state");
    assert_eq!(
        total,
        first.total_code.unwrap_or(0)
            + first.total_sca.unwrap_or(0)
            + first.total_secrets.unwrap_or(0),
        "total = totalCode + totalSca + totalSecrets"
    );
    for p in &pages {
        assert_eq!(
            (p.total, p.total_code, p.total_sca, p.total_secrets),
            (
                first.total,
                first.total_code,
                first.total_sca,
                first.total_secrets
            ),
            "totals count the whole set, on every page"
        );
    }
    let ids = pages
        .iter()
        .flat_map(|p| &p.findings)
        .map(|i| i.id().to_owned());
    let got = assert_same_ids("PROJECT report", ids, &all);
    assert_eq!(got.len() as i64, total);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn paging_default_report_is_total_open() {
    let env = Env::start().await;
    let truth = env.report_truth().await;
    let pages = all_pages(
        &env.client,
        ReportRequest {
            limit: Some(137),
            ..Default::default()
        },
    )
    .await;
    let findings: Vec<&Issue> = pages.iter().flat_map(|p| &p.findings).collect();
    let total = pages[0].total.expect("total");
    assert_eq!(findings.len() as i64, total, "the pages hold `total` items");
    for f in &findings {
        assert!(is_open(f), "{} is {:?}", f.id(), f.aggregate_state);
    }
    let expected = truth.ids_where(is_open);
    assert!(!expected.is_empty() && expected.len() < FINDINGS);
    assert_same_ids(
        "default report",
        findings.iter().map(|i| i.id().to_owned()),
        &expected,
    );
    env.assert_report(
        "explicit TOTAL_OPEN",
        ReportRequest {
            report_type: Some(ReportType::TotalOpen),
            ..Default::default()
        },
        &expected,
        &truth,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn paging_search_returns_total_issues_exactly_once() {
    let env = Env::start().await;
    let pages = all_pages(
        &env.client,
        SearchIssuesRequest {
            limit: Some(17),
            ..Default::default()
        },
    )
    .await;
    assert_eq!(pages.len(), AGENTIC.div_ceil(17));
    let total = pages[0].total.expect("total");
    assert_eq!(total, AGENTIC as i64);
    let ids: Vec<String> = pages
        .iter()
        .flat_map(|p| &p.issues)
        .map(|i| i.id.clone().expect("an id"))
        .collect();
    let unique: BTreeSet<&String> = ids.iter().collect();
    assert_eq!(ids.len() as i64, total);
    assert_eq!(unique.len(), ids.len(), "no issue repeats");
    for p in &pages {
        assert_eq!(
            p.total,
            Some(total),
            "total counts all matches on every page"
        );
    }
    // docs/src/api.md §3: `total` travels as a string.
    let answer = raw(
        &crate::common::http(),
        reqwest::Method::POST,
        &env.url("/api/issues/1234/search"),
        Some(TOKEN),
        r#"{"limit":5}"#,
    )
    .await;
    assert_eq!(answer.status, 200);
    assert_eq!(answer.json()["total"], serde_json::json!("200"));
}

// ======================================================= 2. list filters

/// One List issues filter case: `$body` builds (request, expected ids) from
/// the full listing `$t`.
macro_rules! list_filter_test {
    ($(#[$attr:meta])* $name:ident, |$t:ident| $body:block) => {
        $(#[$attr])*
        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn $name() {
            let env = Env::start().await;
            let $t = env.list_truth().await;
            let (req, expected): (ListIssuesRequest, BTreeSet<String>) = $body;
            env.assert_list(stringify!($name), req, expected).await;
        }
    };
}

list_filter_test!(list_filter_ids, |t| {
    let ids: Vec<String> = t
        .issues
        .iter()
        .step_by(397)
        .map(|i| i.id().to_owned())
        .collect();
    let expected = ids.iter().cloned().collect();
    let mut asked = ids;
    asked.push("no-such-finding".into());
    (
        with_filter(ListIssuesFilter {
            ids: asked,
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_repository_names, |t| {
    let names = t.pick2(|i| one(Some(i.repository_name())));
    let expected = t.ids_where(|i| names.iter().any(|n| n == i.repository_name()));
    (
        with_filter(ListIssuesFilter {
            repository_names: names,
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_repository_ids, |t| {
    let ids = t.pick2(|i| one(repo_id(i)));
    let expected = t.ids_where(|i| repo_id(i).is_some_and(|r| ids.iter().any(|x| x == r)));
    (
        with_filter(ListIssuesFilter {
            repository_ids: ids,
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_repository_tags, |t| {
    let tags = t.pick2(|i| t.project(i).tags.clone());
    let expected = t.ids_where(|i| t.project(i).tags.iter().any(|x| tags.contains(x)));
    (
        with_filter(ListIssuesFilter {
            repository_tags: tags,
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_refs, |t| {
    let refs = t.pick2(|i| one(i.ref_.as_deref()));
    let expected = t.ids_where(|i| i.ref_.as_ref().is_some_and(|r| refs.contains(r)));
    (
        with_filter(ListIssuesFilter {
            refs,
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_repository_ref_ids, |t| {
    // The id names a repository and its ref (the primary one: the only ref
    // with an id): findings of that repository on other refs do not match.
    let ids = t.pick2(|i| one(primary_ref_id(i)));
    let expected = t.ids_where(|i| {
        primary_ref_id(i).is_some_and(|r| ids.iter().any(|x| x == r))
            && i.ref_.as_deref() == primary_ref_name(i)
    });
    assert!(
        t.issues
            .iter()
            .any(|i| primary_ref_id(i) == Some(ids[0].as_str())
                && i.ref_.as_deref() != primary_ref_name(i)),
        "the case has findings of the repository on other refs"
    );
    (
        with_filter(ListIssuesFilter {
            repository_ref_ids: ids,
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_ai_sensitivities, |t| {
    let wanted = vec![
        Sensitivity::High.as_wire().to_owned(),
        Sensitivity::Neutral.as_wire().to_owned(),
    ];
    let expected =
        t.ids_where(|i| sensitivity(i).is_some_and(|s| wanted.iter().any(|w| w == s.as_wire())));
    (
        with_filter(ListIssuesFilter {
            ai_sensitivities: wanted,
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_team_names, |t| {
    // Teams assigned to the repository (not the finding's codeowners).
    let teams = t.pick2(|i| t.project(i).teams.clone());
    let expected = t.ids_where(|i| t.project(i).teams.iter().any(|n| teams.contains(n)));
    (
        with_filter(ListIssuesFilter {
            team_names: teams,
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_policy_slugs, |t| {
    let slugs = t.pick2(|i| one(i.policy_slug.as_deref()));
    // Code findings only (SAST-scoped): others pass.
    let expected =
        t.ids_where(|i| !is_code(i) || i.policy_slug.as_ref().is_some_and(|s| slugs.contains(s)));
    (
        with_filter(ListIssuesFilter {
            policy_slugs: slugs,
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_rules, |t| {
    let rules = t.pick2(|i| one(i.rule_path.as_deref()));
    let expected =
        t.ids_where(|i| !is_code(i) || i.rule_path.as_ref().is_some_and(|s| rules.contains(s)));
    (
        with_filter(ListIssuesFilter {
            rules,
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_rule_ids, |t| {
    let ids = t.pick2(|i| one(i.rule_id.as_deref()));
    let expected = t.ids_where(|i| i.rule_id.as_ref().is_some_and(|s| ids.contains(s)));
    (
        with_filter(ListIssuesFilter {
            rule_ids: ids,
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_rulesets, |t| {
    let sets = t.pick2(|i| one(i.ruleset.as_deref()));
    let expected =
        t.ids_where(|i| !is_code(i) || i.ruleset.as_ref().is_some_and(|s| sets.contains(s)));
    (
        with_filter(ListIssuesFilter {
            rulesets: sets,
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_categories, |t| {
    let ranked = t.ranked(|i| one(i.category.as_deref()));
    // Two of the rarer categories, so the filter leaves most findings out.
    let cats: Vec<String> = ranked
        .iter()
        .rev()
        .take(2)
        .map(|(c, _)| c.clone())
        .collect();
    let expected =
        t.ids_where(|i| !is_code(i) || i.category.as_ref().is_some_and(|s| cats.contains(s)));
    (
        with_filter(ListIssuesFilter {
            categories: cats,
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_dependencies, |t| {
    let deps = t.pick2(|i| one(package(i)));
    // Supply-chain findings only: others pass.
    let expected = t.ids_where(|i| {
        !is_type(i, IssueType::Sca) || package(i).is_some_and(|p| deps.iter().any(|d| d == p))
    });
    (
        with_filter(ListIssuesFilter {
            dependencies: deps,
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_cves, |t| {
    let cves = t.pick2(|i| one(vuln_id(i).filter(|v| v.starts_with("CVE-"))));
    let expected = t.ids_where(|i| {
        !is_type(i, IssueType::Sca) || vuln_id(i).is_some_and(|v| cves.iter().any(|c| c == v))
    });
    (
        with_filter(ListIssuesFilter {
            cves,
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_issue_parent_ids, |t| {
    let parents = t.pick2(|i| one(i.issue_parent_id.as_deref()));
    let expected = t.ids_where(|i| {
        i.issue_parent_id
            .as_ref()
            .is_some_and(|p| parents.contains(p))
    });
    (
        with_filter(ListIssuesFilter {
            issue_parent_ids: parents,
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_secret_types, |t| {
    let types = t.pick2(|i| one(secret_type(i)));
    let expected = t.ids_where(|i| {
        !is_type(i, IssueType::Secrets)
            || secret_type(i).is_some_and(|s| types.iter().any(|x| x == s))
    });
    (
        with_filter(ListIssuesFilter {
            secret_types: types,
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_advisory_ids, |t| {
    // Advisories without a CVE carry another identifier (GHSA-...); take one
    // of those and one CVE, both match vulnDatabaseIdentifier.
    let ghsa = t.pick2(|i| one(vuln_id(i).filter(|v| !v.starts_with("CVE-"))));
    let cve = t.pick2(|i| one(vuln_id(i).filter(|v| v.starts_with("CVE-"))));
    let ids = vec![ghsa[0].clone(), cve[1].clone()];
    let expected = t.ids_where(|i| {
        !is_type(i, IssueType::Sca) || vuln_id(i).is_some_and(|v| ids.iter().any(|x| x == v))
    });
    (
        with_filter(ListIssuesFilter {
            advisory_ids: ids,
            ..Default::default()
        }),
        expected,
    )
});

/// A createdAt value of the data set, so exclusivity is observable.
fn middle_created_at(t: &Truth) -> DateTime<Utc> {
    let mut times: Vec<DateTime<Utc>> = t.issues.iter().filter_map(|i| i.created_at).collect();
    times.sort();
    times[times.len() / 2]
}

/// A relevantSince value of the data set, so inclusivity is observable.
fn middle_relevant_since(t: &Truth) -> DateTime<Utc> {
    let mut times: Vec<DateTime<Utc>> = t.issues.iter().filter_map(|i| i.relevant_since).collect();
    times.sort();
    times[times.len() / 2]
}

list_filter_test!(list_filter_since_is_inclusive, |t| {
    let since = middle_relevant_since(&t);
    let expected = t.ids_where(|i| i.relevant_since.is_some_and(|r| r >= since));
    (
        with_filter(ListIssuesFilter {
            since: Some(since),
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_until_is_exclusive_on_created_at, |t| {
    // "Issues created before": until bounds createdAt, not relevantSince.
    let until = middle_created_at(&t);
    let expected = t.ids_where(|i| i.created_at.is_some_and(|c| c < until));
    assert_ne!(
        expected,
        t.ids_where(|i| i.relevant_since.is_some_and(|r| r < until)),
        "the case tells createdAt from relevantSince"
    );
    (
        with_filter(ListIssuesFilter {
            until: Some(until),
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_since_and_until, |t| {
    let until = middle_relevant_since(&t);
    let since = until - Duration::days(20);
    let expected = t.ids_where(|i| {
        i.relevant_since.is_some_and(|r| r >= since) && i.created_at.is_some_and(|c| c < until)
    });
    (
        with_filter(ListIssuesFilter {
            since: Some(since),
            until: Some(until),
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_issue_types, |t| {
    let types = vec![IssueType::Sca, IssueType::AiSast];
    let expected = t.ids_where(|i| i.issue_type.as_ref().is_some_and(|x| types.contains(x)));
    (
        ListIssuesRequest {
            issue_types: types,
            ..Default::default()
        },
        expected,
    )
});

list_filter_test!(
    list_filter_deprecated_issue_type_applies_when_issue_types_empty,
    |t| {
        let expected = t.ids_where(|i| i.issue_type == Some(IssueType::Secrets));
        (
            ListIssuesRequest {
                issue_type: Some(IssueType::Secrets),
                ..Default::default()
            },
            expected,
        )
    }
);

list_filter_test!(
    list_filter_issue_types_win_over_deprecated_issue_type,
    |t| {
        let expected = t.ids_where(|i| i.issue_type == Some(IssueType::Sast));
        (
            ListIssuesRequest {
                issue_type: Some(IssueType::Secrets),
                issue_types: vec![IssueType::Sast],
                ..Default::default()
            },
            expected,
        )
    }
);

list_filter_test!(list_filter_exclude_historical, |t| {
    // Historical secrets only: fixed or removed findings of other types stay.
    let expected = t.ids_where(|i| !is_historical_secret(i));
    assert!(
        expected.iter().any(|id| matches!(
            t.by_id[id].status,
            Some(IssueStatus::Fixed | IssueStatus::Removed)
        )),
        "the case keeps fixed and removed findings"
    );
    (
        with_filter(ListIssuesFilter {
            exclude_historical: Some(true),
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_on_primary_branch_true, |t| {
    let expected = t.ids_where(|i| i.ref_.is_some() && i.ref_.as_deref() == primary_ref_name(i));
    (
        with_filter(ListIssuesFilter {
            on_primary_branch: Some(true),
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_on_primary_branch_false, |t| {
    let expected = t.ids_where(|i| i.ref_.as_deref() != primary_ref_name(i));
    (
        with_filter(ListIssuesFilter {
            on_primary_branch: Some(false),
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_include_ticketed_false, |t| {
    let expected = t.ids_where(|i| i.external_ticket.is_none());
    (
        with_filter(ListIssuesFilter {
            include_ticketed: Some(false),
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_include_ai_memory_rendered_false, |t| {
    let expected = t.ids_where(|i| memories_rendered(i).is_empty());
    (
        with_filter(ListIssuesFilter {
            include_ai_memory_rendered: Some(false),
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_include_archived_false, |t| {
    // isArchived (asked for in the full listing) agrees with the catalog.
    for i in &t.issues {
        assert_eq!(i.is_archived, Some(t.project(i).archived), "{}", i.id());
    }
    let expected = t.ids_where(|i| !t.project(i).archived);
    (
        with_filter(ListIssuesFilter {
            include_archived: Some(false),
            ..Default::default()
        }),
        expected,
    )
});

/// The memory id that `pred` selects most findings for.
fn best_memory(t: &Truth, pred: impl Fn(&Issue, &str) -> bool) -> String {
    let mut ids: BTreeSet<String> = BTreeSet::new();
    for i in &t.issues {
        ids.extend(memories_referenced(i).iter().cloned());
        ids.extend(memories_rendered(i).iter().cloned());
    }
    ids.into_iter()
        .max_by_key(|m| {
            (
                t.issues.iter().filter(|i| pred(i, m)).count(),
                Reverse(m.clone()),
            )
        })
        .expect("some finding refers to a memory")
}

fn will_flip(i: &Issue, m: &str) -> bool {
    memories_referenced(i).iter().any(|x| x == m) && verdict(i) == Some(&Verdict::FalsePositive)
}

list_filter_test!(list_filter_ai_memory_will_flip_verdict, |t| {
    let m = best_memory(&t, will_flip);
    let expected = t.ids_where(|i| will_flip(i, &m));
    // Referencing alone is not enough: the verdict must be false positive.
    assert!(
        t.issues
            .iter()
            .any(|i| memories_referenced(i).contains(&m) && !will_flip(i, &m)),
        "the case separates referencing from flipping"
    );
    (
        with_filter(ListIssuesFilter {
            ai_memory_will_flip_verdict: Some(m),
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_ai_memory_referenced, |t| {
    let m = best_memory(&t, |i, m| memories_referenced(i).iter().any(|x| x == m));
    // SAST-scoped: code findings that refer to it, and every other finding.
    let expected = t.ids_where(|i| !is_code(i) || memories_referenced(i).contains(&m));
    (
        with_filter(ListIssuesFilter {
            ai_memory_referenced: Some(m),
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_ai_memory_rendered, |t| {
    let m = best_memory(&t, |i, m| memories_rendered(i).iter().any(|x| x == m));
    let expected = t.ids_where(|i| !is_code(i) || memories_rendered(i).contains(&m));
    (
        with_filter(ListIssuesFilter {
            ai_memory_rendered: Some(m),
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_memory_id_in_scope, |t| {
    let in_scope = |i: &Issue, m: &str| {
        memories_referenced(i)
            .iter()
            .chain(memories_rendered(i))
            .any(|x| x == m)
    };
    let m = best_memory(&t, in_scope);
    let expected = t.ids_where(|i| !is_code(i) || in_scope(i, &m));
    (
        with_filter(ListIssuesFilter {
            memory_id_in_scope: Some(m),
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filters_combine_with_and, |t| {
    let repos = t.pick2(|i| one(Some(i.repository_name())));
    let expected = t.ids_where(|i| {
        repos.iter().any(|r| r == i.repository_name())
            && i.issue_type == Some(IssueType::Sast)
            && i.external_ticket.is_none()
    });
    (
        ListIssuesRequest {
            issue_types: vec![IssueType::Sast],
            ..with_filter(ListIssuesFilter {
                repository_names: repos,
                include_ticketed: Some(false),
                ..Default::default()
            })
        },
        expected,
    )
});

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_filter_permissive_values_do_not_filter() {
    // Booleans act only when present and in their filtering sense; empty
    // arrays and *_UNSPECIFIED do not filter. Every case gives what no
    // filter gives: the findings of projects that are not archived.
    let env = Env::start().await;
    let listed = env.list_truth().await.listed();
    let unspecified = |field: &str| -> ListIssuesFilter {
        serde_json::from_value(
            serde_json::json!({ field: [format!("{}_UNSPECIFIED", match field {
            "severities" => "SEVERITY",
            "aggregateIssueStates" => "AGGREGATE_ISSUE_STATE",
            _ => "REPOSITORY_VISIBILITY",
        })] }),
        )
        .expect("a filter")
    };
    let cases = [
        (
            "excludeHistorical false",
            ListIssuesRequest {
                filter: Some(ListIssuesFilter {
                    exclude_historical: Some(false),
                    ..Default::default()
                }),
                ..Default::default()
            },
        ),
        (
            "includeTicketed true",
            with_filter(ListIssuesFilter {
                include_ticketed: Some(true),
                ..Default::default()
            }),
        ),
        (
            "includeAiMemoryRendered true",
            with_filter(ListIssuesFilter {
                include_ai_memory_rendered: Some(true),
                ..Default::default()
            }),
        ),
        (
            "includeArchived false",
            with_filter(ListIssuesFilter {
                include_archived: Some(false),
                ..Default::default()
            }),
        ),
        (
            "issueTypes [UNSPECIFIED]",
            ListIssuesRequest {
                issue_types: vec![IssueType::Unspecified],
                ..Default::default()
            },
        ),
        (
            "severities [UNSPECIFIED]",
            with_filter(unspecified("severities")),
        ),
        (
            "aggregateIssueStates [UNSPECIFIED]",
            with_filter(unspecified("aggregateIssueStates")),
        ),
        (
            "repoVisibilities [UNSPECIFIED]",
            with_filter(unspecified("repoVisibilities")),
        ),
        (
            "backlogType PROD",
            with_filter(ListIssuesFilter {
                backlog_type: Some(BacklogType::Prod),
                ..Default::default()
            }),
        ),
        (
            "relativeSince ALL_TIME",
            with_filter(ListIssuesFilter {
                relative_since: Some(RelativeSince::AllTime),
                ..Default::default()
            }),
        ),
        (
            "actions (no effect on unified policies)",
            with_filter(ListIssuesFilter {
                actions: vec![ActionMode::Block],
                ..Default::default()
            }),
        ),
        ("empty filter", with_filter(ListIssuesFilter::default())),
        ("no filter", ListIssuesRequest::default()),
    ];
    for (what, req) in cases {
        let got = list_all(
            &env.client,
            ListIssuesRequest {
                limit: Some(1000),
                ..req
            },
        )
        .await;
        assert_same_ids(what, got.iter().map(|i| i.id().to_owned()), &listed);
    }
}

// ===================================================== 3. report filters

/// One report case: `$body` gives a list of (label, request, expected ids)
/// computed from the PROJECT listing `$t`.
macro_rules! report_test {
    ($(#[$attr:meta])* $name:ident, |$t:ident| $body:block) => {
        $(#[$attr])*
        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn $name() {
            let env = Env::start().await;
            let $t = env.report_truth().await;
            let cases: Vec<(String, ReportRequest, BTreeSet<String>)> = $body;
            assert!(!cases.is_empty());
            for (label, req, expected) in &cases {
                let what = format!("{}: {label}", stringify!($name));
                assert!(!expected.is_empty(), "{what}: matches nothing; the case tests nothing");
                assert!(expected.len() < FINDINGS, "{what}: matches everything");
                env.assert_report(&what, req.clone(), expected, &$t).await;
            }
        }
    };
}

fn project_report(filters: ReportFilters) -> ReportRequest {
    ReportRequest {
        report_type: Some(ReportType::Project),
        filters: Some(filters),
        ..Default::default()
    }
}

fn finding_type(i: &Issue) -> FindingType {
    match i.issue_type {
        Some(IssueType::Sast | IssueType::AiSast) => FindingType::Code,
        Some(IssueType::Sca) => FindingType::Sca,
        Some(IssueType::Secrets) => FindingType::Secrets,
        _ => FindingType::Unspecified,
    }
}

report_test!(report_filter_finding_types, |t| {
    let mut cases = Vec::new();
    for ft in [FindingType::Code, FindingType::Sca, FindingType::Secrets] {
        cases.push((
            ft.as_wire().to_owned(),
            project_report(ReportFilters {
                finding_types: vec![ft.clone()],
                ..Default::default()
            }),
            t.ids_where(|i| finding_type(i) == ft),
        ));
    }
    cases.push((
        "SCA or SECRETS, UNSPECIFIED ignored".into(),
        project_report(ReportFilters {
            finding_types: vec![
                FindingType::Sca,
                FindingType::Secrets,
                FindingType::Unspecified,
            ],
            ..Default::default()
        }),
        t.ids_where(|i| matches!(finding_type(i), FindingType::Sca | FindingType::Secrets)),
    ));
    cases
});

report_test!(report_filter_finding_severities, |t| {
    let mut cases = Vec::new();
    for fs in FindingSeverity::ALL
        .iter()
        .filter(|s| **s != FindingSeverity::Unspecified)
    {
        let wire = fs.as_wire().trim_start_matches("FINDING_").to_owned();
        cases.push((
            fs.as_wire().to_owned(),
            project_report(ReportFilters {
                finding_severities: vec![fs.clone()],
                ..Default::default()
            }),
            t.ids_where(|i| i.severity.as_ref().is_some_and(|s| s.as_wire() == wire)),
        ));
    }
    cases.push((
        "CRITICAL or LOW".into(),
        project_report(ReportFilters {
            finding_severities: vec![FindingSeverity::Critical, FindingSeverity::Low],
            ..Default::default()
        }),
        t.ids_where(|i| matches!(i.severity, Some(Severity::Critical | Severity::Low))),
    ));
    cases
});

report_test!(report_filter_projects, |t| {
    let names = t.pick2(|i| one(Some(i.repository_name())));
    let mut asked = names.clone();
    // Case-sensitive: an upper-cased name matches nothing.
    asked.push(names[0].to_uppercase());
    vec![(
        format!("{asked:?}"),
        project_report(ReportFilters {
            projects: asked,
            ..Default::default()
        }),
        t.ids_where(|i| names.iter().any(|n| n == i.repository_name())),
    )]
});

report_test!(report_filter_project_ids, |t| {
    let ids = t.pick2(|i| one(repo_id(i)));
    vec![(
        format!("{ids:?}"),
        project_report(ReportFilters {
            project_ids: ids.clone(),
            ..Default::default()
        }),
        t.ids_where(|i| repo_id(i).is_some_and(|r| ids.iter().any(|x| x == r))),
    )]
});

report_test!(report_filter_tags, |t| {
    let tags = t.pick2(|i| t.project(i).tags.clone());
    vec![(
        format!("{tags:?}"),
        project_report(ReportFilters {
            tags: tags.clone(),
            ..Default::default()
        }),
        t.ids_where(|i| t.project(i).tags.iter().any(|x| tags.contains(x))),
    )]
});

report_test!(report_filter_confidence, |t| {
    FindingConfidence::ALL
        .iter()
        .filter(|c| **c != FindingConfidence::Unspecified)
        .map(|fc| {
            let wire = fc.as_wire().trim_start_matches("FINDING_").to_owned();
            (
                fc.as_wire().to_owned(),
                project_report(ReportFilters {
                    confidence: vec![fc.clone()],
                    ..Default::default()
                }),
                t.ids_where(|i| i.confidence.as_ref().is_some_and(|c| c.as_wire() == wire)),
            )
        })
        .collect()
});

fn reachability_of(fr: &FindingReachability) -> Reachability {
    match fr {
        FindingReachability::Reachable => Reachability::Reachable,
        FindingReachability::AlwaysReachable => Reachability::AlwaysReachable,
        FindingReachability::ConditionallyReachable => Reachability::ConditionallyReachable,
        FindingReachability::Unreachable => Reachability::Unreachable,
        FindingReachability::NoReachabilityAnalysis => Reachability::Unknown,
        other => panic!("no mapping for {other:?}"),
    }
}

report_test!(report_filter_reachability, |t| {
    FindingReachability::ALL
        .iter()
        .filter(|r| **r != FindingReachability::Unspecified)
        .map(|fr| {
            let r = reachability_of(fr);
            (
                fr.as_wire().to_owned(),
                project_report(ReportFilters {
                    reachability: vec![fr.clone()],
                    ..Default::default()
                }),
                t.ids_where(|i| reachability(i) == Some(&r)),
            )
        })
        .collect()
});

fn validation_of(fv: &FindingValidity) -> ValidationState {
    match fv {
        FindingValidity::Valid => ValidationState::ConfirmedValid,
        FindingValidity::Invalid => ValidationState::ConfirmedInvalid,
        FindingValidity::Error => ValidationState::ValidationError,
        FindingValidity::NoValidator => ValidationState::NoValidator,
        other => panic!("no mapping for {other:?}"),
    }
}

report_test!(report_filter_validity, |t| {
    FindingValidity::ALL
        .iter()
        .filter(|v| **v != FindingValidity::Unspecified)
        .map(|fv| {
            let v = validation_of(fv);
            (
                fv.as_wire().to_owned(),
                project_report(ReportFilters {
                    validity: vec![fv.clone()],
                    ..Default::default()
                }),
                t.ids_where(|i| validation(i) == Some(&v)),
            )
        })
        .collect()
});

report_test!(report_filter_teams, |t| {
    let teams = t.pick2(team_names);
    vec![(
        format!("{teams:?}"),
        project_report(ReportFilters {
            teams: teams.clone(),
            ..Default::default()
        }),
        t.ids_where(|i| team_names(i).iter().any(|n| teams.contains(n))),
    )]
});

report_test!(report_filter_rule_ids, |t| {
    let ids = t.pick2(|i| one(i.rule_id.as_deref()));
    vec![(
        format!("{ids:?}"),
        project_report(ReportFilters {
            rule_ids: ids.clone(),
            ..Default::default()
        }),
        t.ids_where(|i| i.rule_id.as_ref().is_some_and(|r| ids.contains(r))),
    )]
});

report_test!(report_filter_ai_verdicts, |t| {
    let mut cases: Vec<(String, ReportRequest, BTreeSet<String>)> = Verdict::ALL
        .iter()
        .filter(|v| **v != Verdict::Unspecified)
        .map(|v| {
            (
                v.as_wire().to_owned(),
                project_report(ReportFilters {
                    ai_verdicts: vec![v.clone()],
                    ..Default::default()
                }),
                // VERDICT_NO_VERDICT also matches findings without autotriage.
                t.ids_where(|i| match verdict(i) {
                    Some(x) => x == v,
                    None => *v == Verdict::NoVerdict,
                }),
            )
        })
        .collect();
    assert!(
        t.issues.iter().any(|i| i.autotriage.is_none()),
        "some findings have no autotriage"
    );
    cases.push((
        "TRUE_POSITIVE or FALSE_POSITIVE".into(),
        project_report(ReportFilters {
            ai_verdicts: vec![Verdict::TruePositive, Verdict::FalsePositive],
            ..Default::default()
        }),
        t.ids_where(|i| {
            matches!(
                verdict(i),
                Some(Verdict::TruePositive | Verdict::FalsePositive)
            )
        }),
    ));
    cases
});

report_test!(report_filter_deployment_statuses, |t| {
    DeploymentStatus::ALL
        .iter()
        .filter(|s| **s != DeploymentStatus::Unspecified)
        .map(|s| {
            (
                s.as_wire().to_owned(),
                project_report(ReportFilters {
                    deployment_statuses: vec![s.clone()],
                    ..Default::default()
                }),
                t.ids_where(|i| t.project(i).deployment_status == s.as_wire()),
            )
        })
        .collect()
});

report_test!(report_filter_public_exposures, |t| {
    PublicExposure::ALL
        .iter()
        .filter(|s| **s != PublicExposure::Unspecified)
        .map(|s| {
            (
                s.as_wire().to_owned(),
                project_report(ReportFilters {
                    public_exposures: vec![s.clone()],
                    ..Default::default()
                }),
                t.ids_where(|i| t.project(i).public_exposure == s.as_wire()),
            )
        })
        .collect()
});

report_test!(report_filter_finding_categories, |t| {
    let ranked = t.ranked(|i| one(i.category.as_deref()));
    let cats: Vec<String> = ranked
        .iter()
        .rev()
        .take(2)
        .map(|(c, _)| c.clone())
        .collect();
    vec![(
        format!("{cats:?}"),
        project_report(ReportFilters {
            finding_categories: cats.clone(),
            ..Default::default()
        }),
        t.ids_where(|i| i.category.as_ref().is_some_and(|c| cats.contains(c))),
    )]
});

/// Two createdAt values of the data set (about a third and two thirds in).
fn created_thirds(t: &Truth) -> (DateTime<Utc>, DateTime<Utc>) {
    let mut times: Vec<DateTime<Utc>> = t.issues.iter().filter_map(|i| i.created_at).collect();
    times.sort();
    (times[times.len() / 3], times[2 * times.len() / 3])
}

fn period(since: Option<DateTime<Utc>>, until: Option<DateTime<Utc>>) -> Option<TimePeriod> {
    Some(TimePeriod { since, until })
}

report_test!(report_filter_time_period_bounds_created_at, |t| {
    let (since, until) = created_thirds(&t);
    let created = |i: &Issue| i.created_at.expect("createdAt");
    vec![
        (
            "since (inclusive)".into(),
            project_report(ReportFilters {
                time_period: period(Some(since), None),
                ..Default::default()
            }),
            t.ids_where(|i| created(i) >= since),
        ),
        (
            "until (exclusive)".into(),
            project_report(ReportFilters {
                time_period: period(None, Some(until)),
                ..Default::default()
            }),
            t.ids_where(|i| created(i) < until),
        ),
        (
            "since and until".into(),
            project_report(ReportFilters {
                time_period: period(Some(since), Some(until)),
                ..Default::default()
            }),
            t.ids_where(|i| created(i) >= since && created(i) < until),
        ),
    ]
});

report_test!(report_bucket_start_with_time_bucket_size, |t| {
    let created = |i: &Issue| i.created_at.expect("createdAt");
    let day = anchor() - Duration::days(3);
    let week = anchor() - Duration::days(21);
    let month = Utc
        .with_ymd_and_hms(2026, 10, 1, 0, 0, 0)
        .single()
        .expect("a date");
    let month_end = anchor();
    let bucket = |start: DateTime<Utc>, size: TimeBucketSize| ReportRequest {
        report_type: Some(ReportType::Project),
        bucket_start: Some(start),
        filters: Some(ReportFilters {
            time_bucket_size: Some(size),
            ..Default::default()
        }),
        ..Default::default()
    };
    vec![
        (
            "day".into(),
            bucket(day, TimeBucketSize::Day),
            t.ids_where(|i| created(i) >= day && created(i) < day + Duration::days(1)),
        ),
        (
            "week".into(),
            bucket(week, TimeBucketSize::Week),
            t.ids_where(|i| created(i) >= week && created(i) < week + Duration::days(7)),
        ),
        (
            "month".into(),
            bucket(month, TimeBucketSize::Month),
            t.ids_where(|i| created(i) >= month && created(i) < month_end),
        ),
    ]
});

report_test!(report_finding_state_narrows_to_one_aggregate_state, |t| {
    let mut cases: Vec<(String, ReportRequest, BTreeSet<String>)> = AggregateState::ALL
        .iter()
        .map(|s| {
            (
                format!("PROJECT + {}", s.as_wire()),
                ReportRequest {
                    report_type: Some(ReportType::Project),
                    finding_state: Some(s.clone()),
                    ..Default::default()
                },
                t.ids_where(|i| aggregate(i) == *s),
            )
        })
        .collect();
    cases.push((
        "TOTAL_OPEN + REVIEWING".into(),
        ReportRequest {
            report_type: Some(ReportType::TotalOpen),
            finding_state: Some(AggregateState::Reviewing),
            ..Default::default()
        },
        t.ids_where(|i| aggregate(i) == AggregateState::Reviewing),
    ));
    cases
});

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn report_finding_state_outside_the_report_type_is_empty() {
    let env = Env::start().await;
    let resp = env
        .client
        .report_findings(&ReportRequest {
            report_type: Some(ReportType::TotalOpen),
            finding_state: Some(AggregateState::Fixed),
            ..Default::default()
        })
        .await
        .expect("report");
    assert!(resp.findings.is_empty());
    assert_eq!(resp.total.unwrap_or(0), 0);
    assert!(resp.cursor.as_deref().unwrap_or("").is_empty());
}

fn report_of(kind: ReportType) -> ReportRequest {
    ReportRequest {
        report_type: Some(kind),
        ..Default::default()
    }
}

report_test!(report_type_total_open, |t| {
    vec![(
        "TOTAL_OPEN".into(),
        report_of(ReportType::TotalOpen),
        t.ids_where(is_open),
    )]
});

report_test!(report_type_total_fixed, |t| {
    vec![(
        "TOTAL_FIXED".into(),
        report_of(ReportType::TotalFixed),
        t.ids_where(|i| aggregate(i) == AggregateState::Fixed),
    )]
});

report_test!(report_type_total_ignored, |t| {
    vec![(
        "TOTAL_IGNORED".into(),
        report_of(ReportType::TotalIgnored),
        t.ids_where(|i| {
            matches!(
                aggregate(i),
                AggregateState::IgnoredApp | AggregateState::IgnoredCode
            )
        }),
    )]
});

report_test!(report_type_total_provisionally_ignored, |t| {
    vec![(
        "TOTAL_PROVISIONALLY_IGNORED".into(),
        report_of(ReportType::TotalProvisionallyIgnored),
        t.ids_where(|i| aggregate(i) == AggregateState::ProvisionallyIgnoredApp),
    )]
});

report_test!(report_type_open_backlog, |t| {
    let (since, _) = created_thirds(&t);
    vec![(
        "OPEN_BACKLOG before timePeriod.since".into(),
        ReportRequest {
            report_type: Some(ReportType::OpenBacklog),
            filters: Some(ReportFilters {
                time_period: period(Some(since), None),
                ..Default::default()
            }),
            ..Default::default()
        },
        t.ids_where(|i| is_open(i) && i.created_at.is_some_and(|c| c < since)),
    )]
});

report_test!(
    report_month_bucket_starting_mid_month_lasts_one_month,
    |t| {
        // A bucket of one month that starts at bucketStart ends a month later,
        // as the DAY and WEEK buckets end a day and a week after their start.
        // (A regression test: the demo once ended it on the 1st of the
        // following month.)
        let created = |i: &Issue| i.created_at.expect("createdAt");
        let start = Utc
            .with_ymd_and_hms(2026, 9, 15, 0, 0, 0)
            .single()
            .expect("a date");
        let end = Utc
            .with_ymd_and_hms(2026, 10, 15, 0, 0, 0)
            .single()
            .expect("a date");
        vec![(
            "month from 2026-09-15".into(),
            ReportRequest {
                report_type: Some(ReportType::Project),
                bucket_start: Some(start),
                filters: Some(ReportFilters {
                    time_bucket_size: Some(TimeBucketSize::Month),
                    ..Default::default()
                }),
                ..Default::default()
            },
            t.ids_where(|i| created(i) >= start && created(i) < end),
        )]
    }
);

/// A relevantSince (or createdAt) value of the data set plus half a second:
/// docs/src/api.md §6 allows fractional seconds, and the bound is exact.
fn half_second_after(times: impl Iterator<Item = DateTime<Utc>>) -> DateTime<Utc> {
    let mut times: Vec<DateTime<Utc>> = times.collect();
    times.sort();
    times[times.len() / 2] + Duration::milliseconds(500)
}

list_filter_test!(list_filter_since_with_fractional_seconds, |t| {
    let since = half_second_after(t.issues.iter().filter_map(|i| i.relevant_since));
    let expected = t.ids_where(|i| i.relevant_since.is_some_and(|r| r >= since));
    (
        with_filter(ListIssuesFilter {
            since: Some(since),
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_until_with_fractional_seconds, |t| {
    // `until` bounds createdAt ("issues created before").
    let until = half_second_after(t.issues.iter().filter_map(|i| i.created_at));
    let expected = t.ids_where(|i| i.created_at.is_some_and(|c| c < until));
    (
        with_filter(ListIssuesFilter {
            until: Some(until),
            ..Default::default()
        }),
        expected,
    )
});

report_test!(report_time_period_with_fractional_seconds, |t| {
    let bound = half_second_after(t.issues.iter().filter_map(|i| i.created_at));
    let created = |i: &Issue| i.created_at.expect("createdAt");
    vec![
        (
            "since".into(),
            project_report(ReportFilters {
                time_period: period(Some(bound), None),
                ..Default::default()
            }),
            t.ids_where(|i| created(i) >= bound),
        ),
        (
            "until".into(),
            project_report(ReportFilters {
                time_period: period(None, Some(bound)),
                ..Default::default()
            }),
            t.ids_where(|i| created(i) < bound),
        ),
    ]
});

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn report_type_backlog_activity() {
    let env = Env::start().await;
    let truth = env.report_truth().await;
    // The latest activity comes from the activity history of List issues.
    let listed = env.list_truth_with(true).await;
    let mut latest: Vec<DateTime<Utc>> = listed.issues.iter().filter_map(last_activity).collect();
    assert_eq!(latest.len(), FINDINGS, "every finding has activity");
    latest.sort();
    let (since, until) = (latest[latest.len() / 3], latest[2 * latest.len() / 3]);
    let expected = listed.ids_where(|i| last_activity(i).is_some_and(|a| a >= since && a < until));
    assert!(!expected.is_empty() && expected.len() < FINDINGS);
    env.assert_report(
        "BACKLOG_ACTIVITY",
        ReportRequest {
            report_type: Some(ReportType::BacklogActivity),
            filters: Some(ReportFilters {
                time_period: period(Some(since), Some(until)),
                ..Default::default()
            }),
            ..Default::default()
        },
        &expected,
        &truth,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn report_type_project_is_every_state_and_combines_with_projects() {
    let env = Env::start().await;
    let t = env.report_truth().await;
    let states: BTreeSet<String> = t
        .issues
        .iter()
        .map(|i| aggregate(i).as_wire().to_owned())
        .collect();
    assert!(
        states.len() >= 6,
        "PROJECT holds findings of every state: {states:?}"
    );
    let names = t.pick2(|i| one(Some(i.repository_name())));
    let expected = t.ids_where(|i| names.iter().any(|n| n == i.repository_name()));
    env.assert_report(
        "PROJECT + projects",
        project_report(ReportFilters {
            projects: names,
            ..Default::default()
        }),
        &expected,
        &t,
    )
    .await;
}

report_test!(report_type_guardrails_activity, |t| {
    vec![(
        "GUARDRAILS_ACTIVITY".into(),
        report_of(ReportType::GuardrailsActivity),
        t.ids_where(|i| i.is_blocking == Some(true)),
    )]
});

report_test!(report_filters_combine_with_and, |t| {
    vec![(
        "TOTAL_OPEN, CODE, HIGH or CRITICAL".into(),
        ReportRequest {
            report_type: Some(ReportType::TotalOpen),
            filters: Some(ReportFilters {
                finding_types: vec![FindingType::Code],
                finding_severities: vec![FindingSeverity::High, FindingSeverity::Critical],
                ..Default::default()
            }),
            ..Default::default()
        },
        t.ids_where(|i| {
            is_open(i)
                && finding_type(i) == FindingType::Code
                && matches!(i.severity, Some(Severity::High | Severity::Critical))
        }),
    )]
});

// ===================================================== 4. search filters

/// One search case: `$body` gives (label, filters, expected ids) computed
/// from the full search listing `$t`.
macro_rules! search_test {
    ($(#[$attr:meta])* $name:ident, |$t:ident| $body:block) => {
        $(#[$attr])*
        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn $name() {
            let env = Env::start().await;
            let $t = env.search_truth().await;
            let cases: Vec<(String, SearchFilters, BTreeSet<String>)> = $body;
            assert!(!cases.is_empty());
            for (label, filters, expected) in cases {
                let what = format!("{}: {label}", stringify!($name));
                assert!(!expected.is_empty(), "{what}: matches nothing; the case tests nothing");
                assert!(expected.len() < AGENTIC, "{what}: matches everything");
                let pages = all_pages(
                    &env.client,
                    SearchIssuesRequest {
                        filters: Some(filters),
                        limit: Some(7),
                        ..Default::default()
                    },
                )
                .await;
                for p in &pages {
                    assert_eq!(p.total, Some(expected.len() as i64), "{what}: total");
                }
                let ids = pages.iter().flat_map(|p| &p.issues).map(|i| i.id.clone().unwrap_or_default());
                assert_same_ids(&what, ids, &expected);
            }
        }
    };
}

fn search_array_case(
    t: &SearchTruth,
    field: &str,
    values: impl Fn(&AgenticIssue) -> Vec<String>,
    set: impl Fn(&mut SearchFilters, Vec<String>),
) -> Vec<(String, SearchFilters, BTreeSet<String>)> {
    let picked = t.pick2(&values);
    let mut filters = SearchFilters::default();
    set(&mut filters, picked.clone());
    let expected = t.ids_where(|i| values(i).iter().any(|v| picked.contains(v)));
    vec![(format!("{field} {picked:?}"), filters, expected)]
}

search_test!(search_filter_ids, |t| {
    let ids: Vec<String> = t
        .issues
        .iter()
        .step_by(37)
        .filter_map(|i| i.id.clone())
        .collect();
    let expected = ids.iter().cloned().collect();
    vec![(
        format!("{ids:?}"),
        SearchFilters {
            ids,
            ..Default::default()
        },
        expected,
    )]
});

search_test!(search_filter_actions, |t| {
    search_array_case(&t, "actions", |i| i.actions.clone(), |f, v| f.actions = v)
});

search_test!(search_filter_workflow_ids, |t| {
    search_array_case(
        &t,
        "workflowIds",
        |i| i.workflow_ids.clone(),
        |f, v| f.workflow_ids = v,
    )
});

search_test!(search_filter_identities, |t| {
    search_array_case(
        &t,
        "identities",
        |i| i.identities.clone(),
        |f, v| f.identities = v,
    )
});

search_test!(search_filter_trigger_sources, |t| {
    search_array_case(
        &t,
        "triggerSources",
        |i| i.trigger_sources.clone(),
        |f, v| f.trigger_sources = v,
    )
});

search_test!(search_filter_project_ids, |t| {
    search_array_case(
        &t,
        "projectIds",
        |i| i.project_ids.clone(),
        |f, v| f.project_ids = v,
    )
});

search_test!(search_filter_ref_ids, |t| {
    search_array_case(&t, "refIds", |i| i.ref_ids.clone(), |f, v| f.ref_ids = v)
});

search_test!(search_filter_workflow_job_ids, |t| {
    let jobs = t.jobs.clone();
    search_array_case(
        &t,
        "workflowJobIds",
        move |i| jobs[i.id.as_deref().unwrap_or("")].clone(),
        |f, v| f.workflow_job_ids = v,
    )
});

/// A word of the texts that matches some but not all of them, returned in
/// upper case to exercise case-insensitivity.
fn pick_query(texts: &[String]) -> String {
    let lower: Vec<String> = texts.iter().map(|s| s.to_lowercase()).collect();
    let mut words: BTreeSet<String> = BTreeSet::new();
    for t in &lower {
        for w in t.split(|c: char| !c.is_alphanumeric()) {
            if w.chars().count() >= 6 {
                words.insert(w.to_owned());
            }
        }
    }
    let half = texts.len() / 2;
    let best = words
        .into_iter()
        .min_by_key(|w| {
            let n = lower.iter().filter(|t| t.contains(w.as_str())).count();
            (n.abs_diff(half), w.clone())
        })
        .expect("a word");
    best.to_uppercase()
}

fn text_case(
    t: &SearchTruth,
    field: &str,
    text: impl Fn(&AgenticIssue) -> Vec<String>,
    set: impl Fn(&mut SearchFilters, String),
) -> Vec<(String, SearchFilters, BTreeSet<String>)> {
    let all: Vec<String> = t.issues.iter().flat_map(&text).collect();
    let q = pick_query(&all);
    assert!(
        !all.iter().any(|s| s.contains(&q)),
        "the query differs in case from the data, so case-insensitivity is tested"
    );
    let mut filters = SearchFilters::default();
    set(&mut filters, q.clone());
    let needle = q.to_lowercase();
    let expected = t.ids_where(|i| text(i).iter().any(|s| s.to_lowercase().contains(&needle)));
    vec![(format!("{field} {q:?}"), filters, expected)]
}

search_test!(search_filter_title_query, |t| {
    text_case(
        &t,
        "titleQuery",
        |i| i.title.clone().into_iter().collect(),
        |f, q| f.title_query = Some(q),
    )
});

search_test!(search_filter_description_query, |t| {
    text_case(
        &t,
        "descriptionQuery",
        |i| i.description.clone().into_iter().collect(),
        |f, q| f.description_query = Some(q),
    )
});

search_test!(search_filter_reasoning_query, |t| {
    text_case(
        &t,
        "reasoningQuery",
        |i| i.reasoning.clone().into_iter().collect(),
        |f, q| f.reasoning_query = Some(q),
    )
});

search_test!(search_filter_file_path_query, |t| {
    // A path fragment in another case; matches any of filePaths.
    let mut fragments: BTreeMap<String, usize> = BTreeMap::new();
    for i in &t.issues {
        let mut seen = BTreeSet::new();
        for p in &i.file_paths {
            for part in p.split('/') {
                if part.len() >= 3 {
                    seen.insert(part.to_lowercase());
                }
            }
        }
        for s in seen {
            *fragments.entry(s).or_default() += 1;
        }
    }
    let (fragment, _) = fragments
        .into_iter()
        .filter(|(_, n)| *n < AGENTIC)
        .max_by_key(|(f, n)| (*n, Reverse(f.clone())))
        .expect("a fragment");
    let q = fragment.to_uppercase();
    let expected = t.ids_where(|i| {
        i.file_paths
            .iter()
            .any(|p| p.to_lowercase().contains(&fragment))
    });
    vec![(
        format!("filePathQuery {q:?}"),
        SearchFilters {
            file_path_query: Some(q),
            ..Default::default()
        },
        expected,
    )]
});

fn range_cases(
    t: &SearchTruth,
    field: &str,
    time: impl Fn(&AgenticIssue) -> Option<DateTime<Utc>>,
    set: impl Fn(&mut SearchFilters, TimeRange),
) -> Vec<(String, SearchFilters, BTreeSet<String>)> {
    let mut times: Vec<DateTime<Utc>> = t.issues.iter().filter_map(&time).collect();
    times.sort();
    // Bounds are values of the data set, so inclusivity is observable.
    let (start, end) = (times[times.len() / 4], times[3 * times.len() / 4]);
    let ranges = [
        ("start..end", Some(start), Some(end)),
        ("start..", Some(start), None),
        ("..end", None, Some(end)),
    ];
    ranges
        .into_iter()
        .map(|(label, start_at, end_at)| {
            let mut filters = SearchFilters::default();
            set(&mut filters, TimeRange { start_at, end_at });
            let expected = t.ids_where(|i| {
                time(i).is_some_and(|x| {
                    start_at.is_none_or(|s| x >= s) && end_at.is_none_or(|e| x < e)
                })
            });
            (format!("{field} {label}"), filters, expected)
        })
        .collect()
}

search_test!(search_filter_created_at_range, |t| {
    range_cases(
        &t,
        "createdAt",
        |i| i.created_at,
        |f, r| f.created_at = Some(r),
    )
});

search_test!(search_filter_last_detected_at_range, |t| {
    range_cases(
        &t,
        "lastDetectedAt",
        |i| i.last_detected_at,
        |f, r| f.last_detected_at = Some(r),
    )
});

search_test!(search_filter_triaged_at_range, |t| {
    assert!(
        t.issues.iter().any(|i| i.triaged_at.is_none()),
        "some issues were never triaged; a range leaves them out"
    );
    range_cases(
        &t,
        "triagedAt",
        |i| i.triaged_at,
        |f, r| f.triaged_at = Some(r),
    )
});

search_test!(search_filters_combine_with_and, |t| {
    let actions = t.pick2(|i| i.actions.clone());
    let sources = t.pick2(|i| i.trigger_sources.clone());
    let expected = t.ids_where(|i| {
        i.actions.iter().any(|a| actions.contains(a))
            && i.trigger_sources.iter().any(|s| sources.contains(s))
    });
    vec![(
        "actions AND triggerSources".into(),
        SearchFilters {
            actions,
            trigger_sources: sources,
            ..Default::default()
        },
        expected,
    )]
});

// ================================================================ 5. sorts

/// The whole listing in one sort (two pages of 1000).
async fn list_sorted(env: &Env, by: Option<SortBy>, dir: Option<SortDirection>) -> Vec<Issue> {
    let issues = list_all(
        &env.client,
        ListIssuesRequest {
            limit: Some(1000),
            sort_by: by,
            sort_direction: dir,
            ..Default::default()
        },
    )
    .await;
    assert_eq!(issues.len(), env.list_truth().await.listed().len());
    issues
}

macro_rules! list_sort_test {
    ($name:ident, $by:expr, |$i:ident| $key:expr) => {
        list_sort_test!($name, $by, |$i| $key, true);
    };
    ($name:ident, $by:expr, |$i:ident| $key:expr, $ties:expr) => {
        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn $name() {
            let env = Env::start().await;
            for dir in [SortDirection::Asc, SortDirection::Desc] {
                let what = format!("{:?} {:?}", $by, dir);
                let issues = list_sorted(&env, Some($by), Some(dir.clone())).await;
                let items = keyed(&issues, |$i: &Issue| $key);
                assert_order(&what, &items, dir == SortDirection::Desc);
                if $ties {
                    assert!(
                        items.windows(2).any(|w| w[0].1 == w[1].1),
                        "{what}: the data has ties, so the tie-break is exercised"
                    );
                }
            }
        }
    };
}

// Severity level: CRITICAL highest, so DESC puts CRITICAL first.
list_sort_test!(list_sort_by_severity, SortBy::Severity, |i| Reverse(
    severity_rank(i.severity.as_ref())
));
list_sort_test!(list_sort_by_ref, SortBy::Ref, |i| i.ref_.clone());
list_sort_test!(list_sort_by_repo, SortBy::Repo, |i| i
    .repository_name()
    .to_owned());
list_sort_test!(list_sort_by_rule, SortBy::Rule, |i| i.rule_id.clone());
// Times are unique to the second in the demo, so there are no ties here.
list_sort_test!(
    list_sort_by_relevant_since,
    SortBy::RelevantSince,
    |i| i.relevant_since,
    false
);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_sort_severity_desc_puts_critical_first() {
    let env = Env::start().await;
    let desc = list_sorted(&env, Some(SortBy::Severity), Some(SortDirection::Desc)).await;
    let asc = list_sorted(&env, Some(SortBy::Severity), Some(SortDirection::Asc)).await;
    assert_eq!(desc[0].severity, Some(Severity::Critical));
    assert_eq!(desc.last().unwrap().severity, Some(Severity::Low));
    assert_eq!(asc[0].severity, Some(Severity::Low));
    assert_eq!(asc.last().unwrap().severity, Some(Severity::Critical));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_sort_by_state() {
    // The order of states is not documented; what is: each state is one run,
    // ties by ascending id, and DESC is ASC with the runs reversed.
    let env = Env::start().await;
    let asc = list_sorted(&env, Some(SortBy::State), Some(SortDirection::Asc)).await;
    let desc = list_sorted(&env, Some(SortBy::State), Some(SortDirection::Desc)).await;
    let asc_runs = assert_grouped("State ASC", &keyed(&asc, aggregate));
    let mut desc_runs = assert_grouped("State DESC", &keyed(&desc, aggregate));
    assert!(asc_runs.len() >= 6, "{asc_runs:?}");
    desc_runs.reverse();
    assert_eq!(asc_runs, desc_runs);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_default_sort_is_relevant_since_descending() {
    let env = Env::start().await;
    let default = list_sorted(&env, None, None).await;
    assert_order(
        "default list order",
        &keyed(&default, |i| i.relevant_since),
        true,
    );
    let explicit = list_sorted(&env, Some(SortBy::RelevantSince), Some(SortDirection::Desc)).await;
    let ids = |v: &[Issue]| v.iter().map(|i| i.id().to_owned()).collect::<Vec<_>>();
    assert_eq!(ids(&default), ids(&explicit));
}

async fn search_sorted(
    env: &Env,
    field: Option<IssueSortField>,
    dir: Option<SortDirection>,
) -> Vec<AgenticIssue> {
    let issues: Vec<AgenticIssue> = all_pages(
        &env.client,
        SearchIssuesRequest {
            limit: Some(60),
            sort_field: field,
            sort_direction: dir,
            ..Default::default()
        },
    )
    .await
    .into_iter()
    .flat_map(|p| p.issues)
    .collect();
    assert_eq!(issues.len(), AGENTIC);
    issues
}

fn keyed_agentic<K>(issues: &[AgenticIssue], key: impl Fn(&AgenticIssue) -> K) -> Vec<(String, K)> {
    issues
        .iter()
        .map(|i| (i.id.clone().unwrap_or_default(), key(i)))
        .collect()
}

macro_rules! search_sort_test {
    ($name:ident, $field:expr, |$i:ident| $key:expr) => {
        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn $name() {
            let env = Env::start().await;
            for dir in [SortDirection::Asc, SortDirection::Desc] {
                let what = format!("{:?} {:?}", $field, dir);
                let issues = search_sorted(&env, Some($field), Some(dir.clone())).await;
                let items = keyed_agentic(&issues, |$i: &AgenticIssue| $key);
                assert_order(&what, &items, dir == SortDirection::Desc);
            }
        }
    };
}

search_sort_test!(search_sort_by_severity, IssueSortField::Severity, |i| {
    Reverse(severity_rank(i.severity.as_ref()))
});
search_sort_test!(
    search_sort_by_last_detected_at,
    IssueSortField::LastDetectedAt,
    |i| i.last_detected_at
);
search_sort_test!(search_sort_by_created_at, IssueSortField::CreatedAt, |i| i
    .created_at);
search_sort_test!(search_sort_by_file_path, IssueSortField::FilePath, |i| i
    .file_paths
    .first()
    .cloned());

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn search_severity_desc_puts_critical_first_and_default_is_last_detected_desc() {
    let env = Env::start().await;
    let desc = search_sorted(
        &env,
        Some(IssueSortField::Severity),
        Some(SortDirection::Desc),
    )
    .await;
    assert_eq!(desc[0].severity, Some(Severity::Critical));
    assert_eq!(desc[AGENTIC - 1].severity, Some(Severity::Info));
    let default = search_sorted(&env, None, None).await;
    assert_order(
        "default search order",
        &keyed_agentic(&default, |i| i.last_detected_at),
        true,
    );
    let explicit = search_sorted(
        &env,
        Some(IssueSortField::LastDetectedAt),
        Some(SortDirection::Desc),
    )
    .await;
    let ids = |v: &[AgenticIssue]| v.iter().map(|i| i.id.clone()).collect::<Vec<_>>();
    assert_eq!(ids(&default), ids(&explicit));
}

// ========================================================= 6. include flags

fn present_parts(i: &Issue) -> [bool; 4] {
    [
        i.remediation.is_some(),
        !i.activity_history.is_empty(),
        i.is_archived.is_some(),
        i.first_detected_at.is_some(),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn include_flags_add_their_part_only_when_true() {
    let env = Env::start().await;
    let base = ListIssuesRequest {
        limit: Some(1000),
        ..Default::default()
    };
    let none = list_all(&env.client, base.clone()).await;
    let all_false = list_all(
        &env.client,
        ListIssuesRequest {
            include_remediation: Some(false),
            include_activity_history: Some(false),
            include_is_archived: Some(false),
            include_first_detected_at: Some(false),
            ..base.clone()
        },
    )
    .await;
    for i in none.iter().chain(&all_false) {
        assert_eq!(present_parts(i), [false; 4], "{}: nothing asked", i.id());
    }
    let names = [
        "remediation",
        "activityHistory",
        "isArchived",
        "firstDetectedAt",
    ];
    for (k, name) in names.iter().enumerate() {
        let flag = |n: usize| (n == k).then_some(true);
        let got = list_all(
            &env.client,
            ListIssuesRequest {
                include_remediation: flag(0),
                include_activity_history: flag(1),
                include_is_archived: flag(2),
                include_first_detected_at: flag(3),
                ..base.clone()
            },
        )
        .await;
        assert_eq!(got.len(), none.len(), "{name}: the flag does not filter");
        let mut wanted = [false; 4];
        wanted[k] = true;
        for i in &got {
            assert_eq!(present_parts(i), wanted, "{name} on {}", i.id());
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn include_flags_carry_consistent_data() {
    let env = Env::start().await;
    let projects = env.projects();
    let got = list_all(
        &env.client,
        ListIssuesRequest {
            limit: Some(1000),
            include_remediation: Some(true),
            include_activity_history: Some(true),
            include_is_archived: Some(true),
            include_first_detected_at: Some(true),
            ..Default::default()
        },
    )
    .await;
    let mut types: BTreeSet<String> = BTreeSet::new();
    for i in &got {
        let r = i.remediation.as_ref().expect("remediation");
        assert_eq!(r.issue_id.as_deref(), Some(i.id()), "remediation.issueId");
        assert_eq!(
            r.match_based_id, i.match_based_id,
            "remediation.matchBasedId"
        );
        assert_eq!(
            i.is_archived,
            Some(projects[i.repository_name()].archived),
            "isArchived of {}",
            i.id()
        );
        let first = i.first_detected_at.expect("firstDetectedAt");
        let created = i.created_at.expect("createdAt");
        assert!(first <= created, "{}: first detected on any ref", i.id());
        let dates: Vec<_> = i.activity_history.iter().map(|e| e.date).collect();
        assert!(
            dates.windows(2).all(|w| w[0] <= w[1]),
            "{}: activity is chronological",
            i.id()
        );
        for e in &i.activity_history {
            let t = e.history_type.as_ref().expect("historyType");
            assert!(t.is_known(), "{t:?}");
            types.insert(t.as_wire().to_owned());
        }
    }
    let all: BTreeSet<String> = HistoryType::ALL
        .iter()
        .map(|t| t.as_wire().to_owned())
        .collect();
    assert_eq!(types, all, "activity histories cover every HistoryType");
}

fn single_issue_fields(i: &Issue) -> [(&'static str, bool); 8] {
    [
        (
            "dataflowTrace",
            i.dataflow_trace
                .as_ref()
                .is_some_and(|d| !d.taint_source.is_empty() && !d.taint_sink.is_empty()),
        ),
        ("codeSnippets", !i.code_snippets.is_empty()),
        ("codeSnippet", i.code_snippet.is_some()),
        ("relatedIssues", !i.related_issues.is_empty()),
        ("commitUrl", i.commit_url.is_some()),
        ("refUrl", i.ref_url.is_some()),
        ("ruleDisplayName", i.rule_display_name.is_some()),
        ("activityHistory", !i.activity_history.is_empty()),
    ]
}

/// Two code findings whose rule also has findings on another ref of their
/// repository (so they have related issues).
async fn code_findings_with_relatives(env: &Env) -> Vec<Issue> {
    let all = list_all(
        &env.client,
        ListIssuesRequest {
            limit: Some(1000),
            ..Default::default()
        },
    )
    .await;
    let ds = &env.server.state().dataset;
    all.into_iter()
        .filter(|i| i.issue_type == Some(IssueType::Sast))
        .filter(|i| {
            findings_demo::dataset::finding_index(i.id(), ds.rows.len())
                .is_some_and(|k| !ds.related(k).is_empty())
        })
        .take(2)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn related_issues_are_real_findings_of_the_same_rule_on_other_refs() {
    let env = Env::start().await;
    let code = code_findings_with_relatives(&env).await;
    let issue = env.client.get_issue(code[0].id()).await.expect("get one");
    assert!(!issue.related_issues.is_empty());
    for related in &issue.related_issues {
        let other = env
            .client
            .get_issue(related.id.as_deref().expect("an id"))
            .await
            .expect("a related finding can be fetched");
        assert_eq!(other.rule_id, issue.rule_id, "same rule");
        assert_eq!(other.repository_name(), issue.repository_name());
        assert_eq!(other.ref_, related.ref_, "on the ref the relation names");
        assert_ne!(other.ref_, issue.ref_, "another ref");
        assert_eq!(other.aggregate_state, related.aggregate_state);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_issue_gives_the_single_issue_fields() {
    let env = Env::start().await;
    let code = code_findings_with_relatives(&env).await;
    assert_eq!(code.len(), 2);
    let issue = env
        .client
        .get_issue(code[0].id())
        .await
        .expect("get one issue");
    assert_eq!(issue.id(), code[0].id());
    for (field, present) in single_issue_fields(&issue) {
        assert!(present, "{field} is present in the single-issue fetch");
    }
    assert!(issue.first_detected_at.is_some(), "firstDetectedAt");
    assert!(issue.remediation.is_some(), "remediation");
    assert!(issue.is_archived.is_some(), "isArchived, asked for");
    // The list never gives them, not even for one id.
    let one = env
        .client
        .list_issues(&with_filter(ListIssuesFilter {
            ids: vec![code[0].id().to_owned()],
            ..Default::default()
        }))
        .await
        .expect("list one");
    assert_eq!(one.issues.len(), 1);
    for (field, present) in single_issue_fields(one.issues[0].issue.as_ref().unwrap()) {
        assert!(!present, "{field} is absent from List issues");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_issue_of_an_unknown_or_odd_id_is_404() {
    let env = Env::start().await;
    for id in ["no-such-finding", "../issues", "a/b", "x?y=1"] {
        let e = env.client.get_issue(id).await.expect_err("no such finding");
        assert!(matches!(e, ApiError::NotFound(_)), "{id}: {e:?}");
    }
    let e = env.client.get_issue("").await.expect_err("an empty id");
    assert!(matches!(e, ApiError::Config(_)), "{e:?}");
}

// ================================================================ 7. errors

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn error_wrong_token_is_401_on_every_operation() {
    let env = Env::start().await;
    let client = client_for(&env.server, "not-the-token", "1234");
    for e in assert_all_operations_fail(&env, &client, Some("not-the-token"), "1234", 401).await {
        assert!(matches!(e, ApiError::Unauthorized(_)), "{e:?}");
        assert!(!e.is_retryable());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn error_missing_token_is_401_json() {
    let env = Env::start().await;
    let http = crate::common::http();
    for (name, method, path, body) in raw_operations("1234") {
        let answer = raw(&http, method, &env.url(&path), None, &body).await;
        let (error, _) = answer.assert_error(401);
        assert!(!error.is_empty(), "{name}");
    }
}

/// The auth scheme is case-insensitive (RFC 7235, 2.1): `bearer` and
/// `BEARER` are read as `Bearer`; another scheme is no bearer token.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_auth_scheme_is_read_in_any_case() {
    let env = Env::start().await;
    let http = crate::common::http();
    let url = env.url("/api/agent/deployment");
    for (header, status) in [
        (format!("bearer {TOKEN}"), 200),
        (format!("BEARER {TOKEN}"), 200),
        (format!("Bearer   {TOKEN}"), 200),
        (format!("Basic {TOKEN}"), 401),
        ("Bearer ".to_owned(), 401),
    ] {
        let answer = http
            .get(&url)
            .header(reqwest::header::AUTHORIZATION, &header)
            .send()
            .await
            .expect("the demo server answers");
        assert_eq!(answer.status().as_u16(), status, "{header:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn error_token_without_web_api_is_403_on_every_operation() {
    let env = Env::start().await;
    let client = client_for(&env.server, TOKEN_WITHOUT_WEB_API, "1234");
    for e in
        assert_all_operations_fail(&env, &client, Some(TOKEN_WITHOUT_WEB_API), "1234", 403).await
    {
        assert!(matches!(e, ApiError::Forbidden(_)), "{e:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn error_unknown_deployment_is_404_on_every_operation() {
    let env = Env::start().await;
    let client = client_for(&env.server, TOKEN, "999");
    for e in assert_all_operations_fail(&env, &client, Some(TOKEN), "999", 404).await {
        assert!(matches!(e, ApiError::NotFound(_)), "{e:?}");
        assert!(server_message(&e).message.contains("999"), "{e}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn error_unknown_scm_config_is_404() {
    let env = Env::start().await;
    let patch = ScmConfigPatch {
        auto_scan: Some(true),
        ..Default::default()
    };
    let e = env
        .client
        .update_scm_config("4242", &patch)
        .await
        .expect_err("no such config");
    assert!(matches!(e, ApiError::NotFound(_)), "{e:?}");
    let answer = raw(
        &crate::common::http(),
        reqwest::Method::PATCH,
        &env.url("/api/scm/deployments/1234/configs/4242"),
        Some(TOKEN),
        r#"{"deploymentId":"1234","configId":"4242","autoScan":true}"#,
    )
    .await;
    assert_error_as_raw("unknown config", &e, &answer, 404);
    assert!(server_message(&e).message.contains("4242"), "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn error_bad_cursor_is_400_on_every_read() {
    let env = Env::start().await;
    let http = crate::common::http();
    let bad = "not-a-cursor";
    let errors = [
        (
            "list",
            env.client
                .list_issues(&ListIssuesRequest {
                    cursor: Some(bad.into()),
                    ..Default::default()
                })
                .await
                .expect_err("list"),
            "/api/agent/deployments/1234/issues",
            r#"{"deploymentId":"1234","cursor":"not-a-cursor"}"#,
        ),
        (
            "search",
            env.client
                .search_issues(&SearchIssuesRequest {
                    cursor: Some(bad.into()),
                    ..Default::default()
                })
                .await
                .expect_err("search"),
            "/api/issues/1234/search",
            r#"{"deploymentId":"1234","cursor":"not-a-cursor"}"#,
        ),
        (
            "report",
            env.client
                .report_findings(&ReportRequest {
                    cursor: Some(bad.into()),
                    ..Default::default()
                })
                .await
                .expect_err("report"),
            "/api/reporting/1234/findings",
            r#"{"cursor":"not-a-cursor"}"#,
        ),
    ];
    for (name, e, path, body) in errors {
        assert!(matches!(e, ApiError::BadRequest(_)), "{name}: {e:?}");
        let answer = raw(
            &http,
            reqwest::Method::POST,
            &env.url(path),
            Some(TOKEN),
            body,
        )
        .await;
        assert_error_as_raw(name, &e, &answer, 400);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn error_unknown_enum_value_is_400() {
    let env = Env::start().await;
    let list = env
        .client
        .list_issues(&ListIssuesRequest {
            sort_by: Some(SortBy::Other("SORT_BY_NOPE".into())),
            ..Default::default()
        })
        .await
        .expect_err("unknown sortBy");
    let search = env
        .client
        .search_issues(&SearchIssuesRequest {
            sort_field: Some(IssueSortField::Other("ISSUE_SORT_FIELD_NOPE".into())),
            ..Default::default()
        })
        .await
        .expect_err("unknown sortField");
    let report = env
        .client
        .report_findings(&ReportRequest {
            report_type: Some(ReportType::Other("REPORT_TYPE_NOPE".into())),
            ..Default::default()
        })
        .await
        .expect_err("unknown reportType");
    let filter = env
        .client
        .list_issues(&ListIssuesRequest {
            issue_types: vec![IssueType::Other("ISSUE_TYPE_NOPE".into())],
            ..Default::default()
        })
        .await
        .expect_err("unknown issue type");
    for (e, value) in [
        (list, "SORT_BY_NOPE"),
        (search, "ISSUE_SORT_FIELD_NOPE"),
        (report, "REPORT_TYPE_NOPE"),
        (filter, "ISSUE_TYPE_NOPE"),
    ] {
        assert!(matches!(e, ApiError::BadRequest(_)), "{e:?}");
        let m = server_message(&e);
        assert!(m.message.contains(value), "the message names {value}: {m}");
        assert!(m.code.is_some(), "{m}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn error_negative_limit_is_400() {
    let env = Env::start().await;
    let errors = [
        env.client
            .list_issues(&ListIssuesRequest {
                limit: Some(-1),
                ..Default::default()
            })
            .await
            .expect_err("list"),
        env.client
            .search_issues(&SearchIssuesRequest {
                limit: Some(-5),
                ..Default::default()
            })
            .await
            .expect_err("search"),
        env.client
            .report_findings(&ReportRequest {
                limit: Some(-100),
                ..Default::default()
            })
            .await
            .expect_err("report"),
    ];
    for e in errors {
        assert!(matches!(e, ApiError::BadRequest(_)), "{e:?}");
        assert!(server_message(&e).message.contains("limit"), "{e}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn error_invalid_bodies_are_400_json() {
    let env = Env::start().await;
    let http = crate::common::http();
    let bodies = [
        "{not json",
        "",
        r#"{"limit":true}"#,
        r#"{"limit":"ten"}"#,
        r#"{"filter":{"ids":"100000"}}"#,
        r#"{"deploymentId":"1234"} trailing"#,
    ];
    for body in bodies {
        let answer = raw(
            &http,
            reqwest::Method::POST,
            &env.url("/api/agent/deployments/1234/issues"),
            Some(TOKEN),
            body,
        )
        .await;
        assert_eq!(answer.status, 400, "body {body:?} is refused");
        answer.assert_error(400);
    }
    for (path, body) in [
        ("/api/issues/1234/search", r#"{"limit":{}}"#),
        ("/api/reporting/1234/findings", r#"{"filters":[1]}"#),
    ] {
        let answer = raw(
            &http,
            reqwest::Method::POST,
            &env.url(path),
            Some(TOKEN),
            body,
        )
        .await;
        answer.assert_error(400);
    }
    // The body's deploymentId must equal the path's (docs/src/api.md §2).
    for path in [
        "/api/agent/deployments/1234/issues",
        "/api/issues/1234/search",
    ] {
        let answer = raw(
            &http,
            reqwest::Method::POST,
            &env.url(path),
            Some(TOKEN),
            r#"{"deploymentId":"5678"}"#,
        )
        .await;
        answer.assert_error(400);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn error_json_array_body_is_400() {
    // The request body is a JSON object (spec: "Request bodies are JSON",
    // with named fields); anything else is an invalid body (docs/src/api.md §11).
    // serde's derived Deserialize also accepts a sequence for a struct, so
    // without a check `[]` would be served as an empty request and
    // `[null, 5]` as `{"limit": 5}`.
    let env = Env::start().await;
    let http = crate::common::http();
    for body in ["[]", "[null, 5]"] {
        let answer = raw(
            &http,
            reqwest::Method::POST,
            &env.url("/api/agent/deployments/1234/issues"),
            Some(TOKEN),
            body,
        )
        .await;
        assert_eq!(answer.status, 400, "body {body:?} is refused");
        answer.assert_error(400);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn error_bodies_of_unknown_routes_are_json() {
    let env = Env::start().await;
    let http = crate::common::http();
    let answer = raw(
        &http,
        reqwest::Method::POST,
        &env.url("/api/nothing/here"),
        Some(TOKEN),
        "{}",
    )
    .await;
    answer.assert_error(404);
    let answer = raw(
        &http,
        reqwest::Method::GET,
        &env.url("/api/agent/deployments/1234/issues"),
        Some(TOKEN),
        "",
    )
    .await;
    answer.assert_error(405);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gzip_is_honoured() {
    let env = Env::start().await;
    let http = crate::common::http_builder()
        .gzip(false)
        .build()
        .expect("a client");
    let send = |gzip: bool| {
        let mut req = http
            .post(env.url("/api/agent/deployments/1234/issues"))
            .bearer_auth(TOKEN)
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .body(r#"{"deploymentId":"1234","limit":50}"#);
        if gzip {
            req = req.header(reqwest::header::ACCEPT_ENCODING, "gzip");
        }
        req.send()
    };
    let zipped = send(true).await.expect("an answer");
    assert_eq!(zipped.status().as_u16(), 200);
    assert_eq!(
        zipped
            .headers()
            .get(reqwest::header::CONTENT_ENCODING)
            .and_then(|v| v.to_str().ok()),
        Some("gzip")
    );
    let bytes = zipped.bytes().await.expect("a body");
    assert_eq!(&bytes[..2], &[0x1f, 0x8b], "a gzip stream");

    let plain = send(false).await.expect("an answer");
    assert!(
        plain
            .headers()
            .get(reqwest::header::CONTENT_ENCODING)
            .is_none()
    );
    let body: ListIssuesResponse =
        serde_json::from_slice(&plain.bytes().await.expect("a body")).expect("JSON");
    assert_eq!(body.issues.len(), 50);

    // The client reads the same page (on loopback it asks for no gzip:
    // compressing costs more than it saves there).
    let page = env
        .client
        .list_issues(&ListIssuesRequest {
            limit: Some(50),
            ..Default::default()
        })
        .await
        .expect("list");
    assert_eq!(page, body);
}

// ================================================================== PATCH

fn initial_config(env: &Env, id: &str) -> ScmConfig {
    env.server
        .state()
        .dataset
        .scm_configs
        .iter()
        .find(|c| c.id.as_deref() == Some(id))
        .cloned()
        .expect("a demo SCM config")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scm_patch_is_partial_and_persists() {
    let env = Env::own().await;
    let ids: Vec<_> = env
        .server
        .state()
        .dataset
        .scm_configs
        .iter()
        .filter_map(|c| c.id.clone())
        .collect();
    assert_eq!(ids, ["1001", "1002", "1003", "1004", "1005"]);
    let before = initial_config(&env, "1001");

    // An empty patch changes nothing.
    let same = env
        .client
        .update_scm_config("1001", &ScmConfigPatch::default())
        .await
        .expect("empty patch");
    assert_eq!(same.config.as_ref(), Some(&before));

    let mut expected = before.clone();
    let broker = !before.use_network_broker.unwrap_or(false);
    expected.use_network_broker = Some(broker);
    let first = env
        .client
        .update_scm_config(
            "1001",
            &ScmConfigPatch {
                use_network_broker: Some(broker),
                ..Default::default()
            },
        )
        .await
        .expect("first patch");
    assert_eq!(
        first.config.as_ref(),
        Some(&expected),
        "only useNetworkBroker changed"
    );

    // A second patch sees the first one's effect.
    expected.namespace = Some("acme-renamed".into());
    let second = env
        .client
        .update_scm_config(
            "1001",
            &ScmConfigPatch {
                namespace: Some("acme-renamed".into()),
                ..Default::default()
            },
        )
        .await
        .expect("second patch");
    assert_eq!(second.config.as_ref(), Some(&expected));

    let diff = !before
        .auto_scan_settings
        .as_ref()
        .and_then(|s| s.diff_enabled)
        .unwrap_or(false);
    expected.auto_scan_settings = Some(AutoScanSettings {
        diff_enabled: Some(diff),
    });
    expected.auto_scan = Some(!before.auto_scan.unwrap_or(false));
    let third = env
        .client
        .update_scm_config(
            "1001",
            &ScmConfigPatch {
                auto_scan: expected.auto_scan,
                auto_scan_settings: expected.auto_scan_settings.clone(),
                ..Default::default()
            },
        )
        .await
        .expect("third patch");
    assert_eq!(third.config.as_ref(), Some(&expected));

    // Other configs are untouched.
    let other = env
        .client
        .update_scm_config("1002", &ScmConfigPatch::default())
        .await
        .expect("read 1002");
    assert_eq!(other.config, Some(initial_config(&env, "1002")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scm_access_token_is_never_returned() {
    let env = Env::own().await;
    let before = initial_config(&env, "1003");
    assert_eq!(before.has_access_token, Some(false));
    let secret = "scm-secret-value-8d3f";
    let answer = raw(
        &crate::common::http(),
        reqwest::Method::PATCH,
        &env.url("/api/scm/deployments/1234/configs/1003"),
        Some(TOKEN),
        &format!(r#"{{"deploymentId":"1234","configId":"1003","accessToken":"{secret}"}}"#),
    )
    .await;
    assert_eq!(answer.status, 200, "{}", answer.text());
    let text = answer.text();
    assert!(!text.contains(secret), "the token is not echoed: {text}");
    assert!(
        !text.contains("accessToken"),
        "no accessToken field: {text}"
    );
    let json = answer.json();
    assert_eq!(json["config"]["hasAccessToken"], serde_json::json!(true));
    assert_eq!(
        json.as_object()
            .map(|o| o.keys().cloned().collect::<Vec<_>>()),
        Some(vec!["config".to_owned()]),
        "the response has one property, config"
    );

    // Through the client too, on another config.
    let resp = env
        .client
        .update_scm_config(
            "1005",
            &ScmConfigPatch {
                access_token: Some("another-secret-77".into()),
                ..Default::default()
            },
        )
        .await
        .expect("patch with a token");
    let config = resp.config.expect("config");
    assert_eq!(config.has_access_token, Some(true));
    let shown = serde_json::to_string(&config).expect("JSON");
    assert!(!shown.contains("another-secret-77"));
    let before = initial_config(&env, "1005");
    assert_eq!(config.namespace, before.namespace, "other fields unchanged");
    assert_eq!(config.auto_scan, before.auto_scan);
    assert_eq!(config.use_network_broker, before.use_network_broker);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scm_body_ids_must_match_the_path() {
    let env = Env::own().await;
    let http = crate::common::http();
    let url = env.url("/api/scm/deployments/1234/configs/1001");
    let before = initial_config(&env, "1001");
    let flipped = !before.auto_scan.unwrap_or(false);
    for body in [
        format!(r#"{{"deploymentId":"1234","configId":"1002","autoScan":{flipped}}}"#),
        format!(r#"{{"deploymentId":"9999","configId":"1001","autoScan":{flipped}}}"#),
    ] {
        let answer = raw(&http, reqwest::Method::PATCH, &url, Some(TOKEN), &body).await;
        answer.assert_error(400);
    }
    // Neither refused patch changed anything.
    let now = env
        .client
        .update_scm_config("1001", &ScmConfigPatch::default())
        .await
        .expect("read back");
    assert_eq!(now.config, Some(before));
}

// ================================================================ 8. cursor

/// The SAST listing's request and its first page of 10, which has a cursor.
async fn first_sast_page(env: &Env) -> (ListIssuesRequest, ListIssuesResponse, String) {
    let req = ListIssuesRequest {
        issue_types: vec![IssueType::Sast],
        ..Default::default()
    };
    let first = env
        .client
        .list_issues(&ListIssuesRequest {
            limit: Some(10),
            ..req.clone()
        })
        .await
        .expect("first page");
    let cursor = first.cursor.clone().expect("a cursor");
    (req, first, cursor)
}

/// The same query continues where the last page ended.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cursor_continues_the_same_query() {
    let env = Env::start().await;
    let (req, first, cursor) = first_sast_page(&env).await;
    let second = env
        .client
        .list_issues(&ListIssuesRequest {
            limit: Some(10),
            cursor: Some(cursor.clone()),
            ..req.clone()
        })
        .await
        .expect("second page");
    let twenty = env
        .client
        .list_issues(&ListIssuesRequest {
            limit: Some(20),
            ..req.clone()
        })
        .await
        .expect("20 at once");
    let ids = |r: &ListIssuesResponse| {
        r.issues
            .iter()
            .map(|i| i.issue.as_ref().map(|i| i.id().to_owned()))
            .collect::<Vec<_>>()
    };
    let mut both = ids(&first);
    both.extend(ids(&second));
    assert_eq!(
        both,
        ids(&twenty),
        "pages continue where the last one ended"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cursor_replayed_with_another_query_is_400() {
    let env = Env::start().await;
    let (req, _, cursor) = first_sast_page(&env).await;
    let other_filter = ListIssuesRequest {
        cursor: Some(cursor.clone()),
        issue_types: vec![IssueType::Sca],
        ..Default::default()
    };
    let other_sort = ListIssuesRequest {
        cursor: Some(cursor.clone()),
        sort_by: Some(SortBy::Repo),
        ..req.clone()
    };
    for (what, r) in [("other filter", other_filter), ("other sort", other_sort)] {
        let e = env.client.list_issues(&r).await.expect_err(what);
        assert!(matches!(e, ApiError::BadRequest(_)), "{what}: {e:?}");
    }
    // Nor does it serve another operation.
    let e = env
        .client
        .search_issues(&SearchIssuesRequest {
            cursor: Some(cursor.clone()),
            ..Default::default()
        })
        .await
        .expect_err("list cursor in search");
    assert!(matches!(e, ApiError::BadRequest(_)), "{e:?}");
    let e = env
        .client
        .report_findings(&ReportRequest {
            cursor: Some(cursor),
            ..Default::default()
        })
        .await
        .expect_err("list cursor in report");
    assert!(matches!(e, ApiError::BadRequest(_)), "{e:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn search_and_report_cursors_are_bound_to_their_query() {
    let env = Env::start().await;
    let s = env
        .client
        .search_issues(&SearchIssuesRequest {
            limit: Some(5),
            ..Default::default()
        })
        .await
        .expect("search");
    let e = env
        .client
        .search_issues(&SearchIssuesRequest {
            cursor: s.cursor,
            sort_field: Some(IssueSortField::CreatedAt),
            ..Default::default()
        })
        .await
        .expect_err("search cursor, other sort");
    assert!(matches!(e, ApiError::BadRequest(_)), "{e:?}");
    let r = env
        .client
        .report_findings(&ReportRequest {
            limit: Some(5),
            ..Default::default()
        })
        .await
        .expect("report");
    let e = env
        .client
        .report_findings(&ReportRequest {
            cursor: r.cursor,
            report_type: Some(ReportType::TotalFixed),
            ..Default::default()
        })
        .await
        .expect_err("report cursor, other type");
    assert!(matches!(e, ApiError::BadRequest(_)), "{e:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cursor_empty_string_asks_for_the_first_page() {
    let env = Env::start().await;
    let list = |cursor: Option<String>| {
        let client = env.client.clone();
        async move {
            client
                .list_issues(&ListIssuesRequest {
                    limit: Some(25),
                    cursor,
                    ..Default::default()
                })
                .await
        }
    };
    let absent = list(None).await.expect("absent cursor");
    let empty = list(Some(String::new())).await.expect("empty cursor");
    assert_eq!(absent, empty);
    assert_eq!(absent.issues.len(), 25);

    let search = |cursor: Option<String>| {
        let client = env.client.clone();
        async move {
            client
                .search_issues(&SearchIssuesRequest {
                    limit: Some(25),
                    cursor,
                    ..Default::default()
                })
                .await
        }
    };
    assert_eq!(
        search(None).await.expect("absent"),
        search(Some(String::new())).await.expect("empty")
    );

    let report = |cursor: Option<String>| {
        let client = env.client.clone();
        async move {
            client
                .report_findings(&ReportRequest {
                    limit: Some(25),
                    cursor,
                    ..Default::default()
                })
                .await
        }
    };
    assert_eq!(
        report(None).await.expect("absent"),
        report(Some(String::new())).await.expect("empty")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn limit_defaults_to_100_and_is_capped_at_1000() {
    // More findings than the cap, or the cap would not show.
    let findings = 1_500;
    assert!(crate::common::listed(findings) > 1000);
    let env = Env::own_of(findings).await;
    for (limit, want) in [
        (None, 100),
        (Some(0), 100),
        (Some(1), 1),
        (Some(999), 999),
        (Some(1000), 1000),
        (Some(5000), 1000),
    ] {
        let list = env
            .client
            .list_issues(&ListIssuesRequest {
                limit,
                ..Default::default()
            })
            .await
            .expect("list");
        assert_eq!(list.issues.len(), want, "list limit {limit:?}");
        let report = env
            .client
            .report_findings(&ReportRequest {
                report_type: Some(ReportType::Project),
                limit,
                ..Default::default()
            })
            .await
            .expect("report");
        assert_eq!(report.findings.len(), want, "report limit {limit:?}");
        let search = env
            .client
            .search_issues(&SearchIssuesRequest {
                limit,
                ..Default::default()
            })
            .await
            .expect("search");
        assert_eq!(
            search.issues.len(),
            want.min(AGENTIC),
            "search limit {limit:?}"
        );
    }
}

mod filters;
mod report_trend;
