//! The Issue (finding) and every object nested in it.
//!
//! Every field is optional or defaulted (docs/src/api.md §5); `null` is accepted
//! everywhere; unknown fields are ignored. Serialisation writes only what is
//! present, the way protobuf JSON does.

use super::enums::*;
use super::wire::{self, Timestamp};
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Issue {
    pub id: Option<String>,
    #[serde(with = "wire::timestamp")]
    pub created_at: Option<Timestamp>,
    #[serde(rename = "ref")]
    pub ref_: Option<String>,
    pub syntactic_id: Option<String>,
    pub match_based_id: Option<String>,
    pub rule_id: Option<String>,
    pub status: Option<IssueStatus>,
    pub repository: Option<Repository>,
    pub first_seen_scan: Option<Scan>,
    pub last_seen_scan: Option<Scan>,
    pub triage_state: Option<TriageState>,
    pub triage_reason: Option<TriageReason>,
    #[serde(with = "wire::timestamp")]
    pub relevant_since: Option<Timestamp>,
    pub aggregate_state: Option<AggregateState>,
    pub note: Option<String>,
    pub external_ticket: Option<ExternalTicket>,
    pub vuln_group_key: Option<String>,
    pub is_blocking: Option<bool>,
    pub autotriage: Option<Autotriage>,
    pub ai_tags: Option<AiTags>,
    pub line_of_code_url: Option<String>,
    pub code_snippet: Option<String>,
    pub dataflow_trace: Option<DataflowTrace>,
    pub commit_url: Option<String>,
    pub ref_url: Option<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub activity_history: Vec<ActivityEvent>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub related_issues: Vec<RelatedIssue>,
    pub remediation: Option<Remediation>,
    pub file_path: Option<String>,
    #[serde(with = "wire::int64_number")]
    pub line: Option<i64>,
    #[serde(with = "wire::int64_number")]
    pub end_line: Option<i64>,
    #[serde(with = "wire::int64_number")]
    pub column: Option<i64>,
    #[serde(with = "wire::int64_number")]
    pub end_column: Option<i64>,
    pub severity: Option<Severity>,
    pub message: Option<String>,
    pub rule_path: Option<String>,
    pub confidence: Option<Confidence>,
    pub rule_url: Option<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub rule_references: Vec<String>,
    pub rule_origin: Option<RuleOrigin>,
    pub rule_hash_id: Option<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub rule_cwe_names: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub rule_owasp_names: Vec<String>,
    pub ruleset: Option<String>,
    pub policy_slug: Option<String>,
    pub category: Option<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub subcategories: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub rule_superseded_by: Vec<RuleSupersededBy>,
    pub issue_type: Option<IssueType>,
    pub issue_parent_id: Option<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub ticket_attempts: Vec<TicketAttempt>,
    pub sast_attributes: Option<SastAttributes>,
    pub sca_attributes: Option<ScaAttributes>,
    pub secrets_attributes: Option<SecretsAttributes>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub codeowners: Vec<Codeowner>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub code_snippets: Vec<CodeSnippet>,
    pub rule_explanation: Option<RuleExplanation>,
    pub rule_display_name: Option<String>,
    pub click_to_fix_pr_url: Option<String>,
    pub click_to_fix_pr_id: Option<String>,
    pub click_to_fix_commit_msg: Option<String>,
    pub ai_impact: Option<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub ai_exploit_conditions: Vec<AiExploitCondition>,
    pub exception_request: Option<ExceptionRequest>,
    pub triage_permission: Option<TriagePermission>,
    pub is_archived: Option<bool>,
    #[serde(with = "wire::timestamp")]
    pub first_detected_at: Option<Timestamp>,
}

impl Issue {
    /// The finding id, or "" when the server sent none.
    pub fn id(&self) -> &str {
        self.id.as_deref().unwrap_or("")
    }

    /// The repository name, or "" when absent.
    pub fn repository_name(&self) -> &str {
        self.repository
            .as_ref()
            .and_then(|r| r.name.as_deref())
            .unwrap_or("")
    }

    /// `path:line`, or just the path when there is no line.
    pub fn location(&self) -> String {
        let path = self.file_path.as_deref().unwrap_or("");
        match self.line {
            Some(line) if line > 0 => format!("{path}:{line}"),
            _ => path.to_owned(),
        }
    }

