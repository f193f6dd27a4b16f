//! How one HTTP exchange is judged: what an answer may weigh and hold
//! ([`Bounds`]), which redirects are followed, why a connection could not
//! be made, and how a body is read and decoded.

use super::error::{ApiError, ConnectFailure, ConnectKind};
use serde::de::DeserializeOwned;

/// The most a single answer may weigh; larger bodies are refused unread.
pub const MAX_BODY_BYTES: usize = 64 * 1024 * 1024;

/// The most redirects a read follows (within its origin) before giving up.
pub(super) const MAX_REDIRECTS: usize = 5;

/// The most a page's answer may weigh per item asked for: a hostile answer
/// to a request for one item cannot make the client read 64 MB.
const BODY_BYTES_PER_ITEM: usize = 1024 * 1024;
/// The least any answer may weigh (a single finding with its code and
/// dataflow fits easily).
const MIN_BODY_BYTES: usize = 16 * 1024 * 1024;

/// The items a page may hold when its request names no limit: the most a
/// server pages by (docs/src/api.md §8).
// A positive constant (1000): the cast cannot lose (a const, so no try_from).
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
pub const MAX_PAGE_ITEMS: usize = findings_model::MAX_PAGE_SIZE as usize;

/// The least weight counted per item when a page's items are bounded by
/// its answer's weight: the contract promises no page size, so a page may
/// hold more than asked, but not a million `{}` (a finding's item is
/// kilobytes).
const MIN_ITEM_BYTES: usize = 1024;

/// What an answer may hold: its weight, and for a page, its items.
#[derive(Debug, Clone, Copy)]
pub(super) struct Bounds {
    pub(super) body_bytes: usize,
    pub(super) items: Option<usize>,
}

impl Bounds {
    /// A single object's answer.
    pub(super) const ONE: Bounds = Bounds {
        body_bytes: MAX_BODY_BYTES,
        items: None,
    };

    /// A page asked for `limit` items (the request's, else the server's
    /// largest page): its weight follows what was asked, and its items
    /// what that weight allows at [`MIN_ITEM_BYTES`] each (at least those
    /// asked for). `limit` sets the page size, and a server may answer
    /// with more (the caller keeps what it wants).
    pub(super) fn page(limit: Option<i64>) -> Bounds {
        let asked = limit
            .filter(|&n| n > 0)
            // Capped at u32::MAX first, so it fits any usize: never saturates.
            .map_or(MAX_PAGE_ITEMS, |n| {
                usize::try_from(n.min(i64::from(u32::MAX))).unwrap_or(usize::MAX)
            });
        let body_bytes = asked
            .saturating_mul(BODY_BYTES_PER_ITEM)
            .clamp(MIN_BODY_BYTES, MAX_BODY_BYTES);
        Bounds {
            body_bytes,
            items: Some(asked.max(body_bytes / MIN_ITEM_BYTES)),
        }
    }
}

/// Where a redirect may be followed: only by a read, only within its
/// origin (scheme, host and port: the token goes with it), never to plain
/// http, and a few times at most. Anything else is an error that says
/// where it pointed; for a write, that its outcome is unknown.
pub(super) fn redirect_target(
    from: &reqwest::Url,
    status: u16,
    location: &str,
    write: bool,
    followed: usize,
) -> Result<reqwest::Url, ApiError> {
    let target = from.join(location).ok().filter(|_| !location.is_empty());
    let shown = match &target {
        Some(t) => findings_base::redact::mask_url_credentials(t.as_str()).into_owned(),
        None => location.to_owned(),
    };
    let refuse = |why: &'static str| ApiError::Redirected {
        status,
        location: findings_base::text::truncate(&findings_base::text::one_line(&shown), 200)
            .into_owned(),
        why,
    };
    let Some(target) = target else {
        return Err(refuse("the redirect names no usable location"));
    };
    if write {
        return Err(refuse("a write is never redirected"));
    }
    if !matches!(status, 301 | 302 | 303 | 307 | 308) {
        return Err(refuse("not a redirect this client follows"));
    }
    if from.scheme() == "https" && target.scheme() != "https" {
        return Err(refuse("it leaves https"));
    }
    if target.origin() != from.origin() {
        return Err(refuse("it leads to another origin"));
    }
    if followed >= MAX_REDIRECTS {
        return Err(refuse("too many redirects"));
    }
    Ok(target)
}

