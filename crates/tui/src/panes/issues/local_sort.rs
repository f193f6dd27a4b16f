//! Sorting what is loaded, once everything is: `s`, `S` and `:sort` on
//! every column (severity, state, rule, repository, ref, relevant since,
//! and the AGE column, which the server cannot sort by) order the loaded
//! rows at once, without asking the server. The
//! order is a stable radix sort of row numbers by a 32-bit key: a few
//! passes over the rows, whatever their number, so a million sort within
//! a frame.

use crate::message::rows::{FindingRow, SearchIndex};
use crate::message::{row_number, search};
use findings_model::{AggregateState, IssueItem, Severity, SortBy, SortDirection};

/// The loaded rows' numbers in the order `by` and `direction` ask
/// (descending when `None`, as the server's default); `None` for a
/// column the rows do not keep (the server sorts it).
pub fn order(
    rows: &[FindingRow<IssueItem>],
    search: &SearchIndex,
    by: &SortBy,
    direction: Option<&SortDirection>,
) -> Option<Vec<u32>> {
    let mut keys: Vec<u32> = match by {
        // Most severe highest, none and unknown lowest.
        // Most severe highest, unknown next, none lowest.
        SortBy::Severity => search.field_keys(search::SEVERITY, |label| {
            let known = Severity::ALL.iter().position(|s| s.label() == label);
            match known {
                Some(k) => 10 - row_number(k),
                None if label.is_empty() => 0,
                None => 1,
            }
        }),
        // In the declaration order of the states.
        SortBy::State => {
            let labels: Vec<String> = AggregateState::ALL
                .iter()
                .map(|s| s.label().to_lowercase())
                .collect();
            search.field_keys(search::STATE, |label| {
                let known = labels.iter().position(|l| l == label);
                known.map_or(u32::MAX, row_number)
            })
        }
        SortBy::Rule => search.sort_keys(search::RULE)?,
        SortBy::Repo => search.sort_keys(search::REPOSITORY)?,
        SortBy::RelevantSince => search.since_keys().to_vec(),
        SortBy::Ref => search.ref_keys(),
        _ => return None,
    };
    if keys.len() != rows.len() {
        return None;
    }
    if direction != Some(&SortDirection::Asc) {
        for k in &mut keys {
            *k = u32::MAX - *k;
        }
    }
    Some(radix_order(&keys))
}

/// The loaded rows' numbers by age (first detection: the AGE column),
/// oldest first when descending (as the server's sorts default); rows
/// without a first detection last.
pub fn age_order(rows: &[FindingRow<IssueItem>], direction: Option<&SortDirection>) -> Vec<u32> {
    let mut keys: Vec<u32> = rows
        .iter()
        .map(|r| match r.first_detected() {
            // Older, higher: as an age.
            Some(t) => {
                u32::MAX
                    - 1
                    - u32::try_from(t.timestamp().clamp(0, i64::from(u32::MAX - 2))).unwrap_or(0)
            }
            None => 0,
        })
        .collect();
    if direction != Some(&SortDirection::Asc) {
        for k in &mut keys {
            *k = u32::MAX - *k;
        }
    }
    radix_order(&keys)
}

