//! Tab completion of the last value of a list being typed (after its last
//! comma), cycling on each Tab: the filter form's fields and the Report's
//! `/` share it.

use tui_input::Input;

#[derive(Debug, Clone, Default)]
pub struct Completing {
    /// Tab pressed again: the value typed before the first Tab, and which
    /// candidate is shown.
    cycle: Option<(String, usize)>,
}

impl Completing {
    /// What the candidates are for: the text as typed before the first Tab.
    pub fn typed(&self, input: &Input) -> String {
        match &self.cycle {
            Some((typed, _)) => typed.clone(),
            None => input.value().to_owned(),
        }
    }

    /// The value being typed: after the last comma of a list.
    pub fn partial(typed: &str, list: bool) -> &str {
        match typed.rsplit_once(',') {
            Some((_, last)) if list => last,
            _ => typed,
        }
    }

    /// Tab: the next of `candidates` in place of the last value.
    pub fn tab(&mut self, input: &mut Input, list: bool, candidates: &[String]) {
        if candidates.is_empty() {
            return;
        }
        let (typed, k) = match &self.cycle {
            Some((typed, k)) => (typed.clone(), (k + 1) % candidates.len()),
            None => (input.value().to_owned(), 0),
        };
        let done = match typed.rsplit_once(',') {
            Some((done, _)) if list => format!("{done}, "),
            _ => String::new(),
        };
        *input = Input::new(format!("{done}{}", candidates[k]));
        self.cycle = Some((typed, k));
    }

    /// Any other key ends the cycle.
    pub fn reset(&mut self) {
        self.cycle = None;
    }
}
