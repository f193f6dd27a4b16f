//! `findings triage`: what it sends, when it refuses to, and what it says,
//! against a demo server whose state the test reads afterwards.

use crate::cli::Server;
use crate::common::findings;
use findings_demo::dataset::{Dataset, finding_id};
use findings_demo::faults::{FaultKind, Faults};
use findings_model::*;
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

/// No write reached the server (at most the read of the findings' notes,
/// before the question) and nothing changed.
fn nothing_sent(server: &Server) {
    assert!(
        server.demo().requests() <= 1,
        "{}",
        server.demo().requests()
    );
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
    assert_eq!(
        server.demo().requests(),
        2,
        "their notes read, then a,b in one request for both (one note)"
    );
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
    // One of the two could not be triaged, for want of permission: the
    // triage is done as far as the server would, partly done (exit 4, not
    // an error's 1), the counts, and why.
    assert_eq!(out.status.code(), Some(4), "{stderr}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "1 updated, 1 skipped (no permission), of 2\n"
    );
    assert!(
        stderr.contains(
            "findings: partly done: 1 of 2 findings not updated: 1 skipped (no permission)"
        ),
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
    // The read of their notes answers; the write hangs.
    server
        .demo()
        .set_faults(Faults::kind(FaultKind::Hang).after(1));
    let out = triage(
        &server,
        &["100001", "--state", "fixing", "--yes", "--timeout", "1"],
    );
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("the outcome is unknown"), "{stderr}");
    assert!(stderr.contains("it was not retried"), "{stderr}");
    assert_eq!(server.demo().requests(), 2);
}

// ---- chosen by a filter or from standard input ----

/// The ids of the findings `findings issues FLAGS --all` lists.
fn listed_ids(server: &Server, flags: &[&str]) -> Vec<String> {
    let out = findings()
        .args(["issues", "--all", "--format", "ndjson"])
        .args(flags)
        .args(["--base-url", &server.url(), "--deployment", "1234"])
        .env("FINDINGS_TOKEN", "demo-token")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let item: Value = serde_json::from_str(l).unwrap();
            item["issue"]["id"].as_str().unwrap().to_owned()
        })
        .collect()
}

/// The ids in the body `--verbose` showed on stderr.
fn ids_sent(stderr: &str) -> Vec<String> {
    let start = stderr.find("\n{").expect("a body") + 1;
    let end = start + stderr[start..].find("\n}\n").expect("its end") + 2;
    let body: Value = serde_json::from_str(&stderr[start..end]).unwrap();
    body["filter"]["ids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|id| id.as_str().unwrap().to_owned())
        .collect()
}

fn generation(server: &Server) -> u64 {
    server.demo().state().dataset.changes().generation
}

#[test]
fn a_triage_by_filter_shows_the_count_and_sends_exactly_the_findings_listed() {
    let server = Server::start(400);
    let expected = listed_ids(&server, &["--severity", "critical", "--state", "open"]);
    assert!(
        (1..=50).contains(&expected.len()),
        "{} findings: a filter under the threshold",
        expected.len()
    );
    let out = triage(
        &server,
        &[
            "--severity",
            "critical",
            "--current-state",
            "open",
            "--state",
            "reviewing",
            "--yes",
            "--verbose",
        ],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    let n = expected.len();
    assert!(
        stderr.contains(&format!("findings: the filter matches {n} findings\n")),
        "{stderr}"
    );
    assert_eq!(ids_sent(&stderr), expected, "the ids listed, as listed");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.ends_with(&format!(", of {n}\n")), "{stdout}");
    let ds = &server.demo().state().dataset;
    let mut skipped = 0;
    for id in &expected {
        let i = findings_demo::dataset::finding_index(id, 400).unwrap();
        if Dataset::triage_permission(i, &ds.rows[i]) == TriagePermission::None {
            skipped += 1;
        } else {
            assert_eq!(
                state_of(&server, i).triage_state,
                Some(TriageState::Reviewing)
            );
        }
    }
    // Findings nobody may triage are said, and make it exit 1.
    assert_eq!(out.status.code(), Some(i32::from(skipped > 0)), "{stderr}");
    assert_eq!(
        listed_ids(&server, &["--severity", "critical", "--state", "open"]).len(),
        skipped
    );
}

#[test]
fn above_the_threshold_yes_needs_count_to_say_the_number() {
    let server = Server::start(400);
    let n = listed_ids(&server, &["--state", "open"]).len();
    assert!(n > 50, "{n} findings: a filter over the default threshold");
    let out = triage(
        &server,
        &["--current-state", "open", "--state", "fixing", "--yes"],
    );
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "the filter matches {n} findings, more than triage_confirm_above (50, default): with --yes, pass --count {n} to triage that many; nothing was sent"
        )),
        "{stderr}"
    );
    assert_eq!(generation(&server), 0);
    // A count that is not the filter's: refused, saying the count.
    let wrong = (n / 10).to_string();
    let out = triage(
        &server,
        &[
            "--current-state",
            "open",
            "--state",
            "fixing",
            "--yes",
            "--count",
            &wrong,
        ],
    );
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(&format!(
            "the filter matches {n} findings, not the {wrong} --count says; nothing was sent"
        )),
        "{out:?}"
    );
    assert_eq!(generation(&server), 0);
    // The right count sends.
    let out = triage(
        &server,
        &[
            "--current-state",
            "open",
            "--state",
            "fixing",
            "--yes",
            "--count",
            &n.to_string(),
        ],
    );
    assert!(
        String::from_utf8_lossy(&out.stdout).ends_with(&format!(", of {n}\n")),
        "{out:?}"
    );
    assert_eq!(generation(&server), 1);
}

