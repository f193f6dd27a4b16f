//! Questions that cannot be missed, and a status line with priorities,
//! through the real app, worker and demo server (issue 48, points 1, 2
//! and 7): a yes/no question is a popup that names what each answer does
//! and takes only its answer keys (`:` typed to read it answers nothing
//! and reaches nothing); the status line says first what was said (the
//! question, the outcome of the last action with its counts), then the
//! position and the sort, at 60, 80 and 100 columns.

use crate::common::Harness;
use crossterm::event::KeyCode;
use findings_tui::app::Overlay;
use findings_tui::message::Asker;
use std::time::Duration;

const FINDINGS: usize = 2_000;

/// The status line: the screen's last row.
fn status_line(screen: &str) -> String {
    screen.lines().last().unwrap_or_default().to_owned()
}

fn command(h: &mut Harness, line: &str) {
    h.key(KeyCode::Char(':'));
    h.keys(line);
    h.key(KeyCode::Enter);
}

/// Every finding loaded (`G`) in a `width`×`height` terminal.
async fn loaded_whole(width: u16, height: u16) -> Harness {
    let mut h = Harness::new(FINDINGS, width, height).await;
    h.start().await;
    h.keys("G");
    h.until("everything is loaded", |app| app.issues().list.complete)
        .await;
    h.settle().await;
    h.quiesce().await;
    h
}

fn asking_pane(h: &Harness) -> bool {
    matches!(
        &h.app.overlay,
        Some(Overlay::Question { question, .. }) if matches!(question.asker, Asker::Pane(_))
    )
}

async fn a_new_filter_asks_in_a_popup_that_takes_only_its_answers(width: u16, height: u16) {
    let mut h = loaded_whole(width, height).await;
    let loaded = h.app.issues().list.items.len();
    let n = findings_base::text::thousands(loaded as i64);
    assert_eq!(loaded, crate::common::listed(FINDINGS));
    let sort = h.app.issues().sort_label();
    let sent = h.sent;
    command(&mut h, "filter severities=critical");
    let screen = h.screen();
    common_popup(&screen, &n);
    assert!(asking_pane(&h), "{screen}");
    assert!(
        status_line(&screen).starts_with(&format!("Drop the {n} findings loaded?")),
        "the status line says the question first: {screen}"
    );
    // What the user typed to read it: `:messages`, Enter, then `e`.
    h.keys(":messages");
    h.key(KeyCode::Enter);
    h.keys("e");
    h.settle().await;
    let screen = h.screen();
    assert!(asking_pane(&h), "the question is still up: {screen}");
    common_popup(&screen, &n);
    assert!(screen.contains("y or n"), "{screen}");
    assert_eq!(h.sent, sent, "nothing was asked of the server");
    let issues = h.app.issues();
    assert!(issues.selection.filter.severities.is_empty(), "no filter");
    assert_eq!(issues.list.items.len(), loaded, "the rows stay");
    assert_eq!(issues.sort_label(), sort, "`s` of :messages did not sort");
    // n keeps them; y (asked again) goes ahead.
    h.keys("n");
    assert!(h.app.overlay.is_none());
    assert_eq!(h.app.issues().list.items.len(), loaded);
    assert!(
        status_line(&h.screen()).contains(&format!("kept the {n} loaded findings")),
        "{}",
        h.screen()
    );
    command(&mut h, "filter severities=critical");
    assert!(asking_pane(&h));
    h.keys("y");
    h.settle().await;
    assert!(h.app.overlay.is_none());
    assert_eq!(
        h.app.issues().selection.filter.severities,
        vec![findings_model::Severity::Critical]
    );
}

/// The popup is drawn whole: its title and what each answer does.
fn common_popup(screen: &str, n: &str) {
    for said in [
        format!("Drop the {n} findings loaded?"),
        "y  apply the new filter".to_owned(),
        format!("n/Esc  keep the {n} findings loaded"),
    ] {
        assert!(screen.contains(&said), "{said:?} in\n{screen}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn at_80x24_a_question_takes_only_its_answers() {
    a_new_filter_asks_in_a_popup_that_takes_only_its_answers(80, 24).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn at_60x20_a_question_takes_only_its_answers() {
    a_new_filter_asks_in_a_popup_that_takes_only_its_answers(60, 20).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn after_each_s_the_sort_is_in_the_status_line() {
    for (width, height) in [(60, 20), (80, 24), (100, 30)] {
        let mut h = Harness::new(FINDINGS, width, height).await;
        h.start().await;
        // A first visit's note must not push the sort out.
        h.app.issues_mut().new.last_visit = Some(crate::common::anchor());
        for _ in 0..7 {
            h.keys("s");
            // "sort severity ↓", or "sorted the … by severity ↓" once
            // everything is loaded.
            let sort = h.app.issues().sort_label();
            let line = status_line(&h.screen());
            assert!(line.contains(&sort), "{width}: {sort:?} in {line:?}");
            h.settle().await;
            h.quiesce().await;
            // Once the message is gone (another key), the summary says it.
            h.keys("j");
            let line = status_line(&h.screen());
            assert!(line.contains(&sort), "{width}: {sort:?} in {line:?}");
        }
        // Each sort change is kept in `:messages`, once.
        command(&mut h, "messages");
        let Some(Overlay::Error { message, .. }) = &h.app.overlay else {
            panic!("no messages: {:?}", h.app.overlay)
        };
        for sort in ["severity ↓", "state ↓", "repo ↓", "rule ↓", "ref ↓"] {
            assert_eq!(
                message
                    .lines()
                    .filter(|l| l.ends_with(&format!("  sort {sort}")))
                    .count(),
                1,
                "{sort}: {message}"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_triage_outcome_shows_its_counts_first() {
    let mut h = Harness::quick(300, 120, 35, Duration::from_secs(10)).await;
    h.start().await;
    h.select_first_open();
    h.draft_ignore_as_false_positive("dup");
    h.ctrl('s');
    h.settle().await;
    h.keys("y");
    h.quiesce().await;
    let said = h.app.status.clone().unwrap_or_default();
    assert!(
        said.starts_with("1 updated, of 1 · 1 finding → ignored"),
        "{said}"
    );
    for (width, height) in [(60, 20), (80, 24), (100, 30)] {
        let line = status_line(&h.screen_at(width, height));
        assert!(
            line.starts_with("1 updated, of 1 · 1 finding → ignored"),
            "{width}: {line}"
        );
        assert!(line.ends_with("? help"), "{width}: {line}");
        assert_eq!(line.matches("1 updated").count(), 1, "once: {line}");
    }
}
