//! What the triage dialog, its review (the exact requests), the second
//! confirmation and the session's history show, as lines: read by the view
//! to draw them and by update to know a review's end. Server text (titles, paths)
//! and the note are made terminal-safe here; the note is sent as typed.

use super::plan::{Matched, Reviewed, Scope, id_list};
use super::{Draft, Field, Step, Triage};
use crate::layout;
use crate::theme::Theme;
use crate::widgets::common::{safe, wrap};
use crate::widgets::dialog::Dialog;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// The most targets the review lists one by one.
const LISTED: usize = 8;

/// What the dialog shows now, and how wide it is: a function of the state
/// and the body, read by the view to draw it and by update to know where
/// a review's end is.
pub fn shown<'a>(body: Rect, triage: &'a Triage, theme: &Theme) -> Option<(u16, Dialog<'a>)> {
    let width = body.width.saturating_sub(4).clamp(20, 90);
    let popup = layout::centered(body, width, body.height);
    let inner = popup.width.saturating_sub(2) as usize;
    let (title, lines, hint) = match (triage.step, &triage.draft) {
        (Step::Hidden, _) => return None,
        (Step::History, _) => (
            " Triages of this session ",
            history(triage, inner, theme),
            " u undo the newest (reviewed first) · Esc close · j/k g/G scroll ",
        ),
        (_, None) => return None,
        (Step::Editing, Some(draft)) => (
            " Triage ",
            dialog(draft, triage, inner, theme),
            dialog_hint(draft),
        ),
        (Step::Review, Some(draft)) => (
            " Review: only y sends ",
            review(draft, triage, inner, theme),
            if draft.undo.is_some() {
                " y send · Esc cancel the undo · j/k g/G scroll · Enter every id "
            } else {
                " y send · Esc back (kept) · j/k g/G scroll · Enter every id "
            },
        ),
        (Step::ConfirmAgain, Some(draft)) => (
            " Confirm again ",
            confirm_again(draft, triage, theme),
            " y send · Esc back ",
        ),
        (Step::Sending, Some(_)) => (
            " Sending ",
            vec![Line::from(
                "Sending the triage… (one request at a time, never retried)",
            )],
            " Esc hide (it goes on) ",
        ),
    };
    let mut lines = lines;
    if let (Some(why), Step::Editing | Step::Review | Step::ConfirmAgain) =
        (triage.read_only, triage.step)
    {
        let said = format!("{why}: y will not send this triage");
        lines.splice(0..0, [Line::styled(said, theme.error()), Line::raw("")]);
    }
    let scroll = matches!(triage.step, Step::Review | Step::History).then_some(triage.scroll);
    let dialog = Dialog {
        title: title.to_owned(),
        lines,
        hint,
        scroll,
    };
    Some((width, dialog))
}

fn dialog_hint(draft: &Draft) -> &'static str {
    // What sends and what closes first: a narrow dialog keeps the first
    // parts whole (`widgets::common::fit_hint`).
    match draft.focus {
        Field::Until => {
            " Enter review · type 30d or 2026-12-25 (empty: never) · Esc close (kept) · Tab next "
        }
        Field::Note => " Ctrl-S review · Esc close (kept) · Tab next · Enter new line ",
        Field::Notes => {
            " Enter review · Esc close (kept) · ←/→ keep or replace their notes · Tab next "
        }
        _ => " Enter review · Esc close (kept) · ←/→ choose · Tab/j/k next ",
    }
}

