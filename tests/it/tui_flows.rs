//! Flows through the real TUI app, backed by the real API worker and the
//! embedded demo server: keys in, screens and requests out.

use crate::common;

use common::Harness;
use crossterm::event::KeyCode;
use findings_model::{FindingSeverity, ReportFilters, ReportRequest, ReportType, TimePeriod};
use findings_tui::app::{Msg, Overlay};
use std::collections::HashSet;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread")]
async fn starts_on_issues_with_the_first_page_and_a_demo_badge() {
    let mut h = Harness::new(2000, 120, 35).await;
    h.start().await;
    assert_eq!(h.app.pane, findings_tui::panes::issues::ID);
    assert_eq!(h.app.issues().list.items.len(), 100);
    let screen = h.screen();
    assert!(screen.contains("DEMO"), "{screen}");
    assert!(screen.contains("deployment 1234"), "{screen}");
    assert!(
        screen.contains("SEVERITY") && screen.contains("AGE") && screen.contains("SINCE"),
        "{screen}"
    );
    assert!(screen.contains("100 loaded, more available"), "{screen}");
}

#[tokio::test(flavor = "multi_thread")]
async fn lazy_loading_to_the_end_yields_every_finding_once() {
    let mut h = Harness::new(2000, 120, 35).await;
    h.start().await;
    let mut guard = 0;
    while !h.app.issues().list.complete {
        // Steady scrolling: a page at a time, never waiting at the end.
        h.key(KeyCode::PageDown);
        h.settle().await;
        guard += 1;
        assert!(guard < 500, "did not reach the end");
    }
    let ids: HashSet<String> = h
        .app
        .issues()
        .list
        .items
        .iter()
        .map(|row| row.id().to_string())
        .collect();
    let listed = common::listed(2000);
    assert_eq!(h.app.issues().list.items.len(), listed);
    assert_eq!(ids.len(), listed);
    h.key(KeyCode::Char('G'));
    assert_eq!(h.app.issues().list.selected, listed - 1);
    let all = format!(
        "{} loaded, all",
        findings_base::text::thousands(listed as i64)
    );
    assert!(h.screen().contains(&all));
}

#[tokio::test(flavor = "multi_thread")]
async fn prefetch_requests_the_next_page_before_the_end_is_reached() {
    let mut h = Harness::new(2000, 120, 35).await;
    h.start().await;
    let rows = h.app.list_height();
    // Just over one screen from the end of the 100 loaded rows: no request.
    for _ in 0..(100 - rows - 1) {
        h.key(KeyCode::Char('j'));
    }
    assert!(!h.app.is_loading());
    // Within one screen of the end: the next page is requested at once.
    h.key(KeyCode::Char('j'));
    assert!(h.app.is_loading(), "the next page is already on its way");
    h.settle().await;
    assert_eq!(h.app.issues().list.items.len(), 200);
}

#[tokio::test(flavor = "multi_thread")]
async fn detail_opens_and_tabs_fetch_their_data_once() {
    let mut h = Harness::new(2000, 120, 35).await;
    h.start().await;
    let before = h.sent;
    h.key(KeyCode::Enter); // Opening asks for the finding by id
    let detail = h.app.detail.as_ref().expect("detail open");
    let id = detail.issue.id.clone().unwrap();
    assert!(h.screen().contains("Overview"));
    assert!(h.app.is_loading());
    h.key(KeyCode::Char('l')); // Code: the same fetch serves it
    h.settle().await;
    assert_eq!(h.sent, before + 1);
    let code = h.screen();
    let path = h
        .app
        .detail
        .as_ref()
        .unwrap()
        .issue
        .file_path
        .clone()
        .unwrap();
    assert!(code.contains(&path), "the snippet of {path}: {code}");
    h.key(KeyCode::Char('l')); // Remediation: cached, no request
    h.key(KeyCode::Char('l')); // Activity
    assert_eq!(h.sent, before + 1, "the enriched copy is cached");
    let activity = h.screen();
    assert!(activity.contains("analysis started"), "{activity}");
    assert!(h.app.enriched.contains_key(&id));
    h.key(KeyCode::Esc);
    assert!(h.app.detail.is_none());
}

#[tokio::test(flavor = "multi_thread")]
async fn local_filter_narrows_instantly_and_inverts() {
    let mut h = Harness::new(2000, 120, 35).await;
    h.start().await;
    h.key(KeyCode::Char('/'));
    h.keys("secrets");
    let shown = h.app.issues().list.len();
    assert!(shown > 0 && shown < 100, "{shown}");
    for r in 0..shown {
        let issue = h.app.issues().list.row(r).unwrap().summary().issue;
        let hay = format!("{issue:?}").to_lowercase();
        assert!(hay.contains("secrets"));
    }
    h.key(KeyCode::Enter);
    assert!(h.screen().contains("/secrets"), "{}", h.screen());
    // Inverted: the rest.
    h.key(KeyCode::Char('/'));
    h.ctrl('u');
    h.keys("!secrets");
    assert_eq!(h.app.issues().list.len(), 100 - shown);
    h.key(KeyCode::Esc);
    assert_eq!(h.app.issues().list.len(), 100);
}

