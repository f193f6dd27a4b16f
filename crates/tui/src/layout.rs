//! Screen geometry, shared by drawing and `update` (to page, to prefetch
//! and to map mouse clicks), so both always agree. The app keeps a
//! [`Geometry`], computed again only on a resize or a change of layout
//! mode; each pane splits its area with a layout function of its own
//! folder, which its update and its view both call.

use ratatui::layout::{Constraint, Layout, Rect};

/// Terminals at least this wide show the detail beside the list.
pub const SIDE_BY_SIDE_MIN_WIDTH: u16 = 180;

/// Where things go on a screen of `size` cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Geometry {
    size: (u16, u16),
    detail_open: bool,
    pub screen: Screen,
    /// The list's part of the body (empty when the detail covers it).
    pub list: Rect,
    /// The open detail's area.
    pub detail: Option<Rect>,
}

impl Geometry {
    pub fn new(size: (u16, u16), detail_open: bool) -> Self {
        let screen = screen(Rect::new(0, 0, size.0, size.1));
        let (list, detail) = list_and_detail(screen.body, detail_open);
        Geometry {
            size,
            detail_open,
            screen,
            list,
            detail,
        }
    }

    /// Whether this is the geometry of that size and layout mode.
    pub fn is_for(&self, size: (u16, u16), detail_open: bool) -> bool {
        self.size == size && self.detail_open == detail_open
    }

    /// Rows of the open detail's text (for paging it).
    pub fn detail_rows(&self) -> usize {
        let detail = match self.detail {
            Some(d) => d,
            // Paging is the same whether the detail is open or about to be.
            None => list_and_detail(self.screen.body, true)
                .1
                .unwrap_or_default(),
        };
        detail_text(detail).height as usize
    }
}

/// Where a detail's text goes inside its `area`: under the borders and the
/// tab line.
pub fn detail_text(area: Rect) -> Rect {
    let inner = Rect {
        x: area.x.saturating_add(1),
        y: area.y.saturating_add(1),
        width: area.width.saturating_sub(2),
        height: area.height.saturating_sub(2),
    };
    Rect {
        y: inner.y + 2,
        height: inner.height.saturating_sub(2),
        ..inner
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Screen {
    pub header: Rect,
    pub body: Rect,
    pub status: Rect,
}

pub fn screen(area: Rect) -> Screen {
    let [header, body, status] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(0),
        Constraint::Length(1),
    ])
    .areas(area);
    Screen {
        header,
        body,
        status,
    }
}

/// Where a list and an open detail go in `body`.
pub fn list_and_detail(body: Rect, detail_open: bool) -> (Rect, Option<Rect>) {
    if !detail_open {
        return (body, None);
    }
    if body.width >= SIDE_BY_SIDE_MIN_WIDTH {
        let [list, detail] =
            Layout::horizontal([Constraint::Percentage(45), Constraint::Percentage(55)])
                .areas(body);
        (list, Some(detail))
    } else {
        (Rect::default(), Some(body))
    }
}

/// The rows of a bordered table with a header row inside `area`.
pub fn table_rows(area: Rect) -> Rect {
    Rect {
        x: area.x.saturating_add(1),
        y: area.y.saturating_add(2),
        width: area.width.saturating_sub(2),
        height: area.height.saturating_sub(3),
    }
}

/// The header line just above `rows` (as [`table_rows`] gives them).
pub fn header_row(rows: Rect) -> Rect {
    Rect {
        height: 1,
        y: rows.y.saturating_sub(1),
        ..rows
    }
}

/// A centred box of at most `width` × `height` cells.
/// Where a scrolling dialog's end is and how many rows it shows, from
/// its lines and the body's geometry (set by the app before each key).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScrollBound {
    /// The scroll that shows the last line at the bottom.
    pub end: u16,
    /// Rows shown: a page.
    pub page: u16,
}

impl Default for ScrollBound {
    /// Not known yet: no end, pages of 10.
    fn default() -> Self {
        ScrollBound {
            end: u16::MAX,
            page: 10,
        }
    }
}

impl ScrollBound {
    /// The scroll after `action` from `scroll` (lines, pages, top, end),
    /// never past the end; `None`: the action does not scroll.
    pub fn after(&self, scroll: u16, action: crate::keymap::Action) -> Option<u16> {
        use crate::keymap::Action;
        let page = self.page.max(1);
        let scroll = scroll.min(self.end);
        let next = match action {
            Action::Down => scroll.saturating_add(1),
            Action::Up => scroll.saturating_sub(1),
            Action::Top => 0,
            Action::Bottom => self.end,
            Action::PageDown => scroll.saturating_add(page),
            Action::PageUp => scroll.saturating_sub(page),
            _ => return None,
        };
        Some(next.min(self.end))
    }
}

/// A dialog of `lines` in `body`: the rows of text it shows (as tall as
/// its lines need, up to the body, inside its borders) and the scroll
/// that shows its last line at the bottom, so update keeps the scroll
/// within it.
pub fn dialog_rows(body: Rect, lines: usize) -> (u16, u16) {
    let lines = cells(lines).min(u16::MAX - 2);
    let rows = (lines + 2).min(body.height).saturating_sub(2);
    (rows, lines.saturating_sub(rows))
}

pub fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let w = width.min(area.width);
    let h = height.min(area.height);
    Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    }
}

/// A length in terminal cells: a `u16`, saturating (no screen is 65,535
/// cells wide, so a longer text or list is clipped, never wrapped round).
pub fn cells(n: usize) -> u16 {
    u16::try_from(n).unwrap_or(u16::MAX)
}

/// `at` moved `step` places round a cycle of `len` (at least 1) places,
/// without a cast: exact for any step.
pub fn cycled(at: usize, step: isize, len: usize) -> usize {
    let by = step.unsigned_abs() % len;
    if step >= 0 {
        (at % len + by) % len
    } else {
        (at % len + len - by) % len
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_round_a_cycle_is_the_euclidean_remainder() {
        for len in 1..6usize {
            for at in 0..len {
                for step in -13isize..13 {
                    let want = (isize::try_from(at).unwrap() + step)
                        .rem_euclid(isize::try_from(len).unwrap());
                    assert_eq!(cycled(at, step, len), usize::try_from(want).unwrap());
                }
            }
        }
        assert_eq!(cycled(0, isize::MIN, 3), 1);
        assert_eq!(cells(70_000), u16::MAX);
    }
}
