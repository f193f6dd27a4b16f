//! The demo server's query engine: filter semantics (DECISIONS, "Semantics of
//! filters"), total orders (DECISIONS 10) and cursor pages (DECISIONS 7–9).
//!
//! Each sort order is computed once, on first use, as a permutation of row
//! indices; a page walks that permutation from the cursor's position and
//! builds wire objects only for the items it returns.

use super::cursor::{self, Cursor};
use super::dataset::*;
use super::materialize::Parts;
use crate::api::model::*;
use chrono::{DateTime, Duration, TimeZone, Utc};
use std::cmp::Ordering;
use std::collections::HashSet;
use std::sync::OnceLock;

pub const DEFAULT_LIMIT: i64 = 100;
pub const MAX_LIMIT: i64 = 1000;

/// A request the server refuses with 400.
#[derive(Debug, Clone, PartialEq)]
pub struct BadRequest(pub String);

/// Sorted permutations of the rows, built lazily.
pub struct Orders {
    list: [OnceLock<Vec<u32>>; 12],
}

impl Default for Orders {
    fn default() -> Self {
        Orders {
            list: std::array::from_fn(|_| OnceLock::new()),
        }
    }
}

fn page_limit(limit: Option<i64>) -> Result<usize, BadRequest> {
    match limit {
        None | Some(0) => Ok(DEFAULT_LIMIT as usize),
        Some(n) if n < 0 => Err(BadRequest(format!("limit must not be negative (got {n})"))),
        Some(n) => Ok(n.min(MAX_LIMIT) as usize),
    }
}

fn known<T: Clone>(
    value: &Option<T>,
    field: &str,
    is_known: impl Fn(&T) -> bool,
    raw: impl Fn(&T) -> String,
) -> Result<(), BadRequest> {
    match value {
        Some(v) if !is_known(v) => Err(BadRequest(format!(
            "unknown value {:?} for {field}",
            raw(v)
        ))),
        _ => Ok(()),
    }
}

macro_rules! require_known {
    ($value:expr, $field:literal) => {
        known(
            &$value,
            $field,
            |v| v.is_known(),
            |v| v.as_wire().to_owned(),
        )?
    };
}

macro_rules! require_known_all {
    ($values:expr, $field:literal) => {
        for v in &$values {
            if !v.is_known() {
                return Err(BadRequest(format!(
                    "unknown value {:?} for {}",
                    v.as_wire(),
                    $field
                )));
            }
        }
    };
}

fn ts(secs: i64) -> DateTime<Utc> {
    Utc.timestamp_opt(secs, 0).single().unwrap_or_default()
}

/// Walks `order` from `start`, returns up to `limit` matching indices and the
/// position of the next match (the next page's start), if any.
fn collect_page(
    order: &[u32],
    start: usize,
    limit: usize,
    mut matches: impl FnMut(usize) -> bool,
) -> (Vec<usize>, Option<usize>) {
    let mut items = Vec::with_capacity(limit.min(order.len()));
    for (pos, &i) in order.iter().enumerate().skip(start) {
        if matches(i as usize) {
            if items.len() == limit {
                return (items, Some(pos));
            }
            items.push(i as usize);
        }
    }
    (items, None)
}

// ------------------------------------------------------------------ List issues

/// A List issues filter compiled against the data set.
struct ListMatcher<'a> {
    ds: &'a Dataset,
    f: &'a ListIssuesFilter,
    ids: Option<HashSet<usize>>,
    issue_types: Vec<IssueType>,
    sensitivities: Vec<Sensitivity>,
}