#[tokio::test(flavor = "multi_thread")]
async fn sort_cycles_server_side_and_reloads() {
    let mut h = Harness::new(2000, 120, 35).await;
    h.start().await;
    h.key(KeyCode::Char('s'));
    h.settle().await;
    assert!(h.screen().contains("sort severity"));
    let first = h.app.issues().list.items[0].severity();
    assert_eq!(first, Some(findings_model::Severity::Critical));
    h.key(KeyCode::Char('S'));
    h.settle().await;
    let first = h.app.issues().list.items[0].severity();
    assert_eq!(first, Some(findings_model::Severity::Low));
}

#[tokio::test(flavor = "multi_thread")]
async fn filter_form_applies_a_server_side_filter() {
    let mut h = Harness::new(2000, 120, 35).await;
    h.start().await;
    h.key(KeyCode::Char('f'));
    assert!(h.screen().contains("Server-side filters"));
    // Down to issueTypes, edit, type, keep, then Apply (two rows after the last field).
    let fields = findings_requests::filter_spec::LIST_FILTER;
    let row = fields.iter().position(|f| f.name == "issueTypes").unwrap();
    for _ in 0..row {
        h.key(KeyCode::Down);
    }
    h.key(KeyCode::Enter);
    h.keys("sca");
    h.key(KeyCode::Enter);
    for _ in row..fields.len() {
        h.key(KeyCode::Down);
    }
    h.key(KeyCode::Enter);
    h.settle().await;
    assert!(h.app.issues().form.is_none());
    assert!(!h.app.issues().list.items.is_empty());
    for item in &h.app.issues().list.items {
        assert_eq!(
            item.summary().issue.unwrap().issue_type,
            Some(findings_model::IssueType::Sca)
        );
    }
    assert!(h.screen().contains("issueTypes=sca"));
}

#[tokio::test(flavor = "multi_thread")]
async fn command_line_sorts_filters_and_clears() {
    let mut h = Harness::new(2000, 120, 35).await;
    h.start().await;
    h.keys(":");
    h.keys("sort repo asc");
    h.key(KeyCode::Enter);
    h.settle().await;
    assert!(h.screen().contains("sort repo ↑"));
    h.keys(":filter refs=main");
    h.key(KeyCode::Enter);
    h.settle().await;
    assert!(
        h.loaded_whole()
            .await
            .iter()
            .all(|i| i.ref_.as_deref() == Some("main"))
    );
    h.keys(":clear");
    h.key(KeyCode::Enter);
    h.settle().await;
    assert!(h.app.issues().selection.is_empty());
    h.keys(":nonsense");
    h.key(KeyCode::Enter);
    // Said in the status line: no popup to dismiss first.
    assert!(h.app.overlay.is_none());
    assert!(h.screen().contains("unknown command :nonsense"));
    h.keys(":q");
    h.key(KeyCode::Enter);
    assert!(h.app.quit);
}

