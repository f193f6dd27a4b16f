//! What the report's number covers, in words, and how it compares with
//! the Issues list. A report type is a state set and a time it reads
//! (docs/src/api.md, "Report findings"); where the Issues list can ask the
//! same question (the same states, types, severities, repositories and
//! no creation-time bound it lacks), the pane asks Get issue counts for it
//! and says whether the numbers agree, and when not, why: the report
//! counts archived projects' findings, which the list leaves out.

use super::{ReportPane, SEVERITIES, TYPES};

/// Why the open backlog of a longer period is smaller: it counts what was
/// created before the period's start.
const LONGER_PERIOD_FEWER: &str = "a longer period counts fewer";
use crate::widgets::common::date;
use findings_model::*;

impl ReportPane {
    /// The filters of the dashboard's reports: the selectors', over the
    /// period (a year back for "all time") in the bucket chosen, else weeks
    /// up to 90 days and months beyond.
    pub fn dashboard_filters(&self) -> ReportFilters {
        let mut f = self.request(None).filters.unwrap_or_default();
        f.time_period = Some(TimePeriod {
            since: self.dashboard_since.or(self.since),
            until: self.until,
        });
        f.time_bucket_size = Some(self.dashboard_bucket());
        f
    }

    /// The bucket of the dashboard's reports: the one chosen, else weeks
    /// up to 90 days and months beyond.
    pub(super) fn dashboard_bucket(&self) -> TimeBucketSize {
        self.bucket
            .clone()
            .unwrap_or(if self.period_days.is_some_and(|d| d <= 90) {
                TimeBucketSize::Week
            } else {
                TimeBucketSize::Month
            })
    }

    /// The period as a bound on time, in words: `since 2026-11-18 (7
    /// days)`, `at any time`.
    fn period_words(&self) -> String {
        match self.since {
            Some(since) if self.new_only => format!("since {} (last visit)", date(&Some(since))),
            Some(since) => format!(
                "since {} ({} days)",
                date(&Some(since)),
                self.period_days.unwrap_or(0)
            ),
            None => "at any time".to_owned(),
        }
    }

    /// What the report type counts, bounded by the period, in one line:
    /// `total-open: findings open, reviewing or fixing now, created at any
    /// time`.
    pub fn covers(&self) -> String {
        let period = self.period_words();
        let what = match &self.report_type {
            ReportType::TotalOpen => format!("open, reviewing or fixing now, created {period}"),
            ReportType::TotalFixed => format!("fixed now, created {period}"),
            ReportType::TotalIgnored => {
                format!("ignored now (in the app or in code), created {period}")
            }
            ReportType::TotalProvisionallyIgnored => {
                format!("provisionally ignored now, created {period}")
            }
            // A longer period starts earlier: its backlog is smaller.
            ReportType::OpenBacklog => match self.since {
                Some(since) => {
                    return format!(
                        "{}: open now, created before {} ({LONGER_PERIOD_FEWER}){}",
                        self.report_type.label(),
                        date(&Some(since)),
                        self.only_state()
                    );
                }
                None => "open, reviewing or fixing now, created at any time".to_owned(),
            },
            ReportType::BacklogActivity => {
                format!("in any state, with activity (triage, fix, comment) {period}")
            }
            ReportType::Project => format!("in any state, created {period}"),
            ReportType::GuardrailsActivity => {
                format!("blocking (guardrails), in any state, created {period}")
            }
            ReportType::Other(_) => "as the server counts this type (it is not described)".into(),
        };
        format!(
            "{}: findings {what}{}",
            self.report_type.label(),
            self.only_state()
        )
    }

    /// ", only fixing" when a state is chosen.
    fn only_state(&self) -> String {
        self.finding_state
            .as_ref()
            .map(|s| format!(", only {}", s.label()))
            .unwrap_or_default()
    }

    /// What the period chosen means, said where it is chosen (`p`): the
    /// bound it sets, and for the backlog why a longer one counts fewer.
    pub fn period_chosen(&self) -> String {
        match (&self.report_type, self.since) {
            (ReportType::OpenBacklog, Some(since)) => format!(
                "period {}: open-backlog counts findings created before {} and open now; \
                 a longer period starts earlier, so it counts fewer",
                self.period_label(),
                date(&Some(since))
            ),
            _ => format!("period {}: {}", self.period_label(), self.covers()),
        }
    }

