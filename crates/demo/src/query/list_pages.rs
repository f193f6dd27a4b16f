//! One page of List issues without a pass over every row. List issues
//! answers a page and a cursor, no count (`ListIssuesResponse` has
//! `issues` and `cursor` alone), so a page needs the first `limit + 1`
//! matches from the cursor's position in the sort order, not every match:
//!
//! - the row index (`row_index`) narrows the filter to its candidates:
//!   the rows of the repositories, refs, kinds and rules it admits (a
//!   repository, a team, a ref, an issue type, a rule id, a CVE, a file
//!   ...), or the ids it names;
//! - few candidates are matched, put in the sort order and kept for the
//!   next pages ([`Way::Sorted`]);
//! - with many, the sort order is walked from the cursor's position until
//!   the page is full ([`Way::Walk`]): a filter matching many rows meets
//!   its page early. Sorted by rule, repository or ref, the walk jumps
//!   over the keys no candidate has (a binary search in the order);
//! - a walk that goes on too long (a filter that matches far fewer rows
//!   than its candidates, for a reason the index does not hold) stops, and
//!   every candidate is matched once, kept for the next pages and sorts
//!   ([`Way::Scan`]; a filter seen before is read from there).
//!
//! Each way gives the page and the cursor a scan of every row gives
//! (`list_pages_tests`): the first `limit` matches at or after the
//! position, and the position of the next match when there is one.

use super::list_match::ListMatcher;
use super::memo::Bits;
use super::order::{Orders, Rank};
use super::pages::collect_page;
use super::row_index::{Group, RowIndex};
use crate::cursor;
use crate::dataset::{Changes, Dataset};
use findings_model::{IssueType, ListIssuesFilter, SortBy, SortDirection};

/// A List issues query, its cursor aside: what decides its matches and
/// their order.
pub(super) struct ListQuery<'a> {
    pub(super) ds: &'a Dataset,
    pub(super) orders: &'a Orders,
    /// The state answered (triage applied).
    pub(super) changes: &'a Changes,
    pub(super) filter: &'a ListIssuesFilter,
    pub(super) types: &'a [IssueType],
    pub(super) by: &'a SortBy,
    pub(super) dir: &'a SortDirection,
}

/// How a page is found; each gives the same page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Way {
    /// By the candidates' count, as requests are answered.
    Chosen,
    /// The candidates matched and sorted (kept per query and sort).
    Sorted,
    /// The sort order walked from the position: at most `budget` rows,
    /// then [`Way::Scan`].
    Walk { budget: usize },
    /// The candidates matched, every one (kept per query, any sort), and
    /// the order walked reading those.
    Scan,
}

/// Up to this many candidates are always sorted rather than walked.
const FEW_AT_LEAST: usize = 4096;

/// The key the rows a filter matches are kept under (in
/// `Orders::list_matches`), for every sort.
pub(super) fn matches_key(f: &ListIssuesFilter, types: &[IssueType], changes: &Changes) -> u64 {
    cursor::fingerprint("list-filter", &(f, types, changes.generation))
}

/// The rows a filter can match: those the ids it names, or those of the
/// row-index groups it admits.
enum Candidates<'a> {
    Named(Vec<usize>),
    Groups {
        index: &'a RowIndex,
        groups: Vec<&'a Group>,
    },
}

impl<'a> Candidates<'a> {
    fn of(index: &'a RowIndex, matcher: &ListMatcher<'_>) -> Self {
        let groups: Vec<&Group> = index
            .groups()
            .iter()
            .filter(|g| matcher.admits_group(g.repo, g.ref_slot, g.kind, g.rule))
            .collect();
        let grouped = Candidates::Groups { index, groups };
        match matcher.named_rows() {
            Some(named) if named.count() <= grouped.count() => {
                Candidates::Named(named.ones().collect())
            }
            _ => grouped,
        }
    }

    fn count(&self) -> usize {
        match self {
            Candidates::Named(rows) => rows.len(),
            Candidates::Groups { groups, .. } => groups.iter().map(|g| g.len()).sum(),
        }
    }

    /// Each candidate, ascending: the rows read in their order in memory
    /// (a group's rows are spread over all of it; group after group, each
    /// row read would be a cache miss).
    fn each(&self, rows: usize, mut f: impl FnMut(usize)) {
        match self {
            Candidates::Named(named) => named.iter().for_each(|&i| f(i)),
            Candidates::Groups { groups, .. } if groups.is_empty() => {}
            Candidates::Groups { index, groups } => {
                let mut bits = Bits::new(rows);
                for &i in groups.iter().flat_map(|g| index.rows_of(g)) {
                    bits.set(i as usize);
                }
                bits.ones().for_each(f);
            }
        }
    }
}

