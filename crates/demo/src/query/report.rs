//! Report findings: its filter semantics (docs/src/api.md, "Semantics of
//! filters", Report findings), its totals and its pages.

use super::memo::{Bits, ReportScan};
use super::order::Orders;
use super::pages::{collect_page, page_limit};
use super::{BadRequest, CLASS_KINDS, bound, class};
use crate::cursor::{self, Cursor};
use crate::dataset::*;
use crate::materialize::Parts;
use chrono::{DateTime, Duration, Utc};
use findings_model::*;

fn bucket_end(start: DateTime<Utc>, size: &TimeBucketSize) -> DateTime<Utc> {
    match size {
        TimeBucketSize::Week => start + Duration::days(7),
        TimeBucketSize::Month => start
            .checked_add_months(chrono::Months::new(1))
            .unwrap_or(start + Duration::days(31)),
        _ => start + Duration::days(1),
    }
}

/// A Report findings filter compiled against the data set, like
/// [`ListMatcher`](super::list::ListMatcher): per-entry decisions in
/// tables, a row test of look-ups.
struct ReportMatcher<'a> {
    ds: &'a Dataset,
    /// The state the rows are matched in (triage applied).
    changes: &'a Changes,
    report_type: ReportType,
    created_range: (Option<i64>, Option<i64>),
    bucket: Option<(i64, i64)>,
    /// By aggregate state: the report type's states and `findingState`.
    state_ok: Vec<bool>,
    kind_ok: [bool; 4],
    severity_ok: Vec<bool>,
    confidence_ok: Vec<bool>,
    /// By reachability index; `None` for findings without one.
    reachability_ok: Option<Vec<bool>>,
    validity_ok: Option<Vec<bool>>,
    /// By verdict index, the last entry for findings without a verdict.
    verdict_ok: Vec<bool>,
    repo_ok: Vec<bool>,
    team_ok: Vec<bool>,
    rule_ok: [Vec<bool>; 3],
}

impl<'a> ReportMatcher<'a> {
    fn new(
        ds: &'a Dataset,
        changes: &'a Changes,
        req: &ReportRequest,
        f: &'a ReportFilters,
    ) -> Self {
        let since = f.time_period.as_ref().and_then(|p| p.since).map(bound);
        let until = f.time_period.as_ref().and_then(|p| p.until).map(bound);
        let bucket = req.bucket_start.map(|start| {
            let size = f.time_bucket_size.clone().unwrap_or(TimeBucketSize::Day);
            (bound(start), bound(bucket_end(start, &size)))
        });
        let report_type = req.report_type.clone().unwrap_or(ReportType::TotalOpen);
        let state_ok = state_table(&report_type, req.finding_state.as_ref());
        let severity_ok = level_table(
            &f.finding_severities,
            &FindingSeverity::Unspecified,
            FindingSeverity::as_wire,
            Severity::ALL,
            Severity::from_wire,
        );
        let confidence_ok = level_table(
            &f.confidence,
            &FindingConfidence::Unspecified,
            FindingConfidence::as_wire,
            Confidence::ALL,
            Confidence::from_wire,
        );
        let team_ok = ds
            .catalog
            .people
            .teams
            .iter()
            .map(|t| allows(&f.teams, &t.name))
            .collect();
        let rule_ok = CLASS_KINDS.map(|kind| {
            (0..u16::try_from(ds.rule_count(kind)).unwrap_or(u16::MAX))
                .map(|rule| {
                    let facts = ds.rule_facts_of(kind, rule);
                    allows(&f.rule_ids, facts.rule_id)
                        && allows(&f.finding_categories, facts.category)
                })
                .collect()
        });
        ReportMatcher {
            ds,
            changes,
            report_type,
            created_range: (since, until),
            bucket,
            state_ok,
            kind_ok: kind_table(f),
            severity_ok,
            confidence_ok,
            reachability_ok: reachability_table(f),
            validity_ok: validity_table(f),
            verdict_ok: verdict_table(f),
            repo_ok: repo_table(ds, f),
            team_ok,
            rule_ok,
        }
    }

