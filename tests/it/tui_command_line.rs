//! The `:` line: `:filter` replaces a field's values (`+=` adds), Up/Down
//! recall this session's commands, Tab completes.

use crate::common::Harness;
use crossterm::event::KeyCode;
use findings_model::Severity;
use findings_tui::app::Overlay;

async fn harness() -> Harness {
    let mut h = Harness::new(2000, 120, 35).await;
    h.start().await;
    h
}

/// Runs `:command` and waits for its reload.
async fn run(h: &mut Harness, command: &str) {
    h.keys(&format!(":{command}"));
    h.key(KeyCode::Enter);
    h.settle().await;
}

/// The text on the `:` line.
fn line(h: &Harness) -> String {
    match &h.app.overlay {
        Some(Overlay::Command(line)) => line.input.value().to_owned(),
        other => panic!("no command line: {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn filter_reads_a_list_as_the_command_line_does() {
    let mut h = harness().await;
    // `a,b` and `\,` for a comma inside a value, as every flag reads them.
    run(&mut h, r"filter dependencies=left\,pad, lodash").await;
    assert_eq!(
        h.app.issues().selection.filter.dependencies,
        vec!["left,pad".to_owned(), "lodash".to_owned()]
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn filter_replaces_a_fields_values_and_plus_equals_adds() {
    let mut h = harness().await;
    let severities = |h: &Harness| h.app.issues().selection.filter.severities.clone();
    run(&mut h, "filter severities=critical").await;
    assert_eq!(severities(&h), vec![Severity::Critical]);
    run(&mut h, "filter severities=high").await;
    assert_eq!(severities(&h), vec![Severity::High], "replaced, not added");
    run(&mut h, "filter severities+=critical").await;
    assert_eq!(severities(&h), vec![Severity::High, Severity::Critical]);
    run(&mut h, "filter severities=low, medium").await;
    assert_eq!(severities(&h), vec![Severity::Low, Severity::Medium]);
    // Only the field named changes; every row loaded matches.
    run(&mut h, "filter refs=main").await;
    assert_eq!(severities(&h), vec![Severity::Low, Severity::Medium]);
    for issue in h.loaded_whole().await {
        assert!(matches!(
            issue.severity,
            Some(Severity::Low | Severity::Medium)
        ));
        assert_eq!(issue.ref_.as_deref(), Some("main"));
    }
    // `FIELD=` clears the field.
    run(&mut h, "filter severities=").await;
    assert!(severities(&h).is_empty());
    assert_eq!(
        h.app.issues().selection.filter.refs,
        vec!["main".to_owned()]
    );
    // A field of one value takes no `+=`; the filter is left as it was.
    run(&mut h, "filter includeArchived+=true").await;
    assert!(matches!(h.app.overlay, Some(Overlay::Error { .. })));
    assert!(h.screen().contains("takes one value"));
    assert_eq!(
        h.app.issues().selection.filter.refs,
        vec!["main".to_owned()]
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn up_and_down_recall_the_commands_of_the_session() {
    let mut h = harness().await;
    run(&mut h, "sort repo asc").await;
    run(&mut h, "filter refs=main").await;
    run(&mut h, "filter refs=main").await;
    h.keys(":half");
    h.key(KeyCode::Up);
    assert_eq!(line(&h), "filter refs=main");
    // The same command twice is one entry.
    h.key(KeyCode::Up);
    assert_eq!(line(&h), "sort repo asc");
    h.key(KeyCode::Up);
    assert_eq!(line(&h), "sort repo asc", "the oldest stays");
    h.key(KeyCode::Down);
    assert_eq!(line(&h), "filter refs=main");
    h.key(KeyCode::Down);
    assert_eq!(line(&h), "half", "back to what was being typed");
    // A recalled command runs as typed.
    h.key(KeyCode::Esc);
    h.keys(":");
    h.key(KeyCode::Up);
    h.key(KeyCode::Up);
    h.key(KeyCode::Enter);
    h.settle().await;
    assert_eq!(h.app.command_history.last().unwrap(), "sort repo asc");
    assert!(h.screen().contains("sort repo ↑"));
}

#[tokio::test(flavor = "multi_thread")]
async fn tab_completes_commands_fields_and_values() {
    let mut h = harness().await;
    h.keys(":so");
    h.key(KeyCode::Tab);
    assert_eq!(line(&h), "sort ");
    h.keys("relev");
    h.key(KeyCode::Tab);
    assert_eq!(line(&h), "sort relevant-since ");
    h.keys("a");
    h.key(KeyCode::Tab);
    assert_eq!(line(&h), "sort relevant-since asc ");
    h.key(KeyCode::Esc);

    // Several: their common start, listed above the line; Tab again
    // cycles through them.
    h.keys(":s");
    h.key(KeyCode::Tab);
    assert_eq!(line(&h), "s");
    let screen = h.screen();
    assert!(screen.contains(" sort save since scm"), "{screen}");
    h.key(KeyCode::Tab);
    assert_eq!(line(&h), "sort");
    h.key(KeyCode::Tab);
    assert_eq!(line(&h), "save");
    h.key(KeyCode::Tab);
    assert_eq!(line(&h), "since");
    h.key(KeyCode::Tab);
    assert_eq!(line(&h), "scm");
    h.key(KeyCode::BackTab);
    assert_eq!(line(&h), "since");
    h.key(KeyCode::Esc);

    // Filter fields, then the values of a field of fixed values, as typed.
    h.keys(":filter sever");
    h.key(KeyCode::Tab);
    assert_eq!(line(&h), "filter severities=");
    h.keys("cr");
    h.key(KeyCode::Tab);
    assert_eq!(line(&h), "filter severities=critical ");
    h.key(KeyCode::Backspace);
    h.keys(",h");
    h.key(KeyCode::Tab);
    assert_eq!(line(&h), "filter severities=critical,high ");
    h.key(KeyCode::Enter);
    h.settle().await;
    assert_eq!(
        h.app.issues().selection.filter.severities,
        vec![Severity::Critical, Severity::High]
    );
    h.keys(":filter aggregateIssueStates=prov");
    h.key(KeyCode::Tab);
    assert_eq!(
        line(&h),
        "filter aggregateIssueStates=provisionally-ignored "
    );
    // Nothing to offer: the line stays as typed.
    h.key(KeyCode::Esc);
    h.keys(":nothing");
    h.key(KeyCode::Tab);
    assert_eq!(line(&h), "nothing");
}