/// The page of `limit` matches from position `start` of `order` (the
/// query's sort order), and the next page's position.
pub(super) fn page(
    q: &ListQuery<'_>,
    order: &[u32],
    start: usize,
    limit: usize,
) -> (Vec<usize>, Option<usize>) {
    page_by(q, order, start, limit, Way::Chosen)
}

/// [`page`], found the way `way` says.
pub(super) fn page_by(
    q: &ListQuery<'_>,
    order: &[u32],
    start: usize,
    limit: usize,
    way: Way,
) -> (Vec<usize>, Option<usize>) {
    let matcher = ListMatcher::new(q.ds, q.changes, q.filter, q.types);
    let index = q.orders.index(q.ds);
    let candidates = Candidates::of(index, &matcher);
    let rank = q.orders.rank(q.ds, q.changes, q.by, q.dir);
    let jumps = Jumps::of(&rank, &candidates, index);
    let key = matches_key(q.filter, q.types, q.changes);
    let way = match way {
        Way::Chosen => choose(q, &candidates, jumps.as_ref(), key, limit),
        w => w,
    };
    match way {
        Way::Sorted => sorted_page(q, &rank, &matcher, &candidates, order, start, limit),
        Way::Walk { budget } => {
            let walked = walk(order, start, limit, budget, jumps.as_ref(), |i| {
                matcher.matches(i)
            });
            walked.unwrap_or_else(|| scan_page(q, &matcher, &candidates, key, order, start, limit))
        }
        _ => scan_page(q, &matcher, &candidates, key, order, start, limit),
    }
}

/// The way a request's page is found. In units of one row read: sorting
/// the c candidates costs about 3c (their rows are read spread over all
/// the rows, then sorted); a walk reads about (limit + 1) * span / c rows
/// to fill a page when all the candidates match (the span: the rows the
/// walk passes, all of them unless it jumps between the candidates'
/// keys). Sort when cheaper, else walk. A walk stops after four times
/// that, or a 64th of the candidates when more (a filter that matches far
/// fewer rows than its candidates, for a reason the index does not hold:
/// a time, a memory...), and every candidate is matched once instead
/// (`Way::Scan`: a pass in memory order, a row read there some ten times
/// faster than one walked), so such a filter costs little more than the
/// scan it cost before.
fn choose(
    q: &ListQuery<'_>,
    candidates: &Candidates<'_>,
    jumps: Option<&Jumps<'_>>,
    key: u64,
    limit: usize,
) -> Way {
    let count = candidates.count();
    let span = jumps.map_or(q.ds.rows.len(), |j| j.span);
    let walk = limit.saturating_add(1).saturating_mul(span) / count.max(1);
    // The ids a filter names: as many as the request lists.
    let named = matches!(candidates, Candidates::Named(_));
    if named || count <= FEW_AT_LEAST || count.saturating_mul(3) <= walk {
        Way::Sorted
    } else if q.orders.list_matches.get(key).is_some() {
        Way::Scan
    } else {
        Way::Walk {
            budget: walk.saturating_mul(4).max(count / 64) + FEW_AT_LEAST,
        }
    }
}

/// The candidates that match, in the sort order (kept for the next pages
/// of the query), and the page from `start`.
fn sorted_page(
    q: &ListQuery<'_>,
    rank: &Rank<'_>,
    matcher: &ListMatcher<'_>,
    candidates: &Candidates<'_>,
    order: &[u32],
    start: usize,
    limit: usize,
) -> (Vec<usize>, Option<usize>) {
    let key = cursor::fingerprint(
        "list-sorted",
        &(q.filter, q.types, q.changes.generation, q.by, q.dir),
    );
    let sorted = q.orders.list_sorted.get_or_compute(key, || {
        let mut placed = Vec::new();
        candidates.each(q.ds.rows.len(), |i| {
            if matcher.matches(i) {
                placed.push(rank.of(i));
            }
        });
        placed.sort_unstable();
        placed
            .into_iter()
            .map(|(_, i)| u32::try_from(i).unwrap_or(u32::MAX))
            .collect()
    });
    // Past the end of the order: nothing (as a walk from there).
    let Some(&at) = order.get(start) else {
        return (Vec::new(), None);
    };
    let from = rank.of(at as usize);
    let first = sorted.partition_point(|&i| rank.of(i as usize) < from);
    let rest = &sorted[first..];
    let items = rest.iter().take(limit).map(|&i| i as usize).collect();
    let next = rest.get(limit).map(|&i| rank.position(order, i as usize));
    (items, next)
}

