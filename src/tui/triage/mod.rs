//! Triage: the dialog (`T`), `:triage` and `:triage-all`, the review of the
//! exact requests, sending them one at a time, and `u` (undo).
//!
//! A triage changes a team's shared data, so: only `y` on the review sends;
//! nothing is retried; one request is in flight at a time; after a timeout
//! or a dropped connection the outcome is said to be unknown and the
//! findings concerned are fetched again to show their real state; and the
//! draft (state, reason, note) is kept until it has been applied.

mod draft;
pub mod plan;
mod view;

#[cfg(test)]
mod tests;

pub use draft::{Draft, Field};
pub use view::draw;

use draft::{choose, edit_note, next_field};

use crate::api::WriteOutcome;
use crate::api::model::*;
use crate::triage::Target;
use crate::triage::{Decision, Kind};
use crate::tui::message::{
    ApiRequest, ApiResponse, ApiResult, AppEvent, Changed, Outbox, RequestId,
};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use plan::{Batch, Count, Reviewed, Scope};

/// Above this many findings a triage by filter asks a second time (unless
/// the profile's `triage_confirm_above` says otherwise).
pub const CONFIRM_ABOVE: usize = crate::config::DEFAULT_TRIAGE_CONFIRM_ABOVE as usize;

/// Where the triage flow is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Hidden,
    Editing,
    Review,
    /// A triage of many: `y` once more.
    ConfirmAgain,
    Sending,
}

/// The triage in flight: its batches one at a time.
#[derive(Debug, Clone)]
struct Sending {
    id: RequestId,
    batch: Batch,
    queue: Vec<Batch>,
    /// Answers so far, as said ("3 updated").
    answers: Vec<String>,
    /// Every id the sent batches concern (fetched again after).
    touched: Vec<String>,
    by_filter: bool,
    kind: Kind,
    /// What the triage was, said after it.
    what: String,
    /// The targets, as they were (what `u` returns to); `None` for an undo
    /// or a triage by filter.
    undoable: Option<Vec<Target>>,
}

#[derive(Debug, Clone)]
pub struct Triage {
    pub draft: Option<Draft>,
    pub step: Step,
    sending: Option<Sending>,
    /// The targets of the last triage, as they were before it (`u`).
    pub last: Option<Vec<Target>>,
    /// The fetch of the findings a triage touched.
    refresh: Option<RequestId>,
    /// A draft set aside while an undo is reviewed (it comes back after).
    kept_behind_undo: Option<Draft>,
    pub deployment: String,
    pub confirm_above: usize,
    /// Scroll of the review.
    pub scroll: u16,
    /// What the open review shows and `y` sends.
    pub reviewed: Vec<Reviewed>,
}

impl Triage {
    pub fn new(deployment: &str) -> Triage {
        Triage {
            draft: None,
            step: Step::Hidden,
            sending: None,
            last: None,
            refresh: None,
            kept_behind_undo: None,
            deployment: deployment.to_owned(),
            confirm_above: CONFIRM_ABOVE,
            scroll: 0,
            reviewed: Vec::new(),
        }
    }

    /// Asks a second `y` above `n` findings (`None`: the default).
    pub fn confirming_above(self, n: Option<usize>) -> Triage {
        Triage {
            confirm_above: n.unwrap_or(CONFIRM_ABOVE),
            ..self
        }
    }

    /// The dialog (or review) has the keys.
    pub fn is_open(&self) -> bool {
        self.step != Step::Hidden
    }

    pub fn in_flight(&self) -> bool {
        self.sending.is_some()
    }

