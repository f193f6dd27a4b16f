//! CSV fields: RFC 4180 quoting, terminal-safe text, and no formula in
//! any locale's reading.

/// One CSV field (RFC 4180 quoting); control characters are made visible
/// so a spreadsheet or terminal never interprets them.
///
/// Formula injection (OWASP "CSV Injection"), in every locale: a
/// spreadsheet may split a line at `,`, `;` or a tab whatever this file
/// uses, so any of them inside a cell starts a cell there. Wherever a cell
/// may start (the field's start, or after one of those separators, past
/// spaces and quotes), a formula character (`= + - @`, or their full-width
/// forms) gets a `'` before it, which makes the cell text. And a field
/// holding a separator, a quote or a line break is quoted.
pub(crate) fn field(s: &str) -> String {
    let safe = findings_base::text::one_line(s);
    if is_plain(&safe) {
        return safe.into_owned();
    }
    neutralised(&safe)
}

/// A field of one line, a `'` before each formula start and quoted when
/// it must be.
fn neutralised(safe: &str) -> String {
    let mut out = String::with_capacity(safe.len() + 2);
    let mut cell_starts = true;
    for c in safe.chars() {
        if cell_starts && is_formula_start(c) {
            out.push('\'');
        }
        out.push(c);
        cell_starts = match c {
            ',' | ';' | '\t' => true,
            ' ' | '"' => cell_starts,
            _ => false,
        };
    }
    let quote = out.contains([',', ';', '\t', '"', '\n', '\r'])
        || out.starts_with(' ')
        || out.ends_with(' ');
    if quote {
        format!("\"{}\"", out.replace('"', "\"\""))
    } else {
        out
    }
}

/// Whether `s` is a field as it is: printable ASCII with no separator or
/// quote (so one cell, never quoted), not starting with a formula
/// character, not starting or ending with a space. Most fields are; the
/// test of each character is for the rest.
fn is_plain(s: &str) -> bool {
    let bytes = s.as_bytes();
    bytes
        .iter()
        .all(|&b| (0x20..0x7f).contains(&b) && !matches!(b, b',' | b';' | b'"'))
        && !matches!(bytes.first(), Some(b'=' | b'+' | b'-' | b'@' | b' '))
        && bytes.last() != Some(&b' ')
}

/// Characters that make a cell a formula (`\t` and `\r` never reach a
/// cell: `text::one_line` turns them into a space and nothing).
fn is_formula_start(c: char) -> bool {
    matches!(
        c,
        '=' | '+' | '-' | '@' | '\u{ff1d}' | '\u{ff0b}' | '\u{ff0d}' | '\u{ff20}'
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fields let through as they are are those the test of each
    /// character leaves as they are.
    #[test]
    fn a_plain_field_is_one_the_full_test_keeps() {
        let cases = [
            "plain",
            "a b",
            "path/to/file.go:12",
            "x=1",
            "a-b",
            "",
            " lead",
            "trail ",
            "=f",
            "+1",
            "-1",
            "@me",
            "a,b",
            "a;b",
            "a\"b",
            "a\tb",
            "caf\u{e9}",
            "\u{ff1d}x",
            "#1",
        ];
        for case in cases {
            if is_plain(case) {
                assert_eq!(neutralised(case), case, "{case:?}");
            }
        }
        assert!(is_plain("path/to/file.go:12") && is_plain("x=1") && is_plain(""));
        assert!(
            !is_plain("=f") && !is_plain(" lead") && !is_plain("a,b") && !is_plain("caf\u{e9}")
        );
    }

    #[test]
    fn csv_fields_are_quoted_and_neutralised() {
        assert_eq!(field("plain"), "plain");
        assert_eq!(field("a,b"), "\"a,b\"");
        assert_eq!(field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(field("x\u{1b}[31my\nz"), "x␛[31my␤z");
        assert_eq!(field("=cmd()"), "'=cmd()");
    }

    /// How a spreadsheet reads a line with `sep` as the separator (RFC
    /// 4180 quoting, as Excel and LibreOffice read it): the cells, unquoted.
    fn read_csv_line(line: &str, sep: char) -> Vec<String> {
        let mut cells = Vec::new();
        let mut cell = String::new();
        let mut quoted = false;
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '"' if quoted && chars.peek() == Some(&'"') => {
                    chars.next();
                    cell.push('"');
                }
                '"' if quoted => quoted = false,
                '"' if cell.trim().is_empty() => quoted = true,
                c if c == sep && !quoted => cells.push(std::mem::take(&mut cell)),
                c => cell.push(c),
            }
        }
        cells.push(cell);
        cells
    }

    #[test]
    fn no_reading_of_a_csv_line_finds_a_formula_cell() {
        let hostile = [
            "x;=HYPERLINK(\"http://evil.example\",\"click\")",
            "x,=1+1",
            "x\t=1+1",
            "a; -2+3",
            "a;\"@SUM(A1)\"",
            "\t=cmd",
            "\r=cmd",
            " =cmd",
            "\u{ff1d}cmd",
            "x;\u{ff0b}1",
            "+1 555",
            "@me",
            "plain; text, with separators",
        ];
        let line = hostile
            .iter()
            .map(|h| field(h))
            .collect::<Vec<_>>()
            .join(",");
        let formula = |cell: &str| cell.trim_start().starts_with(is_formula_start);
        for sep in [',', ';', '\t'] {
            let cells = read_csv_line(&line, sep);
            let bad: Vec<&String> = cells.iter().filter(|c| formula(c)).collect();
            assert!(bad.is_empty(), "read with {sep:?}: {bad:?} in {line}");
        }
        // Read with the file's own separator, each cell is the value, with
        // a `'` before each formula character where a cell could start.
        let cells = read_csv_line(&line, ',');
        assert_eq!(cells.len(), hostile.len(), "{line}");
        assert_eq!(cells[0], "x;'=HYPERLINK(\"http://evil.example\",\"click\")");
        assert_eq!(cells[1], "x,'=1+1");
        assert_eq!(cells[2], "x =1+1", "a tab is a space in a cell");
        assert_eq!(cells[3], "a; '-2+3");
        assert_eq!(cells[6], "'=cmd");
        assert_eq!(cells[12], "plain; text, with separators");
    }
}
