//! Peak resident memory and time of the headless exports following every
//! page (`--all`), for each format, against the raw transfer of the same
//! pages. Targets (issue 28): every format under 64 MB at 1,000,000
//! findings (the results of SARIF and the findings of the report's JSON
//! stream; only SARIF's rules are held, and they are few), and each export
//! within 1.1x of the raw transfer's time.
//!
//! The demo server is a `findings demo serve` process on a core of its own
//! (`support/own_core.rs`; `PIN=0` shares every core). Each export is the
//! real binary run as a child, its output piped here and counted; its peak
//! is GNU time's figure for it where /usr/bin/time exists (see [`run`]),
//! else the child's `ru_maxrss` from `wait4`, which counts this process's
//! memory too. The raw transfer is `curl` fetching the same pages (the
//! cursors read beforehand) one after the other on one connection, its
//! output piped here and counted the same way: nothing decoded, nothing
//! checked (`support/curl.rs`). Run: `cargo bench --bench export_memory`
//! (needs curl); environment: FINDINGS
//! (sizes, comma-separated; default 20000,100000; 1000000 takes about 10
//! minutes a run on 2 cores), RUNS (runs of each, default 1; min / median /
//! max printed when more), ONLY (runs whose label contains one of these
//! comma-separated words, e.g. `csv,sarif,report json`; the snapshot and
//! the diff run only without it).
//!
//! The scripting runs too: `--json id,severity`, `--jq .id`, `--jq
//! '[.id, .severity] | @csv'` and `--format csv --columns leadership`
//! (target: within 1.2x of `issues ndjson`).
//!
//! Also `findings snapshot save` (every page into one snapshot file, each
//! finding whole), `snapshot show` and `findings diff` of that snapshot
//! against the live deployment and against itself (the old side held as a
//! compact vector, 24 bytes a finding, up to a million; past it partitioned
//! on disk, `benches/snapshot_scale.rs`): target, under 64 MB at a million
//! too; and `findings --snapshot FILE` piped (the offline server built from
//! the file and its overview asked), whose compact rows grow with the
//! findings (about the demo server's row a finding).

// Measuring and test code, not shipped: its casts turn a test's small
// counts and sizes into figures (issue 52 holds for the product's crates).
#![allow(
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss,
    clippy::cast_precision_loss
)]
// Test harness, not shipped: wait4 reads a child's peak memory. The product's only
// unsafe code is findings_base::sys (the architecture test keeps it so).
#![allow(unsafe_code)]

#[path = "support/curl.rs"]
mod curl;
#[path = "support/figures.rs"]
mod figures;
#[path = "support/own_core.rs"]
mod own_core;

use figures::{median, spread};

use own_core::OwnCoreServer;
use std::process::{Command, Stdio};
use std::time::Instant;

const MB: f64 = 1024.0 * 1024.0;

/// What each run exports: the command and its format.
const RUNS: &[(&str, &str)] = &[
    ("issues", "ndjson"),
    ("issues", "json"),
    ("issues", "csv"),
    ("issues", "table"),
    ("issues", "markdown"),
    ("issues", "sarif"),
    ("report", "ndjson"),
    ("report", "json"),
];

/// The scripting runs beside the formats (issue 39: within 1.2x of
/// `issues ndjson`): their label and their flags after `issues --all`.
const SCRIPTED: &[(&str, &[&str])] = &[
    ("issues --json id,severity", &["--json", "id,severity"]),
    ("issues --jq .id", &["--jq", ".id"]),
    ("issues --jq @csv", &["--jq", "[.id, .severity] | @csv"]),
    (
        "issues --columns leadership",
        &["--format", "csv", "--columns", "leadership"],
    ),
];

/// What the environment asks: the sizes, the runs of each, and ONLY's words.
struct Asked {
    counts: Vec<usize>,
    runs: usize,
    only: Vec<String>,
}

