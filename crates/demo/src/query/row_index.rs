//! The rows of each (repository, ref, kind, rule): per-value row lists
//! built once, so that a List issues filter naming a repository, a ref, a
//! rule (a CVE, a rule id, an issue type...) reads only the rows it can
//! match instead of every row.
//!
//! These four never change after start-up (triage changes states, not
//! where a finding is), so the lists hold for every state.

use crate::dataset::{Kind, Row};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// One (repository, ref, kind, rule) and where its rows are.
pub(super) struct Group {
    pub(super) repo: u8,
    pub(super) ref_slot: u8,
    pub(super) kind: Kind,
    pub(super) rule: u16,
    start: usize,
    end: usize,
}

impl Group {
    /// How many rows the group holds.
    pub(super) fn len(&self) -> usize {
        self.end - self.start
    }
}

/// Every row once, grouped by (repository, ref, kind, rule).
pub(super) struct RowIndex {
    /// The row numbers, group after group, ascending within each.
    rows: Vec<u32>,
    /// The groups, in the order their first row comes.
    groups: Vec<Group>,
}

/// A row's group as one number.
fn key(r: &Row) -> u64 {
    let kind: u64 = match r.kind {
        Kind::Code => 0,
        Kind::AiCode => 1,
        Kind::Sca => 2,
        Kind::Secrets => 3,
    };
    (u64::from(r.repo) << 32) | (u64::from(r.ref_slot) << 24) | (kind << 16) | u64::from(r.rule)
}

/// The keys are small distinct numbers: one multiply spreads them.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, k: u64) {
        self.0 = (self.0 ^ k).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

impl RowIndex {
    /// Two passes over the rows: each row's group, then the rows placed
    /// group by group (a counting sort, so ascending within each group).
    pub(super) fn new(rows: &[Row]) -> Self {
        let mut ids: HashMap<u64, u32, BuildHasherDefault<KeyHasher>> = HashMap::default();
        let mut groups: Vec<Group> = Vec::new();
        let mut sizes: Vec<usize> = Vec::new();
        let of_row: Vec<u32> = rows
            .iter()
            .map(|r| {
                let id = *ids.entry(key(r)).or_insert_with(|| {
                    groups.push(Group {
                        repo: r.repo,
                        ref_slot: r.ref_slot,
                        kind: r.kind,
                        rule: r.rule,
                        start: 0,
                        end: 0,
                    });
                    sizes.push(0);
                    u32::try_from(groups.len() - 1).unwrap_or(u32::MAX)
                });
                sizes[id as usize] += 1;
                id
            })
            .collect();
        let mut at = 0;
        for (g, size) in groups.iter_mut().zip(&sizes) {
            g.start = at;
            g.end = at;
            at += size;
        }
        let mut placed = vec![0; rows.len()];
        for (i, &id) in of_row.iter().enumerate() {
            let g = &mut groups[id as usize];
            placed[g.end] = u32::try_from(i).unwrap_or(u32::MAX);
            g.end += 1;
        }
        RowIndex {
            rows: placed,
            groups,
        }
    }

    pub(super) fn groups(&self) -> &[Group] {
        &self.groups
    }

    /// The rows of group `g`, ascending.
    pub(super) fn rows_of(&self, g: &Group) -> &[u32] {
        &self.rows[g.start..g.end]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::Dataset;

    #[test]
    fn every_row_is_in_its_group_once_in_ascending_order() {
        let ds = Dataset::generate(2_000, 3, super::super::at(1_790_000_000), "1234");
        let index = RowIndex::new(&ds.rows);
        let mut seen = vec![false; ds.rows.len()];
        for g in index.groups() {
            let rows = index.rows_of(g);
            assert!(!rows.is_empty());
            assert!(rows.windows(2).all(|w| w[0] < w[1]));
            for &i in rows {
                let r = &ds.rows[i as usize];
                assert_eq!(
                    (r.repo, r.ref_slot, r.kind, r.rule),
                    (g.repo, g.ref_slot, g.kind, g.rule)
                );
                assert!(!seen[i as usize]);
                seen[i as usize] = true;
            }
        }
        assert!(seen.iter().all(|&s| s));
    }
}
