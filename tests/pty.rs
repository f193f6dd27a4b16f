//! End to end: the built binary in a pseudo-terminal. It must draw the list,
//! answer keys, quit on `q`, leave the terminal as it found it, and do the
//! same when it crashes.

use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};
use std::io::{Read, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tui_term::vt100;

/// The app running in a pty, with what it wrote parsed as a screen.
struct Session {
    child: Box<dyn Child + Send + Sync>,
    master: Box<dyn MasterPty + Send>,
    writer: Box<dyn Write + Send>,
    parser: Arc<Mutex<vt100::Parser>>,
    raw: Arc<Mutex<Vec<u8>>>,
    pump: std::thread::JoinHandle<()>,
}

impl Session {
    fn start(rows: u16, cols: u16, env: &[(&str, &std::ffi::OsStr)]) -> Session {
        let pair = native_pty_system()
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("a pty");
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_findings"));
        for var in [
            "FINDINGS_BASE_URL",
            "FINDINGS_DEPLOYMENT",
            "FINDINGS_TOKEN",
            "FINDINGS_PROFILE",
            "NO_COLOR",
        ] {
            cmd.env_remove(var);
        }
        cmd.env("TERM", "xterm-256color");
        for (k, v) in env {
            cmd.env(k, v);
        }
        let child = pair.slave.spawn_command(cmd).expect("spawn");
        drop(pair.slave);
        let mut reader = pair.master.try_clone_reader().unwrap();
        let writer = pair.master.take_writer().unwrap();
        let parser = Arc::new(Mutex::new(vt100::Parser::new(rows, cols, 0)));
        let raw = Arc::new(Mutex::new(Vec::new()));
        let (p, r) = (parser.clone(), raw.clone());
        let pump = std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                p.lock().unwrap().process(&buf[..n]);
                r.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        });
        Session {
            child,
            master: pair.master,
            writer,
            parser,
            raw,
            pump,
        }
    }

    fn text(&self) -> String {
        self.parser.lock().unwrap().screen().contents()
    }

    fn wait_for(&self, needle: &str) -> String {
        self.wait_until(needle, |t| t.contains(needle))
    }

    fn wait_until(&self, what: &str, done: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let text = self.text();
            if done(&text) {
                return text;
            }
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {what}; screen:\n{text}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn press(&mut self, bytes: &[u8]) {
        self.writer.write_all(bytes).unwrap();
        self.writer.flush().unwrap();
        std::thread::sleep(Duration::from_millis(150));
    }

    /// Waits for the process to end; returns its status, the final screen's
    /// alternate-screen flag and everything it wrote.
    fn finish(mut self) -> (portable_pty::ExitStatus, bool, String) {
        let deadline = Instant::now() + Duration::from_secs(15);
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            assert!(Instant::now() < deadline, "the app did not end");
            std::thread::sleep(Duration::from_millis(50));
        };
        drop(self.writer);
        drop(self.master);
        let _ = self.pump.join();
        let alternate = self.parser.lock().unwrap().screen().alternate_screen();
        let raw = String::from_utf8_lossy(&self.raw.lock().unwrap()).into_owned();
        (status, alternate, raw)
    }
}

#[test]
fn the_app_runs_in_a_real_terminal_and_restores_it() {
    let state = tempfile::tempdir().unwrap();
    let no_config = state.path().join("none.toml");
    let mut s = Session::start(
        30,
        100,
        &[
            ("XDG_STATE_HOME", state.path().as_os_str()),
            ("FINDINGS_CONFIG", no_config.as_os_str()),
        ],
    );
    let first = s.wait_for("loaded, more available");
    assert!(first.contains("DEMO"), "{first}");
    assert!(
        s.parser.lock().unwrap().screen().alternate_screen(),
        "the app draws on the alternate screen"
    );
    s.press(b"j");
    s.press(b"\r");
    s.wait_for("relevant since");
    s.press(b"l");
    // The Code tab replaced the Overview (whose fields it does not have).
    s.wait_until("the Code tab", |t| !t.contains("relevant since"));
    // Esc alone is ambiguous to terminals; the pause lets it stand alone.
    s.press(b"\x1b");
    std::thread::sleep(Duration::from_millis(300));
    s.press(b"q");
    let (status, alternate, raw) = s.finish();
    assert!(status.success(), "{status:?}");
    assert!(!alternate, "the terminal left the alternate screen");
    assert!(
        raw.contains("\x1b[?1049l"),
        "leave-alternate-screen was written"
    );
    assert!(!raw.contains("panicked"), "no panic");
}

