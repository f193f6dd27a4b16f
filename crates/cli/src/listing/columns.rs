//! `--columns LIST`: the columns of csv, table and markdown for the
//! listings that write findings (`issues`, `expired`, `report`), from the export
//! crate's one catalog ([`findings_export::catalog`]); `--columns help`
//! prints it.

use super::list;
use crate::scripting::Script;
use crate::{UsageError, offer};
use clap::Args;
use findings_export::catalog::{self, PRESETS};
use findings_export::{CATALOG, Chosen, Context, FindingColumn, Format, Needs};
use findings_model::{ListIssuesRequest, SlaDays};

/// The columns flag.
#[derive(Args, Debug, Clone, Default)]
pub struct ColumnsArgs {
    /// The columns of csv, table and markdown, by name or preset, mixed
    /// (e.g. leadership,url): `--columns help` lists them all (LIST)
    #[arg(long = "columns", value_name = "LIST", help_heading = "Output",
          value_parser = offer(offered()), hide_possible_values = true)]
    columns: Vec<String>,
}

/// What completion offers: every column and preset, and `help`.
fn offered() -> Vec<&'static str> {
    CATALOG
        .iter()
        .map(FindingColumn::name)
        .chain(PRESETS.iter().map(|p| p.name))
        .chain(["help"])
        .collect()
}

impl ColumnsArgs {
    /// Whether `--columns` was given.
    pub(crate) fn given(&self) -> bool {
        !self.columns.is_empty()
    }

    /// `--columns help`: the catalog is printed instead of a listing.
    pub(crate) fn asks_help(&self) -> bool {
        list(&self.columns)
            .iter()
            .any(|c| c.trim().eq_ignore_ascii_case("help"))
    }

    /// The columns asked for (`None`: the default ten), checked against
    /// the format and the scripting flags, before anything is sent.
    pub(crate) fn chosen(
        &self,
        format: Format,
        script: &Script,
    ) -> Result<Option<Vec<&'static FindingColumn>>, UsageError> {
        if self.columns.is_empty() {
            return Ok(None);
        }
        let columns = catalog::parse_list(&list(&self.columns)).map_err(|e| {
            UsageError(format!(
                "--columns: {e}; `--columns help` lists the columns and presets"
            ))
        })?;
        if script.selects() {
            return Err(UsageError(
                "--columns chooses the columns of csv, table and markdown; \
                 --json and --jq choose fields of JSON (`--json` alone lists them; \
                 age and days_over_target are among them)"
                    .into(),
            ));
        }
        if !matches!(format, Format::Csv | Format::Table | Format::Markdown) {
            return Err(UsageError(format!(
                "--columns chooses the columns of csv, table and markdown, not of {} \
                 (for JSON, --json FIELDS chooses fields)",
                format.name()
            )));
        }
        Ok(Some(columns))
    }

    /// What the columns need of a List issues request, asked for.
    pub(crate) fn ask_for(&self, req: &mut ListIssuesRequest) {
        if self.columns.is_empty() {
            return;
        }
        let Ok(columns) = catalog::parse_list(&list(&self.columns)) else {
            return; // refused, with its message, by `chosen`
        };
        if columns.iter().any(|c| c.needs == Needs::FirstDetected) {
            req.include_first_detected_at = Some(true);
        }
        if columns.iter().any(|c| c.needs == Needs::Activity) {
            req.include_activity_history = Some(true);
        }
    }
}

/// The columns with what their cells are reckoned with: the command's
/// clock and the profile's targets.
pub(crate) fn with_context(
    columns: Option<Vec<&'static FindingColumn>>,
    targets: SlaDays,
) -> Result<Option<Chosen>, UsageError> {
    let Some(columns) = columns else {
        return Ok(None);
    };
    let now = findings_requests::clock::now().map_err(UsageError)?;
    Ok(Some(Chosen::new(
        columns,
        Context {
            now: Some(now),
            targets,
        },
    )))
}

/// `--columns help`, on stdout as a help text is.
pub(crate) fn print_catalog() -> std::io::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(catalog::catalog_text().as_bytes())?;
    out.flush()
}
