//! The findings table the Issues and Report panes share: only the visible
//! rows are built, columns are sized from them and the width
//! ([`columns`]), paths and repositories are cut from the left so the file
//! name and line, and the repository's name, stay visible. While rows are
//! marked, a narrow first column shows which; while a row on screen has a
//! ticket or a fix pull request (asked for or open), a column flags it
//! (`T`, `P`).

use super::columns::{self, Col, Cut};
use super::common::{safe, short_rule, state_cell, time};
use super::scroll;
use crate::list::findings_list::Marks;
use crate::list::load::PagedList;
use crate::list::open_age::OpenAge;
use crate::message::rows::{Acted, FindingRow};
use crate::theme::Theme;
use findings_model::Timestamp;
use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
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
    /// The server holds more rows than `len`.
    pub more: bool,
    /// Now: an ignore whose expiry has passed shows as expired.
    pub now: Timestamp,
    /// The AGE column: open age against the targets, when the rows carry
    /// their first detection.
    pub age: Option<AgeColumn>,
}

/// The AGE column, and whether it is kept before the others (the list
/// shows only findings over target) or left out first.
#[derive(Debug, Clone, Copy)]
pub struct AgeColumn {
    pub age: OpenAge,
    pub first: bool,
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
    now: Timestamp,
    list: &PagedList<FindingRow<T>>,
    marks: &Marks,
    new_since: Option<Timestamp>,
    date_column: DateColumn,
    age: Option<AgeColumn>,
    block: Block<'_>,
) {
    let row = |r: usize| list.row(r);
    let marked = |row: &FindingRow<T>| marks.contains(row.id());
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
            more: !list.complete || list.partial,
            now,
            age,
        },
        date_column,
        block,
    );
}

/// The columns after the marks, in order. What triage is about stays
/// longest (severity, state, rule); the age yields first (unless the list
/// is of findings over target), then the date, the path and the
/// repository.
fn columns(date_column: DateColumn, age: Option<AgeColumn>) -> Vec<Col> {
    named_columns(date_column, age.map(|a| a.first))
        .into_iter()
        .map(|(col, _)| col)
        .collect()
}

/// The columns the list shows, in order, by their names in the export
/// catalog ([`findings_export::CATALOG`]): what an export (`e`) writes
/// unless told otherwise. `age`: whether the AGE column shows.
pub fn export_columns(date_column: DateColumn, age: bool) -> Vec<&'static str> {
    named_columns(date_column, age.then_some(false))
        .into_iter()
        .map(|(_, name)| name)
        .collect()
}

/// [`columns`], each with its name in the export catalog; `age_first`:
/// the AGE column shows, kept before the others when `true`.
fn named_columns(date_column: DateColumn, age_first: Option<bool>) -> Vec<(Col, &'static str)> {
    let date = match date_column {
        DateColumn::RelevantSince => (
            Col::new("RELEVANT SINCE", 10).short("SINCE"),
            "relevant_since",
        ),
        DateColumn::Created => (Col::new("CREATED", 10), "created"),
    };
    let mut cols = vec![
        (Col::new("SEVERITY", 8), "severity"),
        // Weighty: `exc. requested · open` is whole before a rule grows.
        (Col::new("STATE", 9).drop(5).weight(4), "state"),
        (Col::new("RULE", 16).weight(3).grow(), "rule"),
        // `owner/name`: the name is what tells repositories apart.
        (
            Col::new("REPOSITORY", 14)
                .short("REPO")
                .cut(Cut::Left)
                .drop(4)
                .weight(2),
            "repository",
        ),
        (
            Col::new("PATH:LINE", 12)
                .short("PATH")
                .cut(Cut::Left)
                .drop(3)
                .grow(),
            "location",
        ),
        (date.0.cut(Cut::Date).drop(2).weight(2), date.1),
    ];
    if let Some(first) = age_first {
        // `102d +95` whole (a cut one reads as another number), else
        // left out first; kept when the list is of findings over target.
        let col = Col::new("AGE", 9);
        let col = if first { col } else { col.drop(1) };
        cols.insert(2, (col, "age"));
    }
    cols
}

