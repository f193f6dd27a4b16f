//! Counts a security team can trust, through the real app, worker, client
//! and demo server: the Issues pane says how many findings its filter
//! matches by state and how many archived projects hold, its title the
//! count and the filters (at 80 columns too); the Report says what its
//! number covers and whether the Issues list has the same; `Esc` during a
//! slow page says the load stopped, naming its key.

use crate::common::{self, Harness};
use crate::published;
use crossterm::event::KeyCode;
use findings_demo::faults::{FaultKind, Faults};
use findings_model::*;
use findings_tui::panes::report::MAX_BUCKETS;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

fn command(h: &mut Harness, line: &str) {
    h.key(KeyCode::Char(':'));
    for c in line.chars() {
        h.key(KeyCode::Char(c));
    }
    h.key(KeyCode::Enter);
}

/// Counts the Get issue counts requests the server answers (each exchange
/// checked against the published schemas).
fn count_requests(h: &Harness) -> Arc<AtomicUsize> {
    let n = Arc::new(AtomicUsize::new(0));
    let seen = n.clone();
    h.server()
        .observe(Some(Arc::new(move |ex: &findings_demo::tap::Exchange| {
            if let Err(e) = published::published().check_exchange(ex) {
                published::VIOLATIONS.lock().unwrap().push(e);
            }
            if ex.route.ends_with("/issue_counts") {
                seen.fetch_add(1, Ordering::SeqCst);
            }
        })));
    n
}

/// What the server counts for `selection`, asked directly, the unknown
/// state counted as the app counts it.
async fn counted(h: &Harness, selection: &ListSelection) -> GetIssueCountsResponse {
    findings_client::issue_counts_listed(
        &common::client_for(h.server()),
        &GetIssueCountsRequest {
            issue_types: selection.issue_types.clone(),
            filter: Some(selection.filter.clone()),
            ..Default::default()
        },
    )
    .await
    .expect("counts")
}

fn critical() -> ListSelection {
    let mut s = ListSelection::default();
    s.filter.severities = vec![Severity::Critical];
    s
}

#[tokio::test(flavor = "multi_thread")]
async fn the_issues_pane_counts_its_filter_by_state_and_names_the_archived() {
    let mut h = Harness::quick(2000, 100, 30, Duration::from_secs(10)).await;
    let asked = count_requests(&h);
    h.start().await;
    command(&mut h, "filter severities=critical");
    h.quiesce().await;
    assert_eq!(asked.load(Ordering::SeqCst), 2, "the start and the filter");
    // A new sort is not a new filter: not counted again.
    h.keys("s");
    h.quiesce().await;
    assert_eq!(asked.load(Ordering::SeqCst), 2);
    let c = counted(&h, &critical()).await;
    let (listed, archived) = (c.listed(), c.archived.unwrap());
    assert!(listed > 100 && archived > 0, "{c:?}");
    let screen = h.screen();
    let by_state = format!("{listed} match: open {}", c.open.unwrap());
    assert!(screen.contains(&by_state), "{by_state}\n{screen}");
    assert!(
        screen.contains(&format!(
            "{archived} in archived projects not listed: :filter includeArchived=true"
        )),
        "{screen}"
    );
    // The title: loaded of matching, and that it is filtered.
    assert!(
        screen.contains(&format!(
            "Issues 100/{listed} · filtered: severities=critical"
        )),
        "{screen}"
    );

    // The archived projects' findings, as the line says.
    command(&mut h, "filter includeArchived=true");
    h.settle().await;
    let screen = h.screen();
    let mut only_archived = critical();
    only_archived.filter.include_archived = Some(true);
    let theirs = counted(&h, &only_archived).await;
    // Of the archived (the unknown state has no count of its own).
    assert!(theirs.listed() > 0 && theirs.listed() <= archived);
    assert!(
        screen.contains(&format!("{} match", theirs.listed())),
        "{screen}"
    );
    assert!(screen.contains("archived projects only"), "{screen}");
    command(&mut h, "filter includeArchived=");
    h.settle().await;

    // A triage moves a finding between states: counted again.
    let open = h
        .app
        .issues()
        .list
        .items
        .iter()
        .position(|r| {
            let i = r.summary().issue;
            i.is_some_and(|i| {
                i.aggregate_state == Some(AggregateState::Open)
                    && i.triage_permission != Some(TriagePermission::None)
            })
        })
        .expect("an open finding that may be triaged");
    for _ in 0..open {
        h.key(KeyCode::Char('j'));
    }
    let before = asked.load(Ordering::SeqCst);
    command(&mut h, "triage reviewing looking into it");
    h.settle().await;
    h.keys("y");
    h.quiesce().await;
    assert_eq!(asked.load(Ordering::SeqCst), before + 1, "counted again");
    let after = counted(&h, &critical()).await;
    assert_eq!(after.open.unwrap(), c.open.unwrap() - 1);
    assert_eq!(after.reviewing.unwrap(), c.reviewing.unwrap() + 1);
    let screen = h.screen();
    let by_state = format!(
        "{listed} match: open {} · reviewing {}",
        after.open.unwrap(),
        after.reviewing.unwrap()
    );
    assert!(screen.contains(&by_state), "{by_state}\n{screen}");
    published::assert_no_violations();
}

