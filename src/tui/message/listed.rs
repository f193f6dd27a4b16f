//! A List issues page decoded straight into rows: only the fields a row,
//! its flags and the `/` index read are decoded; the rest of each finding
//! (its code, dataflow, rule text, review threads) is skipped unread by
//! serde, never built. A page of 1,000 decoded into the whole model took
//! about 17 ms before it was packed; the rows are what the list keeps.
//!
//! Each field is read as the whole model reads it (same types, same
//! leniency); a page is held to the items asked for like any other.

use super::rows::{FindingRow, RowPage, Shared};
use super::search::SearchIndex;
use crate::api::model::wire::{self, Timestamp};
use crate::api::model::*;
use serde::Deserialize;
use serde::de::IgnoredAny;

/// A List issues page as the rows need it.
#[derive(Deserialize, Default)]
#[serde(default)]
struct ListedPage {
    #[serde(deserialize_with = "wire::page_items")]
    issues: Vec<ListedItem>,
    cursor: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ListedItem {
    issue: Option<ListedIssue>,
}

/// The fields of an Issue a row, its `/` text and its flags are made of.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct ListedIssue {
    id: Option<String>,
    #[serde(deserialize_with = "wire::timestamp::deserialize")]
    created_at: Option<Timestamp>,
    rule_id: Option<String>,
    repository: Option<ListedRepository>,
    triage_state: Option<TriageState>,
    triage_reason: Option<TriageReason>,
    #[serde(deserialize_with = "wire::timestamp::deserialize")]
    relevant_since: Option<Timestamp>,
    aggregate_state: Option<AggregateState>,
    /// The triage note: an ignore's expiry is read from it.
    note: Option<String>,
    /// Only whether there is one (the `T` flag).
    external_ticket: Option<IgnoredAny>,
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
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ListedRepository {
    name: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct ListedSca {
    vuln_database_identifier: Option<String>,
    found_dependency: Option<ListedDependency>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ListedDependency {
    package: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct ListedException {
    exception_state: Option<ExceptionState>,
}

impl From<ListedIssue> for Issue {
    fn from(i: ListedIssue) -> Issue {
        Issue {
            id: i.id,
            created_at: i.created_at,
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
            external_ticket: i.external_ticket.map(|_| ExternalTicket::default()),
            activity_history: i.activity_history,
            file_path: i.file_path,
            line: i.line,
            severity: i.severity,
            message: i.message,
            rule_path: i.rule_path,
            issue_type: i.issue_type,
            sca_attributes: i.sca_attributes.map(|s| ScaAttributes {
                vuln_database_identifier: s.vuln_database_identifier,
                found_dependency: s.found_dependency.map(|d| Dependency {
                    package: d.package,
                    ..Dependency::default()
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
            ..Issue::default()
        }
    }
}

impl<'de> Deserialize<'de> for RowPage {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<RowPage, D::Error> {
        let page = ListedPage::deserialize(d)?;
        let mut search = SearchIndex::default();
        let mut shared = Shared::default();
        let mut rows = Vec::with_capacity(page.issues.len());
        for item in page.issues {
            let item = IssueItem {
                issue: item.issue.map(Issue::from),
                ..IssueItem::default()
            };
            search.push(item.issue.as_ref());
            rows.push(FindingRow::new_sharing(&item, &mut shared));
        }
        Ok(RowPage {
            rows,
            search,
            cursor: page.cursor,
        })
    }
}

impl crate::api::Page for RowPage {
    const ITEMS: &'static str = "issues";
    fn next_cursor(&self) -> Option<&str> {
        self.cursor.as_deref()
    }
    fn item_count(&self) -> usize {
        self.rows.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Findings as the demo and the samples send them, whole.
    fn whole_page() -> ListIssuesResponse {
        let items: Vec<IssueItem> =
            serde_json::from_str(include_str!("../../../assets/pack-samples.json")).unwrap();
        ListIssuesResponse {
            issues: items,
            cursor: Some("next".into()),
        }
    }

    /// Decoded straight into rows, a page gives the rows (and `/` text) the
    /// whole model packed gives.
    #[test]
    fn a_page_decoded_into_rows_is_the_page_packed_from_the_whole_model() {
        let page = whole_page();
        let json = crate::json::encode(&page).unwrap();
        let direct: RowPage = crate::json::decode(&json).unwrap();
        let packed = RowPage::from(page);
        assert_eq!(direct.cursor, packed.cursor);
        assert_eq!(direct.rows.len(), packed.rows.len());
        for (a, b) in direct.rows.iter().zip(&packed.rows) {
            assert_eq!(format!("{a:?}"), format!("{b:?}"));
        }
        let (d, p) = (&direct.search, &packed.search);
        assert_eq!(d.since_keys(), p.since_keys());
        for needle in ["axios", "acme/", "critical", "1016", ".kt", "stripe secret"] {
            let m = d.matcher(needle);
            assert_eq!(d.matching(0, &m), p.matching(0, &m), "{needle}");
            assert!(!d.matching(0, &m).is_empty(), "{needle}");
        }
    }

    #[test]
    fn a_hostile_page_is_refused_not_panicked_on() {
        for bad in [
            r#"{"issues":[{"issue":{"line":"twelve"}}]}"#,
            r#"{"issues":[{"issue":{"createdAt":"yesterday"}}]}"#,
            r#"{"issues":[{"issue":{"repository":7}}]}"#,
            r#"{"issues":7}"#,
        ] {
            assert!(
                crate::json::decode::<RowPage>(bad.as_bytes()).is_err(),
                "{bad}"
            );
        }
        // What a row does not keep is skipped, whatever it holds.
        let odd = r#"{"issues":[{"issue":{"id":"1","codeSnippet":[1,{"a":null}],"x":{}},"reviewCount":{}}]}"#;
        let page: RowPage = crate::json::decode(odd.as_bytes()).unwrap();
        assert_eq!(page.rows[0].id(), "1");
    }
}
