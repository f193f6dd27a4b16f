//! List issue groups (`IssuesService_ListIssueGroups`): findings grouped by
//! rule, with their counts. The published `groupBy` has one value
//! (`GROUP_BY_RULE`) and a group carries no severity (docs/src/api.md,
//! "Issue groups").

use super::enums::*;
use super::list::{ListIssuesFilter, ListSelection};
use super::wire;
use crate::wire_enum;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

wire_enum! {
    GroupBy {
        Rule = "GROUP_BY_RULE" => "rule",
    }
}

wire_enum! {
    GroupSortBy {
        IssueCounts = "SORT_BY_ISSUE_COUNTS" => "count",
        Severity = "SORT_BY_SEVERITY" => "severity",
    }
}

/// `protos.issues.v1.ListIssueGroupsRequest` (the client never sends the
/// deprecated `issueType`; the demo reads it as List issues does).
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ListIssueGroupsRequest {
    pub deployment_id: Option<String>,
    pub issue_type: Option<IssueType>,
    pub group_by: Option<GroupBy>,
    #[serde(with = "wire::int64_number")]
    pub limit: Option<i64>,
    pub cursor: Option<String>,
    pub filter: Option<ListIssuesFilter>,
    pub sort_by: Option<GroupSortBy>,
    pub sort_direction: Option<SortDirection>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub issue_types: Vec<IssueType>,
}

impl ListIssueGroupsRequest {
    /// The groups by rule of the findings `selection` lists.
    pub fn by_rule(selection: &ListSelection) -> Self {
        ListIssueGroupsRequest {
            group_by: Some(GroupBy::Rule),
            issue_types: selection.issue_types.clone(),
            filter: (!selection.filter.is_empty()).then(|| selection.filter.clone()),
            ..Default::default()
        }
    }
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ListIssueGroupsResponse {
    #[serde(
        deserialize_with = "wire::page_items",
        skip_serializing_if = "wire::is_empty"
    )]
    pub groups: Vec<RuleGroup>,
    pub cursor: Option<String>,
    /// How many groups there are in all.
    #[serde(with = "wire::int64_string")]
    pub total: Option<i64>,
    /// How many groups this page and the ones before it hold.
    #[serde(with = "wire::int64_string")]
    pub fetched: Option<i64>,
}

/// `ListIssueGroupsResponse_RuleGroup`: the fields the client reads.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RuleGroup {
    #[serde(with = "wire::int64_string")]
    pub issues_count: Option<i64>,
    pub rule_id: Option<String>,
    pub rule_path: Option<String>,
    pub rule_meta: Option<RuleGroupMeta>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RuleGroupMeta {
    pub rule: Option<RuleGroupRule>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RuleGroupRule {
    pub rule_id: Option<String>,
    pub origin: Option<RuleOrigin>,
}

impl RuleGroup {
    /// The selection narrowed to this group's findings: its rule id
    /// (`ruleIds` applies to every type), else its path (`rules`, code
    /// only). `None` for a group naming neither.
    pub fn narrow(&self, selection: &ListSelection) -> Option<ListSelection> {
        let mut out = selection.clone();
        match (self.rule_id.as_deref(), self.rule_path.as_deref()) {
            (Some(id), _) if !id.is_empty() => out.filter.rule_ids = vec![id.to_owned()],
            (_, Some(path)) if !path.is_empty() => out.filter.rules = vec![path.to_owned()],
            _ => return None,
        }
        Some(out)
    }

    /// The rule as a list shows it.
    pub fn label(&self) -> &str {
        self.rule_id
            .as_deref()
            .filter(|s| !s.is_empty())
            .or(self.rule_path.as_deref())
            .unwrap_or("(no rule)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_group_narrows_by_rule_id_else_by_path() {
        let mut base = ListSelection::default();
        base.filter.repository_names = vec!["api".into()];
        let g = RuleGroup {
            rule_id: Some("r.x".into()),
            rule_path: Some("p/x".into()),
            ..Default::default()
        };
        let n = g.narrow(&base).unwrap();
        assert_eq!(n.filter.rule_ids, vec!["r.x"]);
        assert!(n.filter.rules.is_empty());
        assert_eq!(n.filter.repository_names, vec!["api"], "the rest is kept");
        let by_path = RuleGroup {
            rule_path: Some("p/x".into()),
            ..Default::default()
        };
        assert_eq!(by_path.narrow(&base).unwrap().filter.rules, vec!["p/x"]);
        assert_eq!(RuleGroup::default().narrow(&base), None);
    }

    #[test]
    fn counts_come_as_strings() {
        let r: ListIssueGroupsResponse = serde_json::from_str(
            r#"{"groups":[{"issuesCount":"12","ruleId":"a"}],"total":"3","fetched":"1"}"#,
        )
        .unwrap();
        assert_eq!(r.groups[0].issues_count, Some(12));
        assert_eq!(r.total, Some(3));
        let body =
            serde_json::to_value(ListIssueGroupsRequest::by_rule(&Default::default())).unwrap();
        assert_eq!(body, serde_json::json!({"groupBy": "GROUP_BY_RULE"}));
    }
}
