//! The SCM configs as listed, one row each with the values a PATCH
//! changes (the columns of `findings scm list`), `✎` on a config with an
//! unsent draft, and what to do when the list cannot be had.

use super::ScmPane;
use super::list::Load;
use crate::keymap::Action;
use crate::pane::ViewCx;
use crate::widgets::columns::{self, Col, Cut};
use crate::widgets::common::{safe, spinner};
use crate::widgets::scroll;
use findings_export::{Record, fit};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

/// The draft mark and its gap.
const MARK: usize = 2;

pub fn draw(f: &mut Frame, area: Rect, pane: &ScmPane, v: &ViewCx) {
    let theme = v.theme;
    let list = &pane.list;
    let block = list_block(pane, v);
    let inner = block.inner(area);
    f.render_widget(block, area);
    if inner.width == 0 || inner.height == 0 {
        return;
    }
    let width = inner.width as usize;
    let mut lines: Vec<Line> = Vec::new();
    if !list.configs.is_empty() {
        // Rows under the header and above the notes.
        let notes = usize::from(!matches!(list.load, Load::Loaded));
        let room = (inner.height as usize).saturating_sub(1 + notes).max(1);
        let offset = list.selected.saturating_sub(room - 1);
        let shown: Vec<Vec<String>> = list
            .configs
            .iter()
            .skip(offset)
            .take(room)
            .map(|c| c.cells().iter().map(|s| safe(s)).collect())
            .collect();
        let cols = &COLUMNS;
        let widths = columns::layout(
            cols,
            &shown,
            crate::layout::cells(width.saturating_sub(MARK)),
        );
        let names: Vec<String> = cols
            .iter()
            .zip(&widths)
            .map(|(c, w)| w.map(|w| c.title(w)).unwrap_or_default())
            .collect();
        lines.push(row_line("", &names, &widths, theme.header_row(), |_, _| {
            Style::new()
        }));
        let rows = Rect {
            y: inner.y + 1,
            height: crate::layout::cells(room.min(inner.height.saturating_sub(1) as usize)),
            ..inner
        };
        scroll::scrollbar(f, theme, area, rows, list.configs.len(), offset);
        for ((i, config), cells) in list.configs.iter().enumerate().skip(offset).zip(shown) {
            let id = config.id.as_deref().unwrap_or("");
            let mark = if !id.is_empty() && pane.has_draft(id) {
                "✎"
            } else {
                ""
            };
            let base = if i == list.selected {
                theme.selected()
            } else {
                Style::new()
            };
            lines.push(row_line(mark, &cells, &widths, base, |k, cell| {
                match (COLUMNS[k].header, cell) {
                    (_, "on") => theme.ok(),
                    ("STATUS", c) if c.starts_with("error") || c == "suspended" => theme.error(),
                    ("TOKEN", "no") => theme.dim(),
                    _ => Style::new(),
                }
            }));
        }
    }
    if let Some((text, style)) = load_note(pane, v) {
        lines.push(Line::from(Span::styled(text, style)));
    }
    f.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
}

/// The list's frame: how many configs, READ-ONLY when so, the keys, and
/// where the selection is.
fn list_block(pane: &ScmPane, v: &ViewCx) -> Block<'static> {
    let theme = v.theme;
    let list = &pane.list;
    let mut title = vec![Span::styled(
        format!(" SCM configs ({}) ", list.configs.len()),
        theme.title(),
    )];
    if pane.read_only {
        title.push(Span::styled(" READ-ONLY ", theme.badge()));
    }
    let key = |action| v.key(super::LIST_KEYS, action);
    let mut block = Block::default()
        .borders(Borders::ALL)
        .title(Line::from(title))
        .title_bottom(format!(
            " {} edit · {} list again · :scm ID edits by id ",
            key(Action::Open),
            key(Action::Refresh)
        ));
    if let Some(p) = scroll::position(list.selected, list.configs.len(), None) {
        block = block.title_bottom(p);
    }
    block
}

