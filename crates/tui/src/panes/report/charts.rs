//! The Report's charts. By severity, by type and the trend count the whole
//! filtered set (the counts and the totals, see [`super::counts`]); top
//! rules and top projects, for the report types about open findings, are
//! the backlog at the period's end (the backlog reports' of the whole
//! set) and, with a period, beside it the findings opened in the period;
//! for the other types they count the loaded findings. Each title says
//! its basis.

use super::labels::{fit, group, key_label};
use super::{ReportPane, SEVERITIES};
use crate::keymap::Action;
use crate::pane::ViewCx;
use crate::widgets::common::{paragraph, safe, spinner};
use findings_model::{Severity, TimeBucketSize, Timestamp};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use unicode_width::UnicodeWidthStr;

/// One bar of a chart: label, count, style of the bar.
struct Bar {
    label: String,
    count: u64,
    style: Style,
    /// A repository: cut on the left, its distinctive end kept.
    keep_end: bool,
}

/// What a chart shows under its title.
enum Body {
    Bars(Vec<Bar>),
    /// Counts by time bucket (oldest first), and the bucket size.
    Trend(Vec<(Timestamp, i64)>, TimeBucketSize),
    /// Not (yet) counted: why.
    Note(String, Style),
}

struct Chart {
    title: String,
    /// Shorter titles, the first that fits taken, for a panel too narrow
    /// for the title (the last is cut if none fits).
    short: Vec<String>,
    body: Body,
    /// The panel's width: fixed, or a share of what is left.
    width: Constraint,
}

pub fn draw(f: &mut Frame, area: Rect, pane: &ReportPane, v: &ViewCx) {
    let w = area.width;
    let panels = if w >= 140 {
        5
    } else if w >= 110 {
        4
    } else if w >= 64 {
        3
    } else if w >= 40 {
        2
    } else {
        1
    };
    // The trend, when a bucket size is chosen, comes before the charts of
    // what is loaded; by type repeats the totals' boxes, so it comes last.
    let mut charts = vec![by_severity(pane, v)];
    if pane.bucket.is_some() {
        charts.push(trend(pane, v));
    }
    use super::dashboard::Block;
    // With a period, what it opened beside the backlog at its end.
    let opened = pane.since.is_some() && pane.tops_from_reports();
    for (name, block) in [
        ("Top rules", Block::Rules),
        ("Top projects", Block::Repositories),
    ] {
        if opened {
            charts.push(opened_top(pane, v, name, block));
        }
        charts.push(whole_set_top(pane, v, name, block).unwrap_or_else(|| {
            let loaded = if block == Block::Rules {
                &pane.stats.top_rules
            } else {
                &pane.stats.top_projects
            };
            top(pane, v, name, loaded)
        }));
        if block == Block::Repositories {
            let projects = charts.len() - if opened { 2 } else { 1 };
            for chart in &mut charts[projects..] {
                if let Body::Bars(bars) = &mut chart.body {
                    for b in bars.iter_mut() {
                        b.keep_end = true;
                    }
                }
            }
        }
    }
    charts.push(by_type(pane, v));
    charts.truncate(panels);
    if charts.len() == 1 {
        charts[0].width = Constraint::Fill(1);
    }
    let rects = Layout::horizontal(charts.iter().map(|c| c.width))
        .spacing(2)
        .split(area);
    for (rect, c) in rects.iter().zip(&charts) {
        draw_chart(f, *rect, v, c);
    }
}

/// The note of a chart still counting (or stopped, or failed).
fn pending(pane: &ReportPane, v: &ViewCx) -> Body {
    let counts = &pane.counts;
    let theme = v.theme;
    if let Some(e) = counts.error.as_ref().or(pane.list.loader.error.as_ref()) {
        let retry = key_label(v, Action::Refresh, "r");
        return Body::Note(
            format!("failed: {} ({retry} retries)", safe(e)),
            theme.error(),
        );
    }
    if pane.is_counting() {
        return Body::Note(format!("{} counting…", spinner(v.spinner)), theme.dim());
    }
    let retry = key_label(v, Action::Refresh, "r");
    Body::Note(format!("stopped ({retry} reloads)"), theme.dim())
}

