//! The activity of a finding: its events, rebuilt from its own random
//! stream whenever they are asked for.

use super::{DAY, Dataset, FixPr, Row, idx, stream};
use crate::api::model::*;
use crate::demo::rng::Rng;

impl Dataset {
    /// The activity of a finding, oldest first, without its strings.
    pub fn timeline(&self, index: usize, row: &Row) -> Vec<Event> {
        let mut r = Rng::for_item(self.seed, stream::ACTIVITY, index as u64);
        let now = self.now();
        let mut t = row.created;
        let mut events = Vec::new();
        // Each step takes at most half the time left before "now", so events
        // spread out instead of piling up on it.
        let mut step = |r: &mut Rng, max_days: i64| {
            let room = (now - 30 - t).max(0);
            let hi = (room / 2).min(max_days.max(1) * DAY);
            t += r.range(room.min(60).min(hi), hi);
            t
        };
        events.push(Event::new(row.created, HistoryType::AnalysisStarted, None));
        events.push(Event::new(row.created + 45, HistoryType::Status, None));
        if row.verdict.is_some() {
            events.push(Event::new(step(&mut r, 1), HistoryType::Autotriage, None));
            if r.chance(0.2) {
                let actor = Some(r.below(20) as u8);
                events.push(Event::new(
                    step(&mut r, 4),
                    HistoryType::AutotriageFeedback,
                    actor,
                ));
            }
        }
        if row.sensitivity.is_some() {
            events.push(Event::new(step(&mut r, 2), HistoryType::AiTag, None));
        }
        if r.chance(0.1) {
            events.push(Event::new(
                step(&mut r, 3),
                HistoryType::GuidanceRegeneration,
                None,
            ));
        }
        if r.chance(0.08) {
            let actor = Some(r.below(20) as u8);
            events.push(Event::new(step(&mut r, 5), HistoryType::ScmMention, actor));
        }
        if r.chance(0.06) {
            let actor = Some(r.below(20) as u8);
            events.push(Event::new(
                step(&mut r, 5),
                HistoryType::ReviewCommentSilenced,
                actor,
            ));
        }
        if row.ticket_failed {
            events.push(Event::new(
                step(&mut r, 5),
                HistoryType::TicketAttempted,
                None,
            ));
        }
        if row.ticket {
            let actor = Some(r.below(20) as u8);
            events.push(Event::new(
                step(&mut r, 10),
                HistoryType::TicketCreated,
                actor,
            ));
        }
        if row.fix_pr == Some(FixPr::Requested) {
            // In flight: asked for within the cooldown before "now".
            let actor = Some(r.below(20) as u8);
            let date = (now - r.range(60, 540)).max(row.created + 60).min(now - 1);
            events.push(Event::new(date, HistoryType::ClickToFixPrRequested, actor));
        } else if let Some(pr) = row.fix_pr {
            let actor = Some(r.below(20) as u8);
            events.push(Event::new(
                step(&mut r, 6),
                HistoryType::ClickToFixPrRequested,
                actor,
            ));
            let outcome = match pr {
                FixPr::Failed => HistoryType::ClickToFixPrFailed,
                _ => HistoryType::ClickToFixPrOpened,
            };
            events.push(Event::new(step(&mut r, 1), outcome, None));
            if pr == FixPr::Merged {
                events.push(Event::new(
                    step(&mut r, 7),
                    HistoryType::ClickToFixPrMerged,
                    actor,
                ));
            }
        }
        if let Some(state) = row.exception {
            let requester = Some(r.below(20) as u8);
            events.push(Event::new(
                step(&mut r, 8),
                HistoryType::ExceptionRequestCreated,
                requester,
            ));
            let reviewer = Some(r.below(20) as u8);
            match ExceptionState::ALL[state as usize] {
                ExceptionState::Approved => events.push(Event::new(
                    step(&mut r, 5),
                    HistoryType::ExceptionRequestApproved,
                    reviewer,
                )),
                ExceptionState::Rejected => events.push(Event::new(
                    step(&mut r, 5),
                    HistoryType::ExceptionRequestRejected,
                    reviewer,
                )),
                _ => {}
            }
        }
        let triage = &TriageState::ALL[row.triage as usize];
        if *triage != TriageState::Untriaged && *triage != TriageState::Unknown {
            let actor = Some(r.below(20) as u8);
            events.push(Event::new(step(&mut r, 14), HistoryType::Triage, actor));
        }
        let status = &IssueStatus::ALL[row.status as usize];
        if *status != IssueStatus::Unresolved {
            events.push(Event::new(step(&mut r, 30), HistoryType::Status, None));
        }
        events.sort_by_key(|e| e.date);
        events
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
