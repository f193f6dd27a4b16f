//! Cursor pages (docs/src/api.md §7–9): the page size asked for, and one page
//! cut out of a sort order.

use super::BadRequest;
use findings_model::{DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE};

pub(super) fn page_limit(limit: Option<i64>) -> Result<usize, BadRequest> {
    match limit {
        None | Some(0) => Ok(usize::try_from(DEFAULT_PAGE_SIZE).unwrap_or(0)),
        Some(n) if n < 0 => Err(BadRequest(format!("limit must not be negative (got {n})"))),
        // Positive and at most a page here: exact.
        Some(n) => Ok(usize::try_from(n.min(MAX_PAGE_SIZE)).unwrap_or(0)),
    }
}

/// Walks `order` from `start`, returns up to `limit` matching indices and the
/// position of the next match (the next page's start), if any.
pub(super) fn collect_page(
    order: &[u32],
    start: usize,
    limit: usize,
    mut matches: impl FnMut(usize) -> bool,
) -> (Vec<usize>, Option<usize>) {
    let mut items = Vec::with_capacity(limit.min(order.len()));
    for (pos, &i) in order.iter().enumerate().skip(start) {
        if matches(i as usize) {
            if items.len() == limit {
                return (items, Some(pos));
            }
            items.push(i as usize);
        }
    }
    (items, None)
}
