//! A harness that runs the real event loop (`tui::runtime::runner`, the
//! turn `tui::run` repeats) with scripted keys, a recording platform and a
//! virtual clock that the test moves, against the real API worker and an
//! embedded demo server, drawing into a `TestBackend`. Waits are for a
//! condition, with a deadline; never for a length of time.

#![allow(dead_code)]

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use findings_base::handoff::{ClipboardText, SafeUrl};
use findings_client::{Client, ClientConfig, Token};
use findings_demo::{DemoOptions, DemoServer};
use findings_export::Format;
use findings_tui::Platform;
use findings_tui::app::{App, Msg, Session};
use findings_tui::keymap::Keymap;
use findings_tui::message::ExportItems;
use findings_tui::runtime::clock::Clock;
use findings_tui::runtime::runner::{Runner, Turn};
use findings_tui::runtime::{save, worker};
use findings_tui::theme::Theme;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::path::PathBuf;
use std::time::Duration;
use tokio::sync::mpsc;

pub mod pty;
pub mod wait;

/// How long a wait for a condition may take before the test fails: far
/// more than any takes, so only a real hang reaches it.
const DEADLINE: Duration = Duration::from_secs(20);

/// The fixed "now" of test data, so screens are the same every day.
/// What no screen may show at any size: a title or a label run into a
/// box's corner (`…title┐`, `┌text`), text drawn over a border's line.
/// Panics naming the line.
pub fn drawn_whole(screen: &str) {
    // What may touch a corner: lines, corners, blank (big digits use the
    // short pieces).
    let border = |c: char| " ─│┬┴┼├┤┌┐└┘╶╴╷╵═".contains(c);
    for (n, line) in screen.lines().enumerate() {
        let chars: Vec<char> = line.chars().collect();
        for (k, &c) in chars.iter().enumerate() {
            let before = k.checked_sub(1).map(|b| chars[b]);
            let after = chars.get(k + 1).copied();
            let touched = match c {
                '┐' | '┘' => before.filter(|&b| !border(b)),
                '┌' | '└' => after.filter(|&a| !border(a)),
                _ => None,
            };
            if let Some(t) = touched {
                panic!("line {n}: {t:?} runs into the corner {c:?}:\n{line}\n\n{screen}");
            }
        }
    }
}

/// One CSV line read as RFC 4180 says (the writer's lines are one each).
pub fn csv_cells(line: &str) -> Vec<String> {
    let mut cells = Vec::new();
    let mut cell = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                chars.next();
                cell.push('"');
            }
            '"' if quoted => quoted = false,
            '"' if cell.is_empty() => quoted = true,
            ',' if !quoted => cells.push(std::mem::take(&mut cell)),
            c => cell.push(c),
        }
    }
    cells.push(cell);
    cells
}

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

/// The platform of the tests: what the loop asked of the browser, the
/// clipboard and the terminal, kept; exports written as the real loop
/// writes them (off the loop, answered through its channel).
#[derive(Default)]
pub struct Recording {
    opened: Vec<String>,
    copied: Vec<String>,
    exported: Vec<(PathBuf, Format, usize)>,
    suspended: usize,
}

impl Platform<TestBackend> for Recording {
    fn open_url(&mut self, url: &SafeUrl, _done: &mpsc::UnboundedSender<Msg>) {
        // Never answered: a test says how the opener did (`Msg::Opened`).
        self.opened.push(url.to_string());
    }
    fn copy(&mut self, text: &ClipboardText) {
        self.copied.push(text.to_string());
    }
    fn suspend(&mut self, _terminal: &mut Terminal<TestBackend>) -> std::io::Result<()> {
        self.suspended += 1;
        Ok(())
    }
    fn export(
        &mut self,
        path: PathBuf,
        how: (Format, findings_export::Chosen),
        items: ExportItems,
        done: &mpsc::UnboundedSender<Msg>,
    ) {
        self.exported.push((path.clone(), how.0, items.len()));
        save::export_off_loop(path, how, items, done);
    }
}

pub struct Harness {
    pub app: App,
    pub terminal: Terminal<TestBackend>,
    runner: Runner<Recording>,
    /// The loop's input: what the test types.
    input: mpsc::UnboundedSender<std::io::Result<Event>>,
    /// URLs opened and texts copied, in order.
    pub opened: Vec<String>,
    pub copied: Vec<String>,
    /// Exports asked for (path as typed, format, rows), in order.
    pub exported: Vec<(PathBuf, Format, usize)>,
    /// Requests handed to the worker, replies handed to the app, and
    /// requests cancelled (which get none).
    pub sent: usize,
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

