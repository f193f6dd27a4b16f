//! External tickets (`ExternalTicketingService_*`): the configured
//! ticketing instances, tickets created for findings (by ids or by a
//! filter, one per finding or grouped), an existing ticket linked to
//! findings, and tickets unlinked.
//!
//! Finding ids travel as int32 numbers here (`issueIds`); the model keeps
//! them as the strings every other operation uses ([`wire::id_numbers`]).

use super::enums::IssueType;
use super::issue::{Issue, is_web_url};
use super::list::ListIssuesFilter;
use super::wire;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

impl Issue {
    /// The finding's ticket link when it is a web URL (what `o` opens).
    pub fn ticket_url(&self) -> Option<&str> {
        self.external_ticket
            .as_ref()
            .and_then(|t| t.url.as_deref())
            .filter(|u| is_web_url(u))
    }

    /// The ticket's key in the ticketing system (`SEC-123`), else its id.
    pub fn ticket_slug(&self) -> Option<&str> {
        let t = self.external_ticket.as_ref()?;
        t.external_slug
            .as_deref()
            .or(t.id.as_deref())
            .filter(|s| !s.is_empty())
    }
}

/// `protos.ticketing.v2.GetTicketingInstancesResponse`.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct GetTicketingInstancesResponse {
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub instances: Vec<TicketingInstance>,
}

/// `protos.ticketing.v2.TicketingInstanceWithMetadata`: one configured
/// ticketing system (its `fields` kept as sent).
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TicketingInstance {
    #[serde(with = "wire::int64_number")]
    pub id: Option<i64>,
    pub is_configured: Option<bool>,
    pub is_auth_revoked: Option<bool>,
    /// Free text (e.g. `jira`, `linear`): not enumerated by the contract.
    pub instance_type: Option<String>,
    pub subdomain: Option<String>,
    pub project_id: Option<String>,
    pub issue_type_id: Option<String>,
    pub fields: Option<serde_json::Value>,
    pub automation_states: Option<AutomationStates>,
    pub subtask_issue_type_id: Option<String>,
    pub fixed_transition_state: Option<TrackerTransition>,
}

impl TicketingInstance {
    /// Why tickets cannot go through this instance now, if they cannot:
    /// its authorisation was revoked, or it is not configured.
    pub fn unavailable(&self) -> Option<String> {
        if self.is_auth_revoked == Some(true) {
            return Some(format!(
                "ticketing instance {} ({}): its authorisation was revoked; reconnect it in the platform's integration settings",
                self.id_text(),
                self.name()
            ));
        }
        if self.is_configured == Some(false) {
            return Some(format!(
                "ticketing instance {} ({}) is not configured",
                self.id_text(),
                self.name()
            ));
        }
        None
    }

    /// The instance id as the path takes it, or "" when absent.
    pub fn id_text(&self) -> String {
        self.id.map(|n| n.to_string()).unwrap_or_default()
    }

    /// "jira acme/SEC": its type, subdomain and project, as given.
    pub fn name(&self) -> String {
        let parts: Vec<&str> = [
            self.instance_type.as_deref(),
            self.subdomain.as_deref(),
            self.project_id.as_deref(),
        ]
        .into_iter()
        .flatten()
        .filter(|s| !s.is_empty())
        .collect();
        if parts.is_empty() {
            "unnamed".into()
        } else {
            parts.join(" ")
        }
    }
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct AutomationStates {
    pub sast: Option<bool>,
    pub sca: Option<bool>,
    pub secrets: Option<bool>,
    pub sca_malicious_deps: Option<bool>,
    pub ai_sast: Option<bool>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TrackerTransition {
    pub tracker_transition_id: Option<String>,
    pub platform_aggregate_state: Option<String>,
}

/// `protos.ticketing.v2.CreateTicketsRequest`: tickets for the findings
/// `issueIds` names, or for those `issueFilters` (and `issueTypes`)
/// match. `groupIssues` (published default true) puts the findings of one
/// rule and repository in one ticket; this client always says which.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct CreateTicketsRequest {
    pub group_issues: Option<bool>,
    pub project_id: Option<String>,
    #[serde(with = "wire::id_numbers", skip_serializing_if = "wire::is_empty")]
    pub issue_ids: Vec<String>,
    /// Deprecated for `issueTypes`; never sent by this client.
    pub issue_type: Option<IssueType>,
    pub issue_filters: Option<ListIssuesFilter>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub issue_types: Vec<IssueType>,
}

impl CreateTicketsRequest {
    /// Tickets for exactly the findings `ids`, grouped or one each.
    pub fn for_ids(ids: Vec<String>, group: bool) -> Self {
        CreateTicketsRequest {
            group_issues: Some(group),
            issue_ids: ids,
            ..Default::default()
        }
    }

