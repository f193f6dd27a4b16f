//! Loading everything when asked: `G` (to the end), `:load all` and `/`
//! stream every page left, at the server's largest page size, as one
//! request to the worker; the status line says how far it is, keys work
//! while it runs, and `Esc` stops it.

use crate::common::{Harness, listed};
use crossterm::event::KeyCode;
use findings_base::text::thousands;

const FINDINGS: usize = 6_000;

#[tokio::test(flavor = "multi_thread")]
async fn g_loads_everything_and_follows_the_end() {
    let mut h = Harness::new(FINDINGS, 120, 35).await;
    h.start().await;
    let total = listed(FINDINGS);
    let before = h.sent;
    h.keys("G");
    assert!(h.app.issues().loading_all.is_some());
    h.until("everything is loaded", |app| app.issues().list.complete)
        .await;
    let list = &h.app.issues().list;
    assert_eq!(list.items.len(), total);
    assert_eq!(list.selected, total - 1, "G: the selection is at the end");
    assert!(h.app.issues().loading_all.is_none());
    assert_eq!(h.sent, before + 1, "one request: the stream of every page");
    h.settle().await;
    assert!(!h.screen().contains("loading all"));
}

#[tokio::test(flavor = "multi_thread")]
async fn progress_shows_and_keys_work_while_everything_loads() {
    let mut h = Harness::new(FINDINGS, 160, 35).await;
    h.start().await;
    let total = listed(FINDINGS);
    h.keys("G");
    // Before any page of the stream came: what is loaded, of how many.
    let screen = h.screen();
    let counted = h
        .app
        .issues()
        .counts
        .known_for(&h.app.issues().selection)
        .map(|c| c.listed())
        .expect("counted");
    assert!(
        screen.contains(&format!("loading all: 100 of {}", thousands(counted))),
        "{screen}"
    );
    assert!(screen.contains("Esc stops"), "{screen}");
    // Keys are answered meanwhile: up one row, off the end, stays there.
    h.key(KeyCode::Char('k'));
    assert_eq!(h.app.issues().list.selected, 98);
    h.keys(":load all");
    h.key(KeyCode::Enter);
    assert!(h.app.overlay.is_none(), "{:?}", h.app.status);
    h.until("everything is loaded", |app| app.issues().list.complete)
        .await;
    assert_eq!(h.app.issues().list.items.len(), total);
    assert_eq!(
        h.app.issues().list.selected,
        98,
        "k: the end is not followed"
    );
    h.keys(":load all");
    h.key(KeyCode::Enter);
    assert_eq!(h.app.status.as_deref(), Some("every finding is loaded"));
}

#[tokio::test(flavor = "multi_thread")]
async fn esc_stops_the_load_of_everything() {
    let mut h = Harness::new(FINDINGS, 120, 35).await;
    h.start().await;
    h.keys("G");
    let cancelled = h.cancelled;
    h.key(KeyCode::Esc);
    assert_eq!(h.cancelled, cancelled + 1, "the stream is cancelled");
    assert!(h.app.issues().loading_all.is_none());
    assert!(h.app.issues().list.paused);
    h.quiesce().await;
    let list = &h.app.issues().list;
    assert!(!list.complete);
    assert!(list.items.len() < listed(FINDINGS));
    assert!(h.screen().contains("stopped"));
}

#[tokio::test(flavor = "multi_thread")]
async fn slash_filters_over_everything() {
    let mut h = Harness::new(FINDINGS, 120, 35).await;
    h.start().await;
    h.key(KeyCode::Char('/'));
    assert!(h.app.issues().loading_all.is_some(), "/ loads the rest");
    h.keys("critical");
    let first_page = h.app.issues().list.len();
    h.key(KeyCode::Enter);
    h.until("everything is loaded", |app| app.issues().list.complete)
        .await;
    let pane = h.app.issues();
    assert_eq!(pane.list.items.len(), listed(FINDINGS));
    let criticals = pane
        .list
        .items
        .iter()
        .filter(|r| r.severity() == Some(findings_model::Severity::Critical))
        .count();
    assert!(pane.list.len() >= criticals && criticals > first_page);
}

