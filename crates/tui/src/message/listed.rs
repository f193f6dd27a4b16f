//! A List issues page decoded straight into rows: only the fields a row,
//! its flags and the `/` index read are decoded ([`ListedPage`]). A page of
//! 1,000 decoded into the whole model took about 17 ms before it was
//! packed; the rows are what the list keeps.

use super::rows::{FindingRow, RowPage, Shared};
use super::search::SearchIndex;
use findings_model::*;
use serde::Deserialize;

impl<'de> Deserialize<'de> for RowPage {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<RowPage, D::Error> {
        let page = ListedPage::deserialize(d)?;
        let mut search = SearchIndex::default();
        let mut shared = Shared::default();
        let mut rows = Vec::with_capacity(page.issues.len());
        let mut rule_labels = Vec::new();
        for item in page.issues {
            let item = IssueItem::from(item);
            search.push(item.issue.as_ref());
            super::rows::note_rule_label(&mut rule_labels, item.issue.as_ref());
            rows.push(FindingRow::new_sharing(&item, &mut shared));
        }
        Ok(RowPage {
            rows,
            search,
            cursor: page.cursor,
            rule_labels,
            credit: None,
        })
    }
}

/// Decoded here, in the crate of the rows, once.
impl findings_client::FromAnswer for RowPage {
    fn from_answer(
        answer: &findings_client::client::Answer,
    ) -> Result<Self, findings_client::ApiError> {
        answer.decode()
    }
}

impl findings_client::Page for RowPage {
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
            serde_json::from_str(include_str!("../../../../assets/pack-samples.json")).unwrap();
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
        let json = findings_base::json::encode(&page).unwrap();
        let direct: RowPage = findings_base::json::decode(&json).unwrap();
        let packed = RowPage::from(page);
        assert_eq!(direct.cursor, packed.cursor);
        assert_eq!(direct.rule_labels, packed.rule_labels);
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
                findings_base::json::decode::<RowPage>(bad.as_bytes()).is_err(),
                "{bad}"
            );
        }
        // What a row does not keep is skipped, whatever it holds.
        let odd = r#"{"issues":[{"issue":{"id":"1","codeSnippet":[1,{"a":null}],"x":{}},"reviewCount":{}}]}"#;
        let page: RowPage = findings_base::json::decode(odd.as_bytes()).unwrap();
        assert_eq!(page.rows[0].id(), "1");
    }
}
