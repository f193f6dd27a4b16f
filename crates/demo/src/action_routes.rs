//! The demo's routes of the actions on findings (docs/src/api.md "Acting on
//! findings"): authorized actions, tickets, fix pull requests, AI verdict
//! feedback and memories, each a query of `query` behind the same auth,
//! deployment and body checks as the other routes.

use super::DemoState;
use super::http::{ApiFailure, TOKEN_WITHOUT_ACTIONS, admit, json_ok, parse_body, same_deployment};
use super::query::{self, Refusal};
use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;
use axum::routing::{get, post};
use findings_model::*;
use std::sync::Arc;
use std::sync::atomic::Ordering;

pub fn routes() -> Router<Arc<DemoState>> {
    Router::new()
        .route(
            "/api/agent/deployments/{deployment}/authorized_actions",
            get(authorized_actions),
        )
        .route(
            "/api/notifications/deployments/{deployment}/ticketing/v2",
            get(ticketing_instances),
        )
        .route(
            "/api/notifications/deployments/{deployment}/ticketing/v2/{instance}/create_tickets",
            post(create_tickets),
        )
        .route(
            "/api/notifications/deployments/{deployment}/ticketing/v2/{instance}/tickets/link",
            post(link_ticket),
        )
        .route(
            "/api/notifications/deployments/{deployment}/ticketing/v2/{instance}/tickets/unlink",
            post(unlink_ticket),
        )
        .route(
            "/api/v1/deployments/{deployment}/issues/{issue}/autofix",
            post(create_autofix),
        )
        .route(
            "/api/agent/deployments/{deployment}/issues/{issue}/fix_jobs",
            post(create_fix_job),
        )
        .route(
            "/api/ai/deployments/{deployment}/autotriage_feedback",
            post(post_feedback),
        )
        .route(
            "/api/ai/deployments/{deployment}/memories/triage",
            post(create_memory),
        )
        .route(
            "/api/ai/deployments/{deployment}/relevant_issues",
            post(find_relevant),
        )
}

/// Counts every API request, then opens the fix pull requests due.
pub async fn count_served(
    State(state): State<Arc<DemoState>>,
    req: Request,
    next: Next,
) -> Response {
    let served = state.served.fetch_add(1, Ordering::SeqCst) + 1;
    if query::fixes_due(&state.dataset, served) {
        let ds = state.clone();
        let _ =
            tokio::task::spawn_blocking(move || query::open_due_fixes(&ds.dataset, served)).await;
    }
    next.run(req).await
}

impl From<Refusal> for ApiFailure {
    fn from(r: Refusal) -> Self {
        match r {
            Refusal::Invalid(m) => ApiFailure::new(StatusCode::BAD_REQUEST, "INVALID_ARGUMENT", m),
            Refusal::NotFound(m) => ApiFailure::new(StatusCode::NOT_FOUND, "NOT_FOUND", m),
            Refusal::Denied(m) => ApiFailure::new(StatusCode::FORBIDDEN, "PERMISSION_DENIED", m),
            Refusal::Precondition(m) => {
                ApiFailure::new(StatusCode::BAD_REQUEST, "FAILED_PRECONDITION", m)
            }
        }
    }
}

/// Every operation the demo's tokens may call, by operation id.
const READS: [&str; 6] = [
    "IssuesService_ListIssues",
    "IssuesService_GetIssue",
    "IssuesService_BulkUpdateIssues",
    "ExternalTicketingService_GetTicketingInstances",
    "MemoriesService_FindRelevantIssues",
    "ScmService_ListScmConfig",
];

/// Whether the caller's token is the demo's read-only one.
fn read_only_token(headers: &HeaderMap) -> bool {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(crate::http::bearer_token)
        .is_some_and(|t| t == TOKEN_WITHOUT_ACTIONS)
}

/// An action's admission: the caller, the deployment, and the token's
/// authorisation for `action`.
fn admit_action(
    state: &DemoState,
    headers: &HeaderMap,
    deployment: &str,
    action: FindingAction,
) -> Result<(), ApiFailure> {
    admit(state, headers, deployment)?;
    if read_only_token(headers) {
        return Err(Refusal::Denied(format!(
            "this token is not authorized for {}",
            action.operation_id()
        ))
        .into());
    }
    Ok(())
}

