//! List issues: its filter semantics (docs/api.md, "Semantics of filters",
//! List issues) compiled against the data set, and its pages.

use super::memo::Bits;
use super::order::Orders;
use super::pages::{collect_page, page_limit};
use super::{BadRequest, CLASS_KINDS, bound, class};
use crate::api::model::*;
use crate::demo::cursor::{self, Cursor};
use crate::demo::dataset::*;
use crate::demo::materialize::Parts;

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
        // Only the single-issue fetch gives those (docs/api.md).
        single_issue: false,
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
