//! The filter objects of the three read operations, field by field.
//!
//! Each operation's filter object is described by a schema of its exact spec
//! field names and their kinds (`schemas`). `FIELD=VALUE` pairs (from
//! `--filter`, the friendly flags, the TUI's filter form and `:filter`) are
//! checked against it (an unknown field or an impossible value is an error
//! that names the valid ones), assembled into JSON and decoded into the
//! model's filter type, so every field of the spec is reachable and nothing
//! invalid is ever sent.
//!
//! Enum values have one vocabulary everywhere ([`wire::find_name`]): the
//! label a table shows (`critical`, `provisionally ignored`), the wire name
//! (`SEVERITY_CRITICAL`) or the wire name without its prefix; messages,
//! completions and the form list the labels as typed
//! ([`wire::typed_name`]).

mod advisory;
mod complete;
mod known;
mod one_type;
mod schemas;
mod suggest;
mod unknown;

pub use advisory::{
    Advisories, Advisory, AliasSearch, AliasStep, Resolved, canonical as canonical_advisory,
    named_in,
};
pub use complete::{complete, complete_with, values_for};
pub use known::{
    LIST_NAMES, NamedField, REPORT_NAMES, SEARCH_NAMES, check_known, resolve_known, rule_ids,
};
pub use one_type::{LIST_ONE_TYPE, OneType, reachability_note, scope_types};
pub use schemas::{LIST_FILTER, REPORT_FILTERS, SEARCH_FILTERS};
pub use suggest::{closest, did_you_mean, matching, nearest};
pub use unknown::Unknown;

use chrono::{DateTime, Duration, NaiveDate, Utc};
use findings_model::wire;
use serde_json::{Map, Value};

/// A field or value that cannot be sent, with a message naming the valid ones.
#[derive(Debug, Clone, PartialEq)]
pub struct UsageError(pub String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// An enum's vocabulary: `(wire name, label)` of every value that may be
/// sent.
pub type Names = fn() -> Vec<(&'static str, &'static str)>;

#[derive(Debug, Clone, Copy)]
pub enum FieldKind {
    /// Array of free strings; repeat the flag for more values.
    Strings,
    /// Array of enum values.
    Enums(Names),
    /// One enum value.
    Enum(Names),
    Bool,
    /// An RFC 3339 time (also `YYYY-MM-DD`, or `7d`/`12h`/`2w` ago).
    Time,
    /// One free string.
    Text,
}

impl FieldKind {
    /// Whether the field takes many values (repeat it, or commas in the form).
    pub fn is_list(&self) -> bool {
        matches!(self, Strings | Enums(_))
    }
}

#[derive(Debug)]
pub struct Field {
    /// Exact spec name; `a.b` addresses field `b` of object `a`.
    pub name: &'static str,
    pub kind: FieldKind,
}

use FieldKind::*;

/// Splits `FIELD=VALUE`.
pub fn split_pair(raw: &str) -> Result<(String, String), UsageError> {
    match raw.split_once('=') {
        Some((field, value)) if !field.trim().is_empty() => {
            Ok((field.trim().to_owned(), value.to_owned()))
        }
        _ => Err(UsageError(format!(
            "--filter {raw:?}: expected FIELD=VALUE, e.g. --filter repositoryNames=acme/payments-api"
        ))),
    }
}

/// The values of a list typed as one text (`a,b`): split at each comma,
/// each trimmed, empties dropped. `\,` is a comma inside a value (a
/// backslash before anything else stays as it is). Every list the command
/// line and the TUI take is read this way, given once or repeated.
pub fn split_list(text: &str) -> Vec<String> {
    let mut values = Vec::new();
    let mut current = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&',') => {
                current.push(',');
                chars.next();
            }
            ',' => values.push(std::mem::take(&mut current)),
            c => current.push(c),
        }
    }
    values.push(current);
    values
        .into_iter()
        .map(|v| v.trim().to_owned())
        .filter(|v| !v.is_empty())
        .collect()
}

