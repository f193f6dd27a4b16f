//! Colours and text styles. The defaults use the terminal's own palette
//! (named colours, bold, reverse), which reads on dark and light
//! backgrounds alike; `NO_COLOR` drops every colour and keeps the rest.

use crate::api::model::Severity;
use ratatui::style::{Color, Modifier, Style};

#[derive(Debug, Clone)]
pub struct Theme {
    pub color: bool,
}

impl Default for Theme {
    fn default() -> Self {
        Theme { color: true }
    }
}

impl Theme {
    /// Honours `NO_COLOR` (any non-empty value).
    pub fn from_env() -> Theme {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Theme { color: !no_color }
    }

    fn fg(&self, c: Color) -> Style {
        if self.color {
            Style::new().fg(c)
        } else {
            Style::new()
        }
    }

    pub fn title(&self) -> Style {
        Style::new().add_modifier(Modifier::BOLD)
    }

    pub fn dim(&self) -> Style {
        if self.color {
            Style::new().fg(Color::DarkGray)
        } else {
            Style::new().add_modifier(Modifier::DIM)
        }
    }

    pub fn selected(&self) -> Style {
        Style::new().add_modifier(Modifier::REVERSED)
    }

    pub fn header_row(&self) -> Style {
        Style::new().add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
    }

    pub fn key(&self) -> Style {
        self.fg(Color::Cyan).add_modifier(Modifier::BOLD)
    }

    pub fn accent(&self) -> Style {
        self.fg(Color::Cyan)
    }

    pub fn badge(&self) -> Style {
        if self.color {
            Style::new()
                .fg(Color::Black)
                .bg(Color::Yellow)
                .add_modifier(Modifier::BOLD)
        } else {
            Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD)
        }
    }

    pub fn error(&self) -> Style {
        self.fg(Color::Red).add_modifier(Modifier::BOLD)
    }

    pub fn ok(&self) -> Style {
        self.fg(Color::Green)
    }

    pub fn added(&self) -> Style {
        self.fg(Color::Green)
    }

    pub fn removed(&self) -> Style {
        self.fg(Color::Red)
    }

    pub fn severity(&self, s: Option<&Severity>) -> Style {
        match s {
            Some(Severity::Critical) => self.fg(Color::Magenta).add_modifier(Modifier::BOLD),
            Some(Severity::High) => self.fg(Color::Red).add_modifier(Modifier::BOLD),
            Some(Severity::Medium) => self.fg(Color::Yellow),
            Some(Severity::Low) => self.fg(Color::Blue),
            _ => self.dim(),
        }
    }
}
