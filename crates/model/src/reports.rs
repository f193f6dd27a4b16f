//! The reporting service's dashboard reports (`ReportsService_Get*Report`,
//! all `POST /api/reporting/{deploymentId}/reports/...`): one request of
//! the Report pane's filters, and an answer per report. Counts are numbers
//! in the published schema (strings are read too); the maps are keyed as
//! docs/src/api.md ("Dashboard reports") says.

use super::report::{ReportFilters, TimePeriod};
use super::wire;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;
use std::collections::BTreeMap;

/// The dashboard's reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DashboardReport {
    Activity,
    ByProject,
    BacklogByRule,
    BacklogBySeverity,
    MedianOpenAge,
}

impl DashboardReport {
    pub const ALL: [DashboardReport; 5] = [
        DashboardReport::Activity,
        DashboardReport::ByProject,
        DashboardReport::BacklogByRule,
        DashboardReport::BacklogBySeverity,
        DashboardReport::MedianOpenAge,
    ];

    /// Its name on the command line (`report --kind NAME`).
    pub fn name(self) -> &'static str {
        match self {
            DashboardReport::Activity => "activity",
            DashboardReport::ByProject => "by-project",
            DashboardReport::BacklogByRule => "backlog-by-rule",
            DashboardReport::BacklogBySeverity => "backlog-by-severity",
            DashboardReport::MedianOpenAge => "open-age",
        }
    }

    /// The end of its path, after `/api/reporting/{deploymentId}/reports/`.
    pub fn path(self) -> &'static str {
        match self {
            DashboardReport::Activity => "activity",
            DashboardReport::ByProject => "by-project/by-severity",
            DashboardReport::BacklogByRule => "backlog/by-rule",
            DashboardReport::BacklogBySeverity => "backlog/by-severity",
            DashboardReport::MedianOpenAge => "median-open-age/by-severity",
        }
    }
}

/// A dashboard report's answer.
#[derive(Debug, Clone, PartialEq)]
pub enum DashboardAnswer {
    Activity(Box<ActivityReport>),
    ByProject(ByProjectReport),
    BacklogByRule(BacklogByRuleReport),
    /// Backlog by severity, or median open age by severity.
    BySeverity(BySeverityReport),
}

/// `GetReportRequest`: the filters every dashboard report takes.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct GetReportRequest {
    pub filters: Option<ReportFilters>,
}

/// Counts by severity (the by-project, backlog and median-age reports'
/// rows).
#[skip_serializing_none]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct BySeverity {
    #[serde(with = "wire::int64_number")]
    pub low: Option<i64>,
    #[serde(with = "wire::int64_number")]
    pub medium: Option<i64>,
    #[serde(with = "wire::int64_number")]
    pub high: Option<i64>,
    #[serde(with = "wire::int64_number")]
    pub critical: Option<i64>,
}

impl BySeverity {
    /// Critical, high, medium, low (absent: 0), most severe first.
    pub fn most_severe_first(&self) -> [i64; 4] {
        [self.critical, self.high, self.medium, self.low].map(|n| n.unwrap_or(0))
    }

    pub fn total(&self) -> i64 {
        self.most_severe_first().iter().sum()
    }
}

/// `ReportsService_GetFindingsActivityReport`: per time bucket, what was
/// opened, fixed, ignored, removed and provisionally ignored, and the net;
/// the totals; this period against the one before.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ActivityReport {
    #[serde(
        deserialize_with = "wire::page_items",
        skip_serializing_if = "wire::is_empty"
    )]
    pub buckets: Vec<ActivityBucket>,
    #[serde(with = "wire::int64_number")]
    pub total_new: Option<i64>,
    #[serde(with = "wire::int64_number")]
    pub total_fixed: Option<i64>,
    #[serde(with = "wire::int64_number")]
    pub total_ignored: Option<i64>,
    #[serde(with = "wire::int64_number")]
    pub total_net_new: Option<i64>,
    #[serde(with = "wire::int64_number")]
    pub total_provisionally_ignored: Option<i64>,
    pub this_period: Option<ActivityTotals>,
    pub previous_period: Option<ActivityTotals>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ActivityBucket {
    pub time_period: Option<TimePeriod>,
    #[serde(with = "wire::int64_number")]
    pub opened: Option<i64>,
    #[serde(with = "wire::int64_number")]
    pub ignored: Option<i64>,
    #[serde(with = "wire::int64_number")]
    pub fixed: Option<i64>,
    #[serde(with = "wire::int64_number")]
    pub removed: Option<i64>,
    #[serde(with = "wire::int64_number")]
    pub provisionally_ignored: Option<i64>,
    #[serde(with = "wire::int64_number")]
    pub net: Option<i64>,
}

