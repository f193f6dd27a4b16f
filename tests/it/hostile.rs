//! The client and the headless commands against hostile local servers
//! (issue: "Hardened against a hostile network, server and machine"):
//! redirects of every kind to another origin, a proxy in the environment,
//! secrets echoed back, a page of a million items, a cursor chain that
//! never ends, a Retry-After longer than --timeout, a gateway failing a
//! write. Each server counts what reached it, so "nothing was sent there"
//! is checked where it happened.

use crate::common::findings;
use axum::Router;
use axum::body::Bytes;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::any;
use findings_client::{ApiError, Client, ClientConfig, RetryPolicy, Token};
use findings_model::*;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub(crate) const TOKEN: &str = "bearer-secret-0123456789";
const SCM_TOKEN: &str = "scm-access-secret-987654";

/// What a server was sent: one entry per request, its method, path,
/// Authorization header and body.
#[derive(Clone, Default)]
pub(crate) struct Seen(pub(crate) Arc<Mutex<Vec<String>>>);

impl Seen {
    pub(crate) fn all(&self) -> Vec<String> {
        self.0.lock().unwrap().clone()
    }
    pub(crate) fn count(&self) -> usize {
        self.0.lock().unwrap().len()
    }
}

/// A server that records every request and answers with `answer`.
pub(crate) fn recording<F, R>(seen: Seen, answer: F) -> Router
where
    F: Fn(&str, &str, &str) -> R + Clone + Send + Sync + 'static,
    R: IntoResponse,
{
    Router::new().fallback(any(
        move |method: axum::http::Method, uri: axum::http::Uri, headers: HeaderMap, body: Bytes| {
            let seen = seen.clone();
            let answer = answer.clone();
            async move {
                let auth = headers
                    .get(header::AUTHORIZATION)
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("")
                    .to_owned();
                let body = String::from_utf8_lossy(&body).into_owned();
                seen.0
                    .lock()
                    .unwrap()
                    .push(format!("{method} {uri} [{auth}] {body}"));
                answer(method.as_str(), uri.path(), &body)
            }
        },
    ))
}

/// Serves `router` on a free loopback port, in the background of the
/// calling test's runtime.
pub(crate) async fn serve(router: Router) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await });
    addr
}

/// A runtime that serves in the background while a child process runs.
pub(crate) fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

pub(crate) fn client(addr: SocketAddr) -> Client {
    let mut cfg = ClientConfig::new(format!("http://{addr}"), "1234", Token::new(TOKEN));
    cfg.retry = RetryPolicy {
        max_attempts: 4,
        base_delay: Duration::from_millis(10),
        max_delay: Duration::from_millis(50),
    };
    cfg.request_timeout = Duration::from_secs(5);
    Client::new(cfg).unwrap()
}

/// The binary pointed at `addr` with the test token.
pub(crate) fn cli(addr: SocketAddr, args: &[&str]) -> assert_cmd::Command {
    let mut cmd = findings();
    cmd.args(args)
        .env("FINDINGS_BASE_URL", format!("http://{addr}"))
        .env("FINDINGS_DEPLOYMENT", "1234")
        .env("FINDINGS_TOKEN", TOKEN)
        .timeout(Duration::from_secs(60));
    for var in [
        "http_proxy",
        "HTTP_PROXY",
        "https_proxy",
        "HTTPS_PROXY",
        "all_proxy",
        "ALL_PROXY",
        "no_proxy",
        "NO_PROXY",
    ] {
        cmd.env_remove(var);
    }
    cmd
}

