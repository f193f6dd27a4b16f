//! The charts of the whole set (counts by severity, the trend by bucket),
//! the selectors both ways, and the repository filter.

use super::super::*;
use super::{cancelled, counts_sent, last_id, last_request, loaded, page, reply, screen, sent};
use crate::keymap::{Context, Key, Keymap};
use crate::pane::Pane;
use crate::pane::testing::Drive;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use findings_client::ApiError;

fn at(s: &str) -> Timestamp {
    s.parse().unwrap()
}

/// `action` at the time `now` (the trend's buckets end there).
fn act_at(pane: &mut ReportPane, action: Action, now: Timestamp, outbox: &mut Outbox) {
    let keymap = Keymap::default_keymap();
    let mut cx = Cx {
        outbox,
        now,
        area: Rect::new(0, 0, 100, 23),
        keymap: &keymap,
    };
    pane.on_action(action, &mut cx);
}

fn count(pane: &mut ReportPane, id: RequestId, total: i64, outbox: &mut Outbox) {
    let answer = ReportResponse {
        total: Some(total),
        ..Default::default()
    };
    reply(pane, id, answer, outbox);
}

fn severities_asked(r: &ReportRequest) -> Vec<FindingSeverity> {
    r.filters
        .as_ref()
        .map(|f| f.finding_severities.clone())
        .unwrap_or_default()
}

#[test]
fn the_severity_chart_counts_the_whole_set_not_the_first_page() {
    let mut outbox = Outbox::default();
    let mut pane = ReportPane::default();
    pane.start(&mut outbox);
    // The first page is all critical (the report is by severity), of 1,098.
    let mut first = page(0..100, Some("c1"));
    for f in &mut first.findings {
        f.severity = Some(Severity::Critical);
    }
    first.total = Some(1098);
    reply(&mut pane, last_id(&outbox), first, &mut outbox);

    let asked = counts_sent(&outbox);
    assert_eq!(asked.len(), 4, "one count a severity");
    for ((_, r), sev) in asked.iter().zip(SEVERITIES) {
        assert_eq!(severities_asked(r), vec![sev.clone()]);
        assert_eq!((r.limit, r.cursor.as_deref()), (Some(1), None));
        assert_eq!(r.report_type, Some(ReportType::TotalOpen));
    }
    assert!(pane.is_loading(), "counting");
    for ((id, _), n) in asked.iter().zip([100, 495, 400, 90]) {
        count(&mut pane, *id, n, &mut outbox);
    }
    assert!(!pane.counts.is_loading());
    assert_eq!(pane.counts.severities(), Some([100, 495, 400, 90]));

    let s = screen(120, 35, pane);
    assert!(s.contains("By severity (all 1,098)"), "{s}");
    let high = s.lines().find(|l| l.starts_with("high")).unwrap();
    assert!(high.contains("495"), "{high}");
    // Info and unrated: what the four leave of the total.
    assert!(
        s.lines()
            .any(|l| l.starts_with("other") && l.contains(" 13 ")),
        "{s}"
    );
    assert!(s.contains("Top rules (of 100 loaded)"), "{s}");
}

#[test]
fn toggled_severities_narrow_the_counts_and_one_needs_none() {
    let mut outbox = Outbox::default();
    let mut pane = loaded(&mut outbox);
    pane.act(Action::ToggleHigh, 20, &mut outbox);
    pane.act(Action::ToggleCritical, 20, &mut outbox);
    let before = counts_sent(&outbox).len();
    let asked: Vec<_> = counts_sent(&outbox)[before - 2..]
        .iter()
        .map(|(_, r)| severities_asked(r))
        .collect();
    assert_eq!(
        asked,
        vec![vec![FindingSeverity::Critical], vec![FindingSeverity::High]]
    );
    assert_eq!(pane.counts.severity[2..], [Some(0), Some(0)], "not asked");

    // Only high: its count is the query's total, nothing is asked.
    pane.act(Action::ToggleCritical, 20, &mut outbox);
    assert_eq!(counts_sent(&outbox).len(), before);
    let mut first = page(0..10, None);
    first.total = Some(495);
    reply(&mut pane, last_id(&outbox), first, &mut outbox);
    assert_eq!(pane.counts.severities(), Some([0, 495, 0, 0]));
}

