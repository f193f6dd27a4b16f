//! Get issue counts (`IssuesService_GetIssueCounts`): how many findings a
//! filter matches in each state, and how many of them are in archived
//! projects (which List issues leaves out unless asked).

use super::enums::IssueType;
use super::list::ListIssuesFilter;
use super::wire;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

/// `protos.issues.v1.GetIssueCountsRequest`.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct GetIssueCountsRequest {
    pub deployment_id: Option<String>,
    /// Deprecated by `issueTypes`.
    pub issue_type: Option<IssueType>,
    pub filter: Option<ListIssuesFilter>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub issue_types: Vec<IssueType>,
}

/// `protos.issues.v1.GetIssueCountsResponse`: every count is an int64,
/// written as a string.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct GetIssueCountsResponse {
    #[serde(with = "wire::int64_string")]
    pub open: Option<i64>,
    #[serde(with = "wire::int64_string")]
    pub ignored: Option<i64>,
    #[serde(with = "wire::int64_string")]
    pub ignored_false_positive: Option<i64>,
    #[serde(with = "wire::int64_string")]
    pub ignored_acceptable_risk: Option<i64>,
    #[serde(with = "wire::int64_string")]
    pub ignored_no_time: Option<i64>,
    #[serde(with = "wire::int64_string")]
    pub ignored_no_triage_reason: Option<i64>,
    #[serde(with = "wire::int64_string")]
    pub closed: Option<i64>,
    #[serde(with = "wire::int64_string")]
    pub reviewing: Option<i64>,
    #[serde(with = "wire::int64_string")]
    pub fixing: Option<i64>,
    #[serde(with = "wire::int64_string")]
    pub provisionally_ignored: Option<i64>,
    #[serde(with = "wire::int64_string")]
    pub ignored_duplicate: Option<i64>,
    /// Muted by an inline ignore comment, whatever the triage reason.
    #[serde(with = "wire::int64_string")]
    pub ignored_code: Option<i64>,
    #[serde(with = "wire::int64_string")]
    pub archived: Option<i64>,
    /// In the unknown state (`AGGREGATE_ISSUE_STATE_UNKNOWN`), which List
    /// issues lists and no published count names: counted by the client
    /// apart, by listing them (`api::count_unknown`). Never on the wire.
    #[serde(skip)]
    pub unknown: Option<i64>,
}

impl GetIssueCountsResponse {
    /// Every state's count added up, the unknown one when counted: the
    /// findings the filter matches outside archived projects, those List
    /// issues lists (`ignored` holds its reasons and the code-ignored
    /// ones).
    pub fn listed(&self) -> i64 {
        [
            self.open,
            self.ignored,
            self.closed,
            self.reviewing,
            self.fixing,
            self.provisionally_ignored,
            self.unknown,
        ]
        .iter()
        // Whatever the server sends: no overflow.
        .fold(0i64, |sum, n| sum.saturating_add(n.unwrap_or(0).max(0)))
    }
}
