//! Where a list is: the selected row's position (`12/340`) for the block's
//! bottom border, and a scrollbar over its right border when the rows do
//! not all fit.

use crate::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Scrollbar, ScrollbarOrientation, ScrollbarState};

/// ` 12/340 ` for the selected row of `len`; `of` replaces `len` when the
/// list knows more than it holds (`12/100+`, `12/1,098`). `None` for an
/// empty list.
pub fn position(selected: usize, len: usize, of: Option<String>) -> Option<Line<'static>> {
    (len > 0).then(|| {
        let of = of.unwrap_or_else(|| findings_base::text::thousands_of(len));
        Line::from(format!(
            " {}/{of} ",
            findings_base::text::thousands_of(selected.min(len - 1) + 1)
        ))
        .right_aligned()
    })
}

/// A scrollbar on the right border of the bordered list at `area`, beside
/// its `rows`, showing rows `offset..` of `len`; none when all fit.
pub fn scrollbar(f: &mut Frame, theme: &Theme, area: Rect, rows: Rect, len: usize, offset: usize) {
    let visible = rows.height as usize;
    if len <= visible || visible == 0 || area.width < 2 {
        return;
    }
    let track = Rect {
        x: area.right() - 1,
        y: rows.y,
        width: 1,
        height: rows.height,
    };
    let mut state = ScrollbarState::new(len - visible + 1)
        .position(offset.min(len - visible))
        .viewport_content_length(visible);
    let bar = Scrollbar::new(ScrollbarOrientation::VerticalRight)
        .begin_symbol(None)
        .end_symbol(None)
        .track_symbol(Some("│"))
        .thumb_symbol("┃")
        .thumb_style(theme.accent());
    f.render_stateful_widget(bar, track, &mut state);
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    #[test]
    fn the_position_counts_from_one_and_says_what_is_known_beyond() {
        let text = |l: Option<Line>| l.map(|l| l.to_string());
        assert_eq!(text(position(11, 340, None)).as_deref(), Some(" 12/340 "));
        assert_eq!(
            text(position(0, 100, Some("100+".into()))).as_deref(),
            Some(" 1/100+ ")
        );
        assert_eq!(text(position(500, 3, None)).as_deref(), Some(" 3/3 "));
        assert_eq!(text(position(0, 0, None)), None);
    }

    #[test]
    fn the_scrollbar_thumb_follows_the_offset_and_is_absent_when_all_fit() {
        let theme = Theme::default();
        let column = |len: usize, offset: usize| {
            let mut t = Terminal::new(TestBackend::new(5, 12)).unwrap();
            t.draw(|f| {
                let area = f.area();
                let rows = Rect::new(1, 2, 3, 9);
                scrollbar(f, &theme, area, rows, len, offset);
            })
            .unwrap();
            let buf = t.backend().buffer().clone();
            (2..11)
                .map(|y| buf[(4, y)].symbol().to_owned())
                .collect::<String>()
        };
        assert_eq!(column(9, 0), "         ");
        let top = column(90, 0);
        let bottom = column(90, 81);
        assert!(top.starts_with('┃') && top.ends_with('│'), "{top}");
        assert!(bottom.starts_with('│') && bottom.ends_with('┃'), "{bottom}");
    }
}

#[cfg(test)]
mod position_tests {
    /// The counter writes its figures as every figure on screen is.
    #[test]
    fn the_position_counter_groups_thousands() {
        let line = super::position(73_099, 90_955, None).unwrap();
        let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
        assert_eq!(text, " 73,100/90,955 ");
    }
}
