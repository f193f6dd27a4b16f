//! The triages of the session, newest last: what `u` undoes in turn and
//! `:undo-list` shows. Each keeps the findings it changed as they were
//! before it (for a triage by filter, the ones its listing found before it
//! was sent), so its undo touches exactly those, never a filter.

use super::plan::{self, Batch};
use findings_model::Timestamp;
use findings_requests::triage::setting::Setting;
use findings_requests::triage::{Kind, Target};

/// One triage that was applied.
#[derive(Debug, Clone, PartialEq)]
pub struct Applied {
    /// Its number in the session (1 for the first).
    pub id: u32,
    pub at: Timestamp,
    pub kind: Kind,
    /// The targets it changed, as they were before it (note included).
    pub targets: Vec<Target>,
    /// What it set on each finding, in `targets`' order (empty for
    /// agentic-workflow issues): a finding no longer so was changed by
    /// someone else since.
    pub set: Vec<Setting>,
    /// What it set: "ignored (false positive)".
    pub to: String,
    pub by_filter: bool,
}

impl Applied {
    /// The states before, most common first: "untriaged ×3, reviewing";
    /// with their reasons when that stays short.
    pub fn from(&self) -> String {
        let with_reasons = tally(self.targets.iter().map(|t| t.before_label(true)));
        let counts = if with_reasons.len() <= 3 {
            with_reasons
        } else {
            tally(self.targets.iter().map(|t| t.before_label(false)))
        };
        counts
            .into_iter()
            .map(|(label, n)| match n {
                1 => label,
                n => format!("{label} ×{n}"),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// "3 findings by filter: untriaged ×2, reviewing → fixing".
    pub fn what(&self) -> String {
        let n = self.targets.len();
        format!(
            "{n} {}{}: {} → {}",
            self.kind.noun(n),
            if self.by_filter { " by filter" } else { "" },
            self.from(),
            self.to
        )
    }

    /// When, as the list shows it.
    pub fn when(&self) -> String {
        self.at.format("%H:%M:%S").to_string()
    }
}

/// Each label and how often it comes, most common first.
fn tally(labels: impl Iterator<Item = String>) -> Vec<(String, usize)> {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for label in labels {
        match counts.iter_mut().find(|(l, _)| *l == label) {
            Some((_, n)) => *n += 1,
            None => counts.push((label, 1)),
        }
    }
    counts.sort_by_key(|c| std::cmp::Reverse(c.1));
    counts
}

/// An undo under review or in flight: the entry it undoes and its requests.
#[derive(Debug, Clone, PartialEq)]
pub struct Undo {
    pub entry: u32,
    /// Agentic-workflow issues: the requests. Findings are planned once
    /// read again ([`plan::plan_undo`] over `back`).
    pub batches: Vec<Batch>,
    /// Each finding as it was, and what the triage set.
    pub back: Vec<(Target, Setting)>,
    /// "the triage of 14:02:11 (3 findings: untriaged → fixing)".
    pub what: String,
    /// The ids its requests leave as they are: their earlier state is not
    /// one that can be set again (an ignore they may only request, which
    /// would make an exception request instead; or unknown to this build).
    pub left: Vec<String>,
}

/// The undoable triages of the session.
#[derive(Debug, Clone, Default)]
pub struct History {
    entries: Vec<Applied>,
    next: u32,
}

impl History {
    /// Keeps a triage applied at `at`; nothing when it changed nothing.
    pub fn record(
        &mut self,
        at: Timestamp,
        kind: Kind,
        changed: Vec<(Target, Option<Setting>)>,
        to: String,
        by_filter: bool,
    ) {
        if changed.is_empty() {
            return;
        }
        let (targets, set): (Vec<Target>, Vec<Option<Setting>>) = changed.into_iter().unzip();
        self.next += 1;
        self.entries.push(Applied {
            id: self.next,
            at,
            kind,
            targets,
            set: set.into_iter().flatten().collect(),
            to,
            by_filter,
        });
    }

    /// Oldest first.
    pub fn entries(&self) -> &[Applied] {
        &self.entries
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// An entry was undone.
    pub fn remove(&mut self, id: u32) {
        self.entries.retain(|e| e.id != id);
    }

    /// The undo of the newest entry: the targets it puts back and its
    /// requests. `Err`: why there is none.
    pub fn undo_last(&self, deployment: &str) -> Result<(Vec<Target>, Undo), String> {
        let Some(entry) = self.entries.last() else {
            return Err(
                "nothing to undo: no triage of this session is left to undo (:undo-list)".into(),
            );
        };
        // Split once: those an undo can put back, and those it leaves.
        let (back_targets, left): (Vec<(&Target, Option<&Setting>)>, Vec<_>) = entry
            .targets
            .iter()
            .zip(entry.set.iter().map(Some).chain(std::iter::repeat(None)))
            .partition(|(t, _)| t.can_be_put_back());
        let left = left.into_iter().map(|(t, _)| t.id.clone()).collect();
        let targets: Vec<Target> = back_targets.iter().map(|(t, _)| (*t).clone()).collect();
        let (back, batches): (Vec<(Target, Setting)>, Vec<Batch>) = match entry.kind {
            Kind::Finding => (
                back_targets
                    .iter()
                    .filter_map(|(t, s)| Some(((*t).clone(), (*s)?.clone())))
                    .collect(),
                Vec::new(),
            ),
            Kind::Agentic => (Vec::new(), plan::undo_batches(&targets, deployment)),
        };
        if back.is_empty() && batches.is_empty() {
            return Err("the earlier states cannot be set again: nothing to undo".into());
        }
        let undo = Undo {
            entry: entry.id,
            batches,
            back,
            what: format!("the triage of {} ({})", entry.when(), entry.what()),
            left,
        };
        Ok((targets, undo))
    }
}
