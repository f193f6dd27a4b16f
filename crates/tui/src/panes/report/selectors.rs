//! The Report's selectors as remembered between runs
//! ([`ReportSelectors`]): taken from the pane when the app ends, given
//! back to it at the next start. A value no longer known is left at its
//! default.

use super::{PERIODS, ReportPane, SEVERITIES, TYPES};
use crate::state::remembered::ReportSelectors;
use findings_model::*;

impl ReportPane {
    /// The selectors in force.
    pub fn selectors(&self) -> ReportSelectors {
        fn on<T>(flags: &[bool], values: &[T], wire: fn(&T) -> &str) -> Vec<String> {
            flags
                .iter()
                .zip(values)
                .filter(|(on, _)| **on)
                .map(|(_, v)| wire(v).to_owned())
                .collect()
        }
        ReportSelectors {
            report_type: Some(self.report_type.as_wire().to_owned()),
            period_days: self.period_days,
            bucket: self.bucket.as_ref().map(|b| b.as_wire().to_owned()),
            state: self.finding_state.as_ref().map(|s| s.as_wire().to_owned()),
            types: on(&self.types, &TYPES, FindingType::as_wire),
            severities: on(&self.severities, &SEVERITIES, FindingSeverity::as_wire),
            projects: self.projects.clone(),
        }
    }

    /// Takes remembered selectors (before the first query).
    pub(super) fn restore(&mut self, s: &ReportSelectors) {
        if let Some(t) = s.report_type.as_deref().map(ReportType::from_wire)
            && t.is_known()
        {
            self.report_type = t;
        }
        if PERIODS.contains(&s.period_days) {
            self.period_days = s.period_days;
        }
        self.bucket = s
            .bucket
            .as_deref()
            .map(TimeBucketSize::from_wire)
            .filter(|b| b.is_known());
        self.finding_state = s
            .state
            .as_deref()
            .map(AggregateState::from_wire)
            .filter(|b| b.is_known());
        self.types = TYPES.map(|t| s.types.iter().any(|w| w == t.as_wire()));
        self.severities = SEVERITIES.map(|v| s.severities.iter().any(|w| w == v.as_wire()));
        self.projects = s
            .projects
            .iter()
            .map(|p| p.trim().to_owned())
            .filter(|p| !p.is_empty())
            .collect();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selectors_round_trip_and_unknown_values_are_dropped() {
        let mut pane = ReportPane {
            period_days: Some(30),
            bucket: Some(TimeBucketSize::ALL[0].clone()),
            finding_state: Some(AggregateState::Open),
            types: [false, true, false],
            severities: [true, false, false, true],
            projects: vec!["acme/a".into()],
            ..ReportPane::default()
        };
        let saved = pane.selectors();
        let mut fresh = ReportPane::default();
        fresh.restore(&saved);
        assert_eq!(fresh.selectors(), saved);
        let odd = ReportSelectors {
            report_type: Some("REPORT_TYPE_FROM_THE_FUTURE".into()),
            period_days: Some(12),
            state: Some("NOPE".into()),
            types: vec!["FINDING_TYPE_NOPE".into()],
            ..Default::default()
        };
        pane.restore(&odd);
        assert_eq!(pane.report_type, ReportType::TotalOpen);
        assert_eq!(pane.period_days, Some(30), "an unknown period is not taken");
        assert_eq!(pane.finding_state, None);
        assert_eq!(pane.types, [false; 3]);
    }
}
