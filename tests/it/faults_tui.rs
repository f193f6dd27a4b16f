//! The TUI against a demo server that misbehaves on purpose
//! (src/demo/faults.rs), through the real app, worker and client: keys are
//! handled while a request hangs, `Esc` cancels it, each failure raises a
//! popup naming what happened, the rows already loaded stay, and nothing
//! panics.

use crate::common;

use common::Harness;
use common::pty::Pty;
use crossterm::event::KeyCode;
use findings_demo::faults::{FaultKind, Faults};
use findings_demo::tap::Exchange;
use findings_tui::app::Overlay;
use findings_tui::pane::Pane;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const QUICK: Duration = Duration::from_secs(10);

/// The title and message of the error popup on show.
fn popup(h: &Harness) -> (String, String) {
    match &h.app.overlay {
        Some(Overlay::Error { title, message, .. }) => (title.clone(), message.clone()),
        other => panic!("no error popup: {other:?}"),
    }
}

fn first_id(h: &Harness) -> String {
    h.app.issues().list.items[0].id().to_string()
}

/// Waits until the server holds `n` requests (they are really hanging).
async fn held_by_server(h: &Harness, n: u64) {
    // The server signals each request it counts: a wait on that signal,
    // off the runtime's threads.
    let came =
        tokio::task::block_in_place(|| h.server().wait_for_requests(n, Duration::from_secs(10)));
    assert!(
        came,
        "{} requests reached the server",
        h.server().requests()
    );
}

/// The first row of the findings table as drawn.
fn first_table_row(h: &mut Harness) -> String {
    let screen = h.screen();
    let mut lines = screen.lines().skip_while(|l| !l.contains("SEVERITY"));
    lines.nth(1).unwrap_or_default().to_owned()
}

