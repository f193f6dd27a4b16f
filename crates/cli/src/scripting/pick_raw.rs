//! `--json FIELDS` without jq: the fields picked straight from the item's
//! JSON text, each value copied as it came (whitespace outside strings
//! dropped), never decoded into values and encoded again; the other
//! members are skipped unread. The same object `shape::apply` then
//! `shape::pick` would give: a List issues item's finding lifted to the
//! top, the wrapper's counters beside it, the fields in the order asked,
//! one missing as `null`.

use super::shape::{LIFTED, Shape};
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::fmt;

/// The item in `json` as `{"field": value, ...}` for `fields`, compact.
pub(super) fn pick(json: &[u8], shape: &Shape, fields: &[String]) -> Result<Vec<u8>, String> {
    let lift = !shape.wrapper.is_empty();
    let top = members(json, fields, lift)?;
    // A wrapper's finding, when the shape lifts it (and it is an object).
    let lifted = top
        .lifted
        .and_then(|raw| members(raw.get().as_bytes(), fields, false).ok());
    let mut out = Vec::with_capacity(32 * fields.len() + 2);
    out.push(b'{');
    for (k, field) in fields.iter().enumerate() {
        if k > 0 {
            out.push(b',');
        }
        serde_json::to_writer(&mut out, field).map_err(|e| e.to_string())?;
        out.push(b':');
        let from_finding = lifted.as_ref().and_then(|f| f.values[k]);
        // The wrapper's own key is not one of the item's fields.
        let from_top = top.values[k].filter(|_| !(lift && field == LIFTED));
        match from_finding.or(from_top) {
            Some(raw) => out.extend_from_slice(compact(raw.get()).as_bytes()),
            None => out.extend_from_slice(b"null"),
        }
    }
    out.push(b'}');
    Ok(out)
}

/// What an object holds of the fields asked (by their place), and the
/// finding to lift.
struct Found<'de> {
    values: Vec<Option<&'de RawValue>>,
    lifted: Option<&'de RawValue>,
}

fn members<'de>(json: &'de [u8], fields: &[String], lift: bool) -> Result<Found<'de>, String> {
    let mut de = serde_json::Deserializer::from_slice(json);
    let found = Wanted { fields, lift }
        .deserialize(&mut de)
        .map_err(|e| e.to_string())?;
    de.end().map_err(|e| e.to_string())?;
    Ok(found)
}

/// Reads an object, keeping the members asked for as text and skipping
/// the others unread.
struct Wanted<'f> {
    fields: &'f [String],
    lift: bool,
}

impl<'de> DeserializeSeed<'de> for Wanted<'_> {
    type Value = Found<'de>;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Found<'de>, D::Error> {
        de.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Wanted<'_> {
    type Value = Found<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Found<'de>, A::Error> {
        let mut found = Found {
            values: vec![None; self.fields.len()],
            lifted: None,
        };
        while let Some(key) = map.next_key_seed(Key)? {
            if self.lift && key == LIFTED {
                found.lifted = Some(map.next_value()?);
                continue;
            }
            match self.fields.iter().position(|f| *f == key) {
                Some(k) => found.values[k] = Some(map.next_value()?),
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(found)
    }
}

/// A member's name: borrowed from the text unless it has escapes.
struct Key;

impl<'de> DeserializeSeed<'de> for Key {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Cow<'de, str>, D::Error> {
        de.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a member's name")
    }

    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Borrowed(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(v.to_owned()))
    }
}

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
