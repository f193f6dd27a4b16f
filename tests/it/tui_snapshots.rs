//! Snapshots of every pane, detail tab and popup at 60×20 (a narrow tmux
//! split), 80×24, 100×30 and 120×35, drawn from a demo data set with a
//! fixed date (review `.snap` changes like code). Each is taken once every
//! request sent is answered (`quiesce`): a background answer, such as the
//! repository names, changes what a screen shows. Each is also checked for
//! what no size may do ([`common::drawn_whole`]).

use crate::common;

use common::Harness;
use crossterm::event::KeyCode;

const SIZES: [(u16, u16); 4] = [(60, 20), (80, 24), (100, 30), (120, 35)];

/// Checks the screen is drawn whole, then snapshots it.
macro_rules! snap {
    ($name:expr, $screen:expr) => {{
        let screen = $screen;
        common::drawn_whole(&screen);
        insta::assert_snapshot!($name, screen);
    }};
}

async fn harness(w: u16, h: u16) -> Harness {
    let mut h = Harness::anchored(2000, w, h).await;
    h.start().await;
    h.quiesce().await;
    h
}

#[tokio::test(flavor = "multi_thread")]
async fn issues_pane() {
    for (w, h) in SIZES {
        let mut app = harness(w, h).await;
        snap!(format!("issues_{w}x{h}"), app.screen());
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn issues_grouped_by_rule() {
    for (w, h) in SIZES {
        let mut app = harness(w, h).await;
        app.keys("R");
        app.quiesce().await;
        app.keys("j");
        snap!(format!("groups_{w}x{h}"), app.screen());
    }
}

/// Opens the detail of the first finding of `kind` and snapshots each tab.
async fn detail_tabs(kind: &str, filter: &str) {
    for (w, h) in SIZES {
        let mut app = harness(w, h).await;
        app.keys(&format!(":filter issueTypes={filter}"));
        app.key(KeyCode::Enter);
        app.quiesce().await;
        app.key(KeyCode::Enter);
        let tabs = app.app.detail.as_ref().unwrap().tabs.clone();
        for tab in tabs {
            app.quiesce().await;
            snap!(
                format!(
                    "detail_{kind}_{}_{w}x{h}",
                    tab.title().replace(' ', "_").to_lowercase()
                ),
                app.screen()
            );
            app.key(KeyCode::Char('l'));
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn detail_of_a_code_finding() {
    detail_tabs("code", "sast").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn detail_of_a_supply_chain_finding() {
    detail_tabs("sca", "sca").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn detail_of_a_secrets_finding() {
    detail_tabs("secrets", "secrets").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn help_overlay() {
    // As wide as its lines at 120; at 80, lines wrap under their
    // description, and the rest scrolls.
    for (w, h) in SIZES {
        let mut app = harness(w, h).await;
        app.key(KeyCode::Char('?'));
        snap!(format!("help_issues_{w}x{h}"), app.screen());
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn filter_form() {
    let mut app = harness(120, 35).await;
    app.key(KeyCode::Char('f'));
    snap!("filter_form_120x35", app.screen());
}

/// At 80 and 60 columns nothing of the form is cut: the type column, the
/// keys' hint (wrapped), `[ Apply filters ]`.
#[tokio::test(flavor = "multi_thread")]
async fn filter_form_narrow() {
    for (w, h) in [(60, 20), (80, 24), (100, 30)] {
        let mut app = harness(w, h).await;
        app.key(KeyCode::Char('f'));
        app.keys("G");
        let screen = app.screen();
        assert!(!screen.contains("any/tru"), "{screen}");
        assert!(screen.contains("Apply filters"), "{screen}");
        assert!(screen.contains("Ctrl-s apply"), "{screen}");
        assert!(screen.contains("close"), "{screen}");
        snap!(format!("filter_form_{w}x{h}"), screen);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn report_pane() {
    for (w, h) in SIZES {
        let mut app = harness(w, h).await;
        app.key(KeyCode::Char('1'));
        app.quiesce().await;
        snap!(format!("report_{w}x{h}"), app.screen());
    }
}

/// The repository filter as typed, then in force with the report type
/// stepped back twice (`V` `V`: project). (No period or trend: those move
/// with the clock.)
#[tokio::test(flavor = "multi_thread")]
async fn report_repository_filter_and_selectors_back() {
    for (w, h) in SIZES {
        let mut app = harness(w, h).await;
        app.key(KeyCode::Char('1'));
        app.quiesce().await;
        app.keys("/acme/payments-api");
        snap!(format!("report_repo_typed_{w}x{h}"), app.screen());
        app.key(KeyCode::Enter);
        app.keys("VV");
        app.quiesce().await;
        snap!(format!("report_repo_{w}x{h}"), app.screen());
    }
}

/// The dashboard's views (`d`: activity, repositories, rules, open age)
/// at 80×24, where they scroll (`j`/`k` move a row), and at 200×50, where
/// the next view sits beside each. The app's clock is the data's, so the
/// periods are the same every day.
#[tokio::test(flavor = "multi_thread")]
async fn report_dashboard_views() {
    for (w, h) in [(60, 20), (80, 24), (100, 30), (200, 50)] {
        let mut app = Harness::anchored(2000, w, h).await;
        app.start().await;
        app.key(KeyCode::Char('1'));
        app.keys("pp");
        app.quiesce().await;
        for view in ["activity", "backlog", "repositories", "rules", "open_age"] {
            app.key(KeyCode::Char('d'));
            app.quiesce().await;
            // Back two buckets; down past the rows that fit.
            match (w, view) {
                (80, "activity" | "backlog") => app.keys("kk"),
                (80, "repositories" | "rules") => app.keys("jjjjjj"),
                _ => {}
            }
            snap!(format!("report_{view}_{w}x{h}"), app.screen());
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn agentic_pane_and_detail() {
    for (w, h) in SIZES {
        let mut app = harness(w, h).await;
        app.key(KeyCode::Char('3'));
        app.quiesce().await;
        snap!(format!("agentic_{w}x{h}"), app.screen());
        app.key(KeyCode::Enter);
        snap!(format!("agentic_detail_{w}x{h}"), app.screen());
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn scm_pane_list_form_review_and_result() {
    for (w, h) in SIZES {
        let mut app = harness(w, h).await;
        app.key(KeyCode::Char('4'));
        app.quiesce().await;
        snap!(format!("scm_list_{w}x{h}"), app.screen());
        // 1002, from its current values.
        app.key(KeyCode::Char('j'));
        app.key(KeyCode::Enter);
        snap!(format!("scm_form_{w}x{h}"), app.screen());
        // autoScan on → off, diffEnabled off → on.
        app.keys("jjj ");
        app.keys("jjj ");
        app.keys("R");
        snap!(format!("scm_review_{w}x{h}"), app.screen());
        app.keys("y");
        app.quiesce().await;
        snap!(format!("scm_result_{w}x{h}"), app.screen());
    }
}

/// Marked rows (the mark column and the count), the export prompt with a
/// typed file name, and the copy menu.
#[tokio::test(flavor = "multi_thread")]
async fn marks_export_prompt_and_copy_menu() {
    for (w, h) in SIZES {
        let mut app = harness(w, h).await;
        app.keys("j  j ");
        snap!(format!("issues_marked_{w}x{h}"), app.screen());
        app.key(KeyCode::Char('e'));
        app.key(KeyCode::Tab);
        app.ctrl('u');
        app.keys("triage.json");
        snap!(format!("export_prompt_{w}x{h}"), app.screen());
        app.key(KeyCode::Esc);
        app.key(KeyCode::Char('y'));
        snap!(format!("copy_menu_{w}x{h}"), app.screen());
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn command_line_completions() {
    for (w, h) in SIZES {
        let mut app = harness(w, h).await;
        app.keys(":filter severities=");
        app.key(KeyCode::Tab);
        app.key(KeyCode::Tab);
        snap!(format!("command_completion_{w}x{h}"), app.screen());
    }
}

/// The popups a triage session goes through: the triage dialog with a
/// reason and a note, its review, and the Act menu.
#[tokio::test(flavor = "multi_thread")]
async fn triage_dialog_review_and_act_menu() {
    for (w, h) in SIZES {
        let mut app = harness(w, h).await;
        app.select_first_open();
        app.draft_ignore_as_false_positive("dup of SEC-1");
        snap!(format!("triage_dialog_{w}x{h}"), app.screen());
        app.ctrl('s');
        app.quiesce().await;
        snap!(format!("triage_review_{w}x{h}"), app.screen());
        app.key(KeyCode::Esc);
        app.key(KeyCode::Esc);
        app.key(KeyCode::Esc);
        app.quiesce().await;
        assert!(!app.app.triage.is_open(), "{}", app.screen());
        app.keys("A");
        app.quiesce().await;
        snap!(format!("act_menu_{w}x{h}"), app.screen());
    }
}