#[tokio::test(flavor = "multi_thread")]
async fn keys_work_while_requests_hang_and_esc_cancels_them() {
    let mut h = Harness::quick(300, 120, 35, QUICK).await;
    h.server().set_faults(Faults::kind(FaultKind::Hang));
    h.begin();
    held_by_server(&h, 1).await;
    assert_eq!(h.take_queued(), 0, "no answer");
    assert!(h.app.issues().is_loading());
    // Help opens and closes while the first page hangs.
    h.key(KeyCode::Char('?'));
    assert!(matches!(h.app.overlay, Some(Overlay::Help { .. })));
    assert!(h.screen().contains("Keys"), "{}", h.screen());
    h.key(KeyCode::Esc);
    assert!(h.app.overlay.is_none());
    // Another pane: its own request hangs too; Esc cancels it there.
    h.key(KeyCode::Char('1'));
    assert_eq!(h.app.pane, findings_tui::panes::report::ID);
    assert!(h.app.report().is_loading());
    held_by_server(&h, 12).await;
    h.key(KeyCode::Esc);
    assert!(!h.app.report().is_loading());
    // Back on Issues, still waiting; Esc cancels.
    h.key(KeyCode::Char('2'));
    assert_eq!(h.app.pane, findings_tui::panes::issues::ID);
    assert!(h.app.issues().is_loading());
    h.key(KeyCode::Esc);
    assert!(!h.app.is_loading(), "nothing loads any more");
    let screen = h.screen();
    let status = screen.lines().last().unwrap();
    assert!(status.contains("request cancelled"), "{status}");
    assert!(
        !["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
            .iter()
            .any(|s| status.contains(s)),
        "the spinner stopped: {status}"
    );
    // Issues' page and counts, the Agentic tab's count; the Report's
    // page, its four severity counts, the Issues list's count, the whole
    // set's top rules and repositories and the rules' names.
    assert_eq!(h.server().requests(), 12, "no retry");
    // Healed, `r` loads the page.
    h.server().set_faults(Faults::none());
    h.key(KeyCode::Char('r'));
    h.settle().await;
    assert_eq!(h.app.issues().list.items.len(), 100);
    assert!(h.app.overlay.is_none());
}

/// The spinner turns at the loop's beat (100 ms) while a request is in
/// flight, and only then: on the harness's virtual clock, one frame per beat
/// passed, none between beats and none once nothing loads.
#[tokio::test(flavor = "multi_thread")]
async fn the_spinner_turns_at_each_beat_while_loading_and_only_then() {
    let mut h = Harness::quick(300, 120, 35, QUICK).await;
    h.server().set_faults(Faults::kind(FaultKind::Hang));
    h.begin();
    held_by_server(&h, 1).await;
    let status = |h: &mut Harness| h.screen().lines().last().unwrap().to_owned();
    let still = status(&mut h);
    h.advance(Duration::from_millis(99));
    assert_eq!(status(&mut h), still, "no beat before 100 ms");
    h.advance(Duration::from_millis(1));
    assert_eq!(h.app.spinner, 1);
    assert_ne!(status(&mut h), still, "the spinner turned");
    h.advance(Duration::from_millis(250));
    assert_eq!(h.app.spinner, 3, "beats at 200 and 300 ms");
    h.key(KeyCode::Esc);
    assert!(!h.app.is_loading());
    h.advance(Duration::from_secs(5));
    assert_eq!(h.app.spinner, 3, "no beat while nothing loads");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_request_that_never_answers_times_out_with_a_popup() {
    let mut h = Harness::quick(300, 120, 35, Duration::from_secs(1)).await;
    h.server().set_faults(Faults::kind(FaultKind::Hang));
    let started = Instant::now();
    h.start().await;
    assert!(started.elapsed() < Duration::from_secs(5));
    let (title, message) = popup(&h);
    assert_eq!(title, "Loading findings failed");
    assert!(message.contains("timed out after 1s"), "{message}");
    assert!(h.screen().contains("timed out"));
    assert_eq!(
        h.server().requests(),
        3,
        "a timeout is not retried: the page, its counts and the Agentic tab's count, once each"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn latency_keeps_keys_live_and_the_page_arrives() {
    let mut h = Harness::quick(300, 120, 35, QUICK).await;
    h.server().set_faults(Faults {
        latency: Duration::from_millis(600),
        ..Faults::none()
    });
    let started = Instant::now();
    h.begin();
    h.key(KeyCode::Char('?'));
    h.key(KeyCode::Esc);
    h.key(KeyCode::Char('4'));
    assert_eq!(h.app.pane, findings_tui::panes::scm::ID);
    h.key(KeyCode::Char('2'));
    assert!(h.app.is_loading());
    h.settle().await;
    assert!(started.elapsed() >= Duration::from_millis(600));
    assert_eq!(h.app.issues().list.items.len(), 100);
    assert!(h.app.overlay.is_none());
}

/// For each fault on the second page: a popup naming it, the first page's
/// rows kept on screen, and `r` going on from where it failed once healed.
#[tokio::test(flavor = "multi_thread")]
async fn a_failing_next_page_keeps_the_rows_loaded_and_names_the_fault() {
    let cases: Vec<(Faults, &[&str], u64, usize)> = vec![
        // (plan, words in the popup, requests for page 2, rows after)
        (Faults::failing(503), &["HTTP 503", "server error"], 4, 100),
        (Faults::failing(500), &["HTTP 500"], 1, 100),
        (
            Faults::kind(FaultKind::RateLimit {
                retry_after_secs: 0,
            }),
            &["rate limited", "HTTP 429"],
            4,
            100,
        ),
        (
            Faults::kind(FaultKind::Reset),
            &["connection closed while reading the answer"],
            4,
            100,
        ),
        (Faults::kind(FaultKind::Truncate), &["truncated"], 1, 100),
        (
            Faults::kind(FaultKind::Html { status: 502 }),
            &["HTTP 502", "HTML page: 502 Bad Gateway"],
            4,
            100,
        ),
        (
            Faults::kind(FaultKind::Html { status: 200 }),
            &["not JSON (text/html", "HTML page: Sign in"],
            1,
            100,
        ),
        // The looping page arrives, then the listing stops.
        (
            Faults::kind(FaultKind::LoopCursor),
            &["cursor it had already returned", "loop"],
            1,
            200,
        ),
    ];
    for (plan, words, requests, rows) in cases {
        let mut h = Harness::quick(300, 120, 35, QUICK).await;
        h.start().await;
        // The background requests (filter values) answered first: the
        // server counts only what the fault sees.
        h.quiesce().await;
        assert_eq!(h.app.issues().list.items.len(), 100);
        let first = first_id(&h);
        let first_row = first_table_row(&mut h);
        h.server().set_faults(plan.clone().with_cursor_only());
        // To the end of what is loaded: the next page is asked for (`G`
        // would load everything, as one stream of the largest pages).
        h.app.issues_mut().list.select(98);
        h.key(KeyCode::Char('j'));
        assert!(h.app.is_loading(), "{plan:?}");
        h.settle().await;
        let (_, message) = popup(&h);
        for word in words {
            assert!(
                message.contains(word),
                "{plan:?}: {word:?} not in {message:?}"
            );
        }
        assert_eq!(h.server().requests(), requests, "{plan:?}");
        assert_eq!(h.app.issues().list.items.len(), rows, "{plan:?}");
        assert_eq!(first_id(&h), first, "{plan:?}");
        let screen = h.screen();
        assert!(screen.contains(words[0]), "{plan:?}: {screen}");
        // The popup goes; the rows are there, first one included.
        h.key(KeyCode::Esc);
        h.key(KeyCode::Char('g'));
        let screen = h.screen();
        assert!(screen.contains(&format!("{rows} loaded")), "{screen}");
        assert_eq!(first_table_row(&mut h), first_row, "{plan:?}: {screen}");
        // Healed, `r` goes on from the page that failed.
        if rows == 100 {
            h.server().set_faults(Faults::none());
            h.key(KeyCode::Char('r'));
            h.settle().await;
            assert_eq!(h.app.issues().list.items.len(), 200, "{plan:?}");
            assert_eq!(first_id(&h), first);
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_wrong_content_type_and_a_10_mb_page_load_normally() {
    for plan in [
        Faults::kind(FaultKind::ContentType("text/plain".into())),
        Faults::kind(FaultKind::parse("huge").unwrap()),
    ] {
        let mut h = Harness::quick(300, 120, 35, QUICK).await;
        h.server().set_faults(plan.clone());
        h.start().await;
        assert!(h.app.overlay.is_none(), "{plan:?}: {:?}", h.app.overlay);
        assert_eq!(h.app.issues().list.items.len(), 100, "{plan:?}");
        assert!(h.screen().contains("100 loaded"));
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn report_and_agentic_panes_name_faults_and_cancel() {
    let mut h = Harness::quick(300, 120, 35, QUICK).await;
    h.server().set_faults(Faults::kind(FaultKind::Truncate));
    h.key(KeyCode::Char('1'));
    h.settle().await;
    let (title, message) = popup(&h);
    assert_eq!(title, "Loading the report failed");
    assert!(message.contains("truncated"), "{message}");
    h.key(KeyCode::Esc);
    // Agentic: the search hangs, Esc cancels it.
    h.server().set_faults(Faults::kind(FaultKind::Hang));
    h.key(KeyCode::Char('3'));
    assert_eq!(h.app.pane, findings_tui::panes::agentic::ID);
    assert!(h.app.agentic().is_loading());
    held_by_server(&h, 1).await;
    h.key(KeyCode::Esc);
    assert!(!h.app.agentic().is_loading());
    assert!(h.screen().contains("request cancelled"));
}

/// The SCM form (the pane on show): `:scm 1003`, useNetworkBroker on,
/// review, confirm.
fn send_scm_update(h: &mut Harness) {
    h.keys(":scm 1003");
    h.key(KeyCode::Enter);
    h.keys("jjjj ");
    h.keys("R");
    h.keys("y");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_scm_update_is_sent_once_under_faults_and_the_draft_stays() {
    let cases: [(Faults, &[&str]); 3] = [
        (Faults::failing(503), &["HTTP 503"]),
        (
            Faults::kind(FaultKind::Reset),
            &["connection closed while reading", "outcome unknown"],
        ),
        (
            Faults::kind(FaultKind::Truncate),
            &["truncated", "probably applied"],
        ),
    ];
    for (plan, words) in cases {
        let mut h = Harness::quick(100, 120, 35, QUICK).await;
        // The configs are listed before the faults begin.
        h.key(KeyCode::Char('4'));
        h.settle().await;
        h.server().set_faults(plan.clone());
        send_scm_update(&mut h);
        h.settle().await;
        let (title, message) = popup(&h);
        assert_eq!(title, "SCM update failed");
        for word in words {
            assert!(
                message.contains(word),
                "{plan:?}: {word:?} not in {message:?}"
            );
        }
        assert_eq!(h.server().requests(), 1, "{plan:?}: never retried");
        // The draft is kept: reviewing again shows the same change.
        h.key(KeyCode::Esc);
        h.server().set_faults(Faults::none());
        h.keys("R");
        assert!(h.screen().contains("\"useNetworkBroker\": true"));
        h.keys("y");
        h.settle().await;
        assert!(h.app.overlay.is_none(), "{plan:?}: {:?}", h.app.overlay);
        assert_eq!(h.server().requests(), 1, "sent again by the user");
    }
}

// ------------------------------------------------ the real event loop (pty)

#[test]
fn in_a_real_terminal_keys_are_answered_while_the_server_hangs() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let server = runtime.block_on(common::demo(300));
    server.set_faults(Faults::kind(FaultKind::Hang));
    let url = server.url();
    // Visits and logs go to a temporary folder, not the user's.
    let state = tempfile::tempdir().unwrap();
    let no_config = state.path().join("config-home");
    let mut app = Pty::start(
        30,
        100,
        &[],
        &[
            ("FINDINGS_BASE_URL", url.as_ref()),
            ("FINDINGS_DEPLOYMENT", server.deployment().as_ref()),
            ("FINDINGS_TOKEN", server.token().as_ref()),
            ("XDG_STATE_HOME", state.path().as_os_str()),
            ("XDG_CONFIG_HOME", no_config.as_os_str()),
        ],
    );
    app.wait_for("loading findings");
    // The first page never comes, yet every key is handled at once.
    app.press(b"?");
    app.wait_for("Keys");
    // An Esc stands alone only when the app read it before the next key.
    app.press(b"\x1b");
    app.wait_until("the help closes", |t| !t.contains("Keys"));
    app.press(b"4");
    app.wait_for("SCM config");
    app.press(b"2");
    app.press(b"\x1b");
    let screen = app.wait_for("request cancelled");
    assert!(screen.contains("0 loaded"), "{screen}");
    // Healed, `r` loads.
    server.set_faults(Faults::none());
    app.press(b"r");
    app.wait_for("100 loaded");
    // The next page hangs: `q` still quits at once.
    server.set_faults(Faults::kind(FaultKind::Hang));
    app.press(b"G");
    assert!(
        server.wait_for_requests(1, Duration::from_secs(10)),
        "no next page asked"
    );
    let started = Instant::now();
    app.press(b"q");
    let (status, _, _) = app.finish();
    assert!(started.elapsed() < Duration::from_secs(5), "q did not quit");
    assert!(status.success(), "{status:?}");
    let _guard = runtime.enter();
    drop(server);
    runtime.shutdown_background();
}

/// What a Report screen costs: the page, four severity counts, the Issues
/// list's count and the whole set's top rules and repositories (with the
/// filter values and the rules' labels the first time), then twelve trend
/// counts for `b`; each batch all in flight at once, as a server that
/// holds every request shows (one at a time, it would hold one).
#[tokio::test(flavor = "multi_thread")]
async fn the_report_screen_costs_few_requests_in_parallel() {
    let mut h = Harness::quick(2000, 120, 35, QUICK).await;
    h.start().await;
    // The filter values, asked for in the background after the first page,
    // are not the report's cost.
    h.until("the filter values arrive", |app| {
        app.issues().known.is_known()
    })
    .await;
    h.quiesce().await;
    // What the server answered, named on a failure.
    let answered = Arc::new(Mutex::new(Vec::new()));
    let log = answered.clone();
    h.server().observe(Some(Arc::new(move |ex: &Exchange| {
        let query = ex.query.as_deref().unwrap_or_default();
        let body = String::from_utf8_lossy(&ex.request);
        let body: String = body.chars().take(160).collect();
        log.lock()
            .unwrap()
            .push(format!("{} {}?{query} {body}", ex.method, ex.route));
    })));
    // The cost is what the app sends, counted by the loop, each answered
    // once the app settles (so the server saw at least as many; it may
    // also count a request cancelled before that reached it late).
    let cost = async |h: &mut Harness, key: char| {
        let (sent, seen) = (h.sent, h.server().requests());
        answered.lock().unwrap().clear();
        h.key(KeyCode::Char(key));
        h.quiesce().await;
        let cost = h.sent - sent;
        let reached = h.server().requests() - seen;
        let answered = answered.lock().unwrap().join("\n");
        assert!(
            reached >= cost as u64,
            "`{key}` sent {cost} requests, the server saw {reached}:\n{answered}"
        );
        (cost, answered)
    };
    // The first time, the report also asks the filter values, for the
    // rules' names, and then the labels of the supply-chain rules among
    // the top ones, each once a session: counted here and never again.
    let (sent, answered) = cost(&mut h, '1').await;
    assert_eq!(sent, 8 + 2, "{answered}");
    // A reload, held by the server: all six reach it before any is
    // answered (the tops stay: the same filters, within the day).
    h.server().set_faults(Faults::kind(FaultKind::Hang));
    let before = h.server().requests();
    h.key(KeyCode::Char('r'));
    held_by_server(&h, before + 6).await;
    h.key(KeyCode::Esc);
    assert!(!h.app.report().is_loading());
    h.server().set_faults(Faults::none());
    let (sent, answered) = cost(&mut h, 'r').await;
    assert_eq!(
        sent, 6,
        "the page, four severity counts, the Issues list's count:\n{answered}"
    );
    // The trend's twelve buckets held at once too.
    h.server().set_faults(Faults::kind(FaultKind::Hang));
    let before = h.server().requests();
    h.key(KeyCode::Char('b'));
    held_by_server(&h, before + 12).await;
    h.key(KeyCode::Esc);
    h.server().set_faults(Faults::none());
    // Everything again, with the trend, and the tops stopped by Esc: the
    // tops' reports follow the bucket size too.
    let (sent, answered) = cost(&mut h, 'r').await;
    assert_eq!(sent, 6 + 12 + 2, "{answered}");
    // One severity let through: its count is the total. The trend again,
    // the Issues list's count and the tops.
    let (sent, answered) = cost(&mut h, 'H').await;
    assert_eq!(sent, 1 + 12 + 1 + 2, "{answered}");
}

/// `r` while the server fails: the rows loaded stay (all of them, loaded
/// with `G`), and the status line says the reload failed and what is shown.
#[tokio::test(flavor = "multi_thread")]
async fn a_failed_reload_keeps_the_rows_loaded() {
    let mut h = Harness::quick(300, 120, 35, QUICK).await;
    h.start().await;
    h.key(KeyCode::Char('G'));
    h.settle().await;
    h.quiesce().await;
    let loaded = h.app.issues().list.items.len();
    assert!(h.app.issues().list.complete && loaded > 100, "{loaded}");
    let first = first_id(&h);
    h.server()
        .set_faults(Faults::kind(FaultKind::Html { status: 502 }));
    h.key(KeyCode::Char('r'));
    h.settle().await;
    assert_eq!(h.app.issues().list.items.len(), loaded, "the rows stay");
    assert_eq!(first_id(&h), first);
    let (title, message) = popup(&h);
    assert_eq!(title, "reload failed");
    assert!(message.contains("HTTP 502"), "{message}");
    assert!(
        message.contains(&format!("showing the {loaded} rows loaded at ")),
        "{message}"
    );
    let screen = h.screen();
    let status = screen.lines().last().unwrap();
    assert!(status.contains("reload failed: "), "{screen}");
    h.key(KeyCode::Esc);
    // The status line still says what is shown: the failure first (it is
    // what the user must act on), with the rows kept.
    let screen = h.screen();
    let status = screen.lines().last().unwrap();
    assert!(
        status.contains(&format!("showing the {loaded} rows loaded")),
        "{screen}"
    );
    // Healed, `r` loads the list anew.
    h.server().set_faults(Faults::none());
    h.key(KeyCode::Char('r'));
    h.settle().await;
    assert_eq!(h.app.issues().list.items.len(), 100);
    assert!(h.app.overlay.is_none());
}
