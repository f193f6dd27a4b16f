//! What the token may do (`DeploymentService_GetDeploymentAuthorizedActions`)
//! and whether an action on a finding is available before anything is
//! sent: the deployment's authorized actions, the finding's own
//! `triagePermission`, type and autotriage (docs/src/api.md "Acting on
//! findings").

use super::enums::TriagePermission;
use super::fixes::FixOperation;
use super::issue::Issue;
use super::wire;
use serde::{Deserialize, Serialize};

/// `protos.deployment.v1.GetDeploymentAuthorizedActionsResponse`,
/// published with a snake_case field (the lowerCamelCase spelling is
/// accepted too).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GetDeploymentAuthorizedActionsResponse {
    #[serde(
        alias = "authorizedActions",
        deserialize_with = "wire::null_as_default"
    )]
    pub authorized_actions: Vec<String>,
}

/// The writes on findings beyond triage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FindingAction {
    CreateTickets,
    LinkTicket,
    UnlinkTicket,
    Fix(FixOperation),
    Feedback,
    Remember,
}

impl FindingAction {
    /// Every action, in the order a menu shows them.
    pub const ALL: [FindingAction; 7] = [
        FindingAction::CreateTickets,
        FindingAction::LinkTicket,
        FindingAction::UnlinkTicket,
        FindingAction::Fix(FixOperation::FixJob),
        FindingAction::Fix(FixOperation::Autofix),
        FindingAction::Feedback,
        FindingAction::Remember,
    ];

    /// The published operation, which is also the name the authorized
    /// actions give it (docs/src/api.md "Authorized actions").
    pub fn operation_id(self) -> &'static str {
        match self {
            FindingAction::CreateTickets => "ExternalTicketingService_CreateTickets",
            FindingAction::LinkTicket => "ExternalTicketingService_LinkTicket",
            FindingAction::UnlinkTicket => "ExternalTicketingService_UnlinkTicket",
            FindingAction::Fix(op) => op.operation_id(),
            FindingAction::Feedback => "AutotriageFeedbackService_PostAutotriageFeedback",
            FindingAction::Remember => "MemoriesService_CreateMemoryFromTriage",
        }
    }

    /// What a person calls it.
    pub fn describe(self) -> &'static str {
        match self {
            FindingAction::CreateTickets => "creating tickets",
            FindingAction::LinkTicket => "linking a ticket",
            FindingAction::UnlinkTicket => "unlinking tickets",
            FindingAction::Fix(FixOperation::FixJob) => "asking for a Code Autofix pull request",
            FindingAction::Fix(FixOperation::Autofix) => "asking for an Autofix pull request",
            FindingAction::Feedback => "giving feedback on the AI verdict",
            FindingAction::Remember => "creating an AI memory",
        }
    }

    /// The write as a refusal names it ("the ticket creation").
    pub fn write_name(self) -> &'static str {
        match self {
            FindingAction::CreateTickets => "the ticket creation",
            FindingAction::LinkTicket => "the ticket link",
            FindingAction::UnlinkTicket => "the ticket unlink",
            FindingAction::Fix(_) => "the fix request",
            FindingAction::Feedback => "the AI verdict feedback",
            FindingAction::Remember => "the memory",
        }
    }

    /// Whether the finding's `triagePermission` governs it: the actions
    /// that record a triage decision (feedback, a memory from a triage).
    fn is_triage_decision(self) -> bool {
        matches!(self, FindingAction::Feedback | FindingAction::Remember)
    }
}

impl GetDeploymentAuthorizedActionsResponse {
    /// Why the token may not take `action`, if it may not. The answer is
    /// read as the operations it names (`Service_Method` operation ids); an
    /// answer that names no operation id speaks another vocabulary and
    /// refuses nothing (the server still refuses what it must).
    pub fn refusal(&self, action: FindingAction) -> Option<String> {
        let known = self.authorized_actions.iter().any(|n| is_operation_id(n));
        let allowed = self
            .authorized_actions
            .iter()
            .any(|n| n == action.operation_id());
        (known && !allowed).then(|| {
            format!(
                "the token is not authorized for {} ({} is not among the deployment's authorized actions)",
                action.describe(),
                action.operation_id()
            )
        })
    }
}

/// An operation id: `SomethingService_Method`.
fn is_operation_id(name: &str) -> bool {
    name.split_once("Service_")
        .is_some_and(|(service, method)| {
            !service.is_empty()
                && !method.is_empty()
                && service
                    .chars()
                    .chain(method.chars())
                    .all(|c| c.is_ascii_alphanumeric())
        })
}

/// Why `action` cannot be taken on `issue`, if it cannot, from what the
/// finding says of itself: its type (fixes), its autotriage (feedback),
/// its triage permission (feedback, memories).
pub fn issue_refusal(issue: &Issue, action: FindingAction) -> Option<String> {
    let id = issue.id();
    if action.is_triage_decision() && issue.triage_permission == Some(TriagePermission::None) {
        return Some(format!(
            "finding {id}: its triage permission lets nobody triage it, so {} is not available",
            action.describe()
        ));
    }
    match action {
        FindingAction::Fix(op) => {
            let right = FixOperation::for_type(issue.issue_type.as_ref());
            match right {
                None => Some(format!(
                    "finding {id}: no fix pull request can be asked for a {} finding (code, AI code and supply-chain findings only)",
                    issue.issue_type.as_ref().map_or("typeless", |t| t.label())
                )),
                Some(right) if right != op => Some(format!(
                    "finding {id}: {} is asked for with {}, not {}",
                    issue.issue_type.as_ref().map_or("", |t| t.label()),
                    right.operation_id(),
                    op.operation_id()
                )),
                Some(_) => None,
            }
        }
        FindingAction::Feedback => issue
            .autotriage
            .as_ref()
            .and_then(|a| a.id.as_deref())
            .is_none_or(str::is_empty)
            .then(|| format!("finding {id} has no AI verdict to give feedback on")),
        FindingAction::UnlinkTicket => issue
            .external_ticket
            .is_none()
            .then(|| format!("finding {id} has no ticket to unlink")),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::*;

    #[test]
    fn authorized_actions_refuse_only_in_their_own_vocabulary() {
        let some: GetDeploymentAuthorizedActionsResponse =
            serde_json::from_value(serde_json::json!({
                "authorized_actions": ["ExternalTicketingService_CreateTickets"]
            }))
            .unwrap();
        assert!(some.refusal(FindingAction::CreateTickets).is_none());
        assert!(
            some.refusal(FindingAction::Feedback)
                .unwrap()
                .contains("not authorized")
        );
        let other: GetDeploymentAuthorizedActionsResponse =
            serde_json::from_value(serde_json::json!({"authorized_actions": ["read:issues"]}))
                .unwrap();
        assert!(other.refusal(FindingAction::Feedback).is_none());
    }

    #[test]
    fn a_finding_says_what_it_cannot_take() {
        let issue = Issue {
            id: Some("1".into()),
            issue_type: Some(IssueType::Secrets),
            triage_permission: Some(TriagePermission::None),
            ..Default::default()
        };
        assert!(issue_refusal(&issue, FindingAction::Fix(FixOperation::Autofix)).is_some());
        assert!(
            issue_refusal(&issue, FindingAction::Remember)
                .unwrap()
                .contains("triage permission")
        );
        assert!(issue_refusal(&issue, FindingAction::CreateTickets).is_none());
    }
}