/// " (all 1,234)": the whole set's size, once known.
fn of_all(pane: &ReportPane) -> String {
    pane.current_totals()
        .and_then(|t| t.all)
        .map(|n| format!(" (all {})", group(n)))
        .unwrap_or_default()
}

fn by_severity(pane: &ReportPane, v: &ViewCx) -> Chart {
    let theme = v.theme;
    let total = pane.current_totals().and_then(|t| t.all);
    let body = match pane.counts.severities() {
        Some(counts) => {
            let mut bars: Vec<Bar> = SEVERITIES
                .iter()
                .zip(counts)
                .map(|(s, n)| Bar {
                    label: s.label().to_owned(),
                    count: n.max(0).unsigned_abs(),
                    style: theme.severity(Some(&to_severity(s))),
                    keep_end: false,
                })
                .collect();
            // Info and unrated findings: what the four leave of the total.
            let rest = total.map_or(0, |t| t - counts.iter().sum::<i64>());
            if rest > 0 {
                bars.push(Bar {
                    label: "other".to_owned(),
                    count: rest.unsigned_abs(),
                    style: theme.severity(None),
                    keep_end: false,
                });
            }
            Body::Bars(bars)
        }
        None => pending(pane, v),
    };
    Chart {
        title: format!("By severity{}", of_all(pane)),
        short: Vec::new(),
        body,
        width: Constraint::Length(26),
    }
}

fn to_severity(s: &findings_model::FindingSeverity) -> Severity {
    use findings_model::FindingSeverity as F;
    match s {
        F::Critical => Severity::Critical,
        F::High => Severity::High,
        F::Medium => Severity::Medium,
        _ => Severity::Low,
    }
}

fn by_type(pane: &ReportPane, v: &ViewCx) -> Chart {
    let theme = v.theme;
    let body = match pane.current_totals() {
        Some(t) => {
            let parts = [t.code, t.sca, t.secrets].map(|n| n.unwrap_or(0).max(0));
            let mut bars: Vec<Bar> = ["code", "supply chain", "secrets"]
                .iter()
                .zip(parts)
                .map(|(label, n)| Bar {
                    label: (*label).to_owned(),
                    // A negative count (a server's mistake) shows as none.
                    count: u64::try_from(n).unwrap_or(0),
                    style: theme.accent(),
                    keep_end: false,
                })
                .collect();
            let rest = t.all.map_or(0, |a| a - parts.iter().sum::<i64>());
            if rest > 0 {
                bars.push(Bar {
                    label: "other".to_owned(),
                    count: rest.unsigned_abs(),
                    style: theme.accent(),
                    keep_end: false,
                });
            }
            Body::Bars(bars)
        }
        None => pending(pane, v),
    };
    Chart {
        title: format!("By type{}", of_all(pane)),
        short: Vec::new(),
        body,
        width: Constraint::Length(24),
    }
}

fn trend(pane: &ReportPane, v: &ViewCx) -> Chart {
    let size = pane
        .counts
        .bucket_size
        .clone()
        .unwrap_or(TimeBucketSize::Day);
    let (body, max) = match pane.counts.trend() {
        Some(counts) => {
            let max = counts.iter().map(|(_, n)| *n).max().unwrap_or(0);
            (Body::Trend(counts, size.clone()), Some(max))
        }
        None => (pending(pane, v), None),
    };
    let max = max
        .map(|m| format!(" (max {})", group(m)))
        .unwrap_or_default();
    // The time the report type reads is the time its buckets read.
    let time = match pane.report_type {
        findings_model::ReportType::BacklogActivity => "Active",
        _ => "Created",
    };
    Chart {
        title: format!("{time} per {}{max}", size.label()),
        short: Vec::new(),
        body,
        width: Constraint::Fill(1),
    }
}

