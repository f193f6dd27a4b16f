//! The headless actions (`ticket`, `fix`, `feedback`, `remember`): what
//! they send, when they refuse to, what they say and how they exit,
//! against a demo server whose state the test reads afterwards.

use crate::cli::Server;
use crate::common::findings;
use findings_demo::dataset::{Dataset, finding_id};
use findings_demo::faults::{FaultKind, Faults};
use findings_demo::query::{autofix_error, fix_job_error};
use findings_demo::routes::TOKEN_WITHOUT_ACTIONS;
use findings_model::*;
use serde_json::Value;

/// The binary against `server` with `token`: exit code, stdout, stderr.
fn run_as(server: &Server, token: &str, args: &[&str]) -> (i32, String, String) {
    let out = findings()
        .args(args)
        .args(["--base-url", &server.url(), "--deployment", "1234"])
        .env("FINDINGS_TOKEN", token)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn run(server: &Server, args: &[&str]) -> (i32, String, String) {
    run_as(server, "demo-token", args)
}

fn ds(server: &Server) -> &Dataset {
    &server.demo().state().dataset
}

/// Findings with no ticket whose creation does not fail, in projects
/// listed without `includeArchived` (each read by id in one request).
fn ticketable(server: &Server, n: usize) -> Vec<String> {
    let ds = ds(server);
    let listed = |i: usize| !ds.catalog.repositories[usize::from(ds.rows[i].repo)].archived;
    (0..ds.rows.len())
        .filter(|&i| !ds.rows[i].ticket && !ds.rows[i].ticket_failed && listed(i))
        .take(n)
        .map(finding_id)
        .collect()
}

fn already_ticketed(server: &Server) -> String {
    let ds = ds(server);
    finding_id((0..ds.rows.len()).find(|&i| ds.rows[i].ticket).unwrap())
}

fn issue(server: &Server, id: &str) -> Issue {
    let i: usize = id.parse::<usize>().unwrap() - 100_000;
    ds(server).issue(
        i,
        findings_demo::materialize::Parts {
            single_issue: true,
            activity_history: true,
            ..Default::default()
        },
    )
}

/// Nothing was written.
fn nothing_written(server: &Server) {
    assert_eq!(ds(server).changes().generation, 0);
}

#[test]
fn tickets_by_id_grouped_with_yes_show_on_the_findings() {
    let server = Server::start(120);
    let ids = ticketable(&server, 2);
    let (code, out, err) = run(
        &server,
        &[
            "ticket",
            "create",
            &ids.join(","),
            "--group",
            "--yes",
            "--format",
            "json",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let answer: CreateTicketsResponse = serde_json::from_str(&out).unwrap();
    let ticketed: Vec<String> = answer
        .succeeded
        .iter()
        .flat_map(|s| s.issue_ids.clone())
        .collect();
    assert_eq!(ticketed.len(), 2);
    // --yes shows what it does, not the body.
    assert!(!err.contains("groupIssues"), "{err}");
    for id in &ids {
        let t = issue(&server, id).external_ticket.unwrap();
        assert!(
            t.url
                .unwrap()
                .starts_with("https://tickets.example.com/browse/SEC-")
        );
    }
}

/// A finding ticketed already is skipped as the review said it would be:
/// what was asked is done (exit 0), and the answer still names the skip.
#[test]
fn a_ticket_creation_skipping_the_findings_ticketed_already_is_done() {
    let server = Server::start(120);
    let mut ids = ticketable(&server, 2);
    let skipped = already_ticketed(&server);
    ids.push(skipped.clone());
    let slug = issue(&server, &skipped)
        .external_ticket
        .and_then(|t| t.external_slug)
        .expect("the ticketed finding's key");
    let (code, out, err) = run(&server, &["ticket", "create", &ids.join(","), "--yes"]);
    assert_eq!(code, 0, "{err}");
    // Said before it is sent: which are ticketed already, and that they
    // keep their ticket.
    assert!(
        err.contains(&format!(
            "1 already ticketed, skipped (they keep their ticket): {skipped} ({slug})"
        )),
        "{err}"
    );
    assert!(!err.contains("not ticketed"), "{err}");
    // Each ticket's line names the repository it is for.
    for id in &ids[..2] {
        let repo = issue(&server, id).repository.unwrap().name.unwrap();
        assert!(
            out.lines()
                .any(|l| l.starts_with(&format!("{id}  ticketed  {repo}  SEC-"))),
            "{id} {repo}: {out}"
        );
    }
    assert!(
        out.contains(&format!("{skipped}  skipped  already ticketed")),
        "{out}"
    );
    assert!(
        out.contains("2 tickets created for 2 findings, 1 skipped"),
        "{out}"
    );
}

#[test]
fn tickets_by_filter_count_first_and_send_the_ids_counted() {
    let server = Server::start(200);
    let repo = ds(&server).catalog.repositories[0].name.clone();
    let (code, _, err) = run(
        &server,
        &[
            "ticket",
            "create",
            "--repo",
            &repo,
            "--severity",
            "critical",
            "--state",
            "open",
            "--group",
            "--yes",
            "-v",
        ],
    );
    assert!(code == 0 || code == 1, "{err}");
    assert!(err.contains("the filter matches"), "{err}");
    // The ids counted are sent, not the filter: exactly what was reviewed.
    assert!(err.contains("\"issueIds\""), "the ids are sent: {err}");
    assert!(!err.contains("\"issueFilters\""), "not the filter: {err}");
    assert!(err.contains("create_tickets"), "{err}");
}

/// A first-detection window is compared by this tool: the findings it
/// kept are named, so no finding outside it is ticketed.
#[test]
fn tickets_by_a_first_detection_window_name_the_findings_it_kept() {
    let server = Server::start(200);
    let repo = ds(&server).catalog.repositories[0].name.clone();
    let (code, _, err) = run(
        &server,
        &[
            "ticket",
            "create",
            "--repo",
            &repo,
            "--first-detected-since",
            "60d",
            "--yes",
            "-v",
        ],
    );
    assert!(code == 0 || code == 1, "{err}");
    assert!(err.contains("\"issueIds\""), "named: {err}");
    assert!(
        !err.contains("\"issueFilters\""),
        "not the server's filter: {err}"
    );
}

#[test]
fn without_a_terminal_or_yes_nothing_is_sent() {
    let server = Server::start(60);
    let ids = ticketable(&server, 1);
    let (code, _, err) = run(&server, &["ticket", "create", &ids[0]]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("\"issueIds\""),
        "the body is shown first: {err}"
    );
    assert!(err.contains("pass --yes"), "{err}");
    nothing_written(&server);
}

#[test]
fn read_only_refuses_every_action_before_connecting() {
    let server = Server::start(60);
    for args in [
        vec!["ticket", "create", "100001", "--yes"],
        vec![
            "ticket",
            "link",
            "https://tickets.example.com/browse/X-1",
            "100001",
            "--yes",
        ],
        vec!["ticket", "unlink", "100001", "--yes"],
        vec!["fix", "100001", "--yes"],
        vec!["feedback", "100001", "--agree", "--yes"],
        vec!["remember", "--note", "n", "--rule", "x", "--yes"],
    ] {
        let mut argv = vec!["--read-only"];
        argv.extend(args.iter());
        let (code, _, err) = run(&server, &argv);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains("read-only"), "{err}");
    }
    assert_eq!(server.demo().requests(), 0);
    nothing_written(&server);
}

#[test]
fn the_revoked_instance_and_an_unauthorized_token_are_refused_first() {
    let server = Server::start(60);
    let ids = ticketable(&server, 1);
    let (code, _, err) = run(
        &server,
        &["ticket", "create", &ids[0], "--instance", "7002", "--yes"],
    );
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("revoked") && err.contains("nothing was sent"),
        "{err}"
    );
    let (code, _, err) = run_as(
        &server,
        TOKEN_WITHOUT_ACTIONS,
        &["ticket", "create", &ids[0], "--yes"],
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("not authorized for creating tickets"), "{err}");
    nothing_written(&server);
    // Listed, the revoked one says why.
    let (code, out, _) = run(&server, &["ticket", "instances"]);
    assert_eq!(code, 0);
    assert!(out.contains("7002") && out.contains("revoked"), "{out}");
}

#[test]
fn link_names_the_replaced_and_unlink_of_an_unticketed_one_exits_1() {
    let server = Server::start(120);
    let plain = ticketable(&server, 1).remove(0);
    let had = already_ticketed(&server);
    let had_ticket = issue(&server, &had)
        .external_ticket
        .and_then(|t| t.external_slug)
        .expect("the ticketed finding's key");
    let url = "https://tickets.example.com/browse/OPS-9";
    let (code, out, err) = run(&server, &["ticket", "link", url, &plain, &had, "--yes"]);
    assert_eq!(code, 0, "{err}");
    // Said before it is sent: the ticket the finding had loses it.
    assert!(
        err.contains(&format!(
            "1 of them loses the ticket it has now: {had} ({had_ticket})"
        )),
        "{err}"
    );
    assert!(
        out.contains(&format!("replaced: {had} had another ticket")),
        "{out}"
    );
    assert_eq!(
        issue(&server, &plain)
            .external_ticket
            .unwrap()
            .url
            .as_deref(),
        Some(url)
    );
    let other = ticketable(&server, 3).remove(2);
    let (code, _, err) = run(&server, &["ticket", "unlink", &plain, &other, "--yes"]);
    assert_eq!(code, 1, "{err}");
    // Said before it is sent: the ticket each loses, and which had none.
    assert!(err.contains(&format!("{plain} from OPS-9")), "{err}");
    assert!(
        err.contains(&format!("no ticket, nothing to unlink: {other}")),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "1 of 2 findings not unlinked (no ticket?): {other}"
        )),
        "{err}"
    );
    assert!(issue(&server, &plain).external_ticket.is_none());
}