#[test]
fn a_new_query_cancels_the_counts_and_drops_their_late_answers() {
    let mut outbox = Outbox::default();
    let mut pane = ReportPane::default();
    pane.start(&mut outbox);
    let old: Vec<RequestId> = counts_sent(&outbox).iter().map(|(id, _)| *id).collect();
    pane.act(Action::ToggleCode, 20, &mut outbox);
    for id in &old {
        assert!(cancelled(&outbox).contains(id), "count {id} cancelled");
    }
    count(&mut pane, old[1], 7, &mut outbox);
    assert_eq!(pane.counts.severity, [None; 4], "a late count is dropped");
    let new = counts_sent(&outbox);
    assert_eq!(new.len(), 8);
    let f = new[7].1.filters.clone().unwrap();
    assert_eq!(f.finding_types, vec![FindingType::Code], "the same filters");
}

#[test]
fn b_counts_the_trend_by_bucket_and_keeps_the_list() {
    let now = at("2026-11-25T10:00:00Z");
    let mut outbox = Outbox::default();
    let mut pane = loaded(&mut outbox);
    let pages = sent(&outbox).len();
    let counts_before = counts_sent(&outbox).len();
    act_at(&mut pane, Action::CycleBucket, now, &mut outbox);
    assert_eq!(sent(&outbox).len(), pages, "no new page");
    assert_eq!(pane.list.items.len(), 100, "the list stays");
    let trend = &counts_sent(&outbox)[counts_before..];
    assert_eq!(trend.len(), MAX_BUCKETS);
    let json = serde_json::to_value(&trend[MAX_BUCKETS - 1].1).unwrap();
    assert_eq!(json["bucketStart"], "2026-11-25T00:00:00Z");
    assert_eq!(json["filters"]["timeBucketSize"], "TIME_BUCKET_SIZE_DAY");
    assert_eq!(json["limit"], 1);
    assert_eq!(trend[0].1.bucket_start, Some(at("2026-11-14T00:00:00Z")));
    assert_eq!(
        last_request(&outbox).filters,
        None,
        "the page asks for no bucket"
    );

    // B goes back to none: the trend's counts are cancelled, no more sent.
    act_at(&mut pane, Action::PrevBucket, now, &mut outbox);
    for (id, _) in trend {
        assert!(cancelled(&outbox).contains(id));
    }
    assert!(pane.counts.buckets.is_empty());
    assert_eq!(counts_sent(&outbox).len(), counts_before + MAX_BUCKETS);
    // Again B: month, back to the first of the month.
    act_at(&mut pane, Action::PrevBucket, now, &mut outbox);
    assert_eq!(pane.bucket, Some(TimeBucketSize::Month));
    let last = counts_sent(&outbox).pop().unwrap().1;
    assert_eq!(last.bucket_start, Some(at("2026-11-01T00:00:00Z")));
}

#[test]
fn buckets_align_to_their_size_and_stop_at_the_period() {
    let now = at("2026-11-25T10:00:00Z"); // a Wednesday
    let week = bucket_starts(&TimeBucketSize::Week, now, Some(at("2026-11-10T08:00:00Z")));
    assert_eq!(
        week,
        ["2026-11-09", "2026-11-16", "2026-11-23"].map(|d| at(&format!("{d}T00:00:00Z")))
    );
    let months = bucket_starts(&TimeBucketSize::Month, now, None);
    assert_eq!(months.len(), MAX_BUCKETS);
    assert_eq!(months[0], at("2025-12-01T00:00:00Z"));
    assert_eq!(months[11], at("2026-11-01T00:00:00Z"));
    let days = bucket_starts(
        &TimeBucketSize::Day,
        now,
        Some(now - chrono::Duration::days(7)),
    );
    assert_eq!(days.len(), 8, "the period's first, partial day and 7 more");
}

