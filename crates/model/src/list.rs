//! List issues: request (sort as `sortBy`/`sortDirection`, filter as
//! `filter`, the type selection as top-level `issueTypes`, docs/src/api.md §1),
//! filter object and the response wrapper.

use super::enums::*;
use super::issue::Issue;
use super::wire::{self, Timestamp};
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

/// The page size of every list when its request gives none: what the
/// server answers with (docs/src/api.md §8), and so what the client, the
/// settings and each pane ask for by default. The one definition.
pub const DEFAULT_PAGE_SIZE: i64 = 100;

/// The most items a server puts in one page (docs/src/api.md §8): what `--all`
/// asks for, and the most a setting may ask. The one definition.
pub const MAX_PAGE_SIZE: i64 = 1000;

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
    /// The type selection (top-level, as published); empty = every type.
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub issue_types: Vec<IssueType>,
    /// Deprecated by `issueTypes`.
    pub issue_type: Option<IssueType>,
    pub sort_by: Option<SortBy>,
    pub sort_direction: Option<SortDirection>,
}

impl ListIssuesRequest {
    /// The findings of `ids`, in one page, with their activity and first
    /// detection (what a list's row keeps): what a write touched, asked
    /// for again to show them as they are now.
    pub fn of_ids(ids: Vec<String>) -> Self {
        ListIssuesRequest {
            // A Vec's length is at most isize::MAX, so this never saturates.
            limit: Some(i64::try_from(ids.len()).unwrap_or(i64::MAX)),
            include_activity_history: Some(true),
            include_first_detected_at: Some(true),
            filter: Some(ListIssuesFilter {
                ids,
                ..Default::default()
            }),
            ..Default::default()
        }
    }
}

/// `protos.issues.v1.IssuesFilter`: every published field, in published
/// order, but `filterIssueTypes` (frontend-only, the backend ignores it).
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ListIssuesFilter {
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub ids: Vec<String>,
    #[serde(with = "wire::timestamp")]
    pub since: Option<Timestamp>,
    #[serde(with = "wire::timestamp")]
    pub until: Option<Timestamp>,
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
    pub ai_verdicts: Vec<Verdict>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub ai_sensitivities: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub status: Vec<IssueStatus>,
    pub tab: Option<IssueTab>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub team_names: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub actions: Vec<ActionMode>,
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
    pub confidences: Vec<Confidence>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub severities: Vec<Severity>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub transitivities: Vec<Transitivity>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub exposures: Vec<Exposure>,
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
    pub source: Vec<RuleSource>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub reachabilities: Vec<Reachability>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub issue_parent_ids: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub validation_states: Vec<ValidationState>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub secret_types: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub repo_visibilities: Vec<RepoVisibility>,
    pub exclude_historical: Option<bool>,
    pub on_primary_branch: Option<bool>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub epss_probabilities: Vec<EpssProbability>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub triage_reasons: Vec<TriageReason>,
    pub time_filter: Option<TimeFilter>,
    pub include_ticketed: Option<bool>,
    pub backlog_type: Option<BacklogType>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub sca_rule_kind: Vec<ScaRuleKind>,
    pub ai_memory_will_flip_verdict: Option<String>,
    pub ai_memory_referenced: Option<String>,
    pub include_ai_memory_rendered: Option<bool>,
    pub ai_memory_rendered: Option<String>,
    pub memory_id_in_scope: Option<String>,
    pub relative_since: Option<RelativeSince>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub repository_deployment_statuses: Vec<DeploymentStatus>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub upgrade_guidance: Vec<BreakingChangeType>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub repository_public_exposures: Vec<PublicExposure>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub click_to_fix_pr_states: Vec<ClickToFixPrState>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub advisory_ids: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub aggregate_issue_states: Vec<AggregateState>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub upgrade_guidance_filters: Vec<UpgradeGuidanceSelection>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub file_paths: Vec<String>,
    pub include_archived: Option<bool>,
    pub has_in_flight_autofix_pr: Option<bool>,
    /// Not a published field: older clients sent the type selection here.
    /// The demo server still reads it (when the top-level `issueTypes` is
    /// empty); this client never sets it.
    #[serde(
        rename = "issueTypes",
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub legacy_issue_types: Vec<IssueType>,
}

impl ListIssuesFilter {
    /// Whether no field is set (the filter would select everything).
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

/// What the List issues filters of this client select: the top-level type
/// selection (`ListIssuesRequest.issueTypes`) beside the filter object's
/// fields, as one flat set of `FIELD=VALUE` names.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ListSelection {
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub issue_types: Vec<IssueType>,
    #[serde(flatten)]
    pub filter: ListIssuesFilter,
}

impl ListSelection {
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }

    /// Puts the selection into a request: the types at the top level, the
    /// filter object only when it sets something.
    pub fn apply_to(&self, req: &mut ListIssuesRequest) {
        req.issue_types = self.issue_types.clone();
        req.filter = (!self.filter.is_empty()).then(|| self.filter.clone());
    }
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ListIssuesResponse {
    #[serde(
        deserialize_with = "wire::page_items",
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
