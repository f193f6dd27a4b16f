//! HTTP routes of the demo server: auth, path checks, JSON bodies in and out,
//! JSON errors (docs/api.md §11–12), gzip.

use super::DemoState;
use super::query::{self, BadRequest};
use crate::api::model::*;
use axum::Router;
use axum::body::Bytes;
use axum::extract::Query;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, patch, post};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use tower_http::compression::CompressionLayer;
use tower_http::decompression::RequestDecompressionLayer;

/// A token the demo accepts as valid but without Web API permission (403).
pub const TOKEN_WITHOUT_WEB_API: &str = "demo-token-no-web-api";

/// A token the demo accepts for reading only: its authorized actions name
/// no action on findings, and those writes are refused (403).
pub const TOKEN_WITHOUT_ACTIONS: &str = "demo-token-read-only";

pub fn router(state: Arc<DemoState>) -> Router {
    Router::new()
        .route(
            "/api/reporting/{deployment}/findings",
            post(json_query(
                |_: &ReportRequest| None,
                |s, r| query::report_findings(&s.dataset, &s.orders, r),
            )),
        )
        .route(
            "/api/reporting/{deployment}/reports/activity",
            post(json_query(
                |_: &GetReportRequest| None,
                |s, r| query::activity_report(&s.dataset, r),
            )),
        )
        .route(
            "/api/reporting/{deployment}/reports/by-project/by-severity",
            post(json_query(
                |_: &GetReportRequest| None,
                |s, r| query::by_project_report(&s.dataset, r),
            )),
        )
        .route(
            "/api/reporting/{deployment}/reports/backlog/by-rule",
            post(json_query(
                |_: &GetReportRequest| None,
                |s, r| query::backlog_by_rule_report(&s.dataset, r),
            )),
        )
        .route(
            "/api/reporting/{deployment}/reports/backlog/by-severity",
            post(json_query(
                |_: &GetReportRequest| None,
                |s, r| query::backlog_by_severity_report(&s.dataset, r),
            )),
        )
        .route(
            "/api/reporting/{deployment}/reports/median-open-age/by-severity",
            post(json_query(
                |_: &GetReportRequest| None,
                |s, r| query::median_open_age_report(&s.dataset, r),
            )),
        )
        .route(
            "/api/issues/{deployment}/counts",
            post(json_query(
                |r: &CountIssuesRequest| Some(&r.deployment_id),
                |s, r| query::count_issues(&s.dataset, r),
            )),
        )
        .route(
            "/api/issues/{deployment}/search",
            post(json_query(
                |r: &SearchIssuesRequest| Some(&r.deployment_id),
                |s, r| query::search_issues(&s.dataset, r),
            )),
        )
        .route(
            "/api/agent/deployments/{deployment}/issues",
            post(json_query(
                |r: &ListIssuesRequest| Some(&r.deployment_id),
                |s, r| query::list_issues(&s.dataset, &s.orders, r),
            )),
        )
        .route(
            "/api/agent/deployments/{deployment}/issues/search",
            // `IssuesService_ListIssueGroups`: findings grouped by rule.
            post(json_query(
                |r: &ListIssueGroupsRequest| Some(&r.deployment_id),
                |s, r| query::list_issue_groups(&s.dataset, &s.orders, r),
            )),
        )
        .route(
            "/api/agent/deployments/{deployment}/issues/v2/{issue}",
            get(get_issue),
        )
        .route(
            "/api/agent/deployments/{deployment}/issue_filters",
            // `IssuesService_GetIssueFilters`: the values the filters can take.
            post(json_query(
                |r: &IssueFiltersRequest| Some(&r.deployment_id),
                |s, r| query::issue_filters(&s.dataset, r),
            )),
        )
        .route(
            "/api/agent/deployments/{deployment}/issue_counts",
            // `IssuesService_GetIssueCounts`: the filter's findings counted by state.
            post(json_query(
                |r: &GetIssueCountsRequest| Some(&r.deployment_id),
                |s, r| query::issue_counts(&s.dataset, &s.orders, r),
            )),
        )
        .route(
            "/api/agent/deployments/{deployment}/findings/v2",
            // `IssuesService_BulkUpdateIssues`: triages the findings the filter
            // matches (kept for the life of the process).
            patch(json_query(
                |r: &UpdateFindingsRequest| Some(&r.deployment_id),
                |s, r| query::update_findings(&s.dataset, r),
            )),
        )
        .route(
            "/api/issues/{deployment}/issue/{issue}",
            post(triage_agentic_issue),
        )
        .route(
            "/api/scm/deployments/{deployment}/configs/{config}",
            patch(update_scm_config),
        )
        .route(
            "/api/scm/deployments/{deployment}/configs",
            get(list_scm_configs),
        )
        .route("/api/agent/deployment", get(deployment_of_token))
        .merge(super::action_routes::routes())
        // The clock of the fix pull requests: the requests served.
        .route_layer(axum::middleware::from_fn_with_state(
            state.clone(),
            super::action_routes::count_served,
        ))
        // The tap sees what the handlers take and give, inside the faults.
        .route_layer(axum::middleware::from_fn_with_state(
            state.clone(),
            super::tap::record,
        ))
        // Faults (when asked for) on the API routes only, inside
        // compression: they see and spoil the plain JSON.
        .route_layer(axum::middleware::from_fn_with_state(
            state.clone(),
            super::faults::inject,
        ))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(RequestDecompressionLayer::new())
        .layer(CompressionLayer::new())
        .with_state(state)
}

