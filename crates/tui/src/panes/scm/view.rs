//! The SCM config form: the draft on the left (or on top), and on the
//! right (or below) the config as it is, the review of the changes and of
//! the exact body, the answer, or the error. The access token is never
//! drawn: the form shows only whether one is set.

use super::config_view::{Lines, config_lines, label_cell, label_width, text};
use super::{Row, ScmPane, Step};
use crate::keymap::{Action, Context};
use crate::pane::ViewCx;
use crate::theme::Theme;
use crate::widgets::common::{heading, safe, spinner};
use findings_model::{ScmConfigResponse, ScmValue};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

/// Bodies at least this wide show the form and the panel side by side.
const SIDE_BY_SIDE: u16 = 100;
const FORM_WIDTH: u16 = 56;
/// The form's rows, its note line and its borders.
// A table of a few rows: the cast cannot lose (a const, so no try_from).
#[allow(clippy::cast_possible_truncation)]
const FORM_HEIGHT: u16 = Row::ALL.len() as u16 + 3;
/// What the token shows as, set or being typed.
const MASK: &str = "••••";

pub fn draw(f: &mut Frame, area: Rect, pane: &ScmPane, v: &ViewCx) {
    let on_panel = matches!(pane.step, Step::Review | Step::Sending);
    let (form_area, panel_area) = if area.width >= SIDE_BY_SIDE {
        let [left, panel] =
            Layout::horizontal([Constraint::Length(FORM_WIDTH), Constraint::Min(0)]).areas(area);
        let [form, below] =
            Layout::vertical([Constraint::Length(FORM_HEIGHT), Constraint::Min(0)]).areas(left);
        // Under the form, what the last PATCH sent (the panel shows its answer).
        let last_sent = pane.attempt.is_some() && !on_panel && pane.failure.is_none();
        if last_sent && below.height >= 4 {
            draw_last_sent(f, below, pane, v);
        }
        (Some(form), Some(panel))
    } else if on_panel {
        // Narrow: the review takes the whole pane (the form waits behind).
        (None, Some(area))
    } else if area.height >= FORM_HEIGHT + 5 {
        let [form, panel] =
            Layout::vertical([Constraint::Length(FORM_HEIGHT), Constraint::Min(0)]).areas(area);
        (Some(form), Some(panel))
    } else if matches!(pane.step, Step::Sent | Step::Failed) {
        // Too short for both: the outcome first; any edit brings the form back.
        (None, Some(area))
    } else {
        (Some(area), None)
    };
    if let Some(area) = form_area {
        draw_form(f, area, pane, v);
    }
    if let Some(area) = panel_area {
        draw_panel(f, area, pane, v);
    }
}

fn draw_form(f: &mut Frame, area: Rect, pane: &ScmPane, v: &ViewCx) {
    let theme = v.theme;
    let interactive = !matches!(pane.step, Step::Review | Step::Sending);
    let block = form_block(pane, v, interactive);
    let inner = block.inner(area);
    f.render_widget(block, area);
    if inner.width == 0 || inner.height == 0 {
        return;
    }

    // Keep the selected row in view when the form is cut short.
    let rows_height = (inner.height as usize).saturating_sub(1).max(1);
    let offset = pane.selected.saturating_sub(rows_height.saturating_sub(1));
    let label_w = label_width(inner.width as usize);
    let value_width = (inner.width as usize).saturating_sub(label_w).max(1);
    let mut lines: Lines = Vec::new();
    let mut cursor = None;
    for (i, row) in Row::ALL.iter().enumerate().skip(offset).take(rows_height) {
        let selected = interactive && i == pane.selected;
        let base = if selected {
            theme.selected()
        } else if interactive {
            Style::new()
        } else {
            theme.dim()
        };
        if *row == Row::Review {
            let style = if interactive {
                base.patch(theme.key())
            } else {
                base
            };
            lines.push(Line::from(Span::styled(row.label(), style)));
            continue;
        }
        let editing = if selected {
            pane.editing.as_ref()
        } else {
            None
        };
        let (value, style) = match (editing, row) {
            (Some(_), Row::AccessToken) => (format!("{MASK} (typing, hidden)"), theme.accent()),
            (Some(input), _) => {
                let scroll = input.visual_scroll(value_width.saturating_sub(1));
                let shown: String = input.value().chars().skip(scroll).collect();
                let x = inner.x as usize + label_w + input.visual_cursor().saturating_sub(scroll);
                let y = inner.y as usize + (i - offset);
                cursor = Some((
                    crate::layout::cells(x.min(inner.right().saturating_sub(1) as usize)),
                    crate::layout::cells(y),
                ));
                (safe(&shown), Style::new())
            }
            (None, row) => value_of(pane, *row, theme),
        };
        let style = if interactive { style } else { theme.dim() };
        lines.push(Line::from(vec![
            Span::styled(label_cell(row.label(), label_w), base),
            Span::styled(value, if selected { base } else { style }),
        ]));
    }
    let (note, style) = form_note(pane, interactive, theme);
    lines.push(Line::from(Span::styled(note, style)));
    f.render_widget(Paragraph::new(lines), inner);
    if let Some(pos) = cursor
        && pos.1 < inner.bottom()
    {
        f.set_cursor_position(pos);
    }
}

