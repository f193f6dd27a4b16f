//! The built binary in a pseudo-terminal: what it writes is kept as raw bytes
//! and parsed into a screen, keys are pressed as bytes, and the end is
//! waited for. This is the one real-time path of the tests: the app runs on
//! the system clock, and every wait is for a condition (woken by each write
//! of the app, or by its end), with a deadline.

use portable_pty::{Child, CommandBuilder, ExitStatus, MasterPty, PtySize, native_pty_system};
use std::ffi::OsStr;
use std::io::{Read, Write};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use tui_term::vt100;

/// How long a wait (for the screen or for the end) may take.
const DEADLINE: Duration = Duration::from_secs(30);

/// The settings from the environment the app must not see: every session
/// says what it means to use.
const REMOVED: [&str; 10] = [
    "FINDINGS_BASE_URL",
    "FINDINGS_CONFIG",
    "FINDINGS_DEPLOYMENT",
    "FINDINGS_TOKEN",
    "FINDINGS_PROFILE",
    "FINDINGS_THEME",
    "FINDINGS_LOG",
    "NO_COLOR",
    // Each turns progress off, and CI refuses the demo unasked: a test
    // run in CI is no CI job (tests of that set them themselves).
    "CI",
    "FINDINGS_NO_PROGRESS",
];

/// `findings` running in a pty, with what it wrote parsed as a screen.
pub struct Pty {
    child: Box<dyn Child + Send + Sync>,
    master: Option<Box<dyn MasterPty + Send>>,
    writer: Option<Box<dyn Write + Send>>,
    output: Arc<Output>,
    pump: Option<JoinHandle<()>>,
}

/// What the app wrote, parsed and raw; `wrote` is signalled at each write
/// and at the end of the output.
struct Output {
    seen: Mutex<Seen>,
    wrote: Condvar,
}

struct Seen {
    parser: vt100::Parser,
    raw: Vec<u8>,
    /// The app closed the terminal (it ended).
    ended: bool,
}

