//! `findings expired`: the ignored findings whose expiry (`triage
//! --ignore-until`, the note's last line) has passed, listed like `findings
//! issues`. It reopens nothing: reopening is a triage of its own, reviewed
//! before it is sent.

use super::issues::IssuesArgs;
use super::names::Names;
use super::output::{Writing, run_listing};
use crate::scripting::Script;
use crate::{Failure, UsageError};
use chrono::{DateTime, Utc};
use clap::Args;
use findings_client::Client;
use findings_model::*;
use findings_requests::triage::expiry;

/// The states an ignore is in, as `--state` types them.
const IGNORED: [&str; 2] = ["ignored", "provisionally-ignored"];

/// How to reopen, said in the help and after a listing.
macro_rules! how_to_reopen {
    () => {
        "Nothing is reopened here: review and reopen with \
        `findings triage ID... --state reopened` (shown and confirmed before it is sent), \
        or ignore again with a new --ignore-until."
    };
}

#[derive(Args, Debug, Clone)]
#[command(after_help = concat!(
    "The expiry is the last line of the triage note, `expires: 2026-12-25`, \
    as `findings triage --state ignored --ignore-until DATE` writes it.\n\n",
    how_to_reopen!(),
    "\n\n",
    exit_codes_help!()
))]
pub struct ExpiredArgs {
    /// The listing's flags; --state takes only ignored and
    /// provisionally-ignored (both when absent)
    #[command(flatten)]
    pub(crate) list: IssuesArgs,
}

impl ExpiredArgs {
    /// The request the flags ask for: only ignored findings.
    pub fn request(&self, names: &Names) -> Result<ListIssuesRequest, UsageError> {
        let mut list = self.list.clone();
        if list.over_target {
            return Err(UsageError(
                "--over-target lists open findings; `findings expired` lists ignored ones".into(),
            ));
        }
        if let Some(other) = list.states.iter().find(|s| !IGNORED.contains(&s.as_str())) {
            return Err(UsageError(format!(
                "--state {other:?}: only an ignore expires; ignored or provisionally-ignored"
            )));
        }
        if list.states.is_empty() {
            list.states = IGNORED.map(str::to_owned).to_vec();
        }
        // Every page: an expired ignore may be on any of them.
        list.output = list.followed(true);
        list.request(names)
    }
}

/// Lists the expired ignores as of `now`; returns how many were printed
/// (for `--exit-code`).
pub async fn expired(
    client: &Client,
    req: ListIssuesRequest,
    args: &ExpiredArgs,
    script: &Script,
    now: DateTime<Utc>,
) -> Result<usize, Failure> {
    // Every page: an expired ignore may be on any of them.
    let output = &args.list.followed(true);
    let format = output.format()?;
    let columns =
        super::columns::with_context(args.list.columns.chosen(format, script)?, args.list.targets)?;
    let window = args.list.filters.first_detected()?;
    let matched = run_listing(
        client,
        req,
        output,
        Writing {
            format,
            script,
            columns,
        },
        |page: ListIssuesResponse| {
            window
                .keep(page.issues)
                .into_iter()
                .filter(|item| {
                    item.issue
                        .as_ref()
                        .is_some_and(|i| expiry::has_expired(i, now))
                })
                .collect()
        },
        |_, _| Ok(()),
    )
    .await?;
    window.warn();
    if matched > 0 {
        eprintln!(
            concat!("findings: {} expired ignore(s). ", how_to_reopen!()),
            matched
        );
    }
    Ok(matched)
}
