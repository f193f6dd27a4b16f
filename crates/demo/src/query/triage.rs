//! The two triage writes: findings by a List issues filter
//! (`IssuesService_BulkUpdateIssues`) and one agentic-workflow issue
//! (`PublicIssuesService_TriageIssue`). Each is one change of the data
//! set's overlay, which every read path applies.

use super::BadRequest;
use super::list::selection;
use super::list_match::ListMatcher;
use crate::dataset::*;
use chrono::{DateTime, TimeZone, Utc};
use findings_model::*;
use std::collections::HashSet;

/// Who the demo says triaged (the API token's user).
pub const ACTOR: &str = "api-token";

/// The time of a write: now, and never before the data set's "now".
fn write_time(ds: &Dataset) -> i64 {
    Utc::now().timestamp().max(ds.now())
}

fn ts(secs: i64) -> DateTime<Utc> {
    Utc.timestamp_opt(secs, 0).single().unwrap_or_default()
}

/// A finding's aggregate state after triage to `state`: a scan's status
/// (fixed, removed, ignored in code) outranks triage, which then changes
/// only the triage state.
fn aggregate_after(
    status: &IssueStatus,
    now: &AggregateState,
    state: &TriageState,
) -> AggregateState {
    if *status != IssueStatus::Unresolved {
        return now.clone();
    }
    match state {
        TriageState::Ignored => AggregateState::IgnoredApp,
        TriageState::ProvisionallyIgnored => AggregateState::ProvisionallyIgnoredApp,
        TriageState::Reviewing => AggregateState::Reviewing,
        TriageState::Fixing => AggregateState::Fixing,
        _ => AggregateState::Open,
    }
}

fn index_of<T: PartialEq>(all: &[T], v: &T) -> u8 {
    // A table of a few values (an enum's): saturating never.
    u8::try_from(all.iter().position(|x| x == v).unwrap_or(0)).unwrap_or(u8::MAX)
}

/// `IssuesService_BulkUpdateIssues`: the findings the filter (and the type
/// selection) matches, as List issues matches them, get `params`. A
/// finding its triage permission lets nobody triage is skipped; one that
/// needs an exception to be ignored gets an exception request instead.
pub fn update_findings(
    ds: &Dataset,
    req: &UpdateFindingsRequest,
) -> Result<UpdateFindingsResponse, BadRequest> {
    let empty = UpdateFindingParams::default();
    let params = req.params.as_ref().unwrap_or(&empty);
    let (state, reason) = triage_asked(params)?;
    let (f, types) = selection(&req.issue_type, &req.issue_types, req.filter.as_ref())?;
    let ignores = matches!(
        state,
        TriageState::Ignored | TriageState::ProvisionallyIgnored
    );
    let note = params.note.clone().filter(|n| !n.is_empty());
    let now = write_time(ds);
    let reason_wire = reason.as_ref().map(|r| r.as_wire().to_owned());
    Ok(ds.change(|before, next| {
        let matcher = ListMatcher::new(ds, before, f, &types);
        let mut answer = UpdateFindingsResponse::default();
        let (mut matched, mut updated, mut exceptions, mut skipped) = (0, 0, 0, 0);
        let mut parents = HashSet::new();
        for i in (0..ds.rows.len()).filter(|&i| matcher.matches(i)) {
            matched += 1;
            let row = before.row(i, &ds.rows[i]);
            // As `issueParentId` names the parent.
            parents.insert((row.repo, row.rule));
            let permission = Dataset::triage_permission(i, &row);
            if permission == TriagePermission::None {
                skipped += 1;
                continue;
            }
            let exception = ignores && permission == TriagePermission::Request;
            let change = next.findings.entry(i).or_insert_with(|| FindingChange {
                triage: row.triage,
                severity: row.severity,
                triage_reason: row.triage_reason,
                aggregate: row.aggregate,
                triaged_at: row.triaged_at,
                last_activity: row.last_activity,
                note: before
                    .findings
                    .get(&i)
                    .map_or_else(|| Dataset::generated_note(&row), |c| c.note.clone()),
                events: Vec::new(),
            });
            change.last_activity = now;
            let event = ActivityEvent {
                date: Some(ts(now)),
                triage_reason: reason_wire.clone(),
                note: note.clone(),
                actor: Some(ACTOR.into()),
                ..Default::default()
            };
            if exception {
                exceptions += 1;
                change.events.push(ActivityEvent {
                    title: Some("Exception requested".into()),
                    history_type: Some(HistoryType::ExceptionRequestCreated),
                    exception_request_details: Some(ExceptionRequestDetails {
                        action_source: Some("FINDING_EXCEPTION_REQUEST_SOURCE_API".into()),
                    }),
                    ..event
                });
                continue;
            }
            updated += 1;
            let status = &IssueStatus::ALL[row.status as usize];
            let aggregate = &AggregateState::ALL[row.aggregate as usize];
            change.triage = index_of(TriageState::ALL, &state);
            change.triage_reason = reason.as_ref().map(|r| index_of(TriageReason::ALL, r));
            change.aggregate = index_of(
                AggregateState::ALL,
                &aggregate_after(status, aggregate, &state),
            );
            change.triaged_at = Some(now);
            change.note = note.clone();
            change.events.push(ActivityEvent {
                title: Some(format!("Triaged as {}", state.label())),
                history_type: Some(HistoryType::Triage),
                ..event
            });
        }
        answer.issue_count = Some(matched);
        answer.issue_parent_count = Some(crate::wire_int(parents.len()));
        answer.updated_count = Some(updated);
        // Published as the breakdown of an ignore: only for ignores.
        answer.num_ignored = ignores.then_some(updated);
        answer.num_exceptions_requested = Some(exceptions);
        answer.num_skipped = Some(skipped);
        answer
    }))
}

