//! Sending a reviewed triage (or undo): `y`, the requests one at a time,
//! their answers, and what follows: the history entry `u` undoes, the
//! marks it used cleared, the findings fetched again (with their activity,
//! so an exception request made instead of an ignore shows).

use super::plan::{Batch, Check, Matched, Scope};
use super::{Draft, Step, Triage};
use crate::message::{
    ApiRequest, ApiResponse, ApiResult, AppEvent, Changed, Outbox, RequestId, answer,
};
use findings_base::text::capitalised;
use findings_client::WriteOutcome;
use findings_model::*;
use findings_requests::triage::setting::Setting;
use findings_requests::triage::{Kind, Target};

/// The triage in flight: its batches one at a time.
#[derive(Debug, Clone)]
pub(super) struct Sending {
    id: RequestId,
    batch: Batch,
    queue: Vec<Batch>,
    /// Answers so far, as said ("3 updated").
    answers: Vec<String>,
    /// The findings triages' answers so far, to say their counts added up.
    counts: Vec<findings_model::UpdateFindingsResponse>,
    /// How many the service said it matched, summed.
    matched: i64,
    /// Every id the sent batches concern (fetched again after).
    touched: Vec<String>,
    by_filter: bool,
    /// How many a triage by filter listed before it was sent.
    listed: usize,
    kind: Kind,
    /// What the triage was, said after it.
    what: String,
    /// A finding called a false positive: the status offers to remember
    /// why (`A`, then `m`).
    false_positive: bool,
    /// A triage: what the history keeps once it is applied.
    record: Option<Record>,
    /// An undo: the history entry it undoes.
    undoing: Option<u32>,
}

/// What a triage leaves behind once applied.
#[derive(Debug, Clone)]
struct Record {
    /// The targets it changes, as they were (what its undo returns to),
    /// and what it sets on each finding.
    changed: Vec<(Target, Option<Setting>)>,
    /// "ignored (false positive)".
    to: String,
    /// The ids it was for: their marks are spent.
    ids: Vec<String>,
}

impl Triage {
    /// `y` on the review: sends, or for many findings asks once more.
    pub(super) fn confirm(&mut self, outbox: &mut Outbox) {
        let Some(draft) = &self.draft else { return };
        // A filter's listing first: what it says comes before the read.
        let listed = match &draft.scope {
            Scope::Filter { matched, .. } => match matched {
                Matched::Listing(_) => {
                    return outbox.status(
                        "still listing the findings the filter matches: y sends once they are all listed",
                    );
                }
                Matched::Failed(why) => {
                    return outbox.status(format!(
                        "the findings could not be listed ({}): not sent",
                        findings_base::text::one_line(why)
                    ));
                }
                Matched::Listed(targets, _) if targets.is_empty() => {
                    return outbox.status("the filter matches no findings: nothing to send");
                }
                Matched::Listed(targets, false) => {
                    return outbox.status(format!(
                        "the filter matches more than {} findings: too many to list for undo; narrow it first",
                        targets.len()
                    ));
                }
                Matched::Listed(targets, true) => Some(targets.len()),
            },
            Scope::Ids(_) => None,
        };
        if draft.kind().takes_note() {
            match (&self.check, &self.plan) {
                (Check::Reading(_) | Check::Idle, _) | (Check::Read(_), None) => {
                    return outbox.status(
                        "still reading the findings again (their notes, and changes by anyone else): y sends once the review shows the requests",
                    );
                }
                (Check::Failed(why), _) => {
                    return outbox.status(format!(
                        "the findings could not be read again ({}): not sent; Esc, then review again",
                        findings_base::text::one_line(why)
                    ));
                }
                (Check::Read(_), Some(_)) if self.reviewed.is_empty() => {
                    return outbox.status(
                        "nothing to send: every finding is already so, or left out (see the review)",
                    );
                }
                (Check::Read(_), Some(_)) => {}
            }
        }
        if listed.is_some_and(|n| n > self.confirm_above) {
            self.step = Step::ConfirmAgain;
            return;
        }
        self.send(outbox);
    }

