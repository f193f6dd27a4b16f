//! ReportsService_GetReportFindings: request, filters and response.

use super::enums::*;
use super::issue::Issue;
use super::wire::{self, Timestamp};
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ReportRequest {
    pub report_type: Option<ReportType>,
    pub filters: Option<ReportFilters>,
    pub cursor: Option<String>,
    #[serde(with = "wire::int64_number")]
    pub limit: Option<i64>,
    #[serde(with = "wire::timestamp")]
    pub bucket_start: Option<Timestamp>,
    pub finding_state: Option<AggregateState>,
    pub guardrails_state: Option<String>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ReportFilters {
    pub time_period: Option<TimePeriod>,
    pub time_bucket_size: Option<TimeBucketSize>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub finding_types: Vec<FindingType>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub finding_severities: Vec<FindingSeverity>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub projects: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub tags: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub confidence: Vec<FindingConfidence>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub reachability: Vec<FindingReachability>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub validity: Vec<FindingValidity>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub teams: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub rule_ids: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub ai_verdicts: Vec<Verdict>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub deployment_statuses: Vec<DeploymentStatus>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub public_exposures: Vec<PublicExposure>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub finding_categories: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub project_ids: Vec<String>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TimePeriod {
    #[serde(with = "wire::timestamp")]
    pub since: Option<Timestamp>,
    #[serde(with = "wire::timestamp")]
    pub until: Option<Timestamp>,
}

impl TimePeriod {
    /// The last `span` as of `now`: exactly `span` long, in every command
    /// and pane. A span of whole days ends at the end of today (UTC), so a
    /// rerun within the day asks for the same period (and the same
    /// buckets); a span of hours ends now. A bucket shorter than its size
    /// is said as such ([`TimePeriod::partial_days`]).
    pub fn last(span: chrono::Duration, now: Timestamp) -> TimePeriod {
        let until = if span.num_seconds() % 86_400 == 0 {
            TimeBucketSize::Day.floor(now) + chrono::Duration::days(1)
        } else {
            now
        };
        TimePeriod {
            since: Some(until - span),
            until: Some(until),
        }
    }

    /// The days a bucket of `size` spans when it is shorter than one of
    /// its size (a period of 30 days in weeks: four whole weeks and a
    /// bucket of 2 days), else `None`.
    pub fn partial_days(&self, size: &TimeBucketSize) -> Option<i64> {
        let (since, until) = (self.since?, self.until?);
        let whole = match size {
            TimeBucketSize::Day => since + chrono::Duration::days(1),
            TimeBucketSize::Month => since.checked_add_months(chrono::Months::new(1))?,
            _ => since + chrono::Duration::days(7),
        };
        (until < whole).then(|| ((until - since).num_hours() + 23) / 24)
    }
}

/// The totals a report page carries (every field of the response but its
/// findings and cursor), as the JSON document's head writes them.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ReportTotals {
    #[serde(with = "wire::int64_number")]
    pub total: Option<i64>,
    #[serde(with = "wire::int64_number")]
    pub total_code: Option<i64>,
    #[serde(with = "wire::int64_number")]
    pub total_sca: Option<i64>,
    #[serde(with = "wire::int64_number")]
    pub total_secrets: Option<i64>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ReportResponse {
    #[serde(
        deserialize_with = "wire::page_items",
        skip_serializing_if = "wire::is_empty"
    )]
    pub findings: Vec<Issue>,
    pub cursor: Option<String>,
    // Numbers in the published schema; strings are accepted too.
    #[serde(with = "wire::int64_number")]
    pub total: Option<i64>,
    #[serde(with = "wire::int64_number")]
    pub total_code: Option<i64>,
    #[serde(with = "wire::int64_number")]
    pub total_sca: Option<i64>,
    #[serde(with = "wire::int64_number")]
    pub total_secrets: Option<i64>,
}

impl ReportResponse {
    /// The page's totals.
    pub fn totals(&self) -> ReportTotals {
        ReportTotals {
            total: self.total,
            total_code: self.total_code,
            total_sca: self.total_sca,
            total_secrets: self.total_secrets,
        }
    }
}