/// The text of a row's cells, in [`columns`] order.
fn texts<T>(
    issue: &FindingRow<T>,
    when: &Option<Timestamp>,
    now: Timestamp,
    age: Option<AgeColumn>,
) -> Vec<String> {
    let label = |l: Option<&str>| l.map_or(String::new(), safe);
    let state = state_cell(issue.state().as_ref(), issue.exception().as_ref());
    let mut cells = vec![
        label(issue.severity().as_ref().map(|s| s.label())),
        // An ignore past its expiry says so first (a cut keeps it).
        match issue.expires() {
            Some(at) if at <= now => format!("expired · {state}"),
            _ => state,
        },
        safe(short_rule(issue.rule())),
        safe(issue.repository()),
        safe(&issue.location()),
        time(when),
    ];
    if let Some(age) = age {
        let cell = age.age.of(issue).map_or(String::new(), |a| a.cell());
        cells.insert(2, cell);
    }
    cells
}

fn draw<T>(
    f: &mut Frame,
    area: Rect,
    theme: &Theme,
    rows: Rows<'_, T>,
    date_column: DateColumn,
    block: Block<'_>,
) {
    let inner = crate::layout::table_rows(area);
    let when = |issue: &FindingRow<T>| match date_column {
        DateColumn::RelevantSince => issue.relevant_since(),
        DateColumn::Created => issue.created_at(),
    };
    let shown: Vec<(usize, &FindingRow<T>)> = (rows.offset
        ..(rows.offset + inner.height as usize).min(rows.len))
        .filter_map(|r| (rows.row)(r).map(|issue| (r, issue)))
        .collect();
    let texts: Vec<Vec<String>> = shown
        .iter()
        .map(|(_, issue)| texts(issue, &when(issue), rows.now, rows.age))
        .collect();
    // A ticket or fix PR flag column while a row on screen has one (two
    // cells while one has both).
    let acted = shown.iter().any(|(_, r)| r.acted != Acted::Nothing);
    let acted_width: u16 = if shown.iter().any(|(_, r)| r.acted == Acted::Both) {
        2
    } else {
        1
    };
    // The mark, new and acted columns are one cell each (acted two with
    // both flags), and a gap.
    let flags = usize::from(rows.marked.is_some())
        + usize::from(rows.new_since.is_some())
        + usize::from(acted);
    let flag_widths: Vec<u16> = [
        rows.marked.is_some().then_some(1),
        rows.new_since.is_some().then_some(1),
        acted.then_some(acted_width),
    ]
    .into_iter()
    .flatten()
    .collect();
    let cols = columns(date_column, rows.age);
    // Which cell is the age (styled when over target).
    let age_at = rows.age.map(|_| 2);
    let flag_room: u16 = flag_widths.iter().map(|w| w + 1).sum();
    let widths = columns::layout(&cols, &texts, inner.width.saturating_sub(flag_room));
    // The flag columns, one cell each, before the others.
    let (titles, widths_kept) = columns::header(&cols, &widths);
    let header: Vec<String> = std::iter::repeat_n(String::new(), flags)
        .chain(titles)
        .collect();
    let constraints: Vec<Constraint> = flag_widths
        .iter()
        .map(|w| Constraint::Length(*w))
        .chain(widths_kept)
        .collect();
    let table_rows = shown.iter().zip(texts).map(|((r, issue), texts)| {
        let mut cells = Vec::with_capacity(8);
        if let Some(marked) = rows.marked {
            cells.push(Cell::from(Span::styled(
                if marked(issue) { MARK } else { " " },
                theme.key(),
            )));
        }
        if let Some(last) = rows.new_since {
            let new = when(issue).is_some_and(|t| t > last);
            cells.push(Cell::from(Span::styled(
                if new { NEW } else { " " },
                theme.accent(),
            )));
        }
        if acted {
            cells.push(Cell::from(Span::styled(issue.acted.flag(), theme.accent())));
        }
        for (k, text) in texts.into_iter().enumerate() {
            let Some(w) = widths[k] else { continue };
            let text = columns::cut(&text, w, cols[k].cut);
            let over = age_at == Some(k) && rows.age.is_some_and(|a| a.age.is_over(*issue));
            cells.push(if k == 0 {
                Cell::from(Span::styled(
                    text,
                    theme.severity(issue.severity().as_ref()),
                ))
            } else if over {
                Cell::from(Span::styled(text, theme.error()))
            } else {
                Cell::from(text)
            });
        }
        let style = if *r == rows.selected {
            theme.selected()
        } else {
            Style::new()
        };
        Row::new(cells).style(style)
    });
    let of = if rows.more {
        format!("{}+", findings_base::text::thousands_of(rows.len))
    } else {
        findings_base::text::thousands_of(rows.len)
    };
    let block = match scroll::position(rows.selected, rows.len, Some(of)) {
        Some(p) => block.title_bottom(p),
        None => block,
    };
    let table = Table::new(table_rows, constraints)
        .column_spacing(columns::GAP)
        .header(Row::new(header).style(theme.header_row()))
        .block(block);
    f.render_widget(table, area);
    scroll::scrollbar(f, theme, area, inner, rows.len, rows.offset);
}