#[test]
fn the_trend_is_drawn_with_its_dates() {
    let now = at("2026-11-25T10:00:00Z");
    let mut outbox = Outbox::default();
    let mut pane = loaded(&mut outbox);
    for _ in 0..2 {
        act_at(&mut pane, Action::CycleBucket, now, &mut outbox);
    }
    let trend = counts_sent(&outbox);
    let trend = &trend[trend.len() - MAX_BUCKETS..];
    assert_eq!(pane.bucket, Some(TimeBucketSize::Week));
    assert!(pane.is_loading());
    assert!(screen(120, 35, pane.clone()).contains("counting"));
    for (i, (id, _)) in trend.iter().enumerate() {
        count(&mut pane, *id, i64::try_from(i).unwrap() * 10, &mut outbox);
    }
    let s = screen(120, 35, pane);
    assert!(s.contains("Created per week (max 110)"), "{s}");
    assert!(s.contains("09-07") && s.contains("11-23"), "{s}");
    assert!(s.contains('█'), "{s}");
    assert!(s.contains("trend week"), "the selector says it: {s}");
}

#[test]
fn a_failed_or_stopped_count_says_so() {
    let mut outbox = Outbox::default();
    let mut pane = loaded(&mut outbox);
    let id = counts_sent(&outbox)[0].0;
    pane.reply(id, Err(ApiError::Connection("refused".into())), &mut outbox);
    let s = screen(120, 35, pane);
    assert!(
        s.contains("failed: connection") && s.contains("refused"),
        "{s}"
    );

    let mut outbox = Outbox::default();
    let mut pane = loaded(&mut outbox);
    pane.act(Action::Back, 20, &mut outbox);
    assert!(!pane.is_loading());
    assert!(
        outbox
            .events
            .iter()
            .any(|e| matches!(e, crate::message::AppEvent::Status(s) if s == "request cancelled"))
    );
    assert!(screen(120, 35, pane).contains("stopped (r reloads)"));
}

#[test]
fn every_selector_goes_both_ways() {
    let mut outbox = Outbox::default();
    let mut pane = loaded(&mut outbox);
    pane.act(Action::PrevReportType, 20, &mut outbox);
    assert_eq!(pane.report_type, ReportType::GuardrailsActivity);
    pane.act(Action::CycleReportType, 20, &mut outbox);
    assert_eq!(pane.report_type, ReportType::TotalOpen);
    pane.act(Action::PrevPeriod, 20, &mut outbox);
    assert_eq!(pane.period_days, Some(90));
    pane.act(Action::PrevPeriod, 20, &mut outbox);
    assert_eq!(pane.period_days, Some(30));
    pane.act(Action::CyclePeriod, 20, &mut outbox);
    assert_eq!(pane.period_days, Some(90));
    let last = AggregateState::ALL.last().cloned();
    pane.act(Action::PrevState, 20, &mut outbox);
    assert_eq!(pane.finding_state, last);
    pane.act(Action::CycleState, 20, &mut outbox);
    assert_eq!(pane.finding_state, None);
    assert_eq!(last_request(&outbox).finding_state, None);
    pane.act(Action::PrevBucket, 20, &mut outbox);
    assert_eq!(pane.bucket, Some(TimeBucketSize::Month));
    pane.act(Action::CycleBucket, 20, &mut outbox);
    assert_eq!(pane.bucket, None);
}

fn type_text(pane: &mut ReportPane, text: &str, outbox: &mut Outbox) {
    for c in text.chars() {
        pane.type_key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE), outbox);
    }
}

fn press(pane: &mut ReportPane, code: KeyCode, outbox: &mut Outbox) {
    pane.type_key(KeyEvent::new(code, KeyModifiers::NONE), outbox);
}

