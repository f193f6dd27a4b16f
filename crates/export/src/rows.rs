//! A small table of named columns (a dashboard report's rows) in the
//! formats that fit it: an aligned table, CSV, Markdown, NDJSON (an object
//! per row, whole numbers as numbers). Cells are made one line and safe as
//! each format needs (CSV without formulas, Markdown without markup).

use super::Format;
use std::io::{self, Write};
use unicode_width::UnicodeWidthStr;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Rows {
    pub header: Vec<&'static str>,
    pub rows: Vec<Vec<String>>,
    /// The width a table fits in (`None`: as wide as its cells).
    pub width: Option<usize>,
    /// The columns of words read from their start (a rule's display name,
    /// an advisory and its package): cut at their end with `…` where a
    /// table is narrow, but a name's ` · short-id` kept whole when it fits
    /// (the id is what the list's RULE column shows). Every other column of words keeps its end (a
    /// repository's name, a rule id's last part).
    pub read_from_start: Vec<&'static str>,
}

impl Rows {
    pub fn new(header: &[&'static str]) -> Rows {
        Rows {
            header: header.to_vec(),
            rows: Vec::new(),
            width: None,
            read_from_start: Vec::new(),
        }
    }

    /// Marks `columns` as read from their start ([`Rows::read_from_start`]).
    #[must_use]
    pub fn reading_from_start(mut self, columns: &[&'static str]) -> Rows {
        self.read_from_start.extend_from_slice(columns);
        self
    }

    pub fn push(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    /// Writes the rows as `format` (table, csv, markdown, ndjson); another
    /// format is an error naming them.
    pub fn write(&self, format: Format, out: &mut dyn Write) -> io::Result<()> {
        match format {
            Format::Table => self.table(out),
            Format::Csv => {
                writeln!(out, "{}", self.header.join(","))?;
                for row in &self.rows {
                    let cells: Vec<String> = row.iter().map(|c| super::csv::field(c)).collect();
                    writeln!(out, "{}", cells.join(","))?;
                }
                Ok(())
            }
            Format::Markdown => {
                writeln!(
                    out,
                    "{}",
                    super::markdown::header(self.header.iter().copied())
                )?;
                for row in &self.rows {
                    writeln!(
                        out,
                        "{}",
                        super::markdown::row(row.iter().map(String::as_str))
                    )?;
                }
                Ok(())
            }
            Format::Ndjson => {
                for row in &self.rows {
                    let object: serde_json::Map<String, serde_json::Value> = self
                        .header
                        .iter()
                        .zip(row)
                        .map(|(name, cell)| {
                            let value = match cell.parse::<i64>() {
                                Ok(n) => serde_json::Value::from(n),
                                Err(_) if cell.is_empty() => serde_json::Value::Null,
                                Err(_) => serde_json::Value::from(cell.as_str()),
                            };
                            (name.to_ascii_lowercase(), value)
                        })
                        .collect();
                    out.write_all(
                        &findings_base::json::encode(&object).map_err(io::Error::other)?,
                    )?;
                    writeln!(out)?;
                }
                Ok(())
            }
            other => Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "{} does not fit these rows: table, json, ndjson, csv or markdown",
                    other.name()
                ),
            )),
        }
    }

