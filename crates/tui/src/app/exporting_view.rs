//! The export prompt (`e`) and the copy menu (`y`) of the findings lists.

use super::App;
use super::exporting::{COPY_CHOICES, CopyMenu, ExportPrompt, FORMATS};
use crate::layout;
use crate::widgets::common::safe;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

pub fn export_prompt(f: &mut Frame, body: Rect, app: &App, prompt: &ExportPrompt) {
    let theme = &app.theme;
    let popup = layout::centered(body, 76, 7);
    if popup.width < 4 || popup.height < 3 {
        return;
    }
    f.render_widget(Clear, popup);
    let what = format!(
        " Export {} {} finding{} ",
        prompt.count,
        if prompt.marked { "marked" } else { "shown" },
        if prompt.count == 1 { "" } else { "s" }
    );
    let block = Block::default()
        .borders(Borders::ALL)
        .title(Span::styled(what, theme.title()))
        .title_bottom(" Tab format · ↑↓ file/columns · Enter export · Esc cancel ");
    let inner = block.inner(popup);
    f.render_widget(block, popup);

    let mut formats = vec![Span::styled("Format  ", theme.dim())];
    for fmt in FORMATS {
        let style = if fmt == prompt.format() {
            theme.selected()
        } else {
            ratatui::style::Style::new()
        };
        formats.push(Span::styled(format!(" {} ", fmt.name()), style));
    }
    // The line typed into scrolls with its cursor, as the other inputs
    // do; the other shows its start.
    let label = "File     ";
    let width = (inner.width as usize).saturating_sub(label.len() + 1);
    let scroll = |input: &tui_input::Input, typed: bool| {
        if typed { input.visual_scroll(width) } else { 0 }
    };
    let shown = |input: &tui_input::Input, typed: bool| -> String {
        input.value().chars().skip(scroll(input, typed)).collect()
    };
    let columns = if prompt.has_columns() {
        Span::raw(safe(&shown(&prompt.columns, prompt.on_columns)))
    } else {
        Span::styled(
            format!("(all of each finding, as {})", prompt.format().name()),
            theme.dim(),
        )
    };
    let mut lines = vec![
        Line::from(formats),
        Line::from(vec![
            Span::styled(label, theme.dim()),
            Span::raw(safe(&shown(&prompt.path, !prompt.on_columns))),
        ]),
        Line::from(vec![Span::styled("Columns  ", theme.dim()), columns]),
        Line::default(),
    ];
    match &prompt.error {
        Some(e) => lines.push(Line::from(Span::styled(safe(e), theme.error()))),
        None => lines.push(Line::from(Span::styled(
            "An existing file is never overwritten.",
            theme.dim(),
        ))),
    }
    f.render_widget(Paragraph::new(lines), inner);
    let (input, row) = if prompt.on_columns {
        (&prompt.columns, 2)
    } else {
        (&prompt.path, 1)
    };
    if inner.height > row {
        let x = inner
            .x
            .saturating_add(layout::cells(label.len()))
            .saturating_add(layout::cells(
                input.visual_cursor().saturating_sub(scroll(input, true)),
            ));
        f.set_cursor_position((x.min(inner.right().saturating_sub(1)), inner.y + row));
    }
}

pub fn copy_menu(f: &mut Frame, body: Rect, app: &App, menu: &CopyMenu) {
    let theme = &app.theme;
    let popup = layout::centered(body, 52, layout::cells(COPY_CHOICES.len()) + 2);
    if popup.width < 4 || popup.height < 3 {
        return;
    }
    f.render_widget(Clear, popup);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(Span::styled(" Copy ", theme.title()))
        .title_bottom(" Enter copy · Esc close ");
    let lines: Vec<Line> = COPY_CHOICES
        .iter()
        .enumerate()
        .map(|(k, (key, _))| {
            let style = if k == menu.selected {
                theme.selected()
            } else {
                ratatui::style::Style::new()
            };
            Line::from(vec![
                Span::styled(format!(" {key} "), theme.key()),
                Span::styled(format!(" {} ", menu.label(k)), style),
            ])
        })
        .collect();
    f.render_widget(Paragraph::new(lines).block(block), popup);
}