/// The note under the rows while the list is not all there: listing,
/// failed, offline, or none listed (with the keys that go on from there).
fn load_note(pane: &ScmPane, v: &ViewCx) -> Option<(String, Style)> {
    let theme = v.theme;
    let list = &pane.list;
    let retry = v.key(super::LIST_KEYS, Action::Refresh);
    let by_id = v.key(super::LIST_KEYS, Action::Open);
    match &list.load {
        Load::NotAsked | Load::Loading(_) => Some((
            format!("{} listing the SCM configs…", spinner(v.spinner)),
            theme.accent(),
        )),
        Load::Failed(e) => Some((
            format!(
                "The SCM configs could not be listed: {}. {retry} tries again; {by_id} or :scm ID edits a config by its id.",
                safe(e)
            ),
            theme.error(),
        )),
        Load::Loaded if pane.offline => Some((
            "A snapshot holds findings only: the SCM configs are the deployment's, shown when connected to it."
                .to_owned(),
            theme.dim(),
        )),
        Load::Loaded if list.configs.is_empty() => Some((
            format!(
                "This deployment lists no SCM configs. {by_id} or :scm ID edits a config by its id."
            ),
            theme.dim(),
        )),
        Load::Loaded => None,
    }
}

/// The columns of [`ScmConfig::cells`](findings_model::ScmConfig), sized from the configs shown; the
/// type and last sync give way first.
const COLUMNS: [Col; 9] = [
    Col::new("ID", 4),
    Col::new("TYPE", 6).drop(2),
    Col::new("NAMESPACE", 10).weight(2),
    Col::new("AUTO SCAN", 4).short("AUTO"),
    Col::new("NETWORK BROKER", 6).short("BROKER").drop(4),
    Col::new("DIFF SCAN", 4).short("DIFF").drop(5),
    Col::new("TOKEN", 5).drop(3),
    Col::new("LAST SYNC", 10)
        .short("SYNC")
        .cut(Cut::Date)
        .drop(1),
    Col::new("STATUS", 10).weight(2).grow(),
];

/// A table line: the mark, then each shown cell (terminal-safe already)
/// cut and padded to its width, styled by `style_of(column, cell)` over
/// `base`.
fn row_line(
    mark: &str,
    cells: &[String],
    widths: &[Option<u16>],
    base: Style,
    style_of: impl Fn(usize, &str) -> Style,
) -> Line<'static> {
    let mut spans = vec![Span::styled(fit(mark, MARK), base)];
    let shown: Vec<(usize, u16)> = widths
        .iter()
        .enumerate()
        .filter_map(|(k, w)| w.map(|w| (k, w)))
        .collect();
    for (n, (k, w)) in shown.iter().enumerate() {
        let cell = cells.get(*k).map_or("", String::as_str);
        let mut text = fit(&columns::cut(cell, *w, COLUMNS[*k].cut), *w as usize);
        if n + 1 < shown.len() {
            text.push(' ');
        }
        spans.push(Span::styled(text, base.patch(style_of(*k, cell))));
    }
    Line::from(spans)
}

/// The list's part of the status line.
pub fn status(pane: &ScmPane, v: &ViewCx) -> String {
    let list = &pane.list;
    let mut parts = vec![match &list.load {
        Load::Loaded => format!("{} SCM configs", list.configs.len()),
        Load::Failed(_) => "SCM configs not listed".to_owned(),
        _ => "listing SCM configs".to_owned(),
    }];
    let drafts = pane.unsent_drafts();
    if drafts > 0 {
        parts.push(format!("✎ {drafts} unsent"));
    }
    if pane.read_only {
        parts.push("READ-ONLY: sending disabled".into());
    }
    let key = |action| v.key(super::LIST_KEYS, action);
    parts.push(format!(
        "{}/{} move · {} edit · {} list again",
        key(Action::Down),
        key(Action::Up),
        key(Action::Open),
        key(Action::Refresh)
    ));
    parts.join(" · ")
}

#[cfg(test)]
mod drop_order_tests {
    use super::*;
    use findings_export::Record;
    use findings_model::ScmConfig;

    #[test]
    fn the_headless_table_leaves_columns_out_in_this_order() {
        columns::assert_same_drop_order(
            &COLUMNS,
            <ScmConfig as Record>::COLUMNS,
            &[
                ("ID", "id"),
                ("TYPE", "type"),
                ("NAMESPACE", "namespace"),
                ("AUTO SCAN", "auto_scan"),
                ("NETWORK BROKER", "network_broker"),
                ("DIFF SCAN", "diff_scan"),
                ("TOKEN", "token"),
                ("LAST SYNC", "last_sync"),
                ("STATUS", "status"),
            ],
        );
    }
}