impl Asked {
    fn from_env() -> Self {
        let counts: Vec<usize> = std::env::var("FINDINGS")
            .ok()
            .map(|v| v.split(',').filter_map(|n| n.trim().parse().ok()).collect())
            .filter(|v: &Vec<usize>| !v.is_empty())
            .unwrap_or_else(|| vec![20_000, 100_000]);
        let runs: usize = std::env::var("RUNS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(1)
            .max(1);
        let only: Vec<String> = std::env::var("ONLY")
            .ok()
            .map(|v| v.split(',').map(|w| w.trim().to_owned()).collect())
            .unwrap_or_default();
        Asked { counts, runs, only }
    }

    /// Whether the run of this label is asked for.
    fn chosen(&self, label: &str) -> bool {
        self.only.is_empty() || self.only.iter().any(|w| label.contains(w.as_str()))
    }
}

/// Every run of each row, in turns: (label, bytes, peaks, seconds, CPU seconds).
type Row = (String, u64, Vec<f64>, Vec<f64>, Vec<f64>);

/// The raw transfer's seconds, of `issues` and of `report`.
type Raw = [Vec<f64>; 2];

fn main() {
    if std::env::args().any(|a| a == "--list") {
        // `cargo bench -- --list` asks harnesses for their benches.
        println!("export_memory: bench");
        return;
    }
    let asked = Asked::from_env();
    // Before the runtime's threads start: they and every child keep off
    // the server's core.
    own_core::pin_off_server_core();
    findings_client::install_crypto_provider();
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    for &findings in &asked.counts {
        bench_size(&runtime, &asked, findings);
    }
}

/// Every run at one size, against a server of its own, and its table.
fn bench_size(runtime: &tokio::runtime::Runtime, asked: &Asked, findings: usize) {
    let runs = asked.runs;
    let server = OwnCoreServer::start(env!("CARGO_BIN_EXE_findings"), findings);
    // Every page's request body, for curl to send.
    let configs: Vec<std::path::PathBuf> = ["issues", "report"]
        .into_iter()
        .map(|endpoint| {
            let url = endpoint_url(&server, endpoint);
            runtime.block_on(curl::curl_config_file(&url, &server.token, endpoint))
        })
        .collect();
    println!(
        "export_memory: {findings} findings, every page of 1,000 (--all), {runs} run(s): min / median / max; {}",
        server.placement()
    );
    println!(
        "  {:<28} {:>10} {:>24} {:>24} {:>10} {:>20}",
        "run", "output MB", "peak RSS MB", "seconds", "x raw", "CPU s (user+sys)"
    );
    let snapshot = std::env::temp_dir().join(format!("findings-bench-{}.snap", std::process::id()));
    let path = snapshot
        .to_str()
        .expect("a UTF-8 temporary path")
        .to_owned();
    let (mut rows, raw) = measure(&server, &configs, asked, &path);
    print_rows(&mut rows, &raw);
    let file = std::fs::metadata(&snapshot).map_or(0, |m| m.len());
    // Its size against the NDJSON of the same findings (issue 39: at most
    // a quarter), when both ran.
    let ndjson = rows
        .iter()
        .find(|row| row.0 == "issues ndjson")
        .map_or(0, |row| row.1);
    match (file, ndjson) {
        (0, _) => {}
        (_, 0) => println!("  (snapshot file {:.1} MB)", file as f64 / MB),
        _ => println!(
            "  (snapshot file {:.1} MB: {:.1} % of issues ndjson's {:.1} MB)",
            file as f64 / MB,
            100.0 * file as f64 / ndjson as f64,
            ndjson as f64 / MB
        ),
    }
    let _ = std::fs::remove_file(&snapshot);
    for path in configs {
        let _ = std::fs::remove_file(path);
    }
}

/// Runs the raw transfers and every asked run, `asked.runs` times in turns.
fn measure(
    server: &OwnCoreServer,
    configs: &[std::path::PathBuf],
    asked: &Asked,
    path: &str,
) -> (Vec<Row>, Raw) {
    let mut rows: Vec<Row> = Vec::new();
    let mut raw = [Vec::new(), Vec::new()];
    for _ in 0..asked.runs {
        for (slot, config) in configs.iter().enumerate() {
            raw[slot].push(curl::curl_pages(config));
        }
        let mut k = 0;
        let mut add = |label: String, (bytes, peak, secs, cpu): Ran| {
            if rows.len() <= k {
                rows.push((label, bytes, Vec::new(), Vec::new(), Vec::new()));
            }
            rows[k].2.push(peak / MB);
            rows[k].3.push(secs);
            rows[k].4.push(cpu);
            k += 1;
        };
        for &(command, format) in RUNS {
            let label = format!("{command} {format}");
            if asked.chosen(&label) {
                add(label, export(server, command, format));
            }
        }
        for &(label, flags) in SCRIPTED {
            if asked.chosen(label) {
                let mut args = vec!["issues", "--all", "--limit", "1000"];
                args.extend_from_slice(flags);
                add(label.to_owned(), run(server, &args));
            }
        }
        if asked.only.is_empty() {
            add(
                "snapshot save".into(),
                run(server, &["snapshot", "save", "-o", path]),
            );
            add(
                "diff (live)".into(),
                run(server, &["diff", path, "--format", "ndjson"]),
            );
            add(
                "snapshot show".into(),
                run(server, &["snapshot", "show", path]),
            );
            add(
                "diff (snapshots)".into(),
                run(server, &["diff", path, path, "--format", "ndjson"]),
            );
            add("offline open".into(), run(server, &["--snapshot", path]));
        }
    }
    (rows, raw)
}

/// The table: the raw transfers, then each run against its raw transfer.
fn print_rows(rows: &mut [Row], raw: &Raw) {
    for (slot, label) in ["raw issues (curl)", "raw report (curl)"]
        .into_iter()
        .enumerate()
    {
        println!(
            "  {label:<28} {:>10} {:>24} {:>24}",
            "",
            "",
            spread(&mut raw[slot].clone(), 1)
        );
    }
    for (label, bytes, peaks, secs, cpu) in rows {
        let base = if label.starts_with("report") {
            &raw[1]
        } else {
            &raw[0]
        };
        let ratio = if label.starts_with("snapshot")
            || label.starts_with("diff")
            || label.starts_with("offline")
        {
            String::new()
        } else {
            format!("{:.2}", median(secs) / median(base))
        };
        println!(
            "  {label:<28} {:>10.1} {:>24} {:>24} {ratio:>10} {:>20}",
            *bytes as f64 / MB,
            spread(peaks, 1),
            spread(secs, 1),
            spread(cpu, 1),
        );
    }
}

/// Where List issues (`issues`) or Report findings (`report`) are asked.
fn endpoint_url(server: &OwnCoreServer, endpoint: &str) -> String {
    match endpoint {
        "report" => format!(
            "{}/api/reporting/{}/findings",
            server.url, server.deployment
        ),
        _ => format!(
            "{}/api/agent/deployments/{}/issues",
            server.url, server.deployment
        ),
    }
}

/// What a run gives: bytes written, peak resident bytes, seconds, and CPU
/// seconds (user and system; NaN without GNU time).
type Ran = (u64, f64, f64, f64);

/// Runs one export to a pipe that is counted and thrown away; returns the
/// bytes written, the child's peak resident memory in bytes, and seconds.
// The child is reaped by `wait4` in `peak_of` (std's wait gives no rusage).
#[allow(clippy::zombie_processes)]
fn export(server: &OwnCoreServer, command: &str, format: &str) -> Ran {
    run(
        server,
        &[command, "--all", "--limit", "1000", "--format", format],
    )
}

/// Runs the binary with `args` against `server`, as [`export`] says.
///
/// Under GNU time when there is one: a child's `ru_maxrss` counts the memory
/// of the process it was spawned from (Linux keeps the high-water mark
/// across exec), and this process holds the demo server (about 200 MB at a
/// million findings); GNU time is a small process that forks the export
/// itself, so its figure is the export's own.
#[allow(clippy::zombie_processes)]
fn run(server: &OwnCoreServer, args: &[&str]) -> Ran {
    let started = Instant::now();
    let bin = env!("CARGO_BIN_EXE_findings");
    let gnu_time = std::path::Path::new("/usr/bin/time");
    let report = std::env::temp_dir().join(format!("findings-bench-{}.time", std::process::id()));
    let mut command = if gnu_time.exists() {
        let mut c = Command::new(gnu_time);
        c.arg("-f").arg("%M %U %S").arg("-o").arg(&report).arg(bin);
        c
    } else {
        Command::new(bin)
    };
    let mut child = command
        .args(args)
        .env("FINDINGS_BASE_URL", &server.url)
        .env("FINDINGS_DEPLOYMENT", &server.deployment)
        .env("FINDINGS_TOKEN", &server.token)
        // No config file: the usual place, in a folder that does not exist.
        .env_remove("FINDINGS_CONFIG")
        .env("XDG_CONFIG_HOME", "/nonexistent/findings-bench")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    let mut out = child.stdout.take().expect("stdout");
    let bytes = std::io::copy(&mut out, &mut std::io::sink()).expect("the output");
    let mut peak = peak_of(child.id() as i32);
    let mut cpu = f64::NAN;
    if gnu_time.exists() {
        let figures: Vec<f64> = std::fs::read_to_string(&report)
            .ok()
            .and_then(|t| {
                let last = t.trim().lines().last()?.to_owned();
                last.split_whitespace().map(|f| f.parse().ok()).collect()
            })
            .expect("GNU time's figures");
        peak = figures[0] * 1024.0;
        cpu = figures[1] + figures[2];
        let _ = std::fs::remove_file(&report);
    }
    (bytes, peak, started.elapsed().as_secs_f64(), cpu)
}

/// Waits for `pid` and returns its peak resident memory in bytes (the
/// spawning process's included, see [`run`]).
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
