//! Triage through the real app, worker, client and demo server: the dialog,
//! `:triage`, marks, `:triage-all`, undo, the agentic pane, and the safety
//! of a write (the draft kept on failure, "outcome unknown" after a
//! timeout with one request sent, `--read-only`). Every exchange is checked
//! against the published schemas.

use crate::common::{self, Harness};
use crate::published;
use crossterm::event::KeyCode;
use findings_demo::faults::{FaultKind, Faults};
use findings_model::*;
use findings_tui::app::Overlay;
use findings_tui::triage::Step;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// A harness on a watched demo server (every exchange schema-checked).
pub(crate) async fn harness(timeout: Duration) -> Harness {
    let h = Harness::quick(300, 120, 35, timeout).await;
    published::watch(h.server());
    h
}

/// Counts the triage writes that reached the server's handlers.
pub(crate) fn count_writes(h: &Harness) -> Arc<AtomicUsize> {
    let n = Arc::new(AtomicUsize::new(0));
    let seen = n.clone();
    h.server()
        .observe(Some(Arc::new(move |ex: &findings_demo::tap::Exchange| {
            if let Err(e) = published::published().check_exchange(ex) {
                published::VIOLATIONS.lock().unwrap().push(e);
            }
            if ex.route.ends_with("/findings/v2") || ex.route.contains("/issue/") {
                seen.fetch_add(1, Ordering::SeqCst);
            }
        })));
    n
}

/// The loaded rows' findings, unpacked.
pub(crate) fn loaded(h: &Harness) -> Vec<Issue> {
    h.app
        .issues()
        .list
        .items
        .iter()
        .filter_map(|r| r.summary().issue)
        .collect()
}

/// Selects the first open finding the user may ignore; its id.
pub(crate) fn select_ignorable(h: &mut Harness) -> String {
    let rows = loaded(h);
    let i = rows
        .iter()
        .position(|i| {
            i.aggregate_state == Some(AggregateState::Open)
                && matches!(i.triage_permission, None | Some(TriagePermission::Ignore))
        })
        .expect("an open finding that may be ignored");
    for _ in 0..i {
        h.key(KeyCode::Char('j'));
    }
    rows[i].id().to_owned()
}

pub(crate) fn row_state(h: &Harness, id: &str) -> Option<AggregateState> {
    h.app
        .issues()
        .list
        .items
        .iter()
        .find(|r| r.id() == id)
        .and_then(|r| r.state())
}

pub(crate) fn command(h: &mut Harness, line: &str) {
    h.key(KeyCode::Char(':'));
    for c in line.chars() {
        h.key(KeyCode::Char(c));
    }
    h.key(KeyCode::Enter);
}

pub(crate) async fn fetched(h: &Harness, id: &str) -> Issue {
    common::client_for(h.server()).get_issue(id).await.unwrap()
}

