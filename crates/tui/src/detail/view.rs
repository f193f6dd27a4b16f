//! The detail of a finding, one tab at a time. Every string from the server
//! is made safe before it is drawn; long text is wrapped to the width.

use super::{Cache, DetailView, Enriched, Tab};
use crate::pane::ViewCx;
use crate::theme::Theme;
use crate::widgets::common::{date, field, heading, opt, paragraph, safe, spinner, time};
use crate::widgets::reflow::reflow;
use findings_model::*;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use unicode_width::UnicodeWidthStr;

/// The lines of the open tab, as they will be drawn at `width`.
fn content<'a>(detail: &DetailView, cache: &Cache, v: &ViewCx, width: usize) -> Vec<Line<'a>> {
    let theme = v.theme;
    let tab = detail.current_tab();
    let cached = detail.issue.id.as_ref().and_then(|id| cache.get(id));
    match (detail.needs_fetch(), cached) {
        (true, None) if detail.is_loading() => vec![Line::from(format!(
            "{} fetching this finding's {}…",
            spinner(v.spinner),
            tab.title().to_lowercase()
        ))],
        (true, None) => vec![Line::from("not loaded yet")],
        (true, Some(Enriched::Failed(e))) => vec![
            Line::from(Span::styled(
                format!("could not load: {}", safe(e)),
                theme.error(),
            )),
            Line::from(Span::styled(
                format!(
                    "{} tries again",
                    v.key(
                        crate::keymap::Context::DETAIL,
                        crate::keymap::Action::Refresh
                    )
                ),
                theme.dim(),
            )),
        ],
        (_, Some(Enriched::Loaded(full))) if tab == Tab::Related => {
            let mut lines = super::related::lines(full, Some(detail.related), theme);
            if !full.related_issues.is_empty() {
                lines.push(Line::default());
                lines.push(Line::from(Span::styled(
                    format!(
                        "{} opens the selected finding here",
                        v.key(crate::keymap::Context::DETAIL, crate::keymap::Action::Open)
                    ),
                    theme.dim(),
                )));
            }
            lines
        }
        (_, Some(Enriched::Loaded(full))) => tab_lines(tab, full, theme, width),
        (false, _) => tab_lines(tab, &detail.issue, theme, width),
    }
}

pub fn draw(f: &mut Frame, area: Rect, detail: &DetailView, cache: &Cache, v: &ViewCx) {
    let theme = v.theme;
    f.render_widget(Clear, area);
    // A finding opened from Related is known by its id until it arrives.
    let shown = detail.best_issue(cache).unwrap_or(&detail.issue);
    let title = format!(
        " {}{} · {} ",
        shown
            .severity
            .as_ref()
            .map_or(String::new(), |s| safe(s.label())),
        shown
            .advisory_severity_apart()
            .map_or(String::new(), |a| format!(
                " (advisory {})",
                safe(a.label())
            )),
        safe(&shown.rule_label())
    );
    let block = Block::default().borders(Borders::ALL).title(title);
    let inner = block.inner(area);
    f.render_widget(block, area);
    if inner.height < 2 {
        return;
    }
    let titles: Vec<&str> = detail.tabs.iter().map(|t| t.title()).collect();
    let tabs = crate::widgets::tab_bar::tab_bar(&titles, detail.tab, inner.width as usize, theme);
    f.render_widget(Paragraph::new(tabs), Rect { height: 1, ..inner });
    let body = crate::layout::detail_text(area);
    // Long values (URLs, CWE names) wrap rather than end at the edge.
    let lines = reflow(
        content(detail, cache, v, body.width as usize),
        body.width as usize,
    );
    let max_scroll = crate::layout::cells(lines.len().saturating_sub(body.height as usize));
    // Update reads it back, so `k` after `G` moves at once.
    detail.max_scroll.set(Some(max_scroll));
    let scroll = detail.scroll.min(max_scroll);
    f.render_widget(Paragraph::new(lines).scroll((scroll, 0)), body);
}

pub fn tab_lines<'a>(tab: Tab, issue: &Issue, theme: &Theme, width: usize) -> Vec<Line<'a>> {
    match tab {
        Tab::Overview => super::overview_view::lines(issue, theme, width),
        Tab::Code => code(issue, theme, width),
        Tab::Remediation => remediation(issue, theme, width),
        Tab::Activity => activity(issue, theme, width),
        Tab::Related => super::related::lines(issue, None, theme),
        Tab::SupplyChain => supply_chain(issue, theme, width),
        Tab::Secrets => secrets(issue, theme),
    }
}

