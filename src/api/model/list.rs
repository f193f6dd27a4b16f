//! List issues: request (sort as `sortBy`/`sortDirection`, filter as
//! `filter`, docs/api.md §1), filter object and the response wrapper.

use super::enums::*;
use super::issue::Issue;
use super::wire::{self, Timestamp};
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ListIssuesRequest {
    pub deployment_id: Option<String>,
    #[serde(with = "wire::int64_number")]
    pub limit: Option<i64>,
    pub cursor: Option<String>,
    pub filter: Option<ListIssuesFilter>,
    pub include_remediation: Option<bool>,
    pub include_activity_history: Option<bool>,
    pub include_is_archived: Option<bool>,
    pub include_first_detected_at: Option<bool>,
    /// Deprecated by `filter.issueTypes`.
    pub issue_type: Option<IssueType>,
    pub sort_by: Option<SortBy>,
    pub sort_direction: Option<SortDirection>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ListIssuesFilter {
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub ids: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub repository_names: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub repository_ids: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub repository_tags: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub refs: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub repository_ref_ids: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub ai_sensitivities: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub team_names: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub policy_slugs: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub rules: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub rule_ids: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub rulesets: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub categories: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub dependencies: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub cves: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub issue_parent_ids: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub secret_types: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub advisory_ids: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub file_paths: Vec<String>,
    #[serde(with = "wire::timestamp")]
    pub since: Option<Timestamp>,
    #[serde(with = "wire::timestamp")]
    pub until: Option<Timestamp>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub issue_types: Vec<IssueType>,
    pub exclude_historical: Option<bool>,
    pub on_primary_branch: Option<bool>,
    pub include_ticketed: Option<bool>,
    pub include_ai_memory_rendered: Option<bool>,
    pub include_archived: Option<bool>,
    pub has_in_flight_autofix_pr: Option<bool>,
    pub ai_memory_will_flip_verdict: Option<String>,
    pub ai_memory_referenced: Option<String>,
    pub ai_memory_rendered: Option<String>,
    pub memory_id_in_scope: Option<String>,
}

impl ListIssuesFilter {
    /// Whether no field is set (the filter would select everything).
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ListIssuesResponse {
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub issues: Vec<IssueItem>,
    pub cursor: Option<String>,
}

/// One item of List issues: the Issue with review and triage counters.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct IssueItem {
    pub issue: Option<Issue>,
    #[serde(with = "wire::int64_string")]
    pub review_count: Option<i64>,
    #[serde(with = "wire::int64_string")]
    pub triage_count: Option<i64>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub all_refs: Vec<String>,
    #[serde(with = "wire::int64_string")]
    pub ai_silenced_count: Option<i64>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub all_review_thread_ids: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub all_review_comments: Vec<ReviewComment>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ReviewComment {
    pub is_inline: Option<bool>,
    pub thread_id: Option<String>,
}
