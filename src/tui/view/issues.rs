//! The Issues pane: the findings table (only visible rows are built), the
//! local filter input, the filter form.

use super::common::{cut_left, date, safe, short_rule, spinner, time};
use super::form;
use crate::tui::app::App;
use crate::tui::layout;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Cell, Paragraph, Row, Table};

pub fn draw(f: &mut Frame, area: Rect, app: &App) {
    let pane = &app.issues;
    let theme = &app.theme;
    let (table_area, input_area) = layout::issues(area, pane.local_input.is_some());
    let list = &pane.list;
    let rows_area = layout::table_rows(table_area);
    // Narrow terminals: dates without times, more room for rule and path.
    let narrow = table_area.width < 100;
    let widths = [
        Constraint::Length(9),
        Constraint::Length(if narrow { 9 } else { 12 }),
        Constraint::Fill(3),
        Constraint::Fill(2),
        Constraint::Fill(3),
        Constraint::Length(if narrow { 10 } else { 16 }),
    ];
    // The same split the table makes, to cut paths from the left.
    let path_width = Layout::horizontal(widths).spacing(1).split(Rect {
        width: rows_area.width,
        ..rows_area
    })[4]
        .width as usize;
    let height = rows_area.height as usize;
    let rows: Vec<Row> = (list.offset..(list.offset + height).min(list.len()))
        .filter_map(|r| list.row(r).map(|item| (r, item)))
        .map(|(r, item)| {
            let issue = item.issue.clone().unwrap_or_default();
            let style = if r == list.selected {
                theme.selected()
            } else {
                ratatui::style::Style::new()
            };
            Row::new(vec![
                Cell::from(Span::styled(
                    issue
                        .severity
                        .as_ref()
                        .map_or(String::new(), |s| safe(s.label())),
                    theme.severity(issue.severity.as_ref()),
                )),
                Cell::from(
                    issue
                        .aggregate_state
                        .as_ref()
                        .map_or(String::new(), |s| safe(s.label())),
                ),
                Cell::from(safe(short_rule(&issue.rule_label()))),
                Cell::from(safe(issue.repository_name())),
                Cell::from(cut_left(&safe(&issue.location()), path_width)),
                Cell::from(if narrow {
                    date(&issue.relevant_since)
                } else {
                    time(&issue.relevant_since)
                }),
            ])
            .style(style)
        })
        .collect();
    let title = format!(
        " Issues {}{} ",
        list.len(),
        if list.complete { "" } else { "+" }
    );
    let header = Row::new([
        "SEVERITY",
        "STATE",
        "RULE",
        "REPOSITORY",
        "PATH:LINE",
        if narrow { "SINCE" } else { "RELEVANT SINCE" },
    ])
    .style(theme.header_row());
    let table = Table::new(rows, widths)
        .header(header)
        .block(Block::default().borders(Borders::ALL).title(title));
    f.render_widget(table, table_area);

    if list.is_empty() {
        let text = if list.loader.is_loading() {
            format!("{} loading findings…", spinner(app.spinner))
        } else if let Some(e) = &list.loader.error {
            format!("failed: {}", safe(e))
        } else if !pane.local_query.is_empty() {
            "no loaded finding matches the local filter".to_owned()
        } else {
            "no findings".to_owned()
        };
        f.render_widget(Paragraph::new(text).style(theme.dim()), rows_area);
    }

    if let (Some(area), Some(input)) = (input_area, &pane.local_input) {
        let prefix = "/";
        let width = area.width.saturating_sub(1) as usize;
        let scroll = input.visual_scroll(width);
        let shown: String = input.value().chars().skip(scroll).collect();
        f.render_widget(
            Paragraph::new(Line::from(vec![
                Span::styled(prefix, theme.key()),
                Span::raw(safe(&shown)),
            ])),
            area,
        );
        let x = area.x + 1 + (input.visual_cursor().saturating_sub(scroll)) as u16;
        f.set_cursor_position((x.min(area.right().saturating_sub(1)), area.y));
    }

    if let Some(form_state) = &pane.form {
        form::draw(
            f,
            area,
            form_state,
            theme,
            "Server-side filters (List issues)",
        );
    }
}

/// The Issues pane's part of the status line.
pub fn status(app: &App) -> String {
    let pane = &app.issues;
    let list = &pane.list;
    let mut parts = vec![format!(
        "{} loaded{}",
        list.items.len(),
        if list.complete {
            ", all"
        } else {
            ", more available"
        }
    )];
    if !pane.local_query.is_empty() {
        parts.push(format!(
            "/{} ({} shown)",
            safe(&pane.local_query),
            list.len()
        ));
    }
    parts.push(format!("sort {}", pane.sort_label()));
    let filters = pane.filter_summary();
    parts.push(if filters.is_empty() {
        "no filters".to_owned()
    } else {
        format!("filters: {}", safe(&filters.join(" ")))
    });
    if let Some(e) = &list.loader.error {
        parts.push(format!("error: {}", safe(e)));
    }
    parts.join(" · ")
}