fn location_text(l: &Location) -> String {
    let pos = |p: &Option<Position>| {
        p.as_ref()
            .and_then(|p| p.line)
            .map_or(String::new(), |l| l.to_string())
    };
    let col = l
        .start
        .as_ref()
        .and_then(|p| p.col)
        .map_or(String::new(), |c| format!(":{c}"));
    format!("{}:{}{col}", opt(&l.path), pos(&l.start))
}

fn code<'a>(i: &Issue, theme: &Theme, width: usize) -> Vec<Line<'a>> {
    let mut lines = Vec::new();
    let snippets: Vec<(String, String)> = if i.code_snippets.is_empty() {
        i.code_snippet
            .iter()
            .map(|c| (i.location(), c.clone()))
            .collect()
    } else {
        i.code_snippets
            .iter()
            .map(|s| (opt(&s.path), s.content.clone().unwrap_or_default()))
            .collect()
    };
    if snippets.is_empty() {
        lines.push(Line::from(Span::styled(
            "no code snippet for this finding",
            theme.dim(),
        )));
    }
    for (path, content) in snippets {
        lines.push(heading(theme, &safe(&path)));
        for l in findings_base::text::multi_line(&content).lines() {
            lines.push(Line::from(format!("  {}", l.replace('\t', "    "))));
        }
        lines.push(Line::default());
    }
    if let Some(trace) = &i.dataflow_trace {
        lines.push(heading(theme, "Dataflow"));
        let steps = [
            ("source", &trace.taint_source),
            ("through", &trace.intermediate_vars),
            ("sink", &trace.taint_sink),
        ];
        for (k, (label, locs)) in steps.iter().enumerate() {
            for l in *locs {
                lines.push(Line::from(vec![
                    Span::styled(format!("  {label:<8}"), theme.accent()),
                    Span::raw(location_text(l)),
                ]));
            }
            if k < 2 && !locs.is_empty() {
                lines.push(Line::from(Span::styled("     ↓", theme.dim())));
            }
        }
    }
    if let Some(name) = &i.rule_display_name {
        lines.push(Line::default());
        lines.push(field(theme, "rule", safe(name)));
    }
    if let Some(url) = &i.commit_url {
        lines.push(field(theme, "commit", safe(url)));
    }
    if let Some(url) = i
        .ref_url
        .as_ref()
        .filter(|u| Some(*u) != i.commit_url.as_ref())
    {
        lines.push(field(theme, "ref", safe(url)));
    }
    if let Some(impact) = &i.ai_impact {
        lines.push(Line::default());
        lines.push(heading(theme, "AI impact"));
        lines.extend(paragraph(impact, width, 2, ratatui::style::Style::new()));
    }
    if let Some(x) = &i.rule_explanation {
        lines.push(Line::default());
        lines.push(heading(theme, "Why it matters"));
        lines.extend(paragraph(
            x.summary.as_deref().unwrap_or(""),
            width,
            2,
            theme.title(),
        ));
        lines.extend(paragraph(
            x.explanation.as_deref().unwrap_or(""),
            width,
            2,
            ratatui::style::Style::new(),
        ));
    }
    lines
}

fn remediation<'a>(i: &Issue, theme: &Theme, width: usize) -> Vec<Line<'a>> {
    let mut lines = Vec::new();
    let Some(r) = &i.remediation else {
        return vec![Line::from(Span::styled(
            "no remediation for this finding",
            theme.dim(),
        ))];
    };
    if let Some(fix) = &r.autofix {
        lines.push(heading(theme, "Autofix"));
        if let Some(x) = &fix.explanation {
            lines.extend(paragraph(x, width, 2, ratatui::style::Style::new()));
        }
        lines.push(Line::default());
        for l in findings_base::text::multi_line(fix.fix_diff.as_deref().unwrap_or("")).lines() {
            let style = if l.starts_with('+') && !l.starts_with("+++") {
                theme.added()
            } else if l.starts_with('-') && !l.starts_with("---") {
                theme.removed()
            } else if l.starts_with("@@") {
                theme.accent()
            } else {
                ratatui::style::Style::new()
            };
            lines.extend(
                diff_rows(&l.replace('\t', "    "), width)
                    .into_iter()
                    .map(|row| Line::from(Span::styled(row, style))),
            );
        }
        lines.push(Line::default());
    }
    if let Some(g) = &r.guidance {
        lines.push(heading(theme, "Guidance"));
        lines.extend(paragraph(
            g.summary.as_deref().unwrap_or(""),
            width,
            2,
            theme.title(),
        ));
        lines.extend(paragraph(
            g.guidance_text.as_deref().unwrap_or(""),
            width,
            2,
            ratatui::style::Style::new(),
        ));
    }
    lines
}

