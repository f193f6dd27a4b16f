//! Loading every finding in the TUI (`G`: one stream of the largest pages,
//! the next asked for while the last is packed) against the headless
//! export of the same set (`findings issues --all --format ndjson --limit
//! 1000`), side by side against one demo server. Target (issue 28): the
//! TUI within 1.2x of the export.
//!
//! The TUI runs as it does for a user but for the terminal: the app, the
//! API worker over real HTTP, every reply handed to `update`. Run, after
//! `cargo build --release`: `cargo bench --bench load_all` (FINDINGS=n,
//! default 1,000,000; FINDINGS_BIN, default target/release/findings).

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use findings_tui::api::{Client, ClientConfig, Token};
use findings_tui::demo::{DemoOptions, DemoServer};
use findings_tui::tui::app::{App, Effect, Msg, Session};
use findings_tui::tui::keymap::Keymap;
use findings_tui::tui::runtime::worker::{self, WorkerCommand};
use findings_tui::tui::theme::Theme;
use std::time::Instant;

#[tokio::main(flavor = "multi_thread")]
async fn main() {
    if std::env::args().any(|a| a == "--list") {
        println!("load_all: bench");
        return;
    }
    let n: usize = std::env::var("FINDINGS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000);
    findings_tui::api::install_crypto_provider();
    let server = DemoServer::start_local(DemoOptions {
        findings: n,
        ..Default::default()
    })
    .await
    .expect("the demo server starts");

    let bin = std::env::var("FINDINGS_BIN").unwrap_or_else(|_| "target/release/findings".into());
    let (url, deployment, token) = (
        server.url(),
        server.deployment().to_owned(),
        server.token().to_owned(),
    );
    let started = Instant::now();
    let status = tokio::task::spawn_blocking(move || {
        std::process::Command::new(bin)
            .args(["issues", "--all", "--format", "ndjson", "--limit", "1000"])
            .env("FINDINGS_BASE_URL", url)
            .env("FINDINGS_DEPLOYMENT", deployment)
            .env("FINDINGS_TOKEN", token)
            .stdout(std::process::Stdio::null())
            .status()
    })
    .await
    .expect("the export runs")
    .expect("the findings binary (cargo build --release)");
    assert!(status.success(), "the export failed");
    let headless = started.elapsed().as_secs_f64();

    let client = Client::new(ClientConfig::new(
        server.url(),
        server.deployment(),
        Token::new(server.token()),
    ))
    .expect("a client");
    let (commands, mut replies) = worker::spawn(client);
    let send = |effects: Vec<Effect>| {
        for effect in effects {
            let command = match effect {
                Effect::Send { id, request } => WorkerCommand::Send { id, request },
                Effect::Cancel(id) => WorkerCommand::Cancel { id },
                _ => continue,
            };
            commands.send(command).expect("the worker runs");
        }
    };
    let mut app = App::new(
        Session::default(),
        Keymap::default_keymap(),
        Theme::default(),
        (200, 60),
    );
    let started = Instant::now();
    send(app.start());
    send(app.update(Msg::Key(KeyEvent::new(
        KeyCode::Char('G'),
        KeyModifiers::SHIFT,
    ))));
    while !app.issues().list.complete {
        let reply = replies.recv().await.expect("a reply");
        send(app.update(Msg::Reply(reply)));
    }
    let tui = started.elapsed().as_secs_f64();
    let loaded = app.issues().list.items.len();
    println!("load_all: {loaded} findings of a demo set of {n}");
    println!("  headless export (issues --all --format ndjson --limit 1000)  {headless:7.2} s");
    println!("  TUI, G to the end (streamed, pages of 1,000)               {tui:7.2} s");
    println!(
        "  ratio TUI / export {:.2} (target <= 1.2): {}",
        tui / headless,
        if tui <= headless * 1.2 {
            "holds"
        } else {
            "DOES NOT HOLD"
        }
    );
}