pub(crate) struct Run {
    pub(crate) code: i32,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

pub(crate) fn run(cmd: &mut assert_cmd::Command, stdin: &str) -> Run {
    let out = cmd.write_stdin(stdin.to_owned()).output().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// `findings triage` reads the findings (their notes) before it writes:
/// the List issues answer naming 100001, for servers hostile to writes only.
fn triage_read(path: &str) -> Option<axum::response::Response> {
    path.ends_with("/issues").then(|| {
        json(r#"{"issues":[{"issue":{"id":"100001","triageState":"FINDING_TRIAGE_STATE_UNTRIAGED"}}]}"#.into())
    })
}

fn redirect(status: u16, to: String) -> axum::response::Response {
    (
        StatusCode::from_u16(status).unwrap(),
        [(header::LOCATION, to)],
        "",
    )
        .into_response()
}

pub(crate) fn json(body: String) -> axum::response::Response {
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}

#[test]
fn a_write_redirected_to_another_origin_sends_nothing_there() {
    let rt = runtime();
    for status in [301, 302, 303, 307, 308] {
        let elsewhere = Seen::default();
        let other = rt.block_on(serve(recording(elsewhere.clone(), |_, _, _| {
            json(r#"{"config":{"id":"c1"},"updated":1}"#.into())
        })));
        let api_seen = Seen::default();
        let api = rt.block_on(serve(recording(api_seen.clone(), move |_, path, _| {
            triage_read(path).unwrap_or_else(|| redirect(status, format!("http://{other}{path}")))
        })));
        // The SCM access token, piped in, would travel in the body.
        let out = run(
            &mut cli(
                api,
                &["scm", "update", "c1", "--access-token-stdin", "--yes"],
            ),
            SCM_TOKEN,
        );
        assert_eq!(out.code, 1, "{status}: {}", out.stderr);
        assert!(
            out.stderr.contains("redirected"),
            "{status}: {}",
            out.stderr
        );
        assert!(
            out.stderr.contains("outcome is unknown"),
            "{status}: {}",
            out.stderr
        );
        assert_eq!(elsewhere.count(), 0, "{status}: {:?}", elsewhere.all());
        assert_eq!(api_seen.count(), 1, "{status}: sent once, never retried");
        assert!(!out.stderr.contains(SCM_TOKEN) && !out.stdout.contains(SCM_TOKEN));

        // A triage, redirected, is not counted as applied.
        let out = run(
            &mut cli(api, &["triage", "100001", "--state", "ignored", "--yes"]),
            "",
        );
        assert_eq!(out.code, 1, "{status}: {}", out.stderr);
        assert!(!out.stdout.contains("updated"), "{status}: {}", out.stdout);
        assert!(
            out.stderr.contains("outcome is unknown"),
            "{status}: {}",
            out.stderr
        );
        assert_eq!(elsewhere.count(), 0, "{status}: {:?}", elsewhere.all());
    }
}

#[test]
fn a_read_follows_a_redirect_within_its_origin_only() {
    let rt = runtime();
    rt.block_on(async {
        let elsewhere = Seen::default();
        let other = serve(recording(elsewhere.clone(), |_, _, _| {
            json(r#"{"issues":[{"issue":{"id":"stolen"}}]}"#.into())
        }))
        .await;
        let seen = Seen::default();
        let api = serve(recording(seen.clone(), move |_, path, _| {
            if path.ends_with("/moved") {
                json(r#"{"issues":[{"issue":{"id":"here"}}]}"#.into())
            } else if path.starts_with("/api/agent/deployments/") {
                redirect(307, format!("{path}/moved"))
            } else {
                redirect(302, format!("http://{other}{path}"))
            }
        }))
        .await;
        let page = client(api)
            .list_issues(&ListIssuesRequest::default())
            .await
            .unwrap();
        assert_eq!(
            page.issues[0].issue.as_ref().unwrap().id.as_deref(),
            Some("here")
        );
        // The body went along to the same origin.
        assert!(seen.all()[1].contains("\"limit\":100"), "{:?}", seen.all());

        let err = client(api)
            .search_issues(&SearchIssuesRequest::default())
            .await
            .unwrap_err();
        assert!(matches!(err, ApiError::Redirected { .. }), "{err:?}");
        assert!(err.to_string().contains("another origin"), "{err}");
        assert_eq!(elsewhere.count(), 0, "{:?}", elsewhere.all());
    });
}

/// A listener that counts connections and reads what comes, answering
/// nothing: a proxy that would see the request.
async fn fake_proxy() -> (SocketAddr, Seen) {
    raw_listener(b"").await
}

/// A listener that records what each connection sends first and answers
/// `reply` (raw bytes), then closes.
async fn raw_listener(reply: &'static [u8]) -> (SocketAddr, Seen) {
    use tokio::io::AsyncReadExt;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let seen = Seen::default();
    let record = seen.clone();
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let record = record.clone();
            tokio::spawn(async move {
                let mut buf = vec![0u8; 8192];
                let n = socket.read(&mut buf).await.unwrap_or(0);
                // Recorded before the reply: the client, answered, may end
                // and the test count before this task runs again.
                record
                    .0
                    .lock()
                    .unwrap()
                    .push(String::from_utf8_lossy(&buf[..n]).into_owned());
                if !reply.is_empty() {
                    use tokio::io::AsyncWriteExt;
                    let _ = socket.write_all(reply).await;
                }
            });
        }
    });
    (addr, seen)
}

#[test]
fn plain_http_never_goes_through_a_proxy_unless_allowed() {
    let rt = runtime();
    let (proxy, proxied) = rt.block_on(fake_proxy());
    let seen = Seen::default();
    let api = rt.block_on(serve(recording(seen.clone(), |_, _, _| {
        json(r#"{"issues":[{"issue":{"id":"1"}}]}"#.into())
    })));
    let with_proxy = |cmd: &mut assert_cmd::Command| {
        for var in ["http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"] {
            cmd.env(var, format!("http://{proxy}"));
        }
    };
    let mut cmd = cli(api, &["issues", "--max", "1", "--format", "ndjson"]);
    with_proxy(&mut cmd);
    let out = run(&mut cmd, "");
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(seen.count(), 1);
    assert_eq!(proxied.count(), 0, "{:?}", proxied.all());

    // --allow-http accepts clear text on the way, the proxy included.
    let mut cmd = cli(
        api,
        &[
            "issues",
            "--max",
            "1",
            "--format",
            "ndjson",
            "--allow-http",
            "--timeout",
            "2",
        ],
    );
    with_proxy(&mut cmd);
    let _ = run(&mut cmd, "");
    assert!(proxied.count() >= 1, "the opt-in uses the proxy");
}

#[test]
fn echoed_secrets_are_masked_on_stderr() {
    let rt = runtime();
    // A 401 that quotes the Authorization header back.
    let api = rt.block_on(serve(recording(Seen::default(), |_, _, _| {
        (
            StatusCode::UNAUTHORIZED,
            format!(r#"{{"error":"bad credentials: Authorization: Bearer {TOKEN}"}}"#),
        )
            .into_response()
    })));
    let out = run(&mut cli(api, &["issues", "--max", "1"]), "");
    assert_eq!(out.code, 1);
    assert!(!out.stderr.contains(TOKEN), "{}", out.stderr);
    assert!(out.stderr.contains("Bearer ***"), "{}", out.stderr);
    assert!(
        out.stderr.contains("check FINDINGS_TOKEN"),
        "{}",
        out.stderr
    );

    // A 500 whose details quote the request body, SCM token and all.
    let api = rt.block_on(serve(recording(Seen::default(), |_, _, body| {
        (
            StatusCode::INTERNAL_SERVER_ERROR,
            [(header::CONTENT_TYPE, "application/json")],
            serde_json::json!({"error": "failed", "details": body}).to_string(),
        )
            .into_response()
    })));
    let out = run(
        &mut cli(
            api,
            &["scm", "update", "c1", "--access-token-stdin", "--yes"],
        ),
        SCM_TOKEN,
    );
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("failed"), "{}", out.stderr);
    assert!(!out.stderr.contains(SCM_TOKEN), "{}", out.stderr);
    assert!(!out.stdout.contains(SCM_TOKEN), "{}", out.stdout);
}

/// The text of a snapshot file: its blocks unpacked (docs/src/snapshots.md:
/// deflate from version 3, lz4 before).
fn snapshot_text(bytes: &[u8]) -> String {
    use std::io::Read;
    let version = u16::from_be_bytes([bytes[5], bytes[6]]);
    let mut text = Vec::new();
    let mut rest = &bytes[8..];
    while rest.len() >= 4 {
        let len = u32::from_le_bytes(rest[..4].try_into().unwrap()) as usize;
        let block = &rest[4..4 + len];
        if version >= 3 {
            flate2::read::DeflateDecoder::new(&block[4..])
                .read_to_end(&mut text)
                .unwrap();
        } else {
            text.extend(lz4_flex::block::decompress_size_prepended(block).unwrap());
        }
        rest = &rest[4 + len..];
    }
    String::from_utf8(text).unwrap()
}

#[test]
fn a_snapshot_never_keeps_an_echoed_token() {
    let rt = runtime();
    // Every finding's message quotes the token it was asked with.
    let api = rt.block_on(serve(recording(Seen::default(), |_, _, _| {
        json(format!(
            r#"{{"issues":[{{"issue":{{"id":"1","ruleId":"r","severity":"SEVERITY_HIGH","message":"seen: Bearer {TOKEN}"}}}}],"cursor":""}}"#
        ))
    })));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("echo.snap");
    let out = run(
        &mut cli(api, &["snapshot", "save", "-o", file.to_str().unwrap()]),
        "",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let text = snapshot_text(&std::fs::read(&file).unwrap());
    assert!(text.contains("seen: Bearer ***"), "{text}");
    assert!(!text.contains(TOKEN), "{text}");
}

#[test]
fn a_base_url_with_a_password_is_refused_and_never_printed() {
    let out = run(
        findings()
            .args([
                "issues",
                "--base-url",
                "https://me:hunter22@findings.example.com",
            ])
            .env("FINDINGS_TOKEN", TOKEN),
        "",
    );
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains("user name or password"),
        "{}",
        out.stderr
    );
    assert!(!out.stderr.contains("hunter22"), "{}", out.stderr);
}

#[test]
fn a_page_past_what_its_weight_allows_is_refused_before_its_items_are_built() {
    let rt = runtime();
    // A million empty items: 3 MB on the wire, gigabytes if decoded.
    let page = Arc::new(format!(
        "{{\"issues\":[{}],\"cursor\":\"\"}}",
        vec!["{}"; 1_000_000].join(",")
    ));
    let api = rt.block_on(serve(recording(Seen::default(), move |_, _, _| {
        json(page.as_str().to_owned())
    })));
    let out = run(
        &mut cli(api, &["issues", "--max", "1", "--format", "table"]),
        "",
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("more items than the 16384 an answer of its size may hold"),
        "{}",
        out.stderr
    );
}

/// `limit` sets the page size and the contract promises no maximum: a
/// server answering its own page of 2 for a request of 1 is read, and
/// `--max 1` prints exactly 1.
#[test]
fn a_page_with_more_items_than_asked_is_read_and_max_holds() {
    let rt = runtime();
    let api = rt.block_on(serve(recording(Seen::default(), |_, _, _| {
        json(
            r#"{"issues":[{"issue":{"id":"1","ruleId":"r1","severity":"SEVERITY_HIGH"}},{"issue":{"id":"2","ruleId":"r2","severity":"SEVERITY_LOW"}}],"cursor":""}"#
                .to_owned(),
        )
    })));
    for format in ["ndjson", "table", "sarif"] {
        let out = run(
            &mut cli(api, &["issues", "--max", "1", "--format", format]),
            "",
        );
        assert_eq!(out.code, 0, "{format}: {}", out.stderr);
        assert!(out.stdout.contains("r1"), "{format}: {}", out.stdout);
        assert!(!out.stdout.contains("r2"), "{format}: {}", out.stdout);
    }
    let out = run(&mut cli(api, &["issues", "--format", "ndjson"]), "");
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout.lines().count(), 2, "{}", out.stdout);
}

#[test]
fn an_endless_cursor_chain_is_cut_off_with_an_error() {
    let rt = runtime();
    let served = Seen::default();
    let api = rt.block_on(serve(recording(served.clone(), |_, _, body| {
        // Always one more page, under a cursor never seen before.
        let n = body.len();
        let cursor = format!("c{n}-{}", rand_suffix(body));
        json(format!(
            r#"{{"issues":[{{"issue":{{"id":"{cursor}","ruleId":"r","severity":"SEVERITY_HIGH"}}}}],"cursor":"{cursor}"}}"#
        ))
    })));
    for format in ["sarif", "json", "ndjson"] {
        let before = served.count();
        let out = run(
            &mut cli(
                api,
                &["issues", "--all", "--max-pages", "30", "--format", format],
            ),
            "",
        );
        assert_eq!(out.code, 1, "{format}: {}", out.stderr);
        assert!(
            out.stderr.contains("passed 30 pages without ending"),
            "{format}: {}",
            out.stderr
        );
        assert_eq!(served.count() - before, 30, "{format}");
    }
}

/// A cursor that differs for every request body (the body holds the
/// previous cursor).
pub(crate) fn rand_suffix(body: &str) -> String {
    use std::hash::{BuildHasher, RandomState};
    format!("{:x}", RandomState::new().hash_one(body))
}

#[test]
fn a_retry_after_past_the_timeout_is_not_waited_for() {
    let rt = runtime();
    rt.block_on(async {
        let seen = Seen::default();
        let api = serve(recording(seen.clone(), |_, _, _| {
            (
                StatusCode::TOO_MANY_REQUESTS,
                [(header::RETRY_AFTER, "60")],
                r#"{"error":"slow down"}"#,
            )
                .into_response()
        }))
        .await;
        let err = client(api)
            .list_issues(&ListIssuesRequest::default())
            .await
            .unwrap_err();
        assert!(matches!(err, ApiError::RateLimited { .. }), "{err:?}");
        assert!(err.to_string().contains("retry after 60s"), "{err}");
        assert_eq!(seen.count(), 1, "no wait of 60 s within a 5 s timeout");
    });
}

#[test]
fn a_gateway_failure_on_a_write_leaves_the_outcome_unknown() {
    let rt = runtime();
    for status in [502, 504] {
        let seen = Seen::default();
        let api = rt.block_on(serve(recording(seen.clone(), move |_, path, _| {
            triage_read(path).unwrap_or_else(|| {
                (
                    StatusCode::from_u16(status).unwrap(),
                    "<html><title>Gateway</title></html>",
                )
                    .into_response()
            })
        })));
        let out = run(
            &mut cli(api, &["triage", "100001", "--state", "ignored", "--yes"]),
            "",
        );
        assert_eq!(out.code, 1, "{}", out.stderr);
        assert!(
            out.stderr.contains("outcome is unknown"),
            "{status}: {}",
            out.stderr
        );
        // The read of the findings' notes, then the write, once.
        assert_eq!(seen.count(), 2, "{status}: a write is never retried");
    }
}

#[test]
fn https_to_a_plain_http_port_says_so_and_is_not_retried() {
    let rt = runtime();
    let (plain, connections) = rt.block_on(raw_listener(
        b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\nconnection: close\r\n\r\n",
    ));
    let out = run(
        findings()
            .args(["issues", "--max", "1", "--timeout", "5"])
            .env("FINDINGS_BASE_URL", format!("https://{plain}"))
            .env("FINDINGS_DEPLOYMENT", "1234")
            .env("FINDINGS_TOKEN", TOKEN),
        "",
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stderr.contains("plain HTTP"), "{}", out.stderr);
    assert!(!out.stderr.contains("--deployment"), "{}", out.stderr);
    assert_eq!(
        connections.count(),
        1,
        "not retried: {:?}",
        connections.all()
    );
}

#[test]
fn a_closed_port_is_named_with_its_fix() {
    // Bound and never listening: a connection there is refused, and no
    // other test's server can be given the port while this one holds it
    // (a listener dropped would free it for the next bind to port 0).
    let socket = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).unwrap();
    socket
        .bind(&SocketAddr::from(([127, 0, 0, 1], 0)).into())
        .unwrap();
    let port = socket.local_addr().unwrap().as_socket().unwrap();
    let out = run(&mut cli(port, &["issues", "--max", "1"]), "");
    drop(socket);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("connection was refused"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("nothing listens"), "{}", out.stderr);
}

/// No escape, C1 control, other C0 control, bidi or zero-width character
/// in `text` (what a command printed from hostile server text).
pub(crate) fn assert_terminal_safe(text: &str, what: &str) {
    for c in text.chars() {
        let bad = matches!(c, '\u{0}'..='\u{8}' | '\u{b}'..='\u{c}' | '\u{e}'..='\u{1f}' | '\u{7f}'..='\u{9f}')
            || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200b}'..='\u{200f}' | '\u{2060}' | '\u{feff}' | '\u{061c}');
        assert!(
            !bad,
            "{what}: U+{:04X} reached the terminal: {text:?}",
            c as u32
        );
    }
}

/// A server whose every text is hostile: the fix, ticket and SCM answers
/// (accepted or not, one ticketing instance or several) carry escapes,
/// OSC 52 and OSC 2, a screen clear, C1, bidi and zero-width characters,
/// and a ticket link of another scheme. `case` picks the answers.
fn hostile_actions(case: &'static str) -> Router {
    use crate::terminal_safety::HOSTILE;
    recording(Seen::default(), move |method, path, _| {
        let error = || {
            (
                StatusCode::BAD_REQUEST,
                [(header::CONTENT_TYPE, "application/json")],
                serde_json::json!({ "error": HOSTILE, "code": HOSTILE }).to_string(),
            )
                .into_response()
        };
        let instance = |id: i64| {
            serde_json::json!({
                "id": id, "isConfigured": true, "instanceType": HOSTILE,
                "subdomain": HOSTILE, "projectId": HOSTILE
            })
        };
        let body = if path.ends_with("/authorized_actions") {
            return error();
        } else if path.contains("/issues/v2/") {
            serde_json::json!({
                "id": "100001", "issueType": "ISSUE_TYPE_SAST", "ruleName": HOSTILE,
                "title": HOSTILE, "message": HOSTILE
            })
        } else if path.ends_with("/fix_jobs") {
            match case {
                "refused" => serde_json::json!({
                    "success": false,
                    "errors": [{
                        "errorType": HOSTILE, "message": HOSTILE,
                        "hostAAppInfo": { "configUrl": format!("javascript:{HOSTILE}") }
                    }]
                }),
                _ => serde_json::json!({ "success": true }),
            }
        } else if path.ends_with("/ticketing/v2") {
            match case {
                "several" => serde_json::json!({ "instances": [instance(7), instance(8)] }),
                _ => serde_json::json!({ "instances": [instance(7)] }),
            }
        } else if path.contains("/ticketing/v2/") {
            serde_json::json!({
                "succeeded": [{
                    "issueIds": [100001], "ticketId": 1, "externalSlug": HOSTILE,
                    "ticketUrl": format!("javascript:alert(1)//{HOSTILE}")
                }],
                "failed": [{ "issueIds": [100002], "error": HOSTILE }],
                "skipped": [{ "issueIds": [100003], "reason": HOSTILE }]
            })
        } else if method == "PATCH" && case == "refused" {
            return error();
        } else if method == "PATCH" {
            serde_json::json!({ "config": {
                "id": "cfg1", "namespace": HOSTILE, "baseUrl": HOSTILE,
                "app": { "slug": HOSTILE, "appId": HOSTILE, "scmName": HOSTILE },
                "status": { "ok": false, "error": HOSTILE },
                "subscriptions": [{ "scmUrl": HOSTILE, "events": [HOSTILE] }]
            }})
        } else {
            return error();
        };
        json(body.to_string())
    })
}

/// Every message a write prints from server text, on its success and its
/// error paths, on stdout and stderr, is terminal-safe; a ticket link of
/// another scheme is never printed as a link to follow.
#[test]
fn server_text_printed_by_writes_is_terminal_safe() {
    let rt = runtime();
    let commands: [(&str, &[&str]); 7] = [
        ("refused", &["fix", "100001", "--yes"]),
        ("accepted", &["fix", "100001", "--yes"]),
        ("several", &["ticket", "create", "100001", "--yes"]),
        (
            "one",
            &["ticket", "create", "100001", "100002", "100003", "--yes"],
        ),
        (
            "one",
            &["ticket", "link", "https://t.example/1", "100001", "--yes"],
        ),
        (
            "accepted",
            &["scm", "update", "cfg1", "--auto-scan", "on", "--yes"],
        ),
        (
            "refused",
            &["scm", "update", "cfg1", "--auto-scan", "on", "--yes"],
        ),
    ];
    for (case, args) in commands {
        let api = rt.block_on(serve(hostile_actions(case)));
        let out = run(&mut cli(api, args), "");
        let what = format!("{case} {}", args.join(" "));
        assert_terminal_safe(&out.stdout, &format!("{what}: stdout"));
        assert_terminal_safe(&out.stderr, &format!("{what}: stderr"));
        // The hostile text is shown, made visible, where it is said.
        assert!(
            [&out.stdout, &out.stderr]
                .iter()
                .any(|o| o.contains('␛') || o.contains("\\u001b")),
            "{what}: {out:?}",
            out = (&out.stdout, &out.stderr, out.code)
        );
        assert!(
            !out.stdout.contains("javascript:") && !out.stderr.contains("javascript:"),
            "{what}: a link of another scheme was printed: {} {}",
            out.stdout,
            out.stderr
        );
    }
}

/// A server that answers reads as a plain deployment would, and every
/// write 200 with `body`: the write was taken, its answer is unreadable.
fn write_answered(body: Bytes) -> Router {
    recording(Seen::default(), move |method, path, _| {
        if let Some(read) = triage_read(path) {
            return read;
        }
        if method != "GET" {
            return ([(header::CONTENT_TYPE, "application/json")], body.clone()).into_response();
        }
        let body = if path.contains("/issues/v2/") {
            serde_json::json!({ "id": "100001", "issueType": "ISSUE_TYPE_SAST" })
        } else if path.ends_with("/ticketing/v2") {
            serde_json::json!({ "instances": [{ "id": 7, "isConfigured": true }] })
        } else {
            return (StatusCode::NOT_FOUND, "{}").into_response();
        };
        json(body.to_string())
    })
}

/// A write answered 200 with a body over the size bound, cut, or not
/// JSON was taken by the server: the outcome is unknown (probably
/// applied), as after a timeout, never a plain refusal a retry would
/// duplicate.
#[test]
fn an_unreadable_answer_to_a_write_leaves_the_outcome_unknown() {
    let rt = runtime();
    let mut oversized = b"{\"success\":true,\"pad\":\"".to_vec();
    oversized.resize(70 * 1024 * 1024, b'x');
    oversized.extend_from_slice(b"\"}");
    let bodies: [(&str, Vec<u8>); 4] = [
        ("oversized", oversized),
        ("cut", b"{\"success\":true,\"errors\":[".to_vec()),
        ("unparsable", b"{\"success\": tru}".to_vec()),
        ("not JSON", b"Thanks!".to_vec()),
    ];
    let writes: [&[&str]; 4] = [
        &["fix", "100001", "--yes"],
        &["ticket", "create", "100001", "--yes"],
        &["triage", "100001", "--state", "ignored", "--yes"],
        &["scm", "update", "cfg1", "--auto-scan", "on", "--yes"],
    ];
    for (kind, body) in bodies {
        let api = rt.block_on(serve(write_answered(Bytes::from(body))));
        for args in writes {
            let out = run(&mut cli(api, args), "");
            let what = format!("{kind}: {}", args.join(" "));
            assert_eq!(out.code, 1, "{what}: {}", out.stderr);
            assert!(
                out.stderr.contains("outcome is unknown")
                    && out.stderr.contains("probably applied"),
                "{what}: {}",
                out.stderr
            );
        }
    }
}

/// What is in `dir`: the names, sorted.
fn names_in(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A server whose one finding's message is a string of 200,000 nested
/// arrays, for `fromjson`.
fn deep_server(rt: &tokio::runtime::Runtime) -> SocketAddr {
    let deep = "[".repeat(200_000) + &"]".repeat(200_000);
    let page = Arc::new(format!(
        r#"{{"issues":[{{"issue":{{"id":"77","ruleId":"r","message":"{deep}"}}}}],"cursor":""}}"#
    ));
    rt.block_on(serve(recording(Seen::default(), move |_, _, _| {
        json(page.as_str().to_owned())
    })))
}

#[test]
fn a_deep_value_or_recursion_in_jq_is_an_error_never_an_abort() {
    let rt = runtime();
    let api = deep_server(&rt);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("out.ndjson");
    let out_file = file.to_str().unwrap();
    for (expr, said) in [
        (".message | fromjson", "deeper than 10000"),
        ("def f: f; f", "recursion too deep"),
        ("def f: 1 + f; f", "recursion too deep"),
    ] {
        let out = run(
            &mut cli(api, &["issues", "--max", "1", "--jq", expr, "-o", out_file]),
            "",
        );
        assert_eq!(out.code, 1, "{expr}: {}", out.stderr);
        assert!(
            out.stderr.contains(said) && out.stderr.contains("(on finding 77)"),
            "{expr}: {}",
            out.stderr
        );
        assert_eq!(names_in(dir.path()), Vec::<String>::new(), "{expr}");
    }
    // Inside try, the error is caught as any other.
    let out = run(
        &mut cli(
            api,
            &[
                "issues",
                "--max",
                "1",
                "--jq",
                r#"try (.message | fromjson) catch "deep""#,
            ],
        ),
        "",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout, "deep\n");
}

#[test]
fn ctrl_c_stops_a_jq_expression_and_leaves_no_temporary_file() {
    let rt = runtime();
    let api = deep_server(&rt);
    // Endless: one giving results forever, one giving none after the
    // first (large enough to reach the file, so it is seen running).
    for expr in [
        "repeat(1)",
        "([range(20000)] | tostring), last(range(1e18))",
    ] {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("out.ndjson");
        let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("findings"))
            .args(["issues", "--max", "1", "--jq", expr, "-o"])
            .arg(&file)
            .env_remove("FINDINGS_PROFILE")
            .env("XDG_CONFIG_HOME", crate::common::empty_config_home())
            .env("FINDINGS_BASE_URL", format!("http://{api}"))
            .env("FINDINGS_DEPLOYMENT", "1234")
            .env("FINDINGS_TOKEN", TOKEN)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Waits until the expression's results reach the temporary file.
        let running =
            crate::common::wait::until_a_file_has_content(dir.path(), Duration::from_secs(60));
        assert!(running, "{expr}: nothing written");
        let kill = std::process::Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .unwrap();
        assert!(kill.success());
        // Waits for the end, a while at most (before, it never came).
        let (status, stderr) = crate::common::wait::child_ends(child, Duration::from_secs(60));
        let status = status.unwrap_or_else(|| panic!("{expr}: Ctrl-C did not stop it"));
        assert_eq!(status.code(), Some(130), "{expr}: {stderr}");
        assert!(stderr.contains("not written"), "{expr}: {stderr}");
        assert_eq!(names_in(dir.path()), Vec::<String>::new(), "{expr}");
    }
}