#[test]
fn ids_from_standard_input_are_triaged_and_their_count_guarded() {
    let server = Server::start(60);
    let (open, _) = ignorable_and_untouchable(&server);
    let other = (0..60)
        .find(|&i| i != open && state_of(&server, i).aggregate_state == Some(AggregateState::Open))
        .unwrap();
    let stdin = format!(
        "{}\n{}  {}\n",
        finding_id(open),
        finding_id(other),
        finding_id(open)
    );
    let run = |extra: &[&str]| {
        findings()
            .args(["triage", "-", "--state", "reviewing", "--yes"])
            .args(extra)
            .args(["--base-url", &server.url(), "--deployment", "1234"])
            .env("FINDINGS_TOKEN", "demo-token")
            .write_stdin(stdin.clone())
            .output()
            .unwrap()
    };
    let out = run(&["--count", "3"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("standard input names 2 findings, not the 3 --count says; nothing was sent"),
        "{out:?}"
    );
    nothing_sent(&server);
    let out = run(&[]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "2 updated, of 2\n");
    for i in [open, other] {
        assert_eq!(
            state_of(&server, i).triage_state,
            Some(TriageState::Reviewing)
        );
    }
    // Nothing on standard input: nothing to triage, a usage error.
    let out = findings()
        .args(["triage", "-", "--state", "reviewing", "--yes"])
        .args(["--base-url", &server.url(), "--deployment", "1234"])
        .env("FINDINGS_TOKEN", "demo-token")
        .write_stdin("\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("no ids on standard input"));
}

#[test]
fn read_only_refuses_a_triage_by_filter_or_from_stdin_before_anything_is_asked() {
    let server = Server::start(60);
    for args in [
        &[
            "--severity",
            "low",
            "--state",
            "fixing",
            "--yes",
            "--read-only",
        ][..],
        &["-", "--state", "fixing", "--yes", "--read-only"][..],
    ] {
        let out = findings()
            .arg("triage")
            .args(args)
            .args(["--base-url", &server.url(), "--deployment", "1234"])
            .env("FINDINGS_TOKEN", "demo-token")
            .write_stdin("100001\n")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr)
                .contains("read-only is set (--read-only): the triage is a write"),
            "{out:?}"
        );
    }
    nothing_sent(&server);
}

