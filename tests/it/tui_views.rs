//! Views from inside the app: `:save NAME` writes the Issues pane's
//! filters and sort into the config file, which `:view NAME` then applies;
//! the Report's selectors come back on the next start.

use crate::common::Harness;
use crossterm::event::KeyCode;
use findings_model::{Severity, SortBy, SortDirection};
use findings_tui::app::Overlay;
use std::path::Path;

async fn run(h: &mut Harness, command: &str) {
    h.keys(&format!(":{command}"));
    h.key(KeyCode::Enter);
    h.settle().await;
}

const CONFIG: &str = "# my findings setup\n\
    default_profile = \"work\" # the usual\n\
    \n\
    [profiles.work]\n\
    # keep this comment\n\
    page_size = 100\n";

#[tokio::test(flavor = "multi_thread")]
async fn save_writes_a_view_that_view_then_applies() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    std::fs::write(&path, CONFIG).unwrap();
    let mut h = Harness::new(300, 120, 40).await;
    h.app.issues_mut().config_file = Some(path.clone());
    h.app.issues_mut().profile = Some("work".into());
    h.start().await;
    run(&mut h, "filter severities=critical,high").await;
    run(&mut h, "sort repo asc").await;
    run(&mut h, "save urgent").await;
    let status = h.app.status.clone().unwrap_or_default();
    assert!(
        status.contains("saved view urgent as [profiles.work.views.urgent] in")
            && status.contains(&path.display().to_string()),
        "{status}"
    );
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.starts_with(CONFIG),
        "comments and layout kept:\n{text}"
    );
    let file = findings_config::parse(&path, &text).unwrap();
    let saved = &file.profiles["work"].views["urgent"];
    assert_eq!(
        saved.filters,
        vec!["severities=critical", "severities=high"]
    );
    assert_eq!(saved.sort_by, Some(SortBy::Repo));
    // Cleared, then the view brings both back.
    run(&mut h, "clear").await;
    run(&mut h, "sort severity desc").await;
    assert!(h.app.issues().selection.filter.severities.is_empty());
    run(&mut h, "view urgent").await;
    let issues = h.app.issues();
    assert_eq!(
        issues.selection.filter.severities,
        vec![Severity::Critical, Severity::High]
    );
    assert_eq!(issues.sort_by, Some(SortBy::Repo));
    assert_eq!(issues.sort_direction, Some(SortDirection::Asc));
    assert!(h.app.overlay.is_none());
}

#[tokio::test(flavor = "multi_thread")]
async fn save_refuses_a_file_it_cannot_parse() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    std::fs::write(&path, "[views\nbroken").unwrap();
    let mut h = Harness::new(300, 120, 40).await;
    h.app.issues_mut().config_file = Some(path.clone());
    h.start().await;
    run(&mut h, "filter severities=critical").await;
    run(&mut h, "save crit").await;
    assert!(matches!(h.app.overlay, Some(Overlay::Error { .. })));
    assert!(h.screen().contains("cannot be parsed"), "{}", h.screen());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "[views\nbroken");
    assert!(!Path::new(&path.with_extension("toml.tmp")).exists());
}

