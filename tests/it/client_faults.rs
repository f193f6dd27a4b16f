//! The client against small misbehaving servers: retries only where
//! docs/src/api.md §13 allows, Retry-After honoured, the PATCH never retried, and
//! a cursor loop stopped.

use axum::Router;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::{patch, post};
use findings_client::{ApiError, Client, ClientConfig, RetryPolicy, Token, pages};
use findings_model::*;
use futures_util::StreamExt;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Serves `router` on a free loopback port; returns a client for it.
async fn serve(router: Router) -> Client {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await });
    let mut cfg = ClientConfig::new(format!("http://{addr}"), "1234", Token::new("t"));
    cfg.retry = RetryPolicy {
        max_attempts: 4,
        base_delay: Duration::from_millis(10),
        max_delay: Duration::from_millis(50),
    };
    cfg.request_timeout = Duration::from_secs(2);
    Client::new(cfg).unwrap()
}

fn json(body: &str) -> impl IntoResponse + use<> {
    let mut h = HeaderMap::new();
    h.insert(header::CONTENT_TYPE, "application/json".parse().unwrap());
    (StatusCode::OK, h, body.to_owned())
}

/// A handler that fails with `status` for the first `failures` calls.
fn flaky(status: StatusCode, failures: usize, hits: Arc<AtomicUsize>) -> Router {
    Router::new().route(
        "/api/agent/deployments/{d}/issues",
        post(move || {
            let hits = hits.clone();
            async move {
                let n = hits.fetch_add(1, Ordering::SeqCst);
                if n < failures {
                    (
                        status,
                        [(header::RETRY_AFTER, "1")],
                        r#"{"error":"busy"}"#.to_owned(),
                    )
                        .into_response()
                } else {
                    json(r#"{"issues":[{"issue":{"id":"1"}}]}"#).into_response()
                }
            }
        }),
    )
}

#[tokio::test]
async fn reads_are_retried_on_503_and_succeed() {
    let hits = Arc::new(AtomicUsize::new(0));
    let client = serve(flaky(StatusCode::SERVICE_UNAVAILABLE, 2, hits.clone())).await;
    let page = client
        .list_issues(&ListIssuesRequest::default())
        .await
        .unwrap();
    assert_eq!(page.issues.len(), 1);
    assert_eq!(hits.load(Ordering::SeqCst), 3);
}

#[tokio::test]
async fn retries_stop_after_four_attempts() {
    let hits = Arc::new(AtomicUsize::new(0));
    let client = serve(flaky(StatusCode::BAD_GATEWAY, 100, hits.clone())).await;
    let err = client
        .list_issues(&ListIssuesRequest::default())
        .await
        .unwrap_err();
    assert!(
        matches!(err, ApiError::Server(ref m) if m.status == 502),
        "{err:?}"
    );
    assert_eq!(hits.load(Ordering::SeqCst), 4);
}

#[tokio::test]
async fn a_500_and_a_400_are_not_retried() {
    for status in [StatusCode::INTERNAL_SERVER_ERROR, StatusCode::BAD_REQUEST] {
        let hits = Arc::new(AtomicUsize::new(0));
        let client = serve(flaky(status, 100, hits.clone())).await;
        assert!(
            client
                .list_issues(&ListIssuesRequest::default())
                .await
                .is_err()
        );
        assert_eq!(hits.load(Ordering::SeqCst), 1, "{status}");
    }
}

#[tokio::test]
async fn rate_limits_honour_retry_after() {
    let hits = Arc::new(AtomicUsize::new(0));
    let client = serve(flaky(StatusCode::TOO_MANY_REQUESTS, 1, hits.clone())).await;
    let started = Instant::now();
    client
        .list_issues(&ListIssuesRequest::default())
        .await
        .unwrap();
    assert!(
        started.elapsed() >= Duration::from_millis(950),
        "waited {:?}",
        started.elapsed()
    );
    assert_eq!(hits.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn the_scm_patch_is_never_retried() {
    let hits = Arc::new(AtomicUsize::new(0));
    let h = hits.clone();
    let router = Router::new().route(
        "/api/scm/deployments/{d}/configs/{c}",
        patch(move || {
            let h = h.clone();
            async move {
                h.fetch_add(1, Ordering::SeqCst);
                (StatusCode::SERVICE_UNAVAILABLE, r#"{"error":"down"}"#)
            }
        }),
    );
    let client = serve(router).await;
    let patch = ScmConfigPatch {
        auto_scan: Some(true),
        ..Default::default()
    };
    let err = client.update_scm_config("1001", &patch).await.unwrap_err();
    assert_eq!(err.status(), Some(503));
    assert_eq!(hits.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_server_that_repeats_a_cursor_is_stopped() {
    let router = Router::new().route(
        "/api/agent/deployments/{d}/issues",
        post(|| async { json(r#"{"issues":[{"issue":{"id":"1"}}],"cursor":"same"}"#) }),
    );
    let client = serve(router).await;
    let results: Vec<_> = pages(client, ListIssuesRequest::default()).collect().await;
    assert_eq!(results.len(), 3, "two pages, then the loop error");
    assert!(results[0].is_ok() && results[1].is_ok());
    assert!(matches!(results[2], Err(ApiError::CursorLoop { .. })));
}

#[tokio::test]
async fn a_server_that_never_answers_times_out() {
    let router = Router::new().route(
        "/api/agent/deployments/{d}/issues",
        // Never answers.
        post(std::future::pending::<&str>),
    );
    let client = serve(router).await;
    let started = Instant::now();
    let err = client
        .list_issues(&ListIssuesRequest::default())
        .await
        .unwrap_err();
    assert!(matches!(err, ApiError::Timeout(_)), "{err:?}");
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[tokio::test]
async fn html_and_wrong_shapes_are_clear_errors() {
    let router = Router::new()
        .route(
            "/api/agent/deployments/{d}/issues",
            post(|| async {
                (
                    [(header::CONTENT_TYPE, "text/html")],
                    "<html><body>Bad gateway</body></html>",
                )
            }),
        )
        .route(
            "/api/issues/{d}/search",
            post(|| async { json(r#"{"issues":[{"id":"a","actions":"not-a-list"}]}"#) }),
        );
    let client = serve(router).await;
    let err = client
        .list_issues(&ListIssuesRequest::default())
        .await
        .unwrap_err();
    assert!(matches!(err, ApiError::NotJson { .. }), "{err:?}");
    let err = client
        .search_issues(&SearchIssuesRequest::default())
        .await
        .unwrap_err();
    match err {
        ApiError::Decode { path, .. } => assert_eq!(path, "issues[0].actions"),
        other => panic!("{other:?}"),
    }
}