    /// The Issues list filter that asks the report's question, or why
    /// there is none.
    pub fn issues_question(&self) -> Result<ListSelection, &'static str> {
        use AggregateState as S;
        let mut states = match &self.report_type {
            ReportType::TotalOpen | ReportType::OpenBacklog => {
                vec![S::Open, S::Reviewing, S::Fixing]
            }
            ReportType::TotalFixed => vec![S::Fixed],
            ReportType::TotalIgnored => vec![S::IgnoredApp, S::IgnoredCode],
            ReportType::TotalProvisionallyIgnored => vec![S::ProvisionallyIgnoredApp],
            ReportType::Project => Vec::new(),
            ReportType::BacklogActivity => return Err("it has no filter by latest activity"),
            ReportType::GuardrailsActivity => return Err("it has no filter for blocking findings"),
            ReportType::Other(_) => return Err("this report type is not described"),
        };
        if let Some(state) = &self.finding_state {
            if !states.is_empty() && !states.contains(state) {
                return Err("the state chosen is not one this report type counts");
            }
            states = vec![state.clone()];
        }
        let mut selection = ListSelection::default();
        let f = &mut selection.filter;
        match (&self.report_type, self.since) {
            (_, None) => {}
            // "Created before": the bound the backlog reads.
            (ReportType::OpenBacklog, Some(since)) => f.until = Some(since),
            _ => return Err("it bounds relevant-since, not the creation time the period reads"),
        }
        f.aggregate_issue_states = states;
        f.severities = SEVERITIES
            .iter()
            .zip(self.severities)
            .filter(|(_, on)| *on)
            .map(|(s, _)| Severity::from_wire(&s.as_wire().replacen("FINDING_", "", 1)))
            .collect();
        f.repository_names = self.projects.clone();
        selection.issue_types = TYPES
            .iter()
            .zip(self.types)
            .filter(|(_, on)| *on)
            .flat_map(|(t, _)| match t {
                FindingType::Code => vec![IssueType::Sast, IssueType::AiSast],
                FindingType::Sca => vec![IssueType::Sca],
                _ => vec![IssueType::Secrets],
            })
            .collect();
        Ok(selection)
    }
}

/// How the report's total compares with the Issues list's count for the
/// same question.
#[derive(Debug, Clone, PartialEq)]
pub enum Comparison {
    /// The Issues list cannot ask it: why.
    NotComparable(&'static str),
    /// The list's count is being asked for (or the report's total).
    Pending,
    /// The same number.
    Same { listed: i64 },
    /// The report counts archived projects' findings too.
    Archived { listed: i64, archived: i64 },
    /// Another difference the counts do not explain.
    Differs { listed: i64, archived: i64 },
    /// The list's count could not be had: why.
    Unavailable(String),
}

impl ReportPane {
    /// The report's total against the Issues list's count.
    pub fn comparison(&self) -> Comparison {
        use crate::list::issue_counts::CountState;
        let question = match self.issues_question() {
            Ok(q) => q,
            Err(why) => return Comparison::NotComparable(why),
        };
        let total = self.current_totals().and_then(|t| t.all);
        match (&self.issues.state, self.issues.known_for(&question), total) {
            (CountState::Failed(e), _, _) => Comparison::Unavailable(e.clone()),
            (CountState::Stopped, _, _) => Comparison::Unavailable("stopped".into()),
            (_, Some(c), Some(total)) => {
                let (listed, archived) = (c.listed(), c.archived.unwrap_or(0).max(0));
                if total == listed {
                    Comparison::Same { listed }
                } else if archived > 0 && Some(total) == listed.checked_add(archived) {
                    Comparison::Archived { listed, archived }
                } else {
                    Comparison::Differs { listed, archived }
                }
            }
            _ => Comparison::Pending,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_report_type_says_what_it_counts() {
        let mut pane = ReportPane::default();
        assert_eq!(
            pane.covers(),
            "total-open: findings open, reviewing or fixing now, created at any time"
        );
        pane.report_type = ReportType::OpenBacklog;
        pane.period_days = Some(7);
        pane.since = Some("2026-11-18T10:00:00Z".parse().unwrap());
        assert!(
            pane.covers()
                == "open-backlog: open now, created before 2026-11-18 (a longer period counts fewer)",
            "{}",
            pane.covers()
        );
        for t in ReportType::ALL {
            pane.report_type = t.clone();
            assert!(pane.covers().starts_with(t.label()), "{}", pane.covers());
        }
    }

    #[test]
    fn the_issues_question_is_the_report_s_where_the_list_can_ask_it() {
        let mut pane = ReportPane {
            severities: [true, false, false, false],
            types: [true, false, false],
            ..ReportPane::default()
        };
        let q = pane.issues_question().unwrap();
        assert_eq!(q.filter.severities, [Severity::Critical]);
        assert_eq!(
            q.filter.aggregate_issue_states,
            [
                AggregateState::Open,
                AggregateState::Reviewing,
                AggregateState::Fixing
            ]
        );
        assert_eq!(q.issue_types, [IssueType::Sast, IssueType::AiSast]);
        pane.since = Some("2026-11-18T10:00:00Z".parse().unwrap());
        pane.period_days = Some(7);
        assert!(pane.issues_question().is_err(), "created in a period");
        pane.report_type = ReportType::OpenBacklog;
        assert_eq!(pane.issues_question().unwrap().filter.until, pane.since);
        pane.report_type = ReportType::BacklogActivity;
        assert!(pane.issues_question().is_err());
        pane.report_type = ReportType::TotalFixed;
        pane.since = None;
        pane.finding_state = Some(AggregateState::Open);
        assert!(pane.issues_question().is_err(), "a state it does not count");
    }
}