#[tokio::test(flavor = "multi_thread")]
async fn report_selectors_come_back_on_a_new_app() {
    use findings_tui::app::App;
    use findings_tui::keymap::Keymap;
    use findings_tui::state::remembered::{ProfileStore, ReportSelectors};
    use findings_tui::theme::Theme;
    let dir = tempfile::tempdir().unwrap();
    let report = findings_tui::panes::report::ID;
    let store = ProfileStore::pane(dir.path(), "work", report);
    assert!(
        store.path.ends_with("report.json"),
        "the Report's file keeps its name"
    );
    // A damaged file is reported and then replaced.
    std::fs::write(&store.path, "{ damaged").unwrap();
    assert!(store.load::<ReportSelectors>().is_err());
    let mut h = Harness::new(300, 120, 40).await;
    h.app.session.remember_in = Some((dir.path().to_owned(), "work".to_owned()));
    h.start().await;
    h.key(KeyCode::Char('1'));
    h.settle().await;
    assert_eq!(h.app.pane, findings_tui::panes::report::ID);
    for key in ['p', 'b', 'x', 'C', 'H', 'c'] {
        h.key(KeyCode::Char(key));
        h.settle().await;
    }
    h.key(KeyCode::Char('/'));
    h.keys("acme/payments-api");
    h.key(KeyCode::Enter);
    h.settle().await;
    let chosen = h.app.report().selectors();
    assert!(
        chosen.period_days.is_some()
            && chosen.bucket.is_some()
            && chosen.state.is_some()
            && chosen.types.len() == 1
            && chosen.severities.len() == 2
            && chosen.projects == ["acme/payments-api"],
        "{chosen:?}"
    );
    findings_tui::remember(&h.app).unwrap();
    // The next start under the profile: the same selectors, and the first
    // query asks for them.
    let mut session = h.app.session.clone();
    let kept: serde_json::Value = store.load().unwrap().expect("the selectors were kept");
    session.remembered.insert(report.0.to_owned(), kept);
    let app = App::new(
        session,
        Keymap::default_keymap(),
        Theme::no_color(),
        (120, 40),
    );
    assert_eq!(app.report().selectors(), chosen);
    let request = app.report().request(None);
    let filters = request.filters.unwrap_or_default();
    assert_eq!(filters.projects, vec!["acme/payments-api"]);
    assert_eq!(filters.finding_severities.len(), 2);
    // Unchanged on that run, nothing is written again.
    std::fs::remove_file(&store.path).unwrap();
    findings_tui::remember(&app).unwrap();
    assert!(
        !store.path.exists(),
        "selectors that did not change are not written"
    );
}

/// The Report's dashboard views against the demo server: the figures on
/// screen are what a direct call of each report with the pane's filters
/// returns, and the worst repository's count is what the Issues pane
/// counts once `Enter` narrows it.
#[tokio::test(flavor = "multi_thread")]
async fn the_dashboard_views_show_what_the_reports_answer() {
    use findings_model::{BySeverity, GetReportRequest};
    let mut h = Harness::new(600, 120, 40).await;
    h.start().await;
    h.key(KeyCode::Char('1'));
    h.settle().await;
    h.key(KeyCode::Char('d'));
    h.quiesce().await;
    let req = GetReportRequest {
        filters: Some(h.app.report().dashboard_filters()),
    };
    let client = crate::common::client_for(h.server());
    let activity = client.activity_report(&req).await.unwrap();
    // All time: the rows added up, with no period before to compare with.
    let sums = activity.row_sums();
    let screen = h.screen();
    let thousands = findings_base::text::thousands;
    assert!(
        screen.contains(&format!(
            "the rows added up: opened {} · fixed {}",
            thousands(sums.opened),
            thousands(sums.fixed)
        )),
        "{screen}"
    );
    assert!(
        screen.contains(&format!("net {}", thousands(sums.net))),
        "{screen}"
    );
    // The backlog trend: each bucket's open findings as the report has
    // them, the latest marked, with its change since the bucket before.
    h.key(KeyCode::Char('d'));
    h.quiesce().await;
    let backlog = client.backlog_by_severity_report(&req).await.unwrap();
    let screen = h.screen();
    let n = backlog.buckets.len();
    assert!(n >= 2, "{backlog:?}");
    let (last, before) = (&backlog.buckets[n - 1], &backlog.buckets[n - 2]);
    let day = last.time_period.as_ref().and_then(|p| p.since).unwrap();
    let row = screen
        .lines()
        .find(|l| l.contains(&day.format("%Y-%m-%d").to_string()))
        .unwrap_or_default();
    assert!(row.starts_with('›'), "the latest marked: {row}\n{screen}");
    let change = last.counts.total() - before.counts.total();
    assert!(
        row.contains(&format!(
            " {}  crit {}",
            thousands(last.counts.total()),
            last.counts.critical.unwrap_or(0)
        )) && row.ends_with(&format!(
            "{}{}",
            if change > 0 { "+" } else { "" },
            thousands(change)
        )),
        "{row}\n{screen}"
    );
    // Repositories: the worst first, as the report has it.
    h.key(KeyCode::Char('d'));
    h.quiesce().await;
    let by_project = client.by_project_report(&req).await.unwrap();
    let (worst, counts): (&String, &BySeverity) = by_project
        .by_project
        .iter()
        .max_by_key(|(name, c)| (c.most_severe_first(), std::cmp::Reverse((*name).clone())))
        .unwrap();
    let screen = h.screen();
    let first = screen
        .lines()
        .find(|l| l.contains("crit "))
        .unwrap_or_default()
        .to_owned();
    assert!(first.contains(worst.as_str()), "{first}\n{screen}");
    // Enter: the Issues pane lists its open findings, as many as counted.
    h.key(KeyCode::Enter);
    h.settle().await;
    assert_eq!(h.app.pane, findings_tui::panes::issues::ID);
    let issues_counted = h
        .app
        .issues()
        .counts
        .known_for(&h.app.issues().selection)
        .map(|c| c.listed());
    // The report counts archived projects too; the list leaves them out.
    let archived = h
        .app
        .issues()
        .counts
        .known_for(&h.app.issues().selection)
        .and_then(|c| c.archived)
        .unwrap_or(0);
    assert_eq!(
        issues_counted.map(|n| n + archived),
        Some(counts.total()),
        "{}",
        h.screen()
    );
}

