//! Draws the dialog its content gives (see [`super::content`]).

use super::Triage;
use crate::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;

pub fn draw(f: &mut Frame, body: Rect, triage: &Triage, theme: &Theme) {
    if let Some((width, dialog)) = super::content::shown(body, triage, theme) {
        crate::widgets::dialog::draw(f, body, width, dialog, theme);
    }
}
