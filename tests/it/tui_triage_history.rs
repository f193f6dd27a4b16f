//! Undo as a history, through the real app, worker, client and demo
//! server: every triage of the session (one finding, marked ones, or by
//! filter) is undone in turn, each through its review; a triage by filter
//! is undone on exactly the findings it changed, by id, never on the
//! filter again.

use crate::published;
use crate::tui_triage::{command, fetched, harness, loaded, row_state};
use crossterm::event::KeyCode;
use findings_model::*;
use findings_tui::message::ApiRequest;
use findings_tui::triage::Step;
use std::collections::HashMap;
use std::time::Duration;

/// The rule and repository with the most loaded findings (as the
/// `rules` and `repositoryNames` filters name them).
fn busiest_place(h: &crate::common::Harness) -> (String, String) {
    let mut counts: HashMap<(String, String), usize> = HashMap::new();
    for issue in loaded(h) {
        let key = (
            issue.rule_name().to_owned(),
            issue.repository_name().to_owned(),
        );
        *counts.entry(key).or_default() += 1;
    }
    counts
        .into_iter()
        .max_by_key(|(place, n)| (*n, place.clone()))
        .unwrap()
        .0
}

/// The undo under review: its request bodies.
fn undo_bodies(h: &crate::common::Harness) -> Vec<UpdateFindingsRequest> {
    let draft = h.app.triage.draft.as_ref().expect("a draft under review");
    assert!(draft.undo.is_some(), "an undo");
    h.app
        .triage
        .reviewed
        .iter()
        .map(|r| match &r.batch.request {
            ApiRequest::TriageFindings(r) => r.clone(),
            other => panic!("{other:?}"),
        })
        .collect()
}