/// A top chart of the whole backlog at the period's end, from the report
/// of `block`'s view, for the report types about open findings once its
/// answer is in (else the loaded pages' chart stands): `Top rules · all
/// 1,098 open (all time)`, `Top rules · open at 2026-11-01: 831`.
fn whole_set_top(
    pane: &ReportPane,
    v: &ViewCx,
    name: &str,
    block: super::dashboard::Block,
) -> Option<Chart> {
    let top = pane
        .dashboard
        .top_of(block)
        .filter(|_| pane.tops_from_reports())?;
    // The same findings as the report's, or said to be others.
    let open = group(top.open);
    let (title, short) = if pane.tops_of_whole_set() {
        (
            format!("{name} · all {open} open (all time)"),
            vec![
                format!("{name} · all {open} open"),
                format!("{name} · all open, all time"),
                format!("{name} · all open"),
            ],
        )
    } else {
        let end = pane.end_words();
        (
            format!("{name} · open {end}: {open}"),
            // Narrower, the count gives way before the basis.
            vec![
                format!("{name} · open {end}"),
                match pane.until {
                    Some(_) => format!("{name} · open at {}", pane.end_day(true)),
                    None => format!("{name} · open now"),
                },
                format!("{name} · at end"),
            ],
        )
    };
    let items: Vec<(String, u64)> = if block == super::dashboard::Block::Rules {
        rule_bars(pane, top.keys.iter().zip(top.items.iter().map(|(_, n)| *n)))
    } else {
        top.items.clone()
    };
    Some(Chart {
        title,
        short,
        body: bars(&items, v),
        width: Constraint::Fill(1),
    })
}

/// Rules as a bar's narrow label: by their id's last part (told apart
/// where two share one), a supply-chain rule, whose id says nothing, by
/// its advisory and package.
fn rule_bars<'a>(
    pane: &ReportPane,
    rules: impl Iterator<Item = (&'a String, u64)>,
) -> Vec<(String, u64)> {
    let rules: Vec<(&String, u64)> = rules.collect();
    let pairs: Vec<(&str, &str)> = rules
        .iter()
        .map(|(key, _)| (key.as_str(), findings_model::short_rule(key)))
        .collect();
    super::stats::rule_labels(&pairs)
        .into_iter()
        .zip(&rules)
        .map(|(label, (key, n))| {
            let advisory = pane.rule_labels.of(key).is_some() || pane.known.names_an_advisory(key);
            (
                if advisory {
                    pane.rule_shown(key)
                } else {
                    label
                },
                *n,
            )
        })
        .collect()
}

/// A top chart of the findings opened in the period (every state), most
/// first: `Top rules · opened in last 30 days (still open 118 of 210)`.
fn opened_top(pane: &ReportPane, v: &ViewCx, name: &str, block: super::dashboard::Block) -> Chart {
    use super::dashboard::{Block, OpenedAnswer};
    let span = pane.opened_span();
    let short_span = pane.opened_span_short();
    let (title, counted, body) = match (&pane.dashboard.opened, pane.dashboard.opened()) {
        (_, Some(o)) => {
            let t = o.totals();
            let rows = &pane.dashboard.opened_tops[usize::from(block == Block::Repositories)];
            let items: Vec<(String, u64)> = if block == Block::Rules {
                rule_bars(pane, rows.iter().map(|(k, n)| (k, n.opened)))
            } else {
                rows.iter().map(|(k, n)| (k.clone(), n.opened)).collect()
            };
            let body = if items.is_empty() {
                Body::Note(format!("none opened in the {span}"), v.theme.dim())
            } else {
                bars(&items, v)
            };
            let (still, opened) = (
                findings_base::text::thousands_of(t.still_open),
                findings_base::text::thousands_of(t.opened),
            );
            (
                format!("{name} · opened in {span} (still open {still} of {opened})"),
                Some(format!(
                    "{name} · opened {short_span} ({still} of {opened} open)"
                )),
                body,
            )
        }
        (OpenedAnswer::Failed(why), _) => (
            format!("{name} · opened in {span}"),
            None,
            Body::Note(format!("failed: {}", safe(why)), v.theme.error()),
        ),
        _ => (
            format!("{name} · opened in {span}"),
            None,
            Body::Note(format!("{} counting…", spinner(v.spinner)), v.theme.dim()),
        ),
    };
    Chart {
        title,
        // Narrower, the dates and counts give way before the basis.
        short: counted
            .into_iter()
            .chain([
                format!("{name} · opened in {span}"),
                format!("{name} · opened {short_span}"),
                format!("{name} · opened"),
            ])
            .collect(),
        body,
        width: Constraint::Fill(1),
    }
}

