//! What recent queries matched, kept so that following a query's cursor
//! costs no scan of the data set.

use std::sync::{Arc, Mutex};

/// One bit per row: the rows a filter matches.
pub struct Bits {
    words: Vec<u64>,
}

impl Bits {
    pub(super) fn new(len: usize) -> Self {
        Bits {
            words: vec![0; len.div_ceil(64)],
        }
    }

    pub(super) fn set(&mut self, i: usize) {
        self.words[i / 64] |= 1 << (i % 64);
    }

    pub(super) fn get(&self, i: usize) -> bool {
        self.words[i / 64] & (1 << (i % 64)) != 0
    }

    /// The rows set, ascending: a scan that skips 64 unmatched rows at a time.
    pub(super) fn ones(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(w, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let bit = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    w * 64 + bit
                })
            })
        })
    }

    /// How many rows are set.
    pub(super) fn count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }
}

/// What a report query matches: its rows and its totals.
pub(super) struct ReportScan {
    pub(super) matches: Bits,
    pub(super) total: i64,
    pub(super) code: i64,
    pub(super) sca: i64,
    pub(super) secrets: i64,
}

/// How many recent queries keep their matched rows.
const MEMO_ENTRIES: usize = 32;

/// The last few values computed for a query fingerprint, newest first.
pub(super) struct Memo<T> {
    entries: Mutex<Vec<(u64, Arc<T>)>>,
}

impl<T> Default for Memo<T> {
    fn default() -> Self {
        Memo {
            entries: Mutex::new(Vec::new()),
        }
    }
}

fn lock<E>(m: &Mutex<E>) -> std::sync::MutexGuard<'_, E> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl<T> Memo<T> {
    /// The value kept for `key`, if any (now the newest).
    pub(super) fn get(&self, key: u64) -> Option<Arc<T>> {
        let mut entries = lock(&self.entries);
        let k = entries.iter().position(|(fp, _)| *fp == key)?;
        let hit = entries.remove(k);
        let value = hit.1.clone();
        entries.insert(0, hit);
        Some(value)
    }

    pub(super) fn get_or_compute(&self, key: u64, compute: impl FnOnce() -> T) -> Arc<T> {
        if let Some(value) = self.get(key) {
            return value;
        }
        // Computed outside the lock: other queries go on meanwhile.
        let value = Arc::new(compute());
        let mut entries = lock(&self.entries);
        entries.retain(|(fp, _)| *fp != key);
        entries.insert(0, (key, value.clone()));
        entries.truncate(MEMO_ENTRIES);
        value
    }
}
