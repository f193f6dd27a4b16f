//! The texts `/` searches, each kept once in one block: [`Texts`] holds
//! many texts read in order, [`Strings`] the distinct ones by number.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hash, Hasher};

/// Many texts in one block, each found by its number.
#[derive(Debug, Clone, Default)]
pub struct Texts {
    pub(super) text: String,
    /// Where each text ends in `text`.
    pub(super) ends: Vec<usize>,
}

impl Texts {
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub(super) fn push(&mut self, parts: &[&str]) {
        for (k, part) in parts.iter().enumerate() {
            if k > 0 {
                self.text.push('\u{1f}');
            }
            // Lower case, char by char (as `str::to_lowercase`, without the
            // final-sigma rule, which a substring search does not need).
            self.text.extend(part.chars().flat_map(char::to_lowercase));
        }
        // Each text ends with a separator, so a needle (which never holds
        // one) is never found across two texts.
        self.text.push('\u{1f}');
        self.ends.push(self.text.len());
    }

    /// Adds a text as it is (already lower case).
    fn push_as_is(&mut self, text: &str) {
        self.text.push_str(text);
        self.text.push('\u{1f}');
        self.ends.push(self.text.len());
    }

    fn start(&self, k: usize) -> usize {
        match k.checked_sub(1) {
            Some(prev) => self.ends.get(prev).copied().unwrap_or(self.text.len()),
            None => 0,
        }
    }

    /// Text `k`, without its separator.
    pub fn get(&self, k: usize) -> &str {
        let start = self.start(k);
        let end = self.ends.get(k).map_or(start, |e| e - 1);
        self.text.get(start..end).unwrap_or("")
    }

    /// The texts from `from` to `to` (not included) that hold `finder`'s
    /// needle, in order: one search through that part of the block,
    /// skipping to the next text after a hit.
    pub(super) fn matching(
        &self,
        from: usize,
        to: usize,
        finder: &memchr::memmem::Finder<'_>,
    ) -> Vec<usize> {
        let mut hits = Vec::new();
        let to = to.min(self.ends.len());
        let mut k = from;
        let mut pos = self.start(from);
        let limit = self.start(to);
        let text = self.text.as_bytes();
        while k < to {
            let Some(found) = text.get(pos..limit).and_then(|rest| finder.find(rest)) else {
                break;
            };
            let at = pos + found;
            // The text holding `at`: the first whose end is past it (a
            // walk: hits are mostly a few texts apart).
            while self.ends.get(k).is_some_and(|&end| end <= at) {
                k += 1;
            }
            let Some(&end) = self.ends.get(k) else {
                break;
            };
            hits.push(k);
            k += 1;
            pos = end;
        }
        hits
    }

    pub(super) fn holds(&self, k: usize, finder: &memchr::memmem::Finder<'_>) -> bool {
        finder.find(self.get(k).as_bytes()).is_some()
    }
}

/// Distinct texts, each kept once and known by its number.
#[derive(Debug, Clone, Default)]
pub struct Strings {
    pub(super) texts: Texts,
    /// A text's hash to its number (a collision is probed on, salted).
    pub(super) by_hash: HashMap<u64, u32>,
    /// The texts met as sent, to their numbers: a page's rows repeat
    /// them, and this spares lower-casing each again (a page's index
    /// only; an index made of pages never fills it).
    as_sent: HashMap<Box<str>, u32>,
}

/// "No text" in a row's field.
pub(super) const NONE: u32 = u32::MAX;

impl Strings {
    /// The number of `text` (lower-cased), added if new.
    pub(super) fn intern(&mut self, text: &str) -> u32 {
        if text.is_empty() {
            return NONE;
        }
        if let Some(&k) = self.as_sent.get(text) {
            return k;
        }
        let k = self.intern_lower(&lower(text));
        self.as_sent.insert(text.into(), k);
        k
    }

    pub(super) fn intern_lower(&mut self, lower: &str) -> u32 {
        let mut salt = 0u64;
        loop {
            let key = hash(lower, salt);
            match self.by_hash.get(&key) {
                Some(&k) if self.texts.get(k as usize) == lower => return k,
                Some(_) => salt += 1,
                None => {
                    let k = super::row_number(self.texts.len());
                    self.texts.push_as_is(lower);
                    self.by_hash.insert(key, k);
                    return k;
                }
            }
        }
    }
}

fn lower(text: &str) -> String {
    text.chars().flat_map(char::to_lowercase).collect()
}

fn hash(text: &str, salt: u64) -> u64 {
    // A fixed hasher: the same text always has the same key.
    let mut h =
        std::hash::BuildHasherDefault::<std::collections::hash_map::DefaultHasher>::default()
            .build_hasher();
    salt.hash(&mut h);
    text.hash(&mut h);
    h.finish()
}
