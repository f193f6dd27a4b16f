//! Peak resident memory of the headless exports following every page
//! (`--all`), for each format, at 20,000 and 100,000 findings. Target: every
//! format within 2x the ndjson figure, and under 50 MB at 100,000 findings
//! (the results of SARIF and the findings of the report's JSON stream; only
//! SARIF's rules are held, and they are few).
//!
//! Each export is the real binary run as a child against the embedded demo
//! server started here; its peak is the child's `ru_maxrss` from `wait4`
//! (Linux, macOS). Run: `cargo bench --bench export_memory` (FINDINGS=n for
//! one other count).
//!
//! Also `findings snapshot save` (every page into one snapshot file) and
//! `findings diff` of that snapshot against the live deployment (the old
//! side held as a compact map): target, flat as the exports are.

use findings_tui::demo::{DemoOptions, DemoServer};
use std::process::{Command, Stdio};
use std::time::Instant;

const MB: f64 = 1024.0 * 1024.0;

/// What each run exports: the command and its format.
const RUNS: &[(&str, &str)] = &[
    ("issues", "ndjson"),
    ("issues", "json"),
    ("issues", "csv"),
    ("issues", "markdown"),
    ("issues", "sarif"),
    ("report", "ndjson"),
    ("report", "json"),
];

fn main() {
    if std::env::args().any(|a| a == "--list") {
        // `cargo bench -- --list` asks harnesses for their benches.
        println!("export_memory: bench");
        return;
    }
    let counts: Vec<usize> = match std::env::var("FINDINGS").ok().and_then(|v| v.parse().ok()) {
        Some(n) => vec![n],
        None => vec![20_000, 100_000],
    };
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    for findings in counts {
        let server = runtime
            .block_on(DemoServer::start_local(DemoOptions {
                findings,
                ..Default::default()
            }))
            .expect("the demo server");
        println!("export_memory: {findings} findings, every page of 1,000 (--all)");
        println!(
            "  {:<8} {:<9} {:>10} {:>12} {:>8}",
            "command", "format", "output MB", "peak RSS MB", "seconds"
        );
        let mut ndjson_peak = [0f64; 2];
        for &(command, format) in RUNS {
            let (bytes, peak, secs) = export(&server, command, format);
            let slot = usize::from(command == "report");
            if format == "ndjson" {
                ndjson_peak[slot] = peak;
            }
            let ratio = if ndjson_peak[slot] > 0.0 {
                format!("  {:.2}x ndjson", peak / ndjson_peak[slot])
            } else {
                String::new()
            };
            println!(
                "  {command:<8} {format:<9} {:>10.1} {:>12.1} {secs:>8.1}{ratio}",
                bytes as f64 / MB,
                peak / MB
            );
        }
        let snapshot =
            std::env::temp_dir().join(format!("findings-bench-{}.snap", std::process::id()));
        let path = snapshot.to_str().expect("a UTF-8 temporary path");
        for (label, args) in [
            ("snapshot save", vec!["snapshot", "save", "-o", path]),
            ("diff (live)", vec!["diff", path, "--format", "ndjson"]),
        ] {
            let (bytes, peak, secs) = run(&server, &args);
            let file = std::fs::metadata(&snapshot).map_or(0, |m| m.len());
            println!(
                "  {label:<18} {:>10.1} {:>12.1} {secs:>8.1}  (snapshot file {:.1} MB)",
                bytes as f64 / MB,
                peak / MB,
                file as f64 / MB
            );
        }
        let _ = std::fs::remove_file(&snapshot);
    }
}

/// Runs one export to a pipe that is counted and thrown away; returns the
/// bytes written, the child's peak resident memory in bytes, and seconds.
// The child is reaped by `wait4` in `peak_of` (std's wait gives no rusage).
#[allow(clippy::zombie_processes)]
fn export(server: &DemoServer, command: &str, format: &str) -> (u64, f64, f64) {
    run(
        server,
        &[command, "--all", "--limit", "1000", "--format", format],
    )
}

/// Runs the binary with `args` against `server`, as [`export`] says.
#[allow(clippy::zombie_processes)]
fn run(server: &DemoServer, args: &[&str]) -> (u64, f64, f64) {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_findings"))
        .args(args)
        .env("FINDINGS_BASE_URL", server.url())
        .env("FINDINGS_DEPLOYMENT", server.deployment())
        .env("FINDINGS_TOKEN", server.token())
        .env("FINDINGS_CONFIG", "/nonexistent/findings-bench/config.toml")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    let mut out = child.stdout.take().expect("stdout");
    let bytes = std::io::copy(&mut out, &mut std::io::sink()).expect("the output");
    let peak = peak_of(child.id() as i32);
    (bytes, peak, started.elapsed().as_secs_f64())
}

/// Waits for `pid` and returns its peak resident memory in bytes.
#[cfg(unix)]
fn peak_of(pid: i32) -> f64 {
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value for wait4 to fill in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: wait4 writes only into the two out-pointers given.
    let got = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(got, pid, "waited for the export");
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "the export succeeded"
    );
    // Kilobytes on Linux, bytes on macOS.
    let scale = if cfg!(target_os = "macos") {
        1.0
    } else {
        1024.0
    };
    usage.ru_maxrss as f64 * scale
}

#[cfg(not(unix))]
fn peak_of(_pid: i32) -> f64 {
    0.0
}
