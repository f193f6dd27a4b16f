//! Triage: the dialog (`T`), `:triage` and `:triage-all`, the review of the
//! exact requests, sending them one at a time, `u` (undo, in turn) and
//! `:undo-list`.
//!
//! A triage changes a team's shared data, so: only `y` on the review sends;
//! nothing is retried; one request is in flight at a time; after a timeout
//! or a dropped connection the outcome is said to be unknown and the
//! findings concerned are fetched again to show their real state; and a
//! draft (state, reason, note) belongs to its findings and is kept until it
//! has been applied: `T` on other findings starts another draft, never
//! moves it there.

mod checking;
pub mod content;
mod draft;
pub mod history;
pub mod plan;
mod sending;
mod view;

pub use crate::layout::ScrollBound;

#[cfg(test)]
pub(crate) mod tests;

pub(crate) use draft::edit_note;
pub use draft::{Draft, Field, SetApart};
pub(crate) use sending::outcome_words;
pub use view::draw;

use draft::{choose, next_field};

use crate::message::{ApiRequest, Outbox, RequestId};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use findings_model::*;
use findings_requests::triage::Decision;
use history::History;
use plan::{Check, Matched, Plan, Reviewed, Scope};
use sending::Sending;

/// Above this many findings a triage by filter asks a second time (unless
/// the profile's `triage_confirm_above` says otherwise).
pub const CONFIRM_ABOVE: usize = findings_config::DEFAULT_TRIAGE_CONFIRM_ABOVE as usize;

/// Where the triage flow is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Hidden,
    Editing,
    Review,
    /// A triage of many: `y` once more.
    ConfirmAgain,
    Sending,
    /// The triages of the session (`:undo-list`).
    History,
}

#[derive(Debug, Clone)]
pub struct Triage {
    /// The draft in the dialog (or last in it).
    pub draft: Option<Draft>,
    /// Drafts of other findings, not sent: each stays with its findings
    /// (`T` on them opens it again).
    pub kept: Vec<Draft>,
    pub step: Step,
    sending: Option<Sending>,
    /// The triages of the session that `u` undoes, newest last.
    pub history: History,
    /// The fetch of the findings a triage touched.
    refresh: Option<RequestId>,
    pub deployment: String,
    pub confirm_above: usize,
    /// Scroll of the review or of the history.
    pub scroll: u16,
    /// The review shows every id of a long list (Enter), not its count.
    pub ids_expanded: bool,
    /// Where the review's or history's end is (the app sets it).
    pub bound: ScrollBound,
    /// What the open review shows and `y` sends.
    pub reviewed: Vec<Reviewed>,
    /// The findings of the review read again: its requests wait for it.
    pub check: Check,
    /// The review's plan on them (findings).
    pub plan: Option<Plan>,
    /// `i` on the review: findings someone changed meanwhile are included.
    pub include_changed: bool,
    /// Why nothing will be sent, when the app is read-only (the dialog
    /// says so before `y`; the outbox refuses at `y`).
    pub read_only: Option<&'static str>,
}

impl Triage {
    pub fn new(deployment: &str) -> Triage {
        Triage {
            draft: None,
            kept: Vec::new(),
            step: Step::Hidden,
            sending: None,
            history: History::default(),
            refresh: None,
            deployment: deployment.to_owned(),
            confirm_above: CONFIRM_ABOVE,
            scroll: 0,
            ids_expanded: false,
            bound: ScrollBound::default(),
            reviewed: Vec::new(),
            check: Check::Idle,
            plan: None,
            include_changed: false,
            read_only: None,
        }
    }

    /// Asks a second `y` above `n` findings (`None`: the default).
    pub fn confirming_above(self, n: Option<usize>) -> Triage {
        Triage {
            confirm_above: n.unwrap_or(CONFIRM_ABOVE),
            ..self
        }
    }

    /// The dialog (or review, or history) has the keys.
    pub fn is_open(&self) -> bool {
        self.step != Step::Hidden
    }

