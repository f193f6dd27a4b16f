use super::dashboard::Block;
use super::*;
use crate::app::{App, Session};
use crate::keymap::Keymap;
use crate::message::{AppEvent, Then};
use crate::pane::Pane;
use crate::pane::testing::Drive;
use crate::theme::Theme;
use findings_client::ApiError;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

mod counts;
mod dashboard;
mod new_since;
mod opened;
mod repo_filter;

/// The report requests sent, with their ids, of `limit` `limit`.
fn sent_of(outbox: &Outbox, limit: i64) -> Vec<(RequestId, ReportRequest)> {
    outbox
        .requests()
        .into_iter()
        .filter_map(|(id, r)| match r {
            ApiRequest::Report(r) if r.limit == Some(limit) => Some((id, r.clone())),
            _ => None,
        })
        .collect()
}

/// The requests for pages of findings sent, with their ids.
pub(super) fn sent(outbox: &Outbox) -> Vec<(RequestId, ReportRequest)> {
    sent_of(outbox, DEFAULT_PAGE_SIZE)
}

/// The count requests (`limit` 1) sent, with their ids.
pub(super) fn counts_sent(outbox: &Outbox) -> Vec<(RequestId, ReportRequest)> {
    sent_of(outbox, 1)
}

pub(super) fn cancelled(outbox: &Outbox) -> Vec<RequestId> {
    outbox.cancelled()
}

pub(super) fn last_request(outbox: &Outbox) -> ReportRequest {
    sent(outbox).pop().expect("a report request was sent").1
}

pub(super) fn last_id(outbox: &Outbox) -> RequestId {
    sent(outbox).pop().expect("a report request was sent").0
}

pub(super) fn finding(n: usize, sev: Severity, ty: IssueType, rule: &str, repo: &str) -> Issue {
    Issue {
        id: Some(format!("f{n}")),
        severity: Some(sev),
        issue_type: Some(ty),
        rule_id: Some(rule.to_owned()),
        repository: Some(Repository {
            name: Some(repo.to_owned()),
            ..Default::default()
        }),
        file_path: Some(format!("src/file{n}.rs")),
        line: Some(i64::try_from(n).unwrap() + 1),
        aggregate_state: Some(AggregateState::Open),
        line_of_code_url: Some(format!("https://example.test/f{n}")),
        ..Default::default()
    }
}

pub(super) fn page(range: std::ops::Range<usize>, cursor: Option<&str>) -> ReportResponse {
    ReportResponse {
        findings: range
            .map(|n| {
                let sev = [Severity::Critical, Severity::High, Severity::Low][n % 3].clone();
                let ty = [IssueType::Sast, IssueType::Sca, IssueType::Secrets][n % 3].clone();
                finding(
                    n,
                    sev,
                    ty,
                    &format!("rule-{}", n % 7),
                    &format!("repo-{}", n % 4),
                )
            })
            .collect(),
        cursor: cursor.map(str::to_owned),
        total: Some(2345),
        total_code: Some(1200),
        total_sca: Some(845),
        total_secrets: Some(300),
    }
}

pub(super) fn reply(
    pane: &mut ReportPane,
    id: RequestId,
    resp: ReportResponse,
    outbox: &mut Outbox,
) {
    pane.reply(id, Ok(ApiResponse::Report(resp)), outbox);
}

/// An activated pane whose first page has arrived.
pub(super) fn loaded(outbox: &mut Outbox) -> ReportPane {
    let mut pane = ReportPane::default();
    pane.start(outbox);
    let id = last_id(outbox);
    reply(&mut pane, id, page(0..100, Some("c1")), outbox);
    pane
}

