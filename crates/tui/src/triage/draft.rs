//! The triage dialog's draft: the findings chosen, the state, reason and
//! note, and how the dialog's keys edit them.

use super::history::Undo;
use super::plan::{self, Batch, Check, Scope};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use findings_model::Timestamp;
use findings_requests::triage::setting::Notes;
use findings_requests::triage::{Decision, Instead, Kind, Target, expiry, takes_reason};

/// The dialog's rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    State,
    Reason,
    /// When an ignore ends (`30d`, `2026-12-25`): written into the note.
    Until,
    Note,
    /// Whether findings keep their own notes or get the one typed.
    Notes,
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
    /// What happens to the notes the findings have.
    pub notes: Notes,
    /// The findings read when the dialog opened (a row keeps no note):
    /// the notes the dialog shows.
    pub fresh: Check,
    /// How many of the findings have a note, of how many: counted once
    /// they are read (`None` before).
    pub with_notes: Option<(usize, usize)>,
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
            notes: Notes::Keep,
            fresh: Check::Idle,
            with_notes: None,
        }
    }

    /// The targets as the dialog showed them: read again when it opened
    /// (with their notes), else as the list had them.
    pub fn shown(&self) -> Vec<Target> {
        let targets = self.scope.targets().unwrap_or_default();
        let Some(fresh) = self.fresh.read() else {
            return targets.to_vec();
        };
        let by_id: std::collections::HashMap<&str, &Target> =
            fresh.iter().map(|t| (t.id.as_str(), t)).collect();
        targets
            .iter()
            .map(|t| by_id.get(t.id.as_str()).map_or(t, |f| *f).clone())
            .collect()
    }

    /// Counts the findings' notes, once they are read (a read answered).
    pub fn count_notes(&mut self) {
        let shown = self.shown();
        self.with_notes = shown.iter().all(|t| t.note_read).then(|| {
            (
                shown.iter().filter(|t| t.note.is_some()).count(),
                shown.len(),
            )
        });
    }

    /// The read of the dialog's findings answered: a single finding's
    /// note is put in the dialog to edit (sent as it then reads).
    pub fn fresh_read(&mut self) {
        let shown = self.shown();
        let [one] = shown.as_slice() else {
            return;
        };
        if let Some(note) = &one.note
            && self.note.is_empty()
            && self.notes == Notes::Keep
        {
            self.note = note.clone();
            self.notes = Notes::Replace;
        }
    }

    /// Whether the dialog offers the choice of keeping or replacing notes:
    /// several findings, or one whose note is not in the dialog to edit
    /// (something was typed before it was read).
    pub fn offers_notes(&self) -> bool {
        let unread_note =
            self.notes == Notes::Keep && self.with_notes.is_some_and(|(have, _)| have > 0);
        self.kind().takes_note()
            && (self.scope.is_filter() || self.scope.size().unwrap_or(0) > 1 || unread_note)
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

    /// The targets the service will not triage as asked (known once the
    /// scope's findings are).
    pub fn set_apart(&self) -> SetApart<'_> {
        let mut apart = SetApart::default();
        // The decision once (not per target: it is drawn every frame).
        let decision = self.decision().ok();
        for t in self.scope.targets().unwrap_or_default() {
            // An undo gives each its earlier state.
            let given = match &self.undo {
                Some(_) => t.inverse(),
                None => decision.clone(),
            };
            match given.and_then(|d| t.instead(&d)) {
                Some(Instead::ExceptionRequest) => apart.exception.push(&t.id),
                Some(Instead::Skipped) => apart.skipped.push(&t.id),
                None => {}
            }
        }
        apart
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

    /// The requests of an agentic triage or undo (findings are planned
    /// once read again: [`plan::plan_triage`]).
    pub fn batches(&self, deployment: &str) -> Vec<Batch> {
        if let Some(undo) = &self.undo {
            return undo.batches.clone();
        }
        match self.decision() {
            Ok(d) => plan::agentic_batches(&d, &self.scope, deployment),
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
    if draft.offers_notes() {
        fields.push(Field::Notes);
    }
    let at = fields.iter().position(|f| *f == draft.focus).unwrap_or(0);
    fields[crate::layout::cycled(at, step, fields.len())]
}

/// ←/→ on the state or reason row.
pub(super) fn choose(draft: &mut Draft, step: isize) {
    match draft.focus {
        Field::State => {
            let n = draft.kind().states().len();
            draft.state = crate::layout::cycled(draft.state, step, n);
        }
        Field::Reason => {
            // "no reason", then each reason.
            let n = draft.kind().reasons().len() + 1;
            let at = draft.reason.map_or(0, |i| i + 1);
            let next = crate::layout::cycled(at, step, n);
            draft.reason = next.checked_sub(1);
        }
        Field::Notes => {
            draft.notes = match draft.notes {
                Notes::Keep => Notes::Replace,
                Notes::Replace => Notes::Keep,
            }
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
