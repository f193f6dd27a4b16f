//! The `/` filter over the loaded rows (and `O`, only those open past
//! their target), and the local sort it shows them in. A query that
//! extends the last one searches only the rows still shown (or, when most
//! are, everything), once that search is exact; a backspace to a query
//! typed before takes its rows back at once. The search itself is sliced
//! across frames (`searching`).

use super::searching::{Scope, Search};
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
        // A search under way is dropped: what it showed is not exact.
        let running = self.searching.take();
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
                self.list.partial = false;
                self.list.visible = shown;
                self.list.select(self.list.selected);
                return;
            }
        }
        let query = &self.local_query;
        let narrows_from = |q: &str| plain(q) && plain(query) && query.contains(q);
        if let Some(running) = running {
            // The rows it went through are exact (an earlier query's):
            // they are searched again; else everything is.
            return match running.scope {
                Scope::Rows { rows, query } if narrows_from(&query) => {
                    self.list.visible = Some(Vec::new());
                    self.search_from(Scope::Rows { rows, query }, 0);
                }
                _ => self.apply_local_filter(),
            };
        }
        let narrows = narrows_from(&old);
        let shown = self.list.visible.as_ref().map(Vec::len);
        match shown {
            // Few rows shown: only they are searched.
            Some(n) if narrows && n < self.search.len() / 4 => {
                let shown = self.list.visible.take().unwrap_or_default();
                self.remember_typed(old.clone(), Some(shown.clone()));
                self.list.visible = Some(Vec::new());
                self.search_from(
                    Scope::Rows {
                        rows: shown,
                        query: old,
                    },
                    0,
                );
            }
            // Most rows shown: one pass over everything finds the same.
            Some(_) if narrows => {
                let shown = self.list.visible.take();
                self.remember_typed(old, shown);
                self.search_from(self.whole_scope(), 0);
            }
            _ => self.apply_local_filter(),
        }
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

    /// Filters every loaded row again (a search under way starts over).
    pub(super) fn apply_local_filter(&mut self) {
        self.typed.clear();
        self.list.visible = None;
        self.searching = None;
        self.search_from(self.whole_scope(), 0);
    }

    /// Adds rows from `start` on to the local view (after a page arrives):
    /// a search under way goes through them too.
    pub(super) fn extend_local_filter(&mut self, start: usize) {
        let rows = self.search.len();
        match &mut self.searching {
            Some(Search {
                scope: Scope::Rows { rows: scope, .. },
                ..
            }) => scope.extend(row_number(start)..row_number(rows)),
            // Reads up to the rows loaded at each slice (a sorted list is
            // complete: no page comes).
            Some(_) => {}
            None => self.search_from(Scope::Loaded, start),
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
            return cx.outbox.status(if self.new_local && self.search_progress().is_some() {
                // Not a count until the search is exact (the title says it then).
                format!(
                    "only the findings new since your last visit ({}), of the {loaded} loaded: \
                     searching",
                    last.format("%Y-%m-%d %H:%M UTC")
                )
            } else if self.new_local {
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