    /// Tickets for the findings `filter` and `types` match.
    pub fn for_filter(filter: ListIssuesFilter, types: Vec<IssueType>, group: bool) -> Self {
        CreateTicketsRequest {
            group_issues: Some(group),
            issue_filters: Some(filter),
            issue_types: types,
            ..Default::default()
        }
    }
}

/// `protos.ticketing.v2.CreateTicketsResponse`: each finding asked for is
/// in one of the three lists.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct CreateTicketsResponse {
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub succeeded: Vec<TicketSucceeded>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub failed: Vec<TicketFailed>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub skipped: Vec<TicketSkipped>,
}

/// What became of one finding in a [`CreateTicketsResponse`].
#[derive(Debug, Clone, PartialEq)]
pub enum TicketOutcome {
    Created {
        slug: Option<String>,
        url: Option<String>,
        /// How many findings share the ticket (grouped: more than one).
        shared_by: usize,
    },
    Failed(String),
    Skipped(String),
}

impl CreateTicketsResponse {
    /// Each finding named in the answer with what became of it, in the
    /// answer's order (succeeded, failed, skipped).
    pub fn outcomes(&self) -> Vec<(String, TicketOutcome)> {
        let mut out = Vec::new();
        for s in &self.succeeded {
            for id in &s.issue_ids {
                out.push((
                    id.clone(),
                    TicketOutcome::Created {
                        slug: s.external_slug.clone(),
                        url: s.web_url().map(str::to_owned),
                        shared_by: s.issue_ids.len(),
                    },
                ));
            }
        }
        for f in &self.failed {
            for id in &f.issue_ids {
                out.push((
                    id.clone(),
                    TicketOutcome::Failed(f.error.clone().unwrap_or_default()),
                ));
            }
        }
        for s in &self.skipped {
            for id in &s.issue_ids {
                out.push((
                    id.clone(),
                    TicketOutcome::Skipped(s.reason.clone().unwrap_or_default()),
                ));
            }
        }
        out
    }

