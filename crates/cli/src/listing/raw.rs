//! List issues items as raw JSON, for `--format json` and `ndjson`: what
//! the server sent, on one line each, never decoded and encoded again.

use findings_client::client::Answer;
use findings_client::{ApiError, Client, PagedRequest};
use findings_export::Record;
use findings_model::*;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

/// List issues, its pages read with the items left as raw JSON. Its own
/// request, not a `PagesAs`: its page type is this crate's, decoded here.
#[derive(Debug, Clone)]
pub(crate) struct RawListRequest(ListIssuesRequest);

impl RawListRequest {
    pub(crate) fn new(request: ListIssuesRequest) -> Self {
        RawListRequest(request)
    }
}

impl PagedRequest for RawListRequest {
    type Page = RawListPage;
    fn set_cursor(&mut self, cursor: Option<String>) {
        self.0.cursor = cursor;
    }
    async fn answer(&self, client: &Client) -> Result<Answer, ApiError> {
        client.list_issues_answer(&self.0).await
    }
    fn decode_page(answer: &Answer) -> Result<RawListPage, ApiError> {
        answer.decode()
    }
}

/// A List issues page whose items are kept as the server wrote them.
pub(crate) type RawListPage = IssuesPage<RawItem>;

/// One List issues item: the server's JSON object, checked to be valid JSON
/// and an object, and put on one line when the server spread it over more.
#[derive(Debug)]
pub(crate) struct RawItem(Box<RawValue>);

impl<'de> Deserialize<'de> for RawItem {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        one_line_object(Box::<RawValue>::deserialize(de)?, "a List issues item").map(RawItem)
    }
}

/// `raw` when it is a JSON object (`what`, as an error names it), put on
/// one line when the server spread it over more.
pub(super) fn one_line_object<E: serde::de::Error>(
    raw: Box<RawValue>,
    what: &str,
) -> Result<Box<RawValue>, E> {
    if !raw.get().starts_with('{') {
        return Err(E::custom(format!(
            "invalid type: {}, expected {what} (an object)",
            findings_base::text::truncate(&findings_base::text::one_line(raw.get()), 40)
        )));
    }
    // memchr, not `str::contains` with a char set: this looks at every byte
    // of an export, and the char-by-char search took a quarter of its CPU.
    if memchr::memchr2(b'\n', b'\r', raw.get().as_bytes()).is_none() {
        return Ok(raw);
    }
    RawValue::from_string(findings_base::json::compact(raw.get())).map_err(E::custom)
}

impl Serialize for RawItem {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // serde_json writes a raw value's text verbatim.
        self.0.serialize(s)
    }
}

