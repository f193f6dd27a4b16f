//! The snapshot file on the command line, version 2 and 1: what a saved
//! snapshot holds (each finding whole), a version 1 file (saved by the
//! build before version 2, `tests/fixtures/snapshot_v1.snap`) still shown
//! and compared, and `findings --snapshot FILE`: no request to the
//! configured deployment, and every problem with the file or the flags a
//! usage error (exit 2) that says which.

use crate::cli::Server;
use crate::common::{Recorder, anchor, findings};
use findings_demo::DemoOptions;
use findings_snapshot::Reader;
use std::path::{Path, PathBuf};

const V1: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/snapshot_v1.snap"
);

fn saved(dir: &Path) -> PathBuf {
    let server = Server::with_options(DemoOptions {
        findings: 300,
        anchor: Some(anchor()),
        ..Default::default()
    });
    let path = dir.join("v2.snap");
    let (code, _, stderr) = server.run(&["snapshot", "save", "-o", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    path
}

/// `findings ARGS` with no deployment configured at all.
fn run(args: &[&str]) -> (i32, String, String) {
    let out = findings().args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_version_4_snapshot_holds_each_finding_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = saved(dir.path());
    let mut reader = Reader::new(std::fs::File::open(&path).unwrap()).unwrap();
    assert_eq!(reader.header().version, 4);
    let request = &reader.header().request;
    assert_eq!(request.include_remediation, Some(true));
    assert_eq!(request.include_first_detected_at, Some(true));
    let mut whole = 0;
    while let Some((_, item)) = reader.next_item().unwrap() {
        let issue = item.issue.unwrap();
        assert!(issue.first_detected_at.is_some(), "{issue:?}");
        assert!(!issue.activity_history.is_empty(), "{issue:?}");
        whole += usize::from(issue.remediation.is_some());
    }
    assert!(whole > 0, "remediation kept");
}

#[test]
fn a_version_1_snapshot_still_shows_and_diffs_but_does_not_open_offline() {
    let (code, stdout, stderr) = run(&["snapshot", "show", V1, "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    let shown: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(shown["header"]["version"], 1);
    assert_eq!(shown["findings"], 274);
    assert_eq!(shown["bySeverity"]["critical"], 65);
    // Against itself: nothing; against a version 2 file: its changes.
    let (code, stdout, stderr) = run(&["diff", V1, V1, "--format", "ndjson"]);
    assert_eq!((code, stdout.as_str()), (0, ""), "{stderr}");
    let dir = tempfile::tempdir().unwrap();
    let v2 = saved(dir.path());
    let (code, stdout, stderr) = run(&["diff", V1, v2.to_str().unwrap(), "--format", "ndjson"]);
    assert_eq!(code, 0, "{stderr}");
    // The same seed, another day: the same ids, so changes only of what
    // moved with the dates (re-triaged at other times), each one named; a
    // version 1 file records no tickets, so no ticket change is said.
    let known = [
        "new",
        "fixed",
        "gone",
        "reopened",
        "triaged",
        "retriaged",
        "severity",
    ];
    for line in stdout.lines() {
        let change: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(
            known.contains(&change["category"].as_str().unwrap()),
            "{line}"
        );
        assert!(change["id"].as_str().unwrap().starts_with("100"), "{line}");
    }
    // Offline needs the whole findings.
    let (code, _, stderr) = run(&["--snapshot", V1]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("version 1 keeps only a few fields") && stderr.contains("save it again"),
        "{stderr}"
    );
}

#[test]
fn offline_sends_nothing_to_the_configured_deployment_nor_its_token() {
    let dir = tempfile::tempdir().unwrap();
    let path = saved(dir.path());
    let recorder = Recorder::start();
    let out = findings()
        .args(["--snapshot", path.to_str().unwrap()])
        .env("FINDINGS_BASE_URL", &recorder.url)
        .env("FINDINGS_DEPLOYMENT", "1234")
        .env("FINDINGS_TOKEN", "the-configured-secret")
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    // Piped: the overview, from the snapshot, on this machine.
    assert!(stdout.contains("Open findings: Total"), "{stdout}");
    assert!(stdout.contains("http://127.0.0.1:"), "{stdout}");
    assert!(!stdout.contains(&recorder.url), "{stdout}");
    assert!(recorder.bodies().is_empty());
}

#[test]
fn a_missing_damaged_foreign_or_newer_file_and_conflicting_flags_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let good = saved(dir.path());
    let bytes = std::fs::read(&good).unwrap();
    let write = |name: &str, content: &[u8]| {
        let path = dir.path().join(name);
        std::fs::write(&path, content).unwrap();
        path.to_str().unwrap().to_owned()
    };
    let cut = write("cut.snap", &bytes[..bytes.len() / 2]);
    let foreign = write("foreign.snap", b"{\"issues\": []}\n");
    let mut newer = bytes.clone();
    newer[6] = 9;
    let newer = write("newer.snap", &newer);
    let missing = dir.path().join("missing.snap");
    let missing = missing.to_str().unwrap();
    let good = good.to_str().unwrap();
    for (args, said) in [
        (vec!["--snapshot", missing], "cannot open it"),
        (vec!["--snapshot", &cut], "damaged snapshot"),
        (vec!["--snapshot", &foreign], "not a findings snapshot"),
        (vec!["--snapshot", &newer], "newer than this build reads"),
        (
            vec![
                "--snapshot",
                good,
                "--base-url",
                "https://findings.example.com",
            ],
            "--base-url is for a deployment",
        ),
        (
            vec!["--snapshot", good, "--deployment", "7"],
            "--deployment is for a deployment",
        ),
        (
            vec!["--snapshot", good, "issues"],
            "a command reads one with",
        ),
    ] {
        let (code, stdout, stderr) = run(&args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stderr.contains(said), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert_eq!(stdout, "", "{args:?}");
    }
}
