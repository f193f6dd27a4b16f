//! `findings issues`: List issues.

use super::finding_filters::FindingFilters;
use super::names::Names;
use super::output::run_listing;
use super::raw::{RawListPage, RawListRequest};
use super::{INCLUDES, LISTS_HELP, direction, list, page_size, parse_enum};
use crate::api::Client;
use crate::api::model::*;
use crate::cli::scripting::Script;
use crate::cli::{Failure, OutputArgs, UsageError, offer};
use crate::export::Format;
use clap::Args;

#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Filters", after_help = LISTS_HELP)]
pub struct IssuesArgs {
    #[command(flatten)]
    pub(in crate::cli) filters: FindingFilters,
    /// State, as the STATE column shows it: open, reviewing, fixing, fixed,
    /// removed, ignored, ignored-in-code, provisionally-ignored, unknown (LIST)
    #[arg(long = "state", value_name = "STATE", help_heading = "Filters",
          value_parser = offer(super::finding_states()),
          hide_possible_values = true)]
    pub(super) states: Vec<String>,
    /// Sort: severity, ref, repo, rule, relevant-since, state
    #[arg(long, value_name = "FIELD", help_heading = "Sort", value_parser = offer(SortBy::ALL.iter().map(SortBy::label)),
          hide_possible_values = true)]
    sort: Option<String>,
    /// Ascending order
    #[arg(long, conflicts_with = "desc", help_heading = "Sort")]
    asc: bool,
    /// Descending order
    #[arg(long, help_heading = "Sort")]
    desc: bool,
    /// Extra data per finding: remediation, activity, archived, first-detected (LIST)
    #[arg(long, value_name = "LIST", help_heading = "Output", value_parser = offer(INCLUDES),
          hide_possible_values = true)]
    include: Vec<String>,
    #[command(flatten)]
    pub(in crate::cli) output: OutputArgs,
}

impl IssuesArgs {
    /// The request the flags ask for, every name checked by `names`.
    pub fn request(&self, names: &Names) -> Result<ListIssuesRequest, UsageError> {
        let mut req = self.filters.request(names, "--state", &self.states)?;
        req.sort_by = self
            .sort
            .as_deref()
            .map(|s| {
                parse_enum(
                    "sort field",
                    s,
                    SortBy::parse_known,
                    SortBy::ALL,
                    SortBy::label,
                )
            })
            .transpose()?;
        req.sort_direction = direction(self.asc, self.desc);
        req.limit = page_size(&self.output);
        for flag in list(&self.include) {
            match flag.as_str() {
                "remediation" => req.include_remediation = Some(true),
                "activity" | "activity-history" => req.include_activity_history = Some(true),
                "archived" | "is-archived" => req.include_is_archived = Some(true),
                "first-detected" | "first-detected-at" => {
                    req.include_first_detected_at = Some(true)
                }
                other => {
                    return Err(UsageError(format!(
                        "unknown --include {other:?}; valid: remediation, activity, archived, first-detected"
                    )));
                }
            }
        }
        Ok(req)
    }
}

/// Lists the findings; returns how many were printed (for `--exit-code`).
pub async fn issues(
    client: &Client,
    req: ListIssuesRequest,
    args: &IssuesArgs,
    script: &Script,
) -> Result<usize, Failure> {
    let format = args.output.format()?;
    let window = args.filters.first_detected()?;
    let done = if script.selects() || matches!(format, Format::Json | Format::Ndjson) {
        // The items exactly as the server sent them, without decoding them
        // into the model and encoding them again.
        run_listing(
            client,
            RawListRequest(req),
            &args.output,
            format,
            script,
            |page: RawListPage| window.keep(page.issues),
            |_, _| Ok(()),
        )
        .await
    } else {
        run_listing(
            client,
            req,
            &args.output,
            format,
            script,
            |page: ListIssuesResponse| window.keep(page.issues),
            |_, _| Ok(()),
        )
        .await
    };
    window.warn();
    done
}
