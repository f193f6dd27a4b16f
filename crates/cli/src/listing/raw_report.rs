//! Report findings as raw JSON, for `report --format json` and `ndjson`:
//! what the server sent, on one line each, never decoded and encoded again
//! (as `issues` writes its items, `raw.rs`). Decoding every finding of a
//! million into the model took the JSON export 3× the raw transfer.

use super::raw::one_line_object;
use findings_client::client::Answer;
use findings_client::{ApiError, Client, PagedRequest};
use findings_export::Record;
use findings_model::*;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

/// Report findings, their pages read with the findings left as raw JSON.
/// Its own request, not a `PagesAs`: its page type is this crate's,
/// decoded here.
#[derive(Debug, Clone)]
pub(crate) struct RawReportRequest(ReportRequest);

impl RawReportRequest {
    pub(crate) fn new(request: ReportRequest) -> Self {
        RawReportRequest(request)
    }
}

impl PagedRequest for RawReportRequest {
    type Page = RawReportPage;
    fn set_cursor(&mut self, cursor: Option<String>) {
        self.0.cursor = cursor;
    }
    async fn answer(&self, client: &Client) -> Result<Answer, ApiError> {
        client.report_answer(&self.0).await
    }
    fn decode_page(answer: &Answer) -> Result<RawReportPage, ApiError> {
        answer.decode()
    }
}

/// A report page whose findings are kept as the server wrote them.
pub(crate) type RawReportPage = FindingsPage<RawFinding>;

/// One report finding: the server's JSON object, on one line.
#[derive(Debug)]
pub(crate) struct RawFinding(Box<RawValue>);

impl<'de> Deserialize<'de> for RawFinding {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        one_line_object(Box::<RawValue>::deserialize(de)?, "a report finding").map(RawFinding)
    }
}

impl Serialize for RawFinding {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl RawFinding {
    /// The finding's JSON text, on one line.
    pub(crate) fn json(&self) -> &str {
        self.0.get()
    }
}

impl Record for RawFinding {
    const COLUMNS: &'static [findings_export::Column] = Issue::COLUMNS;
    /// Raw findings are written as JSON only; the cells, should a table
    /// ask, are those of the decoded finding.
    fn to_json(&self) -> Result<Vec<u8>, serde_json::Error> {
        findings_base::json::encode(self)
    }
    fn cells(&self) -> Vec<String> {
        findings_base::json::decode::<Issue>(self.0.get().as_bytes())
            .map(|finding| finding.cells())
            .unwrap_or_else(|_| vec![String::new(); Self::COLUMNS.len()])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use findings_client::Page;
    use findings_client::client::decode;

    #[test]
    fn report_pages_keep_findings_as_sent_and_their_totals() {
        let body = r#"{"findings": [{"id": "7", "fieldTheModelDoesNotKnow": [1, 2],
            "message": "two\nlines"}, {"id":"8"}], "cursor": "c", "total": "12",
            "totalCode": 3}"#;
        let page: RawReportPage = decode(body.as_bytes(), "application/json").unwrap();
        assert_eq!((page.next_cursor(), page.item_count()), (Some("c"), 2));
        assert_eq!(page.totals.total, Some(12));
        assert_eq!(page.totals.total_code, Some(3));
        let first: serde_json::Value = serde_json::from_str(page.findings[0].json()).unwrap();
        assert_eq!(first["fieldTheModelDoesNotKnow"], serde_json::json!([1, 2]));
        assert!(!page.findings[0].json().contains('\n'));
        assert_eq!(page.findings[1].json(), r#"{"id":"8"}"#);
        let bad = br#"{"findings": ["\u001b[31mnot a finding"]}"#;
        let err = decode::<RawReportPage>(bad, "application/json").unwrap_err();
        assert!(
            err.to_string().contains("expected a report finding"),
            "{err}"
        );
    }
}
