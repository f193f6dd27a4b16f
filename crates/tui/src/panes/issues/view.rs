//! The Issues pane: the counts of the filter, the findings table (only
//! visible rows are built) titled with its count and its filters, the
//! local filter input, the filter form.

use super::IssuesPane;
use crate::keymap::{Action, Context};
use crate::layout;
use crate::list::filters_shown;
use crate::list::issue_counts::{CountState, archived_note, by_state_lines_with};
use crate::pane::ViewCx;
use crate::widgets::common::{
    load_parts, loaded_note, new_note, safe, spinner, stopped, thousands,
};
use crate::widgets::findings_table;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use unicode_width::UnicodeWidthStr;

/// How many findings the list has: `100/233` (loaded of those the filter
/// matches) once the counts are known, `233` once all are loaded, `100+`
/// before; with a local filter, how many of them show.
pub(super) fn count_label(pane: &IssuesPane) -> String {
    let list = &pane.list;
    let loaded = i64::try_from(list.items.len()).unwrap_or(i64::MAX);
    let total = pane.counts.known_for(&pane.selection).map(|c| c.listed());
    let count = match total {
        _ if list.complete => thousands(loaded),
        // More loaded than counted: the rest are in no counted state.
        Some(total) if loaded <= total => {
            format!("{}/{}", thousands(loaded), thousands(total))
        }
        Some(_) => format!("{}+", thousands(loaded)),
        None => format!("{}+", thousands(loaded)),
    };
    if let Some(searching) = pane.searching_note() {
        // Not "N shown of M" until it is exact.
        return format!(
            "{searching} · {} found so far of {count}",
            findings_base::text::thousands_of(list.len())
        );
    }
    if pane.local_query.is_empty() && pane.over_target.is_none() && !pane.new_local {
        count
    } else {
        format!(
            "{} shown of {count}",
            findings_base::text::thousands_of(list.len())
        )
    }
}

/// Why no row shows, as it is: what hides the loaded rows here (`/`, new
/// only, over target), else what the server was asked for.
pub(super) fn empty_reason(pane: &IssuesPane) -> String {
    let loaded = pane.list.items.len();
    if let Some(searching) = pane.searching_note() {
        return format!("{searching} (none found so far)");
    }
    let since = |t: findings_model::Timestamp| t.format("%Y-%m-%d %H:%M UTC").to_string();
    if loaded > 0 {
        let mut why = Vec::new();
        if !pane.local_query.is_empty() {
            why.push(format!("matches /{}", safe(&pane.local_query)));
        }
        if let (true, Some(last)) = (pane.new_local, pane.new.last_visit) {
            why.push(format!("is new since your last visit ({})", since(last)));
        }
        if pane.over_target.is_some() {
            why.push("is open past its target".to_owned());
        }
        if !why.is_empty() {
            return format!(
                "none of the {} loaded findings {}",
                findings_base::text::thousands_of(loaded),
                why.join(" and ")
            );
        }
    }
    if pane.new_only() {
        let last = pane.new.last_visit.map(since).unwrap_or_default();
        return format!("no finding is new since your last visit ({last}): n shows every one");
    }
    if !pane.selection.filter.is_empty() || !pane.selection.issue_types.is_empty() {
        return "no finding matches the server-side filters (in the title)".to_owned();
    }
    "no findings".to_owned()
}

/// A title for a box `width` cells wide: `name`, then the server-side
/// filters, as many as fit (`filtered: a=b +2 more`), never none.
pub(super) fn titled(pane: &IssuesPane, name: &str, width: u16) -> String {
    let filters = filters_shown::summary(&pane.selection);
    if filters.is_empty() {
        return crate::widgets::common::fit_title(&format!(" {name} "), width);
    }
    let head = format!(" {name} · filtered: ");
    // The box's corners and a space after the filters.
    let room = (width as usize).saturating_sub(head.width() + 3);
    format!("{head}{} ", filters_shown::fit(&filters, room))
}

