//! Typed API errors (docs/src/api.md §11–12). Every message that came from the
//! server is made terminal-safe and cut to a readable length here, once.

use findings_base::text;
use std::time::Duration;
use thiserror::Error;

/// What the server said in a non-2xx answer.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerMessage {
    pub status: u16,
    /// `error` or `message` of a JSON body, else the start of the raw body.
    pub message: String,
    pub code: Option<String>,
    pub details: Option<String>,
}

impl std::fmt::Display for ServerMessage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "HTTP {}", self.status)?;
        if !self.message.is_empty() {
            write!(f, ": {}", self.message)?;
        }
        if let Some(code) = &self.code {
            write!(f, " ({code})")?;
        }
        if let Some(details) = &self.details {
            write!(f, " [{details}]")?;
        }
        Ok(())
    }
}

#[derive(Debug, Clone, Error)]
pub enum ApiError {
    #[error("bad request: {0}")]
    BadRequest(ServerMessage),
    #[error("not authenticated (missing or invalid token): {0}")]
    Unauthorized(ServerMessage),
    #[error("forbidden (the token lacks Web API permission): {0}")]
    Forbidden(ServerMessage),
    #[error("not found: {0}")]
    NotFound(ServerMessage),
    #[error("gone: {0}")]
    Gone(ServerMessage),
    #[error("rate limited{}: {message}", retry_after_note(.retry_after))]
    RateLimited {
        message: ServerMessage,
        retry_after: Option<Duration>,
    },
    #[error("server error: {0}")]
    Server(ServerMessage),
    #[error("unexpected answer: {0}")]
    UnexpectedStatus(ServerMessage),
    /// The answer did not come within `--timeout`: a write's outcome is
    /// unknown.
    #[error("request timed out after {0:?} (--timeout)")]
    Timeout(Duration),
    /// No connection within `--connect-timeout`: nothing was sent.
    #[error("could not connect within {0:?} (--connect-timeout)")]
    ConnectTimeout(Duration),
    /// The connection failed after the request may have been sent.
    #[error("connection failed: {0}")]
    Connection(String),
    /// No connection could be made: nothing was sent.
    #[error("{}", .0)]
    Connect(ConnectFailure),
    /// The server answered with a redirect that is not followed: every
    /// redirect of a write, and a read's to another origin or to http.
    #[error("the server redirected ({status}) to {location}: {why}; not followed")]
    Redirected {
        status: u16,
        location: String,
        why: &'static str,
    },
    #[error("the server's answer could not be read at `{path}`: {message}")]
    Decode { path: String, message: String },
    #[error("the server's answer is not JSON ({content_type}): {snippet}")]
    NotJson {
        content_type: String,
        snippet: String,
    },
    /// A 2xx answer refused unread (or unfinished): the same request would
    /// bring the same answer, so it is not retried. (A larger answer of
    /// another status is that status's error.)
    #[error("the server's answer is larger than {limit_mb} MB: refused, not read")]
    TooLarge { limit_mb: usize },
    #[error(
        "the server returned a cursor it had already returned ({cursor}): stopping to avoid a loop"
    )]
    CursorLoop { cursor: String },
    #[error(
        "the listing passed {pages} pages without ending: stopped (no deployment has that many; --max-pages raises the limit)"
    )]
    TooManyPages { pages: usize },
    #[error(
        "the read of {ids} finding(s) by id passed {pages} pages without listing them: stopped (a server that honours the ids asked for needs one page an id at most)"
    )]
    IdsNotListed { ids: usize, pages: usize },
    #[error("invalid configuration: {0}")]
    Config(String),
}

/// Why no connection could be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConnectKind {
    /// The host name does not resolve.
    Dns,
    /// Nothing listens at the host and port.
    Refused,
    /// The TLS handshake failed (a certificate refused, a protocol error).
    Tls,
    /// An https:// URL whose server answered in plain HTTP.
    PlainHttp,
    Other,
}

/// A connection that could not be made, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConnectFailure {
    pub kind: ConnectKind,
    pub message: String,
}

impl std::fmt::Display for ConnectFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = match self.kind {
            ConnectKind::Dns => "the host name could not be resolved",
            ConnectKind::Refused => "the connection was refused",
            ConnectKind::Tls => "the TLS handshake failed",
            ConnectKind::PlainHttp => "the server answered in plain HTTP, not TLS",
            ConnectKind::Other => "could not connect",
        };
        write!(f, "{what}: {}", self.message)
    }
}

/// What a write that failed may have done anyway (see
/// [`ApiError::write_outcome`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteOutcome {
    Unknown,
    ProbablyApplied,
}

fn retry_after_note(d: &Option<Duration>) -> String {
    d.map(|d| format!(" (retry after {}s)", d.as_secs()))
        .unwrap_or_default()
}

