//! What the writes (triage) changed since the server started: an overlay on
//! the generated rows and agentic issues, kept for the life of the process.
//! The generated data stays as it was built; every read path sees it
//! through the overlay ([`Dataset::row`], [`Dataset::agentic_issue`]).

use super::{Dataset, Row};
use findings_model::*;
use std::collections::HashMap;
use std::sync::{Arc, RwLock};

/// A finding as triage left it: what replaces the generated values.
#[derive(Debug, Clone)]
pub struct FindingChange {
    /// Indices into the `ALL` lists, as in [`Row`].
    pub triage: u8,
    /// Changed by time passing only ([`Dataset::generate_moved_on`]).
    pub severity: u8,
    pub triage_reason: Option<u8>,
    pub aggregate: u8,
    pub triaged_at: Option<i64>,
    pub last_activity: i64,
    /// The note of the latest triage (in place of the generated one).
    pub note: Option<String>,
    /// Events added to its activity history, oldest first.
    pub events: Vec<ActivityEvent>,
}

/// An agentic-workflow issue as triage left it.
#[derive(Debug, Clone)]
pub struct AgenticChange {
    pub triage_state: AgenticTriageState,
    pub triage_reason: Option<AgenticTriageReason>,
    pub triaged_at: Timestamp,
    /// The triages made through the API, oldest first (the history after
    /// the generated one).
    pub events: Vec<AgenticIssueActivity>,
}

/// Every change so far. `generation` counts the writes, so what is kept
/// per query (matches, orders) is kept per generation.
#[derive(Debug, Clone, Default)]
pub struct Changes {
    pub generation: u64,
    pub findings: HashMap<usize, FindingChange>,
    pub agentic: HashMap<usize, AgenticChange>,
    /// What the actions on findings changed (tickets, fixes, feedback,
    /// memories).
    pub acted: super::acted::Acted,
}

impl Changes {
    /// Row `i` as it is now, from its generated `base`.
    pub fn row(&self, i: usize, base: &Row) -> Row {
        let mut row = *base;
        // Untriaged (most often): no hashing per row of a million-row scan.
        if self.findings.is_empty() && self.acted.is_empty() {
            return row;
        }
        if let Some(c) = self.findings.get(&i) {
            row.triage = c.triage;
            row.severity = c.severity;
            row.triage_reason = c.triage_reason;
            row.aggregate = c.aggregate;
            row.triaged_at = c.triaged_at;
            row.last_activity = c.last_activity;
        }
        if let Some(ticket) = self.acted.tickets.get(&i) {
            row.ticket = ticket.is_some();
        }
        if let Some(fix) = self.acted.fixes.get(&i) {
            row.fix_pr = Some(fix.state);
        }
        row
    }

    /// Agentic issue `i` as it is now, from its generated `base`.
    pub fn agentic_issue(&self, i: usize, base: &AgenticIssue) -> AgenticIssue {
        let mut issue = base.clone();
        if let Some(c) = self.agentic.get(&i) {
            issue.triage_state = Some(c.triage_state.clone());
            issue.triage_reason = c.triage_reason.clone();
            issue.triaged_at = Some(c.triaged_at);
        }
        issue
    }
}

/// The shared overlay: readers take a snapshot, a writer replaces it.
#[derive(Debug, Default)]
pub struct Overlay(RwLock<Arc<Changes>>);

impl Dataset {
    /// The changes as they are now (a snapshot: later writes do not show
    /// in it, so one answer is built from one state).
    pub fn changes(&self) -> Arc<Changes> {
        self.overlay
            .0
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Applies one write; writes are serialised, and each is a generation.
    pub fn change<R>(&self, write: impl FnOnce(&Arc<Changes>, &mut Changes) -> R) -> R {
        let mut guard = self.overlay.0.write().unwrap_or_else(|e| e.into_inner());
        let before = guard.clone();
        let mut next = (*before).clone();
        let out = write(&before, &mut next);
        next.generation = before.generation + 1;
        *guard = Arc::new(next);
        out
    }

    /// Row `i` as it is now (triage applied).
    pub fn row(&self, i: usize) -> Row {
        self.changes().row(i, &self.rows[i])
    }

    /// Agentic issue `i` as it is now (triage applied).
    pub fn agentic_issue(&self, i: usize) -> AgenticIssue {
        self.changes().agentic_issue(i, &self.agentic[i].issue)
    }
}