/// The form's frame: which config, READ-ONLY when so, and the keys while
/// it can be edited.
fn form_block(pane: &ScmPane, v: &ViewCx, interactive: bool) -> Block<'static> {
    let theme = v.theme;
    let name = if pane.draft.config_id.is_empty() {
        " SCM config draft ".to_owned()
    } else {
        format!(" SCM config {} ", safe(&pane.draft.config_id))
    };
    let mut title = vec![Span::styled(name, theme.title())];
    if pane.read_only {
        title.push(Span::styled(" READ-ONLY ", theme.badge()));
        title.push(Span::raw(" "));
    }
    let mut block = Block::default()
        .borders(Borders::ALL)
        .title(Line::from(title));
    if interactive {
        let key = |action| v.key(super::KEYS, action);
        block = block.title_bottom(format!(
            " {} edit · {} flip · {} review · {} list ",
            key(Action::Submit),
            key(Action::Toggle),
            key(Action::Review),
            key(Action::Back)
        ));
    }
    block
}

/// The note line under the rows: the problem, or what the keys do now.
fn form_note(pane: &ScmPane, interactive: bool, theme: &Theme) -> (String, Style) {
    if let Some(problem) = &pane.problem {
        (safe(problem), theme.error())
    } else if pane.editing.is_some() {
        let what = if pane.selected_row() == Row::AccessToken {
            "never shown · "
        } else {
            ""
        };
        (format!("{what}Enter keep · Esc discard"), theme.dim())
    } else if interactive {
        let n = pane.draft.changes();
        let text = match n {
            0 => "nothing changed yet: only changed fields are sent".to_owned(),
            1 => "1 field to send; the others are not sent".to_owned(),
            n => format!("{n} fields to send; the others are not sent"),
        };
        (text, theme.dim())
    } else {
        let keys = if pane.read_only {
            "on review (read-only): n back"
        } else {
            "on review: y send · n back"
        };
        (keys.to_owned(), theme.dim())
    }
}

