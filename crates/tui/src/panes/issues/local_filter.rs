//! The `/` filter over the loaded rows (and `O`, only those open past
//! their target), and the local sort it shows them in. A query that
//! extends the last one searches only the rows still shown (or, when most are, everything in one pass); a backspace to a
//! query typed before takes its rows back at once.

use super::{IssuesPane, local_sort};
use crate::list::open_age::OpenAge;
use crate::message::row_number;
use crate::pane::Cx;
use findings_model::Timestamp;

/// How many narrowings a backspace can go back over.
const TYPED_KEPT: usize = 16;

impl IssuesPane {
    /// Refilters what is loaded for `query`.
    pub(super) fn set_local_query(&mut self, query: String) {
        let old = std::mem::replace(&mut self.local_query, query);
        let plain = |q: &str| !q.is_empty() && !q.starts_with('!');
        // Back to a query typed before (a backspace): its rows.
        if self.local_query.len() < old.len() {
            while self
                .typed
                .last()
                .is_some_and(|(q, _)| q.len() > self.local_query.len())
            {
                self.typed.pop();
            }
            if let Some((_, shown)) = self.typed.pop_if(|(q, _)| *q == self.local_query) {
                self.list.visible = shown;
                self.list.select(self.list.selected);
                return;
            }
        }
        let narrows = plain(&old) && plain(&self.local_query) && self.local_query.contains(&old);
        let shown = self.list.visible.as_ref().map(Vec::len);
        match shown {
            // Few rows shown: only they are searched.
            Some(n) if narrows && n < self.search.len() / 4 => {
                let shown = self.list.visible.take().unwrap_or_default();
                let needle = self.local_query.to_lowercase();
                let m = self.search.matcher(&needle);
                let kept: Vec<u32> = shown
                    .iter()
                    .copied()
                    .filter(|&i| self.search.matches(i as usize, &m))
                    .collect();
                self.remember_typed(old, Some(shown));
                self.list.visible = Some(kept);
            }
            // Most rows shown: one pass over everything finds the same.
            Some(_) if narrows => {
                let shown = self.list.visible.take();
                self.remember_typed(old, shown);
                self.filter_from(0);
            }
            _ => return self.apply_local_filter(),
        }
        self.list.select(self.list.selected);
    }

    /// Keeps the rows `query` showed for a backspace: at most
    /// [`TYPED_KEPT`] queries, and together at most one number a loaded
    /// row (at ten million, 40 MB rather than sixteen times that).
    fn remember_typed(&mut self, query: String, shown: Option<Vec<u32>>) {
        let held = |typed: &[(String, Option<Vec<u32>>)]| -> usize {
            typed
                .iter()
                .filter_map(|(_, s)| s.as_ref())
                .map(Vec::len)
                .sum()
        };
        self.typed.push((query, shown));
        while self.typed.len() > TYPED_KEPT
            || (self.typed.len() > 1 && held(&self.typed) > self.search.len())
        {
            self.typed.remove(0);
        }
    }

    /// Filters every loaded row again.
    pub(super) fn apply_local_filter(&mut self) {
        self.typed.clear();
        self.list.visible = None;
        self.filter_from(0);
        self.list.select(self.list.selected);
    }

    /// Adds rows from `start` on to the local view (after a page arrives).
    pub(super) fn extend_local_filter(&mut self, start: usize) {
        self.filter_from(start);
    }

    /// The rows from `start` on that the query shows, added to those
    /// shown, in the local sort's order if there is one (then `start` is
    /// 0: a sorted list is complete).
    fn filter_from(&mut self, start: usize) {
        let (invert, needle) = match self.local_query.strip_prefix('!') {
            Some(rest) => (true, rest.to_lowercase()),
            None => (false, self.local_query.to_lowercase()),
        };
        let rows = self.search.len();
        let new_since = self.new.last_visit.filter(|_| self.new_local);
        if needle.is_empty() && self.over_target.is_none() && new_since.is_none() {
            self.list.visible = self.order.clone();
            return;
        }
        let mut shown: Vec<u32> = if needle.is_empty() {
            (row_number(start)..row_number(rows)).collect()
        } else {
            self.matching_from(start, invert, &needle)
        };
        if self.over_target.is_some() {
            let age = self.open_age(self.over_target.unwrap_or_default());
            let items = &self.list.items;
            shown.retain(|&row| items.get(row as usize).is_some_and(|r| age.is_over(r)));
        }
        if let Some(last) = new_since {
            let items = &self.list.items;
            shown.retain(|&row| {
                items
                    .get(row as usize)
                    .and_then(|r| r.relevant_since())
                    .is_some_and(|d| d > last)
            });
        }
        match &self.order {
            Some(order) => self.list.visible = Some(in_order(order, &shown, rows)),
            None => self.list.visible.get_or_insert_with(Vec::new).extend(shown),
        }
    }

