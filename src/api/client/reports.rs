//! The dashboard's reports (`ReportsService_Get*Report`, docs/api.md
//! "Dashboard reports"): one request of the Report's filters each.

use super::Client;
use crate::api::ApiError;
use crate::api::model::*;
use crate::api::transport::Bounds;

impl Client {
    /// POST /api/reporting/{deploymentId}/reports/{report}: one of the
    /// dashboard's reports (`ReportsService_Get*Report`), of `req`'s
    /// filters. Each is a single object; its buckets are capped as a page's
    /// items are.
    async fn dashboard_report<T: serde::de::DeserializeOwned>(
        &self,
        report: &str,
        req: &GetReportRequest,
    ) -> Result<T, ApiError> {
        let path = format!("/api/reporting/{}/reports/{report}", self.deployment);
        self.read(reqwest::Method::POST, &path, Some(req), Bounds::ONE)
            .await
    }

    /// `ReportsService_GetFindingsActivityReport`
    pub async fn activity_report(
        &self,
        req: &GetReportRequest,
    ) -> Result<ActivityReport, ApiError> {
        self.dashboard_report("activity", req).await
    }

    /// `ReportsService_GetFindingsByProjectAndSeverityReport`
    pub async fn by_project_report(
        &self,
        req: &GetReportRequest,
    ) -> Result<ByProjectReport, ApiError> {
        self.dashboard_report("by-project/by-severity", req).await
    }

    /// `ReportsService_GetBacklogByRuleReport`
    pub async fn backlog_by_rule_report(
        &self,
        req: &GetReportRequest,
    ) -> Result<BacklogByRuleReport, ApiError> {
        self.dashboard_report("backlog/by-rule", req).await
    }

    /// `ReportsService_GetBacklogBySeverityReport`
    pub async fn backlog_by_severity_report(
        &self,
        req: &GetReportRequest,
    ) -> Result<BySeverityReport, ApiError> {
        self.dashboard_report("backlog/by-severity", req).await
    }

    /// `ReportsService_GetMedianOpenAgeBySeverityReport` (days)
    pub async fn median_open_age_report(
        &self,
        req: &GetReportRequest,
    ) -> Result<BySeverityReport, ApiError> {
        self.dashboard_report("median-open-age/by-severity", req)
            .await
    }
}