/// Why a connection could not be made, from the error's causes; `None`
/// when it was made (the request may have been sent).
pub(super) fn connect_failure(e: &reqwest::Error) -> Option<ConnectFailure> {
    let mut tls = None;
    let mut refused = false;
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(s) = source {
        if let Some(r) = s.downcast_ref::<rustls::Error>() {
            tls = Some(r.clone());
        }
        source = match s.downcast_ref::<std::io::Error>() {
            Some(io) => {
                refused |= io.kind() == std::io::ErrorKind::ConnectionRefused;
                // An io::Error's `source` skips the error it wraps.
                io.get_ref().map(|inner| inner as _).or_else(|| s.source())
            }
            None => s.source(),
        };
    }
    let deepest = findings_base::text::truncate(&findings_base::text::one_line(&innermost(e)), 200)
        .into_owned();
    if let Some(tls) = tls {
        return Some(tls_failure(&tls));
    }
    if !e.is_connect() {
        return None;
    }
    let lower = deepest.to_ascii_lowercase();
    let kind = if refused {
        ConnectKind::Refused
    } else if lower.contains("dns error")
        || lower.contains("failed to lookup address")
        || lower.contains("name or service not known")
        || lower.contains("no address associated")
        || e.to_string().contains("dns error")
        || chain_mentions(e, "dns error")
    {
        ConnectKind::Dns
    } else {
        ConnectKind::Other
    };
    Some(ConnectFailure {
        kind,
        message: deepest,
    })
}

fn chain_mentions(e: &reqwest::Error, needle: &str) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(s) = source {
        if s.to_string().contains(needle) {
            return true;
        }
        source = s.source();
    }
    false
}

/// A TLS failure said in a line: a certificate's fault named, not its list
/// of names.
fn tls_failure(e: &rustls::Error) -> ConnectFailure {
    use rustls::CertificateError as C;
    let message = match e {
        rustls::Error::InvalidCertificate(c) => match c {
            C::NotValidForName | C::NotValidForNameContext { .. } => {
                "the certificate is not valid for this host name".to_owned()
            }
            C::Expired | C::ExpiredContext { .. } => "the certificate has expired".to_owned(),
            C::NotValidYet | C::NotValidYetContext { .. } => {
                "the certificate is not valid yet".to_owned()
            }
            C::UnknownIssuer => {
                "the certificate is signed by an authority this machine does not trust".to_owned()
            }
            C::Revoked => "the certificate is revoked".to_owned(),
            other => format!("the certificate was refused ({other:?})"),
        },
        rustls::Error::InvalidMessage(_) => {
            return ConnectFailure {
                kind: ConnectKind::PlainHttp,
                message: "the answer to the TLS greeting was not TLS".to_owned(),
            };
        }
        other => {
            findings_base::text::truncate(&findings_base::text::one_line(&other.to_string()), 200)
                .into_owned()
        }
    };
    ConnectFailure {
        kind: ConnectKind::Tls,
        message,
    }
}

/// The body (reading stops once it passes `max` bytes), or how many bytes
/// had arrived when reading it failed.
pub(super) async fn read_body(
    mut response: reqwest::Response,
    max: usize,
) -> Result<Vec<u8>, (usize, reqwest::Error)> {
    // Sized once from the length the server gives (never past the bound):
    // growing a page of 3 MB by doubling copied it twice over.
    let said = response.content_length().unwrap_or(0);
    let mut bytes = Vec::with_capacity(usize::try_from(said).unwrap_or(max).min(max));
    loop {
        match response.chunk().await {
            Ok(Some(chunk)) => bytes.extend_from_slice(&chunk),
            Ok(None) => break,
            Err(e) => return Err((bytes.len(), e)),
        }
        if bytes.len() > max {
            break;
        }
    }
    Ok(bytes)
}

