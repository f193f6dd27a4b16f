//! A harness that drives the real TUI app (`App::update`), backed by the real
//! API worker and an embedded demo server, and draws into a `TestBackend`.

#![allow(dead_code)]

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use findings_tui::api::{Client, ClientConfig, Token};
use findings_tui::demo::{DemoOptions, DemoServer};
use findings_tui::tui::app::{App, Effect, Msg, Session};
use findings_tui::tui::keymap::Keymap;
use findings_tui::tui::message::Reply;
use findings_tui::tui::runtime::worker::{self, WorkerCommand};
use findings_tui::tui::theme::Theme;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::time::Duration;
use tokio::sync::mpsc;

pub mod pty;

/// The fixed "now" of test data, so screens are the same every day.
pub fn anchor() -> chrono::DateTime<chrono::Utc> {
    chrono::DateTime::parse_from_rfc3339("2026-11-01T00:00:00Z")
        .unwrap()
        .to_utc()
}

pub async fn demo(findings: usize) -> DemoServer {
    DemoServer::start_local(DemoOptions {
        findings,
        anchor: Some(anchor()),
        ..Default::default()
    })
    .await
    .expect("demo server starts")
}

pub fn client_for(server: &DemoServer) -> Client {
    Client::new(ClientConfig::new(
        server.url(),
        server.deployment(),
        Token::new(server.token()),
    ))
    .unwrap()
}

pub struct Harness {
    pub app: App,
    pub terminal: Terminal<TestBackend>,
    worker: mpsc::UnboundedSender<WorkerCommand>,
    replies: mpsc::UnboundedReceiver<Reply>,
    /// URLs opened and texts copied, in order.
    pub opened: Vec<String>,
    pub copied: Vec<String>,
    /// Exports asked for (path as typed, format, rows); each is written
    /// at once, as the event loop does, and its outcome fed back.
    pub exported: Vec<(std::path::PathBuf, findings_tui::export::Format, usize)>,
    pub sent: usize,
    /// Replies received, and requests cancelled (which get none).
    pub replied: usize,
    pub cancelled: usize,
    _server: Option<DemoServer>,
}

impl Harness {
    pub async fn new(findings: usize, width: u16, height: u16) -> Harness {
        let server = demo(findings).await;
        let client = client_for(&server);
        let mut h = Harness::with_client(client, width, height, true);
        h._server = Some(server);
        h
    }

    pub fn with_client(client: Client, width: u16, height: u16, demo: bool) -> Harness {
        let (tx, rx) = worker::spawn(client.clone());
        let session = Session {
            deployment: client.deployment().to_owned(),
            base_url: client.base_url().to_owned(),
            demo,
            read_only: false,
            ..Default::default()
        };
        let app = App::new(
            session,
            Keymap::default_keymap(),
            Theme::no_color(),
            (width, height),
        );
        Harness {
            app,
            terminal: Terminal::new(TestBackend::new(width, height)).unwrap(),
            worker: tx,
            replies: rx,
            opened: vec![],
            copied: vec![],
            exported: vec![],
            sent: 0,
            replied: 0,
            cancelled: 0,
            _server: None,
        }
    }

    /// A harness on its own demo server whose client gives up after
    /// `timeout` and retries at once (fault tests: quick, and the server's
    /// `set_faults` at hand through [`Harness::server`]).
    pub async fn quick(findings: usize, width: u16, height: u16, timeout: Duration) -> Harness {
        let server = demo(findings).await;
        let mut cfg = ClientConfig::new(
            server.url(),
            server.deployment(),
            Token::new(server.token()),
        );
        cfg.request_timeout = timeout;
        cfg.retry = findings_tui::api::RetryPolicy {
            max_attempts: 4,
            base_delay: Duration::from_millis(5),
            max_delay: Duration::from_millis(20),
        };
        let mut h = Harness::with_client(Client::new(cfg).unwrap(), width, height, true);
        h._server = Some(server);
        h
    }