impl Output {
    fn lock(&self) -> std::sync::MutexGuard<'_, Seen> {
        self.seen.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits until `done` holds of what was written, at most until the
    /// deadline; the last state seen, and whether `done` held.
    fn wait(&self, deadline: Instant, done: impl Fn(&Seen) -> bool) -> (bool, String) {
        let mut seen = self.lock();
        loop {
            if done(&seen) {
                return (true, seen.parser.screen().contents());
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return (false, seen.parser.screen().contents());
            }
            seen = self
                .wrote
                .wait_timeout(seen, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }
}

impl Pty {
    /// Starts `findings ARGS` at `rows`×`cols` with `env` over an
    /// environment cleared of the `FINDINGS_*` settings and `NO_COLOR`.
    ///
    /// `env` must set `XDG_STATE_HOME` and `XDG_CONFIG_HOME` or
    /// `FINDINGS_CONFIG` (to temporary places), so no test reads the user's
    /// config or writes into their state folder. With `XDG_CONFIG_HOME` on
    /// an empty folder, nothing is configured, as on a fresh machine.
    pub fn start<V: AsRef<OsStr>>(rows: u16, cols: u16, args: &[&str], env: &[(&str, V)]) -> Pty {
        for needed in [
            &["XDG_STATE_HOME"][..],
            &["XDG_CONFIG_HOME", "FINDINGS_CONFIG"],
        ] {
            assert!(
                env.iter().any(|(k, _)| needed.contains(k)),
                "a pty session must set {needed:?} to a temporary place"
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
        let output = Arc::new(Output {
            seen: Mutex::new(Seen {
                parser: vt100::Parser::new(rows, cols, 0),
                raw: Vec::new(),
                ended: false,
            }),
            wrote: Condvar::new(),
        });
        let out = output.clone();
        let pump = std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                let mut seen = out.lock();
                seen.parser.process(&buf[..n]);
                seen.raw.extend_from_slice(&buf[..n]);
                out.wrote.notify_all();
            }
            // The end of the output (EOF, or EIO once the app closed it).
            out.lock().ended = true;
            out.wrote.notify_all();
        });
        Pty {
            child,
            master: Some(pair.master),
            writer: Some(writer),
            output,
            pump: Some(pump),
        }
    }

    /// The screen as text.
    pub fn text(&self) -> String {
        self.output.lock().parser.screen().contents()
    }

    /// Whether the screen is the alternate one.
    pub fn alternate_screen(&self) -> bool {
        self.output.lock().parser.screen().alternate_screen()
    }

    /// Waits until `needle` is on the screen; returns the screen.
    pub fn wait_for(&self, needle: &str) -> String {
        self.wait_until(needle, |t| t.contains(needle))
    }

    /// Waits until `done` holds for the screen (of a frame written whole,
    /// in the TUI); returns the screen. Panics with `what` and the screen after 30 s.
    pub fn wait_until(&self, what: &str, done: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + DEADLINE;
        let (held, text) = self.output.wait(deadline, |seen| {
            let screen = seen.parser.screen();
            // The TUI draws frames on the alternate screen; the commands
            // write lines.
            (!screen.alternate_screen() || ends_a_frame(&seen.raw)) && done(&screen.contents())
        });
        assert!(held, "timed out waiting for {what}; screen:\n{text}");
        text
    }

    /// Types `bytes`. It does not wait: what the keys do is waited for.
    /// (An Esc is ambiguous to terminals when more follows in the same
    /// read: wait for what it does before the next key.)
    pub fn press(&mut self, bytes: &[u8]) {
        let writer = self.writer.as_mut().expect("the session is running");
        writer.write_all(bytes).unwrap();
        writer.flush().unwrap();
    }

    /// The app's process id.
    pub fn pid(&self) -> i32 {
        self.child.process_id().expect("a running app") as i32
    }

    /// Waits until the app has stopped itself (Ctrl-Z): `waitpid` with
    /// `WUNTRACED` reports a stop without reaping, on a thread of its own
    /// so the wait has a deadline. `false` when it did not stop in time.
    pub fn wait_stopped(&self) -> bool {
        let pid = self.pid();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut status = 0;
            // SAFETY: waits on our own child; `status` outlives the call.
            let got = unsafe { libc::waitpid(pid, &mut status, libc::WUNTRACED) };
            let _ = tx.send(got == pid && libc::WIFSTOPPED(status));
        });
        rx.recv_timeout(DEADLINE).unwrap_or(false)
    }

    /// Waits until the app has left the alternate screen (what it wrote
    /// before it stopped may still be on its way); whether it did in time.
    pub fn wait_given_back(&self) -> bool {
        let deadline = Instant::now() + DEADLINE;
        self.output
            .wait(deadline, |seen| !seen.parser.screen().alternate_screen())
            .0
    }

    /// Sends the app SIGCONT (the shell's `fg`).
    pub fn resume(&self) {
        // SAFETY: a signal to our own child.
        let sent = unsafe { libc::kill(self.pid(), libc::SIGCONT) };
        assert_eq!(sent, 0, "SIGCONT sent");
    }

    /// Waits until the app draws on the alternate screen and `done` holds
    /// for it.
    pub fn wait_until_drawn(&self, what: &str, done: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + DEADLINE;
        let (held, text) = self.output.wait(deadline, |seen| {
            let screen = seen.parser.screen();
            screen.alternate_screen() && ends_a_frame(&seen.raw) && done(&screen.contents())
        });
        assert!(held, "timed out waiting for {what}; screen:\n{text}");
        text
    }

    /// The exit status if the app has ended, without waiting.
    pub fn try_wait(&mut self) -> Option<ExitStatus> {
        self.child.try_wait().unwrap()
    }

    /// Waits for the app to end; returns its status, the final screen's
    /// alternate-screen flag and everything it wrote.
    pub fn finish(mut self) -> (ExitStatus, bool, String) {
        // The app's end closes the terminal: its output ends.
        let (ended, text) = self
            .output
            .wait(Instant::now() + DEADLINE, |seen| seen.ended);
        assert!(ended, "the app did not end; screen:\n{text}");
        let status = self.child.wait().expect("the app's status");
        drop(self.writer.take());
        drop(self.master.take());
        if let Some(pump) = self.pump.take() {
            let _ = pump.join();
        }
        let alternate = self.alternate_screen();
        let raw = String::from_utf8_lossy(&self.output.lock().raw).into_owned();
        (status, alternate, raw)
    }
}

/// Whether `raw` ends where a frame ends: a frame comes in pieces, and
/// ratatui ends each by hiding the cursor, or by showing it and placing it
/// (in a text field).
fn ends_a_frame(raw: &[u8]) -> bool {
    const HIDDEN: &[u8] = b"\x1b[?25l";
    const SHOWN: &[u8] = b"\x1b[?25h\x1b[";
    if raw.ends_with(HIDDEN) {
        return true;
    }
    // `ESC[?25h ESC[row;colH` at the very end.
    let Some(h) = raw.strip_suffix(b"H") else {
        return false;
    };
    let digits = h
        .iter()
        .rev()
        .take_while(|b| b.is_ascii_digit() || **b == b';')
        .count();
    digits > 0 && h[..h.len() - digits].ends_with(SHOWN)
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
