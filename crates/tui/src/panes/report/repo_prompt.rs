//! The Report's `/`: repository names typed as a list, Tab completing the
//! last one as the filter form's fields do, a refusal said in the prompt
//! itself (no popup: one Esc closes the prompt).

use crate::filter_form::completing::Completing;
use crate::list::filter_values::FilterValues;
use crossterm::event::KeyEvent;
use findings_requests::filter_spec::{self, LIST_FILTER};
use tui_input::Input;
use tui_input::backend::crossterm::EventHandler;

/// The field whose known values the names complete from.
const NAMES: &str = "repositoryNames";

#[derive(Debug, Clone, Default)]
pub struct RepoPrompt {
    pub input: Input,
    completing: Completing,
    /// Why the names typed were refused, until they are edited.
    pub refused: Option<String>,
}

impl RepoPrompt {
    pub fn new(text: String) -> RepoPrompt {
        RepoPrompt {
            input: Input::new(text),
            ..Default::default()
        }
    }

    pub fn value(&self) -> &str {
        self.input.value()
    }

    /// Tab: the next known name in place of the last one typed.
    pub fn complete(&mut self, known: &FilterValues) {
        let Some(field) = LIST_FILTER.iter().find(|f| f.name == NAMES) else {
            return;
        };
        let typed = self.completing.typed(&self.input);
        let partial = Completing::partial(&typed, true);
        let candidates = filter_spec::values_for(field, partial, &|f| known.values_of(f));
        self.completing.tab(&mut self.input, true, &candidates);
    }

    /// Any other key edits the names.
    pub fn edit(&mut self, key: KeyEvent) {
        self.completing.reset();
        if self
            .input
            .handle_event(&crossterm::event::Event::Key(key))
            .is_some()
        {
            self.refused = None;
        }
    }
}
