//! Draws the triage dialog, its review (the exact requests) and the
//! second confirmation. Server text (titles, paths) and the note are made
//! terminal-safe here; the note is sent as typed.

use super::plan::{Count, Reviewed, Scope};
use super::{Draft, Field, Step, Triage};
use crate::tui::layout;
use crate::tui::theme::Theme;
use crate::tui::widgets::common::{safe, wrap};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

/// The most targets the review lists one by one.
const LISTED: usize = 8;

pub fn draw(f: &mut Frame, body: Rect, triage: &Triage, theme: &Theme) {
    let Some(draft) = &triage.draft else { return };
    let width = body.width.saturating_sub(4).clamp(20, 90);
    let popup = layout::centered(body, width, body.height);
    let inner = popup.width.saturating_sub(2) as usize;
    let (title, lines, hint) = match triage.step {
        Step::Hidden => return,
        Step::Editing => (" Triage ", dialog(draft, inner, theme), dialog_hint(draft)),
        Step::Review => (
            " Review: only y sends ",
            review(draft, triage, inner, theme),
            if draft.undo.is_some() {
                " y send · Esc cancel the undo · j/k scroll "
            } else {
                " y send · Esc back (kept) · j/k scroll "
            },
        ),
        Step::ConfirmAgain => (
            " Confirm again ",
            confirm_again(draft, theme),
            " y send · Esc back ",
        ),
        Step::Sending => (
            " Sending ",
            vec![Line::from(
                "Sending the triage… (one request at a time, never retried)",
            )],
            " Esc hide (it goes on) ",
        ),
    };
    // As tall as it needs, up to the body.
    let height = (lines.len() as u16 + 2).min(body.height);
    let popup = layout::centered(body, width, height);
    let scroll = if triage.step == Step::Review {
        let max = (lines.len() as u16).saturating_sub(height.saturating_sub(2));
        triage.scroll.min(max)
    } else {
        0
    };
    f.render_widget(Clear, popup);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(Span::styled(title, theme.title()))
        .title_bottom(hint);
    f.render_widget(
        Paragraph::new(lines).block(block).scroll((scroll, 0)),
        popup,
    );
}

fn dialog_hint(draft: &Draft) -> &'static str {
    match draft.focus {
        Field::Note => {
            " type the note · Enter new line · Tab next · Ctrl-S review · Esc close (kept) "
        }
        _ => " ←/→ choose · Tab/j/k next · Enter review · Esc close (kept) ",
    }
}

/// "3 findings", "everything the Issues filter matches (412)".
fn scope_line(draft: &Draft) -> String {
    let kind = draft.kind();
    match &draft.scope {
        Scope::Ids(targets) if targets.len() == 1 => {
            format!("{} {}", kind.noun(1), safe(&targets[0].id))
        }
        Scope::Ids(targets) => format!("{} {}", targets.len(), kind.noun(targets.len())),
        Scope::Filter { count, .. } => {
            let n = match count {
                Count::Counting(_) => "counting…".to_owned(),
                Count::Counted(n, true) => n.to_string(),
                Count::Counted(n, false) => format!("at least {n}"),
                Count::Failed(why) => format!("could not be counted: {}", safe(why)),
            };
            format!("every finding the Issues filter matches ({n})")
        }
    }
}

fn choice_line<'a>(label: &str, value: String, focused: bool, theme: &Theme) -> Line<'a> {
    let style = if focused {
        theme.selected()
    } else {
        Style::default()
    };
    Line::from(vec![
        Span::styled(format!("{label:<8}"), theme.dim()),
        Span::styled(format!("‹ {value} ›"), style),
    ])
}

