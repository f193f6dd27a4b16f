//! `findings issues`, `report` and `search`: build the request from flags,
//! follow cursors, stream items out.
//!
//! One file per command (`issues`, `report`, `search`, and `overview` for
//! `findings` piped); `output` follows the cursors and writes the items;
//! `raw` keeps List issues items as the server sent them. Here: the flags
//! and helpers the commands share.

mod columns;
mod dashboard;
mod empty;
mod expired;
mod finding_filters;
mod first_detected;
mod issues;
mod names;
mod opened;
mod output;
mod overview;
mod raw;
mod raw_report;
pub(crate) use raw::RawListRequest;
mod report;
mod rule_names;
mod search;
mod summary;

pub(crate) use columns::print_catalog;
pub use dashboard::{Kind, dashboard};
pub use empty::say_empty;
pub use expired::{ExpiredArgs, expired};
pub use finding_filters::FindingFilters;
pub use issues::{IssuesArgs, issues};
pub use names::{Names, checked};
pub use opened::opened;
pub use output::set_table_width;
pub(crate) use output::{output_width, terminal_width};
pub use overview::overview;
pub use report::{ReportArgs, report};
pub use search::{SearchArgs, search};
pub(crate) use summary::format as summary_format;
pub use summary::summary;

use super::{OutputArgs, UsageError};
use clap::{Args, ValueHint};
use findings_model::SortDirection;
use findings_requests::filter_spec::{self as filters, Field, FieldKind};

/// How every listing's help ends: how lists are given.
const LISTS_HELP: &str = concat!(
    "Lists: a flag that takes several values (marked LIST) takes them as \
    a,b or repeated (--repo a --repo b), alike; \\, is a comma inside a value \
    (--path 'a\\,b.txt'). The same holds for a list field of --filter.\n\n",
    exit_codes_help!()
);

/// The filter flag every listing has.
#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Filters")]
pub struct FilterArgs {
    /// Any field of the operation's filter object, by its spec name, e.g.
    /// --filter repositoryNames=acme/api (a list field: LIST)
    #[arg(long = "filter", value_name = "FIELD=VALUE", value_hint = ValueHint::Other)]
    filter: Vec<String>,
}

impl FilterArgs {
    /// The `FIELD=VALUE` pairs, a list field's value split as every list
    /// is ([`filters::split_list`]).
    fn pairs(&self, schema: &[Field]) -> Result<Vec<(String, String)>, UsageError> {
        let mut pairs = Vec::new();
        for raw in &self.filter {
            let (field, value) = filters::split_pair(raw)?;
            match filters::kind_of(schema, &field) {
                Some(kind) if kind.is_list() => {
                    let values = filters::split_list(&value);
                    if values.is_empty() {
                        // Left to the field's own check ("needs a value").
                        pairs.push((field, value));
                    } else {
                        pairs.extend(values.into_iter().map(|v| (field.clone(), v)));
                    }
                }
                _ => pairs.push((field, value)),
            }
        }
        Ok(pairs)
    }
}

/// The values of a list flag, as given (`a,b`, repeated, or both).
fn list(given: &[String]) -> Vec<String> {
    given.iter().flat_map(|v| filters::split_list(v)).collect()
}

/// [`list`], for the commands outside listings that take a list flag.
pub(crate) fn split_lists(given: &[String]) -> Vec<String> {
    list(given)
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

/// The states a finding is in, as the STATE column shows them: what
/// `issues --state` and `triage --current-state` take.
pub fn finding_states() -> Vec<&'static str> {
    offered(filters::LIST_FILTER, "aggregateIssueStates")
}

/// The typed forms of a vocabulary. Completion wants `'static` names: a
/// label typed as it is shown is one; the few of several words are kept for
/// the life of the process.
pub(super) fn typed(names: &[(&'static str, &'static str)]) -> Vec<&'static str> {
    names
        .iter()
        .map(|&(_, label)| {
            let typed = findings_model::wire::typed_name(label);
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

/// The page size to ask for: `--limit`; else, following cursors, the
/// largest page the server allows (`--all`) or no more than `--max`
/// needs, so a long listing takes few round trips (docs/src/api.md §8); else
/// none (the profile's `page_size`, or the server's default).
fn page_size(output: &OutputArgs) -> Option<i64> {
    let largest = findings_client::transport::MAX_PAGE_ITEMS as u64;
    let following = if output.all {
        Some(largest)
    } else {
        output.max.map(|m| m.min(largest))
    };
    output
        .limit
        .or_else(|| following.and_then(|n| i64::try_from(n).ok()))
}

#[cfg(test)]
mod page_size_tests {
    use super::*;
    use crate::Cli;
    use clap::Parser;

    fn asked(flags: &[&str]) -> Option<i64> {
        let argv = [&["findings", "search"], flags].concat();
        let Some(super::super::args::Command::Search(args)) =
            Cli::try_parse_from(argv).unwrap().command
        else {
            unreachable!()
        };
        page_size(&args.output)
    }

    #[test]
    fn following_asks_the_largest_page_unless_limit_says_otherwise() {
        assert_eq!(asked(&["--all"]), Some(1000));
        assert_eq!(asked(&["--all", "--limit", "50"]), Some(50));
        assert_eq!(asked(&["--max", "7"]), Some(7));
        assert_eq!(asked(&["--max", "99999"]), Some(1000));
        // One page: the profile's page_size or the server's default.
        assert_eq!(asked(&[]), None);
        assert_eq!(asked(&["--limit", "20"]), Some(20));
    }
}
