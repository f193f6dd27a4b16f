//! The Report pane: the four totals in large figures, the selector lines
//! (or the repository filter being typed), the charts ([`super::charts`]),
//! and the findings table (only visible rows are built).

use super::labels::{fit, group, key_label};
use super::{ReportPane, Totals};
use crate::keymap::Action;
use crate::layout;
use crate::pane::ViewCx;
use crate::widgets::common::{date, load_parts, loaded_note, new_note, percentages, safe, spinner};
use crate::widgets::findings_table;
use ratatui::Frame;
use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use unicode_width::UnicodeWidthStr;

pub fn draw(f: &mut Frame, area: Rect, pane: &ReportPane, v: &ViewCx) {
    let areas = pane.areas(area);
    totals(f, areas.totals, pane, v);
    selectors(f, areas.selectors, pane, v);
    if areas.charts.height > 0 {
        match pane.dashboard.block {
            super::dashboard::Block::Counts => super::charts::draw(f, areas.charts, pane, v),
            _ => super::dashboard_view::draw(f, areas.charts, pane, v),
        }
    }
    list(f, areas.list, pane, v);
}

// ---- Totals ----

const TOTAL_LABELS: [&str; 4] = ["All", "Code", "Supply chain", "Secrets"];

fn totals_values(t: &Totals) -> [Option<i64>; 4] {
    [t.all, t.code, t.sca, t.secrets]
}

fn totals(f: &mut Frame, area: Rect, pane: &ReportPane, v: &ViewCx) {
    if area.height == 0 || area.width == 0 {
        return;
    }
    let theme = v.theme;
    let loading = pane.list.loader.is_loading();
    let current = pane.current_totals().is_some();
    let shown = pane.totals.as_ref().map(|(t, _)| t);
    // Stale totals (of the previous query) are dimmed until new ones come.
    let figure_style = if current { theme.title() } else { theme.dim() };
    let values = shown.map(totals_values);

    if area.height < 5 {
        // One line: "All 2,345 · Code 1,200 · ..."
        let mut spans = Vec::new();
        if loading {
            spans.push(Span::styled(
                format!("{} ", spinner(v.spinner)),
                theme.accent(),
            ));
        }
        for (i, label) in TOTAL_LABELS.iter().enumerate() {
            if i > 0 {
                spans.push(Span::styled(" · ", theme.dim()));
            }
            spans.push(Span::styled(format!("{label} "), theme.dim()));
            let v = values.map_or("…".to_owned(), |v| figure(v[i]));
            spans.push(Span::styled(v, figure_style));
        }
        f.render_widget(Paragraph::new(Line::from(spans)), area);
        return;
    }

    let boxes = Layout::horizontal([Constraint::Fill(1); 4]).split(area);
    // The shares of All of the other three, rounded to add up to 100%.
    let shares = values.map_or(vec![None; 3], |v| percentages(&v[1..], v[0]));
    for (i, label) in TOTAL_LABELS.iter().enumerate() {
        let rect = boxes[i];
        let mut title = vec![Span::styled(format!(" {label} "), theme.title())];
        if loading {
            title.push(Span::styled(
                format!("{} ", spinner(v.spinner)),
                theme.accent(),
            ));
        }
        let mut block = Block::default()
            .borders(Borders::ALL)
            .title(Line::from(title));
        let inner = block.inner(rect);
        let value = values.and_then(|v| v[i]);
        let share = i
            .checked_sub(1)
            .and_then(|k| shares.get(k).copied().flatten())
            .map(|p| format!("{p}%"));
        let text = values.map_or_else(
            || if loading { "…" } else { "—" }.to_owned(),
            |_| figure(value),
        );
        let big = (inner.height >= 3 && value.is_some())
            .then(|| big_figure(value.unwrap_or(0), inner.width as usize))
            .flatten();
        let lines: Vec<Line> = if let Some(rows) = big {
            // The exact figure (and its share) in the bottom border.
            let bottom = match &share {
                Some(s) => format!(" {text} · {s} "),
                None => format!(" {text} "),
            };
            block =
                block.title_bottom(Line::from(Span::styled(bottom, theme.dim())).right_aligned());
            let pad = inner.height.saturating_sub(3) / 2;
            std::iter::repeat_n(Line::default(), pad as usize)
                .chain(
                    rows.into_iter()
                        .map(|r| Line::from(Span::styled(r, figure_style))),
                )
                .collect()
        } else {
            let mut spans = vec![Span::styled(text, figure_style)];
            if let Some(s) = share {
                spans.push(Span::styled(format!("  {s}"), theme.dim()));
            }
            let pad = inner.height.saturating_sub(1) / 2;
            std::iter::repeat_n(Line::default(), pad as usize)
                .chain(std::iter::once(Line::from(spans)))
                .collect()
        };
        f.render_widget(
            Paragraph::new(lines)
                .alignment(Alignment::Center)
                .block(block),
            rect,
        );
    }
}

