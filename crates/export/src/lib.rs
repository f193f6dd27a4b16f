//! Writing items out: JSON, NDJSON, CSV, aligned tables, Markdown tables
//! and SARIF. Imports the model only (and the leaf `text` helper).
//!
//! A [`Writer`] takes items one at a time, so NDJSON, CSV, tables and
//! Markdown stream in constant memory however many pages a listing follows.
//! SARIF gathers its rules across results, so it keeps a small summary of
//! each finding and writes the document when the writer finishes.

pub mod catalog;
mod columns;
mod csv;
pub mod markdown;
pub mod rows;
pub mod sarif;

pub use catalog::{CATALOG, Chosen, ColumnsError, Context, FindingColumn, Needs};
pub use columns::col;
pub use columns::{Column, Cut, Record};

use findings_base::redact::ScrubWriter;
use std::io::{self, Write};
use unicode_width::UnicodeWidthChar;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Table,
    Json,
    Ndjson,
    Csv,
    /// SARIF 2.1.0 (findings only: `issues` and `report`).
    Sarif,
    /// A GitHub-flavoured Markdown table.
    Markdown,
}

impl Format {
    pub const NAMES: &'static [&'static str] =
        &["table", "json", "ndjson", "csv", "sarif", "markdown"];

    /// Every format, in the order of [`Format::NAMES`].
    pub const ALL: [Format; 6] = [
        Format::Table,
        Format::Json,
        Format::Ndjson,
        Format::Csv,
        Format::Sarif,
        Format::Markdown,
    ];

    pub fn parse(s: &str) -> Option<Format> {
        match s.to_ascii_lowercase().as_str() {
            "table" => Some(Format::Table),
            "json" => Some(Format::Json),
            "ndjson" | "jsonl" => Some(Format::Ndjson),
            "csv" => Some(Format::Csv),
            "sarif" => Some(Format::Sarif),
            "markdown" | "md" => Some(Format::Markdown),
            _ => None,
        }
    }

    /// The name `--format` takes.
    pub fn name(self) -> &'static str {
        match self {
            Format::Table => "table",
            Format::Json => "json",
            Format::Ndjson => "ndjson",
            Format::Csv => "csv",
            Format::Sarif => "sarif",
            Format::Markdown => "markdown",
        }
    }

    /// The format a file name's extension names (`mine.json`: JSON), if
    /// it names one: `.txt`, `.json`, `.ndjson`/`.jsonl`, `.csv`,
    /// `.sarif` (and `.sarif.json`), `.md`/`.markdown`.
    pub fn from_path(path: &str) -> Option<Format> {
        let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
        let lower = name.to_ascii_lowercase();
        if lower.ends_with(".sarif.json") {
            return Some(Format::Sarif);
        }
        let (stem, ext) = lower.rsplit_once('.')?;
        if stem.is_empty() {
            return None; // a dot file: no extension
        }
        match ext {
            "txt" => Some(Format::Table),
            "jsonl" => Some(Format::Ndjson),
            "json" | "ndjson" | "csv" | "sarif" | "md" | "markdown" => Format::parse(ext),
            _ => None,
        }
    }

    /// The usual file extension.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Table => "txt",
            Format::Json => "json",
            Format::Ndjson => "ndjson",
            Format::Csv => "csv",
            Format::Sarif => "sarif",
            Format::Markdown => "md",
        }
    }
}

/// Streams records of one kind in one format, the secrets of the process
/// masked ([`findings_base::redact`]).
pub struct Writer<W: Write> {
    /// Buffered before the scrubber, so it sees large chunks rather than
    /// serde's many small writes.
    out: io::BufWriter<ScrubWriter<W>>,
    format: Format,
    columns: Vec<Column>,
    /// Columns of the catalog chosen for findings (`--columns`): their
    /// cells, not the item's own.
    chosen: Option<Chosen>,
    /// A table's width for each column, `None` for one left out
    /// ([`table_layout`]).
    table_widths: Vec<Option<usize>>,
    count: usize,
    /// What a SARIF document gathers until `finish`.
    sarif: Option<sarif::SarifLog>,
}

impl<W: Write> Writer<W> {
    /// `table_width`: the terminal columns a table may fill.
    pub fn new<T: Record>(out: W, format: Format, table_width: usize) -> Self {
        Self::laid_out(out, format, table_width, T::COLUMNS.to_vec(), None)
    }