    /// "2 tickets created for 5 findings, 1 failed, 1 skipped".
    pub fn summary(&self) -> String {
        let ticketed: usize = self.succeeded.iter().map(|s| s.issue_ids.len()).sum();
        let failed: usize = self.failed.iter().map(|s| s.issue_ids.len()).sum();
        let skipped: usize = self.skipped.iter().map(|s| s.issue_ids.len()).sum();
        let tickets = self.succeeded.len();
        let mut parts = vec![format!(
            "{tickets} ticket{} created for {ticketed} finding{}",
            plural(tickets),
            plural(ticketed)
        )];
        if failed > 0 {
            parts.push(format!("{failed} failed"));
        }
        if skipped > 0 {
            parts.push(format!("{skipped} skipped"));
        }
        parts.join(", ")
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TicketSucceeded {
    #[serde(with = "wire::id_numbers", skip_serializing_if = "wire::is_empty")]
    pub issue_ids: Vec<String>,
    #[serde(with = "wire::int64_number")]
    pub ticket_id: Option<i64>,
    pub ticket_url: Option<String>,
    pub external_slug: Option<String>,
}

impl TicketSucceeded {
    /// The ticket's link when it is a web URL: a link shown to follow is
    /// never `javascript:`, `file:` or `data:` (as [`Issue::ticket_url`]).
    pub fn web_url(&self) -> Option<&str> {
        self.ticket_url.as_deref().filter(|u| is_web_url(u))
    }
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TicketFailed {
    #[serde(with = "wire::id_numbers", skip_serializing_if = "wire::is_empty")]
    pub issue_ids: Vec<String>,
    pub error: Option<String>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TicketSkipped {
    #[serde(with = "wire::id_numbers", skip_serializing_if = "wire::is_empty")]
    pub issue_ids: Vec<String>,
    pub reason: Option<String>,
}

/// `protos.ticketing.v2.LinkTicketRequest`: an existing ticket, by its
/// URL, attached to findings.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct LinkTicketRequest {
    pub ticket_url: Option<String>,
    #[serde(with = "wire::id_numbers", skip_serializing_if = "wire::is_empty")]
    pub issue_ids: Vec<String>,
}

/// `protos.ticketing.v2.LinkTicketResponse`: `replacedIssueIds` had
/// another ticket, which they lost.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct LinkTicketResponse {
    #[serde(with = "wire::int64_number")]
    pub ticket_id: Option<i64>,
    pub ticket_url: Option<String>,
    pub external_slug: Option<String>,
    #[serde(with = "wire::id_numbers", skip_serializing_if = "wire::is_empty")]
    pub linked_issue_ids: Vec<String>,
    #[serde(with = "wire::id_numbers", skip_serializing_if = "wire::is_empty")]
    pub replaced_issue_ids: Vec<String>,
}

impl LinkTicketResponse {
    /// The ticket's link when it is a web URL (as [`TicketSucceeded::web_url`]).
    pub fn web_url(&self) -> Option<&str> {
        self.ticket_url.as_deref().filter(|u| is_web_url(u))
    }
}

/// `protos.ticketing.v2.UnlinkTicketRequest`.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct UnlinkTicketRequest {
    #[serde(with = "wire::id_numbers", skip_serializing_if = "wire::is_empty")]
    pub issue_ids: Vec<String>,
}

/// `protos.ticketing.v2.UnlinkTicketResponse`.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct UnlinkTicketResponse {
    #[serde(with = "wire::id_numbers", skip_serializing_if = "wire::is_empty")]
    pub unlinked_issue_ids: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_go_as_numbers_and_come_back_from_numbers_or_strings() {
        let req = CreateTicketsRequest::for_ids(vec!["100001".into(), "100002".into()], true);
        let json = serde_json::to_value(&req).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"groupIssues": true, "issueIds": [100001, 100002]})
        );
        let answer: CreateTicketsResponse = serde_json::from_value(serde_json::json!({
            "succeeded": [{"issueIds": [100001, "100002"], "ticketUrl": "https://t.example.com/SEC-1", "externalSlug": "SEC-1"}],
            "failed": [{"issueIds": null, "error": "x"}],
            "skipped": [{"issueIds": [100003], "reason": "already ticketed"}],
            "extra": 1
        }))
        .unwrap();
        let outcomes = answer.outcomes();
        assert_eq!(outcomes.len(), 3);
        assert_eq!(outcomes[1].0, "100002");
        assert_eq!(
            outcomes[2].1,
            TicketOutcome::Skipped("already ticketed".into())
        );
        assert_eq!(
            answer.summary(),
            "1 ticket created for 2 findings, 1 skipped"
        );
    }

    #[test]
    fn a_revoked_instance_says_so() {
        let i: TicketingInstance = serde_json::from_value(serde_json::json!({
            "id": "7", "isAuthRevoked": true, "instanceType": "jira", "subdomain": "acme"
        }))
        .unwrap();
        assert!(i.unavailable().unwrap().contains("revoked"));
        assert_eq!(i.id_text(), "7");
    }
}
