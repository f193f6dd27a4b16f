//! The Agentic pane: the four query inputs, the results table (only the
//! visible rows are built) and the detail of one agentic issue. Every
//! string from the server (and every typed query) is made safe first.

use super::{AgenticPane, QueryField, areas};
use crate::keymap::{Action, Context};
use crate::layout;
use crate::list::filter_values::FilterValues;
use crate::pane::ViewCx;
use crate::theme::Theme;
use crate::widgets::columns::{self, Col, Cut};
use crate::widgets::common::{field, heading, paragraph, safe, spinner, time, wrap};
use crate::widgets::scroll;
use findings_model::*;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Cell, Clear, Paragraph, Row, Table};
use unicode_width::UnicodeWidthChar;

pub fn draw(f: &mut Frame, area: Rect, pane: &AgenticPane, v: &ViewCx) {
    let a = areas(area, pane.detail.is_some());
    queries(f, a.queries, pane, v);
    if a.results.width > 0 && a.results.height > 0 {
        results(f, a.results, pane, v);
    }
    if let (Some(area), Some(d)) = (a.detail, &pane.detail)
        && area.width > 0
        && area.height > 0
    {
        detail(f, area, v, &d.issue, &pane.names, d.scroll);
    }
}

/// What is left of `s` after its first `cols` columns.
fn skip_columns(s: &str, cols: usize) -> &str {
    let mut used = 0;
    for (i, c) in s.char_indices() {
        if used >= cols {
            return &s[i..];
        }
        used += c.width().unwrap_or(0);
    }
    ""
}

/// One line per query: a gutter (`▸` focused, `*` typed but not searched
/// yet), the label, the value; the focused one gets the cursor.
fn queries(f: &mut Frame, area: Rect, pane: &AgenticPane, v: &ViewCx) {
    let theme = v.theme;
    let wide_labels = area.width >= 40;
    let label_width: u16 = if wide_labels { 13 } else { 3 };
    let gutter: u16 = 2;
    for (i, qf) in QueryField::ALL.iter().enumerate() {
        let Ok(y) = u16::try_from(i) else { break };
        if y >= area.height {
            break;
        }
        let row = Rect {
            y: area.y + y,
            height: 1,
            ..area
        };
        let input = &pane.inputs[i];
        let focused = pane.editing == Some(i);
        let mark = if focused {
            "▸ "
        } else if pane.is_modified(i) {
            "* "
        } else {
            "  "
        };
        let label = if wide_labels {
            format!("{:<13}", qf.label())
        } else {
            format!("{:<3}", qf.short())
        };
        let label_style = if focused {
            theme.selected()
        } else {
            theme.dim()
        };
        let value_x = row.x.saturating_add(gutter + label_width);
        let value_width = row.width.saturating_sub(gutter + label_width);
        let mut spans = vec![
            Span::styled(mark, theme.key()),
            Span::styled(label, label_style),
        ];
        if focused {
            let visible = value_width.saturating_sub(1) as usize;
            let scroll = input.visual_scroll(visible);
            spans.push(Span::raw(safe(skip_columns(input.value(), scroll))));
            if value_width > 0 {
                let x = value_x
                    .saturating_add(crate::layout::cells(
                        input.visual_cursor().saturating_sub(scroll),
                    ))
                    .min(row.right().saturating_sub(1));
                f.set_cursor_position((x, row.y));
            }
        } else if input.value().is_empty() {
            let hint = if i == 0 && pane.editing.is_none() {
                format!(
                    "any · {} to edit the queries",
                    v.keymap
                        .keys_in(&[super::KEYS], Action::EditQuery)
                        .join(" or ")
                )
            } else {
                "any".to_owned()
            };
            spans.push(Span::styled(hint, theme.dim()));
        } else {
            spans.push(Span::raw(safe(input.value())));
        }
        f.render_widget(Paragraph::new(Line::from(spans)), row);
    }
}

/// The first project id, and how many more there are.
/// The repositories by name where the names are known, else by id.
fn project_cell(ids: &[String], names: &FilterValues) -> String {
    match ids {
        [] => String::new(),
        [one] => safe(&names.project_name(one)),
        // Cut on the left, the name's distinctive end and the "+N" stay.
        [first, rest @ ..] => format!("{} +{}", safe(&names.project_name(first)), rest.len()),
    }
}

fn label_of<T>(v: &Option<T>, label: impl Fn(&T) -> &str) -> String {
    v.as_ref().map_or(String::new(), |x| safe(label(x)))
}