/// An error answer with the demo's JSON error body.
pub struct ApiFailure {
    status: StatusCode,
    code: &'static str,
    message: String,
}

impl ApiFailure {
    pub(super) fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        ApiFailure {
            status,
            code,
            message: message.into(),
        }
    }
}

impl From<BadRequest> for ApiFailure {
    fn from(e: BadRequest) -> Self {
        ApiFailure::new(StatusCode::BAD_REQUEST, "INVALID_ARGUMENT", e.0)
    }
}

impl IntoResponse for ApiFailure {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.message, "code": self.code });
        (self.status, json_headers(), body.to_string()).into_response()
    }
}

fn json_headers() -> [(header::HeaderName, &'static str); 1] {
    [(header::CONTENT_TYPE, "application/json")]
}

pub(super) fn json_ok<T: Serialize>(value: &T) -> Response {
    match crate::json::encode(value) {
        Ok(body) => (StatusCode::OK, json_headers(), body).into_response(),
        Err(e) => ApiFailure::new(StatusCode::INTERNAL_SERVER_ERROR, "INTERNAL", e.to_string())
            .into_response(),
    }
}

async fn not_found() -> ApiFailure {
    ApiFailure::new(
        StatusCode::NOT_FOUND,
        "NOT_FOUND",
        "no such endpoint; the demo serves only the operations of the findings API the client uses",
    )
}

async fn method_not_allowed() -> ApiFailure {
    ApiFailure::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "METHOD_NOT_ALLOWED",
        "method not allowed on this endpoint",
    )
}

/// Auth and the deployment path parameter, shared by every operation.
pub(super) fn admit(
    state: &DemoState,
    headers: &HeaderMap,
    deployment: &str,
) -> Result<(), ApiFailure> {
    authenticate(state, headers)?;
    if deployment.is_empty() || deployment.parse::<i64>().is_err() {
        return Err(ApiFailure::new(
            StatusCode::BAD_REQUEST,
            "INVALID_ARGUMENT",
            "deploymentId must be an int64",
        ));
    }
    if deployment != state.dataset.deployment {
        return Err(ApiFailure::new(
            StatusCode::NOT_FOUND,
            "NOT_FOUND",
            format!("deployment {deployment} not found"),
        ));
    }
    Ok(())
}

/// The bearer token: 401 without the right one, 403 for the token
/// without Web API permission.
pub(super) fn authenticate(state: &DemoState, headers: &HeaderMap) -> Result<(), ApiFailure> {
    let auth = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let Some(token) = auth.strip_prefix("Bearer ").map(str::trim) else {
        return Err(ApiFailure::new(
            StatusCode::UNAUTHORIZED,
            "UNAUTHENTICATED",
            "missing bearer token in the Authorization header",
        ));
    };
    if token == TOKEN_WITHOUT_WEB_API {
        return Err(ApiFailure::new(
            StatusCode::FORBIDDEN,
            "PERMISSION_DENIED",
            "this token does not hold the Web API permission",
        ));
    }
    if token != state.token && token != TOKEN_WITHOUT_ACTIONS {
        return Err(ApiFailure::new(
            StatusCode::UNAUTHORIZED,
            "UNAUTHENTICATED",
            "invalid token",
        ));
    }
    Ok(())
}

