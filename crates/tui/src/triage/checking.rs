//! The findings of a triage read again, twice: when the dialog opens (a
//! list's row keeps no note, so the dialog could not show or keep one) and
//! when the review opens, in one listing by id with their activity. The
//! review's requests are planned on that second read: each finding keeps
//! its own note unless the user chose otherwise, and one that someone else
//! changed since it was shown is named and left out unless `i` includes it.

use super::plan::{self, Check, Reviewed, Scope};
use super::{Step, Triage};
use crate::message::{ApiResult, Outbox, RequestId};

impl Triage {
    /// Reads the dialog's findings (their notes) when it opens on them.
    pub(super) fn read_fresh(&mut self, outbox: &mut Outbox) {
        let Some(draft) = &mut self.draft else { return };
        if !draft.kind().takes_note() || draft.undo.is_some() {
            return;
        }
        let Scope::Ids(targets) = &draft.scope else {
            // A filter's listing reads them, notes included.
            return;
        };
        let ids = targets.iter().map(|t| t.id.clone()).collect();
        if let Check::Reading(id) = draft.fresh {
            outbox.cancel(Some(id));
        }
        draft.fresh = match outbox.send(Check::request(ids)) {
            Some(id) => Check::Reading(id),
            None => Check::Failed("not asked for".into()),
        };
    }

    /// Reads the review's findings again; its requests wait for them.
    pub(super) fn start_check(&mut self, outbox: &mut Outbox) {
        // A read before, and the dialog's if still on its way: this one
        // replaces them.
        if let Check::Reading(id) = std::mem::take(&mut self.check) {
            outbox.cancel(Some(id));
        }
        let Some(draft) = &mut self.draft else { return };
        if let Check::Reading(id) = draft.fresh {
            outbox.cancel(Some(id));
            draft.fresh = Check::Idle;
        }
        let ids: Vec<String> = match &draft.undo {
            Some(undo) => undo.back.iter().map(|(t, _)| t.id.clone()).collect(),
            // A filter still listing: planned on its listing once listed.
            None if draft.scope.targets().is_none() => return,
            None => draft.scope.ids(),
        };
        if ids.is_empty() {
            self.check = Check::Read(Vec::new());
            return self.replan();
        }
        self.check = match outbox.send(Check::request(ids)) {
            Some(id) => Check::Reading(id),
            None => Check::Failed("the findings were not asked for".into()),
        };
    }

    /// The review's plan on the findings as read, and its requests.
    pub(super) fn replan(&mut self) {
        let (Some(draft), Some(now)) = (&self.draft, self.check.read()) else {
            return;
        };
        let planned = match &draft.undo {
            Some(undo) => plan::plan_undo(&undo.back, now, self.include_changed, &self.deployment),
            None => match draft.decision() {
                Ok(decision) => plan::plan_triage(
                    &decision,
                    draft.notes,
                    &draft.shown(),
                    now,
                    self.include_changed,
                    &self.deployment,
                ),
                Err(_) => return,
            },
        };
        let mut planned = planned;
        // The requests move to the review; the plan keeps what it says.
        self.reviewed = Reviewed::of(std::mem::take(&mut planned.batches));
        self.plan = Some(planned);
    }

    /// `i` on the review: includes (or leaves out again) the findings
    /// someone else changed since they were shown.
    pub(super) fn include_meanwhile(&mut self, outbox: &mut Outbox) {
        let Some(plan) = &self.plan else { return };
        if plan.meanwhile.is_empty() {
            return outbox.status("no finding was changed by anyone else since it was shown");
        }
        self.include_changed = !self.include_changed;
        self.replan();
    }

    /// The answer to one of the reads, if `id` is one.
    pub(super) fn on_checked(&mut self, id: RequestId, result: &ApiResult) -> bool {
        if self.check.answered(id, result) {
            self.replan();
            return true;
        }
        let Some(draft) = &mut self.draft else {
            return false;
        };
        if draft.fresh.answered(id, result) {
            draft.count_notes();
            if self.step == Step::Editing {
                draft.fresh_read();
            }
            return true;
        }
        false
    }
}