/// The list's columns; narrow, the project ids go first.
fn columns(by_created: bool) -> [Col; 6] {
    let date = if by_created {
        Col::new("CREATED", 10)
    } else {
        Col::new("LAST DETECTED", 10).short("DETECTED")
    };
    [
        Col::new("SEVERITY", 8),
        Col::new("DETECTION", 9).drop(2).weight(2),
        Col::new("TRIAGE", 9).drop(3).weight(2),
        // By name once the filter values are in, by project id before.
        Col::new("REPOSITORY", 10)
            .short("REPO")
            .cut(Cut::Left)
            .drop(1)
            .weight(2),
        Col::new("TITLE", 30).weight(3).grow(),
        date.cut(Cut::Date).drop(4).weight(2),
    ]
}

fn results(f: &mut Frame, area: Rect, pane: &AgenticPane, v: &ViewCx) {
    let theme = v.theme;
    let list = &pane.list;
    let rows_area = layout::table_rows(area);
    let height = (rows_area.height as usize).max(1);
    // The pane keeps the selection on screen; this only guards a frame
    // drawn before it could.
    let mut offset = list.offset.min(list.len().saturating_sub(1));
    if list.selected < offset {
        offset = list.selected;
    } else if list.selected >= offset + height {
        offset = list.selected + 1 - height;
    }
    // The date column follows the sort: created when sorted by it.
    let by_created = pane.sort_field == Some(IssueSortField::CreatedAt);
    let shown: Vec<(usize, &AgenticIssue)> = (offset
        ..(offset + rows_area.height as usize).min(list.len()))
        .filter_map(|r| list.row(r).map(|issue| (r, issue)))
        .collect();
    let texts: Vec<Vec<String>> = shown
        .iter()
        .map(|(_, issue)| row_texts(issue, &pane.names, by_created))
        .collect();
    let cols = columns(by_created);
    let widths = columns::layout(&cols, &texts, rows_area.width);
    let (header, constraints) = columns::header(&cols, &widths);
    let rows: Vec<Row> = shown
        .iter()
        .zip(texts)
        .map(|((r, issue), texts)| {
            let style = if *r == list.selected {
                theme.selected()
            } else {
                Style::new()
            };
            let cells = texts.into_iter().enumerate().filter_map(|(k, text)| {
                let text = columns::cut(&text, widths[k]?, cols[k].cut);
                Some(if k == 0 {
                    Cell::from(Span::styled(text, theme.severity(issue.severity.as_ref())))
                } else {
                    Cell::from(text)
                })
            });
            Row::new(cells.collect::<Vec<_>>()).style(style)
        })
        .collect();
    let table = Table::new(rows, constraints)
        .column_spacing(columns::GAP)
        .header(Row::new(header).style(theme.header_row()))
        .block(results_block(pane));
    f.render_widget(table, area);
    scroll::scrollbar(f, theme, area, rows_area, list.len(), offset);

    if list.is_empty() {
        let text = empty_text(pane, v);
        f.render_widget(Paragraph::new(text).style(theme.dim()), rows_area);
    }
}

/// The cells of one agentic issue's row, made safe; the date is when it
/// was created if the list is sorted by that, else when last detected.
fn row_texts(issue: &AgenticIssue, names: &FilterValues, by_created: bool) -> Vec<String> {
    vec![
        label_of(&issue.severity, Severity::label),
        label_of(&issue.detection_state, DetectionState::label),
        label_of(&issue.triage_state, AgenticTriageState::label),
        project_cell(&issue.project_ids, names),
        safe(issue.title.as_deref().unwrap_or("")),
        time(if by_created {
            &issue.created_at
        } else {
            &issue.last_detected_at
        }),
    ]
}

/// The results' frame: how many are loaded (of how many), the sort, and
/// where the selection is.
fn results_block(pane: &AgenticPane) -> Block<'static> {
    let list = &pane.list;
    let loaded = list.len();
    let title = match pane.total {
        Some(total) => format!(" Agentic issues {loaded} of {total} "),
        None => format!(
            " Agentic issues {loaded}{} ",
            if list.complete { "" } else { "+" }
        ),
    };
    let mut block = Block::default()
        .borders(Borders::ALL)
        .title(title)
        .title(Line::from(format!(" sort {} ", pane.sort_label())).right_aligned());
    let of = match pane.total {
        Some(total) => findings_base::text::thousands(total),
        None if list.complete => findings_base::text::thousands_of(loaded),
        None => format!("{}+", findings_base::text::thousands_of(loaded)),
    };
    if let Some(p) = scroll::position(list.selected, loaded, Some(of)) {
        block = block.title_bottom(p);
    }
    block
}