/// A diff line in rows of `width` cells, each indented by two and
/// starting with the line's gutter (`+`, `-` or a space), so a wrapped
/// line still reads as added or removed; a hunk or file header (`@@`,
/// `+++`, `---`) is wrapped under its start. A row breaks after a space
/// or a `/` where it can, else anywhere.
fn diff_rows(line: &str, width: usize) -> Vec<String> {
    use unicode_width::UnicodeWidthChar;
    let header = ["@@", "+++", "---"].iter().any(|h| line.starts_with(h));
    let (gutter, text) = match line.chars().next() {
        Some(g @ ('+' | '-' | ' ')) if !header => (g.to_string(), &line[1..]),
        _ => (String::new(), line),
    };
    let lead = format!("  {gutter}");
    let room = width.saturating_sub(lead.len()).max(8);
    let cells = |row: &[char]| -> usize {
        row.iter()
            .map(|c| UnicodeWidthChar::width(*c).unwrap_or(0))
            .sum()
    };
    let mut rows = Vec::new();
    let mut row: Vec<char> = Vec::new();
    for c in text.chars() {
        row.push(c);
        if cells(&row) <= room {
            continue;
        }
        // Too wide: break after the last space or `/`, else before `c`.
        let at = row[..row.len() - 1]
            .iter()
            .rposition(|c| matches!(c, ' ' | '/'))
            .map_or(row.len() - 1, |i| i + 1);
        let rest = row.split_off(at);
        rows.push(format!("{lead}{}", row.iter().collect::<String>()));
        row = rest;
    }
    rows.push(format!("{lead}{}", row.iter().collect::<String>()));
    rows
}

pub(super) fn activity<'a>(i: &Issue, theme: &Theme, width: usize) -> Vec<Line<'a>> {
    if i.activity_history.is_empty() {
        return vec![Line::from(Span::styled(
            "no activity recorded",
            theme.dim(),
        ))];
    }
    let label = |e: &ActivityEvent| {
        e.history_type
            .as_ref()
            .map_or("-".to_owned(), |t| safe(t.label()))
    };
    // The type column as wide as its longest label, then a gap; notes and
    // reasons sit under it. (A time is 16 columns.)
    let label_w = i
        .activity_history
        .iter()
        .map(|e| label(e).width())
        .max()
        .unwrap_or(1);
    let indent = " ".repeat(16 + 2);
    let mut lines = Vec::new();
    for e in &i.activity_history {
        let label = label(e);
        // A title that only repeats the type says nothing more.
        let title = opt(&e.title);
        let title = if title.eq_ignore_ascii_case(&label) {
            String::new()
        } else {
            title
        };
        lines.push(Line::from(vec![
            Span::styled(format!("{:<16}", time(&e.date)), theme.dim()),
            Span::raw("  "),
            Span::styled(
                format!(
                    "{label}{}  ",
                    " ".repeat(label_w.saturating_sub(label.width()))
                ),
                theme.accent(),
            ),
            Span::raw(title),
            Span::styled(
                e.actor
                    .as_deref()
                    .map_or(String::new(), |a| format!("  by {}", safe(a))),
                theme.dim(),
            ),
        ]));
        if let Some(note) = &e.note {
            lines.extend(paragraph(
                note,
                width,
                indent.len(),
                ratatui::style::Style::new(),
            ));
        }
        if let Some(reason) = &e.triage_reason {
            let label = TriageReason::from_wire(reason);
            lines.push(Line::from(Span::styled(
                format!("{indent}reason: {}", safe(label.label())),
                theme.dim(),
            )));
        }
    }
    lines
}

