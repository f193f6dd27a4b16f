//! "Since last visit": what the worker answers when it compares the
//! findings a filter matches now with the last visit's snapshot
//! (`runtime::since`), kept by category for the Issues pane's view.

use findings_model::Timestamp;
use findings_snapshot::BaselineFiles;
use findings_snapshot::{Category, Change};

/// At most this many changes are kept to show (every one is counted): a
/// million findings all changed would otherwise be a second list the size
/// of the first.
pub const MAX_KEPT: usize = 20_000;

/// What changed since the last visit with one filter.
#[derive(Debug, Clone, Default)]
pub struct SinceReport {
    /// When the last visit's snapshot was taken; `None` on a first visit
    /// with this filter (nothing to compare: this one is kept for next
    /// time).
    pub last_visit: Option<Timestamp>,
    /// How many findings the filter matches now.
    pub now: u64,
    /// How many findings changed in each way, in [`Category::ALL`] order.
    pub counts: [u64; Category::ALL.len()],
    /// The changes, in the order found, up to [`MAX_KEPT`].
    pub changes: Vec<Change>,
    /// Why the last visit could not be read, or this one not kept (the
    /// comparison went on as well as it could).
    pub notes: Vec<String>,
    /// The files compared with and kept, to make this visit the last one
    /// when the app ends.
    pub files: Option<BaselineFiles>,
}

impl SinceReport {
    pub fn count(&self, category: Category) -> u64 {
        Category::ALL
            .iter()
            .position(|c| *c == category)
            .map_or(0, |k| self.counts[k])
    }

    /// Counts one change (kept while there is room).
    pub fn add(&mut self, change: Change) {
        if let Some(k) = Category::ALL
            .iter()
            .position(|c| c.name() == change.category)
        {
            self.counts[k] += 1;
        }
        if self.changes.len() < MAX_KEPT {
            self.changes.push(change);
        }
    }

    /// The changes of `category` kept.
    pub fn of(&self, category: Category) -> impl Iterator<Item = &Change> {
        self.changes
            .iter()
            .filter(move |c| c.category == category.name())
    }

    /// Whether anything changed.
    pub fn any(&self) -> bool {
        self.counts.iter().any(|n| *n > 0)
    }
}
