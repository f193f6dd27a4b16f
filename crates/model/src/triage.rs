//! The two triage writes: findings by filter (`IssuesService_BulkUpdateIssues`,
//! `PATCH .../findings/v2`) and one agentic-workflow issue
//! (`PublicIssuesService_TriageIssue`, `POST /api/issues/{d}/issue/{id}`).

use super::enums::*;
use super::list::ListIssuesFilter;
use super::search::AgenticIssue;
use super::wire;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

/// `protos.issues.v1.UpdateFindingsRequest`: the findings `filter` (and the
/// top-level type selection) matches get `params`. Exact findings are
/// chosen by `filter.ids`.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct UpdateFindingsRequest {
    pub deployment_id: Option<String>,
    pub filter: Option<ListIssuesFilter>,
    pub params: Option<UpdateFindingParams>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub issue_types: Vec<IssueType>,
    /// Deprecated for `issueTypes` (read by the demo, never sent).
    pub issue_type: Option<IssueType>,
}

impl UpdateFindingsRequest {
    /// The request that gives exactly the findings `ids` the new state.
    pub fn for_ids(ids: Vec<String>, params: UpdateFindingParams) -> Self {
        UpdateFindingsRequest {
            filter: Some(ListIssuesFilter {
                ids,
                ..Default::default()
            }),
            params: Some(params),
            ..Default::default()
        }
    }
}

/// `protos.issues.v1.UpdateFindingParams`. The note is sent as typed.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct UpdateFindingParams {
    pub triage_state: Option<TriageState>,
    pub triage_reason: Option<TriageReason>,
    pub note: Option<String>,
}

/// `protos.issues.v1.UpdateFindingsResponse`: what the service did.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct UpdateFindingsResponse {
    #[serde(with = "wire::int64_number")]
    pub issue_parent_count: Option<i64>,
    #[serde(with = "wire::int64_number")]
    pub issue_count: Option<i64>,
    #[serde(with = "wire::int64_number")]
    pub updated_count: Option<i64>,
    #[serde(with = "wire::int64_number")]
    pub num_ignored: Option<i64>,
    #[serde(with = "wire::int64_number")]
    pub num_exceptions_requested: Option<i64>,
    #[serde(with = "wire::int64_number")]
    pub num_skipped: Option<i64>,
}

impl UpdateFindingsResponse {
    /// The answers of several requests of one triage, added up (a count
    /// none of them gave stays absent).
    pub fn sum(answers: &[UpdateFindingsResponse]) -> UpdateFindingsResponse {
        let add = |f: fn(&UpdateFindingsResponse) -> Option<i64>| {
            answers
                .iter()
                .filter_map(f)
                .reduce(|a, b| a.saturating_add(b))
        };
        UpdateFindingsResponse {
            issue_parent_count: add(|a| a.issue_parent_count),
            issue_count: add(|a| a.issue_count),
            updated_count: add(|a| a.updated_count),
            num_ignored: add(|a| a.num_ignored),
            num_exceptions_requested: add(|a| a.num_exceptions_requested),
            num_skipped: add(|a| a.num_skipped),
        }
    }

    /// The counts as a person reads them: "3 updated, 1 exception requested,
    /// 1 skipped" (zero counts but `updated` left out).
    pub fn summary(&self) -> String {
        let mut parts = vec![format!("{} updated", self.updated_count.unwrap_or(0))];
        let n = self.num_exceptions_requested.unwrap_or(0);
        if n > 0 {
            parts.push(format!(
                "{n} exception{} requested",
                if n == 1 { "" } else { "s" }
            ));
        }
        let n = self.num_skipped.unwrap_or(0);
        if n > 0 {
            parts.push(format!("{n} skipped (no permission)"));
        }
        if let Some(n) = self.issue_count {
            parts.push(format!("of {n}"));
        }
        parts.join(", ")
    }
}

/// `protos.issues.api.TriageIssueRequest`.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TriageIssueRequest {
    pub deployment_id: Option<String>,
    pub issue_id: Option<String>,
    pub triage_state: Option<AgenticTriageState>,
    pub triage_reason: Option<AgenticTriageReason>,
}

/// `protos.issues.api.TriageIssueResponse`: the issue as it is now.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TriageIssueResponse {
    pub data: Option<AgenticIssue>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bulk_update_by_ids_is_written_as_published() {
        let body = UpdateFindingsRequest::for_ids(
            vec!["7".into()],
            UpdateFindingParams {
                triage_state: Some(TriageState::Ignored),
                triage_reason: Some(TriageReason::FalsePositive),
                note: Some("dup of SEC-1".into()),
            },
        );
        assert_eq!(
            serde_json::to_value(&body).unwrap(),
            serde_json::json!({
                "filter": {"ids": ["7"]},
                "params": {
                    "triageState": "FINDING_TRIAGE_STATE_IGNORED",
                    "triageReason": "FINDING_TRIAGE_REASON_FALSE_POSITIVE",
                    "note": "dup of SEC-1"
                }
            })
        );
    }

    #[test]
    fn the_counts_read_as_numbers_or_strings_and_summarise() {
        let answer: UpdateFindingsResponse = serde_json::from_str(
            r#"{"issueCount":"5","updatedCount":3,"numExceptionsRequested":1,"numSkipped":"1"}"#,
        )
        .unwrap();
        assert_eq!(
            answer.summary(),
            "3 updated, 1 exception requested, 1 skipped (no permission), of 5"
        );
    }
}
