//! The filter form, drawn over the pane.

use super::{FieldValue, FilterForm};
use crate::keymap::{Action, Context};
use crate::layout;
use crate::pane::ViewCx;
use crate::theme::Theme;
use crate::widgets::common::safe;
use findings_requests::filter_spec::FieldKind;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use unicode_width::UnicodeWidthStr;

/// The form's keys, as bound, wrapped to `width`: nothing is cut.
fn footer(form: &FilterForm, v: &ViewCx, width: usize) -> Vec<String> {
    let key = |action| v.key(Context::FORM, action);
    let views = if form.views.is_empty() {
        ""
    } else {
        " (↑ saved views)"
    };
    let items = [
        format!(
            "{}/{} move{views}",
            key(Action::NextField),
            key(Action::PrevField)
        ),
        format!("{}/{} first/apply", key(Action::Top), key(Action::Bottom)),
        format!("{} edit/apply", key(Action::Submit)),
        format!("{} toggle", key(Action::Toggle)),
        format!("{} clear", key(Action::ClearField)),
        format!("{} apply", key(Action::Confirm)),
        format!("{} revert", key(Action::Revert)),
        format!("{} close (edits kept)", key(Action::Back)),
    ];
    wrap_items(&items, width)
}

/// Joins `items` with " · ", starting a new line where one would not fit.
fn wrap_items(items: &[String], width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for item in items {
        match lines.last_mut() {
            Some(line) if line.width() + 3 + item.width() <= width => {
                line.push_str(" · ");
                line.push_str(item);
            }
            _ => lines.push(item.clone()),
        }
    }
    lines
}

/// `text` cut to `width` columns, with `…` where it was cut.
fn fit(text: &str, width: usize) -> String {
    if text.width() <= width {
        return format!("{text:<width$}");
    }
    let mut out = String::new();
    for c in text.chars() {
        if out.width() + c.to_string().width() + 1 > width {
            break;
        }
        out.push(c);
    }
    out.push('…');
    format!("{out:<width$}")
}

pub fn draw(f: &mut Frame, area: Rect, form: &FilterForm, v: &ViewCx, title: &str) {
    let theme = v.theme;
    let width = area.width.min(90);
    let hints = footer(form, v, width.saturating_sub(2) as usize);
    let draft = usize::from(form.draft);
    let wanted = form.rows() + draft + 1 + hints.len() + 2;
    let popup = layout::centered(area, width, layout::cells(wanted));
    f.render_widget(Clear, popup);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(format!(" {title} "));
    let inner = block.inner(popup);
    f.render_widget(block, popup);
    // The keys' hint at the bottom, whole; the rows above it.
    let hint_rows = layout::cells(hints.len()).min(inner.height.saturating_sub(2));
    let [body, hint_area] =
        Layout::vertical([Constraint::Fill(1), Constraint::Length(hint_rows)]).areas(inner);
    let hint_lines: Vec<Line> = hints
        .into_iter()
        .map(|h| Line::from(Span::styled(h, theme.dim())))
        .collect();
    f.render_widget(Paragraph::new(hint_lines), hint_area);
    let mut lines: Vec<Line> = Vec::new();
    if form.draft {
        lines.push(Line::from(Span::styled(
            format!(
                "Draft: these edits are not applied ({} applies, {} reverts)",
                v.key(Context::FORM, Action::Confirm),
                v.key(Context::FORM, Action::Revert)
            ),
            theme.accent(),
        )));
    }
    let height = (body.height as usize).saturating_sub(1 + draft);
    lines.extend(row_lines(form, height, body.width as usize, theme));
    lines.extend(help_line(form, theme));
    f.render_widget(Paragraph::new(lines), body);
}

/// The rows that fit in `height` (scrolled so the selected one shows):
/// the fields, then Apply, the saved views and Clear all.
fn row_lines<'a>(form: &FilterForm, height: usize, width: usize, theme: &Theme) -> Vec<Line<'a>> {
    let offset = form.selected.saturating_sub(height.saturating_sub(1));
    let name_width = form
        .schema
        .iter()
        .map(|f| f.name.width())
        .max()
        .unwrap_or(0)
        + 1;
    // The type column is as wide as its widest word, the value takes the rest.
    const HINT_WIDTH: usize = 7;
    let value_width = width.saturating_sub(name_width + HINT_WIDTH).max(4);
    let mut lines = Vec::new();
    for row in offset..(offset + height).min(form.rows()) {
        let selected = row == form.selected;
        let style = if selected {
            theme.selected()
        } else {
            Style::new()
        };
        let line = if row < form.schema.len() {
            field_line(form, row, style, (name_width, value_width), theme)
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
    lines
}

/// The field of `row`: its name, its value (the input while it is
/// edited) and the kind of value it takes, in `widths` (name, value).
fn field_line<'a>(
    form: &FilterForm,
    row: usize,
    style: Style,
    (name_width, value_width): (usize, usize),
    theme: &Theme,
) -> Line<'a> {
    let field = &form.schema[row];
    let hint = match field.kind {
        FieldKind::Strings => "list",
        FieldKind::Enums(_) => "values",
        FieldKind::Enum(_) => "value",
        // Space cycles it: any, true, false.
        FieldKind::Bool => "toggle",
        FieldKind::Time => "time",
        FieldKind::Text => "text",
    };
    let value = match (&form.values[row], &form.editing) {
        (_, Some(input)) if row == form.selected => format!("{}▏", safe(input.value())),
        (FieldValue::Text(t), _) => safe(t),
        (FieldValue::Tri(None), _) => "any".into(),
        (FieldValue::Tri(Some(b)), _) => b.to_string(),
    };
    Line::from(vec![
        Span::styled(format!("{:<name_width$}", field.name), style),
        Span::styled(fit(&value, value_width), style),
        Span::styled(format!(" {hint}"), theme.dim()),
    ])
}

/// The line under the rows: the error, else what Tab would complete, else
/// the values the selected field takes or how many are known.
fn help_line<'a>(form: &FilterForm, theme: &Theme) -> Option<Line<'a>> {
    let candidates = form.candidates();
    if let Some(err) = &form.error {
        return Some(Line::from(Span::styled(safe(err), theme.error())));
    }
    let text = if form.is_editing() && !candidates.is_empty() {
        // What Tab would give, as far as a line shows.
        let shown: Vec<String> = candidates.iter().take(12).map(|c| safe(c)).collect();
        let more = candidates.len().saturating_sub(shown.len());
        let more = if more > 0 {
            format!(" +{more}")
        } else {
            String::new()
        };
        format!("Tab: {}{more}", shown.join(", "))
    } else if let Some(values) = form.schema.get(form.selected).and_then(|f| match f.kind {
        FieldKind::Enums(names) | FieldKind::Enum(names) => Some(names()),
        _ => None,
    }) {
        // What the selected field takes, as one types it.
        let typed = findings_requests::filter_spec::typed_names(&values).join(", ");
        format!("one of: {typed}")
    } else if !candidates.is_empty()
        && form
            .schema
            .get(form.selected)
            .is_some_and(|f| matches!(f.kind, FieldKind::Strings | FieldKind::Text))
    {
        format!(
            "{} known values (e.g. {}); Tab completes while editing",
            candidates.len(),
            safe(&candidates[0])
        )
    } else {
        return None;
    };
    Some(Line::from(Span::styled(text, theme.dim())))
}