/// The few fields of an item the client-side filters read.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Compared {
    issue: Option<ComparedIssue>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct ComparedIssue {
    first_detected_at: Option<Timestamp>,
    severity: Option<Severity>,
    aggregate_state: Option<AggregateState>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Identified {
    issue: Option<IdentifiedIssue>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct IdentifiedIssue {
    id: Option<String>,
}

impl RawItem {
    /// The item's JSON text, on one line.
    pub(crate) fn json(&self) -> &str {
        self.0.get()
    }

    /// Whether the item names its finding (a snapshot keeps only those:
    /// nothing could find the others again).
    pub(crate) fn has_id(&self) -> bool {
        findings_base::json::decode::<Identified>(self.0.get().as_bytes())
            .ok()
            .and_then(|i| i.issue?.id)
            .is_some_and(|id| !id.is_empty())
    }

    /// Read from the item's text: only those fields are decoded.
    fn compared(&self) -> ComparedIssue {
        findings_base::json::decode::<Compared>(self.0.get().as_bytes())
            .ok()
            .and_then(|i| i.issue)
            .unwrap_or_default()
    }
}

impl super::first_detected::FirstDetectedAt for RawItem {
    fn first_detected_at(&self) -> Option<Timestamp> {
        self.compared().first_detected_at
    }
    fn severity_and_state(&self) -> (Option<Severity>, Option<AggregateState>) {
        let c = self.compared();
        (c.severity, c.aggregate_state)
    }
}

impl Record for RawItem {
    const COLUMNS: &'static [findings_export::Column] = IssueItem::COLUMNS;
    /// Raw items are written as JSON only; the cells, should a table ask,
    /// are those of the decoded item.
    fn to_json(&self) -> Result<Vec<u8>, serde_json::Error> {
        findings_base::json::encode(self)
    }
    fn cells(&self) -> Vec<String> {
        findings_base::json::decode::<IssueItem>(self.0.get().as_bytes())
            .map(|item| item.cells())
            .unwrap_or_else(|_| vec![String::new(); Self::COLUMNS.len()])
    }
}

#[cfg(test)]
mod raw_export_tests {
    use super::*;
    use findings_client::client::decode;
    use findings_client::{ApiError, Page};
    use findings_export::{Format, Writer};

    const PRETTY_PAGE: &str = r#"{
  "issues": [
    {
      "issue": { "id": "7", "message": "say \"hi\"\n\tthen { leave }", "score": 0.0 },
      "reviewCount": "2",
      "fieldTheModelDoesNotKnow": [1, 2]
    },
    {"issue": {"id": "8"}}
  ],
  "cursor": "c2"
}"#;

    #[test]
    fn compact_json_drops_whitespace_between_tokens_only() {
        let json = "{ \"a\" : \"x \\\"y\\\" \\\\n z\" ,\n\t\"b\" : [1, 2 ] }";
        let compact = findings_base::json::compact(json);
        assert_eq!(compact, r#"{"a":"x \"y\" \\n z","b":[1,2]}"#);
        let before: serde_json::Value = serde_json::from_str(json).unwrap();
        let after: serde_json::Value = serde_json::from_str(&compact).unwrap();
        assert_eq!(before, after);
    }

    #[test]
    fn raw_pages_keep_items_as_sent_on_one_line_each() {
        let page: RawListPage = decode(PRETTY_PAGE.as_bytes(), "application/json").unwrap();
        assert_eq!(page.next_cursor(), Some("c2"));
        assert_eq!(page.item_count(), 2);
        let sent: serde_json::Value = serde_json::from_str(PRETTY_PAGE).unwrap();
        let mut writer = Writer::new::<RawItem>(Vec::new(), Format::Ndjson, 80);
        for item in page.issues {
            writer.item(&item).unwrap();
        }
        let out = String::from_utf8(writer.finish().unwrap()).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2, "{out}");
        for (k, line) in lines.iter().enumerate() {
            let item: serde_json::Value = serde_json::from_str(line).unwrap();
            // Unknown fields and number spellings included.
            assert_eq!(item, sent["issues"][k]);
        }
        assert!(lines[0].contains(r#""score":0.0"#), "{}", lines[0]);
        assert!(lines[0].contains(r#""fieldTheModelDoesNotKnow":[1,2]"#));
        // The item's own text is kept when it is on one line already.
        assert_eq!(lines[1], r#"{"issue": {"id": "8"}}"#);
    }

    #[test]
    fn raw_pages_refuse_items_that_are_not_objects() {
        let body = br#"{"issues": [{"issue": {}}, "\u001b[31mnot an item"], "cursor": "c"}"#;
        match decode::<RawListPage>(body, "application/json") {
            Err(ApiError::Decode { path, message }) => {
                // The item is checked once read whole, after serde_json
                // has left it: the path is the list's, the value is quoted.
                assert_eq!(path, "issues");
                assert!(message.contains("not an item"), "{message}");
                assert!(message.contains("expected a List issues item"), "{message}");
                assert!(!message.contains('\u{1b}'), "{message}");
            }
            other => panic!("expected a decode error, got {other:?}"),
        }
        assert!(decode::<RawListPage>(br#"{"issues": [{"a": 1"#, "application/json").is_err());
    }

    #[test]
    fn raw_pages_read_null_and_absent_fields_as_empty() {
        let page: RawListPage = decode(br#"{"issues": null}"#, "application/json").unwrap();
        assert_eq!((page.item_count(), page.next_cursor()), (0, None));
        let page: RawListPage = decode(br"{}", "application/json").unwrap();
        assert_eq!(page.item_count(), 0);
    }
}
