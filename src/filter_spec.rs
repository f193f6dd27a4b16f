//! The filter objects of the three read operations, field by field.
//!
//! Each operation's filter object is described by a schema of its exact spec
//! field names and their kinds. `FIELD=VALUE` pairs (from `--filter`, the
//! friendly flags, the TUI's filter form and `:filter`) are checked against
//! it (an unknown field or an impossible value is an error that names the
//! valid ones), assembled into JSON and decoded into the model's filter type,
//! so every field of the spec is reachable and nothing invalid is ever sent.

/// A field or value that cannot be sent, with a message naming the valid ones.
#[derive(Debug, Clone, PartialEq)]
pub struct UsageError(pub String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
use crate::api::model::*;
use chrono::{DateTime, Duration, NaiveDate, Utc};
use serde_json::{Map, Value};

#[derive(Debug, Clone, Copy)]
pub enum FieldKind {
    /// Array of free strings; repeat the flag for more values.
    Strings,
    /// Array of enum values.
    Enums(fn() -> Vec<&'static str>),
    /// One enum value.
    Enum(fn() -> Vec<&'static str>),
    Bool,
    /// An RFC 3339 time (also `YYYY-MM-DD`, or `7d`/`12h`/`2w` ago).
    Time,
    /// One free string.
    Text,
}

#[derive(Debug)]
pub struct Field {
    /// Exact spec name; `a.b` addresses field `b` of object `a`.
    pub name: &'static str,
    pub kind: FieldKind,
}

const fn f(name: &'static str, kind: FieldKind) -> Field {
    Field { name, kind }
}

macro_rules! values_of {
    ($t:ty) => {{
        fn values() -> Vec<&'static str> {
            <$t>::ALL.iter().map(|v| v.as_wire()).collect()
        }
        values
    }};
}

use FieldKind::*;

pub const LIST_FILTER: &[Field] = &[
    f("ids", Strings),
    f("repositoryNames", Strings),
    f("repositoryIds", Strings),
    f("repositoryTags", Strings),
    f("refs", Strings),
    f("repositoryRefIds", Strings),
    f("aiSensitivities", Enums(values_of!(Sensitivity))),
    f("teamNames", Strings),
    f("policySlugs", Strings),
    f("rules", Strings),
    f("ruleIds", Strings),
    f("rulesets", Strings),
    f("categories", Strings),
    f("dependencies", Strings),
    f("cves", Strings),
    f("issueParentIds", Strings),
    f("secretTypes", Strings),
    f("advisoryIds", Strings),
    f("filePaths", Strings),
    f("since", Time),
    f("until", Time),
    f("issueTypes", Enums(values_of!(IssueType))),
    f("excludeHistorical", Bool),
    f("onPrimaryBranch", Bool),
    f("includeTicketed", Bool),
    f("includeAiMemoryRendered", Bool),
    f("includeArchived", Bool),
    f("hasInFlightAutofixPr", Bool),
    f("aiMemoryWillFlipVerdict", Text),
    f("aiMemoryReferenced", Text),
    f("aiMemoryRendered", Text),
    f("memoryIdInScope", Text),
];

pub const REPORT_FILTERS: &[Field] = &[
    f("timePeriod.since", Time),
    f("timePeriod.until", Time),
    f("timeBucketSize", Enum(values_of!(TimeBucketSize))),
    f("findingTypes", Enums(values_of!(FindingType))),
    f("findingSeverities", Enums(values_of!(FindingSeverity))),
    f("projects", Strings),
    f("tags", Strings),
    f("confidence", Enums(values_of!(FindingConfidence))),
    f("reachability", Enums(values_of!(FindingReachability))),
    f("validity", Enums(values_of!(FindingValidity))),
    f("teams", Strings),
    f("ruleIds", Strings),
    f("aiVerdicts", Enums(values_of!(Verdict))),
    f("deploymentStatuses", Enums(values_of!(DeploymentStatus))),
    f("publicExposures", Enums(values_of!(PublicExposure))),
    f("findingCategories", Strings),
    f("projectIds", Strings),
];

pub const SEARCH_FILTERS: &[Field] = &[
    f("ids", Strings),
    f("actions", Strings),
    f("workflowIds", Strings),
    f("identities", Strings),
    f("triggerSources", Strings),
    f("projectIds", Strings),
    f("refIds", Strings),
    f("workflowJobIds", Strings),
    f("titleQuery", Text),
    f("descriptionQuery", Text),
    f("reasoningQuery", Text),
    f("filePathQuery", Text),
    f("createdAt.startAt", Time),
    f("createdAt.endAt", Time),
    f("lastDetectedAt.startAt", Time),
    f("lastDetectedAt.endAt", Time),
    f("triagedAt.startAt", Time),
    f("triagedAt.endAt", Time),
];

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
        let field = schema.iter().find(|f| f.name == name).ok_or_else(|| {
            let names: Vec<&str> = schema.iter().map(|f| f.name).collect();
            let hint = schema
                .iter()
                .find(|f| f.name.eq_ignore_ascii_case(name))
                .map(|f| format!(" (did you mean {}?)", f.name))
                .unwrap_or_default();
            UsageError(format!(
                "unknown filter field {name:?} for {operation}{hint}; valid fields: {}",
                names.join(", ")
            ))
        })?;
        let value = parse_value(field, raw)?;
        insert(&mut root, field, value)?;
    }
    serde_json::from_value(Value::Object(root))
        .map(Some)
        .map_err(|e| UsageError(format!("invalid filter for {operation}: {e}")))
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
    match field.kind {
        Strings | Enums(_) => {
            if let Value::Array(list) = target.entry(leaf).or_insert_with(|| Value::Array(vec![])) {
                list.push(value);
            }
        }
        _ => {
            if target.insert(leaf.to_owned(), value).is_some() {
                return Err(UsageError(format!(
                    "filter field {} takes one value but was given twice",
                    field.name
                )));
            }
        }
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
                "filter field {} takes true or false, not {value:?}",
                field.name
            ))),
        },
        Time => parse_time(value)
            .map(|t| Value::String(t.to_rfc3339()))
            .map_err(|e| UsageError(format!("filter field {}: {e}", field.name))),
        Enums(values) | Enum(values) => {
            let values = values();
            enum_value(&values, value)
                .map(Value::String)
                .ok_or_else(|| {
                    UsageError(format!(
                        "filter field {}: {value:?} is not one of {}",
                        field.name,
                        values.join(", ")
                    ))
                })
        }
    }
}

