//! The dashboard's views of the charts (`d`): each asks its report with
//! the pane's selectors, in the pane's Dashboard slot, once per selection;
//! a selector change asks again (the old request cancelled); a report the
//! server does not offer says so in its place.

use super::super::dashboard::{Answer, Block};
use super::super::*;
use super::{loaded, screen};
use crate::message::{DashboardAnswer, DashboardReport};
use crate::pane::testing::Drive;
use findings_client::ApiError;
use findings_client::error::ServerMessage;

/// The dashboard requests sent, with their ids.
fn asked(outbox: &Outbox) -> Vec<(RequestId, DashboardReport, GetReportRequest)> {
    outbox
        .requests()
        .into_iter()
        .filter_map(|(id, r)| match r {
            ApiRequest::Dashboard(report, req) => Some((id, *report, req.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn d_shows_the_activity_asked_with_the_selectors_and_a_new_selection_asks_again() {
    let mut outbox = Outbox::default();
    let mut pane = loaded(&mut outbox);
    // The counts view asks the whole set's tops (total-open of all time
    // counts what the backlog reports count).
    let tops: Vec<DashboardReport> = asked(&outbox).iter().map(|(_, r, _)| *r).collect();
    assert_eq!(
        tops,
        [DashboardReport::ByProject, DashboardReport::BacklogByRule]
    );
    pane.act(Action::NextReportView, 20, &mut outbox);
    assert_eq!(pane.dashboard.block, Block::Activity);
    // Every other view's report at once, each in the Dashboard slot.
    let sent = asked(&outbox);
    let kinds: Vec<DashboardReport> = sent.iter().map(|(_, r, _)| *r).collect();
    assert_eq!(
        kinds,
        [
            DashboardReport::ByProject,
            DashboardReport::BacklogByRule,
            DashboardReport::Activity,
            DashboardReport::BacklogBySeverity,
            DashboardReport::MedianOpenAge
        ]
    );
    for (id, _, _) in &sent {
        assert_eq!(Slot::of(outbox.slot_of(*id)), Slot::Dashboard);
    }
    let (id, _, req) = &sent[2];
    let filters = req.filters.clone().unwrap();
    // "All time" reads a year, by month.
    assert!(filters.time_period.and_then(|p| p.since).is_some());
    assert_eq!(filters.time_bucket_size, Some(TimeBucketSize::Month));

    let bucket = |opened, fixed, ignored, provisional, removed| ActivityBucket {
        opened: Some(opened),
        fixed: Some(fixed),
        ignored: Some(ignored),
        provisionally_ignored: Some(provisional),
        removed: Some(removed),
        net: Some(opened - fixed - ignored - provisional - removed),
        ..Default::default()
    };
    let report = ActivityReport {
        buckets: vec![bucket(10, 2, 1, 1, 0), bucket(20, 3, 2, 0, 1)],
        this_period: Some(ActivityTotals {
            total_new: Some(30),
            ..Default::default()
        }),
        previous_period: Some(ActivityTotals {
            total_new: Some(12),
            ..Default::default()
        }),
        ..Default::default()
    };
    let answer = DashboardAnswer::Activity(Box::new(report));
    pane.reply(*id, Ok(ApiResponse::Dashboard(answer.clone())), &mut outbox);
    assert_eq!(
        pane.dashboard.answer(DashboardReport::Activity),
        &Answer::Known(answer)
    );
    let shown = screen(120, 40, pane.clone());
    // The rows added up, every term said; "all time" is compared with no
    // period before it.
    assert!(
        shown.contains(
            "the rows added up: opened 30 · fixed 5 · ignored 3 · provisionally ignored 1 · removed 1 · net 20"
        ),
        "{shown}"
    );
    assert!(!shown.contains("(+"), "{shown}");

    // Back and forth: known or on its way for this selection, not asked
    // again.
    pane.act(Action::PrevReportView, 20, &mut outbox);
    pane.act(Action::NextReportView, 20, &mut outbox);
    assert_eq!(asked(&outbox).len(), 5);

    // A selector: the four in flight cancelled, all asked again for the
    // new selection.
    pane.act(Action::ToggleCritical, 20, &mut outbox);
    let again = asked(&outbox);
    assert_eq!(again.len(), 10, "{again:?}");
    for (i, (id, _, _)) in sent.iter().enumerate().filter(|(i, _)| *i != 2) {
        assert!(outbox.cancelled().contains(id), "{i}");
    }
    let severities = &again[5].2.filters.as_ref().unwrap().finding_severities;
    assert_eq!(severities, &vec![FindingSeverity::Critical]);

    // Back to the first selection: its activity answered is kept, not
    // asked again (the four cancelled are).
    pane.act(Action::ToggleCritical, 20, &mut outbox);
    let back = asked(&outbox);
    let activity_again = back[10..]
        .iter()
        .filter(|(_, r, _)| *r == DashboardReport::Activity)
        .count();
    assert_eq!(activity_again, 0, "{back:?}");
    assert_eq!(back.len(), 14, "the other four asked again: {back:?}");
    assert!(matches!(
        pane.dashboard.answer(DashboardReport::Activity),
        Answer::Known(_)
    ));
    // A write forgets every selection's answers.
    let mut fresh = Outbox::default();
    pane.dashboard.forget(&mut fresh);
    assert_eq!(
        pane.dashboard.answer(DashboardReport::Activity),
        &Answer::NotAsked
    );
}

#[test]
fn a_report_the_server_does_not_offer_says_so_and_a_selector_change_cancels_the_one_in_flight() {
    let mut outbox = Outbox::default();
    let mut pane = loaded(&mut outbox);
    pane.act(Action::NextReportView, 20, &mut outbox);
    pane.act(Action::NextReportView, 20, &mut outbox);
    pane.act(Action::NextReportView, 20, &mut outbox);
    assert_eq!(pane.dashboard.block, Block::Repositories);
    let by_project = |outbox: &Outbox| {
        asked(outbox)
            .into_iter()
            .filter(|(_, r, _)| *r == DashboardReport::ByProject)
            .map(|(id, _, _)| id)
            .collect::<Vec<_>>()
    };
    let id = by_project(&outbox)[0];
    // Changed before the answer: the request is cancelled, another sent.
    pane.act(Action::ToggleHigh, 20, &mut outbox);
    assert!(outbox.cancelled().contains(&id));
    let id = *by_project(&outbox).last().unwrap();
    let missing = ServerMessage {
        status: 404,
        message: "no such route".into(),
        code: None,
        details: None,
    };
    pane.reply(id, Err(ApiError::NotFound(missing)), &mut outbox);
    assert!(matches!(
        pane.dashboard.answer(DashboardReport::ByProject),
        Answer::NotOffered(_)
    ));
    let shown = screen(120, 40, pane.clone());
    assert!(
        shown.contains("this deployment does not offer the repositories report"),
        "{shown}"
    );
}

#[test]
fn the_open_age_view_marks_the_medians_over_the_profiles_targets() {
    let mut outbox = Outbox::default();
    let mut pane = loaded(&mut outbox);
    pane.sla_days = findings_config::SlaDays {
        critical: 7,
        high: 30,
        ..Default::default()
    };
    pane.dashboard.block = Block::OpenAge;
    pane.act(Action::Refresh, 20, &mut outbox);
    let (id, report, _) = asked(&outbox).pop().unwrap();
    assert_eq!(
        report,
        DashboardReport::MedianOpenAge,
        "the last of the four"
    );
    let bucket = |critical, high| SeverityBucket {
        counts: BySeverity {
            critical: Some(critical),
            high: Some(high),
            ..Default::default()
        },
        ..Default::default()
    };
    let answer = DashboardAnswer::BySeverity(BySeverityReport {
        buckets: vec![bucket(3, 10), bucket(12, 25)],
    });
    pane.reply(id, Ok(ApiResponse::Dashboard(answer)), &mut outbox);
    let shown = screen(140, 40, pane.clone());
    assert!(
        shown.contains("critical 12 days: over the 7-day target by 5, was 3"),
        "{shown}"
    );
    assert!(
        shown.contains("high     25 days: within the 30-day target"),
        "{shown}"
    );
    assert!(shown.contains("medium   nothing open"), "{shown}");
    // A triage sent from here changes what the views count: asked again,
    // though the selection is the same.
    let asked_before = asked(&outbox).len();
    pane.change(&crate::message::Changed::Totals, &mut outbox);
    let again = asked(&outbox);
    assert!(again.len() > asked_before, "{again:?}");
    assert!(
        again[asked_before..]
            .iter()
            .any(|(_, r, _)| *r == DashboardReport::MedianOpenAge)
    );
    pane.reply(
        again.last().unwrap().0,
        Ok(ApiResponse::Dashboard(DashboardAnswer::BySeverity(
            BySeverityReport {
                buckets: vec![bucket(3, 10), bucket(12, 25)],
            },
        ))),
        &mut outbox,
    );
    // The severity toggles choose the rows: critical and high only.
    pane.severities = [true, true, false, false];
    let shown = screen(140, 40, pane.clone());
    assert!(shown.contains("critical 12 days"), "{shown}");
    assert!(!shown.contains("medium   nothing open"), "{shown}");
    assert!(!shown.contains("low      nothing open"), "{shown}");
}

#[test]
fn enter_on_a_repository_lists_its_open_findings_in_the_issues_pane() {
    use crate::message::{AppEvent, PaneMsg};
    let mut outbox = Outbox::default();
    let mut pane = loaded(&mut outbox);
    pane.act(Action::ToggleCritical, 20, &mut outbox);
    pane.dashboard.block = Block::Repositories;
    pane.act(Action::Refresh, 20, &mut outbox);
    let id = asked(&outbox)
        .into_iter()
        .rev()
        .find(|(_, r, _)| *r == DashboardReport::ByProject)
        .unwrap()
        .0;
    let counts = |critical, high| BySeverity {
        critical: Some(critical),
        high: Some(high),
        ..Default::default()
    };
    let answer = DashboardAnswer::ByProject(ByProjectReport {
        by_project: [
            ("acme/web".to_owned(), counts(1, 40)),
            ("acme/api".to_owned(), counts(5, 2)),
            ("acme/ops".to_owned(), counts(5, 3)),
        ]
        .into(),
    });
    pane.reply(id, Ok(ApiResponse::Dashboard(answer)), &mut outbox);
    let keys: Vec<String> = pane
        .dashboard
        .entries()
        .into_iter()
        .map(|e| e.key)
        .collect();
    assert_eq!(keys, ["acme/ops", "acme/api", "acme/web"], "worst first");
    // j moves in the view, not in the findings list.
    let list_at = pane.list.selected;
    pane.act(Action::Down, 20, &mut outbox);
    assert_eq!((pane.dashboard.selected, pane.list.selected), (1, list_at));
    outbox.events.clear();
    pane.act(Action::Open, 20, &mut outbox);
    let Some(AppEvent::ToPane(to, PaneMsg::Narrow(selection, what))) = outbox.events.pop() else {
        panic!("a narrowing: {:?}", outbox.events)
    };
    assert_eq!(to, crate::panes::FINDINGS);
    assert_eq!(what, "open findings of acme/api");
    assert_eq!(selection.filter.repository_names, ["acme/api"]);
    assert_eq!(selection.filter.severities, [Severity::Critical]);
    assert_eq!(
        selection.filter.aggregate_issue_states,
        [
            AggregateState::Open,
            AggregateState::Reviewing,
            AggregateState::Fixing
        ]
    );
}

/// With total-open of all time (the backlog reports' findings), the
/// counts' top repositories are the by-project report's, most first, of
/// the whole set; with a period they count the loaded pages, and say so.
#[test]
fn the_counts_top_repositories_are_the_whole_sets_where_the_report_counts_the_same() {
    let mut outbox = Outbox::default();
    let mut pane = loaded(&mut outbox);
    let (id, _, _) = asked(&outbox)
        .into_iter()
        .find(|(_, r, _)| *r == DashboardReport::ByProject)
        .unwrap();
    let counts = |critical, low| BySeverity {
        critical: Some(critical),
        low: Some(low),
        ..Default::default()
    };
    let report = ByProjectReport {
        by_project: [
            ("acme/few-but-critical".to_owned(), counts(5, 0)),
            ("acme/many".to_owned(), counts(1, 400)),
        ]
        .into(),
    };
    let answer = DashboardAnswer::ByProject(report);
    pane.reply(id, Ok(ApiResponse::Dashboard(answer)), &mut outbox);
    let shown = screen(160, 40, pane.clone());
    assert!(
        shown.contains("Top projects · all 406 open (all time)"),
        "{shown}"
    );
    let many = shown.find("acme/many").unwrap();
    let few = shown.find("acme/few-but-critical").unwrap();
    assert!(many < few, "most first: {shown}");
    // A period: the findings created in it, which the backlog does not
    // count alone.
    pane.act(Action::CyclePeriod, 20, &mut outbox);
    assert!(!pane.tops_of_whole_set());
    let shown = screen(160, 40, pane.clone());
    assert!(!shown.contains("all 406 open"), "{shown}");
    assert!(shown.contains("Top projects ("), "{shown}");
}
