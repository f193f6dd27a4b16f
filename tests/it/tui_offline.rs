//! `findings --snapshot FILE`: a snapshot saved from the demo (by the
//! binary, as a user saves one), opened offline through the same code the
//! command uses: the in-process server answers as the live one did for the
//! snapshot's findings (counts, filters, sorting, the Report, the detail
//! from what the snapshot holds); every write is refused with the reason
//! and reaches no handler; the header's badge at 80×24.

use crate::common::{self, Harness, run_at_anchor};
use crate::tui_triage::{command, popup};
use crossterm::event::KeyCode;
use findings_demo::DemoServer;
use findings_model::*;
use findings_tui::triage::Step;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

const FINDINGS: usize = 600;

/// Saves every finding of `server` with `findings snapshot save`, its clock
/// at the data's "now".
async fn saved(server: &DemoServer, dir: &Path) -> PathBuf {
    let path = dir.join("review.snap");
    let file = path.to_str().unwrap();
    let out = run_at_anchor(server.url(), &["snapshot", "save", "-o", file]).await;
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    path
}

fn selection(f: impl FnOnce(&mut ListIssuesFilter)) -> GetIssueCountsRequest {
    let mut filter = ListIssuesFilter::default();
    f(&mut filter);
    GetIssueCountsRequest {
        filter: Some(filter),
        ..Default::default()
    }
}