/// The bars of a top chart.
fn bars(items: &[(String, u64)], v: &ViewCx) -> Body {
    Body::Bars(
        items
            .iter()
            .map(|(name, count)| Bar {
                label: safe(name),
                count: *count,
                style: v.theme.accent(),
                keep_end: false,
            })
            .collect(),
    )
}

/// A chart of what is loaded: its title says of how many findings, or
/// "all" once every page is in.
fn top(pane: &ReportPane, v: &ViewCx, name: &str, items: &[(String, u64)]) -> Chart {
    let theme = v.theme;
    let loaded = pane.stats.count;
    let scope = if pane.list.complete {
        format!("all {}", findings_base::text::thousands_of(loaded))
    } else {
        format!("of {} loaded", findings_base::text::thousands_of(loaded))
    };
    let body = if loaded == 0 {
        if pane.list.loader.is_loading() {
            Body::Note(format!("{} loading…", spinner(v.spinner)), theme.dim())
        } else {
            Body::Note("no findings loaded".to_owned(), theme.dim())
        }
    } else {
        bars(items, v)
    };
    Chart {
        title: format!("{name} ({scope})"),
        short: vec![format!("{name}, {}", scope.trim_start_matches("of "))],
        body,
        width: Constraint::Fill(1),
    }
}

fn draw_chart(f: &mut Frame, area: Rect, v: &ViewCx, chart: &Chart) {
    if area.height == 0 || area.width == 0 {
        return;
    }
    let theme = v.theme;
    let width = area.width as usize;
    let title = std::iter::once(&chart.title)
        .chain(&chart.short)
        .find(|t| t.width() <= width)
        .or(chart.short.last())
        .unwrap_or(&chart.title);
    let mut lines = vec![Line::from(Span::styled(fit(title, width), theme.title()))];
    let rows = area.height.saturating_sub(1) as usize;
    match &chart.body {
        Body::Note(text, style) => {
            lines.extend(paragraph(text, width, 0, *style).into_iter().take(rows));
        }
        Body::Bars(bars) => lines.extend(bar_lines(bars, width, rows, v)),
        Body::Trend(counts, size) => lines.extend(trend_lines(counts, size, width, rows, v)),
    }
    f.render_widget(Paragraph::new(lines), area);
}

fn bar_lines(bars: &[Bar], width: usize, rows: usize, v: &ViewCx) -> Vec<Line<'static>> {
    let max = bars.iter().map(|b| b.count).max().unwrap_or(0).max(1);
    // Grouped by thousands, as every other figure of the TUI.
    let shown = |n: u64| group(i64::try_from(n).unwrap_or(i64::MAX));
    let count_w = bars.iter().map(|b| shown(b.count).len()).max().unwrap_or(1);
    let longest = bars.iter().map(|b| b.label.width()).max().unwrap_or(0);
    // Labels take at most half the panel; the bar gets what is left.
    let label_w = longest.min(width / 2).max(1);
    let bar_w = width.saturating_sub(label_w + count_w + 2);
    bars.iter()
        .take(rows)
        .map(|b| {
            let label = if b.keep_end {
                findings_base::text::cut_left(&b.label, label_w)
            } else {
                fit_label(&b.label, label_w)
            };
            let pad = label_w.saturating_sub(label.width());
            Line::from(vec![
                Span::raw(format!("{label}{} ", " ".repeat(pad))),
                Span::styled(bar(b.count, max, bar_w), b.style),
                Span::styled(format!(" {:>count_w$}", shown(b.count)), v.theme.dim()),
            ])
        })
        .collect()
}