/// A row's value as shown when it is not being edited: the config's value
/// when known (plain), a change as `new (now old)` (accent).
fn value_of(pane: &ScmPane, row: Row, theme: &Theme) -> (String, Style) {
    let draft = &pane.draft;
    let now = draft.current(row);
    let was = |now: &Option<ScmValue>| {
        now.as_ref()
            .map_or(String::new(), |v| format!("  (now {})", shown(v)))
    };
    match row {
        Row::ConfigId if draft.config_id.is_empty() => ("(required)".into(), theme.error()),
        Row::ConfigId if draft.base.is_none() => (
            format!("{} (values not known)", safe(&draft.config_id)),
            theme.accent(),
        ),
        Row::ConfigId => (safe(&draft.config_id), theme.accent()),
        Row::Namespace => match (&draft.namespace, &now) {
            (Some(n), _) if n.trim().is_empty() => ("(blank)".into(), theme.error()),
            (Some(n), _) => (format!("{}{}", safe(n), was(&now)), theme.accent()),
            (None, Some(v)) => (shown(v), Style::new()),
            (None, None) => ("unchanged".into(), theme.dim()),
        },
        Row::AccessToken if draft.has_token() => (format!("{MASK} (set)"), theme.accent()),
        Row::AccessToken => match draft.base.as_ref().and_then(|b| b.has_access_token) {
            Some(true) => ("present (unchanged)".into(), theme.dim()),
            Some(false) => ("none (unchanged)".into(), theme.dim()),
            None => ("unchanged".into(), theme.dim()),
        },
        _ => match (draft.toggle(row), &now) {
            (Some(Some(v)), _) => {
                let style = if v { theme.ok() } else { theme.removed() };
                (format!("{}{}", ScmValue::Switch(v), was(&now)), style)
            }
            (_, Some(v)) => (shown(v), Style::new()),
            _ => ("unchanged".into(), theme.dim()),
        },
    }
}

/// A value as the form and the review show it (text made safe).
fn shown(v: &ScmValue) -> String {
    match v {
        ScmValue::Text(t) => safe(t),
        other => other.to_string(),
    }
}

fn draw_panel(f: &mut Frame, area: Rect, pane: &ScmPane, v: &ViewCx) {
    let theme = v.theme;
    // Inside the borders.
    let width = (area.width as usize).saturating_sub(2).max(1);
    let (title, lines, title_style) = match pane.step {
        Step::Review | Step::Sending => (
            if pane.step == Step::Sending {
                " Sending "
            } else {
                " Review: nothing is sent until you confirm "
            },
            review_lines(pane, v, width),
            theme.title(),
        ),
        _ if pane.failure.is_some() => (
            " Update failed ",
            failure_lines(pane, v, width),
            theme.error(),
        ),
        _ => match (&pane.returned, &pane.draft.base) {
            (Some(response), _) => (
                " Returned config ",
                returned_lines(pane, response, theme, width),
                if pane.mismatches.is_empty() {
                    theme.title()
                } else {
                    theme.error()
                },
            ),
            (None, Some(config)) => {
                let mut lines = Vec::new();
                config_lines(&mut lines, config, theme, width);
                (" Current config ", lines, theme.title())
            }
            (None, None) => (" SCM config ", intro_lines(pane, v, width), theme.title()),
        },
    };
    let block = Block::default().borders(Borders::ALL).title(Span::styled(
        crate::widgets::common::fit_title(title, area.width),
        title_style,
    ));
    let inner = block.inner(area);
    let max = lines.len().saturating_sub(inner.height as usize);
    // Update bounds scrolling by what was drawn.
    pane.panel_max_scroll.set(Some(crate::layout::cells(max)));
    let scroll = (pane.scroll as usize).min(max);
    let block = if max > 0 {
        let below = max - scroll;
        let (up, down) = (
            v.key(super::KEYS, Action::PageUp),
            v.key(super::KEYS, Action::PageDown),
        );
        let note = match (scroll > 0, below > 0) {
            (true, true) => format!(" {up}/{down} · {below} more lines "),
            (false, _) => format!(" {down} · {below} more lines "),
            (true, false) => format!(" {up} · end "),
        };
        block.title_bottom(Span::styled(note, theme.dim()))
    } else {
        block
    };
    f.render_widget(
        Paragraph::new(lines)
            .block(block)
            .scroll((crate::layout::cells(scroll), 0)),
        area,
    );
}

fn draw_last_sent(f: &mut Frame, area: Rect, pane: &ScmPane, v: &ViewCx) {
    let width = (area.width as usize).saturating_sub(2).max(1);
    let mut lines = Vec::new();
    request_lines(&mut lines, pane, v, width);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(Span::styled(" Last sent ", v.theme.title()));
    f.render_widget(Paragraph::new(lines).block(block), area);
}