/// The sort keys the candidates have, when the walk can know them: every
/// row between two of them is passed over at the cost of a binary search
/// (a listing by rule, repository or ref of a filter naming some).
struct Jumps<'a> {
    rank: &'a Rank<'a>,
    /// Ascending, as [`Rank::of`] gives them.
    keys: Vec<u64>,
    /// How many rows have one of those keys (all of them for named rows:
    /// not counted, and those are sorted).
    span: usize,
}

impl<'a> Jumps<'a> {
    fn of(rank: &'a Rank<'a>, candidates: &Candidates<'_>, index: &RowIndex) -> Option<Self> {
        let mut keys: Vec<u64> = match candidates {
            Candidates::Named(named) => named.iter().map(|&i| rank.of(i).0).collect(),
            Candidates::Groups { groups, .. } => groups
                .iter()
                .map(|g| rank.of_group(g))
                .collect::<Option<_>>()?,
        };
        keys.sort_unstable();
        keys.dedup();
        let span = match candidates {
            Candidates::Named(_) => rank.rows(),
            Candidates::Groups { .. } => index
                .groups()
                .iter()
                .filter(|g| {
                    rank.of_group(g)
                        .is_some_and(|k| keys.binary_search(&k).is_ok())
                })
                .map(Group::len)
                .sum(),
        };
        Some(Jumps { rank, keys, span })
    }

    /// Where in `order` the walk goes on from `p` (a row of sort key
    /// `key`): `p` when a candidate can have that key, else the first
    /// position of the next key a candidate has (`None`: no candidate
    /// comes later).
    fn next(&self, order: &[u32], p: usize, key: u64) -> Option<usize> {
        let &want = self.keys.get(self.keys.partition_point(|&k| k < key))?;
        if want == key {
            return Some(p);
        }
        let rest = order.get(p..).unwrap_or_default();
        Some(p + rest.partition_point(|&r| self.rank.of(r as usize).0 < want))
    }
}

/// [`collect_page`] over the rows `jumps` does not pass over, that gives
/// up (`None`) after reading `budget` rows.
fn walk(
    order: &[u32],
    start: usize,
    limit: usize,
    budget: usize,
    jumps: Option<&Jumps<'_>>,
    matches: impl Fn(usize) -> bool,
) -> Option<(Vec<usize>, Option<usize>)> {
    let mut items = Vec::with_capacity(limit.min(order.len().saturating_sub(start)));
    let mut p = start;
    let mut read = 0;
    // The last key a candidate has that the walk met: the rows after it
    // of that key need no search.
    let mut admitted = None;
    while let Some(&i) = order.get(p) {
        if let Some(jumps) = jumps {
            let key = jumps.rank.of(i as usize).0;
            if admitted != Some(key) {
                match jumps.next(order, p, key) {
                    Some(to) if to != p => {
                        p = to;
                        continue;
                    }
                    Some(_) => admitted = Some(key),
                    None => break,
                }
            }
        }
        if read == budget {
            return None;
        }
        read += 1;
        if matches(i as usize) {
            if items.len() == limit {
                return Some((items, Some(p)));
            }
            items.push(i as usize);
        }
        p += 1;
    }
    Some((items, None))
}

/// Every candidate matched once (kept for the next pages and sorts of the
/// query, as the counts and groups keep theirs), then the order walked
/// reading those.
fn scan_page(
    q: &ListQuery<'_>,
    matcher: &ListMatcher<'_>,
    candidates: &Candidates<'_>,
    key: u64,
    order: &[u32],
    start: usize,
    limit: usize,
) -> (Vec<usize>, Option<usize>) {
    let rows = q.ds.rows.len();
    let matches = q.orders.list_matches.get_or_compute(key, || {
        // Most rows: one pass over every row, in memory order, costs less
        // than picking the candidates out first.
        if candidates.count() > rows / 4 {
            return matcher.scan();
        }
        let mut bits = Bits::new(rows);
        candidates.each(rows, |i| {
            if matcher.matches(i) {
                bits.set(i);
            }
        });
        bits
    });
    collect_page(order, start, limit, |i| matches.get(i))
}