/// A total as text, grouped by thousands; "—" when the server sent none.
fn figure(v: Option<i64>) -> String {
    v.map_or("—".to_owned(), group)
}

/// Three rows of a large figure, at most `width` cells wide; `None` when
/// even the narrowest form does not fit.
fn big_figure(n: i64, width: usize) -> Option<[String; 3]> {
    let grouped = group(n);
    let plain = grouped.replace(',', "");
    for (text, gap) in [(&grouped, " "), (&plain, " "), (&plain, "")] {
        let glyphs: Option<Vec<[&str; 3]>> = text.chars().map(glyph).collect();
        let Some(glyphs) = glyphs else { continue };
        let rows: [String; 3] =
            std::array::from_fn(|r| glyphs.iter().map(|g| g[r]).collect::<Vec<_>>().join(gap));
        if rows[0].width() <= width {
            return Some(rows);
        }
    }
    None
}

fn glyph(c: char) -> Option<[&'static str; 3]> {
    Some(match c {
        '0' => ["┌─┐", "│ │", "└─┘"],
        '1' => ["╶┐ ", " │ ", "╶┴╴"],
        '2' => ["╶─┐", "┌─┘", "└─╴"],
        '3' => ["╶─┐", " ─┤", "╶─┘"],
        '4' => ["╷ ╷", "└─┤", "  ╵"],
        '5' => ["┌─╴", "└─┐", "╶─┘"],
        '6' => ["┌─╴", "├─┐", "└─┘"],
        '7' => ["╶─┐", "  │", "  ╵"],
        '8' => ["┌─┐", "├─┤", "└─┘"],
        '9' => ["┌─┐", "└─┤", "╶─┘"],
        ',' => [" ", " ", ","],
        '-' => ["   ", "╶─╴", "   "],
        _ => return None,
    })
}

// ---- Selectors ----

fn selectors(f: &mut Frame, area: Rect, pane: &ReportPane, v: &ViewCx) {
    if area.height == 0 || area.width == 0 {
        return;
    }
    let width = area.width as usize;
    let mut lines = vec![selector_line(pane, v, width), toggle_line(pane, v, width)];
    let rows = (area.height as usize).saturating_sub(2);
    if rows > 0 {
        lines.extend(coverage_lines(pane, v, width, rows));
    }
    f.render_widget(Paragraph::new(lines), area);
    if let Some(input) = &pane.repo_input {
        repo_input(f, area, input, v);
    }
}