    pub fn in_flight(&self) -> bool {
        self.sending.is_some()
    }

    /// Waiting on an answer: the triage in flight, the listing of a
    /// filter's findings, or the findings fetched again after.
    pub fn is_loading(&self) -> bool {
        let listing = self.draft.as_ref().is_some_and(|d| {
            matches!(
                d.scope,
                Scope::Filter {
                    matched: Matched::Listing(Some(_)),
                    ..
                }
            )
        });
        let reading = matches!(self.check, Check::Reading(_))
            || self
                .draft
                .as_ref()
                .is_some_and(|d| matches!(d.fresh, Check::Reading(_)));
        self.in_flight() || listing || reading || self.refresh.is_some()
    }

    /// Every draft holding a decision not sent, the one in the dialog first.
    pub fn unsent_drafts(&self) -> impl Iterator<Item = &Draft> {
        self.draft
            .iter()
            .chain(&self.kept)
            .filter(|d| d.is_kept_work())
    }

    /// What quitting would lose, one line each.
    pub fn unsent_work(&self) -> Vec<String> {
        let mut lost: Vec<String> = self
            .unsent_drafts()
            .map(|d| {
                format!(
                    "a kept triage draft for {} ({})",
                    d.scope.named(),
                    d.decision().map(|d| d.describe()).unwrap_or_default()
                )
            })
            .collect();
        if self.in_flight() {
            lost.push("a triage in flight (its answer would not be seen)".into());
        }
        lost
    }

    /// The draft for `scope`'s findings: the one in the dialog or a kept
    /// one, with the scope as it is now (states before, fresh). The draft
    /// that was in the dialog, for other findings, is kept with them.
    fn take_draft_for(&mut self, scope: Scope) -> Draft {
        let mut found = None;
        if let Some(current) = self.draft.take() {
            if current.undo.is_none() && current.scope.same_as(&scope) {
                found = Some(current);
            } else if current.is_kept_work() {
                self.kept.push(current);
            }
        }
        if found.is_none()
            && let Some(i) = self.kept.iter().position(|d| d.scope.same_as(&scope))
        {
            found = Some(self.kept.remove(i));
        }
        let mut draft = match found {
            Some(draft) => Draft {
                scope,
                focus: Field::State,
                ..draft
            },
            None => Draft::new(scope),
        };
        // Known already when the scope's targets carry their notes.
        draft.count_notes();
        draft
    }

    /// `T`: opens the dialog for `scope`: its kept draft if it has one,
    /// else a new one (a draft of other findings stays theirs).
    pub fn open(&mut self, scope: Scope, outbox: &mut Outbox) {
        self.read_only = outbox.read_only.then(|| outbox.why_read_only());
        if self.in_flight() {
            outbox.status("a triage is in flight: one at a time");
            self.step = Step::Sending;
            return;
        }
        let draft = self.take_draft_for(scope);
        self.draft = Some(draft);
        self.step = Step::Editing;
        self.list_if_needed(outbox);
        self.read_fresh(outbox);
    }

    /// `:triage STATE [REASON] [NOTE...]` and `:triage-all`: the decision
    /// typed, straight to the review.
    pub fn open_with(
        &mut self,
        scope: Scope,
        words: &str,
        outbox: &mut Outbox,
    ) -> Result<(), String> {
        self.read_only = outbox.read_only.then(|| outbox.why_read_only());
        if self.in_flight() {
            return Err("a triage is in flight: one at a time".into());
        }
        let decision = Decision::parse_words(scope.kind(), words)?;
        let mut draft = self.take_draft_for(scope);
        draft.set_decision(&decision);
        self.draft = Some(draft);
        self.list_if_needed(outbox);
        self.review(outbox);
        Ok(())
    }

