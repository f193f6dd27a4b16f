//! The listings other than List issues, each as its answer undecoded
//! too (pagination reads the next cursor before decoding a page).

use super::{Answer, Client};
use crate::decoded::FromAnswer;
use crate::error::ApiError;
use crate::transport::Bounds;
use findings_model::*;

impl Client {
    /// POST /api/reporting/{deploymentId}/findings
    pub async fn report_findings(&self, req: &ReportRequest) -> Result<ReportResponse, ApiError> {
        ReportResponse::from_answer(&self.report_answer(req).await?)
    }

    /// [`Client::report_findings`], its answer not decoded yet.
    pub async fn report_answer(&self, req: &ReportRequest) -> Result<Answer, ApiError> {
        let path = format!("/api/reporting/{}/findings", self.deployment);
        let bounds = Bounds::page(req.limit);
        self.read_raw(reqwest::Method::POST, &path, Some(req), bounds)
            .await
    }

    /// POST /api/issues/{deploymentId}/search
    pub async fn search_issues(
        &self,
        req: &SearchIssuesRequest,
    ) -> Result<SearchIssuesResponse, ApiError> {
        SearchIssuesResponse::from_answer(&self.search_answer(req).await?)
    }

    /// [`Client::search_issues`], its answer not decoded yet.
    pub async fn search_answer(&self, req: &SearchIssuesRequest) -> Result<Answer, ApiError> {
        let path = format!("/api/issues/{}/search", self.deployment);
        let body = SearchIssuesRequest {
            deployment_id: Some(self.deployment.clone()),
            ..req.clone()
        };
        let bounds = Bounds::page(body.limit);
        self.read_raw(reqwest::Method::POST, &path, Some(&body), bounds)
            .await
    }
}
