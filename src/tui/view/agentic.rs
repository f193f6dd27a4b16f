//! The Agentic pane (being built).

use crate::tui::app::App;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::widgets::{Block, Borders, Paragraph};

pub fn draw(f: &mut Frame, area: Rect, app: &App) {
    let _ = app;
    f.render_widget(
        Paragraph::new("coming soon")
            .block(Block::default().borders(Borders::ALL).title(" Agentic ")),
        area,
    );
}

pub fn status(_app: &App) -> String {
    String::new()
}
