//! Writing items out: JSON, NDJSON, CSV and aligned tables. Imports the
//! model only (and the leaf `text` helper).
//!
//! A [`Writer`] takes items one at a time, so NDJSON, CSV and tables stream
//! in constant memory however many pages a listing follows.

mod columns;

pub use columns::{Column, Record};

use serde::Serialize;
use std::io::{self, Write};
use unicode_width::UnicodeWidthChar;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Table,
    Json,
    Ndjson,
    Csv,
}

impl Format {
    pub const NAMES: &'static [&'static str] = &["table", "json", "ndjson", "csv"];

    pub fn parse(s: &str) -> Option<Format> {
        match s.to_ascii_lowercase().as_str() {
            "table" => Some(Format::Table),
            "json" => Some(Format::Json),
            "ndjson" | "jsonl" => Some(Format::Ndjson),
            "csv" => Some(Format::Csv),
            _ => None,
        }
    }
}

/// Streams records of one kind in one format.
pub struct Writer<W: Write> {
    out: W,
    format: Format,
    columns: &'static [Column],
    /// Width available to a table, for its last (widest) column.
    table_width: usize,
    count: usize,
}

impl<W: Write> Writer<W> {
    pub fn new<T: Record>(out: W, format: Format, table_width: usize) -> Self {
        Writer {
            out,
            format,
            columns: T::COLUMNS,
            table_width,
            count: 0,
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
                let cells = item.cells();
                let line: Vec<String> = cells.iter().map(|c| csv_field(c)).collect();
                writeln!(self.out, "{}", line.join(","))?;
            }
            Format::Table => {
                let cells = item.cells();
                let line = self.table_line(cells.iter().map(String::as_str));
                writeln!(self.out, "{line}")?;
            }
        }
        self.count += 1;
        Ok(())
    }

    fn begin(&mut self) -> io::Result<()> {
        match self.format {
            Format::Json => self.out.write_all(b"[\n"),
            Format::Csv => {
                let names: Vec<&str> = self.columns.iter().map(|c| c.name).collect();
                writeln!(self.out, "{}", names.join(","))
            }
            Format::Table => {
                let names: Vec<String> =
                    self.columns.iter().map(|c| c.name.to_uppercase()).collect();
                let line = self.table_line(names.iter().map(String::as_str));
                writeln!(self.out, "{line}")
            }
            Format::Ndjson => Ok(()),
        }
    }

    /// Pushes what is buffered to the reader (between pages).
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// Ends the output (closes the JSON array; an empty table says so).
    pub fn finish(mut self) -> io::Result<W> {
        match self.format {
            Format::Json if self.count == 0 => self.out.write_all(b"[]\n")?,
            Format::Json => self.out.write_all(b"\n]\n")?,
            Format::Csv if self.count == 0 => self.begin()?,
            _ => {}
        }
        self.out.flush()?;
        Ok(self.out)
    }

    fn table_line<'a>(&self, cells: impl Iterator<Item = &'a str>) -> String {
        let mut line = String::new();
        let mut used = 0;
        let last = self.columns.len().saturating_sub(1);
        for (k, (cell, col)) in cells.zip(self.columns).enumerate() {
            let width = if k == last {
                self.table_width.saturating_sub(used).max(col.width)
            } else {
                col.width
            };
            let safe = crate::text::one_line(cell);
            let fitted = fit(&safe, width);
            used += width + 2;
            if k == last {
                line.push_str(fitted.trim_end());
            } else {
                line.push_str(&fitted);
                line.push_str("  ");
            }
        }
        line
    }
}

fn write_json<W: Write, T: Serialize>(out: &mut W, item: &T) -> io::Result<()> {
    serde_json::to_writer(&mut *out, item).map_err(io::Error::other)
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

/// One CSV field (RFC 4180 quoting); control characters are made visible
/// so a spreadsheet or terminal never interprets them.
fn csv_field(s: &str) -> String {
    let safe = crate::text::one_line(s);
    // Cells starting with these are formulas to spreadsheet programs.
    let needs_guard = safe.starts_with(['=', '+', '-', '@']);
    let safe = if needs_guard {
        format!("'{safe}")
    } else {
        safe.into_owned()
    };
    if safe.contains([',', '"']) || safe.starts_with(' ') || safe.ends_with(' ') {
        format!("\"{}\"", safe.replace('"', "\"\""))
    } else {
        safe
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_pads_and_cuts_by_display_width() {
        assert_eq!(fit("abc", 5), "abc  ");
        assert_eq!(fit("abcdef", 4), "abc…");
        // Each CJK character is two columns wide.
        assert_eq!(fit("用户输入", 5), "用户…");
        assert_eq!(
            unicode_width::UnicodeWidthStr::width(fit("用户输入", 6).as_str()),
            6
        );
    }

    #[test]
    fn csv_fields_are_quoted_and_neutralised() {
        assert_eq!(csv_field("plain"), "plain");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("x\u{1b}[31my\nz"), "x␛[31my␤z");
        assert_eq!(csv_field("=cmd()"), "'=cmd()");
    }
}