#[test]
fn activation_requests_the_first_page_once_with_the_defaults() {
    let mut outbox = Outbox::default();
    let mut pane = ReportPane::default();
    pane.start(&mut outbox);
    pane.start(&mut outbox);
    let reqs = sent(&outbox);
    assert_eq!(reqs.len(), 1, "activate loads only the first time");
    assert_eq!(
        counts_sent(&outbox).len(),
        4,
        "and counts the four severities"
    );
    let r = &reqs[0].1;
    assert_eq!(r.report_type, Some(ReportType::TotalOpen));
    assert_eq!(r.limit, Some(100));
    assert_eq!(r.cursor, None);
    assert_eq!(r.filters, None, "nothing toggled: no filter");
    assert_eq!(r.finding_state, None);
    assert!(pane.is_loading());
    let json = serde_json::to_value(r).unwrap();
    assert_eq!(json["reportType"], "REPORT_TYPE_TOTAL_OPEN");
}

#[test]
fn each_selector_and_toggle_shapes_the_request() {
    let mut outbox = Outbox::default();
    let mut pane = ReportPane::default();
    pane.start(&mut outbox);

    pane.act(Action::CycleReportType, 20, &mut outbox);
    assert_eq!(
        last_request(&outbox).report_type,
        Some(ReportType::TotalFixed)
    );
    for _ in 1..ReportType::ALL.len() {
        pane.act(Action::CycleReportType, 20, &mut outbox);
    }
    assert_eq!(
        last_request(&outbox).report_type,
        Some(ReportType::TotalOpen),
        "the report type wraps around"
    );

    pane.act(Action::ToggleCode, 20, &mut outbox);
    pane.act(Action::ToggleSecrets, 20, &mut outbox);
    let f = last_request(&outbox).filters.unwrap();
    assert_eq!(
        f.finding_types,
        vec![FindingType::Code, FindingType::Secrets]
    );
    let json = serde_json::to_value(last_request(&outbox)).unwrap();
    assert_eq!(
        json["filters"]["findingTypes"],
        serde_json::json!(["FINDING_TYPE_CODE", "FINDING_TYPE_SECRETS"])
    );
    pane.act(Action::ToggleSca, 20, &mut outbox);
    pane.act(Action::ToggleCode, 20, &mut outbox);
    assert_eq!(
        last_request(&outbox).filters.unwrap().finding_types,
        vec![FindingType::Sca, FindingType::Secrets]
    );
    pane.act(Action::ToggleSca, 20, &mut outbox);
    pane.act(Action::ToggleSecrets, 20, &mut outbox);
    assert_eq!(last_request(&outbox).filters, None, "all off: no filter");

    for action in [
        Action::ToggleCritical,
        Action::ToggleHigh,
        Action::ToggleMedium,
        Action::ToggleLow,
    ] {
        pane.act(action, 20, &mut outbox);
    }
    pane.act(Action::ToggleMedium, 20, &mut outbox);
    let json = serde_json::to_value(last_request(&outbox)).unwrap();
    assert_eq!(
        json["filters"]["findingSeverities"],
        serde_json::json!([
            "FINDING_SEVERITY_CRITICAL",
            "FINDING_SEVERITY_HIGH",
            "FINDING_SEVERITY_LOW"
        ])
    );
    assert_eq!(pane.severities_label(), "critical,high,low");
    for action in [
        Action::ToggleCritical,
        Action::ToggleHigh,
        Action::ToggleLow,
    ] {
        pane.act(action, 20, &mut outbox);
    }
    assert_eq!(last_request(&outbox).filters, None);

    // State: none → each aggregate state → none.
    let mut states = vec![];
    for _ in 0..=AggregateState::ALL.len() {
        pane.act(Action::CycleState, 20, &mut outbox);
        states.push(last_request(&outbox).finding_state);
    }
    assert_eq!(states[0], Some(AggregateState::Open));
    assert_eq!(
        states[..AggregateState::ALL.len()]
            .iter()
            .map(|s| s.clone().unwrap())
            .collect::<Vec<_>>(),
        AggregateState::ALL.to_vec()
    );
    assert_eq!(states.last().unwrap(), &None);
    pane.act(Action::CycleState, 20, &mut outbox);
    let json = serde_json::to_value(last_request(&outbox)).unwrap();
    assert_eq!(json["findingState"], "AGGREGATE_ISSUE_STATE_OPEN");
}

