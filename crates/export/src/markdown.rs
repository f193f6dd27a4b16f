//! GitHub-flavoured Markdown tables: the columns of the table format, one
//! row per item. Cells are one line (control characters made visible by
//! `text::one_line`, newlines shown as `␤`), and the characters that would
//! end a cell or start markup are escaped: `\`, `|`, `<`, `>`, `[`, `]`.

/// The header and the delimiter row.
pub fn header<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    let names: Vec<&str> = names.into_iter().collect();
    let head = row(names.iter().copied());
    let rule = row(names.iter().map(|_| "---"));
    format!("{head}\n{rule}")
}

/// One table row.
pub fn row<'a>(cells: impl IntoIterator<Item = &'a str>) -> String {
    let mut line = String::from("|");
    for c in cells {
        line.push(' ');
        line.push_str(&cell(c));
        line.push_str(" |");
    }
    line
}

/// One cell's text, safe inside a table row.
pub fn cell(s: &str) -> String {
    let safe = findings_base::text::one_line(s);
    let mut out = String::with_capacity(safe.len());
    for c in safe.trim().chars() {
        if matches!(c, '\\' | '|' | '<' | '>' | '[' | ']') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_escape_pipes_markup_and_controls() {
        assert_eq!(cell("a|b"), "a\\|b");
        assert_eq!(cell("back\\slash"), "back\\\\slash");
        assert_eq!(cell("<script>x</script>"), "\\<script\\>x\\</script\\>");
        assert_eq!(cell("![img](http://x)"), "!\\[img\\](http://x)");
        assert_eq!(cell("line1\nline2"), "line1␤line2");
        assert_eq!(cell("x\u{1b}[31my"), "x␛\\[31my");
        assert_eq!(cell("  padded  "), "padded");
        assert_eq!(cell(""), "");
    }

    #[test]
    fn header_has_a_delimiter_row_per_column() {
        assert_eq!(header(["id", "rule"]), "| id | rule |\n| --- | --- |");
        assert_eq!(row(["1", "a|b"]), "| 1 | a\\|b |");
    }
}
