//! Snapshots of every pane and detail tab at 120×35 and 80×24, drawn from a
//! demo data set with a fixed date (review `.snap` changes like code). Each
//! is taken once every request sent is answered (`quiesce`): a background
//! answer, such as the repository names, changes what a screen shows.

use crate::common;

use common::Harness;
use crossterm::event::KeyCode;

const SIZES: [(u16, u16); 2] = [(120, 35), (80, 24)];

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
        insta::assert_snapshot!(format!("issues_{w}x{h}"), app.screen());
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn issues_grouped_by_rule() {
    for (w, h) in SIZES {
        let mut app = harness(w, h).await;
        app.keys("R");
        app.quiesce().await;
        app.keys("j");
        insta::assert_snapshot!(format!("groups_{w}x{h}"), app.screen());
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
            insta::assert_snapshot!(
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
        insta::assert_snapshot!(format!("help_issues_{w}x{h}"), app.screen());
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn filter_form() {
    let mut app = harness(120, 35).await;
    app.key(KeyCode::Char('f'));
    insta::assert_snapshot!("filter_form_120x35", app.screen());
}

/// At 80 and 60 columns nothing of the form is cut: the type column, the
/// keys' hint (wrapped), `[ Apply filters ]`.
#[tokio::test(flavor = "multi_thread")]
async fn filter_form_narrow() {
    for (w, h) in [(80, 24), (60, 20)] {
        let mut app = harness(w, h).await;
        app.key(KeyCode::Char('f'));
        app.keys("G");
        let screen = app.screen();
        assert!(!screen.contains("any/tru"), "{screen}");
        assert!(screen.contains("Apply filters"), "{screen}");
        assert!(screen.contains("Ctrl-s apply"), "{screen}");
        assert!(screen.contains("close"), "{screen}");
        insta::assert_snapshot!(format!("filter_form_{w}x{h}"), screen);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn report_pane() {
    for (w, h) in SIZES {
        let mut app = harness(w, h).await;
        app.key(KeyCode::Char('1'));
        app.quiesce().await;
        insta::assert_snapshot!(format!("report_{w}x{h}"), app.screen());
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
        insta::assert_snapshot!(format!("report_repo_typed_{w}x{h}"), app.screen());
        app.key(KeyCode::Enter);
        app.keys("VV");
        app.quiesce().await;
        insta::assert_snapshot!(format!("report_repo_{w}x{h}"), app.screen());
    }
}

/// The dashboard's views (`d`: activity, repositories, rules, open age)
/// at 80×24, where they scroll (`j`/`k` move a row), and at 200×50, where
/// the next view sits beside each. The app's clock is the data's, so the
/// periods are the same every day.
#[tokio::test(flavor = "multi_thread")]
async fn report_dashboard_views() {
    for (w, h) in [(80, 24), (200, 50)] {
        let mut app = Harness::anchored(2000, w, h).await;
        app.start().await;
        app.key(KeyCode::Char('1'));
        app.keys("pp");
        app.quiesce().await;
        for view in ["activity", "repositories", "rules", "open_age"] {
            app.key(KeyCode::Char('d'));
            app.quiesce().await;
            // Back two buckets; down past the rows that fit.
            match (w, view) {
                (80, "activity") => app.keys("kk"),
                (80, "repositories" | "rules") => app.keys("jjjjjj"),
                _ => {}
            }
            insta::assert_snapshot!(format!("report_{view}_{w}x{h}"), app.screen());
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn agentic_pane_and_detail() {
    for (w, h) in SIZES {
        let mut app = harness(w, h).await;
        app.key(KeyCode::Char('3'));
        app.quiesce().await;
        insta::assert_snapshot!(format!("agentic_{w}x{h}"), app.screen());
        app.key(KeyCode::Enter);
        insta::assert_snapshot!(format!("agentic_detail_{w}x{h}"), app.screen());
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn scm_pane_list_form_review_and_result() {
    for (w, h) in SIZES {
        let mut app = harness(w, h).await;
        app.key(KeyCode::Char('4'));
        app.quiesce().await;
        insta::assert_snapshot!(format!("scm_list_{w}x{h}"), app.screen());
        // 1002, from its current values.
        app.key(KeyCode::Char('j'));
        app.key(KeyCode::Enter);
        insta::assert_snapshot!(format!("scm_form_{w}x{h}"), app.screen());
        // autoScan on → off, diffEnabled off → on.
        app.keys("jjj ");
        app.keys("jjj ");
        app.keys("R");
        insta::assert_snapshot!(format!("scm_review_{w}x{h}"), app.screen());
        app.keys("y");
        app.quiesce().await;
        insta::assert_snapshot!(format!("scm_result_{w}x{h}"), app.screen());
    }
}

/// Marked rows (the mark column and the count), the export prompt with a
/// typed file name, and the copy menu.
#[tokio::test(flavor = "multi_thread")]
async fn marks_export_prompt_and_copy_menu() {
    for (w, h) in SIZES {
        let mut app = harness(w, h).await;
        app.keys("j  j ");
        insta::assert_snapshot!(format!("issues_marked_{w}x{h}"), app.screen());
        app.key(KeyCode::Char('e'));
        app.key(KeyCode::Tab);
        app.ctrl('u');
        app.keys("triage.json");
        insta::assert_snapshot!(format!("export_prompt_{w}x{h}"), app.screen());
        app.key(KeyCode::Esc);
        app.key(KeyCode::Char('y'));
        insta::assert_snapshot!(format!("copy_menu_{w}x{h}"), app.screen());
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn command_line_completions() {
    let mut app = harness(80, 24).await;
    app.keys(":filter severities=");
    app.key(KeyCode::Tab);
    app.key(KeyCode::Tab);
    insta::assert_snapshot!("command_completion_80x24", app.screen());
}
