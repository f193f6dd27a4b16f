//! AI verdict feedback in the demo: kept on the finding's autotriage (the
//! single-issue fetch and the lists show it) with an activity event.

use super::refusal::{Refusal, event};
use crate::dataset::*;
use findings_model::*;

/// `AutotriageFeedbackService_PostAutotriageFeedback`. The autotriage id of
/// a demo finding is `at-` and its id.
pub fn post_feedback(
    ds: &Dataset,
    req: &PostAutotriageFeedbackRequest,
) -> Result<PostAutotriageFeedbackResponse, Refusal> {
    let Some(feedback) = req.feedback.as_ref() else {
        return Err(Refusal::Invalid("feedback is required".into()));
    };
    let rating = match feedback.rating() {
        Some(r) if r.is_known() => r,
        Some(r) => {
            return Err(Refusal::Invalid(format!(
                "unknown value {:?} for feedback.rating",
                r.as_wire()
            )));
        }
        None => return Err(Refusal::Invalid("feedback.rating is required".into())),
    };
    let at_id = feedback.autotriage_id.as_deref().unwrap_or("");
    let not_found = || {
        Refusal::NotFound(format!(
            "autotriage {} not found",
            findings_base::text::one_line(at_id)
        ))
    };
    let i = at_id
        .strip_prefix("at-")
        .and_then(|id| finding_index(id, ds.rows.len()))
        .ok_or_else(not_found)?;
    ds.change(|before, next| {
        let row = before.row(i, &ds.rows[i]);
        if row.verdict.is_none() {
            return Err(not_found());
        }
        if Dataset::triage_permission(i, &row) == TriagePermission::None {
            return Err(Refusal::Denied(format!(
                "finding {}: its triage permission lets nobody give feedback on it",
                finding_id(i)
            )));
        }
        let stored = AutotriageFeedback::new(at_id, rating.clone(), feedback.note.clone());
        next.acted.feedback.insert(i, stored.clone());
        next.acted.events.entry(i).or_default().push(event(
            ds,
            HistoryType::AutotriageFeedback,
            format!("Feedback on the autotriage verdict: {}", rating.label()),
            stored.note.clone(),
        ));
        Ok(PostAutotriageFeedbackResponse {
            new_feedback: Some(stored),
        })
    })
}