/// One period's totals (`GetFindingsActivityReportResponse_SummaryTotals`).
#[skip_serializing_none]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ActivityTotals {
    #[serde(with = "wire::int64_number")]
    pub total_new: Option<i64>,
    #[serde(with = "wire::int64_number")]
    pub total_fixed: Option<i64>,
    #[serde(with = "wire::int64_number")]
    pub total_ignored: Option<i64>,
    #[serde(with = "wire::int64_number")]
    pub total_net_new: Option<i64>,
    #[serde(with = "wire::int64_number")]
    pub total_provisionally_ignored: Option<i64>,
}

/// `ReportsService_GetFindingsByProjectAndSeverityReport`: open findings
/// by repository (keyed by its name) and severity.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ByProjectReport {
    #[serde(deserialize_with = "wire::null_as_default")]
    pub by_project: BTreeMap<String, BySeverity>,
}

/// What an activity report's rows add up to: the headline, so it is the
/// sum of the rows shown under it, each term said, as their columns are:
/// `ignored` leaves out the provisionally ignored (a column of their own),
/// and `net = opened − fixed − ignored − provisionally ignored − removed`.
/// Serialized (camelCase) as the `headline` a script reads beside the
/// operation's own totals.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ActivitySums {
    pub opened: i64,
    pub fixed: i64,
    pub removed: i64,
    pub ignored: i64,
    pub provisionally_ignored: i64,
    pub net: i64,
}

impl ActivitySums {
    /// Every term of the net in words, each against `before` when there is
    /// a period to compare with: "opened 540 (+311)", "fixed 131 (+80)",
    /// "ignored 88 (+70)", "provisionally ignored 23 (+8)",
    /// "removed 38 (+22)", "net 260 (+131)". The one wording of the TUI's headline and every
    /// headless format; `number` writes a count (with or without
    /// thousands separators).
    pub fn terms(
        &self,
        before: Option<&ActivitySums>,
        number: impl Fn(i64) -> String,
    ) -> Vec<String> {
        let term = |label: &str, now: i64, then: Option<i64>| match then {
            Some(then) => {
                let d = now - then;
                let sign = if d >= 0 { "+" } else { "-" };
                format!("{label} {} ({sign}{})", number(now), number(d.abs()))
            }
            None => format!("{label} {}", number(now)),
        };
        vec![
            term("opened", self.opened, before.map(|b| b.opened)),
            term("fixed", self.fixed, before.map(|b| b.fixed)),
            term("ignored", self.ignored, before.map(|b| b.ignored)),
            term(
                "provisionally ignored",
                self.provisionally_ignored,
                before.map(|b| b.provisionally_ignored),
            ),
            term("removed", self.removed, before.map(|b| b.removed)),
            term("net", self.net, before.map(|b| b.net)),
        ]
    }
}

impl ActivityReport {
    /// The rows (buckets) added up.
    pub fn row_sums(&self) -> ActivitySums {
        let n = |v: Option<i64>| v.unwrap_or(0);
        let mut sums = ActivitySums::default();
        for b in &self.buckets {
            sums.opened += n(b.opened);
            sums.fixed += n(b.fixed);
            sums.removed += n(b.removed);
            sums.provisionally_ignored += n(b.provisionally_ignored);
            sums.ignored += n(b.ignored);
        }
        sums.net =
            sums.opened - sums.fixed - sums.ignored - sums.provisionally_ignored - sums.removed;
        sums
    }
}

impl ActivityTotals {
    /// The period's totals as [`ActivitySums`] (removed is not among the
    /// published totals: what the net leaves over).
    pub fn sums(&self) -> ActivitySums {
        let n = |v: Option<i64>| v.unwrap_or(0);
        let (opened, fixed, net) = (
            n(self.total_new),
            n(self.total_fixed),
            n(self.total_net_new),
        );
        let ignored = n(self.total_ignored);
        let provisionally_ignored = n(self.total_provisionally_ignored);
        ActivitySums {
            opened,
            fixed,
            removed: opened - fixed - ignored - provisionally_ignored - net,
            ignored,
            provisionally_ignored,
            net,
        }
    }
}

