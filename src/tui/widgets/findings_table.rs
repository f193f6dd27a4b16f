//! The findings table the Issues and Report panes share: only the visible
//! rows are built, columns give way as the terminal narrows, paths are cut
//! from the left so the file name and line stay visible. While rows are
//! marked, a narrow first column shows which.

use super::common::{cut_left, date, safe, short_rule, time};
use crate::api::model::Timestamp;
use crate::tui::findings_list::Marks;
use crate::tui::load::PagedList;
use crate::tui::rows::FindingRow;
use crate::tui::theme::Theme;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::Span;
use ratatui::widgets::{Block, Cell, Row, Table};

/// Which date the last column shows.
#[derive(Debug, Clone, Copy)]
pub enum DateColumn {
    RelevantSince,
    Created,
}

/// The rows to show: `len` in all, `row(i)` the finding of row `i`.
pub struct Rows<'a, T> {
    pub len: usize,
    pub offset: usize,
    pub selected: usize,
    pub row: &'a dyn Fn(usize) -> Option<&'a FindingRow<T>>,
    /// Whether the finding of a row is marked; `None` when none is (the
    /// mark column is then left out).
    pub marked: Option<IsMarked<'a, T>>,
    /// The last visit: rows dated after it are new (a `•` column); `None`
    /// on a first visit (the column is then left out).
    pub new_since: Option<Timestamp>,
}

/// Whether a row is marked.
pub type IsMarked<'a, T> = &'a dyn Fn(&FindingRow<T>) -> bool;

/// The mark column's symbol for a marked row.
pub const MARK: &str = "✓";

/// The new column's symbol for a finding new since the last visit.
pub const NEW: &str = "•";

/// Draws a findings list: its shown rows, its marks, and the new column
/// when there was an earlier visit.
#[allow(clippy::too_many_arguments)]
pub fn draw_list<T>(
    f: &mut Frame,
    area: Rect,
    theme: &Theme,
    list: &PagedList<FindingRow<T>>,
    marks: &Marks,
    new_since: Option<Timestamp>,
    date_column: DateColumn,
    block: Block<'_>,
) {
    let row = |r: usize| list.row(r);
    let marked = |row: &FindingRow<T>| marks.contains(&row.id);
    draw(
        f,
        area,
        theme,
        Rows {
            len: list.len(),
            offset: list.offset,
            selected: list.selected,
            row: &row,
            marked: (!marks.is_empty()).then_some(&marked as _),
            new_since,
        },
        date_column,
        block,
    );
}

pub fn draw<T>(
    f: &mut Frame,
    area: Rect,
    theme: &Theme,
    rows: Rows<'_, T>,
    date_column: DateColumn,
    block: Block<'_>,
) {
    let inner = crate::tui::layout::table_rows(area);
    // Narrow: dates without times; very narrow: no state and no path.
    let narrow = area.width < 100;
    let tiny = area.width < 70;
    let mut header = Vec::new();
    let mut widths = Vec::new();
    if rows.marked.is_some() {
        header.push("");
        widths.push(Constraint::Length(1));
    }
    if rows.new_since.is_some() {
        header.push("");
        widths.push(Constraint::Length(1));
    }
    header.push("SEVERITY");
    widths.push(Constraint::Length(9));
    if !tiny {
        header.push("STATE");
        widths.push(Constraint::Length(if narrow { 9 } else { 12 }));
    }
    header.extend(["RULE", "REPOSITORY"]);
    widths.extend([Constraint::Fill(3), Constraint::Fill(2)]);
    let path_column = (!tiny).then(|| {
        header.push("PATH:LINE");
        widths.push(Constraint::Fill(3));
        widths.len() - 1
    });
    header.push(match (date_column, narrow) {
        (DateColumn::RelevantSince, false) => "RELEVANT SINCE",
        (DateColumn::RelevantSince, true) => "SINCE",
        (DateColumn::Created, _) => "CREATED",
    });
    widths.push(Constraint::Length(if narrow { 10 } else { 16 }));
    // The same split the table makes, to cut paths to their column.
    let path_width = path_column.map_or(0, |k| {
        Layout::horizontal(widths.clone())
            .spacing(1)
            .split(Rect { height: 1, ..inner })[k]
            .width as usize
    });
    let visible = (rows.offset..(rows.offset + inner.height as usize).min(rows.len))
        .filter_map(|r| (rows.row)(r).map(|issue| (r, issue)))
        .map(|(r, issue)| {
            let mut cells = Vec::with_capacity(8);
            if let Some(marked) = rows.marked {
                cells.push(Cell::from(Span::styled(
                    if marked(issue) { MARK } else { " " },
                    theme.key(),
                )));
            }
            let when = match date_column {
                DateColumn::RelevantSince => &issue.relevant_since,
                DateColumn::Created => &issue.created_at,
            };
            if let Some(last) = rows.new_since {
                let new = when.is_some_and(|t| t > last);
                cells.push(Cell::from(Span::styled(
                    if new { NEW } else { " " },
                    theme.accent(),
                )));
            }
            cells.push(Cell::from(Span::styled(
                issue
                    .severity
                    .as_ref()
                    .map_or(String::new(), |s| safe(s.label())),
                theme.severity(issue.severity.as_ref()),
            )));
            if !tiny {
                cells.push(Cell::from(
                    issue
                        .state
                        .as_ref()
                        .map_or(String::new(), |s| safe(s.label())),
                ));
            }
            cells.push(Cell::from(safe(short_rule(&issue.rule))));
            cells.push(Cell::from(safe(&issue.repository)));
            if path_column.is_some() {
                cells.push(Cell::from(cut_left(&safe(&issue.location), path_width)));
            }
            cells.push(Cell::from(if narrow { date(when) } else { time(when) }));
            let style = if r == rows.selected {
                theme.selected()
            } else {
                Style::new()
            };
            Row::new(cells).style(style)
        });
    let table = Table::new(visible, widths)
        .header(Row::new(header).style(theme.header_row()))
        .block(block);
    f.render_widget(table, area);
}
