//! Where the Report pane's parts go in the screen's body.

use super::dashboard;
use ratatui::layout::{Constraint, Layout, Rect};

/// Where the parts of the pane go in the screen's body: totals,
/// selectors (with what the report covers), charts, and the findings list
/// (the view draws them, clicks and paging read them).
pub struct ReportAreas {
    pub totals: Rect,
    pub selectors: Rect,
    pub charts: Rect,
    pub list: Rect,
}

/// The pane's areas in `body`; a dashboard view chosen with `d` takes
/// more of the height than the counts' charts (the list keeps the rest;
/// in a short body, the view is what was asked for, the list gets what
/// remains). `coverage` is how many lines the words under the selectors
/// take at this width.
pub fn areas(body: Rect, block: dashboard::Block, coverage: u16) -> ReportAreas {
    let report_view = block != dashboard::Block::Counts;
    // The selectors' two lines, then what the report covers and how it
    // compares with the Issues list, wrapped (at most four lines).
    let selectors = if body.height >= 12 {
        2 + coverage.clamp(1, 4)
    } else {
        2
    };
    let totals = if body.height >= 26 { 5 } else { 1 };
    let charts_height = match body.height {
        30.. if report_view => 12,
        30.. => 9,
        20.. if report_view => 9,
        20.. => 6,
        // A short body: the view, over a list of a row or two.
        12.. if report_view => body.height.saturating_sub(totals + selectors + 4).min(9),
        _ => 0,
    };
    let [totals, selectors, charts, list] = Layout::vertical([
        Constraint::Length(totals),
        Constraint::Length(selectors),
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
