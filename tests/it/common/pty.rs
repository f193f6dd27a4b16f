//! The built binary in a pseudo-terminal: what it writes is kept as raw bytes
//! and parsed into a screen, keys are pressed as bytes, and the end is
//! waited for.

use portable_pty::{Child, CommandBuilder, ExitStatus, MasterPty, PtySize, native_pty_system};
use std::ffi::OsStr;
use std::io::{Read, Write};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use tui_term::vt100;

/// How long a wait (for the screen or for the end) may take.
const DEADLINE: Duration = Duration::from_secs(30);

/// The settings from the environment the app must not see: every session
/// says what it means to use.
const REMOVED: [&str; 7] = [
    "FINDINGS_BASE_URL",
    "FINDINGS_DEPLOYMENT",
    "FINDINGS_TOKEN",
    "FINDINGS_PROFILE",
    "FINDINGS_THEME",
    "FINDINGS_LOG",
    "NO_COLOR",
];

/// `findings` running in a pty, with what it wrote parsed as a screen.
pub struct Pty {
    child: Box<dyn Child + Send + Sync>,
    master: Option<Box<dyn MasterPty + Send>>,
    writer: Option<Box<dyn Write + Send>>,
    parser: Arc<Mutex<vt100::Parser>>,
    raw: Arc<Mutex<Vec<u8>>>,
    pump: Option<JoinHandle<()>>,
}

impl Pty {
    /// Starts `findings ARGS` at `rows`×`cols` with `env` over an
    /// environment cleared of the `FINDINGS_*` settings and `NO_COLOR`.
    ///
    /// `env` must set `XDG_STATE_HOME` and `FINDINGS_CONFIG` (to temporary
    /// places), so no test reads the user's config or writes into their
    /// state folder.
    pub fn start<V: AsRef<OsStr>>(rows: u16, cols: u16, args: &[&str], env: &[(&str, V)]) -> Pty {
        for needed in ["XDG_STATE_HOME", "FINDINGS_CONFIG"] {
            assert!(
                env.iter().any(|(k, _)| *k == needed),
                "a pty session must set {needed} to a temporary place"
            );
        }
        let pair = native_pty_system()
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("a pty");
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_findings"));
        cmd.args(args);
        for var in REMOVED {
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
        Pty {
            child,
            master: Some(pair.master),
            writer: Some(writer),
            parser,
            raw,
            pump: Some(pump),
        }
    }

    /// The screen as text.
    pub fn text(&self) -> String {
        self.parser.lock().unwrap().screen().contents()
    }

    /// Whether the screen is the alternate one.
    pub fn alternate_screen(&self) -> bool {
        self.parser.lock().unwrap().screen().alternate_screen()
    }

    /// Waits until `needle` is on the screen; returns the screen.
    pub fn wait_for(&self, needle: &str) -> String {
        self.wait_until(needle, |t| t.contains(needle))
    }

    /// Waits until `done` holds for the screen; returns the screen. Panics
    /// with `what` and the screen after 30 s.
    pub fn wait_until(&self, what: &str, done: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + DEADLINE;
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

    /// Types `bytes`, then pauses so the app handles them (and an Esc alone,
    /// ambiguous to terminals, stands alone).
    pub fn press(&mut self, bytes: &[u8]) {
        let writer = self.writer.as_mut().expect("the session is running");
        writer.write_all(bytes).unwrap();
        writer.flush().unwrap();
        std::thread::sleep(Duration::from_millis(200));
    }

    /// The exit status if the app has ended, without waiting.
    pub fn try_wait(&mut self) -> Option<ExitStatus> {
        self.child.try_wait().unwrap()
    }

    /// Waits for the app to end; returns its status, the final screen's
    /// alternate-screen flag and everything it wrote.
    pub fn finish(mut self) -> (ExitStatus, bool, String) {
        let deadline = Instant::now() + DEADLINE;
        let status = loop {
            if let Some(status) = self.try_wait() {
                break status;
            }
            assert!(
                Instant::now() < deadline,
                "the app did not end; screen:\n{}",
                self.text()
            );
            std::thread::sleep(Duration::from_millis(50));
        };
        drop(self.writer.take());
        drop(self.master.take());
        if let Some(pump) = self.pump.take() {
            let _ = pump.join();
        }
        let alternate = self.alternate_screen();
        let raw = String::from_utf8_lossy(&self.raw.lock().unwrap()).into_owned();
        (status, alternate, raw)
    }
}

impl Drop for Pty {
    /// A test that failed half way does not leave the app running.
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
