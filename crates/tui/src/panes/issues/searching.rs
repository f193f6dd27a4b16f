//! The `/` filter sliced across frames: a search goes through at most
//! [`SLICE`] rows at a time, so a keystroke returns at once at any size;
//! the event loop runs the rest between input events ([`Pane::work`]),
//! the rows found so far show, and the title says "searching… N%" until
//! the result is exact. A list of at most one slice is searched whole at
//! once, as before.
//!
//! [`Pane::work`]: crate::pane::Pane::work

use super::IssuesPane;
use crate::message::row_number;
use crate::message::search::Matcher;

/// Rows a slice searches: a first key at ten million took 60–220 ms a
/// pass on two shared cores, so a fortieth of that a slice (a few ms,
/// with room for the frame drawn after it).
pub const SLICE: usize = 250_000;

/// Rows searched a slice (smaller in tests).
#[derive(Debug, Clone, Copy)]
pub struct SliceRows(pub usize);

impl Default for SliceRows {
    fn default() -> Self {
        SliceRows(SLICE)
    }
}

/// Which rows a search goes through, in the order they show.
#[derive(Debug)]
pub(super) enum Scope {
    /// Every loaded row as loaded (and the rows loaded meanwhile).
    Loaded,
    /// Every loaded row in the local sort's order (everything is loaded).
    Order,
    /// The rows `query` showed (exact), which the query in force narrows;
    /// rows loaded meanwhile are added.
    Rows { rows: Vec<u32>, query: String },
}

/// A search under way.
#[derive(Debug)]
pub(super) struct Search {
    /// `None`: no needle (only `O` or new-only filter the rows).
    matcher: Option<Matcher>,
    invert: bool,
    pub(super) scope: Scope,
    /// Where the next slice starts in the scope.
    next: usize,
}

impl IssuesPane {
    /// Every loaded row, in the order they show.
    pub(super) fn whole_scope(&self) -> Scope {
        if self.order.is_some() {
            Scope::Order
        } else {
            Scope::Loaded
        }
    }

    /// Searches `scope` from `from` for the query in force, adding to the
    /// rows shown; the first slice at once.
    pub(super) fn search_from(&mut self, scope: Scope, from: usize) {
        let (invert, needle) = match self.local_query.strip_prefix('!') {
            Some(rest) => (true, rest.to_lowercase()),
            None => (false, self.local_query.to_lowercase()),
        };
        let new_since = self.new.last_visit.filter(|_| self.new_local);
        if needle.is_empty() && self.over_target.is_none() && new_since.is_none() {
            self.searching = None;
            self.list.partial = false;
            self.list.visible.clone_from(&self.order);
            self.list.select(self.list.selected);
            return;
        }
        let matcher = (!needle.is_empty()).then(|| self.search.matcher(&needle));
        self.list.visible.get_or_insert_with(Vec::new);
        self.searching = Some(Search {
            matcher,
            invert,
            scope,
            next: from,
        });
        self.search_slice();
    }

    /// The rows the search goes through.
    fn scope_len(&self, scope: &Scope) -> usize {
        match scope {
            Scope::Loaded => self.search.len(),
            Scope::Order => self.order.as_ref().map_or(0, Vec::len),
            Scope::Rows { rows, .. } => rows.len(),
        }
    }

    /// One slice of the search under way (at most [`SliceRows`] rows of
    /// its scope), its hits added to the rows shown.
    pub(super) fn search_slice(&mut self) {
        let Some(mut s) = self.searching.take() else {
            self.list.partial = false;
            return;
        };
        s.matcher = s.matcher.map(|m| self.search.refresh(m));
        let end = self.scope_len(&s.scope);
        let from = s.next.min(end);
        let to = from.saturating_add(self.slice.0.max(1)).min(end);
        let index = &self.search;
        let test = |row: u32| {
            s.matcher
                .as_ref()
                .is_none_or(|m| index.matches(row as usize, m) != s.invert)
        };
        let mut found: Vec<u32> = match &s.scope {
            Scope::Loaded => match &s.matcher {
                Some(m) => {
                    let hits = index.matching_in(from, to, m);
                    if s.invert {
                        let mut hits = hits.into_iter().peekable();
                        (from..to)
                            .filter(|&row| hits.next_if_eq(&row).is_none())
                            .map(row_number)
                            .collect()
                    } else {
                        hits.into_iter().map(row_number).collect()
                    }
                }
                None => (row_number(from)..row_number(to)).collect(),
            },
            Scope::Order => self
                .order
                .as_deref()
                .and_then(|o| o.get(from..to))
                .unwrap_or_default()
                .iter()
                .copied()
                .filter(|&row| test(row))
                .collect(),
            Scope::Rows { rows, .. } => rows
                .get(from..to)
                .unwrap_or_default()
                .iter()
                .copied()
                .filter(|&row| test(row))
                .collect(),
        };
        self.keep_other_filters(&mut found);
        self.list.visible.get_or_insert_with(Vec::new).extend(found);
        s.next = to;
        self.list.partial = to < end;
        if to < end {
            self.searching = Some(s);
        }
        self.list.select(self.list.selected);
    }

    /// `O` and new-only, applied to rows `/` found.
    fn keep_other_filters(&self, found: &mut Vec<u32>) {
        if self.over_target.is_some() {
            let age = self.open_age(self.over_target.unwrap_or_default());
            let items = &self.list.items;
            found.retain(|&row| items.get(row as usize).is_some_and(|r| age.is_over(r)));
        }
        if let Some(last) = self.new.last_visit.filter(|_| self.new_local) {
            let items = &self.list.items;
            found.retain(|&row| {
                items
                    .get(row as usize)
                    .and_then(|r| r.relevant_since())
                    .is_some_and(|d| d > last)
            });
        }
    }

    /// How far the search under way has gone, in percent (`None`: the
    /// rows shown are exact).
    pub fn search_progress(&self) -> Option<usize> {
        let s = self.searching.as_ref()?;
        let end = self.scope_len(&s.scope).max(1);
        Some(s.next.min(end).saturating_mul(100) / end)
    }

    /// "searching… 42%" while the rows shown are not exact yet.
    pub(super) fn searching_note(&self) -> Option<String> {
        self.search_progress()
            .map(|pct| format!("searching… {pct}%"))
    }

    /// Why an action on the rows shown waits (`what` names it), while the
    /// search is under way.
    pub(super) fn refuse_while_searching(&self, what: &str) -> Option<String> {
        use crate::pane::Pane;
        Some(crate::pane::waits_for_work(&self.work_left()?, what))
    }
}
