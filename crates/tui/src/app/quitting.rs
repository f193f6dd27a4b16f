//! Quitting with unsent work. `q`, `:q` and Ctrl-C ask first, in the
//! question popup, naming what would be lost (each unsent SCM draft by its
//! config, each kept triage draft by its findings, a triage in flight, an
//! export being written, the demo's triages of the session); only `y`
//! quits: a second `q` is not a yes (a double tap is a habit, not a
//! decision). Ctrl-C on the question quits anyway, as the popup says;
//! `:q!` quits without asking.

use super::{App, Overlay};
use crate::message::{Asker, Question};

impl App {
    /// What quitting now would lose, one line each.
    pub fn unsent_work(&self) -> Vec<String> {
        let mut lost = Vec::new();
        for pane in self.panes() {
            lost.extend(pane.unsent_work());
        }
        lost.extend(self.triage.unsent_work());
        lost.extend(self.actions.unsent_work());
        if self.exports_running > 0 {
            lost.push(match self.exports_running {
                1 => "an export being written (the file would be left unfinished)".to_owned(),
                n => format!("{n} exports being written (their files would be left unfinished)"),
            });
        }
        let triaged = self.triage.history.len();
        if self.session.demo && triaged > 0 {
            lost.push(format!(
                "the {} of this session on the embedded demo server, which forgets {} at exit",
                if triaged == 1 {
                    "triage".to_owned()
                } else {
                    format!("{triaged} triages")
                },
                if triaged == 1 { "it" } else { "them" }
            ));
        }
        lost
    }

    /// `q`, `:q`, Ctrl-C: quits when nothing would be lost, else asks.
    pub(super) fn ask_to_quit(&mut self) {
        let lost = self.unsent_work();
        if lost.is_empty() {
            return self.quit_now();
        }
        self.ask(Question {
            title: "Quit with unsent work?".into(),
            said: "Quitting now loses:".into(),
            items: lost,
            yes: "quit anyway".into(),
            no: "stay: nothing is dropped (a second q is not a yes)".into(),
            asker: Asker::Quit,
        });
    }

    /// Ctrl-C: asks once when work is unsent; on that question, quits.
    pub(super) fn on_ctrl_c(&mut self) {
        if self.asking() == Some(Asker::Quit) {
            return self.quit_now();
        }
        // Another question is answered no first: quitting is asked alone.
        if self.asking().is_some() {
            self.answer(false);
        }
        self.ask_to_quit();
    }

    /// Who asks the question on show, if one is.
    pub(super) fn asking(&self) -> Option<Asker> {
        match &self.overlay {
            Some(Overlay::Question { question, .. }) => Some(question.asker),
            _ => None,
        }
    }
}
