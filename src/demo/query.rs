//! The demo server's query engine: filter semantics (docs/api.md, "Semantics of
//! filters"), total orders (docs/api.md §10) and cursor pages (docs/api.md §7–9).
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
use std::sync::{Arc, Mutex, OnceLock};

pub const DEFAULT_LIMIT: i64 = 100;
pub const MAX_LIMIT: i64 = 1000;

/// A request the server refuses with 400.
#[derive(Debug, Clone, PartialEq)]
pub struct BadRequest(pub String);

/// Sorted permutations of the rows (built once: at start-up by
/// [`Orders::prepare`], else on first use), and the rows recent filters
/// matched, so that following the cursor of a query costs neither a sort nor
/// a scan of the data set.
pub struct Orders {
    list: [OnceLock<Vec<u32>>; 12],
    list_matches: Memo<Bits>,
    report_scans: Memo<ReportScan>,
}

impl Default for Orders {
    fn default() -> Self {
        Orders {
            list: std::array::from_fn(|_| OnceLock::new()),
            list_matches: Memo::default(),
            report_scans: Memo::default(),
        }
    }
}

/// One bit per row: the rows a filter matches.
pub struct Bits {
    words: Vec<u64>,
}

impl Bits {
    fn new(len: usize) -> Self {
        Bits {
            words: vec![0; len.div_ceil(64)],
        }
    }

    fn set(&mut self, i: usize) {
        self.words[i / 64] |= 1 << (i % 64);
    }

    fn get(&self, i: usize) -> bool {
        self.words[i / 64] & (1 << (i % 64)) != 0
    }
}

/// How many recent queries keep their matched rows.
const MEMO_ENTRIES: usize = 32;

/// The last few values computed for a query fingerprint, newest first.
struct Memo<T> {
    entries: Mutex<Vec<(u64, Arc<T>)>>,
}

impl<T> Default for Memo<T> {
    fn default() -> Self {
        Memo {
            entries: Mutex::new(Vec::new()),
        }
    }
}

impl<T> Memo<T> {
    fn get_or_compute(&self, key: u64, compute: impl FnOnce() -> T) -> Arc<T> {
        fn lock<E>(m: &Mutex<E>) -> std::sync::MutexGuard<'_, E> {
            m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
        }
        {
            let mut entries = lock(&self.entries);
            if let Some(k) = entries.iter().position(|(fp, _)| *fp == key) {
                let hit = entries.remove(k);
                let value = hit.1.clone();
                entries.insert(0, hit);
                return value;
            }
        }
        // Computed outside the lock: other queries go on meanwhile.
        let value = Arc::new(compute());
        let mut entries = lock(&self.entries);
        entries.retain(|(fp, _)| *fp != key);
        entries.insert(0, (key, value.clone()));
        entries.truncate(MEMO_ENTRIES);
        value
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

/// The catalog list a kind's rules index: code (both code kinds), SCA,
/// secrets.
fn class(kind: Kind) -> usize {
    match kind {
        Kind::Code | Kind::AiCode => 0,
        Kind::Sca => 1,
        Kind::Secrets => 2,
    }
}

const CLASS_KINDS: [Kind; 3] = [Kind::Code, Kind::Sca, Kind::Secrets];

/// A memory-id filter: `None` when absent or empty, else the memory index
/// the id names (`Some(None)` when it names none of the data set's).
fn memory_filter(id: &Option<String>) -> Option<Option<u8>> {
    match id.as_deref() {
        None | Some("") => None,
        Some(id) => Some((0..=u8::MAX).find(|&k| memory_id(k) == id)),
    }
}

/// A finding's memory reference `m` against a [`memory_filter`].
fn memory_matches(filter: Option<Option<u8>>, m: Option<u8>) -> bool {
    match filter {
        None => true,
        Some(target) => target.is_some() && m == target,
    }
}

/// A List issues filter compiled against the data set: what depends on a
/// repository, a ref, a team or a rule is decided once per catalog entry, so
/// testing a row is a few table look-ups.
struct ListMatcher<'a> {
    ds: &'a Dataset,
    ids: Option<Bits>,
    kind_ok: [bool; 4],
    repo_ok: Vec<bool>,
    /// By `repo * 256 + ref_slot`, when refs are filtered.
    ref_ok: Option<Vec<bool>>,
    team_ok: Option<Vec<bool>>,
    rule_ok: [Vec<bool>; 3],
    sensitivity_ok: Option<Vec<bool>>,
    parents: Option<Vec<(u8, u16)>>,
    file_paths: &'a [String],
    since: Option<i64>,
    until: Option<i64>,
    exclude_historical: bool,
    on_primary_branch: Option<bool>,
    exclude_ticketed: bool,
    exclude_memory_rendered: bool,
    has_fix_pr: Option<bool>,
    memory_referenced: Option<Option<u8>>,
    memory_rendered: Option<Option<u8>>,
    memory_in_scope: Option<Option<u8>>,
    will_flip: Option<Option<u8>>,
}

