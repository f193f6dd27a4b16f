//! A List issues or report page decoded with only what a SARIF result and
//! its rule read of each finding (`--format sarif`): its location, rule,
//! states, fingerprints and supply-chain figures. The rest (code owners,
//! scans, review threads, dataflow, AI tags) is skipped unread by serde,
//! never built: decoding whole findings took SARIF 1.9x the raw transfer
//! at a million.
//!
//! Each field is read as the whole model reads it (same types, same
//! leniency), so a result is the one the whole finding gives; the first
//! detection too, which the client-side time filters compare.

use super::enums::*;
use super::issue::*;
use super::pages::{FindingsPage, IssuesPage, ItemOf};
use super::wire;
use serde::Deserialize;

/// A List issues page with only what SARIF reads of each finding.
pub type SarifPage = IssuesPage<SarifItem>;

/// A report page with only what SARIF reads of each finding.
pub type SarifReportPage = FindingsPage<SarifIssue>;

pub type SarifItem = ItemOf<SarifIssue>;

/// The fields of an Issue a SARIF result and its rule read.
#[derive(Debug, Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct SarifIssue {
    id: Option<String>,
    message: Option<String>,
    #[serde(rename = "ref")]
    ref_: Option<String>,
    repository: Option<SarifRepository>,
    syntactic_id: Option<String>,
    match_based_id: Option<String>,
    severity: Option<Severity>,
    issue_type: Option<IssueType>,
    aggregate_state: Option<AggregateState>,
    triage_state: Option<TriageState>,
    triage_reason: Option<TriageReason>,
    autotriage: Option<SarifAutotriage>,
    line_of_code_url: Option<String>,
    file_path: Option<String>,
    #[serde(deserialize_with = "wire::int64_number::deserialize")]
    line: Option<i64>,
    #[serde(deserialize_with = "wire::int64_number::deserialize")]
    end_line: Option<i64>,
    #[serde(deserialize_with = "wire::int64_number::deserialize")]
    column: Option<i64>,
    #[serde(deserialize_with = "wire::int64_number::deserialize")]
    end_column: Option<i64>,
    // The rule: its id and names, and what its first finding says of it.
    rule_id: Option<String>,
    rule_path: Option<String>,
    rule_display_name: Option<String>,
    rule_url: Option<String>,
    #[serde(deserialize_with = "wire::null_as_default")]
    rule_cwe_names: Vec<String>,
    #[serde(deserialize_with = "wire::null_as_default")]
    rule_owasp_names: Vec<String>,
    ruleset: Option<String>,
    category: Option<String>,
    rule_explanation: Option<RuleExplanation>,
    sca_attributes: Option<SarifSca>,
    secrets_attributes: Option<SarifSecrets>,
    /// Not written: `--over-target` and `--first-detected-*` compare it.
    #[serde(deserialize_with = "wire::timestamp::deserialize")]
    first_detected_at: Option<wire::Timestamp>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(default)]
struct SarifRepository {
    name: Option<String>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(default)]
struct SarifAutotriage {
    verdict: Option<Verdict>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct SarifSca {
    vuln_database_identifier: Option<String>,
    reachability: Option<Reachability>,
    found_dependency: Option<SarifDependency>,
    epss_score: Option<EpssScore>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(default)]
struct SarifDependency {
    package: Option<String>,
    version: Option<String>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct SarifSecrets {
    secret_type: Option<String>,
}

impl From<SarifIssue> for Issue {
    fn from(i: SarifIssue) -> Issue {
        Issue {
            id: i.id,
            message: i.message,
            ref_: i.ref_,
            repository: i.repository.map(|r| Repository {
                name: r.name,
                ..Repository::default()
            }),
            syntactic_id: i.syntactic_id,
            match_based_id: i.match_based_id,
            severity: i.severity,
            issue_type: i.issue_type,
            aggregate_state: i.aggregate_state,
            triage_state: i.triage_state,
            triage_reason: i.triage_reason,
            autotriage: i.autotriage.map(|a| Autotriage {
                verdict: a.verdict,
                ..Autotriage::default()
            }),
            line_of_code_url: i.line_of_code_url,
            file_path: i.file_path,
            line: i.line,
            end_line: i.end_line,
            column: i.column,
            end_column: i.end_column,
            rule_id: i.rule_id,
            rule_path: i.rule_path,
            rule_display_name: i.rule_display_name,
            rule_url: i.rule_url,
            rule_cwe_names: i.rule_cwe_names,
            rule_owasp_names: i.rule_owasp_names,
            ruleset: i.ruleset,
            category: i.category,
            rule_explanation: i.rule_explanation,
            sca_attributes: i.sca_attributes.map(|s| ScaAttributes {
                vuln_database_identifier: s.vuln_database_identifier,
                reachability: s.reachability,
                found_dependency: s.found_dependency.map(|d| Dependency {
                    package: d.package,
                    version: d.version,
                    ..Dependency::default()
                }),
                epss_score: s.epss_score,
                ..ScaAttributes::default()
            }),
            secrets_attributes: i.secrets_attributes.map(|s| SecretsAttributes {
                secret_type: s.secret_type,
                ..SecretsAttributes::default()
            }),
            first_detected_at: i.first_detected_at,
            ..Issue::default()
        }
    }
}