    /// The demo server behind the harness, when it has one.
    pub fn server(&self) -> &DemoServer {
        self._server
            .as_ref()
            .expect("a harness with its own server")
    }

    /// Starts the app (first page requested) without waiting for it.
    pub fn begin(&mut self) {
        let effects = self.app.start();
        self.perform(effects);
    }

    /// Applies the replies that arrive within `wait`, as the event loop
    /// would between keys; returns how many arrived.
    pub async fn pump_for(&mut self, wait: Duration) -> usize {
        let deadline = tokio::time::Instant::now() + wait;
        let mut n = 0;
        while let Ok(Some(reply)) = tokio::time::timeout_at(deadline, self.replies.recv()).await {
            self.update(Msg::Reply(reply));
            n += 1;
        }
        n
    }

    /// Starts the app (first page requested) and waits for it.
    pub async fn start(&mut self) {
        let effects = self.app.start();
        self.perform(effects);
        self.settle().await;
    }

    fn perform(&mut self, effects: Vec<Effect>) {
        for e in effects {
            match e {
                Effect::Send { id, request } => {
                    self.sent += 1;
                    self.worker
                        .send(WorkerCommand::Send { id, request })
                        .unwrap();
                }
                Effect::Cancel(id) => {
                    self.cancelled += 1;
                    self.worker.send(WorkerCommand::Cancel { id }).unwrap();
                }
                Effect::OpenUrl(u) => self.opened.push(u.to_string()),
                Effect::Copy(t) => self.copied.push(t.to_string()),
                Effect::Suspend | Effect::Quit => {}
                Effect::Export {
                    path,
                    format,
                    items,
                } => {
                    self.exported.push((path.clone(), format, items.len()));
                    let done = findings_tui::tui::runtime::save::export(&path, format, &items);
                    self.update(done);
                }
                Effect::SaveView {
                    pane,
                    path,
                    profile,
                    view,
                } => {
                    let done = findings_tui::tui::runtime::save::save_view(
                        pane,
                        &path,
                        profile.as_deref(),
                        view,
                    );
                    self.update(done);
                }
            }
        }
    }

    pub fn update(&mut self, msg: Msg) {
        if matches!(msg, Msg::Reply(_)) {
            self.replied += 1;
        }
        let effects = self.app.update(msg);
        self.perform(effects);
    }

    pub fn key(&mut self, code: KeyCode) {
        self.update(Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)));
    }

    pub fn ctrl(&mut self, c: char) {
        self.update(Msg::Key(KeyEvent::new(
            KeyCode::Char(c),
            KeyModifiers::CONTROL,
        )));
    }

    /// Types each character (capitals with SHIFT, as terminals send them).
    pub fn keys(&mut self, text: &str) {
        for c in text.chars() {
            let mods = if c.is_ascii_uppercase() {
                KeyModifiers::SHIFT
            } else {
                KeyModifiers::NONE
            };
            self.update(Msg::Key(KeyEvent::new(KeyCode::Char(c), mods)));
        }
    }

    /// Applies replies until nothing is loading (or 20 s pass).
    pub async fn settle(&mut self) {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        while self.app.is_loading() {
            let reply = tokio::time::timeout_at(deadline, self.replies.recv())
                .await
                .expect("the app settles within 20 s")
                .expect("the worker is alive");
            self.update(Msg::Reply(reply));
        }
    }

    /// Applies replies until `done` holds of the app, within 20 s; panics
    /// saying `what` did not happen otherwise.
    pub async fn until(&mut self, what: &str, done: impl Fn(&App) -> bool) {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        while !done(&self.app) {
            let reply = tokio::time::timeout_at(deadline, self.replies.recv())
                .await
                .unwrap_or_else(|_| panic!("{what} within 20 s"))
                .expect("the worker is alive");
            self.update(Msg::Reply(reply));
        }
    }

    /// [`Harness::settle`], and then until every request sent has had its
    /// reply (the background ones too, such as the filter values), so a
    /// server's request count is final.
    pub async fn quiesce(&mut self) {
        self.settle().await;
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        while self.replied + self.cancelled < self.sent {
            let reply = tokio::time::timeout_at(deadline, self.replies.recv())
                .await
                .expect("every request is answered within 20 s")
                .expect("the worker is alive");
            self.update(Msg::Reply(reply));
        }
    }

    /// The screen as text, one line per row.
    pub fn screen(&mut self) -> String {
        let app = &self.app;
        self.terminal
            .draw(|f| findings_tui::tui::app::view::draw(f, app))
            .unwrap();
        let buf = self.terminal.backend().buffer();
        let mut out = String::new();
        for y in 0..buf.area.height {
            let mut line = String::new();
            for x in 0..buf.area.width {
                line.push_str(buf[(x, y)].symbol());
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }
}

/// The `findings` binary with no connection settings from the environment,
/// and not the config file of whoever runs the tests.
pub fn findings() -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("findings").expect("binary built");
    for var in [
        "FINDINGS_BASE_URL",
        "FINDINGS_DEPLOYMENT",
        "FINDINGS_TOKEN",
        "FINDINGS_CONFIG",
        "FINDINGS_PROFILE",
        "FINDINGS_LOG",
    ] {
        cmd.env_remove(var);
    }
    cmd.env("FINDINGS_CONFIG", "/nonexistent/findings-tests/config.toml");
    // The names a listing keeps for completion go to a test's folder, not
    // the user's state folder.
    cmd.env(
        "XDG_STATE_HOME",
        std::env::temp_dir().join("findings-tests-state"),
    );
    cmd
}

