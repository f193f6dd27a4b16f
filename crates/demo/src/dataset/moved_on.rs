//! Time passing in the demo: the data set as generated, then `days_later`
//! days of a deployment's life, each day's changes drawn from the seed and
//! the day alone (the same seed and days, the same data). Each day some
//! findings are new, some fixed, some reopened, some triaged by someone
//! (with an activity event saying who), a few rescored, so two runs a fortnight apart
//! differ as two weeks of a real deployment do.

use super::twins::TwinPicker;
use super::{DAY, Dataset, FindingChange, stream, ts};
use crate::rng::Rng;
use findings_model::*;

/// Of the findings generated, about one in this many changes each day.
const CHANGED_PER_DAY: usize = 100;
/// About one new finding a day for this many generated.
const NEW_PER_DAY: usize = 200;

fn index_of<T: PartialEq>(all: &[T], v: &T) -> u8 {
    // A table of a few values (an enum's): saturating never.
    u8::try_from(all.iter().position(|x| x == v).unwrap_or(0)).unwrap_or(u8::MAX)
}

impl Dataset {
    /// Adds the new findings and the day-by-day changes; `generated`: how
    /// many rows were generated before time moved on. A new finding on a
    /// feature ref is a twin or its own as a generated one is.
    pub(super) fn move_on(&mut self, generated: usize, picker: &mut TwinPicker) {
        let days = self.days_later as usize;
        if days == 0 || generated == 0 {
            return;
        }
        let start = self.generated_now();
        let new_per_day = (generated / NEW_PER_DAY).max(1);
        for day in 1..=days {
            for _ in 0..new_per_day {
                let i = self.rows.len();
                let mut row = self.generate_row(i);
                // Found on that day, open, untriaged.
                let mut r = Rng::for_item(self.seed, stream::MOVED_ON, i as u64);
                let found = start + (crate::wire_int(day) - 1) * DAY + r.range(3_600, DAY - 3_600);
                row.created = found;
                row.first_detected = found;
                row.relevant_since = found;
                row.status = index_of(IssueStatus::ALL, &IssueStatus::Unresolved);
                row.aggregate = index_of(AggregateState::ALL, &AggregateState::Open);
                row.triage = index_of(TriageState::ALL, &TriageState::Untriaged);
                row.triage_reason = None;
                row.fix_pr = None;
                row.triaged_at = None;
                row.fixed_at = None;
                row.last_activity = found + 45;
                self.rows.push(row);
                self.maybe_twin(picker, i);
            }
            self.change_day(day, generated, start);
        }
    }

    /// The changes of day `day` (1 the first) to the generated findings.
    fn change_day(&self, day: usize, generated: usize, start: i64) {
        let mut r = Rng::for_item(self.seed, stream::MOVED_ON, u64::MAX - day as u64);
        let count = (generated / CHANGED_PER_DAY).max(1);
        let users = &self.catalog.people.users;
        self.change(|_, next| {
            for _ in 0..count {
                let i = r.below(generated);
                // As the days before left it.
                let row = next.row(i, &self.rows[i]);
                let when = start + (crate::wire_int(day) - 1) * DAY + r.range(3_600, DAY - 3_600);
                let actor = (!users.is_empty()).then(|| r.pick(users).login.clone());
                let aggregate = AggregateState::ALL[row.aggregate as usize].clone();
                let triage = TriageState::ALL[row.triage as usize].clone();
                let change = next.findings.entry(i).or_insert_with(|| FindingChange {
                    triage: row.triage,
                    severity: row.severity,
                    triage_reason: row.triage_reason,
                    aggregate: row.aggregate,
                    triaged_at: row.triaged_at,
                    last_activity: row.last_activity,
                    note: Dataset::generated_note(&row),
                    events: Vec::new(),
                });
                change.last_activity = when;
                let event = ActivityEvent {
                    date: Some(ts(when)),
                    actor,
                    ..Default::default()
                };
                let is_open = matches!(
                    aggregate,
                    AggregateState::Open | AggregateState::Reviewing | AggregateState::Fixing
                );
                if is_open && r.chance(0.1) {
                    // Rescored: a new advisory, a rule's severity revised.
                    let levels = [
                        Severity::Critical,
                        Severity::High,
                        Severity::Medium,
                        Severity::Low,
                    ];
                    let now = index_of(Severity::ALL, r.pick(&levels));
                    if now != change.severity {
                        change.severity = now;
                        continue;
                    }
                }
                if !is_open {
                    // Closed (fixed, removed, ignored): it comes back.
                    change.aggregate = index_of(AggregateState::ALL, &AggregateState::Open);
                    change.triage = index_of(TriageState::ALL, &TriageState::Reopened);
                    change.triage_reason = None;
                    change.triaged_at = Some(when);
                    change.events.push(ActivityEvent {
                        title: Some("Triaged as reopened".into()),
                        history_type: Some(HistoryType::Triage),
                        ..event
                    });
                } else if triage == TriageState::Untriaged && r.chance(0.5) {
                    // Someone looks at it and ignores it.
                    let reason = r.pick(&[
                        TriageReason::FalsePositive,
                        TriageReason::AcceptableRisk,
                        TriageReason::NoTime,
                    ]);
                    change.aggregate = index_of(AggregateState::ALL, &AggregateState::IgnoredApp);
                    change.triage = index_of(TriageState::ALL, &TriageState::Ignored);
                    change.triage_reason = Some(index_of(TriageReason::ALL, reason));
                    change.triaged_at = Some(when);
                    change.events.push(ActivityEvent {
                        title: Some("Triaged as ignored".into()),
                        triage_reason: Some(reason.as_wire().to_owned()),
                        history_type: Some(HistoryType::Triage),
                        ..event
                    });
                } else {
                    // A commit fixes it; the next scan sees it gone.
                    change.aggregate = index_of(AggregateState::ALL, &AggregateState::Fixed);
                    change.events.push(ActivityEvent {
                        title: Some("Fixed".into()),
                        history_type: Some(HistoryType::Status),
                        actor: None,
                        ..event
                    });
                }
            }
        });
    }
}
