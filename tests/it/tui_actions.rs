//! The Act menu (`A`) through the real app, worker, client and demo
//! server: tickets (grouped for a filtered rule, link, unlink), a fix pull
//! request that appears, each typed fix error in words, AI verdict
//! feedback shown in the detail, a memory and the verdicts it flips;
//! permissions (revoked instance, a read-only token, `--read-only`) shown
//! before sending; one send on a timeout, "outcome unknown". Every
//! exchange is checked against the published schemas.

use crate::common::{self, Harness};
use crate::published;
use crate::tui_triage::{command, fetched, harness, select_ignorable};
use crossterm::event::KeyCode;
use findings_client::{Client, ClientConfig, Token};
use findings_demo::faults::{FaultKind, Faults};
use findings_demo::query::{autofix_error, fix_job_error};
use findings_demo::routes::TOKEN_WITHOUT_ACTIONS;
use findings_model::*;
use findings_tui::actions::Step;
use findings_tui::message::rows::Acted;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// The row ids loaded, in list order.
fn row_ids(h: &Harness) -> Vec<String> {
    h.app
        .issues()
        .list
        .items
        .iter()
        .map(|r| r.id().to_string())
        .collect()
}

/// Selects the loaded row of finding `id`.
fn select(h: &mut Harness, id: &str) {
    let i = row_ids(h)
        .iter()
        .position(|r| r == id)
        .unwrap_or_else(|| panic!("finding {id} is loaded"));
    h.key(KeyCode::Char('g'));
    for _ in 0..i {
        h.key(KeyCode::Char('j'));
    }
}

/// The first loaded finding (of the demo's dataset) that `pick` holds of,
/// by its dataset index.
fn loaded_where(h: &Harness, pick: impl Fn(usize) -> bool) -> String {
    row_ids(h)
        .into_iter()
        .find(|id| pick(id.parse::<usize>().unwrap() - 100_000))
        .expect("a loaded finding of the kind")
}

/// Counts the action writes that reached the server.
fn count_actions(h: &Harness) -> Arc<AtomicUsize> {
    let n = Arc::new(AtomicUsize::new(0));
    let seen = n.clone();
    h.server()
        .observe(Some(Arc::new(move |ex: &findings_demo::tap::Exchange| {
            if let Err(e) = published::published().check_exchange(ex) {
                published::VIOLATIONS.lock().unwrap().push(e);
            }
            let r = &ex.route;
            if ex.method == "POST"
                && (r.contains("ticketing/v2/")
                    || r.ends_with("/autofix")
                    || r.ends_with("/fix_jobs")
                    || r.ends_with("/autotriage_feedback")
                    || r.ends_with("/memories/triage"))
            {
                seen.fetch_add(1, Ordering::SeqCst);
            }
        })));
    n
}

/// `A` and the menu's permissions asked.
async fn open_menu(h: &mut Harness) {
    h.keys("A");
    h.settle().await;
    let step = h.app.actions.step;
    assert_eq!(step, Step::Menu, "{}", h.screen());
}

/// `y` on the review, and the answer (and the refetch) in.
async fn send(h: &mut Harness) {
    let step = h.app.actions.step;
    assert_eq!(step, Step::Review, "{}", h.screen());
    h.keys("y");
    h.settle().await;
    let step = h.app.actions.step;
    assert_eq!(step, Step::Result, "{}", h.screen());
}

fn result(h: &Harness) -> String {
    h.app.actions.result.1.join("\n")
}

