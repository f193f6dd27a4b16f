//! "Since last visit" through the real app, worker and demo server: a
//! first session keeps its snapshot; a second one, on the demo two weeks
//! later, shows each category with the counts `findings diff` gives for
//! the same snapshot, in the list's title and in the view (`W`); `Enter`
//! narrows to a category and opens a finding.

use crate::common::{self, Harness, anchor, run_at_anchor};
use crossterm::event::KeyCode;
use findings_demo::{DemoOptions, DemoServer};
use findings_snapshot::Category;
use std::collections::BTreeMap;

async fn demo(days_later: u32) -> DemoServer {
    DemoServer::start_local(DemoOptions {
        findings: 2000,
        anchor: Some(anchor()),
        days_later,
        ..Default::default()
    })
    .await
    .expect("demo server starts")
}

async fn compared(h: &mut Harness) {
    h.start().await;
    h.until("the comparison with the last visit", |app| {
        app.issues().since.report.is_some() || app.issues().since.error.is_some()
    })
    .await;
    assert_eq!(h.app.issues().since.error, None);
}

/// `findings diff FILE` against `server`: the count of each category.
async fn diff_counts(server: &DemoServer, file: &std::path::Path) -> BTreeMap<String, u64> {
    let file = file.to_str().unwrap();
    let out = run_at_anchor(server.url(), &["diff", file, "--format", "ndjson"]).await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let mut counts = BTreeMap::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let change: serde_json::Value = serde_json::from_str(line).unwrap();
        *counts
            .entry(change["category"].as_str().unwrap().to_owned())
            .or_default() += 1;
    }
    counts
}

#[tokio::test(flavor = "multi_thread")]
async fn a_second_session_shows_what_changed_since_the_first_as_findings_diff_does() {
    let state = tempfile::tempdir().unwrap();

    // The first visit: nothing to compare with; this one is kept.
    let mut first = Harness::remembering(demo(0).await, state.path(), "work", (100, 30));
    compared(&mut first).await;
    let report = first.app.issues().since.report.clone().unwrap();
    assert_eq!(report.last_visit, None);
    assert!(report.now > 1000, "{}", report.now);
    first.keys("W");
    let screen = first.screen();
    assert!(screen.contains("No earlier visit"), "{screen}");
    findings_tui::runtime::keep_visits(&first.app);
    let kept = first.app.issues().kept_visits().to_vec();
    assert_eq!(kept.len(), 1);
    assert!(kept[0].last.exists() && !kept[0].next.exists());
    // The file is a snapshot `findings diff` reads.
    let baseline = state.path().join("baseline.fsnap");
    std::fs::copy(&kept[0].last, &baseline).unwrap();
    drop(first);

    // Two weeks later: every kind of change, counted as `findings diff`
    // counts them against the same snapshot.
    let mut second = Harness::remembering(demo(14).await, state.path(), "work", (80, 24));
    compared(&mut second).await;
    let report = second.app.issues().since.report.clone().unwrap();
    assert_eq!(report.last_visit, Some(anchor()), "the first visit's time");
    let expected = diff_counts(second.server(), &baseline).await;
    for category in Category::ALL {
        assert_eq!(
            report.count(category),
            expected.get(category.name()).copied().unwrap_or(0),
            "{}",
            category.name()
        );
    }
    for category in ["new", "fixed", "reopened", "triaged"] {
        assert!(
            expected.get(category).is_some_and(|n| *n > 0),
            "{expected:?}"
        );
    }
    let new = report.count(Category::New);
    let screen = second.screen();
    let title = format!("since last visit: {new} new");
    assert!(screen.contains(&title), "{title}\n{screen}");

    // `W`: the categories; Enter: the new ones; Enter: the detail.
    second.keys("W");
    let screen = second.screen();
    assert!(
        screen.contains("Since your last visit 2026-11-01 00:00"),
        "{screen}"
    );
    assert!(
        screen.contains(&format!("{new:>8}  new")),
        "the count of new findings\n{screen}"
    );
    insta::assert_snapshot!("since_categories_80x24", screen);
    // The book's picture of this view is this frame's box, its empty rows
    // left out.
    let book = include_str!("../../docs/src/tui.md");
    let start = |text: &str| {
        text.find("┌ Since your last visit")
            .expect("the view's box")
    };
    let shown: Vec<&str> = book[start(book)..]
        .lines()
        .take_while(|l| !l.starts_with("```"))
        .collect();
    let drawn: Vec<&str> = screen[start(&screen)..]
        .lines()
        .filter(|l| !l.trim_matches(['│', ' ']).is_empty())
        .take_while(|l| l.starts_with(['┌', '│', '└']))
        .collect();
    assert_eq!(
        shown, drawn,
        "docs/src/tui.md's Since your last visit box is not the app's frame:\n{screen}"
    );
    // At the other sizes, as drawn whole.
    for (w, h) in [(60, 20), (100, 30)] {
        let screen = second.screen_at(w, h);
        common::drawn_whole(&screen);
        insta::assert_snapshot!(format!("since_categories_{w}x{h}"), screen);
    }
    second.screen_at(80, 24);
    second.key(KeyCode::Enter);
    let changes = &second.app.issues().since.changes;
    let (category, list) = changes.as_ref().expect("the new findings");
    assert_eq!(*category, Category::New);
    assert_eq!(list.len() as u64, new);
    let id = list.items[0].id.clone();
    let screen = second.screen();
    assert!(screen.contains(&id), "{screen}");
    insta::assert_snapshot!("since_new_80x24", screen);
    second.key(KeyCode::Enter);
    second.settle().await;
    let detail = second.app.detail.as_ref().expect("the finding opens");
    assert_eq!(detail.issue.id(), id);
    // Esc: the detail, then the categories, then the findings.
    second.key(KeyCode::Esc);
    second.key(KeyCode::Esc);
    assert!(second.app.issues().since.changes.is_none());
    assert!(second.app.issues().since.shown);
    second.key(KeyCode::Esc);
    assert!(!second.app.issues().since.shown);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_filter_has_its_own_last_visit_and_a_run_without_a_state_folder_keeps_none() {
    let state = tempfile::tempdir().unwrap();
    let mut h = Harness::remembering(demo(0).await, state.path(), "work", (100, 30));
    compared(&mut h).await;
    h.keys(":filter severities=critical");
    h.key(KeyCode::Enter);
    h.settle().await;
    h.keys(":since");
    h.key(KeyCode::Enter);
    h.until("the critical findings compared", |app| {
        app.issues()
            .since
            .report_for(&app.issues().selection)
            .is_some()
    })
    .await;
    let report = h.app.issues().since.report.clone().unwrap();
    assert_eq!(report.last_visit, None, "a first visit with this filter");
    assert!(report.now < 1000, "only the critical: {}", report.now);
    assert_eq!(h.app.issues().kept_visits().len(), 2, "one file per filter");

    let mut plain = Harness::new(200, 100, 30).await;
    plain.start().await;
    plain.keys("W");
    assert!(!plain.app.issues().since.shown);
    let screen = plain.screen();
    assert!(screen.contains("last visits are not kept"), "{screen}");
}