/// The message of the deepest cause of `e` (what actually went wrong).
pub(super) fn innermost(e: &(dyn std::error::Error + 'static)) -> String {
    let mut last: &dyn std::error::Error = e;
    while let Some(source) = last.source() {
        last = source;
    }
    last.to_string()
}

/// The status a log line gives a failed attempt: the HTTP status when the
/// server answered, else what went wrong.
pub(super) fn log_status(e: &ApiError) -> String {
    if let Some(status) = e.status() {
        return status.to_string();
    }
    match e {
        ApiError::Timeout(_) | ApiError::ConnectTimeout(_) => "timeout".into(),
        ApiError::Connection(_) | ApiError::Connect(_) => "connection-failed".into(),
        ApiError::Redirected { .. } => "redirect-refused".into(),
        ApiError::Decode { .. } | ApiError::NotJson { .. } | ApiError::TooLarge { .. } => {
            "unreadable-answer".into()
        }
        _ => "error".into(),
    }
}

/// A successful answer read whole, held to its weight, not yet decoded: a
/// listing reads the next cursor ([`Answer::peek_page`]) and asks for the
/// next page before it spends the time to decode this one.
#[derive(Debug)]
pub struct Answer {
    pub(super) bytes: Vec<u8>,
    pub(super) content_type: String,
    pub(super) bounds: Bounds,
}

impl Answer {
    /// The body decoded as `R`, a page held to the items asked for.
    pub fn decode<R: DeserializeOwned>(&self) -> Result<R, ApiError> {
        decode_bounded(&self.bytes, &self.content_type, self.bounds)
    }

    /// [`Answer::decode`] on a thread for blocking work: a page of 1,000
    /// findings takes milliseconds of CPU that the runtime's threads (the
    /// TUI's keys, the next page's request) should not wait behind.
    pub async fn decode_apart<R: DeserializeOwned + Send + 'static>(self) -> Result<R, ApiError> {
        self.decode_apart_with(Answer::decode::<R>).await
    }

    /// [`Answer::decode_apart`] by `decode`: a concrete decoding (a
    /// [`crate::FromAnswer`]) compiled once, in the crate that defines it.
    pub async fn decode_apart_with<R: Send + 'static>(
        self,
        decode: fn(&Answer) -> Result<R, ApiError>,
    ) -> Result<R, ApiError> {
        match tokio::task::spawn_blocking(move || decode(&self)).await {
            Ok(decoded) => decoded,
            Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
            Err(_) => Err(ApiError::Connection(
                "the answer was dropped: the program is stopping".into(),
            )),
        }
    }

    /// The body as sent.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }
}

/// [`decode`], a page held to the items its request asked for.
pub(super) fn decode_bounded<R: DeserializeOwned>(
    bytes: &[u8],
    content_type: &str,
    bounds: Bounds,
) -> Result<R, ApiError> {
    findings_model::wire::with_page_limit(bounds.items, || decode(bytes, content_type))
}

