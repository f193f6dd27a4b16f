//! Strict reading: every request is checked against the published contract
//! (`tests/data/platform-schemas.json`, the platform's OpenAPI description
//! reduced) before its handler runs — path parameters, query parameters and
//! the JSON body, each against the operation's schema — and refused with
//! 400 naming the field and the type expected, as a protobuf-JSON server
//! refuses what it cannot read. One validator for the 33 operations, so a
//! field the demo ignores is checked like one it reads.

mod shape;

use super::DemoState;
use super::http::ApiFailure;
use axum::body::Body;
use axum::extract::{MatchedPath, RawPathParams, Request, State};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde_json::Value;
use std::sync::{Arc, OnceLock};

/// The published contract, reduced (descriptions dropped).
pub const DOCUMENT: &str = include_str!("../../../../tests/data/platform-schemas.json");

/// The largest request body the demo reads (after gzip): 2 MiB, as axum's
/// default; a larger one is refused with 400 naming the cap.
pub const MAX_BODY_BYTES: usize = 2 * 1024 * 1024;

/// One published operation, as the check needs it.
struct Operation {
    method: Method,
    /// Path segments; `None` stands for a `{parameter}`.
    segments: Vec<Option<String>>,
    /// The path parameters' schemas, in the order of the path.
    path_params: Vec<(String, Value)>,
    query_params: Vec<(String, Value)>,
    request: Option<Value>,
}

struct Contract {
    components: serde_json::Map<String, Value>,
    operations: Vec<Operation>,
}

/// The contract, read once.
fn contract() -> &'static Contract {
    static CONTRACT: OnceLock<Contract> = OnceLock::new();
    CONTRACT.get_or_init(|| {
        // Built into the binary and checked by the tests: it always reads.
        let doc: Value = serde_json::from_str(DOCUMENT).unwrap_or_default();
        let components = doc["components"]["schemas"]
            .as_object()
            .cloned()
            .unwrap_or_default();
        let mut operations = Vec::new();
        for (path, methods) in doc["paths"].as_object().into_iter().flatten() {
            for (method, op) in methods.as_object().into_iter().flatten() {
                let Ok(method) = method.to_ascii_uppercase().parse::<Method>() else {
                    continue;
                };
                let params = |place: &str| -> Vec<(String, Value)> {
                    op["parameters"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter(|p| p["in"] == place)
                        .filter_map(|p| Some((p["name"].as_str()?.to_owned(), p["schema"].clone())))
                        .collect()
                };
                let mut path_params = params("path");
                let order: Vec<&str> = path.split('/').collect();
                path_params.sort_by_key(|(name, _)| {
                    order.iter().position(|s| *s == format!("{{{name}}}"))
                });
                operations.push(Operation {
                    method,
                    segments: segments(path),
                    path_params,
                    query_params: params("query"),
                    request: op["requestBody"]["content"]["application/json"]
                        .get("schema")
                        .cloned(),
                });
            }
        }
        Contract {
            components,
            operations,
        }
    })
}

fn segments(path: &str) -> Vec<Option<String>> {
    path.trim_matches('/')
        .split('/')
        .map(|s| (!s.starts_with('{')).then(|| s.to_owned()))
        .collect()
}

impl Contract {
    /// The operation a method and route template (parameter names aside)
    /// stand for.
    fn operation(&self, method: &Method, route: &str) -> Option<&Operation> {
        let wanted = segments(route);
        self.operations
            .iter()
            .find(|op| op.method == method && op.segments == wanted)
    }
}

fn refuse(message: String) -> Response {
    ApiFailure::new(StatusCode::BAD_REQUEST, "INVALID_ARGUMENT", message).into_response()
}

/// The middleware of the API routes: an authenticated request whose
/// parameters or body are not of the published types is refused (400)
/// before its handler sees it. One without the right token goes on to be
/// refused as such (401/403), as before.
pub async fn check(State(state): State<Arc<DemoState>>, req: Request, next: Next) -> Response {
    if super::http::authenticate(&state, req.headers()).is_err() {
        return next.run(req).await;
    }
    let contract = contract();
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map(|m| m.as_str().to_owned());
    let Some(op) = route.and_then(|r| contract.operation(req.method(), &r)) else {
        return next.run(req).await;
    };
    let (mut parts, body) = req.into_parts();
    if let Err(message) = check_parameters(op, &mut parts).await {
        return refuse(message);
    }
    let bytes = match axum::body::to_bytes(body, MAX_BODY_BYTES).await {
        Ok(bytes) => bytes,
        // http-body-util's LengthLimitError, known by its text (no
        // dependency for a downcast).
        Err(e) if e.to_string().contains("length limit") => {
            return refuse(format!(
                "the request body exceeds the demo's cap of {MAX_BODY_BYTES} bytes (2 MiB)"
            ));
        }
        Err(e) => return refuse(format!("the request body could not be read: {e}")),
    };
    if let Some(schema) = &op.request
        // Not JSON at all: the handler says what it could not read.
        && let Ok(value) = serde_json::from_slice::<Value>(&bytes)
        && let Err((path, what)) = shape::Components(&contract.components).check(schema, &value, "")
    {
        return refuse(format!("invalid request body at {path}: {what}"));
    }
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

/// The path and query parameters against their schemas.
async fn check_parameters(
    op: &Operation,
    parts: &mut axum::http::request::Parts,
) -> Result<(), String> {
    use axum::extract::FromRequestParts;
    if let Ok(params) = RawPathParams::from_request_parts(parts, &()).await {
        for ((_, raw), (name, schema)) in params.iter().zip(&op.path_params) {
            shape::check_text(schema, raw)
                .map_err(|what| format!("invalid path parameter {name}: {what}"))?;
        }
    }
    let query = parts.uri.query().unwrap_or("");
    for (name, raw) in url::form_urlencoded::parse(query.as_bytes()) {
        if let Some((_, schema)) = op.query_params.iter().find(|(n, _)| *n == name) {
            shape::check_text(schema, &raw)
                .map_err(|what| format!("invalid query parameter {name}: {what}"))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