fn dialog<'a>(draft: &Draft, width: usize, theme: &Theme) -> Vec<Line<'a>> {
    let mut lines = vec![Line::from(format!("Triage {}", scope_line(draft)))];
    lines.extend(targets(draft, width, theme));
    lines.push(Line::default());
    lines.push(choice_line(
        "State",
        draft.state_name().1.to_owned(),
        draft.focus == Field::State,
        theme,
    ));
    if draft.takes_reason() {
        let reason = draft.reason_name().map_or("no reason", |r| r.1);
        lines.push(choice_line(
            "Reason",
            reason.to_owned(),
            draft.focus == Field::Reason,
            theme,
        ));
    }
    if draft.kind().takes_note() {
        let style = if draft.focus == Field::Note {
            theme.selected()
        } else {
            Style::default()
        };
        lines.push(Line::from(Span::styled("Note", theme.dim())));
        let shown = if draft.note.is_empty() && draft.focus != Field::Note {
            vec!["(none)".to_owned()]
        } else {
            note_lines(&draft.note, width.saturating_sub(2))
        };
        let last = shown.len() - 1;
        for (i, line) in shown.into_iter().enumerate() {
            let cursor = if i == last && draft.focus == Field::Note {
                "▏"
            } else {
                ""
            };
            lines.push(Line::from(Span::styled(format!("  {line}{cursor}"), style)));
        }
    }
    lines.extend(warnings(draft, width, theme));
    if let Some(problem) = draft.problem() {
        lines.push(Line::from(Span::styled(safe(&problem), theme.error())));
    }
    lines
}

/// The note as it wraps; every line terminal-safe.
fn note_lines(note: &str, width: usize) -> Vec<String> {
    let mut out = Vec::new();
    for line in note.split('\n') {
        let line = safe(line);
        if line.is_empty() {
            out.push(String::new());
        } else {
            out.extend(wrap(&line, width.max(10)));
        }
    }
    out
}

/// The first few targets, one line each.
fn targets<'a>(draft: &Draft, width: usize, theme: &Theme) -> Vec<Line<'a>> {
    let Scope::Ids(targets) = &draft.scope else {
        return Vec::new();
    };
    let mut lines: Vec<Line> = targets
        .iter()
        .take(LISTED)
        .map(|t| {
            let text = format!("  {}  {}", safe(&t.id), safe(&t.label));
            Line::from(Span::styled(
                crate::text::truncate(&text, width).into_owned(),
                theme.dim(),
            ))
        })
        .collect();
    if targets.len() > LISTED {
        lines.push(Line::from(Span::styled(
            format!("  … and {} more", targets.len() - LISTED),
            theme.dim(),
        )));
    }
    lines
}

/// What the service will do differently from what is asked (wrapped to
/// `width`).
fn warnings<'a>(draft: &Draft, width: usize, theme: &Theme) -> Vec<Line<'a>> {
    let (none, request) = draft.permission_counts();
    let mut said = Vec::new();
    if request > 0 {
        said.push(format!(
            "! {request} may only request an exception: the service makes an exception request instead of ignoring"
        ));
    }
    if none > 0 {
        said.push(format!(
            "! {none} cannot be triaged (no triage permission): the service skips them"
        ));
    }
    said.iter()
        .flat_map(|text| wrap(text, width.max(10)))
        .map(|line| Line::from(Span::styled(line, theme.accent())))
        .collect()
}

fn review<'a>(draft: &Draft, triage: &Triage, width: usize, theme: &Theme) -> Vec<Line<'a>> {
    let what = match &draft.undo {
        Some(_) => "Undo the last triage of".to_owned(),
        None => format!(
            "Triage → {}:",
            draft.decision().map(|d| d.describe()).unwrap_or_default()
        ),
    };
    let mut lines = vec![Line::from(Span::styled(
        format!("{what} {}", scope_line(draft)),
        theme.title(),
    ))];
    lines.extend(targets(draft, width, theme));
    lines.extend(warnings(draft, width, theme));
    for Reviewed { batch, body } in &triage.reviewed {
        lines.push(Line::default());
        if draft.undo.is_some() {
            lines.push(Line::from(Span::styled(
                safe(&batch.heading),
                theme.accent(),
            )));
        }
        lines.push(Line::from(Span::styled(
            safe(&batch.line(&triage.deployment)),
            theme.key(),
        )));
        // Long lines (a note) wrap: the whole body is seen, never cut.
        for line in body.lines() {
            let indent = line.len() - line.trim_start().len();
            let wrapped = wrap(&safe(line), width.saturating_sub(indent + 2).max(10));
            for (k, part) in wrapped.into_iter().enumerate() {
                let pad = if k == 0 { 0 } else { indent + 2 };
                lines.push(Line::from(format!("{:pad$}{part}", "")));
            }
        }
    }
    lines
}

fn confirm_again<'a>(draft: &Draft, theme: &Theme) -> Vec<Line<'a>> {
    vec![
        Line::from(Span::styled(
            format!("This changes {}.", scope_line(draft)),
            theme.error(),
        )),
        Line::from("Press y once more to send, Esc to go back."),
    ]
}
