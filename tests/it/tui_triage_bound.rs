//! Every decision is bound to the findings it names, through the real app,
//! worker, client and demo server: marks spent by a triage are cleared (and
//! `U` clears them all), a kept draft stays with its findings, an exception
//! request made instead of an ignore is named before and shown after (in
//! the list and the Overview), and quitting with unsent work asks, `y`
//! only.

use crate::published;
use crate::tui_triage::{command, harness, loaded, row_state};
use crossterm::event::KeyCode;
use findings_model::*;
use findings_tui::app::Overlay;
use findings_tui::triage::Step;
use std::time::Duration;

/// Moves the cursor to the first loaded finding `pick` accepts; its id.
fn select(h: &mut crate::common::Harness, pick: impl Fn(&Issue) -> bool) -> String {
    let rows = loaded(h);
    let k = rows.iter().position(pick).expect("a finding to pick");
    while h.app.issues().list.selected < k {
        h.key(KeyCode::Char('j'));
    }
    rows[k].id().to_owned()
}

fn open_and_ignorable(i: &Issue) -> bool {
    i.aggregate_state == Some(AggregateState::Open)
        && matches!(i.triage_permission, None | Some(TriagePermission::Ignore))
}

fn quit_prompt(h: &crate::common::Harness) -> Vec<String> {
    match &h.app.overlay {
        Some(Overlay::Question { question, .. }) => question.items.clone(),
        other => panic!("no quit prompt: {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_marks_a_triage_used_are_cleared_once_it_is_applied() {
    let mut h = harness(Duration::from_secs(10)).await;
    h.start().await;
    select(&mut h, open_and_ignorable);
    h.keys("  ");
    assert_eq!(h.app.issues().marked.len(), 2);
    command(&mut h, "triage reviewing");
    h.settle().await;
    h.keys("y");
    h.quiesce().await;
    assert!(h.app.issues().marked.is_empty(), "the marks are spent");
    // The next T is for the row under the cursor, not the old marks.
    let id = h.app.issues().selected_issue().unwrap().id().to_owned();
    h.keys("T");
    let screen = h.screen();
    assert!(screen.contains(&format!("Triage finding {id}")), "{screen}");
    published::assert_no_violations();
}

#[tokio::test(flavor = "multi_thread")]
async fn shift_u_clears_every_mark_and_help_says_so() {
    let mut h = harness(Duration::from_secs(10)).await;
    h.start().await;
    h.keys("   ");
    assert_eq!(h.app.issues().marked.len(), 3);
    h.keys("U");
    assert!(h.app.issues().marked.is_empty());
    assert_eq!(h.app.status.as_deref(), Some("3 marks cleared"));
    h.keys("?");
    let help = h.screen();
    assert!(help.contains("Unmark every row"), "{help}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_kept_draft_stays_with_its_finding_and_is_named_elsewhere() {
    let mut h = harness(Duration::from_secs(10)).await;
    h.start().await;
    let first = select(&mut h, open_and_ignorable);
    h.keys("T");
    // State ignored, Tab to the reason, to "until", to the note.
    h.key(KeyCode::Tab);
    h.key(KeyCode::Tab);
    h.key(KeyCode::Tab);
    h.keys("only for the first");
    h.key(KeyCode::Esc);
    assert_eq!(h.app.triage.step, Step::Hidden);
    h.keys("j");
    let second = h.app.issues().selected_issue().unwrap().id().to_owned();
    h.keys("T");
    let draft = h.app.triage.draft.as_ref().unwrap();
    assert_eq!(draft.scope.ids(), vec![second.clone()]);
    assert_eq!(draft.note, "", "the first finding's note stays with it");
    let screen = h.screen();
    assert!(
        screen.contains(&format!("the draft for finding {first}")),
        "the kept draft is named: {screen}"
    );
    assert!(!screen.contains("only for the first"), "{screen}");
    h.key(KeyCode::Esc);
    h.keys("k");
    h.keys("T");
    let draft = h.app.triage.draft.as_ref().unwrap();
    assert_eq!(draft.scope.ids(), vec![first]);
    assert_eq!(draft.note, "only for the first");
}

#[tokio::test(flavor = "multi_thread")]
async fn an_exception_request_is_named_before_and_shown_in_the_list_and_overview() {
    let mut h = harness(Duration::from_secs(10)).await;
    h.start().await;
    let id = select(&mut h, |i| {
        i.aggregate_state == Some(AggregateState::Open)
            && i.triage_permission == Some(TriagePermission::Request)
    });
    h.keys("T");
    h.key(KeyCode::Tab);
    h.key(KeyCode::Right);
    let dialog = h.screen();
    assert!(
        dialog.contains(&format!(
            "exception request instead of the ignore (may only request one; states stay): {id}"
        )),
        "{dialog}"
    );
    h.ctrl('s');
    h.settle().await;
    assert!(h.screen().contains(&id));
    h.keys("y");
    h.quiesce().await;
    let status = h.app.status.clone().unwrap_or_default();
    assert!(status.contains("1 exception requested"), "{status}");
    // Its state stays open; where it is shown, the request is said.
    assert_eq!(row_state(&h, &id), Some(AggregateState::Open));
    let row = h
        .app
        .issues()
        .list
        .items
        .iter()
        .find(|r| r.id() == id)
        .unwrap();
    assert_eq!(row.exception(), Some(ExceptionState::Requested));
    let list = h.screen();
    assert!(list.contains("exc. requested · open"), "{list}");
    h.key(KeyCode::Enter);
    h.settle().await;
    let overview = h.screen();
    assert!(
        overview.contains("open · exception requested"),
        "{overview}"
    );
    published::assert_no_violations();
}

#[tokio::test(flavor = "multi_thread")]
async fn quitting_with_a_kept_triage_draft_asks_and_q_q_does_not_quit() {
    let mut h = harness(Duration::from_secs(10)).await;
    h.start().await;
    let id = select(&mut h, open_and_ignorable);
    h.keys("T");
    h.key(KeyCode::Right);
    h.key(KeyCode::Esc);
    h.keys("q");
    assert!(!h.app.quit);
    assert_eq!(
        quit_prompt(&h),
        vec![format!("a kept triage draft for finding {id} (reviewing)")]
    );
    let screen = h.screen();
    assert!(screen.contains("Quit with unsent work?"), "{screen}");
    assert!(screen.contains("Ctrl-C again quits at once"), "{screen}");
    h.keys("q");
    assert!(!h.app.quit, "q q is not a yes");
    h.key(KeyCode::Esc);
    assert!(!h.app.quit && h.app.overlay.is_none());
    assert!(h.app.triage.draft.is_some(), "nothing dropped");
    h.keys("q");
    h.keys("y");
    assert!(h.app.quit);
}

#[tokio::test(flavor = "multi_thread")]
async fn quitting_with_an_unsent_scm_draft_names_its_config() {
    let mut h = harness(Duration::from_secs(10)).await;
    h.start().await;
    h.keys("4");
    h.settle().await;
    let config = h.app.scm().list.configs[0].id.clone().unwrap();
    h.key(KeyCode::Enter);
    // j three times to autoScan, Space flips it; Esc keeps the draft.
    h.keys("jjj ");
    h.key(KeyCode::Esc);
    h.keys("q");
    assert_eq!(
        quit_prompt(&h),
        vec![format!("an unsent SCM draft of config {config}")]
    );
    h.keys("q");
    assert!(!h.app.quit, "q q is not a yes");
    h.keys("y");
    assert!(h.app.quit);
}

/// "exc. requested" on a row survives the list's reload (`r`): a page of
/// List issues cannot say it, so the row keeps what the fresh fetch after
/// the triage said.
#[tokio::test(flavor = "multi_thread")]
async fn an_exception_request_stays_on_its_row_after_a_reload() {
    let mut h = harness(Duration::from_secs(10)).await;
    h.start().await;
    let id = select(&mut h, |i| {
        i.aggregate_state == Some(AggregateState::Open)
            && i.triage_permission == Some(TriagePermission::Request)
    });
    h.keys("T");
    h.key(KeyCode::Tab);
    h.key(KeyCode::Right);
    h.ctrl('s');
    h.settle().await;
    h.keys("y");
    h.quiesce().await;
    assert!(h.screen().contains("exc. requested · open"));
    h.keys("r");
    h.settle().await;
    h.quiesce().await;
    let row = h
        .app
        .issues()
        .list
        .items
        .iter()
        .find(|r| r.id() == id)
        .expect("the row, loaded again");
    assert_eq!(row.exception(), Some(ExceptionState::Requested));
    let list = h.screen();
    assert!(list.contains("exc. requested · open"), "{list}");
}
