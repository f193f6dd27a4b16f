//! A yes/no question, as a pane or the app asks it: what is at stake, what
//! each answer does, and who hears the answer. The app shows every one the
//! same way (a popup that takes only its answer keys).

use super::PaneId;

/// One yes/no question.
#[derive(Debug, Clone, PartialEq)]
pub struct Question {
    /// The popup's title, a question ("Drop the 1,824 loaded findings?").
    pub title: String,
    /// What is at stake, in words (wrapped to the popup).
    pub said: String,
    /// What is at stake, item by item (bulleted; for quitting, what
    /// would be lost).
    pub items: Vec<String>,
    /// What `y` does ("apply the filter, load its first page").
    pub yes: String,
    /// What `n` and `Esc` do ("keep them, the filter as it was").
    pub no: String,
    /// Who hears the answer.
    pub asker: Asker,
}

/// Who asked a question, and so hears its answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Asker {
    /// Quitting with unsent work: `y` quits.
    Quit,
    /// A pane: it hears [`super::PaneMsg::Answered`].
    Pane(PaneId),
}

impl Question {
    /// The question in one line, as the status line and `:messages` say it.
    pub fn one_line(&self) -> String {
        format!("{} y: {} · n: {}", self.title, self.yes, self.no)
    }
}
