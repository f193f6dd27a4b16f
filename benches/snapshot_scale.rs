//! Peak memory of `findings diff` of two snapshots and of the offline view
//! (`findings --snapshot FILE`, piped: opened, then its overview) as the
//! findings grow (issue 52: the diff flat, the offline view within 250
//! bytes a finding up to ten million).
//!
//! The snapshots are written here, straight from the demo's generator
//! through the snapshot writer (the findings whole, with the remediation,
//! activity and first detection a save asks for): no server, so ten million
//! take minutes rather than the 17 of a `snapshot save`. OLD is the demo
//! set; NEW the same seed 14 days on (`demo serve --days-later 14`: new,
//! fixed, reopened, triaged …), so the diff has every kind of change to
//! say. Each run is the release binary as a child under GNU time
//! (/usr/bin/time, required), its output piped here and counted.
//!
//! Run: `cargo bench --bench snapshot_scale`; environment: FINDINGS
//! (generated sizes, comma-separated; default 1000000,2000000; every
//! generated row is written, where the demo server lists about 91 % of
//! them, at most the snapshot's cap of ten million), KEEP (a folder: the snapshots are written
//! there and kept, and reused when already there).

// Measuring code, not shipped: its casts turn counts into figures.
#![allow(clippy::cast_precision_loss)]

use findings_demo::dataset::Dataset;
use findings_demo::materialize::Parts;
use findings_model::{IssueItem, ListIssuesRequest};
use findings_snapshot::{Header, Writer};
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

const MB: f64 = 1_000_000.0;

fn main() {
    let sizes: Vec<usize> = std::env::var("FINDINGS")
        .unwrap_or_else(|_| "1000000,2000000".into())
        .split(',')
        .map(|s| s.trim().parse().expect("FINDINGS: sizes"))
        .collect();
    let keep = std::env::var_os("KEEP").map(PathBuf::from);
    let dir = keep.clone().unwrap_or_else(|| {
        std::env::temp_dir().join(format!("findings-scale-{}", std::process::id()))
    });
    std::fs::create_dir_all(&dir).expect("the snapshots' folder");
    // The fixed cost: the same runs over a snapshot of a thousand.
    let small_old = write_snapshot(&dir, 1000, 0);
    let small_new = write_snapshot(&dir, 1000, 14);
    let (_, diff_base, _) = run(&["diff", path(&small_old), path(&small_new)]);
    let (_, offline_base, _) = run(&["--snapshot", path(&small_old)]);
    println!(
        "fixed cost (1,000 generated): diff {:.1} MB, offline view {:.1} MB",
        diff_base / MB,
        offline_base / MB
    );
    println!(
        "{:>12} {:>10} | {:>24} | {:>36}",
        "generated", "listed", "diff OLD NEW: time, peak", "offline view: time, peak, a finding"
    );
    for &n in &sizes {
        let old = write_snapshot(&dir, n, 0);
        let new = write_snapshot(&dir, n, 14);
        let listed = count(&old);
        let (changes, diff_peak, diff_time) = run(&["diff", path(&old), path(&new)]);
        let (_, peak, time) = run(&["--snapshot", path(&old)]);
        println!(
            "{n:>12} {listed:>10} | {diff_time:>8.1} s {:>9.1} MB ({changes} changes) | \
             {time:>8.1} s {:>9.1} MB {:>6.0} B ({:.0} B above the fixed cost)",
            diff_peak / MB,
            peak / MB,
            peak / listed as f64,
            (peak - offline_base) / listed as f64,
        );
    }
    if keep.is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
}

fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 temporary path")
}

/// The demo set of `n` (seed 42), `days_later` days on, as a snapshot in
/// `dir` (reused when a kept one is there).
fn write_snapshot(dir: &Path, n: usize, days_later: u32) -> PathBuf {
    let file = dir.join(format!("demo-{n}-{days_later}.snap"));
    if file.exists() {
        return file;
    }
    let started = Instant::now();
    let anchor = "2026-11-25T10:00:00Z".parse().expect("a time");
    let ds = Dataset::generate_moved_on(n, 42, anchor, "1234", days_later);
    let header = Header::new(
        anchor,
        "http://127.0.0.1:8787",
        "1234",
        &ListIssuesRequest::default(),
    );
    let temp = file.with_extension("part");
    let out = BufWriter::new(std::fs::File::create(&temp).expect("a snapshot file"));
    let mut writer = Writer::new(out, &header).expect("the header");
    let parts = Parts {
        remediation: true,
        activity_history: true,
        is_archived: true,
        first_detected_at: true,
        single_issue: false,
    };
    // A snapshot holds at most ten million: the 10M set 14 days on
    // generated 10.7 million (its server lists 9.7), cut at the cap here,
    // so the diff is of two full ten-million files.
    let cap = usize::try_from(findings_snapshot::MAX_FINDINGS).unwrap_or(usize::MAX);
    for index in 0..ds.rows.len().min(cap) {
        let item = IssueItem {
            issue: Some(ds.issue(index, parts)),
            ..IssueItem::default()
        };
        let json = serde_json::to_vec(&item).expect("a finding's JSON");
        writer.item(&json).expect("written");
    }
    let written = writer.count();
    let mut out = writer.finish().expect("the trailer");
    std::io::Write::flush(&mut out).expect("flushed");
    drop(out);
    std::fs::rename(&temp, &file).expect("renamed");
    eprintln!(
        "wrote {} ({written} findings) in {:.1} s",
        file.display(),
        started.elapsed().as_secs_f64()
    );
    file
}

/// The findings a snapshot holds (its trailer's count, read by the tool).
fn count(file: &Path) -> u64 {
    let out = Command::new(env!("CARGO_BIN_EXE_findings"))
        .args(["snapshot", "show", path(file)])
        // No config file: the usual place, in a folder that does not exist.
        .env_remove("FINDINGS_CONFIG")
        .env("XDG_CONFIG_HOME", "/nonexistent/findings-bench")
        .output()
        .expect("snapshot show");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| {
            l.strip_prefix("findings")?
                .trim()
                .replace(',', "")
                .parse()
                .ok()
        })
        .expect("its count")
}

/// Runs the binary with `args` under GNU time: (lines out, peak bytes,
/// seconds).
fn run(args: &[&str]) -> (u64, f64, f64) {
    let report = std::env::temp_dir().join(format!("findings-scale-{}.time", std::process::id()));
    let started = Instant::now();
    let out = Command::new("/usr/bin/time")
        .arg("-f")
        .arg("%M")
        .arg("-o")
        .arg(&report)
        .arg(env!("CARGO_BIN_EXE_findings"))
        .args(args)
        // No config file: the usual place, in a folder that does not exist.
        .env_remove("FINDINGS_CONFIG")
        .env("XDG_CONFIG_HOME", "/nonexistent/findings-bench")
        .env("FINDINGS_FORMAT", "ndjson")
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .expect("GNU time runs the binary");
    let seconds = started.elapsed().as_secs_f64();
    assert!(out.status.success(), "findings {args:?} failed");
    let lines =
        u64::try_from(String::from_utf8_lossy(&out.stdout).lines().count()).unwrap_or(u64::MAX);
    let kb: f64 = std::fs::read_to_string(&report)
        .ok()
        .and_then(|t| t.trim().lines().last()?.trim().parse().ok())
        .expect("GNU time's figure");
    let _ = std::fs::remove_file(&report);
    (lines, kb * 1024.0, seconds)
}