#[tokio::test(flavor = "multi_thread")]
async fn a_filtered_rule_gets_one_grouped_ticket_and_its_rows_show_it() {
    let mut h = harness(Duration::from_secs(10)).await;
    h.start().await;
    let writes = count_actions(&h);
    // A rule with several findings, none ticketed.
    let ds = &h.server().state().dataset;
    let rows = h.app.issues().list.items.clone();
    let rule = rows
        .iter()
        .find_map(|r| {
            let i = r.id().parse::<usize>().ok()? - 100_000;
            let issue = ds.issue(i, Default::default());
            let rule = issue.rule_id.clone()?;
            let same: Vec<usize> = (0..ds.rows.len())
                .filter(|&j| ds.issue(j, Default::default()).rule_id.as_ref() == Some(&rule))
                .collect();
            (same.len() >= 2
                && same
                    .iter()
                    .all(|&j| !ds.rows[j].ticket && !ds.rows[j].ticket_failed))
            .then_some(rule)
        })
        .expect("a rule with findings to ticket");
    command(&mut h, &format!("filter ruleIds={rule}"));
    h.settle().await;
    open_menu(&mut h).await;
    h.keys("T");
    let form = h.screen();
    // One rule, perhaps several repositories: the grouping said as the
    // platform does it, by rule and repository.
    assert!(form.contains("one per rule and repository"), "{form}");
    assert!(
        form.contains("revoked"),
        "the revoked instance is greyed with why: {form}"
    );
    h.key(KeyCode::Enter);
    // The filter's findings are listed first; the review names exactly
    // them (their ids), never the filter.
    h.settle().await;
    let review = h.screen();
    assert!(review.contains("create_tickets"), "{review}");
    assert!(review.contains("\"groupIssues\": true"), "{review}");
    assert!(review.contains("\"issueIds\""), "{review}");
    assert!(!review.contains("\"issueFilters\""), "{review}");
    assert_eq!(writes.load(Ordering::SeqCst), 0, "only y sends");
    send(&mut h).await;
    let said = result(&h);
    // Grouped by repository within the rule, as the service groups.
    assert!(said.contains("created for"), "{said}");
    assert!(
        said.contains("ticket SEC-") && said.contains(" findings: "),
        "{said}"
    );
    assert_eq!(writes.load(Ordering::SeqCst), 1);
    // The rows show it at once (the lists load again).
    let first = row_ids(&h)[0].clone();
    let issue = fetched(&h, &first).await;
    assert!(issue.ticket_slug().is_some(), "ticketed: {issue:?}");
    // Flagged in the list (a row keeps the flag, not the ticket).
    assert_eq!(h.app.issues().list.items[0].acted, Acted::Ticket);
    h.key(KeyCode::Esc);
    let screen = h.screen();
    // Every row is flagged: T, or P where the fresh fetch learned of a fix
    // pull request too (the flag shows one); each finding has its ticket.
    let flagged = screen
        .lines()
        .filter(|l| l.starts_with("│T ") || l.starts_with("│P ") || l.starts_with("│PT "))
        .count();
    assert_eq!(flagged, row_ids(&h).len(), "{screen}");
    for id in row_ids(&h) {
        assert!(fetched(&h, &id).await.ticket_slug().is_some(), "{id}");
    }
    assert!(published::VIOLATIONS.lock().unwrap().is_empty());
}

/// The review of a ticket creation names a finding ticketed already, as
/// the command line does: it is skipped and keeps its ticket.
#[tokio::test(flavor = "multi_thread")]
async fn a_ticket_review_names_the_finding_ticketed_already() {
    let mut h = harness(Duration::from_secs(10)).await;
    h.start().await;
    let ds = &h.server().state().dataset;
    let id = loaded_where(&h, |i| ds.rows[i].ticket);
    let slug = fetched(&h, &id).await.ticket_slug().unwrap().to_owned();
    select(&mut h, &id);
    open_menu(&mut h).await;
    h.keys("t");
    h.key(KeyCode::Enter);
    h.settle().await;
    let review = h.screen().replace('\n', " ");
    let said: String = review.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        said.contains(&format!(
            "1 already ticketed, skipped (they keep their ticket): {id} ({slug})"
        )),
        "{review}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn link_says_who_loses_a_ticket_and_unlink_removes_it() {
    let mut h = harness(Duration::from_secs(10)).await;
    h.start().await;
    let ds = &h.server().state().dataset;
    let id = loaded_where(&h, |i| ds.rows[i].ticket);
    select(&mut h, &id);
    open_menu(&mut h).await;
    h.keys("l");
    h.keys("https://tickets.example.com/browse/SEC-77");
    assert!(h.screen().contains("lose it"), "{}", h.screen());
    h.key(KeyCode::Enter);
    assert!(h.screen().contains("lose their ticket"), "{}", h.screen());
    send(&mut h).await;
    assert!(result(&h).contains("now replaced"), "{}", result(&h));
    h.settle().await;
    let issue = fetched(&h, &id).await;
    assert_eq!(
        issue.ticket_url(),
        Some("https://tickets.example.com/browse/SEC-77")
    );
    // `o` in the menu opens the ticket (the row holds it at once).
    h.key(KeyCode::Esc);
    open_menu(&mut h).await;
    h.keys("o");
    h.settle().await;
    assert_eq!(
        h.opened.last().map(String::as_str),
        Some("https://tickets.example.com/browse/SEC-77")
    );
    open_menu(&mut h).await;
    h.keys("u");
    h.settle().await;
    h.key(KeyCode::Enter);
    send(&mut h).await;
    assert!(
        result(&h).contains("unlinked from 1 finding"),
        "{}",
        result(&h)
    );
    assert!(fetched(&h, &id).await.external_ticket.is_none());
}

