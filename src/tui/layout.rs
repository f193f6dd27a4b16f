//! Screen geometry, shared by `view` (to draw) and `update` (to page, to
//! prefetch and to map mouse clicks), so both always agree.

use ratatui::layout::{Constraint, Layout, Rect};

/// Terminals at least this wide show the detail beside the list.
pub const SIDE_BY_SIDE_MIN_WIDTH: u16 = 180;

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

/// The Issues pane: the table, and a one-line filter input under it when
/// the local filter is being edited.
pub fn issues(body: Rect, filter_line: bool) -> (Rect, Option<Rect>) {
    if filter_line && body.height > 2 {
        let [table, input] =
            Layout::vertical([Constraint::Min(0), Constraint::Length(1)]).areas(body);
        (table, Some(input))
    } else {
        (body, None)
    }
}

/// The Report pane: totals, selectors, charts, and the findings list.
pub struct ReportAreas {
    pub totals: Rect,
    pub selectors: Rect,
    pub charts: Rect,
    pub list: Rect,
}

pub fn report(body: Rect) -> ReportAreas {
    let charts_height = if body.height >= 30 {
        9
    } else if body.height >= 20 {
        6
    } else {
        0
    };
    let [totals, selectors, charts, list] = Layout::vertical([
        Constraint::Length(if body.height >= 16 { 5 } else { 1 }),
        Constraint::Length(2),
        Constraint::Length(charts_height),
        Constraint::Min(0),
    ])
    .areas(body);
    ReportAreas {
        totals,
        selectors,
        charts,
        list,
    }
}

/// The Agentic pane: the four query inputs, then the results.
pub fn agentic(body: Rect) -> (Rect, Rect) {
    let [queries, results] =
        Layout::vertical([Constraint::Length(4), Constraint::Min(0)]).areas(body);
    (queries, results)
}

/// A centred box of at most `width` × `height` cells.
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
