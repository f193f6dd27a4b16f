//! Draws one frame: the header, the pane on show (through [`Pane::draw`]),
//! the detail, the status line and the overlays. A pure function of the
//! state: it imports the state and the model, never the client, the worker
//! or the demo server.
//!
//! [`Pane::draw`]: crate::pane::Pane::draw

use super::exporting_view;
use super::{App, Overlay};
use crate::keymap::{Action, Context};
use crate::layout;
use crate::widgets::common::{safe, spinner};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use unicode_width::UnicodeWidthStr;

/// Below this size only a note is drawn (nothing half-drawn, no panic).
const MIN_WIDTH: u16 = 20;
const MIN_HEIGHT: u16 = 6;

pub fn draw(f: &mut Frame, app: &App) {
    let area = f.area();
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        let note = Paragraph::new(format!(
            "findings\n{}×{} is too small",
            area.width, area.height
        ))
        .wrap(Wrap { trim: true });
        f.render_widget(note, area);
        return;
    }
    // The app's geometry, unless the frame is of another size (a test may
    // draw at any size).
    let size = (area.width, area.height);
    let geometry = if app.geometry.is_for(size, app.detail.is_some()) {
        app.geometry
    } else {
        layout::Geometry::new(size, app.detail.is_some())
    };
    let screen = geometry.screen;
    let v = app.view_cx();
    header(f, screen.header, app);
    if geometry.list.width > 0 && geometry.list.height > 0 {
        app.current().draw(f, geometry.list, &v);
    }
    if let (Some(area), Some(d)) = (geometry.detail, &app.detail) {
        crate::detail::view::draw(f, area, d, &app.enriched, &v);
        if geometry.list.width > 0 && !app.detail_focus {
            preview_hint(f, area, app);
        }
    }
    status(f, screen.status, app);
    crate::triage::draw(f, screen.body, &app.triage, &app.theme);
    crate::actions::draw(f, screen.body, &app.actions, &app.theme);
    match &app.overlay {
        Some(Overlay::Help { scroll }) => help(f, screen.body, app, *scroll),
        Some(Overlay::Error {
            title,
            message,
            scroll,
        }) => error(f, screen.body, app, title, message, *scroll),
        Some(Overlay::Export(prompt)) => exporting_view::export_prompt(f, screen.body, app, prompt),
        Some(Overlay::CopyMenu(menu)) => exporting_view::copy_menu(f, screen.body, app, menu),
        Some(Overlay::Command(line)) => command_line(f, screen.status, app, line),
        Some(Overlay::Question { question, nagged }) => {
            crate::widgets::question::draw(f, screen.body, question, *nagged, &app.theme);
        }
        None => {}
    }
    scrub(f.buffer_mut());
}

/// On a preview beside the list: how to move into it (its bottom border).
fn preview_hint(f: &mut Frame, area: Rect, app: &App) {
    let text = format!(
        " preview: {} to scroll it · {} close ",
        app.keymap.hint(Context::LIST, Action::Open),
        app.keymap
            .hint_among(&app.current().contexts(), Action::Back),
    );
    let width = crate::layout::cells(text.chars().count()).min(area.width.saturating_sub(2));
    if area.height < 2 || width == 0 {
        return;
    }
    let at = Rect::new(area.x + 1, area.bottom() - 1, width, 1);
    f.render_widget(Paragraph::new(Span::styled(text, app.theme.dim())), at);
}

/// The `:` line in the status line's place; while Tab offers several
/// completions, they show on the line above (the chosen one marked).
fn command_line(f: &mut Frame, status: Rect, app: &App, line: &super::CommandLine) {
    let input = &line.input;
    let width = status.width.saturating_sub(1) as usize;
    let scroll = input.visual_scroll(width);
    let shown: String = input.value().chars().skip(scroll).collect();
    f.render_widget(Clear, status);
    f.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled(":", app.theme.key()),
            Span::raw(safe(&shown)),
        ])),
        status,
    );
    let x = (status.x + 1).saturating_add(crate::layout::cells(
        input.visual_cursor().saturating_sub(scroll),
    ));
    f.set_cursor_position((x.min(status.right().saturating_sub(1)), status.y));
    if let Some(c) = line.completion.as_ref().filter(|c| c.candidates.len() > 1)
        && status.y > 0
    {
        let mut spans = Vec::new();
        for (k, word) in c.listed().enumerate() {
            let style = if c.chosen == Some(k) {
                app.theme.selected()
            } else {
                app.theme.dim()
            };
            spans.push(Span::raw(" "));
            spans.push(Span::styled(safe(word), style));
        }
        let above = Rect {
            y: status.y - 1,
            height: 1,
            ..status
        };
        f.render_widget(Clear, above);
        f.render_widget(Paragraph::new(Line::from(spans)), above);
    }
}