impl<'a> ListMatcher<'a> {
    fn new(ds: &'a Dataset, f: &'a ListIssuesFilter, issue_types: &[IssueType]) -> Self {
        let any = |list: &[String], v: &str| list.is_empty() || list.iter().any(|x| x == v);
        let ids = (!f.ids.is_empty()).then(|| {
            let mut bits = Bits::new(ds.rows.len());
            for i in f
                .ids
                .iter()
                .filter_map(|id| finding_index(id, ds.rows.len()))
            {
                bits.set(i);
            }
            bits
        });
        let kinds = [Kind::Code, Kind::AiCode, Kind::Sca, Kind::Secrets];
        let kind_ok =
            kinds.map(|k| issue_types.is_empty() || issue_types.contains(&k.issue_type()));
        let repo_ok = ds
            .catalog
            .repositories
            .iter()
            .zip(&ds.repos)
            .map(|(repo, info)| {
                any(&f.repository_names, &repo.name)
                    && any(&f.repository_ids, &info.id)
                    && (f.repository_tags.is_empty()
                        || repo.tags.iter().any(|t| f.repository_tags.contains(t)))
                    && any(&f.repository_ref_ids, &info.primary_ref_id)
                    && (f.include_archived != Some(false) || !repo.archived)
            })
            .collect();
        let ref_ok = (!f.refs.is_empty()).then(|| {
            (0..ds.catalog.repositories.len())
                .flat_map(|repo| (0..=u8::MAX).map(move |slot| (repo as u8, slot)))
                .map(|(repo, slot)| any(&f.refs, ds.ref_name_of(repo, slot)))
                .collect()
        });
        let team_ok = (!f.team_names.is_empty()).then(|| {
            ds.catalog
                .people
                .teams
                .iter()
                .map(|t| any(&f.team_names, &t.name))
                .collect()
        });
        let rule_ok = CLASS_KINDS.map(|kind| {
            (0..ds.rule_count(kind) as u16)
                .map(|rule| {
                    let facts = ds.rule_facts_of(kind, rule);
                    let advisory = ds.advisory_of(kind, rule);
                    any(&f.policy_slugs, facts.policy_slug)
                        && any(&f.rules, facts.rule_path)
                        && any(&f.rule_ids, facts.rule_id)
                        && any(&f.rulesets, facts.ruleset)
                        && any(&f.categories, facts.category)
                        && (f.dependencies.is_empty()
                            || advisory.is_some_and(|a| f.dependencies.contains(&a.package)))
                        && (f.cves.is_empty()
                            || advisory.is_some_and(|a| f.cves.contains(&a.vuln_id)))
                        && (f.advisory_ids.is_empty()
                            || advisory.is_some_and(|a| f.advisory_ids.contains(&a.vuln_id)))
                        && (f.secret_types.is_empty()
                            || ds
                                .secret_rule_of(kind, rule)
                                .is_some_and(|s| f.secret_types.contains(&s.secret_type)))
                })
                .collect()
        });
        let sensitivity_ok = (!f.ai_sensitivities.is_empty()).then(|| {
            let wanted: Vec<Sensitivity> = f
                .ai_sensitivities
                .iter()
                .map(|s| Sensitivity::from_wire(s))
                .collect();
            Sensitivity::ALL
                .iter()
                .map(|s| wanted.contains(s))
                .collect()
        });
        // Parent ids are `ip-{repo}-{rule}`: keep those a row can have.
        let parents = (!f.issue_parent_ids.is_empty()).then(|| {
            f.issue_parent_ids
                .iter()
                .filter_map(|p| {
                    let (repo, rule) = p.strip_prefix("ip-")?.split_once('-')?;
                    let key = (repo.parse::<u8>().ok()?, rule.parse::<u16>().ok()?);
                    (format!("ip-{}-{}", key.0, key.1) == *p).then_some(key)
                })
                .collect()
        });
        ListMatcher {
            ds,
            ids,
            kind_ok,
            repo_ok,
            ref_ok,
            team_ok,
            rule_ok,
            sensitivity_ok,
            parents,
            file_paths: &f.file_paths,
            since: f.since.map(bound),
            until: f.until.map(bound),
            exclude_historical: f.exclude_historical == Some(true),
            on_primary_branch: f.on_primary_branch,
            exclude_ticketed: f.include_ticketed == Some(false),
            exclude_memory_rendered: f.include_ai_memory_rendered == Some(false),
            has_fix_pr: f.has_in_flight_autofix_pr,
            memory_referenced: memory_filter(&f.ai_memory_referenced),
            memory_rendered: memory_filter(&f.ai_memory_rendered),
            memory_in_scope: memory_filter(&f.memory_id_in_scope),
            will_flip: memory_filter(&f.ai_memory_will_flip_verdict),
        }
    }