#[test]
fn the_period_is_counted_back_from_now() {
    let mut outbox = Outbox::default();
    let mut pane = ReportPane::default();
    pane.start(&mut outbox);
    let mut seen = vec![];
    for _ in 0..4 {
        pane.act(Action::CyclePeriod, 20, &mut outbox);
        seen.push(pane.period_days);
        let req = last_request(&outbox);
        let period = req.filters.and_then(|f| f.time_period);
        let since = period.as_ref().and_then(|p| p.since);
        match pane.period_days {
            Some(days) => {
                // Exactly the days asked (as `report --period`), to the
                // end of today, whatever the buckets.
                let period = period.expect("a period sends timePeriod");
                let (since, until) = (period.since.unwrap(), period.until.unwrap());
                assert_eq!(until - since, chrono::Duration::days(i64::from(days)));
                assert_eq!(until.time(), chrono::NaiveTime::MIN);
                let now = chrono::Utc::now();
                assert!(until > now - chrono::Duration::minutes(1));
                assert!(until - now <= chrono::Duration::days(1), "{until}");
            }
            None => assert_eq!(since, None, "all time sends no period"),
        }
    }
    assert_eq!(seen, vec![Some(7), Some(30), Some(90), None]);
    assert_eq!(pane.period_label(), "all time");

    // The next pages of a query ask for the same period.
    pane.act(Action::CyclePeriod, 20, &mut outbox);
    let first = last_request(&outbox);
    let id = last_id(&outbox);
    reply(&mut pane, id, page(0..100, Some("c1")), &mut outbox);
    pane.list.select(99);
    pane.after(20, &mut outbox);
    let next = last_request(&outbox);
    assert_eq!(next.cursor.as_deref(), Some("c1"));
    assert_eq!(next.filters, first.filters);
}

#[test]
fn a_new_selection_cancels_and_drops_the_late_reply() {
    let mut outbox = Outbox::default();
    let mut pane = ReportPane::default();
    pane.start(&mut outbox);
    let old = last_id(&outbox);
    pane.act(Action::ToggleHigh, 20, &mut outbox);
    let new = last_id(&outbox);
    assert_ne!(old, new);
    assert!(
        cancelled(&outbox).contains(&old),
        "the old request is cancelled"
    );
    assert!(pane.is_loading());

    // The old generation's reply arrives late: not taken, nothing changes.
    reply(&mut pane, old, page(0..100, Some("c1")), &mut outbox);
    assert!(pane.list.items.is_empty());
    assert!(pane.totals.is_none());
    assert!(pane.is_loading(), "still waiting for the new query");

    let mut small = page(0..3, None);
    small.total = Some(3);
    reply(&mut pane, new, small, &mut outbox);
    assert_eq!(pane.list.items.len(), 3);
    assert_eq!(pane.current_totals().unwrap().all, Some(3));
}

#[test]
fn totals_come_from_the_first_page_and_stay_while_the_next_query_loads() {
    let mut outbox = Outbox::default();
    let mut pane = loaded(&mut outbox);
    let t = pane.current_totals().cloned().unwrap();
    assert_eq!(
        t,
        Totals {
            all: Some(2345),
            code: Some(1200),
            sca: Some(845),
            secrets: Some(300)
        }
    );
    // A later page does not overwrite the totals.
    pane.list.select(99);
    pane.after(20, &mut outbox);
    let id = last_id(&outbox);
    let mut second = page(100..150, None);
    second.total = Some(1);
    reply(&mut pane, id, second, &mut outbox);
    assert_eq!(pane.current_totals().unwrap().all, Some(2345));

    // A new query: the old totals stay (not current) until new ones come.
    pane.act(Action::CycleReportType, 20, &mut outbox);
    assert!(pane.current_totals().is_none());
    assert_eq!(pane.totals.as_ref().unwrap().0.all, Some(2345));
    assert!(pane.list.items.is_empty(), "the list starts again");
    assert_eq!(pane.stats.count, 0, "the charts start again");
}