    /// [`Harness::new`] with the app's clock at the data's fixed "now"
    /// ([`anchor`]) too: screens whose periods count back from now (the
    /// dashboard's reports) are the same every day.
    pub async fn anchored(findings: usize, width: u16, height: u16) -> Harness {
        let server = demo(findings).await;
        let client = client_for(&server);
        let mut h = Harness::with_client_at(client, width, height, true, anchor());
        h._server = Some(server);
        h
    }

    pub fn with_client(client: Client, width: u16, height: u16, demo: bool) -> Harness {
        // The virtual clock starts at today's time, as the app's own does.
        Harness::with_client_at(client, width, height, demo, chrono::Utc::now())
    }

    /// A harness on `server`, its clock at [`anchor`], that keeps what
    /// the app keeps between runs (the last visits) in `state` under
    /// profile key `profile`, as a real run does in the state folder.
    pub fn remembering(
        server: DemoServer,
        state: &std::path::Path,
        profile: &str,
        (width, height): (u16, u16),
    ) -> Harness {
        let client = client_for(&server);
        let session = Session {
            remember_in: Some((state.to_path_buf(), profile.to_owned())),
            ..Harness::session(&client, true)
        };
        let mut h = Harness::with_session_at(client, session, width, height, anchor());
        h._server = Some(server);
        h
    }

    fn session(client: &Client, demo: bool) -> Session {
        Session {
            deployment: client.deployment().to_owned(),
            base_url: client.base_url().to_owned(),
            demo,
            read_only: false,
            ..Default::default()
        }
    }

    /// The app on a snapshot, offline, as `findings --snapshot FILE`
    /// opens it (its in-process server kept by the harness); the clock at
    /// [`anchor`].
    pub async fn offline(path: &std::path::Path, width: u16, height: u16) -> Harness {
        let opened = findings_cli::open_snapshot(path)
            .await
            .unwrap_or_else(|e| panic!("the snapshot opens: {}", e.into_message()));
        let client = opened.session.client.clone();
        let session = Session {
            deployment: client.deployment().to_owned(),
            base_url: client.base_url().to_owned(),
            read_only: true,
            offline: Some(opened.header.saved_at),
            ..Default::default()
        };
        let mut h = Harness::with_session_at(client, session, width, height, anchor());
        h._server = opened.session.demo;
        h
    }

    fn with_client_at(
        client: Client,
        width: u16,
        height: u16,
        demo: bool,
        start: chrono::DateTime<chrono::Utc>,
    ) -> Harness {
        let session = Harness::session(&client, demo);
        Harness::with_session_at(client, session, width, height, start)
    }

    fn with_session_at(
        client: Client,
        session: Session,
        width: u16,
        height: u16,
        start: chrono::DateTime<chrono::Utc>,
    ) -> Harness {
        let (worker, replies) = worker::spawn(client.clone());
        let app = App::new(
            session,
            Keymap::default_keymap(),
            Theme::no_color(),
            (width, height),
        );
        let (input, keys) = mpsc::unbounded_channel();
        let clock = Clock::starting_at(start);
        Harness {
            app,
            terminal: Terminal::new(TestBackend::new(width, height)).unwrap(),
            runner: Runner::new(worker, replies, keys, Recording::default(), clock),
            input,
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
        cfg.retry = findings_client::RetryPolicy {
            max_attempts: 4,
            base_delay: Duration::from_millis(5),
            max_delay: Duration::from_millis(20),
        };
        let mut h = Harness::with_client(Client::new(cfg).unwrap(), width, height, true);
        h._server = Some(server);
        h
    }

    /// Keeps `server` running as long as the harness (a client of its own
    /// making talks to it).
    pub fn keep_server(&mut self, server: DemoServer) {
        self._server = Some(server);
    }

    /// The demo server behind the harness, when it has one.
    pub fn server(&self) -> &DemoServer {
        self._server
            .as_ref()
            .expect("a harness with its own server")
    }

    /// The findings the Issues list holds, whole: a row keeps only what
    /// the table shows, so each is fetched from the server by id.
    pub async fn loaded_whole(&self) -> Vec<findings_model::Issue> {
        let client = client_for(self.server());
        let mut whole = Vec::new();
        for row in &self.app.issues().list.items {
            whole.push(client.get_issue(row.id()).await.expect("the finding"));
        }
        whole
    }

    /// Finding `id` whole, from the server.
    pub async fn whole(&self, id: &str) -> findings_model::Issue {
        let client = client_for(self.server());
        client.get_issue(id).await.expect("the finding")
    }

    /// Starts the app (first page requested) without waiting for it.
    pub fn begin(&mut self) {
        self.runner
            .start(&mut self.app, &mut self.terminal)
            .expect("the loop starts");
        self.record();
    }

    /// Starts the app (first page requested) and waits for it.
    pub async fn start(&mut self) {
        self.begin();
        self.settle().await;
    }

    /// Copies what the loop recorded into the harness's fields.
    fn record(&mut self) {
        let platform = &mut self.runner.platform;
        self.opened.append(&mut platform.opened);
        self.copied.append(&mut platform.copied);
        self.exported.append(&mut platform.exported);
        let traffic = self.runner.traffic;
        self.sent = traffic.sent;
        self.replied = traffic.replies;
        self.cancelled = traffic.cancelled;
    }

    /// Hands `msg` to the app as a batch of its own, at the clock's time.
    pub fn update(&mut self, msg: Msg) {
        self.runner
            .handle(&mut self.app, &mut self.terminal, vec![msg])
            .expect("the loop handles it");
        self.record();
    }

    /// Types `events` into the loop's input, and lets the loop handle them
    /// (one batch, as when keys come before any reply).
    fn input(&mut self, events: impl IntoIterator<Item = KeyEvent>) {
        for key in events {
            self.input
                .send(Ok(Event::Key(key)))
                .expect("the loop reads");
        }
        self.runner
            .step_input(&mut self.app, &mut self.terminal)
            .expect("the loop handles the keys");
        self.record();
    }

    pub fn key(&mut self, code: KeyCode) {
        self.input([KeyEvent::new(code, KeyModifiers::NONE)]);
    }

    pub fn ctrl(&mut self, c: char) {
        self.input([KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)]);
    }

