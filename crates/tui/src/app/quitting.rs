//! Quitting with unsent work. `q`, `:q` and Ctrl-C ask first, in a y/n
//! prompt that names what would be lost (each unsent SCM draft by its
//! config, each kept triage draft by its findings, a triage in flight, an
//! export being written, the demo's triages of the session); only `y`
//! quits: a second `q` is not a yes (a double tap is a habit, not a
//! decision). Ctrl-C on the prompt quits anyway, as the prompt says;
//! `:q!` quits without asking.

use super::{App, Overlay};
use crossterm::event::{KeyCode, KeyEvent};

/// The prompt: what quitting would lose.
#[derive(Debug, Clone, PartialEq)]
pub struct QuitPrompt {
    pub lost: Vec<String>,
}

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
        self.status = Some(format!(
            "quit? {} would be lost: y quits, n stays",
            lost.len()
        ));
        self.overlay = Some(Overlay::Quit(QuitPrompt { lost }));
    }

    /// Ctrl-C: asks once when work is unsent; on the prompt, quits.
    pub(super) fn on_ctrl_c(&mut self) {
        if matches!(self.overlay, Some(Overlay::Quit(_))) {
            return self.quit_now();
        }
        self.ask_to_quit();
    }

    /// A key on the prompt: `y` quits, `n` or `Esc` stays, anything else
    /// (a second `q` included) is not an answer.
    pub(super) fn on_quit_key(&mut self, key: KeyEvent) {
        match key.code {
            KeyCode::Char('y' | 'Y') => self.quit_now(),
            KeyCode::Char('n' | 'N') | KeyCode::Esc => {
                self.overlay = None;
                self.status = Some("not quitting: nothing was dropped".into());
            }
            _ => self.status = Some("only y quits (n or Esc stays)".into()),
        }
    }
}