/// A server that keeps the body of every List issues request and answers
/// an empty page: what the client sends, as sent. It runs on a runtime of
/// its own, so both the binary and in-process clients can reach it.
pub struct Recorder {
    pub url: String,
    bodies: std::sync::Arc<std::sync::Mutex<Vec<serde_json::Value>>>,
    runtime: Option<tokio::runtime::Runtime>,
}

impl Drop for Recorder {
    fn drop(&mut self) {
        // Without blocking: it may end inside an async test.
        if let Some(r) = self.runtime.take() {
            r.shutdown_background();
        }
    }
}

impl Recorder {
    pub fn start() -> Recorder {
        use axum::routing::post;
        let bodies = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let kept = bodies.clone();
        let router = axum::Router::new().route(
            "/api/agent/deployments/{d}/issues",
            post(move |body: String| {
                let kept = kept.clone();
                async move {
                    let json = serde_json::from_str(&body).unwrap_or(serde_json::Value::Null);
                    kept.lock().unwrap().push(json);
                    (
                        [(axum::http::header::CONTENT_TYPE, "application/json")],
                        r#"{"issues":[]}"#,
                    )
                }
            }),
        );
        // Bound here, served there: no blocking on the runtime, so it can
        // be started from an async test too.
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        runtime.spawn(async move {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            axum::serve(listener, router).await
        });
        Recorder {
            url,
            bodies,
            runtime: Some(runtime),
        }
    }

    pub fn client(&self) -> Client {
        Client::new(ClientConfig::new(self.url.clone(), "1234", Token::new("t"))).unwrap()
    }

    /// The List issues bodies received so far.
    pub fn bodies(&self) -> Vec<serde_json::Value> {
        self.bodies.lock().unwrap().clone()
    }
}

/// How many findings of a demo data set of `findings` a List issues
/// listing gives when it does not ask for archived projects (it never
/// includes theirs).
pub fn listed(findings: usize) -> usize {
    let state = findings_tui::demo::DemoState::new(&DemoOptions {
        findings,
        ..Default::default()
    });
    let ds = &state.dataset;
    ds.rows
        .iter()
        .filter(|r| !ds.catalog.repositories[r.repo as usize].archived)
        .count()
}

/// A plain HTTP client, for requests made as any client would make them.
pub fn http() -> reqwest::Client {
    findings_tui::api::install_crypto_provider();
    reqwest::Client::new()
}