/// Finds an enum value by its exact name or by its part after the common
/// prefix (`sca` for `ISSUE_TYPE_SCA`), case-insensitively.
pub fn enum_value(values: &[&'static str], input: &str) -> Option<String> {
    let wanted = input.trim().replace('-', "_").to_ascii_uppercase();
    let prefix = common_prefix(values);
    values
        .iter()
        .find(|v| **v == wanted || v.strip_prefix(prefix.as_str()) == Some(wanted.as_str()))
        .map(|v| (*v).to_owned())
}

fn common_prefix(values: &[&str]) -> String {
    let Some(first) = values.first() else {
        return String::new();
    };
    let mut len = first.len();
    for v in &values[1..] {
        len = first
            .bytes()
            .zip(v.bytes())
            .take(len)
            .take_while(|(a, b)| a == b)
            .count();
    }
    // Cut back to the last '_' so "SEVERITY_" not "SEVERITY_L" is the prefix.
    first[..len]
        .rfind('_')
        .map_or(String::new(), |i| first[..=i].to_owned())
}

/// An RFC 3339 time, a date (`2026-01-31`, midnight UTC), or a span back
/// from now (`30m`, `12h`, `7d`, `2w`).
pub fn parse_time(s: &str) -> Result<DateTime<Utc>, String> {
    if let Ok(t) = DateTime::parse_from_rfc3339(s) {
        return Ok(t.with_timezone(&Utc));
    }
    if let Ok(d) = NaiveDate::parse_from_str(s, "%Y-%m-%d")
        && let Some(t) = d.and_hms_opt(0, 0, 0)
    {
        return Ok(t.and_utc());
    }
    let (num, unit) = s.split_at(s.len().saturating_sub(1));
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
            return Ok(Utc::now() - span);
        }
    }
    Err(format!(
        "{s:?} is not a time: use RFC 3339 (2026-01-31T12:00:00Z), a date (2026-01-31) or a span ago (7d, 12h, 2w)"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    #[test]
    fn every_list_filter_field_is_reachable() {
        for field in LIST_FILTER {
            let value = match field.kind {
                Strings | Text => "x",
                Bool => "true",
                Time => "2026-01-01",
                Enums(v) | Enum(v) => v()[0],
            };
            let built: ListIssuesFilter =
                build(LIST_FILTER, "issues", &pairs(&[(field.name, value)]))
                    .unwrap()
                    .unwrap();
            assert!(!built.is_empty(), "{} did not reach the filter", field.name);
        }
    }

    #[test]
    fn every_report_and_search_field_is_reachable() {
        for (schema, op) in [(REPORT_FILTERS, "report"), (SEARCH_FILTERS, "search")] {
            for field in schema {
                let value = match field.kind {
                    Strings | Text => "x",
                    Bool => "true",
                    Time => "2026-01-01",
                    Enums(v) | Enum(v) => v()[0],
                };
                let json = if op == "report" {
                    let r: ReportFilters = build(schema, op, &pairs(&[(field.name, value)]))
                        .unwrap()
                        .unwrap();
                    serde_json::to_value(r).unwrap()
                } else {
                    let s: SearchFilters = build(schema, op, &pairs(&[(field.name, value)]))
                        .unwrap()
                        .unwrap();
                    serde_json::to_value(s).unwrap()
                };
                let top = field.name.split('.').next().unwrap();
                assert!(
                    json.get(top).is_some(),
                    "{op}: {} did not reach the filter: {json}",
                    field.name
                );
            }
        }
    }

    #[test]
    fn arrays_accumulate_and_enums_accept_short_names() {
        let f: ListIssuesFilter = build(
            LIST_FILTER,
            "issues",
            &pairs(&[
                ("issueTypes", "sca"),
                ("issueTypes", "ISSUE_TYPE_SECRETS"),
                ("refs", "main"),
                ("refs", "dev"),
            ]),
        )
        .unwrap()
        .unwrap();
        assert_eq!(f.issue_types, vec![IssueType::Sca, IssueType::Secrets]);
        assert_eq!(f.refs, vec!["main", "dev"]);
    }

    #[test]
    fn unknown_fields_and_bad_values_name_the_valid_ones() {
        let e = build::<ListIssuesFilter>(LIST_FILTER, "issues", &pairs(&[("repoName", "x")]))
            .unwrap_err();
        assert!(
            e.0.contains("unknown filter field \"repoName\"") && e.0.contains("repositoryNames"),
            "{}",
            e.0
        );
        let e = build::<ListIssuesFilter>(LIST_FILTER, "issues", &pairs(&[("issueTypes", "java")]))
            .unwrap_err();
        assert!(e.0.contains("ISSUE_TYPE_SCA"), "{}", e.0);
        let e = build::<ListIssuesFilter>(
            LIST_FILTER,
            "issues",
            &pairs(&[("includeArchived", "maybe")]),
        )
        .unwrap_err();
        assert!(e.0.contains("true or false"), "{}", e.0);
        let e = build::<ListIssuesFilter>(LIST_FILTER, "issues", &pairs(&[("since", "yesterday")]))
            .unwrap_err();
        assert!(e.0.contains("RFC 3339"), "{}", e.0);
        let e = build::<ListIssuesFilter>(
            LIST_FILTER,
            "issues",
            &pairs(&[("since", "1d"), ("since", "2d")]),
        )
        .unwrap_err();
        assert!(e.0.contains("twice"), "{}", e.0);
    }

    #[test]
    fn enum_prefixes_are_exact() {
        let v = values_of!(FindingReachability)();
        assert_eq!(
            enum_value(&v, "reachable").as_deref(),
            Some("FINDING_REACHABILITY_REACHABLE")
        );
        assert_eq!(
            enum_value(&v, "always-reachable").as_deref(),
            Some("FINDING_REACHABILITY_ALWAYS_REACHABLE")
        );
        assert_eq!(enum_value(&v, "bogus"), None);
    }

    #[test]
    fn times_in_three_forms() {
        assert_eq!(
            parse_time("2026-01-31").unwrap().to_rfc3339(),
            "2026-01-31T00:00:00+00:00"
        );
        assert!(parse_time("2026-01-31T12:00:00+02:00").is_ok());
        let week = parse_time("7d").unwrap();
        assert!((Utc::now() - week).num_days() == 7);
        assert!(parse_time("7x").is_err());
    }
}