/// Why there are no results: loading, failed, stopped, offline, or none
/// matching.
fn empty_text(pane: &AgenticPane, v: &ViewCx) -> String {
    let list = &pane.list;
    if list.loader.is_loading() {
        format!("{} searching agentic issues…", spinner(v.spinner))
    } else if let Some(e) = &list.loader.error {
        format!(
            "failed: {} · {} tries again",
            safe(e),
            v.key(Context::LIST, Action::Refresh)
        )
    } else if list.paused {
        crate::widgets::common::stopped(v, super::KEYS)
    } else if pane.offline {
        "a snapshot holds findings only: agentic issues are shown when connected to the deployment"
            .to_owned()
    } else if !pane.query_summary().is_empty() {
        "no agentic issue matches the queries".to_owned()
    } else {
        "no agentic issues".to_owned()
    }
}

/// The lines of the detail of `issue`, wrapped to `width` columns.
pub fn detail_lines<'a>(
    issue: &AgenticIssue,
    names: &FilterValues,
    theme: &Theme,
    width: usize,
) -> Vec<Line<'a>> {
    let width = width.max(1);
    let mut lines = summary_lines(issue, theme, width);
    lines.extend(text_lines(issue, theme, width));
    lines.extend(list_lines(issue, names, theme, width));
    lines
}

/// The title, then what the issue is: id, severity, detection, triage and
/// its dates.
fn summary_lines<'a>(issue: &AgenticIssue, theme: &Theme, width: usize) -> Vec<Line<'a>> {
    let mut lines = paragraph(
        issue.title.as_deref().unwrap_or("(untitled)"),
        width,
        0,
        theme.title(),
    );
    lines.push(Line::default());
    lines.push(field(theme, "id", safe(issue.id.as_deref().unwrap_or("-"))));
    lines.push(Line::from(vec![
        Span::styled(format!("{:<18}", "severity"), theme.dim()),
        Span::styled(
            issue
                .severity
                .as_ref()
                .map_or("-".into(), |s| safe(s.label())),
            theme.severity(issue.severity.as_ref()),
        ),
    ]));
    lines.push(field(
        theme,
        "detection",
        issue
            .detection_state
            .as_ref()
            .map_or("-".into(), |s| safe(s.label())),
    ));
    let mut triage = issue
        .triage_state
        .as_ref()
        .map_or("-".into(), |s| safe(s.label()));
    if let Some(r) = &issue.triage_reason {
        triage.push_str(&format!(" ({})", safe(r.label())));
    }
    lines.push(field(theme, "triage", triage));
    for (label, t) in [
        ("created", &issue.created_at),
        ("last detected", &issue.last_detected_at),
        ("triaged", &issue.triaged_at),
    ] {
        let value = time(t);
        lines.push(field(
            theme,
            label,
            if value.is_empty() { "-".into() } else { value },
        ));
    }
    lines
}

/// The description and the reasoning, each under its heading ("none"
/// when empty).
fn text_lines<'a>(issue: &AgenticIssue, theme: &Theme, width: usize) -> Vec<Line<'a>> {
    let mut lines = Vec::new();
    for (label, text) in [
        ("Description", &issue.description),
        ("Reasoning", &issue.reasoning),
    ] {
        lines.push(Line::default());
        lines.push(heading(theme, label));
        match text.as_deref().filter(|t| !t.trim().is_empty()) {
            Some(t) => lines.extend(paragraph(t, width, 2, Style::new())),
            None => lines.push(Line::from(Span::styled("  none", theme.dim()))),
        }
    }
    lines
}

