//! What every demo route shares over HTTP: the JSON error answer, the
//! caller's admission (token, deployment), and reading bodies and queries.

use super::DemoState;
use super::query::BadRequest;
use axum::body::Bytes;
use axum::extract::Query;
use axum::extract::rejection::QueryRejection;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// A token the demo accepts as valid but without Web API permission (403).
pub const TOKEN_WITHOUT_WEB_API: &str = "demo-token-no-web-api";

/// A token the demo accepts for reading only: its authorized actions name
/// no action on findings, and those writes are refused (403).
pub const TOKEN_WITHOUT_ACTIONS: &str = "demo-token-read-only";

/// An error answer with the demo's JSON error body.
pub struct ApiFailure {
    status: StatusCode,
    code: &'static str,
    message: String,
}

impl ApiFailure {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
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

pub fn json_ok<T: Serialize>(value: &T) -> Response {
    match findings_base::json::encode(value) {
        Ok(body) => (StatusCode::OK, json_headers(), body).into_response(),
        Err(e) => ApiFailure::new(StatusCode::INTERNAL_SERVER_ERROR, "INTERNAL", e.to_string())
            .into_response(),
    }
}

/// Auth and the deployment path parameter, shared by every operation.
pub fn admit(state: &DemoState, headers: &HeaderMap, deployment: &str) -> Result<(), ApiFailure> {
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

/// The token of an `Authorization: Bearer TOKEN` header. The scheme is
/// case-insensitive (RFC 7235, 2.1), so `bearer` and `BEARER` are read as
/// the platform reads them.
pub fn bearer_token(header: &str) -> Option<&str> {
    let (scheme, token) = header.trim_start().split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim())
        .filter(|t| !t.is_empty())
}

/// The bearer token: 401 without the right one, 403 for the token
/// without Web API permission. The built-in tokens are answered only when
/// the state allows them (the embedded demo), never by a server serving
/// its own token only.
pub fn authenticate(state: &DemoState, headers: &HeaderMap) -> Result<(), ApiFailure> {
    let auth = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let Some(token) = bearer_token(auth) else {
        return Err(ApiFailure::new(
            StatusCode::UNAUTHORIZED,
            "UNAUTHENTICATED",
            "missing bearer token in the Authorization header",
        ));
    };
    let built_in = !state.own_token_only;
    if built_in && token == TOKEN_WITHOUT_WEB_API {
        return Err(ApiFailure::new(
            StatusCode::FORBIDDEN,
            "PERMISSION_DENIED",
            "this token does not hold the Web API permission",
        ));
    }
    if token != state.token && !(built_in && token == TOKEN_WITHOUT_ACTIONS) {
        return Err(ApiFailure::new(
            StatusCode::UNAUTHORIZED,
            "UNAUTHENTICATED",
            "invalid token",
        ));
    }
    Ok(())
}

/// A query string read into `T`, or 400 naming the problem.
pub fn parse_query<T>(query: Result<Query<T>, QueryRejection>) -> Result<T, ApiFailure> {
    query.map(|Query(q)| q).map_err(|e| {
        ApiFailure::new(
            StatusCode::BAD_REQUEST,
            "INVALID_ARGUMENT",
            format!("invalid query: {}", e.body_text()),
        )
    })
}

/// Parses a JSON body, naming the path of the first problem. Its shape was
/// checked against the published schema before (`strict`): a nested
/// object given as an array, a wrong type, an unknown enum value.
pub fn parse_body<T: DeserializeOwned>(body: &Bytes) -> Result<T, ApiFailure> {
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
    findings_base::json::decode(body).map_err(|e| {
        let message = match e.path.as_str() {
            "." => format!("invalid request body: {}", e.message),
            path => format!("invalid request body at {path}: {}", e.message),
        };
        ApiFailure::new(StatusCode::BAD_REQUEST, "INVALID_ARGUMENT", message)
    })
}

pub fn same_deployment(body: &Option<String>, path: &str) -> Result<(), ApiFailure> {
    same_as_path("deploymentId", body, path)
}

/// A body's copy of a path parameter (`field`), when it gives one, must
/// name the same thing as the path.
pub fn same_as_path(field: &str, body: &Option<String>, path: &str) -> Result<(), ApiFailure> {
    match body.as_deref() {
        Some(v) if !v.is_empty() && v != path => Err(ApiFailure::new(
            StatusCode::BAD_REQUEST,
            "INVALID_ARGUMENT",
            format!(
                "{field} {:?} in the body differs from {:?} in the path",
                findings_base::text::one_line(v),
                findings_base::text::one_line(path)
            ),
        )),
        _ => Ok(()),
    }
}

/// Runs a query off the async threads: a scan of 200,000 rows is CPU work.
pub async fn run_blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, BadRequest> + Send + 'static,
) -> Result<T, ApiFailure> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ApiFailure::new(StatusCode::INTERNAL_SERVER_ERROR, "INTERNAL", e.to_string()))?
        .map_err(ApiFailure::from)
}