    fn matches(&self, i: usize) -> bool {
        if let Some(ids) = &self.ids
            && !ids.get(i)
        {
            return false;
        }
        let ds = self.ds;
        let row = &ds.rows[i];
        let historical = matches!(
            IssueStatus::ALL[row.status as usize],
            IssueStatus::Fixed | IssueStatus::Removed
        );
        self.kind_ok[row.kind as usize]
            && self.repo_ok[row.repo as usize]
            && self.rule_ok[class(row.kind)][row.rule as usize]
            && self
                .ref_ok
                .as_ref()
                .is_none_or(|ok| ok[row.repo as usize * 256 + row.ref_slot as usize])
            && self.team_ok.as_ref().is_none_or(|ok| ok[row.team as usize])
            && self
                .sensitivity_ok
                .as_ref()
                .is_none_or(|ok| row.sensitivity.is_some_and(|s| ok[s as usize]))
            && self.since.is_none_or(|s| row.relevant_since >= s)
            && self.until.is_none_or(|u| row.relevant_since < u)
            && !(self.exclude_historical && historical)
            && self
                .on_primary_branch
                .is_none_or(|p| p == (row.ref_slot == 0))
            && !(self.exclude_ticketed && row.ticket)
            && self.has_fix_pr.is_none_or(|h| h == row.fix_pr.is_some())
            && !(self.exclude_memory_rendered && row.memory_rendered.is_some())
            && memory_matches(self.memory_referenced, row.memory_referenced)
            && memory_matches(self.memory_rendered, row.memory_rendered)
            && (self.memory_in_scope.is_none()
                || memory_matches(self.memory_in_scope, row.memory_referenced)
                || memory_matches(self.memory_in_scope, row.memory_rendered))
            && (self.will_flip.is_none()
                || (memory_matches(self.will_flip, row.memory_referenced)
                    && row
                        .verdict
                        .is_some_and(|v| Verdict::ALL[v as usize] == Verdict::FalsePositive)))
            && self
                .parents
                .as_ref()
                .is_none_or(|p| p.contains(&(row.repo, row.rule)))
            && (self.file_paths.is_empty()
                || self
                    .file_paths
                    .iter()
                    .any(|p| path_matches(ds.file_path(row), p)))
    }