#[test]
fn slash_filters_by_repository() {
    let mut outbox = Outbox::default();
    let mut pane = loaded(&mut outbox);
    pane.act(Action::RepoFilter, 20, &mut outbox);
    assert!(pane.text_input_active());
    type_text(&mut pane, "acme/api, acme/web,acme/api", &mut outbox);
    // The deployment's names (asked for by `/`) arrive.
    super::repo_filter::names_arrive(&mut pane, &["acme/api", "acme/web"], &mut outbox);
    let typing = screen(120, 35, pane.clone());
    assert!(typing.contains("repository (comma-separated"), "{typing}");
    let pages = sent(&outbox).len();
    press(&mut pane, KeyCode::Enter, &mut outbox);
    assert!(!pane.text_input_active());
    assert_eq!(sent(&outbox).len(), pages + 1, "a new query");
    let json = serde_json::to_value(last_request(&outbox)).unwrap();
    assert_eq!(
        json["filters"]["projects"],
        serde_json::json!(["acme/api", "acme/web"])
    );
    let count = counts_sent(&outbox).pop().unwrap().1;
    assert_eq!(count.filters.unwrap().projects, ["acme/api", "acme/web"]);
    let s = screen(120, 35, pane.clone());
    assert!(s.contains("repo acme/api,acme/web"), "{s}");

    // `/` then Esc: nothing changes.
    pane.act(Action::RepoFilter, 20, &mut outbox);
    press(&mut pane, KeyCode::Esc, &mut outbox);
    assert_eq!(sent(&outbox).len(), pages + 1);
    assert_eq!(pane.projects.len(), 2);

    // Esc with nothing in flight clears it.
    pane.act(Action::Back, 20, &mut outbox); // stops the loading
    pane.act(Action::Back, 20, &mut outbox);
    assert!(pane.projects.is_empty());
    assert_eq!(last_request(&outbox).filters, None);
}

#[test]
fn no_letter_means_two_things_on_two_panes() {
    let km = Keymap::default_keymap();
    let panes = [
        crate::panes::issues::KEYS,
        crate::panes::report::KEYS,
        crate::panes::agentic::KEYS,
    ];
    let mut seen: Vec<(Key, Action, Context)> = Vec::new();
    for pane in panes {
        for b in km.bindings(pane) {
            for key in &b.keys {
                // Each pane's `/` filters what it shows, its own way.
                if key.to_string() == "/" {
                    continue;
                }
                if let Some((_, other, ctx)) =
                    seen.iter().find(|(k, a, _)| k == key && *a != b.action)
                {
                    panic!(
                        "{key} is {other:?} in {ctx:?} but {:?} in {pane:?}",
                        b.action
                    );
                }
                seen.push((*key, b.action, pane));
            }
        }
    }
    // A selector's shifted key goes back.
    for (next, prev) in [
        (Action::CycleReportType, Action::PrevReportType),
        (Action::CyclePeriod, Action::PrevPeriod),
        (Action::CycleBucket, Action::PrevBucket),
        (Action::CycleState, Action::PrevState),
    ] {
        let forward = km.keys_in(&[crate::panes::report::KEYS], next);
        let back = km.keys_in(&[crate::panes::report::KEYS], prev);
        assert_eq!(
            back,
            forward.iter().map(|k| k.to_uppercase()).collect::<Vec<_>>()
        );
    }
}

#[test]
fn the_severity_chart_groups_its_counts_by_thousands() {
    let mut outbox = Outbox::default();
    let mut pane = ReportPane::default();
    pane.start(&mut outbox);
    let mut first = page(0..100, Some("c1"));
    first.total = Some(14_000);
    reply(&mut pane, last_id(&outbox), first, &mut outbox);
    let asked = counts_sent(&outbox);
    for ((id, _), n) in asked.iter().zip([100, 13_420, 400, 70]) {
        count(&mut pane, *id, n, &mut outbox);
    }
    let s = screen(120, 35, pane);
    let high = s.lines().find(|l| l.starts_with("high")).unwrap();
    assert!(high.contains(" 13,420"), "{high}");
    let critical = s.lines().find(|l| l.starts_with("critical")).unwrap();
    assert!(critical.contains("    100"), "aligned: {critical}");
}
