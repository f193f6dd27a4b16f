//! AI memories (`MemoriesService_CreateMemoryFromTriage`,
//! `MemoriesService_FindRelevantIssues`): a triage note turned into a
//! memory the AI triage applies to the findings of a scope, and the
//! findings a rule (in a repository) would bring into one.

use super::enums::IssueType;
use super::list::ListIssuesFilter;
use super::wire::{self, Timestamp};
use crate::wire_enum;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

/// `protos.ai.v1.CreateMemoryFromTriageRequest`: `note` for the findings
/// `filter` (and `issueType`) selects, OR'd with `identifierFilter`.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct CreateMemoryFromTriageRequest {
    pub deployment_id: Option<String>,
    pub note: Option<String>,
    pub filter: Option<ListIssuesFilter>,
    pub issue_type: Option<IssueType>,
    pub identifier_filter: Option<NonExclusiveMemoryFilter>,
}

/// `protos.ai.v1.NonExclusiveMemoryFilter`: a finding matches when any
/// field names it.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct NonExclusiveMemoryFilter {
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub ids: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub issue_parent_ids: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub rule_ids: Vec<String>,
}

/// `protos.ai.v1.CreateMemoryFromTriageResponse`.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct CreateMemoryFromTriageResponse {
    pub memory: Option<Memory>,
}

wire_enum! {
    /// `protos.ai.v1.Memory.stage`.
    MemoryStage {
        Live = "AI_MEMORY_STAGE_LIVE" => "live",
        Suggested = "AI_MEMORY_STAGE_SUGGESTED" => "suggested",
        Deleted = "AI_MEMORY_STAGE_DELETED" => "deleted",
    }
}

/// `protos.ai.v1.Memory`.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Memory {
    pub id: Option<String>,
    pub content: Option<String>,
    pub rule_id: Option<String>,
    pub rule_name: Option<String>,
    pub repository_id: Option<String>,
    pub repository_name: Option<String>,
    #[serde(with = "wire::timestamp")]
    pub created_at: Option<Timestamp>,
    pub created_by: Option<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub context: Vec<String>,
    pub stage: Option<MemoryStage>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub path_prefixes: Vec<String>,
    pub suggestion_sources: Option<AiMemorySuggestionSources>,
    pub preanalysis_counts: Option<MemoryPreanalysisCounts>,
    pub vulnerability_class: Option<String>,
    #[serde(with = "wire::int64_number")]
    pub project_tag_id: Option<i64>,
}

impl Memory {
    /// Where the memory applies, as a person reads it: "rule X in
    /// repository Y", "rule X everywhere", "everywhere".
    pub fn scope(&self) -> String {
        let rule = self
            .rule_name
            .as_deref()
            .or(self.rule_id.as_deref())
            .filter(|s| !s.is_empty());
        let repo = self
            .repository_name
            .as_deref()
            .or(self.repository_id.as_deref())
            .filter(|s| !s.is_empty());
        match (rule, repo) {
            (Some(rule), Some(repo)) => format!("rule {rule} in repository {repo}"),
            (Some(rule), None) => format!("rule {rule} in every repository"),
            (None, Some(repo)) => format!("every rule in repository {repo}"),
            (None, None) => "every finding".into(),
        }
    }
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct AiMemorySuggestionSources {
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub sources: Vec<AiMemorySource>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct AiMemorySource {
    pub note: Option<String>,
    pub created_by: Option<String>,
    #[serde(with = "wire::timestamp")]
    pub created_at: Option<Timestamp>,
    pub sample_issue_id: Option<String>,
    pub pr_comment_url: Option<String>,
    pub review_comment_id: Option<String>,
}

/// `protos.ai.v1.MemoryPreanalysisCounts`: how the memory would change
/// the AI's verdicts (int64 values, published as strings).
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct MemoryPreanalysisCounts {
    #[serde(with = "wire::int64_string")]
    pub newly_true_positive: Option<i64>,
    #[serde(with = "wire::int64_string")]
    pub newly_false_positive: Option<i64>,
    #[serde(with = "wire::int64_string")]
    pub remains_true_positive: Option<i64>,
    #[serde(with = "wire::int64_string")]
    pub remains_false_positive: Option<i64>,
}

impl MemoryPreanalysisCounts {
    /// How many verdicts the memory flips.
    pub fn flipped(&self) -> i64 {
        self.newly_true_positive.unwrap_or(0) + self.newly_false_positive.unwrap_or(0)
    }

    /// "flips 3 verdicts (3 to false positive, 0 to true positive); 2 stay
    /// false positive, 0 stay true positive".
    pub fn summary(&self) -> String {
        let n = self.flipped();
        format!(
            "flips {n} verdict{} ({} to false positive, {} to true positive); {} stay false positive, {} stay true positive",
            if n == 1 { "" } else { "s" },
            self.newly_false_positive.unwrap_or(0),
            self.newly_true_positive.unwrap_or(0),
            self.remains_false_positive.unwrap_or(0),
            self.remains_true_positive.unwrap_or(0),
        )
    }
}

/// `protos.ai.v1.FindRelevantIssuesRequest`: the findings of a rule (none:
/// every rule) in a repository (none: every repository).
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct FindRelevantIssuesRequest {
    pub deployment_id: Option<String>,
    pub rule_id: Option<String>,
    pub repository_id: Option<String>,
}

/// `protos.ai.v1.FindRelevantIssuesResponse`.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct FindRelevantIssuesResponse {
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub issue_ids: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_come_as_strings_or_numbers_and_go_as_strings() {
        let c: MemoryPreanalysisCounts = serde_json::from_value(serde_json::json!({
            "newlyFalsePositive": "3", "remainsFalsePositive": 2, "newlyTruePositive": null
        }))
        .unwrap();
        assert_eq!(c.flipped(), 3);
        assert_eq!(
            serde_json::to_value(&c).unwrap(),
            serde_json::json!({"newlyFalsePositive": "3", "remainsFalsePositive": "2"})
        );
        let m: Memory =
            serde_json::from_value(serde_json::json!({"stage": "AI_MEMORY_STAGE_NEW"})).unwrap();
        assert_eq!(
            m.stage,
            Some(MemoryStage::Other("AI_MEMORY_STAGE_NEW".into()))
        );
    }
}
