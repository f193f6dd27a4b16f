//! Open age against the profile's targets (`sla_days`): how long an open
//! finding has been open, counted from its first detection, and by how
//! many days it is past its severity's target. What the AGE column shows
//! and what `O` (over target only) keeps.

use crate::message::rows::FindingRow;
use findings_config::SlaDays;
use findings_model::Timestamp;

/// The targets and the time ages are counted to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OpenAge {
    pub targets: SlaDays,
    pub now: Timestamp,
}

/// The age of an open finding and its days past target (defined in the
/// model, where the exports' age columns read it too).
pub use findings_model::Age;

impl OpenAge {
    /// The age of `row` when it is open (open, reviewing, fixing) and its
    /// first detection is known; `None` otherwise (a closed finding has
    /// no open age): [`SlaDays::open_age`].
    pub fn of<T>(&self, row: &FindingRow<T>) -> Option<Age> {
        self.targets.open_age(
            row.severity().as_ref(),
            row.state().as_ref(),
            row.first_detected(),
            self.now,
        )
    }

    /// Whether `row` is open past its target.
    pub fn is_over<T>(&self, row: &FindingRow<T>) -> bool {
        self.of(row).is_some_and(|a| a.over > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use findings_model::{AggregateState, Issue, Severity};

    fn row(severity: Severity, state: AggregateState, first: &str) -> FindingRow<Issue> {
        FindingRow::new(&Issue {
            id: Some("1".into()),
            severity: Some(severity),
            aggregate_state: Some(state),
            first_detected_at: Some(first.parse().unwrap()),
            ..Issue::default()
        })
    }

    #[test]
    fn open_findings_age_from_first_detection_against_their_severitys_target() {
        let age = OpenAge {
            targets: SlaDays::default(),
            now: "2026-11-20T12:00:00Z".parse().unwrap(),
        };
        let critical = row(
            Severity::Critical,
            AggregateState::Open,
            "2026-11-10T00:00:00Z",
        );
        assert_eq!(age.of(&critical), Some(Age { days: 10, over: 3 }));
        assert_eq!(age.of(&critical).unwrap().cell(), "10d +3");
        assert!(age.is_over(&critical));
        // The same age is within a high's 30 days.
        let high = row(
            Severity::High,
            AggregateState::Reviewing,
            "2026-11-10T00:00:00Z",
        );
        assert_eq!(age.of(&high).unwrap().cell(), "10d");
        assert!(!age.is_over(&high));
        // Closed: no open age. Info: no target.
        let fixed = row(
            Severity::Critical,
            AggregateState::Fixed,
            "2026-01-01T00:00:00Z",
        );
        assert_eq!(age.of(&fixed), None);
        let info = row(Severity::Info, AggregateState::Open, "2026-01-01T00:00:00Z");
        assert_eq!(age.of(&info).unwrap().over, 0);
        // Without a first detection (not asked for): nothing.
        let unknown = FindingRow::<Issue>::new(&Issue {
            aggregate_state: Some(AggregateState::Open),
            ..Issue::default()
        });
        assert_eq!(age.of(&unknown), None);
    }
}
