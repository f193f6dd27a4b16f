//! `findings show ID`: one finding, as the single-issue fetch
//! (`IssuesService_GetIssue`) gives it: as the TUI's detail in plain text,
//! or in any listing format, as a one-item listing would print it.

use super::destination::OutputFile;
use super::listing::output_width;
use super::offer::offer;
use super::scripting::{self, Script, ScriptArgs, Sink};
use super::{Failure, UsageError};
use clap::Args;
use findings_client::Client;
use findings_export::Format;
use findings_model::Issue;
use std::io::Write;

#[derive(Args, Debug)]
pub struct ShowArgs {
    /// The finding's id
    pub(super) id: String,
    /// Output format: table (on a terminal: the detail, as the TUI shows
    /// it), json (indented), ndjson (one line), csv, markdown or sarif
    /// (default: FINDINGS_FORMAT, else table on a terminal, else ndjson)
    #[arg(long, value_name = "FORMAT", value_parser = offer(Format::NAMES.iter().copied()),
          hide_possible_values = true)]
    format: Option<String>,
    #[command(flatten)]
    pub(super) file: OutputFile,
    #[command(flatten)]
    pub(super) script: ScriptArgs,
}

impl ShowArgs {
    /// The output format, checked before anything is started or sent.
    pub(super) fn format(&self) -> Result<Format, UsageError> {
        scripting::format(
            self.format.as_deref(),
            &self.file,
            &self.script,
            &Format::ALL,
        )
    }
}

/// Shows the finding; returns how many items were printed (1, or with
/// `--jq` 0 when the expression gave nothing), for `--exit-code`.
pub async fn run(
    client: &Client,
    args: &ShowArgs,
    format: Format,
    script: &Script,
) -> Result<usize, Failure> {
    let issue = client.get_issue(&args.id).await?;
    // Another finding's data is never shown as this one's.
    if issue.id() != args.id {
        return Err(Failure::Runtime(format!(
            "the server answered finding {:?} when asked for {:?}",
            findings_base::text::one_line(issue.id()),
            findings_base::text::one_line(&args.id)
        )));
    }
    let mut out = args.file.open()?;
    let matched = match format {
        Format::Table if !script.selects() => {
            write!(out, "{}", super::frontend::plain_detail(issue)?)?;
            1
        }
        Format::Json if !script.selects() => {
            findings_base::json::write_pretty(&mut out, &issue)?;
            1
        }
        _ => {
            // One object is one line with --json or --jq, in either JSON
            // format; the other formats write it as a one-item listing.
            let format = if script.selects() {
                Format::Ndjson
            } else {
                format
            };
            let width = output_width(&args.file);
            let terminal = args.file.is_terminal();
            let mut sink = Sink::new::<Issue>(out, format, width, script, terminal);
            sink.item(&issue)?;
            sink.settle()?;
            let matched = sink.matched();
            out = sink.finish()?;
            matched
        }
    };
    out.finish()?;
    Ok(matched)
}