    /// A writer of findings (items whose [`Record::issue`] is one) in the
    /// columns `chosen` of the catalog: csv, table and markdown write
    /// those; the other formats write the items as [`Writer::new`] does.
    pub fn with_columns(out: W, format: Format, table_width: usize, chosen: Chosen) -> Self {
        let columns = chosen.columns.iter().map(|c| c.layout).collect();
        Self::laid_out(out, format, table_width, columns, Some(chosen))
    }

    fn laid_out(
        out: W,
        format: Format,
        table_width: usize,
        columns: Vec<Column>,
        chosen: Option<Chosen>,
    ) -> Self {
        let table_widths = match format {
            Format::Table => table_layout(&columns, table_width),
            _ => Vec::new(),
        };
        Writer {
            out: io::BufWriter::with_capacity(64 * 1024, ScrubWriter::new(out)),
            format,
            columns,
            chosen,
            table_widths,
            count: 0,
            sarif: (format == Format::Sarif).then(sarif::SarifLog::new),
        }
    }

    pub fn count(&self) -> usize {
        self.count
    }

    /// Writes one item.
    pub fn item<T: Record>(&mut self, item: &T) -> io::Result<()> {
        if self.count == 0 {
            self.begin()?;
        }
        match self.format {
            Format::Json => {
                if self.count > 0 {
                    self.out.write_all(b",\n")?;
                }
                write_json(&mut self.out, item)?;
            }
            Format::Ndjson => {
                write_json(&mut self.out, item)?;
                self.out.write_all(b"\n")?;
            }
            Format::Csv => {
                let cells = self.cells(item);
                let line: Vec<String> = cells.iter().map(|c| csv::field(c)).collect();
                writeln!(self.out, "{}", line.join(","))?;
            }
            Format::Table => {
                let cells = self.cells(item);
                let line = self.table_line(cells.iter().map(String::as_str));
                writeln!(self.out, "{line}")?;
            }
            Format::Markdown => {
                let cells = self.cells(item);
                writeln!(
                    self.out,
                    "{}",
                    markdown::row(cells.iter().map(String::as_str))
                )?;
            }
            Format::Sarif => {
                // Items that carry no finding (a list wrapper without one)
                // have nothing to report.
                if let (Some(log), Some(issue)) = (&mut self.sarif, item.issue()) {
                    log.add(&mut self.out, issue)?;
                }
            }
        }
        self.count += 1;
        Ok(())
    }

    /// The cells of `item`: of the columns chosen, else its own.
    fn cells<T: Record>(&self, item: &T) -> Vec<String> {
        match &self.chosen {
            Some(chosen) => chosen.cells(item.issue()),
            None => item.cells(),
        }
    }

    fn begin(&mut self) -> io::Result<()> {
        match self.format {
            Format::Json => self.out.write_all(b"[\n"),
            Format::Csv => {
                let names: Vec<&str> = self.columns.iter().map(|c| c.name).collect();
                writeln!(self.out, "{}", names.join(","))
            }
            Format::Table => {
                let names: Vec<String> = self.columns.iter().map(Column::table_header).collect();
                let line = self.table_line(names.iter().map(String::as_str));
                writeln!(self.out, "{line}")
            }
            Format::Markdown => {
                let header = markdown::header(self.columns.iter().map(|c| c.name));
                writeln!(self.out, "{header}")
            }
            Format::Ndjson | Format::Sarif => Ok(()),
        }
    }

    /// The output, to write around the items (a heading before them).
    pub fn get_mut(&mut self) -> &mut dyn Write {
        &mut self.out
    }

    /// Pushes what is buffered to the reader (between pages).
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// Ends the output (closes the JSON array; writes the SARIF document;
    /// an empty CSV or Markdown table still has its header).
    pub fn finish(mut self) -> io::Result<W> {
        match self.format {
            Format::Json if self.count == 0 => self.out.write_all(b"[]\n")?,
            Format::Json => self.out.write_all(b"\n]\n")?,
            Format::Csv | Format::Markdown if self.count == 0 => self.begin()?,
            Format::Sarif => {
                let log = self.sarif.take().unwrap_or_default();
                log.finish(&mut self.out)?;
            }
            _ => {}
        }
        self.into_inner()
    }

    /// The underlying writer, everything buffered or held back written.
    fn into_inner(mut self) -> io::Result<W> {
        self.out.flush()?;
        self.out
            .into_inner()
            .map_err(io::IntoInnerError::into_error)?
            .finish()
    }

