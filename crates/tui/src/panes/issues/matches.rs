//! `n` and `N` after `/`, as vim hands expect: the selection steps to the
//! next (previous) row the last query matches, wrapping at the ends and
//! saying so. While the `/` filter is on, every row shown matches, so a
//! step is one row; after Esc cleared it, the query is kept and a step
//! skips the rows between, so each match is seen among its neighbours.

use super::IssuesPane;
use crate::pane::Cx;
use findings_base::text::one_line;

impl IssuesPane {
    /// Esc on the `/` filter: every row shows again, the query is kept
    /// for `n` and `N`.
    pub(super) fn clear_local_query(&mut self) {
        if !self.local_query.is_empty() {
            self.last_query = std::mem::take(&mut self.local_query);
        }
        self.apply_local_filter();
    }

    /// `n` (`forward`) or `N`.
    pub(super) fn step_match(&mut self, forward: bool, cx: &mut Cx) {
        let query = if self.local_query.is_empty() {
            self.last_query.clone()
        } else {
            self.local_query.clone()
        };
        if query.is_empty() {
            return cx
                .outbox
                .status("no search yet: / types one, then n and N step through its matches");
        }
        let (invert, needle) = match query.strip_prefix('!') {
            Some(rest) => (true, rest.to_lowercase()),
            None => (false, query.to_lowercase()),
        };
        let matcher = self.search.matcher(&needle);
        let visible = self.list.visible.as_deref();
        let item_of = |row: usize| visible.map_or(row, |v| v[row] as usize);
        let hits: Vec<usize> = (0..self.list.len())
            .filter(|&row| self.search.matches(item_of(row), &matcher) != invert)
            .collect();
        let loaded = if self.list.complete {
            String::new()
        } else {
            format!(
                " (of the {} loaded)",
                findings_base::text::thousands_of(self.list.items.len())
            )
        };
        let shown_query = one_line(&query);
        let Some(step) = next_hit(&hits, self.list.selected, forward) else {
            return cx
                .outbox
                .status(format!("no row matches /{shown_query}{loaded}"));
        };
        self.list.select(hits[step.index]);
        let wrapped = match (step.wrapped, forward) {
            (false, _) => "",
            (true, true) => " · hit the bottom, continued at the top",
            (true, false) => " · hit the top, continued at the bottom",
        };
        cx.outbox.status(format!(
            "/{shown_query}: match {} of {}{loaded}{wrapped}",
            findings_base::text::thousands_of(step.index.saturating_add(1)),
            findings_base::text::thousands_of(hits.len())
        ));
    }
}

/// Where a step lands among the matching rows.
#[derive(Debug, PartialEq, Eq)]
struct Step {
    /// Index into the matching rows.
    index: usize,
    /// It went past an end and came round from the other.
    wrapped: bool,
}

/// The match after (or before) row `from` among the rows `hits` (in
/// order), round the ends.
fn next_hit(hits: &[usize], from: usize, forward: bool) -> Option<Step> {
    if hits.is_empty() {
        return None;
    }
    let at_or_after = hits.partition_point(|&row| row < from);
    if forward {
        let after = hits.partition_point(|&row| row <= from);
        let wrapped = after == hits.len();
        return Some(Step {
            index: if wrapped { 0 } else { after },
            wrapped,
        });
    }
    Some(match at_or_after.checked_sub(1) {
        Some(index) => Step {
            index,
            wrapped: false,
        },
        None => Step {
            index: hits.len() - 1,
            wrapped: true,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::{Step, next_hit};

    #[test]
    fn steps_go_to_the_next_match_and_round_the_ends() {
        let hits = [2, 5, 9];
        let at = |index, wrapped| Some(Step { index, wrapped });
        // Forward from before, on and between matches.
        assert_eq!(next_hit(&hits, 0, true), at(0, false));
        assert_eq!(next_hit(&hits, 2, true), at(1, false));
        assert_eq!(next_hit(&hits, 6, true), at(2, false));
        // Past the last: round to the first.
        assert_eq!(next_hit(&hits, 9, true), at(0, true));
        assert_eq!(next_hit(&hits, 12, true), at(0, true));
        // Backward.
        assert_eq!(next_hit(&hits, 9, false), at(1, false));
        assert_eq!(next_hit(&hits, 6, false), at(1, false));
        assert_eq!(next_hit(&hits, 2, false), at(2, true));
        assert_eq!(next_hit(&hits, 0, false), at(2, true));
        // One match: a step stays on it, saying it went round.
        assert_eq!(next_hit(&[4], 4, true), at(0, true));
        assert_eq!(next_hit(&[4], 4, false), at(0, true));
        assert_eq!(next_hit(&[], 0, true), None);
    }
}