/// The last line of defence: every view makes server text safe before it is
/// drawn, and this makes sure no cell of the frame carries a control
/// character anyway (a raw ESC would reach the terminal as is).
fn scrub(buf: &mut ratatui::buffer::Buffer) {
    for cell in &mut buf.content {
        let symbol = cell.symbol();
        if symbol.chars().any(|c| {
            c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
        }) {
            let cleaned = findings_base::text::one_line(symbol).into_owned();
            cell.set_symbol(&cleaned);
        }
    }
}

/// The tabs (each with its filter's count when known), the deployment and
/// the badges. Where they do not fit, the deployment's name goes first,
/// then the word "deployment" before its id, then the tabs' counts, then
/// the id; the badges stay.
fn header(f: &mut Frame, area: Rect, app: &App) {
    let fits = |line: &Line| line.width() <= area.width as usize;
    let mut line = header_line(app, true, Deployment::Named);
    for (counts, deployment) in [
        (true, Deployment::Id),
        (true, Deployment::Bare),
        (false, Deployment::Bare),
        (false, Deployment::Hidden),
    ] {
        if fits(&line) {
            break;
        }
        line = header_line(app, counts, deployment);
    }
    f.render_widget(Paragraph::new(line), area);
}

/// How much of the deployment the header says.
#[derive(Clone, Copy)]
enum Deployment {
    Named,
    Id,
    Bare,
    Hidden,
}

fn header_line(app: &App, counts: bool, deployment: Deployment) -> Line<'static> {
    let theme = &app.theme;
    let mut spans = vec![Span::styled(" findings ", theme.title())];
    for (k, pane) in app.panes().enumerate() {
        let style = if pane.id() == app.pane {
            theme.selected()
        } else {
            theme.dim()
        };
        let count = pane
            .tab_count()
            .filter(|_| counts)
            .map_or(String::new(), |n| format!(" {}", short_count(n)));
        spans.push(Span::styled(
            format!(" {} {}{count} ", k + 1, pane.title()),
            style,
        ));
    }
    spans.push(Span::raw("  "));
    let id = safe(&app.session.deployment);
    let deployment = match (deployment, &app.session.deployment_name) {
        (Deployment::Named, Some(name)) => Some(findings_model::shown_deployment(
            Some(&safe(&findings_base::text::truncate(name, 40))),
            &id,
        )),
        (Deployment::Named, None) | (Deployment::Id, _) => {
            Some(findings_model::shown_deployment(None, &id))
        }
        (Deployment::Bare, _) => Some(id.clone()),
        (Deployment::Hidden, _) => None,
    };
    if let Some(deployment) = deployment {
        spans.push(Span::styled(deployment, theme.dim()));
    }
    if let Some(saved_at) = &app.session.offline {
        // Read-only and offline: one badge says both.
        spans.push(Span::raw(" "));
        spans.push(Span::styled(
            format!(" SNAPSHOT {} ", saved_at.format("%Y-%m-%d %H:%M")),
            theme.badge(),
        ));
        return Line::from(spans);
    }
    if app.session.demo {
        spans.push(Span::raw(" "));
        spans.push(Span::styled(" DEMO ", theme.badge()));
    }
    if app.session.read_only {
        spans.push(Span::raw(" "));
        spans.push(Span::styled(" READ-ONLY ", theme.badge()));
    }
    Line::from(spans)
}

/// A tab's count in few cells: 1,793, 98k, 1.2M.
fn short_count(n: i64) -> String {
    if n < 100_000 {
        findings_base::text::thousands(n)
    } else if n < 1_000_000 {
        format!("{}k", n / 1000)
    } else {
        // Display only, to one decimal: a count below 2^53 is exact in f64.
        #[allow(clippy::cast_precision_loss)]
        let millions = n as f64 / 1e6;
        format!("{millions:.1}M")
    }
}

