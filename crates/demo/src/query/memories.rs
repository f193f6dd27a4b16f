//! AI memories in the demo (docs/src/api.md "Memories"): a memory made from a
//! triage note applies to the findings its filter (and identifiers)
//! select; it is a suggestion whose preanalysis counts say honestly how
//! many verdicts in its scope it would flip (a false-positive note makes
//! the true positives false), and `aiMemoryWillFlipVerdict` with its id
//! lists exactly those findings.

use super::list::selection;
use super::list_match::ListMatcher;
use super::refusal::{Refusal, action_time};
use crate::dataset::*;
use chrono::TimeZone;
use findings_model::*;
use std::sync::Arc;

/// Memory indices below this are the generated ones (`mem-001`..`mem-012`).
const FIRST_CREATED: u8 = 12;

/// The most memories requests create (indices are a byte, the generated
/// twelve first); the next is refused (400) naming the cap.
pub const MAX_MEMORIES: usize = (u8::MAX - 1 - FIRST_CREATED) as usize;

/// The most findings `FindRelevantIssues` answers with.
pub const MAX_RELEVANT: usize = 1000;

/// `MemoriesService_CreateMemoryFromTriage`.
pub fn create_memory(
    ds: &Dataset,
    req: &CreateMemoryFromTriageRequest,
) -> Result<CreateMemoryFromTriageResponse, Refusal> {
    let note = req.note.as_deref().map(str::trim).unwrap_or("");
    if note.is_empty() {
        return Err(Refusal::Invalid("note is required".into()));
    }
    let types: Vec<IssueType> = req.issue_type.iter().cloned().collect();
    let (f, types) = selection(&None, &types, req.filter.as_ref())?;
    let ident = req.identifier_filter.clone().unwrap_or_default();
    ds.change(|before, next| {
        let created = before.acted.memories.len();
        let index = u8::try_from(created)
            .ok()
            .filter(|_| created < MAX_MEMORIES)
            .and_then(|n| FIRST_CREATED.checked_add(n))
            .ok_or_else(|| {
                Refusal::Precondition(format!(
                    "the demo keeps at most {MAX_MEMORIES} memories created by requests (its cap; a restart forgets them)"
                ))
            })?;
        let matcher = ListMatcher::new(ds, before, f, &types);
        let mut in_scope = vec![false; ds.rows.len()];
        let mut counts = [0i64; 2]; // true positives, false positives
        let mut first = None;
        for (i, slot) in in_scope.iter_mut().enumerate() {
            if !matcher.matches(i) || !identified(ds, before, &ident, i) {
                continue;
            }
            *slot = true;
            first.get_or_insert(i);
            let row = before.row(i, &ds.rows[i]);
            match row.verdict.map(|v| &Verdict::ALL[v as usize]) {
                Some(Verdict::TruePositive) => counts[0] += 1,
                Some(Verdict::FalsePositive) => counts[1] += 1,
                _ => {}
            }
        }
        let rule_id = single(&f.rule_ids).or_else(|| single(&ident.rule_ids));
        let rule_name = rule_id.as_ref().and(first).map(|i| {
            ds.issue_with(before, i, Default::default())
                .rule_name()
                .to_owned()
        });
        let repo = single(&f.repository_names).and_then(|name| {
            ds.catalog
                .repositories
                .iter()
                .position(|r| r.name == name)
                .map(|k| (ds.repos[k].id.clone(), name))
        });
        let memory = Memory {
            id: Some(memory_id(index)),
            content: Some(note.to_owned()),
            rule_id,
            rule_name,
            repository_id: repo.as_ref().map(|r| r.0.clone()),
            repository_name: repo.map(|r| r.1),
            created_at: chrono::Utc.timestamp_opt(action_time(ds), 0).single(),
            created_by: Some(super::triage::ACTOR.into()),
            context: vec!["TRIAGE".into()],
            stage: Some(MemoryStage::Suggested),
            preanalysis_counts: Some(MemoryPreanalysisCounts {
                newly_true_positive: Some(0),
                newly_false_positive: Some(counts[0]),
                remains_true_positive: Some(0),
                remains_false_positive: Some(counts[1]),
            }),
            ..Default::default()
        };
        next.acted.memories.push(CreatedMemory {
            index,
            memory: memory.clone(),
            in_scope: Arc::new(in_scope),
        });
        Ok(CreateMemoryFromTriageResponse {
            memory: Some(memory),
        })
    })
}

/// The one value of a list, when it holds exactly one.
fn single(list: &[String]) -> Option<String> {
    match list {
        [one] if !one.is_empty() => Some(one.clone()),
        _ => None,
    }
}

/// Whether finding `i` passes the identifier filter: any of its fields
/// names it (a filter with none passes every finding).
fn identified(ds: &Dataset, changes: &Changes, f: &NonExclusiveMemoryFilter, i: usize) -> bool {
    if f.ids.is_empty() && f.issue_parent_ids.is_empty() && f.rule_ids.is_empty() {
        return true;
    }
    let row = changes.row(i, &ds.rows[i]);
    let id = finding_id(i);
    let parent = format!("ip-{}-{}", row.repo, row.rule);
    f.ids.contains(&id)
        || f.issue_parent_ids.contains(&parent)
        || f.rule_ids.iter().any(|r| r == ds.rule_facts(&row).rule_id)
}

/// `MemoriesService_FindRelevantIssues`: the unresolved findings of the
/// rule (every rule when none) in the repository (every repository when
/// none), at most [`MAX_RELEVANT`].
pub fn find_relevant(
    ds: &Dataset,
    req: &FindRelevantIssuesRequest,
) -> Result<FindRelevantIssuesResponse, Refusal> {
    let rule = req.rule_id.as_deref().filter(|s| !s.is_empty());
    let repo = req.repository_id.as_deref().filter(|s| !s.is_empty());
    let changes = ds.changes();
    let issue_ids = (0..ds.rows.len())
        .filter(|&i| {
            let row = changes.row(i, &ds.rows[i]);
            IssueStatus::ALL[row.status as usize] == IssueStatus::Unresolved
                && rule.is_none_or(|r| ds.rule_facts(&row).rule_id == r)
                && repo.is_none_or(|r| ds.repos[row.repo as usize].id == r)
        })
        .take(MAX_RELEVANT)
        .map(finding_id)
        .collect();
    Ok(FindRelevantIssuesResponse { issue_ids })
}
