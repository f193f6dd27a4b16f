//! `--json FIELDS` without jq: the fields picked straight from the item's
//! JSON text, each value copied as it came (whitespace outside strings
//! dropped), never decoded into values and encoded again. The same object
//! `shape::apply` then `shape::pick` would give: a List issues item's
//! finding lifted to the top, the wrapper's counters beside it, the fields
//! in the order asked, one missing as `null`.

use super::shape::Shape;
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::collections::HashMap;

/// An object's members, its values left as text.
type Members<'a> = HashMap<Cow<'a, str>, &'a RawValue>;

/// The item in `json` as `{"field": value, ...}` for `fields`, compact.
pub(super) fn pick(json: &[u8], shape: &Shape, fields: &[String]) -> Result<Vec<u8>, String> {
    let top: Members = serde_json::from_slice(json).map_err(|e| e.to_string())?;
    // A wrapper's finding, when the shape lifts it (and it is an object).
    let lifted: Option<Members> = if shape.wrapper.is_empty() {
        None
    } else {
        top.get(LIFTED)
            .and_then(|raw| serde_json::from_str::<Members>(raw.get()).ok())
    };
    let mut out = Vec::with_capacity(32 * fields.len() + 2);
    out.push(b'{');
    for (k, field) in fields.iter().enumerate() {
        if k > 0 {
            out.push(b',');
        }
        serde_json::to_writer(&mut out, field).map_err(|e| e.to_string())?;
        out.push(b':');
        let from_finding = lifted.as_ref().and_then(|f| f.get(field.as_str()));
        let from_top = match shape.wrapper.is_empty() {
            true => top.get(field.as_str()),
            // The wrapper's own key is not one of the item's fields.
            false if field == LIFTED => None,
            false => top.get(field.as_str()),
        };
        match from_finding.or(from_top) {
            Some(raw) => out.extend_from_slice(compact(raw.get()).as_bytes()),
            None => out.extend_from_slice(b"null"),
        }
    }
    out.push(b'}');
    Ok(out)
}

/// The key of the finding inside a List issues item (as `shape`).
const LIFTED: &str = "issue";

/// JSON text without the whitespace between its tokens (strings kept as
/// they are).
fn compact(raw: &str) -> Cow<'_, str> {
    let spaced = |c: char| matches!(c, ' ' | '\t' | '\n' | '\r');
    if !raw.contains(spaced) {
        return Cow::Borrowed(raw);
    }
    let mut out = String::with_capacity(raw.len());
    let (mut in_string, mut escaped) = (false, false);
    for c in raw.chars() {
        if in_string {
            out.push(c);
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
        } else if c == '"' {
            in_string = true;
            out.push(c);
        } else if !spaced(c) {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scripting::shape;

    /// What the jq route gives: `shape::apply` then `shape::pick`, written
    /// by jaq.
    fn through_jq(json: &str, shape: &Shape, fields: &[String]) -> serde_json::Value {
        let value = jaq_json::read::parse_single(json.as_bytes()).unwrap();
        let picked = shape::pick(&shape.apply(value), fields);
        let mut out = Vec::new();
        jaq_json::write::write(&mut out, &Default::default(), 0, &picked).unwrap();
        serde_json::from_slice(&out).unwrap()
    }

    #[test]
    fn picks_what_the_jq_route_picks_in_the_order_asked() {
        let item = r#"{"issue": {"id": "7", "severity": "SEVERITY_HIGH", "tags": ["a b", "c"],
            "nested": {"x": [1, 2.5e3, null]}, "message": "say \"hi\"\t there"},
            "reviewsCount": "3", "issue_extra": true}"#;
        let fields: Vec<String> = [
            "severity",
            "id",
            "reviewsCount",
            "nested",
            "tags",
            "message",
            "absent",
            "issue",
        ]
        .map(str::to_owned)
        .to_vec();
        let picked = pick(item.as_bytes(), &shape::LIST_ITEM, &fields).unwrap();
        let text = String::from_utf8(picked).unwrap();
        assert_eq!(
            text,
            r#"{"severity":"SEVERITY_HIGH","id":"7","reviewsCount":"3","nested":{"x":[1,2.5e3,null]},"tags":["a b","c"],"message":"say \"hi\"\t there","absent":null,"issue":null}"#
        );
        let same: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(same, through_jq(item, &shape::LIST_ITEM, &fields));
        // A shape with no wrapper reads the top level, `issue` included.
        let finding = r#"{"id": "9", "issue": 1}"#;
        let fields = vec!["id".to_owned(), "issue".to_owned()];
        let text = pick(finding.as_bytes(), &shape::FINDING, &fields).unwrap();
        assert_eq!(text, br#"{"id":"9","issue":1}"#);
        // Not an object: an error, as the jq route's.
        assert!(pick(b"[1]", &shape::FINDING, &fields).is_err());
    }
}
