//! One value against one schema of the published contract, read as a
//! protobuf-JSON server reads it: `null` is "not set" for a field (never an
//! array item or a map value), an int64 may come as a decimal string,
//! enum values are known ones (never `""`), times are RFC 3339.

use serde_json::Value;

/// The component schemas a `$ref` names.
pub(super) struct Components<'a>(pub &'a serde_json::Map<String, Value>);

impl<'a> Components<'a> {
    /// `schema` with its `$ref` followed (an unknown one is an open schema).
    fn resolve(&self, schema: &'a Value) -> &'a Value {
        match schema.get("$ref").and_then(Value::as_str) {
            Some(r) => r
                .strip_prefix("#/components/schemas/")
                .and_then(|name| self.0.get(name))
                .unwrap_or(&Value::Null),
            None => schema,
        }
    }

    /// The first place under `path` where `value` is not what `schema`
    /// says: the place and what it should have been, with what it was.
    pub(super) fn check(
        &self,
        schema: &'a Value,
        value: &Value,
        path: &str,
    ) -> Result<(), (String, String)> {
        if value.is_null() {
            return Ok(()); // a field set to null is not set
        }
        self.check_present(schema, value, path)
    }

    fn check_present(
        &self,
        schema: &'a Value,
        value: &Value,
        path: &str,
    ) -> Result<(), (String, String)> {
        let schema = self.resolve(schema);
        // `allOf: [{$ref}]` is how the contract refers to a message.
        if let Some(all) = schema.get("allOf").and_then(Value::as_array) {
            return all
                .iter()
                .try_for_each(|part| self.check_present(part, value, path));
        }
        let wrong = || Err((at(path), mismatch(schema, value)));
        match schema.get("type").and_then(Value::as_str) {
            Some("object") => {
                let Value::Object(fields) = value else {
                    return wrong();
                };
                let declared = schema.get("properties").and_then(Value::as_object);
                let map_values = schema.get("additionalProperties");
                for (key, v) in fields {
                    let here = format!("{path}.{key}");
                    if let Some(field) = declared.and_then(|d| d.get(key)) {
                        self.check(field, v, &here)?;
                    } else if let Some(item) = map_values.filter(|m| m.is_object()) {
                        self.check_present(item, v, &here)?;
                    }
                    // Other keys: not declared, ignored (as the model reads them).
                }
                Ok(())
            }
            Some("array") => {
                let Value::Array(items) = value else {
                    return wrong();
                };
                let item = schema.get("items").unwrap_or(&Value::Null);
                for (i, v) in items.iter().enumerate() {
                    self.check_present(item, v, &format!("{path}[{i}]"))?;
                }
                Ok(())
            }
            Some(_) => scalar(schema, value).map_err(|()| (at(path), mismatch(schema, value))),
            None => Ok(()), // an open schema
        }
    }
}

/// A place for a message: `.` for the whole body.
fn at(path: &str) -> String {
    if path.is_empty() {
        ".".into()
    } else {
        path.into()
    }
}

/// A scalar in JSON: the type, then the format's range or values.
fn scalar(schema: &Value, value: &Value) -> Result<(), ()> {
    match (schema.get("type").and_then(Value::as_str), value) {
        (Some("boolean"), Value::Bool(_)) => Ok(()),
        (Some("integer"), Value::Number(_) | Value::String(_)) => integer(schema, value),
        (Some("number"), Value::Number(_)) => Ok(()),
        (Some("number"), Value::String(s)) => float_text(s),
        (Some("string"), Value::String(s)) => text(schema, s),
        _ => Err(()),
    }
}

/// A path or query parameter (text) against its schema.
pub(super) fn check_text(schema: &Value, raw: &str) -> Result<(), String> {
    let ok = match schema.get("type").and_then(Value::as_str) {
        Some("boolean") => matches!(raw, "true" | "false"),
        Some("integer") => integer(schema, &Value::String(raw.into())).is_ok(),
        Some("number") => float_text(raw).is_ok(),
        _ => text(schema, raw).is_ok(),
    };
    if ok {
        Ok(())
    } else {
        Err(mismatch(schema, &Value::String(raw.into())))
    }
}

/// A string by its format: an enum's known values, an RFC 3339 time, an
/// int64 written as a string.
fn text(schema: &Value, s: &str) -> Result<(), ()> {
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        return values.iter().any(|v| v == s).then_some(()).ok_or(());
    }
    match schema.get("format").and_then(Value::as_str) {
        Some("date-time") => chrono::DateTime::parse_from_rfc3339(s)
            .map(drop)
            .map_err(drop),
        Some("int64") => s.parse::<i64>().map(drop).map_err(drop),
        _ => Ok(()),
    }
}