/// `values` as one text [`split_list`] reads back: joined by `, `, a comma
/// inside a value written `\,`.
pub fn join_list<S: AsRef<str>>(values: &[S]) -> String {
    values
        .iter()
        .map(|v| v.as_ref().replace(',', "\\,"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The kind of field `name` of `schema`, if it has one.
pub fn kind_of(schema: &[Field], name: &str) -> Option<FieldKind> {
    schema.iter().find(|f| f.name == name).map(|f| f.kind)
}

fn field<'a>(schema: &'a [Field], name: &str, operation: &str) -> Result<&'a Field, UsageError> {
    schema.iter().find(|f| f.name == name).ok_or_else(|| {
        let names: Vec<&str> = schema.iter().map(|f| f.name).collect();
        let hint = did_you_mean(&names, name)
            .map(|d| format!(" ({d})"))
            .unwrap_or_default();
        UsageError(format!(
            "unknown filter field {name:?} for {operation}{hint}; valid fields: {}",
            names.join(", ")
        ))
    })
}

/// Builds the filter object from `(field, value)` pairs, in order. `None`
/// when no pair was given.
pub fn build<T: serde::de::DeserializeOwned>(
    schema: &[Field],
    operation: &str,
    pairs: &[(String, String)],
) -> Result<Option<T>, UsageError> {
    if pairs.is_empty() {
        return Ok(None);
    }
    let mut root = Map::new();
    for (name, raw) in pairs {
        let field = field(schema, name, operation)?;
        let value = parse_value(field, raw)?;
        insert(&mut root, field, value)?;
    }
    findings_base::json::from_value(&Value::Object(root))
        .map(Some)
        .map_err(|e| UsageError(format!("invalid filter for {operation}: {}", e.message)))
}

/// Checks the values of a friendly flag that sets `name` (`--severity` sets
/// `severities`), so a mistake names the flag and the values it takes.
pub fn check_flag(
    schema: &[Field],
    name: &str,
    flag: &str,
    values: &[String],
) -> Result<(), UsageError> {
    let field = field(schema, name, flag)?;
    for value in values {
        if let Err(UsageError(e)) = parse_value(field, value) {
            // The reason without the field's name, which the flag replaces.
            let reason = e.split_once(": ").map_or(e.as_str(), |(_, r)| r);
            return Err(UsageError(format!("{flag}: {reason}")));
        }
    }
    Ok(())
}

fn insert(root: &mut Map<String, Value>, field: &Field, value: Value) -> Result<(), UsageError> {
    let (parent, leaf) = match field.name.split_once('.') {
        Some((p, l)) => (Some(p), l),
        None => (None, field.name),
    };
    let target = match parent {
        None => root,
        Some(p) => match root.entry(p).or_insert_with(|| Value::Object(Map::new())) {
            Value::Object(m) => m,
            _ => unreachable!("parents are only ever objects"),
        },
    };
    if field.kind.is_list() {
        if let Value::Array(list) = target.entry(leaf).or_insert_with(|| Value::Array(vec![])) {
            list.push(value);
        }
    } else if target.insert(leaf.to_owned(), value).is_some() {
        return Err(UsageError(format!(
            "filter field {} takes one value but was given twice",
            field.name
        )));
    }
    Ok(())
}

fn parse_value(field: &Field, raw: &str) -> Result<Value, UsageError> {
    let value = raw.trim();
    match field.kind {
        Strings | Text => {
            if value.is_empty() {
                return Err(UsageError(format!(
                    "filter field {} needs a value",
                    field.name
                )));
            }
            Ok(Value::String(value.to_owned()))
        }
        Bool => match value.to_ascii_lowercase().as_str() {
            "true" | "yes" | "on" | "1" => Ok(Value::Bool(true)),
            "false" | "no" | "off" | "0" => Ok(Value::Bool(false)),
            _ => Err(UsageError(format!(
                "filter field {}: takes true or false, not {value:?}",
                field.name
            ))),
        },
        Time => parse_time(value)
            .map(|t| Value::String(t.to_rfc3339()))
            .map_err(|e| UsageError(format!("filter field {}: {e}", field.name))),
        Enums(names) | Enum(names) => {
            let names = names();
            enum_value(&names, value)
                .map(|w| Value::String(w.to_owned()))
                .ok_or_else(|| {
                    let typed = typed_names(&names);
                    let hint = did_you_mean(&typed, value)
                        .map(|d| format!(" ({d})"))
                        .unwrap_or_default();
                    UsageError(format!(
                        "filter field {}: {value:?} is not one of {}{hint}",
                        field.name,
                        typed.join(", ")
                    ))
                })
        }
    }
}

/// The wire name of the value `input` names ([`wire::find_name`]).
pub fn enum_value(names: &[(&'static str, &'static str)], input: &str) -> Option<&'static str> {
    wire::find_name(names, input).map(|k| names[k].0)
}

