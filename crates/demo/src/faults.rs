//! Fault injection: the demo server misbehaving on purpose, the way real
//! servers, proxies and networks do, so the client's answers to each can be
//! seen and tested.
//!
//! A [`Faults`] plan says what goes wrong and to which requests; it lives in
//! the server's state ([`FaultState`]) and can be replaced at any time
//! (`DemoServer::set_faults`, or the flags of `findings demo serve`). The
//! [`inject`] middleware wraps the API routes only. Every choice is
//! deterministic (counters, no randomness), so tests are reproducible.
//!
//! With no plan (the default) a request costs one uncontended lock and a
//! counter increment.

use super::DemoState;
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The most a request body may weigh when a plan needs to read it.
pub(super) const MAX_REQUEST_BYTES: usize = 16 * 1024 * 1024;

/// One way an answer goes wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FaultKind {
    /// 429 with `Retry-After: secs`.
    RateLimit { retry_after_secs: u64 },
    /// Headers and part of the body, then the connection is dropped.
    Reset,
    /// A valid status and headers, the JSON body cut in half (with a
    /// Content-Length that matches the cut body, so the client reads to the
    /// end and finds the JSON unfinished, rather than waiting).
    Truncate,
    /// The real JSON body labelled with another content type.
    ContentType(String),
    /// An HTML page instead of JSON: a proxy's error page (502 by default),
    /// or with status 200 a sign-in page.
    Html { status: u16 },
    /// The real page padded with an extra field to about `bytes`.
    Huge { bytes: usize },
    /// A page asked for with a cursor answers with that same cursor.
    LoopCursor,
    /// No answer, ever: the request is held until the client gives up.
    Hang,
}

/// What `--fault` accepts, for help and error messages.
pub const FAULT_KINDS: &str = "rate-limit[:SECS], reset, truncate, content-type[:TYPE], \
     html[:STATUS], huge[:MB], loop-cursor, hang";

impl FaultKind {
    /// Parses `KIND[:ARG]` as the `--fault` flag takes it.
    pub fn parse(input: &str) -> Result<FaultKind, String> {
        let (name, arg) = match input.split_once(':') {
            Some((n, a)) => (n.trim(), Some(a.trim())),
            None => (input.trim(), None),
        };
        let number = |what: &str, range: std::ops::RangeInclusive<u64>, default: u64| {
            let Some(arg) = arg else { return Ok(default) };
            arg.parse::<u64>()
                .ok()
                .filter(|n| range.contains(n))
                .ok_or_else(|| {
                    format!(
                        "{name}:{arg}: {what} must be a whole number from {} to {}",
                        range.start(),
                        range.end()
                    )
                })
        };
        let no_arg = |kind: FaultKind| match arg {
            None => Ok(kind),
            Some(a) => Err(format!("{name} takes no argument (got {a:?})")),
        };
        match name {
            "rate-limit" => Ok(FaultKind::RateLimit {
                retry_after_secs: number("SECS", 0..=3600, 1)?,
            }),
            "reset" => no_arg(FaultKind::Reset),
            "truncate" => no_arg(FaultKind::Truncate),
            "content-type" => {
                let t = arg.unwrap_or("text/plain; charset=utf-8");
                if t.is_empty()
                    || HeaderValue::from_str(t).is_err()
                    || t.chars().any(char::is_control)
                {
                    return Err(format!("content-type:{t:?}: not a valid header value"));
                }
                Ok(FaultKind::ContentType(t.to_owned()))
            }
            "html" => Ok(FaultKind::Html {
                // Checked within 200..=599 above.
                status: u16::try_from(number("STATUS", 200..=599, 502)?).unwrap_or(502),
            }),
            "huge" => Ok(FaultKind::Huge {
                // Checked within 1..=100 above.
                bytes: usize::try_from(number("MB", 1..=100, 10)?).unwrap_or(10) * 1024 * 1024,
            }),
            "loop-cursor" => no_arg(FaultKind::LoopCursor),
            "hang" => no_arg(FaultKind::Hang),
            other => Err(format!("unknown fault {other:?}; valid: {FAULT_KINDS}")),
        }
    }
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FaultKind::RateLimit { retry_after_secs } => {
                write!(f, "429 rate limited (Retry-After {retry_after_secs} s)")
            }
            FaultKind::Reset => write!(f, "connection reset mid-body"),
            FaultKind::Truncate => write!(f, "JSON cut in half"),
            FaultKind::ContentType(t) => write!(f, "JSON labelled {t}"),
            FaultKind::Html { status } => write!(f, "HTML page with status {status}"),
            FaultKind::Huge { bytes } => write!(f, "pages padded to {} MB", bytes / (1024 * 1024)),
            FaultKind::LoopCursor => write!(f, "cursor loop (a page's cursor is its own)"),
            FaultKind::Hang => write!(f, "never answers"),
        }
    }
}