/// A query string read into `T`, or 400 naming the problem.
fn parse_query<T>(query: Result<Query<T>, QueryRejection>) -> Result<T, ApiFailure> {
    query.map(|Query(q)| q).map_err(|e| {
        ApiFailure::new(
            StatusCode::BAD_REQUEST,
            "INVALID_ARGUMENT",
            format!("invalid query: {}", e.body_text()),
        )
    })
}

/// Parses a JSON body, naming the path of the first problem.
pub(super) fn parse_body<T: DeserializeOwned>(body: &Bytes) -> Result<T, ApiFailure> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Err(ApiFailure::new(
            StatusCode::BAD_REQUEST,
            "INVALID_ARGUMENT",
            "request body is required",
        ));
    }
    // serde would read a JSON array into a struct by position: refuse it.
    if body.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Err(ApiFailure::new(
            StatusCode::BAD_REQUEST,
            "INVALID_ARGUMENT",
            "the request body must be a JSON object",
        ));
    }
    crate::json::decode(body).map_err(|e| {
        let message = match e.path.as_str() {
            "." => format!("invalid request body: {}", e.message),
            path => format!("invalid request body at {path}: {}", e.message),
        };
        ApiFailure::new(StatusCode::BAD_REQUEST, "INVALID_ARGUMENT", message)
    })
}

pub(super) fn same_deployment(body: &Option<String>, path: &str) -> Result<(), ApiFailure> {
    same_as_path("deploymentId", body, path)
}

/// A body's copy of a path parameter (`field`), when it gives one, must
/// name the same thing as the path.
fn same_as_path(field: &str, body: &Option<String>, path: &str) -> Result<(), ApiFailure> {
    match body.as_deref() {
        Some(v) if !v.is_empty() && v != path => Err(ApiFailure::new(
            StatusCode::BAD_REQUEST,
            "INVALID_ARGUMENT",
            format!(
                "{field} {:?} in the body differs from {:?} in the path",
                crate::text::one_line(v),
                crate::text::one_line(path)
            ),
        )),
        _ => Ok(()),
    }
}

/// What a JSON query handler's answer is, boxed so that one function can
/// make every such handler.
type Answer = Pin<Box<dyn Future<Output = Result<Response, ApiFailure>> + Send>>;

/// The one skeleton of the handlers that answer a JSON body with a query's
/// JSON answer: admit the caller, read the body, check the body's
/// deployment (`deployment_of`, when the request has one) against the
/// path's, run the query off the async threads.
fn json_query<Req, Resp>(
    deployment_of: fn(&Req) -> Option<&Option<String>>,
    run: fn(&DemoState, &Req) -> Result<Resp, BadRequest>,
) -> impl Fn(State<Arc<DemoState>>, Path<String>, HeaderMap, Bytes) -> Answer
+ Clone
+ Send
+ Sync
+ 'static
where
    Req: DeserializeOwned + Send + 'static,
    Resp: Serialize + Send + 'static,
{
    move |State(state), Path(deployment), headers, body| {
        Box::pin(async move {
            admit(&state, &headers, &deployment)?;
            let req: Req = parse_body(&body)?;
            if let Some(body_deployment) = deployment_of(&req) {
                same_deployment(body_deployment, &deployment)?;
            }
            let resp = run_blocking(move || run(&state, &req)).await?;
            Ok(json_ok(&resp))
        })
    }
}

/// The query of the single-issue fetch.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct GetIssueQuery {
    include_code_snippet: Option<bool>,
    include_is_archived: Option<bool>,
}

/// `IssuesService_GetIssue`: the bare Issue with everything the list
/// leaves out (code snippets, dataflow trace, related findings, the rule's
/// display name and explanation) and, always, its remediation, activity
/// history and first detection; `isArchived` when asked for.
async fn get_issue(
    State(state): State<Arc<DemoState>>,
    Path((deployment, issue_id)): Path<(String, String)>,
    query: Result<Query<GetIssueQuery>, QueryRejection>,
    headers: HeaderMap,
) -> Result<Response, ApiFailure> {
    admit(&state, &headers, &deployment)?;
    let query = parse_query(query)?;
    let ds = &state.dataset;
    let Some(index) = super::dataset::finding_index(&issue_id, ds.rows.len()) else {
        return Err(ApiFailure::new(
            StatusCode::NOT_FOUND,
            "NOT_FOUND",
            format!("issue {} not found", crate::text::one_line(&issue_id)),
        ));
    };
    let parts = super::materialize::Parts {
        remediation: true,
        activity_history: true,
        is_archived: query.include_is_archived == Some(true),
        first_detected_at: true,
        single_issue: true,
    };
    let mut issue = ds.issue(index, parts);
    if query.include_code_snippet == Some(false) {
        issue.code_snippet = None;
        issue.code_snippets.clear();
    }
    Ok(json_ok(&issue))
}

