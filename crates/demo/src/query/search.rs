//! Search issues: its filter semantics (docs/src/api.md, "Semantics of
//! filters", Search issues), its order and its pages. The enum arrays
//! (`detectionStates`, `severities`, `triageStates`, `triageReasons`) match
//! the issue's value of that name, any of the listed ones.

use super::BadRequest;
use super::pages::{collect_page, page_limit};
use crate::cursor::{self, Cursor};
use crate::dataset::*;
use chrono::{DateTime, Utc};
use findings_model::*;
use std::cmp::Ordering;

/// Whether `issue` (record `rec` as it is now) matches `f`.
fn search_matches(issue: &AgenticIssue, rec: &AgenticRecord, f: &SearchFilters) -> bool {
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
    // An enum array filters by the values it has but `*_UNSPECIFIED`.
    fn one_of<T: PartialEq>(filter: &[T], wire: impl Fn(&T) -> &str, v: &Option<T>) -> bool {
        let active: Vec<&T> = filter
            .iter()
            .filter(|x| !wire(x).ends_with("_UNSPECIFIED"))
            .collect();
        active.is_empty() || v.as_ref().is_some_and(|v| active.contains(&v))
    }
    let id = issue.id.clone().unwrap_or_default();
    (f.ids.is_empty() || f.ids.contains(&id))
        && one_of(&f.detection_states, |v| v.as_wire(), &issue.detection_state)
        && one_of(&f.severities, |v| v.as_wire(), &issue.severity)
        && one_of(&f.triage_states, |v| v.as_wire(), &issue.triage_state)
        && one_of(&f.triage_reasons, |v| v.as_wire(), &issue.triage_reason)
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
    if let Some(f) = &req.filters {
        let unknown = f
            .detection_states
            .iter()
            .map(|v| (v.is_known(), v.as_wire()))
            .chain(f.severities.iter().map(|v| (v.is_known(), v.as_wire())))
            .chain(f.triage_states.iter().map(|v| (v.is_known(), v.as_wire())))
            .chain(f.triage_reasons.iter().map(|v| (v.is_known(), v.as_wire())))
            .find(|(known, wire)| !known && !wire.ends_with("_UNSPECIFIED"));
        if let Some((_, wire)) = unknown {
            return Err(BadRequest(format!("unknown value {wire:?} in filters")));
        }
    }
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
    // The issues as they are now, triage applied.
    let changes = ds.changes();
    let issues: Vec<AgenticIssue> = (0..ds.agentic.len())
        .map(|i| changes.agentic_issue(i, &ds.agentic[i].issue))
        .collect();
    let matches = |i: usize| search_matches(&issues[i], &ds.agentic[i], f);
    let mut order: Vec<u32> = (0..u32::try_from(ds.agentic.len()).unwrap_or(u32::MAX)).collect();
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
        let (ia, ib) = (&issues[a as usize], &issues[b as usize]);
        let k = key_cmp(ia, ib);
        (if desc { k.reverse() } else { k }).then_with(|| ia.id.cmp(&ib.id))
    });
    let total = (0..issues.len()).filter(|&i| matches(i)).count();
    let (items, next) = collect_page(&order, start, limit, matches);
    Ok(SearchIssuesResponse {
        issues: items.into_iter().map(|i| issues[i].clone()).collect(),
        total: Some(crate::wire_int(total)),
        cursor: next.map(|pos| {
            Cursor {
                position: pos,
                fingerprint: fp,
            }
            .encode()
        }),
    })
}

/// Count issues: how many Search issues would list for the filters (the
/// same matching, triage applied).
pub fn count_issues(
    ds: &Dataset,
    req: &CountIssuesRequest,
) -> Result<CountIssuesResponse, BadRequest> {
    let search = SearchIssuesRequest {
        filters: req.filters.clone(),
        limit: Some(1),
        ..Default::default()
    };
    let total = search_issues(ds, &search)?.total;
    Ok(CountIssuesResponse { count: total })
}
