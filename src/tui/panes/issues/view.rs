//! The Issues pane: the findings table (only visible rows are built), the
//! local filter input, the filter form.

use super::{IssuesPane, areas};
use crate::tui::keymap::{Action, Context};
use crate::tui::layout;
use crate::tui::load::PagedList;
use crate::tui::pane::ViewCx;
use crate::tui::widgets::common::{loaded_note, new_note, safe, spinner, stopped};
use crate::tui::widgets::findings_table;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

pub fn draw(pane: &IssuesPane, f: &mut Frame, area: Rect, v: &ViewCx) {
    let theme = v.theme;
    let (table_area, input_area) = areas(area, pane.local_input.is_some());
    let list = &pane.list;
    let rows_area = layout::table_rows(table_area);
    let title = format!(
        " Issues {}{} ",
        list.len(),
        if list.complete { "" } else { "+" }
    );
    findings_table::draw_list(
        f,
        table_area,
        theme,
        list,
        &pane.marked,
        pane.new.last_visit,
        findings_table::DateColumn::RelevantSince,
        Block::default().borders(Borders::ALL).title(title),
    );

    if list.is_empty() {
        let text = if list.loader.is_loading() {
            format!("{} loading findings…", spinner(v.spinner))
        } else if let Some(e) = &list.loader.error {
            format!("failed: {}", safe(e))
        } else if list.paused {
            stopped(v)
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
        crate::tui::filter_form::view::draw(
            f,
            area,
            form_state,
            v,
            "Server-side filters (List issues)",
        );
    }
}

/// The Issues pane's part of the status line.
pub fn status(pane: &IssuesPane, v: &ViewCx) -> String {
    let list = &pane.list;
    let mut parts = vec![loaded_note(list)];
    parts.extend(new_note(
        pane.new.last_visit,
        pane.new.count,
        pane.new_only(),
    ));
    if !pane.local_query.is_empty() {
        parts.push(format!(
            "/{} ({} shown)",
            safe(&pane.local_query),
            list.len()
        ));
    }
    if !pane.marked.is_empty() {
        parts.push(format!("{} marked", pane.marked.len()));
    }
    parts.push(format!("sort {}", pane.sort_label()));
    if let Some(what) = pane.narrowed_to() {
        let back = v.key(Context::Issues, Action::Back);
        parts.push(format!("narrowed to {} ({back}: back)", safe(what)));
    }
    status_tail(pane, list, v, parts)
}

/// The end of the status line both Issues views share: the server-side
/// filters, then a failed or stopped load.
pub(super) fn status_tail<T>(
    pane: &IssuesPane,
    list: &PagedList<T>,
    v: &ViewCx,
    mut parts: Vec<String>,
) -> String {
    let filters = pane.filter_summary();
    parts.push(if filters.is_empty() {
        "no filters".to_owned()
    } else {
        format!("filters: {}", safe(&filters.join(" ")))
    });
    if let Some(e) = &list.loader.error {
        parts.push(format!("error: {}", safe(e)));
    } else if list.paused {
        parts.push(stopped(v));
    }
    parts.join(" · ")
}