#[test]
fn a_fix_is_requested_with_the_operation_of_its_type() {
    let server = Server::start(300);
    let ds = ds(&server);
    let changes = ds.changes();
    let code_finding = (0..ds.rows.len())
        .find(|&i| {
            ds.issue(i, Default::default()).issue_type == Some(IssueType::Sast)
                && fix_job_error(ds, &changes, i).is_none()
        })
        .map(finding_id)
        .unwrap();
    let (code, out, err) = run(&server, &["fix", &code_finding, "--yes", "-v"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("/fix_jobs") && err.contains("AiFixJobsService_CreateFixJob"),
        "{err}"
    );
    assert!(out.contains("fix requested"), "{out}");
    let events: Vec<_> = issue(&server, &code_finding)
        .activity_history
        .into_iter()
        .filter_map(|e| e.history_type)
        .collect();
    assert_eq!(events.last(), Some(&HistoryType::ClickToFixPrRequested));
}

#[test]
fn a_typed_fix_error_is_explained_and_exits_1() {
    let server = Server::start(300);
    let ds = ds(&server);
    let changes = ds.changes();
    let no_credits = (0..ds.rows.len())
        .find(|&i| fix_job_error(ds, &changes, i) == Some(FixJobErrorType::NoWriteAccess))
        .map(finding_id)
        .unwrap();
    let (code, out, err) = run(&server, &["fix", &no_credits, "--yes"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        out.contains("no write access: the platform's app may not write"),
        "{out}"
    );
    assert!(out.contains("the app's settings: https://"), "{out}");
    assert!(err.contains("was not accepted: no write access"), "{err}");
    let sca_credits = (0..ds.rows.len())
        .find(|&i| {
            ds.issue(i, Default::default()).issue_type != Some(IssueType::Sast)
                && autofix_error(ds, &changes, i) == Some(AutofixErrorType::CreditsExhausted)
        })
        .map(finding_id)
        .unwrap();
    let (code, out, _) = run(&server, &["fix", &sca_credits, "--yes"]);
    assert_eq!(code, 1);
    assert!(out.contains("credits are used up"), "{out}");
    // A secret takes no fix: refused before anything is sent.
    let secret = (0..ds.rows.len())
        .find(|&i| ds.issue(i, Default::default()).issue_type == Some(IssueType::Secrets))
        .map(finding_id)
        .unwrap();
    let before = ds.changes().generation;
    let (code, _, err) = run(&server, &["fix", &secret, "--yes"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("nothing was sent"), "{err}");
    assert_eq!(ds.changes().generation, before);
}

#[test]
fn feedback_disagrees_with_a_note_and_shows_in_show() {
    let server = Server::start(120);
    let ds = ds(&server);
    let i = (0..ds.rows.len())
        .find(|&i| {
            ds.rows[i].verdict.is_some()
                && Dataset::triage_permission(i, &ds.rows[i]) != TriagePermission::None
        })
        .unwrap();
    let id = finding_id(i);
    let (code, out, err) = run(
        &server,
        &[
            "feedback",
            &id,
            "--disagree",
            "--note",
            "sanitised upstream",
            "--yes",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("feedback stored: disagree"), "{out}");
    let (_, shown, _) = run(&server, &["show", &id, "--format", "json"]);
    let shown: Value = serde_json::from_str(&shown).unwrap();
    let feedback = &shown["autotriage"]["feedback"];
    assert_eq!(feedback["rating"], "RATING_BAD");
    assert_eq!(feedback["note"], "sanitised upstream");
    // A finding with no AI verdict: refused, nothing sent.
    let none = (0..ds.rows.len())
        .find(|&i| ds.rows[i].verdict.is_none())
        .unwrap();
    let (code, _, err) = run(
        &server,
        &["feedback", &finding_id(none), "--agree", "--yes"],
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("no AI verdict"), "{err}");
}

#[test]
fn remember_previews_then_reports_the_counts_it_would_flip() {
    let server = Server::start(400);
    let ds = ds(&server);
    // The rule of the first code finding with a verdict.
    let i = (0..ds.rows.len())
        .find(|&i| ds.rows[i].verdict.is_some())
        .unwrap();
    let rule = ds.issue(i, Default::default()).rule_id.unwrap();
    // The true positives of the rule, as List issues gives them.
    let (_, listed, _) = run(
        &server,
        &[
            "issues",
            "--all",
            "--format",
            "ndjson",
            "--filter",
            &format!("ruleIds={rule}"),
            "--filter",
            "aiVerdicts=VERDICT_TRUE_POSITIVE",
        ],
    );
    let true_positives = listed.lines().count();
    assert!(true_positives > 0);
    let (code, out, err) = run(
        &server,
        &[
            "remember",
            "--note",
            "test fixtures only",
            "--filter",
            &format!("ruleIds={rule}"),
            "--yes",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(&format!("{true_positives} the AI calls true positives")),
        "{err}"
    );
    assert!(
        out.contains(&format!("preanalysis: it flips {true_positives} verdict")),
        "{out}"
    );
    assert!(out.contains("in every repository"), "{out}");
    // Without filter flags: a memory for everything is not made by default.
    let (code, _, err) = run(&server, &["remember", "--note", "x", "--yes"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn a_timeout_sends_once_says_outcome_unknown_and_refetches() {
    let server = Server::start(60);
    let ids = ticketable(&server, 1);
    // The authorized actions, the instances and the findings' tickets
    // answer; the write hangs.
    server
        .demo()
        .set_faults(Faults::kind(FaultKind::Hang).after(3).times(1));
    let (code, _, err) = run(
        &server,
        &["ticket", "create", &ids[0], "--yes", "--timeout", "1"],
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("the outcome is unknown"), "{err}");
    assert!(err.contains("it was not retried"), "{err}");
    assert!(
        err.contains(&format!("  {}  no ticket", ids[0])),
        "refetched: {err}"
    );
    // Three reads, the one write, the refetch.
    assert_eq!(server.demo().requests(), 5);
}

#[test]
fn a_link_or_unlink_of_no_finding_is_refused_before_anything_is_sent() {
    let server = Server::start(120);
    let plain = ticketable(&server, 1).remove(0);
    for args in [
        &[
            "ticket",
            "link",
            "https://tickets.example.com/browse/OPS-1",
            &plain,
            "999999999",
            "--yes",
        ][..],
        &["ticket", "unlink", "999999999", "--yes"][..],
    ] {
        let (code, _, err) = run(&server, args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains("no finding 999999999: nothing sent"), "{err}");
    }
    nothing_written(&server);
}