#[test]
fn a_failure_is_kept_and_reported() {
    let mut outbox = Outbox::default();
    let mut pane = ReportPane::default();
    pane.start(&mut outbox);
    let id = last_id(&outbox);
    let err = ApiError::Connection("refused".into());
    pane.reply(id, Err(err), &mut outbox);
    assert!(
        pane.list
            .loader
            .error
            .as_deref()
            .unwrap()
            .contains("refused")
    );
    assert!(
        outbox
            .events
            .iter()
            .any(|e| matches!(e, AppEvent::Error { title, .. } if title.contains("report")))
    );
    // `r` tries again from the start.
    outbox.effects.clear();
    pane.act(Action::Refresh, 20, &mut outbox);
    assert_eq!(last_request(&outbox).cursor, None);
    assert!(pane.list.loader.error.is_none());
}

#[test]
fn paging_appends_and_stops_at_the_last_page() {
    let mut outbox = Outbox::default();
    let mut pane = loaded(&mut outbox);
    assert_eq!(pane.list.items.len(), 100);
    outbox.effects.clear();

    // Far from the end: no prefetch.
    pane.after(20, &mut outbox);
    assert!(sent(&outbox).is_empty());

    // Near the end: the next page, with the cursor.
    pane.act(Action::Bottom, 20, &mut outbox);
    pane.after(20, &mut outbox);
    let reqs = sent(&outbox);
    assert_eq!(reqs.len(), 1);
    assert_eq!(reqs[0].1.cursor.as_deref(), Some("c1"));
    // Not again while it is in flight.
    pane.after(20, &mut outbox);
    assert_eq!(sent(&outbox).len(), 1);

    reply(&mut pane, reqs[0].0, page(100..130, None), &mut outbox);
    assert_eq!(pane.list.items.len(), 130);
    assert!(pane.list.complete);
    assert_eq!(pane.stats.count, 130);
    pane.act(Action::Bottom, 20, &mut outbox);
    pane.after(20, &mut outbox);
    assert_eq!(sent(&outbox).len(), 1, "the last page has arrived");
}

#[test]
fn selection_stays_in_bounds_and_enter_opens_the_detail() {
    let mut outbox = Outbox::default();
    let mut pane = loaded(&mut outbox);
    pane.act(Action::Up, 20, &mut outbox);
    assert_eq!(pane.list.selected, 0);
    let rows = pane.table_rows(Rect::new(0, 0, 100, 20 + 3));
    pane.act(Action::PageDown, 20, &mut outbox);
    assert_eq!(pane.list.selected, rows);
    pane.act(Action::HalfPageUp, 20, &mut outbox);
    assert_eq!(pane.list.selected, rows - rows / 2);
    pane.act(Action::Bottom, 20, &mut outbox);
    pane.act(Action::Down, 20, &mut outbox);
    assert_eq!(pane.list.selected, 99);
    pane.act(Action::Top, 20, &mut outbox);
    pane.act(Action::Down, 20, &mut outbox);
    pane.act(Action::Open, 20, &mut outbox);
    let opened = outbox.events.iter().find_map(|e| match e {
        AppEvent::OpenDetail(i) => Some(i.id().to_owned()),
        _ => None,
    });
    assert_eq!(opened.as_deref(), Some("f1"));
    // The link is not in the row: the finding is fetched for it.
    let fetched = |outbox: &Outbox, then: Then| {
        outbox.events.iter().any(|e| {
            matches!(e, AppEvent::Fetch(f)
                if f.one.as_deref() == Some("f1") && f.then == then && !f.items)
        })
    };
    pane.act(Action::OpenInBrowser, 20, &mut outbox);
    assert!(fetched(&outbox, Then::OpenUrl));
    pane.act(Action::Copy, 20, &mut outbox);
    assert!(fetched(&outbox, Then::CopyLink));
}

#[test]
fn a_click_selects_the_row_under_it() {
    let mut outbox = Outbox::default();
    let mut pane = loaded(&mut outbox);
    let body = Rect::new(0, 1, 120, 33);
    let rows = layout::table_rows(super::areas(body, Block::Counts, 2).list);
    pane.click(body, 10, rows.y + 3);
    assert_eq!(pane.list.selected, 3);
    pane.click(body, 10, body.y);
    assert_eq!(
        pane.list.selected, 3,
        "a click above the rows selects nothing"
    );
}

