//! End to end: the built binary in a pseudo-terminal. It must draw the list,
//! answer keys, quit on `q`, and leave the terminal as it found it.

use portable_pty::{CommandBuilder, PtySize, native_pty_system};
use std::io::{Read, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tui_term::vt100;

struct Screen {
    parser: Arc<Mutex<vt100::Parser>>,
    raw: Arc<Mutex<Vec<u8>>>,
}

impl Screen {
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
}

#[test]
fn the_app_runs_in_a_real_terminal_and_restores_it() {
    let pty = native_pty_system();
    let pair = pty
        .openpty(PtySize {
            rows: 30,
            cols: 100,
            pixel_width: 0,
            pixel_height: 0,
        })
        .expect("a pty");
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_findings"));
    for var in [
        "FINDINGS_BASE_URL",
        "FINDINGS_DEPLOYMENT",
        "FINDINGS_TOKEN",
        "NO_COLOR",
    ] {
        cmd.env_remove(var);
    }
    cmd.env("TERM", "xterm-256color");
    let mut child = pair.slave.spawn_command(cmd).expect("spawn");
    drop(pair.slave);
    let mut reader = pair.master.try_clone_reader().unwrap();
    let mut writer = pair.master.take_writer().unwrap();
    let screen = Screen {
        parser: Arc::new(Mutex::new(vt100::Parser::new(30, 100, 0))),
        raw: Arc::new(Mutex::new(Vec::new())),
    };
    let (parser, raw) = (screen.parser.clone(), screen.raw.clone());
    let pump = std::thread::spawn(move || {
        let mut buf = [0u8; 8192];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            parser.lock().unwrap().process(&buf[..n]);
            raw.lock().unwrap().extend_from_slice(&buf[..n]);
        }
    });

    let first = screen.wait_for("loaded, more available");
    assert!(first.contains("DEMO"), "{first}");
    assert!(
        screen.parser.lock().unwrap().screen().alternate_screen(),
        "the app draws on the alternate screen"
    );

    let mut press = |bytes: &[u8]| {
        writer.write_all(bytes).unwrap();
        writer.flush().unwrap();
        std::thread::sleep(Duration::from_millis(150));
    };
    press(b"j");
    press(b"\r");
    screen.wait_for("Overview");
    screen.wait_for("relevant since");
    press(b"l");
    // The Code tab replaced the Overview (whose fields it does not have).
    screen.wait_until("the Code tab", |t| !t.contains("relevant since"));
    // Esc alone is ambiguous to terminals; the pause lets it stand alone.
    press(b"\x1b");
    std::thread::sleep(Duration::from_millis(300));
    press(b"q");

    let deadline = Instant::now() + Duration::from_secs(15);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < deadline, "the app did not quit on q");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status:?}");
    drop(writer);
    drop(pair.master);
    let _ = pump.join();
    let parser = screen.parser.lock().unwrap();
    assert!(
        !parser.screen().alternate_screen(),
        "the terminal left the alternate screen"
    );
    let raw = screen.raw.lock().unwrap();
    let text = String::from_utf8_lossy(&raw);
    assert!(
        text.contains("\x1b[?1049l"),
        "leave-alternate-screen was written"
    );
    assert!(!text.contains("panicked"), "no panic");
}

#[test]
fn a_panic_restores_the_terminal_and_leaves_a_crash_log() {
    let state = tempfile::tempdir().unwrap();
    let pty = native_pty_system();
    let pair = pty
        .openpty(PtySize {
            rows: 24,
            cols: 80,
            pixel_width: 0,
            pixel_height: 0,
        })
        .expect("a pty");
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_findings"));
    for var in [
        "FINDINGS_BASE_URL",
        "FINDINGS_DEPLOYMENT",
        "FINDINGS_TOKEN",
        "NO_COLOR",
    ] {
        cmd.env_remove(var);
    }
    cmd.env("TERM", "xterm-256color");
    cmd.env("FINDINGS_TEST_PANIC", "1");
    cmd.env("XDG_STATE_HOME", state.path());
    cmd.env("FINDINGS_CONFIG", state.path().join("none.toml"));
    let mut child = pair.slave.spawn_command(cmd).expect("spawn");
    drop(pair.slave);
    let mut reader = pair.master.try_clone_reader().unwrap();
    let mut writer = pair.master.take_writer().unwrap();
    let screen = Screen {
        parser: Arc::new(Mutex::new(vt100::Parser::new(24, 80, 0))),
        raw: Arc::new(Mutex::new(Vec::new())),
    };
    let (parser, raw) = (screen.parser.clone(), screen.raw.clone());
    let pump = std::thread::spawn(move || {
        let mut buf = [0u8; 8192];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            parser.lock().unwrap().process(&buf[..n]);
            raw.lock().unwrap().extend_from_slice(&buf[..n]);
        }
    });
    screen.wait_for("loaded, more available");
    writer.write_all(b"\x1b[24~").unwrap(); // F12
    writer.flush().unwrap();
    let deadline = Instant::now() + Duration::from_secs(15);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "the app did not end on the panic"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(!status.success(), "a crash exits non-zero");
    assert_eq!(status.exit_code(), 101);
    drop(writer);
    drop(pair.master);
    let _ = pump.join();
    assert!(
        !screen.parser.lock().unwrap().screen().alternate_screen(),
        "the terminal was restored"
    );
    let out = String::from_utf8_lossy(&screen.raw.lock().unwrap()).into_owned();
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
