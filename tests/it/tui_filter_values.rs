//! The values the filters can take (`IssuesService_GetIssueFilters`), in
//! the app: asked for once, the form and `:filter` complete from them, and
//! a name that matches nothing is refused with the closest known name.

use crate::common::Harness;
use crossterm::event::KeyCode;
use findings_tui::app::Overlay;

/// The app started, with the filter values arrived.
async fn harness() -> Harness {
    let mut h = Harness::new(300, 120, 40).await;
    h.start().await;
    h.until("the filter values arrive", |app| {
        app.issues().known.is_known()
    })
    .await;
    h
}

fn line(h: &Harness) -> String {
    match &h.app.overlay {
        Some(Overlay::Command(line)) => line.input.value().to_owned(),
        other => panic!("no command line: {other:?}"),
    }
}

/// Opens the form on field `name` (moving down from the first).
fn form_on(h: &mut Harness, name: &str) {
    h.key(KeyCode::Char('f'));
    let k = findings_requests::filter_spec::LIST_FILTER
        .iter()
        .position(|f| f.name == name)
        .unwrap();
    for _ in 0..k {
        h.key(KeyCode::Down);
    }
}

fn editing(h: &Harness) -> String {
    let form = h.app.issues().form.as_ref().expect("the form is open");
    form.editing
        .as_ref()
        .expect("a field is edited")
        .value()
        .to_owned()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_form_offers_the_known_values_and_enum_values() {
    let mut h = harness().await;
    form_on(&mut h, "repositoryNames");
    assert!(
        h.screen().contains("known values (e.g. acme/"),
        "{}",
        h.screen()
    );
    h.key(KeyCode::Enter);
    h.keys("pay");
    assert!(
        h.screen().contains("Tab: acme/payments-api"),
        "{}",
        h.screen()
    );
    h.key(KeyCode::Tab);
    assert_eq!(editing(&h), "acme/payments-api");
    // A list takes another after a comma; Tab again cycles.
    h.keys(",acme/l");
    h.key(KeyCode::Tab);
    assert_eq!(editing(&h), "acme/payments-api, acme/ledger-core");
    h.key(KeyCode::Tab);
    assert_eq!(editing(&h), "acme/payments-api, acme/legacy-billing");
    h.key(KeyCode::Enter);
    // An enum field offers its values the same way.
    h.key(KeyCode::Up);
    h.key(KeyCode::Up);
    h.key(KeyCode::Enter);
    h.keys("cr");
    h.key(KeyCode::Tab);
    assert_eq!(editing(&h), "critical");
    h.key(KeyCode::Enter);
    // Apply: the Apply row follows the fields.
    let apply = findings_requests::filter_spec::LIST_FILTER.len() - 1;
    for _ in 0..apply {
        h.key(KeyCode::Down);
    }
    h.key(KeyCode::Enter);
    h.settle().await;
    assert!(h.app.issues().form.is_none());
    let f = &h.app.issues().selection.filter;
    assert_eq!(
        f.repository_names,
        vec!["acme/payments-api", "acme/legacy-billing"]
    );
    assert_eq!(f.severities.len(), 1);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_form_refuses_a_name_that_matches_nothing_and_suggests() {
    let mut h = harness().await;
    form_on(&mut h, "repositoryNames");
    h.key(KeyCode::Enter);
    h.keys("payments-api");
    h.key(KeyCode::Enter);
    let apply = findings_requests::filter_spec::LIST_FILTER.len() - 3;
    for _ in 0..apply {
        h.key(KeyCode::Down);
    }
    h.key(KeyCode::Enter);
    let form = h.app.issues().form.as_ref().expect("the form stays open");
    let error = form.error.clone().unwrap_or_default();
    assert!(
        error.contains("\"payments-api\" matches nothing; did you mean acme/payments-api?"),
        "{error}"
    );
    assert!(h.screen().contains("did you mean acme/payments-api?"));
    assert!(h.app.issues().selection.filter.repository_names.is_empty());
}

#[tokio::test(flavor = "multi_thread")]
async fn filter_completes_from_the_known_values_and_suggests() {
    let mut h = harness().await;
    let sent = h.sent;
    h.keys(":filter repositoryNames=pay");
    h.key(KeyCode::Tab);
    assert_eq!(line(&h), "filter repositoryNames=acme/payments-api ");
    h.key(KeyCode::Esc);
    h.keys(":filter teamNames=");
    h.key(KeyCode::Tab);
    assert!(line(&h).starts_with("filter teamNames="), "{}", line(&h));
    h.key(KeyCode::Esc);
    assert_eq!(h.sent, sent, "the values are asked for once, then kept");
    h.keys(":filter repositoryNames=payments-api");
    h.key(KeyCode::Enter);
    assert!(matches!(h.app.overlay, Some(Overlay::Error { .. })));
    assert!(
        h.screen().contains("did you mean acme/payments-api?"),
        "{}",
        h.screen()
    );
    assert!(h.app.issues().selection.filter.repository_names.is_empty());
}

#[tokio::test(flavor = "multi_thread")]
async fn the_report_refuses_a_repository_it_does_not_have_and_keeps_what_was_typed() {
    let mut h = Harness::new(300, 120, 40).await;
    h.start().await;
    h.key(KeyCode::Char('1'));
    h.settle().await;
    h.key(KeyCode::Char('/'));
    h.until("the names arrive", |app| app.report().known.is_known())
        .await;
    assert!(h.app.report().known.is_known(), "the names arrived");
    h.keys("payments-api");
    h.key(KeyCode::Enter);
    // Said in the prompt (no popup to dismiss first).
    assert!(h.app.overlay.is_none());
    assert!(
        h.screen().contains("did you mean acme/payments-api?"),
        "{}",
        h.screen()
    );
    assert!(h.app.report().projects.is_empty());
    // The input is as typed, to be corrected.
    let typed = h
        .app
        .report()
        .repo_input
        .as_ref()
        .map(|i| i.value().to_owned());
    assert_eq!(typed.as_deref(), Some("payments-api"));
    h.key(KeyCode::Home);
    h.keys("acme/");
    h.key(KeyCode::Enter);
    h.settle().await;
    assert!(h.app.overlay.is_none());
    assert_eq!(h.app.report().projects, vec!["acme/payments-api"]);
    assert_eq!(
        h.app.report().selectors().projects,
        vec!["acme/payments-api"]
    );
}

/// `:filter cves=…` as the headless `--cve`: its type asked for (the
/// supply-chain findings of the advisory, not every code and secrets
/// finding beside them), in any case or by its alias; a typo refused with
/// the advisory meant.
#[tokio::test(flavor = "multi_thread")]
async fn filter_by_an_advisory_asks_for_its_type_in_any_case_or_by_its_alias() {
    use findings_model::IssueType;
    let mut h = Harness::new(findings_demo::DEFAULT_FINDINGS, 200, 40).await;
    h.start().await;
    h.until("the filter values arrive", |app| {
        app.issues().known.is_known()
    })
    .await;
    for typed in ["cve-2021-44228", "GHSA-jfh8-c2jp-5v3q"] {
        h.keys(&format!(":filter cves={typed}"));
        h.key(KeyCode::Enter);
        h.until("the filter applies", |app| {
            !app.issues().selection.filter.cves.is_empty()
        })
        .await;
        h.settle().await;
        assert!(h.app.overlay.is_none(), "{typed}: {}", h.screen());
        let issues = h.app.issues();
        assert_eq!(issues.selection.filter.cves, vec!["CVE-2021-44228"]);
        assert_eq!(issues.selection.issue_types, vec![IssueType::Sca]);
        assert_eq!(issues.list.items.len(), 35, "{typed}");
        assert!(issues.list.complete);
        let status = h.app.status.clone().unwrap_or_default();
        assert!(
            status.contains("cves narrows sca findings only: the type sca is added"),
            "{typed}: {status}"
        );
        if typed.starts_with("GHSA") {
            assert!(status.contains("is an alias of CVE-2021-44228"), "{status}");
        }
        h.keys(":clear");
        h.key(KeyCode::Enter);
        h.settle().await;
    }
    // One digit off: refused, the advisory meant suggested.
    h.keys(":filter cves=CVE-2021-44229");
    h.key(KeyCode::Enter);
    h.until("the refusal", |app| app.overlay.is_some()).await;
    assert!(
        h.screen().contains("did you mean CVE-2021-44228?"),
        "{}",
        h.screen()
    );
    assert!(h.app.issues().selection.filter.cves.is_empty());
    // With types it does not narrow only: refused too.
    h.key(KeyCode::Esc);
    h.keys(":filter issueTypes=code");
    h.key(KeyCode::Enter);
    h.settle().await;
    h.keys(":filter cves=CVE-2021-44228");
    h.key(KeyCode::Enter);
    h.until("the refusal", |app| app.overlay.is_some()).await;
    assert!(
        h.screen().contains("it would narrow nothing"),
        "{}",
        h.screen()
    );
}
