//! The dashboard's reports (`ReportsService_Get*Report`) over the data set,
//! triage applied (docs/src/api.md, "Dashboard reports"): the findings the
//! report filters match, whatever their time, read as a backlog that
//! findings enter when created and leave when fixed, removed, ignored or
//! provisionally ignored.

use super::report::{check_filters, is_open, rows_matching};
use super::{BadRequest, bound, ts};
use crate::dataset::{Dataset, Row};
use findings_model::*;
use std::collections::BTreeMap;

const DAY: i64 = 86_400;

/// The most buckets a report answers (a year of days): more is refused.
pub const MAX_BUCKETS: usize = 366;

/// How a finding left the backlog.
#[derive(Clone, Copy, PartialEq)]
enum Left {
    Fixed,
    Removed,
    Ignored,
    ProvisionallyIgnored,
}

/// What the reports read of a matched finding (a few words, not the row:
/// a report reads every matched finding once per bucket).
#[derive(Clone, Copy)]
struct Life {
    created: i64,
    first_detected: i64,
    /// When it left the backlog, and how; `None` while in it.
    left: Option<(Left, i64)>,
    /// Critical, high, medium, low: 0 to 3 (`None`: not counted).
    severity: Option<usize>,
    kind: crate::dataset::Kind,
    rule: u16,
    repo: u8,
}

impl Life {
    fn of(row: &Row) -> Life {
        Life {
            created: row.created,
            first_detected: row.first_detected.min(row.created),
            left: left(row),
            severity: severity_slot(row),
            kind: row.kind,
            rule: row.rule,
            repo: row.repo,
        }
    }

    /// Whether the finding was in the open backlog at `t`.
    fn open_at(&self, t: i64) -> bool {
        self.created < t && self.left.is_none_or(|(_, at)| at >= t)
    }
}

/// When the finding left the open backlog, and how; `None` while it is in
/// it (open, reviewing, fixing).
fn left(row: &Row) -> Option<(Left, i64)> {
    let state = &AggregateState::ALL[row.aggregate as usize];
    let by_triage = row.triaged_at.unwrap_or(row.last_activity);
    match state {
        s if is_open(s) => None,
        AggregateState::Fixed => Some((Left::Fixed, row.fixed_at.unwrap_or(row.last_activity))),
        AggregateState::IgnoredApp => Some((Left::Ignored, by_triage)),
        AggregateState::IgnoredCode => Some((Left::Ignored, row.last_activity)),
        AggregateState::ProvisionallyIgnoredApp => Some((Left::ProvisionallyIgnored, by_triage)),
        _ => Some((Left::Removed, row.last_activity)),
    }
}

/// A row's severity as the reports count it (info and unknown are not).
fn severity_slot(row: &Row) -> Option<usize> {
    match Severity::ALL.get(row.severity as usize)? {
        Severity::Critical => Some(0),
        Severity::High => Some(1),
        Severity::Medium => Some(2),
        Severity::Low => Some(3),
        _ => None,
    }
}

fn by_severity(counts: [i64; 4]) -> BySeverity {
    let [critical, high, medium, low] = counts.map(Some);
    BySeverity {
        low,
        medium,
        high,
        critical,
    }
}

/// What a report reads: the rows matched (triage applied), the period and
/// its buckets.
struct Scope {
    rows: Vec<Life>,
    since: i64,
    until: i64,
    buckets: Vec<(i64, i64)>,
}

impl Scope {
    fn new(ds: &Dataset, req: &GetReportRequest) -> Result<Scope, BadRequest> {
        let empty = ReportFilters::default();
        let f = req.filters.as_ref().unwrap_or(&empty);
        check_filters(f)?;
        let period = f.time_period.clone().unwrap_or_default();
        let changes = ds.changes();
        // "Now" is the data's now, or just after the latest write when one
        // came later on the wall clock: every report follows a triage at
        // once, as List issues and the counts do.
        let latest_write = changes.findings.values().map(|c| c.last_activity).max();
        let now = latest_write.map_or(ds.now(), |t| ds.now().max(t + 1));
        let until = period.until.map_or(now, bound);
        let since = period.since.map_or(until - 30 * DAY, bound);
        if since >= until {
            return Err(BadRequest(
                "filters.timePeriod: since must be before until".into(),
            ));
        }
        let size = f.time_bucket_size.clone().unwrap_or(TimeBucketSize::Week);
        let mut buckets = Vec::new();
        let mut start = since;
        while start < until {
            if buckets.len() == MAX_BUCKETS {
                return Err(BadRequest(format!(
                    "filters.timePeriod: more than {MAX_BUCKETS} buckets of {}; a shorter period or a larger timeBucketSize",
                    size.as_wire()
                )));
            }
            let end = next_start(start, &size).min(until);
            buckets.push((start, end));
            start = end;
        }
        let rows = rows_matching(ds, &changes, f)
            .into_iter()
            .map(|i| Life::of(&changes.row(i, &ds.rows[i])))
            .collect();
        Ok(Scope {
            rows,
            since,
            until,
            buckets,
        })
    }
}

fn next_start(start: i64, size: &TimeBucketSize) -> i64 {
    match size {
        TimeBucketSize::Week => start + 7 * DAY,
        TimeBucketSize::Month => ts(start)
            .checked_add_months(chrono::Months::new(1))
            .map_or(start + 31 * DAY, |t| t.timestamp()),
        _ => start + DAY,
    }
}

fn period((since, until): (i64, i64)) -> Option<TimePeriod> {
    Some(TimePeriod {
        since: Some(ts(since)),
        until: Some(ts(until)),
    })
}