/// A fault plan: what goes wrong, and for which requests. Plain data.
#[derive(Debug, Clone, PartialEq)]
pub struct Faults {
    /// Waited before answering each affected request.
    pub latency: Duration,
    /// Fraction (0 to 1) of affected requests answered with `fail_status`,
    /// spread evenly (1 = every one, 0.5 = every second one).
    pub fail_rate: f64,
    /// 500, 502, 503 or 504, with a JSON error body.
    pub fail_status: u16,
    /// What happens to affected requests that do not fail.
    pub kind: Option<FaultKind>,
    /// The first `after` requests are served normally.
    pub after: u64,
    /// Only requests for a page after the first (those with a cursor).
    pub only_with_cursor: bool,
    /// At most this many requests are affected; then all is well again.
    pub times: Option<u64>,
}

impl Default for Faults {
    fn default() -> Self {
        Faults {
            latency: Duration::ZERO,
            fail_rate: 0.0,
            fail_status: 503,
            kind: None,
            after: 0,
            only_with_cursor: false,
            times: None,
        }
    }
}

impl Faults {
    /// No faults at all.
    pub fn none() -> Faults {
        Faults::default()
    }

    /// Just this fault, for every request.
    pub fn kind(kind: FaultKind) -> Faults {
        Faults {
            kind: Some(kind),
            ..Faults::default()
        }
    }

    /// Every request (that the scope admits) answered with `status`.
    pub fn failing(status: u16) -> Faults {
        Faults {
            fail_rate: 1.0,
            fail_status: status,
            ..Faults::default()
        }
    }

    /// The same plan, sparing the first `n` requests.
    pub fn after(self, n: u64) -> Faults {
        Faults { after: n, ..self }
    }

    /// The same plan, for at most `n` requests.
    pub fn times(self, n: u64) -> Faults {
        Faults {
            times: Some(n),
            ..self
        }
    }

    /// The same plan, for requests that carry a cursor only.
    pub fn with_cursor_only(self) -> Faults {
        Faults {
            only_with_cursor: true,
            ..self
        }
    }

    /// Whether anything goes wrong at all.
    pub fn is_active(&self) -> bool {
        !self.latency.is_zero() || self.fail_rate > 0.0 || self.kind.is_some()
    }

    /// Whether the `k`-th affected request (from 0) fails: the failures
    /// are spread evenly, `floor(k * rate)` of the first `k`.
    // A request's number below 2^53 is exact in f64 (2^53 requests take
    // centuries).
    #[allow(clippy::cast_precision_loss)]
    fn fails(&self, k: u64) -> bool {
        let rate = self.fail_rate.clamp(0.0, 1.0);
        rate > 0.0 && ((k + 1) as f64 * rate).floor() > (k as f64 * rate).floor()
    }
}