    fn matches(&self, i: usize) -> bool {
        let row = &self.changes.row(i, &self.ds.rows[i]);
        let in_range = |t: i64, (lo, hi): (Option<i64>, Option<i64>)| {
            lo.is_none_or(|s| t >= s) && hi.is_none_or(|u| t < u)
        };
        // OPEN_BACKLOG and BACKLOG_ACTIVITY use the period their own way.
        let by_type_and_period = match self.report_type {
            ReportType::OpenBacklog => self.created_range.0.is_none_or(|s| row.created < s),
            ReportType::BacklogActivity => in_range(row.last_activity, self.created_range),
            ReportType::GuardrailsActivity => {
                row.blocking && in_range(row.created, self.created_range)
            }
            _ => in_range(row.created, self.created_range),
        };
        // A bucket bounds the time the report type reads.
        let bucket_time = match self.report_type {
            ReportType::BacklogActivity => row.last_activity,
            _ => row.created,
        };
        self.state_ok[row.aggregate as usize]
            && by_type_and_period
            && self
                .bucket
                .is_none_or(|(lo, hi)| bucket_time >= lo && bucket_time < hi)
            && self.kind_ok[row.kind as usize]
            && self.severity_ok[row.severity as usize]
            && self.repo_ok[row.repo as usize]
            && self.confidence_ok[row.confidence as usize]
            && self
                .reachability_ok
                .as_ref()
                .is_none_or(|ok| row.reachability.is_some_and(|k| ok[k as usize]))
            && self
                .validity_ok
                .as_ref()
                .is_none_or(|ok| row.validation.is_some_and(|v| ok[v as usize]))
            && self.team_ok[row.team as usize]
            && self.rule_ok[class(row.kind)][row.rule as usize]
            && self.verdict_ok[row.verdict.map_or(Verdict::ALL.len(), usize::from)]
    }

    /// The rows matched and the totals by type, in one pass over the rows.
    fn scan(&self) -> ReportScan {
        let mut scan = ReportScan {
            matches: Bits::new(self.ds.rows.len()),
            total: 0,
            code: 0,
            sca: 0,
            secrets: 0,
        };
        for (i, row) in self.ds.rows.iter().enumerate() {
            if self.matches(i) {
                scan.matches.set(i);
                scan.total += 1;
                match row.kind {
                    Kind::Code | Kind::AiCode => scan.code += 1,
                    Kind::Sca => scan.sca += 1,
                    Kind::Secrets => scan.secrets += 1,
                }
            }
        }
        scan
    }
}

/// An empty list allows every value.
fn allows(list: &[String], v: &str) -> bool {
    list.is_empty() || list.iter().any(|x| x == v)
}

/// By aggregate state: whether the report type counts it, and
/// `findingState` (when given) is it.
fn state_table(report_type: &ReportType, state: Option<&AggregateState>) -> Vec<bool> {
    AggregateState::ALL
        .iter()
        .map(|agg| {
            let by_type = match report_type {
                ReportType::TotalFixed => *agg == AggregateState::Fixed,
                ReportType::TotalIgnored => matches!(
                    agg,
                    AggregateState::IgnoredApp | AggregateState::IgnoredCode
                ),
                ReportType::TotalProvisionallyIgnored => {
                    *agg == AggregateState::ProvisionallyIgnoredApp
                }
                ReportType::OpenBacklog => is_open(agg),
                ReportType::BacklogActivity
                | ReportType::Project
                | ReportType::GuardrailsActivity => true,
                _ => is_open(agg),
            };
            by_type && state.is_none_or(|s| s == agg)
        })
        .collect()
}

