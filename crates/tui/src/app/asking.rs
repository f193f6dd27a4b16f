//! Yes/no questions, from the app (quitting) or a pane (a new filter that
//! drops a list loaded whole): one popup for all, which takes only its
//! answers. `y` is yes, `n` and `Esc` no; any other key leaves the question
//! up, says "y or n", and reaches nothing else (a `:` typed to read the
//! question must not answer it).

use super::{App, Overlay};
use crate::message::{Asker, PaneMsg, Question};
use crossterm::event::{KeyCode, KeyEvent};

impl App {
    /// Shows `question` until it is answered; the status line and
    /// `:messages` say it too.
    pub(super) fn ask(&mut self, question: Question) {
        self.status = Some(question.one_line());
        self.overlay = Some(Overlay::Question {
            question: Box::new(question),
            nagged: false,
        });
    }

    /// What the status line says first: the question on show (in short:
    /// the popup says the rest), else the last message.
    pub fn said_first(&self) -> Option<String> {
        match &self.overlay {
            Some(Overlay::Question { question, nagged }) if *nagged => {
                Some(format!("y or n: {}", question.title))
            }
            Some(Overlay::Question { question, .. }) => Some(format!("{} y or n", question.title)),
            _ => self.status.clone(),
        }
    }

    /// A key on a question: its answers answer, the rest are not passed on.
    pub(super) fn on_question_key(&mut self, key: KeyEvent) {
        match key.code {
            KeyCode::Char('y' | 'Y') => self.answer(true),
            KeyCode::Char('n' | 'N') | KeyCode::Esc => self.answer(false),
            _ => {
                if let Some(Overlay::Question { nagged, .. }) = &mut self.overlay {
                    *nagged = true;
                }
                self.status = self.said_first();
            }
        }
    }

    /// Closes the question and tells its asker.
    pub(super) fn answer(&mut self, yes: bool) {
        let Some(Overlay::Question { question, .. }) = self.overlay.take() else {
            return;
        };
        match (question.asker, yes) {
            (Asker::Quit, true) => self.quit_now(),
            (Asker::Quit, false) => self.status = Some("not quitting: nothing was dropped".into()),
            (Asker::Pane(pane), yes) => {
                self.status = None;
                self.hand_to_pane(pane, PaneMsg::Answered(yes));
            }
        }
    }
}
