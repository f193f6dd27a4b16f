//! `findings search`: Search issues (agentic-workflow issues).

use super::names::Names;
use super::output::{Writing, run_listing};
use super::{FilterArgs, LISTS_HELP, direction, list, page_size, parse_enum, push_all};
use crate::scripting::Script;
use crate::{Failure, OutputArgs, UsageError, offer};
use clap::{Args, ValueHint};
use findings_client::Client;
use findings_export::Format;
use findings_model::*;
use findings_requests::filter_spec::{self as filters, SEARCH_FILTERS};

#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Filters", after_help = LISTS_HELP)]
pub struct SearchArgs {
    #[command(flatten)]
    filters: FilterArgs,
    /// Text in the title (case-insensitive)
    #[arg(long, value_name = "TEXT", value_hint = ValueHint::Other)]
    title: Option<String>,
    /// Text in the description
    #[arg(long, value_name = "TEXT", value_hint = ValueHint::Other)]
    description: Option<String>,
    /// Text in the reasoning
    #[arg(long, value_name = "TEXT", value_hint = ValueHint::Other)]
    reasoning: Option<String>,
    /// Text in a file path
    #[arg(long, value_name = "TEXT", value_hint = ValueHint::AnyPath)]
    file_path: Option<String>,
    /// Workflow id (LIST)
    #[arg(long = "workflow", value_name = "ID", value_hint = ValueHint::Other)]
    workflows: Vec<String>,
    /// Only issues created at or after TIME: filters.createdAt.startAt
    /// (`issues --since` reads relevant-since instead). TIME: RFC 3339,
    /// YYYY-MM-DD, or 7d/12h/2w ago
    #[arg(long, value_name = "TIME", help_heading = "Time", value_hint = ValueHint::Other)]
    since: Option<String>,
    /// Only issues created before TIME: filters.createdAt.endAt (as
    /// `issues --until` and `report --until`)
    #[arg(long, value_name = "TIME", help_heading = "Time", value_hint = ValueHint::Other)]
    until: Option<String>,
    /// Sort: severity, last-detected, created, file-path
    #[arg(long, value_name = "FIELD", help_heading = "Sort",
          value_parser = offer(IssueSortField::ALL.iter().map(IssueSortField::label)),
          hide_possible_values = true)]
    sort: Option<String>,
    /// Ascending order
    #[arg(long, conflicts_with = "desc", help_heading = "Sort")]
    asc: bool,
    /// Descending order
    #[arg(long, help_heading = "Sort")]
    desc: bool,
    #[command(flatten)]
    pub(crate) output: OutputArgs,
}

impl SearchArgs {
    /// The request the flags ask for, every name checked by `names`.
    pub fn request(&self, names: &Names) -> Result<SearchIssuesRequest, UsageError> {
        if self.output.format()? == Format::Sarif {
            return Err(UsageError(
                "--format sarif is for findings (issues, report), not agentic-workflow issues; valid here: table, json, ndjson, csv, markdown".into(),
            ));
        }
        let mut pairs = Vec::new();
        push_all(&mut pairs, "titleQuery", self.title.as_slice());
        push_all(&mut pairs, "descriptionQuery", self.description.as_slice());
        push_all(&mut pairs, "reasoningQuery", self.reasoning.as_slice());
        push_all(&mut pairs, "filePathQuery", self.file_path.as_slice());
        push_all(&mut pairs, "workflowIds", &list(&self.workflows));
        push_all(&mut pairs, "createdAt.startAt", self.since.as_slice());
        push_all(&mut pairs, "createdAt.endAt", self.until.as_slice());
        let given = self.filters.pairs(SEARCH_FILTERS)?;
        pairs.extend(names.check_pairs(given)?);
        let sort_field = self
            .sort
            .as_deref()
            .map(|s| {
                parse_enum(
                    "sort field",
                    s,
                    IssueSortField::parse_known,
                    IssueSortField::ALL,
                    IssueSortField::label,
                )
            })
            .transpose()?;
        Ok(SearchIssuesRequest {
            filters: filters::build(SEARCH_FILTERS, "search", &pairs)?,
            sort_field,
            sort_direction: direction(self.asc, self.desc),
            limit: page_size(&self.output),
            ..Default::default()
        })
    }
}

/// Lists the issues; returns how many were printed (for `--exit-code`).
pub async fn search(
    client: &Client,
    req: SearchIssuesRequest,
    args: &SearchArgs,
    script: &Script,
) -> Result<usize, Failure> {
    let format = args.output.format()?;
    run_listing(
        client,
        req,
        &args.output,
        Writing {
            format,
            script,
            columns: None,
        },
        |page: SearchIssuesResponse| page.issues,
        |_, _| Ok(()),
    )
    .await
}