impl<'a> ListMatcher<'a> {
    fn new(ds: &'a Dataset, req: &'a ListIssuesRequest, f: &'a ListIssuesFilter) -> Self {
        let ids = (!f.ids.is_empty()).then(|| {
            f.ids
                .iter()
                .filter_map(|id| finding_index(id, ds.rows.len()))
                .collect()
        });
        let mut issue_types: Vec<IssueType> = f
            .issue_types
            .iter()
            .filter(|t| **t != IssueType::Unspecified)
            .cloned()
            .collect();
        if f.issue_types.is_empty()
            && let Some(t) = req
                .issue_type
                .as_ref()
                .filter(|t| **t != IssueType::Unspecified)
        {
            issue_types.push(t.clone());
        }
        let sensitivities = f
            .ai_sensitivities
            .iter()
            .map(|s| Sensitivity::from_wire(s))
            .collect();
        ListMatcher {
            ds,
            f,
            ids,
            issue_types,
            sensitivities,
        }
    }

    fn matches(&self, i: usize) -> bool {
        let ds = self.ds;
        let f = self.f;
        let row = &ds.rows[i];
        let repo = ds.repo(row);
        let info = &ds.repos[row.repo as usize];
        let facts = ds.rule_facts(row);
        let any = |list: &[String], v: &str| list.is_empty() || list.iter().any(|x| x == v);
        let mem = |m: Option<u8>, id: &Option<String>| match id.as_deref() {
            None | Some("") => true,
            Some(id) => m.is_some_and(|k| memory_id(k) == id),
        };
        if let Some(ids) = &self.ids
            && !ids.contains(&i)
        {
            return false;
        }
        let status = &IssueStatus::ALL[row.status as usize];
        any(&f.repository_names, &repo.name)
            && any(&f.repository_ids, &info.id)
            && (f.repository_tags.is_empty()
                || repo.tags.iter().any(|t| f.repository_tags.contains(t)))
            && any(&f.refs, ds.ref_name(row))
            && any(&f.repository_ref_ids, &info.primary_ref_id)
            && (self.sensitivities.is_empty()
                || row
                    .sensitivity
                    .is_some_and(|s| self.sensitivities.contains(&Sensitivity::ALL[s as usize])))
            && any(&f.team_names, ds.team_name(row))
            && any(&f.policy_slugs, facts.policy_slug)
            && any(&f.rules, facts.rule_path)
            && any(&f.rule_ids, facts.rule_id)
            && any(&f.rulesets, facts.ruleset)
            && any(&f.categories, facts.category)
            && (f.dependencies.is_empty()
                || ds
                    .sca_package(row)
                    .is_some_and(|p| f.dependencies.iter().any(|d| d == p)))
            && (f.cves.is_empty()
                || ds
                    .advisory(row)
                    .is_some_and(|a| f.cves.contains(&a.vuln_id)))
            && (f.advisory_ids.is_empty()
                || ds
                    .advisory(row)
                    .is_some_and(|a| f.advisory_ids.contains(&a.vuln_id)))
            && (f.issue_parent_ids.is_empty()
                || f.issue_parent_ids
                    .contains(&format!("ip-{}-{}", row.repo, row.rule)))
            && (f.secret_types.is_empty()
                || ds
                    .secret_rule(row)
                    .is_some_and(|s| f.secret_types.contains(&s.secret_type)))
            && (f.file_paths.is_empty()
                || f.file_paths
                    .iter()
                    .any(|p| path_matches(ds.file_path(row), p)))
            && f.since.is_none_or(|s| row.relevant_since >= bound(s))
            && f.until.is_none_or(|u| row.relevant_since < bound(u))
            && (self.issue_types.is_empty() || self.issue_types.contains(&row.kind.issue_type()))
            && (f.exclude_historical != Some(true)
                || !matches!(status, IssueStatus::Fixed | IssueStatus::Removed))
            && f.on_primary_branch.is_none_or(|p| p == (row.ref_slot == 0))
            && (f.include_ticketed != Some(false) || !row.ticket)
            && (f.include_archived != Some(false) || !repo.archived)
            && f.has_in_flight_autofix_pr
                .is_none_or(|h| h == row.fix_pr.is_some())
            && (f.include_ai_memory_rendered != Some(false) || row.memory_rendered.is_none())
            && mem(row.memory_referenced, &f.ai_memory_referenced)
            && mem(row.memory_rendered, &f.ai_memory_rendered)
            && (f.memory_id_in_scope.as_deref().is_none_or(str::is_empty)
                || mem(row.memory_referenced, &f.memory_id_in_scope)
                || mem(row.memory_rendered, &f.memory_id_in_scope))
            && (f
                .ai_memory_will_flip_verdict
                .as_deref()
                .is_none_or(str::is_empty)
                || (mem(row.memory_referenced, &f.ai_memory_will_flip_verdict)
                    && row
                        .verdict
                        .is_some_and(|v| Verdict::ALL[v as usize] == Verdict::FalsePositive)))
    }
}