    /// Columns as wide as their widest cell, two spaces apart; numbers
    /// right-aligned. Wider than [`Rows::width`], the widest column of
    /// words gives way first, its cells keeping their ends (a rule's last
    /// part, a repository's name), as `issues` does.
    fn table(&self, out: &mut dyn Write) -> io::Result<()> {
        // Counts grouped by thousands, for people (the other formats keep
        // them as numbers).
        let shown: Vec<Vec<String>> = self
            .rows
            .iter()
            .map(|r| {
                r.iter()
                    .map(|c| match c.parse::<i64>() {
                        Ok(n) => findings_base::text::thousands(n),
                        Err(_) => findings_base::text::one_line(c).into_owned(),
                    })
                    .collect()
            })
            .collect();
        let mut widths: Vec<usize> = (0..self.header.len())
            .map(|i| {
                shown
                    .iter()
                    .filter_map(|r| r.get(i))
                    .map(|c| c.width())
                    .chain([self.header[i].width()])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        if let Some(width) = self.width {
            let cells: Vec<usize> = (0..self.header.len())
                .map(|i| {
                    shown
                        .iter()
                        .filter_map(|r| r.get(i))
                        .map(|c| c.width())
                        .max()
                        .unwrap_or(0)
                })
                .collect();
            fit_widths(&mut widths, &self.columns_of_words(&shown), &cells, width);
        }
        // A header wider than its column is cut at its end.
        let header: Vec<String> = self
            .header
            .iter()
            .zip(&widths)
            .map(|(h, &w)| {
                if h.width() > w {
                    super::fit(h, w)
                } else {
                    (*h).to_owned()
                }
            })
            .collect();
        let from_start: Vec<bool> = self
            .header
            .iter()
            .map(|h| self.read_from_start.contains(h))
            .collect();
        let shown: Vec<Vec<String>> = shown
            .into_iter()
            .map(|row| {
                row.iter()
                    .zip(&widths)
                    .zip(&from_start)
                    .map(|((cell, &w), &start)| {
                        if cell.width() <= w {
                            cell.clone()
                        } else if start {
                            cut_name(cell, w)
                        } else {
                            findings_base::text::cut_left(cell, w)
                        }
                    })
                    .collect()
            })
            .collect();
        let line = |cells: Vec<&str>| {
            let mut text = String::new();
            for (i, (cell, width)) in cells.iter().zip(&widths).enumerate() {
                let pad = width.saturating_sub(cell.width());
                let number = is_count(cell);
                if i > 0 {
                    text.push_str("  ");
                }
                if number {
                    text.push_str(&" ".repeat(pad));
                    text.push_str(cell);
                } else {
                    text.push_str(cell);
                    if i + 1 < cells.len() {
                        text.push_str(&" ".repeat(pad));
                    }
                }
            }
            text.trim_end().to_owned()
        };
        writeln!(out, "{}", line(header.iter().map(String::as_str).collect()))?;
        for row in &shown {
            writeln!(out, "{}", line(row.iter().map(String::as_str).collect()))?;
        }
        Ok(())
    }
}

impl Rows {
    /// Which columns hold words (not every cell a whole number): those a
    /// narrow table may cut.
    fn columns_of_words(&self, shown: &[Vec<String>]) -> Vec<bool> {
        (0..self.header.len())
            .map(|i| {
                shown
                    .iter()
                    .filter_map(|r| r.get(i))
                    .any(|c| !c.is_empty() && !is_count(c))
            })
            .collect()
    }
}

/// A whole number as a table shows it (`1,200`).
fn is_count(cell: &str) -> bool {
    !cell.is_empty() && cell.replace(',', "").parse::<i64>().is_ok()
}

/// The narrowest a column of words is cut to.
const NARROWEST: usize = 12;

/// Narrows the widest column of words, in turn, until the line (two
/// spaces between columns) fits `width`; then the columns of numbers
/// whose header is wider than their cells (down to their cells, at least
/// four columns: the header is cut), widest first. A number is never cut.
fn fit_widths(widths: &mut [usize], words: &[bool], cells: &[usize], width: usize) {
    let total = |w: &[usize]| w.iter().sum::<usize>() + 2 * w.len().saturating_sub(1);
    let least = |i: usize| {
        if words.get(i).copied().unwrap_or(false) {
            NARROWEST
        } else {
            cells.get(i).copied().unwrap_or(0).max(4)
        }
    };
    for pass_words in [true, false] {
        while total(widths) > width {
            let widest = (0..widths.len())
                .filter(|&i| words.get(i).copied().unwrap_or(false) == pass_words)
                .filter(|&i| widths[i] > least(i))
                .max_by_key(|&i| widths[i]);
            let Some(i) = widest else { break };
            let over = total(widths) - width;
            widths[i] = widths[i].saturating_sub(over).max(least(i));
        }
    }
}

/// A name read from its start, cut to `width`: `Display name · short-id`
/// keeps its short id and cuts the display name (`Weak hash (MD… · use-of-md5`);
/// where even the id does not fit, the id alone keeps its end.
fn cut_name(cell: &str, width: usize) -> String {
    use findings_base::text::{cut_left, cut_right};
    match cell.rsplit_once(" · ") {
        Some((name, id)) => {
            let tail = format!(" · {id}");
            // Room for at least a few letters of the name and its `…`.
            match width.checked_sub(tail.width()) {
                Some(room) if room >= 4 => format!("{}{tail}", cut_right(name, room)),
                _ => cut_left(id, width),
            }
        }
        None => cut_right(cell, width),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rule_name_cut_keeps_its_short_id() {
        let name = "Weak hash (MD5) used for card fingerprint · use-of-md5";
        assert_eq!(cut_name(name, 30), "Weak hash (MD5) … · use-of-md5");
        assert_eq!(cut_name(name, 30).width(), 30);
        // Too narrow for a few letters of the name: the id, its end kept.
        assert_eq!(cut_name(name, 16), "use-of-md5");
        assert_eq!(cut_name(name, 6), "…f-md5");
        // An advisory and its package read from the start.
        assert_eq!(
            cut_name("CVE-2021-44228 org.apache.logging.log4j:log4j-core", 20),
            "CVE-2021-44228 org.…"
        );
    }

    fn sample() -> Rows {
        let mut rows = Rows::new(&["REPOSITORY", "CRITICAL", "NOTE"]);
        rows.push(vec![
            "acme/api".into(),
            "12".into(),
            "=cmd|' /C calc'!A0".into(),
        ]);
        rows.push(vec!["a|b".into(), "3".into(), String::new()]);
        rows
    }

    fn written(rows: &Rows, format: Format) -> String {
        let mut out = Vec::new();
        rows.write(format, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_table_fits_its_width_the_widest_words_giving_way_keeping_their_ends() {
        let mut rows = Rows::new(&["BUCKET", "RULE", "OPEN"]);
        rows.push(vec![
            "2026-10-29".into(),
            "java.spring.security.injection.tainted-sql-string.tainted-sql-string".into(),
            "33".into(),
        ]);
        rows.push(vec![
            "2026-11-05".into(),
            "use-of-md5".into(),
            "1200".into(),
        ]);
        rows.width = Some(50);
        let table = written(&rows, Format::Table);
        assert!(table.lines().all(|l| l.width() <= 50), "{table}");
        assert!(
            table.contains("2026-10-29  …-sql-string.tainted-sql-string     33"),
            "{table}"
        );
        assert!(table.contains("use-of-md5"), "{table}");
        // Wide enough: as before.
        rows.width = Some(200);
        assert!(written(&rows, Format::Table).contains("java.spring"));
        // Too narrow for anything: the words stop at 12 columns, numbers whole.
        rows.width = Some(10);
        let table = written(&rows, Format::Table);
        assert!(table.contains("2026-10-29  …-sql-string     33"), "{table}");
        assert!(table.contains("1,200"), "grouped by thousands: {table}");
        // Other formats keep every cell whole, and numbers as numbers.
        let csv = written(&rows, Format::Csv);
        assert!(csv.contains("java.spring.security"), "{csv}");
        assert!(csv.contains(",1200"), "{csv}");
    }

    #[test]
    fn each_format_writes_every_row_safely() {
        let rows = sample();
        assert_eq!(
            written(&rows, Format::Table),
            "REPOSITORY  CRITICAL  NOTE\nacme/api          12  =cmd|' /C calc'!A0\na|b                3\n"
        );
        let csv = written(&rows, Format::Csv);
        assert!(csv.contains("'=cmd"), "no formula in a cell: {csv}");
        let md = written(&rows, Format::Markdown);
        assert!(md.contains("| a\\|b | 3 |"), "{md}");
        assert_eq!(
            written(&rows, Format::Ndjson).lines().nth(1),
            Some(r#"{"critical":3,"note":null,"repository":"a|b"}"#)
        );
        let mut out = Vec::new();
        let err = rows.write(Format::Sarif, &mut out).unwrap_err();
        assert!(
            err.to_string()
                .contains("table, json, ndjson, csv or markdown")
        );
    }
}