#[test]
fn a_panic_restores_the_terminal_and_leaves_a_crash_log() {
    let state = tempfile::tempdir().unwrap();
    let no_config = state.path().join("none.toml");
    let mut s = Session::start(
        24,
        80,
        &[
            ("FINDINGS_TEST_PANIC", "1".as_ref()),
            ("XDG_STATE_HOME", state.path().as_os_str()),
            ("FINDINGS_CONFIG", no_config.as_os_str()),
        ],
    );
    s.wait_for("loaded, more available");
    s.press(b"\x1b[24~"); // F12
    let (status, alternate, out) = s.finish();
    assert_eq!(status.exit_code(), 101, "a crash exits non-zero");
    assert!(!alternate, "the terminal was restored");
    assert!(
        out.contains("findings crashed: test crash requested with F12"),
        "{out}"
    );
    let logs: Vec<_> = std::fs::read_dir(state.path().join("findings"))
        .expect("the state folder")
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("crash-")
        })
        .collect();
    assert_eq!(logs.len(), 1, "one crash log");
    assert!(
        out.contains(&*logs[0].to_string_lossy()),
        "the message names the log"
    );
    let log = std::fs::read_to_string(&logs[0]).unwrap();
    assert!(log.contains("test crash requested with F12"));
    assert!(!log.contains("demo-token"), "no token in the crash log");
}

#[test]
fn findings_new_since_the_last_visit_are_marked_and_the_visit_recorded() {
    let state = tempfile::tempdir().unwrap();
    let no_config = state.path().join("none.toml");
    let dir = state.path().join("findings");
    std::fs::create_dir_all(&dir).unwrap();
    let last = chrono::Utc::now() - chrono::Duration::days(3);
    let visits = dir.join("visits.json");
    let other = r#""work": { "issues": "2026-01-01T00:00:00Z" }"#;
    std::fs::write(
        &visits,
        format!(
            r#"{{ "profiles": {{ "(demo)": {{ "issues": "{}" }}, {other} }} }}"#,
            last.to_rfc3339()
        ),
    )
    .unwrap();
    let mut s = Session::start(
        30,
        120,
        &[
            ("XDG_STATE_HOME", state.path().as_os_str()),
            ("FINDINGS_CONFIG", no_config.as_os_str()),
        ],
    );
    let since = last.format("%Y-%m-%d %H:%M").to_string();
    let note = format!("new since {since}");
    // Rows marked, and counted in the status line.
    let zero = format!("{note}: 0 loaded");
    s.wait_until("new rows", |t| {
        t.contains(&note) && t.contains("│•") && !t.contains(&zero)
    });
    // `n`: only the new ones, asked of the server (relevant since the visit).
    s.press(b"n");
    let message = format!("only the findings new since your last visit ({since} UTC)");
    let screen = s.wait_until("the new findings", |t| {
        t.contains(&message) && t.contains("│•")
    });
    let rows = screen.lines().filter(|l| l.starts_with("│•")).count();
    let older = screen
        .lines()
        .filter(|l| l.starts_with("│ ") && l.contains("2026-"))
        .count();
    assert!(rows > 5 && older == 0, "{screen}");
    s.press(b"q");
    let (status, _, _) = s.finish();
    assert!(status.success(), "{status:?}");
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&visits).unwrap()).unwrap();
    let seen: chrono::DateTime<chrono::Utc> = written["profiles"]["(demo)"]["issues"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        (chrono::Utc::now() - seen).num_seconds() < 60,
        "the visit is recorded as now: {written}"
    );
    assert_eq!(
        written["profiles"]["work"]["issues"], "2026-01-01T00:00:00Z",
        "other profiles are kept"
    );
    assert!(
        written["profiles"]["(demo)"].get("report").is_none(),
        "the Report pane was not shown"
    );
}
