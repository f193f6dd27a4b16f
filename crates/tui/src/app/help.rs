//! The help overlay's content and box, and the error popup's lines: a
//! function of the state and the body's area, read by the view to draw
//! them and by update to know where their end is (`G`, and `k` from the
//! end moving at once).

use super::App;
use crate::keymap::{Action, Context};
use crate::layout;
use crate::widgets::reflow;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use unicode_width::UnicodeWidthStr;

/// The help as shown in `body`: its box, its lines (wrapped to the box),
/// and the keys' footer.
pub struct HelpBox {
    pub popup: Rect,
    pub lines: Vec<Line<'static>>,
    pub footer: String,
}

impl HelpBox {
    /// The keys of where help was opened, in a box as wide as its widest
    /// line (the terminal allowing); narrower, lines wrap under their
    /// description.
    pub fn new(app: &App, body: Rect) -> HelpBox {
        let theme = &app.theme;
        // Help lists the bindings of the context it was opened from.
        let mut contexts = app.pane_contexts();
        contexts.push(Context::GLOBAL);
        // A key bound in an inner context shadows the outer binding: only
        // what the key really does here is listed.
        let mut seen = std::collections::HashSet::new();
        let mut sections = Vec::new();
        // What the keys mean in what is shown, first.
        if app.detail.is_none()
            && let Some(here) = app.current().help_here(&app.view_cx())
        {
            sections.push(here);
        }
        for ctx in contexts {
            let bindings = app.keymap.bindings(ctx);
            let mut rows = Vec::new();
            for b in bindings {
                let keys: Vec<String> = b
                    .keys
                    .iter()
                    .filter(|k| !seen.contains(*k))
                    .map(ToString::to_string)
                    .collect();
                if !keys.is_empty() {
                    rows.push((keys.join(", "), b.desc.clone()));
                }
            }
            seen.extend(bindings.iter().flat_map(|b| b.keys.iter().copied()));
            sections.push((app.context_title(ctx).to_owned(), rows));
        }
        let key_width = sections
            .iter()
            .flat_map(|(_, rows)| rows.iter().map(|(k, _)| k.width()))
            .max()
            .unwrap_or(0)
            .clamp(6, 24);
        let mut lines = Vec::new();
        for (title, rows) in sections {
            lines.push(Line::from(Span::styled(title, theme.title())));
            for (keys, desc) in rows {
                lines.push(Line::from(vec![
                    Span::styled(format!("  {keys:<key_width$}  "), theme.key()),
                    Span::raw(desc),
                ]));
            }
            lines.push(Line::default());
        }
        lines.pop();
        let footer = format!(
            " {} close · {}/{} scroll · {}/{} top/end ",
            app.keymap.hint(Context::HELP, Action::Back),
            app.keymap.hint(Context::HELP, Action::Down),
            app.keymap.hint(Context::HELP, Action::Up),
            app.keymap.hint(Context::HELP, Action::Top),
            app.keymap.hint(Context::HELP, Action::Bottom),
        );
        let natural = reflow::widest(&lines).max(footer.width() + 2) + 2;
        let width = natural.min(body.width as usize);
        let lines = reflow::reflow(lines, width.saturating_sub(2));
        let height = (lines.len() + 2).min(body.height as usize);
        let popup = layout::centered(body, layout::cells(width), layout::cells(height));
        HelpBox {
            popup,
            lines,
            footer,
        }
    }

    /// Rows of text the box shows.
    pub fn rows(&self) -> u16 {
        self.popup.height.saturating_sub(2)
    }

    /// The offset that shows the last line at the bottom.
    pub fn max_scroll(&self) -> u16 {
        layout::cells(self.lines.len().saturating_sub(self.rows() as usize))
    }

    /// The offset after `action` from `scroll`, never past the end, so `k`
    /// from the end moves at once. `None`: the action closes the help.
    pub fn scrolled(&self, scroll: u16, action: Action) -> Option<u16> {
        let bound = layout::ScrollBound {
            end: self.max_scroll(),
            page: self.rows(),
        };
        bound.after(scroll, action)
    }
}

/// The error popup's width, the body allowing.
pub const ERROR_WIDTH: u16 = 76;

/// The error popup's lines in `body`, wrapped inside its borders: the view
/// draws them, update knows where they end.
pub fn error_lines(message: &str, body: Rect) -> Vec<String> {
    let width = ERROR_WIDTH.min(body.width).saturating_sub(2);
    crate::widgets::common::wrap(message, width as usize)
}