impl ApiError {
    /// The HTTP status, when the server answered.
    pub fn status(&self) -> Option<u16> {
        match self {
            ApiError::BadRequest(m)
            | ApiError::Unauthorized(m)
            | ApiError::Forbidden(m)
            | ApiError::NotFound(m)
            | ApiError::Gone(m)
            | ApiError::Server(m)
            | ApiError::UnexpectedStatus(m)
            | ApiError::RateLimited { message: m, .. } => Some(m.status),
            _ => None,
        }
    }

    /// What a failed write (never retried) may still have done: a timeout
    /// or a dropped connection leaves it unknown; a 2xx answer that could
    /// not be read (not JSON, cut, of another shape, or over the size
    /// bound) means it was probably applied. `None`: the server said no,
    /// so nothing changed.
    pub fn write_outcome(&self) -> Option<WriteOutcome> {
        match self {
            ApiError::Timeout(_) | ApiError::Connection(_) | ApiError::Redirected { .. } => {
                Some(WriteOutcome::Unknown)
            }
            // A gateway that timed out or lost its upstream may have
            // passed the write on before it failed.
            ApiError::Server(m) if matches!(m.status, 502 | 504) => Some(WriteOutcome::Unknown),
            ApiError::Decode { .. } | ApiError::NotJson { .. } | ApiError::TooLarge { .. } => {
                Some(WriteOutcome::ProbablyApplied)
            }
            _ => None,
        }
    }

    /// Whether a read request may be tried again (docs/src/api.md §13).
    pub fn is_retryable(&self) -> bool {
        match self {
            ApiError::Connection(_) | ApiError::RateLimited { .. } => true,
            // A refused certificate or a plain-http port stays so.
            ApiError::Connect(c) => matches!(
                c.kind,
                ConnectKind::Dns | ConnectKind::Refused | ConnectKind::Other
            ),
            ApiError::Server(m) => matches!(m.status, 502..=504),
            _ => false,
        }
    }

    /// What to do about it, when the error says something the user can
    /// fix: a hint that fits the error (not a generic one).
    pub fn hint(&self) -> Option<&'static str> {
        Some(match self {
            ApiError::Unauthorized(_) => {
                "the token was refused: check FINDINGS_TOKEN or the profile's token_command/token_file (`findings config show` says which is used)"
            }
            ApiError::Forbidden(_) => "the token lacks the permission this operation needs",
            ApiError::Timeout(_) => "the server is slow to answer: raise --timeout",
            ApiError::ConnectTimeout(_) => {
                "check the base URL's host and port and the network, or raise --connect-timeout"
            }
            ApiError::Connect(c) => match c.kind {
                ConnectKind::Dns => {
                    "check the host name of the base URL (--base-url, FINDINGS_BASE_URL)"
                }
                ConnectKind::Refused => "check the port of the base URL: nothing listens there",
                ConnectKind::Tls => {
                    "the server's certificate is not trusted for this host name; check the base URL"
                }
                ConnectKind::PlainHttp => {
                    "the base URL says https:// but the server speaks plain HTTP there; check the port"
                }
                ConnectKind::Other => return None,
            },
            ApiError::NotJson { .. } => {
                "is the base URL the platform's API address? Its answer was not the API's"
            }
            _ => return None,
        })
    }

    /// Builds the typed error for a non-2xx status from its raw body.
    pub fn from_status(status: u16, body: &[u8], retry_after: Option<Duration>) -> ApiError {
        let message = parse_error_body(status, body);
        match status {
            400 => ApiError::BadRequest(message),
            401 => ApiError::Unauthorized(message),
            403 => ApiError::Forbidden(message),
            404 => ApiError::NotFound(message),
            410 => ApiError::Gone(message),
            429 => ApiError::RateLimited {
                message,
                retry_after,
            },
            500..=599 => ApiError::Server(message),
            _ => ApiError::UnexpectedStatus(message),
        }
    }
}

const MAX_MESSAGE_CHARS: usize = 200;

/// Server text made terminal-safe, its secrets masked (the terminal-safe
/// functions scrub), and cut short.
fn clean(s: &str) -> String {
    text::truncate(&text::one_line(s.trim()), MAX_MESSAGE_CHARS).into_owned()
}

/// Lenient error-body parsing (docs/src/api.md §12): `error`, `message`, `code` and
/// `details` of a JSON object when present, else the start of the raw body.
fn parse_error_body(status: u16, body: &[u8]) -> ServerMessage {
    let json: Option<serde_json::Value> = serde_json::from_slice(body).ok();
    let field = |name: &str| -> Option<String> {
        let v = json.as_ref()?.get(name)?;
        match v {
            serde_json::Value::Null => None,
            serde_json::Value::String(s) if s.is_empty() => None,
            serde_json::Value::String(s) => Some(clean(s)),
            other => Some(clean(&other.to_string())),
        }
    };
    if let Some(serde_json::Value::Object(_)) = json {
        ServerMessage {
            status,
            message: field("error")
                .or_else(|| field("message"))
                .unwrap_or_default(),
            code: field("code"),
            details: field("details"),
        }
    } else {
        let head = String::from_utf8_lossy(&body[..body.len().min(4 * MAX_MESSAGE_CHARS)]);
        ServerMessage {
            status,
            message: match html_summary(&head) {
                Some(summary) => summary,
                None => clean(&head),
            },
            code: None,
            details: None,
        }
    }
}

