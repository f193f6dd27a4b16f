//! Which findings a triage applies to: ids as given, ids read from
//! standard input, or the findings a filter matches, listed (and so
//! counted) before anything is sent. The count is shown, checked against
//! `--count`, and a large one needs `--count` to go with `--yes`: a filter
//! or a pipe that suddenly gives ten times more does not go through.

use crate::listing::{self, FindingFilters, Names};
use crate::{Failure, Session};
use findings_config::Given;
use findings_requests::triage::Kind;
use std::io::Read;

/// The most ids standard input may carry (a million ids of 16 bytes).
const MAX_STDIN_BYTES: u64 = 16 * 1024 * 1024;

/// The most findings one triage by filter lists and sends (as the TUI's
/// `:triage-all`).
const MAX_BY_FILTER: usize = 100_000;

/// What the command line chose.
pub(super) enum Chosen {
    /// Ids as arguments.
    Given(Vec<String>),
    /// Ids read from standard input.
    Stdin(Vec<String>),
    /// The findings these flags match, listed once connected.
    Filter {
        filters: Box<FindingFilters>,
        states: Vec<String>,
        /// The request built without the deployment's names (which names
        /// need checking).
        probe: Names<'static>,
    },
}

/// The ids of the arguments, `a,b` split, each once.
pub(super) fn given_ids(given: &[String]) -> Result<Vec<String>, Failure> {
    let mut ids: Vec<String> = Vec::new();
    for given in given {
        let listed = findings_requests::filter_spec::split_list(given);
        if listed.is_empty() {
            return Err(Failure::Usage("an ID must not be empty".into()));
        }
        for id in listed {
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
    }
    Ok(ids)
}

/// The ids of `input`: one per line or separated by spaces (or commas),
/// each once, in order.
pub(super) fn read_ids(input: impl Read) -> Result<Vec<String>, Failure> {
    let mut bytes = Vec::new();
    input
        .take(MAX_STDIN_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Failure::Usage(format!("cannot read the ids from standard input: {e}")))?;
    if bytes.len() as u64 > MAX_STDIN_BYTES {
        return Err(Failure::Usage(format!(
            "standard input holds more than {} MiB of ids",
            MAX_STDIN_BYTES / 1024 / 1024
        )));
    }
    let text = String::from_utf8(bytes)
        .map_err(|_| Failure::Usage("standard input is not UTF-8 text".into()))?;
    let mut seen = std::collections::HashSet::new();
    let ids: Vec<String> = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|id| !id.is_empty())
        .filter(|id| seen.insert(*id))
        .map(str::to_owned)
        .collect();
    if ids.is_empty() {
        return Err(Failure::Usage(
            "no ids on standard input; nothing was sent".into(),
        ));
    }
    Ok(ids)
}

/// Where the ids came from, as a sentence's subject ("the filter
/// matches", "standard input names").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Origin {
    Arguments,
    Stdin,
    Filter,
}

impl Origin {
    fn says(self) -> &'static str {
        match self {
            Origin::Arguments => "the command line names",
            Origin::Stdin => "standard input names",
            Origin::Filter => "the filter matches",
        }
    }
}

/// The ids of `chosen`: the filter's findings listed (their names checked
/// first, as `findings issues` checks them).
pub(super) async fn resolve(
    session: &Session,
    chosen: Chosen,
) -> Result<(Vec<String>, Origin), Failure> {
    match chosen {
        Chosen::Given(ids) => Ok((ids, Origin::Arguments)),
        Chosen::Stdin(ids) => Ok((ids, Origin::Stdin)),
        Chosen::Filter {
            filters,
            states,
            probe,
        } => {
            // A write: names that cannot be checked stop it.
            let (request, _) = listing::checked(session, &probe, |names| {
                filters.request(names, "--current-state", &states)
            })
            .await?;
            match filters
                .matching_ids(&session.client, request, MAX_BY_FILTER)
                .await?
            {
                Ok(ids) => Ok((ids, Origin::Filter)),
                Err(max) => Err(Failure::Usage(format!(
                    "the filter matches more than {max} findings, too many for one triage: narrow it; nothing was sent"
                ))),
            }
        }
    }
}

/// The count guard: `--count` must be the number chosen; with `--yes`,
/// more than `above` findings chosen by a filter or standard input need
/// `--count`. A refusal is a usage error (exit 2) that says the count.
pub(super) fn check_count(
    n: usize,
    from: Origin,
    kind: Kind,
    count: Option<u64>,
    yes: bool,
    above: &Given<u32>,
) -> Result<(), Failure> {
    let said = format!("{} {n} {}", from.says(), kind.noun(n));
    match count {
        Some(expected) if expected != n as u64 => Err(Failure::Usage(format!(
            "{said}, not the {expected} --count says; nothing was sent"
        ))),
        None if yes && from != Origin::Arguments && n > above.value as usize => {
            Err(Failure::Usage(format!(
                "{said}, more than triage_confirm_above ({}, {}): with --yes, pass --count {n} to triage that many; nothing was sent",
                above.value, above.source
            )))
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use findings_config::Source;

    #[test]
    fn ids_from_stdin_are_split_on_lines_spaces_and_commas_each_once() {
        let ids = read_ids("100001\n100002 100003\r\n\n100001,100004\t\n".as_bytes()).unwrap();
        assert_eq!(ids, ["100001", "100002", "100003", "100004"]);
        let Err(Failure::Usage(e)) = read_ids(" \n\n".as_bytes()) else {
            panic!("empty input must be refused")
        };
        assert!(e.contains("no ids on standard input"), "{e}");
        assert!(matches!(
            read_ids(&[0xff, 0xfe][..]),
            Err(Failure::Usage(_))
        ));
    }

    #[test]
    fn the_count_guard_says_the_count_and_asks_for_count_above_the_threshold() {
        let above = Given::new(50, Source::Default);
        let refused =
            |n, from, count, yes| match check_count(n, from, Kind::Finding, count, yes, &above) {
                Err(Failure::Usage(e)) => e,
                other => panic!("{n} {from:?} {count:?} {yes}: {other:?}"),
            };
        // Up to the threshold, --yes alone sends.
        assert!(check_count(50, Origin::Filter, Kind::Finding, None, true, &above).is_ok());
        assert_eq!(
            refused(51, Origin::Filter, None, true),
            "the filter matches 51 findings, more than triage_confirm_above (50, default): with --yes, pass --count 51 to triage that many; nothing was sent"
        );
        assert!(
            refused(900, Origin::Stdin, None, true)
                .starts_with("standard input names 900 findings, more than")
        );
        // --count that matches lets it through; one that does not never.
        assert!(check_count(510, Origin::Filter, Kind::Finding, Some(510), true, &above).is_ok());
        assert_eq!(
            refused(510, Origin::Filter, Some(51), true),
            "the filter matches 510 findings, not the 51 --count says; nothing was sent"
        );
        assert!(refused(3, Origin::Filter, Some(4), false).contains("not the 4 --count says"));
        // Asking on the terminal, or ids typed as arguments: no --count needed.
        assert!(check_count(900, Origin::Filter, Kind::Finding, None, false, &above).is_ok());
        assert!(check_count(900, Origin::Arguments, Kind::Finding, None, true, &above).is_ok());
    }
}
