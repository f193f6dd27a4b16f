//! HTTP routes of the demo server: auth, path checks, JSON bodies in and out,
//! JSON errors (docs/src/api.md §11–12), gzip.

use super::DemoState;
pub use super::http::{ApiFailure, TOKEN_WITHOUT_ACTIONS, TOKEN_WITHOUT_WEB_API};
use super::http::{
    admit, authenticate, json_ok, parse_body, parse_query, run_blocking, same_as_path,
    same_deployment,
};
use super::query::{self, BadRequest};
use axum::Router;
use axum::body::Bytes;
use axum::extract::Query;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::routing::{get, patch, post};
use findings_model::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use tower_http::compression::CompressionLayer;
use tower_http::decompression::RequestDecompressionLayer;

/// The demo's API: the reporting, issue and SCM routes and the actions,
/// behind the middleware (offline guard, served-request clock, tap, faults)
/// and the gzip layers.
pub fn router(state: Arc<DemoState>) -> Router {
    Router::new()
        .merge(reporting_routes())
        .merge(issue_routes())
        .merge(triage_and_scm_routes())
        .merge(published_read_routes())
        .route("/api/agent/deployment", get(deployment_of_token))
        .merge(super::action_routes::routes())
        // Every request read as the published contract types it, before
        // its handler (innermost: the tap and faults see its refusals).
        .route_layer(axum::middleware::from_fn_with_state(
            state.clone(),
            super::strict::check,
        ))
        // A snapshot's server refuses every write.
        .route_layer(axum::middleware::from_fn_with_state(
            state.clone(),
            super::offline_guard::refuse_writes,
        ))
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

/// The reporting API: the findings report and the aggregate reports.
fn reporting_routes() -> Router<Arc<DemoState>> {
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
}

/// The issue API: counting, searching, listing and grouping findings, one
/// issue, and the values the filters take.
fn issue_routes() -> Router<Arc<DemoState>> {
    Router::new()
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
            get(super::read_routes::get_issue),
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
}

/// The writes: triaging findings (by filter or one agentic issue) and the
/// SCM configurations.
fn triage_and_scm_routes() -> Router<Arc<DemoState>> {
    Router::new()
        .route(
            "/api/issues/{deployment}/issue/{issue}",
            get(super::read_routes::get_agentic_issue).post(triage_agentic_issue),
        )
        .route(
            "/api/scm/deployments/{deployment}/configs/{config}",
            patch(update_scm_config),
        )
        .route(
            "/api/scm/deployments/{deployment}/configs",
            get(list_scm_configs),
        )
}

/// The published reads no feature of the client uses yet: deployments,
/// projects, a finding's code snippets, an agentic issue's history.
fn published_read_routes() -> Router<Arc<DemoState>> {
    use super::read_routes;
    Router::new()
        .route("/api/v2/deployments", get(read_routes::list_deployments))
        .route(
            "/api/v2/deployments/{deployment}/projects/list",
            post(json_query(
                |_: &ListProjectsRequest| None,
                |s, r| query::list_projects(&s.dataset, r),
            )),
        )
        .route(
            "/api/agent/deployments/{deployment}/issues/v2/{issue}/code-snippets",
            get(read_routes::code_snippets),
        )
        .route(
            "/api/issues/{deployment}/issue/{issue}/activity",
            get(read_routes::agentic_activity),
        )
}

async fn not_found() -> ApiFailure {
    ApiFailure::new(
        StatusCode::NOT_FOUND,
        "NOT_FOUND",
        "no such endpoint; the demo serves the operations of the published contract",
    )
}

async fn method_not_allowed() -> ApiFailure {
    ApiFailure::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "METHOD_NOT_ALLOWED",
        "method not allowed on this endpoint",
    )
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
        None => Err(super::read_routes::no_issue(&issue_id)),
    }
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