/// Line 1: the selectors and their values, with their names and the
/// period's start where they fit.
fn selector_line(pane: &ReportPane, v: &ViewCx, width: usize) -> Line<'static> {
    let since = pane
        .since
        .filter(|_| pane.period_days.is_some() || pane.new_only)
        .map(|s| format!(" (since {})", date(&Some(s))))
        .unwrap_or_default();
    let build = |with_since: bool, long: bool| -> Line<'static> {
        let names = if long {
            ["type", "period", "trend", "state", "repo"]
        } else {
            ["", "", "", "", ""]
        };
        let mut spans = Vec::new();
        spans.extend(selector(
            v,
            key_label(v, Action::CycleReportType, "v"),
            names[0],
            pane.report_type.label().to_owned(),
        ));
        spans.extend(selector(
            v,
            key_label(v, Action::CyclePeriod, "p"),
            names[1],
            format!(
                "{}{}",
                pane.period_label(),
                if with_since { since.as_str() } else { "" }
            ),
        ));
        spans.extend(selector(
            v,
            key_label(v, Action::CycleBucket, "b"),
            names[2],
            pane.bucket_label().to_owned(),
        ));
        spans.extend(selector(
            v,
            key_label(v, Action::CycleState, "x"),
            names[3],
            safe(pane.state_label()),
        ));
        spans.extend(selector(
            v,
            key_label(v, Action::RepoFilter, "/"),
            names[4],
            safe(&pane.repo_label()),
        ));
        Line::from(spans)
    };
    [build(true, true), build(false, true), build(false, false)]
        .into_iter()
        .find(|l| l.width() <= width)
        .unwrap_or_else(|| build(false, false))
}

/// One selector: its key, its name (none when empty) and its value.
fn selector(v: &ViewCx, key: String, name: &str, value: String) -> Vec<Span<'static>> {
    let theme = v.theme;
    vec![
        Span::styled(key, theme.key()),
        Span::styled(
            if name.is_empty() {
                " ".to_owned()
            } else {
                format!(" {name} ")
            },
            theme.dim(),
        ),
        Span::styled(value, theme.accent()),
        Span::raw("  "),
    ]
}

/// Line 2: the type and severity toggles, with long names and headings
/// where they fit.
fn toggle_line(pane: &ReportPane, v: &ViewCx, width: usize) -> Line<'static> {
    let theme = v.theme;
    let type_items = [
        (Action::ToggleCode, "c", "code", "code"),
        (Action::ToggleSca, "a", "supply chain", "sca"),
        (Action::ToggleSecrets, "w", "secrets", "secr"),
    ];
    let sev_items = [
        (Action::ToggleCritical, "C", "critical", "crit"),
        (Action::ToggleHigh, "H", "high", "high"),
        (Action::ToggleMedium, "M", "medium", "med"),
        (Action::ToggleLow, "L", "low", "low"),
    ];
    let build = |long: bool, headings: bool| -> Line<'static> {
        let mut spans = Vec::new();
        if headings {
            spans.push(Span::styled("types ", theme.dim()));
        }
        spans.extend(toggles(v, &pane.types, &type_items, long));
        spans.push(Span::raw(" "));
        if headings {
            spans.push(Span::styled("severity ", theme.dim()));
        }
        spans.extend(toggles(v, &pane.severities, &sev_items, long));
        Line::from(spans)
    };
    [build(true, true), build(true, false), build(false, false)]
        .into_iter()
        .find(|l| l.width() <= width)
        .unwrap_or_else(|| build(false, false))
}

/// The toggles of `items` (action, key, long and short name): those on
/// highlighted, the others dimmed; all off is no filter, said "(all)".
fn toggles(
    v: &ViewCx,
    on: &[bool],
    items: &[(Action, &str, &str, &str)],
    long: bool,
) -> Vec<Span<'static>> {
    let theme = v.theme;
    let any = on.iter().any(|b| *b);
    let mut spans = Vec::new();
    for (i, (action, key, long_name, short_name)) in items.iter().enumerate() {
        let style = if on[i] {
            theme.selected()
        } else if any {
            theme.dim()
        } else {
            Style::new()
        };
        spans.push(Span::styled(key_label(v, *action, key), theme.key()));
        spans.push(Span::raw(" "));
        spans.push(Span::styled(
            if long { *long_name } else { *short_name }.to_owned(),
            style,
        ));
        spans.push(Span::raw(" "));
    }
    if !any {
        spans.push(Span::styled("(all) ", theme.dim()));
    }
    spans
}