pub(crate) fn popup(h: &Harness) -> String {
    match &h.app.overlay {
        Some(Overlay::Error { title, message, .. }) => format!("{title}: {message}"),
        other => panic!("no popup: {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn ignore_one_finding_with_a_note_then_undo() {
    let mut h = harness(Duration::from_secs(10)).await;
    h.start().await;
    let id = select_ignorable(&mut h);
    h.keys("T");
    assert!(h.screen().contains("Triage finding"), "{}", h.screen());
    // Reason: false positive; no end to the ignore; a note of two lines.
    h.key(KeyCode::Tab);
    h.key(KeyCode::Right);
    h.key(KeyCode::Tab);
    let dialog = h.screen();
    assert!(
        dialog.contains("Until   ▏"),
        "the ignore's end is asked: {dialog}"
    );
    h.key(KeyCode::Tab);
    assert!(h.screen().contains("Until   never"), "{}", h.screen());
    h.keys("dup of SEC-1");
    h.key(KeyCode::Enter);
    h.keys("see the ticket");
    h.ctrl('s');
    h.settle().await;
    let review = h.screen();
    assert!(review.contains("Review: only y sends"), "{review}");
    assert!(review.contains("FINDING_TRIAGE_STATE_IGNORED"), "{review}");
    assert!(
        review.contains(r#""note": "dup of SEC-1\nsee the ticket""#),
        "{review}"
    );
    h.keys("y");
    h.quiesce().await;
    assert_eq!(row_state(&h, &id), Some(AggregateState::IgnoredApp));
    let status = h.app.status.clone().unwrap_or_default();
    assert!(status.contains("1 updated"), "{status}");
    assert!(status.contains("u undoes"), "{status}");
    // The service has it, with an activity event carrying the note.
    let now = fetched(&h, &id).await;
    assert_eq!(now.triage_state, Some(TriageState::Ignored));
    assert!(
        now.activity_history
            .iter()
            .any(|e| e.note.as_deref() == Some("dup of SEC-1\nsee the ticket")),
        "{:?}",
        now.activity_history
    );
    // The detail shows it too (fetched again).
    h.key(KeyCode::Enter);
    h.settle().await;
    assert!(h.screen().contains("ignored"), "{}", h.screen());
    h.key(KeyCode::Esc);
    // u: back to where it was, through the review.
    h.keys("u");
    h.settle().await;
    assert_eq!(h.app.triage.step, Step::Review);
    assert!(
        h.screen().contains("FINDING_TRIAGE_STATE_UNTRIAGED"),
        "{}",
        h.screen()
    );
    h.keys("y");
    h.quiesce().await;
    assert_eq!(row_state(&h, &id), Some(AggregateState::Open));
    published::assert_no_violations();
}

#[tokio::test(flavor = "multi_thread")]
async fn marked_findings_go_in_one_request() {
    let mut h = harness(Duration::from_secs(10)).await;
    h.start().await;
    let writes = count_writes(&h);
    let ids: Vec<String> = loaded(&h)
        .iter()
        .take(2)
        .map(|i| i.id().to_owned())
        .collect();
    h.keys("  ");
    command(&mut h, "triage reviewing looking into it");
    h.settle().await;
    assert_eq!(h.app.triage.step, Step::Review);
    assert!(h.screen().contains("2 findings"), "{}", h.screen());
    h.keys("y");
    h.quiesce().await;
    assert_eq!(writes.load(Ordering::SeqCst), 1);
    for id in &ids {
        let now = fetched(&h, id).await;
        // Reviewing, unless the finding may not be triaged at all.
        if now.triage_permission != Some(TriagePermission::None) {
            assert_eq!(now.triage_state, Some(TriageState::Reviewing), "{id}");
            assert_eq!(row_state(&h, id), Some(AggregateState::Reviewing));
        }
    }
    published::assert_no_violations();
}

#[tokio::test(flavor = "multi_thread")]
async fn triage_all_counts_first_and_asks_twice_when_large() {
    let mut h = harness(Duration::from_secs(10)).await;
    h.start().await;
    let first = loaded(&h)[0].clone();
    let rule = first.rule_id.clone().unwrap_or_default();
    command(&mut h, &format!("filter ruleIds={rule}"));
    h.settle().await;
    command(
        &mut h,
        &format!("filter repositoryNames={}", first.repository_name()),
    );
    h.settle().await;
    assert!(h.app.issues().list.complete, "one page holds them all");
    let matching = h.app.issues().list.items.len();
    assert!(matching > 0);
    h.app.triage.confirm_above = 0;
    command(&mut h, "triage-all fixing");
    h.quiesce().await;
    let review = h.screen();
    assert!(
        review.contains(&format!(
            "every finding the Issues filter matches ({matching})"
        )),
        "{review}"
    );
    h.keys("y");
    assert_eq!(h.app.triage.step, Step::ConfirmAgain);
    h.keys("y");
    h.quiesce().await;
    let status = h.app.status.clone().unwrap_or_default();
    assert!(status.contains("updated"), "{status}");
    // The list was loaded again: every row of the rule that could be
    // triaged is now fixing.
    for issue in loaded(&h) {
        if issue.triage_permission != Some(TriagePermission::None) {
            assert_eq!(
                issue.triage_state,
                Some(TriageState::Fixing),
                "{}",
                issue.id()
            );
        }
    }
    published::assert_no_violations();
}

#[tokio::test(flavor = "multi_thread")]
async fn an_agentic_issue_is_triaged_from_its_pane() {
    let mut h = harness(Duration::from_secs(10)).await;
    h.start().await;
    h.key(KeyCode::Char('3'));
    h.settle().await;
    let id = h.app.agentic().list.items[0].id.clone().unwrap();
    command(&mut h, "triage ignored acceptable-risk");
    h.settle().await;
    assert!(
        h.screen().contains("TRIAGE_STATE_IGNORED"),
        "{}",
        h.screen()
    );
    h.keys("y");
    h.settle().await;
    let row = h
        .app
        .agentic()
        .list
        .items
        .iter()
        .find(|i| i.id.as_deref() == Some(id.as_str()))
        .unwrap();
    assert_eq!(row.triage_state, Some(AgenticTriageState::Ignored));
    assert_eq!(row.triage_reason, Some(AgenticTriageReason::AcceptableRisk));
    published::assert_no_violations();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_failed_triage_keeps_the_draft() {
    let mut h = harness(Duration::from_secs(10)).await;
    h.start().await;
    // The background requests answered first: the fault is the write's.
    h.quiesce().await;
    let id = select_ignorable(&mut h);
    command(&mut h, "triage ignored no-time keep this note");
    h.settle().await;
    h.server().set_faults(Faults::failing(500).times(1));
    h.keys("y");
    h.settle().await;
    let said = popup(&h);
    assert!(said.contains("Triage failed"), "{said}");
    assert!(said.contains("The draft is kept"), "{said}");
    h.key(KeyCode::Esc);
    h.keys("T");
    let draft = h.app.triage.draft.clone().expect("the draft");
    assert_eq!(draft.note, "keep this note");
    assert_eq!(
        fetched(&h, &id).await.triage_state,
        Some(TriageState::Untriaged)
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_gateway_failure_on_the_write_says_outcome_unknown_and_fetches_again() {
    for status in [502, 504] {
        let mut h = harness(Duration::from_secs(10)).await;
        h.start().await;
        h.quiesce().await;
        select_ignorable(&mut h);
        command(&mut h, "triage ignored");
        h.settle().await;
        h.server().set_faults(Faults::failing(status).times(1));
        let requests = h.server().requests();
        h.keys("y");
        // The failure, and the reads it sets off, all answered.
        h.quiesce().await;
        let said = popup(&h);
        assert!(said.contains("Outcome unknown"), "{status}: {said}");
        assert!(said.contains("not retried"), "{status}: {said}");
        assert!(
            h.server().requests() > requests + 1,
            "{status}: the touched findings are fetched again"
        );
        assert!(h.app.triage.draft.is_some(), "{status}: the draft is kept");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_timeout_says_outcome_unknown_and_sends_once() {
    let mut h = harness(Duration::from_secs(2)).await;
    h.start().await;
    // The background requests answered first: the hang is the write's.
    h.quiesce().await;
    let id = select_ignorable(&mut h);
    let before = row_state(&h, &id);
    command(&mut h, "triage ignored");
    h.settle().await;
    h.server()
        .set_faults(Faults::kind(FaultKind::Hang).times(1));
    let requests = h.server().requests();
    h.keys("y");
    h.settle().await;
    let said = popup(&h);
    assert!(said.contains("Outcome unknown"), "{said}");
    assert!(said.contains("not retried"), "{said}");
    // The findings are fetched again (a read, which may be retried).
    h.quiesce().await;
    assert!(h.server().requests() > requests + 1, "a reload followed");
    // Sent once: a second attempt would have gone through and ignored it.
    assert_ne!(
        fetched(&h, &id).await.triage_state,
        Some(TriageState::Ignored)
    );
    assert_eq!(row_state(&h, &id), before);
    assert!(h.app.triage.draft.is_some());
}

#[tokio::test(flavor = "multi_thread")]
async fn read_only_refuses_the_triage_where_it_is_sent() {
    let mut h = harness(Duration::from_secs(10)).await;
    h.app.outbox.read_only = true;
    h.start().await;
    let writes = count_writes(&h);
    let id = select_ignorable(&mut h);
    command(&mut h, "triage ignored");
    h.settle().await;
    h.keys("y");
    h.settle().await;
    assert!(popup(&h).contains("--read-only is set: the triage is not sent"));
    assert_eq!(writes.load(Ordering::SeqCst), 0);
    assert_eq!(
        fetched(&h, &id).await.triage_state,
        Some(TriageState::Untriaged)
    );
}

/// The groups view counts the filter's findings by rule: once a triage moves
/// a finding out of the filter, going back to the groups asks for them again
/// and its rule counts one fewer.
#[tokio::test(flavor = "multi_thread")]
async fn the_groups_are_counted_again_after_a_triage() {
    let mut h = harness(Duration::from_secs(10)).await;
    h.start().await;
    h.keys(":filter aggregateIssueStates=open");
    h.key(KeyCode::Enter);
    h.settle().await;
    let count_of = |h: &Harness, rule: &Option<String>| {
        let groups = &h.app.issues().groups.list.items;
        groups
            .iter()
            .find(|g| &g.rule_id == rule)
            .map_or(0, |g| g.issues_count.unwrap_or_default())
    };
    h.keys("R");
    h.settle().await;
    h.key(KeyCode::Esc);
    assert!(!h.app.issues().groups.shown);
    let id = select_ignorable(&mut h);
    let rule = h
        .loaded_whole()
        .await
        .into_iter()
        .find(|i| i.id() == id)
        .and_then(|i| i.rule_id);
    let before = count_of(&h, &rule);
    assert!(before > 0, "{rule:?}");
    // Ignored, with a reason: it leaves the open findings.
    h.keys("T");
    h.key(KeyCode::Tab);
    h.key(KeyCode::Right);
    h.ctrl('s');
    h.settle().await;
    h.keys("y");
    h.quiesce().await;
    assert_eq!(row_state(&h, &id), Some(AggregateState::IgnoredApp));
    h.keys("R");
    h.settle().await;
    assert!(h.app.issues().groups.shown);
    assert_eq!(count_of(&h, &rule), before - 1, "{}", h.screen());
}

#[tokio::test(flavor = "multi_thread")]
async fn triage_all_takes_the_rows_the_local_filter_shows_then_the_marked() {
    let mut h = harness(Duration::from_secs(10)).await;
    h.start().await;
    let writes = count_writes(&h);
    h.key(KeyCode::Char('/'));
    h.keys("critical");
    h.key(KeyCode::Enter);
    h.settle().await;
    assert!(h.app.issues().list.complete, "/ loads every finding");
    let shown: Vec<String> = (0..h.app.issues().list.len())
        .map(|r| h.app.issues().list.row(r).unwrap().id().to_owned())
        .collect();
    let total = h.app.issues().list.items.len();
    assert!(!shown.is_empty() && shown.len() < total, "{}", shown.len());
    // Nothing marked: the rows the / filter shows, not the server's filter.
    h.app.triage.confirm_above = 1000;
    command(&mut h, "triage-all reviewing");
    h.settle().await;
    assert_eq!(h.app.triage.step, Step::Review);
    let review = h.screen();
    assert!(
        review.contains(&format!("reviewing: {} findings", shown.len())),
        "{review}"
    );
    assert!(!review.contains("Issues filter matches"), "{review}");
    while h.app.triage.step != Step::Hidden {
        h.key(KeyCode::Esc);
    }
    // Two marked, the / filter cleared: the marked ones alone.
    h.key(KeyCode::Esc);
    assert_eq!(h.app.issues().list.len(), total);
    h.keys("  ");
    let marked: Vec<String> = loaded(&h)
        .iter()
        .take(2)
        .map(|i| i.id().to_owned())
        .collect();
    command(&mut h, "triage-all reviewing");
    h.settle().await;
    assert_eq!(h.app.triage.step, Step::Review);
    assert!(
        h.screen().contains("reviewing: 2 findings"),
        "{}",
        h.screen()
    );
    h.keys("y");
    h.quiesce().await;
    assert_eq!(
        writes.load(Ordering::SeqCst),
        1,
        "one request, reviewed first"
    );
    for id in &marked {
        let now = fetched(&h, id).await;
        if now.triage_permission != Some(TriagePermission::None) {
            assert_eq!(now.triage_state, Some(TriageState::Reviewing), "{id}");
        }
    }
    published::assert_no_violations();
}