/// "3 findings", "every finding the Issues filter matches (412)".
fn scope_line(draft: &Draft) -> String {
    let kind = draft.kind();
    match &draft.scope {
        Scope::Ids(targets) if targets.len() == 1 => {
            format!("{} {}", kind.noun(1), safe(&targets[0].id))
        }
        Scope::Ids(targets) => format!("{} {}", targets.len(), kind.noun(targets.len())),
        Scope::Filter { matched, .. } => {
            let n = match matched {
                Matched::Listing(_) => "listing them…".to_owned(),
                Matched::Listed(targets, true) => targets.len().to_string(),
                Matched::Listed(targets, false) => format!("more than {}", targets.len()),
                Matched::Failed(why) => format!("could not be listed: {}", safe(why)),
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

fn dialog<'a>(draft: &Draft, triage: &Triage, width: usize, theme: &Theme) -> Vec<Line<'a>> {
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
    if draft.takes_until() {
        lines.push(until_line(draft, theme));
    }
    if draft.kind().takes_note() {
        let style = if draft.focus == Field::Note {
            theme.selected()
        } else {
            Style::default()
        };
        lines.push(Line::from(Span::styled("Note", theme.dim())));
        let shown = if draft.note.is_empty() && draft.focus != Field::Note {
            vec![if draft.offers_notes() {
                "(none typed)".to_owned()
            } else {
                match (&draft.fresh, draft.with_notes) {
                    (_, Some((0, _))) => "(none)".to_owned(),
                    (super::plan::Check::Reading(_), _) => "(reading its note…)".to_owned(),
                    (super::plan::Check::Failed(_), _) => {
                        "(its note could not be read: it keeps it)".to_owned()
                    }
                    _ => "(none)".to_owned(),
                }
            }]
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
        if draft.offers_notes() {
            lines.push(choice_line(
                "Notes",
                notes_choice(draft),
                draft.focus == Field::Notes,
                theme,
            ));
            lines.extend(
                typed_note_goes_to(draft)
                    .iter()
                    .flat_map(|text| wrap(text, width.max(10)))
                    .map(|line| Line::from(Span::styled(line, theme.dim()))),
            );
        }
    }
    lines.extend(warnings(draft, width, theme));
    if let Some(problem) = draft.problem() {
        lines.push(Line::from(Span::styled(safe(&problem), theme.error())));
    }
    lines.extend(kept_elsewhere(triage, width, theme));
    lines
}

/// What the triage does to the notes the findings have, and how many.
fn notes_choice(draft: &Draft) -> String {
    let have = match draft.with_notes {
        Some((have, of)) => format!("{have} of {of} have one"),
        None => match &draft.scope {
            Scope::Filter { .. } => "counted once listed".to_owned(),
            _ => "reading them…".to_owned(),
        },
    };
    match draft.notes {
        findings_requests::triage::setting::Notes::Keep => format!("each keeps its own ({have})"),
        findings_requests::triage::setting::Notes::Replace => {
            if draft.note.trim().is_empty() {
                format!("remove them all ({have})")
            } else {
                format!("replace them all with the note typed ({have})")
            }
        }
    }
}

/// Under "each keeps its own", what the note typed does: it goes to the
/// findings without one (else nothing is said).
fn typed_note_goes_to(draft: &Draft) -> Option<String> {
    let keep = draft.notes == findings_requests::triage::setting::Notes::Keep;
    if !keep || draft.note.trim().is_empty() {
        return None;
    }
    Some(match draft.with_notes {
        Some((have, of)) => {
            let without = of.saturating_sub(have);
            let findings = if without == 1 { "finding" } else { "findings" };
            format!(
                "  the note typed goes to the {without} {findings} without one; the others keep theirs"
            )
        }
        None => "  the note typed goes to the findings without one; the others keep theirs".into(),
    })
}

/// The ignore's end as typed, and what it reads as.
fn until_line<'a>(draft: &Draft, theme: &Theme) -> Line<'a> {
    let focused = draft.focus == Field::Until;
    let style = if focused {
        theme.selected()
    } else {
        Style::default()
    };
    let typed = match (draft.until.is_empty(), focused) {
        (true, false) => "never".to_owned(),
        _ => format!("{}{}", safe(&draft.until), if focused { "▏" } else { "" }),
    };
    let read = match &draft.expires {
        Ok(Some(at)) => Span::styled(
            format!(
                "  expires {} (written into the note)",
                findings_requests::triage::expiry::shown(*at)
            ),
            theme.dim(),
        ),
        Ok(None) => Span::raw(""),
        Err(_) => Span::styled("  not a date or a span", theme.error()),
    };
    Line::from(vec![
        Span::styled(format!("{:<8}", "Until"), theme.dim()),
        Span::styled(typed, style),
        read,
    ])
}

/// The drafts kept for other findings, named: each stays with its own.
fn kept_elsewhere<'a>(triage: &Triage, width: usize, theme: &Theme) -> Vec<Line<'a>> {
    let named: Vec<String> = triage
        .kept
        .iter()
        .filter(|d| d.is_kept_work())
        .map(|d| d.scope.named())
        .collect();
    if named.is_empty() {
        return Vec::new();
    }
    let text = format!(
        "Also kept, unsent: the draft for {} (T there opens it)",
        named.join("; the draft for ")
    );
    let mut lines = vec![Line::default()];
    lines.extend(
        wrap(&text, width.max(10))
            .into_iter()
            .map(|l| Line::from(Span::styled(l, theme.dim()))),
    );
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
    let Some(targets) = draft.scope.targets() else {
        return Vec::new();
    };
    let mut lines: Vec<Line> = targets
        .iter()
        .take(LISTED)
        .map(|t| {
            let text = format!("  {}  {}", safe(&t.id), safe(&t.label));
            Line::from(Span::styled(
                findings_base::text::truncate(&text, width).into_owned(),
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

/// What the service will do differently from what is asked, by id
/// (wrapped to `width`).
fn warnings<'a>(draft: &Draft, width: usize, theme: &Theme) -> Vec<Line<'a>> {
    let apart = draft.set_apart();
    let mut said = Vec::new();
    let ids = |ids: &[&str]| safe(&id_list(ids.iter().copied(), 12));
    if !apart.exception.is_empty() {
        said.push(format!(
            "! exception request instead of the ignore (may only request one; states stay): {}",
            ids(&apart.exception)
        ));
    }
    if !apart.skipped.is_empty() {
        said.push(format!(
            "! skipped, left as they are (no triage permission): {}",
            ids(&apart.skipped)
        ));
    }
    if let Some(undo) = draft.undo.as_ref().filter(|u| !u.left.is_empty()) {
        let left: Vec<&str> = undo.left.iter().map(String::as_str).collect();
        said.push(format!(
            "! not put back, left as they are: {} (their earlier state cannot be set again: an ignore they may only request, or a state unknown here)",
            ids(&left)
        ));
    }
    said.iter()
        .flat_map(|text| wrap(text, width.max(10)))
        .map(|line| Line::from(Span::styled(line, theme.accent())))
        .collect()
}

fn review<'a>(draft: &Draft, triage: &Triage, width: usize, theme: &Theme) -> Vec<Line<'a>> {
    let what = match &draft.undo {
        Some(undo) => format!("Undo {}, back as they were:", undo.what),
        None => format!(
            "Triage → {}:",
            draft.decision().map(|d| d.describe()).unwrap_or_default()
        ),
    };
    let mut lines: Vec<Line> = wrap(&format!("{what} {}", scope_line(draft)), width.max(10))
        .into_iter()
        .map(|l| Line::from(Span::styled(l, theme.title())))
        .collect();
    lines.extend(targets(draft, width, theme));
    lines.extend(warnings(draft, width, theme));
    lines.extend(checked(triage, width, theme));
    let headed = draft.undo.is_some() || triage.plan.is_some();
    for Reviewed { batch, body } in &triage.reviewed {
        lines.push(Line::default());
        if headed {
            lines.push(Line::from(Span::styled(
                safe(&batch.heading),
                theme.accent(),
            )));
        }
        lines.push(Line::from(Span::styled(
            safe(&batch.line(&triage.deployment)),
            theme.key(),
        )));
        // Long lines (a note) wrap: the whole body is seen, never cut; a
        // long id list shows its count until Enter expands it.
        for line in body.lines() {
            let shown = crate::widgets::review_json::collapsed(line, triage.ids_expanded);
            let line = shown.as_deref().unwrap_or(line);
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

/// What the read before the review found, said before `y`: notes kept,
/// replaced or removed; findings changed by someone else since shown (left
/// out unless included); findings no longer answered; those already so.
fn checked<'a>(triage: &Triage, width: usize, theme: &Theme) -> Vec<Line<'a>> {
    use super::plan::Check;
    let said: Vec<(String, Style)> = match (&triage.check, &triage.plan) {
        (Check::Reading(_), _) => vec![(
            "Reading the findings again (their notes, and changes by anyone else)…".into(),
            theme.dim(),
        )],
        (Check::Failed(why), _) => vec![(
            format!(
                "! the findings could not be read again: {}; nothing will be sent",
                safe(why)
            ),
            theme.error(),
        )],
        (_, Some(plan)) => {
            let mut said = Vec::new();
            if !plan.meanwhile.is_empty() {
                let n = plan.meanwhile.len();
                let verb = if triage.include_changed {
                    "included (i leaves them out)"
                } else {
                    "left out (i includes them)"
                };
                said.push((
                    format!("! {n} changed by someone else since shown, {verb}:"),
                    theme.error(),
                ));
                for m in plan.meanwhile.iter().take(LISTED) {
                    said.push((
                        format!("  {}  {}", safe(&m.id), safe(&m.what)),
                        theme.error(),
                    ));
                }
                if n > LISTED {
                    said.push((format!("  … and {} more", n - LISTED), theme.error()));
                }
            }
            if !plan.gone.is_empty() {
                said.push((
                    format!(
                        "! no longer answered by the server, left out: {}",
                        safe(&id_list(plan.gone.iter().map(String::as_str), 12))
                    ),
                    theme.accent(),
                ));
            }
            if !plan.irreversible.is_empty() {
                said.push((
                    format!(
                        "! u cannot put {} back (their state before, unknown here or an ignore they may only request, cannot be set again): {}",
                        plan.irreversible.len(),
                        safe(&id_list(plan.irreversible.iter().map(String::as_str), 12))
                    ),
                    theme.accent(),
                ));
            }
            let notes = plan.notes_line();
            if !notes.is_empty() {
                said.push((format!("Notes: {}", safe(&notes)), theme.accent()));
            }
            if plan.unchanged > 0 {
                said.push((
                    format!(
                        "{} {} already so, note included: not sent",
                        findings_base::text::thousands_of(plan.unchanged),
                        findings_requests::triage::Kind::Finding.noun(plan.unchanged)
                    ),
                    theme.dim(),
                ));
            }
            if triage.reviewed.is_empty() {
                said.push(("Nothing to send.".into(), theme.accent()));
            }
            said
        }
        _ => Vec::new(),
    };
    said.into_iter()
        .flat_map(|(text, style)| {
            wrap(&text, width.max(10))
                .into_iter()
                .map(move |l| Line::from(Span::styled(l, style)))
        })
        .collect()
}

fn confirm_again<'a>(draft: &Draft, triage: &Triage, theme: &Theme) -> Vec<Line<'a>> {
    // What the requests name, not what the filter matched.
    let sent: usize = triage.reviewed.iter().map(|r| r.batch.ids.len()).sum();
    let requests = triage.reviewed.len();
    vec![
        Line::from(Span::styled(
            format!(
                "This sends {requests} request{} for {} {} of {}.",
                if requests == 1 { "" } else { "s" },
                findings_base::text::thousands_of(sent),
                draft.kind().noun(sent),
                scope_line(draft)
            ),
            theme.error(),
        )),
        Line::from("Press y once more to send, Esc to go back."),
    ]
}

/// The session's triages, newest first: when, how many, from → to.
fn history<'a>(triage: &Triage, width: usize, theme: &Theme) -> Vec<Line<'a>> {
    let entries = triage.history.entries();
    if entries.is_empty() {
        return vec![Line::from("No triage of this session is left to undo.")];
    }
    let mut lines = vec![Line::from(Span::styled(
        "Newest first (times UTC); u undoes them in turn, each through its review:",
        theme.dim(),
    ))];
    for (k, entry) in entries.iter().rev().enumerate() {
        let when = entry.when();
        let style = if k == 0 {
            theme.key()
        } else {
            Style::default()
        };
        // The time, then what it did, wrapped beside the time.
        let indent = when.len() + 2;
        for (i, part) in wrap(&entry.what(), width.saturating_sub(indent).max(10))
            .into_iter()
            .enumerate()
        {
            let lead = if i == 0 {
                format!("{when}  ")
            } else {
                " ".repeat(indent)
            };
            lines.push(Line::from(Span::styled(format!("{lead}{part}"), style)));
        }
    }
    lines
}
