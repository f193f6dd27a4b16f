//! The ids of an offline data set, found by binary search: a numeric id
//! (the usual kind) is 16 bytes a finding, its number and its row, sorted
//! once every finding is read; any other id is text, in a map. A map of
//! every id held about 90 bytes a finding (the key's allocation included),
//! the most of what kept the offline view from ten million findings.

use std::collections::HashMap;

#[derive(Default)]
pub(super) struct Ids {
    /// (id, row), sorted by id by [`Ids::seal`].
    numbers: Vec<(u64, u32)>,
    texts: HashMap<Box<str>, u32>,
}

/// The number of a canonical decimal id ("100042"; not "0042" or "+1"),
/// which prints back as the same id.
fn numeric_id(id: &str) -> Option<u64> {
    let canonical = !id.is_empty()
        && id.bytes().all(|b| b.is_ascii_digit())
        && (id == "0" || !id.starts_with('0'));
    canonical.then(|| id.parse().ok()).flatten()
}

impl Ids {
    /// Adds `id` at `row`: false when it is text (its bytes then held), the
    /// same text again an error (a repeated number is found by `seal`).
    pub(super) fn add(&mut self, id: &str, row: u32) -> Result<bool, Twice> {
        if let Some(n) = numeric_id(id) {
            self.numbers.push((n, row));
            return Ok(true);
        }
        if self.texts.contains_key(id) {
            return Err(twice(id));
        }
        self.texts.insert(id.into(), row);
        Ok(false)
    }

    /// Sorts the numbers once every finding is added; a repeated one is
    /// refused, not held twice (as the map refused it when added).
    pub(super) fn seal(&mut self) -> Result<(), Twice> {
        self.numbers.sort_unstable();
        self.numbers.shrink_to_fit();
        // Of a repeated id, the first row: the one a map would have kept.
        match self.numbers.windows(2).find(|w| w[0].0 == w[1].0) {
            Some(w) => Err(twice(&w[0].0.to_string())),
            None => Ok(()),
        }
    }

    /// The row of `id`, once sealed.
    pub(super) fn get(&self, id: &str) -> Option<usize> {
        let row = match numeric_id(id) {
            Some(n) => {
                let at = self.numbers.binary_search_by_key(&n, |(n, _)| *n).ok()?;
                self.numbers[at].1
            }
            None => *self.texts.get(id)?,
        };
        usize::try_from(row).ok()
    }
}

/// An id found twice (on one line, as an error says it).
#[derive(Debug)]
pub(super) struct Twice(pub(super) String);

fn twice(id: &str) -> Twice {
    Twice(findings_base::text::one_line(id).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_text_are_found_and_a_repeat_of_either_refused() {
        let mut ids = Ids::default();
        for (row, id) in ["30", "f-1", "10", "0042", "20"].iter().enumerate() {
            ids.add(id, u32::try_from(row).unwrap()).unwrap();
        }
        ids.seal().unwrap();
        assert_eq!(ids.get("10"), Some(2));
        assert_eq!(ids.get("0042"), Some(3), "not the number 42: text");
        assert_eq!(ids.get("42"), None);
        assert_eq!(ids.get("f-1"), Some(1));
        assert_eq!(ids.get("11"), None);
        assert_eq!(ids.add("f-1", 9).unwrap_err().0, "f-1");
        ids.add("20", 9).unwrap();
        assert_eq!(ids.seal().unwrap_err().0, "20");
    }
}
