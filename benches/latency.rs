//! Loading every finding in the TUI behind a slow link, against `curl
//! --next` fetching the same pages over one connection (issue 28: within
//! 1.2x). Target, per page: one round trip, as curl pays.
//!
//! The latency is injected by a delay line on loopback started here: a
//! TCP proxy that holds every chunk read from either side for half the
//! round trip (LATENCY_MS / 2) before passing it on, in order, without
//! limiting the throughput. Both the TUI and curl go through it to the
//! embedded demo server. Nothing of the machine's network is changed.
//!
//! The TUI runs as for a user but for the terminal (the app, the API
//! worker over HTTP, `G`), as in `benches/load_all.rs`. curl gets every
//! page's request in one config, joined by `next` (the cursors read
//! beforehand, directly from the server: `support/curl.rs`), so it reuses
//! its connection and pays one round trip a page.
//!
//! Run: `cargo bench --bench latency` (FINDINGS, default 100,000;
//! LATENCY_MS, default 150; RUNS, default 3: min / median / max).

// Measuring and test code, not shipped: its casts turn a test's small
// counts and sizes into figures (issue 52 holds for the product's crates).
#![allow(
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss,
    clippy::cast_precision_loss
)]

#[path = "support/curl.rs"]
mod curl;
#[path = "support/figures.rs"]
mod figures;
#[path = "support/tui_load.rs"]
mod tui_load;

use figures::{median, spread};
use findings_demo::{DemoOptions, DemoServer};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[tokio::main(flavor = "multi_thread")]
async fn main() {
    if std::env::args().any(|a| a == "--list") {
        println!("latency: bench");
        return;
    }
    let n = env_or("FINDINGS", 100_000) as usize;
    let latency = Duration::from_millis(env_or("LATENCY_MS", 150));
    let runs = env_or("RUNS", 3).max(1);
    findings_client::install_crypto_provider();
    let server = DemoServer::start_local(DemoOptions {
        findings: n,
        ..Default::default()
    })
    .await
    .expect("the demo server starts");
    let upstream = server
        .url()
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_owned();
    let proxy = delay_line(upstream, latency / 2).await;
    let endpoint = |base: &str| {
        format!(
            "{base}/api/agent/deployments/{}/issues",
            server.deployment()
        )
    };
    let bodies = curl::page_bodies(&endpoint(&server.url()), server.token()).await;
    let config = std::env::temp_dir().join(format!(
        "findings-bench-{}-latency.curl",
        std::process::id()
    ));
    std::fs::write(
        &config,
        curl::curl_config(&endpoint(&proxy), server.token(), &bodies),
    )
    .expect("curl's config written");
    println!(
        "latency: {} pages of 1,000 of a demo set of {n}, {} ms round trip (a delay line on loopback)",
        bodies.len(),
        latency.as_millis()
    );
    let (mut tui, mut curl) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        // In turns, so both see the same machine.
        // On a thread for blocking work: the delay line runs on this runtime.
        let config = config.clone();
        let seconds = tokio::task::spawn_blocking(move || curl::curl_pages(&config));
        curl.push(seconds.await.expect("curl's thread"));
        tui.push(
            tui_load::load_everything(&proxy, server.deployment(), server.token())
                .await
                .seconds,
        );
    }
    println!(
        "  curl --next, every page on one connection   {} s (min / median / max)",
        spread(&mut curl, 2)
    );
    println!(
        "  TUI, G to the end (streamed, pages of 1,000) {} s (min / median / max)",
        spread(&mut tui, 2)
    );
    let ratio = median(&tui) / median(&curl);
    println!(
        "  ratio TUI / curl (medians) {ratio:.2} (target <= 1.2): {}",
        if ratio <= 1.2 {
            "holds"
        } else {
            "DOES NOT HOLD"
        }
    );
    let _ = std::fs::remove_file(&config);
}

/// A proxy on a free loopback port that delays every chunk by `one_way`
/// in each direction; its base URL.
async fn delay_line(upstream: String, one_way: Duration) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let url = format!("http://{}", listener.local_addr().expect("an address"));
    tokio::spawn(async move {
        while let Ok((inbound, _)) = listener.accept().await {
            let upstream = upstream.clone();
            tokio::spawn(async move {
                let Ok(outbound) = TcpStream::connect(&upstream).await else {
                    return;
                };
                let _ = inbound.set_nodelay(true);
                let _ = outbound.set_nodelay(true);
                let (ri, wi) = inbound.into_split();
                let (ro, wo) = outbound.into_split();
                tokio::join!(delayed(ri, wo, one_way), delayed(ro, wi, one_way));
            });
        }
    });
    url
}

/// Copies `from` to `to`, each chunk written `by` after it was read.
async fn delayed(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    by: Duration,
) {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<(tokio::time::Instant, Vec<u8>)>();
    let writer = tokio::spawn(async move {
        while let Some((due, chunk)) = rx.recv().await {
            tokio::time::sleep_until(due).await;
            if to.write_all(&chunk).await.is_err() {
                return;
            }
        }
        let _ = to.shutdown().await;
    });
    let mut buf = vec![0u8; 256 * 1024];
    loop {
        match from.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(k) => {
                let due = tokio::time::Instant::now() + by;
                if tx.send((due, buf[..k].to_vec())).is_err() {
                    break;
                }
            }
        }
    }
    drop(tx);
    let _ = writer.await;
}
