//! A dialog over the body: centred, as tall as its lines need (up to the
//! body), titled, with its keys in the bottom border; a review or a
//! result scrolls, the scroll clamped so the last line stays in sight.

use crate::layout;
use crate::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

/// What a dialog shows: its title, lines and key hint.
pub struct Dialog<'a> {
    pub title: String,
    pub lines: Vec<Line<'a>>,
    pub hint: &'a str,
    /// Lines scrolled past (`None`: the dialog does not scroll).
    pub scroll: Option<u16>,
}

impl Dialog<'_> {
    /// Its scroll's end and page in `body`.
    pub fn bound(&self, body: Rect) -> layout::ScrollBound {
        let (page, end) = layout::dialog_rows(body, self.lines.len());
        layout::ScrollBound { end, page }
    }
}

pub fn draw(f: &mut Frame, body: Rect, width: u16, dialog: Dialog<'_>, theme: &Theme) {
    let (rows, max) = layout::dialog_rows(body, dialog.lines.len());
    let popup = layout::centered(body, width, rows + 2);
    let scroll = dialog.scroll.map_or(0, |s| s.min(max));
    f.render_widget(Clear, popup);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(Span::styled(dialog.title, theme.title()))
        .title_bottom(super::common::fit_hint(
            dialog.hint,
            popup.width.saturating_sub(2) as usize,
        ));
    f.render_widget(
        Paragraph::new(dialog.lines)
            .block(block)
            .scroll((scroll, 0)),
        popup,
    );
}
