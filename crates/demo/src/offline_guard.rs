//! A snapshot's server is read-only: every write is refused with the
//! reason, before its handler runs. The client refuses first (the offline
//! TUI is read-only); this holds should anything get through. And it
//! answers nothing from a file that is no longer the one opened (its
//! findings are read by position): every answer says so instead.

use super::DemoState;
use super::http::ApiFailure;
use axum::extract::{MatchedPath, Request, State};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;

/// What every refused write says.
pub const READ_ONLY: &str = "offline snapshot: read-only";

/// The routes that write, besides every PATCH (triage in bulk, SCM
/// configs); the other POSTs are queries.
const WRITES: [&str; 8] = [
    "/api/issues/{deployment}/issue/{issue}",
    "/api/notifications/deployments/{deployment}/ticketing/v2/{instance}/create_tickets",
    "/api/notifications/deployments/{deployment}/ticketing/v2/{instance}/tickets/link",
    "/api/notifications/deployments/{deployment}/ticketing/v2/{instance}/tickets/unlink",
    "/api/v1/deployments/{deployment}/issues/{issue}/autofix",
    "/api/agent/deployments/{deployment}/issues/{issue}/fix_jobs",
    "/api/ai/deployments/{deployment}/autotriage_feedback",
    "/api/ai/deployments/{deployment}/memories/triage",
];

/// Whether a request to `route` (its template) with `method` writes.
pub fn is_write(method: &str, route: &str) -> bool {
    method == Method::PATCH.as_str() || (method == Method::POST.as_str() && WRITES.contains(&route))
}

pub async fn refuse_writes(
    State(state): State<Arc<DemoState>>,
    route: Option<MatchedPath>,
    req: Request,
    next: Next,
) -> Response {
    let route = route.as_ref().map_or("", MatchedPath::as_str);
    let Some(offline) = &state.dataset.offline else {
        return next.run(req).await;
    };
    if is_write(req.method().as_str(), route) {
        return ApiFailure::new(StatusCode::FORBIDDEN, "PERMISSION_DENIED", READ_ONLY)
            .into_response();
    }
    if let Some(why) = offline.unavailable() {
        return unavailable(why);
    }
    let answer = next.run(req).await;
    // Changed while answering, or a finding unread: the answer may hold
    // empty findings or others' bytes.
    match offline.unavailable() {
        Some(why) => unavailable(why),
        None => answer,
    }
}

/// 500: the client never retries it, and shows why.
fn unavailable(why: String) -> Response {
    ApiFailure::new(StatusCode::INTERNAL_SERVER_ERROR, "DATA_LOSS", why).into_response()
}