/// An integer (a number, or a decimal string as protobuf JSON allows) in
/// the range of its format and of the schema's bounds.
fn integer(schema: &Value, value: &Value) -> Result<(), ()> {
    let n: i128 = match value {
        Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => i128::from(i),
            (None, Some(u), _) => i128::from(u),
            // 1e3 is an integer; 1.5 is not.
            // Whole and below 2^53 in magnitude: the cast is exact.
            #[allow(clippy::cast_possible_truncation)]
            (None, None, Some(f)) if f.fract() == 0.0 && f.abs() < 9.0e15 => f as i128,
            _ => return Err(()),
        },
        Value::String(s) => s.parse().map_err(drop)?,
        _ => return Err(()),
    };
    let (lo, hi) = range(schema);
    (lo..=hi).contains(&n).then_some(()).ok_or(())
}

/// The bounds of an integer schema: its format's, narrowed by
/// `minimum`/`maximum`.
fn range(schema: &Value) -> (i128, i128) {
    let (lo, hi) = match schema.get("format").and_then(Value::as_str) {
        Some("int32") => (i128::from(i32::MIN), i128::from(i32::MAX)),
        Some("uint32") => (0, i128::from(u32::MAX)),
        Some("uint64") => (0, i128::from(u64::MAX)),
        _ => (i128::from(i64::MIN), i128::from(i64::MAX)),
    };
    // The published spec's bounds (whole in practice): `as` truncates a
    // fraction and saturates past i128, as before; the format clamps after.
    #[allow(clippy::cast_possible_truncation)]
    let bound = |k: &str| schema.get(k).and_then(Value::as_f64).map(|f| f as i128);
    (
        bound("minimum").map_or(lo, |m| m.max(lo)),
        bound("maximum").map_or(hi, |m| m.min(hi)),
    )
}

/// A float as protobuf JSON writes one in a string.
fn float_text(s: &str) -> Result<(), ()> {
    match s {
        "NaN" | "Infinity" | "-Infinity" => Ok(()),
        _ => s.parse::<f64>().map(drop).map_err(drop),
    }
}

/// "expected X, found Y" for a message; an unknown enum value first (the
/// list of known ones can be long, and a message may be cut).
fn mismatch(schema: &Value, value: &Value) -> String {
    match value {
        Value::String(_) if schema.get("enum").is_some() => {
            format!(
                "unknown value {}: expected {}",
                found(value),
                expected(schema)
            )
        }
        _ => format!("expected {}, found {}", expected(schema), found(value)),
    }
}

/// What a schema takes, in words.
pub(super) fn expected(schema: &Value) -> String {
    let format = schema.get("format").and_then(Value::as_str);
    if let Some(values) = schema.get("enum").and_then(Value::as_array)
        && schema.get("type").and_then(Value::as_str) == Some("string")
    {
        let names: Vec<&str> = values.iter().filter_map(Value::as_str).collect();
        return format!("one of {}", names.join(", "));
    }
    match (schema.get("type").and_then(Value::as_str), format) {
        (Some("object"), _) => "an object".into(),
        (Some("array"), _) => "an array".into(),
        (Some("boolean"), _) => "a boolean".into(),
        (Some("integer"), _) => {
            let (lo, hi) = range(schema);
            let name = format.unwrap_or("integer");
            format!("an {name} (from {lo} to {hi})")
        }
        (Some("number"), _) => "a number".into(),
        (Some("string"), Some("date-time")) => "an RFC 3339 time".into(),
        (Some("string"), Some("int64")) => "an int64".into(),
        _ => "a string".into(),
    }
}

/// What was given, in words: its kind, and a short excerpt of a scalar.
fn found(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Object(_) => "an object".into(),
        Value::Array(_) => "an array".into(),
        Value::Bool(b) => format!("{b}"),
        Value::Number(n) => format!("{n}"),
        Value::String(s) => {
            let short: String = s.chars().take(40).collect();
            let cut = if short.len() < s.len() { "…" } else { "" };
            format!("{:?}{cut}", findings_base::text::one_line(&short))
        }
    }
}