#[test]
fn top_charts_count_the_loaded_findings() {
    let mut outbox = Outbox::default();
    let pane = loaded(&mut outbox);
    let s = &pane.stats;
    assert_eq!(s.count, 100);
    assert_eq!(s.top_rules.len(), TOP);
    assert_eq!(s.top_rules[0], ("rule-0".to_owned(), 15));
    assert_eq!(s.top_projects.len(), 4);
    assert_eq!(s.top_projects[0].1, 25);
}

#[test]
fn top_rules_count_each_rule_once_and_tell_namesakes_apart() {
    let sql =
        |lang: &str| format!("{lang}.security.injection.tainted-sql-string.tainted-sql-string");
    let mut findings = Vec::new();
    for (n, rule) in [
        sql("java.spring"),
        sql("java.spring"),
        sql("java.spring"),
        sql("java.lang"),
        sql("java.lang"),
        sql("ruby.rails"),
        "python.flask.open-redirect".to_owned(),
    ]
    .iter()
    .enumerate()
    {
        findings.push(finding(n, Severity::High, IssueType::Sast, rule, "r"));
    }
    // A display name on one finding of a rule does not split the rule.
    findings[1].rule_display_name = Some("SQL injection".into());
    let mut stats = Stats::default();
    stats.add(&findings[..4]);
    stats.add(&findings[4..]);
    assert_eq!(
        stats.top_rules,
        vec![
            ("tainted-sql-string (java.spring)".to_owned(), 3),
            ("tainted-sql-string (java.lang)".to_owned(), 2),
            ("open-redirect".to_owned(), 1),
            ("tainted-sql-string (ruby)".to_owned(), 1),
        ]
    );
    // Labels with no dotted id to tell them apart show the whole id.
    assert_eq!(
        rule_labels(&[
            ("ssc-1", "SQL injection"),
            ("ssc-2", "SQL injection"),
            ("x", "y")
        ]),
        vec!["SQL injection (ssc-1)", "SQL injection (ssc-2)", "y"]
    );
    // A narrow chart cuts the name, not what tells it apart.
    assert_eq!(
        super::charts::fit_label("tainted-sql-string (java.spring)", 24),
        "tainted-s… (java.spring)"
    );
}

pub(super) fn screen(w: u16, h: u16, pane: ReportPane) -> String {
    let mut app = App::new(
        Session::default(),
        Keymap::default_keymap(),
        Theme::default(),
        (w, h),
    );
    app.pane = crate::panes::report::ID;
    *app.pane_of_mut::<ReportPane>() = pane;
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| crate::app::view::draw(f, &app)).unwrap();
    let buf = terminal.backend().buffer();
    let mut out = String::new();
    for y in 0..h {
        for x in 0..w {
            out.push_str(buf[(x, y)].symbol());
        }
        out.push('\n');
    }
    out
}

#[test]
fn the_totals_and_selectors_are_drawn() {
    for (w, h) in [(120, 35), (80, 24)] {
        let mut outbox = Outbox::default();
        let mut pane = loaded(&mut outbox);
        pane.act(Action::ToggleCritical, 20, &mut outbox);
        let id = last_id(&outbox);
        reply(&mut pane, id, page(0..40, Some("c2")), &mut outbox);
        let s = screen(w, h, pane);
        for text in [
            "All",
            "Code",
            "Supply chain",
            "Secrets",
            "2,345",
            "1,200",
            "845",
            "300",
            "total-open",
            "all time",
            "critical",
        ] {
            assert!(s.contains(text), "{w}x{h}: {text:?} missing in\n{s}");
        }
        assert!(s.contains("rule-"), "{w}x{h}: the list or the charts\n{s}");
        assert!(s.contains("40 loaded"), "{w}x{h}: the status line\n{s}");
    }
}

#[test]
fn the_previous_totals_and_an_error_are_drawn() {
    let mut outbox = Outbox::default();
    let mut pane = loaded(&mut outbox);
    pane.act(Action::CyclePeriod, 20, &mut outbox);
    let id = last_id(&outbox);
    let s = screen(120, 35, {
        let mut p = std::mem::take(&mut pane);
        p.reply(id, Err(ApiError::Connection("boom".into())), &mut outbox);
        p
    });
    assert!(s.contains("2,345"), "the previous totals stay\n{s}");
    assert!(s.contains("boom"), "the error is shown in the pane\n{s}");
    assert!(s.contains("7 days"));
}

