//! The guard of one listing's cursors: the end of the listing, a cursor
//! the server repeats (a loop) and a listing that never ends, decided
//! page by page (docs/src/api.md §7).

use super::error::ApiError;
use std::collections::HashSet;

/// The most pages one listing follows unless told otherwise: far more than
/// any deployment has (10 million findings at 100 a page), so reaching it
/// means a server that never stops paging.
pub const DEFAULT_MAX_PAGES: usize = 100_000;

/// Tracks the cursors of one listing and decides what comes next. It keeps
/// a fixed-size digest of each cursor followed, never the cursor: a server
/// may hand out cursors of megabytes (an answer of one item may weigh
/// 16 MB), and a listing may follow [`DEFAULT_MAX_PAGES`] of them.
#[derive(Debug, Clone)]
pub struct CursorGuard {
    seen: HashSet<CursorDigest>,
    max_pages: usize,
}

/// A cursor's fingerprint: 128 bits of two SipHashes under keys drawn at
/// random for the process, so a server cannot choose two cursors that
/// collide (a collision would only end the listing, as a loop).
type CursorDigest = u128;

fn digest(cursor: &str) -> CursorDigest {
    use std::hash::{BuildHasher, RandomState};
    static KEYS: std::sync::LazyLock<[RandomState; 2]> =
        std::sync::LazyLock::new(|| [RandomState::new(), RandomState::new()]);
    let [high, low] = &*KEYS;
    u128::from(high.hash_one(cursor)) << 64 | u128::from(low.hash_one(cursor))
}

impl Default for CursorGuard {
    fn default() -> Self {
        CursorGuard::up_to(DEFAULT_MAX_PAGES)
    }
}

impl CursorGuard {
    /// A guard that ends the listing with an error after `max_pages`.
    pub fn up_to(max_pages: usize) -> Self {
        CursorGuard {
            seen: HashSet::new(),
            max_pages: max_pages.max(1),
        }
    }

    /// The cursor to follow after a page of `items` items that gives
    /// `cursor`, `Ok(None)` at the end, or an error when the server repeats
    /// a cursor or pages past the limit.
    pub fn next(&mut self, cursor: Option<&str>, items: usize) -> Result<Option<String>, ApiError> {
        match cursor {
            None | Some("") => Ok(None),
            Some(_) if items == 0 => Ok(None),
            Some(c) if !self.seen.insert(digest(c)) => Err(ApiError::CursorLoop {
                cursor: findings_base::text::truncate(&findings_base::text::one_line(c), 40)
                    .into_owned(),
            }),
            // `seen` holds one digest per page followed.
            Some(_) if self.seen.len() >= self.max_pages => Err(ApiError::TooManyPages {
                pages: self.max_pages,
            }),
            Some(c) => Ok(Some(c.to_owned())),
        }
    }

    /// The bytes its record of the cursors followed takes: the same for
    /// cursors of a byte and of megabytes.
    pub fn held_bytes(&self) -> usize {
        self.seen.capacity() * std::mem::size_of::<CursorDigest>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guard_stops_on_absent_empty_cursor_or_empty_page() {
        let mut g = CursorGuard::default();
        assert_eq!(g.next(None, 3).unwrap(), None);
        assert_eq!(g.next(Some(""), 3).unwrap(), None);
        assert_eq!(g.next(Some("c1"), 0).unwrap(), None);
        assert_eq!(g.next(Some("c1"), 2).unwrap(), Some("c1".into()));
    }

    /// What the guard keeps of a cursor is a fixed-size digest: 500
    /// cursors of 64 KB hold what 500 cursors of a byte hold (they held
    /// 32 MB, and a copy of them went with each page's request).
    #[test]
    fn the_guard_keeps_a_fixed_size_digest_per_cursor_whatever_its_length() {
        let held = |len: usize| {
            let mut g = CursorGuard::default();
            for i in 0..500 {
                let cursor = format!("{i:06}{}", "c".repeat(len));
                assert!(g.next(Some(&cursor), 1).unwrap().is_some());
            }
            let again = format!("{:06}{}", 7, "c".repeat(len));
            assert!(matches!(
                g.next(Some(&again), 1),
                Err(ApiError::CursorLoop { .. })
            ));
            g.held_bytes()
        };
        let long = held(64 * 1024);
        assert_eq!(long, held(1));
        assert!(long <= 500 * 2 * 16, "{long} bytes held for 500 cursors");
    }

    #[test]
    fn guard_refuses_a_repeated_cursor() {
        let mut g = CursorGuard::default();
        g.next(Some("a"), 1).unwrap();
        g.next(Some("b"), 1).unwrap();
        let err = g.next(Some("a"), 1).unwrap_err();
        assert!(matches!(err, ApiError::CursorLoop { .. }));
    }
}