    /// What quitting would lose.
    pub fn unsent_work(&self) -> Option<&'static str> {
        match &self.draft {
            Some(d) if d.undo.is_none() => Some("the triage draft has not been sent"),
            _ => None,
        }
    }

    /// `T`: opens the dialog for `scope`. A kept draft comes back: as it was
    /// for the same findings, else its state, reason and note for these.
    pub fn open(&mut self, scope: Scope, outbox: &mut Outbox) {
        if self.in_flight() {
            outbox.status("a triage is in flight: one at a time");
            self.step = Step::Sending;
            return;
        }
        let draft = match self.draft.take() {
            Some(kept) if kept.undo.is_none() && kept.scope.same_as(&scope) => kept,
            Some(kept) if kept.undo.is_none() && kept.kind() == scope.kind() => Draft {
                scope,
                focus: Field::State,
                ..kept
            },
            _ => Draft::new(scope),
        };
        self.draft = Some(draft);
        self.step = Step::Editing;
        self.count_if_needed(outbox);
    }

    /// `:triage STATE [REASON] [NOTE...]` and `:triage-all`: the decision
    /// typed, straight to the review.
    pub fn open_with(
        &mut self,
        scope: Scope,
        words: &str,
        outbox: &mut Outbox,
    ) -> Result<(), String> {
        if self.in_flight() {
            return Err("a triage is in flight: one at a time".into());
        }
        let decision = Decision::parse_words(scope.kind(), words)?;
        let mut draft = Draft::new(scope);
        draft.set_decision(&decision);
        self.draft = Some(draft);
        self.count_if_needed(outbox);
        self.review(outbox);
        Ok(())
    }

    /// `u`: the inverse of the last triage, through the same review.
    pub fn undo(&mut self, outbox: &mut Outbox) {
        if self.in_flight() {
            return outbox.status("a triage is in flight: one at a time");
        }
        let Some(targets) = self.last.clone() else {
            return outbox.status("nothing to undo: u undoes the last triage of chosen findings");
        };
        let (batches, left) = plan::undo_batches(&targets, &self.deployment);
        if batches.is_empty() {
            return outbox.status("the earlier states cannot be set again: nothing to undo");
        }
        if !left.is_empty() {
            outbox.status(format!(
                "{} left as they are: their earlier state cannot be set",
                left.len()
            ));
        }
        let mut draft = Draft::new(Scope::Ids(targets));
        draft.undo = Some(batches);
        // A kept draft of another triage is not lost to the undo.
        if let Some(kept) = self.draft.take().filter(|d| d.undo.is_none()) {
            self.kept_behind_undo = Some(kept);
        }
        self.draft = Some(draft);
        self.open_review();
    }

    /// The scope's count, asked once for a triage by filter.
    fn count_if_needed(&mut self, outbox: &mut Outbox) {
        let Some(Draft {
            scope:
                Scope::Filter {
                    filter,
                    issue_types,
                    count,
                },
            ..
        }) = &mut self.draft
        else {
            return;
        };
        if !matches!(count, Count::Counting(None)) {
            return;
        }
        let request = ListIssuesRequest {
            filter: Some((**filter).clone()),
            issue_types: issue_types.clone(),
            ..Default::default()
        };
        *count = match outbox.send(ApiRequest::CountIssues(request)) {
            Some(id) => Count::Counting(Some(id)),
            None => Count::Failed("the count was not asked".into()),
        };
    }

    /// Opens the review, or says why it cannot open.
    fn review(&mut self, outbox: &mut Outbox) {
        let Some(draft) = &self.draft else { return };
        if let Some(problem) = draft.problem() {
            self.step = Step::Editing;
            return outbox.status(format!("not ready to review: {problem}"));
        }
        self.open_review();
    }

    /// Shows the review of the draft, its requests built once.
    fn open_review(&mut self) {
        let Some(draft) = &self.draft else { return };
        self.reviewed = Reviewed::of(draft.batches(&self.deployment));
        self.step = Step::Review;
        self.scroll = 0;
    }

    /// Closes the dialog; the draft stays (an undo's is dropped, and the
    /// draft it set aside comes back).
    fn close(&mut self, outbox: &mut Outbox) {
        self.step = Step::Hidden;
        if self.draft.as_ref().is_some_and(|d| d.undo.is_some()) {
            self.draft = self.kept_behind_undo.take();
            return outbox.status("undo not sent");
        }
        if self.draft.is_some() {
            outbox.status("triage not sent: the draft is kept (T opens it again)");
        }
    }

    /// A key while the dialog or the review is open.
    pub fn on_key(&mut self, key: KeyEvent, outbox: &mut Outbox) {
        match self.step {
            Step::Hidden => {}
            Step::Editing => self.edit_key(key, outbox),
            Step::Review => match key.code {
                KeyCode::Char('y') => self.confirm(outbox),
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
        }
    }

    fn scroll_key(&mut self, key: KeyEvent) {
        self.scroll = match key.code {
            KeyCode::Char('j') | KeyCode::Down => self.scroll.saturating_add(1),
            KeyCode::Char('k') | KeyCode::Up => self.scroll.saturating_sub(1),
            KeyCode::PageDown => self.scroll.saturating_add(10),
            KeyCode::PageUp => self.scroll.saturating_sub(10),
            KeyCode::Char('g') | KeyCode::Home => 0,
            _ => self.scroll,
        };
    }

    fn edit_key(&mut self, key: KeyEvent, outbox: &mut Outbox) {
        let Some(draft) = &mut self.draft else {
            self.step = Step::Hidden;
            return;
        };
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let in_note = draft.focus == Field::Note;
        match key.code {
            KeyCode::Esc => self.close(outbox),
            KeyCode::Char('s') if ctrl => self.review(outbox),
            KeyCode::Enter if !in_note || key.modifiers.contains(KeyModifiers::ALT) => {
                self.review(outbox)
            }
            KeyCode::Tab | KeyCode::Down if !(in_note && key.code == KeyCode::Down) => {
                draft.focus = next_field(draft, 1)
            }
            KeyCode::BackTab | KeyCode::Up if !(in_note && key.code == KeyCode::Up) => {
                draft.focus = next_field(draft, -1)
            }
            _ if in_note => edit_note(&mut draft.note, key),
            KeyCode::Char('j') => draft.focus = next_field(draft, 1),
            KeyCode::Char('k') => draft.focus = next_field(draft, -1),
            KeyCode::Right | KeyCode::Char('l') | KeyCode::Char(' ') => choose(draft, 1),
            KeyCode::Left | KeyCode::Char('h') => choose(draft, -1),
            _ => {}
        }
    }

    /// `y` on the review: sends, or for many findings asks once more.
    fn confirm(&mut self, outbox: &mut Outbox) {
        let Some(draft) = &self.draft else { return };
        if let Scope::Filter { count, .. } = &draft.scope {
            match count {
                Count::Counting(_) => {
                    return outbox
                        .status("still counting the findings: y sends once they are counted");
                }
                Count::Failed(why) => {
                    return outbox.status(format!(
                        "the findings could not be counted ({why}): not sent"
                    ));
                }
                Count::Counted(0, _) => {
                    return outbox.status("the filter matches no findings: nothing to send");
                }
                Count::Counted(n, _) if *n > self.confirm_above => {
                    self.step = Step::ConfirmAgain;
                    return;
                }
                Count::Counted(..) => {}
            }
        }
        self.send(outbox);
    }

    /// Sends the first request of the reviewed triage, once.
    fn send(&mut self, outbox: &mut Outbox) {
        if self.in_flight() {
            return;
        }
        let Some(draft) = &self.draft else { return };
        let mut queue: Vec<Batch> = self.reviewed.iter().map(|r| r.batch.clone()).collect();
        if queue.is_empty() {
            return outbox.status("nothing to send");
        }
        let batch = queue.remove(0);
        let Some(id) = outbox.send(batch.request.clone()) else {
            // Refused (read-only): the app says why; the review stays.
            self.step = Step::Review;
            return;
        };
        let n = draft.scope.size().unwrap_or(0);
        let what = match &draft.undo {
            Some(_) => format!("undo of the last triage ({n} {})", draft.kind().noun(n)),
            None => format!(
                "{n} {} → {}",
                draft.kind().noun(n),
                draft.decision().map(|d| d.describe()).unwrap_or_default()
            ),
        };
        let undoable = match (&draft.undo, &draft.scope) {
            (None, Scope::Ids(targets)) => Some(targets.clone()),
            _ => None,
        };
        self.sending = Some(Sending {
            id,
            batch,
            queue,
            answers: Vec::new(),
            touched: Vec::new(),
            by_filter: matches!(draft.scope, Scope::Filter { .. }),
            kind: draft.kind(),
            what,
            undoable,
        });
        self.step = Step::Sending;
    }

    /// The answer to a request the triage sent. `true` if it was one.
    pub fn on_reply(&mut self, id: RequestId, result: ApiResult, outbox: &mut Outbox) -> bool {
        if self.refresh == Some(id) {
            self.refresh = None;
            match result {
                Ok(ApiResponse::ListIssues(page)) => {
                    outbox
                        .events
                        .push(AppEvent::Changed(Changed::Findings(page.issues)));
                }
                Ok(_) => {}
                Err(e) => outbox.status(format!(
                    "the triaged findings could not be fetched again ({e}): r reloads"
                )),
            }
            return true;
        }
        if let Some(Draft {
            scope: Scope::Filter { count, .. },
            ..
        }) = &mut self.draft
            && *count == Count::Counting(Some(id))
        {
            *count = match result {
                Ok(ApiResponse::Count(n, exact)) => Count::Counted(n, exact),
                Ok(_) => Count::Failed("unexpected answer".into()),
                Err(e) => Count::Failed(e.to_string()),
            };
            return true;
        }
        let Some(mut sending) = self.sending.take().filter(|s| s.id == id) else {
            return false;
        };
        sending.touched.extend(sending.batch.ids.iter().cloned());
        match result {
            Ok(ApiResponse::Triaged(answer)) => sending.answers.push(answer.summary()),
            Ok(ApiResponse::AgenticTriaged(answer)) => {
                match answer
                    .data
                    .filter(|d| d.id.as_deref() == sending.batch.ids.first().map(String::as_str))
                {
                    Some(issue) => {
                        sending.answers.push(format!(
                            "{} updated",
                            crate::text::one_line(issue.id.as_deref().unwrap_or(""))
                        ));
                        outbox
                            .events
                            .push(AppEvent::Changed(Changed::Agentic(Box::new(issue))));
                    }
                    None => {
                        sending.answers.push("answered without the issue".into());
                        outbox
                            .events
                            .push(AppEvent::Changed(Changed::AgenticReload));
                    }
                }
            }
            Ok(_) => {
                return self.failed(
                    sending,
                    "the server's answer is not a triage's".into(),
                    Some(WriteOutcome::Unknown),
                    outbox,
                );
            }
            Err(e) => {
                let outcome = e.write_outcome();
                return self.failed(sending, e.to_string(), outcome, outbox);
            }
        }
        if !sending.queue.is_empty() {
            let batch = sending.queue.remove(0);
            match outbox.send(batch.request.clone()) {
                Some(id) => {
                    sending.id = id;
                    sending.batch = batch;
                    self.sending = Some(sending);
                    return true;
                }
                None => {
                    return self.failed(
                        sending,
                        "the next request was refused".into(),
                        None,
                        outbox,
                    );
                }
            }
        }
        self.applied(sending, outbox);
        true
    }

    /// Every request answered: the draft is spent, the rows are fetched
    /// again, and `u` can undo.
    fn applied(&mut self, sending: Sending, outbox: &mut Outbox) {
        let was_undo = sending.undoable.is_none() && !sending.by_filter;
        self.last = sending.undoable.clone();
        self.draft = if was_undo {
            self.kept_behind_undo.take()
        } else {
            None
        };
        if self.step == Step::Sending {
            self.step = Step::Hidden;
        }
        self.reload(&sending, outbox);
        let undo_hint = if self.last.is_some() {
            " · u undoes"
        } else {
            ""
        };
        outbox.status(format!(
            "{}: {}{undo_hint}",
            capitalised(&sending.what),
            sending.answers.join("; ")
        ));
    }

    /// A request failed: nothing more is sent; the draft stays; when the
    /// outcome is unknown, the findings are fetched again.
    fn failed(
        &mut self,
        sending: Sending,
        message: String,
        outcome: Option<WriteOutcome>,
        outbox: &mut Outbox,
    ) -> bool {
        self.step = Step::Hidden;
        let mut text = format!("{}: {message}", capitalised(&sending.what));
        if !sending.answers.is_empty() {
            text.push_str(&format!(
                "\n\nAnswered before it: {}.",
                sending.answers.join("; ")
            ));
        }
        match outcome {
            Some(WriteOutcome::Unknown) => text.push_str(
                "\n\nOutcome unknown: the triage may or may not have been applied; it was not retried. The findings are fetched again to show their real state.",
            ),
            Some(WriteOutcome::ProbablyApplied) => text.push_str(
                "\n\nThe server accepted it (2xx) but its answer could not be read: probably applied; it was not retried.",
            ),
            None => {}
        }
        text.push_str("\n\nThe draft is kept: T opens it again.");
        if outcome.is_some() || !sending.answers.is_empty() {
            let mut sending = sending;
            if outcome.is_none() {
                // The failed batch changed nothing: only the ones before it.
                let n = sending.batch.ids.len();
                sending
                    .touched
                    .truncate(sending.touched.len().saturating_sub(n));
            }
            self.reload(&sending, outbox);
        }
        outbox.events.push(AppEvent::Error {
            title: "Triage failed".into(),
            message: text,
        });
        true
    }

    /// Fetches again what a triage touched, so the rows show the truth.
    fn reload(&mut self, sending: &Sending, outbox: &mut Outbox) {
        match sending.kind {
            Kind::Agentic => {
                if sending.answers.len() < sending.touched.len() {
                    outbox
                        .events
                        .push(AppEvent::Changed(Changed::AgenticReload));
                }
            }
            Kind::Finding if sending.by_filter => {
                outbox
                    .events
                    .push(AppEvent::Changed(Changed::FindingsReload));
            }
            Kind::Finding => {
                let mut ids = sending.touched.clone();
                ids.sort();
                ids.dedup();
                if ids.is_empty() {
                    return;
                }
                ids.truncate(1000);
                let request = ListIssuesRequest {
                    limit: Some(ids.len() as i64),
                    filter: Some(ListIssuesFilter {
                        ids,
                        ..Default::default()
                    }),
                    ..Default::default()
                };
                outbox.cancel(self.refresh.take());
                self.refresh = outbox.send(ApiRequest::ListIssues(request));
                // Report totals and anything else counted change too.
                outbox.events.push(AppEvent::Changed(Changed::Totals));
            }
        }
    }
}

fn capitalised(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