impl fmt::Display for Faults {
    /// One line for the start-up banner, e.g. `latency 2000 ms; 50% answered
    /// HTTP 503; after the first 1 requests`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.is_active() {
            return write!(f, "none");
        }
        let mut parts = Vec::new();
        if !self.latency.is_zero() {
            parts.push(format!("latency {} ms", self.latency.as_millis()));
        }
        if self.fail_rate > 0.0 {
            parts.push(format!(
                "{}% answered HTTP {}",
                (self.fail_rate.clamp(0.0, 1.0) * 100.0).round(),
                self.fail_status
            ));
        }
        if let Some(kind) = &self.kind {
            parts.push(kind.to_string());
        }
        if self.after > 0 {
            parts.push(format!("after the first {}", requests(self.after)));
        }
        if self.only_with_cursor {
            parts.push("only pages after the first".into());
        }
        if let Some(n) = self.times {
            parts.push(format!("at most {}", requests(n)));
        }
        write!(f, "{}", parts.join("; "))
    }
}

fn requests(n: u64) -> String {
    format!("{n} request{}", if n == 1 { "" } else { "s" })
}

/// The plan in force and its counters, shared by every request.
#[derive(Debug, Default)]
pub struct FaultState {
    inner: Mutex<Counters>,
    /// Signalled at each request counted: a caller can wait for a count.
    counted: std::sync::Condvar,
}

#[derive(Debug, Default)]
struct Counters {
    plan: Arc<Faults>,
    /// API requests since the plan was set.
    seen: u64,
    /// Requests the plan affected since it was set.
    affected: u64,
}

impl FaultState {
    /// Replaces the plan and starts its counters from zero.
    pub fn set(&self, plan: Faults) {
        let mut c = self.lock();
        *c = Counters {
            plan: Arc::new(plan),
            seen: 0,
            affected: 0,
        };
    }

    /// The plan in force.
    pub fn plan(&self) -> Faults {
        (*self.lock().plan).clone()
    }

    /// API requests received since the plan was last set (every one,
    /// affected or not, retries included).
    pub fn requests(&self) -> u64 {
        self.lock().seen
    }

    /// Waits until at least `n` requests have come since the plan was set,
    /// at most `within`; whether they came.
    pub fn wait_for_requests(&self, n: u64, within: std::time::Duration) -> bool {
        let guard = self.lock();
        let (c, _) = self
            .counted
            .wait_timeout_while(guard, within, |c| c.seen < n)
            .unwrap_or_else(|e| e.into_inner());
        c.seen >= n
    }