/// The positions of `keys` in ascending order of key, equal keys in
/// their order (stable): counting passes over (key, position) pairs, read
/// in order.
// A digit is at most 14 bits, and a pair's low 32 bits hold its row: the
// casts back keep all they hold.
#[allow(clippy::cast_possible_truncation)]
pub fn radix_order(keys: &[u32]) -> Vec<u32> {
    let (min, max) = keys
        .iter()
        .fold((u32::MAX, 0), |(lo, hi), &k| (lo.min(k), hi.max(k)));
    if keys.is_empty() || min == max {
        return (0..row_number(keys.len())).collect();
    }
    let span = max - min;
    let mut pairs: Vec<u64> = keys
        .iter()
        .enumerate()
        .map(|(i, &k)| (u64::from(k - min) << 32) | i as u64)
        .collect();
    let mut scratch = vec![0u64; pairs.len()];
    // As few passes as the range needs, of at most 14 bits (16,384
    // counters stay in cache).
    let needed = 32 - span.leading_zeros();
    let passes = needed.div_ceil(14);
    let bits = needed.div_ceil(passes);
    let mut counts = vec![0u32; 1 << bits];
    for pass in 0..passes {
        let shift = 32 + pass * bits;
        let digit = |p: u64| ((p >> shift) & ((1 << bits) - 1)) as usize;
        counts.fill(0);
        for &p in &pairs {
            counts[digit(p)] += 1;
        }
        let mut at = 0;
        for c in &mut counts {
            let n = *c;
            *c = at;
            at += n;
        }
        for &p in &pairs {
            let d = digit(p);
            scratch[counts[d] as usize] = p;
            counts[d] += 1;
        }
        std::mem::swap(&mut pairs, &mut scratch);
    }
    pairs.into_iter().map(|p| p as u32).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use findings_model::{Issue, Repository, Severity};

    #[test]
    fn the_radix_order_is_a_stable_sort() {
        let keys: Vec<u32> = (0..5000u32)
            .map(|i| i.wrapping_mul(2_654_435_761) % 70_000 * if i % 3 == 0 { 1 } else { 977 })
            .collect();
        let mut expected: Vec<u32> = (0..row_number(keys.len())).collect();
        expected.sort_by_key(|&i| keys[i as usize]);
        assert_eq!(radix_order(&keys), expected);
        assert_eq!(radix_order(&[3, 3, 3]), vec![0, 1, 2]);
        assert!(radix_order(&[]).is_empty());
    }

    #[test]
    fn loaded_rows_sort_by_the_columns_they_keep() {
        let issue = |id: &str, sev: Severity, repo: &str, day: u32| Issue {
            id: Some(id.into()),
            severity: Some(sev),
            repository: Some(Repository {
                name: Some(repo.into()),
                ..Default::default()
            }),
            relevant_since: chrono::TimeZone::with_ymd_and_hms(&chrono::Utc, 2026, 1, day, 0, 0, 0)
                .single(),
            // Refs and first detections in another order than the days.
            ref_: Some(["main", "dev", "release", "dev"][day as usize - 1].into()),
            first_detected_at: (day != 2).then(|| {
                chrono::TimeZone::with_ymd_and_hms(&chrono::Utc, 2025, 1, 10 - day, 0, 0, 0)
                    .unwrap()
            }),
            ..Issue::default()
        };
        let issues = [
            issue("a", Severity::Low, "zeta", 3),
            issue("b", Severity::Critical, "Alpha", 1),
            issue("c", Severity::High, "beta", 2),
            issue("d", Severity::Critical, "beta", 4),
        ];
        let items: Vec<IssueItem> = issues
            .iter()
            .map(|i| IssueItem {
                issue: Some(i.clone()),
                ..Default::default()
            })
            .collect();
        let rows: Vec<_> = items.iter().map(FindingRow::new).collect();
        let mut search = SearchIndex::default();
        for i in &issues {
            search.push(Some(i));
        }
        let ids = |order: Vec<u32>| -> String {
            order.iter().map(|&k| issues[k as usize].id()).collect()
        };
        let sorted = |by: SortBy, dir: Option<SortDirection>| {
            ids(order(&rows, &search, &by, dir.as_ref()).unwrap())
        };
        assert_eq!(sorted(SortBy::Severity, None), "bdca");
        assert_eq!(sorted(SortBy::Severity, Some(SortDirection::Asc)), "acbd");
        assert_eq!(sorted(SortBy::Repo, Some(SortDirection::Asc)), "bcda");
        assert_eq!(sorted(SortBy::RelevantSince, None), "dacb");
        // By ref, as sent (b: main, c: dev, a: release, d: dev), stable.
        assert_eq!(sorted(SortBy::Ref, Some(SortDirection::Asc)), "cdba");
        // By age: d (detected day 6), a (7), b (9); c has none: last.
        assert_eq!(ids(age_order(&rows, None)), "dabc");
        assert_eq!(ids(age_order(&rows, Some(&SortDirection::Asc))), "cbad");
    }
}