    /// `u`: the inverse of the newest triage not yet undone, through the
    /// same review.
    pub fn undo(&mut self, outbox: &mut Outbox) {
        self.read_only = outbox.read_only.then(|| outbox.why_read_only());
        if self.in_flight() {
            return outbox.status("a triage is in flight: one at a time");
        }
        let (targets, undo) = match self.history.undo_last(&self.deployment) {
            Ok(found) => found,
            Err(why) => {
                self.step = Step::Hidden;
                return outbox.status(why);
            }
        };
        // A draft in the dialog is not lost to the undo: it stays with its
        // findings.
        if let Some(current) = self.draft.take().filter(Draft::is_kept_work) {
            self.kept.push(current);
        }
        let mut draft = Draft::new(Scope::Ids(targets));
        draft.undo = Some(undo);
        self.draft = Some(draft);
        self.open_review(outbox);
    }

    /// `:undo-list`: the session's triages, newest first.
    pub fn show_history(&mut self) {
        self.step = Step::History;
        self.scroll = 0;
    }

    /// The findings a triage by filter touches, listed once (ids, states
    /// and permissions: what the review names and undo returns them to).
    fn list_if_needed(&mut self, outbox: &mut Outbox) {
        let Some(Draft {
            scope:
                Scope::Filter {
                    filter,
                    issue_types,
                    matched,
                },
            ..
        }) = &mut self.draft
        else {
            return;
        };
        if !matches!(matched, Matched::Listing(None)) {
            return;
        }
        let request = ListIssuesRequest {
            filter: Some((**filter).clone()),
            issue_types: issue_types.clone(),
            ..Default::default()
        };
        *matched = match outbox.send(ApiRequest::MatchingTargets(request)) {
            Some(id) => Matched::Listing(Some(id)),
            None => Matched::Failed("the findings were not asked for".into()),
        };
    }

    /// Opens the review, or says why it cannot open.
    fn review(&mut self, outbox: &mut Outbox) {
        let Some(draft) = &self.draft else { return };
        if let Some(problem) = draft.problem() {
            self.step = Step::Editing;
            return outbox.status(format!("not ready to review: {problem}"));
        }
        self.open_review(outbox);
    }

    /// Shows the review of the draft, its requests built once: an
    /// agentic triage's at once, findings' once they are read again.
    fn open_review(&mut self, outbox: &mut Outbox) {
        let Some(draft) = &self.draft else { return };
        self.step = Step::Review;
        self.ids_expanded = false;
        self.scroll = 0;
        self.include_changed = false;
        self.plan = None;
        if draft.kind().takes_note() {
            self.reviewed.clear();
            self.start_check(outbox);
        } else {
            self.reviewed = Reviewed::of(draft.batches(&self.deployment));
        }
    }

    /// Closes the dialog; a draft with a decision stays with its findings
    /// (an undo's is dropped).
    fn close(&mut self, outbox: &mut Outbox) {
        self.step = Step::Hidden;
        match &self.draft {
            Some(d) if d.undo.is_some() => {
                self.draft = None;
                outbox.status("undo not sent");
            }
            Some(d) if d.is_kept_work() => outbox.status(format!(
                "triage not sent: the draft for {} is kept (T there opens it)",
                findings_base::text::one_line(&d.scope.named())
            )),
            Some(_) => self.draft = None,
            None => {}
        }
    }

    /// A key while the dialog, the review or the history is open.
    pub fn on_key(&mut self, key: KeyEvent, now: Timestamp, outbox: &mut Outbox) {
        match self.step {
            Step::Hidden => {}
            Step::Editing => self.edit_key(key, now, outbox),
            Step::Review => match key.code {
                KeyCode::Char('y') => self.confirm(outbox),
                KeyCode::Enter => self.ids_expanded = !self.ids_expanded,
                KeyCode::Char('i') => self.include_meanwhile(outbox),
                KeyCode::Esc | KeyCode::Char('n') => {
                    if self.draft.as_ref().is_some_and(|d| d.undo.is_some()) {
                        self.close(outbox);
                    } else {
                        self.step = Step::Editing;
                    }
                }
                _ => self.scroll_key(key),
            },
            Step::ConfirmAgain => match key.code {
                KeyCode::Char('y') => self.send(outbox),
                KeyCode::Esc | KeyCode::Char('n') => self.step = Step::Review,
                _ => {}
            },
            // The request goes on; the overlay may go.
            Step::Sending => {
                if matches!(key.code, KeyCode::Esc | KeyCode::Enter) {
                    self.step = Step::Hidden;
                    outbox.status("the triage is still in flight");
                }
            }
            Step::History => match key.code {
                KeyCode::Char('u') => self.undo(outbox),
                KeyCode::Esc | KeyCode::Enter | KeyCode::Char('q') => self.step = Step::Hidden,
                _ => self.scroll_key(key),
            },
        }
    }

