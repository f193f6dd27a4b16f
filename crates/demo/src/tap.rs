//! A tap on the demo server's API exchanges: when one is installed, every
//! answered request is handed over whole (route, query, bodies) so a test can
//! check both sides against the published schemas. Without a tap, requests
//! pass straight through, unbuffered.

use super::DemoState;
use super::faults::{MAX_REQUEST_BYTES, error_json};
use axum::body::{Body, Bytes};
use axum::extract::{MatchedPath, Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;
use std::sync::{Arc, Mutex};

/// One request and its answer, as the handler saw and gave them (inside
/// compression and faults: plain JSON, never spoiled).
#[derive(Debug, Clone)]
pub struct Exchange {
    pub method: String,
    /// The route template, e.g. `/api/agent/deployments/{deployment}/issues`.
    pub route: String,
    pub query: Option<String>,
    pub user_agent: Option<String>,
    pub request: Bytes,
    pub status: u16,
    pub response: Bytes,
}

pub type Observer = Arc<dyn Fn(&Exchange) + Send + Sync>;

/// The installed observer, if any.
#[derive(Default)]
pub struct TapState(Mutex<Option<Observer>>);

impl TapState {
    pub fn set(&self, observer: Option<Observer>) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = observer;
    }

    fn get(&self) -> Option<Observer> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

pub async fn record(State(state): State<Arc<DemoState>>, req: Request, next: Next) -> Response {
    let Some(observer) = state.tap.get() else {
        return next.run(req).await;
    };
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map(|p| p.as_str().to_owned())
        .unwrap_or_default();
    let method = req.method().to_string();
    let query = req.uri().query().map(str::to_owned);
    let user_agent = req
        .headers()
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let (parts, body) = req.into_parts();
    let request = match axum::body::to_bytes(body, MAX_REQUEST_BYTES).await {
        Ok(b) => b,
        Err(e) => return error_json(StatusCode::BAD_REQUEST, "INVALID_ARGUMENT", &e.to_string()),
    };
    let response = next
        .run(Request::from_parts(parts, Body::from(request.clone())))
        .await;
    let (parts, body) = response.into_parts();
    let response = axum::body::to_bytes(body, usize::MAX)
        .await
        .unwrap_or_default();
    observer(&Exchange {
        method,
        route,
        query,
        user_agent,
        request,
        status: parts.status.as_u16(),
        response: response.clone(),
    });
    Response::from_parts(parts, Body::from(response))
}