/// Columns of the bucket counts, `rows - 1` high, over a line with the
/// first and last bucket's start. Buckets that do not fit are the oldest
/// left out.
fn trend_lines(
    counts: &[(Timestamp, i64)],
    size: &TimeBucketSize,
    width: usize,
    rows: usize,
    v: &ViewCx,
) -> Vec<Line<'static>> {
    const LEVELS: [char; 9] = [' ', '▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    let height = rows.saturating_sub(1);
    if counts.is_empty() || height == 0 || width == 0 {
        return Vec::new();
    }
    let slot = (width / counts.len()).clamp(1, 4);
    let shown = &counts[counts.len().saturating_sub(width / slot)..];
    // A gap between columns when there is room for one.
    let column = if slot >= 2 { slot - 1 } else { 1 };
    let max = u128::from(
        shown
            .iter()
            .map(|(_, n)| *n)
            .max()
            .unwrap_or(0)
            .max(1)
            .unsigned_abs(),
    );
    let eighths: Vec<usize> = shown
        .iter()
        .map(|(_, n)| {
            let e = u128::from((*n).max(0).unsigned_abs()) * height as u128 * 8 / max;
            // A count above zero always shows a sliver.
            // At most `height` * 8, as n is at most max.
            if *n > 0 {
                usize::try_from(e.max(1)).unwrap_or(usize::MAX)
            } else {
                0
            }
        })
        .collect();
    let mut lines = Vec::new();
    for row in 0..height {
        let from_bottom = height - 1 - row;
        let text: String = eighths
            .iter()
            .map(|e| {
                let level = e.saturating_sub(from_bottom * 8).min(8);
                let mut cell = LEVELS[level].to_string().repeat(column);
                cell.push_str(&" ".repeat(slot - column));
                cell
            })
            .collect();
        lines.push(Line::from(Span::styled(text, v.theme.accent())));
    }
    let label = |t: &Timestamp| match size {
        TimeBucketSize::Month => t.format("%Y-%m").to_string(),
        _ => t.format("%m-%d").to_string(),
    };
    let first = shown.first().map(|(t, _)| label(t)).unwrap_or_default();
    let last = shown.last().map(|(t, _)| label(t)).unwrap_or_default();
    let span = (shown.len() * slot).min(width);
    let axis = if shown.len() > 1 && first.width() + last.width() < span {
        let gap = span - first.width() - last.width();
        format!("{first}{}{last}", " ".repeat(gap))
    } else {
        fit(&last, width)
    };
    lines.push(Line::from(Span::styled(axis, v.theme.dim())));
    lines
}

/// A horizontal bar of `count / max` of `width` cells, in eighths, padded.
fn bar(count: u64, max: u64, width: usize) -> String {
    const PARTS: [char; 8] = [' ', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];
    if width == 0 {
        return String::new();
    }
    let eighths = (u128::from(count) * width as u128 * 8 / u128::from(max.max(1))) as usize;
    // A count above zero always shows a sliver.
    let eighths = if count > 0 { eighths.max(1) } else { 0 };
    let full = eighths / 8;
    let mut s = "█".repeat(full.min(width));
    if full < width {
        let part = PARTS[eighths % 8];
        s.push(part);
        s.push_str(&" ".repeat(width - full - 1));
    }
    s
}

/// Cuts a bar's label to `width` cells, in the name rather than in the
/// qualifier that tells it from a namesake (`tainted-sql… (java)`).
pub(super) fn fit_label(label: &str, width: usize) -> String {
    if let Some((name, qualifier)) = label.rsplit_once(" (")
        && qualifier.ends_with(')')
        && label.width() > width
    {
        let tail = format!(" ({qualifier}");
        // The name keeps a few cells, else the qualifier is what is cut.
        if width >= tail.width() + 4 {
            return format!("{}{tail}", fit(name, width - tail.width()));
        }
    }
    fit(label, width)
}
