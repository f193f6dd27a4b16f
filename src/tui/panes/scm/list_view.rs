//! The SCM configs as listed, one row each with the values a PATCH
//! changes (the columns of `findings scm list`), `✎` on a config with an
//! unsent draft, and what to do when the list cannot be had.

use super::ScmPane;
use super::list::Load;
use crate::api::model::ScmConfig;
use crate::export::{Record, fit, table_layout};
use crate::tui::keymap::{Action, Context};
use crate::tui::pane::ViewCx;
use crate::tui::widgets::common::{safe, spinner};
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
    let mut title = vec![Span::styled(
        format!(" SCM configs ({}) ", list.configs.len()),
        theme.title(),
    )];
    if pane.read_only {
        title.push(Span::styled(" READ-ONLY ", theme.badge()));
    }
    let key = |action| v.key(Context::ScmList, action);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(Line::from(title))
        .title_bottom(format!(
            " {} edit · {} list again · :scm ID edits by id ",
            key(Action::Open),
            key(Action::Refresh)
        ));
    let inner = block.inner(area);
    f.render_widget(block, area);
    if inner.width == 0 || inner.height == 0 {
        return;
    }
    let width = inner.width as usize;
    let mut lines: Vec<Line> = Vec::new();
    if !list.configs.is_empty() {
        let widths = table_layout(ScmConfig::COLUMNS, width.saturating_sub(MARK).max(1));
        let names: Vec<String> = ScmConfig::COLUMNS
            .iter()
            .map(|c| c.name.replace('_', " ").to_uppercase())
            .collect();
        lines.push(row_line("", &names, &widths, theme.header_row(), |_, _| {
            Style::new()
        }));
        // Rows under the header and above the notes.
        let notes = usize::from(!matches!(list.load, Load::Loaded));
        let room = (inner.height as usize).saturating_sub(1 + notes).max(1);
        let offset = list.selected.saturating_sub(room - 1);
        for (i, config) in list.configs.iter().enumerate().skip(offset).take(room) {
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
            let cells = config.cells();
            lines.push(row_line(mark, &cells, &widths, base, |k, cell| {
                match (ScmConfig::COLUMNS[k].name, cell) {
                    (_, "on") => theme.ok(),
                    ("status", c) if c.starts_with("error") || c == "suspended" => theme.error(),
                    ("token", "no") => theme.dim(),
                    _ => Style::new(),
                }
            }));
        }
    }
    let retry = v.key(Context::ScmList, Action::Refresh);
    let by_id = v.key(Context::ScmList, Action::Open);
    let note = match &list.load {
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
        Load::Loaded if list.configs.is_empty() => Some((
            format!(
                "This deployment lists no SCM configs. {by_id} or :scm ID edits a config by its id."
            ),
            theme.dim(),
        )),
        Load::Loaded => None,
    };
    if let Some((text, style)) = note {
        lines.push(Line::from(Span::styled(text, style)));
    }
    f.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
}

/// A table line: the mark, then each shown cell fitted to its width
/// (made terminal-safe), styled by `style_of(column, cell)` over `base`.
fn row_line(
    mark: &str,
    cells: &[String],
    widths: &[Option<usize>],
    base: Style,
    style_of: impl Fn(usize, &str) -> Style,
) -> Line<'static> {
    let mut spans = vec![Span::styled(fit(mark, MARK), base)];
    let shown: Vec<(usize, usize)> = widths
        .iter()
        .enumerate()
        .filter_map(|(k, w)| w.map(|w| (k, w)))
        .collect();
    for (n, (k, w)) in shown.iter().enumerate() {
        let cell = cells.get(*k).map_or("", String::as_str);
        let mut text = fit(&safe(cell), *w);
        if n + 1 < shown.len() {
            text.push_str("  ");
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
    let key = |action| v.key(Context::ScmList, action);
    parts.push(format!(
        "{}/{} move · {} edit · {} list again",
        key(Action::Down),
        key(Action::Up),
        key(Action::Open),
        key(Action::Refresh)
    ));
    parts.join(" · ")
}
