//! A page's cursor and item count, read from its text without decoding
//! its items: a listing asks for the next page with them, then decodes
//! this one while the next is on its way.
//!
//! The scan is serde_json's own (the items skipped as `IgnoredAny`), so it
//! reads the document exactly as the full decode does; any text it cannot
//! read is left for the full decode to refuse with its path.

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// What a page says of what follows it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PagePeek {
    pub cursor: Option<String>,
    /// The items of its list (`null` or absent: none).
    pub items: usize,
}

/// The cursor and the number of items under `items_key` of the JSON page
/// `bytes`, or `None` when the text is not such a page (not an object, a
/// field of the wrong type, a field twice, not JSON).
pub fn peek_page(bytes: &[u8], items_key: &str) -> Option<PagePeek> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let peek = PeekSeed { items_key }.deserialize(&mut de).ok()?;
    de.end().ok()?;
    Some(peek)
}

/// The cursor read back from the end of the page's text, the page not
/// scanned: a scan of a page of 1,000 (3 MB) takes 2–3 ms, and it lay on
/// the path from one page to the next request, where the server waits.
/// The cursor is found among the page's last members when only scalars
/// follow it (`…,"cursor":"abc"}`, or a report's `…,"cursor":"abc",
/// "total":1098,"totalCode":646}`), as the demo writes its pages. Only a
/// non-empty string without escapes is read; anything else (`null`, an
/// object or array after it, an escape) gives `None`, for [`peek_page`]
/// to read.
///
/// In valid JSON this is the page's own cursor: the last `}` closes the
/// page, the members walked back over are the page's, and a quote not
/// after a backslash delimits a string (each string read is checked to be
/// after a `:`, a `,` or a `{`). Of text that is not valid JSON it may
/// read a cursor the decode then refuses; the caller checks the two agree.
pub fn tail_cursor(bytes: &[u8]) -> Option<&str> {
    // The members a page may end with after its cursor (a report's totals).
    const MEMBERS_AFTER: usize = 8;
    let mut rest = trim_end(trim_end(bytes).strip_suffix(b"}")?);
    for _ in 0..=MEMBERS_AFTER {
        let (before_value, value) = scalar_before(rest)?;
        let key_end = trim_end(trim_end(before_value).strip_suffix(b":")?);
        let (before_key, key) = plain_string_before(key_end)?;
        let before = trim_end(before_key);
        if key == b"cursor" {
            return match (value, before.last()) {
                (Scalar::Text(text), Some(b',' | b'{')) if !text.is_empty() => {
                    std::str::from_utf8(text).ok()
                }
                _ => None,
            };
        }
        rest = trim_end(before.strip_suffix(b",")?);
    }
    None
}

fn trim_end(b: &[u8]) -> &[u8] {
    let keep = b
        .iter()
        .rposition(|c| !matches!(c, b' ' | b'\t' | b'\n' | b'\r'))
        .map_or(0, |k| k + 1);
    &b[..keep]
}

/// A scalar value: a string (its content) or another (a number, `true`,
/// `false`, `null`).
enum Scalar<'a> {
    Text(&'a [u8]),
    Other,
}

/// The scalar that ends `text`, and the text before it.
fn scalar_before(text: &[u8]) -> Option<(&[u8], Scalar<'_>)> {
    if text.ends_with(b"\"") {
        let (before, content) = plain_string_before(text)?;
        return Some((before, Scalar::Text(content)));
    }
    for literal in [&b"true"[..], b"false", b"null"] {
        if let Some(before) = text.strip_suffix(literal) {
            return Some((before, Scalar::Other));
        }
    }
    let start = text
        .iter()
        .rposition(|c| !matches!(c, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))
        .map_or(0, |k| k + 1);
    (start < text.len()).then(|| (&text[..start], Scalar::Other))
}

/// The string that ends `text` when it holds no escape or control
/// character: the text before it, and its content.
fn plain_string_before(text: &[u8]) -> Option<(&[u8], &[u8])> {
    let inner_end = text.strip_suffix(b"\"")?;
    let open = memchr::memrchr(b'"', inner_end)?;
    let content = &inner_end[open + 1..];
    if content.iter().any(|&c| c == b'\\' || c < 0x20) {
        return None;
    }
    Some((&inner_end[..open], content))
}

struct PeekSeed<'k> {
    items_key: &'k str,
}

impl<'de> DeserializeSeed<'de> for PeekSeed<'_> {
    type Value = PagePeek;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<PagePeek, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for PeekSeed<'_> {
    type Value = PagePeek;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a page")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<PagePeek, A::Error> {
        let mut cursor: Option<Option<String>> = None;
        let mut items: Option<usize> = None;
        while let Some(key) = map.next_key_seed(KeySeed {
            items_key: self.items_key,
        })? {
            match key {
                Key::Cursor if cursor.is_some() => {
                    return Err(de::Error::duplicate_field("cursor"));
                }
                Key::Cursor => cursor = Some(map.next_value()?),
                Key::Items if items.is_some() => return Err(de::Error::custom("duplicate items")),
                Key::Items => items = Some(map.next_value_seed(CountItems)?),
                Key::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(PagePeek {
            cursor: cursor.flatten(),
            items: items.unwrap_or(0),
        })
    }
}

