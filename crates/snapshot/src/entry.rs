//! One finding of a snapshot: the few fields a diff compares and a
//! listing shows, not the whole finding.

use findings_model::{HistoryType, IssueItem, Timestamp};
use serde::{Deserialize, Serialize};

/// A finding as a snapshot keeps it. Enumerations are kept as their labels
/// (as the STATE and SEVERITY columns show them).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Entry {
    pub id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub severity: Option<String>,
    /// The aggregate state (open, fixed, ignored, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub triage_state: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub triage_reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repo: Option<String>,
    #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
    pub ref_: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<i64>,
    /// Who triaged it last, and when: the latest triage event of its
    /// activity history, when the server sent one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub triaged_by: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub triaged_at: Option<Timestamp>,
    /// Its external ticket: the key (OPS-158), else the link.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ticket: Option<String>,
}

impl Entry {
    /// The entry of a List issues item; `None` for an item without an id
    /// (nothing could match it in another snapshot).
    pub fn of(item: &IssueItem) -> Option<Entry> {
        let issue = item.issue.as_ref()?;
        let id = issue.id.clone().filter(|id| !id.is_empty())?;
        let label = |s: &str| Some(s.to_owned());
        let last_triage = issue
            .activity_history
            .iter()
            .filter(|e| e.history_type == Some(HistoryType::Triage))
            .max_by_key(|e| e.date);
        Some(Entry {
            id,
            severity: issue.severity.as_ref().and_then(|s| label(s.label())),
            state: issue
                .aggregate_state
                .as_ref()
                .and_then(|s| label(s.label())),
            triage_state: issue.triage_state.as_ref().and_then(|s| label(s.label())),
            triage_reason: issue.triage_reason.as_ref().and_then(|s| label(s.label())),
            // As the lists show it: a supply-chain finding's advisory and
            // package (its rule id is opaque).
            rule: Some(issue.rule_label()).filter(|r| !r.is_empty()),
            repo: issue.repository.as_ref().and_then(|r| r.name.clone()),
            ref_: issue.ref_.clone(),
            path: issue.file_path.clone(),
            line: issue.line,
            triaged_by: last_triage.and_then(|e| e.actor.clone()),
            triaged_at: last_triage.and_then(|e| e.date),
            ticket: issue.external_ticket.as_ref().and_then(|t| {
                let given = |v: &Option<String>| v.clone().filter(|v| !v.trim().is_empty());
                given(&t.external_slug).or_else(|| given(&t.url))
            }),
        })
    }
}
