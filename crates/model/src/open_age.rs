//! Open age against targets (a profile's `sla_days`): how long an open
//! finding has been open, counted from its first detection, and by how
//! many days it is past its severity's target. The one definition the
//! TUI's AGE column and `O`, `issues --over-target` and the exports' `age`
//! and `days_over_target` columns read.

use super::enums::{AggregateState, Severity};
use super::issue::Issue;
use super::wire::Timestamp;
use serde::Deserialize;

/// Open-age targets: how many days a finding of each severity may stay
/// open (a profile's `sla_days`). Ours by default: critical 7, high 30,
/// medium 90, low 180 days.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SlaDays {
    pub critical: u32,
    pub high: u32,
    pub medium: u32,
    pub low: u32,
}

impl Default for SlaDays {
    fn default() -> Self {
        SlaDays {
            critical: 7,
            high: 30,
            medium: 90,
            low: 180,
        }
    }
}

/// The age of an open finding in whole days and its days past target (0:
/// within it, or no target).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Age {
    pub days: i64,
    pub over: i64,
}

impl Age {
    /// `102d`, or `102d +95` past the target (the TUI's AGE column).
    pub fn cell(&self) -> String {
        match self.over {
            0 => format!("{}d", self.days),
            over => format!("{}d +{over}", self.days),
        }
    }
}

impl SlaDays {
    /// The target of a finding of `severity` (none for info and the
    /// unknown: they have no target).
    pub fn days_for(&self, severity: &Severity) -> Option<u32> {
        match severity {
            Severity::Critical => Some(self.critical),
            Severity::High => Some(self.high),
            Severity::Medium => Some(self.medium),
            Severity::Low => Some(self.low),
            _ => None,
        }
    }

    /// Days past the target of a finding of `severity` first detected
    /// at `first` (`None`: within it, or no target); open age counts from
    /// the first detection.
    pub fn days_over(&self, severity: &Severity, first: Timestamp, now: Timestamp) -> Option<i64> {
        let target = i64::from(self.days_for(severity)?);
        let over = (now - first).num_days() - target;
        (over > 0).then_some(over)
    }

    /// The open age as of `now` of a finding in `state`, of `severity`,
    /// first detected at `first`: `None` when it is not open (open,
    /// reviewing, fixing: a closed finding has no open age) or its first
    /// detection is unknown.
    pub fn open_age(
        &self,
        severity: Option<&Severity>,
        state: Option<&AggregateState>,
        first: Option<Timestamp>,
        now: Timestamp,
    ) -> Option<Age> {
        let open = state.is_some_and(AggregateState::is_open);
        let first = first.filter(|_| open)?;
        let days = (now - first).num_days().max(0);
        let over = severity
            .and_then(|s| self.days_over(s, first, now))
            .unwrap_or(0);
        Some(Age { days, over })
    }

    /// Critical, high, medium, low: most severe first.
    pub fn most_severe_first(&self) -> [u32; 4] {
        [self.critical, self.high, self.medium, self.low]
    }

    /// Every target at least a day.
    pub fn checked(self) -> Result<SlaDays, String> {
        match self.most_severe_first().iter().position(|d| *d == 0) {
            Some(i) => Err(format!(
                "sla_days.{} must be at least 1 day",
                ["critical", "high", "medium", "low"][i]
            )),
            None => Ok(self),
        }
    }

    /// As the config file writes it.
    pub fn shown(&self) -> String {
        format!(
            "{{ critical = {}, high = {}, medium = {}, low = {} }}",
            self.critical, self.high, self.medium, self.low
        )
    }
}

/// How many open findings are past their open-age target, by severity,
/// most severe first (critical, high, medium, low): the TUI's open-age
/// view and `report --kind summary` count them so. The published reports
/// give the median open age only, so the open findings are listed (with
/// their first detection) and each is counted with [`OverTargetCounts::add`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OverTargetCounts {
    /// Open findings (open, reviewing, fixing) of each severity.
    pub open: [u64; 4],
    /// Of them, those past their severity's target.
    pub over: [u64; 4],
    /// Open findings that came without a first detection (not counted).
    pub undated: u64,
}

/// The severities with a target, in the counts' order.
const TARGETED: [Severity; 4] = [
    Severity::Critical,
    Severity::High,
    Severity::Medium,
    Severity::Low,
];

impl OverTargetCounts {
    pub fn total_over(&self) -> u64 {
        self.over.iter().sum()
    }

    pub fn total_open(&self) -> u64 {
        self.open.iter().sum()
    }

    /// Counts one finding as of `now`: an open one of a severity with a
    /// target and a known first detection is open, and past its target
    /// when older than it (its days over are returned); info, unknown
    /// severities and closed findings are not counted, the undated apart.
    pub fn add(&mut self, issue: &Issue, targets: &SlaDays, now: Timestamp) -> Option<i64> {
        let open = issue
            .aggregate_state
            .as_ref()
            .is_some_and(AggregateState::is_open);
        let severity = issue.severity.as_ref().filter(|_| open)?;
        // Info and unknown severities have no target.
        let rank = TARGETED.iter().position(|s| s == severity)?;
        let Some(first) = issue.first_detected_at else {
            self.undated += 1;
            return None;
        };
        self.open[rank] += 1;
        let over = targets.days_over(severity, first, now);
        if over.is_some() {
            self.over[rank] += 1;
        }
        over
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Open findings of a severity with a target are counted, past it or
    /// not; the undated apart; closed ones, info and unknown not at all.
    #[test]
    fn over_target_counts_open_findings_by_severity() {
        let now: Timestamp = "2026-11-01T00:00:00Z".parse().unwrap();
        let days_ago = |d: i64| Some(now - chrono::Duration::days(d));
        let issue = |severity: Severity, state: AggregateState, first| Issue {
            severity: Some(severity),
            aggregate_state: Some(state),
            first_detected_at: first,
            ..Default::default()
        };
        let mut counts = OverTargetCounts::default();
        let targets = SlaDays::default();
        let open = AggregateState::OPEN[0].clone();
        assert_eq!(
            counts.add(
                &issue(Severity::Critical, open.clone(), days_ago(10)),
                &targets,
                now
            ),
            Some(3)
        );
        assert_eq!(
            counts.add(
                &issue(Severity::High, open.clone(), days_ago(10)),
                &targets,
                now
            ),
            None
        );
        assert_eq!(
            counts.add(&issue(Severity::Low, open.clone(), None), &targets, now),
            None
        );
        assert_eq!(
            counts.add(&issue(Severity::Info, open, days_ago(999)), &targets, now),
            None
        );
        let fixed = AggregateState::Fixed;
        assert_eq!(
            counts.add(
                &issue(Severity::Critical, fixed, days_ago(99)),
                &targets,
                now
            ),
            None
        );
        assert_eq!(counts.open, [1, 1, 0, 0]);
        assert_eq!(counts.over, [1, 0, 0, 0]);
        assert_eq!(counts.undated, 1);
        assert_eq!((counts.total_open(), counts.total_over()), (2, 1));
    }
}
