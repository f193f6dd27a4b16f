//! Ignores that expire. The platform's triage has no expiry field, so an
//! ignore with an expiry (`findings triage --ignore-until`, the TUI's
//! "until") writes it as the last line of the triage note, `expires:
//! 2026-12-25` (or an RFC 3339 time when it is not midnight UTC), and
//! `findings expired` and the TUI's lists read it back from the finding's
//! `note` (the latest triage's), else from its latest triage event.

use crate::filter_spec::{Point, parse_point};
use chrono::{DateTime, NaiveDate, SecondsFormat, Utc};
use findings_model::{ActivityEvent, AggregateState, HistoryType, Issue, TriageState};

/// The note line's prefix.
const PREFIX: &str = "expires: ";

/// The expiry `--ignore-until` names: a time, a date, or a span ahead of `now`;
/// one not after `now` is refused.
pub fn parse_until(typed: &str, now: DateTime<Utc>) -> Result<DateTime<Utc>, String> {
    let at = match parse_point(typed).map_err(|e| format!("--ignore-until: {e}"))? {
        Point::At(t) => t,
        Point::Span(span) => now + span,
    };
    if at <= now {
        return Err(format!(
            "--ignore-until {typed}: {} is not in the future",
            shown(at)
        ));
    }
    Ok(at)
}

/// An expiry as the note writes it: the date alone at midnight UTC.
pub fn shown(at: DateTime<Utc>) -> String {
    if at.time() == chrono::NaiveTime::MIN {
        at.format("%Y-%m-%d").to_string()
    } else {
        at.to_rfc3339_opts(SecondsFormat::Secs, true)
    }
}

/// `note` with the expiry as its last line (the only line when there is
/// no note); an expiry line already there is replaced.
pub fn with_expiry(note: Option<&str>, at: DateTime<Utc>) -> String {
    let kept = note.map(without_expiry).unwrap_or_default();
    let line = format!("{PREFIX}{}", shown(at));
    if kept.is_empty() {
        line
    } else {
        format!("{kept}\n{line}")
    }
}

fn without_expiry(note: &str) -> &str {
    match note.rsplit_once('\n') {
        Some((rest, last)) if expiry_line(last).is_some() => rest,
        None if expiry_line(note).is_some() => "",
        _ => note,
    }
}

/// The expiry a note's last line records.
pub fn expiry_in(note: &str) -> Option<DateTime<Utc>> {
    expiry_line(note.rsplit('\n').next()?)
}

fn expiry_line(line: &str) -> Option<DateTime<Utc>> {
    let value = line.trim_end_matches('\r').strip_prefix(PREFIX)?.trim();
    if let Ok(t) = DateTime::parse_from_rfc3339(value) {
        return Some(t.with_timezone(&Utc));
    }
    let date = NaiveDate::parse_from_str(value, "%Y-%m-%d").ok()?;
    Some(date.and_hms_opt(0, 0, 0)?.and_utc())
}

/// The expiry of a finding's ignore: from its `note`, else from the note of
/// its latest triage event (when the activity came).
pub fn expiry_of(issue: &Issue) -> Option<DateTime<Utc>> {
    if let Some(note) = &issue.note {
        return expiry_in(note);
    }
    latest_triage(&issue.activity_history)?
        .note
        .as_deref()
        .and_then(expiry_in)
}

fn latest_triage(events: &[ActivityEvent]) -> Option<&ActivityEvent> {
    // In the order sent, unless a date says an event came earlier.
    let mut latest: Option<&ActivityEvent> = None;
    for event in events {
        if event.history_type == Some(HistoryType::Triage)
            && latest.is_none_or(|l| event.date.is_none() || l.date <= event.date)
        {
            latest = Some(event);
        }
    }
    latest
}

/// Whether `issue` is still ignored and its expiry is not after `now`.
pub fn has_expired(issue: &Issue, now: DateTime<Utc>) -> bool {
    is_ignored(issue.triage_state.as_ref(), issue.aggregate_state.as_ref())
        && expiry_of(issue).is_some_and(|at| at <= now)
}

/// Whether a finding in these states is ignored (for good or provisionally).
pub fn is_ignored(triage: Option<&TriageState>, aggregate: Option<&AggregateState>) -> bool {
    matches!(
        triage,
        Some(TriageState::Ignored | TriageState::ProvisionallyIgnored)
    ) || matches!(
        aggregate,
        Some(AggregateState::IgnoredApp | AggregateState::ProvisionallyIgnoredApp)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    #[test]
    fn until_takes_a_date_a_time_or_a_span_ahead_and_refuses_the_past() {
        let now = at("2026-11-25T10:00:00Z");
        assert_eq!(parse_until("1d", now).unwrap(), at("2026-11-26T10:00:00Z"));
        assert_eq!(
            parse_until("2026-12-25", now).unwrap(),
            at("2026-12-25T00:00:00Z")
        );
        assert!(
            parse_until("2026-11-24", now)
                .unwrap_err()
                .contains("not in the future")
        );
        assert!(parse_until("0d", now).is_err());
        assert!(
            parse_until("soon", now)
                .unwrap_err()
                .contains("--ignore-until")
        );
    }

    #[test]
    fn the_note_line_round_trips_and_replaces_an_older_one() {
        let date = at("2026-12-25T00:00:00Z");
        let note = with_expiry(Some("accepted until the rewrite"), date);
        assert_eq!(note, "accepted until the rewrite\nexpires: 2026-12-25");
        assert_eq!(expiry_in(&note), Some(date));
        let later = at("2027-01-02T08:30:00Z");
        let again = with_expiry(Some(&note), later);
        assert_eq!(
            again,
            "accepted until the rewrite\nexpires: 2027-01-02T08:30:00Z"
        );
        assert_eq!(expiry_in(&again), Some(later));
        assert_eq!(with_expiry(None, date), "expires: 2026-12-25");
        assert_eq!(expiry_in("expires: 2026-12-25"), Some(date));
    }

    #[test]
    fn only_a_last_line_in_the_form_is_an_expiry() {
        assert_eq!(expiry_in("expires: 2026-12-25\nmore words"), None);
        assert_eq!(expiry_in("expires: someday"), None);
        assert_eq!(expiry_in("it expires: 2026-12-25"), None);
        assert_eq!(expiry_in(""), None);
    }

    #[test]
    fn the_latest_triage_event_carries_it_when_the_note_is_absent() {
        let event = |date: &str, note: &str| ActivityEvent {
            date: Some(at(date)),
            note: Some(note.into()),
            history_type: Some(HistoryType::Triage),
            ..Default::default()
        };
        let issue = Issue {
            activity_history: vec![
                event("2026-11-02T00:00:00Z", "expires: 2026-12-01"),
                event("2026-11-01T00:00:00Z", "expires: 2026-11-05"),
            ],
            ..Default::default()
        };
        assert_eq!(expiry_of(&issue), Some(at("2026-12-01T00:00:00Z")));
    }
}