/// `DeploymentService_GetDeploymentAuthorizedActions`: every action for
/// the demo's token, the reads alone for its read-only one.
async fn authorized_actions(
    State(state): State<Arc<DemoState>>,
    Path(deployment): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiFailure> {
    admit(&state, &headers, &deployment)?;
    let mut names: Vec<String> = READS.iter().map(|s| (*s).to_owned()).collect();
    if !read_only_token(&headers) {
        names.extend(
            FindingAction::ALL
                .iter()
                .map(|a| a.operation_id().to_owned()),
        );
    }
    Ok(json_ok(&GetDeploymentAuthorizedActionsResponse {
        authorized_actions: names,
    }))
}

async fn ticketing_instances(
    State(state): State<Arc<DemoState>>,
    Path(deployment): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiFailure> {
    admit(&state, &headers, &deployment)?;
    Ok(json_ok(&query::ticketing_instances()))
}

/// The instance id of a path: an int64, else 400.
fn instance_id(raw: &str) -> Result<i64, ApiFailure> {
    raw.parse().map_err(|_| {
        ApiFailure::new(
            StatusCode::BAD_REQUEST,
            "INVALID_ARGUMENT",
            "ticketingInstanceId must be an int64",
        )
    })
}

/// Runs an action's query off the async threads.
async fn run<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, Refusal> + Send + 'static,
) -> Result<T, ApiFailure> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ApiFailure::new(StatusCode::INTERNAL_SERVER_ERROR, "INTERNAL", e.to_string()))?
        .map_err(ApiFailure::from)
}

async fn create_tickets(
    State(state): State<Arc<DemoState>>,
    Path((deployment, instance)): Path<(String, String)>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiFailure> {
    admit_action(&state, &headers, &deployment, FindingAction::CreateTickets)?;
    let instance = instance_id(&instance)?;
    let req: CreateTicketsRequest = parse_body(&body)?;
    let answer = run(move || query::create_tickets(&state.dataset, instance, &req)).await?;
    Ok(json_ok(&answer))
}

async fn link_ticket(
    State(state): State<Arc<DemoState>>,
    Path((deployment, instance)): Path<(String, String)>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiFailure> {
    admit_action(&state, &headers, &deployment, FindingAction::LinkTicket)?;
    let instance = instance_id(&instance)?;
    let req: LinkTicketRequest = parse_body(&body)?;
    let answer = run(move || query::link_ticket(&state.dataset, instance, &req)).await?;
    Ok(json_ok(&answer))
}

async fn unlink_ticket(
    State(state): State<Arc<DemoState>>,
    Path((deployment, instance)): Path<(String, String)>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiFailure> {
    admit_action(&state, &headers, &deployment, FindingAction::UnlinkTicket)?;
    let instance = instance_id(&instance)?;
    let req: UnlinkTicketRequest = parse_body(&body)?;
    let answer = run(move || query::unlink_ticket(&state.dataset, instance, &req)).await?;
    Ok(json_ok(&answer))
}

async fn create_autofix(
    state: State<Arc<DemoState>>,
    path: Path<(String, String)>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiFailure> {
    request_fix(FixOperation::Autofix, state, path, headers, body).await
}

async fn create_fix_job(
    state: State<Arc<DemoState>>,
    path: Path<(String, String)>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiFailure> {
    request_fix(FixOperation::FixJob, state, path, headers, body).await
}

async fn request_fix(
    op: FixOperation,
    State(state): State<Arc<DemoState>>,
    Path((deployment, issue)): Path<(String, String)>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiFailure> {
    admit_action(&state, &headers, &deployment, FindingAction::Fix(op))?;
    let _: CreateFixRequest = parse_body(&body)?;
    let served = state.served.load(Ordering::SeqCst);
    let answer = run(move || query::request_fix(&state.dataset, op, &issue, served)).await?;
    Ok(json_ok(&answer))
}

async fn post_feedback(
    State(state): State<Arc<DemoState>>,
    Path(deployment): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiFailure> {
    admit_action(&state, &headers, &deployment, FindingAction::Feedback)?;
    let req: PostAutotriageFeedbackRequest = parse_body(&body)?;
    same_deployment(&req.deployment_id, &deployment)?;
    let answer = run(move || query::post_feedback(&state.dataset, &req)).await?;
    Ok(json_ok(&answer))
}

async fn create_memory(
    State(state): State<Arc<DemoState>>,
    Path(deployment): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiFailure> {
    admit_action(&state, &headers, &deployment, FindingAction::Remember)?;
    let req: CreateMemoryFromTriageRequest = parse_body(&body)?;
    same_deployment(&req.deployment_id, &deployment)?;
    let answer = run(move || query::create_memory(&state.dataset, &req)).await?;
    Ok(json_ok(&answer))
}

async fn find_relevant(
    State(state): State<Arc<DemoState>>,
    Path(deployment): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiFailure> {
    admit(&state, &headers, &deployment)?;
    let req: FindRelevantIssuesRequest = parse_body(&body)?;
    same_deployment(&req.deployment_id, &deployment)?;
    let answer = run(move || query::find_relevant(&state.dataset, &req)).await?;
    Ok(json_ok(&answer))
}