/// The request line and the body exactly as sent (token masked).
fn request_lines(lines: &mut Lines, pane: &ScmPane, v: &ViewCx, width: usize) {
    let Some(request) = pane.shown_request() else {
        return;
    };
    let deployment = v.deployment;
    text(
        lines,
        &request.request_line(deployment),
        width,
        v.theme.accent(),
    );
    for line in request.shown_body(deployment).lines() {
        text(lines, line, width, Style::new());
    }
}

fn review_lines(pane: &ScmPane, v: &ViewCx, width: usize) -> Lines {
    let theme = v.theme;
    let mut lines = Vec::new();
    if pane.read_only {
        lines.push(Line::from(vec![
            Span::styled(" READ-ONLY ", theme.badge()),
            Span::styled(" sending is disabled", theme.error()),
        ]));
        text(
            &mut lines,
            &format!(
                "--read-only is set: this update cannot be sent. {} goes back to the form.",
                v.keys(Context::REVIEW, Action::Back)
            ),
            width,
            theme.dim(),
        );
        lines.push(Line::default());
    }
    if pane.step == Step::Sending {
        text(
            &mut lines,
            &format!(
                "{} sending… the PATCH goes out once and is never retried; wait for the answer",
                spinner(v.spinner)
            ),
            width,
            theme.accent(),
        );
        lines.push(Line::default());
    }
    if let Some(request) = pane.shown_request() {
        lines.push(heading(theme, "Changes"));
        for change in request.changes() {
            text(&mut lines, &format!("  {change}"), width, theme.accent());
        }
        lines.push(Line::default());
        lines.push(heading(theme, "The exact request"));
    }
    request_lines(&mut lines, pane, v, width);
    lines.push(Line::default());
    let has_token = pane
        .shown_request()
        .is_some_and(|r| r.patch.access_token.is_some());
    if has_token {
        text(
            &mut lines,
            "accessToken is shown as ***; the token you typed is what is sent.",
            width,
            theme.dim(),
        );
    }
    text(
        &mut lines,
        "A partial update: only these fields change; everything else stays as it is.",
        width,
        theme.dim(),
    );
    if pane.step == Step::Review {
        let back = v.keys(Context::REVIEW, Action::Back);
        let keys = if pane.read_only {
            format!("{back} back to the form (the draft is kept)")
        } else {
            format!(
                "{} send · {back} back to the form (the draft is kept)",
                v.keys(Context::REVIEW, Action::Confirm)
            )
        };
        lines.push(Line::default());
        text(&mut lines, &keys, width, theme.key());
    }
    lines
}

fn failure_lines(pane: &ScmPane, v: &ViewCx, width: usize) -> Lines {
    let theme = v.theme;
    let mut lines = Vec::new();
    let Some(failure) = &pane.failure else {
        return lines;
    };
    text(&mut lines, &failure.message, width, theme.error());
    if let Some(note) = failure.note {
        lines.push(Line::default());
        text(&mut lines, note, width, theme.accent());
    }
    lines.push(Line::default());
    let review = v.key(super::KEYS, Action::Review);
    let kept = if pane.draft.has_token() {
        format!(
            "The whole draft is kept, the access token included (still hidden). Change it if needed and press {review} to review and send again."
        )
    } else {
        format!(
            "The whole draft is kept. Change it if needed and press {review} to review and send again."
        )
    };
    text(&mut lines, &kept, width, theme.dim());
    if pane.attempt.is_some() {
        lines.push(Line::default());
        lines.push(heading(theme, "What was sent"));
        request_lines(&mut lines, pane, v, width);
    }
    lines
}