#[test]
fn esc_cancels_the_request_in_flight() {
    let mut outbox = Outbox::default();
    let mut pane = ReportPane::default();
    pane.start(&mut outbox);
    let id = last_id(&outbox);
    let counting: Vec<RequestId> = counts_sent(&outbox).iter().map(|(id, _)| *id).collect();
    assert_eq!(counting.len(), 4);
    let sent_as = |kind: fn(&ApiRequest) -> bool| -> Vec<RequestId> {
        let sent = outbox.requests();
        sent.iter()
            .filter(|(_, r)| kind(r))
            .map(|(id, _)| *id)
            .collect()
    };
    let comparing = sent_as(|r| matches!(r, ApiRequest::IssueCounts(_)));
    assert_eq!(comparing.len(), 1, "the Issues list's count");
    let tops = sent_as(|r| matches!(r, ApiRequest::Dashboard(..)));
    assert_eq!(tops.len(), 2, "the whole set's top rules and repositories");
    pane.act(Action::Back, 20, &mut outbox);
    let mut stopped = cancelled(&outbox);
    stopped.sort_unstable();
    let mut expected = [vec![id], counting, comparing, tops].concat();
    expected.sort_unstable();
    assert_eq!(stopped, expected, "the page, the counts and the tops");
    assert!(!pane.is_loading());
    // The stopped request's late answer is not taken.
    reply(&mut pane, id, page(0..3, None), &mut outbox);
    assert!(pane.totals.is_none());
}

#[test]
fn server_text_is_drawn_safely() {
    let mut outbox = Outbox::default();
    let mut pane = ReportPane::default();
    pane.start(&mut outbox);
    let id = last_id(&outbox);
    let mut p = page(0..1, None);
    p.findings[0].rule_id = Some("evil\u{1b}[2Jrule".into());
    p.findings[0].repository = Some(Repository {
        name: Some("repo\u{7}x".into()),
        ..Default::default()
    });
    reply(&mut pane, id, p, &mut outbox);
    let s = screen(120, 35, pane);
    assert!(!s.contains('\u{1b}') && !s.contains('\u{7}'));
    assert!(s.contains("evil␛[2Jrule"), "{s}");
    assert!(s.contains("repo␇x"), "{s}");
}

#[test]
fn tiny_and_huge_screens_do_not_panic() {
    for (w, h) in [(20, 6), (21, 7), (30, 10), (40, 15), (79, 19), (250, 70)] {
        let mut outbox = Outbox::default();
        let pane = loaded(&mut outbox);
        let _ = screen(w, h, pane);
        let _ = screen(w, h, ReportPane::default());
    }
}

#[test]
fn after_a_triage_the_totals_are_asked_again_in_the_same_place() {
    use crate::message::Changed;
    use crate::pane::testing::cx;
    let mut outbox = Outbox::default();
    let mut pane = ReportPane::default();
    pane.start(&mut outbox);
    let first = sent(&outbox)[0].0;
    pane.reply(
        first,
        Ok(ApiResponse::Report(page(0..50, None))),
        &mut outbox,
    );
    for _ in 0..7 {
        pane.act(Action::Down, 20, &mut outbox);
    }
    pane.act(Action::Mark, 20, &mut outbox);
    let marked = pane.marked.len();
    assert_eq!(marked, 1);
    let selected = pane.list.selected;
    pane.changed(&Changed::Totals, &mut cx(&mut outbox, 20));
    let again = sent(&outbox).last().unwrap().0;
    assert_ne!(again, first, "the report is asked again");
    pane.reply(
        again,
        Ok(ApiResponse::Report(page(0..50, None))),
        &mut outbox,
    );
    assert_eq!(pane.list.selected, selected, "the place is kept");
    assert_eq!(pane.marked.len(), marked, "and the marks");
}
