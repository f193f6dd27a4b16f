//! `findings triage`: what it sends, when it refuses to, and what it says,
//! against a demo server whose state the test reads afterwards.

use crate::cli::Server;
use crate::common::findings;
use findings_tui::api::model::*;
use findings_tui::demo::dataset::{Dataset, finding_id};
use findings_tui::demo::faults::{FaultKind, Faults};
use serde_json::Value;

/// The binary pointed at `server` with the demo's token.
fn triage(server: &Server, args: &[&str]) -> std::process::Output {
    findings()
        .arg("triage")
        .args(args)
        .args(["--base-url", &server.url(), "--deployment", "1234"])
        .env("FINDINGS_TOKEN", "demo-token")
        .output()
        .unwrap()
}

/// An unresolved finding anyone may ignore, and one nobody may triage.
fn ignorable_and_untouchable(server: &Server) -> (usize, usize) {
    let ds = &server.demo().state().dataset;
    let permission = |i: usize| Dataset::triage_permission(i, &ds.rows[i]);
    let open = (0..ds.rows.len())
        .find(|&i| {
            permission(i) == TriagePermission::Ignore
                && ds.issue(i, Default::default()).aggregate_state == Some(AggregateState::Open)
        })
        .unwrap();
    let none = (0..ds.rows.len())
        .find(|&i| permission(i) == TriagePermission::None)
        .unwrap();
    (open, none)
}

fn state_of(server: &Server, i: usize) -> Issue {
    server.demo().state().dataset.issue(i, Default::default())
}

/// Nothing reached the server and nothing changed.
fn nothing_sent(server: &Server) {
    assert_eq!(server.demo().requests(), 0);
    assert_eq!(server.demo().state().dataset.changes().generation, 0);
}

#[test]
fn with_yes_it_sends_and_prints_only_the_counts() {
    let server = Server::start(60);
    let (open, _) = ignorable_and_untouchable(&server);
    let other = (0..60)
        .find(|&i| i != open && state_of(&server, i).aggregate_state == Some(AggregateState::Open))
        .unwrap();
    let note = "dup of SEC-1;  kept  as typed ";
    let ids = format!("{},{}", finding_id(open), finding_id(other));
    let out = triage(
        &server,
        &[&ids, "--state", "reviewing", "--note", note, "--yes"],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "2 updated, of 2\n");
    // The request is not repeated on stderr: --yes is for scripts.
    assert!(!stderr.contains("PATCH"), "{stderr}");
    assert!(!stderr.contains("triageState"), "{stderr}");
    for i in [open, other] {
        let issue = state_of(&server, i);
        assert_eq!(issue.triage_state, Some(TriageState::Reviewing));
        assert_eq!(issue.note.as_deref(), Some(note));
    }
    assert_eq!(server.demo().requests(), 1, "a,b is one request for both");
}

#[test]
fn verbose_shows_the_request_even_with_yes() {
    let server = Server::start(60);
    let (open, none) = ignorable_and_untouchable(&server);
    let out = triage(
        &server,
        &[
            &finding_id(open),
            &finding_id(none),
            "--state",
            "ignored",
            "--reason",
            "false-positive",
            "--yes",
            "--verbose",
        ],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("PATCH /api/agent/deployments/1234/findings/v2"),
        "{stderr}"
    );
    assert!(
        stderr.contains("\"triageState\": \"FINDING_TRIAGE_STATE_IGNORED\""),
        "{stderr}"
    );
    assert!(
        stderr.contains("2 findings to be ignored (false positive)"),
        "{stderr}"
    );
    // One of the two could not be triaged: exit 1, the counts, and why.
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "1 updated, 1 skipped (no permission), of 2\n"
    );
    assert!(
        stderr.contains("findings: error: 1 of 2 findings not updated: 1 skipped (no permission)"),
        "{stderr}"
    );
    let issue = state_of(&server, open);
    assert_eq!(issue.aggregate_state, Some(AggregateState::IgnoredApp));
}

#[test]
fn a_finding_not_updated_exits_one_with_the_counts() {
    let server = Server::start(60);
    let (open, _) = ignorable_and_untouchable(&server);
    // An id that matches nothing.
    let out = triage(&server, &["999999999", "--state", "ignored", "--yes"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "0 updated, of 0\n");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "findings: error: 1 of 1 finding not updated: 1 matched no finding (unknown id?)"
        ),
        "{stderr}"
    );
    // One known, one unknown; as JSON the answer is printed whole all the same.
    let out = triage(
        &server,
        &[
            &finding_id(open),
            "999999999",
            "--state",
            "fixing",
            "--yes",
            "--format",
            "json",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(answer["updatedCount"], 1, "{answer}");
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("1 of 2 findings not updated: 1 matched no finding"),
        "{out:?}"
    );
    assert_eq!(
        state_of(&server, open).triage_state,
        Some(TriageState::Fixing)
    );
}