    fn scroll_key(&mut self, key: KeyEvent) {
        self.scroll = scrolled(self.scroll, key, self.bound);
    }

    fn edit_key(&mut self, key: KeyEvent, now: Timestamp, outbox: &mut Outbox) {
        let Some(draft) = &mut self.draft else {
            self.step = Step::Hidden;
            return;
        };
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let in_note = draft.focus == Field::Note;
        let in_until = draft.focus == Field::Until;
        let before = (
            draft.state,
            draft.reason,
            draft.note.clone(),
            draft.until.clone(),
        );
        match key.code {
            KeyCode::Esc => return self.close(outbox),
            KeyCode::Char('s') if ctrl => return self.review(outbox),
            KeyCode::Enter if !in_note || key.modifiers.contains(KeyModifiers::ALT) => {
                return self.review(outbox);
            }
            KeyCode::Tab | KeyCode::Down if !(in_note && key.code == KeyCode::Down) => {
                draft.focus = next_field(draft, 1);
            }
            KeyCode::BackTab | KeyCode::Up if !(in_note && key.code == KeyCode::Up) => {
                draft.focus = next_field(draft, -1);
            }
            _ if in_note => edit_note(&mut draft.note, key),
            // One line: Enter reviews (above), the rest edits it.
            _ if in_until => {
                let mut typed = draft.until.clone();
                edit_note(&mut typed, key);
                draft.set_until(typed.replace('\n', ""), now);
            }
            KeyCode::Char('j') => draft.focus = next_field(draft, 1),
            KeyCode::Char('k') => draft.focus = next_field(draft, -1),
            KeyCode::Right | KeyCode::Char('l' | ' ') => choose(draft, 1),
            KeyCode::Left | KeyCode::Char('h') => choose(draft, -1),
            _ => {}
        }
        if (draft.state, draft.reason, &draft.note, &draft.until)
            != (before.0, before.1, &before.2, &before.3)
        {
            draft.edited = true;
        }
    }
}

/// A review's or history's scroll after `key` (j/k, g/G, pages as vim's
/// Ctrl-f/Ctrl-b/Ctrl-d/Ctrl-u), never past the end: `k` from the end
/// moves at once.
pub(crate) fn scrolled(scroll: u16, key: KeyEvent, bound: ScrollBound) -> u16 {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let page = bound.page.max(1);
    let scroll = scroll.min(bound.end);
    let next = match key.code {
        KeyCode::Char('f') if ctrl => scroll.saturating_add(page),
        KeyCode::Char('b') if ctrl => scroll.saturating_sub(page),
        KeyCode::Char('d') if ctrl => scroll.saturating_add(page / 2),
        KeyCode::Char('u') if ctrl => scroll.saturating_sub(page / 2),
        _ if ctrl => scroll,
        KeyCode::Char('j') | KeyCode::Down => scroll.saturating_add(1),
        KeyCode::Char('k') | KeyCode::Up => scroll.saturating_sub(1),
        KeyCode::PageDown => scroll.saturating_add(page),
        KeyCode::PageUp => scroll.saturating_sub(page),
        KeyCode::Char('g') | KeyCode::Home => 0,
        KeyCode::Char('G') | KeyCode::End => bound.end,
        _ => scroll,
    };
    next.min(bound.end)
}
