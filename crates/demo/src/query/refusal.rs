//! Why an action on findings is refused: the status it is answered with.

use super::BadRequest;

#[derive(Debug, Clone, PartialEq)]
pub enum Refusal {
    /// 400 INVALID_ARGUMENT.
    Invalid(String),
    /// 404 NOT_FOUND.
    NotFound(String),
    /// 403 PERMISSION_DENIED.
    Denied(String),
    /// 400 FAILED_PRECONDITION: the request is fine, the state is not.
    Precondition(String),
}

impl From<BadRequest> for Refusal {
    fn from(e: BadRequest) -> Self {
        Refusal::Invalid(e.0)
    }
}

/// The row index of finding `id`, or 404.
pub(super) fn finding(ds: &crate::dataset::Dataset, id: &str) -> Result<usize, Refusal> {
    crate::dataset::finding_index(id, ds.rows.len()).ok_or_else(|| {
        Refusal::NotFound(format!(
            "finding {} not found",
            findings_base::text::one_line(id)
        ))
    })
}

/// The time of an action: now, and never before the data set's "now".
pub(super) fn action_time(ds: &crate::dataset::Dataset) -> i64 {
    chrono::Utc::now().timestamp().max(ds.now())
}

/// An activity event of an action, by the API token's user.
pub(super) fn event(
    ds: &crate::dataset::Dataset,
    kind: findings_model::HistoryType,
    title: String,
    note: Option<String>,
) -> findings_model::ActivityEvent {
    use chrono::TimeZone;
    findings_model::ActivityEvent {
        date: chrono::Utc.timestamp_opt(action_time(ds), 0).single(),
        title: Some(title),
        note,
        actor: Some(super::triage::ACTOR.into()),
        history_type: Some(kind),
        ..Default::default()
    }
}
