//! The activity of a finding: its events, rebuilt from its own random
//! stream whenever they are asked for, then made wire events with what
//! triage added.

use super::{DAY, Dataset, FindingChange, FixPr, Row, idx, stream, ts};
use crate::rng::Rng;
use findings_model::*;

impl Dataset {
    /// The activity of a finding, oldest first, without its strings.
    pub fn timeline(&self, index: usize, row: &Row) -> Vec<Event> {
        let mut r = Rng::for_item(self.seed, stream::ACTIVITY, index as u64);
        let mut clock = Clock {
            now: self.generated_now(),
            t: row.created,
        };
        let mut events = Vec::new();
        events.push(Event::new(row.created, HistoryType::AnalysisStarted, None));
        events.push(Event::new(row.created + 45, HistoryType::Status, None));
        // The draws come in a fixed order (the stream is the finding's own):
        // analysis, tickets, fix pull request, exception, decisions.
        push_analysis_events(&mut events, &mut r, &mut clock, row);
        push_ticket_events(&mut events, &mut r, &mut clock, row);
        push_fix_pr_events(&mut events, &mut r, &mut clock, row);
        push_exception_events(&mut events, &mut r, &mut clock, row);
        push_decision_events(&mut events, &mut r, &mut clock, row);
        events.sort_by_key(|e| e.date);
        events
    }
}

/// The time a finding's history has reached while its events are drawn.
struct Clock {
    now: i64,
    t: i64,
}

impl Clock {
    /// The next event's time. Each step takes at most half the time left
    /// before "now", so events spread out instead of piling up on it.
    fn step(&mut self, r: &mut Rng, max_days: i64) -> i64 {
        let room = (self.now - 30 - self.t).max(0);
        let hi = (room / 2).min(max_days.max(1) * DAY);
        self.t += r.range(room.min(60).min(hi), hi);
        self.t
    }
}

/// Autotriage and its feedback, the AI tag, regenerated guidance, and the
/// pull request mentions and silenced review comments.
fn push_analysis_events(events: &mut Vec<Event>, r: &mut Rng, clock: &mut Clock, row: &Row) {
    if row.verdict.is_some() {
        events.push(Event::new(clock.step(r, 1), HistoryType::Autotriage, None));
        if r.chance(0.2) {
            let actor = Some(r.below_u8(20));
            events.push(Event::new(
                clock.step(r, 4),
                HistoryType::AutotriageFeedback,
                actor,
            ));
        }
    }
    if row.sensitivity.is_some() {
        events.push(Event::new(clock.step(r, 2), HistoryType::AiTag, None));
    }
    if r.chance(0.1) {
        events.push(Event::new(
            clock.step(r, 3),
            HistoryType::GuidanceRegeneration,
            None,
        ));
    }
    if r.chance(0.08) {
        let actor = Some(r.below_u8(20));
        events.push(Event::new(clock.step(r, 5), HistoryType::ScmMention, actor));
    }
    if r.chance(0.06) {
        let actor = Some(r.below_u8(20));
        events.push(Event::new(
            clock.step(r, 5),
            HistoryType::ReviewCommentSilenced,
            actor,
        ));
    }
}

/// A failed ticket attempt and a created ticket.
fn push_ticket_events(events: &mut Vec<Event>, r: &mut Rng, clock: &mut Clock, row: &Row) {
    if row.ticket_failed {
        events.push(Event::new(
            clock.step(r, 5),
            HistoryType::TicketAttempted,
            None,
        ));
    }
    if row.ticket {
        let actor = Some(r.below_u8(20));
        events.push(Event::new(
            clock.step(r, 10),
            HistoryType::TicketCreated,
            actor,
        ));
    }
}

/// A fix pull request: asked for, then opened or failed, then merged.
fn push_fix_pr_events(events: &mut Vec<Event>, r: &mut Rng, clock: &mut Clock, row: &Row) {
    if row.fix_pr == Some(FixPr::Requested) {
        // In flight: asked for within the cooldown before "now".
        let now = clock.now;
        let actor = Some(r.below_u8(20));
        let date = (now - r.range(60, 540)).max(row.created + 60).min(now - 1);
        events.push(Event::new(date, HistoryType::ClickToFixPrRequested, actor));
    } else if let Some(pr) = row.fix_pr {
        let actor = Some(r.below_u8(20));
        events.push(Event::new(
            clock.step(r, 6),
            HistoryType::ClickToFixPrRequested,
            actor,
        ));
        let outcome = match pr {
            FixPr::Failed => HistoryType::ClickToFixPrFailed,
            _ => HistoryType::ClickToFixPrOpened,
        };
        events.push(Event::new(clock.step(r, 1), outcome, None));
        if pr == FixPr::Merged {
            events.push(Event::new(
                clock.step(r, 7),
                HistoryType::ClickToFixPrMerged,
                actor,
            ));
        }
    }
}

/// An exception request and its review.
fn push_exception_events(events: &mut Vec<Event>, r: &mut Rng, clock: &mut Clock, row: &Row) {
    if let Some(state) = row.exception {
        let requester = Some(r.below_u8(20));
        events.push(Event::new(
            clock.step(r, 8),
            HistoryType::ExceptionRequestCreated,
            requester,
        ));
        let reviewer = Some(r.below_u8(20));
        match ExceptionState::ALL[state as usize] {
            ExceptionState::Approved => events.push(Event::new(
                clock.step(r, 5),
                HistoryType::ExceptionRequestApproved,
                reviewer,
            )),
            ExceptionState::Rejected => events.push(Event::new(
                clock.step(r, 5),
                HistoryType::ExceptionRequestRejected,
                reviewer,
            )),
            _ => {}
        }
    }
}