pub fn draw(pane: &IssuesPane, f: &mut Frame, area: Rect, v: &ViewCx) {
    let theme = v.theme;
    let areas = pane.areas(area);
    let (table_area, input_area) = (areas.table, areas.input);
    let list = &pane.list;
    let rows_area = layout::table_rows(table_area);
    counts(pane, f, areas.counts, v);
    // What changed since the last visit, when anything did (`W` shows it).
    let since = pane
        .since
        .report_for(&pane.selection)
        .filter(|r| r.last_visit.is_some() && r.any())
        .map_or(String::new(), |r| {
            format!(" · since last visit: {}", super::since::summary(r))
        });
    let over = if pane.over_target.is_some() {
        " · over target"
    } else {
        ""
    };
    let title = titled(
        pane,
        &format!("Issues {}{over}{since}", count_label(pane)),
        table_area.width,
    );
    findings_table::draw_list(
        f,
        table_area,
        theme,
        v.now,
        list,
        &pane.marked,
        pane.new.last_visit,
        findings_table::DateColumn::RelevantSince,
        Some(findings_table::AgeColumn {
            age: pane.open_age(v.now),
            first: pane.over_target.is_some(),
        }),
        Block::default().borders(Borders::ALL).title(title),
    );

    if list.is_empty() {
        let text = if list.loader.is_loading() {
            format!("{} loading findings…", spinner(v.spinner))
        } else if let Some(e) = &list.loader.error {
            format!("failed: {}", safe(e))
        } else if list.paused {
            stopped(v, super::KEYS)
        } else {
            empty_reason(pane)
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
        let x = (area.x + 1).saturating_add(crate::layout::cells(
            input.visual_cursor().saturating_sub(scroll),
        ));
        f.set_cursor_position((x.min(area.right().saturating_sub(1)), area.y));
    }

    if let Some(form_state) = &pane.form {
        crate::filter_form::view::draw(f, area, form_state, v, "Server-side filters (List issues)");
    }
}

/// The Issues pane's part of the status line.
pub fn status(pane: &IssuesPane, v: &ViewCx) -> String {
    let list = &pane.list;
    let mut parts = load_parts(list, loaded_note(list), v, super::KEYS);
    if let Some(progress) = pane.load_all_progress(v.now) {
        let stop = v.key_among(&[super::KEYS, Context::LIST], Action::Back);
        // It says what is loaded too.
        parts[0] = format!("{progress} ({stop} stops)");
    }
    // Position, then the sort: a narrow line keeps its first parts whole.
    parts.push(format!("sort {}", pane.sort_label()));
    // What says how to get back next.
    if let Some(what) = pane.narrowed_to() {
        let back = v.key(super::KEYS, Action::Back);
        parts.push(format!("narrowed to {} ({back}: back)", safe(what)));
    }
    if let Some(searching) = pane.searching_note() {
        parts.push(format!(
            "/{} ({searching}, {} found so far)",
            safe(&pane.local_query),
            findings_base::text::thousands_of(list.len())
        ));
    } else if !pane.local_query.is_empty() {
        parts.push(format!(
            "/{} ({} shown)",
            safe(&pane.local_query),
            findings_base::text::thousands_of(list.len())
        ));
    }
    if !pane.marked.is_empty() {
        parts.push(format!(
            "{} marked",
            findings_base::text::thousands_of(pane.marked.len())
        ));
    }
    parts.extend(new_note(
        pane.new.last_visit,
        pane.new.count,
        pane.new_only(),
    ));
    // The filters are in the title, which always has room for them.
    parts.join(" · ")
}

/// The counts of the filter over the table: by state, then the findings
/// of archived projects the list leaves out and the filter that shows
/// them. A failure says so in a line; the list stays.
pub(super) fn counts(pane: &IssuesPane, f: &mut Frame, area: Rect, v: &ViewCx) {
    if area.height == 0 || area.width == 0 {
        return;
    }
    let theme = v.theme;
    let width = area.width as usize;
    let cut = |s: &str| findings_export::fit(s, width).trim_end().to_owned();
    let retry = v.key_among(&[super::KEYS, Context::LIST], Action::Refresh);
    let lines = match &pane.counts.state {
        CountState::NotAsked => Vec::new(),
        CountState::Loading(_) => vec![Line::from(Span::styled(
            cut(&format!(
                "{} counting the findings of this filter…",
                spinner(v.spinner)
            )),
            theme.dim(),
        ))],
        CountState::Known(c) => {
            let include_archived = pane.selection.filter.include_archived == Some(true);
            let mut lines: Vec<Line> = by_state_lines_with(c, &pane.past_the_counts(c), width)
                .iter()
                .take(2)
                .map(|l| Line::from(Span::raw(cut(l))))
                .collect();
            // What the counts leave out wraps rather than vanishes.
            for note in archived_note(c, include_archived)
                .map(|note| crate::widgets::common::wrap(&note, width))
                .unwrap_or_default()
            {
                lines.push(Line::from(Span::styled(note, theme.accent())));
            }
            lines
        }
        CountState::Failed(e) => vec![Line::from(Span::styled(
            cut(&format!(
                "counts unavailable ({retry} asks again): {}",
                safe(e)
            )),
            theme.error(),
        ))],
        CountState::Stopped => vec![Line::from(Span::styled(
            cut(&format!("counting stopped ({retry} asks again)")),
            theme.dim(),
        ))],
    };
    f.render_widget(Paragraph::new(lines), area);
}