fn status(f: &mut Frame, area: Rect, app: &App) {
    let theme = &app.theme;
    let v = app.view_cx();
    let pane_status = if app.detail.is_some() {
        let key = |action| v.key(Context::DETAIL, action);
        format!(
            "{}/{} tabs · {}/{} scroll · {} open · {} copy · {} close",
            key(Action::PrevTab),
            key(Action::NextTab),
            key(Action::Down),
            key(Action::Up),
            key(Action::OpenInBrowser),
            key(Action::Copy),
            key(Action::Back),
        )
    } else {
        app.current().status(&v)
    };
    let mut spans = Vec::new();
    if app.is_loading() {
        spans.push(Span::styled(
            format!("{} ", spinner(app.spinner)),
            theme.accent(),
        ));
    }
    let room = (area.width as usize)
        .saturating_sub(spans.iter().map(Span::width).sum::<usize>() + HELP.width());
    let (first, rest) = status_parts(app.said_first().as_deref(), &pane_status, room);
    let mut used = 0;
    if let Some(first) = first {
        used += first.width();
        spans.push(Span::styled(first, theme.accent()));
    }
    if let Some(rest) = rest {
        if used > 0 {
            used += SEPARATOR.width();
            spans.push(Span::raw(SEPARATOR));
        }
        used += rest.width();
        spans.push(Span::raw(rest));
    }
    spans.push(Span::raw(" ".repeat(room.saturating_sub(used))));
    spans.push(Span::styled(HELP, theme.dim()));
    f.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// Always at the right end.
const HELP: &str = "  ? help";
const SEPARATOR: &str = " │ ";
/// Below this, the summary is not begun after a message.
const SUMMARY_MIN: usize = 12;

/// The status line's text in `room` columns, by priority: first what was
/// said (a question, an error, the outcome of the last action with its
/// counts), cut with `…` and a pointer to `:messages` where it is whole;
/// then the pane's summary (position, sort, filter) in what is left, its
/// parts whole, leaving out what the message already says.
fn status_parts(
    said: Option<&str>,
    summary: &str,
    room: usize,
) -> (Option<String>, Option<String>) {
    let clip = |text: &str, width: usize| findings_export::fit(text, width).trim_end().to_owned();
    let Some(said) = said.map(safe).filter(|s| !s.is_empty()) else {
        return (
            None,
            Some(whole_parts(summary, room)).filter(|s| !s.is_empty()),
        );
    };
    const WHOLE: &str = " :messages";
    let first = if said.width() <= room {
        said.clone()
    } else if room > 2 * WHOLE.len() {
        format!("{}{WHOLE}", clip(&said, room - WHOLE.len()))
    } else {
        clip(&said, room)
    };
    let left = room.saturating_sub(first.width() + SEPARATOR.width());
    // A short part ("all") is no repeat of a message that holds it.
    let said_already = |part: &str| part.len() >= 6 && said.contains(part);
    let unsaid: Vec<&str> = summary
        .split(" · ")
        .filter(|part| !part.is_empty() && !said_already(part))
        .collect();
    let rest =
        (left >= SUMMARY_MIN && !unsaid.is_empty()).then(|| whole_parts(&unsaid.join(" · "), left));
    (Some(first), rest)
}

/// The pane's summary in `width`: its parts (` · ` between them) whole,
/// as many as fit, then the next one cut (`…`) when enough of it shows,
/// else `…`; a first part too long for the line is cut.
fn whole_parts(summary: &str, width: usize) -> String {
    /// Less than this of a part is not worth showing.
    const CUT_PART_MIN: usize = 16;
    if summary.width() <= width {
        return summary.to_owned();
    }
    let mut kept = String::new();
    for part in summary.split(" · ") {
        let sep = if kept.is_empty() { "" } else { " · " };
        let with = format!("{kept}{sep}{part}");
        if with.width() + " …".width() <= width {
            kept = with;
            continue;
        }
        let left = width.saturating_sub(kept.width() + sep.width());
        if kept.is_empty() || left >= CUT_PART_MIN {
            let cut = findings_export::fit(part, left);
            return format!("{kept}{sep}{}", cut.trim_end());
        }
        break;
    }
    format!("{kept} …")
}

/// The keys of where help was opened (see [`super::help`]).
fn help(f: &mut Frame, body: Rect, app: &App, scroll: u16) {
    let shown = super::help::HelpBox::new(app, body);
    let popup = shown.popup;
    f.render_widget(Clear, popup);
    let max = shown.max_scroll();
    let mut block = Block::default()
        .borders(Borders::ALL)
        .title(" Keys ")
        .title_bottom(shown.footer);
    if max > 0 {
        block = block.title_bottom(
            Line::from(format!(" {}/{} ", scroll.min(max) + 1, max + 1)).right_aligned(),
        );
    }
    f.render_widget(
        Paragraph::new(shown.lines)
            .block(block)
            .scroll((scroll.min(max), 0)),
        popup,
    );
}

fn error(f: &mut Frame, body: Rect, app: &App, title: &str, message: &str, scroll: u16) {
    let lines = super::help::error_lines(message, body);
    let (rows, end) = layout::dialog_rows(body, lines.len());
    // As tall as the message, at least as before, the body allowing.
    let popup = layout::centered(body, super::help::ERROR_WIDTH, (rows + 2).max(10));
    f.render_widget(Clear, popup);
    let keys = if end > 0 {
        format!(
            " {} dismiss · j/k g/G scroll ",
            app.keymap.hint(Context::POPUP, Action::Back)
        )
    } else {
        format!(
            " {} dismiss ",
            app.keymap.hint(Context::POPUP, Action::Back)
        )
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .title(Span::styled(
            format!(" {} ", safe(title)),
            app.theme.error(),
        ))
        .title_bottom(keys);
    let lines: Vec<Line> = lines.into_iter().map(Line::from).collect();
    f.render_widget(
        Paragraph::new(lines)
            .block(block)
            .scroll((scroll.min(end), 0)),
        popup,
    );
}

#[cfg(test)]
mod tests {
    use super::{UnicodeWidthStr, status_parts, whole_parts};

    const SUMMARY: &str =
        "100 loaded, more available · sort severity ↓ · new since 2026-11-28 10:50: 0 loaded";

    /// The line as drawn: what was said, then the summary.
    fn line(said: Option<&str>, room: usize) -> String {
        match status_parts(said, SUMMARY, room) {
            (Some(first), Some(rest)) => format!("{first} │ {rest}"),
            (first, rest) => first.or(rest).unwrap_or_default(),
        }
    }

    #[test]
    fn the_status_line_says_first_what_was_said_then_position_and_sort() {
        let outcome = "29 updated, of 29 · 29 findings → ignored (false positive) · u undoes";
        // 60, 80 and 100 columns, less the spinner and `  ? help`.
        for room in [50, 52, 70, 72, 90, 92] {
            let shown = line(Some(outcome), room);
            assert!(shown.width() <= room, "{room}: {shown}");
            assert!(
                shown.starts_with("29 updated, of 29 · 29 findings"),
                "{room}: {shown}"
            );
            if outcome.width() > room {
                assert!(shown.ends_with("… :messages"), "{room}: {shown}");
            }
            // Nothing but a message: position, then the sort.
            let shown = line(None, room);
            assert!(
                shown.starts_with("100 loaded, more available · sort severity ↓"),
                "{room}: {shown}"
            );
            // A question comes first, whatever else there is.
            let shown = line(
                Some("Drop the 1,824 findings loaded? y: apply · n: keep"),
                room,
            );
            assert!(
                shown.starts_with("Drop the 1,824 findings loaded?"),
                "{room}: {shown}"
            );
        }
        // Room after the message: the summary follows, its parts whole.
        assert_eq!(
            line(Some("kept the 1,824 loaded findings"), 92),
            "kept the 1,824 loaded findings │ 100 loaded, more available · sort severity ↓ …"
        );
        // What the message says is not said again.
        let shown = line(Some("sort severity ↓"), 92);
        assert_eq!(shown.matches("sort severity ↓").count(), 1, "{shown}");
        assert!(shown.starts_with("sort severity ↓ │ 100 loaded"), "{shown}");
    }

    #[test]
    fn the_summary_keeps_its_parts_whole() {
        let s = "100 loaded, more available · new since 2026-11-28 10:50: 12 loaded · sort since";
        assert_eq!(whole_parts(s, 200), s);
        assert_eq!(whole_parts(s, 40), "100 loaded, more available …");
        assert_eq!(
            whole_parts(s, 70),
            "100 loaded, more available · new since 2026-11-28 10:50: 12 loaded …"
        );
        // A first part longer than the line: cut, as before.
        assert_eq!(whole_parts(s, 12).chars().count(), 12);
        assert!(whole_parts(s, 12).ends_with('…'));
    }
}
