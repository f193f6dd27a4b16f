//! Findings seen on more than one ref. A finding on a feature ref (a row
//! with `ref_slot != 0`) is, about half the time, the TWIN of a finding on
//! the repository's primary ref: the same kind, rule, file and line, and
//! the same match ids (`matchBasedId`, `syntacticId`), as the platform
//! matches one finding across refs; the others are the change's own. A
//! twin keeps the states it was drawn with, so a twin open on its ref
//! whose origin is fixed or removed is a finding the change reopens.
//!
//! Only the twins' origins are kept (a side table, not a field of every
//! row), and the choice comes from its own random stream, so every other
//! draw of the data set stays as it was.

use super::{Dataset, Kind, Row, stream};
use crate::rng::Rng;
use std::collections::{HashMap, HashSet};

/// About this share of a feature ref's findings are twins.
const TWIN_CHANCE: f64 = 0.5;

/// What a twin must share with its origin to be the same finding: the
/// repository, kind and rule (the row's file is drawn from the rule's),
/// and for a dependency whether it is in the lockfile or the manifest.
type Identity = (u8, Kind, u16, bool);

fn identity(row: &Row) -> Identity {
    (row.repo, row.kind, row.rule, row.transitive)
}

/// The primary-ref findings a feature-ref finding can be the twin of, and
/// the origins already twinned on each ref (a ref holds a finding once).
pub(super) struct TwinPicker {
    origins: HashMap<Identity, Vec<u32>>,
    taken: HashSet<(u32, u8)>,
}

impl TwinPicker {
    /// Candidates: the primary-ref rows among `rows`.
    pub(super) fn new(rows: &[Row]) -> Self {
        let mut origins: HashMap<Identity, Vec<u32>> = HashMap::new();
        for (i, row) in rows.iter().enumerate() {
            if row.ref_slot == 0 {
                origins.entry(identity(row)).or_default().push(row_u32(i));
            }
        }
        TwinPicker {
            origins,
            taken: HashSet::new(),
        }
    }
}

impl Dataset {
    /// Makes row `index` (on a feature ref) the twin of a primary-ref
    /// finding, when its draw says so and one is free: its file and line
    /// become the origin's, the origin is recorded.
    pub(super) fn maybe_twin(&mut self, picker: &mut TwinPicker, index: usize) {
        let row = self.rows[index];
        if row.ref_slot == 0 {
            return;
        }
        let mut r = Rng::for_item(self.seed, stream::TWIN, index as u64);
        if !r.chance(TWIN_CHANCE) {
            return;
        }
        let Some(candidates) = picker.origins.get(&identity(&row)) else {
            return;
        };
        let origin = *r.pick(candidates);
        if !picker.taken.insert((origin, row.ref_slot)) {
            return;
        }
        let source = self.rows[origin as usize];
        let twin = &mut self.rows[index];
        twin.path = source.path;
        twin.line = source.line;
        // Rows are twinned in index order: the table stays sorted.
        self.twins.push((row_u32(index), origin));
    }

    /// The primary-ref finding finding `index` is the twin of, if it is one.
    pub fn twin_origin(&self, index: usize) -> Option<usize> {
        let index = u32::try_from(index).ok()?;
        self.twins
            .binary_search_by_key(&index, |&(twin, _)| twin)
            .ok()
            .map(|k| self.twins[k].1 as usize)
    }

    /// Which finding `index` is across refs: its origin's index for a twin,
    /// else its own. Its match ids are drawn from this.
    pub fn match_identity(&self, index: usize) -> usize {
        self.twin_origin(index).unwrap_or(index)
    }
}

/// A row's number as the twins table keeps it: a demo holds far fewer
/// than 2^32 rows (saturating, never wrapping, past them).
fn row_u32(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}