#[tokio::test(flavor = "multi_thread")]
async fn a_fix_pull_request_is_asked_by_its_type_and_appears() {
    let mut h = harness(Duration::from_secs(10)).await;
    h.start().await;
    let ds = &h.server().state().dataset;
    let changes = ds.changes();
    let id = loaded_where(&h, |i| {
        ds.issue(i, Default::default()).issue_type == Some(IssueType::Sast)
            && fix_job_error(ds, &changes, i).is_none()
    });
    drop(changes);
    select(&mut h, &id);
    h.key(KeyCode::Enter);
    h.settle().await;
    open_menu(&mut h).await;
    h.keys("f");
    assert!(
        h.screen().contains("AiFixJobsService_CreateFixJob"),
        "{}",
        h.screen()
    );
    h.key(KeyCode::Enter);
    assert!(h.screen().contains("/fix_jobs"), "{}", h.screen());
    send(&mut h).await;
    assert!(result(&h).contains("accepted"), "{}", result(&h));
    h.key(KeyCode::Esc);
    // In flight: the row is flagged at once (fetched again with its
    // activity), the detail says so.
    let row = h
        .app
        .issues()
        .list
        .items
        .iter()
        .find(|r| r.id() == id.as_str());
    assert_eq!(row.map(|r| r.acted), Some(Acted::FixPr));
    // The pull request opens a few requests later: the detail fetched
    // again shows it.
    let mut shown = false;
    for _ in 0..6 {
        h.keys("r");
        h.settle().await;
        h.keys("G");
        if h.screen().contains("fix PR open https://") {
            shown = true;
            break;
        }
    }
    assert!(shown, "{}", h.screen());
    assert!(fetched(&h, &id).await.fix_pr_url().is_some());
    // The list's pages do not say it: reloaded, the row keeps its flag
    // from the finding fetched whole.
    h.key(KeyCode::Esc);
    h.keys("r");
    h.settle().await;
    let row = h
        .app
        .issues()
        .list
        .items
        .iter()
        .find(|r| r.id() == id.as_str());
    assert_eq!(row.map(|r| r.acted), Some(Acted::FixPr));
}