fn supply_chain<'a>(i: &Issue, theme: &Theme, width: usize) -> Vec<Line<'a>> {
    let Some(s) = &i.sca_attributes else {
        return vec![Line::from(Span::styled(
            "no supply-chain data",
            theme.dim(),
        ))];
    };
    let mut lines = Vec::new();
    if let Some(d) = &s.found_dependency {
        lines.push(heading(theme, "Dependency"));
        lines.push(field(
            theme,
            "package",
            format!("{} {}", opt(&d.package), opt(&d.version)),
        ));
        lines.push(field(theme, "ecosystem", opt(&d.ecosystem)));
        lines.push(field(theme, "transitivity", pretty_enum(&d.transitivity)));
        lines.push(field(theme, "manifest", opt(&d.manifest_file_path)));
        lines.push(field(theme, "lockfile", opt(&d.file_path)));
        lines.push(Line::default());
    }
    lines.push(heading(theme, "Advisory"));
    lines.push(field(theme, "id", opt(&s.vuln_database_identifier)));
    lines.push(Line::from(vec![
        Span::styled(format!("{:<18}", "severity"), theme.dim()),
        Span::styled(
            s.severity.as_ref().map_or("-".into(), |v| safe(v.label())),
            theme.severity(s.severity.as_ref()),
        ),
    ]));
    for c in &s.cwes {
        lines.push(field(theme, "CWE", safe(c)));
    }
    if let Some(k) = &s.sca_rule_kind {
        lines.push(field(theme, "rule kind", safe(k.label())));
    }
    if let Some(e) = &s.epss_score {
        lines.push(field(
            theme,
            "EPSS",
            format!(
                "{} (percentile {}) {} {}",
                e.score.map_or("-".into(), |v| format!("{:.2}%", v * 100.0)),
                e.percentile
                    .map_or("-".into(), |v| format!("{:.0}", v * 100.0)),
                pretty_enum(&e.categorization),
                date(&e.updated_at)
            ),
        ));
    }
    lines.push(field(
        theme,
        "reachability",
        s.reachability
            .as_ref()
            .map_or("-".into(), |r| safe(r.label())),
    ));
    if let Some(c) = &s.reachable_condition {
        lines.extend(paragraph(c, width, 18, ratatui::style::Style::new()));
    }
    lines.push(Line::default());
    lines.push(heading(theme, "Fix"));
    if let Some(b) = &s.best_fix {
        lines.push(field(theme, "best fix", safe(&b.spec())));
    }
    for r in &s.fix_recommendations {
        lines.push(field(theme, "recommended", safe(&r.spec())));
    }
    if !s.introduced_by.is_empty() {
        let list: Vec<String> = s.introduced_by.iter().map(|p| safe(&p.spec())).collect();
        lines.push(field(theme, "introduced by", list.join(", ")));
    }
    if let Some(m) = &s.sca_match_info {
        for t in &m.transitive_matches {
            let dep = t.dependency.as_ref().map_or(String::new(), |d| {
                format!("{} {}", opt(&d.package), opt(&d.version))
            });
            lines.push(field(
                theme,
                "transitive path",
                format!("{dep} at {}:{}", opt(&t.path), t.line.unwrap_or(0)),
            ));
        }
    }
    lines
}

fn secrets<'a>(i: &Issue, theme: &Theme) -> Vec<Line<'a>> {
    let Some(s) = &i.secrets_attributes else {
        return vec![Line::from(Span::styled("no secrets data", theme.dim()))];
    };
    let mut lines = vec![
        field(theme, "secret type", opt(&s.secret_type)),
        field(
            theme,
            "validation",
            s.validation_state
                .as_ref()
                .map_or("-".into(), |v| safe(v.label())),
        ),
    ];
    if let Some(h) = &s.historical_info {
        lines.push(Line::default());
        lines.push(heading(theme, "Found in history"));
        lines.push(field(theme, "commit", opt(&h.git_commit)));
        lines.push(field(theme, "committed", time(&h.git_commit_timestamp)));
        lines.push(field(theme, "blob", opt(&h.git_blob)));
    }
    lines
}

/// `TRANSITIVITY_DIRECT` → `direct`: enum-like text the contract does not
/// enumerate, shown readably.
fn pretty_enum(v: &Option<String>) -> String {
    let Some(v) = v else { return "-".into() };
    let last = v.rsplit_once('_').map_or(v.as_str(), |(_, l)| l);
    let looks_enum = v
        .chars()
        .all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit());
    if looks_enum {
        safe(&last.to_lowercase())
    } else {
        safe(v)
    }
}

#[cfg(test)]
mod tests {
    use super::diff_rows;

    #[test]
    fn a_wrapped_diff_line_keeps_its_gutter() {
        let added = format!("+{}", "x".repeat(40));
        let rows = diff_rows(&added, 20);
        assert_eq!(rows.len(), 3, "{rows:?}");
        let words = diff_rows("+let digest = MessageDigest.getInstance(x);", 34);
        assert_eq!(
            words,
            vec!["  +let digest = ", "  +MessageDigest.getInstance(x);"],
        );
        assert!(rows.iter().all(|r| r.starts_with("  +x")), "{rows:?}");
        assert!(rows.iter().all(|r| r.chars().count() <= 20), "{rows:?}");
        let removed = diff_rows(&format!("-{}", "y".repeat(30)), 20);
        assert!(removed.iter().all(|r| r.starts_with("  -y")), "{removed:?}");
        assert_eq!(diff_rows("@@ -1,2 +1,2 @@", 80), vec!["  @@ -1,2 +1,2 @@"]);
        assert_eq!(diff_rows("+short", 80), vec!["  +short"]);
    }
}