    /// The finding's link (its line of code) when it is a web URL: what
    /// `o` opens, `y` copies and exports carry. Any other text from the
    /// server is never offered as a link.
    pub fn web_url(&self) -> Option<&str> {
        self.line_of_code_url.as_deref().filter(|u| is_web_url(u))
    }

    /// What a list shows as the rule: for supply-chain findings the advisory
    /// and the package (their rule ids are opaque), else [`Issue::rule_name`].
    pub fn rule_label(&self) -> String {
        let sca = self.sca_attributes.as_ref();
        let vuln = sca.and_then(|s| s.vuln_database_identifier.as_deref());
        let package = sca
            .and_then(|s| s.found_dependency.as_ref())
            .and_then(|d| d.package.as_deref());
        match (vuln, package) {
            (Some(v), Some(p)) => format!("{v} {p}"),
            (Some(v), None) => v.to_owned(),
            _ => self.rule_name().to_owned(),
        }
    }

    /// The rule's best short name: display name, then rule id, then path.
    pub fn rule_name(&self) -> &str {
        self.rule_display_name
            .as_deref()
            .filter(|s| !s.is_empty())
            .or(self.rule_id.as_deref().filter(|s| !s.is_empty()))
            .or(self.rule_path.as_deref())
            .unwrap_or("")
    }

    /// [`Issue::rule_label`] as a narrow column shows it ([`short_rule`]):
    /// `sql-injection`, `CVE-2023-45857 axios`.
    pub fn short_rule_label(&self) -> String {
        short_rule(&self.rule_label()).to_owned()
    }

    /// The advisory's own severity when it is not the finding's: the
    /// platform rates a supply-chain finding for this use of the package
    /// (`severity`, what `--severity` filters on), its advisory for the
    /// package (`scaAttributes.severity`); said beside each other.
    pub fn advisory_severity_apart(&self) -> Option<&Severity> {
        let advisory = self.sca_attributes.as_ref()?.severity.as_ref()?;
        (Some(advisory) != self.severity.as_ref()).then_some(advisory)
    }

    /// Where the finding's exception request stands, from what the server
    /// sent: `exceptionRequest.exceptionState` when it came (only when
    /// asked for), else the latest exception event of `activityHistory`
    /// (created: requested, approved, rejected). `None`: none is known.
    pub fn exception_state(&self) -> Option<ExceptionState> {
        if let Some(state) = self
            .exception_request
            .as_ref()
            .and_then(|e| e.exception_state.clone())
        {
            return Some(state);
        }
        let mut latest: Option<(Option<Timestamp>, ExceptionState)> = None;
        for event in &self.activity_history {
            let state = match event.history_type {
                Some(HistoryType::ExceptionRequestCreated) => ExceptionState::Requested,
                Some(HistoryType::ExceptionRequestApproved) => ExceptionState::Approved,
                Some(HistoryType::ExceptionRequestRejected) => ExceptionState::Rejected,
                _ => continue,
            };
            // In the order sent, unless a date says an event came earlier.
            if latest
                .as_ref()
                .is_none_or(|(date, _)| event.date.is_none() || *date <= event.date)
            {
                latest = Some((event.date, state));
            }
        }
        latest.map(|(_, state)| state)
    }
}

/// An http(s) URL with no control characters.
pub fn is_web_url(url: &str) -> bool {
    url::Url::parse(url).is_ok_and(|u| matches!(u.scheme(), "http" | "https"))
        && !url.chars().any(char::is_control)
}

