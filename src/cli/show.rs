//! `findings show ID`: one finding, as the single-issue fetch
//! (`IssuesService_GetIssue`) gives it: as JSON, as the TUI's detail in
//! plain text, or as a Markdown row.

use super::Failure;
use super::args::offer;
use super::destination::OutputFile;
use crate::api::Client;
use crate::api::model::Issue;
use crate::export::{Format, Writer};
use crate::tui::detail::DetailView;
use crate::tui::detail::view::tab_lines;
use crate::tui::theme::Theme;
use clap::Args;
use std::io::Write;

#[derive(Args, Debug)]
pub struct ShowArgs {
    /// The finding's id
    pub(super) id: String,
    /// Output format: table (the detail in plain text), json or markdown
    /// (default: table on a terminal, else json)
    #[arg(long, value_name = "FORMAT", value_parser = offer(FORMATS), hide_possible_values = true)]
    format: Option<String>,
    #[command(flatten)]
    pub(super) file: OutputFile,
}

const FORMATS: [&str; 3] = ["table", "json", "markdown"];

/// How wide the plain-text detail is.
const WIDTH: usize = 100;

impl ShowArgs {
    /// The output format, checked before anything is started or sent.
    pub(super) fn format(&self) -> Result<&'static str, Failure> {
        match self.format.as_deref() {
            None if self.file.is_terminal() => Ok("table"),
            None => Ok(
                match self
                    .file
                    .path()
                    .and_then(|p| Format::from_path(&p.to_string_lossy()))
                {
                    Some(Format::Markdown) => "markdown",
                    Some(Format::Table) => "table",
                    _ => "json",
                },
            ),
            Some(f) => FORMATS.iter().find(|v| **v == f).copied().ok_or_else(|| {
                Failure::Usage(format!(
                    "unknown format {f:?} for show; valid formats: {}",
                    FORMATS.join(", ")
                ))
            }),
        }
    }
}

pub async fn run(client: &Client, args: &ShowArgs, format: &str) -> Result<(), Failure> {
    let issue = client.get_issue(&args.id).await?;
    // Another finding's data is never shown as this one's.
    if issue.id() != args.id {
        return Err(Failure::Runtime(format!(
            "the server answered finding {:?} when asked for {:?}",
            crate::text::one_line(issue.id()),
            crate::text::one_line(&args.id)
        )));
    }
    let mut out = args.file.open()?;
    match format {
        "json" => {
            crate::json::write_pretty(&mut out, &issue)?;
        }
        "markdown" => {
            let mut writer = Writer::new::<Issue>(out, Format::Markdown, 0);
            writer.item(&issue)?;
            out = writer.finish()?;
        }
        _ => write!(out, "{}", plain_detail(issue))?,
    }
    out.finish()
}

/// The TUI's detail, every tab, as plain text (made terminal-safe as the
/// TUI draws it).
fn plain_detail(issue: Issue) -> String {
    let theme = Theme::no_color();
    let detail = DetailView::new(issue);
    let mut text = String::new();
    for tab in &detail.tabs {
        text.push_str(&format!("── {} ──\n", tab.title()));
        for line in tab_lines(*tab, &detail.issue, &theme, WIDTH) {
            let shown: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
            text.push_str(shown.trim_end());
            text.push('\n');
        }
        text.push('\n');
    }
    text
}
