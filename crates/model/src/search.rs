//! Search issues (agentic workflows): request (sort as `sortField`/
//! `sortDirection`, filters as `filters`, docs/src/api.md §1), filters, response.

use super::enums::*;
use super::wire::{self, Timestamp};
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SearchIssuesRequest {
    pub deployment_id: Option<String>,
    pub filters: Option<SearchFilters>,
    #[serde(with = "wire::int64_number")]
    pub limit: Option<i64>,
    pub cursor: Option<String>,
    pub sort_field: Option<IssueSortField>,
    pub sort_direction: Option<SortDirection>,
}

/// `protos.issues.api.IssueFilters`: every published field.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SearchFilters {
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub ids: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub detection_states: Vec<DetectionState>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub severities: Vec<Severity>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub triage_states: Vec<AgenticTriageState>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub triage_reasons: Vec<AgenticTriageReason>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub actions: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub workflow_ids: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub identities: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub trigger_sources: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub project_ids: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub ref_ids: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub workflow_job_ids: Vec<String>,
    pub title_query: Option<String>,
    pub description_query: Option<String>,
    pub reasoning_query: Option<String>,
    pub file_path_query: Option<String>,
    pub created_at: Option<TimeRange>,
    pub last_detected_at: Option<TimeRange>,
    pub triaged_at: Option<TimeRange>,
}

/// A time range: `startAt` inclusive, `endAt` exclusive.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TimeRange {
    #[serde(with = "wire::timestamp")]
    pub start_at: Option<Timestamp>,
    #[serde(with = "wire::timestamp")]
    pub end_at: Option<Timestamp>,
}

/// `PublicIssuesService_CountIssues`: how many agentic-workflow issues
/// the filters match.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct CountIssuesRequest {
    pub deployment_id: Option<String>,
    pub filters: Option<SearchFilters>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct CountIssuesResponse {
    #[serde(with = "wire::int64_string")]
    pub count: Option<i64>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SearchIssuesResponse {
    #[serde(
        deserialize_with = "wire::page_items",
        skip_serializing_if = "wire::is_empty"
    )]
    pub issues: Vec<AgenticIssue>,
    #[serde(with = "wire::int64_string")]
    pub total: Option<i64>,
    pub cursor: Option<String>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct AgenticIssue {
    pub id: Option<String>,
    pub deployment_id: Option<String>,
    pub title: Option<String>,
    pub description: Option<String>,
    pub reasoning: Option<String>,
    #[serde(with = "wire::timestamp")]
    pub created_at: Option<Timestamp>,
    #[serde(with = "wire::timestamp")]
    pub last_detected_at: Option<Timestamp>,
    #[serde(with = "wire::timestamp")]
    pub triaged_at: Option<Timestamp>,
    pub detection_state: Option<DetectionState>,
    pub severity: Option<Severity>,
    pub triage_state: Option<AgenticTriageState>,
    pub triage_reason: Option<AgenticTriageReason>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub actions: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub workflow_ids: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub identities: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub trigger_sources: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub project_ids: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub ref_ids: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub file_paths: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub dependency_paths: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub direct_dependencies: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub domains: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub cwes: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub owasps: Vec<String>,
}