/// By kind (code, AI code, SCA, secrets): whether `findingTypes` takes it.
fn kind_table(f: &ReportFilters) -> [bool; 4] {
    let types: Vec<&FindingType> = f
        .finding_types
        .iter()
        .filter(|t| **t != FindingType::Unspecified)
        .collect();
    [Kind::Code, Kind::AiCode, Kind::Sca, Kind::Secrets].map(|kind| {
        let finding_type = match kind {
            Kind::Code | Kind::AiCode => FindingType::Code,
            Kind::Sca => FindingType::Sca,
            Kind::Secrets => FindingType::Secrets,
        };
        types.is_empty() || types.contains(&&finding_type)
    })
}

/// By reachability: whether `reachability` takes it; `None` when the
/// filter is not given.
fn reachability_table(f: &ReportFilters) -> Option<Vec<bool>> {
    let reachability: Vec<&FindingReachability> = f
        .reachability
        .iter()
        .filter(|s| **s != FindingReachability::Unspecified)
        .collect();
    (!reachability.is_empty()).then(|| {
        Reachability::ALL
            .iter()
            .map(|k| {
                let r = match k {
                    Reachability::Reachable => FindingReachability::Reachable,
                    Reachability::AlwaysReachable => FindingReachability::AlwaysReachable,
                    Reachability::ConditionallyReachable => {
                        FindingReachability::ConditionallyReachable
                    }
                    Reachability::Unreachable => FindingReachability::Unreachable,
                    _ => FindingReachability::NoReachabilityAnalysis,
                };
                reachability.contains(&&r)
            })
            .collect()
    })
}

/// By validation state: whether `validity` takes it; `None` when the
/// filter is not given.
fn validity_table(f: &ReportFilters) -> Option<Vec<bool>> {
    let validity: Vec<ValidationState> = f
        .validity
        .iter()
        .filter_map(|v| match v {
            FindingValidity::Valid => Some(ValidationState::ConfirmedValid),
            FindingValidity::Invalid => Some(ValidationState::ConfirmedInvalid),
            FindingValidity::Error => Some(ValidationState::ValidationError),
            FindingValidity::NoValidator => Some(ValidationState::NoValidator),
            _ => None,
        })
        .collect();
    (!validity.is_empty()).then(|| {
        ValidationState::ALL
            .iter()
            .map(|v| validity.contains(v))
            .collect()
    })
}

/// By verdict, then one entry for no verdict: whether `aiVerdicts` takes it.
fn verdict_table(f: &ReportFilters) -> Vec<bool> {
    let verdicts: Vec<&Verdict> = f
        .ai_verdicts
        .iter()
        .filter(|v| **v != Verdict::Unspecified)
        .collect();
    Verdict::ALL
        .iter()
        .chain([&Verdict::NoVerdict])
        .map(|v| verdicts.is_empty() || verdicts.contains(&v))
        .collect()
}

/// By repository: whether the project, tag, deployment status and public
/// exposure filters take it.
fn repo_table(ds: &Dataset, f: &ReportFilters) -> Vec<bool> {
    let deployment_statuses: Vec<&DeploymentStatus> = f
        .deployment_statuses
        .iter()
        .filter(|v| **v != DeploymentStatus::Unspecified)
        .collect();
    let exposures: Vec<&PublicExposure> = f
        .public_exposures
        .iter()
        .filter(|v| **v != PublicExposure::Unspecified)
        .collect();
    ds.catalog
        .repositories
        .iter()
        .zip(&ds.repos)
        .map(|(repo, info)| {
            allows(&f.projects, &repo.name)
                && allows(&f.project_ids, &info.id)
                && (f.tags.is_empty() || repo.tags.iter().any(|t| f.tags.contains(t)))
                && (deployment_statuses.is_empty()
                    || deployment_statuses
                        .contains(&&DeploymentStatus::from_wire(&repo.deployment_status)))
                && (exposures.is_empty()
                    || exposures.contains(&&PublicExposure::from_wire(&repo.public_exposure)))
        })
        .collect()
}

