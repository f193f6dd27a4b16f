//! The triage dialog's draft: the findings chosen, the state, reason and
//! note, and how the dialog's keys edit them.

use super::history::Undo;
use super::plan::{self, Batch, Scope};
use crate::api::model::Timestamp;
use crate::triage::{Decision, Instead, Kind, Target, expiry, takes_reason};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// The dialog's rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    State,
    Reason,
    /// When an ignore ends (`30d`, `2026-12-25`): written into the note.
    Until,
    Note,
}

/// What the dialog edits: kept until it has been applied.
#[derive(Debug, Clone, PartialEq)]
pub struct Draft {
    pub scope: Scope,
    /// Index into the kind's states.
    pub state: usize,
    /// Index into the kind's reasons (`None`: no reason).
    pub reason: Option<usize>,
    /// Sent as typed (lines joined by `\n`).
    pub note: String,
    /// When an ignore ends, as typed (empty: never), and what it reads as
    /// at the time it was typed: the time, or why it is not one.
    pub until: String,
    pub expires: Result<Option<Timestamp>, String>,
    pub focus: Field,
    /// An undo's requests: fixed, reviewed without the dialog.
    pub undo: Option<Undo>,
    /// A decision was chosen or typed (a draft never touched is not kept).
    pub edited: bool,
}

/// The targets the service will not triage as asked, by id.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SetApart<'a> {
    /// An exception request is made instead of the ignore.
    pub exception: Vec<&'a str>,
    /// No triage permission: left as they are.
    pub skipped: Vec<&'a str>,
}

impl Draft {
    pub fn new(scope: Scope) -> Draft {
        Draft {
            scope,
            state: 0,
            reason: None,
            note: String::new(),
            until: String::new(),
            expires: Ok(None),
            focus: Field::State,
            undo: None,
            edited: false,
        }
    }

    /// Unsent work: a decision made for findings, not an undo.
    pub fn is_kept_work(&self) -> bool {
        self.undo.is_none() && self.edited
    }

    pub fn kind(&self) -> Kind {
        self.scope.kind()
    }

    /// The state chosen, as `(wire name, label)`.
    pub fn state_name(&self) -> (&'static str, &'static str) {
        let states = self.kind().states();
        states.get(self.state).copied().unwrap_or(states[0])
    }

    pub fn takes_reason(&self) -> bool {
        takes_reason(self.state_name().0)
    }

    pub fn reason_name(&self) -> Option<(&'static str, &'static str)> {
        let reasons = self.kind().reasons();
        self.reason
            .filter(|_| self.takes_reason())
            .and_then(|i| reasons.get(i).copied())
    }

    /// Whether the dialog asks when the ignore ends: an ignore of findings
    /// (the expiry goes into the note).
    pub fn takes_until(&self) -> bool {
        self.takes_reason() && self.kind().takes_note()
    }

    /// Sets the expiry as typed, read at `now` (`30d` is 30 days from then).
    pub fn set_until(&mut self, typed: String, now: Timestamp) {
        self.expires = match typed.trim() {
            "" => Ok(None),
            t => expiry::parse_until(t, now)
                .map(Some)
                .map_err(|e| e.replace("--ignore-until", "until")),
        };
        self.until = typed;
    }

    /// The decision the dialog holds (an ignore's expiry, if any, as the
    /// note's last line).
    pub fn decision(&self) -> Result<Decision, String> {
        let mut note = self.kind().takes_note().then(|| self.note.clone());
        if self.takes_until() {
            match &self.expires {
                Ok(Some(at)) => note = Some(expiry::with_expiry(note.as_deref(), *at)),
                Ok(None) => {}
                Err(e) => return Err(e.clone()),
            }
        }
        Decision::parse(
            self.kind(),
            self.state_name().0,
            self.reason_name().map(|r| r.0),
            note,
        )
    }

    /// Takes a decision's state, reason and note into the dialog.
    pub fn set_decision(&mut self, decision: &Decision) {
        let kind = self.kind();
        let find = |names: Vec<(&str, &str)>, label: &str| names.iter().position(|n| n.1 == label);
        if let Some(i) = find(kind.states(), decision.state_label()) {
            self.state = i;
        }
        self.reason = decision
            .reason_label()
            .and_then(|r| find(kind.reasons(), r));
        self.note = decision.note().unwrap_or_default().to_owned();
        self.edited = true;
    }