    /// Every row the filter matches, in one pass over the rows.
    fn scan(&self) -> Bits {
        let mut bits = Bits::new(self.ds.rows.len());
        for i in 0..self.ds.rows.len() {
            if self.matches(i) {
                bits.set(i);
            }
        }
        bits
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

/// Ranks of `names` in string order (equal names, equal ranks).
fn ranks<'s>(names: impl Iterator<Item = &'s str> + Clone) -> impl Fn(&str) -> u64 {
    let mut sorted: Vec<&str> = names.collect();
    sorted.sort_unstable();
    sorted.dedup();
    let sorted: Vec<String> = sorted.into_iter().map(str::to_owned).collect();
    move |name| sorted.partition_point(|s| s.as_str() < name) as u64
}

/// Each row's sort key for `by`, ascending: the order of the contract
/// (docs/api.md §10) as a number.
fn sort_keys(ds: &Dataset, by: &SortBy) -> Vec<u64> {
    let per_row = |key: &dyn Fn(&Row) -> u64| ds.rows.iter().map(key).collect();
    match by {
        // Level: CRITICAL highest (index 0), so DESC puts CRITICAL first.
        SortBy::Severity => per_row(&|r| u64::from(u8::MAX - r.severity)),
        SortBy::Ref => {
            let repos = ds.catalog.repositories.len();
            let slots = |repo: usize| (0..=u8::MAX).map(move |slot| (repo as u8, slot));
            let rank = ranks(
                (0..repos)
                    .flat_map(slots)
                    .map(|(r, s)| ds.ref_name_of(r, s)),
            );
            let table: Vec<u64> = (0..repos)
                .flat_map(slots)
                .map(|(r, s)| rank(ds.ref_name_of(r, s)))
                .collect();
            per_row(&|r| table[r.repo as usize * 256 + r.ref_slot as usize])
        }
        SortBy::Repo => {
            let names = ds.catalog.repositories.iter().map(|r| r.name.as_str());
            let rank = ranks(names.clone());
            let table: Vec<u64> = names.map(&rank).collect();
            per_row(&|r| table[r.repo as usize])
        }
        SortBy::Rule => {
            let ids = CLASS_KINDS.iter().flat_map(|&kind| {
                (0..ds.rule_count(kind) as u16)
                    .map(move |rule| ds.rule_facts_of(kind, rule).rule_id)
            });
            let rank = ranks(ids);
            let table = CLASS_KINDS.map(|kind| {
                (0..ds.rule_count(kind) as u16)
                    .map(|rule| rank(ds.rule_facts_of(kind, rule).rule_id))
                    .collect::<Vec<u64>>()
            });
            per_row(&|r| table[class(r.kind)][r.rule as usize])
        }
        SortBy::State => per_row(&|r| u64::from(r.aggregate)),
        _ => per_row(&|r| (r.relevant_since as u64) ^ (1 << 63)),
    }
}

impl Orders {
    /// Builds every sort order now, rather than on a first request.
    pub fn prepare(&self, ds: &Dataset) {
        for by in SortBy::ALL {
            let keys = sort_keys(ds, by);
            for dir in [SortDirection::Asc, SortDirection::Desc] {
                self.list[sort_slot(by, &dir)].get_or_init(|| order_by(&keys, &dir));
            }
        }
    }

