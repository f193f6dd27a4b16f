//! `n`: the findings created since the last visit.

use super::*;

#[test]
fn n_asks_for_the_findings_created_since_the_last_visit_and_marks_them() {
    let last: Timestamp = "2026-11-20T12:00:00Z".parse().unwrap();
    let mut outbox = Outbox::default();
    let mut pane = ReportPane {
        new: crate::list::findings_list::NewSince::new(Some(last)),
        ..ReportPane::default()
    };
    pane.start(&mut outbox);
    let mut first = page(0..4, None);
    for (i, f) in first.findings.iter_mut().enumerate() {
        // Two before the visit, two after.
        f.created_at = Some(last + chrono::Duration::hours(i64::try_from(i).unwrap() * 2 - 3));
    }
    reply(&mut pane, last_id(&outbox), first, &mut outbox);
    assert_eq!(pane.new.count, 2);
    pane.act(Action::NewOnly, 20, &mut outbox);
    assert!(pane.new_only);
    let r = last_request(&outbox);
    let since = r.filters.and_then(|f| f.time_period).and_then(|p| p.since);
    assert_eq!(since, Some(last));
    assert_eq!(pane.period_label(), "new since last visit");
    // Again: every finding, over the period chosen before.
    pane.act(Action::NewOnly, 20, &mut outbox);
    assert!(!pane.new_only);
    let r = last_request(&outbox);
    assert_eq!(r.filters.and_then(|f| f.time_period), None);
    // A period chosen while only new ones show replaces them.
    pane.act(Action::NewOnly, 20, &mut outbox);
    pane.act(Action::CyclePeriod, 20, &mut outbox);
    assert!(!pane.new_only);
    assert_eq!(pane.period_label(), "7 days");
}

#[test]
fn n_on_a_first_visit_says_nothing_is_new_and_sends_nothing() {
    let mut outbox = Outbox::default();
    let mut pane = loaded(&mut outbox);
    let before = sent(&outbox).len();
    pane.act(Action::NewOnly, 20, &mut outbox);
    assert_eq!(sent(&outbox).len(), before);
    assert!(!pane.new_only);
    assert_eq!(pane.new.count, 0);
}
