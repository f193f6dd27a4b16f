//! Snapshots and diffs: save → show → diff against itself (nothing), a
//! diff against the demo moved on two weeks (each category, from a second
//! snapshot and live, the same), `--exit-code` both ways, `--category`, the
//! Markdown summary, and damaged or foreign files refused by name.

use crate::cli::Server;
use crate::common::{anchor, findings};
use findings_demo::DemoOptions;
use serde_json::Value;
use std::collections::BTreeMap;

fn demo(days_later: u32) -> Server {
    Server::with_options(DemoOptions {
        findings: 2000,
        anchor: Some(anchor()),
        days_later,
        ..Default::default()
    })
}

fn save(server: &Server, file: &std::path::Path, extra: &[&str]) {
    let file = file.to_str().unwrap();
    let (code, _, stderr) = server.run(&[&["snapshot", "save", "-o", file], extra].concat());
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("findings: saved "), "{stderr}");
}

fn lines(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn by_category(changes: &[Value]) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for c in changes {
        *counts
            .entry(c["category"].as_str().unwrap().to_owned())
            .or_insert(0) += 1;
    }
    counts
}

#[test]
fn a_snapshot_shows_its_header_and_counts_and_differs_from_itself_in_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("now.snap");
    let server = demo(0);
    save(&server, &file, &["--severity", "critical,high"]);
    let path = file.to_str().unwrap();
    let (code, stdout, stderr) = server.run(&["snapshot", "show", path, "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    let shown: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(shown["header"]["format"], "findings-snapshot");
    assert_eq!(shown["header"]["version"], 4);
    assert_eq!(shown["header"]["deployment"], "1234");
    assert!(
        shown["header"]["tool"]
            .as_str()
            .unwrap()
            .starts_with("findings ")
    );
    let filter = &shown["header"]["request"]["filter"]["severities"];
    assert_eq!(
        filter.as_array().unwrap().len(),
        2,
        "the filter is kept: {shown}"
    );
    // As many as the listing has, every one critical or high.
    let (_, listed, _) = server.run(&[
        "issues",
        "--severity",
        "critical,high",
        "--all",
        "--format",
        "ndjson",
    ]);
    let total = shown["findings"].as_u64().unwrap();
    assert_eq!(total as usize, lines(&listed).len());
    let severities = shown["bySeverity"].as_object().unwrap();
    let keys: Vec<&str> = severities.keys().map(String::as_str).collect();
    assert_eq!(keys, ["critical", "high"]);
    let summed: u64 = shown["byState"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(summed, total);
    // The table says the same.
    let (code, table, _) = server.run(&["snapshot", "show", path]);
    assert_eq!(code, 0);
    assert!(table.contains(&format!("findings    {total}")), "{table}");
    // Against itself, and against the unchanged deployment: nothing, and
    // --exit-code does not fire.
    for against in [Some(path), None] {
        let mut args = vec!["diff", path];
        args.extend(against);
        args.extend(["--format", "ndjson", "--exit-code", "3"]);
        let (code, stdout, stderr) = server.run(&args);
        assert_eq!((code, stdout.as_str()), (0, ""), "{args:?}: {stderr}");
    }
    // Where a person reads it (a table, the Markdown summary), no change
    // is said, with the snapshot's time; the machine formats stay empty.
    let saved = shown["header"]["savedAt"].as_str().unwrap();
    let when = chrono::DateTime::parse_from_rfc3339(saved)
        .unwrap()
        .format("%Y-%m-%d %H:%M UTC")
        .to_string();
    for format in ["table", "markdown"] {
        let (code, stdout, stderr) = server.run(&["diff", path, path, "--format", format]);
        assert_eq!(code, 0, "{stderr}");
        assert!(
            stdout.contains(&format!("no change since now.snap ({when})")),
            "{format}: {stdout}"
        );
    }
    let (_, stdout, _) =
        server.run(&["diff", path, path, "--format", "table", "--category", "new"]);
    assert!(
        stdout.contains("no change of the kinds asked for (new) since"),
        "{stdout}"
    );
    for format in ["csv", "json"] {
        let (_, stdout, _) = server.run(&["diff", path, path, "--format", format]);
        assert!(!stdout.contains("no change"), "{format}: {stdout}");
    }
}

/// Snapshots of the demo now (`old.snap`) and two weeks later
/// (`new.snap`), in the folder returned, with the two servers.
fn two_weeks_apart() -> (tempfile::TempDir, Server, Server) {
    let dir = tempfile::tempdir().unwrap();
    let (before, after) = (demo(0), demo(14));
    save(&before, &dir.path().join("old.snap"), &[]);
    save(&after, &dir.path().join("new.snap"), &[]);
    (dir, before, after)
}

/// The two snapshots' paths of [`two_weeks_apart`].
fn paths(dir: &tempfile::TempDir) -> (String, String) {
    let text = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    (text("old.snap"), text("new.snap"))
}

/// Partitioned (one finding held at a time, the rest put by in temporary
/// files), every format of the diff of `old` and `new` says what the
/// in-memory diff said (`in_memory`: ndjson, markdown, csv) and leaves
/// nothing behind; the table fits the width asked for.
fn partitioned_and_table_agree(after: &Server, old: &str, new: &str, in_memory: [&String; 3]) {
    for (format, in_memory) in ["ndjson", "markdown", "csv"].into_iter().zip(in_memory) {
        let temp = tempfile::tempdir().unwrap();
        let out = crate::common::findings()
            .args(["diff", old, new, "--format", format])
            .env("TMPDIR", temp.path())
            .env("FINDINGS_TEST_DIFF_BOUND", "1")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        assert_eq!(&String::from_utf8_lossy(&out.stdout), in_memory, "{format}");
        assert_eq!(std::fs::read_dir(temp.path()).unwrap().count(), 0);
    }
    // The table fits the width asked for, every line, at 80 and 60
    // columns: the change, the finding, its severity, state and rule stay.
    for width in ["80", "60"] {
        let (code, table, stderr) =
            after.run(&["diff", old, new, "--format", "table", "--width", width]);
        assert_eq!(code, 0, "{stderr}");
        let w: usize = width.parse().unwrap();
        assert!(table.lines().count() > 10, "{table}");
        let long: Vec<&str> = table.lines().filter(|l| l.chars().count() > w).collect();
        assert!(long.is_empty(), "{width}: {long:#?}");
        let header = table.lines().next().unwrap_or_default();
        for kept in ["CATEGORY", "ID", "SEVERITY", "STATE", "RULE"] {
            assert!(header.contains(kept), "{width}: {header}");
        }
    }
}

#[test]
fn a_diff_against_the_demo_two_weeks_later_shows_every_kind_of_change() {
    let (dir, before, after) = two_weeks_apart();
    let (old, new) = paths(&dir);
    let (old, new) = (old.as_str(), new.as_str());
    let (code, stdout, stderr) = after.run(&["diff", old, new, "--format", "ndjson"]);
    assert_eq!(code, 0, "{stderr}");
    let changes = lines(&stdout);
    let counts = by_category(&changes);
    for category in [
        "new",
        "fixed",
        "reopened",
        "triaged",
        "retriaged",
        "severity",
    ] {
        assert!(
            counts.get(category).copied().unwrap_or(0) > 0,
            "{category}: {counts:?}"
        );
    }
    // New findings are open and were not in the old snapshot; triaged ones
    // say by whom (the activity event) and what they were.
    for change in &changes {
        match change["category"].as_str().unwrap() {
            "new" => assert_eq!(change["state"], "open", "{change}"),
            "fixed" => assert_eq!(change["state"], "fixed", "{change}"),
            "triaged" => {
                assert!(
                    change["triagedBy"].as_str().is_some_and(|b| !b.is_empty()),
                    "{change}"
                );
                assert_eq!(change["was"], "untriaged");
            }
            "reopened" => assert_eq!(change["state"], "open", "{change}"),
            _ => {}
        }
    }
    // Live: the deployment asked with the old snapshot's filter says the same.
    let (code, live, stderr) = after.run(&["diff", old, "--format", "ndjson"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(by_category(&lines(&live)), counts);
    // The CI gate: new findings make it exit N, after printing them all.
    let (code, gated, stderr) = after.run(&[
        "diff",
        old,
        new,
        "--category",
        "new",
        "--format",
        "ndjson",
        "--exit-code",
        "5",
    ]);
    assert_eq!(code, 5, "{stderr}");
    assert_eq!(lines(&gated).len(), counts["new"]);
    assert!(
        stderr.contains(&format!(
            "{} changes matched (--exit-code 5)",
            counts["new"]
        )),
        "{stderr}"
    );
    // The Markdown summary: the counts, then a table per kind.
    let (code, md, _) = after.run(&["diff", old, new, "--format", "markdown"]);
    assert_eq!(code, 0);
    assert!(md.contains(&format!("| new | {} |", counts["new"])), "{md}");
    assert!(
        md.contains(&format!("#### triaged ({})", counts["triaged"])),
        "{md}"
    );
    assert!(
        md.contains("| category | id | severity | state | was |"),
        "{md}"
    );
    // Every format: csv has a header and a line per change.
    let (_, csv, _) = after.run(&["diff", old, new, "--format", "csv"]);
    assert_eq!(csv.lines().count(), changes.len() + 1);
    partitioned_and_table_agree(&after, old, new, [&stdout, &md, &csv]);
    // With --state open, what was fixed or ignored since no longer matches:
    // gone, saying what it was.
    let open_only = dir.path().join("open.snap");
    save(&before, &open_only, &["--state", "open"]);
    let open_only = open_only.to_str().unwrap();
    let (code, live, stderr) = after.run(&[
        "diff",
        open_only,
        "--category",
        "gone",
        "--format",
        "ndjson",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let gone = lines(&live);
    assert!(!gone.is_empty());
    assert!(
        gone.iter()
            .all(|c| c["was"] == "open" && c.get("state").is_none()),
        "{live}"
    );
    // A category that is no kind of change is a usage error.
    let (code, _, stderr) = after.run(&["diff", old, new, "--category", "moved"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("unknown --category \"moved\""), "{stderr}");
}

#[test]
fn a_damaged_or_foreign_file_is_refused_saying_so() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.snap");
    let server = demo(0);
    save(&server, &good, &[]);
    let bytes = std::fs::read(&good).unwrap();
    let cut = dir.path().join("cut.snap");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let foreign = dir.path().join("foreign.snap");
    std::fs::write(&foreign, b"{\"issues\": []}\n").unwrap();
    for (file, said) in [
        (&cut, "damaged snapshot"),
        (&foreign, "not a findings snapshot"),
    ] {
        let path = file.to_str().unwrap();
        for args in [
            vec!["snapshot", "show", path],
            vec!["diff", path, good.to_str().unwrap()],
        ] {
            let (code, stdout, stderr) = server.run(&args);
            assert_eq!(code, 1, "{args:?}: {stderr}");
            assert!(
                stderr.contains(said) && stderr.contains(path),
                "{args:?}: {stderr}"
            );
            assert!(!stderr.contains("panicked"), "{stderr}");
            if args[0] == "snapshot" {
                assert_eq!(stdout, "");
            }
        }
    }
}

#[cfg(unix)]
#[test]
fn files_holding_findings_are_the_owners_only() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let server = demo(0);
    let snap = dir.path().join("now.snap");
    save(&server, &snap, &[]);
    let export = dir.path().join("out.ndjson");
    let out = export.to_str().unwrap();
    let (code, _, stderr) = server.run(&["issues", "--format", "ndjson", "-o", out]);
    assert_eq!(code, 0, "{stderr}");
    // Replacing a file already there gives the new one the same mode.
    std::fs::set_permissions(&export, std::fs::Permissions::from_mode(0o644)).unwrap();
    let (code, _, stderr) = server.run(&["issues", "--format", "ndjson", "-o", out]);
    assert_eq!(code, 0, "{stderr}");
    for file in [&snap, &export] {
        let mode = std::fs::metadata(file).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{}", file.display());
    }
}

/// A snapshot of `lines` (header first), each line a block of its own,
/// however long: what a crafted file can hold (docs/src/snapshots.md).
fn crafted(version: u8, lines: &[String]) -> Vec<u8> {
    let mut bytes = b"FSNAP\0".to_vec();
    bytes.extend([version, b'\n']);
    for line in lines {
        let packed = lz4_flex::block::compress_prepend_size(format!("{line}\n").as_bytes());
        bytes.extend((packed.len() as u32).to_le_bytes());
        bytes.extend(packed);
    }
    bytes
}

fn crafted_header(version: u8) -> String {
    format!(
        r#"{{"format":"findings-snapshot","version":{version},"savedAt":"2026-11-25T10:00:00Z","tool":"findings 0.1.0","baseUrl":"https://x.example","deployment":"1234","request":{{}}}}"#
    )
}

#[test]
fn a_snapshot_too_large_to_hold_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let long = "r".repeat(20 << 20);
    // Whole findings with a 20 MB repository name (lz4 packs it small).
    let mut lines = vec![crafted_header(2)];
    lines.extend((0..3).map(|n| {
        format!(r#"{{"issue":{{"id":"{n}","ruleId":"r","repository":{{"name":"{long}{n}"}}}}}}"#)
    }));
    lines.push(r#"{"end":3}"#.into());
    let names = dir.path().join("names.snap");
    std::fs::write(&names, crafted(2, &lines)).unwrap();
    // Entries triaged by a 20 MB name.
    let mut lines = vec![crafted_header(1)];
    lines.extend((0..3).map(|n| format!(r#"{{"id":"{n}","triagedBy":"{long}{n}"}}"#)));
    lines.push(r#"{"end":3}"#.into());
    let triaged = dir.path().join("triaged.snap");
    std::fs::write(&triaged, crafted(1, &lines)).unwrap();
    for file in [&names, &triaged] {
        let path = file.to_str().unwrap();
        for args in [vec!["snapshot", "show", path], vec!["diff", path, path]] {
            let out = findings().args(&args).output().unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
            assert!(
                stderr.contains(path) && stderr.contains("larger than this build reads"),
                "{args:?}: {stderr}"
            );
        }
    }
    let out = findings()
        .args(["--snapshot", names.to_str().unwrap()])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("larger than this build reads"), "{stderr}");
}

#[test]
fn a_snapshot_repeating_a_finding_is_refused_offline_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let finding = r#"{"issue":{"id":"42","ruleId":"r","repository":{"name":"acme/api"}}}"#;
    let mut lines = vec![crafted_header(2)];
    lines.extend(std::iter::repeat_n(finding.to_owned(), 1000));
    lines.push(r#"{"end":1000}"#.into());
    let file = dir.path().join("twice.snap");
    std::fs::write(&file, crafted(2, &lines)).unwrap();
    let path = file.to_str().unwrap();
    let out = findings().args(["--snapshot", path]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(path) && stderr.contains("finding 42 is in it more than once"),
        "{stderr}"
    );
}

/// `snapshot show` and `diff` read each finding only as far as its entry
/// needs: for every finding of the demo (with every include a snapshot
/// asks), that entry is the whole finding's.
#[tokio::test(flavor = "multi_thread")]
async fn an_entry_read_lightly_is_the_whole_findings_for_every_demo_finding() {
    use findings_model::IssueItem;
    use findings_model::list::ListIssuesResponse;
    use findings_model::listed::ListedPage;
    use findings_snapshot::Entry;
    let server = crate::common::demo(2000).await;
    let url = format!(
        "{}/api/agent/deployments/{}/issues",
        server.url(),
        server.deployment()
    );
    let mut cursor: Option<String> = None;
    let mut compared = 0;
    loop {
        let body = serde_json::json!({
            "limit": 1000, "cursor": cursor, "includeRemediation": true,
            "includeActivityHistory": true, "includeIsArchived": true,
            "includeFirstDetectedAt": true
        });
        let text = crate::common::http()
            .post(&url)
            .bearer_auth(server.token())
            .json(&body)
            .send()
            .await
            .unwrap()
            .bytes()
            .await
            .unwrap();
        let whole: ListIssuesResponse = findings_base::json::decode(&text).unwrap();
        let light: ListedPage = findings_base::json::decode(&text).unwrap();
        assert_eq!(whole.issues.len(), light.issues.len());
        for (whole, light) in whole.issues.iter().zip(light.issues) {
            let entry = Entry::of(whole);
            assert!(entry.is_some());
            assert_eq!(entry, Entry::of(&IssueItem::from(light)));
            compared += 1;
        }
        cursor = whole.cursor.filter(|c| !c.is_empty());
        if cursor.is_none() || whole.issues.is_empty() {
            break;
        }
    }
    assert_eq!(
        compared,
        crate::common::listed(2000),
        "every finding listed"
    );
}

/// A triage undone and a ticket linked or unlinked since the snapshot are
/// changes a live diff names: untriaged (what the triage was) and ticket
/// (what the ticket was, and what it is now).
#[test]
fn a_live_diff_names_a_triage_undone_and_ticket_changes() {
    let server = demo(0);
    let dir = tempfile::tempdir().unwrap();
    let old = dir.path().join("old.snap");
    let old = old.to_str().unwrap();
    // The first of the listed findings a jq condition keeps.
    let first_id = |state: &str, keep: &str| -> String {
        let jq = format!("select({keep}) | .id");
        let (code, out, err) = server.run(&[
            "issues",
            "--state",
            state,
            "--max",
            "300",
            "--json",
            "id,externalTicket",
            "--jq",
            &jq,
        ]);
        assert_eq!(code, 0, "{err}");
        out.lines()
            .next()
            .unwrap_or_else(|| panic!("none {state} {keep}: {err}"))
            .trim_matches('"')
            .to_owned()
    };
    let ignored = first_id("ignored", "true");
    let ticketed = first_id("open", ".externalTicket != null");
    let unticketed = first_id("open", ".externalTicket == null");
    save(&server, std::path::Path::new(old), &[]);

    for args in [
        vec!["triage", ignored.as_str(), "--state", "untriaged", "--yes"],
        vec!["ticket", "unlink", ticketed.as_str(), "--yes"],
        vec![
            "ticket",
            "link",
            "https://tickets.example.com/browse/SEC-9999",
            unticketed.as_str(),
            "--yes",
        ],
    ] {
        let (code, _, err) = server.run(&args);
        assert_eq!(code, 0, "{args:?}: {err}");
    }
    let (code, out, err) = server.run(&["diff", old, "--format", "ndjson"]);
    assert_eq!(code, 0, "{err}");
    let changes = lines(&out);
    let find = |category: &str, id: &str| {
        changes
            .iter()
            .find(|c| c["category"] == category && c["id"] == id)
            .unwrap_or_else(|| panic!("no {category} of {id}: {out}"))
            .clone()
    };
    let untriaged = find("untriaged", &ignored);
    assert!(
        untriaged["was"].as_str().unwrap().starts_with("ignored"),
        "{untriaged}"
    );
    let unlinked = find("ticket", &ticketed);
    assert!(
        unlinked["was"].as_str().unwrap().starts_with("SEC-"),
        "{unlinked}"
    );
    assert_eq!(unlinked["ticket"], "none", "{unlinked}");
    let linked = find("ticket", &unticketed);
    assert_eq!(linked["was"], "no ticket", "{linked}");
    assert!(
        linked["ticket"]
            .as_str()
            .is_some_and(|t| !t.is_empty() && t != "none"),
        "{linked}"
    );
}

/// A partitioned diff (the bound forced to one finding, debug builds
/// only) with `TMPDIR` a fresh folder, its stdout a pipe not read yet: it
/// blocks writing its changes while its partition files are open.
fn partitioned_diff(old: &str, new: &str, temp: &std::path::Path) -> std::process::Child {
    std::process::Command::new(assert_cmd::cargo::cargo_bin("findings"))
        .args(["diff", old, new, "--format", "ndjson"])
        .env_remove("FINDINGS_PROFILE")
        .env("XDG_CONFIG_HOME", crate::common::empty_config_home())
        .env("TMPDIR", temp)
        .env("FINDINGS_TEST_DIFF_BOUND", "1")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits until `pid` holds files of `temp` open (its partitions) while
/// `temp` itself is empty (their names gone as soon as they are open), 60 s
/// at most: whether it did.
fn holds_files_with_no_name(pid: u32, temp: &std::path::Path) -> bool {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let fds = std::path::PathBuf::from(format!("/proc/{pid}/fd"));
    while std::time::Instant::now() < deadline {
        let held = std::fs::read_dir(&fds).into_iter().flatten().any(|fd| {
            fd.ok()
                .and_then(|fd| std::fs::read_link(fd.path()).ok())
                .is_some_and(|target| target.starts_with(temp))
        });
        if held && std::fs::read_dir(temp).unwrap().next().is_none() {
            return true;
        }
        // Polled (/proc tells no one of a change): the condition or the
        // deadline ends the wait, never a fixed time.
        std::thread::yield_now();
    }
    false
}

#[test]
fn a_partitioned_diff_stopped_by_ctrl_c_or_a_kill_leaves_no_temporary_file() {
    let (dir, _, _) = two_weeks_apart();
    let (old, new) = paths(&dir);
    for signal in ["-INT", "-KILL"] {
        let temp = tempfile::tempdir().unwrap();
        let child = partitioned_diff(&old, &new, temp.path());
        let pid = child.id();
        assert!(
            holds_files_with_no_name(pid, temp.path()),
            "{signal}: never held its partitions with no name"
        );
        let kill = std::process::Command::new("kill")
            .args([signal, &pid.to_string()])
            .status()
            .unwrap();
        assert!(kill.success());
        // Its output read (to the end) lets it go on to see the stop.
        let (status, stderr) =
            crate::common::wait::child_ends(child, std::time::Duration::from_secs(60));
        let status = status.unwrap_or_else(|| panic!("{signal}: did not stop"));
        if signal == "-INT" {
            assert_eq!(status.code(), Some(130), "{stderr}");
            assert!(stderr.contains("interrupted by Ctrl-C"), "{stderr}");
        } else {
            assert_eq!(status.code(), None, "killed: {stderr}");
        }
        let left: Vec<_> = std::fs::read_dir(temp.path()).unwrap().collect();
        assert!(left.is_empty(), "{signal}: left behind: {left:?}");
    }
}