    /// What `target` is to be given: the decision, or for an undo its
    /// earlier state.
    fn decision_for(&self, target: &Target) -> Option<Decision> {
        match &self.undo {
            Some(_) => target.inverse(),
            None => self.decision().ok(),
        }
    }

    /// The targets the service will not triage as asked (known once the
    /// scope's findings are).
    pub fn set_apart(&self) -> SetApart<'_> {
        let mut apart = SetApart::default();
        for t in self.scope.targets().unwrap_or_default() {
            match self.decision_for(t).and_then(|d| t.instead(&d)) {
                Some(Instead::ExceptionRequest) => apart.exception.push(&t.id),
                Some(Instead::Skipped) => apart.skipped.push(&t.id),
                None => {}
            }
        }
        apart
    }

    /// The targets the triage changes, as they are before it (what its
    /// undo returns): not the skipped ones, nor those given an exception
    /// request instead, nor those already so.
    pub fn changed_targets(&self) -> Vec<Target> {
        let Ok(decision) = self.decision() else {
            return Vec::new();
        };
        self.scope
            .targets()
            .unwrap_or_default()
            .iter()
            .filter(|t| t.instead(&decision).is_none() && !t.already(&decision))
            .cloned()
            .collect()
    }

    /// Why it cannot go to review, if it cannot.
    pub fn problem(&self) -> Option<String> {
        if let Scope::Ids(targets) = &self.scope {
            let skipped = self.set_apart().skipped.len();
            if skipped > 0 && skipped == targets.len() {
                return Some(format!(
                    "{} cannot be triaged: no triage permission",
                    if skipped == 1 {
                        "this finding"
                    } else {
                        "these findings"
                    }
                ));
            }
        }
        self.decision().err()
    }

    /// The requests it becomes.
    pub fn batches(&self, deployment: &str) -> Vec<Batch> {
        if let Some(undo) = &self.undo {
            return undo.batches.clone();
        }
        match self.decision() {
            Ok(d) => plan::batches(&d, &self.scope, deployment),
            Err(_) => Vec::new(),
        }
    }
}

/// The next row of the dialog (the reason only where the state takes one).
pub(super) fn next_field(draft: &Draft, step: isize) -> Field {
    let mut fields = vec![Field::State];
    if draft.takes_reason() {
        fields.push(Field::Reason);
    }
    if draft.takes_until() {
        fields.push(Field::Until);
    }
    if draft.kind().takes_note() {
        fields.push(Field::Note);
    }
    let at = fields.iter().position(|f| *f == draft.focus).unwrap_or(0) as isize;
    fields[(at + step).rem_euclid(fields.len() as isize) as usize]
}

/// ←/→ on the state or reason row.
pub(super) fn choose(draft: &mut Draft, step: isize) {
    let wrap = |i: isize, n: usize| i.rem_euclid(n as isize) as usize;
    match draft.focus {
        Field::State => {
            let n = draft.kind().states().len();
            draft.state = wrap(draft.state as isize + step, n);
        }
        Field::Reason => {
            // "no reason", then each reason.
            let n = draft.kind().reasons().len() + 1;
            let at = draft.reason.map_or(0, |i| i + 1) as isize;
            let next = wrap(at + step, n);
            draft.reason = next.checked_sub(1);
        }
        Field::Until | Field::Note => {}
    }
}

/// Typing in the note: text at the end, Enter a new line, Backspace,
/// Ctrl-U clears the line, Ctrl-W a word.
pub(crate) fn edit_note(note: &mut String, key: KeyEvent) {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    match key.code {
        KeyCode::Char('u') if ctrl => {
            let keep = note.rfind('\n').map_or(0, |i| i + 1);
            note.truncate(keep);
        }
        KeyCode::Char('w') if ctrl => {
            let trimmed = note.trim_end_matches(' ').len();
            let keep = note[..trimmed].rfind([' ', '\n']).map_or(0, |i| i + 1);
            note.truncate(keep);
        }
        KeyCode::Char(c) if !ctrl => note.push(c),
        KeyCode::Enter => note.push('\n'),
        KeyCode::Backspace => {
            note.pop();
        }
        _ => {}
    }
}
