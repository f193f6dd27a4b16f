//! One action on findings as it is sent: the single seam the TUI's worker
//! and the headless commands go through ([`findings_client::Client::act`]), so
//! the review shows exactly what is sent ([`ActionRequest::review`]) and a
//! failure knows which findings to fetch again ([`ActionRequest::touched`]).

use super::actions::FindingAction;
use super::feedback::*;
use super::fixes::*;
use super::issue::AutotriageFeedback;
use super::memories::*;
use super::tickets::*;
use serde::Serialize;

#[derive(Debug, Clone, PartialEq)]
pub enum ActionRequest {
    CreateTickets {
        instance_id: i64,
        request: CreateTicketsRequest,
    },
    LinkTicket {
        instance_id: i64,
        request: LinkTicketRequest,
    },
    UnlinkTicket {
        instance_id: i64,
        request: UnlinkTicketRequest,
    },
    Fix {
        operation: FixOperation,
        issue_id: String,
    },
    Feedback(AutotriageFeedback),
    Remember(CreateMemoryFromTriageRequest),
}

/// What an [`ActionRequest`] answers, by kind.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ActionAnswer {
    Tickets(CreateTicketsResponse),
    Linked(LinkTicketResponse),
    Unlinked(UnlinkTicketResponse),
    Fix(FixAnswer),
    Feedback(PostAutotriageFeedbackResponse),
    Memory(Box<CreateMemoryFromTriageResponse>),
}

/// What a review shows: the method, the path and the exact body.
#[derive(Debug, Clone, PartialEq)]
pub struct Review {
    pub method: &'static str,
    pub path: String,
    pub body: serde_json::Value,
}

impl ActionRequest {
    /// Which action it is (what permissions are checked for).
    pub fn action(&self) -> FindingAction {
        match self {
            ActionRequest::CreateTickets { .. } => FindingAction::CreateTickets,
            ActionRequest::LinkTicket { .. } => FindingAction::LinkTicket,
            ActionRequest::UnlinkTicket { .. } => FindingAction::UnlinkTicket,
            ActionRequest::Fix { operation, .. } => FindingAction::Fix(*operation),
            ActionRequest::Feedback(_) => FindingAction::Feedback,
            ActionRequest::Remember(_) => FindingAction::Remember,
        }
    }

    /// The findings it names (none for a filter: a memory, tickets by
    /// filter); for feedback, the finding of the autotriage (`at-` and its
    /// id, as the platform's autotriage ids of findings are not given).
    pub fn touched(&self) -> Vec<String> {
        match self {
            ActionRequest::CreateTickets { request, .. } => request.issue_ids.clone(),
            ActionRequest::LinkTicket { request, .. } => request.issue_ids.clone(),
            ActionRequest::UnlinkTicket { request, .. } => request.issue_ids.clone(),
            ActionRequest::Fix { issue_id, .. } => vec![issue_id.clone()],
            ActionRequest::Feedback(_) | ActionRequest::Remember(_) => Vec::new(),
        }
    }

    /// The method and path on deployment `deployment`.
    pub fn path(&self, deployment: &str) -> (&'static str, String) {
        let ticketing = |instance: &i64, action: &str| {
            format!("/api/notifications/deployments/{deployment}/ticketing/v2/{instance}/{action}")
        };
        let path = match self {
            ActionRequest::CreateTickets { instance_id, .. } => {
                ticketing(instance_id, "create_tickets")
            }
            ActionRequest::LinkTicket { instance_id, .. } => ticketing(instance_id, "tickets/link"),
            ActionRequest::UnlinkTicket { instance_id, .. } => {
                ticketing(instance_id, "tickets/unlink")
            }
            ActionRequest::Fix {
                operation: FixOperation::Autofix,
                issue_id,
            } => format!("/api/v1/deployments/{deployment}/issues/{issue_id}/autofix"),
            ActionRequest::Fix {
                operation: FixOperation::FixJob,
                issue_id,
            } => format!("/api/agent/deployments/{deployment}/issues/{issue_id}/fix_jobs"),
            ActionRequest::Feedback(_) => {
                format!("/api/ai/deployments/{deployment}/autotriage_feedback")
            }
            ActionRequest::Remember(_) => {
                format!("/api/ai/deployments/{deployment}/memories/triage")
            }
        };
        ("POST", path)
    }

    /// The body as sent to deployment `deployment` (the deployment filled
    /// in where the body carries it).
    pub fn body(&self, deployment: &str) -> serde_json::Value {
        let value = match self {
            ActionRequest::CreateTickets { request, .. } => serde_json::to_value(request),
            ActionRequest::LinkTicket { request, .. } => serde_json::to_value(request),
            ActionRequest::UnlinkTicket { request, .. } => serde_json::to_value(request),
            ActionRequest::Fix { .. } => serde_json::to_value(CreateFixRequest {}),
            ActionRequest::Feedback(feedback) => {
                serde_json::to_value(feedback_request(deployment, feedback))
            }
            ActionRequest::Remember(request) => {
                serde_json::to_value(memory_request(deployment, request))
            }
        };
        value.unwrap_or(serde_json::Value::Null)
    }

    /// What a review shows of it on `deployment`.
    pub fn review(&self, deployment: &str) -> Review {
        let (method, path) = self.path(deployment);
        Review {
            method,
            path,
            body: self.body(deployment),
        }
    }
}

/// The feedback request as sent to `deployment`.
pub fn feedback_request(
    deployment: &str,
    feedback: &AutotriageFeedback,
) -> PostAutotriageFeedbackRequest {
    PostAutotriageFeedbackRequest {
        deployment_id: Some(deployment.to_owned()),
        feedback: Some(feedback.clone()),
    }
}

/// The memory request as sent to `deployment`.
pub fn memory_request(
    deployment: &str,
    request: &CreateMemoryFromTriageRequest,
) -> CreateMemoryFromTriageRequest {
    CreateMemoryFromTriageRequest {
        deployment_id: Some(deployment.to_owned()),
        ..request.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_review_is_the_path_and_the_body_as_sent() {
        let req = ActionRequest::Feedback(AutotriageFeedback::new(
            "at-1",
            Rating::Bad,
            Some("n".into()),
        ));
        let review = req.review("12");
        assert_eq!(review.path, "/api/ai/deployments/12/autotriage_feedback");
        assert_eq!(
            review.body,
            serde_json::json!({"deploymentId": "12", "feedback": {"autotriageId": "at-1", "rating": "RATING_BAD", "note": "n"}})
        );
        let fix = ActionRequest::Fix {
            operation: FixOperation::FixJob,
            issue_id: "5".into(),
        };
        assert_eq!(fix.review("12").body, serde_json::json!({}));
        assert_eq!(fix.touched(), vec!["5".to_owned()]);
        assert_eq!(fix.action(), FindingAction::Fix(FixOperation::FixJob));
    }
}
