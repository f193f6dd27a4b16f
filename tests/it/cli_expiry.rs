//! Ignores that expire: `findings triage --ignore-until` writes the expiry into
//! the note, `findings expired` lists the ignores it has passed, on a clock
//! the test sets (`FINDINGS_NOW`), against the demo server; and open
//! findings past their open-age target (`issues --over-target`) on it.

use crate::cli::Server;
use crate::common::findings;
use chrono::{Duration, SecondsFormat, Utc};
use findings_demo::dataset::{Dataset, finding_id};
use findings_model::*;

/// `findings ARGS` against `server`, the clock at `now` when given.
fn run(server: &Server, args: &[&str], now: Option<&str>) -> std::process::Output {
    let mut cmd = findings();
    cmd.args(args)
        .args(["--base-url", &server.url(), "--deployment", "1234"])
        .env("FINDINGS_TOKEN", "demo-token");
    if let Some(now) = now {
        cmd.env("FINDINGS_NOW", now);
    }
    cmd.output().unwrap()
}

/// An open finding anyone may ignore.
fn ignorable(server: &Server) -> usize {
    let ds = &server.demo().state().dataset;
    (0..ds.rows.len())
        .find(|&i| {
            Dataset::triage_permission(i, &ds.rows[i]) == TriagePermission::Ignore
                && ds.issue(i, Default::default()).aggregate_state == Some(AggregateState::Open)
        })
        .unwrap()
}

fn rfc3339(t: chrono::DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Secs, true)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn an_ignore_until_tomorrow_is_listed_as_expired_two_days_later() {
    let server = Server::start(60);
    let i = ignorable(&server);
    let id = finding_id(i);
    let now = Utc::now();
    let out = run(
        &server,
        &[
            "triage",
            &id,
            "--state",
            "ignored",
            "--reason",
            "acceptable-risk",
            "--note",
            "until the rewrite",
            "--ignore-until",
            "1d",
            "--yes",
            "--verbose",
        ],
        Some(&rfc3339(now)),
    );
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    // The request shown carries the expiry in the note, as sent.
    let expires = (now + Duration::days(1)).with_timezone(&Utc);
    let line = format!("expires: {}", rfc3339(expires));
    assert!(stderr.contains(&line), "{stderr}");

    // The demo keeps the note: on the finding and in its triage event.
    let issue = server.demo().state().dataset.issue(i, Default::default());
    let note = format!("until the rewrite\n{line}");
    assert_eq!(issue.note.as_deref(), Some(note.as_str()));
    assert_eq!(issue.triage_state, Some(TriageState::Ignored));

    // Not expired yet.
    let listed = run(
        &server,
        &["expired", "--format", "ndjson"],
        Some(&rfc3339(now)),
    );
    assert!(listed.status.success(), "{}", text(&listed.stderr));
    assert_eq!(text(&listed.stdout), "");

    // Two days later it is, and only it; nothing was reopened.
    let later = rfc3339(now + Duration::days(2));
    let listed = run(&server, &["expired", "--format", "ndjson"], Some(&later));
    let stderr = text(&listed.stderr);
    assert!(listed.status.success(), "{stderr}");
    let stdout = text(&listed.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "{stdout}");
    let item: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(item["issue"]["id"], id.as_str());
    assert!(stderr.contains("--state reopened"), "{stderr}");
    let issue = server.demo().state().dataset.issue(i, Default::default());
    assert_eq!(issue.triage_state, Some(TriageState::Ignored));

    // --exit-code gates on it.
    let gated = run(&server, &["expired", "--exit-code", "3"], Some(&later));
    assert_eq!(gated.status.code(), Some(3), "{}", text(&gated.stderr));
}

#[test]
fn until_in_the_past_or_on_another_state_is_refused_and_nothing_sent() {
    let server = Server::start(60);
    let id = finding_id(ignorable(&server));
    for (args, said) in [
        (
            ["--state", "ignored", "--ignore-until", "2020-01-01"],
            "is not in the future",
        ),
        (
            ["--state", "reviewing", "--ignore-until", "30d"],
            "only an ignore expires",
        ),
        (
            ["--state", "ignored", "--ignore-until", "someday"],
            "is not a time",
        ),
    ] {
        let out = run(
            &server,
            &[&["triage", id.as_str(), "--yes"], &args[..]].concat(),
            None,
        );
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(said), "{args:?}: {stderr}");
    }
    assert_eq!(server.demo().requests(), 0);
}

