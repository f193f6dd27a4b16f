//! Total orders (docs/src/api.md §10): each sort order of List issues is a
//! permutation of the row indices, built once.

use super::memo::{Bits, Memo, ReportScan};
use super::{CLASS_KINDS, class};
use crate::dataset::{Changes, Dataset, Row};
use findings_model::{SortBy, SortDirection};
use std::sync::{Arc, OnceLock};

/// Sorted permutations of the rows (built once: at start-up by
/// [`Orders::prepare`], else on first use), and the rows recent filters
/// matched, so that following the cursor of a query costs neither a sort nor
/// a scan of the data set.
pub struct Orders {
    pub(super) list: [OnceLock<Arc<Vec<u32>>>; 12],
    /// The state order after triage changed states, per generation.
    after_changes: Memo<Vec<u32>>,
    pub(super) list_matches: Memo<Bits>,
    pub(super) report_scans: Memo<ReportScan>,
    /// The counts by state of recent filters (a tally of every matched row).
    pub(super) counts: Memo<findings_model::GetIssueCountsResponse>,
}

impl Default for Orders {
    fn default() -> Self {
        Orders {
            list: std::array::from_fn(|_| OnceLock::new()),
            after_changes: Memo::default(),
            list_matches: Memo::default(),
            report_scans: Memo::default(),
            counts: Memo::default(),
        }
    }
}

fn sort_slot(by: &SortBy, dir: &SortDirection) -> usize {
    let f = SortBy::ALL.iter().position(|s| s == by).unwrap_or(4);
    f * 2 + usize::from(*dir == SortDirection::Desc)
}

/// Ranks of `names` in string order (equal names, equal ranks).
fn ranks<'s>(names: impl Iterator<Item = &'s str> + Clone) -> impl Fn(&str) -> u64 {
    let mut sorted: Vec<&str> = names.collect();
    sorted.sort_unstable();
    sorted.dedup();
    let sorted: Vec<String> = sorted.into_iter().map(str::to_owned).collect();
    move |name| sorted.partition_point(|s| s.as_str() < name) as u64
}

/// Each row's sort key for `by`, ascending: the order of the contract
/// (docs/src/api.md §10) as a number.
fn sort_keys(ds: &Dataset, changes: &Changes, by: &SortBy) -> Vec<u64> {
    let per_row = |key: &dyn Fn(&Row) -> u64| {
        ds.rows
            .iter()
            .enumerate()
            .map(|(i, r)| key(&changes.row(i, r)))
            .collect()
    };
    match by {
        // Level: CRITICAL highest (index 0), so DESC puts CRITICAL first.
        SortBy::Severity => per_row(&|r| u64::from(u8::MAX - r.severity)),
        SortBy::Ref => {
            // A row's repo is a u8: the catalog holds at most 256.
            let repos = || (0..ds.catalog.repositories.len()).filter_map(|r| u8::try_from(r).ok());
            let slots = |repo: u8| (0..=u8::MAX).map(move |slot| (repo, slot));
            let rank = ranks(repos().flat_map(slots).map(|(r, s)| ds.ref_name_of(r, s)));
            let table: Vec<u64> = repos()
                .flat_map(slots)
                .map(|(r, s)| rank(ds.ref_name_of(r, s)))
                .collect();
            per_row(&|r| table[r.repo as usize * 256 + r.ref_slot as usize])
        }
        SortBy::Repo => {
            let names = ds.catalog.repositories.iter().map(|r| r.name.as_str());
            let rank = ranks(names.clone());
            let table: Vec<u64> = names.map(&rank).collect();
            per_row(&|r| table[r.repo as usize])
        }
        SortBy::Rule => {
            let ids = CLASS_KINDS.iter().flat_map(|&kind| {
                (0..u16::try_from(ds.rule_count(kind)).unwrap_or(u16::MAX))
                    .map(move |rule| ds.rule_facts_of(kind, rule).rule_id)
            });
            let rank = ranks(ids);
            let table = CLASS_KINDS.map(|kind| {
                (0..u16::try_from(ds.rule_count(kind)).unwrap_or(u16::MAX))
                    .map(|rule| rank(ds.rule_facts_of(kind, rule).rule_id))
                    .collect::<Vec<u64>>()
            });
            per_row(&|r| table[class(r.kind)][r.rule as usize])
        }
        SortBy::State => per_row(&|r| u64::from(r.aggregate)),
        // The sign bit flipped: i64 order as u64 order, every bit kept.
        _ => per_row(&|r| r.relevant_since.cast_unsigned() ^ (1 << 63)),
    }
}

impl Orders {
    /// Builds every sort order now, rather than on a first request.
    pub fn prepare(&self, ds: &Dataset) {
        let generated = Changes::default();
        for by in SortBy::ALL {
            let keys = sort_keys(ds, &generated, by);
            for dir in [SortDirection::Asc, SortDirection::Desc] {
                self.list[sort_slot(by, &dir)].get_or_init(|| Arc::new(order_by(&keys, &dir)));
            }
        }
    }

    /// The order of `by` in the state `changes`: only the state order
    /// depends on what triage changed.
    pub(super) fn list_order(
        &self,
        ds: &Dataset,
        changes: &Changes,
        by: &SortBy,
        dir: &SortDirection,
    ) -> Arc<Vec<u32>> {
        if *by == SortBy::State && changes.generation > 0 {
            let key =
                crate::cursor::fingerprint("state-order", &(changes.generation, dir.as_wire()));
            return self
                .after_changes
                .get_or_compute(key, || order_by(&sort_keys(ds, changes, by), dir));
        }
        self.list[sort_slot(by, dir)]
            .get_or_init(|| Arc::new(order_by(&sort_keys(ds, &Changes::default(), by), dir)))
            .clone()
    }
}

/// Row indices by key in `dir`, ties by index ascending: a total order.
fn order_by(keys: &[u64], dir: &SortDirection) -> Vec<u32> {
    let desc = *dir == SortDirection::Desc;
    let mut order: Vec<u32> = (0..u32::try_from(keys.len()).unwrap_or(u32::MAX)).collect();
    order.sort_unstable_by_key(|&i| {
        let k = keys[i as usize];
        (if desc { u64::MAX - k } else { k }, i)
    });
    order
}