    /// The rows from `start` on the query `needle` matches (or, `invert`,
    /// does not).
    fn matching_from(&self, start: usize, invert: bool, needle: &str) -> Vec<u32> {
        let hits = self.search.matching(start, &self.search.matcher(needle));
        let rows = self.search.len();
        if invert {
            let mut hits = hits.into_iter().peekable();
            (start..rows)
                .filter(|&row| hits.next_if_eq(&row).is_none())
                .map(row_number)
                .collect()
        } else {
            hits.into_iter().map(row_number).collect()
        }
    }

    /// Open age counted to `now` against the profile's targets.
    pub fn open_age(&self, now: Timestamp) -> OpenAge {
        OpenAge {
            targets: self.targets,
            now: self.age_at.or(self.over_target).unwrap_or(now),
        }
    }

    /// `O`, `:over-target`: only the findings open past their target, the
    /// rest of the list loaded meanwhile (again: every finding).
    pub(super) fn toggle_over_target(&mut self, cx: &mut Cx) {
        if self.over_target.take().is_some() {
            self.apply_local_filter();
            return cx.outbox.status("every finding shows again");
        }
        self.over_target = Some(cx.now);
        self.apply_local_filter();
        let t = self.targets;
        cx.outbox.status(format!(
            "only findings open past their target (critical {} d, high {} d, medium {} d, \
             low {} d from first detection); the rest load meanwhile",
            t.critical, t.high, t.medium, t.low
        ));
        self.load_all(false, cx);
    }

    /// The sort changed: once everything is loaded and the rows keep the
    /// column, they are sorted here at once; else the server sorts them
    /// (the list is loaded anew).
    /// `s`, `S`, `:sort`: with everything loaded, the loaded rows are
    /// sorted here, on any column; else the server is asked (the AGE
    /// column, which it cannot sort by: everything is loaded, then sorted).
    pub(super) fn sort_changed(&mut self, cx: &mut Cx) {
        if self.list.complete && self.sort_here() {
            self.list.select(0);
            cx.outbox.status(format!(
                "sorted the {} loaded findings by {}",
                findings_base::text::thousands_of(self.list.items.len()),
                self.sort_label()
            ));
            return;
        }
        if self.sort_age {
            self.order = None;
            self.apply_local_filter();
            cx.outbox.status(format!(
                "sort {}: the server cannot sort by age, so everything loads and is sorted here",
                self.sort_label()
            ));
            return self.load_all(false, cx);
        }
        self.reload(cx);
        // Every sort change is said (and kept in `:messages`).
        cx.outbox.status(format!("sort {}", self.sort_label()));
    }

    /// Orders the loaded rows by the sort in force; `false` when the rows
    /// do not keep its column.
    pub(super) fn sort_here(&mut self) -> bool {
        let order = if self.sort_age {
            Some(local_sort::age_order(
                &self.list.items,
                self.sort_direction.as_ref(),
            ))
        } else {
            let by = self
                .sort_by
                .clone()
                .unwrap_or(findings_model::SortBy::RelevantSince);
            local_sort::order(
                &self.list.items,
                &self.search,
                &by,
                self.sort_direction.as_ref(),
            )
        };
        let Some(order) = order else { return false };
        self.order = Some(order);
        self.apply_local_filter();
        true
    }

    /// `n`: only the findings new since the last visit, or every one
    /// again. With everything loaded, picked from the loaded rows; else
    /// asked of the server (relevant since the visit).
    pub(super) fn toggle_new_only(&mut self, cx: &mut Cx) {
        let server_new =
            self.new.last_visit.is_some() && self.selection.filter.since == self.new.last_visit;
        if self.new_local || (self.list.complete && !server_new) {
            let Some(last) = self.new.last_visit else {
                // Says why nothing is new.
                self.new.toggle(None, cx.outbox);
                return;
            };
            self.new_local = !self.new_local;
            self.apply_local_filter();
            let loaded = findings_base::text::thousands_of(self.list.items.len());
            return cx.outbox.status(if self.new_local {
                format!(
                    "only the {} findings new since your last visit ({}), of the {loaded} loaded",
                    findings_base::text::thousands_of(self.list.len()),
                    last.format("%Y-%m-%d %H:%M UTC")
                )
            } else {
                format!("every loaded finding again ({loaded})")
            });
        }
        let since = self.new.toggle(self.selection.filter.since, cx.outbox);
        if since != self.selection.filter.since {
            self.selection.filter.since = since;
            self.reload(cx);
        }
    }
}

fn in_order(order: &[u32], shown: &[u32], rows: usize) -> Vec<u32> {
    let mut marked = vec![0u64; rows.div_ceil(64)];
    for &row in shown {
        if let Some(word) = marked.get_mut(row as usize / 64) {
            *word |= 1 << (row % 64);
        }
    }
    let mut out = Vec::with_capacity(shown.len());
    out.extend(order.iter().copied().filter(|&row| {
        marked
            .get(row as usize / 64)
            .is_some_and(|w| w >> (row % 64) & 1 == 1)
    }));
    out
}