fn returned_lines(
    pane: &ScmPane,
    response: &ScmConfigResponse,
    theme: &Theme,
    width: usize,
) -> Lines {
    let mut lines = Vec::new();
    if !pane.mismatches.is_empty() {
        text(
            &mut lines,
            "The server answered, but not as asked:",
            width,
            theme.error(),
        );
        for m in &pane.mismatches {
            text(&mut lines, &format!("  {m}"), width, theme.error());
        }
        lines.push(Line::default());
    }
    match &response.config {
        Some(config) => config_lines(&mut lines, config, theme, width),
        None => text(
            &mut lines,
            "The update was accepted; the server returned no config.",
            width,
            theme.dim(),
        ),
    }
    lines
}

fn intro_lines(pane: &ScmPane, v: &ViewCx, width: usize) -> Lines {
    let theme = v.theme;
    let mut lines = Vec::new();
    lines.push(heading(theme, "Update an SCM config by its id"));
    let key = |action| v.key(super::KEYS, action);
    let edits = format!(
        "{} edits a text field (Enter keeps, Esc discards) or toggles; {} cycles unchanged → on → off; {} resets a field; `:scm ID` or the config id row opens another config (this draft stays with its own); {} goes back to the list.",
        key(Action::Submit),
        key(Action::Toggle),
        key(Action::ClearField),
        key(Action::Back)
    );
    let sends = format!(
        "{} (or {} on [ Review ]) shows the exact body first; only {} there sends the PATCH, once, never retried.",
        key(Action::Review),
        key(Action::Submit),
        v.keys(Context::REVIEW, Action::Confirm)
    );
    for (s, style) in [
        (
            "This config's current values are not known (it is not in the list, or the list could not be had): each field shows \"unchanged\" until you set it, and only the fields you change are sent (a partial update).",
            Style::new(),
        ),
        ("", Style::new()),
        (edits.as_str(), theme.dim()),
        ("", Style::new()),
        (
            "The access token is never shown: the form only says whether one is set.",
            theme.dim(),
        ),
        ("", Style::new()),
        (sends.as_str(), theme.dim()),
    ] {
        text(&mut lines, s, width, style);
    }
    if pane.read_only {
        lines.push(Line::default());
        lines.push(Line::from(vec![
            Span::styled(" READ-ONLY ", theme.badge()),
            Span::styled(" --read-only is set: nothing can be sent", theme.error()),
        ]));
    }
    lines
}

/// The SCM pane's part of the status line: the step and what the keys do.
/// Never the token.
pub fn status(pane: &ScmPane, v: &ViewCx) -> String {
    let mut parts = vec![format!("SCM {}", pane.step.label())];
    if pane.read_only {
        parts.push("READ-ONLY: sending disabled".into());
    }
    let back = v.keys(Context::REVIEW, Action::Back);
    match pane.step {
        Step::Review if pane.read_only => parts.push(format!("{back} back")),
        Step::Review => parts.push(format!(
            "{} send · {back} back",
            v.keys(Context::REVIEW, Action::Confirm)
        )),
        Step::Sending => parts.push("waiting for the answer (never retried)".into()),
        Step::Editing | Step::Sent | Step::Failed => {
            if let Some(note) = pane.failure.as_ref().and_then(|f| f.note)
                && note.starts_with("outcome unknown")
            {
                parts.push("outcome unknown (draft kept)".into());
            } else if pane.failure.is_some() {
                parts.push("draft kept".into());
            }
            if pane.editing.is_some() {
                parts.push(format!(
                    "editing {} · Enter keep · Esc discard",
                    pane.selected_row().label()
                ));
            } else {
                let id = &pane.draft.config_id;
                parts.push(if id.is_empty() {
                    "no config id".into()
                } else {
                    format!("config {}", safe(id))
                });
                parts.push(format!("{} changed", pane.draft.changes()));
                if !pane.mismatches.is_empty() {
                    parts.push("not applied as asked".into());
                }
                let key = |action| v.key(super::KEYS, action);
                parts.push(format!(
                    "{}/{} move · {} edit · {} flip · {} review · {} list",
                    key(Action::NextField),
                    key(Action::PrevField),
                    key(Action::Submit),
                    key(Action::Toggle),
                    key(Action::Review),
                    key(Action::Back)
                ));
            }
        }
    }
    parts.join(" · ")
}
