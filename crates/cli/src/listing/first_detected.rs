//! `issues --first-detected-since` / `--first-detected-until` and
//! `--over-target`: the published List issues filter has no
//! first-detection field, so each finding's `firstDetectedAt` (asked for
//! with the include flag) is compared here, page by page.

use crate::UsageError;
use findings_config::SlaDays;
use findings_model::{AggregateState, IssueItem, Severity, Timestamp};
use findings_requests::filter_spec::parse_time;
use std::cell::Cell;

/// The first-detection window: since inclusive, until exclusive; and
/// with `over_target`, only open findings older than their severity's
/// target.
#[derive(Debug, Default)]
pub(super) struct FirstDetected {
    since: Option<Timestamp>,
    until: Option<Timestamp>,
    over_target: Option<OverTarget>,
    /// Items that came without the time (left out).
    missing: Cell<usize>,
}

/// The targets (a profile's `sla_days`) and the time ages are counted to.
#[derive(Debug, Clone, Copy)]
pub(super) struct OverTarget {
    pub(super) targets: SlaDays,
    pub(super) now: Timestamp,
}

/// What carries a first-detection time (and what open age needs).
pub(super) trait FirstDetectedAt {
    fn first_detected_at(&self) -> Option<Timestamp>;
    fn severity_and_state(&self) -> (Option<Severity>, Option<AggregateState>);
}

impl FirstDetectedAt for IssueItem {
    fn first_detected_at(&self) -> Option<Timestamp> {
        self.issue.as_ref().and_then(|i| i.first_detected_at)
    }
    fn severity_and_state(&self) -> (Option<Severity>, Option<AggregateState>) {
        self.issue.as_ref().map_or((None, None), |i| {
            (i.severity.clone(), i.aggregate_state.clone())
        })
    }
}

impl FirstDetected {
    pub(super) fn parse(since: Option<&str>, until: Option<&str>) -> Result<Self, UsageError> {
        let time = |flag: &str, value: Option<&str>| {
            value
                .map(|v| parse_time(v.trim()).map_err(|e| UsageError(format!("{flag}: {e}"))))
                .transpose()
        };
        Ok(FirstDetected {
            since: time("--first-detected-since", since)?,
            until: time("--first-detected-until", until)?,
            over_target: None,
            missing: Cell::new(0),
        })
    }

    /// Also keeps only open findings past their target.
    pub(super) fn over(mut self, over_target: Option<OverTarget>) -> Self {
        self.over_target = over_target;
        self
    }

    pub(super) fn is_set(&self) -> bool {
        self.since.is_some() || self.until.is_some() || self.over_target.is_some()
    }

    /// Whether an open finding of `severity`, first detected `at`, is past
    /// its target (always, when no target is asked about).
    fn past_target<T: FirstDetectedAt>(&self, item: &T, at: Timestamp) -> bool {
        let Some(o) = &self.over_target else {
            return true;
        };
        match item.severity_and_state() {
            (Some(severity), Some(state)) if state.is_open() => {
                o.targets.days_over(&severity, at, o.now).is_some()
            }
            _ => false,
        }
    }

    /// The items of a page inside the window. One without the time cannot
    /// be placed: it is left out, and counted for [`FirstDetected::warn`].
    pub(super) fn keep<T: FirstDetectedAt>(&self, items: Vec<T>) -> Vec<T> {
        if !self.is_set() {
            return items;
        }
        items
            .into_iter()
            .filter(|item| {
                if let Some(at) = item.first_detected_at() {
                    self.since.is_none_or(|s| at >= s)
                        && self.until.is_none_or(|u| at < u)
                        && self.past_target(item, at)
                } else {
                    self.missing.set(self.missing.get() + 1);
                    false
                }
            })
            .collect()
    }

    /// One line on stderr when items were left out for want of the time.
    pub(super) fn warn(&self) {
        let n = self.missing.get();
        if n > 0 {
            eprintln!(
                "findings: warning: {n} finding{} came without firstDetectedAt and {} left out",
                if n == 1 { "" } else { "s" },
                if n == 1 { "was" } else { "were" }
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use findings_model::Issue;

    fn item(at: Option<&str>) -> IssueItem {
        IssueItem {
            issue: Some(Issue {
                first_detected_at: at.map(|t| t.parse().unwrap()),
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    #[test]
    fn the_window_keeps_since_inclusive_until_exclusive_and_counts_the_unknown() {
        let w = FirstDetected::parse(Some("2026-01-01"), Some("2026-02-01")).unwrap();
        assert!(w.is_set());
        let kept = w.keep(vec![
            item(Some("2025-12-31T23:59:59Z")),
            item(Some("2026-01-01T00:00:00Z")),
            item(Some("2026-01-31T23:59:59Z")),
            item(Some("2026-02-01T00:00:00Z")),
            item(None),
        ]);
        let times: Vec<_> = kept
            .iter()
            .map(|i| i.first_detected_at().unwrap().to_rfc3339())
            .collect();
        assert_eq!(
            times,
            ["2026-01-01T00:00:00+00:00", "2026-01-31T23:59:59+00:00"]
        );
        assert_eq!(w.missing.get(), 1);
        let open = FirstDetected::parse(None, None).unwrap();
        assert_eq!(open.keep(vec![item(None)]).len(), 1, "no window, no filter");
        let e = FirstDetected::parse(Some("yesterday"), None).unwrap_err();
        assert!(e.0.starts_with("--first-detected-since: "), "{e}");
    }

    #[test]
    fn over_target_keeps_open_findings_past_their_severitys_target() {
        let now: Timestamp = "2026-11-26T00:00:00Z".parse().unwrap();
        let w = FirstDetected::parse(None, None)
            .unwrap()
            .over(Some(OverTarget {
                targets: SlaDays::default(),
                now,
            }));
        assert!(w.is_set());
        let found = |days: i64, severity: Severity, state: AggregateState| IssueItem {
            issue: Some(Issue {
                id: Some(format!("{days}-{}-{}", severity.as_wire(), state.as_wire())),
                first_detected_at: Some(now - chrono::Duration::days(days)),
                severity: Some(severity),
                aggregate_state: Some(state),
                ..Default::default()
            }),
            ..Default::default()
        };
        let kept = w.keep(vec![
            found(8, Severity::Critical, AggregateState::Open),
            found(7, Severity::Critical, AggregateState::Open),
            found(31, Severity::High, AggregateState::Fixing),
            found(400, Severity::Low, AggregateState::Fixed),
            found(400, Severity::Info, AggregateState::Open),
            found(181, Severity::Low, AggregateState::Reviewing),
        ]);
        let ids: Vec<String> = kept.into_iter().filter_map(|i| i.issue?.id).collect();
        assert_eq!(
            ids.iter()
                .map(|id| id.split('-').next().unwrap())
                .collect::<Vec<_>>(),
            ["8", "31", "181"],
            "past 7, 30 and 180 days; not a fixed one, not info: {ids:?}"
        );
    }
}