/// Decodes a success body, naming the JSON path of the first failure.
pub fn decode<R: DeserializeOwned>(bytes: &[u8], content_type: &str) -> Result<R, ApiError> {
    if bytes.len() > MAX_BODY_BYTES {
        return Err(ApiError::TooLarge {
            limit_mb: MAX_BODY_BYTES / (1024 * 1024),
        });
    }
    let looks_like_json = matches!(
        bytes.iter().find(|b| !b.is_ascii_whitespace()),
        Some(b'{' | b'[')
    );
    if !looks_like_json {
        return Err(ApiError::NotJson {
            content_type: if content_type.is_empty() {
                "no content type".into()
            } else {
                findings_base::text::one_line(content_type).into_owned()
            },
            snippet: {
                let head = String::from_utf8_lossy(&bytes[..bytes.len().min(800)]);
                super::error::html_summary(&head).unwrap_or_else(|| {
                    findings_base::text::truncate(&findings_base::text::one_line(&head), 120)
                        .into_owned()
                })
            },
        });
    }
    // Both the path (it holds the server's key names) and the message (it
    // quotes the server's values) are untrusted: made safe and cut short.
    let safe = |s: &str, max: usize| {
        findings_base::text::truncate(&findings_base::text::one_line(s), max).into_owned()
    };
    let value = findings_base::json::decode(bytes).map_err(|e| {
        let message = safe(&e.message, 300);
        ApiError::Decode {
            path: if e.path == "." {
                "(top level)".into()
            } else {
                safe(&e.path, 200)
            },
            // An answer that ends inside the JSON was cut short: say so.
            message: if e.truncated {
                format!("the JSON is truncated ({message})")
            } else {
                message
            },
        }
    })?;
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use findings_model::*;

    #[test]
    fn decode_names_the_failing_path() {
        let body = br#"{"issues":[{"issue":{"id":"1"}},{"issue":{"line":"twelve"}}]}"#;
        let err = decode::<ListIssuesResponse>(body, "application/json").unwrap_err();
        match err {
            ApiError::Decode { path, .. } => assert_eq!(path, "issues[1].issue.line"),
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn html_is_not_json() {
        let err =
            decode::<ListIssuesResponse>(b"<html>502 Bad Gateway</html>", "text/html").unwrap_err();
        assert!(err.to_string().contains("not JSON (text/html)"), "{err}");
    }

    #[test]
    fn truncated_json_is_a_decode_error() {
        let err =
            decode::<ListIssuesResponse>(br#"{"issues":[{"issue":{"id":"1""#, "application/json")
                .unwrap_err();
        assert!(matches!(err, ApiError::Decode { .. }), "{err:?}");
        assert!(err.to_string().contains("the JSON is truncated"), "{err}");
        // A complete but wrong answer is not called truncated.
        let err = decode::<ListIssuesResponse>(br#"{"issues":7}"#, "application/json").unwrap_err();
        assert!(!err.to_string().contains("truncated"), "{err}");
    }

    #[test]
    fn an_html_page_is_named_by_its_title_not_shown_as_markup() {
        let page =
            b"<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body></body></html>";
        let err = decode::<ListIssuesResponse>(page, "text/html").unwrap_err();
        assert_eq!(
            err.to_string(),
            "the server's answer is not JSON (text/html): HTML page: Sign in"
        );
    }

    #[test]
    fn reads_follow_redirects_only_within_their_origin_and_writes_never() {
        let from = reqwest::Url::parse("https://api.example.com/api/x").unwrap();
        let follow = |status, location: &str, write, followed| {
            redirect_target(&from, status, location, write, followed)
        };
        // Within the origin: a read follows, relative or absolute.
        for status in [301, 302, 303, 307, 308] {
            let to = follow(status, "/api/y", false, 0).unwrap();
            assert_eq!(to.as_str(), "https://api.example.com/api/y");
        }
        assert!(follow(307, "https://api.example.com:443/z", false, 0).is_ok());
        // Never for a write, wherever it points; its outcome is unknown.
        for status in [301, 302, 303, 307, 308] {
            let e = follow(status, "/api/y", true, 0).unwrap_err();
            assert!(matches!(e, ApiError::Redirected { .. }), "{e:?}");
            assert_eq!(e.write_outcome(), Some(crate::WriteOutcome::Unknown));
        }
        // Never to another host, port or scheme; never down to http.
        for other in [
            "https://evil.example.net/api/y",
            "https://api.example.com:8443/api/y",
            "http://api.example.com/api/y",
            "//evil.example.net/x",
        ] {
            let e = follow(307, other, false, 0).unwrap_err();
            assert!(e.to_string().contains("not followed"), "{other}: {e}");
        }
        // A location with credentials is shown without them.
        let e = follow(302, "https://u:pw@evil.example.net/", false, 0).unwrap_err();
        assert!(!e.to_string().contains("pw@"), "{e}");
        // A loop is cut off.
        assert!(follow(302, "/again", false, MAX_REDIRECTS).is_err());
        assert!(follow(302, "", false, 0).is_err());
    }

    #[test]
    fn a_page_is_bounded_by_the_items_its_weight_allows() {
        // More than asked is read: the contract promises no page size.
        let two = r#"{"issues":[{},{}]}"#;
        let page = decode_bounded::<ListIssuesResponse>(
            two.as_bytes(),
            "application/json",
            Bounds::page(Some(1)),
        )
        .unwrap();
        assert_eq!(page.issues.len(), 2);
        // Past what the answer's weight allows at 1 KB an item: refused.
        let bounds = Bounds::page(Some(1));
        let most = MIN_BODY_BYTES / MIN_ITEM_BYTES;
        assert_eq!(bounds.items, Some(most));
        let many = format!("{{\"issues\":[{}]}}", vec!["{}"; most + 1].join(","));
        let err = decode_bounded::<ListIssuesResponse>(many.as_bytes(), "application/json", bounds)
            .unwrap_err();
        assert!(
            err.to_string()
                .contains(&format!("more items than the {most} an answer")),
            "{err}"
        );
        let exact = format!("{{\"issues\":[{}]}}", vec!["{}"; most].join(","));
        let page =
            decode_bounded::<ListIssuesResponse>(exact.as_bytes(), "application/json", bounds)
                .unwrap();
        assert_eq!(page.issues.len(), most);
        // The weight of an answer follows what was asked, within limits.
        assert_eq!(Bounds::page(Some(1)).body_bytes, MIN_BODY_BYTES);
        assert_eq!(Bounds::page(Some(100)).body_bytes, MAX_BODY_BYTES);
        assert_eq!(
            Bounds::page(None).items,
            Some(MAX_BODY_BYTES / MIN_ITEM_BYTES)
        );
    }
}
