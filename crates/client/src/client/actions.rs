//! The actions on findings beyond triage (docs/src/api.md "Acting on
//! findings"): tickets, fix pull requests, AI verdict feedback, memories,
//! and what the token may do. Every write goes through [`Client::act`],
//! sent once, never retried; the typed functions are its shorthands.

use super::Client;
use crate::ApiError;
use crate::decoded::FromAnswer;
use crate::transport::Bounds;
use findings_model::*;

impl Client {
    /// Sends one action on findings, exactly as [`ActionRequest::review`]
    /// shows it. Never retried. Finding ids these operations take as
    /// numbers are checked first: another id is refused unsent.
    pub async fn act(&self, req: &ActionRequest) -> Result<ActionAnswer, ApiError> {
        check_ids(&req.touched())?;
        let (_, path) = req.path(&self.deployment);
        let body = req.body(&self.deployment);
        Ok(match req {
            ActionRequest::CreateTickets { .. } => {
                ActionAnswer::Tickets(self.post(&path, &body).await?)
            }
            ActionRequest::LinkTicket { .. } => {
                ActionAnswer::Linked(self.post(&path, &body).await?)
            }
            ActionRequest::UnlinkTicket { .. } => {
                ActionAnswer::Unlinked(self.post(&path, &body).await?)
            }
            ActionRequest::Fix {
                operation: FixOperation::Autofix,
                ..
            } => ActionAnswer::Fix(FixAnswer::Autofix(self.post(&path, &body).await?)),
            ActionRequest::Fix {
                operation: FixOperation::FixJob,
                ..
            } => ActionAnswer::Fix(FixAnswer::FixJob(self.post(&path, &body).await?)),
            ActionRequest::Feedback(_) => ActionAnswer::Feedback(self.post(&path, &body).await?),
            ActionRequest::Remember(_) => {
                ActionAnswer::Memory(Box::new(self.post(&path, &body).await?))
            }
        })
    }

    async fn post<R: FromAnswer>(
        &self,
        path: &str,
        body: &serde_json::Value,
    ) -> Result<R, ApiError> {
        self.write(reqwest::Method::POST, path, body).await
    }

    /// GET /api/agent/deployments/{d}/authorized_actions
    /// (`DeploymentService_GetDeploymentAuthorizedActions`).
    pub async fn authorized_actions(
        &self,
    ) -> Result<GetDeploymentAuthorizedActionsResponse, ApiError> {
        let path = format!(
            "/api/agent/deployments/{}/authorized_actions",
            self.deployment
        );
        self.read(reqwest::Method::GET, &path, None::<&()>, Bounds::ONE)
            .await
    }

    /// GET /api/notifications/deployments/{d}/ticketing/v2
    /// (`ExternalTicketingService_GetTicketingInstances`).
    pub async fn ticketing_instances(&self) -> Result<GetTicketingInstancesResponse, ApiError> {
        let path = format!(
            "/api/notifications/deployments/{}/ticketing/v2",
            self.deployment
        );
        self.read(reqwest::Method::GET, &path, None::<&()>, Bounds::ONE)
            .await
    }

    /// `ExternalTicketingService_CreateTickets` through instance
    /// `instance_id`. Never retried.
    pub async fn create_tickets(
        &self,
        instance_id: i64,
        request: &CreateTicketsRequest,
    ) -> Result<CreateTicketsResponse, ApiError> {
        let req = ActionRequest::CreateTickets {
            instance_id,
            request: request.clone(),
        };
        match self.act(&req).await? {
            ActionAnswer::Tickets(a) => Ok(a),
            _ => Err(mismatch()),
        }
    }

    /// `ExternalTicketingService_LinkTicket`. Never retried.
    pub async fn link_ticket(
        &self,
        instance_id: i64,
        request: &LinkTicketRequest,
    ) -> Result<LinkTicketResponse, ApiError> {
        let req = ActionRequest::LinkTicket {
            instance_id,
            request: request.clone(),
        };
        match self.act(&req).await? {
            ActionAnswer::Linked(a) => Ok(a),
            _ => Err(mismatch()),
        }
    }