/// Each tab carries its filter's count, as its pane says it: the Issues
/// list's "N match", the Report's All, the Agentic search's published
/// count; narrowing the Issues list changes its tab.
#[tokio::test(flavor = "multi_thread")]
async fn the_tabs_carry_the_counts_their_panes_show() {
    let mut h = Harness::new(600, 120, 40).await;
    h.start().await;
    h.key(KeyCode::Char('2'));
    h.quiesce().await;
    let client = crate::common::client_for(h.server());
    let agentic = client.count_issues(None).await.unwrap().count.unwrap();
    let listed = |h: &Harness| {
        h.app
            .issues()
            .counts
            .known_for(&h.app.issues().selection)
            .map(|c| c.listed())
            .unwrap()
    };
    let all = listed(&h);
    let screen = h.screen();
    let header = screen.lines().next().unwrap().to_owned();
    assert!(
        header.contains(&format!("2 Issues {} ", thousands(all))),
        "{header}"
    );
    assert!(
        screen.contains(&format!("{} match", thousands(all))),
        "{screen}"
    );
    assert!(
        header.contains(&format!("3 Agentic {agentic} ")),
        "{header}"
    );
    // The Report's All.
    h.key(KeyCode::Char('1'));
    h.quiesce().await;
    let report_all = h.app.report().current_totals().and_then(|t| t.all).unwrap();
    let screen = h.screen();
    assert!(
        screen
            .lines()
            .next()
            .unwrap()
            .contains(&format!("1 Report {} ", thousands(report_all))),
        "{screen}"
    );
    assert!(
        screen.contains(&format!("By severity (all {})", thousands(report_all))),
        "{screen}"
    );
    // Narrowed to criticals, the Issues tab counts them.
    h.key(KeyCode::Char('2'));
    run(&mut h, "filter severities=critical").await;
    h.quiesce().await;
    let critical = listed(&h);
    assert!(critical < all);
    let header = h.screen().lines().next().unwrap().to_owned();
    assert!(
        header.contains(&format!("2 Issues {} ", thousands(critical))),
        "{header}"
    );
}

/// At 80×24 a dashboard view shows the rows that fit and scrolls to the
/// rest: the activity opens on its latest bucket, `k` goes back to the
/// first, and the title says which rows show.
#[tokio::test(flavor = "multi_thread")]
async fn a_dashboard_view_scrolls_to_the_rows_that_do_not_fit() {
    use findings_model::GetReportRequest;
    let mut h = Harness::anchored(600, 80, 24).await;
    h.start().await;
    h.key(KeyCode::Char('1'));
    h.key(KeyCode::Char('d'));
    h.quiesce().await;
    let req = GetReportRequest {
        filters: Some(h.app.report().dashboard_filters()),
    };
    let client = crate::common::client_for(h.server());
    let buckets = client.activity_report(&req).await.unwrap().buckets;
    let day = |i: usize| {
        buckets[i]
            .time_period
            .as_ref()
            .and_then(|p| p.since)
            .unwrap()
            .format(" %Y-%m-%d  opn")
            .to_string()
    };
    let (first, last) = (day(0), day(buckets.len() - 1));
    let n = buckets.len();
    let screen = h.screen();
    assert!(
        screen.contains(&last) && !screen.contains(&first),
        "{screen}"
    );
    assert!(screen.contains(&format!(" of {n} ")), "{screen}");
    for _ in 0..n {
        h.key(KeyCode::Char('k'));
    }
    let screen = h.screen();
    assert!(
        screen.contains(&first) && !screen.contains(&last),
        "{screen}"
    );
    assert!(screen.contains("Activity 1–"), "{screen}");
    // The findings table did not move: the keys were the view's.
    assert_eq!(h.app.report().list.selected, 0);
}

