//! The demo server on a core of its own, and the bench with what it runs
//! on the others: as a deployment's server runs on a machine of its own.
//!
//! On one shared pool of 2 cores the server's work (about 20 ms of CPU for
//! a page of 1,000) and the client's take turns, and a comparison of two
//! clients measures the scheduler as much as the clients. Pinned, the
//! server has CPU 0 (`taskset -c 0`); this process, its threads and every
//! child it spawns after [`pin_off_server_core`] (the export, curl, the
//! TUI's worker) share the rest. Without `taskset`, with one CPU, or with
//! `PIN=0`, nothing is pinned and the figures say so.

// Each bench that includes this uses a part of it.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// A `findings demo serve` process and where it listens.
pub struct OwnCoreServer {
    child: Child,
    pub url: String,
    pub deployment: String,
    pub token: String,
    /// Whether it runs on a core of its own.
    pub pinned: bool,
}

/// Whether to pin: asked (`PIN`, default yes), `taskset` found, and more
/// than one CPU to share.
pub fn pinning() -> bool {
    let asked = std::env::var("PIN").map_or(true, |v| v != "0");
    asked
        && online_cpus() > 1
        && Command::new("taskset")
            .arg("-V")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
}

/// Keeps this process (the calling thread, and every thread and child it
/// starts after) off CPU 0, the server's. Call first, before a runtime's
/// threads start. Returns whether it did.
pub fn pin_off_server_core() -> bool {
    if !pinning() {
        return false;
    }
    let cpus = online_cpus();
    // SAFETY: an all-zero cpu_set_t is the empty set; CPU_SET writes within
    // it for CPU numbers below CPU_SETSIZE, and sched_setaffinity reads it.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        for cpu in 1..cpus.min(libc::CPU_SETSIZE as usize) {
            libc::CPU_SET(cpu, &mut set);
        }
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) == 0
    }
}

/// The machine's CPUs, however few this process may use (std's
/// `available_parallelism` counts only those, so it says 1 once pinned).
fn online_cpus() -> usize {
    // SAFETY: sysconf reads a system value.
    let n = unsafe { libc::sysconf(libc::_SC_NPROCESSORS_ONLN) };
    usize::try_from(n).unwrap_or(1).max(1)
}

impl OwnCoreServer {
    /// Starts `bin demo serve` with `findings` findings on a free port,
    /// on CPU 0 when [`pinning`]; waits for its banner.
    pub fn start(bin: &str, findings: usize) -> OwnCoreServer {
        let pinned = pinning();
        let serve = [
            "demo",
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--findings",
            &findings.to_string(),
        ]
        .map(str::to_owned);
        let mut command = if pinned {
            let mut c = Command::new("taskset");
            c.args(["-c", "0", bin]);
            c
        } else {
            Command::new(bin)
        };
        let mut child = command
            .args(serve)
            // No config file: the usual place, in a folder that does not exist.
            .env_remove("FINDINGS_CONFIG")
            .env("XDG_CONFIG_HOME", "/nonexistent/findings-bench")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the findings binary runs (cargo build --release)");
        let mut lines = BufReader::new(child.stdout.take().expect("its stdout")).lines();
        let mut field = |prefix: &str| -> String {
            let line = lines
                .next()
                .and_then(Result::ok)
                .expect("the demo server's banner");
            line.trim()
                .strip_prefix(prefix)
                .unwrap_or_else(|| panic!("{prefix:?} in the banner, not {line:?}"))
                .trim()
                .to_owned()
        };
        let url = field("findings demo server listening on");
        let deployment = field("deployment");
        let token = field("token");
        OwnCoreServer {
            child,
            url,
            deployment,
            token,
            pinned,
        }
    }

    /// How the runs share the machine, for the figures' heading.
    pub fn placement(&self) -> &'static str {
        if self.pinned {
            "the demo server on CPU 0, the clients on the others"
        } else {
            "the demo server and the clients sharing every CPU"
        }
    }
}

impl Drop for OwnCoreServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
