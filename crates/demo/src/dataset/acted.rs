//! What the actions on findings (tickets, fix requests, feedback, memories)
//! left in the overlay: kept beside triage's changes, read by every answer.

use super::FixPr;
use findings_model::*;
use std::sync::Arc;

/// A ticket findings are linked to (created by the demo or linked by URL).
#[derive(Debug, Clone, PartialEq)]
pub struct LinkedTicket {
    pub id: i64,
    pub url: String,
    pub slug: String,
    /// Every finding the ticket was made or linked for.
    pub issue_ids: Vec<String>,
}

impl LinkedTicket {
    pub fn wire(&self) -> ExternalTicket {
        ExternalTicket {
            url: Some(self.url.clone()),
            external_slug: Some(self.slug.clone()),
            id: Some(self.id.to_string()),
            linked_issue_ids: self.issue_ids.clone(),
        }
    }
}

/// A fix pull request asked for through the API.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FixRequest {
    /// `Requested` until it opens, then `Open`.
    pub state: FixPr,
    pub pr_number: u32,
    /// The served-request count at which the pull request opens
    /// (docs/src/api.md "Fix pull requests": a delay counted in requests).
    pub opens_at: u64,
}

/// A memory created from a triage note.
#[derive(Debug, Clone)]
pub struct CreatedMemory {
    /// Its index among memory ids ([`super::memory_id`]).
    pub index: u8,
    pub memory: Memory,
    /// Which findings its scope held when it was made (one flag per row).
    pub in_scope: Arc<Vec<bool>>,
}

/// Everything the actions changed.
#[derive(Debug, Clone, Default)]
pub struct Acted {
    /// A finding's ticket now: `Some` linked, `None` unlinked (overrides
    /// the generated one).
    pub tickets: std::collections::HashMap<usize, Option<Arc<LinkedTicket>>>,
    pub fixes: std::collections::HashMap<usize, FixRequest>,
    pub feedback: std::collections::HashMap<usize, AutotriageFeedback>,
    /// Activity the actions added, oldest first.
    pub events: std::collections::HashMap<usize, Vec<ActivityEvent>>,
    pub memories: Vec<CreatedMemory>,
    /// The number of the next ticket the demo creates.
    pub next_ticket: i64,
}

impl Acted {
    pub fn is_empty(&self) -> bool {
        self.tickets.is_empty() && self.fixes.is_empty()
    }

    /// A created memory by its index, if it is one.
    pub fn memory(&self, index: u8) -> Option<&CreatedMemory> {
        self.memories.iter().find(|m| m.index == index)
    }
}
