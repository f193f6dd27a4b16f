//! The filter form, drawn over the pane.

use super::{FieldValue, FilterForm};
use crate::filter_spec::FieldKind;
use crate::tui::keymap::{Action, Context};
use crate::tui::layout;
use crate::tui::pane::ViewCx;
use crate::tui::widgets::common::safe;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

/// The form's keys, as bound.
fn footer(form: &FilterForm, v: &ViewCx) -> String {
    let key = |action| v.key(Context::FORM, action);
    let views = if form.views.is_empty() {
        ""
    } else {
        " (↑ saved views)"
    };
    format!(
        " {}{} move{views} · {} edit/apply · {} toggle · {} clear · {} close ",
        key(Action::PrevField),
        key(Action::NextField),
        key(Action::Submit),
        key(Action::Toggle),
        key(Action::ClearField),
        key(Action::Back)
    )
}

pub fn draw(f: &mut Frame, area: Rect, form: &FilterForm, v: &ViewCx, title: &str) {
    let theme = v.theme;
    let popup = layout::centered(area, 90, (form.rows() as u16 + 4).min(area.height));
    f.render_widget(Clear, popup);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(format!(" {title} "))
        .title_bottom(footer(form, v));
    let inner = block.inner(popup);
    f.render_widget(block, popup);
    let height = inner.height.saturating_sub(1) as usize;
    let offset = form.selected.saturating_sub(height.saturating_sub(1));
    let mut lines: Vec<Line> = Vec::new();
    for row in offset..(offset + height).min(form.rows()) {
        let selected = row == form.selected;
        let style = if selected {
            theme.selected()
        } else {
            ratatui::style::Style::new()
        };
        let line = if row < form.schema.len() {
            let field = &form.schema[row];
            let hint = match field.kind {
                FieldKind::Strings => "list",
                FieldKind::Enums(_) => "values",
                FieldKind::Enum(_) => "value",
                FieldKind::Bool => "any/true/false",
                FieldKind::Time => "time",
                FieldKind::Text => "text",
            };
            let value = match (&form.values[row], &form.editing) {
                (_, Some(input)) if selected => format!("{}▏", safe(input.value())),
                (FieldValue::Text(t), _) => safe(t),
                (FieldValue::Tri(None), _) => "any".into(),
                (FieldValue::Tri(Some(b)), _) => b.to_string(),
            };
            Line::from(vec![
                Span::styled(format!("{:<30}", field.name), style),
                Span::styled(format!("{value:<40}"), style),
                Span::styled(format!(" {hint}"), theme.dim()),
            ])
        } else if row == form.schema.len() {
            Line::from(Span::styled("[ Apply filters ]", style.patch(theme.key())))
        } else if let Some((name, summary)) = form.view_of_row(row).map(|k| &form.views[k]) {
            Line::from(vec![
                Span::styled(format!("[ View {} ]", safe(name)), style.patch(theme.key())),
                Span::styled(format!(" {}", safe(summary)), theme.dim()),
            ])
        } else {
            Line::from(Span::styled("[ Clear all ]", style))
        };
        lines.push(line);
    }
    let candidates = form.candidates();
    if let Some(err) = &form.error {
        lines.push(Line::from(Span::styled(safe(err), theme.error())));
    } else if form.is_editing() && !candidates.is_empty() {
        // What Tab would give, as far as a line shows.
        let shown: Vec<String> = candidates.iter().take(12).map(|c| safe(c)).collect();
        let more = candidates.len().saturating_sub(shown.len());
        let more = if more > 0 {
            format!(" +{more}")
        } else {
            String::new()
        };
        lines.push(Line::from(Span::styled(
            format!("Tab: {}{more}", shown.join(", ")),
            theme.dim(),
        )));
    } else if let Some(values) = form.schema.get(form.selected).and_then(|f| match f.kind {
        FieldKind::Enums(names) | FieldKind::Enum(names) => Some(names()),
        _ => None,
    }) {
        // What the selected field takes, as one types it.
        let typed = crate::filter_spec::typed_names(&values).join(", ");
        lines.push(Line::from(Span::styled(
            format!("one of: {typed}"),
            theme.dim(),
        )));
    } else if !candidates.is_empty()
        && form
            .schema
            .get(form.selected)
            .is_some_and(|f| matches!(f.kind, FieldKind::Strings | FieldKind::Text))
    {
        lines.push(Line::from(Span::styled(
            format!(
                "{} known values (e.g. {}); Tab completes while editing",
                candidates.len(),
                safe(&candidates[0])
            ),
            theme.dim(),
        )));
    }
    f.render_widget(Paragraph::new(lines), inner);
}
