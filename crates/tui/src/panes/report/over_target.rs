//! The open-age view's count of open findings past their target (the
//! profile's `sla_days`), by severity: asked when the view shows, for the
//! repositories the Report is filtered on, and again after a triage.

use crate::message::open_age::OverTargetCounts;
use crate::message::{ApiRequest, ApiResponse, ApiResult, Outbox, RequestId};
use findings_config::SlaDays;
use findings_model::{ListIssuesRequest, Timestamp};

#[derive(Debug, Clone, Default)]
pub struct OverTarget {
    /// The repositories counted (empty: all), once asked.
    of: Option<Vec<String>>,
    pending: Option<RequestId>,
    pub counts: Option<OverTargetCounts>,
    pub error: Option<String>,
}

impl OverTarget {
    pub fn is_loading(&self) -> bool {
        self.pending.is_some()
    }

    /// Counts the open findings of `projects` past `targets` at `now`,
    /// unless that is done or under way.
    pub fn ask(
        &mut self,
        projects: &[String],
        targets: SlaDays,
        now: Timestamp,
        outbox: &mut Outbox,
    ) {
        if self.of.as_deref() == Some(projects) && (self.pending.is_some() || self.counts.is_some())
        {
            return;
        }
        let mut request = ListIssuesRequest::default();
        if !projects.is_empty() {
            request
                .filter
                .get_or_insert_with(Default::default)
                .repository_names = projects.to_vec();
        }
        outbox.cancel(self.pending.take());
        self.of = Some(projects.to_vec());
        self.counts = None;
        self.error = None;
        self.pending = outbox.in_slot(super::Slot::OverTarget, |o| {
            o.send(ApiRequest::OverTarget {
                request,
                targets,
                now,
            })
        });
    }

    /// The findings changed (a triage): the next show counts again.
    pub fn forget(&mut self) {
        self.of = None;
    }

    pub fn accept(&mut self, id: RequestId, result: ApiResult) {
        if self.pending != Some(id) {
            return;
        }
        self.pending = None;
        match result {
            Ok(ApiResponse::OverTarget(counts)) => self.counts = Some(counts),
            Ok(other) => self.error = Some(other.unexpected().to_string()),
            Err(e) => self.error = Some(e.to_string()),
        }
    }
}