/// `path` equals `filter` or lies under it as a folder.
fn path_matches(path: &str, filter: &str) -> bool {
    let folder = filter.trim_end_matches('/');
    path == filter
        || (!folder.is_empty()
            && path
                .strip_prefix(folder)
                .is_some_and(|rest| rest.starts_with('/')))
}

fn sort_slot(by: &SortBy, dir: &SortDirection) -> usize {
    let f = SortBy::ALL.iter().position(|s| s == by).unwrap_or(4);
    f * 2 + usize::from(*dir == SortDirection::Desc)
}

impl Orders {
    fn list_order(&self, ds: &Dataset, by: &SortBy, dir: &SortDirection) -> &[u32] {
        self.list[sort_slot(by, dir)].get_or_init(|| {
            let mut order: Vec<u32> = (0..ds.rows.len() as u32).collect();
            let key_cmp = |a: &Row, b: &Row| -> Ordering {
                match by {
                    // Level: CRITICAL highest, so DESC puts CRITICAL first.
                    SortBy::Severity => b.severity.cmp(&a.severity),
                    SortBy::Ref => ds.ref_name(a).cmp(ds.ref_name(b)),
                    SortBy::Repo => ds.repo(a).name.cmp(&ds.repo(b).name),
                    SortBy::Rule => ds.rule_facts(a).rule_id.cmp(ds.rule_facts(b).rule_id),
                    SortBy::State => a.aggregate.cmp(&b.aggregate),
                    _ => a.relevant_since.cmp(&b.relevant_since),
                }
            };
            let desc = *dir == SortDirection::Desc;
            order.sort_by(|&a, &b| {
                let (ra, rb) = (&ds.rows[a as usize], &ds.rows[b as usize]);
                let k = key_cmp(ra, rb);
                (if desc { k.reverse() } else { k }).then(a.cmp(&b))
            });
            order
        })
    }
}

/// Fingerprint of everything that decides a listing's order and content.
fn list_fingerprint(req: &ListIssuesRequest) -> u64 {
    let shape = ListIssuesRequest {
        cursor: None,
        limit: None,
        include_remediation: None,
        include_activity_history: None,
        include_is_archived: None,
        include_first_detected_at: None,
        ..req.clone()
    };
    cursor::fingerprint("list", &shape)
}