    /// Requests the plan affected since it was set.
    pub fn affected(&self) -> u64 {
        self.lock().affected
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Counters> {
        // The counters stay consistent even if a holder panicked.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Counts a request; returns the plan and the request's number.
    fn begin(&self) -> (Arc<Faults>, u64) {
        let mut c = self.lock();
        c.seen += 1;
        self.counted.notify_all();
        (c.plan.clone(), c.seen - 1)
    }

    /// Whether request `n` is affected; if so, its number among the
    /// affected ones.
    fn admit(&self, plan: &Arc<Faults>, n: u64, has_cursor: bool) -> Option<u64> {
        let mut c = self.lock();
        if !Arc::ptr_eq(&c.plan, plan)
            || n < plan.after
            || (plan.only_with_cursor && !has_cursor)
            || plan.times.is_some_and(|t| c.affected >= t)
        {
            return None;
        }
        c.affected += 1;
        Some(c.affected - 1)
    }
}

/// The middleware of the API routes: applies the plan in force.
pub async fn inject(State(state): State<Arc<DemoState>>, req: Request, next: Next) -> Response {
    let faults = &state.faults;
    let (plan, n) = faults.begin();
    if !plan.is_active() {
        return next.run(req).await;
    }
    // The request's cursor decides the scope and the looping cursor.
    let (parts, body) = req.into_parts();
    let bytes = match axum::body::to_bytes(body, MAX_REQUEST_BYTES).await {
        Ok(b) => b,
        Err(e) => return error_json(StatusCode::BAD_REQUEST, "INVALID_ARGUMENT", &e.to_string()),
    };
    let cursor = request_cursor(&bytes).or_else(|| query_cursor(parts.uri.query()));
    let req = Request::from_parts(parts, Body::from(bytes));
    let Some(k) = faults.admit(&plan, n, cursor.is_some()) else {
        return next.run(req).await;
    };
    if !plan.latency.is_zero() {
        tokio::time::sleep(plan.latency).await;
    }
    if plan.fails(k) {
        let code = match plan.fail_status {
            500 => "INTERNAL",
            504 => "DEADLINE_EXCEEDED",
            _ => "UNAVAILABLE",
        };
        let status =
            StatusCode::from_u16(plan.fail_status).unwrap_or(StatusCode::SERVICE_UNAVAILABLE);
        return error_json(
            status,
            code,
            &format!("demo fault: injected HTTP {}", status.as_u16()),
        );
    }
    let Some(kind) = &plan.kind else {
        return next.run(req).await;
    };
    match kind {
        FaultKind::Hang => std::future::pending().await,
        FaultKind::RateLimit { retry_after_secs } => {
            let mut resp = error_json(
                StatusCode::TOO_MANY_REQUESTS,
                "RESOURCE_EXHAUSTED",
                "demo fault: rate limited",
            );
            resp.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(*retry_after_secs));
            resp
        }
        FaultKind::Html { status } => html_page(*status),
        other => {
            let resp = next.run(req).await;
            if !resp.status().is_success() {
                return resp;
            }
            transform(resp, other, cursor.as_deref()).await
        }
    }
}

/// The `cursor` of a JSON request body, when present and not empty.
fn request_cursor(body: &[u8]) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Probe {
        cursor: Option<String>,
    }
    serde_json::from_slice::<Probe>(body)
        .ok()
        .and_then(|p| p.cursor)
        .filter(|c| !c.is_empty())
}

/// The `cursor` of a GET's query string, when present and not empty.
fn query_cursor(query: Option<&str>) -> Option<String> {
    url::form_urlencoded::parse(query?.as_bytes())
        .find(|(k, _)| k == "cursor")
        .map(|(_, v)| v.into_owned())
        .filter(|c| !c.is_empty())
}

pub(super) fn error_json(status: StatusCode, code: &str, message: &str) -> Response {
    let body = serde_json::json!({ "error": message, "code": code });
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
}

/// An HTML page: a reverse proxy's error page, or (status 200) the sign-in
/// page an SSO gateway shows instead of the API.
fn html_page(status: u16) -> Response {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_GATEWAY);
    let page = if status == StatusCode::OK {
        "<!DOCTYPE html>\n<html><head><title>Sign in</title></head>\n<body><form method=\"post\">\
         <h1>Sign in to continue</h1><input name=\"user\"><input name=\"password\" type=\"password\">\
         </form></body></html>\n"
            .to_owned()
    } else {
        let reason = status.canonical_reason().unwrap_or("Error");
        format!(
            "<html>\r\n<head><title>{code} {reason}</title></head>\r\n<body>\r\n\
             <center><h1>{code} {reason}</h1></center>\r\n<hr><center>nginx</center>\r\n\
             </body>\r\n</html>\r\n",
            code = status.as_u16()
        )
    };
    (
        status,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        page,
    )
        .into_response()
}