#[cfg(test)]
mod tests {
    use super::*;
    use findings_export::Record;
    use findings_model::Issue;

    /// What an export writes by default is the list's columns, each by
    /// its name in the export catalog, in the list's order.
    #[test]
    fn the_export_columns_are_the_lists_in_its_order() {
        let catalog_name = |header: &str| match header {
            "SEVERITY" => "severity",
            "STATE" => "state",
            "AGE" => "age",
            "RULE" => "rule",
            "REPOSITORY" => "repository",
            "PATH:LINE" => "location",
            "RELEVANT SINCE" => "relevant_since",
            "CREATED" => "created",
            other => panic!("{other}"),
        };
        for date in [DateColumn::RelevantSince, DateColumn::Created] {
            for age in [false, true] {
                let shown: Vec<&str> = named_columns(date, age.then_some(true))
                    .iter()
                    .map(|(col, _)| catalog_name(col.header))
                    .collect();
                let exported = export_columns(date, age);
                assert_eq!(shown, exported);
                for name in exported {
                    assert!(findings_export::catalog::find(name).is_some(), "{name}");
                }
            }
        }
    }

    #[test]
    fn the_headless_table_leaves_columns_out_in_this_order() {
        for date in [DateColumn::RelevantSince, DateColumn::Created] {
            let date_header = columns(date, None)[5].header;
            crate::widgets::columns::assert_same_drop_order(
                &columns(date, None),
                <Issue as Record>::COLUMNS,
                &[
                    ("SEVERITY", "severity"),
                    ("STATE", "state"),
                    ("RULE", "rule"),
                    ("REPOSITORY", "repository"),
                    ("PATH:LINE", "location"),
                    (date_header, "relevant_since"),
                ],
            );
        }
    }
}

#[cfg(test)]
mod expiry_tests {
    use super::*;
    use findings_model::{AggregateState, Issue, TriageState};

    fn at(s: &str) -> Timestamp {
        s.parse().unwrap()
    }

    fn ignored_with(note: &str, state: AggregateState) -> FindingRow<Issue> {
        FindingRow::new(&Issue {
            id: Some("f1".into()),
            aggregate_state: Some(state),
            triage_state: Some(TriageState::Ignored),
            note: Some(note.into()),
            ..Default::default()
        })
    }

    #[test]
    fn an_ignore_past_its_expiry_shows_as_expired_and_not_before() {
        let row = ignored_with(
            "accepted for now\nexpires: 2026-11-20",
            AggregateState::IgnoredApp,
        );
        assert_eq!(row.expires(), Some(at("2026-11-20T00:00:00Z")));
        let state = |now| texts(&row, &None, at(now), None)[1].clone();
        assert_eq!(state("2026-11-19T23:59:59Z"), "ignored");
        assert_eq!(state("2026-11-20T00:00:00Z"), "expired · ignored");
        // A finding no longer ignored is not expired, whatever its note.
        let mut reopened = Issue {
            note: Some("expires: 2026-11-20".into()),
            aggregate_state: Some(AggregateState::Open),
            ..Default::default()
        };
        assert_eq!(FindingRow::new(&reopened).expires(), None);
        reopened.note = Some("no expiry here".into());
        reopened.aggregate_state = Some(AggregateState::IgnoredApp);
        assert_eq!(FindingRow::new(&reopened).expires(), None);
    }
}
