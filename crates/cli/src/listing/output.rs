//! What every listing does with its pages: follow the cursors as asked,
//! write the items as they come, show progress, fit a table to the width.

use crate::destination::OutputFile;
use crate::progress::Progress;
use crate::scripting::{Script, Sink};
use crate::{Failure, OutputArgs};
use findings_client::{Client, Follow, PagedRequest, pages_following};
use findings_export::{Chosen, Format, Record, Writer};
use futures_util::StreamExt;
use std::io::{IsTerminal, Write};

/// How a listing writes its items: the format, the scripting flags, and
/// the columns chosen of the catalog (`--columns`).
pub(super) struct Writing<'s> {
    pub(super) format: Format,
    pub(super) script: &'s Script,
    pub(super) columns: Option<Chosen>,
}

/// Follows pages as `--all`/`--max` ask and streams each item to stdout,
/// or to `-o FILE` (put in place only if every page arrived), through
/// `--json`/`--jq` when `script` selects; csv, table and markdown in the
/// catalog's `columns` when chosen. `on_page` sees each page, and may
/// write to the output, before its items are written. Returns how many
/// items matched (were printed), for `--exit-code`.
pub(super) async fn run_listing<R, T>(
    client: &Client,
    req: R,
    output: &OutputArgs,
    writing: Writing<'_>,
    items_of: impl Fn(R::Page) -> Vec<T>,
    mut on_page: impl FnMut(&R::Page, &mut dyn Write) -> Result<(), Failure>,
) -> Result<usize, Failure>
where
    R: PagedRequest,
    T: Record,
{
    let Writing {
        format,
        script,
        columns,
    } = writing;
    // Saturating: a bound past usize is no bound (exact on 64 bits).
    let max = output.max.map(|m| usize::try_from(m).unwrap_or(usize::MAX));
    let width = output_width(&output.file);
    let terminal = output.file.is_terminal();
    let out = output.file.open()?;
    let mut sink = match columns {
        // `--columns`: the catalog's columns of each finding.
        Some(chosen) if !script.selects() => {
            Sink::Formatted(Writer::with_columns(out, format, width, chosen))
        }
        _ => Sink::new::<T>(out, format, width, script, terminal),
    };
    // Every page followed: the next one is asked for while this one is written.
    let follow = Follow::every_page(output.all && max.is_none());
    let mut stream = Box::pin(pages_following(
        client.clone(),
        req,
        // Saturating: a bound past usize is no bound (exact on 64 bits).
        usize::try_from(output.max_pages).unwrap_or(usize::MAX),
        follow,
    ));
    let mut progress = Progress::new("listed", "items");
    let mut outcome = Ok(());
    'pages: while let Some(page) = stream.next().await {
        let page = match page {
            Ok(p) => p,
            Err(e) => {
                // Keep what was written; report the failure after it.
                outcome = Err(Failure::from(e));
                break;
            }
        };
        on_page(&page, sink.get_mut())?;
        for item in items_of(page) {
            if max.is_some_and(|m| sink.count() >= m) {
                break 'pages;
            }
            if let Err(e) = sink.item(&item) {
                // An expression that failed on an item: as a page that
                // failed, the items before it written.
                outcome = Err(e);
                break 'pages;
            }
        }
        // `--jq` runs its items a batch at a time: the page's are run now.
        if let Err(e) = sink.settle() {
            outcome = Err(e);
            break;
        }
        progress.update(sink.count() as u64, None);
        if sink.streams(format) {
            // Stream: each page reaches the reader as it arrives.
            sink.flush()?;
        }
        if max.is_some_and(|m| sink.count() >= m) || (!output.all && max.is_none()) {
            break;
        }
    }
    progress.done();
    // What was taken before a failure is written first (`--jq`'s queue).
    let settled = sink.settle();
    if outcome.is_ok() {
        outcome = settled;
    }
    if let Err(e) = outcome {
        // Stdout keeps what was written, never completed; a file is not
        // put in place.
        let written = sink.done();
        sink.abandon()?.abandon();
        say_partial(written, format, &output.file);
        return Err(e);
    }
    let (count, matched) = (sink.count(), sink.matched());
    sink.finish()?.finish()?;
    if count == 0 && format == Format::Table {
        eprintln!("findings: no items match");
    }
    Ok(matched)
}

/// The line on stderr that says an output stopped by an error is not the
/// whole (before the error's own line).
fn say_partial(count: usize, format: Format, file: &OutputFile) {
    if count == 0 {
        return; // nothing was written
    }
    if let Some(path) = file.path() {
        eprintln!(
            "findings: partial: {count} items fetched before the error; {} was not written",
            path.display()
        );
        return;
    }
    let how = match format {
        Format::Json => "; the JSON array is left unclosed",
        Format::Sarif => "; the SARIF document is left unclosed",
        _ => "",
    };
    eprintln!("findings: partial: {count} items written before the error{how}");
}

/// `--width N`: every table's width, whatever the terminal.
static WIDTH: std::sync::OnceLock<usize> = std::sync::OnceLock::new();

/// Said once, at the start, from `--width`.
pub fn set_table_width(width: Option<u16>) {
    if let Some(w) = width {
        let _ = WIDTH.set(usize::from(w));
    }
}

/// The width a table fills: `--width`, else the terminal's on a terminal,
/// else as piped.
pub(crate) fn output_width(file: &OutputFile) -> usize {
    if let Some(&w) = WIDTH.get() {
        return w;
    }
    match file.path() {
        None => terminal_width(),
        Some(_) => table_width(None, std::env::var("COLUMNS").ok().as_deref()),
    }
}

/// The width a table on stdout fills: `--width`, else [`table_width`].
pub(crate) fn terminal_width() -> usize {
    if let Some(&w) = WIDTH.get() {
        return w;
    }
    let terminal = std::io::stdout()
        .is_terminal()
        .then(|| crossterm::terminal::size().ok().map(|(w, _)| w))
        .flatten();
    table_width(terminal, std::env::var("COLUMNS").ok().as_deref())
}

/// A table's width when stdout piped or redirected has no terminal to fit.
const PIPED_TABLE_WIDTH: usize = 200;

/// The width a table fills: the terminal's (`terminal`, when stdout is
/// one), else `COLUMNS` when it is a number, else [`PIPED_TABLE_WIDTH`].
fn table_width(terminal: Option<u16>, columns_env: Option<&str>) -> usize {
    terminal
        .filter(|&w| w > 0)
        .map(usize::from)
        .or_else(|| {
            columns_env
                .and_then(|c| c.trim().parse::<usize>().ok())
                .filter(|&w| w > 0)
        })
        .unwrap_or(PIPED_TABLE_WIDTH)
}

#[cfg(test)]
mod table_width_tests {
    use super::*;

    #[test]
    fn a_table_fits_the_terminal_else_columns_else_is_wide() {
        // On a terminal: its width, whatever COLUMNS says.
        assert_eq!(table_width(Some(120), None), 120);
        assert_eq!(table_width(Some(120), Some("80")), 120);
        // Piped: COLUMNS when it is a width, else the wide default.
        assert_eq!(table_width(None, Some("100")), 100);
        assert_eq!(table_width(None, Some(" 90\n")), 90);
        assert_eq!(table_width(None, None), PIPED_TABLE_WIDTH);
        for junk in ["", "0", "-5", "wide", "1e3"] {
            assert_eq!(table_width(None, Some(junk)), PIPED_TABLE_WIDTH, "{junk:?}");
        }
        // A terminal that reports no width is treated as piped.
        assert_eq!(table_width(Some(0), Some("70")), 70);
    }
}
