//! The activity history of an agentic-workflow issue
//! (`PublicIssuesService_GetIssueActivityHistory`): what made the generated
//! issue as it is (detected, its detection state changed, triaged), then
//! the triages since start-up, oldest first. The last event that set a
//! field set it to the value the issue fetch shows, so the two agree.

use super::{AgenticRecord, Dataset};
use findings_model::*;

impl Dataset {
    /// Agentic issue `i`'s history as it is now, oldest first.
    pub fn agentic_history(&self, i: usize) -> Vec<AgenticIssueActivity> {
        let mut events = self.generated_agentic_history(i);
        if let Some(change) = self.changes().agentic.get(&i) {
            events.extend(change.events.iter().cloned());
        }
        events
    }

    /// The events that made generated issue `i` as generated.
    pub fn generated_agentic_history(&self, i: usize) -> Vec<AgenticIssueActivity> {
        let AgenticRecord { issue, .. } = &self.agentic[i];
        let mut events = Vec::new();
        let detected = AgenticIssue {
            detection_state: Some(DetectionState::Detected),
            severity: issue.severity.clone(),
            triage_state: Some(AgenticTriageState::Open),
            ..Default::default()
        };
        let workflow = issue.workflow_ids.first().cloned();
        events.push(activity(
            issue,
            events.len(),
            (None, detected),
            (ActorType::Platform, workflow.clone()),
            issue.created_at,
            Some("detected by an agentic workflow".into()),
        ));
        if let Some(state) = issue
            .detection_state
            .clone()
            .filter(|s| *s != DetectionState::Detected)
        {
            let before = AgenticIssue {
                detection_state: Some(DetectionState::Detected),
                ..Default::default()
            };
            let after = AgenticIssue {
                detection_state: Some(state),
                ..Default::default()
            };
            events.push(activity(
                issue,
                events.len(),
                (Some(before), after),
                (ActorType::Platform, workflow),
                issue.last_detected_at,
                Some("detection state changed by a later run".into()),
            ));
        }
        if issue.triage_state != Some(AgenticTriageState::Open) {
            let before = AgenticIssue {
                triage_state: Some(AgenticTriageState::Open),
                ..Default::default()
            };
            let users = &self.catalog.people.users;
            let actor = (!users.is_empty()).then(|| users[i % users.len()].login.clone());
            events.push(activity(
                issue,
                events.len(),
                (Some(before), triage_values(issue)),
                (ActorType::User, actor),
                issue.triaged_at,
                None,
            ));
        }
        events
    }
}

/// The triage fields of `issue`: what a triage event sets.
pub fn triage_values(issue: &AgenticIssue) -> AgenticIssue {
    AgenticIssue {
        triage_state: issue.triage_state.clone(),
        triage_reason: issue.triage_reason.clone(),
        triaged_at: issue.triaged_at,
        ..Default::default()
    }
}

/// The event that took `issue` from `old` to `new` (`old` absent for its
/// creation); the changed fields are those `new` sets or `old` had.
pub fn activity(
    issue: &AgenticIssue,
    seq: usize,
    (old, new): (Option<AgenticIssue>, AgenticIssue),
    (actor_type, actor_id): (ActorType, Option<String>),
    at: Option<Timestamp>,
    reason: Option<String>,
) -> AgenticIssueActivity {
    let id = issue.id.clone().unwrap_or_default();
    let set = |v: &AgenticIssue| {
        [
            ("detectionState", v.detection_state.is_some()),
            ("severity", v.severity.is_some()),
            ("triageState", v.triage_state.is_some()),
            ("triageReason", v.triage_reason.is_some()),
            ("triagedAt", v.triaged_at.is_some()),
        ]
    };
    let old_set = old.as_ref().map(set);
    let changed: Vec<&str> = set(&new)
        .iter()
        .enumerate()
        .filter(|(k, (_, is_set))| *is_set || old_set.is_some_and(|o| o[*k].1))
        .map(|(_, (name, _))| *name)
        .collect();
    AgenticIssueActivity {
        id: Some(format!("{id}-act-{:03}", seq + 1)),
        deployment_id: issue.deployment_id.clone(),
        issue_id: Some(id),
        old_values: old,
        new_values: Some(new),
        changed_fields: Some(changed.join(",")),
        reason,
        actor_type: Some(actor_type),
        actor_id,
        created_at: at,
    }
}
