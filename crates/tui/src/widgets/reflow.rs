//! Lines wider than their pane, wrapped rather than cut: a detail's long
//! URL or CWE name, a help line. A continuation is indented under the
//! value (past a `label  ` first span, or the line's own indent), and
//! breaks at a space, or after a `/`, `-`, `,`, `&`, `?` or `=` when the
//! word is longer than the room (URLs), else anywhere.

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use unicode_width::UnicodeWidthChar;

/// `lines` with every line wider than `width` wrapped.
pub fn reflow(lines: Vec<Line<'_>>, width: usize) -> Vec<Line<'static>> {
    let mut out = Vec::with_capacity(lines.len());
    for line in lines {
        if line.width() <= width || width < 4 {
            out.push(owned(line));
        } else {
            wrap_line(&line, width, &mut out);
        }
    }
    out
}

fn owned(line: Line<'_>) -> Line<'static> {
    let spans: Vec<Span<'static>> = line
        .spans
        .into_iter()
        .map(|s| Span::styled(s.content.into_owned(), s.style))
        .collect();
    Line {
        spans,
        style: line.style,
        alignment: line.alignment,
    }
}

/// The indent of a line's continuations.
fn hang(line: &Line<'_>, width: usize) -> usize {
    let label = match line.spans.as_slice() {
        [first, _, ..] if first.content.ends_with(' ') => first.width(),
        _ => {
            let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
            text.len() - text.trim_start_matches(' ').len()
        }
    };
    // A continuation keeps at least half the width for its text.
    label.min(width / 2)
}

fn wrap_line(line: &Line<'_>, width: usize, out: &mut Vec<Line<'static>>) {
    let hang = hang(line, width);
    let chars: Vec<(char, Style)> = line
        .spans
        .iter()
        .flat_map(|s| s.content.chars().map(move |c| (c, s.style)))
        .collect();
    let mut start = 0;
    let mut first = true;
    while start < chars.len() {
        let room = if first { width } else { width - hang };
        // How many chars fit in `room` columns.
        let mut used = 0;
        let mut end = start;
        while end < chars.len() {
            let w = chars[end].0.width().unwrap_or(0);
            if used + w > room {
                break;
            }
            used += w;
            end += 1;
        }
        if end == start {
            // A character wider than the room: show it alone.
            end = start + 1;
        }
        if end < chars.len() {
            let past = if first { hang } else { 0 };
            end = break_at(&chars[start..end], room, past).map_or(end, |k| start + k);
        }
        let mut spans: Vec<Span<'static>> = Vec::new();
        if !first {
            spans.push(Span::raw(" ".repeat(hang)));
        }
        let mut piece = &chars[start..end];
        if !first {
            // A continuation does not start with the space it broke at.
            while let [(' ', _), rest @ ..] = piece {
                piece = rest;
            }
        }
        if end < chars.len() {
            while let [rest @ .., (' ', _)] = piece {
                piece = rest;
            }
        }
        for &(c, style) in piece {
            // Never into the indent's span.
            let merge = first || spans.len() > 1;
            match spans.last_mut() {
                Some(last) if merge && last.style == style => last.content.to_mut().push(c),
                _ => spans.push(Span::styled(c.to_string(), style)),
            }
        }
        out.push(Line {
            spans,
            style: line.style,
            alignment: line.alignment,
        });
        start = end;
        first = false;
    }
}

/// Where to end a row of `row` chars: after its last space, else after its
/// last URL separator, when that keeps at least a third of the room and
/// more than the first `past` columns (a label).
fn break_at(row: &[(char, Style)], room: usize, past: usize) -> Option<usize> {
    let at = |pred: &dyn Fn(char) -> bool| {
        row.iter()
            .rposition(|(c, _)| pred(*c))
            .map(|k| k + 1)
            .filter(|&k| {
                let w: usize = row[..k].iter().map(|(c, _)| c.width().unwrap_or(0)).sum();
                w * 3 >= room && w > past
            })
    };
    at(&|c| c == ' ').or_else(|| at(&|c| matches!(c, '/' | '-' | ',' | '&' | '?' | '=')))
}

/// The width of the widest line.
pub fn widest(lines: &[Line<'_>]) -> usize {
    lines.iter().map(Line::width).max().unwrap_or(0)
}

/// The text of `line` (for tests).
#[cfg(test)]
fn text(line: &Line<'_>) -> String {
    line.spans.iter().map(|s| s.content.as_ref()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(lines: &[Line<'_>]) -> Vec<String> {
        lines.iter().map(text).collect()
    }

    #[test]
    fn a_long_value_wraps_under_itself_and_nothing_is_lost() {
        let url = "https://cwe.mitre.org/data/definitions/89.html?lang=en&view=full";
        let line = Line::from(vec![
            Span::styled(format!("{:<17} ", "link"), Style::new().dim()),
            Span::raw(url),
        ]);
        let lines = reflow(vec![line], 40);
        let t = texts(&lines);
        assert!(lines.iter().all(|l| l.width() <= 40), "{t:?}");
        assert_eq!(t[0], format!("{:<18}https://cwe.mitre.org/", "link"));
        for cont in &t[1..] {
            assert!(cont.starts_with(&" ".repeat(18)), "{t:?}");
        }
        let joined: String = t.iter().map(|l| l.trim_start()).collect::<Vec<_>>()[1..].concat();
        assert_eq!(format!("https://cwe.mitre.org/{joined}"), url);
        // The label keeps its style; the value its own.
        assert_eq!(lines[0].spans[0].style, Style::new().dim());
    }

    #[test]
    fn words_break_at_spaces_and_short_lines_stay_as_they_are() {
        let cwe = "  CWE-89: Improper Neutralization of Special Elements used in an SQL Command";
        let t = texts(&reflow(vec![Line::from(cwe), Line::from("short")], 30));
        assert_eq!(
            t,
            vec![
                "  CWE-89: Improper",
                "  Neutralization of Special",
                "  Elements used in an SQL",
                "  Command",
                "short",
            ]
        );
    }

    #[test]
    fn wide_characters_and_tiny_widths_never_overflow_or_panic() {
        let line = Line::from("用户输入未经验证即被使用用户输入未经验证即被使用");
        let lines = reflow(vec![line.clone()], 7);
        assert!(lines.iter().all(|l| l.width() <= 7));
        assert_eq!(texts(&lines).concat(), text(&line));
        assert_eq!(reflow(vec![line], 0).len(), 1);
    }
}