pub fn list_issues(
    ds: &Dataset,
    orders: &Orders,
    req: &ListIssuesRequest,
) -> Result<ListIssuesResponse, BadRequest> {
    require_known!(req.sort_by, "sortBy");
    require_known!(req.sort_direction, "sortDirection");
    require_known!(req.issue_type, "issueType");
    let empty = ListIssuesFilter::default();
    let f = req.filter.as_ref().unwrap_or(&empty);
    require_known_all!(f.issue_types, "filter.issueTypes");
    let limit = page_limit(req.limit)?;
    let fp = list_fingerprint(req);
    let start = Cursor::decode_for(req.cursor.as_deref(), fp)?;
    let by = req.sort_by.clone().unwrap_or(SortBy::RelevantSince);
    let dir = req.sort_direction.clone().unwrap_or(SortDirection::Desc);
    let order = orders.list_order(ds, &by, &dir);
    let matcher = ListMatcher::new(ds, req, f);
    let (items, next) = collect_page(order, start, limit, |i| matcher.matches(i));
    let parts = Parts {
        remediation: req.include_remediation == Some(true),
        activity_history: req.include_activity_history == Some(true),
        is_archived: req.include_is_archived == Some(true),
        first_detected_at: req.include_first_detected_at == Some(true),
        single_issue: f.ids.len() == 1,
    };
    let issues = items
        .into_iter()
        .map(|i| {
            let issue = ds.issue(i, parts);
            let row = &ds.rows[i];
            let repo = ds.repo(row);
            let reviews = (i * 7 + 3) % 5;
            IssueItem {
                review_count: Some(reviews as i64),
                triage_count: Some(i64::from(row.triage_reason.is_some())),
                all_refs: std::iter::once(repo.primary_ref.clone())
                    .chain(repo.other_refs.iter().take(i % 3).cloned())
                    .collect(),
                ai_silenced_count: Some(((i / 3) % 2) as i64),
                all_review_thread_ids: (0..reviews).map(|k| format!("thr-{i}-{k}")).collect(),
                all_review_comments: (0..reviews)
                    .map(|k| ReviewComment {
                        is_inline: Some(k % 2 == 0),
                        thread_id: Some(format!("thr-{i}-{k}")),
                    })
                    .collect(),
                issue: Some(issue),
            }
        })
        .collect();
    Ok(ListIssuesResponse {
        issues,
        cursor: next.map(|pos| {
            Cursor {
                position: pos,
                fingerprint: fp,
            }
            .encode()
        }),
    })
}

// ------------------------------------------------------------- Report findings

fn bucket_end(start: DateTime<Utc>, size: &TimeBucketSize) -> DateTime<Utc> {
    match size {
        TimeBucketSize::Week => start + Duration::days(7),
        TimeBucketSize::Month => start
            .checked_add_months(chrono::Months::new(1))
            .unwrap_or(start + Duration::days(31)),
        _ => start + Duration::days(1),
    }
}

/// A time bound in whole seconds, rounded up: demo times are whole seconds,
/// so `t >= bound(x)` is `t >= x` and `t < bound(x)` is `t < x` exactly,
/// fractions included.
fn bound(t: DateTime<Utc>) -> i64 {
    t.timestamp() + i64::from(t.timestamp_subsec_nanos() > 0)
}

struct ReportMatcher<'a> {
    ds: &'a Dataset,
    f: &'a ReportFilters,
    report_type: ReportType,
    state: Option<AggregateState>,
    created_range: (Option<i64>, Option<i64>),
    bucket: Option<(i64, i64)>,
    types: Vec<FindingType>,
    severities: Vec<Severity>,
    confidence: Vec<Confidence>,
    reachability: Vec<FindingReachability>,
    validity: Vec<ValidationState>,
    verdicts: Vec<Verdict>,
    deployment_statuses: Vec<DeploymentStatus>,
    exposures: Vec<PublicExposure>,
}

