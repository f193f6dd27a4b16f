//! The `:` line's editing: Tab completes (command names, then what the
//! command's pane offers: fields, values, sort fields), repeated Tab cycles
//! through the candidates; Up/Down recall the commands of this session.

use super::{App, Overlay};
use crossterm::event::{KeyCode, KeyEvent};
use tui_input::Input;
use tui_input::backend::crossterm::EventHandler;

/// The most commands the history keeps.
const HISTORY: usize = 100;

#[derive(Debug, Clone, Default)]
pub struct CommandLine {
    pub input: Input,
    /// The history entry on show (`None`: the line being typed).
    recalled: Option<usize>,
    /// The line being typed while the history is browsed.
    draft: String,
    /// The candidates of the last Tab, while Tab cycles through them.
    pub completion: Option<Completion>,
}

#[derive(Debug, Clone)]
pub struct Completion {
    /// The line before the completed word.
    stem: String,
    pub candidates: Vec<String>,
    /// The candidate on show, once Tab cycles.
    pub chosen: Option<usize>,
    /// The line as the last Tab left it (typing ends the cycle).
    shown: String,
}

impl Completion {
    /// How the candidates are listed: without the start they share up to
    /// its last `=` or `,` (`critical high`, not `severities=critical …`).
    pub fn listed(&self) -> impl Iterator<Item = &str> {
        let shared = common_prefix(&self.candidates);
        let cut = shared.rfind(['=', ',']).map_or(0, |i| i + 1);
        self.candidates.iter().map(move |c| &c[cut..])
    }
}

impl CommandLine {
    fn set(&mut self, value: String) {
        self.input = Input::new(value);
    }
}

/// A key on the `:` line.
pub(super) fn on_key(app: &mut App, key: KeyEvent) {
    let Some(Overlay::Command(line)) = &mut app.overlay else {
        return;
    };
    match key.code {
        KeyCode::Esc => app.overlay = None,
        KeyCode::Enter => {
            let text = line.input.value().to_owned();
            app.overlay = None;
            if !text.trim().is_empty() && app.command_history.last() != Some(&text) {
                app.command_history.push(text.clone());
                if app.command_history.len() > HISTORY {
                    app.command_history.remove(0);
                }
            }
            app.run_command(&text);
        }
        KeyCode::Up | KeyCode::Down => {
            line.completion = None;
            let history = &app.command_history;
            let next = match (key.code, line.recalled) {
                (KeyCode::Up, None) if !history.is_empty() => {
                    line.draft = line.input.value().to_owned();
                    Some(history.len() - 1)
                }
                (KeyCode::Up, Some(k)) => Some(k.saturating_sub(1)),
                (KeyCode::Down, Some(k)) if k + 1 < history.len() => Some(k + 1),
                (KeyCode::Down, Some(_)) => None,
                _ => return,
            };
            line.recalled = next;
            let value = next.map_or_else(|| line.draft.clone(), |k| history[k].clone());
            line.set(value);
        }
        KeyCode::Tab | KeyCode::BackTab => {
            let back = key.code == KeyCode::BackTab;
            let cycling = line
                .completion
                .as_ref()
                .is_some_and(|c| c.shown == line.input.value());
            if !cycling {
                let value = line.input.value().to_owned();
                let fresh = app.completion(&value);
                if let Some(Overlay::Command(line)) = &mut app.overlay {
                    line.completion = fresh;
                }
            }
            let Some(Overlay::Command(line)) = &mut app.overlay else {
                return;
            };
            let Some(c) = &mut line.completion else {
                return;
            };
            let value = if c.candidates.len() == 1 {
                let word = &c.candidates[0];
                // A finished word gets its space; `FIELD=` waits for a value.
                let space = if word.ends_with('=') { "" } else { " " };
                format!("{}{word}{space}", c.stem)
            } else if !cycling {
                format!("{}{}", c.stem, common_prefix(&c.candidates))
            } else {
                let n = c.candidates.len();
                let k = match (c.chosen, back) {
                    (None, false) => 0,
                    (None, true) => n - 1,
                    (Some(k), false) => (k + 1) % n,
                    (Some(k), true) => (k + n - 1) % n,
                };
                c.chosen = Some(k);
                format!("{}{}", c.stem, c.candidates[k])
            };
            c.shown = value.clone();
            if c.candidates.len() == 1 {
                line.completion = None;
            }
            line.set(value);
        }
        _ => {
            line.completion = None;
            line.recalled = None;
            line.input.handle_event(&crossterm::event::Event::Key(key));
        }
    }
}

impl App {
    /// What Tab offers for the line `value`: the word at its end completed
    /// as a command name, or by the pane that runs the command.
    fn completion(&self, value: &str) -> Option<Completion> {
        let mut words: Vec<&str> = value.split_whitespace().collect();
        let word = if value.ends_with(char::is_whitespace) || value.is_empty() {
            ""
        } else {
            words.pop().unwrap_or("")
        };
        let stem = value[..value.len() - word.len()].to_owned();
        let candidates: Vec<String> = match words.split_first() {
            None => {
                // Each name once, in tab order (several panes sort).
                let mut names: Vec<String> = Vec::new();
                let all = self
                    .panes()
                    .flat_map(|p| p.commands())
                    .filter_map(|usage| usage.split_whitespace().next())
                    .chain(["triage", "triage-all", "undo-list", "messages", "q"]);
                for name in all.filter(|n| n.starts_with(word)) {
                    if !names.iter().any(|n| n == name) {
                        names.push(name.to_owned());
                    }
                }
                names
            }
            Some((name, args)) => match self.command_target(name) {
                Some(pane) => self
                    .panes()
                    .find(|p| p.id() == pane)
                    .map(|p| p.complete(name, args, word))
                    .unwrap_or_default(),
                None => Vec::new(),
            },
        };
        (!candidates.is_empty()).then(|| Completion {
            stem,
            candidates,
            chosen: None,
            shown: String::new(),
        })
    }
}

/// The longest start all `words` share.
pub(super) fn common_prefix(words: &[String]) -> &str {
    let Some(first) = words.first() else {
        return "";
    };
    let mut end = first.len();
    for w in &words[1..] {
        end = first
            .char_indices()
            .zip(w.chars())
            .find(|((_, a), b)| a != b)
            .map_or(end.min(w.len()), |((i, _), _)| i.min(end));
    }
    &first[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_common_prefix_of_candidates() {
        let w = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(common_prefix(&w(&["sort", "scm"])), "s");
        assert_eq!(common_prefix(&w(&["severities=", "severity="])), "severit");
        assert_eq!(common_prefix(&w(&["filter"])), "filter");
        assert_eq!(common_prefix(&w(&["ab", "abc"])), "ab");
        assert_eq!(common_prefix(&w(&["用户", "用法"])), "用");
        assert_eq!(common_prefix(&[]), "");
    }
}