/// The rows `f` matches, every state, whatever its time period (the
/// dashboard's reports read the period their own way), triage applied.
pub(super) fn rows_matching(ds: &Dataset, changes: &Changes, f: &ReportFilters) -> Vec<usize> {
    let untimed = ReportFilters {
        time_period: None,
        ..f.clone()
    };
    let req = ReportRequest {
        report_type: Some(ReportType::Project),
        ..Default::default()
    };
    let matcher = ReportMatcher::new(ds, changes, &req, &untimed);
    (0..ds.rows.len()).filter(|&i| matcher.matches(i)).collect()
}

/// Every enum value of the report filters known (400 naming the first
/// that is not).
pub(super) fn check_filters(f: &ReportFilters) -> Result<(), BadRequest> {
    require_known!(f.time_bucket_size, "filters.timeBucketSize");
    require_known_all!(f.finding_types, "filters.findingTypes");
    require_known_all!(f.finding_severities, "filters.findingSeverities");
    require_known_all!(f.confidence, "filters.confidence");
    require_known_all!(f.reachability, "filters.reachability");
    require_known_all!(f.validity, "filters.validity");
    require_known_all!(f.ai_verdicts, "filters.aiVerdicts");
    require_known_all!(f.deployment_statuses, "filters.deploymentStatuses");
    require_known_all!(f.public_exposures, "filters.publicExposures");
    Ok(())
}

pub(super) fn is_open(s: &AggregateState) -> bool {
    matches!(
        s,
        AggregateState::Open | AggregateState::Reviewing | AggregateState::Fixing
    )
}

pub fn report_findings(
    ds: &Dataset,
    orders: &Orders,
    req: &ReportRequest,
) -> Result<ReportResponse, BadRequest> {
    require_known!(req.report_type, "reportType");
    require_known!(req.finding_state, "findingState");
    let empty = ReportFilters::default();
    let f = req.filters.as_ref().unwrap_or(&empty);
    check_filters(f)?;
    let limit = page_limit(req.limit)?;
    let fp = cursor::fingerprint(
        "report",
        &ReportRequest {
            cursor: None,
            limit: None,
            ..req.clone()
        },
    );
    let start = Cursor::decode_for(req.cursor.as_deref(), fp)?;
    // One state for the whole answer, triage applied.
    let changes = ds.changes();
    let order = orders.list_order(ds, &changes, &SortBy::Severity, &SortDirection::Desc);
    // The totals and rows of the query in this state, kept for its next
    // pages.
    let scan = orders.report_scans.get_or_compute(
        cursor::fingerprint("report-scan", &(fp, changes.generation)),
        || ReportMatcher::new(ds, &changes, req, f).scan(),
    );
    let (items, next) = collect_page(&order, start, limit, |i| scan.matches.get(i));
    Ok(ReportResponse {
        findings: items
            .into_iter()
            .map(|i| ds.issue_with(&changes, i, Parts::default()))
            .collect(),
        cursor: next.map(|pos| {
            Cursor {
                position: pos,
                fingerprint: fp,
            }
            .encode()
        }),
        total: Some(scan.total),
        total_code: Some(scan.code),
        total_sca: Some(scan.sca),
        total_secrets: Some(scan.secrets),
    })
}

/// For a report filter of `FINDING_X` values (severities, confidence): which
/// of the issue enum's `X` values it lets through, indexed like `all`. An
/// empty filter, or only `*_UNSPECIFIED`, lets everything through.
fn level_table<F: PartialEq, T: PartialEq>(
    asked: &[F],
    unspecified: &F,
    wire: impl Fn(&F) -> &str,
    all: &[T],
    from_wire: impl Fn(&str) -> T,
) -> Vec<bool> {
    let wanted: Vec<T> = asked
        .iter()
        .filter(|v| *v != unspecified)
        .map(|v| from_wire(&wire(v).replacen("FINDING_", "", 1)))
        .collect();
    all.iter()
        .map(|v| wanted.is_empty() || wanted.contains(v))
        .collect()
}