/// What the report type counts, in words, and how its total compares with
/// the Issues list for the same question (or why it cannot): the text and
/// how it is shown.
pub(super) fn coverage_texts(pane: &ReportPane, spinner_char: &str) -> [(String, Tone); 2] {
    use super::Comparison;
    let total = pane
        .current_totals()
        .and_then(|t| t.all)
        .map_or("…".into(), group);
    let question = || {
        pane.issues_question()
            .map(|q| crate::list::filters_shown::summary(&q).join(" "))
            .unwrap_or_default()
    };
    let comparison = match pane.comparison() {
        Comparison::NotComparable(why) => (
            format!("not comparable with the Issues list: {why}"),
            Tone::Dim,
        ),
        Comparison::Pending => (
            format!("{spinner_char} comparing with the Issues list…"),
            Tone::Dim,
        ),
        Comparison::Same { listed } => (
            format!(
                "{total}: the same as the Issues list's {} (filtered {})",
                group(listed),
                question()
            ),
            Tone::Dim,
        ),
        Comparison::Archived { listed, archived } => (
            format!(
                "{total} = {} in the Issues list + {} in archived projects, which it leaves \
                 out (its filter: {}; theirs: :filter includeArchived=true)",
                group(listed),
                group(archived),
                question()
            ),
            Tone::Accent,
        ),
        Comparison::Differs { listed, archived } => (
            format!(
                "{total}, but the Issues list counts {} (+{} in archived projects) for the \
                 same filter {}: the server counts the two differently",
                group(listed),
                group(archived),
                question()
            ),
            Tone::Accent,
        ),
        Comparison::Unavailable(why) => (
            format!("the Issues list's count is unavailable: {}", safe(&why)),
            Tone::Error,
        ),
    };
    [(pane.covers(), Tone::Plain), comparison]
}

/// How a line of words is shown.
#[derive(Debug, Clone, Copy)]
pub(super) enum Tone {
    Plain,
    Dim,
    Accent,
    Error,
}

/// The coverage lines, wrapped to `width` (what a count leaves out is
/// never cut), at most `rows` of them (the last then ends in `…`).
fn coverage_lines(pane: &ReportPane, v: &ViewCx, width: usize, rows: usize) -> Vec<Line<'static>> {
    let theme = v.theme;
    let mut lines: Vec<Line<'static>> = Vec::new();
    for (text, tone) in coverage_texts(pane, spinner(v.spinner)) {
        let style = match tone {
            Tone::Plain => Style::default(),
            Tone::Dim => theme.dim(),
            Tone::Accent => theme.accent(),
            Tone::Error => theme.error(),
        };
        for line in crate::widgets::common::wrap(&text, width) {
            lines.push(Line::from(Span::styled(line, style)));
        }
    }
    if lines.len() > rows {
        lines.truncate(rows);
        if let Some(last) = lines.last_mut() {
            let text: String = last.spans.iter().map(|s| s.content.as_ref()).collect();
            let style = last.spans.first().map(|s| s.style).unwrap_or_default();
            *last = Line::from(Span::styled(fit(&format!("{text} …"), width), style));
        }
    }
    lines
}

/// The repository filter being typed, over the first selector line.
fn repo_input(f: &mut Frame, area: Rect, prompt: &super::repo_prompt::RepoPrompt, v: &ViewCx) {
    let input = &prompt.input;
    let line = Rect { height: 1, ..area };
    // A refusal under the names, until they are edited.
    if let Some(refused) = &prompt.refused
        && area.height > 1
    {
        let below = Rect {
            y: area.y + 1,
            height: 1,
            ..area
        };
        f.render_widget(ratatui::widgets::Clear, below);
        f.render_widget(
            Paragraph::new(Span::styled(safe(refused), v.theme.error())),
            below,
        );
    }
    // The longest prefix that leaves room to type.
    let prefix = [
        "repository (comma-separated, Enter applies, Esc cancels): ",
        "repository (comma-separated): ",
        "repo: ",
    ]
    .into_iter()
    .find(|p| p.width() + 24 <= line.width as usize)
    .unwrap_or("/");
    let width = (line.width as usize).saturating_sub(prefix.width() + 1);
    let scroll = input.visual_scroll(width);
    let shown: String = input.value().chars().skip(scroll).collect();
    f.render_widget(ratatui::widgets::Clear, line);
    f.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled(prefix, v.theme.key()),
            Span::raw(safe(&shown)),
        ])),
        line,
    );
    let x = line.x.saturating_add(crate::layout::cells(
        prefix.width() + input.visual_cursor().saturating_sub(scroll),
    ));
    f.set_cursor_position((x.min(line.right().saturating_sub(1)), line.y));
}