/// Spoils a successful answer as `kind` says.
async fn transform(resp: Response, kind: &FaultKind, cursor: Option<&str>) -> Response {
    let (mut parts, body) = resp.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, usize::MAX).await else {
        return error_json(
            StatusCode::INTERNAL_SERVER_ERROR,
            "INTERNAL",
            "demo fault: cannot read the answer",
        );
    };
    // The body changes: its length is computed again (or, for the reset,
    // set on purpose below).
    parts.headers.remove(header::CONTENT_LENGTH);
    let body = match kind {
        FaultKind::Reset => {
            // The whole length is promised; half arrives, then nothing.
            parts
                .headers
                .insert(header::CONTENT_LENGTH, HeaderValue::from(bytes.len()));
            let half = bytes.slice(..bytes.len() / 2);
            let first = futures_util::stream::iter([Ok::<Bytes, std::io::Error>(half)]);
            let cut = futures_util::stream::once(async {
                // Let the headers and the first half reach the client.
                tokio::time::sleep(Duration::from_millis(50)).await;
                Err(std::io::Error::new(
                    std::io::ErrorKind::ConnectionReset,
                    "demo fault: connection reset",
                ))
            });
            Body::from_stream(futures_util::StreamExt::chain(first, cut))
        }
        FaultKind::Truncate => Body::from(bytes.slice(..bytes.len() / 2)),
        FaultKind::ContentType(t) => {
            if let Ok(v) = HeaderValue::from_str(t) {
                parts.headers.insert(header::CONTENT_TYPE, v);
            }
            Body::from(bytes)
        }
        FaultKind::Huge { bytes: target } => Body::from(pad(&bytes, *target)),
        FaultKind::LoopCursor => match cursor {
            Some(c) => Body::from(with_cursor(&bytes, c)),
            None => Body::from(bytes),
        },
        FaultKind::Hang | FaultKind::RateLimit { .. } | FaultKind::Html { .. } => Body::from(bytes),
    };
    Response::from_parts(parts, body)
}

/// The JSON object `body` with an extra field (`demoPadding`, which clients
/// ignore as an unknown field) that brings it to about `target` bytes.
fn pad(body: &[u8], target: usize) -> Vec<u8> {
    let end = body.iter().rposition(|b| !b.is_ascii_whitespace());
    let Some(end) = end.filter(|&e| body[e] == b'}') else {
        return body.to_vec();
    };
    let empty = body[..end]
        .iter()
        .rev()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|&b| b == b'{');
    let head = &body[..end];
    let filler = target.saturating_sub(body.len() + 20);
    let mut out = Vec::with_capacity(head.len() + filler + 24);
    out.extend_from_slice(head);
    if !empty {
        out.push(b',');
    }
    out.extend_from_slice(b"\"demoPadding\":\"");
    out.resize(out.len() + filler, b'x');
    out.extend_from_slice(b"\"}");
    out
}