/// The issue's lists (workflows, actions, repositories, files, …), each
/// under its heading with its count; the empty ones named on one line at
/// the end.
fn list_lines<'a>(
    issue: &AgenticIssue,
    names: &FilterValues,
    theme: &Theme,
    width: usize,
) -> Vec<Line<'a>> {
    let mut lines = Vec::new();
    // By name where the filter values know the id: "acme/api (51007)".
    let named = |ids: &[String], name: &dyn Fn(&str) -> String| -> Vec<String> {
        ids.iter()
            .map(|id| match name(id) {
                n if n == *id => n,
                n => format!("{n} ({id})"),
            })
            .collect()
    };
    let projects = named(&issue.project_ids, &|id| names.project_name(id));
    let refs = named(&issue.ref_ids, &|id| names.ref_name(id));
    let lists: [(&str, &Vec<String>); 12] = [
        ("Workflows", &issue.workflow_ids),
        ("Actions", &issue.actions),
        ("Identities", &issue.identities),
        ("Trigger sources", &issue.trigger_sources),
        ("Repositories", &projects),
        ("Refs", &refs),
        ("Domains", &issue.domains),
        ("CWEs", &issue.cwes),
        ("OWASP", &issue.owasps),
        ("Files", &issue.file_paths),
        ("Dependency paths", &issue.dependency_paths),
        ("Direct dependencies", &issue.direct_dependencies),
    ];
    let mut empty = Vec::new();
    for (label, items) in lists {
        if items.is_empty() {
            empty.push(label.to_lowercase());
            continue;
        }
        lines.push(Line::default());
        lines.push(heading(theme, &format!("{label} ({})", items.len())));
        for item in items {
            for (k, l) in wrap(item, width.saturating_sub(4)).into_iter().enumerate() {
                let prefix = if k == 0 { "  • " } else { "    " };
                lines.push(Line::from(vec![
                    Span::styled(prefix, theme.dim()),
                    Span::raw(l),
                ]));
            }
        }
    }
    if !empty.is_empty() {
        lines.push(Line::default());
        lines.extend(paragraph(
            &format!("none: {}", empty.join(", ")),
            width,
            0,
            theme.dim(),
        ));
    }
    lines
}

fn detail(
    f: &mut Frame,
    area: Rect,
    v: &ViewCx,
    issue: &AgenticIssue,
    names: &FilterValues,
    scroll: u16,
) {
    let theme = v.theme;
    f.render_widget(Clear, area);
    let title = format!(
        " {} · {} ",
        issue
            .severity
            .as_ref()
            .map_or("-".into(), |s| safe(s.label())),
        safe(issue.title.as_deref().unwrap_or("agentic issue"))
    );
    let block = Block::default()
        .borders(Borders::ALL)
        .title(crate::widgets::common::fit_title(&title, area.width))
        .title_bottom(crate::widgets::common::fit_hint(
            &format!(" {} ", detail_keys(v)),
            area.width.saturating_sub(2) as usize,
        ));
    let inner = block.inner(area);
    f.render_widget(block, area);
    if inner.width == 0 || inner.height == 0 {
        return;
    }
    let width = inner.width as usize;
    let lines = crate::widgets::reflow::reflow(detail_lines(issue, names, theme, width), width);
    let max_scroll = lines.len().saturating_sub(inner.height as usize);
    let scroll = crate::layout::cells((scroll as usize).min(max_scroll));
    f.render_widget(Paragraph::new(lines).scroll((scroll, 0)), inner);
}

/// The keys of the open detail, as its footer and the status line say them.
fn detail_keys(v: &ViewCx) -> String {
    let key = |action| v.key(Context::DETAIL, action);
    format!(
        "{}/{} scroll · {} copy id · {} close",
        key(Action::Down),
        key(Action::Up),
        key(Action::Copy),
        key(Action::Back)
    )
}

/// The Agentic pane's part of the status line.
pub fn status(pane: &AgenticPane, v: &ViewCx) -> String {
    if let Some(i) = pane.editing {
        let label = QueryField::ALL.get(i).map_or("", |q| q.label());
        return format!(
            "editing {} · Tab/↑↓ next query · Enter search · Esc stop editing",
            label.to_lowercase()
        );
    }
    if pane.detail.is_some() {
        return detail_keys(v);
    }
    let list = &pane.list;
    let loaded = match pane.total {
        Some(total) => format!("{} of {total} loaded", list.len()),
        None => crate::widgets::common::loaded_note(list),
    };
    let mut parts = crate::widgets::common::load_parts(list, loaded, v, super::KEYS);
    parts.push(format!("sort {}", pane.sort_label()));
    let queries = pane.query_summary();
    parts.push(if queries.is_empty() {
        "no queries".to_owned()
    } else {
        format!("queries: {}", safe(&queries.join(" ")))
    });
    if (0..QueryField::ALL.len()).any(|i| pane.is_modified(i)) {
        let edit = v.key(super::KEYS, Action::EditQuery);
        parts.push(format!("* edited, {edit} then Enter searches"));
    }
    parts.join(" · ")
}

#[cfg(test)]
mod drop_order_tests {
    use super::*;
    use findings_export::Record;

    #[test]
    fn the_headless_table_leaves_columns_out_in_this_order() {
        // The table has the paths where this list has the repository.
        columns::assert_same_drop_order(
            &columns(false),
            <AgenticIssue as Record>::COLUMNS,
            &[
                ("SEVERITY", "severity"),
                ("DETECTION", "detection"),
                ("TRIAGE", "triage"),
                ("REPOSITORY", "file_paths"),
                ("TITLE", "title"),
                ("LAST DETECTED", "last_detected"),
            ],
        );
    }
}