#[test]
fn expired_takes_only_the_ignored_states() {
    let server = Server::start(60);
    let out = run(&server, &["expired", "--state", "open"], None);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("only an ignore expires"));
    assert_eq!(server.demo().requests(), 0);
}

/// The ids of an NDJSON listing.
fn ids(stdout: &[u8]) -> Vec<String> {
    text(stdout)
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["issue"]["id"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect()
}

/// `issues --over-target`: the open findings older than their severity's
/// target, counted from first detection on the command's clock: the ones
/// the test finds past the default targets in the full listing, and with
/// a profile's `sla_days` its targets.
#[test]
fn over_target_lists_the_open_findings_past_their_severitys_target() {
    let server = Server::start(300);
    let now = Utc::now();
    let clock = rfc3339(now);
    let all = run(
        &server,
        &[
            "issues",
            "--state",
            "open,reviewing,fixing",
            "--include",
            "first-detected",
            "--all",
            "--format",
            "ndjson",
        ],
        Some(&clock),
    );
    assert!(all.status.success(), "{}", text(&all.stderr));
    let past = |targets: [i64; 4]| -> Vec<String> {
        text(&all.stdout)
            .lines()
            .filter_map(|l| {
                let item: IssueItem = serde_json::from_str(l).unwrap();
                let issue = item.issue?;
                let target = match issue.severity? {
                    Severity::Critical => targets[0],
                    Severity::High => targets[1],
                    Severity::Medium => targets[2],
                    Severity::Low => targets[3],
                    _ => return None,
                };
                let age = (now - issue.first_detected_at?).num_days();
                (age > target).then(|| issue.id.unwrap())
            })
            .collect()
    };
    let expected = past([7, 30, 90, 180]);
    let out = run(
        &server,
        &["issues", "--over-target", "--all", "--format", "ndjson"],
        Some(&clock),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let listed = ids(&out.stdout);
    assert!(
        !listed.is_empty() && listed.len() < past([0; 4]).len(),
        "{}",
        listed.len()
    );
    assert_eq!(listed, expected);
    // A profile's targets.
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(
        &config,
        "default_profile = \"t\"\n[profiles.t]\nsla_days = { critical = 1, high = 200, medium = 200, low = 200 }\n",
    )
    .unwrap();
    let out = findings()
        .args(["issues", "--over-target", "--all", "--format", "ndjson"])
        .args(["--base-url", &server.url(), "--deployment", "1234"])
        .env("FINDINGS_TOKEN", "demo-token")
        .env("FINDINGS_CONFIG", &config)
        .env("FINDINGS_NOW", &clock)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(ids(&out.stdout), past([1, 200, 200, 200]));
}

/// `findings expired` without `--all` reads every page: an expired ignore
/// far down the ignored findings (past page 20 of 5 items) is listed.
#[test]
fn expired_reads_every_page_of_the_ignored_findings() {
    let server = Server::start(2000);
    // The ignorable open finding relevant the longest: the newest first,
    // it lists last among the ignored.
    let ds = &server.demo().state().dataset;
    let i = (0..ds.rows.len())
        .filter(|&i| {
            Dataset::triage_permission(i, &ds.rows[i]) == TriagePermission::Ignore
                && ds.issue(i, Default::default()).aggregate_state == Some(AggregateState::Open)
        })
        .min_by_key(|&i| ds.rows[i].relevant_since)
        .unwrap();
    let id = finding_id(i);
    let now = Utc::now();
    let out = run(
        &server,
        &[
            "triage",
            &id,
            "--state",
            "ignored",
            "--reason",
            "acceptable-risk",
            "--ignore-until",
            "1d",
            "--yes",
        ],
        Some(&rfc3339(now)),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    // Where it lists: past the 20th page of 5.
    let ignored = run(
        &server,
        &[
            "issues",
            "--state",
            "ignored,provisionally-ignored",
            "--all",
            "--limit",
            "5",
            "--format",
            "ndjson",
        ],
        None,
    );
    let place = ids(&ignored.stdout).iter().position(|x| *x == id).unwrap();
    assert!(place >= 100, "listed at {place}");
    let later = rfc3339(now + Duration::days(2));
    let listed = run(
        &server,
        &["expired", "--limit", "5", "--format", "ndjson"],
        Some(&later),
    );
    assert!(listed.status.success(), "{}", text(&listed.stderr));
    assert_eq!(ids(&listed.stdout), vec![id]);
}