/// The JSON object `body` with its `cursor` set to `cursor`.
fn with_cursor(body: &[u8], cursor: &str) -> Vec<u8> {
    match serde_json::from_slice::<serde_json::Value>(body) {
        Ok(serde_json::Value::Object(mut map)) => {
            map.insert("cursor".into(), serde_json::Value::String(cursor.into()));
            serde_json::to_vec(&map).unwrap_or_else(|_| body.to_vec())
        }
        _ => body.to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_parse_with_their_arguments_and_refuse_the_rest() {
        assert_eq!(
            FaultKind::parse("rate-limit").unwrap(),
            FaultKind::RateLimit {
                retry_after_secs: 1
            }
        );
        assert_eq!(
            FaultKind::parse("rate-limit:7").unwrap(),
            FaultKind::RateLimit {
                retry_after_secs: 7
            }
        );
        assert_eq!(
            FaultKind::parse("html").unwrap(),
            FaultKind::Html { status: 502 }
        );
        assert_eq!(
            FaultKind::parse("html:200").unwrap(),
            FaultKind::Html { status: 200 }
        );
        assert_eq!(
            FaultKind::parse("huge").unwrap(),
            FaultKind::Huge {
                bytes: 10 * 1024 * 1024
            }
        );
        assert_eq!(
            FaultKind::parse("content-type:application/xml").unwrap(),
            FaultKind::ContentType("application/xml".into())
        );
        for ok in ["reset", "truncate", "loop-cursor", "hang", "content-type"] {
            assert!(FaultKind::parse(ok).is_ok(), "{ok}");
        }
        for bad in [
            "",
            "explode",
            "rate-limit:soon",
            "rate-limit:-1",
            "html:99",
            "huge:0",
            "huge:1000",
            "hang:5",
            "content-type:",
            "content-type:a\u{1b}b",
        ] {
            let err = FaultKind::parse(bad).unwrap_err();
            assert!(!err.is_empty(), "{bad}");
        }
        assert!(
            FaultKind::parse("explode")
                .unwrap_err()
                .contains("loop-cursor")
        );
    }

    #[test]
    fn failures_are_spread_evenly_and_reproducibly() {
        let count = |rate: f64, n: u64| {
            let plan = Faults {
                fail_rate: rate,
                ..Faults::default()
            };
            (0..n).filter(|&k| plan.fails(k)).count()
        };
        assert_eq!(count(0.0, 100), 0);
        assert_eq!(count(1.0, 100), 100);
        assert_eq!(count(0.5, 100), 50);
        assert_eq!(count(0.25, 100), 25);
        let half = Faults {
            fail_rate: 0.5,
            ..Faults::default()
        };
        // The first request succeeds, the second fails, and so on.
        assert_eq!(
            (0..4).map(|k| half.fails(k)).collect::<Vec<_>>(),
            [false, true, false, true]
        );
    }

    #[test]
    fn the_scope_spares_early_requests_first_pages_and_stops_after_times() {
        let state = FaultState::default();
        state.set(Faults::failing(503).after(1).times(2).with_cursor_only());
        let mut affected = Vec::new();
        for (n, has_cursor) in [false, true, false, true, true, true]
            .into_iter()
            .enumerate()
        {
            let (plan, seen) = state.begin();
            assert_eq!(seen, n as u64);
            affected.push(state.admit(&plan, seen, has_cursor).is_some());
        }
        assert_eq!(affected, [false, true, false, true, false, false]);
        assert_eq!((state.requests(), state.affected()), (6, 2));
        state.set(Faults::none());
        assert_eq!(state.requests(), 0, "a new plan counts from zero");
    }

    #[test]
    fn padding_keeps_the_json_valid_and_reaches_the_size() {
        let body = br#"{"issues":[{"issue":{"id":"1"}}],"cursor":"c"}"#;
        let padded = pad(body, 100_000);
        assert!(
            padded.len() >= 99_000 && padded.len() <= 100_000,
            "{}",
            padded.len()
        );
        let v: serde_json::Value = serde_json::from_slice(&padded).unwrap();
        assert_eq!(v["cursor"], "c");
        assert_eq!(v["issues"][0]["issue"]["id"], "1");
        let v: serde_json::Value = serde_json::from_slice(&pad(b"{ }\n", 1000)).unwrap();
        assert!(v["demoPadding"].as_str().unwrap().len() > 900);
        assert_eq!(pad(b"[1]", 1000), b"[1]", "only objects are padded");
    }

    #[test]
    fn the_looping_cursor_replaces_the_answers_cursor() {
        let out = with_cursor(br#"{"issues":[],"cursor":"next"}"#, "mine");
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(v["cursor"], "mine");
        assert_eq!(
            request_cursor(br#"{"limit":5,"cursor":"abc"}"#).as_deref(),
            Some("abc")
        );
        assert_eq!(request_cursor(br#"{"cursor":""}"#), None);
        assert_eq!(request_cursor(b"not json"), None);
    }

    #[test]
    fn the_banner_line_names_every_part_of_the_plan() {
        assert_eq!(Faults::none().to_string(), "none");
        let plan = Faults {
            latency: Duration::from_millis(250),
            fail_rate: 0.5,
            fail_status: 500,
            kind: Some(FaultKind::Hang),
            after: 2,
            only_with_cursor: true,
            times: Some(3),
        };
        assert_eq!(
            plan.to_string(),
            "latency 250 ms; 50% answered HTTP 500; never answers; after the first 2 requests; \
             only pages after the first; at most 3 requests"
        );
    }
}