impl<'a> ReportMatcher<'a> {
    fn new(ds: &'a Dataset, req: &ReportRequest, f: &'a ReportFilters) -> Self {
        let since = f.time_period.as_ref().and_then(|p| p.since).map(bound);
        let until = f.time_period.as_ref().and_then(|p| p.until).map(bound);
        let bucket = req.bucket_start.map(|start| {
            let size = f.time_bucket_size.clone().unwrap_or(TimeBucketSize::Day);
            (bound(start), bound(bucket_end(start, &size)))
        });
        ReportMatcher {
            ds,
            f,
            report_type: req.report_type.clone().unwrap_or(ReportType::TotalOpen),
            state: req.finding_state.clone(),
            created_range: (since, until),
            bucket,
            types: f
                .finding_types
                .iter()
                .filter(|t| **t != FindingType::Unspecified)
                .cloned()
                .collect(),
            severities: f
                .finding_severities
                .iter()
                .filter(|s| **s != FindingSeverity::Unspecified)
                .map(|s| Severity::from_wire(&s.as_wire().replacen("FINDING_", "", 1)))
                .collect(),
            confidence: f
                .confidence
                .iter()
                .filter(|s| **s != FindingConfidence::Unspecified)
                .map(|s| Confidence::from_wire(&s.as_wire().replacen("FINDING_", "", 1)))
                .collect(),
            reachability: f
                .reachability
                .iter()
                .filter(|s| **s != FindingReachability::Unspecified)
                .cloned()
                .collect(),
            validity: f
                .validity
                .iter()
                .filter_map(|v| match v {
                    FindingValidity::Valid => Some(ValidationState::ConfirmedValid),
                    FindingValidity::Invalid => Some(ValidationState::ConfirmedInvalid),
                    FindingValidity::Error => Some(ValidationState::ValidationError),
                    FindingValidity::NoValidator => Some(ValidationState::NoValidator),
                    _ => None,
                })
                .collect(),
            verdicts: f
                .ai_verdicts
                .iter()
                .filter(|v| **v != Verdict::Unspecified)
                .cloned()
                .collect(),
            deployment_statuses: f
                .deployment_statuses
                .iter()
                .filter(|v| **v != DeploymentStatus::Unspecified)
                .cloned()
                .collect(),
            exposures: f
                .public_exposures
                .iter()
                .filter(|v| **v != PublicExposure::Unspecified)
                .cloned()
                .collect(),
        }
    }

    fn matches(&self, i: usize) -> bool {
        let ds = self.ds;
        let f = self.f;
        let row = &ds.rows[i];
        let repo = ds.repo(row);
        let info = &ds.repos[row.repo as usize];
        let agg = &AggregateState::ALL[row.aggregate as usize];
        let in_range = |t: i64, (lo, hi): (Option<i64>, Option<i64>)| {
            lo.is_none_or(|s| t >= s) && hi.is_none_or(|u| t < u)
        };
        let by_type = match self.report_type {
            ReportType::TotalFixed => *agg == AggregateState::Fixed,
            ReportType::TotalIgnored => matches!(
                agg,
                AggregateState::IgnoredApp | AggregateState::IgnoredCode
            ),
            ReportType::TotalProvisionallyIgnored => {
                *agg == AggregateState::ProvisionallyIgnoredApp
            }
            ReportType::OpenBacklog => {
                is_open(agg) && self.created_range.0.is_none_or(|s| row.created < s)
            }
            ReportType::BacklogActivity => in_range(row.last_activity, self.created_range),
            ReportType::Project => true,
            ReportType::GuardrailsActivity => row.blocking,
            _ => is_open(agg),
        };
        // OPEN_BACKLOG and BACKLOG_ACTIVITY use the period their own way.
        let period_on_created = !matches!(
            self.report_type,
            ReportType::OpenBacklog | ReportType::BacklogActivity
        );
        let finding_type = match row.kind {
            Kind::Code | Kind::AiCode => FindingType::Code,
            Kind::Sca => FindingType::Sca,
            Kind::Secrets => FindingType::Secrets,
        };
        let any = |list: &[String], v: &str| list.is_empty() || list.iter().any(|x| x == v);
        let reach = row
            .reachability
            .map(|k| match Reachability::ALL[k as usize] {
                Reachability::Reachable => FindingReachability::Reachable,
                Reachability::AlwaysReachable => FindingReachability::AlwaysReachable,
                Reachability::ConditionallyReachable => FindingReachability::ConditionallyReachable,
                Reachability::Unreachable => FindingReachability::Unreachable,
                _ => FindingReachability::NoReachabilityAnalysis,
            });
        let verdict = row
            .verdict
            .map_or(Verdict::NoVerdict, |v| Verdict::ALL[v as usize].clone());
        by_type
            && (!period_on_created || in_range(row.created, self.created_range))
            && self
                .bucket
                .is_none_or(|(lo, hi)| row.created >= lo && row.created < hi)
            && self.state.as_ref().is_none_or(|s| s == agg)
            && (self.types.is_empty() || self.types.contains(&finding_type))
            && (self.severities.is_empty()
                || self
                    .severities
                    .contains(&Severity::ALL[row.severity as usize]))
            && any(&f.projects, &repo.name)
            && any(&f.project_ids, &info.id)
            && (f.tags.is_empty() || repo.tags.iter().any(|t| f.tags.contains(t)))
            && (self.confidence.is_empty()
                || self
                    .confidence
                    .contains(&Confidence::ALL[row.confidence as usize]))
            && (self.reachability.is_empty()
                || reach.is_some_and(|r| self.reachability.contains(&r)))
            && (self.validity.is_empty()
                || row
                    .validation
                    .is_some_and(|v| self.validity.contains(&ValidationState::ALL[v as usize])))
            && any(&f.teams, ds.team_name(row))
            && any(&f.rule_ids, ds.rule_facts(row).rule_id)
            && (self.verdicts.is_empty() || self.verdicts.contains(&verdict))
            && (self.deployment_statuses.is_empty()
                || self
                    .deployment_statuses
                    .contains(&DeploymentStatus::from_wire(&repo.deployment_status)))
            && (self.exposures.is_empty()
                || self
                    .exposures
                    .contains(&PublicExposure::from_wire(&repo.public_exposure)))
            && any(&f.finding_categories, ds.rule_facts(row).category)
    }
}