#[test]
fn without_a_terminal_or_yes_nothing_is_sent() {
    let server = Server::start(60);
    let (open, _) = ignorable_and_untouchable(&server);
    let before = state_of(&server, open);
    let out = triage(&server, &[&finding_id(open), "--state", "ignored"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("pass --yes"));
    nothing_sent(&server);
    assert_eq!(state_of(&server, open), before);
}

#[test]
fn read_only_refuses_before_anything_is_sent() {
    let server = Server::start(60);
    let out = triage(
        &server,
        &["100001", "--state", "fixing", "--yes", "--read-only"],
    );
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("read-only is set (--read-only): the triage is a write"),
        "{stderr}"
    );
    nothing_sent(&server);
}

#[test]
fn json_prints_the_answer_and_a_note_file_is_sent_as_typed() {
    let server = Server::start(60);
    let (open, _) = ignorable_and_untouchable(&server);
    let out = findings()
        .arg("triage")
        .args([
            &finding_id(open),
            "--state",
            "reviewing",
            "--note-file",
            "-",
            "--yes",
        ])
        .args([
            "--format",
            "json",
            "--base-url",
            &server.url(),
            "--deployment",
            "1234",
        ])
        .env("FINDINGS_TOKEN", "demo-token")
        .write_stdin("line one\n  line two \u{1b}[31m\n")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(answer["updatedCount"], 1, "{answer}");
    assert_eq!(answer["issueCount"], 1, "{answer}");
    let issue = state_of(&server, open);
    assert_eq!(issue.triage_state, Some(TriageState::Reviewing));
    assert_eq!(
        issue.note.as_deref(),
        Some("line one\n  line two \u{1b}[31m"),
        "the last newline only is dropped"
    );
}

#[test]
fn a_bad_state_or_reason_names_the_allowed_ones() {
    let server = Server::start(60);
    let out = triage(&server, &["100001", "--state", "closed", "--yes"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("ignored, reviewing, fixing, reopened, provisionally-ignored, untriaged"),
        "{stderr}"
    );
    let out = triage(
        &server,
        &[
            "100001", "--state", "fixing", "--reason", "no-time", "--yes",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("fixing takes no reason"));
    let out = triage(
        &server,
        &[
            "agw-07001",
            "--agentic",
            "--state",
            "fixed",
            "--note",
            "x",
            "--yes",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("take no note"));
    nothing_sent(&server);
}

#[test]
fn agentic_issues_are_triaged_one_request_each() {
    let server = Server::start(60);
    let out = triage(
        &server,
        &[
            "agw-07001",
            "agw-07002",
            "--agentic",
            "--state",
            "ignored",
            "--reason",
            "no-time",
            "--yes",
        ],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{out:?}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert!(
        lines[0].starts_with("agw-07001  ignored (no time)  "),
        "{stdout}"
    );
    assert_eq!(server.demo().requests(), 2);
    let ds = &server.demo().state().dataset;
    for i in [0, 1] {
        let issue = ds.agentic_issue(i);
        assert_eq!(issue.triage_state, Some(AgenticTriageState::Ignored));
        assert_eq!(issue.triage_reason, Some(AgenticTriageReason::NoTime));
    }
    // An unknown id stops the run there; what follows is not sent.
    let out = triage(
        &server,
        &[
            "agw-99999",
            "agw-07003",
            "--agentic",
            "--state",
            "fixed",
            "--yes",
            "--format",
            "json",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("the 1 after it were not sent (0 of 2 triaged)"),
        "{stderr}"
    );
    assert_eq!(
        serde_json::from_slice::<Value>(&out.stdout).unwrap(),
        serde_json::json!([])
    );
    assert_eq!(server.demo().requests(), 3);
}

#[test]
fn a_timeout_says_the_outcome_is_unknown_and_is_not_retried() {
    let server = Server::start(60);
    server.demo().set_faults(Faults::kind(FaultKind::Hang));
    let out = triage(
        &server,
        &["100001", "--state", "fixing", "--yes", "--timeout", "1"],
    );
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("the outcome is unknown"), "{stderr}");
    assert!(stderr.contains("it was not retried"), "{stderr}");
    assert_eq!(server.demo().requests(), 1);
}
