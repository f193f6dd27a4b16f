//! A row of tabs that fits its width: the tabs around the selected one,
//! each title whole, with `‹` or `›` where more tabs are off to that side
//! (a 60-column split cut `Supply chain` to `Supp`, with no sign of more).

use crate::theme::Theme;
use ratatui::text::{Line, Span};
use unicode_width::UnicodeWidthStr;

/// The tabs `titles`, `selected` among them, in at most `width` columns.
pub fn tab_bar<'a>(titles: &[&str], selected: usize, width: usize, theme: &Theme) -> Line<'a> {
    let (start, end) = window(titles, selected, width);
    let mut spans = Vec::new();
    if start > 0 {
        spans.push(Span::styled("‹", theme.dim()));
    }
    for (i, title) in titles.iter().enumerate().take(end).skip(start) {
        if i > start {
            spans.push(Span::raw("│"));
        }
        let text = format!(" {title} ");
        spans.push(if i == selected {
            Span::styled(text, theme.selected())
        } else {
            Span::raw(text)
        });
    }
    if end < titles.len() {
        spans.push(Span::styled("›", theme.dim()));
    }
    Line::from(spans)
}

/// The tabs `start..end` shown: the first window from the left that holds
/// the selected tab whole with its indicators, else the selected tab alone.
fn window(titles: &[&str], selected: usize, width: usize) -> (usize, usize) {
    let shown = |start: usize, end: usize| {
        let tabs: usize = titles[start..end].iter().map(|t| t.width() + 2).sum();
        let dividers = end - start - 1;
        let marks = usize::from(start > 0) + usize::from(end < titles.len());
        tabs + dividers + marks
    };
    let selected = selected.min(titles.len().saturating_sub(1));
    for start in 0..=selected {
        let mut end = selected + 1;
        if shown(start, end) > width {
            continue;
        }
        while end < titles.len() && shown(start, end + 1) <= width {
            end += 1;
        }
        return (start, end);
    }
    (selected, (selected + 1).min(titles.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABS: [&str; 7] = [
        "Overview",
        "Code",
        "Remediation",
        "Activity",
        "Related",
        "Supply chain",
        "Secrets",
    ];

    fn text(line: &Line) -> String {
        line.spans.iter().map(|s| s.content.as_ref()).collect()
    }

    #[test]
    fn the_selected_tab_is_shown_whole_with_a_sign_of_the_others() {
        let theme = Theme::default();
        let wide = text(&tab_bar(&TABS, 5, 200, &theme));
        assert!(!wide.contains('‹') && !wide.contains('›'), "{wide}");
        assert!(wide.contains(" Supply chain │ Secrets "), "{wide}");
        // In a 40-column detail: the selected tab whole, and `‹` for the
        // tabs to its left.
        let narrow = text(&tab_bar(&TABS, 5, 40, &theme));
        assert!(narrow.starts_with('‹'), "{narrow}");
        assert!(narrow.contains(" Supply chain "), "{narrow}");
        assert!(narrow.width() <= 40, "{narrow}");
        // The first tab selected: `›` for the rest.
        let first = text(&tab_bar(&TABS, 0, 40, &theme));
        assert!(first.starts_with(" Overview "), "{first}");
        assert!(first.ends_with('›'), "{first}");
        assert!(first.width() <= 40, "{first}");
        // Too narrow for the selected tab: it alone, cut by the frame.
        let tiny = text(&tab_bar(&TABS, 5, 6, &theme));
        assert!(tiny.contains("Supply chain"), "{tiny}");
    }
}
