//! Draws the dialog its content gives (see [`super::content`]).

use super::Actions;
use crate::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;

pub fn draw(f: &mut Frame, body: Rect, actions: &Actions, theme: &Theme) {
    if let Some((width, dialog)) = super::content::shown(body, actions, theme) {
        crate::widgets::dialog::draw(f, body, width, dialog, theme);
    }
}