    /// Types each character (capitals with SHIFT, as terminals send them).
    pub fn keys(&mut self, text: &str) {
        self.input(text.chars().map(|c| {
            let mods = if c.is_ascii_uppercase() {
                KeyModifiers::SHIFT
            } else {
                KeyModifiers::NONE
            };
            KeyEvent::new(KeyCode::Char(c), mods)
        }));
    }

    /// Moves the virtual clock `by` forward: the loop's beats in between
    /// come as ticks (while something loads), each at its own time.
    pub fn advance(&mut self, by: Duration) {
        self.runner
            .advance(&mut self.app, &mut self.terminal, by)
            .expect("the loop handles the ticks");
        self.record();
    }

    /// Turns the loop (replies, answers of work done off the loop) until
    /// `done` holds of the harness; panics saying `what` did not happen,
    /// with the screen, if it does not within the deadline.
    async fn turn_until(&mut self, what: &str, mut done: impl FnMut(&mut Harness) -> bool) {
        let deadline = tokio::time::Instant::now() + DEADLINE;
        while !done(self) {
            // The loop's turn; the frame is drawn when the test reads
            // the screen (a draw per turn cost a tenth more CPU).
            let turn = self.runner.turn(&mut self.app, &mut self.terminal);
            match tokio::time::timeout_at(deadline, turn).await {
                Ok(Ok(Turn::Continue)) => self.record(),
                Ok(Ok(Turn::Stop)) => panic!("the app stopped before {what}"),
                Ok(Err(e)) => panic!("the loop failed before {what}: {e}"),
                Err(_) => panic!(
                    "{what}: not within {DEADLINE:?}; screen:\n{}",
                    self.screen()
                ),
            }
        }
    }

    /// Turns the loop until nothing is loading, no export is being
    /// written, no `/` search is under way, and nothing waits in the
    /// loop's queues.
    pub async fn settle(&mut self) {
        self.turn_until("the app settles", |h| {
            !h.app.is_loading()
                && !h.app.has_work()
                && h.app.exports_running == 0
                && h.runner.is_idle()
        })
        .await;
    }

    /// Turns the loop until `done` holds of the app; panics saying `what`
    /// did not happen otherwise.
    pub async fn until(&mut self, what: &str, done: impl Fn(&App) -> bool) {
        self.turn_until(what, |h| done(&h.app)).await;
    }

    /// Turns the loop until `done` holds of the screen.
    pub async fn until_screen(&mut self, what: &str, done: impl Fn(&str) -> bool) {
        self.turn_until(what, |h| done(&h.screen())).await;
    }

    /// [`Harness::settle`], and then until every request sent has had its
    /// reply (the background ones too, such as the filter values), so a
    /// server's request count is final.
    pub async fn quiesce(&mut self) {
        self.settle().await;
        self.turn_until("every request is answered", |h| {
            h.replied + h.cancelled >= h.sent && h.runner.is_idle()
        })
        .await;
    }

    /// Hands the app what is already waiting for the loop, without
    /// waiting; says how many replies there were.
    pub fn take_queued(&mut self) -> usize {
        let before = self.replied;
        self.runner
            .step_queued(&mut self.app, &mut self.terminal)
            .expect("the loop handles what is queued");
        self.record();
        self.replied - before
    }

    /// Moves to the first open finding of the list (the demo's first rows
    /// are the same every run).
    pub fn select_first_open(&mut self) {
        let row = self
            .app
            .issues()
            .list
            .items
            .iter()
            .position(|r| r.state() == Some(findings_model::AggregateState::Open))
            .expect("an open finding");
        for _ in 0..row {
            self.key(KeyCode::Char('j'));
        }
    }