/// The values of a vocabulary as one types them (`provisionally-ignored`).
pub fn typed_names(names: &[(&'static str, &'static str)]) -> Vec<String> {
    names
        .iter()
        .map(|(_, label)| wire::typed_name(label))
        .collect()
}

/// The fields `current` sets, as the `(FIELD, VALUE)` pairs that build it
/// again, in schema order: lists one pair per value, enum values by their
/// typed label. What the form shows, `:filter` adds to and the status line
/// sums up.
pub fn pairs_of<T: serde::Serialize>(schema: &[Field], current: &T) -> Vec<(String, String)> {
    let json = findings_base::json::to_value(current).unwrap_or_default();
    let mut pairs = Vec::new();
    for field in schema {
        let Some(v) = field.name.split('.').try_fold(&json, |v, part| v.get(part)) else {
            continue;
        };
        let items = match v {
            Value::Array(items) => items.iter().collect(),
            Value::Null => vec![],
            one => vec![one],
        };
        for item in items {
            let text = match item {
                Value::String(s) => match field.kind {
                    Enums(names) | Enum(names) => shown(&names(), s),
                    _ => s.clone(),
                },
                other => other.to_string(),
            };
            pairs.push((field.name.to_owned(), text));
        }
    }
    pairs
}

/// An enum value as typed: its label's typed form, or the wire name when the
/// vocabulary does not know it.
fn shown(names: &[(&'static str, &'static str)], wire_name: &str) -> String {
    names
        .iter()
        .find(|(w, _)| *w == wire_name)
        .map_or_else(|| wire_name.to_owned(), |(_, l)| wire::typed_name(l))
}

/// An RFC 3339 time, a date (`2026-01-31`, midnight UTC), or a span back
/// from now (`30m`, `12h`, `7d`, `2w`).
pub fn parse_time(s: &str) -> Result<DateTime<Utc>, String> {
    match parse_point(s)? {
        Point::At(t) => Ok(t),
        Point::Span(span) => Ok(crate::clock::now()? - span),
    }
}

/// A time as typed: a fixed one, or a span whose direction from now the
/// caller decides (back for `--since`, ahead for `triage --until`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Point {
    At(DateTime<Utc>),
    Span(Duration),
}

/// An RFC 3339 time, a date (`2026-01-31`, midnight UTC), or a span
/// (`30m`, `12h`, `7d`, `2w`).
pub fn parse_point(s: &str) -> Result<Point, String> {
    if let Ok(t) = DateTime::parse_from_rfc3339(s) {
        return Ok(Point::At(t.with_timezone(&Utc)));
    }
    if let Ok(d) = NaiveDate::parse_from_str(s, "%Y-%m-%d")
        && let Some(t) = d.and_hms_opt(0, 0, 0)
    {
        return Ok(Point::At(t.and_utc()));
    }
    let cut = s.char_indices().last().map_or(0, |(i, _)| i);
    let (num, unit) = s.split_at(cut);
    if let Ok(n) = num.parse::<i64>()
        && n >= 0
    {
        let span = match unit {
            "m" => Duration::try_minutes(n),
            "h" => Duration::try_hours(n),
            "d" => Duration::try_days(n),
            "w" => Duration::try_weeks(n),
            _ => None,
        };
        if let Some(span) = span {
            return Ok(Point::Span(span));
        }
    }
    Err(format!(
        "{s:?} is not a time: use RFC 3339 (2026-01-31T12:00:00Z), a date (2026-01-31) or a span (7d, 12h, 2w)"
    ))
}

#[cfg(test)]
mod tests;
