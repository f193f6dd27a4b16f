//! The published single-issue reads the demo serves beside the ones the
//! client calls: the public (agentic-workflow) issue fetch and its activity
//! history (`PublicIssuesService_GetIssue`, `_GetIssueActivityHistory`),
//! and a finding's code snippets (`IssuesService_GetIssueCodeSnippets`).

use super::issue::CodeSnippet;
use super::search::AgenticIssue;
use super::wire;
use crate::wire_enum;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

/// `protos.issues.api.GetIssueResponse`: the agentic issue as it is now.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct GetAgenticIssueResponse {
    pub data: Option<AgenticIssue>,
}

wire_enum! {
    /// Who made a change to an agentic issue.
    ActorType {
        Platform = "ACTOR_TYPE_PLATFORM" => "platform",
        User = "ACTOR_TYPE_USER" => "user",
    }
}

/// `protos.issues.api.IssueActivity`: one change to an agentic issue;
/// `oldValues`/`newValues` hold only the fields `changedFields` (a
/// comma-separated field mask) names.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct AgenticIssueActivity {
    pub id: Option<String>,
    pub deployment_id: Option<String>,
    pub issue_id: Option<String>,
    pub old_values: Option<AgenticIssue>,
    pub new_values: Option<AgenticIssue>,
    pub changed_fields: Option<String>,
    pub reason: Option<String>,
    pub actor_type: Option<ActorType>,
    pub actor_id: Option<String>,
    #[serde(with = "wire::timestamp")]
    pub created_at: Option<wire::Timestamp>,
}

/// `protos.issues.api.GetIssueActivityHistoryResponse`: a page, newest
/// first.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct GetAgenticActivityResponse {
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub history: Vec<AgenticIssueActivity>,
    pub cursor: Option<String>,
}

/// `protos.issues.v1.GetIssueCodeSnippetsResponse`.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct GetIssueCodeSnippetsResponse {
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub code_snippets: Vec<CodeSnippet>,
}