#[tokio::test(flavor = "multi_thread")]
async fn the_report_and_the_issues_list_agree_or_say_why() {
    let mut h = Harness::new(2000, 100, 30).await;
    h.start().await;
    // Report: total-open, all time, critical.
    h.keys("1");
    h.settle().await;
    h.keys("C");
    h.settle().await;
    let report_total = h.app.report().current_totals().unwrap().all.unwrap();
    let mut open_critical = critical();
    open_critical.filter.aggregate_issue_states = vec![
        AggregateState::Open,
        AggregateState::Reviewing,
        AggregateState::Fixing,
    ];
    let c = counted(&h, &open_critical).await;
    let (listed, archived) = (c.listed(), c.archived.unwrap());
    assert_eq!(
        report_total,
        listed + archived,
        "the demo's report counts both"
    );
    let screen = h.screen();
    assert!(
        screen.contains("total-open: findings open, reviewing or fixing now, created at any time"),
        "{screen}"
    );
    assert!(
        screen.contains(&format!(
            "{report_total} = {listed} in the Issues list + {archived} in archived projects, which it leaves out"
        )),
        "{screen}"
    );
    // The Issues list with that filter: the number the Report names.
    h.keys("2");
    command(&mut h, "filter severities=critical");
    h.settle().await;
    command(&mut h, "filter aggregateIssueStates=open,reviewing,fixing");
    h.settle().await;
    while !h.app.issues().list.complete {
        h.key(KeyCode::Char('G'));
        h.settle().await;
    }
    assert_eq!(h.app.issues().list.items.len() as i64, listed);
    assert!(
        h.screen().contains(&format!("Issues {listed} · filtered")),
        "{}",
        h.screen()
    );
    // A period bounds creation time, which the list cannot: said so.
    h.keys("1");
    h.keys("p");
    h.settle().await;
    assert!(
        h.screen()
            .contains("not comparable with the Issues list: it bounds relevant-since"),
        "{}",
        h.screen()
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn each_report_type_is_described_and_the_trend_counts_what_it_counts() {
    let mut h = Harness::new(2000, 120, 35).await;
    h.start().await;
    h.keys("1");
    h.settle().await;
    for t in ReportType::ALL {
        let screen = h.screen();
        assert_eq!(h.app.report().report_type, *t);
        assert!(
            screen.contains(&format!("{}: findings ", t.label())),
            "{}\n{screen}",
            t.label()
        );
        h.keys("v");
        h.settle().await;
    }
    // The open backlog of the last 7 days, by month: findings created
    // before the period, so its buckets end where the period starts (not
    // one bucket holding the start), and the trend's maximum is that of
    // the columns drawn.
    while h.app.report().report_type != ReportType::OpenBacklog {
        h.keys("v");
        h.settle().await;
    }
    h.keys("p");
    h.settle().await;
    h.keys("bbb");
    h.settle().await;
    let report = h.app.report();
    assert_eq!(report.counts.buckets.len(), MAX_BUCKETS);
    let since = report.since.expect("a period");
    assert!(
        report
            .counts
            .buckets
            .iter()
            .all(|(start, _)| *start <= since),
        "{:?} after {since}",
        report.counts.buckets
    );
    let trend = report.counts.trend().expect("counted");
    let max = trend.iter().map(|(_, n)| *n).max().unwrap();
    assert!(max > 0, "{trend:?}");
    let screen = h.screen();
    assert!(
        screen.contains(&format!("Created per month (max {max})")),
        "{screen}"
    );
    assert!(screen.contains("created before"), "{screen}");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_filters_show_at_80_columns_with_what_does_not_fit_counted() {
    let mut h = Harness::new(2000, 80, 24).await;
    h.start().await;
    command(&mut h, "filter severities=critical,high");
    h.settle().await;
    command(&mut h, "filter aggregateIssueStates=open,reviewing,fixing");
    h.settle().await;
    command(&mut h, "filter issueTypes=sca,secrets");
    h.settle().await;
    let screen = h.screen();
    let title = screen
        .lines()
        .find(|l| l.starts_with('┌'))
        .expect("the table's top border");
    assert!(title.contains("· filtered: "), "{screen}");
    assert!(title.contains("issueTypes=sca,secrets"), "{title}");
    assert!(title.contains("+2 more"), "{title}");
    // The counts of the filter above it.
    assert!(screen.contains(" match: "), "{screen}");
}

#[tokio::test(flavor = "multi_thread")]
async fn esc_during_a_slow_page_stops_the_load_and_names_its_key() {
    let mut h = Harness::quick(2000, 100, 30, Duration::from_secs(10)).await;
    h.start().await;
    // The next page never comes.
    h.server().set_faults(Faults {
        kind: Some(FaultKind::Hang),
        only_with_cursor: true,
        ..Faults::none()
    });
    h.key(KeyCode::Char('G'));
    assert!(h.app.is_loading());
    h.key(KeyCode::Esc);
    assert!(!h.app.is_loading(), "nothing loads any more");
    let screen = h.screen();
    let status = screen.lines().last().unwrap();
    assert!(
        status.starts_with(
            "request cancelled │ 100 loaded · stopped by Esc: moving on loads more, r reloads"
        ),
        "{status}"
    );
    assert!(!screen.contains("(unbound)"), "{screen}");
    assert!(
        screen.contains("stopped by Esc: moving on loads more, r reloads"),
        "{screen}"
    );
}

/// How many items `findings issues --all ARGS` prints (NDJSON, one a line).
async fn listed_headless(h: &Harness, args: &[&str]) -> usize {
    let mut all = vec!["issues", "--all", "--format", "ndjson"];
    all.extend_from_slice(args);
    let out = common::run_at_anchor(h.server().url(), &all).await;
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).lines().count()
}

/// "N match", the tab's count and the states count what the list shows,
/// the unknown state named, at 60, 80 and 100 columns, before anything
/// more than the first page is loaded: as many as the headless listing
/// prints; and the unknown state alone is counted too.
#[tokio::test(flavor = "multi_thread")]
async fn the_counts_count_every_state_the_list_shows_at_every_width() {
    for width in [60, 80, 100] {
        let mut h = Harness::quick(2000, width, 30, Duration::from_secs(10)).await;
        h.start().await;
        h.quiesce().await;
        let listed = listed_headless(&h, &[]).await;
        let unknown = listed_headless(&h, &["--state", "unknown"]).await;
        assert!(unknown > 0, "the demo has findings in the unknown state");
        let screen = h.screen();
        let n = findings_base::text::thousands(listed as i64);
        assert!(
            screen.contains(&format!("{n} match: open ")),
            "{width}: {screen}"
        );
        assert!(
            screen.contains(&format!(
                "unknown {}",
                findings_base::text::thousands(unknown as i64)
            )),
            "{width}: {screen}"
        );
        assert!(
            screen.contains(&format!("Issues 100/{n}")),
            "{width}: {screen}"
        );
        use findings_tui::pane::Pane;
        assert_eq!(h.app.issues().tab_count(), Some(listed as i64), "the tab's");
        if width >= 80 {
            assert!(
                screen.contains(&format!("2 Issues {n}")),
                "{width}: {screen}"
            );
        }
        assert!(!screen.contains("no count names"), "{width}: {screen}");
        // Everything loaded: the list holds as many.
        h.key(KeyCode::Char('G'));
        h.settle().await;
        assert_eq!(h.app.issues().list.items.len(), listed, "{width}");
        // The unknown state alone: counted, not `0 match`.
        command(&mut h, "filter aggregateIssueStates=unknown");
        // Everything loaded: asked first whether to drop it.
        h.keys("y");
        h.settle().await;
        h.quiesce().await;
        let screen = h.screen();
        assert!(
            screen.contains(&format!("{unknown} match: unknown {unknown}")),
            "{width}: {screen}"
        );
        assert_eq!(h.app.issues().list.items.len(), unknown.min(100));
    }
}