enum Key {
    Cursor,
    Items,
    Other,
}

struct KeySeed<'k> {
    items_key: &'k str,
}

impl<'de> DeserializeSeed<'de> for KeySeed<'_> {
    type Value = Key;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Key, D::Error> {
        d.deserialize_str(self)
    }
}

impl Visitor<'_> for KeySeed<'_> {
    type Value = Key;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a field name")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Key, E> {
        Ok(if v == "cursor" {
            Key::Cursor
        } else if v == self.items_key {
            Key::Items
        } else {
            Key::Other
        })
    }
}

/// An array's length, its elements skipped; `null` counts none.
struct CountItems;

impl<'de> DeserializeSeed<'de> for CountItems {
    type Value = usize;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<usize, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for CountItems {
    type Value = usize;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array of items")
    }
    fn visit_unit<E: de::Error>(self) -> Result<usize, E> {
        Ok(0)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<usize, A::Error> {
        let mut n = 0;
        while seq.next_element::<IgnoredAny>()?.is_some() {
            n += 1;
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use findings_model::ListIssuesResponse;

    /// The peek reads what the full decode reads, wherever the fields are.
    #[test]
    fn the_peek_reads_the_cursor_and_count_the_decode_reads() {
        let pages = [
            r#"{"issues":[{"issue":{"id":"1","cursor":"inner"}},{}],"cursor":"c2"}"#,
            r#"{"cursor":"c\"2\u00e9","issues":[{"cursor":"x"}]}"#,
            r#"{"issues":null,"cursor":null}"#,
            r#"{"other":{"cursor":"no","issues":[1,2,3]}}"#,
            r#" { "issues" : [ {} , {} , {} ] } "#,
        ];
        for page in pages {
            let peek = peek_page(page.as_bytes(), "issues").unwrap();
            let full: ListIssuesResponse = findings_base::json::decode(page.as_bytes()).unwrap();
            assert_eq!(peek.cursor, full.cursor, "{page}");
            assert_eq!(peek.items, full.issues.len(), "{page}");
        }
    }

    /// The cursor read from the end is the one the decode reads; what the
    /// end does not plainly give is left to the scan.
    #[test]
    fn the_cursor_read_from_the_end_is_the_decodes_or_none() {
        let read = [
            r#"{"issues":[{"issue":{"id":"1"}}],"cursor":"c2"}"#,
            "{\"issues\":[{}] ,\n \"cursor\" : \"c=/+2\" }\n",
            r#"{"cursor":"only"}"#,
            r#"{"issues":[{}],"cursor":"c2","t":-1.5e3,"b":true,"n":null,"s":"x}"}"#,
        ];
        for page in read {
            let full: ListIssuesResponse = findings_base::json::decode(page.as_bytes()).unwrap();
            assert_eq!(
                tail_cursor(page.as_bytes()),
                full.cursor.as_deref(),
                "{page}"
            );
        }
        // A report ends with its totals, after the cursor.
        let report = r#"{"findings":[{"id":"1"}],"cursor":"r2","total":1098,"totalCode":"646","totalSca":304,"totalSecrets":148}"#;
        let full: findings_model::ReportResponse =
            findings_base::json::decode(report.as_bytes()).unwrap();
        assert_eq!(full.cursor.as_deref(), Some("r2"));
        assert_eq!(tail_cursor(report.as_bytes()), full.cursor.as_deref());
        let left = [
            r#"{"issues":[],"cursor":null}"#,
            r#"{"issues":[],"cursor":""}"#,
            r#"{"cursor":"c\"2","issues":[{}]}"#,
            r#"{"issues":[{}],"cursor":"c\"2"}"#,
            r#"{"issues":[{}],"cursor":"a\u0041"}"#,
            r#"{"issues":[{"x":"y","cursor":"inner"}]}"#,
            r#"{"issues":[{}],"xcursor":"c2"}"#,
            r#"{"issues":[{}],"other":"\"cursor\":\"c2"}"#,
            r#"{"issues":[{}],"cursor":"c2","after":{"a":1}}"#,
            r#"{"issues":[{}],"cursor":"c2","after":[1]}"#,
            r#"{"issues":[{}],"cursor":7,"total":1}"#,
            r#"{"issues":[{}],"x":"a\",\"cursor\":\"c2","t":1}"#,
            r#"["cursor","c2"]"#,
            "",
        ];
        for page in left {
            assert_eq!(tail_cursor(page.as_bytes()), None, "{page}");
        }
    }

    #[test]
    fn what_is_not_a_page_is_left_to_the_decode() {
        for bad in [
            r"[1]",
            r#"{"cursor":7}"#,
            r#"{"cursor":"a","cursor":"b"}"#,
            r#"{"issues":[],"issues":[{}]}"#,
            r#"{"issues":{}}"#,
            r#"{"issues":[{"a":1}"#,
            r#"{"cursor":"a"} trailing"#,
        ] {
            assert_eq!(peek_page(bad.as_bytes(), "issues"), None, "{bad}");
            assert!(findings_base::json::decode::<ListIssuesResponse>(bad.as_bytes()).is_err());
        }
    }
}
