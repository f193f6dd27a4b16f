//! vim and lazygit hands: the filter form from the keyboard, paging with
//! Ctrl-f/Ctrl-b, `[`/`]` between panes, `g`/`G` in the help, and keys that
//! do nothing saying so.

use crate::common;

use common::Harness;
use crossterm::event::KeyCode;
use findings_requests::filter_spec::LIST_FILTER;

async fn harness(w: u16, h: u16) -> Harness {
    let mut h = Harness::new(2000, w, h).await;
    h.start().await;
    h
}

fn row_of(name: &str) -> usize {
    LIST_FILTER.iter().position(|f| f.name == name).unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_form_moves_with_j_k_g_g_and_applies_with_ctrl_s() {
    let mut h = harness(120, 35).await;
    h.key(KeyCode::Char('f'));
    let selected = |h: &Harness| h.app.issues().form.as_ref().unwrap().selected;
    h.keys("jj");
    assert_eq!(selected(&h), 2);
    h.keys("k");
    assert_eq!(selected(&h), 1);
    h.keys("G");
    assert_eq!(selected(&h), LIST_FILTER.len(), "G: [ Apply filters ]");
    h.keys("g");
    assert_eq!(selected(&h), 0);
    h.key(KeyCode::End);
    assert_eq!(selected(&h), LIST_FILTER.len());
    h.key(KeyCode::Home);
    assert_eq!(selected(&h), 0);
    // On a text field being typed into, j and k are letters.
    for _ in 0..row_of("issueTypes") {
        h.keys("j");
    }
    h.key(KeyCode::Enter);
    h.keys("sca");
    // Ctrl-s applies from the field typed in, what is typed included.
    h.ctrl('s');
    h.settle().await;
    assert!(h.app.issues().form.is_none());
    assert!(h.screen().contains("issueTypes=sca"), "{}", h.screen());
}

#[tokio::test(flavor = "multi_thread")]
async fn esc_keeps_the_edits_as_a_draft_that_f_reopens() {
    let mut h = harness(120, 35).await;
    h.key(KeyCode::Char('f'));
    for _ in 0..row_of("refs") {
        h.keys("j");
    }
    h.key(KeyCode::Enter);
    h.keys("main");
    h.key(KeyCode::Enter);
    h.key(KeyCode::Esc);
    assert!(h.app.issues().form.is_none());
    assert!(h.screen().contains("draft"), "{}", h.screen());
    assert!(
        h.app.issues().selection.filter.refs.is_empty(),
        "not applied"
    );
    h.key(KeyCode::Char('f'));
    let screen = h.screen();
    assert!(screen.contains("main"), "{screen}");
    assert!(screen.contains("not applied"), "{screen}");
    // `u` puts the fields back as in force: the draft is gone.
    h.keys("u");
    h.key(KeyCode::Esc);
    h.key(KeyCode::Char('f'));
    assert!(!h.screen().contains("not applied"));
    assert!(!h.screen().contains("main"));
}

#[tokio::test(flavor = "multi_thread")]
async fn ctrl_f_and_ctrl_b_page_the_list() {
    let mut h = harness(120, 35).await;
    let rows = h.app.list_height();
    assert!(rows > 2);
    h.ctrl('f');
    let after = h.app.issues().list.selected;
    assert!(after >= rows - 1, "a page down: {after} of {rows}");
    h.ctrl('b');
    assert_eq!(h.app.issues().list.selected, 0);
}

#[tokio::test(flavor = "multi_thread")]
async fn brackets_go_to_the_previous_and_next_pane() {
    let mut h = harness(120, 35).await;
    assert_eq!(h.app.pane.0, "issues");
    h.keys("]");
    assert_eq!(h.app.pane.0, "agentic");
    h.keys("[");
    h.keys("[");
    assert_eq!(h.app.pane.0, "report");
}

#[tokio::test(flavor = "multi_thread")]
async fn help_g_goes_to_the_end_and_k_moves_up_from_there_at_once() {
    let mut h = harness(80, 24).await;
    h.key(KeyCode::Char('?'));
    let top = h.screen();
    h.keys("G");
    let end = h.screen();
    assert_ne!(top, end, "G scrolls");
    // Further down changes nothing: the end is the end.
    h.keys("j");
    assert_eq!(h.screen(), end);
    h.ctrl('f');
    assert_eq!(h.screen(), end);
    // One k from the end moves up at once.
    h.keys("k");
    assert_ne!(h.screen(), end, "k moved");
    h.keys("g");
    assert_eq!(h.screen(), top);
    h.ctrl('f');
    assert_ne!(h.screen(), top);
    h.ctrl('b');
    assert_eq!(h.screen(), top);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_unknown_command_does_not_swallow_the_next_key() {
    let mut h = harness(120, 35).await;
    h.keys(":w");
    h.key(KeyCode::Enter);
    assert!(h.screen().contains("unknown command :w"), "{}", h.screen());
    assert!(h.app.overlay.is_none());
    h.keys("q");
    assert!(h.app.quit, "q quits at once");
}

#[tokio::test(flavor = "multi_thread")]
async fn an_unbound_key_says_so_and_typed_input_is_left_alone() {
    let mut h = harness(120, 35).await;
    h.ctrl('x');
    assert!(
        h.screen()
            .contains("Ctrl-x: not bound here (? lists the keys)"),
        "{}",
        h.screen()
    );
    // In a prompt, the key is the prompt's.
    h.keys("/");
    h.keys("ZZ");
    assert!(!h.screen().contains("not bound"));
    assert_eq!(h.app.issues().local_input.as_ref().unwrap().value(), "ZZ");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_report_repository_filter_completes_with_tab_and_one_esc_closes_it() {
    let mut h = Harness::new(300, 120, 40).await;
    h.start().await;
    h.key(KeyCode::Char('1'));
    h.settle().await;
    h.key(KeyCode::Char('/'));
    h.until("the names arrive", |app| app.report().known.is_known())
        .await;
    let typed = |h: &Harness| {
        h.app
            .report()
            .repo_input
            .as_ref()
            .map(|i| i.value().to_owned())
    };
    // Tab completes as the filter form's fields do, the last of a list.
    h.keys("acme/web, pay");
    h.key(KeyCode::Tab);
    assert_eq!(typed(&h).as_deref(), Some("acme/web, acme/payments-api"));
    // A refusal is said in the prompt; one Esc closes it, and the keys
    // after are keys again.
    h.key(KeyCode::Esc);
    h.key(KeyCode::Char('/'));
    h.keys("payments-api");
    h.key(KeyCode::Enter);
    assert!(h.screen().contains("did you mean acme/payments-api?"));
    assert_eq!(typed(&h).as_deref(), Some("payments-api"));
    h.key(KeyCode::Esc);
    assert_eq!(typed(&h), None, "one Esc closes the prompt");
    h.keys("2");
    assert_eq!(h.app.pane.0, "issues");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_triage_review_goes_to_its_end_with_g_and_k_moves_up_from_there_at_once() {
    let mut h = harness(80, 14).await;
    h.keys("T");
    h.key(KeyCode::Enter);
    h.settle().await;
    let scroll = |h: &Harness| h.app.triage.scroll;
    let top = h.screen();
    assert!(top.contains("Review"), "{top}");
    h.keys("G");
    let end = scroll(&h);
    assert!(end > 0, "G goes to the end");
    let at_end = h.screen();
    assert_ne!(at_end, top);
    // Past the end is the end.
    h.keys("j");
    h.ctrl('f');
    assert_eq!(scroll(&h), end);
    h.keys("k");
    assert_eq!(scroll(&h), end - 1, "k from the end moves at once");
    assert_ne!(h.screen(), at_end);
    h.keys("g");
    assert_eq!(scroll(&h), 0);
    h.ctrl('f');
    assert!(scroll(&h) > 0, "Ctrl-f pages");
    h.ctrl('b');
    assert_eq!(scroll(&h), 0);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_long_error_scrolls_to_its_end_with_g_and_k_moves_up_from_there_at_once() {
    use findings_tui::app::Overlay;
    let mut h = harness(80, 16).await;
    // The error names every valid field: longer than the popup.
    h.keys(":filter bogus=1");
    h.key(KeyCode::Enter);
    let scroll = |h: &Harness| match &h.app.overlay {
        Some(Overlay::Error { scroll, .. }) => Some(*scroll),
        _ => None,
    };
    assert_eq!(scroll(&h), Some(0), "{}", h.screen());
    let top = h.screen();
    h.keys("G");
    let end = scroll(&h).expect("G scrolls, it does not dismiss");
    assert!(end > 0);
    assert_ne!(h.screen(), top);
    h.keys("j");
    assert_eq!(scroll(&h), Some(end), "past the end is the end");
    h.keys("k");
    assert_eq!(scroll(&h), Some(end - 1), "k from the end moves at once");
    h.keys("g");
    assert_eq!(scroll(&h), Some(0));
    h.key(KeyCode::Esc);
    assert!(h.app.overlay.is_none());
}

/// A message longer than the 80-column status line says where it is
/// whole, and `:messages` shows it so, newest first.
#[tokio::test(flavor = "multi_thread")]
async fn a_cut_message_points_to_messages_which_shows_it_whole() {
    let mut h = harness(80, 24).await;
    h.keys(":w");
    h.key(KeyCode::Enter);
    let last = h.screen().lines().last().unwrap_or_default().to_owned();
    assert!(last.contains("… :messages"), "{last}");
    let said = h.app.status.clone().expect("the unknown command said");
    assert!(said.chars().count() > 80, "{said}");
    h.keys(":messages");
    h.key(KeyCode::Enter);
    let Some(findings_tui::app::Overlay::Error { title, message, .. }) = &h.app.overlay else {
        panic!("no messages popup: {}", h.screen());
    };
    assert!(title.starts_with("Messages"), "{title}");
    let newest = message.lines().next().unwrap_or_default();
    assert!(newest.ends_with(&said), "{message}");
}

/// `n` and `N` step through the rows the last `/` search matches, among
/// every row once Esc has cleared the filter, round the ends as vim does;
/// the since-last-visit toggles moved to `+` and `W`.
#[tokio::test(flavor = "multi_thread")]
async fn n_and_n_step_through_the_matches_of_the_last_search() {
    let mut h = harness(120, 35).await;
    h.keys("n");
    let said = h.app.status.clone().unwrap_or_default();
    assert!(said.contains("no search yet"), "{said}");
    // A repository most findings are not in.
    h.keys("/");
    h.keys("payments-api");
    h.settle().await;
    h.key(KeyCode::Enter);
    let issues = h.app.issues();
    let matching = issues.list.len();
    let loaded = issues.list.items.len();
    assert!(issues.list.complete, "/ loads everything");
    assert!(
        matching > 2 && matching < loaded / 2,
        "{matching} of {loaded}"
    );
    // With the filter on: one row a step, round the end.
    h.keys("G");
    h.keys("n");
    assert_eq!(h.app.issues().list.selected, 0);
    let said = h.app.status.clone().unwrap_or_default();
    assert!(
        said.contains(&format!("match 1 of {matching}")) && said.contains("continued at the top"),
        "{said}"
    );
    h.keys("N");
    assert_eq!(h.app.issues().list.selected, matching - 1);
    // Esc: every row again, the query kept; n skips to each match.
    h.key(KeyCode::Esc);
    assert_eq!(h.app.issues().list.len(), loaded);
    h.keys("g");
    let repo_of = |h: &Harness| {
        let list = &h.app.issues().list;
        list.row(list.selected).unwrap().repository().to_owned()
    };
    let mut seen = Vec::new();
    for _ in 0..matching {
        h.keys("n");
        assert!(repo_of(&h).contains("payments-api"), "{}", repo_of(&h));
        seen.push(h.app.issues().list.selected);
    }
    assert!(seen.windows(2).all(|w| w[0] < w[1]), "in order: {seen:?}");
    assert!(
        seen.windows(2).any(|w| w[1] > w[0] + 1),
        "rows between skipped"
    );
    // One more: round to the first match.
    h.keys("n");
    assert_eq!(h.app.issues().list.selected, seen[0]);
    h.keys("N");
    assert_eq!(h.app.issues().list.selected, seen[matching - 1]);
    // The old keys' actions on their new ones.
    h.keys("W");
    h.settle().await;
    let said = h.app.status.clone().unwrap_or_default();
    assert!(
        h.app.issues().since.shown || said.contains("last visits are not kept"),
        "W: what changed since the last visit ({said})"
    );
}

/// A review of many findings shows its id list as the first ids and how
/// many in all; Enter shows every one, and again the count.
#[tokio::test(flavor = "multi_thread")]
async fn a_long_id_list_in_a_review_is_counted_until_enter_expands_it() {
    let mut h = harness(100, 30).await;
    h.keys(&" ".repeat(20));
    assert_eq!(h.app.issues().marked.len(), 20);
    h.keys("T");
    h.key(KeyCode::Right);
    h.ctrl('s');
    h.settle().await;
    // The review's lines in full, however many (a tall area).
    let body = |h: &Harness| {
        let area = ratatui::layout::Rect::new(0, 0, 100, 2000);
        let theme = findings_tui::theme::Theme::no_color();
        let (_, dialog) =
            findings_tui::triage::content::shown(area, &h.app.triage, &theme).expect("the review");
        dialog
            .lines
            .iter()
            .map(|l| {
                l.spans
                    .iter()
                    .map(|s| s.content.as_ref())
                    .collect::<String>()
                    + "\n"
            })
            .collect::<String>()
    };
    // The ids each request sends, from the bodies `y` would send.
    let sent: Vec<Vec<String>> = h
        .app
        .triage
        .reviewed
        .iter()
        .map(|r| {
            let v: serde_json::Value = serde_json::from_str(&r.body).unwrap();
            v["filter"]["ids"]
                .as_array()
                .unwrap()
                .iter()
                .map(|id| id.as_str().unwrap().to_owned())
                .collect()
        })
        .collect();
    let long = sent.iter().find(|ids| ids.len() > 12).expect("a long list");
    let review = body(&h);
    let counted = format!(
        "{} more: {} in all (Enter shows every one)",
        long.len() - 8,
        long.len()
    );
    assert!(review.contains(&counted), "{review}");
    assert!(
        !review.contains(&format!("\"{}\"", long[long.len() - 1])),
        "{review}"
    );
    h.key(KeyCode::Enter);
    let review = body(&h);
    assert!(!review.contains("Enter shows every one"), "{review}");
    for id in sent.iter().flatten() {
        assert!(review.contains(&format!("\"{id}\"")), "{id}: {review}");
    }
    h.key(KeyCode::Enter);
    assert!(body(&h).contains(&counted));
}
