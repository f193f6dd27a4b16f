//! Load state shared by every pane: one request in flight at most, a
//! generation that moves on with every new query (so a late reply of a
//! superseded query is dropped), and a cursor-paged list.

use crate::keymap::Action;
use crate::message::{AppEvent, Outbox, RequestId};
use findings_client::ApiError;
use findings_client::CursorGuard;

/// What a pane's request is doing.
#[derive(Debug, Clone, Default)]
pub struct Loader {
    /// Bumped by every new query; replies of older generations are dropped.
    pub generation: u64,
    pending: Option<(RequestId, u64)>,
    /// The last failure, shown until the next success.
    pub error: Option<String>,
}

impl Loader {
    pub fn is_loading(&self) -> bool {
        self.pending.is_some()
    }

    pub fn pending(&self) -> Option<RequestId> {
        self.pending.map(|(id, _)| id)
    }

    /// A new query: later replies of the current one are stale. Returns the
    /// request to cancel, if one was in flight.
    pub fn new_generation(&mut self) -> Option<RequestId> {
        self.generation += 1;
        self.error = None;
        self.pending.take().map(|(id, _)| id)
    }

    /// Records a request sent for the current generation; returns a
    /// superseded request to cancel.
    pub fn started(&mut self, id: RequestId) -> Option<RequestId> {
        self.pending
            .replace((id, self.generation))
            .map(|(old, _)| old)
    }

    /// Whether a reply belongs to the request in flight of this generation;
    /// if so, the request is over.
    pub fn accept(&mut self, id: RequestId) -> bool {
        match self.pending {
            Some((pending, generation)) if pending == id && generation == self.generation => {
                self.pending = None;
                true
            }
            _ => false,
        }
    }

    /// Whether a reply belongs to the request in flight of this generation,
    /// which goes on (a page of a stream).
    pub fn owns(&self, id: RequestId) -> bool {
        matches!(self.pending, Some((pending, generation)) if pending == id && generation == self.generation)
    }

    /// Cancels what is in flight (Esc); returns its id.
    pub fn cancel(&mut self) -> Option<RequestId> {
        self.pending.take().map(|(id, _)| id)
    }
}

/// A list loaded page by page, with a selection and an optional local view
/// (indices of the items shown, for `/` filtering).
#[derive(Debug, Clone)]
pub struct PagedList<T> {
    pub items: Vec<T>,
    /// Indices into `items` of the rows shown, when a local filter is on.
    pub visible: Option<Vec<u32>>,
    /// The rows shown are the hits so far of a search under way: the
    /// position's count says `+` as for a list not loaded whole.
    pub partial: bool,
    pub next_cursor: Option<String>,
    /// The last page has arrived.
    pub complete: bool,
    guard: CursorGuard,
    pub loader: Loader,
    /// `Esc` stopped the load: no page is fetched until the selection
    /// moves (or the list is loaded anew).
    pub paused: bool,
    /// Index into the shown rows.
    pub selected: usize,
    /// First shown row on screen.
    pub offset: usize,
    /// The pane has been shown: its list is wanted (and prefetched).
    shown: bool,
}

impl<T> Default for PagedList<T> {
    fn default() -> Self {
        PagedList {
            items: Vec::new(),
            visible: None,
            partial: false,
            next_cursor: None,
            complete: false,
            guard: CursorGuard::default(),
            loader: Loader::default(),
            paused: false,
            selected: 0,
            offset: 0,
            shown: false,
        }
    }
}

impl<T> PagedList<T> {
    /// Forgets everything for a new query; returns a request to cancel.
    pub fn reset(&mut self) -> Option<RequestId> {
        self.reset_taking().0
    }

    /// [`PagedList::reset`], handing back the list as it was (a reload
    /// that fails puts it back with [`PagedList::put_back`]).
    pub fn reset_taking(&mut self) -> (Option<RequestId>, PagedList<T>) {
        let generation = self.loader.generation;
        let cancel = self.loader.new_generation();
        let before = std::mem::replace(
            self,
            PagedList {
                loader: Loader {
                    generation: generation + 1,
                    ..Loader::default()
                },
                // Asked for anew is wanted.
                shown: true,
                ..PagedList::default()
            },
        );
        (cancel, before)
    }