fn is_open(s: &AggregateState) -> bool {
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
    require_known!(f.time_bucket_size, "filters.timeBucketSize");
    require_known_all!(f.finding_types, "filters.findingTypes");
    require_known_all!(f.finding_severities, "filters.findingSeverities");
    require_known_all!(f.confidence, "filters.confidence");
    require_known_all!(f.reachability, "filters.reachability");
    require_known_all!(f.validity, "filters.validity");
    require_known_all!(f.ai_verdicts, "filters.aiVerdicts");
    require_known_all!(f.deployment_statuses, "filters.deploymentStatuses");
    require_known_all!(f.public_exposures, "filters.publicExposures");
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
    let order = orders.list_order(ds, &SortBy::Severity, &SortDirection::Desc);
    let matcher = ReportMatcher::new(ds, req, f);
    let (mut total, mut code, mut sca, mut secrets) = (0i64, 0i64, 0i64, 0i64);
    for (i, row) in ds.rows.iter().enumerate() {
        if matcher.matches(i) {
            total += 1;
            match row.kind {
                Kind::Code | Kind::AiCode => code += 1,
                Kind::Sca => sca += 1,
                Kind::Secrets => secrets += 1,
            }
        }
    }
    let (items, next) = collect_page(order, start, limit, |i| matcher.matches(i));
    Ok(ReportResponse {
        findings: items
            .into_iter()
            .map(|i| ds.issue(i, Parts::default()))
            .collect(),
        cursor: next.map(|pos| {
            Cursor {
                position: pos,
                fingerprint: fp,
            }
            .encode()
        }),
        total: Some(total),
        total_code: Some(code),
        total_sca: Some(sca),
        total_secrets: Some(secrets),
    })
}

// --------------------------------------------------------------- Search issues

