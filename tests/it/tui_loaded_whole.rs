//! A list loaded whole stays: `+` (new since the last visit), every sort
//! (each column, the ref and the AGE column included) work on the loaded
//! rows without asking the server, a new server-side filter asks (y or n)
//! before it drops them, and an empty result says its true reason.

use crate::common::{self, Harness};
use crossterm::event::KeyCode;
use findings_model::*;
use std::collections::HashMap;

const FINDINGS: usize = 2_000;

/// The app with every finding loaded (`G`).
async fn loaded_whole() -> Harness {
    let mut h = Harness::new(FINDINGS, 120, 35).await;
    h.start().await;
    h.keys("G");
    h.until("everything is loaded", |app| app.issues().list.complete)
        .await;
    h.settle().await;
    h.quiesce().await;
    h
}

fn command(h: &mut Harness, line: &str) {
    h.key(KeyCode::Char(':'));
    h.keys(line);
    h.key(KeyCode::Enter);
}

/// The ids of the rows shown, in order.
fn shown_ids(h: &Harness) -> Vec<String> {
    let list = &h.app.issues().list;
    (0..list.len())
        .filter_map(|k| list.row(k).map(|r| r.id().to_owned()))
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn n_on_a_list_loaded_whole_picks_the_new_rows_here() {
    let mut h = loaded_whole().await;
    let loaded = h.app.issues().list.items.len();
    // A last visit with some findings relevant since and some not.
    let mut since: Vec<Timestamp> = h
        .app
        .issues()
        .list
        .items
        .iter()
        .filter_map(|r| r.relevant_since())
        .collect();
    since.sort();
    let last = since[since.len() / 2];
    let new = since.iter().filter(|&&t| t > last).count();
    assert!(new > 0 && new < loaded);
    h.app.issues_mut().new.last_visit = Some(last);
    let sent = h.sent;
    h.keys("+");
    h.settle().await;
    assert_eq!(h.sent, sent, "the server is not asked");
    let issues = h.app.issues();
    assert_eq!(issues.list.items.len(), loaded, "every row stays loaded");
    assert_eq!(issues.list.len(), new);
    assert!(
        (0..new).all(|k| issues.list.row(k).unwrap().relevant_since() > Some(last)),
        "only new rows show"
    );
    let screen = h.screen();
    assert!(
        screen.contains(&format!(
            "only the {new} findings new since your last visit"
        )),
        "{screen}"
    );
    // `+` again: every loaded row, still without the server.
    h.keys("+");
    assert_eq!(h.app.issues().list.len(), loaded);
    assert_eq!(h.sent, sent);
    // Nothing new: the reason said is that, not a local filter.
    h.app.issues_mut().new.last_visit = since.last().copied();
    h.keys("+");
    let screen = h.screen();
    assert!(
        screen.contains(&format!(
            "none of the {} loaded findings is new since your last visit",
            findings_base::text::thousands(loaded as i64)
        )),
        "{screen}"
    );
    assert!(!screen.contains("local filter"), "{screen}");
}

#[tokio::test(flavor = "multi_thread")]
async fn every_sort_of_a_list_loaded_whole_is_done_here() {
    let mut h = loaded_whole().await;
    let loaded = h.app.issues().list.items.len();
    // Each finding's ref, as the server lists it.
    let client = common::client_for(h.server());
    let refs: HashMap<String, Option<String>> =
        findings_client::collect_issues(&client, ListIssuesRequest::default(), usize::MAX, |i| {
            Some((i.id().to_owned(), i.ref_.clone()))
        })
        .await
        .unwrap()
        .0
        .into_iter()
        .collect();
    let sent = h.sent;
    // severity, state, repo, rule, ref, age, then relevant-since again.
    for label in [
        "severity",
        "state",
        "repo",
        "rule",
        "ref",
        "age",
        "relevant-since",
    ] {
        h.keys("s");
        h.settle().await;
        assert_eq!(h.sent, sent, "{label}: the server is not asked");
        let issues = h.app.issues();
        assert_eq!(issues.list.items.len(), loaded, "{label}");
        assert_eq!(issues.list.len(), loaded, "{label}");
        assert_eq!(issues.sort_label(), format!("{label} ↓"));
        let screen = h.screen();
        assert!(
            screen.contains(&format!(
                "sorted the {} loaded findings by {label} ↓",
                findings_base::text::thousands(loaded as i64)
            )),
            "{label}: {screen}"
        );
        let ids = shown_ids(&h);
        match label {
            "ref" => {
                let names: Vec<Option<&str>> = ids
                    .iter()
                    .map(|id| refs[id].as_deref().filter(|r| !r.is_empty()))
                    .collect();
                // Descending, findings without a ref first (as rule and
                // repository sort).
                assert!(
                    names.windows(2).all(|w| match (w[0], w[1]) {
                        (Some(a), Some(b)) => a >= b,
                        (None, _) => true,
                        (Some(_), None) => false,
                    }),
                    "by ref, descending"
                );
                assert!(names.iter().flatten().count() > 0);
            }
            "age" => {
                let list = &h.app.issues().list;
                let firsts: Vec<Option<Timestamp>> = (0..list.len())
                    .map(|k| list.row(k).unwrap().first_detected())
                    .collect();
                // Oldest first, findings never detected last.
                assert!(
                    firsts.windows(2).all(|w| match (w[0], w[1]) {
                        (Some(a), Some(b)) => a <= b,
                        (_, None) => true,
                        (None, Some(_)) => false,
                    }),
                    "by age, oldest first"
                );
            }
            _ => {}
        }
    }
    // `:sort age asc`, too.
    command(&mut h, "sort age asc");
    assert_eq!(h.app.issues().sort_label(), "age ↑");
    assert_eq!(h.sent, sent);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_new_filter_asks_before_it_drops_a_list_loaded_whole() {
    let mut h = loaded_whole().await;
    let loaded = h.app.issues().list.items.len();
    let sent = h.sent;
    command(&mut h, "filter severities=critical");
    let screen = h.screen();
    assert!(
        screen.contains(&format!(
            "Drop the {} findings loaded?",
            findings_base::text::thousands(loaded as i64)
        )),
        "{screen}"
    );
    assert_eq!(h.sent, sent, "nothing asked yet");
    // A key but y or n is no answer; n keeps them.
    h.keys("x");
    assert!(h.app.overlay.is_some(), "still asking");
    h.keys("n");
    assert_eq!(h.app.issues().list.items.len(), loaded);
    assert!(h.app.issues().selection.filter.severities.is_empty());
    assert!(h.screen().contains("kept the"), "{}", h.screen());
    // y goes ahead.
    command(&mut h, "filter severities=critical");
    h.keys("y");
    h.settle().await;
    assert_eq!(
        h.app.issues().selection.filter.severities,
        vec![Severity::Critical]
    );
    assert!(h.app.issues().list.items.len() <= 100);
}

/// `+` before everything is loaded asks the server; nothing new since the
/// last visit is said as that, whatever `/` holds.
#[tokio::test(flavor = "multi_thread")]
async fn nothing_new_from_the_server_says_so() {
    let mut h = Harness::new(FINDINGS, 120, 35).await;
    h.start().await;
    assert!(!h.app.issues().list.complete);
    h.app.issues_mut().local_query = "a".into();
    h.app.issues_mut().new.last_visit = Some(common::anchor() + chrono::Duration::days(30));
    h.keys("+");
    h.settle().await;
    assert!(h.app.issues().list.items.is_empty());
    let screen = h.screen();
    assert!(
        screen.contains("no finding is new since your last visit"),
        "{screen}"
    );
    assert!(!screen.contains("local filter"), "{screen}");
}