    /// Sends the first request of the reviewed triage, once.
    pub(super) fn send(&mut self, outbox: &mut Outbox) {
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
        // The findings its requests name (not those already so).
        let n = match &self.plan {
            Some(_) => queue.iter().chain([&batch]).map(|b| b.ids.len()).sum(),
            None => draft.scope.size().unwrap_or(0),
        };
        let to = draft.decision().map(|d| d.describe()).unwrap_or_default();
        let what = match &draft.undo {
            Some(undo) => format!("undo of {}", undo.what),
            None => format!("{n} {} → {to}", draft.kind().noun(n)),
        };
        let changed = match &self.plan {
            Some(plan) => plan
                .record
                .iter()
                .map(|(t, set)| (t.clone(), Some(set.clone())))
                .collect(),
            None => agentic_changed(draft),
        };
        let record = draft.undo.is_none().then(|| Record {
            changed,
            to,
            ids: draft.scope.ids(),
        });
        self.sending = Some(Sending {
            id,
            batch,
            queue,
            answers: Vec::new(),
            counts: Vec::new(),
            matched: 0,
            touched: Vec::new(),
            by_filter: draft.scope.is_filter(),
            listed: n,
            kind: draft.kind(),
            what,
            false_positive: draft.undo.is_none()
                && matches!(
                    draft.decision(),
                    Ok(findings_requests::triage::Decision::Finding {
                        reason: Some(TriageReason::FalsePositive),
                        ..
                    })
                ),
            record,
            undoing: draft.undo.as_ref().map(|u| u.entry),
        });
        self.step = Step::Sending;
    }