async fn send(h: &mut crate::common::Harness) {
    h.keys("y");
    if h.app.triage.step == Step::ConfirmAgain {
        h.keys("y");
    }
    // The triage, and the reloads and counts it sets off, all answered.
    h.quiesce().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn undo_after_a_triage_by_filter_restores_exactly_the_findings_it_changed() {
    let mut h = harness(Duration::from_secs(10)).await;
    h.start().await;
    let rows = filter_to_the_busiest_place(&mut h).await;
    let first = set_one_reviewing(&mut h, &rows).await;
    let mut before = HashMap::new();
    for issue in &rows {
        let now = fetched(&h, issue.id()).await;
        before.insert(issue.id().to_owned(), now);
    }
    let changed = triage_all_fixing_by_filter(&mut h, &rows, &first, &before).await;
    let requests = review_the_undo(&mut h, &changed, &before).await;
    send(&mut h).await;
    for (id, was) in &before {
        let now = fetched(&h, id).await;
        if requests.contains(id) {
            assert_eq!(now.triage_state, Some(TriageState::Fixing), "{id}");
        } else {
            assert_eq!(now.triage_state, was.triage_state, "{id} is back");
            assert_eq!(now.triage_reason, was.triage_reason, "{id} is back");
            assert_eq!(now.note, was.note, "{id}'s note is back");
        }
    }
    published::assert_no_violations();
}

/// The Issues filter on the busiest rule and repository; its findings,
/// all on one page.
async fn filter_to_the_busiest_place(h: &mut crate::common::Harness) -> Vec<Issue> {
    let (rule, repository) = busiest_place(h);
    command(h, &format!("filter rules={rule}"));
    h.settle().await;
    command(h, &format!("filter repositoryNames={repository}"));
    h.settle().await;
    assert!(h.app.issues().list.complete, "one page holds them all");
    let rows = loaded(h);
    assert!(rows.len() >= 3, "{}", rows.len());
    rows
}

/// One of them set reviewing first (its undo must come back to that);
/// returns its id.
async fn set_one_reviewing(h: &mut crate::common::Harness, rows: &[Issue]) -> String {
    let at = rows
        .iter()
        .position(|i| {
            i.triage_permission != Some(TriagePermission::None)
                && !matches!(
                    i.triage_state,
                    Some(TriageState::Reviewing | TriageState::Fixing)
                )
        })
        .expect("a finding to set reviewing");
    let first = rows[at].id().to_owned();
    for _ in 0..at {
        h.key(KeyCode::Char('j'));
    }
    h.keys("T");
    h.key(KeyCode::Right);
    h.ctrl('s');
    h.settle().await;
    send(h).await;
    assert_eq!(
        fetched(h, &first).await.triage_state,
        Some(TriageState::Reviewing)
    );
    first
}

/// Every finding the filter matches set fixing, by filter: listed first,
/// then named in the review; returns the findings it changed.
async fn triage_all_fixing_by_filter(
    h: &mut crate::common::Harness,
    rows: &[Issue],
    first: &str,
    before: &HashMap<String, Issue>,
) -> Vec<String> {
    h.app.triage.confirm_above = 0;
    command(h, "triage-all fixing by filter");
    h.settle().await;
    let review = h.screen();
    assert!(
        review.contains(&format!(
            "every finding the Issues filter matches ({})",
            rows.len()
        )),
        "{review}"
    );
    assert!(review.contains(first), "the findings are named: {review}");
    send(h).await;
    // Skipped (no permission) and already fixing with a note of their
    // own (kept): not changed. Already fixing without a note: given the
    // note typed, so changed (and in the undo).
    let changed: Vec<String> = before
        .iter()
        .filter(|(_, i)| {
            i.triage_permission != Some(TriagePermission::None)
                && (i.triage_state != Some(TriageState::Fixing) || i.note.is_none())
        })
        .map(|(id, _)| id.clone())
        .collect();
    assert!(changed.iter().any(|id| id == first));
    for id in &changed {
        assert_eq!(
            fetched(h, id).await.triage_state,
            Some(TriageState::Fixing),
            "{id}"
        );
    }
    changed
}

/// The undo, after the filter changed: bound to the findings, not to the
/// filter, by id; returns those it leaves out (back to an ignore they may
/// only request), which the review names.
async fn review_the_undo(
    h: &mut crate::common::Harness,
    changed: &[String],
    before: &HashMap<String, Issue>,
) -> Vec<String> {
    command(h, "clear");
    h.settle().await;
    h.keys("u");
    h.settle().await;
    let step = h.app.triage.step;
    assert_eq!(step, Step::Review, "{}", h.screen());
    let bodies = undo_bodies(h);
    let mut undone: Vec<String> = bodies
        .iter()
        .flat_map(|b| b.filter.as_ref().unwrap().ids.clone())
        .collect();
    undone.sort();
    // Back to an ignore they may only request, findings would get an
    // exception request instead: left out, and named in the review.
    let requests: Vec<&String> = changed
        .iter()
        .filter(|id| {
            let was = &before[*id];
            was.triage_permission == Some(TriagePermission::Request)
                && matches!(
                    was.triage_state,
                    Some(TriageState::Ignored | TriageState::ProvisionallyIgnored)
                )
        })
        .collect();
    let mut expected: Vec<String> = changed
        .iter()
        .filter(|id| !requests.contains(id))
        .cloned()
        .collect();
    expected.sort();
    assert_eq!(undone, expected, "exactly the findings it changed");
    assert!(
        bodies
            .iter()
            .all(|b| b.filter.as_ref().unwrap().rules.is_empty()),
        "by id, never by the filter"
    );
    let review = h.screen();
    for id in &requests {
        assert!(review.contains(id.as_str()), "{id} is named: {review}");
    }
    requests.into_iter().cloned().collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn two_triages_are_listed_and_undone_in_turn() {
    let mut h = harness(Duration::from_secs(10)).await;
    h.start().await;
    let rows = loaded(&h);
    let ignorable = |i: &Issue| {
        matches!(i.triage_state, None | Some(TriageState::Untriaged))
            && i.aggregate_state == Some(AggregateState::Open)
            && matches!(i.triage_permission, None | Some(TriagePermission::Ignore))
    };
    let at = rows.iter().position(ignorable).unwrap();
    let a = rows[at].id().to_owned();
    for _ in 0..at {
        h.key(KeyCode::Char('j'));
    }
    // First: one finding ignored as a false positive.
    command(&mut h, "triage ignored false-positive");
    h.settle().await;
    send(&mut h).await;
    assert_eq!(row_state(&h, &a), Some(AggregateState::IgnoredApp));
    // Second: two marked findings to reviewing.
    let next: Vec<usize> = (at + 1..rows.len())
        .filter(|&k| ignorable(&rows[k]))
        .take(2)
        .collect();
    let b: Vec<String> = next.iter().map(|&k| rows[k].id().to_owned()).collect();
    for &k in &next {
        while h.app.issues().list.selected < k {
            h.key(KeyCode::Char('j'));
        }
        h.key(KeyCode::Char(' '));
    }
    command(&mut h, "triage reviewing");
    h.settle().await;
    send(&mut h).await;
    for id in &b {
        assert_eq!(row_state(&h, id), Some(AggregateState::Reviewing));
    }
    // The list: newest first, when, how many, from → to.
    command(&mut h, "undo-list");
    let list = h.screen();
    let second = list
        .find("2 findings: untriaged ×2 → reviewing")
        .unwrap_or_else(|| panic!("{list}"));
    let first = list
        .find("1 finding: untriaged → ignored (false positive)")
        .unwrap_or_else(|| panic!("{list}"));
    assert!(second < first, "newest first: {list}");
    h.key(KeyCode::Esc);
    // u: the newest, reviewed, then the one before.
    h.keys("u");
    h.settle().await;
    assert_eq!(h.app.triage.step, Step::Review);
    let mut ids = undo_bodies(&h)[0].filter.clone().unwrap().ids;
    ids.sort();
    let mut expected = b.clone();
    expected.sort();
    assert_eq!(ids, expected);
    send(&mut h).await;
    for id in &b {
        assert_eq!(row_state(&h, id), Some(AggregateState::Open));
    }
    assert_eq!(row_state(&h, &a), Some(AggregateState::IgnoredApp));
    h.keys("u");
    h.settle().await;
    assert_eq!(h.app.triage.step, Step::Review);
    assert_eq!(
        undo_bodies(&h)[0].filter.clone().unwrap().ids,
        vec![a.clone()]
    );
    send(&mut h).await;
    assert_eq!(row_state(&h, &a), Some(AggregateState::Open));
    assert_eq!(
        fetched(&h, &a).await.triage_state,
        Some(TriageState::Untriaged)
    );
    h.keys("u");
    h.settle().await;
    assert_eq!(h.app.triage.step, Step::Hidden);
    let status = h.app.status.clone().unwrap_or_default();
    assert!(status.contains("nothing to undo"), "{status}");
    published::assert_no_violations();
}

/// Each finding of `ids` as the server has it now: state, reason, note
/// (what a headless dump of them shows).
async fn dump(
    h: &crate::common::Harness,
    ids: &[String],
) -> std::collections::BTreeMap<String, (Option<TriageState>, Option<TriageReason>, Option<String>)>
{
    let client = crate::common::client_for(h.server());
    let mut out = std::collections::BTreeMap::new();
    for chunk in ids.chunks(1000) {
        let mut request = ListIssuesRequest::of_ids(chunk.to_vec());
        request.include_activity_history = None;
        let page = client.list_issues(&request).await.unwrap();
        for item in page.issues {
            let i = item.issue.unwrap();
            let note = i.note.filter(|n| !n.is_empty());
            out.insert(
                i.id.clone().unwrap(),
                (i.triage_state, i.triage_reason, note),
            );
        }
    }
    assert_eq!(out.len(), ids.len(), "every finding dumped");
    out
}

/// A teammate's triage of `ids`, straight to the server.
async fn teammate(h: &crate::common::Harness, ids: &[String], state: TriageState, note: &str) {
    let client = crate::common::client_for(h.server());
    let params = UpdateFindingParams {
        triage_state: Some(state),
        note: Some(note.to_owned()),
        ..Default::default()
    };
    client
        .update_findings(&UpdateFindingsRequest::for_ids(ids.to_vec(), params))
        .await
        .unwrap();
}

/// The issue's sequence: teammates' notes on a set of findings, a triage
/// by filter of all of them with no note typed, a teammate's triage made
/// between the review and the send (named, left out), then the undo (a
/// second teammate change meanwhile, named, left out): every other finding
/// dumps exactly as before the triage, notes included, and the teammates'
/// work stands.
#[tokio::test(flavor = "multi_thread")]
async fn triage_all_then_undo_loses_no_note_and_leaves_teammates_changes_alone() {
    let mut h = harness(Duration::from_secs(10)).await;
    h.start().await;
    let (_, repository) = busiest_place(&h);
    command(&mut h, &format!("filter repositoryNames={repository}"));
    h.settle().await;
    let ids: Vec<String> = loaded(&h).iter().map(|i| i.id().to_owned()).collect();
    assert!(ids.len() >= 12, "{}", ids.len());
    // Teammates' notes: some reviewing, some already ignored (the triage's
    // own state), each with a note of its own.
    let noted: Vec<String> = ids.iter().step_by(3).cloned().collect();
    teammate(
        &h,
        &noted[..noted.len() / 2],
        TriageState::Reviewing,
        "Reviewed with the owning team during triage.",
    )
    .await;
    teammate(
        &h,
        &noted[noted.len() / 2..],
        TriageState::Ignored,
        "Accepted by the owners.",
    )
    .await;
    h.keys("r");
    h.settle().await;
    let before = dump(&h, &ids).await;
    h.app.triage.confirm_above = usize::MAX;
    command(&mut h, "triage-all ignored no-time");
    h.settle().await;
    let review = h.screen();
    assert!(review.contains("keep their own note"), "{review}");
    // A teammate fixes one between the review and the send: review again.
    let theirs = ids
        .iter()
        .find(|id| !noted.contains(id) && before[*id].0 != Some(TriageState::Ignored))
        .unwrap()
        .clone();
    teammate(
        &h,
        std::slice::from_ref(&theirs),
        TriageState::Fixing,
        "mine now",
    )
    .await;
    h.key(KeyCode::Esc);
    h.ctrl('s');
    h.settle().await;
    let review = h.screen();
    assert!(
        review.contains("1 changed by someone else since shown, left out"),
        "{review}"
    );
    assert!(review.contains(&format!("{theirs}  ")), "{review}");
    send(&mut h).await;
    let triaged = dump(&h, &ids).await;
    for (id, (state, _, note)) in &triaged {
        if *id == theirs {
            assert_eq!(*state, Some(TriageState::Fixing));
            continue;
        }
        assert_eq!(
            note, &before[id].2,
            "{id} keeps its note through the triage"
        );
    }
    // Undo, with a second teammate change meanwhile.
    let second = noted[0].clone();
    teammate(
        &h,
        std::slice::from_ref(&second),
        TriageState::Fixing,
        "taken",
    )
    .await;
    h.keys("u");
    h.settle().await;
    let review = h.screen();
    assert!(review.contains(&format!("{second}  ")), "{review}");
    assert!(review.contains("left out (i includes them)"), "{review}");
    send(&mut h).await;
    let after = dump(&h, &ids).await;
    for id in &ids {
        if *id == theirs {
            assert_eq!(after[id].2.as_deref(), Some("mine now"));
        } else if *id == second {
            assert_eq!(after[id].2.as_deref(), Some("taken"));
        } else {
            assert_eq!(after[id], before[id], "{id} is exactly as before");
        }
    }
    published::assert_no_violations();
}

/// A finding of an archived project (listed with `includeArchived=true`)
/// is read again like any other before its triage: List issues lists
/// archived projects' findings only when asked, so the review's read asks
/// for those it did not find among them.
#[tokio::test(flavor = "multi_thread")]
async fn an_archived_projects_finding_is_read_again_and_triaged() {
    let mut h = harness(Duration::from_secs(10)).await;
    h.start().await;
    command(&mut h, "filter includeArchived=true");
    h.settle().await;
    let rows = loaded(&h);
    let at = rows
        .iter()
        .position(|i| {
            i.triage_permission != Some(TriagePermission::None)
                && !matches!(i.triage_state, Some(TriageState::Reviewing))
        })
        .expect("an archived project's finding to triage");
    let id = rows[at].id().to_owned();
    for _ in 0..at {
        h.key(KeyCode::Char('j'));
    }
    h.keys("T");
    h.key(KeyCode::Right);
    h.ctrl('s');
    h.settle().await;
    let review = h.screen();
    assert!(!review.contains("no longer answered"), "{review}");
    send(&mut h).await;
    assert_eq!(
        fetched(&h, &id).await.triage_state,
        Some(TriageState::Reviewing)
    );
    // The list's row is fetched again too, among the archived: a plain
    // listing by id leaves archived projects' findings out.
    h.settle().await;
    let row = loaded(&h)
        .into_iter()
        .find(|i| i.id() == id)
        .expect("the row is still listed");
    assert_eq!(row.triage_state, Some(TriageState::Reviewing));
    published::assert_no_violations();
}