/// "HTML page: TITLE" for an HTML body (a proxy's or gateway's page), so
/// the message says what came back instead of showing markup.
pub fn html_summary(head: &str) -> Option<String> {
    let head = head.trim_start();
    let lower = head.to_ascii_lowercase();
    if !(lower.starts_with("<!doctype html") || lower.starts_with("<html")) {
        return None;
    }
    let title = ["title", "h1"].iter().find_map(|tag| {
        let open = lower.find(&format!("<{tag}"))?;
        let start = open + lower[open..].find('>')? + 1;
        let end = start + lower[start..].find(&format!("</{tag}"))?;
        // Same offsets: ASCII lower-casing keeps byte positions.
        Some(head.get(start..end)?.trim().to_owned()).filter(|t| !t.is_empty())
    });
    Some(match title {
        Some(t) => format!("HTML page: {}", clean(&t)),
        None => "HTML page (no title)".to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_error_bodies_are_read() {
        let e = ApiError::from_status(
            404,
            br#"{"error":"no such config","code":"NOT_FOUND"}"#,
            None,
        );
        assert!(matches!(e, ApiError::NotFound(_)));
        assert_eq!(
            e.to_string(),
            "not found: HTTP 404: no such config (NOT_FOUND)"
        );
    }

    #[test]
    fn message_field_and_details_are_accepted() {
        let e = ApiError::from_status(400, br#"{"message":"bad","details":[{"f":"x"}]}"#, None);
        assert_eq!(e.to_string(), r#"bad request: HTTP 400: bad [[{"f":"x"}]]"#);
    }

    #[test]
    fn raw_bodies_are_cut_and_made_safe() {
        let body = format!("<html>\u{1b}[2J{}</html>", "x".repeat(500));
        let e = ApiError::from_status(502, body.as_bytes(), None);
        let shown = e.to_string();
        assert!(!shown.contains('\u{1b}'));
        assert!(shown.chars().count() < 260, "{shown}");
        assert!(e.is_retryable());
    }

    #[test]
    fn html_pages_are_named_by_their_title() {
        let page =
            b"<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>x</body></html>";
        let e = ApiError::from_status(502, page, None);
        assert_eq!(
            e.to_string(),
            "server error: HTTP 502: HTML page: 502 Bad Gateway"
        );
        let e = ApiError::from_status(503, b"<!DOCTYPE html><body><h1>Down \x1b[2J</h1>", None);
        assert_eq!(
            e.to_string(),
            "server error: HTTP 503: HTML page: Down \u{241b}[2J"
        );
        let e = ApiError::from_status(502, b"\r\n  <HTML><TITLE>Bad gateway</TITLE>", None);
        assert_eq!(
            e.to_string(),
            "server error: HTTP 502: HTML page: Bad gateway"
        );
        let e = ApiError::from_status(500, b"<html><body>", None);
        assert_eq!(
            e.to_string(),
            "server error: HTTP 500: HTML page (no title)"
        );
    }

    #[test]
    fn rate_limits_show_the_wait_and_the_message() {
        let e = ApiError::from_status(
            429,
            br#"{"error":"slow down","code":"RESOURCE_EXHAUSTED"}"#,
            Some(Duration::from_secs(3)),
        );
        assert_eq!(
            e.to_string(),
            "rate limited (retry after 3s): HTTP 429: slow down (RESOURCE_EXHAUSTED)"
        );
    }

    #[test]
    fn a_gateway_failure_leaves_a_writes_outcome_unknown() {
        for (status, outcome) in [
            (502, Some(WriteOutcome::Unknown)),
            (504, Some(WriteOutcome::Unknown)),
            // The server itself said no: nothing changed.
            (500, None),
            (503, None),
            (400, None),
        ] {
            let e = ApiError::from_status(status, b"", None);
            assert_eq!(e.write_outcome(), outcome, "{status}");
        }
        // A 2xx answer that cannot be read: the write was probably applied.
        for unreadable in [
            ApiError::TooLarge { limit_mb: 64 },
            ApiError::Decode {
                path: ".".into(),
                message: "EOF".into(),
            },
            ApiError::NotJson {
                content_type: "text/html".into(),
                snippet: "ok".into(),
            },
        ] {
            assert_eq!(
                unreadable.write_outcome(),
                Some(WriteOutcome::ProbablyApplied),
                "{unreadable}"
            );
        }
    }

    #[test]
    fn retryable_statuses_follow_decision_13() {
        for (status, retry) in [
            (429, true),
            (502, true),
            (503, true),
            (504, true),
            (500, false),
            (400, false),
            (401, false),
        ] {
            assert_eq!(
                ApiError::from_status(status, b"", None).is_retryable(),
                retry,
                "{status}"
            );
        }
    }
}
