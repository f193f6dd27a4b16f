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
use serde::Serialize;
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
                let names: Vec<String> =
                    self.columns.iter().map(|c| c.name.to_uppercase()).collect();
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

fn write_json<W: Write, T: Serialize>(out: &mut W, item: &T) -> io::Result<()> {
    out.write_all(&findings_base::json::encode(item).map_err(io::Error::other)?)
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
mod tests {
    use super::*;
    use findings_model::{AgenticIssue, Issue};
    use unicode_width::UnicodeWidthStr;

    #[test]
    fn a_file_name_extension_names_its_format() {
        for (path, format) in [
            ("mine.json", Some(Format::Json)),
            ("out/MINE.CSV", Some(Format::Csv)),
            ("a.b/notes.md", Some(Format::Markdown)),
            ("x.markdown", Some(Format::Markdown)),
            ("scan.sarif", Some(Format::Sarif)),
            ("scan.sarif.json", Some(Format::Sarif)),
            ("all.jsonl", Some(Format::Ndjson)),
            ("all.ndjson", Some(Format::Ndjson)),
            ("table.txt", Some(Format::Table)),
            ("mine", None),
            ("mine.xlsx", None),
            (".json", None),
            ("dir.json/mine", None),
        ] {
            assert_eq!(Format::from_path(path), format, "{path}");
        }
    }

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

    fn written<T: Record>(format: Format, items: &[T]) -> String {
        let mut w = Writer::new::<T>(Vec::new(), format, 120);
        for i in items {
            w.item(i).unwrap();
        }
        String::from_utf8(w.finish().unwrap()).unwrap()
    }

    fn sample() -> findings_model::Issue {
        findings_model::Issue {
            id: Some("7".into()),
            rule_id: Some("py.sqli".into()),
            severity: Some(findings_model::Severity::High),
            message: Some("bad | query\nhere".into()),
            file_path: Some("app.py".into()),
            line: Some(3),
            ..Default::default()
        }
    }

    /// The headers a table `width` wide shows, with their widths.
    fn laid_out(columns: &[Column], width: usize) -> Vec<(&'static str, usize)> {
        let widths = table_layout(columns, width);
        assert_eq!(widths.len(), columns.len());
        columns
            .iter()
            .zip(widths)
            .filter_map(|(c, w)| w.map(|w| (c.name, w)))
            .collect()
    }

    fn line_width(shown: &[(&str, usize)]) -> usize {
        shown.iter().map(|(_, w)| w).sum::<usize>() + GAP * (shown.len() - 1)
    }

    #[test]
    fn a_table_fits_the_width_it_is_given() {
        let issues = <Issue as Record>::COLUMNS;
        // Wide: every column of tables at its width, the last taking the
        // rest; the link is for CSV and Markdown only.
        let wide = laid_out(issues, 200);
        let tabled: Vec<&Column> = issues.iter().filter(|c| c.in_table).collect();
        assert_eq!(wide.len(), tabled.len());
        assert!(tabled.len() < issues.len() && !wide.iter().any(|(n, _)| *n == "url"));
        assert_eq!(line_width(&wide), 200);
        for ((name, w), col) in wide.iter().zip(&tabled).take(tabled.len() - 1) {
            assert_eq!((*name, *w), (col.name, col.width));
        }
        // Every width from a narrow terminal up fills it exactly: the
        // columns give way, then the least useful are left out.
        for width in 60..=200 {
            let shown = laid_out(issues, width);
            assert_eq!(line_width(&shown), width, "at {width}: {shown:?}");
            let names: Vec<&str> = shown.iter().map(|(n, _)| *n).collect();
            for kept in ["id", "severity", "rule"] {
                assert!(names.contains(&kept), "at {width}: {names:?}");
            }
            for (name, w) in &shown {
                let col = issues.iter().find(|c| c.name == *name).unwrap();
                assert!(*w >= col.min, "at {width}: {name} {w}");
            }
        }
        // The TUI's order: the type and message (which its list lacks) go
        // first, then the date, the location, the repository; the state
        // stays longest.
        let names =
            |width| -> Vec<&str> { laid_out(issues, width).iter().map(|(n, _)| *n).collect() };
        assert_eq!(
            names(120),
            [
                "id",
                "severity",
                "state",
                "type",
                "rule",
                "repository",
                "location",
                "relevant_since",
                "message"
            ]
        );
        assert_eq!(
            names(100),
            [
                "id",
                "severity",
                "state",
                "rule",
                "repository",
                "location",
                "relevant_since"
            ]
        );
        assert_eq!(
            names(80),
            ["id", "severity", "state", "rule", "repository", "location"]
        );
        // Narrower than the columns never left out: those at their minimum.
        let tiny = laid_out(issues, 20);
        assert_eq!(tiny, [("id", 6), ("severity", 8), ("rule", 16)], "{tiny:?}");
        // Agentic issues lay out the same way.
        let agentic = <AgenticIssue as Record>::COLUMNS;
        for width in 60..=200 {
            assert_eq!(line_width(&laid_out(agentic, width)), width);
        }
    }

    #[test]
    fn table_rows_fit_the_width_and_show_the_short_rule() {
        let mut long = sample();
        long.rule_id = Some("typescript.express.security.audit.open-redirect.open-redirect".into());
        long.message = Some("m".repeat(300));
        long.file_path = Some(format!("{}/app.ts", "dir/".repeat(30)));
        let mut sca = sample();
        sca.rule_id = Some("ssc-5f74be81-4896-5993-a019-2374798726cb".into());
        sca.sca_attributes = Some(findings_model::ScaAttributes {
            vuln_database_identifier: Some("CVE-2024-21907".into()),
            found_dependency: Some(findings_model::Dependency {
                package: Some("Newtonsoft.Json".into()),
                ..Default::default()
            }),
            ..Default::default()
        });
        for width in [80, 120, 200] {
            let mut w = Writer::new::<Issue>(Vec::new(), Format::Table, width);
            for i in [&long, &sca] {
                w.item(i).unwrap();
            }
            let out = String::from_utf8(w.finish().unwrap()).unwrap();
            let lines: Vec<&str> = out.lines().collect();
            assert_eq!(lines.len(), 3);
            for line in &lines {
                assert!(line.width() <= width, "{width}: {line}");
            }
            // The RULE column: where its header starts, the short name.
            let at = lines[0].find("RULE").unwrap();
            let cell = |line: &str| line[at..].split("  ").next().unwrap().to_owned();
            assert_eq!(cell(lines[1]), "open-redirect", "{width}: {out}");
            // The advisory and package, cut only when the terminal is narrow.
            let advisory = cell(lines[2]);
            let full = "CVE-2024-21907 Newtonsoft.Json";
            match advisory.strip_suffix('…') {
                Some(cut) => assert!(width < 200 && full.starts_with(cut), "{width}: {out}"),
                None => assert_eq!(advisory, full),
            }
            assert!(advisory.starts_with("CVE-2024-21907 "), "{width}: {out}");
            // A long path keeps its end: the file name and line.
            if lines[0].contains("LOCATION") {
                let at = lines[0].find("LOCATION").unwrap();
                let location = lines[1][at..].split("  ").next().unwrap();
                assert!(
                    location.starts_with('…') && location.ends_with("/app.ts:3"),
                    "{width}: {location:?}"
                );
            }
        }
        // CSV keeps the rule whole.
        let csv = written(Format::Csv, std::slice::from_ref(&long));
        assert!(csv.contains(",typescript.express.security.audit.open-redirect.open-redirect,"));
    }

    #[test]
    fn at_80_and_100_columns_the_state_shows_and_names_keep_their_end() {
        let mut finding = sample();
        finding.aggregate_state = Some(findings_model::AggregateState::Open);
        finding.repository = Some(findings_model::Repository {
            name: Some("acme-platform-group/payments-api".into()),
            ..Default::default()
        });
        finding.message = Some("a message that a narrow table leaves out".into());
        for width in [80, 100] {
            let out = {
                let mut w = Writer::new::<Issue>(Vec::new(), Format::Table, width);
                w.item(&finding).unwrap();
                String::from_utf8(w.finish().unwrap()).unwrap()
            };
            let lines: Vec<&str> = out.lines().collect();
            let header = lines[0];
            assert!(header.contains("STATE"), "{width}: {out}");
            assert!(!header.contains("MESSAGE"), "{width}: {out}");
            let cell = |name: &str| {
                let at = header.find(name).unwrap();
                lines[1][at..].split("  ").next().unwrap().to_owned()
            };
            assert_eq!(cell("STATE"), "open", "{width}: {out}");
            // Cut on the left, as the TUI cuts it: the name stays.
            let repo = cell("REPOSITORY");
            assert!(
                repo.starts_with('…') && repo.ends_with("/payments-api"),
                "{width}: {repo:?}"
            );
        }
    }

    #[test]
    fn markdown_is_a_table_with_the_table_columns() {
        let mut linked = sample();
        linked.line_of_code_url = Some("https://git.example.com/a/b#L3".into());
        // Not a web link: left out, never offered as one.
        let mut scripted = sample();
        scripted.line_of_code_url = Some("javascript:alert(1)".into());
        let out = written(Format::Markdown, &[linked, scripted]);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 4, "{out}");
        assert_eq!(
            lines[0],
            "| id | severity | state | type | rule | repository | location | relevant_since | message | url |"
        );
        assert_eq!(lines[1].matches("---").count(), 10);
        assert_eq!(
            lines[2],
            "| 7 | high |  |  | py.sqli |  | app.py:3 |  | bad \\| query␤here | https://git.example.com/a/b#L3 |"
        );
        assert!(lines[3].ends_with("here |  |"), "{}", lines[3]);
        // CSV carries the link too.
        let mut linked = sample();
        linked.line_of_code_url = Some("https://git.example.com/a/b#L3".into());
        let csv = written(Format::Csv, &[linked]);
        assert!(csv.starts_with("id,severity,"), "{csv}");
        assert!(
            csv.lines().next().unwrap().ends_with(",message,url"),
            "{csv}"
        );
        assert!(
            csv.lines()
                .nth(1)
                .unwrap()
                .ends_with(",https://git.example.com/a/b#L3"),
            "{csv}"
        );
        // With no items the header is still there.
        let empty = written::<findings_model::Issue>(Format::Markdown, &[]);
        assert_eq!(empty.lines().count(), 2);
    }

    #[test]
    fn sarif_through_the_writer_takes_list_items_and_skips_empty_wrappers() {
        use findings_model::IssueItem;
        let items = [
            IssueItem {
                issue: Some(sample()),
                ..Default::default()
            },
            IssueItem::default(),
        ];
        let mut w = Writer::new::<IssueItem>(Vec::new(), Format::Sarif, 120);
        for i in &items {
            w.item(i).unwrap();
        }
        assert_eq!(w.count(), 2);
        let out = String::from_utf8(w.finish().unwrap()).unwrap();
        let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
        let results = doc["runs"][0]["results"].as_array().unwrap();
        assert_eq!(results.len(), 1);
        assert_eq!(results[0]["ruleId"], "py.sqli");
        assert_eq!(results[0]["level"], "error");
        // Nothing at all is still a valid, empty log.
        let empty = written::<IssueItem>(Format::Sarif, &[]);
        let doc: serde_json::Value = serde_json::from_str(&empty).unwrap();
        assert_eq!(doc["runs"][0]["results"], serde_json::json!([]));
    }

    #[test]
    fn format_names_parse_and_have_extensions() {
        for (f, name) in Format::ALL.iter().zip(Format::NAMES) {
            assert_eq!(Format::parse(name), Some(*f));
            assert_eq!(f.name(), *name);
        }
        assert_eq!(Format::parse("SARIF"), Some(Format::Sarif));
        assert_eq!(Format::parse("md"), Some(Format::Markdown));
        assert_eq!(Format::Sarif.extension(), "sarif");
        assert_eq!(Format::Markdown.extension(), "md");
    }
}