/// Every id a listing gives, in its order, with the severities.
async fn every_id(
    client: &findings_client::Client,
    mut req: ListIssuesRequest,
) -> Vec<(String, Option<Severity>)> {
    let mut out = Vec::new();
    req.limit = Some(1000);
    loop {
        let page = client.list_issues(&req).await.expect("a page");
        out.extend(page.issues.into_iter().filter_map(|i| {
            let issue = i.issue?;
            Some((issue.id.clone()?, issue.severity))
        }));
        match page.cursor {
            Some(c) => req.cursor = Some(c),
            None => return out,
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_offline_server_answers_as_the_live_one_for_the_snapshots_findings() {
    let live = common::demo(FINDINGS).await;
    let dir = tempfile::tempdir().unwrap();
    let path = saved(&live, dir.path()).await;
    let opened = findings_cli::open_snapshot(&path)
        .await
        .unwrap_or_else(|e| panic!("{}", e.into_message()));
    let offline = &opened.session.client;
    let live_client = common::client_for(&live);
    assert!(offline.base_url().starts_with("http://127.0.0.1:"));
    assert_ne!(offline.base_url(), live_client.base_url());
    // Counts by state, with and without filters.
    let repo = live.state().dataset.catalog.repositories[2].name.clone();
    for req in [
        selection(|_| {}),
        selection(|f| f.severities = vec![Severity::Critical, Severity::High]),
        selection(|f| f.repository_names = vec![repo.clone()]),
        selection(|f| f.triage_reasons = vec![TriageReason::FalsePositive]),
        selection(|f| f.file_paths = vec!["src".into()]),
    ] {
        let (a, b) = (
            live_client.issue_counts(&req).await.unwrap(),
            offline.issue_counts(&req).await.unwrap(),
        );
        assert_eq!(a.listed(), b.listed(), "{req:?}");
        assert_eq!((a.open, a.closed), (b.open, b.closed), "{req:?}");
    }
    // A filter and a sort: the same findings, most severe first.
    let req = ListIssuesRequest {
        sort_by: Some(SortBy::Severity),
        sort_direction: Some(SortDirection::Desc),
        filter: Some(ListIssuesFilter {
            aggregate_issue_states: vec![AggregateState::Open],
            ..Default::default()
        }),
        ..Default::default()
    };
    let (a, b) = (
        every_id(&live_client, req.clone()).await,
        every_id(offline, req).await,
    );
    assert!(!b.is_empty());
    let ids = |l: &[(String, Option<Severity>)]| {
        let mut ids: Vec<String> = l.iter().map(|(id, _)| id.clone()).collect();
        ids.sort();
        ids
    };
    assert_eq!(ids(&a), ids(&b));
    let ranks: Vec<u8> = b
        .iter()
        .map(|(_, s)| s.as_ref().map_or(9, Severity::rank))
        .collect();
    assert!(ranks.windows(2).all(|w| w[0] <= w[1]), "{ranks:?}");
    // The detail: the finding whole, as the snapshot holds it.
    let id = &b[0].0;
    let whole = offline.get_issue(id).await.unwrap();
    assert_eq!(whole.id.as_deref(), Some(id.as_str()));
    assert!(whole.remediation.is_some(), "{whole:?}");
    assert!(!whole.activity_history.is_empty());
    assert!(whole.first_detected_at.is_some());
    // The filters' values: the snapshot's repositories, each rule once.
    let values = offline
        .issue_filters(&IssueFiltersRequest::default())
        .await
        .unwrap();
    let live_values = live_client
        .issue_filters(&IssueFiltersRequest::default())
        .await
        .unwrap();
    assert!(
        values
            .repo_names
            .iter()
            .all(|r| live_values.repo_names.contains(r))
    );
    let rules: Vec<_> = values
        .rules
        .iter()
        .map(|r| (r.id.clone(), r.sca_cve.clone(), r.sca_ghsa.clone()))
        .collect();
    let once: std::collections::HashSet<_> = rules.iter().collect();
    assert_eq!(once.len(), rules.len());
    // The Report counts what the snapshot holds: the live listing's
    // findings (the archived projects' were not listed, so not saved).
    let report = ReportRequest {
        report_type: Some(ReportType::TotalOpen),
        ..Default::default()
    };
    let open = live_client
        .issue_counts(&selection(|f| {
            f.aggregate_issue_states = vec![
                AggregateState::Open,
                AggregateState::Reviewing,
                AggregateState::Fixing,
            ];
        }))
        .await
        .unwrap();
    let total = offline.report_findings(&report).await.unwrap().total;
    assert_eq!(total, Some(open.listed()));
}

/// Counts the requests of `route`s that write and reach the handlers.
fn count_writes(h: &Harness) -> Arc<AtomicUsize> {
    let n = Arc::new(AtomicUsize::new(0));
    let seen = n.clone();
    h.server()
        .observe(Some(Arc::new(move |ex: &findings_demo::tap::Exchange| {
            if findings_demo::offline_guard::is_write(&ex.method, &ex.route) {
                seen.fetch_add(1, Ordering::SeqCst);
            }
        })));
    n
}

#[tokio::test(flavor = "multi_thread")]
async fn the_tui_browses_a_snapshot_with_its_badge_filters_sorting_and_the_detail() {
    let live = common::demo(FINDINGS).await;
    let dir = tempfile::tempdir().unwrap();
    let path = saved(&live, dir.path()).await;
    let mut h = Harness::offline(&path, 80, 24).await;
    h.start().await;
    h.quiesce().await;
    let screen = h.screen();
    assert!(screen.contains("SNAPSHOT 2026-11-01 00:00"), "{screen}");
    assert!(!screen.contains("DEMO"), "{screen}");
    insta::assert_snapshot!("offline_issues_80x24", screen);
    // The Report, counted over the snapshot, under the same badge.
    h.keys("1");
    h.settle().await;
    h.quiesce().await;
    insta::assert_snapshot!("offline_report_80x24", h.screen());
    h.keys("2");
    h.settle().await;
    // A filter: as many as the live deployment has.
    command(&mut h, "filter severities=critical");
    h.settle().await;
    while !h.app.issues().list.complete {
        h.key(KeyCode::Char('G'));
        h.settle().await;
    }
    let critical = ListIssuesRequest {
        filter: Some(ListIssuesFilter {
            severities: vec![Severity::Critical],
            ..Default::default()
        }),
        ..Default::default()
    };
    let live_critical = every_id(&common::client_for(&live), critical).await;
    let rows = &h.app.issues().list.items;
    assert_eq!(rows.len(), live_critical.len());
    assert!(
        rows.iter()
            .all(|r| live_critical.iter().any(|(id, _)| id == r.id()))
    );
    // A sort: by severity, most severe first (all critical now: the
    // same rows).
    h.keys("s");
    h.settle().await;
    assert_eq!(h.app.issues().list.items.len(), live_critical.len());
    // The detail opens, from what the snapshot holds.
    h.key(KeyCode::Enter);
    h.settle().await;
    assert!(h.app.detail.is_some(), "{}", h.screen());
    let id = h.app.issues().list.items[0].id().to_owned();
    let mut shown = vec![h.screen()];
    for _ in 0..3 {
        h.keys("l");
        h.settle().await;
        shown.push(h.screen());
    }
    // Overview, Code, Remediation, Activity: what the save asked for.
    assert!(shown[0].contains(&id), "{}", shown[0]);
    assert!(shown[2].contains("Autofix"), "{}", shown[2]);
    assert!(shown[3].contains("analysis started"), "{}", shown[3]);
    h.key(KeyCode::Esc);
    h.settle().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn every_write_is_refused_offline_with_the_reason_and_none_is_sent() {
    let live = common::demo(FINDINGS).await;
    let dir = tempfile::tempdir().unwrap();
    let path = saved(&live, dir.path()).await;
    let mut h = Harness::offline(&path, 120, 35).await;
    h.start().await;
    h.quiesce().await;
    let writes = count_writes(&h);
    // A triage: refused where it would be sent.
    h.select_first_open();
    command(&mut h, "triage ignored");
    h.settle().await;
    let review = h.screen();
    assert!(
        review.contains("offline snapshot: read-only: y will not send this triage"),
        "{review}"
    );
    h.keys("y");
    h.settle().await;
    let said = popup(&h);
    assert!(
        said.contains("offline snapshot: read-only: the triage is not sent"),
        "{said}"
    );
    // The popup, the review, the dialog (the draft kept).
    while h.app.overlay.is_some() || h.app.triage.step != Step::Hidden {
        h.key(KeyCode::Esc);
    }
    h.settle().await;
    // The Act menu says why before anything is chosen.
    h.keys("A");
    h.settle().await;
    let menu = h.screen();
    assert!(menu.contains("offline snapshot: read-only"), "{menu}");
    h.key(KeyCode::Esc);
    h.settle().await;
    assert_eq!(writes.load(Ordering::SeqCst), 0);
    h.keys("4");
    h.settle().await;
    let scm = h.screen();
    h.keys("3");
    h.settle().await;
    let agentic = h.screen();
    // The panes a snapshot cannot fill say so, without an error.
    assert!(scm.contains("A snapshot holds findings only"), "{scm}");
    assert!(
        agentic.contains("a snapshot holds findings only"),
        "{agentic}"
    );
    assert_eq!(writes.load(Ordering::SeqCst), 0);
    // Should one get past the app, the server refuses it too, saying why.
    let client = findings_cli::open_snapshot(&path).await.ok().unwrap();
    let refused = client
        .session
        .client
        .update_findings(&UpdateFindingsRequest::for_ids(
            vec![h.app.issues().list.items[0].id().to_owned()],
            UpdateFindingParams {
                triage_state: Some(TriageState::Ignored),
                triage_reason: Some(TriageReason::FalsePositive),
                note: None,
            },
        ))
        .await
        .unwrap_err();
    assert!(
        refused.to_string().contains("offline snapshot: read-only"),
        "{refused}"
    );
}

/// Offline, the Issues pane counts what `snapshot show` counts: every
/// finding the snapshot holds outside archived projects, the unknown state
/// included (the published counts name none; the list shows them).
#[tokio::test(flavor = "multi_thread")]
async fn offline_the_counts_are_the_snapshots_findings() {
    let live = common::demo(FINDINGS).await;
    let dir = tempfile::tempdir().unwrap();
    let path = saved(&live, dir.path()).await;
    let file = path.to_str().unwrap();
    let out = run_at_anchor(live.url(), &["snapshot", "show", file, "--format", "json"]).await;
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let shown: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let findings = shown["findings"].as_i64().unwrap();
    let unknown = shown["byState"]["unknown"].as_i64().unwrap_or(0);
    assert!(unknown > 0, "{shown}");
    let mut h = Harness::offline(&path, 100, 30).await;
    h.start().await;
    h.quiesce().await;
    use findings_tui::pane::Pane;
    assert_eq!(h.app.issues().tab_count(), Some(findings));
    let screen = h.screen();
    let n = findings_base::text::thousands(findings);
    assert!(screen.contains(&format!("{n} match: ")), "{screen}");
    assert!(screen.contains(&format!("unknown {unknown}")), "{screen}");
}

/// A snapshot rewritten in place while the TUI has it open (saved again
/// over it, cut short): its findings are read by position, so every answer
/// after says the file changed, in a popup naming it, never findings
/// read from the wrong places (empty ones).
#[tokio::test(flavor = "multi_thread")]
async fn a_snapshot_rewritten_while_open_says_so_and_serves_nothing_from_it() {
    let live = common::demo(FINDINGS).await;
    let dir = tempfile::tempdir().unwrap();
    let path = saved(&live, dir.path()).await;
    let mut h = Harness::offline(&path, 100, 30).await;
    h.start().await;
    h.quiesce().await;
    let rows = h.app.issues().list.items.len();
    assert!(rows > 0);
    // A second view of it, to ask its server directly.
    let other = findings_cli::open_snapshot(&path).await.ok().unwrap();
    // Rewritten in place (the same file, as `>` or an editor's save does):
    // the first half of it, then other bytes.
    let bytes = std::fs::read(&path).unwrap();
    let mut rewritten = bytes[..bytes.len() / 2].to_vec();
    rewritten.extend(std::iter::repeat_n(b'x', 1000));
    std::fs::write(&path, &rewritten).unwrap();
    let changed = "review.snap changed on disk since it was opened; reopen it";
    // The list again: the popup says why, the rows stay as they were.
    h.keys("r");
    h.settle().await;
    let said = popup(&h);
    assert!(said.contains(changed), "{said}");
    assert_eq!(h.app.issues().list.items.len(), rows);
    assert!(
        h.app.issues().list.items.iter().all(|r| !r.id().is_empty()),
        "no empty finding"
    );
    // Any request, the server's answer says it.
    let page = other
        .session
        .client
        .list_issues(&ListIssuesRequest::default())
        .await
        .map(|p| p.issues.len());
    let err = page.expect_err("no page from a changed file");
    assert!(err.to_string().contains(changed), "{err}");
}
