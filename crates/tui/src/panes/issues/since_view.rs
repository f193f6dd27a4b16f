//! The since-last-visit view: the categories with their counts, or the
//! changes of one (what each finding was and is).

use super::IssuesPane;
use super::since::{self, Since};
use crate::keymap::Action;
use crate::layout;
use crate::pane::ViewCx;
use crate::widgets::columns::{self, Col, Cut};
use crate::widgets::common::{safe, short_rule, spinner, time};
use crate::widgets::scroll;
use findings_base::text::thousands_of;
use findings_snapshot::{Category, Change};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Cell, Paragraph, Row, Table, Wrap};

/// Width of the count column.
const COUNT: usize = 8;

pub fn draw(pane: &IssuesPane, f: &mut Frame, area: Rect, v: &ViewCx) {
    let since = &pane.since;
    let areas = pane.areas(area);
    super::view::counts(pane, f, areas.counts, v);
    let table = areas.table;
    let key = |action| v.key(super::SINCE_KEYS, action);
    let report = since.report_for(&pane.selection);
    let head = match report.and_then(|r| r.last_visit) {
        Some(at) => format!("Since your last visit {}", time(&Some(at))),
        None => "Since your last visit".to_owned(),
    };
    let now = report.map_or(String::new(), |r| {
        format!(" · {} listed now", thousands_of(r.now))
    });
    let compared = report.is_some_and(|r| r.last_visit.is_some());
    let (title, hints) = match &since.changes {
        Some((category, list)) => (
            format!(
                "{head} · {} {}",
                changed_of(since, *category, list.len()),
                category.name()
            ),
            format!(
                " {} open · {} categories ",
                key(Action::Open),
                key(Action::Back)
            ),
        ),
        None if compared => (
            format!("{head}{now}"),
            format!(
                " {} the category's findings · {} back ",
                key(Action::Open),
                key(Action::SinceLastVisit)
            ),
        ),
        None => (
            format!("{head}{now}"),
            format!(" {} back ", key(Action::SinceLastVisit)),
        ),
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .title(super::view::titled(pane, &title, table.width))
        .title_bottom(hints);
    let rows = layout::table_rows(table);
    let Some(report) = report else {
        f.render_widget(block, table);
        let text = if since.is_loading() {
            format!(
                "{} comparing every finding of the filter with your last visit…",
                spinner(v.spinner)
            )
        } else if let Some(e) = &since.error {
            format!("failed: {}", safe(e))
        } else if !since.is_kept() {
            "last visits are not kept in this run (no state folder)".to_owned()
        } else {
            "not compared yet".to_owned()
        };
        f.render_widget(Paragraph::new(text).style(v.theme.dim()), rows);
        return;
    };
    if report.last_visit.is_none() {
        f.render_widget(block, table);
        let text = "No earlier visit with this profile and filter. This one is kept: \
                    the next session shows what changed since.";
        f.render_widget(
            Paragraph::new(text)
                .style(v.theme.dim())
                .wrap(Wrap { trim: true }),
            rows,
        );
        return;
    }
    match &since.changes {
        Some((_, list)) => changes(f, table, block, list, v),
        None => categories(f, table, block, since, v),
    }
}

/// `12`, or `20,000 of 25,311` when not all are kept.
fn changed_of(since: &Since, category: Category, kept: usize) -> String {
    let all = since.report.as_ref().map_or(0, |r| r.count(category));
    if usize::try_from(all).unwrap_or(usize::MAX) > kept {
        format!("{} of {}", thousands_of(kept), thousands_of(all))
    } else {
        thousands_of(all)
    }
}

fn categories(f: &mut Frame, table: Rect, block: Block<'_>, since: &Since, v: &ViewCx) {
    let theme = v.theme;
    let rows = layout::table_rows(table);
    f.render_widget(block, table);
    let header = layout::header_row(rows);
    f.render_widget(
        Paragraph::new(format!("{:>COUNT$}  {:<10} WHAT", "FINDINGS", "CHANGE"))
            .style(theme.header_row()),
        header,
    );
    let Some(report) = &since.report else { return };
    let list = &since.categories;
    let mut lines: Vec<Line> = (list.offset..list.len().min(list.offset + rows.height as usize))
        .filter_map(|row| {
            let category = *list.row(row)?;
            let count = report.count(category);
            let text = format!(
                "{:>COUNT$}  {:<10} {}",
                thousands_of(count),
                category.name(),
                since::meaning(category)
            );
            let style = match () {
                () if row == list.selected => theme.selected(),
                () if count == 0 => theme.dim(),
                () => Style::new(),
            };
            // Too long for the row: cut, saying so.
            Some(Line::styled(
                findings_export::fit(&text, rows.width as usize),
                style,
            ))
        })
        .collect();
    for note in &report.notes {
        lines.push(Line::styled(format!("note: {}", safe(note)), theme.dim()));
    }
    f.render_widget(Paragraph::new(lines), rows);
}

/// The changes' columns: the path yields first, then who triaged, the
/// repository, the severity.
const COLUMNS: [Col; 8] = [
    Col::new("ID", 6),
    Col::new("SEVERITY", 8).short("SEV").drop(4),
    Col::new("NOW", 8),
    Col::new("WAS", 8).weight(2),
    Col::new("BY", 8).drop(2),
    Col::new("RULE", 14).weight(3).grow(),
    Col::new("REPOSITORY", 12)
        .short("REPO")
        .cut(Cut::Left)
        .drop(3),
    Col::new("PATH", 12).cut(Cut::Left).drop(1).grow(),
];

fn cells(change: &Change) -> Vec<String> {
    let s = |v: &Option<String>| v.as_deref().map_or(String::new(), safe);
    // A triage is what changed: its state and reason, not the finding's.
    let triage = [Category::Triaged, Category::Retriaged]
        .iter()
        .any(|c| c.name() == change.category);
    let now = match &change.triage {
        Some(t) if triage => safe(t),
        // A ticket change: the ticket now (WAS says the one before).
        _ if change.category == Category::Ticket.name() => s(&change.ticket),
        _ => change.state.as_deref().map_or("—".to_owned(), safe),
    };
    vec![
        safe(&change.id),
        s(&change.severity),
        now,
        s(&change.was),
        s(&change.triaged_by),
        safe(short_rule(change.rule.as_deref().unwrap_or(""))),
        s(&change.repo),
        s(&change.path),
    ]
}

fn changes(
    f: &mut Frame,
    table: Rect,
    block: Block<'_>,
    list: &crate::list::load::PagedList<Change>,
    v: &ViewCx,
) {
    let theme = v.theme;
    let inner = layout::table_rows(table);
    let shown: Vec<(usize, &Change)> = (list.offset
        ..(list.offset + inner.height as usize).min(list.len()))
        .filter_map(|r| list.row(r).map(|c| (r, c)))
        .collect();
    let texts: Vec<Vec<String>> = shown.iter().map(|(_, c)| cells(c)).collect();
    // A column empty in every row on screen (who triaged a new finding)
    // gives its room to the others.
    let empty: Vec<bool> = (0..COLUMNS.len())
        .map(|k| texts.iter().all(|row| row[k].is_empty()))
        .collect();
    let cols: Vec<Col> = COLUMNS
        .iter()
        .zip(&empty)
        .filter(|(_, empty)| !**empty)
        .map(|(c, _)| *c)
        .collect();
    let texts: Vec<Vec<String>> = texts
        .into_iter()
        .map(|row| {
            row.into_iter()
                .zip(&empty)
                .filter(|(_, empty)| !**empty)
                .map(|(t, _)| t)
                .collect()
        })
        .collect();
    let widths = columns::layout(&cols, &texts, inner.width);
    let (header, constraints) = columns::header(&cols, &widths);
    let rows = shown.iter().zip(texts).map(|((r, change), texts)| {
        let cells: Vec<Cell> = texts
            .into_iter()
            .enumerate()
            .filter_map(|(k, text)| {
                let w = widths[k]?;
                Some(Cell::from(columns::cut(&text, w, cols[k].cut)))
            })
            .collect();
        let style = if *r == list.selected {
            theme.selected()
        } else {
            theme.severity(
                change
                    .severity
                    .as_deref()
                    .and_then(findings_model::Severity::parse_known)
                    .as_ref(),
            )
        };
        Row::new(cells).style(style)
    });
    let block = match scroll::position(list.selected, list.len(), None) {
        Some(p) => block.title_bottom(p),
        None => block,
    };
    f.render_widget(
        Table::new(rows, constraints)
            .column_spacing(columns::GAP)
            .header(Row::new(header).style(theme.header_row()))
            .block(block),
        table,
    );
    scroll::scrollbar(f, theme, table, inner, list.len(), list.offset);
}

/// The view's part of the status line.
pub fn status(pane: &IssuesPane, v: &ViewCx) -> String {
    let since = &pane.since;
    match since.report_for(&pane.selection) {
        Some(report) => format!("since last visit: {}", since::summary(report)),
        None if since.is_loading() => {
            format!("{} comparing with your last visit", spinner(v.spinner))
        }
        None => "since last visit".to_owned(),
    }
}
