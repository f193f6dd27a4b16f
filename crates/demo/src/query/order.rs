//! Total orders (docs/src/api.md §10): each sort order of List issues is a
//! permutation of the row indices, built once.

use super::memo::{Bits, Memo, ReportScan};
use super::row_index::{Group, RowIndex};
use super::{CLASS_KINDS, class};
use crate::dataset::{Changes, Dataset, Kind, Row};
use findings_model::{SortBy, SortDirection};
use std::sync::{Arc, OnceLock};

/// Sorted permutations of the rows (built once: at start-up by
/// [`Orders::prepare`], else on first use), the rows of each repository,
/// ref, kind and rule, and the rows recent filters matched, so that
/// following the cursor of a query costs neither a sort nor a scan of the
/// data set.
pub struct Orders {
    pub(super) list: [OnceLock<Arc<Vec<u32>>>; 12],
    /// Each sort field's key of a row (its tables built once).
    keys: [OnceLock<SortKey>; 6],
    /// The state order after triage changed states, per generation.
    after_changes: Memo<Vec<u32>>,
    pub(super) list_matches: Memo<Bits>,
    /// The rows recent filters matched in one sort order, in that order
    /// (filters the row index narrows to a few rows: `list_pages`).
    pub(super) list_sorted: Memo<Vec<u32>>,
    /// The rows of each repository, ref, kind and rule.
    index: OnceLock<RowIndex>,
    pub(super) report_scans: Memo<ReportScan>,
    /// The counts by state of recent filters (a tally of every matched row).
    pub(super) counts: Memo<findings_model::GetIssueCountsResponse>,
}

impl Default for Orders {
    fn default() -> Self {
        Orders {
            list: std::array::from_fn(|_| OnceLock::new()),
            keys: std::array::from_fn(|_| OnceLock::new()),
            after_changes: Memo::default(),
            list_matches: Memo::default(),
            list_sorted: Memo::default(),
            index: OnceLock::new(),
            report_scans: Memo::default(),
            counts: Memo::default(),
        }
    }
}

/// The place of `by` in [`SortBy::ALL`] (an unknown field is refused
/// before: the default's).
fn field(by: &SortBy) -> usize {
    SortBy::ALL.iter().position(|s| s == by).unwrap_or(4)
}

fn sort_slot(by: &SortBy, dir: &SortDirection) -> usize {
    let f = field(by);
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

/// A row's sort key for one sort field, ascending: the order of the
/// contract (docs/src/api.md §10) as a number, from tables built once.
enum SortKey {
    Severity,
    /// By `repo * 256 + ref_slot`: the rank of the ref's name.
    Ref(Vec<u64>),
    /// By repository: the rank of its name.
    Repo(Vec<u64>),
    /// By rule, one table per rule class: the rank of the rule id.
    Rule([Vec<u64>; 3]),
    State,
    RelevantSince,
}

impl SortKey {
    fn new(ds: &Dataset, by: &SortBy) -> Self {
        match by {
            SortBy::Severity => SortKey::Severity,
            SortBy::Ref => {
                // A row's repo is a u8: the catalog holds at most 256.
                let repos =
                    || (0..ds.catalog.repositories.len()).filter_map(|r| u8::try_from(r).ok());
                let slots = |repo: u8| (0..=u8::MAX).map(move |slot| (repo, slot));
                let rank = ranks(repos().flat_map(slots).map(|(r, s)| ds.ref_name_of(r, s)));
                SortKey::Ref(
                    repos()
                        .flat_map(slots)
                        .map(|(r, s)| rank(ds.ref_name_of(r, s)))
                        .collect(),
                )
            }
            SortBy::Repo => {
                let names = ds.catalog.repositories.iter().map(|r| r.name.as_str());
                let rank = ranks(names.clone());
                SortKey::Repo(names.map(&rank).collect())
            }
            SortBy::Rule => {
                let ids = CLASS_KINDS.iter().flat_map(|&kind| {
                    (0..u16::try_from(ds.rule_count(kind)).unwrap_or(u16::MAX))
                        .map(move |rule| ds.rule_facts_of(kind, rule).rule_id)
                });
                let rank = ranks(ids);
                SortKey::Rule(CLASS_KINDS.map(|kind| {
                    (0..u16::try_from(ds.rule_count(kind)).unwrap_or(u16::MAX))
                        .map(|rule| rank(ds.rule_facts_of(kind, rule).rule_id))
                        .collect::<Vec<u64>>()
                }))
            }
            SortBy::State => SortKey::State,
            _ => SortKey::RelevantSince,
        }
    }

    /// The key of every row of a row-index group, when the key is that
    /// of its repository, ref, kind and rule alone.
    fn of_group(&self, repo: u8, ref_slot: u8, kind: Kind, rule: u16) -> Option<u64> {
        match self {
            SortKey::Ref(table) => Some(table[repo as usize * 256 + ref_slot as usize]),
            SortKey::Repo(table) => Some(table[repo as usize]),
            SortKey::Rule(tables) => Some(tables[class(kind)][rule as usize]),
            _ => None,
        }
    }

    fn of(&self, r: &Row) -> u64 {
        match self {
            // Level: CRITICAL highest (index 0), so DESC puts CRITICAL first.
            SortKey::Severity => u64::from(u8::MAX - r.severity),
            SortKey::Ref(table) => table[r.repo as usize * 256 + r.ref_slot as usize],
            SortKey::Repo(table) => table[r.repo as usize],
            SortKey::Rule(tables) => tables[class(r.kind)][r.rule as usize],
            SortKey::State => u64::from(r.aggregate),
            // The sign bit flipped: i64 order as u64 order, every bit kept.
            SortKey::RelevantSince => r.relevant_since.cast_unsigned() ^ (1 << 63),
        }
    }
}

/// Each row's sort key, ascending.
fn sort_keys(ds: &Dataset, changes: &Changes, key: &SortKey) -> Vec<u64> {
    ds.rows
        .iter()
        .enumerate()
        .map(|(i, r)| key.of(&changes.row(i, r)))
        .collect()
}

/// Where a row stands in one sort order without reading the order: the
/// order lists the rows ascending by [`Rank::of`] (see [`order_by`]).
pub(super) struct Rank<'a> {
    ds: &'a Dataset,
    key: &'a SortKey,
    /// The state the order reads: `None` for the rows as generated.
    changes: Option<&'a Changes>,
    desc: bool,
}