/// The triage decision and the status change, last.
fn push_decision_events(events: &mut Vec<Event>, r: &mut Rng, clock: &mut Clock, row: &Row) {
    let triage = &TriageState::ALL[row.triage as usize];
    if *triage != TriageState::Untriaged && *triage != TriageState::Unknown {
        let actor = Some(r.below_u8(20));
        events.push(Event::new(clock.step(r, 14), HistoryType::Triage, actor));
    }
    let status = &IssueStatus::ALL[row.status as usize];
    if *status != IssueStatus::Unresolved {
        events.push(Event::new(clock.step(r, 30), HistoryType::Status, None));
    }
}

impl Dataset {
    /// The generated history of finding `index`, then what triage added.
    pub(crate) fn activity(
        &self,
        index: usize,
        change: Option<&FindingChange>,
    ) -> Vec<ActivityEvent> {
        let row = &self.rows[index];
        let people = &self.catalog.people.users;
        let mut events: Vec<ActivityEvent> = self
            .timeline(index, row)
            .into_iter()
            .map(|e| {
                let ht = e.history_type().clone();
                let actor = e
                    .actor
                    .map(|k| people[k as usize % people.len()].login.clone());
                let (title, note, triage_reason) = event_text(index, row, e.date, &ht);
                let is_exception = matches!(
                    ht,
                    HistoryType::ExceptionRequestCreated
                        | HistoryType::ExceptionRequestApproved
                        | HistoryType::ExceptionRequestRejected
                );
                ActivityEvent {
                    date: Some(ts(e.date)),
                    title: Some(title),
                    triage_reason,
                    note,
                    actor,
                    history_type: Some(ht),
                    exception_request_details: is_exception.then(|| ExceptionRequestDetails {
                        action_source: Some("FINDING_EXCEPTION_REQUEST_SOURCE_PLATFORM".into()),
                    }),
                }
            })
            .collect();
        events.extend(change.into_iter().flat_map(|c| c.events.iter().cloned()));
        events
    }
}

/// An event's title, note and triage reason, as the platform words them.
fn event_text(
    index: usize,
    row: &Row,
    date: i64,
    ht: &HistoryType,
) -> (String, Option<String>, Option<String>) {
    let triage = &TriageState::ALL[row.triage as usize];
    let reason = row
        .triage_reason
        .map(|k| TriageReason::ALL[k as usize].as_wire().to_owned());
    match ht {
        HistoryType::AnalysisStarted => ("Analysis started".to_owned(), None, None),
        HistoryType::Status if date == row.created + 45 => {
            ("Finding opened".to_owned(), None, None)
        }
        HistoryType::Status => (
            format!(
                "Status changed to {}",
                IssueStatus::ALL[row.status as usize].label()
            ),
            None,
            None,
        ),
        HistoryType::Triage => (
            format!("Triaged as {}", triage.label()),
            Some("Discussed in the weekly security triage.".to_owned()),
            reason,
        ),
        HistoryType::Autotriage => (
            format!(
                "Autotriage verdict: {}",
                row.verdict
                    .map_or("none", |v| Verdict::ALL[v as usize].label())
            ),
            None,
            None,
        ),
        HistoryType::AutotriageFeedback => (
            "Feedback on the autotriage verdict".into(),
            Some("Agree with the verdict.".into()),
            None,
        ),
        HistoryType::AiTag => ("AI tagged the code as sensitive".into(), None, None),
        HistoryType::ReviewCommentSilenced => (
            "Review comment silenced".into(),
            Some("Silenced on the pull request.".into()),
            None,
        ),
        HistoryType::TicketCreated => (format!("Ticket SEC-{} created", 1200 + index), None, None),
        HistoryType::TicketAttempted => (
            "Ticket creation failed".into(),
            Some("The ticketing system rejected the request.".into()),
            None,
        ),
        HistoryType::GuidanceRegeneration => {
            ("Remediation guidance regenerated".into(), None, None)
        }
        HistoryType::ScmMention => (
            "Mentioned in a pull request".into(),
            Some("Tracking the fix in the next release.".into()),
            None,
        ),
        HistoryType::ClickToFixPrRequested => ("Fix pull request requested".into(), None, None),
        HistoryType::ClickToFixPrOpened => ("Fix pull request opened".into(), None, None),
        HistoryType::ClickToFixPrFailed => (
            "Fix pull request failed".into(),
            Some("The branch has conflicts with the base branch.".into()),
            None,
        ),
        HistoryType::ClickToFixPrMerged => ("Fix pull request merged".into(), None, None),
        HistoryType::ExceptionRequestCreated => (
            "Exception requested".into(),
            Some("Compensating control in place.".into()),
            Some(TriageReason::AcceptableRisk.as_wire().to_owned()),
        ),
        HistoryType::ExceptionRequestApproved => ("Exception approved".into(), None, None),
        HistoryType::ExceptionRequestRejected => (
            "Exception rejected".into(),
            Some("The control does not cover the public API.".into()),
            None,
        ),
        _ => (ht.label().to_owned(), None, None),
    }
}

/// One activity event before its strings are made.
#[derive(Debug, Clone, Copy)]
pub struct Event {
    pub date: i64,
    /// Index into `HistoryType::ALL` (the enum is not `Copy`).
    pub kind: u8,
    pub actor: Option<u8>,
}

impl Event {
    fn new(date: i64, kind: HistoryType, actor: Option<u8>) -> Self {
        Event {
            date,
            kind: idx(HistoryType::ALL, &kind),
            actor,
        }
    }

    pub fn history_type(&self) -> &'static HistoryType {
        &HistoryType::ALL[self.kind as usize]
    }
}