#[test]
fn which_findings_must_be_said_one_way() {
    let server = Server::start(60);
    for (args, says) in [
        (&["--state", "fixing", "--yes"][..], "which findings?"),
        (
            &["100001", "--severity", "low", "--state", "fixing", "--yes"][..],
            "give ids or filter flags, not both",
        ),
        (
            &[
                "--severity",
                "low",
                "--agentic",
                "--state",
                "fixed",
                "--yes",
            ][..],
            "agentic-workflow issues are triaged by id",
        ),
        (
            &["-", "100001", "--state", "fixing", "--yes"][..],
            "give no other id",
        ),
        (
            &["-", "--note-file", "-", "--state", "fixing", "--yes"][..],
            "not both",
        ),
        (
            &["--current-state", "closed", "--state", "fixing", "--yes"][..],
            "--current-state: ",
        ),
    ] {
        let out = triage(&server, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
    nothing_sent(&server);
    // A name the deployment does not have: refused as `issues` refuses it.
    let out = triage(
        &server,
        &["--repo", "payments", "--state", "fixing", "--yes"],
    );
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("did you mean acme/payments-api?"),
        "{out:?}"
    );
    assert_eq!(generation(&server), 0);
}

/// Ids typed on standard input (ended with Ctrl-D), then the question
/// asked on the terminal itself: only `y` sends.
#[cfg(unix)]
#[test]
fn ids_from_standard_input_are_confirmed_on_the_terminal() {
    use crate::common::pty::Pty;
    let server = Server::start(60);
    let (open, _) = ignorable_and_untouchable(&server);
    let state = tempfile::tempdir().unwrap();
    let url = server.url();
    let start = || {
        Pty::start(
            30,
            100,
            &["triage", "-", "--state", "fixing"],
            &[
                ("FINDINGS_BASE_URL", url.as_str()),
                ("FINDINGS_DEPLOYMENT", "1234"),
                ("FINDINGS_TOKEN", "demo-token"),
                ("XDG_CONFIG_HOME", "/nonexistent/findings-tests"),
                ("XDG_STATE_HOME", state.path().to_str().unwrap()),
            ],
        )
    };
    // Anything but y: nothing is sent.
    let mut pty = start();
    pty.press(format!("{}\n", finding_id(open)).as_bytes());
    pty.press(b"\x04");
    pty.wait_for("Triage 1 finding? [y/N]");
    pty.press(b"\n");
    let (status, _, raw) = pty.finish();
    assert_eq!(status.exit_code(), 1, "{raw}");
    assert!(raw.contains("not sent: cancelled"), "{raw}");
    nothing_sent(&server);
    let mut pty = start();
    pty.press(format!("{}\n", finding_id(open)).as_bytes());
    pty.press(b"\x04");
    let screen = pty.wait_for("Triage 1 finding? [y/N]");
    assert!(
        screen.contains("\"triageState\": \"FINDING_TRIAGE_STATE_FIXING\""),
        "{screen}"
    );
    pty.press(b"y\n");
    let (status, _, raw) = pty.finish();
    assert!(status.success(), "{raw}");
    assert!(raw.contains("1 updated, of 1"), "{raw}");
    assert_eq!(
        state_of(&server, open).triage_state,
        Some(TriageState::Fixing)
    );
}

/// Without `--note`, each finding keeps the note it has (one request per
/// distinct note); with one, the notes it replaces are named on stderr
/// before anything is sent.
#[test]
fn no_note_keeps_each_findings_own_and_a_note_given_names_what_it_replaces() {
    let server = Server::start(60);
    let open: Vec<usize> = (0..60)
        .filter(|&i| {
            let issue = state_of(&server, i);
            issue.aggregate_state == Some(AggregateState::Open)
                && issue.triage_permission != Some(TriagePermission::None)
        })
        .take(3)
        .collect();
    assert_eq!(open.len(), 3);
    let ids: Vec<String> = open.iter().map(|&i| finding_id(i)).collect();
    // Teammates' notes on the first two.
    for (k, note) in ["teammate A", "teammate B"].iter().enumerate() {
        let out = triage(
            &server,
            &[&ids[k], "--state", "reviewing", "--note", note, "--yes"],
        );
        assert!(out.status.success(), "{out:?}");
    }
    let third_note = state_of(&server, open[2]).note;
    let out = triage(&server, &[&ids.join(","), "--state", "fixing", "--yes"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "3 updated, of 3\n");
    assert_eq!(
        state_of(&server, open[0]).note.as_deref(),
        Some("teammate A")
    );
    assert_eq!(
        state_of(&server, open[1]).note.as_deref(),
        Some("teammate B")
    );
    assert_eq!(state_of(&server, open[2]).note, third_note);
    for &i in &open {
        assert_eq!(state_of(&server, i).triage_state, Some(TriageState::Fixing));
    }
    // A note given replaces theirs: named on stderr before it is sent.
    let out = triage(
        &server,
        &[&ids[0], "--state", "reviewing", "--note", "mine", "--yes"],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "notes: the note sent replaces the note of 1 finding: {}",
            ids[0]
        )),
        "{stderr}"
    );
    assert_eq!(state_of(&server, open[0]).note.as_deref(), Some("mine"));
}
