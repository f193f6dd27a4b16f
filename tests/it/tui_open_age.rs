//! Open age in the Issues list: the AGE column counts from first detection
//! against the profile's targets, and `O` keeps only the findings open past
//! theirs, as many as `findings issues --over-target` lists; the Report's
//! open-age view counts them by severity, the same.

use crate::common::{Harness, anchor, run_at_anchor};
use crossterm::event::KeyCode;
use findings_config::SlaDays;

/// `findings issues --over-target` against `h`'s server, at the data's
/// clock: the findings it lists, as JSON.
async fn over_target_headless(h: &Harness, extra: &[&str]) -> Vec<serde_json::Value> {
    let mut args = vec!["issues", "--over-target", "--all", "--format", "ndjson"];
    args.extend_from_slice(extra);
    let out = run_at_anchor(h.server().url(), &args).await;
    assert_eq!(out.status.code(), Some(0));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_age_column_and_o_agree_with_the_headless_over_target() {
    let mut h = Harness::anchored(2000, 100, 30).await;
    h.start().await;
    let screen = h.screen();
    assert!(screen.contains("AGE"), "{screen}");

    // The first open row's cell is its age from first detection, and the
    // days past its severity's target.
    let targets = SlaDays::default();
    let open = h
        .app
        .issues()
        .list
        .items
        .iter()
        .find(|r| r.state().is_some_and(|s| s.label() == "open"))
        .expect("an open finding")
        .id()
        .to_owned();
    let whole = h.whole(&open).await;
    let first = whole.first_detected_at.expect("first detection");
    let days = (anchor() - first).num_days();
    let over = targets
        .days_over(whole.severity.as_ref().unwrap(), first, anchor())
        .unwrap_or(0);
    let cell = if over > 0 {
        format!("{days}d +{over}")
    } else {
        format!("{days}d")
    };
    let line = screen
        .lines()
        .find(|l| l.contains(&cell))
        .unwrap_or_else(|| panic!("{cell} on screen\n{screen}"));
    assert!(line.contains("open"), "{line}");

    // `O`: every finding loads, only those over target show.
    h.key(KeyCode::Char('O'));
    h.until("everything loaded", |app| app.issues().list.complete)
        .await;
    let issues = h.app.issues();
    let age = issues.open_age(anchor());
    let shown = issues.list.len();
    assert!(shown > 0 && shown < issues.list.items.len());
    for k in 0..shown {
        assert!(age.is_over(issues.list.row(k).unwrap()), "row {k}");
    }
    let headless = over_target_headless(&h, &[]).await.len();
    assert_eq!(shown, headless, "the TUI and `issues --over-target`");
    let screen = h.screen();
    assert!(
        screen.contains(&format!("Issues {shown} shown of")) && screen.contains("over target"),
        "{screen}"
    );

    // Again: every finding.
    h.key(KeyCode::Char('O'));
    assert_eq!(h.app.issues().list.len(), h.app.issues().list.items.len());
}

#[tokio::test(flavor = "multi_thread")]
async fn over_target_at_80_columns_keeps_the_age_before_the_path() {
    let mut h = Harness::anchored(2000, 80, 24).await;
    h.start().await;
    assert!(!h.screen().contains("AGE"), "left out first at 80 columns");
    h.key(KeyCode::Char('O'));
    h.until("everything loaded", |app| app.issues().list.complete)
        .await;
    insta::assert_snapshot!("issues_over_target_80x24", h.screen());
}

#[tokio::test(flavor = "multi_thread")]
async fn the_reports_open_age_view_counts_the_findings_past_target_by_severity() {
    let mut h = Harness::anchored(2000, 100, 30).await;
    h.start().await;
    h.key(KeyCode::Char('1'));
    h.quiesce().await;
    for _ in 0..5 {
        h.key(KeyCode::Char('d'));
    }
    h.until("the count past target", |app| {
        app.report().over_target.counts.is_some()
    })
    .await;
    let counts = h.app.report().over_target.counts.clone().unwrap();
    let listed = over_target_headless(&h, &[]).await;
    let by = |severity: &str| {
        listed
            .iter()
            .filter(|i| i["issue"]["severity"] == severity)
            .count() as u64
    };
    let expected = [
        "SEVERITY_CRITICAL",
        "SEVERITY_HIGH",
        "SEVERITY_MEDIUM",
        "SEVERITY_LOW",
    ]
    .map(by);
    assert_eq!(counts.over, expected);
    assert!(counts.total_over() > 0);
    let screen = h.screen();
    let line = format!(
        "past target now: crit {}/{}",
        counts.over[0], counts.open[0]
    );
    assert!(screen.contains(&line), "{line}\n{screen}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_triaged_row_keeps_its_age_when_fetched_again() {
    let mut h = Harness::anchored(2000, 100, 30).await;
    h.start().await;
    let first = h.app.issues().list.items[0].clone();
    assert!(first.first_detected().is_some());
    // `T`, to fixing, reviewed, sent: the row is fetched again.
    h.keys("T");
    h.key(KeyCode::Right);
    h.key(KeyCode::Right);
    h.key(KeyCode::Enter);
    h.settle().await;
    h.keys("y");
    h.until("the triaged row fetched again", |app| {
        app.issues().list.items[0]
            .state()
            .is_some_and(|s| s.label() == "fixing")
    })
    .await;
    let row = &h.app.issues().list.items[0];
    assert_eq!(row.id(), first.id());
    assert_eq!(row.first_detected(), first.first_detected());
}