/// A name mistyped on the `:` line is answered with the names it most
/// likely meant: commands, filter fields and their values.
#[tokio::test(flavor = "multi_thread")]
async fn a_mistyped_name_on_the_command_line_gets_a_did_you_mean() {
    let mut h = Harness::new(300, 120, 35).await;
    h.start().await;
    let said = |h: &Harness| h.app.status.clone().unwrap_or_default();
    h.keys(":srot repo");
    h.key(KeyCode::Enter);
    assert!(
        said(&h).starts_with("unknown command :srot (did you mean :sort? try"),
        "{}",
        said(&h)
    );
    h.keys(":filter severites=critical");
    h.key(KeyCode::Enter);
    assert!(
        said(&h).contains("\"severites\" for List issues (did you mean severities?)"),
        "{}",
        said(&h)
    );
    h.key(KeyCode::Esc);
    h.keys(":filter severities=critcal");
    h.key(KeyCode::Enter);
    assert!(
        said(&h).contains("(did you mean critical?)"),
        "{}",
        said(&h)
    );
    assert!(h.app.issues().selection.is_empty(), "nothing applied");
    h.key(KeyCode::Esc);
    h.keys(":sort sevrity");
    h.key(KeyCode::Enter);
    assert!(
        said(&h).contains("unknown sort field \"sevrity\" (did you mean severity?)"),
        "{}",
        said(&h)
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn help_lists_the_bindings_of_the_context() {
    let mut h = Harness::new(100, 120, 40).await;
    h.start().await;
    h.key(KeyCode::Char('?'));
    let screen = h.screen();
    assert!(screen.contains("Filter the rows"), "{screen}");
    assert!(screen.contains("Quit from anywhere"), "{screen}");
    h.key(KeyCode::Esc);
    h.key(KeyCode::Enter);
    h.key(KeyCode::Char('?'));
    let screen = h.screen();
    assert!(screen.contains("Next tab"), "{screen}");
}

#[tokio::test(flavor = "multi_thread")]
async fn open_and_copy_use_the_line_of_code_url() {
    let mut h = Harness::new(100, 120, 35).await;
    h.start().await;
    // The link is fetched (the row does not keep it), then opened.
    h.key(KeyCode::Char('o'));
    assert!(
        h.app
            .status
            .as_deref()
            .unwrap()
            .starts_with("fetching the finding")
    );
    h.settle().await;
    assert_eq!(h.opened.len(), 1);
    let url = h.opened[0].clone();
    assert!(url.starts_with("https://"));
    assert_eq!(h.app.status, Some(format!("opening {url}")));
    // The opener's outcome replaces the "opening" message.
    h.update(Msg::Opened {
        url: url.clone(),
        result: Ok(()),
    });
    assert_eq!(h.app.status, Some(format!("opened {url}")));
    h.key(KeyCode::Char('o'));
    h.update(Msg::Opened {
        url: url.clone(),
        result: Err("xdg-open not found (set $BROWSER to choose a browser)".into()),
    });
    assert_eq!(
        h.app.status,
        Some(format!(
            "cannot open the link: xdg-open not found (set $BROWSER to choose a browser) · {url}"
        ))
    );
    assert!(
        h.screen()
            .contains("cannot open the link: xdg-open not found")
    );
    // A success after another message took its place leaves that one.
    h.app.status = Some("something else".into());
    h.update(Msg::Opened {
        url: url.clone(),
        result: Ok(()),
    });
    assert_eq!(h.app.status.as_deref(), Some("something else"));
    h.keys("yu"); // the copy menu's URL
    assert_eq!(h.copied, vec![url]);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_server_error_shows_a_popup_and_keeps_what_was_loaded() {
    let server = common::demo(300).await;
    // A client with the wrong token: every request fails with 401.
    let bad = findings_client::Client::new(findings_client::ClientConfig::new(
        server.url(),
        server.deployment(),
        findings_client::Token::new("wrong"),
    ))
    .unwrap();
    let mut h = Harness::with_client(bad, 100, 30, false);
    h.start().await;
    assert!(matches!(h.app.overlay, Some(Overlay::Error { .. })));
    let screen = h.screen();
    assert!(
        screen.contains("401") && screen.contains("not authenticated"),
        "{screen}"
    );
    h.key(KeyCode::Esc);
    assert!(h.app.overlay.is_none());
    // The status line still says what failed (the message has room before
    // the pane's summary).
    let screen = h.screen();
    let status = screen.lines().last().unwrap();
    assert!(status.contains("failed: not authenticated"), "{status}");
}

#[tokio::test(flavor = "multi_thread")]
async fn quit_keys() {
    let mut h = Harness::new(50, 80, 24).await;
    h.start().await;
    h.key(KeyCode::Enter);
    h.key(KeyCode::Char('q'));
    assert!(!h.app.quit, "q closes the detail first");
    h.key(KeyCode::Char('q'));
    assert!(h.app.quit);
    let mut h = Harness::new(50, 80, 24).await;
    h.start().await;
    h.key(KeyCode::Char('/'));
    h.ctrl('c');
    assert!(h.app.quit, "Ctrl-C quits even while typing");
}

#[tokio::test(flavor = "multi_thread")]
async fn resizes_and_tiny_terminals_never_panic() {
    let mut h = Harness::new(200, 80, 24).await;
    h.start().await;
    h.key(KeyCode::Enter);
    for (w, h2) in [(20u16, 6u16), (1, 1), (250, 70), (80, 24), (33, 9)] {
        h.terminal.backend_mut().resize(w, h2);
        h.update(Msg::Resize(w, h2));
        let _ = h.screen();
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn scm_review_and_submit_change_the_server_config() {
    let mut h = Harness::new(100, 120, 35).await;
    h.start().await;
    h.key(KeyCode::Char('4'));
    h.settle().await;
    // The configs, with their values; Enter on the third edits 1003.
    let list = h.screen();
    assert!(list.contains("SCM configs (5)"), "{list}");
    assert!(list.contains("acme-mobile"), "{list}");
    h.keys("jj");
    h.key(KeyCode::Enter);
    assert_eq!(h.app.scm().draft.config_id, "1003");
    // useNetworkBroker: off → on.
    h.keys("jjjj ");
    let sent_before = h.sent;
    h.keys("R");
    let review = h.screen();
    assert!(review.contains("useNetworkBroker: off → on"), "{review}");
    assert!(review.contains("\"useNetworkBroker\": true"), "{review}");
    assert!(
        !review.contains("autoScan\""),
        "unchanged fields are not sent: {review}"
    );
    assert_eq!(h.sent, sent_before, "review sends nothing");
    // Only `y` sends a write: Enter on the review sends nothing.
    h.key(KeyCode::Enter);
    h.settle().await;
    assert_eq!(h.sent, sent_before, "Enter on the review sent the update");
    assert!(h.screen().contains("useNetworkBroker: off → on"));
    h.keys("y");
    h.keys("y");
    assert_eq!(
        h.sent,
        sent_before + 1,
        "one PATCH, however often confirmed"
    );
    h.settle().await;
    let result = h.screen();
    assert!(
        result.contains("network broker") && result.contains("on"),
        "{result}"
    );
    assert!(result.contains("[x] readMetadata"), "{result}");
    assert_eq!(h.app.scm().draft.changes(), 0, "nothing pending");
    // Back on the list, the row shows the new value.
    h.key(KeyCode::Esc);
    let list = h.screen();
    let row = list.lines().find(|l| l.contains("1003")).unwrap();
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(&cells[3..6], ["acme-mobile", "off", "on"], "{row}");
}

#[tokio::test(flavor = "multi_thread")]
async fn report_selectors_reload_with_new_totals() {
    let mut h = Harness::new(2000, 120, 35).await;
    h.start().await;
    h.key(KeyCode::Char('1'));
    h.settle().await;
    let all = h.screen();
    assert!(all.contains("1,098"), "{all}");
    h.key(KeyCode::Char('w')); // secrets only
    h.settle().await;
    let secrets = h.screen();
    assert!(secrets.contains("148"), "{secrets}");
    assert!(!secrets.contains("1,098"), "{secrets}");
    h.key(KeyCode::Enter);
    assert!(h.app.detail.is_some());
}

/// The total of a report request (the Report pane's defaults: total-open,
/// all time) narrowed by `narrow`, asked of the server directly.
async fn report_total(h: &Harness, narrow: impl FnOnce(&mut ReportRequest)) -> i64 {
    let mut r = ReportRequest {
        report_type: Some(ReportType::TotalOpen),
        limit: Some(1),
        ..Default::default()
    };
    narrow(&mut r);
    let client = common::client_for(h.server());
    client.report_findings(&r).await.unwrap().total.unwrap()
}

/// The count a bar of the severity chart (the first, at the left) shows.
fn severity_bar(screen: &str, label: &str) -> i64 {
    let line = screen
        .lines()
        .find(|l| l.starts_with(label) && !l.contains(" H "))
        .unwrap_or_else(|| panic!("no {label} bar in\n{screen}"));
    let chart: String = line.chars().take(26).collect();
    chart.split_whitespace().last().unwrap().parse().unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn report_charts_count_the_whole_set() {
    let mut h = Harness::new(2000, 120, 35).await;
    h.start().await;
    h.key(KeyCode::Char('1'));
    h.settle().await;
    let screen = h.screen();
    assert!(screen.contains("By severity (all 1,098)"), "{screen}");
    // Total-open of all time counts what the backlog reports count: the
    // top rules are the whole set's too.
    assert!(screen.contains("Top rules · all 1,098 open"), "{screen}");
    for (label, sev) in [
        ("critical", FindingSeverity::Critical),
        ("high", FindingSeverity::High),
        ("medium", FindingSeverity::Medium),
        ("low", FindingSeverity::Low),
    ] {
        let asked = report_total(&h, |r| {
            r.filters = Some(ReportFilters {
                finding_severities: vec![sev],
                ..Default::default()
            });
        })
        .await;
        assert_eq!(severity_bar(&screen, label), asked, "{label}");
    }

    // `b`: the trend by day; the list stays, the buckets add up to what was
    // created since the first bucket began.
    h.key(KeyCode::Char('b'));
    h.key(KeyCode::Char('b')); // week
    assert_eq!(h.app.report().list.items.len(), 100, "the list stays");
    h.settle().await;
    let trend = h.app.report().counts.trend().unwrap();
    assert_eq!(trend.len(), findings_tui::panes::report::MAX_BUCKETS);
    let since = trend[0].0;
    let created = report_total(&h, |r| {
        r.filters = Some(ReportFilters {
            time_period: Some(TimePeriod {
                since: Some(since),
                until: None,
            }),
            ..Default::default()
        });
    })
    .await;
    assert_eq!(trend.iter().map(|(_, n)| n).sum::<i64>(), created);
    assert!(created > 0, "the demo has findings in the last 12 weeks");
    let screen = h.screen();
    assert!(screen.contains("Created per week (max"), "{screen}");

    // `/`: one repository, as `report --repo` asks for it.
    let repo = h
        .app
        .report()
        .selected_issue()
        .unwrap()
        .repository_name()
        .to_owned();
    h.key(KeyCode::Char('/'));
    h.keys(&repo);
    h.key(KeyCode::Enter);
    h.settle().await;
    let asked = report_total(&h, |r| {
        r.filters = Some(ReportFilters {
            projects: vec![repo.clone()],
            ..Default::default()
        });
    })
    .await;
    let totals = h.app.report().current_totals().unwrap().clone();
    assert_eq!(totals.all, Some(asked));
    assert!(asked < 1098, "{repo}: {asked}");
    let sum: i64 = h.app.report().counts.severities().unwrap().iter().sum();
    assert!(
        sum <= asked,
        "the severity counts are of that repository too"
    );
    assert!(h.screen().contains(&format!("repo {repo}")));
}

// ------------------------------------------------------- marks and exports

fn selected_id(h: &Harness) -> String {
    h.app.issues().selected_issue().unwrap().id().to_owned()
}

#[tokio::test(flavor = "multi_thread")]
async fn space_marks_rows_with_a_column_and_a_count() {
    let mut h = Harness::new(2000, 120, 35).await;
    h.start().await;
    assert!(!h.screen().contains('✓'));
    let first = selected_id(&h);
    h.key(KeyCode::Char(' '));
    h.key(KeyCode::Char(' '));
    // Marking moves down, so rows are marked one after another.
    assert_eq!(h.app.issues().list.selected, 2);
    let screen = h.screen();
    assert_eq!(screen.matches('✓').count(), 2, "{screen}");
    assert!(screen.contains("2 marked"), "{screen}");
    let row_of_first = screen.lines().find(|l| l.contains('✓')).unwrap().to_owned();
    let issue = h.app.issues().list.items[0].summary().issue.unwrap();
    // (The repository is cut from the left: its end shows.)
    let repo = issue.repository_name();
    assert!(
        row_of_first.contains(&repo[repo.len() - 8..]),
        "{row_of_first}"
    );
    // Space again on a marked row unmarks it.
    h.key(KeyCode::Char('g'));
    h.key(KeyCode::Char(' '));
    assert!(h.screen().contains("1 marked"));
    assert!(!h.app.issues().marked.contains(issue.id()), "{first}");
    // A new listing starts with no marks.
    h.key(KeyCode::Char('r'));
    h.settle().await;
    let screen = h.screen();
    assert!(
        !screen.contains("marked") && !screen.contains('✓'),
        "{screen}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn star_marks_every_row_the_local_filter_shows_and_says_how_many() {
    let mut h = Harness::new(2000, 120, 35).await;
    h.start().await;
    h.key(KeyCode::Char('/'));
    h.keys("critical");
    h.key(KeyCode::Enter);
    h.settle().await;
    let shown: HashSet<String> = (0..h.app.issues().list.len())
        .map(|r| h.app.issues().list.row(r).unwrap().id().to_owned())
        .collect();
    assert!(
        shown.len() > 1 && shown.len() < h.app.issues().list.items.len(),
        "{}",
        shown.len()
    );
    h.key(KeyCode::Char('*'));
    let n = findings_base::text::thousands(shown.len() as i64);
    let status = h.app.status.clone().unwrap_or_default();
    assert!(
        status.contains(&format!("{n} shown rows marked ({n} marked in all)")),
        "{status}"
    );
    let marked = &h.app.issues().marked;
    assert_eq!(marked.len(), shown.len());
    assert!(shown.iter().all(|id| marked.contains(id)));
    // Again (by its command): nothing more to mark, and it says so.
    h.key(KeyCode::Char(':'));
    h.keys("mark-shown");
    h.key(KeyCode::Enter);
    let status = h.app.status.clone().unwrap_or_default();
    assert!(status.contains("were marked already"), "{status}");
    // The marks outlive the / filter: export and triage take them.
    h.key(KeyCode::Esc);
    assert_eq!(h.app.issues().list.len(), h.app.issues().list.items.len());
    assert!(
        h.screen().contains(&format!("{n} marked")),
        "{}",
        h.screen()
    );
}

/// Replaces the export prompt's file name with `path`.
fn type_path(h: &mut Harness, path: &std::path::Path) {
    h.ctrl('u');
    h.keys(path.to_str().unwrap());
}

#[tokio::test(flavor = "multi_thread")]
async fn e_exports_the_marked_rows_as_sarif_to_a_new_file() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::new(2000, 120, 35).await;
    h.start().await;
    h.key(KeyCode::Char('j'));
    let mut marked = Vec::new();
    for _ in 0..3 {
        marked.push(selected_id(&h));
        h.key(KeyCode::Char(' '));
    }
    h.key(KeyCode::Char('e'));
    let Some(Overlay::Export(prompt)) = &h.app.overlay else {
        panic!("the export prompt is open");
    };
    assert_eq!((prompt.count, prompt.marked), (3, true));
    assert!(prompt.path.value().starts_with("findings-"));
    assert!(prompt.path.value().ends_with(".csv"));
    let screen = h.screen();
    assert!(screen.contains("Export 3 marked findings"), "{screen}");
    // csv → json → ndjson → sarif; the extension follows the format.
    for _ in 0..3 {
        h.key(KeyCode::Tab);
    }
    let Some(Overlay::Export(prompt)) = &h.app.overlay else {
        panic!("still open");
    };
    assert_eq!(prompt.format, findings_export::Format::Sarif);
    assert!(prompt.path.value().ends_with(".sarif"));
    let path = dir.path().join("marked.sarif");
    type_path(&mut h, &path);
    h.key(KeyCode::Enter);
    assert!(h.app.overlay.is_none());
    // Fetched whole, then written off the loop, which says when it is done.
    h.settle().await;
    assert_eq!(h.exported.len(), 1);
    assert_eq!(h.exported[0].1, findings_export::Format::Sarif);
    let written = std::fs::read_to_string(&path).unwrap();
    assert!(
        !written.contains("demo-token"),
        "no token in an exported file"
    );
    let doc: serde_json::Value = serde_json::from_str(&written).unwrap();
    assert_eq!(doc["version"], "2.1.0");
    let ids: Vec<&str> = doc["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["properties"]["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, marked);
    let status = h.app.status.clone().unwrap();
    assert!(
        status.starts_with("exported 3 findings to ") && status.ends_with("marked.sarif"),
        "{status}"
    );

    // The same name again: refused, the file left as it was.
    let before = std::fs::read(&path).unwrap();
    h.key(KeyCode::Char('e'));
    type_path(&mut h, &path);
    h.key(KeyCode::Enter);
    h.settle().await;
    let Some(Overlay::Error { title, message, .. }) = &h.app.overlay else {
        panic!("a popup says why: {:?}", h.app.status);
    };
    assert_eq!(title, "Export failed");
    assert!(message.contains("already exists"), "{message}");
    assert_eq!(std::fs::read(&path).unwrap(), before);
    // Esc in the prompt exports nothing.
    h.key(KeyCode::Esc);
    h.key(KeyCode::Char('e'));
    h.key(KeyCode::Esc);
    assert!(h.app.overlay.is_none());
    assert_eq!(h.exported.len(), 2);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_file_name_extension_picks_the_export_format() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::new(100, 120, 35).await;
    h.start().await;
    h.key(KeyCode::Char('e'));
    let Some(Overlay::Export(prompt)) = &h.app.overlay else {
        panic!("the export prompt is open");
    };
    assert_eq!(prompt.format, findings_export::Format::Csv);
    // CSV chosen, `mine.json` typed: the prompt shows JSON, and JSON is written.
    let path = dir.path().join("mine.json");
    type_path(&mut h, &path);
    let Some(Overlay::Export(prompt)) = &h.app.overlay else {
        panic!("still open");
    };
    assert_eq!(prompt.format(), findings_export::Format::Json);
    h.key(KeyCode::Enter);
    h.settle().await;
    let items: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(items.len(), h.app.issues().list.len());
    // A name without a known extension keeps the format chosen.
    h.key(KeyCode::Char('e'));
    let path = dir.path().join("mine.txt.out");
    type_path(&mut h, &path);
    h.key(KeyCode::Enter);
    h.settle().await;
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        serde_json::from_str::<Vec<serde_json::Value>>(&text).is_ok(),
        "{text}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn with_nothing_marked_every_shown_row_is_exported() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::new(2000, 120, 35).await;
    h.start().await;
    // The local filter narrows what is shown, and so what is exported.
    h.key(KeyCode::Char('/'));
    h.keys("critical");
    h.key(KeyCode::Enter);
    let shown = h.app.issues().list.len();
    assert!(shown > 0 && shown < 100, "{shown}");
    h.key(KeyCode::Char('e'));
    h.key(KeyCode::Tab); // csv → json
    let path = dir.path().join("shown.json");
    type_path(&mut h, &path);
    h.key(KeyCode::Enter);
    h.settle().await;
    let items: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(items.len(), shown);
    assert!(
        items
            .iter()
            .all(|i| i["issue"]["severity"] == "SEVERITY_CRITICAL")
    );
    // The last format chosen is offered first next time.
    h.key(KeyCode::Char('e'));
    let Some(Overlay::Export(prompt)) = &h.app.overlay else {
        panic!("open");
    };
    assert_eq!(prompt.format, findings_export::Format::Json);
    h.key(KeyCode::Esc);

    // The Report pane exports its findings the same way: as Markdown.
    h.key(KeyCode::Char('1'));
    h.settle().await;
    h.key(KeyCode::Char('e'));
    for _ in 0..4 {
        h.key(KeyCode::Tab); // json → ndjson → sarif → markdown → table
    }
    h.key(KeyCode::BackTab); // back to markdown
    let path = dir.path().join("report.md");
    type_path(&mut h, &path);
    h.key(KeyCode::Enter);
    h.settle().await;
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        text.lines().count(),
        2 + h.app.report().list.len(),
        "{text}"
    );
    assert!(!text.contains("demo-token"), "no token in an exported file");
    assert!(text.starts_with("| id | severity |"), "{text}");
}

#[tokio::test(flavor = "multi_thread")]
async fn y_offers_id_url_path_and_a_markdown_table() {
    let mut h = Harness::new(2000, 120, 35).await;
    h.start().await;
    let id = h.app.issues().selected_issue().unwrap().id().to_owned();
    let issue = h.whole(&id).await;
    h.key(KeyCode::Char('y'));
    assert!(matches!(h.app.overlay, Some(Overlay::CopyMenu(_))));
    let screen = h.screen();
    assert!(
        screen.contains("the finding's id") && screen.contains("path:line"),
        "{screen}"
    );
    h.key(KeyCode::Char('i'));
    assert!(h.app.overlay.is_none());
    // The link is fetched (the row does not keep it): the copy follows.
    h.key(KeyCode::Char('y'));
    h.key(KeyCode::Char('u'));
    h.settle().await;
    h.key(KeyCode::Char('y'));
    h.key(KeyCode::Char('p'));
    // j and Enter choose too (the second choice: the URL); Esc copies nothing.
    h.key(KeyCode::Char('y'));
    h.key(KeyCode::Char('j'));
    h.key(KeyCode::Enter);
    h.key(KeyCode::Char('y'));
    h.key(KeyCode::Esc);
    let url = issue.line_of_code_url.clone().unwrap();
    assert_eq!(
        h.copied,
        [issue.id().to_owned(), url.clone(), issue.location(), url]
    );

    // With nothing marked, `m` copies the selected row; with marks, those.
    h.key(KeyCode::Char('y'));
    h.key(KeyCode::Char('m'));
    h.settle().await;
    let table = h.copied.last().unwrap().clone();
    assert_eq!(table.lines().count(), 3, "{table}");
    assert!(
        table
            .lines()
            .nth(2)
            .unwrap()
            .starts_with(&format!("| {} |", issue.id()))
    );
    // The row carries the finding's link, for the ticket.
    let url = issue.line_of_code_url.clone().unwrap();
    assert!(
        table.lines().next().unwrap().ends_with("| url |"),
        "{table}"
    );
    assert!(table.contains(&format!("| {url} |")), "{table}");
    h.key(KeyCode::Char(' '));
    h.key(KeyCode::Char(' '));
    h.key(KeyCode::Char(' '));
    h.key(KeyCode::Char('y'));
    let screen = h.screen();
    assert!(
        screen.contains("the 3 marked rows as a Markdown table"),
        "{screen}"
    );
    h.key(KeyCode::Char('m'));
    h.settle().await;
    let table = h.copied.last().unwrap().clone();
    assert_eq!(table.lines().count(), 5, "{table}");
    assert_eq!(
        h.app.status.as_deref(),
        Some("copied 3 rows as a Markdown table")
    );
}

/// The open criticals of one repository, newest first, from `:filter` with
/// the values the table shows; the status line says them back as typed.
#[tokio::test(flavor = "multi_thread")]
async fn command_line_filters_take_the_values_the_table_shows() {
    let mut h = Harness::new(2000, 160, 35).await;
    h.start().await;
    for command in [
        ":filter severities=critical",
        ":filter aggregateIssueStates=Open",
        ":filter repositoryNames=acme/payments-api",
        ":sort relevant-since desc",
    ] {
        h.keys(command);
        h.key(KeyCode::Enter);
        h.settle().await;
        assert!(h.app.overlay.is_none(), "{command}");
    }
    let items: Vec<_> = h
        .app
        .issues()
        .list
        .items
        .iter()
        .map(|i| i.summary().issue.unwrap())
        .collect();
    assert!(!items.is_empty());
    for i in &items {
        assert_eq!(i.severity, Some(findings_model::Severity::Critical));
        assert_eq!(
            i.aggregate_state,
            Some(findings_model::AggregateState::Open)
        );
        assert_eq!(i.repository_name(), "acme/payments-api");
    }
    assert!(
        items
            .windows(2)
            .all(|w| w[0].relevant_since >= w[1].relevant_since)
    );
    let screen = h.screen();
    assert!(
        screen.contains("severities=critical aggregateIssueStates=open"),
        "{screen}"
    );
    // A value that is not one: the popup names the ones to type.
    h.keys(":filter aggregateIssueStates=closed");
    h.key(KeyCode::Enter);
    assert!(matches!(h.app.overlay, Some(Overlay::Error { .. })));
    let screen = h.screen();
    assert!(screen.contains("provisionally-ignored"), "{screen}");
    assert!(!screen.contains("AGGREGATE_ISSUE_STATE"), "{screen}");
}

/// What the Issues pane sends: types at the top level, always a limit,
/// from `:filter` and the form alike.
#[tokio::test(flavor = "multi_thread")]
async fn issues_pane_sends_types_at_the_top_level_and_a_limit() {
    let recorder = common::Recorder::start();
    let mut h = Harness::with_client(recorder.client(), 120, 35, false);
    h.start().await;
    h.keys(":filter issueTypes=secrets");
    h.key(KeyCode::Enter);
    h.settle().await;
    // The form: severities, typed as the table shows them.
    h.key(KeyCode::Char('f'));
    let fields = findings_requests::filter_spec::LIST_FILTER;
    let row = fields.iter().position(|f| f.name == "severities").unwrap();
    for _ in 0..row {
        h.key(KeyCode::Down);
    }
    h.key(KeyCode::Enter);
    h.keys("High");
    h.key(KeyCode::Enter);
    for _ in row..fields.len() {
        h.key(KeyCode::Down);
    }
    h.key(KeyCode::Enter);
    h.settle().await;
    let bodies = recorder.bodies();
    assert_eq!(bodies.len(), 3, "{bodies:?}");
    assert!(bodies[0].get("issueTypes").is_none());
    for body in &bodies[1..] {
        assert_eq!(
            body["issueTypes"],
            serde_json::json!(["ISSUE_TYPE_SECRETS"])
        );
    }
    assert_eq!(
        bodies[2]["filter"],
        serde_json::json!({"severities": ["SEVERITY_HIGH"]})
    );
    for body in &bodies {
        assert_eq!(body["limit"], serde_json::json!(100), "{body}");
        assert!(body["filter"].get("issueTypes").is_none(), "{body}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn beside_the_list_the_detail_follows_the_cursor_and_fetches_once_it_rests() {
    let mut h = Harness::new(300, 200, 50).await;
    h.start().await;
    h.key(KeyCode::Enter);
    h.settle().await;
    assert!(h.app.side_by_side());
    assert!(!h.app.detail_has_keys(), "the list keeps the keys");
    let ids: Vec<String> = h.app.issues().list.items[..4]
        .iter()
        .map(|r| r.id().to_string())
        .collect();
    assert_eq!(h.app.detail.as_ref().unwrap().issue.id(), ids[0]);
    // Three quick moves: the preview shows each at once, fetches none yet.
    let sent = h.sent;
    h.key(KeyCode::Char('j'));
    h.key(KeyCode::Char('j'));
    h.key(KeyCode::Char('j'));
    assert_eq!(h.app.issues().list.selected, 3);
    assert_eq!(h.app.detail.as_ref().unwrap().issue.id(), ids[3]);
    assert_eq!(h.sent, sent, "nothing fetched while the cursor moves");
    assert!(h.screen().contains("preview: Enter to scroll it"));
    // Resting: not yet at the first beat (100 ms); the beat after 150 ms
    // fetches the one it rests on.
    h.advance(Duration::from_millis(100));
    assert_eq!(h.sent, sent, "still moving, as far as the app knows");
    h.advance(Duration::from_millis(100));
    assert_eq!(h.sent, sent + 1);
    h.settle().await;
    assert!(h.app.enriched.contains_key(&ids[3]));
    assert!(!h.app.enriched.contains_key(&ids[1]));
    // Passing over one and back to a fetched one: nothing sent.
    h.key(KeyCode::Char('k'));
    h.key(KeyCode::Char('j'));
    h.advance(Duration::from_millis(200));
    assert_eq!(h.sent, sent + 1, "passed over, then cached");
    // Enter moves the keys into the detail: j scrolls it, the list stays.
    h.key(KeyCode::Enter);
    assert!(h.app.detail_has_keys());
    h.key(KeyCode::Char('j'));
    assert_eq!(h.app.issues().list.selected, 3);
    // Esc gives the keys back; Esc again closes the preview.
    h.key(KeyCode::Esc);
    assert!(!h.app.detail_has_keys() && h.app.detail.is_some());
    h.key(KeyCode::Esc);
    assert!(h.app.detail.is_none());
}