    /// Ends an output cut short by an error: what was written is pushed
    /// out and left as it is, never completed. A JSON array stays open, so
    /// a parser fails rather than take it for the whole; a SARIF document,
    /// written whole at the end, is not written at all.
    pub fn abandon(self) -> io::Result<W> {
        self.into_inner()
    }

    fn table_line<'a>(&self, cells: impl Iterator<Item = &'a str>) -> String {
        let shown: Vec<(&str, &Column, usize)> = cells
            .zip(&self.columns)
            .zip(&self.table_widths)
            .filter_map(|((cell, col), width)| width.map(|w| (cell, col, w)))
            .collect();
        let mut line = String::new();
        for (k, (cell, col, width)) in shown.iter().enumerate() {
            let safe = findings_base::text::one_line((col.table_cell)(cell));
            let fitted = match col.cut {
                // `fit` cuts on the right, marking the cut.
                Cut::Right => fit(&safe, *width),
                how => fit(&findings_base::text::cut(&safe, *width, how), *width),
            };
            if k + 1 == shown.len() {
                line.push_str(fitted.trim_end());
            } else {
                line.push_str(&fitted);
                line.push_str("  ");
            }
        }
        line
    }
}

/// Columns between two of a table's columns.
const GAP: usize = 2;

/// How a table `width` terminal columns wide lays out `columns`: the width
/// of each, `None` for one left out.
///
/// With room to spare every column has its `width` and the last takes the
/// rest of the line. Narrower, the widest columns give way first, down to
/// their `min`; when the columns at their `min` do not fit, columns are
/// left out in their `drop` order and the rest laid out again. When even
/// the columns never left out do not fit at their `min`, the table is that
/// wide (a terminal that narrow wraps it).
pub fn table_layout(columns: &[Column], width: usize) -> Vec<Option<usize>> {
    let mut shown: Vec<bool> = columns.iter().map(|c| c.in_table).collect();
    loop {
        let visible: Vec<usize> = (0..columns.len()).filter(|&k| shown[k]).collect();
        let gaps = GAP * visible.len().saturating_sub(1);
        let narrowest = visible.iter().map(|&k| columns[k].min).sum::<usize>() + gaps;
        if narrowest > width {
            let next_out = visible
                .iter()
                .copied()
                .filter(|&k| columns[k].drop > 0)
                .min_by_key(|&k| columns[k].drop);
            if let Some(k) = next_out {
                shown[k] = false;
                continue;
            }
        }
        let mut widths: Vec<Option<usize>> = columns
            .iter()
            .zip(&shown)
            .map(|(c, &s)| s.then_some(c.width))
            .collect();
        let total = visible.iter().map(|&k| columns[k].width).sum::<usize>() + gaps;
        if total <= width {
            if let Some(&last) = visible.last() {
                widths[last] = Some(columns[last].width + (width - total));
            }
            return widths;
        }
        let mut excess = total - width;
        while excess > 0 {
            // The widest column that can still give way.
            let widest = visible
                .iter()
                .copied()
                .filter(|&k| widths[k].is_some_and(|w| w > columns[k].min))
                .max_by_key(|&k| (widths[k], std::cmp::Reverse(k)));
            let Some(k) = widest else { break };
            widths[k] = widths[k].map(|w| w - 1);
            excess -= 1;
        }
        return widths;
    }
}

fn write_json<W: Write, T: Record>(out: &mut W, item: &T) -> io::Result<()> {
    out.write_all(&item.to_json().map_err(io::Error::other)?)
}

/// Pads or cuts `s` to exactly `width` terminal columns (wide characters
/// count as two), marking a cut with `…`.
pub fn fit(s: &str, width: usize) -> String {
    let total: usize = s.chars().map(|c| c.width().unwrap_or(0)).sum();
    if total <= width {
        let mut out = s.to_owned();
        out.extend(std::iter::repeat_n(' ', width - total));
        return out;
    }
    let mut out = String::new();
    let mut used = 0;
    for c in s.chars() {
        let w = c.width().unwrap_or(0);
        if used + w + 1 > width {
            break;
        }
        out.push(c);
        used += w;
    }
    if width > 0 {
        out.push('…');
        used += 1;
    }
    out.extend(std::iter::repeat_n(' ', width.saturating_sub(used)));
    out
}

#[cfg(test)]
mod tests;