    /// Opens the triage dialog (`T`) and fills it in: ignored, as a false
    /// positive, with `note`; the review is one `Ctrl-s` away.
    pub fn draft_ignore_as_false_positive(&mut self, note: &str) {
        self.keys("T");
        self.key(KeyCode::Tab);
        self.key(KeyCode::Right);
        self.key(KeyCode::Tab);
        self.key(KeyCode::Tab);
        self.keys(note);
    }

    /// The screen as text at `width`×`height` (the terminal resized, as
    /// a user's would be; it stays that size).
    pub fn screen_at(&mut self, width: u16, height: u16) -> String {
        self.terminal.backend_mut().resize(width, height);
        self.terminal
            .resize(ratatui::layout::Rect::new(0, 0, width, height))
            .unwrap();
        self.app
            .update(findings_tui::message::Msg::Resize(width, height));
        self.screen()
    }

    /// The screen as text, one line per row.
    pub fn screen(&mut self) -> String {
        self.runner
            .draw(&self.app, &mut self.terminal, true)
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

/// The `findings` binary on the embedded demo server, asked for by name
/// (`FINDINGS_BASE_URL=demo`: with no terminal a headless command never
/// falls back to it), with no other connection settings from the
/// environment and not the config file of whoever runs the tests (the
/// config folder is an empty one). A test of what happens with nothing
/// configured removes `FINDINGS_BASE_URL`; one that sets it replaces it.
pub fn findings() -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("findings").expect("binary built");
    for var in [
        "FINDINGS_DEPLOYMENT",
        "FINDINGS_TOKEN",
        "FINDINGS_CONFIG",
        "FINDINGS_PROFILE",
        "FINDINGS_LOG",
        "FINDINGS_NO_PROGRESS",
        "FINDINGS_FORMAT",
        "FINDINGS_TIMEOUT",
        "FINDINGS_CONNECT_TIMEOUT",
        "FINDINGS_READ_ONLY",
        "FINDINGS_LOG_FILE",
        // Tests of what CI changes set it themselves.
        "CI",
    ] {
        cmd.env_remove(var);
    }
    cmd.env("FINDINGS_BASE_URL", "demo");
    cmd.env("XDG_CONFIG_HOME", empty_config_home());
    // The names a listing keeps for completion go to a test's folder, not
    // the user's state folder.
    cmd.env(
        "XDG_STATE_HOME",
        std::env::temp_dir().join("findings-tests-state"),
    );
    cmd
}

/// An empty folder for `XDG_CONFIG_HOME`: the config file's usual place,
/// with no file in it.
pub fn empty_config_home() -> std::path::PathBuf {
    static HOME: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();
    HOME.get_or_init(|| tempfile::tempdir().expect("a temporary folder"))
        .path()
        .to_owned()
}

/// Runs the binary with `args` against the demo server at `url`, its
/// clock at the data's "now" ([`anchor`]), off the test's runtime (which
/// serves the demo meanwhile): the output.
pub async fn run_at_anchor(url: String, args: &[&str]) -> std::process::Output {
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    tokio::task::spawn_blocking(move || {
        findings()
            .args(&args)
            .env("FINDINGS_BASE_URL", url)
            .env("FINDINGS_DEPLOYMENT", "1234")
            .env("FINDINGS_TOKEN", "demo-token")
            .env("FINDINGS_NOW", anchor().to_rfc3339())
            .output()
            .expect("the binary runs")
    })
    .await
    .expect("the binary's task")
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
    let state = findings_demo::DemoState::new(&DemoOptions {
        findings,
        ..Default::default()
    });
    let ds = &state.dataset;
    ds.rows
        .iter()
        .filter(|r| !ds.catalog.repositories[r.repo as usize].archived)
        .count()
}

/// The README and every page of the book (`docs/src/`, its folders too),
/// in a fixed order: the README first, then the pages by path.
pub fn doc_pages() -> Vec<std::path::PathBuf> {
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = Vec::new();
    walk(&root.join("docs/src"), &mut pages);
    pages.sort();
    pages.insert(0, root.join("README.md"));
    pages
}

/// A plain HTTP client, for requests made as any client would make them.
pub fn http() -> reqwest::Client {
    http_builder().build().expect("an HTTP client")
}

/// [`http`] to build further. The tests' servers are plain HTTP on
/// loopback: no proxy, and no root certificates (parsing the platform's
/// at every client, unoptimised, was 3% of the tests' run).
pub fn http_builder() -> reqwest::ClientBuilder {
    findings_client::install_crypto_provider();
    reqwest::Client::builder()
        .no_proxy()
        .tls_certs_only(std::iter::empty())
}