    /// Puts back a list taken by [`PagedList::reset_taking`], as the
    /// current generation (nothing in flight, no failure).
    pub fn put_back(&mut self, mut before: PagedList<T>) {
        before.loader = Loader {
            generation: self.loader.generation,
            ..Loader::default()
        };
        before.shown = true;
        *self = before;
    }

    /// The pane is shown: `true` the first time, when the list should be
    /// asked for.
    pub fn first_show(&mut self) -> bool {
        !std::mem::replace(&mut self.shown, true)
    }

    /// Rows shown.
    pub fn len(&self) -> usize {
        self.visible.as_ref().map_or(self.items.len(), Vec::len)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The item of shown row `row`.
    pub fn row(&self, row: usize) -> Option<&T> {
        match &self.visible {
            Some(v) => v.get(row).and_then(|&i| self.items.get(i as usize)),
            None => self.items.get(row),
        }
    }

    pub fn selected_item(&self) -> Option<&T> {
        self.row(self.selected)
    }

    /// Appends a page. `Err` when the server repeated a cursor (a loop).
    pub fn append(&mut self, items: Vec<T>, cursor: Option<String>) -> Result<(), String> {
        let next = self.guard.next(cursor.as_deref(), items.len());
        self.items.extend(items);
        match next {
            Ok(Some(c)) => {
                self.next_cursor = Some(c);
                Ok(())
            }
            Ok(None) => {
                self.next_cursor = None;
                self.complete = true;
                Ok(())
            }
            Err(e) => {
                self.next_cursor = None;
                self.complete = true;
                Err(e.to_string())
            }
        }
    }

    /// Whether another page exists and none is being fetched.
    pub fn can_load_more(&self) -> bool {
        !self.complete && !self.loader.is_loading() && self.loader.error.is_none() && !self.paused
    }

    /// `Esc`: stops the load in flight, if any, and says so; `false` when
    /// nothing was loading. Not a failure: moving through the list goes on
    /// loading, `r` reloads.
    pub fn stop(&mut self, outbox: &mut Outbox) -> bool {
        let Some(id) = self.loader.cancel() else {
            return false;
        };
        self.paused = true;
        outbox.cancel(Some(id));
        outbox.status("request cancelled");
        true
    }

    /// Appends a page that arrived for `what` ("Loading findings"); a
    /// repeated cursor (a loop) stops the listing and says so.
    pub fn add_page(
        &mut self,
        items: Vec<T>,
        cursor: Option<String>,
        what: &str,
        outbox: &mut Outbox,
    ) {
        if let Err(e) = self.append(items, cursor) {
            self.loader.error = Some(e.clone());
            outbox.events.push(AppEvent::Error {
                title: format!("{what} stopped"),
                message: e,
            });
        }
    }

    /// A request of the list failed: the error stays on show and is raised
    /// as "`what` failed". What was loaded stays.
    pub fn failed(&mut self, what: &str, e: &ApiError, outbox: &mut Outbox) {
        self.loader.error = Some(e.to_string());
        outbox.error(&format!("{what} failed"), e);
    }

    /// `r`: after a failure part-way through, whether to go on from the
    /// page that failed (the failure is then forgotten) rather than start
    /// over.
    pub fn retry_failed_page(&mut self) -> bool {
        let resume = self.should_resume();
        if resume {
            self.loader.error = None;
        }
        resume
    }

    /// Moves the selection by `delta` rows, kept in bounds.
    pub fn move_by(&mut self, delta: isize) {
        let len = self.len();
        if len == 0 {
            self.selected = 0;
            return;
        }
        let by = delta.unsigned_abs();
        let target = if delta >= 0 {
            self.selected.saturating_add(by)
        } else {
            self.selected.saturating_sub(by)
        };
        self.selected = target.min(len - 1);
    }

    pub fn select(&mut self, row: usize) {
        self.selected = row.min(self.len().saturating_sub(1));
    }

    /// Keeps the selection visible in a window of `height` rows.
    pub fn scroll_into_view(&mut self, height: usize) {
        let height = height.max(1);
        if self.selected < self.offset {
            self.offset = self.selected;
        } else if self.selected >= self.offset + height {
            self.offset = self.selected + 1 - height;
        }
        let max_offset = self.len().saturating_sub(height);
        self.offset = self.offset.min(max_offset);
    }

    /// Moves the selection for a list movement action in a window of
    /// `rows` rows; `false` when `action` is not a movement.
    pub fn navigate(&mut self, action: Action, rows: usize) -> bool {
        let page = isize::try_from(rows.max(1)).unwrap_or(isize::MAX);
        let half = (page / 2).max(1);
        match action {
            Action::Down => self.move_by(1),
            Action::Up => self.move_by(-1),
            Action::Top => self.select(0),
            Action::Bottom => self.select(usize::MAX),
            Action::PageDown => self.move_by(page),
            Action::PageUp => self.move_by(-page),
            Action::HalfPageDown => self.move_by(half),
            Action::HalfPageUp => self.move_by(-half),
            _ => return false,
        }
        self.paused = false;
        true
    }

    /// After a failure part-way through a listing, `r` goes on from the page
    /// that failed (true) rather than starting over (false).
    pub fn should_resume(&self) -> bool {
        self.loader.error.is_some() && !self.items.is_empty() && !self.complete
    }

    /// After any change: keeps the selection on a screen of `rows` rows and
    /// says whether the next page should be asked for now (the selection is
    /// within one screen of the end of what is loaded), so scrolling at a
    /// steady pace never waits. Nothing is fetched before the pane is shown.
    pub fn follow(&mut self, rows: usize) -> bool {
        self.scroll_into_view(rows);
        self.shown && self.wants_more(rows)
    }

    /// Whether the selection is within `lookahead` rows of the end of what
    /// is loaded, so the next page should be fetched now.
    pub fn wants_more(&self, lookahead: usize) -> bool {
        self.can_load_more() && self.selected + lookahead >= self.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_of_superseded_requests_are_dropped() {
        let mut l = Loader::default();
        assert_eq!(l.started(1), None);
        assert_eq!(l.new_generation(), Some(1));
        assert_eq!(l.started(2), None);
        assert!(!l.accept(1), "reply of the old generation");
        assert!(l.accept(2));
        assert!(!l.accept(2), "a duplicate reply");
        assert!(!l.is_loading());
    }

    #[test]
    fn paging_selection_and_lookahead() {
        let mut p: PagedList<u32> = PagedList::default();
        p.append((0..10).collect(), Some("c1".into())).unwrap();
        assert!(!p.complete);
        p.move_by(100);
        assert_eq!(p.selected, 9);
        assert!(p.wants_more(3));
        p.move_by(-100);
        assert!(!p.wants_more(3));
        p.append(vec![], Some("c2".into())).unwrap();
        assert!(p.complete, "an empty page ends the listing");
    }

    #[test]
    fn a_list_never_shown_asks_for_nothing() {
        let mut p: PagedList<u32> = PagedList::default();
        assert!(!p.follow(5), "not shown: nothing to prefetch");
        p.reset();
        assert!(p.follow(5), "asked for anew: wanted");
    }

    #[test]
    fn esc_stops_loading_until_the_selection_moves() {
        let mut p: PagedList<u32> = PagedList::default();
        assert!(p.first_show() && !p.first_show(), "shown once");
        p.append((0..10).collect(), Some("c1".into())).unwrap();
        p.loader.started(7);
        let mut outbox = Outbox::default();
        assert!(p.stop(&mut outbox));
        assert_eq!(outbox.cancelled(), vec![7]);
        assert!(p.paused && p.loader.error.is_none(), "stopped, not failed");
        p.select(9);
        assert!(!p.follow(5), "no page asked for while stopped");
        assert!(!p.should_resume(), "r reloads: nothing failed");
        assert!(p.navigate(Action::Down, 5));
        assert!(!p.paused);
        assert!(p.follow(5), "moving on goes on loading");
        assert!(!p.stop(&mut outbox), "nothing in flight: nothing to stop");
        assert_eq!(outbox.cancelled(), vec![7]);
    }

    #[test]
    fn a_repeated_cursor_stops_the_listing() {
        let mut p: PagedList<u32> = PagedList::default();
        p.append(vec![1], Some("a".into())).unwrap();
        assert!(p.append(vec![2], Some("a".into())).is_err());
        assert!(p.complete && p.items.len() == 2);
    }

    #[test]
    fn scrolling_keeps_the_selection_on_screen() {
        let mut p: PagedList<u32> = PagedList::default();
        p.append((0..100).collect(), None).unwrap();
        p.select(50);
        p.scroll_into_view(10);
        assert_eq!(p.offset, 41);
        p.select(0);
        p.scroll_into_view(10);
        assert_eq!(p.offset, 0);
    }
}