/// What happened in `[since, until)`: opened, fixed, removed, ignored,
/// provisionally ignored.
fn activity_in(rows: &[Life], (since, until): (i64, i64)) -> [i64; 5] {
    let mut n = [0i64; 5];
    let within = |t: i64| t >= since && t < until;
    for row in rows {
        if within(row.created) {
            n[0] += 1;
        }
        if let Some((how, _)) = row.left.filter(|(_, at)| within(*at)) {
            n[match how {
                Left::Fixed => 1,
                Left::Removed => 2,
                Left::Ignored => 3,
                Left::ProvisionallyIgnored => 4,
            }] += 1;
        }
    }
    n
}

/// Opened less everything that left.
fn net([opened, fixed, removed, ignored, provisional]: [i64; 5]) -> i64 {
    opened - fixed - removed - ignored - provisional
}

fn totals(n: [i64; 5]) -> ActivityTotals {
    ActivityTotals {
        total_new: Some(n[0]),
        total_fixed: Some(n[1]),
        total_ignored: Some(n[3]),
        total_net_new: Some(net(n)),
        total_provisionally_ignored: Some(n[4]),
    }
}

pub fn activity_report(ds: &Dataset, req: &GetReportRequest) -> Result<ActivityReport, BadRequest> {
    let scope = Scope::new(ds, req)?;
    let buckets = scope
        .buckets
        .iter()
        .map(|&b| {
            let n = activity_in(&scope.rows, b);
            ActivityBucket {
                time_period: period(b),
                opened: Some(n[0]),
                fixed: Some(n[1]),
                removed: Some(n[2]),
                ignored: Some(n[3]),
                provisionally_ignored: Some(n[4]),
                net: Some(net(n)),
            }
        })
        .collect();
    let this = activity_in(&scope.rows, (scope.since, scope.until));
    let length = scope.until - scope.since;
    let before = activity_in(&scope.rows, (scope.since - length, scope.since));
    let this_period = totals(this);
    Ok(ActivityReport {
        buckets,
        total_new: this_period.total_new,
        total_fixed: this_period.total_fixed,
        total_ignored: this_period.total_ignored,
        total_net_new: this_period.total_net_new,
        total_provisionally_ignored: this_period.total_provisionally_ignored,
        this_period: Some(this_period),
        previous_period: Some(totals(before)),
    })
}

/// The open backlog at the period's end, by repository name and severity.
pub fn by_project_report(
    ds: &Dataset,
    req: &GetReportRequest,
) -> Result<ByProjectReport, BadRequest> {
    let scope = Scope::new(ds, req)?;
    let mut counts: BTreeMap<String, [i64; 4]> = BTreeMap::new();
    for row in scope.rows.iter().filter(|r| r.open_at(scope.until)) {
        let (Some(slot), Some(repo)) =
            (row.severity, ds.catalog.repositories.get(row.repo as usize))
        else {
            continue;
        };
        counts.entry(repo.name.clone()).or_default()[slot] += 1;
    }
    Ok(ByProjectReport {
        by_project: counts
            .into_iter()
            .map(|(name, n)| (name, by_severity(n)))
            .collect(),
    })
}

/// At each bucket's end, the open backlog by rule id.
pub fn backlog_by_rule_report(
    ds: &Dataset,
    req: &GetReportRequest,
) -> Result<BacklogByRuleReport, BadRequest> {
    let scope = Scope::new(ds, req)?;
    let buckets = scope
        .buckets
        .iter()
        .map(|&(start, end)| {
            let mut open: BTreeMap<String, Count> = BTreeMap::new();
            for row in scope.rows.iter().filter(|r| r.open_at(end)) {
                let rule = ds.rule_facts_of(row.kind, row.rule).rule_id;
                let n = open.entry(rule.to_owned()).or_default();
                n.0 = Some(n.0.unwrap_or(0) + 1);
            }
            RuleBucket {
                time_period: period((start, end)),
                open,
            }
        })
        .collect();
    Ok(BacklogByRuleReport { buckets })
}

impl Scope {
    /// Per bucket, `of` the open backlog's findings of each severity at
    /// its end (critical, high, medium, low).
    fn by_severity_at_each_end(
        &self,
        of: impl Fn(i64, &[Life]) -> Option<i64>,
    ) -> BySeverityReport {
        let buckets = self
            .buckets
            .iter()
            .map(|&(start, end)| {
                let mut open: [Vec<Life>; 4] = Default::default();
                for row in self.rows.iter().filter(|r| r.open_at(end)) {
                    if let Some(slot) = row.severity {
                        open[slot].push(*row);
                    }
                }
                let [critical, high, medium, low] = open.map(|rows| of(end, &rows));
                SeverityBucket {
                    time_period: period((start, end)),
                    counts: BySeverity {
                        low,
                        medium,
                        high,
                        critical,
                    },
                }
            })
            .collect();
        BySeverityReport { buckets }
    }
}

/// At each bucket's end, the open backlog by severity.
pub fn backlog_by_severity_report(
    ds: &Dataset,
    req: &GetReportRequest,
) -> Result<BySeverityReport, BadRequest> {
    let scope = Scope::new(ds, req)?;
    Ok(scope.by_severity_at_each_end(|_, open| Some(crate::wire_int(open.len()))))
}

/// At each bucket's end, the median age in whole days (from first
/// detection) of the open backlog by severity: the lower middle of an even
/// count; a severity with nothing open is left out.
pub fn median_open_age_report(
    ds: &Dataset,
    req: &GetReportRequest,
) -> Result<BySeverityReport, BadRequest> {
    let scope = Scope::new(ds, req)?;
    Ok(scope.by_severity_at_each_end(|end, open| {
        let mut ages: Vec<i64> = open
            .iter()
            .map(|r| (end - r.first_detected).max(0) / DAY)
            .collect();
        ages.sort_unstable();
        ages.get(ages.len().saturating_sub(1) / 2).copied()
    }))
}