/// `PublicIssuesService_TriageIssue`: triages one agentic-workflow issue
/// and answers it as it is now.
async fn triage_agentic_issue(
    State(state): State<Arc<DemoState>>,
    Path((deployment, issue_id)): Path<(String, String)>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiFailure> {
    admit(&state, &headers, &deployment)?;
    let req: TriageIssueRequest = parse_body(&body)?;
    same_deployment(&req.deployment_id, &deployment)?;
    same_as_path("issueId", &req.issue_id, &issue_id)?;
    match query::triage_agentic(&state.dataset, &issue_id, &req)? {
        Some(issue) => Ok(json_ok(&TriageIssueResponse { data: Some(issue) })),
        None => Err(ApiFailure::new(
            StatusCode::NOT_FOUND,
            "NOT_FOUND",
            format!("issue {} not found", crate::text::one_line(&issue_id)),
        )),
    }
}

/// Runs a query off the async threads: a scan of 200,000 rows is CPU work.
async fn run_blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, BadRequest> + Send + 'static,
) -> Result<T, ApiFailure> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ApiFailure::new(StatusCode::INTERNAL_SERVER_ERROR, "INTERNAL", e.to_string()))?
        .map_err(ApiFailure::from)
}

async fn update_scm_config(
    State(state): State<Arc<DemoState>>,
    Path((deployment, config_id)): Path<(String, String)>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiFailure> {
    admit(&state, &headers, &deployment)?;
    let patch: ScmConfigPatch = parse_body(&body)?;
    same_deployment(&patch.deployment_id, &deployment)?;
    same_as_path("configId", &patch.config_id, &config_id)?;
    if patch
        .namespace
        .as_deref()
        .is_some_and(|n| n.trim().is_empty())
    {
        return Err(ApiFailure::new(
            StatusCode::BAD_REQUEST,
            "INVALID_ARGUMENT",
            "namespace must not be empty",
        ));
    }
    if patch
        .access_token
        .as_deref()
        .is_some_and(|t| t.trim().is_empty())
    {
        return Err(ApiFailure::new(
            StatusCode::BAD_REQUEST,
            "INVALID_ARGUMENT",
            "accessToken must not be empty",
        ));
    }
    let mut configs = scm_configs(&state)?;
    let Some(config) = configs
        .iter_mut()
        .find(|c| c.id.as_deref() == Some(config_id.as_str()))
    else {
        return Err(ApiFailure::new(
            StatusCode::NOT_FOUND,
            "NOT_FOUND",
            format!("SCM config {config_id} not found"),
        ));
    };
    super::scm::apply_patch(config, &patch, chrono::Utc::now());
    let resp = ScmConfigResponse {
        config: Some(config.clone()),
    };
    Ok(json_ok(&resp))
}

/// `ScmService_ListScmConfig`: the configs as they are now (PATCHes
/// included), cursor paged and sorted.
async fn list_scm_configs(
    State(state): State<Arc<DemoState>>,
    Path(deployment): Path<String>,
    query: Result<Query<super::scm::ListQuery>, QueryRejection>,
    headers: HeaderMap,
) -> Result<Response, ApiFailure> {
    admit(&state, &headers, &deployment)?;
    let query = parse_query(query)?;
    let configs = scm_configs(&state)?;
    let page = super::scm::list_page(&configs, &query)?;
    Ok(json_ok(&page))
}

/// `DeploymentService_GetDeploymentByToken`: the deployment of the token.
async fn deployment_of_token(
    State(state): State<Arc<DemoState>>,
    headers: HeaderMap,
) -> Result<Response, ApiFailure> {
    authenticate(&state, &headers)?;
    Ok(json_ok(&super::deployment::of_token(
        &state.dataset.deployment,
    )))
}

/// The SCM configs as they are now (PATCHes are kept in memory).
fn scm_configs(state: &DemoState) -> Result<std::sync::MutexGuard<'_, Vec<ScmConfig>>, ApiFailure> {
    state.scm_configs.lock().map_err(|_| {
        ApiFailure::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "INTERNAL",
            "state poisoned",
        )
    })
}
