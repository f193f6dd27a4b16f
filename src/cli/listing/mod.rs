//! `findings issues`, `report` and `search`: build the request from flags,
//! follow cursors, stream items out.
//!
//! One file per command (`issues`, `report`, `search`, and `overview` for
//! `findings` piped); `output` follows the cursors and writes the items;
//! `raw` keeps List issues items as the server sent them. Here: the flags
//! and helpers the commands share.

mod issues;
mod output;
mod overview;
mod raw;
mod report;
mod search;

pub use issues::{IssuesArgs, issues};
pub(crate) use output::output_width;
pub use overview::overview;
pub use report::{ReportArgs, report};
pub use search::{SearchArgs, search};

use super::{OutputArgs, UsageError};
use crate::api::model::SortDirection;
use crate::filter_spec::{self as filters, Field, FieldKind};
use clap::{Args, ValueHint};

/// Filter flags every listing has.
#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Filters")]
pub struct FilterArgs {
    /// Any field of the operation's filter object, by its spec name
    /// (repeat for more values), e.g. --filter repositoryNames=acme/api
    #[arg(long = "filter", value_name = "FIELD=VALUE", value_hint = ValueHint::Other)]
    filter: Vec<String>,
    /// Only since this time (RFC 3339, YYYY-MM-DD, or 7d/12h/2w ago)
    #[arg(long, value_name = "TIME", value_hint = ValueHint::Other)]
    since: Option<String>,
    /// Only before this time
    #[arg(long, value_name = "TIME", value_hint = ValueHint::Other)]
    until: Option<String>,
}

impl FilterArgs {
    fn pairs(&self) -> Result<Vec<(String, String)>, UsageError> {
        self.filter
            .iter()
            .map(|raw| filters::split_pair(raw))
            .collect()
    }
}

fn push_all(pairs: &mut Vec<(String, String)>, field: &str, values: &[String]) {
    pairs.extend(values.iter().map(|v| (field.to_owned(), v.clone())));
}

fn direction(asc: bool, desc: bool) -> Option<SortDirection> {
    match (asc, desc) {
        (true, _) => Some(SortDirection::Asc),
        (_, true) => Some(SortDirection::Desc),
        _ => None,
    }
}

/// What shell completion offers for a flag that sets a filter field of
/// `schema`: the field's enum values as one types them, the vocabulary
/// every command, `--filter` and the TUI share (each flag also takes the
/// wire names, and checks its values itself; a unit test of `cli` checks it
/// takes these).
fn offered(schema: &[Field], name: &str) -> Vec<&'static str> {
    let names = schema.iter().find(|f| f.name == name).map(|f| f.kind);
    match names {
        Some(FieldKind::Enums(names) | FieldKind::Enum(names)) => typed(&names()),
        _ => Vec::new(),
    }
}

/// The typed forms of a vocabulary. Completion wants `'static` names: a
/// label typed as it is shown is one; the few of several words are kept for
/// the life of the process.
pub(super) fn typed(names: &[(&'static str, &'static str)]) -> Vec<&'static str> {
    names
        .iter()
        .map(|&(_, label)| {
            let typed = crate::api::model::wire::typed_name(label);
            if typed == label {
                label
            } else {
                Box::leak(typed.into_boxed_str())
            }
        })
        .collect()
}

const INCLUDES: [&str; 4] = ["remediation", "activity", "archived", "first-detected"];

fn parse_enum<T: Clone>(
    what: &str,
    input: &str,
    parse: impl Fn(&str) -> Option<T>,
    all: &[T],
    name: impl Fn(&T) -> &str,
) -> Result<T, UsageError> {
    parse(input).ok_or_else(|| {
        let names: Vec<&str> = all.iter().map(&name).collect();
        UsageError(format!(
            "unknown {what} {input:?}; valid: {}",
            names.join(", ")
        ))
    })
}

/// The page size to ask for: `--limit`, else no more than `--max` needs.
fn page_size(output: &OutputArgs) -> Option<i64> {
    output
        .limit
        .or_else(|| output.max.map(|m| m.min(100) as i64))
}