/// The triage state and reason a bulk update asks for, refused when
/// they are not ones a finding can be given.
fn triage_asked(
    params: &UpdateFindingParams,
) -> Result<(TriageState, Option<TriageReason>), BadRequest> {
    let Some(state) = params.triage_state.clone() else {
        return Err(BadRequest("params.triageState is required".into()));
    };
    if !state.is_known() || state == TriageState::Unknown {
        return Err(BadRequest(format!(
            "{:?} is not a triage state a finding can be given",
            state.as_wire()
        )));
    }
    let reason = match &params.triage_reason {
        None | Some(TriageReason::NoTriageReason) => None,
        Some(r) if !r.is_known() || *r == TriageReason::Unknown => {
            return Err(BadRequest(format!(
                "{:?} is not a triage reason a finding can be given",
                r.as_wire()
            )));
        }
        Some(r) => Some(r.clone()),
    };
    Ok((state, reason))
}

/// `PublicIssuesService_TriageIssue`: agentic issue `issue_id` gets the
/// request's state and reason; `None` when there is no such issue.
pub fn triage_agentic(
    ds: &Dataset,
    issue_id: &str,
    req: &TriageIssueRequest,
) -> Result<Option<AgenticIssue>, BadRequest> {
    let Some(state) = req.triage_state.clone() else {
        return Err(BadRequest("triageState is required".into()));
    };
    require_known!(req.triage_state, "triageState");
    require_known!(req.triage_reason, "triageReason");
    let Some(index) = ds
        .agentic
        .iter()
        .position(|r| r.issue.id.as_deref() == Some(issue_id))
    else {
        return Ok(None);
    };
    let triaged_at = ts(write_time(ds));
    Ok(Some(ds.change(|before, next| {
        // The triage is the next event of the issue's history.
        let base = &ds.agentic[index].issue;
        let old = before.agentic_issue(index, base);
        let mut events = before
            .agentic
            .get(&index)
            .map(|c| c.events.clone())
            .unwrap_or_default();
        let seq = ds.generated_agentic_history(index).len() + events.len();
        let new = AgenticIssue {
            triage_state: Some(state),
            triage_reason: req.triage_reason.clone(),
            triaged_at: Some(triaged_at),
            ..Default::default()
        };
        events.push(activity(
            &old,
            seq,
            (Some(triage_values(&old)), new.clone()),
            (ActorType::User, Some(ACTOR.into())),
            Some(triaged_at),
            None,
        ));
        let change = AgenticChange {
            triage_state: new.triage_state.unwrap_or(AgenticTriageState::Open),
            triage_reason: new.triage_reason,
            triaged_at,
            events,
        };
        next.agentic.insert(index, change);
        next.agentic_issue(index, base)
    })))
}