// ---- The findings list ----

fn list(f: &mut Frame, area: Rect, pane: &ReportPane, v: &ViewCx) {
    if area.height == 0 || area.width == 0 {
        return;
    }
    let theme = v.theme;
    let list = &pane.list;
    let rows_area = layout::table_rows(area);
    let height = rows_area.height as usize;
    let total = pane.current_totals().and_then(|t| t.all);
    let title = match total {
        Some(t) => format!(
            " Findings {}/{} ",
            findings_base::text::thousands_of(list.items.len()),
            group(t)
        ),
        None => format!(
            " Findings {}{} ",
            list.items.len(),
            if list.complete { "" } else { "+" }
        ),
    };
    let mut block = Block::default()
        .borders(Borders::ALL)
        .title(Span::styled(title, theme.title()));
    if let Some(e) = &list.loader.error {
        let retry = key_label(v, Action::Refresh, "r");
        let text = format!(" failed: {} ({retry} retries) ", safe(e));
        block = block.title_bottom(Span::styled(
            fit(&text, area.width.saturating_sub(2) as usize),
            theme.error(),
        ));
    }
    findings_table::draw_list(
        f,
        area,
        theme,
        v.now,
        list,
        &pane.marked,
        pane.new.last_visit,
        findings_table::DateColumn::Created,
        None,
        block,
    );

    if list.is_empty() && height > 0 {
        let (text, style) = if list.loader.is_loading() {
            (
                format!("{} loading the report…", spinner(v.spinner)),
                theme.dim(),
            )
        } else if let Some(e) = &list.loader.error {
            (format!("failed: {}", safe(e)), theme.error())
        } else if list.paused {
            (crate::widgets::common::stopped(v, super::KEYS), theme.dim())
        } else {
            ("no findings match".to_owned(), theme.dim())
        };
        f.render_widget(
            Paragraph::new(crate::widgets::common::paragraph(
                &text,
                rows_area.width as usize,
                0,
                style,
            )),
            rows_area,
        );
    }
}

/// The Report pane's part of the status line.
pub fn status(pane: &ReportPane, v: &ViewCx) -> String {
    let list = &pane.list;
    let mut parts = load_parts(list, loaded_note(list), v, super::KEYS);
    parts.extend(new_note(pane.new.last_visit, pane.new.count, pane.new_only));
    if !pane.marked.is_empty() {
        parts.push(format!(
            "{} marked",
            findings_base::text::thousands_of(pane.marked.len())
        ));
    }
    // The report type and period always; the other selectors when set.
    parts.push(pane.report_type.label().to_owned());
    parts.push(pane.period_label());
    if pane.bucket.is_some() {
        parts.push(format!("trend by {}", pane.bucket_label()));
    }
    if !pane.projects.is_empty() {
        parts.push(format!("repo {}", safe(&pane.repo_label())));
    }
    if pane.finding_state.is_some() {
        parts.push(format!("state {}", safe(pane.state_label())));
    }
    if pane.types.iter().any(|b| *b) {
        parts.push(format!("types {}", pane.types_label()));
    }
    if pane.severities.iter().any(|b| *b) {
        parts.push(format!("severity {}", pane.severities_label()));
    }
    parts.join(" · ")
}
