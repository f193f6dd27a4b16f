//! The actions on findings beyond triage (docs/api.md "Acting on
//! findings"): tickets, fix pull requests, AI verdict feedback, memories,
//! and what the token may do. Every write is sent once, never retried.

use super::{Client, path_segment};
use crate::api::ApiError;
use crate::api::model::*;
use crate::api::transport::Bounds;

impl Client {
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

    /// POST .../ticketing/v2/{instance}/create_tickets
    /// (`ExternalTicketingService_CreateTickets`). Never retried.
    pub async fn create_tickets(
        &self,
        instance_id: i64,
        req: &CreateTicketsRequest,
    ) -> Result<CreateTicketsResponse, ApiError> {
        check_ids(&req.issue_ids)?;
        let path = self.ticketing_path(instance_id, "create_tickets");
        self.write(reqwest::Method::POST, &path, req).await
    }

    /// POST .../ticketing/v2/{instance}/tickets/link
    /// (`ExternalTicketingService_LinkTicket`). Never retried.
    pub async fn link_ticket(
        &self,
        instance_id: i64,
        req: &LinkTicketRequest,
    ) -> Result<LinkTicketResponse, ApiError> {
        check_ids(&req.issue_ids)?;
        let path = self.ticketing_path(instance_id, "tickets/link");
        self.write(reqwest::Method::POST, &path, req).await
    }

    /// POST .../ticketing/v2/{instance}/tickets/unlink
    /// (`ExternalTicketingService_UnlinkTicket`). Never retried.
    pub async fn unlink_ticket(
        &self,
        instance_id: i64,
        req: &UnlinkTicketRequest,
    ) -> Result<UnlinkTicketResponse, ApiError> {
        check_ids(&req.issue_ids)?;
        let path = self.ticketing_path(instance_id, "tickets/unlink");
        self.write(reqwest::Method::POST, &path, req).await
    }

    fn ticketing_path(&self, instance_id: i64, action: &str) -> String {
        format!(
            "/api/notifications/deployments/{}/ticketing/v2/{instance_id}/{action}",
            self.deployment
        )
    }

    /// Asks for a fix pull request for finding `issue_id` with `op` (see
    /// [`FixOperation::for_type`]). Never retried.
    pub async fn request_fix(
        &self,
        op: FixOperation,
        issue_id: &str,
    ) -> Result<FixAnswer, ApiError> {
        Ok(match op {
            FixOperation::Autofix => FixAnswer::Autofix(self.create_autofix(issue_id).await?),
            FixOperation::FixJob => FixAnswer::FixJob(self.create_fix_job(issue_id).await?),
        })
    }

    /// POST /api/v1/deployments/{d}/issues/{issue}/autofix
    /// (`AutofixService_CreateAutofix`). Never retried.
    pub async fn create_autofix(&self, issue_id: &str) -> Result<CreateAutofixResponse, ApiError> {
        check_ids(&[issue_id.to_owned()])?;
        let path = format!(
            "/api/v1/deployments/{}/issues/{}/autofix",
            self.deployment,
            path_segment(issue_id)
        );
        self.write(reqwest::Method::POST, &path, &CreateFixRequest {})
            .await
    }

    /// POST /api/agent/deployments/{d}/issues/{issue}/fix_jobs
    /// (`AiFixJobsService_CreateFixJob`). Never retried.
    pub async fn create_fix_job(&self, issue_id: &str) -> Result<CreateFixJobResponse, ApiError> {
        check_ids(&[issue_id.to_owned()])?;
        let path = format!(
            "/api/agent/deployments/{}/issues/{}/fix_jobs",
            self.deployment,
            path_segment(issue_id)
        );
        self.write(reqwest::Method::POST, &path, &CreateFixRequest {})
            .await
    }

    /// POST /api/ai/deployments/{d}/autotriage_feedback
    /// (`AutotriageFeedbackService_PostAutotriageFeedback`). Never retried.
    pub async fn post_autotriage_feedback(
        &self,
        feedback: &AutotriageFeedback,
    ) -> Result<PostAutotriageFeedbackResponse, ApiError> {
        let path = format!(
            "/api/ai/deployments/{}/autotriage_feedback",
            self.deployment
        );
        let body = self.feedback_request(feedback);
        self.write(reqwest::Method::POST, &path, &body).await
    }

    /// The exact body [`Client::post_autotriage_feedback`] sends.
    pub fn feedback_request(&self, feedback: &AutotriageFeedback) -> PostAutotriageFeedbackRequest {
        PostAutotriageFeedbackRequest {
            deployment_id: Some(self.deployment.clone()),
            feedback: Some(feedback.clone()),
        }
    }

    /// POST /api/ai/deployments/{d}/memories/triage
    /// (`MemoriesService_CreateMemoryFromTriage`). Never retried.
    pub async fn create_memory_from_triage(
        &self,
        req: &CreateMemoryFromTriageRequest,
    ) -> Result<CreateMemoryFromTriageResponse, ApiError> {
        let path = format!("/api/ai/deployments/{}/memories/triage", self.deployment);
        let body = CreateMemoryFromTriageRequest {
            deployment_id: Some(self.deployment.clone()),
            ..req.clone()
        };
        self.write(reqwest::Method::POST, &path, &body).await
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

/// Finding ids these operations carry as int32 numbers: anything else is
/// refused before it is sent.
fn check_ids(ids: &[String]) -> Result<(), ApiError> {
    match ids.iter().find(|id| wire::numeric_id(id).is_none()) {
        Some(bad) => Err(ApiError::Config(format!(
            "finding id {:?} is not a number; these operations take numeric finding ids",
            crate::text::one_line(bad)
        ))),
        None => Ok(()),
    }
}