impl Rank<'_> {
    /// Row `i`'s place: its key as the order reads it, then the row.
    pub(super) fn of(&self, i: usize) -> (u64, usize) {
        let base = &self.ds.rows[i];
        let k = match self.changes {
            Some(changes) => self.key.of(&changes.row(i, base)),
            None => self.key.of(base),
        };
        (if self.desc { u64::MAX - k } else { k }, i)
    }

    /// [`Self::of`]'s key of every row of a row-index group, when the
    /// sort field is one of the group's (repository, ref, rule).
    pub(super) fn of_group(&self, g: &Group) -> Option<u64> {
        let k = self.key.of_group(g.repo, g.ref_slot, g.kind, g.rule)?;
        Some(if self.desc { u64::MAX - k } else { k })
    }

    /// How many rows the order holds.
    pub(super) fn rows(&self) -> usize {
        self.ds.rows.len()
    }

    /// The position in `order` (the order this ranks) of row `i`.
    pub(super) fn position(&self, order: &[u32], i: usize) -> usize {
        let at = self.of(i);
        order.partition_point(|&r| self.of(r as usize) < at)
    }
}

impl Orders {
    /// Builds every sort order and the row index now, rather than on a
    /// first request.
    pub fn prepare(&self, ds: &Dataset) {
        self.index(ds);
        let generated = Changes::default();
        for by in SortBy::ALL {
            let keys = sort_keys(ds, &generated, self.sort_key(ds, by));
            for dir in [SortDirection::Asc, SortDirection::Desc] {
                self.list[sort_slot(by, &dir)].get_or_init(|| Arc::new(order_by(&keys, &dir)));
            }
        }
    }

    /// The rows of each repository, ref, kind and rule (built once).
    pub(super) fn index(&self, ds: &Dataset) -> &RowIndex {
        self.index.get_or_init(|| RowIndex::new(&ds.rows))
    }

    fn sort_key(&self, ds: &Dataset, by: &SortBy) -> &SortKey {
        self.keys[field(by)].get_or_init(|| SortKey::new(ds, by))
    }

    /// How [`Self::list_order`] of the same arguments ranks a row.
    pub(super) fn rank<'a>(
        &'a self,
        ds: &'a Dataset,
        changes: &'a Changes,
        by: &SortBy,
        dir: &SortDirection,
    ) -> Rank<'a> {
        Rank {
            ds,
            key: self.sort_key(ds, by),
            changes: (*by == SortBy::State && changes.generation > 0).then_some(changes),
            desc: *dir == SortDirection::Desc,
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
            return self.after_changes.get_or_compute(key, || {
                order_by(&sort_keys(ds, changes, self.sort_key(ds, by)), dir)
            });
        }
        self.list[sort_slot(by, dir)]
            .get_or_init(|| {
                let keys = sort_keys(ds, &Changes::default(), self.sort_key(ds, by));
                Arc::new(order_by(&keys, dir))
            })
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