#[tokio::test(flavor = "multi_thread")]
async fn each_typed_fix_error_is_said_in_words() {
    let mut h = harness(Duration::from_secs(10)).await;
    h.start().await;
    // One loaded finding per typed error the demo answers with (by the
    // operation its type takes), with the words that error is to say.
    let ds = &h.server().state().dataset;
    let changes = ds.changes();
    let mut cases: Vec<(String, String, String)> = Vec::new();
    for id in row_ids(&h) {
        let i = id.parse::<usize>().unwrap() - 100_000;
        let issue = ds.issue(i, Default::default());
        let (label, advice) = match FixOperation::for_type(issue.issue_type.as_ref()) {
            Some(FixOperation::FixJob) => match fix_job_error(ds, &changes, i) {
                Some(e) => (e.label().to_owned(), e.advice().to_owned()),
                None => continue,
            },
            Some(FixOperation::Autofix) => match autofix_error(ds, &changes, i) {
                Some(e) => (e.label().to_owned(), e.advice().to_owned()),
                None => continue,
            },
            None => continue,
        };
        if !cases.iter().any(|(_, l, _)| *l == label) {
            cases.push((id, label, advice));
        }
    }
    drop(changes);
    assert!(
        cases.len() >= 4,
        "several typed errors among the loaded: {cases:?}"
    );
    for (id, label, advice) in cases {
        select(&mut h, &id);
        open_menu(&mut h).await;
        h.keys("f");
        h.key(KeyCode::Enter);
        send(&mut h).await;
        let said = result(&h);
        assert!(said.contains("not accepted"), "{id}: {said}");
        assert!(said.contains(&format!("{label}: {advice}")), "{id}: {said}");
        h.key(KeyCode::Esc);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn disagreeing_with_the_ai_verdict_shows_in_the_detail() {
    let mut h = harness(Duration::from_secs(10)).await;
    h.start().await;
    let ds = &h.server().state().dataset;
    let id = loaded_where(&h, |i| {
        ds.issue(i, Default::default())
            .autotriage
            .is_some_and(|a| a.id.is_some())
    });
    select(&mut h, &id);
    h.key(KeyCode::Enter);
    h.settle().await;
    open_menu(&mut h).await;
    h.keys("v");
    h.keys("wrong: sanitised upstream");
    h.key(KeyCode::Enter);
    let review = h.screen();
    assert!(review.contains("RATING_BAD"), "{review}");
    send(&mut h).await;
    assert!(result(&h).contains("disagree"), "{}", result(&h));
    h.key(KeyCode::Esc);
    h.settle().await;
    // The Overview's end: the autotriage, its verdict and the feedback.
    h.keys("G");
    let screen = h.screen();
    assert!(
        screen.contains("your feedback") && screen.contains("disagree · wrong: sanitised upstream"),
        "{screen}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn after_a_false_positive_a_memory_shows_the_relevant_findings_then_the_verdicts_it_flips() {
    let mut h = harness(Duration::from_secs(10)).await;
    h.start().await;
    select_ignorable(&mut h);
    command(&mut h, "triage ignored false-positive test fixtures only");
    h.settle().await;
    h.keys("y");
    h.settle().await;
    let said = h.app.status.clone().unwrap_or_default();
    assert!(said.contains("A m: remember why"), "{said}");
    h.key(KeyCode::Enter);
    h.settle().await;
    open_menu(&mut h).await;
    h.keys("m");
    h.settle().await;
    assert!(h.screen().contains("relevant"), "{}", h.screen());
    h.key(KeyCode::Tab);
    h.settle().await;
    assert!(h.screen().contains("every repository"), "{}", h.screen());
    // Back to this repository.
    h.key(KeyCode::Tab);
    h.settle().await;
    // The note starts as the triage's.
    h.key(KeyCode::Enter);
    let review = h.screen();
    assert!(review.contains("memories/triage"), "{review}");
    assert!(
        review.contains("\"note\": \"test fixtures only\""),
        "{review}"
    );
    send(&mut h).await;
    let said = result(&h);
    assert!(
        said.contains("applies to rule") && said.contains(" in repository acme/"),
        "{said}"
    );
    assert!(said.contains("preanalysis: it flips"), "{said}");
}

/// A harness whose client holds the demo's read-only token.
async fn read_only_token_harness() -> Harness {
    let server = common::demo(120).await;
    let cfg = ClientConfig::new(
        server.url(),
        server.deployment(),
        Token::new(TOKEN_WITHOUT_ACTIONS),
    );
    let mut h = Harness::with_client(Client::new(cfg).unwrap(), 120, 35, true);
    h.keep_server(server);
    h
}

#[tokio::test(flavor = "multi_thread")]
async fn what_the_token_may_not_do_is_greyed_with_why_before_sending() {
    let mut h = read_only_token_harness().await;
    h.start().await;
    open_menu(&mut h).await;
    let menu = h.screen();
    assert!(menu.contains("not authorized"), "{menu}");
    h.keys("t");
    assert_eq!(
        h.app.actions.step,
        Step::Menu,
        "a refused entry stays in the menu"
    );
    assert!(
        h.app
            .status
            .as_deref()
            .unwrap_or("")
            .contains("not available"),
        "{:?}",
        h.app.status
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn read_only_mode_refuses_every_action_in_the_app() {
    let mut h = harness(Duration::from_secs(10)).await;
    h.app.outbox.read_only = true;
    h.start().await;
    let writes = count_actions(&h);
    open_menu(&mut h).await;
    let menu = h.screen();
    assert!(menu.contains("--read-only is set"), "{menu}");
    h.keys("t");
    assert_eq!(h.app.actions.step, Step::Menu);
    assert_eq!(writes.load(Ordering::SeqCst), 0);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_timeout_sends_once_and_says_the_outcome_is_unknown() {
    let mut h = harness(Duration::from_secs(2)).await;
    h.start().await;
    // The background requests answered first: the hang is the write's.
    h.quiesce().await;
    let ds = &h.server().state().dataset;
    let id = loaded_where(&h, |i| !ds.rows[i].ticket && !ds.rows[i].ticket_failed);
    select(&mut h, &id);
    open_menu(&mut h).await;
    h.keys("t");
    // One ticket per finding, or (Tab) one per rule and repository: for
    // one finding, one ticket, and the form says so.
    let form = h.screen();
    assert!(
        form.contains("one per finding (Tab: one per rule and repository)"),
        "{form}"
    );
    h.key(KeyCode::Tab);
    let grouped = h.screen();
    assert!(
        grouped.contains("one per rule and repository: 1 ticket (Tab: one per finding)"),
        "{grouped}"
    );
    h.key(KeyCode::Tab);
    h.key(KeyCode::Enter);
    h.server()
        .set_faults(Faults::kind(FaultKind::Hang).times(1));
    send(&mut h).await;
    let said = result(&h);
    assert!(said.contains("Outcome unknown"), "{said}");
    assert!(said.contains("not retried"), "{said}");
    h.quiesce().await;
    // Sent once: a second attempt would have gone through and ticketed it.
    assert!(fetched(&h, &id).await.external_ticket.is_none());
    // The form is kept with its findings (`A` fetches them whole again).
    h.key(KeyCode::Esc);
    h.keys("A");
    h.settle().await;
    assert_eq!(h.app.actions.step, Step::Form);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_menu_and_a_review_at_80x24() {
    let mut h = Harness::anchored(300, 80, 24).await;
    h.start().await;
    let id = row_ids(&h)[0].clone();
    select(&mut h, &id);
    open_menu(&mut h).await;
    insta::assert_snapshot!("actions_menu_80x24", h.screen());
    h.keys("t");
    h.key(KeyCode::Enter);
    insta::assert_snapshot!("actions_review_80x24", h.screen());
}

/// Under a `/` filter the menu offers no tickets by the server-side
/// filter (they would reach rows it hides); `*` then `A` acts on its rows.
#[tokio::test(flavor = "multi_thread")]
async fn under_a_local_filter_the_menu_acts_on_its_marked_rows_not_the_server_filter() {
    let mut h = harness(Duration::from_secs(10)).await;
    h.start().await;
    command(&mut h, "filter aggregateIssueStates=open");
    h.settle().await;
    open_menu(&mut h).await;
    assert!(
        h.screen().contains("every finding of the filter"),
        "{}",
        h.screen()
    );
    h.key(KeyCode::Esc);
    h.key(KeyCode::Char('/'));
    h.keys("critical");
    h.key(KeyCode::Enter);
    h.settle().await;
    let shown = h.app.issues().list.len();
    h.keys("*");
    open_menu(&mut h).await;
    let menu = h.screen();
    assert!(!menu.contains("every finding of the filter"), "{menu}");
    assert!(
        menu.contains(&format!("Create tickets for the {shown} marked findings")),
        "{menu}"
    );
    assert_eq!(h.app.actions.issues.len(), shown);
}