impl ByProjectReport {
    /// The repositories worst first: by critical, then high, medium, low
    /// (then by name).
    pub fn worst_first(&self) -> Vec<(&String, &BySeverity)> {
        let mut repos: Vec<(&String, &BySeverity)> = self.by_project.iter().collect();
        repos.sort_by_key(|(name, c)| (std::cmp::Reverse(c.most_severe_first()), *name));
        repos
    }
}

/// `ReportsService_GetBacklogByRuleReport`: per bucket, the findings open
/// at its end by rule (keyed by rule id).
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct BacklogByRuleReport {
    #[serde(
        deserialize_with = "wire::page_items",
        skip_serializing_if = "wire::is_empty"
    )]
    pub buckets: Vec<RuleBucket>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RuleBucket {
    pub time_period: Option<TimePeriod>,
    #[serde(deserialize_with = "wire::null_as_default")]
    pub open: BTreeMap<String, Count>,
}

impl RuleBucket {
    /// The rules most open first (then by id), absent counts as 0.
    pub fn most_first(&self) -> Vec<(&String, i64)> {
        let mut rules: Vec<(&String, i64)> = self
            .open
            .iter()
            .map(|(k, c)| (k, c.0.unwrap_or(0)))
            .collect();
        rules.sort_by_key(|(k, n)| (std::cmp::Reverse(*n), *k));
        rules
    }
}

/// A count in a map (a number, or a string of digits).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Count(#[serde(with = "wire::int64_number")] pub Option<i64>);

/// `ReportsService_GetBacklogBySeverityReport` (the findings open at each
/// bucket's end) and `ReportsService_GetMedianOpenAgeBySeverityReport`
/// (the median age in days of those findings): per bucket, by severity.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct BySeverityReport {
    #[serde(
        deserialize_with = "wire::page_items",
        skip_serializing_if = "wire::is_empty"
    )]
    pub buckets: Vec<SeverityBucket>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SeverityBucket {
    pub time_period: Option<TimePeriod>,
    #[serde(flatten)]
    pub counts: BySeverity,
}

#[cfg(test)]
mod tests {
    use super::ActivitySums;

    /// One wording for every term of the net, the provisionally ignored a
    /// term of their own (as their column is), a fall said with its minus
    /// once.
    #[test]
    fn the_terms_say_every_part_of_the_net_against_the_period_before() {
        let now = ActivitySums {
            opened: 1_540,
            fixed: 131,
            removed: 38,
            ignored: 111,
            provisionally_ignored: 23,
            net: 1_260,
        };
        let before = ActivitySums {
            opened: 229,
            fixed: 151,
            ..now
        };
        let grouped = |n: i64| {
            let s = n.to_string();
            if s.len() > 3 {
                format!("{},{}", &s[..s.len() - 3], &s[s.len() - 3..])
            } else {
                s
            }
        };
        assert_eq!(
            now.terms(Some(&before), grouped),
            [
                "opened 1,540 (+1,311)",
                "fixed 131 (-20)",
                "ignored 111 (+0)",
                "provisionally ignored 23 (+0)",
                "removed 38 (+0)",
                "net 1,260 (+0)",
            ]
        );
        assert_eq!(now.terms(None, |n| n.to_string())[0], "opened 1540");
    }

    /// The headline is each column added up (the ignored without the
    /// provisionally ignored, as the IGNORED column is), and the net every
    /// term taken from the opened; the period's published totals, which
    /// have no removed, give the same figures (removed what the net leaves).
    #[test]
    fn the_headline_is_the_columns_added_up_and_the_totals_agree() {
        use super::{ActivityBucket, ActivityReport, ActivityTotals};
        let bucket = |o, f, i, p, r| ActivityBucket {
            opened: Some(o),
            fixed: Some(f),
            ignored: Some(i),
            provisionally_ignored: Some(p),
            removed: Some(r),
            net: Some(o - f - i - p - r),
            ..Default::default()
        };
        let report = ActivityReport {
            buckets: vec![bucket(69, 17, 6, 0, 6), bucket(85, 17, 8, 2, 4)],
            this_period: Some(ActivityTotals {
                total_new: Some(154),
                total_fixed: Some(34),
                total_ignored: Some(14),
                total_provisionally_ignored: Some(2),
                total_net_new: Some(94),
            }),
            ..Default::default()
        };
        let rows = report.row_sums();
        assert_eq!(
            rows,
            ActivitySums {
                opened: 154,
                fixed: 34,
                ignored: 14,
                provisionally_ignored: 2,
                removed: 10,
                net: 94,
            }
        );
        assert_eq!(report.this_period.unwrap().sums(), rows);
    }
}
