//! A List issues page decoded with only what a list shows of each finding
//! (the TUI's rows, a table or CSV export): the rest of each finding (its
//! code, dataflow, rule text, review threads) is skipped unread by serde,
//! never built. Decoding a page of 1,000 whole took 11 ms; this, a third.
//!
//! Each field is read as the whole model reads it (same types, same
//! leniency); a page is held to the items asked for like any other.

use super::enums::*;
use super::issue::*;
use super::pages::{FindingsPage, IssuesPage, ItemOf};
use super::wire::{self, Timestamp};
use serde::Deserialize;

/// A List issues page with only what a list shows of each finding.
pub type ListedPage = IssuesPage<ListedItem>;

/// A report page with only what a list shows of each finding, and the
/// totals (a table heads with them).
pub type ListedReportPage = FindingsPage<ListedIssue>;

pub type ListedItem = ItemOf<ListedIssue>;

/// The fields of an Issue a list shows (the TUI's rows, their flags and
/// `/` text; the columns of a table or CSV export) and the client-side
/// filters read.
#[derive(Debug, Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct ListedIssue {
    id: Option<String>,
    #[serde(deserialize_with = "wire::timestamp::deserialize")]
    created_at: Option<Timestamp>,
    /// The ref (branch): what a sort by ref orders loaded rows by.
    #[serde(rename = "ref")]
    ref_: Option<String>,
    rule_id: Option<String>,
    repository: Option<ListedRepository>,
    triage_state: Option<TriageState>,
    triage_reason: Option<TriageReason>,
    #[serde(deserialize_with = "wire::timestamp::deserialize")]
    relevant_since: Option<Timestamp>,
    aggregate_state: Option<AggregateState>,
    /// The triage note: an ignore's expiry is read from it.
    note: Option<String>,
    /// Its key and link (the `T` flag; the ticket columns).
    external_ticket: Option<ListedTicket>,
    /// Exception and pull request events, the latest triage's note.
    #[serde(deserialize_with = "wire::null_as_default")]
    activity_history: Vec<ActivityEvent>,
    file_path: Option<String>,
    #[serde(deserialize_with = "wire::int64_number::deserialize")]
    line: Option<i64>,
    severity: Option<Severity>,
    message: Option<String>,
    rule_path: Option<String>,
    issue_type: Option<IssueType>,
    sca_attributes: Option<ListedSca>,
    rule_display_name: Option<String>,
    click_to_fix_pr_url: Option<String>,
    exception_request: Option<ListedException>,
    triage_permission: Option<TriagePermission>,
    /// The finding's link (the url column).
    line_of_code_url: Option<String>,
    #[serde(deserialize_with = "wire::timestamp::deserialize")]
    first_detected_at: Option<Timestamp>,
    /// The owning teams (the owner_team column).
    #[serde(deserialize_with = "wire::null_as_default")]
    codeowners: Vec<ListedOwner>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct ListedTicket {
    url: Option<String>,
    external_slug: Option<String>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct ListedOwner {
    name: Option<String>,
    is_team: Option<bool>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(default)]
struct ListedRepository {
    name: Option<String>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct ListedSca {
    /// The advisory's own severity (beside the finding's).
    severity: Option<Severity>,
    vuln_database_identifier: Option<String>,
    found_dependency: Option<ListedDependency>,
    reachability: Option<Reachability>,
    epss_score: Option<ListedEpss>,
    /// The fix version columns.
    best_fix: Option<PackageVersion>,
    #[serde(deserialize_with = "wire::null_as_default")]
    fix_recommendations: Vec<PackageVersion>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(default)]
struct ListedEpss {
    #[serde(deserialize_with = "wire::float::deserialize")]
    score: Option<f64>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(default)]
struct ListedDependency {
    package: Option<String>,
    /// The version in use, and direct or transitive (the package columns).
    version: Option<String>,
    #[serde(deserialize_with = "wire::opt_enum_text")]
    transitivity: Option<String>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct ListedException {
    exception_state: Option<ExceptionState>,
}

impl From<ListedIssue> for Issue {
    fn from(i: ListedIssue) -> Issue {
        Issue {
            id: i.id,
            created_at: i.created_at,
            ref_: i.ref_,
            rule_id: i.rule_id,
            repository: i.repository.map(|r| Repository {
                name: r.name,
                ..Repository::default()
            }),
            triage_state: i.triage_state,
            triage_reason: i.triage_reason,
            relevant_since: i.relevant_since,
            aggregate_state: i.aggregate_state,
            note: i.note,
            external_ticket: i.external_ticket.map(|t| ExternalTicket {
                url: t.url,
                external_slug: t.external_slug,
                ..ExternalTicket::default()
            }),
            activity_history: i.activity_history,
            file_path: i.file_path,
            line: i.line,
            severity: i.severity,
            message: i.message,
            rule_path: i.rule_path,
            issue_type: i.issue_type,
            sca_attributes: i.sca_attributes.map(|s| ScaAttributes {
                severity: s.severity,
                vuln_database_identifier: s.vuln_database_identifier,
                found_dependency: s.found_dependency.map(|d| Dependency {
                    package: d.package,
                    version: d.version,
                    transitivity: d.transitivity,
                    ..Dependency::default()
                }),
                best_fix: s.best_fix,
                fix_recommendations: s.fix_recommendations,
                reachability: s.reachability,
                epss_score: s.epss_score.map(|e| EpssScore {
                    score: e.score,
                    ..EpssScore::default()
                }),
                ..ScaAttributes::default()
            }),
            rule_display_name: i.rule_display_name,
            click_to_fix_pr_url: i.click_to_fix_pr_url,
            exception_request: i.exception_request.map(|e| ExceptionRequest {
                exception_state: e.exception_state,
                ..ExceptionRequest::default()
            }),
            triage_permission: i.triage_permission,
            line_of_code_url: i.line_of_code_url,
            first_detected_at: i.first_detected_at,
            codeowners: i
                .codeowners
                .into_iter()
                .map(|o| Codeowner {
                    name: o.name,
                    is_team: o.is_team,
                    ..Codeowner::default()
                })
                .collect(),
            ..Issue::default()
        }
    }
}