fn search_matches(rec: &AgenticRecord, f: &SearchFilters) -> bool {
    let issue = &rec.issue;
    let any_of = |filter: &[String], values: &[String]| {
        filter.is_empty() || values.iter().any(|v| filter.contains(v))
    };
    let query = |q: &Option<String>, text: &Option<String>| match q.as_deref().map(str::trim) {
        None | Some("") => true,
        Some(q) => text
            .as_deref()
            .is_some_and(|t| t.to_lowercase().contains(&q.to_lowercase())),
    };
    let range = |r: &Option<TimeRange>, t: Option<DateTime<Utc>>| match r {
        None => true,
        Some(r) if r.start_at.is_none() && r.end_at.is_none() => true,
        Some(r) => {
            t.is_some_and(|t| r.start_at.is_none_or(|s| t >= s) && r.end_at.is_none_or(|e| t < e))
        }
    };
    let id = issue.id.clone().unwrap_or_default();
    (f.ids.is_empty() || f.ids.contains(&id))
        && any_of(&f.actions, &issue.actions)
        && any_of(&f.workflow_ids, &issue.workflow_ids)
        && any_of(&f.identities, &issue.identities)
        && any_of(&f.trigger_sources, &issue.trigger_sources)
        && any_of(&f.project_ids, &issue.project_ids)
        && any_of(&f.ref_ids, &issue.ref_ids)
        && any_of(&f.workflow_job_ids, &rec.workflow_job_ids)
        && query(&f.title_query, &issue.title)
        && query(&f.description_query, &issue.description)
        && query(&f.reasoning_query, &issue.reasoning)
        && match f.file_path_query.as_deref().map(str::trim) {
            None | Some("") => true,
            Some(q) => {
                let q = q.to_lowercase();
                issue
                    .file_paths
                    .iter()
                    .any(|p| p.to_lowercase().contains(&q))
            }
        }
        && range(&f.created_at, issue.created_at)
        && range(&f.last_detected_at, issue.last_detected_at)
        && range(&f.triaged_at, issue.triaged_at)
}

pub fn search_issues(
    ds: &Dataset,
    req: &SearchIssuesRequest,
) -> Result<SearchIssuesResponse, BadRequest> {
    require_known!(req.sort_field, "sortField");
    require_known!(req.sort_direction, "sortDirection");
    let limit = page_limit(req.limit)?;
    let fp = cursor::fingerprint(
        "search",
        &SearchIssuesRequest {
            cursor: None,
            limit: None,
            ..req.clone()
        },
    );
    let start = Cursor::decode_for(req.cursor.as_deref(), fp)?;
    let empty = SearchFilters::default();
    let f = req.filters.as_ref().unwrap_or(&empty);
    let field = req
        .sort_field
        .clone()
        .unwrap_or(IssueSortField::LastDetectedAt);
    let desc = req.sort_direction.clone().unwrap_or(SortDirection::Desc) == SortDirection::Desc;
    let mut order: Vec<u32> = (0..ds.agentic.len() as u32).collect();
    let key_cmp = |a: &AgenticIssue, b: &AgenticIssue| -> Ordering {
        match field {
            IssueSortField::Severity => {
                let rank = |i: &AgenticIssue| i.severity.as_ref().map_or(9, Severity::rank);
                rank(b).cmp(&rank(a))
            }
            IssueSortField::CreatedAt => a.created_at.cmp(&b.created_at),
            IssueSortField::FilePath => a.file_paths.first().cmp(&b.file_paths.first()),
            _ => a.last_detected_at.cmp(&b.last_detected_at),
        }
    };
    order.sort_by(|&a, &b| {
        let (ia, ib) = (&ds.agentic[a as usize].issue, &ds.agentic[b as usize].issue);
        let k = key_cmp(ia, ib);
        (if desc { k.reverse() } else { k }).then_with(|| ia.id.cmp(&ib.id))
    });
    let total = ds.agentic.iter().filter(|r| search_matches(r, f)).count();
    let (items, next) = collect_page(&order, start, limit, |i| search_matches(&ds.agentic[i], f));
    Ok(SearchIssuesResponse {
        issues: items
            .into_iter()
            .map(|i| ds.agentic[i].issue.clone())
            .collect(),
        total: Some(total as i64),
        cursor: next.map(|pos| {
            Cursor {
                position: pos,
                fingerprint: fp,
            }
            .encode()
        }),
    })
}

/// Time helper for tests and the generator's callers.
pub fn at(secs: i64) -> DateTime<Utc> {
    ts(secs)
}