    fn list_order(&self, ds: &Dataset, by: &SortBy, dir: &SortDirection) -> &[u32] {
        self.list[sort_slot(by, dir)].get_or_init(|| order_by(&sort_keys(ds, by), dir))
    }
}

/// Row indices by key in `dir`, ties by index ascending: a total order.
fn order_by(keys: &[u64], dir: &SortDirection) -> Vec<u32> {
    let desc = *dir == SortDirection::Desc;
    let mut order: Vec<u32> = (0..keys.len() as u32).collect();
    order.sort_unstable_by_key(|&i| {
        let k = keys[i as usize];
        (if desc { u64::MAX - k } else { k }, i)
    });
    order
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
    let (items, next) = if *f == empty && issue_types.is_empty() {
        collect_page(order, start, limit, |_| true)
    } else {
        // The rows the filter matches, kept for the next pages (and sorts).
        let key = cursor::fingerprint("list-filter", &(f, &issue_types));
        let matches = orders
            .list_matches
            .get_or_compute(key, || ListMatcher::new(ds, f, &issue_types).scan());
        collect_page(order, start, limit, |i| matches.get(i))
    };
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

/// A Report findings filter compiled against the data set, like
/// [`ListMatcher`]: per-entry decisions in tables, a row test of look-ups.
struct ReportMatcher<'a> {
    ds: &'a Dataset,
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
    fn new(ds: &'a Dataset, req: &ReportRequest, f: &'a ReportFilters) -> Self {
        let any = |list: &[String], v: &str| list.is_empty() || list.iter().any(|x| x == v);
        let since = f.time_period.as_ref().and_then(|p| p.since).map(bound);
        let until = f.time_period.as_ref().and_then(|p| p.until).map(bound);
        let bucket = req.bucket_start.map(|start| {
            let size = f.time_bucket_size.clone().unwrap_or(TimeBucketSize::Day);
            (bound(start), bound(bucket_end(start, &size)))
        });
        let report_type = req.report_type.clone().unwrap_or(ReportType::TotalOpen);
        let state = req.finding_state.clone();
        let state_ok = AggregateState::ALL
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
                by_type && state.as_ref().is_none_or(|s| s == agg)
            })
            .collect();
        let types: Vec<&FindingType> = f
            .finding_types
            .iter()
            .filter(|t| **t != FindingType::Unspecified)
            .collect();
        let kind_ok = [Kind::Code, Kind::AiCode, Kind::Sca, Kind::Secrets].map(|kind| {
            let finding_type = match kind {
                Kind::Code | Kind::AiCode => FindingType::Code,
                Kind::Sca => FindingType::Sca,
                Kind::Secrets => FindingType::Secrets,
            };
            types.is_empty() || types.contains(&&finding_type)
        });
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
        let reachability: Vec<&FindingReachability> = f
            .reachability
            .iter()
            .filter(|s| **s != FindingReachability::Unspecified)
            .collect();
        let reachability_ok = (!reachability.is_empty()).then(|| {
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
        });
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
        let validity_ok = (!validity.is_empty()).then(|| {
            ValidationState::ALL
                .iter()
                .map(|v| validity.contains(v))
                .collect()
        });
        let verdicts: Vec<&Verdict> = f
            .ai_verdicts
            .iter()
            .filter(|v| **v != Verdict::Unspecified)
            .collect();
        let verdict_ok = Verdict::ALL
            .iter()
            .chain([&Verdict::NoVerdict])
            .map(|v| verdicts.is_empty() || verdicts.contains(&v))
            .collect();
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
        let repo_ok = ds
            .catalog
            .repositories
            .iter()
            .zip(&ds.repos)
            .map(|(repo, info)| {
                any(&f.projects, &repo.name)
                    && any(&f.project_ids, &info.id)
                    && (f.tags.is_empty() || repo.tags.iter().any(|t| f.tags.contains(t)))
                    && (deployment_statuses.is_empty()
                        || deployment_statuses
                            .contains(&&DeploymentStatus::from_wire(&repo.deployment_status)))
                    && (exposures.is_empty()
                        || exposures.contains(&&PublicExposure::from_wire(&repo.public_exposure)))
            })
            .collect();
        let team_ok = ds
            .catalog
            .people
            .teams
            .iter()
            .map(|t| any(&f.teams, &t.name))
            .collect();
        let rule_ok = CLASS_KINDS.map(|kind| {
            (0..ds.rule_count(kind) as u16)
                .map(|rule| {
                    let facts = ds.rule_facts_of(kind, rule);
                    any(&f.rule_ids, facts.rule_id) && any(&f.finding_categories, facts.category)
                })
                .collect()
        });
        ReportMatcher {
            ds,
            report_type,
            created_range: (since, until),
            bucket,
            state_ok,
            kind_ok,
            severity_ok,
            confidence_ok,
            reachability_ok,
            validity_ok,
            verdict_ok,
            repo_ok,
            team_ok,
            rule_ok,
        }
    }

    fn matches(&self, i: usize) -> bool {
        let row = &self.ds.rows[i];
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
        self.state_ok[row.aggregate as usize]
            && by_type_and_period
            && self
                .bucket
                .is_none_or(|(lo, hi)| row.created >= lo && row.created < hi)
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

/// What a report query matches: its rows and its totals.
struct ReportScan {
    matches: Bits,
    total: i64,
    code: i64,
    sca: i64,
    secrets: i64,
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
    // The totals and rows of the query, kept for its next pages.
    let scan = orders
        .report_scans
        .get_or_compute(fp, || ReportMatcher::new(ds, req, f).scan());
    let (items, next) = collect_page(order, start, limit, |i| scan.matches.get(i));
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
        total: Some(scan.total),
        total_code: Some(scan.code),
        total_sca: Some(scan.sca),
        total_secrets: Some(scan.secrets),
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
