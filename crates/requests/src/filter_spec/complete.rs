//! Completions of a `FIELD=VALUE` being typed (the TUI's `:filter`): field
//! names, then the values of a field of fixed values, as typed
//! ([`wire::typed_name`]), or of a free field the values the server knows
//! (`IssuesService_GetIssueFilters`), after the last comma of a list.

use super::{Field, FieldKind};
use findings_model::wire;

/// Every way `word` could go on: whole `FIELD=` / `FIELD=VALUE` words
/// (with what was typed before the value kept), in schema order.
pub fn complete(schema: &[Field], word: &str) -> Vec<String> {
    complete_with(schema, word, |_| Vec::new())
}

/// [`complete`], with `known(FIELD)` the values a free field can take.
pub fn complete_with(
    schema: &[Field],
    word: &str,
    known: impl Fn(&str) -> Vec<String>,
) -> Vec<String> {
    let Some((field, value)) = word.split_once('=') else {
        let lower = word.to_ascii_lowercase();
        return schema
            .iter()
            .filter(|f| f.name.to_ascii_lowercase().starts_with(&lower))
            .map(|f| format!("{}=", f.name))
            .collect();
    };
    let name = field.strip_suffix('+').unwrap_or(field);
    let Some(f) = schema.iter().find(|f| f.name == name) else {
        return vec![];
    };
    // A list takes more values after a comma.
    let (done, partial) = match value.rsplit_once(',') {
        Some((done, partial)) if f.kind.is_list() => (format!("{done},"), partial),
        _ => (String::new(), value),
    };
    values_for(f, partial, &known)
        .into_iter()
        .map(|v| format!("{field}={done}{v}"))
        .collect()
}

/// The values of field `f` that `partial` could become: a fixed value by
/// its start, a known free value by its start, then by a part of it.
pub fn values_for(f: &Field, partial: &str, known: &impl Fn(&str) -> Vec<String>) -> Vec<String> {
    let fixed: Vec<String> = match f.kind {
        FieldKind::Enums(names) | FieldKind::Enum(names) => names()
            .iter()
            .map(|(_, label)| wire::typed_name(label))
            .collect(),
        FieldKind::Bool => vec!["true".into(), "false".into()],
        FieldKind::Strings | FieldKind::Text => {
            return super::suggest::matching(&known(f.name), partial.trim_start());
        }
        FieldKind::Time => return vec![],
    };
    let partial = partial.trim_start().to_ascii_lowercase();
    fixed
        .into_iter()
        .filter(|v| v.to_ascii_lowercase().starts_with(&partial))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::filter_spec::LIST_FILTER;

    #[test]
    fn fields_then_values_as_typed() {
        assert_eq!(complete(LIST_FILTER, "sever"), vec!["severities="]);
        assert!(complete(LIST_FILTER, "").len() == LIST_FILTER.len());
        assert_eq!(
            complete(LIST_FILTER, "severities=c"),
            vec!["severities=critical"]
        );
        // After a comma, and after `+=`.
        assert_eq!(
            complete(LIST_FILTER, "severities+=critical,hi"),
            vec!["severities+=critical,high"]
        );
        let states = complete(LIST_FILTER, "aggregateIssueStates=pro");
        assert_eq!(states, vec!["aggregateIssueStates=provisionally-ignored"]);
        // Free text and unknown fields have nothing to offer.
        assert!(complete(LIST_FILTER, "refs=ma").is_empty());
        assert!(complete(LIST_FILTER, "nonsense=x").is_empty());
        assert!(complete(LIST_FILTER, "nonsense").is_empty());
    }

    #[test]
    fn free_fields_complete_from_the_known_values() {
        let known = |field: &str| match field {
            "repositoryNames" => vec!["acme/payments-api".to_owned(), "acme/web".to_owned()],
            _ => vec![],
        };
        assert_eq!(
            complete_with(LIST_FILTER, "repositoryNames=acme/web,pay", known),
            vec!["repositoryNames=acme/web,acme/payments-api"]
        );
        assert_eq!(
            complete_with(LIST_FILTER, "repositoryNames=", known).len(),
            2
        );
        assert!(complete_with(LIST_FILTER, "refs=ma", known).is_empty());
    }
}