/// A dotted rule id's last part (`...injection.sql-injection` →
/// `sql-injection`): the part that tells rules apart in a narrow column. A
/// label with a space (a display name, an advisory and its package) is kept
/// whole.
pub fn short_rule(label: &str) -> &str {
    if label.contains(' ') {
        return label;
    }
    label
        .rsplit('.')
        .next()
        .filter(|s| !s.is_empty())
        .unwrap_or(label)
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Repository {
    pub name: Option<String>,
    pub id: Option<String>,
    #[serde(rename = "type")]
    pub scm_type: Option<ScmType>,
    pub primary_ref: Option<PrimaryRef>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct PrimaryRef {
    pub id: Option<String>,
    #[serde(rename = "ref")]
    pub ref_: Option<String>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Scan {
    pub id: Option<String>,
    /// Free-form metadata; kept as the server sent it.
    pub meta: Option<serde_json::Value>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ExternalTicket {
    pub url: Option<String>,
    pub external_slug: Option<String>,
    pub id: Option<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub linked_issue_ids: Vec<String>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Autotriage {
    pub id: Option<String>,
    pub issue_id: Option<String>,
    pub verdict: Option<Verdict>,
    pub reason: Option<String>,
    pub feedback: Option<AutotriageFeedback>,
    pub match_based_id: Option<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub memory_ids_referenced: Vec<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub memory_ids_rendered: Vec<String>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct AutotriageFeedback {
    pub autotriage_id: Option<String>,
    /// Values not given by the contract; kept as text.
    #[serde(deserialize_with = "wire::opt_enum_text")]
    pub rating: Option<String>,
    pub note: Option<String>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct AiTags {
    pub id: Option<String>,
    pub path: Option<String>,
    pub tags: Option<String>,
    pub sensitivity: Option<Sensitivity>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct DataflowTrace {
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub taint_source: Vec<Location>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub intermediate_vars: Vec<Location>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub taint_sink: Vec<Location>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Location {
    pub path: Option<String>,
    pub start: Option<Position>,
    pub end: Option<Position>,
    pub location_url: Option<String>,
}

/// A position in a file; the platform sends these int64 values as strings.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Position {
    #[serde(with = "wire::int64_string")]
    pub line: Option<i64>,
    #[serde(with = "wire::int64_string")]
    pub col: Option<i64>,
    #[serde(with = "wire::int64_string")]
    pub offset: Option<i64>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ActivityEvent {
    #[serde(with = "wire::timestamp")]
    pub date: Option<Timestamp>,
    pub title: Option<String>,
    pub triage_reason: Option<String>,
    pub note: Option<String>,
    pub actor: Option<String>,
    pub history_type: Option<HistoryType>,
    pub exception_request_details: Option<ExceptionRequestDetails>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ExceptionRequestDetails {
    #[serde(deserialize_with = "wire::opt_enum_text")]
    pub action_source: Option<String>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RelatedIssue {
    pub id: Option<String>,
    #[serde(rename = "ref")]
    pub ref_: Option<String>,
    pub pull_request_id: Option<String>,
    pub aggregate_state: Option<AggregateState>,
    #[serde(with = "wire::timestamp")]
    pub created_at: Option<Timestamp>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Remediation {
    pub issue_id: Option<String>,
    pub match_based_id: Option<String>,
    pub autofix: Option<Autofix>,
    pub guidance: Option<Guidance>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Autofix {
    pub id: Option<String>,
    pub fix_code: Option<String>,
    pub fix_diff: Option<String>,
    pub explanation: Option<String>,
    pub url: Option<String>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Guidance {
    pub id: Option<String>,
    pub summary: Option<String>,
    pub guidance_text: Option<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub memory_ids_used: Vec<String>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ExceptionRequest {
    pub exception_state: Option<ExceptionState>,
    pub requester_login: Option<String>,
    pub requester_name: Option<String>,
    pub requester_note: Option<String>,
    pub requester_triage_reason: Option<TriageReason>,
    #[serde(deserialize_with = "wire::opt_enum_text")]
    pub requester_action_source: Option<String>,
    pub reviewer_login: Option<String>,
    pub reviewer_name: Option<String>,
    pub request_id: Option<String>,
    pub review_id: Option<String>,
    pub issue_id: Option<String>,
    #[serde(with = "wire::timestamp")]
    pub created_at: Option<Timestamp>,
    #[serde(with = "wire::timestamp")]
    pub reviewed_at: Option<Timestamp>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TicketAttempt {
    #[serde(with = "wire::timestamp")]
    pub attempted_at: Option<Timestamp>,
    pub response_message: Option<String>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Codeowner {
    pub id: Option<String>,
    pub name: Option<String>,
    pub is_team: Option<bool>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub members: Vec<Codeowner>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RuleSupersededBy {
    pub product: Option<RuleType>,
    pub rule_path: Option<String>,
}

/// Present only for code findings; the contract gives it no fields.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SastAttributes {}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ScaAttributes {
    pub severity: Option<Severity>,
    pub vuln_database_identifier: Option<String>,
    pub reachability: Option<Reachability>,
    pub reachable_condition: Option<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub cwes: Vec<String>,
    pub found_dependency: Option<Dependency>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub fix_recommendations: Vec<PackageVersion>,
    pub best_fix: Option<PackageVersion>,
    pub epss_score: Option<EpssScore>,
    #[serde(with = "wire::timestamp")]
    pub rule_publish_date: Option<Timestamp>,
    pub sca_rule_kind: Option<ScaRuleKind>,
    pub sca_match_info: Option<ScaMatchInfo>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub introduced_by: Vec<PackageVersion>,
}

/// A dependency as found in a manifest or lockfile. Transitivity and
/// ecosystem values are not enumerated by the contract; kept as text.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Dependency {
    pub package: Option<String>,
    pub version: Option<String>,
    #[serde(deserialize_with = "wire::opt_enum_text")]
    pub transitivity: Option<String>,
    pub lockfile_line_url: Option<String>,
    pub file_path: Option<String>,
    #[serde(deserialize_with = "wire::opt_enum_text")]
    pub ecosystem: Option<String>,
    pub manifest_file_path: Option<String>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct PackageVersion {
    pub package: Option<String>,
    pub version: Option<String>,
}

impl PackageVersion {
    /// `package@version`, or whichever part is present.
    pub fn spec(&self) -> String {
        match (self.package.as_deref(), self.version.as_deref()) {
            (Some(p), Some(v)) if !v.is_empty() => format!("{p}@{v}"),
            (Some(p), _) => p.to_owned(),
            (None, Some(v)) => v.to_owned(),
            (None, None) => String::new(),
        }
    }
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct EpssScore {
    #[serde(with = "wire::float")]
    pub score: Option<f64>,
    #[serde(with = "wire::float")]
    pub percentile: Option<f64>,
    #[serde(with = "wire::timestamp")]
    pub updated_at: Option<Timestamp>,
    #[serde(deserialize_with = "wire::opt_enum_text")]
    pub categorization: Option<String>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ScaMatchInfo {
    #[serde(deserialize_with = "wire::opt_enum_text")]
    pub match_kind: Option<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub analyzed_packages: Vec<Dependency>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub transitive_matches: Vec<TransitiveMatch>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TransitiveMatch {
    pub dependency: Option<Dependency>,
    pub path: Option<String>,
    /// A string in the published schema; numbers are accepted too.
    #[serde(with = "wire::int64_string")]
    pub line: Option<i64>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SecretsAttributes {
    pub validation_state: Option<ValidationState>,
    pub secret_type: Option<String>,
    pub historical_info: Option<HistoricalInfo>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct HistoricalInfo {
    pub git_commit: Option<String>,
    #[serde(with = "wire::timestamp")]
    pub git_commit_timestamp: Option<Timestamp>,
    pub git_blob: Option<String>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct CodeSnippet {
    pub path: Option<String>,
    pub content: Option<String>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RuleExplanation {
    pub id: Option<String>,
    pub summary: Option<String>,
    pub explanation: Option<String>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct AiExploitCondition {
    pub description: Option<String>,
    pub confirmed: Option<bool>,
}

#[cfg(test)]
mod severity_tests {
    use super::*;

    /// The advisory's severity is said only where it is not the finding's.
    #[test]
    fn the_advisory_severity_is_apart_only_when_it_differs() {
        let mut i = Issue {
            severity: Some(Severity::High),
            sca_attributes: Some(ScaAttributes {
                severity: Some(Severity::Critical),
                ..ScaAttributes::default()
            }),
            ..Issue::default()
        };
        assert_eq!(i.advisory_severity_apart(), Some(&Severity::Critical));
        i.severity = Some(Severity::Critical);
        assert_eq!(i.advisory_severity_apart(), None);
        i.sca_attributes = None;
        assert_eq!(i.advisory_severity_apart(), None);
    }
}