fn thousands(n: i64) -> String {
    findings_base::text::thousands(n)
}

/// `?` in a view of the dashboard's reports lists what its keys do there
/// first: moving in its rows (the one marked ›), Enter on a list's entry.
#[tokio::test(flavor = "multi_thread")]
async fn help_in_a_report_view_says_what_its_keys_do_there() {
    let mut h = Harness::anchored(300, 120, 40).await;
    h.start().await;
    h.key(KeyCode::Char('1'));
    h.keys("dddd");
    h.quiesce().await;
    assert_eq!(
        h.app.report().dashboard.block,
        findings_tui::panes::report::dashboard::Block::Rules
    );
    let view = h.screen();
    assert!(
        view.lines().any(|l| l.starts_with('›')),
        "a row marked: {view}"
    );
    h.keys("?");
    let help = h.screen();
    assert!(help.contains("In the rules view"), "{help}");
    assert!(
        help.contains("Move in the rules: the row marked ›"),
        "{help}"
    );
    assert!(
        help.contains("The open findings of the marked rule"),
        "{help}"
    );
    // Elsewhere, no such section.
    h.key(KeyCode::Esc);
    h.key(KeyCode::Char('2'));
    h.keys("?");
    assert!(!h.screen().contains("In the "), "{}", h.screen());
}

/// With a period, the top charts count the whole backlog at the period's
/// end (from the report operations, never the pages loaded), and beside
/// it what the period opened, each titled with its basis.
#[tokio::test(flavor = "multi_thread")]
async fn the_top_charts_of_a_period_come_from_the_reports_and_say_their_basis() {
    let mut h = Harness::anchored(2000, 140, 40).await;
    h.start().await;
    h.key(KeyCode::Char('1'));
    h.keys("pp");
    h.quiesce().await;
    let screen = h.screen();
    assert!(!screen.contains("loaded)"), "{screen}");
    let report = h.app.report();
    let open = report
        .dashboard
        .top_of(findings_tui::panes::report::dashboard::Block::Rules)
        .expect("the backlog by rule answered")
        .open;
    let opened = report
        .dashboard
        .opened()
        .expect("the opened counted")
        .totals();
    let (end, end_short) = (report.end_day(false), report.end_day(true));
    // The long title where it fits, else a shorter one, the basis in all.
    let at_end = [
        format!("Top rules · open at {end}: {}", thousands(open)),
        format!("Top rules · open at {end}"),
        format!("Top rules · open at {end_short}"),
    ];
    assert!(
        at_end.iter().any(|t| screen.contains(t.as_str())),
        "{at_end:?}\n{screen}"
    );
    let opened_titles = [
        format!(
            "Top rules · opened in last 30 days (still open {} of {})",
            thousands(opened.still_open as i64),
            thousands(opened.opened as i64)
        ),
        format!(
            "Top rules · opened 30d ({} of {} open)",
            thousands(opened.still_open as i64),
            thousands(opened.opened as i64)
        ),
        "Top rules · opened in last 30 days".to_owned(),
        "Top rules · opened 30d".to_owned(),
    ];
    assert!(
        opened_titles.iter().any(|t| screen.contains(t.as_str())),
        "{opened_titles:?}\n{screen}"
    );
    // Supply-chain rules by their advisory and package, as the list's
    // RULE column names them (their ids say nothing).
    assert!(screen.contains("use-of-md5"), "{screen}");
    assert!(screen.contains("CVE-2021-44228 org."), "{screen}");
    assert!(!screen.contains("ssc-"), "{screen}");
    // At 80 columns the titles are never cut: the counts and dates give
    // way first, the basis stays.
    let narrow = h.screen_at(80, 24);
    assert!(narrow.contains("Top rules · opened 30d"), "{narrow}");
    assert!(
        narrow.contains(&format!("Top rules · open at {end_short}")),
        "{narrow}"
    );
    assert!(!narrow.contains("open a…"), "{narrow}");
}
