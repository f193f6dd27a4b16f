//! The dashboard's reports (`ReportsService_Get*Report`, docs/src/api.md
//! "Dashboard reports"): one request of the Report's filters each.

use super::Client;
use crate::ApiError;
use crate::decoded::FromAnswer;
use crate::transport::Bounds;
use findings_model::*;

impl Client {
    /// POST /api/reporting/{deploymentId}/reports/{report}: one of the
    /// dashboard's reports, of `req`'s filters. Each is a single object.
    pub async fn dashboard_report(
        &self,
        report: DashboardReport,
        req: &GetReportRequest,
    ) -> Result<DashboardAnswer, ApiError> {
        Ok(match report {
            DashboardReport::Activity => {
                DashboardAnswer::Activity(Box::new(self.report_of(report, req).await?))
            }
            DashboardReport::ByProject => {
                DashboardAnswer::ByProject(self.report_of(report, req).await?)
            }
            DashboardReport::BacklogByRule => {
                DashboardAnswer::BacklogByRule(self.report_of(report, req).await?)
            }
            DashboardReport::BacklogBySeverity | DashboardReport::MedianOpenAge => {
                DashboardAnswer::BySeverity(self.report_of(report, req).await?)
            }
        })
    }

    async fn report_of<T: FromAnswer>(
        &self,
        report: DashboardReport,
        req: &GetReportRequest,
    ) -> Result<T, ApiError> {
        let path = format!(
            "/api/reporting/{}/reports/{}",
            self.deployment,
            report.path()
        );
        self.read(reqwest::Method::POST, &path, Some(req), Bounds::ONE)
            .await
    }

    /// `ReportsService_GetFindingsActivityReport`
    pub async fn activity_report(
        &self,
        req: &GetReportRequest,
    ) -> Result<ActivityReport, ApiError> {
        self.report_of(DashboardReport::Activity, req).await
    }

    /// `ReportsService_GetFindingsByProjectAndSeverityReport`
    pub async fn by_project_report(
        &self,
        req: &GetReportRequest,
    ) -> Result<ByProjectReport, ApiError> {
        self.report_of(DashboardReport::ByProject, req).await
    }

    /// `ReportsService_GetBacklogByRuleReport`
    pub async fn backlog_by_rule_report(
        &self,
        req: &GetReportRequest,
    ) -> Result<BacklogByRuleReport, ApiError> {
        self.report_of(DashboardReport::BacklogByRule, req).await
    }

    /// `ReportsService_GetBacklogBySeverityReport`
    pub async fn backlog_by_severity_report(
        &self,
        req: &GetReportRequest,
    ) -> Result<BySeverityReport, ApiError> {
        self.report_of(DashboardReport::BacklogBySeverity, req)
            .await
    }

    /// `ReportsService_GetMedianOpenAgeBySeverityReport` (days)
    pub async fn median_open_age_report(
        &self,
        req: &GetReportRequest,
    ) -> Result<BySeverityReport, ApiError> {
        self.report_of(DashboardReport::MedianOpenAge, req).await
    }
}