    /// `ExternalTicketingService_UnlinkTicket`. Never retried.
    pub async fn unlink_ticket(
        &self,
        instance_id: i64,
        request: &UnlinkTicketRequest,
    ) -> Result<UnlinkTicketResponse, ApiError> {
        let req = ActionRequest::UnlinkTicket {
            instance_id,
            request: request.clone(),
        };
        match self.act(&req).await? {
            ActionAnswer::Unlinked(a) => Ok(a),
            _ => Err(mismatch()),
        }
    }

    /// A fix pull request for finding `issue_id` with `operation` (see
    /// [`FixOperation::for_type`]). Never retried.
    pub async fn request_fix(
        &self,
        operation: FixOperation,
        issue_id: &str,
    ) -> Result<FixAnswer, ApiError> {
        let req = ActionRequest::Fix {
            operation,
            issue_id: issue_id.to_owned(),
        };
        match self.act(&req).await? {
            ActionAnswer::Fix(a) => Ok(a),
            _ => Err(mismatch()),
        }
    }

    /// `AutofixService_CreateAutofix`. Never retried.
    pub async fn create_autofix(&self, issue_id: &str) -> Result<CreateAutofixResponse, ApiError> {
        match self.request_fix(FixOperation::Autofix, issue_id).await? {
            FixAnswer::Autofix(a) => Ok(a),
            FixAnswer::FixJob(_) => Err(mismatch()),
        }
    }

    /// `AiFixJobsService_CreateFixJob`. Never retried.
    pub async fn create_fix_job(&self, issue_id: &str) -> Result<CreateFixJobResponse, ApiError> {
        match self.request_fix(FixOperation::FixJob, issue_id).await? {
            FixAnswer::FixJob(a) => Ok(a),
            FixAnswer::Autofix(_) => Err(mismatch()),
        }
    }

    /// `AutotriageFeedbackService_PostAutotriageFeedback`. Never retried.
    pub async fn post_autotriage_feedback(
        &self,
        feedback: &AutotriageFeedback,
    ) -> Result<PostAutotriageFeedbackResponse, ApiError> {
        match self.act(&ActionRequest::Feedback(feedback.clone())).await? {
            ActionAnswer::Feedback(a) => Ok(a),
            _ => Err(mismatch()),
        }
    }

    /// `MemoriesService_CreateMemoryFromTriage`. Never retried.
    pub async fn create_memory_from_triage(
        &self,
        request: &CreateMemoryFromTriageRequest,
    ) -> Result<CreateMemoryFromTriageResponse, ApiError> {
        match self.act(&ActionRequest::Remember(request.clone())).await? {
            ActionAnswer::Memory(a) => Ok(*a),
            _ => Err(mismatch()),
        }
    }

    /// POST /api/ai/deployments/{d}/relevant_issues
    /// (`MemoriesService_FindRelevantIssues`): a question, retried as reads
    /// are.
    pub async fn find_relevant_issues(
        &self,
        req: &FindRelevantIssuesRequest,
    ) -> Result<FindRelevantIssuesResponse, ApiError> {
        let path = format!("/api/ai/deployments/{}/relevant_issues", self.deployment);
        let body = FindRelevantIssuesRequest {
            deployment_id: Some(self.deployment.clone()),
            ..req.clone()
        };
        self.read(reqwest::Method::POST, &path, Some(&body), Bounds::ONE)
            .await
    }
}

/// `act` answers the kind it was asked: never reached.
fn mismatch() -> ApiError {
    ApiError::Config("the answer is of another action".into())
}

/// Finding ids these operations carry as int32 numbers (and in paths):
/// anything else is refused before it is sent.
fn check_ids(ids: &[String]) -> Result<(), ApiError> {
    match ids.iter().find(|id| wire::numeric_id(id).is_none()) {
        Some(bad) => Err(ApiError::Config(format!(
            "finding id {:?} is not a number; these operations take numeric finding ids",
            findings_base::text::one_line(bad)
        ))),
        None => Ok(()),
    }
}