    /// The answer to a request the triage sent, at `now`. `true` if it was
    /// one.
    pub fn on_reply(
        &mut self,
        id: RequestId,
        result: ApiResult,
        now: Timestamp,
        outbox: &mut Outbox,
    ) -> bool {
        if self.refresh == Some(id) {
            self.refresh = None;
            match answer::<ListIssuesResponse>(result) {
                Ok(page) => {
                    outbox
                        .events
                        .push(AppEvent::Changed(Changed::Findings(page.issues)));
                }
                Err(e) => outbox.status(format!(
                    "the triaged findings could not be fetched again ({e}): r reloads"
                )),
            }
            return true;
        }
        if self.on_checked(id, &result) || self.on_listed(id, &result) {
            return true;
        }
        let Some(mut sending) = self.sending.take().filter(|s| s.id == id) else {
            return false;
        };
        sending.touched.extend(sending.batch.ids.iter().cloned());
        match result {
            Ok(ApiResponse::Triaged(answer)) => {
                sending.matched += answer.issue_count.unwrap_or(0);
                sending.answers.push(answer.summary());
                sending.counts.push(answer.clone());
            }
            Ok(ApiResponse::AgenticTriaged(answer)) => {
                if let Some(issue) = answer
                    .data
                    .filter(|d| d.id.as_deref() == sending.batch.ids.first().map(String::as_str))
                {
                    sending.answers.push(format!(
                        "{} updated",
                        findings_base::text::one_line(issue.id.as_deref().unwrap_or(""))
                    ));
                    outbox
                        .events
                        .push(AppEvent::Changed(Changed::Agentic(Box::new(issue))));
                } else {
                    sending.answers.push("answered without the issue".into());
                    outbox
                        .events
                        .push(AppEvent::Changed(Changed::AgenticReload));
                }
            }
            Ok(other) => {
                return self.failed(
                    sending,
                    other.unexpected().to_string(),
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
        self.applied(sending, now, outbox);
        true
    }

    /// The listing of a triage by filter, if `id` is its.
    fn on_listed(&mut self, id: RequestId, result: &ApiResult) -> bool {
        let Some(draft) = &mut self.draft else {
            return false;
        };
        let Scope::Filter {
            matched, filter, ..
        } = &mut draft.scope
        else {
            return false;
        };
        if *matched != Matched::Listing(Some(id)) {
            return false;
        }
        // Listed with the filter's `includeArchived`: archived projects'
        // findings only when it is true (published).
        let archived = filter.include_archived == Some(true);
        *matched = match result {
            Ok(ApiResponse::Targets(targets, complete)) => Matched::Listed(
                targets
                    .iter()
                    .map(|t| Target {
                        archived,
                        ..t.clone()
                    })
                    .collect(),
                *complete,
            ),
            Ok(other) => Matched::Failed(other.unexpected().to_string()),
            Err(e) => Matched::Failed(e.to_string()),
        };
        draft.count_notes();
        // The review names them now; the listing just read them (notes
        // included), so it is what the review plans on, not read again.
        if self.step == Step::Review
            && let Some(listed) = self.draft.as_ref().and_then(|d| d.scope.targets())
        {
            self.check = Check::Read(listed.to_vec());
            self.replan();
        }
        true
    }

    /// Every request answered: the draft is spent, the history keeps the
    /// triage (or forgets the one undone), its marks are cleared, and the
    /// rows are fetched again.
    fn applied(&mut self, sending: Sending, now: Timestamp, outbox: &mut Outbox) {
        if let Some(entry) = sending.undoing {
            self.history.remove(entry);
        }
        let mut said = String::new();
        if let Some(record) = &sending.record {
            self.history.record(
                now,
                sending.kind,
                record.changed.clone(),
                record.to.clone(),
                sending.by_filter,
            );
            outbox
                .events
                .push(AppEvent::Changed(Changed::MarksSpent(record.ids.clone())));
            if sending.by_filter && Some(sending.matched) != i64::try_from(sending.listed).ok() {
                said = format!(
                    " · the service matched {}, {} were listed before: u undoes those",
                    sending.matched, sending.listed
                );
            }
        }
        self.draft = None;
        if self.step == Step::Sending {
            self.step = Step::Hidden;
        }
        self.reload(&sending, outbox);
        let undo_hint = match self.history.len() {
            0 => String::new(),
            1 => " · u undoes".into(),
            n => format!(" · u undoes ({n} to undo: :undo-list)"),
        };
        // The counts first, then what was done: a narrow status line cuts
        // the end (whole in `:messages`).
        let remember_hint = if sending.false_positive {
            " · A m: remember why (AI memory)"
        } else {
            ""
        };
        // Several requests (notes or permissions apart): their counts
        // added up, one figure for the one triage the user made.
        let answered = if sending.counts.len() > 1 && sending.counts.len() == sending.answers.len()
        {
            findings_model::UpdateFindingsResponse::sum(&sending.counts).summary()
        } else {
            sending.answers.join("; ")
        };
        outbox.status(format!(
            "{answered} · {}{remember_hint}{said}{undo_hint}",
            sending.what
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
        if let Some(outcome) = outcome {
            text.push_str("\n\n");
            text.push_str(&outcome_words(outcome, "the triage"));
        }
        if sending.undoing.is_some() {
            // The entry stays: `u` offers the same undo again.
            self.draft = None;
            text.push_str("\n\nThe triage stays in the history: u offers its undo again.");
        } else {
            text.push_str("\n\nThe draft is kept: T opens it again.");
        }
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

    /// Fetches again what a triage touched, so the rows show the truth:
    /// the findings by id, with their activity (an exception request shows
    /// there); the whole lists when they are too many or not all known.
    fn reload(&mut self, sending: &Sending, outbox: &mut Outbox) {
        match sending.kind {
            Kind::Agentic => {
                if sending.answers.len() < sending.touched.len() {
                    outbox
                        .events
                        .push(AppEvent::Changed(Changed::AgenticReload));
                }
            }
            Kind::Finding => {
                let mut ids = sending.touched.clone();
                ids.sort();
                ids.dedup();
                let unknown = sending.by_filter
                    && Some(sending.matched) != i64::try_from(sending.listed).ok();
                if unknown || ids.len() > crate::message::REFETCHED {
                    outbox
                        .events
                        .push(AppEvent::Changed(Changed::FindingsReload));
                    return;
                }
                if ids.is_empty() {
                    return;
                }
                // Archived projects' findings too: a plain listing by id
                // leaves them out.
                outbox.cancel(self.refresh.take());
                self.refresh = outbox.send(ApiRequest::Refetch(ids));
                // Report totals and anything else counted change too.
                outbox.events.push(AppEvent::Changed(Changed::Totals));
            }
        }
    }
}

/// What a write's failed answer leaves known, in words: `what` ("the
/// triage") may or may not have been applied.
pub(crate) fn outcome_words(outcome: WriteOutcome, what: &str) -> String {
    match outcome {
        WriteOutcome::Unknown => format!(
            "Outcome unknown: {what} may or may not have been applied; it was not retried. The findings are fetched again to show their real state."
        ),
        WriteOutcome::ProbablyApplied => format!(
            "Outcome unknown: the server accepted it (2xx) but its answer could not be read, so {what} was probably applied; it was not retried."
        ),
    }
}

/// The agentic-workflow issues a triage changes, as they are before it:
/// not those given an exception request instead, nor those already so.
fn agentic_changed(draft: &Draft) -> Vec<(Target, Option<Setting>)> {
    let Ok(decision) = draft.decision() else {
        return Vec::new();
    };
    draft
        .scope
        .targets()
        .unwrap_or_default()
        .iter()
        .filter(|t| t.instead(&decision).is_none() && !t.already(&decision))
        .map(|t| (t.clone(), None))
        .collect()
}