/// An export of every loaded row is written by the worker page by page as
/// the findings come again: the loop never holds them (nothing reaches the
/// loop's file writer), and the file has every row, in the list's order.
#[tokio::test(flavor = "multi_thread")]
async fn an_export_of_everything_loaded_is_written_as_it_comes() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::new(FINDINGS, 120, 35).await;
    h.start().await;
    h.keys("G");
    h.until("everything is loaded", |app| app.issues().list.complete)
        .await;
    h.key(KeyCode::Char('e'));
    h.ctrl('u');
    let path = dir.path().join("all.ndjson");
    h.keys(path.to_str().unwrap());
    h.key(KeyCode::Enter);
    h.settle().await;
    assert!(h.exported.is_empty(), "the loop wrote {:?}", h.exported);
    let text = std::fs::read_to_string(&path).unwrap();
    let ids: Vec<String> = text
        .lines()
        .map(|l| {
            let item: serde_json::Value = serde_json::from_str(l).unwrap();
            item["issue"]["id"].as_str().unwrap().to_owned()
        })
        .collect();
    let list = &h.app.issues().list;
    let loaded: Vec<String> = list.items.iter().map(|r| r.id().to_owned()).collect();
    assert_eq!(ids, loaded);
    let status = h.app.status.clone().unwrap();
    assert!(
        status.starts_with(&format!(
            "exported {} findings",
            findings_base::text::thousands(ids.len() as i64)
        )),
        "{status}"
    );
}

/// A finding fetched whole for an export written as the findings come
/// (more than a hundred marked rows, fetched by id) tells of its fix pull
/// request as any finding fetched whole does: the list's next page flags
/// its row (`P`), which the list's own pages cannot say.
#[tokio::test(flavor = "multi_thread")]
async fn findings_exported_as_they_come_flag_their_fix_pull_requests() {
    use findings_model::{Issue, ListIssuesRequest};
    use findings_tui::message::rows::Acted;
    use findings_tui::message::{ApiRequest, ApiResponse};
    use findings_tui::runtime::worker::{self, WorkerCommand};

    let server = crate::common::demo(300).await;
    let client = crate::common::client_for(&server);
    let every = ListIssuesRequest {
        limit: Some(1000),
        ..Default::default()
    };
    let ids: Vec<String> = client
        .list_issues(&every)
        .await
        .unwrap()
        .issues
        .into_iter()
        .filter_map(|i| i.issue.map(|i| i.id().to_owned()))
        .collect();
    assert!(ids.len() > 100, "more than are fetched whole in one go");
    let mut with_pr = None;
    for id in &ids {
        let whole: Issue = client.get_issue(id).await.unwrap();
        if whole.click_to_fix_pr_url.is_some() {
            with_pr = Some(id.clone());
            break;
        }
    }
    let with_pr = with_pr.expect("a demo finding with a fix pull request");

    let (commands, mut replies) = worker::spawn(client);
    let ask = |id: u64, request: ApiRequest| {
        commands
            .send(WorkerCommand::Send { id, request })
            .expect("the worker runs");
    };
    let flag_of = |response: ApiResponse| match response {
        ApiResponse::Rows(page) => page
            .rows
            .iter()
            .find(|r| r.id() == with_pr)
            .map(|r| r.acted),
        other => panic!("rows, not {other:?}"),
    };
    ask(1, ApiRequest::ListRows(every.clone()));
    let before = replies.recv().await.unwrap().result.unwrap();
    assert_eq!(
        flag_of(before),
        Some(Acted::Nothing),
        "a list page does not say"
    );

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("marked.ndjson");
    ask(
        2,
        ApiRequest::ExportTo {
            fetch: Box::new(ApiRequest::GetIssues {
                ids: ids.clone(),
                items: true,
            }),
            path: path.clone(),
            format: findings_export::Format::Ndjson,
            columns: findings_export::Chosen::default(),
        },
    );
    match replies.recv().await.unwrap().result.unwrap() {
        ApiResponse::Exported { result, .. } => assert_eq!(result, Ok(ids.len())),
        other => panic!("an export, not {other:?}"),
    }
    assert_eq!(
        std::fs::read_to_string(&path).unwrap().lines().count(),
        ids.len()
    );
    ask(3, ApiRequest::ListRows(every));
    let after = replies.recv().await.unwrap().result.unwrap();
    assert_eq!(flag_of(after), Some(Acted::FixPr));
}
