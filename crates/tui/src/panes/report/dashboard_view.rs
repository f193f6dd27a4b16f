//! The charts area when it shows one of the dashboard's reports: a title
//! saying what it covers, then its rows with their values (the most
//! recent buckets, the worst repositories and rules), each cut to the
//! width.

use super::ReportPane;
use super::dashboard::{Answer, Block};
use crate::keymap::Action;
use crate::message::DashboardAnswer;
use crate::pane::ViewCx;
use crate::widgets::common::{safe, spinner};
use findings_base::text::thousands;
use findings_model::*;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use unicode_width::UnicodeWidthStr;

const SEVERITY_NAMES: [&str; 4] = ["critical", "high", "medium", "low"];

/// The view shown; on a wide screen (160 columns and more) the next one
/// beside it.
pub fn draw(f: &mut Frame, area: Rect, pane: &ReportPane, v: &ViewCx) {
    if area.width >= 160 {
        let [left, right] = ratatui::layout::Layout::horizontal([
            ratatui::layout::Constraint::Percentage(50),
            ratatui::layout::Constraint::Percentage(50),
        ])
        .areas(area);
        draw_block(f, left, pane, pane.dashboard.block, v);
        draw_block(f, right, pane, pane.dashboard.beside(), v);
    } else {
        draw_block(f, area, pane, pane.dashboard.block, v);
    }
}

fn draw_block(f: &mut Frame, area: Rect, pane: &ReportPane, block: Block, v: &ViewCx) {
    let Some(report) = block.report() else {
        return;
    };
    let width = area.width as usize;
    let filters = pane.dashboard.asked_with().cloned().unwrap_or_default();
    let rows = area.height.saturating_sub(1) as usize;
    let mut shown = None;
    let body: Vec<Line> = match pane.dashboard.answer(report) {
        Answer::NotAsked => vec![Line::styled("  not asked yet", v.theme.dim())],
        Answer::Loading(_) => vec![Line::styled(
            format!("  {} asking the report…", spinner(v.spinner)),
            v.theme.dim(),
        )],
        Answer::NotOffered(why) => vec![Line::styled(
            format!(
                "  this deployment does not offer the {} report ({}); the other views work",
                block.label(),
                safe(why)
            ),
            v.theme.dim(),
        )],
        Answer::Failed(why) => vec![Line::styled(
            format!("  failed: {} (r asks again)", safe(why)),
            v.theme.error(),
        )],
        Answer::Known(answer) => {
            let (lines, window) = known(block, answer, rows, width, pane, v);
            shown = window;
            lines
        }
    };
    // A list's entries add up to the open findings it covers.
    let entries = pane.dashboard.entries_of(block);
    let open = (!entries.is_empty()).then(|| entries.iter().map(|e| e.total).sum::<i64>());
    let mut lines = vec![title(block, &filters, shown, open, pane, v)];
    lines.extend(body.into_iter().take(rows));
    let lines: Vec<Line> = lines.into_iter().map(|l| cut(l, width)).collect();
    f.render_widget(Paragraph::new(lines), area);
}

/// The rows a view shows when they do not all fit: the first and last
/// shown (from 1) and how many there are.
#[derive(Debug, Clone, Copy)]
struct Window {
    first: usize,
    last: usize,
    of: usize,
}

/// The first of `len` rows to show in `rows` lines so that `selected`
/// stays in sight, and the window when it is not all of them.
fn scrolled(selected: usize, len: usize, rows: usize) -> (usize, Option<Window>) {
    let start = (selected + 1).saturating_sub(rows);
    let window = (len > rows && rows > 0).then(|| Window {
        first: start + 1,
        last: (start + rows).min(len),
        of: len,
    });
    (start, window)
}

/// "Activity 9–13 of 13 · since 2026-10-26, by week · … · d next view",
/// "Repositories 1–8 of 15 · 1,098 open at the period's end, archived
/// included · …".
fn title<'a>(
    block: Block,
    f: &ReportFilters,
    shown: Option<Window>,
    open: Option<i64>,
    pane: &ReportPane,
    v: &ViewCx,
) -> Line<'a> {
    let since = f
        .time_period
        .as_ref()
        .and_then(|p| p.since)
        .map_or("all time".to_owned(), |t| {
            format!("since {}", t.format("%Y-%m-%d"))
        });
    let bucket = f
        .time_bucket_size
        .as_ref()
        .map_or(String::new(), |b| format!(", by {}", b.label()));
    // What the view covers: the reports count archived projects too
    // (the Issues list leaves them out unless asked).
    let scope = match block {
        Block::Repositories | Block::Rules => {
            format!(
                "{}, archived included",
                super::opened_view::scope(pane, open)
            )
        }
        _ => format!("{since}{bucket}, archived included"),
    };
    let position = shown.map_or(String::new(), |w| {
        format!("{}–{} of {} ", w.first, w.last, w.of)
    });
    Line::from(vec![
        Span::styled(
            format!(" {} ", findings_base::text::capitalised(block.label())),
            v.theme.title(),
        ),
        Span::styled(position, v.theme.accent()),
        Span::styled(
            format!(
                "· {scope} · {}{} · {} next view",
                block.meaning(),
                match block {
                    Block::Repositories | Block::Rules => {
                        " · j/k choose, Enter: its open findings in Issues"
                    }
                    Block::Activity | Block::Backlog => " · j/k scroll",
                    _ => "",
                },
                v.key(super::KEYS, Action::NextReportView)
            ),
            v.theme.dim(),
        ),
    ])
}

/// The lines of a report that answered, and the window they scroll in
/// (when not all fit).
fn known<'a>(
    block: Block,
    answer: &DashboardAnswer,
    rows: usize,
    width: usize,
    pane: &ReportPane,
    v: &ViewCx,
) -> (Vec<Line<'a>>, Option<Window>) {
    match (block, answer) {
        (Block::Activity, DashboardAnswer::Activity(a)) => activity(a, rows, width, pane, v),
        (Block::Backlog, DashboardAnswer::BySeverity(r)) => backlog(r, rows, width, pane, v),
        (Block::Repositories | Block::Rules, _) => entries(block, rows, width, pane, v),
        (Block::OpenAge, DashboardAnswer::BySeverity(r)) => (open_age(r, pane, v), None),
        _ => (
            vec![Line::styled(
                "  an answer of another report",
                v.theme.error(),
            )],
            None,
        ),
    }
}

/// The selected row of `block`'s `len`, in the view the keys move (the
/// other, beside it on a wide screen, shows its first rows, or the
/// activity's latest).
fn selected(block: Block, pane: &ReportPane, len: usize) -> Option<usize> {
    if block == pane.dashboard.block {
        Some(pane.dashboard.selected_row())
    } else if matches!(block, Block::Activity | Block::Backlog) {
        Some(len.saturating_sub(1))
    } else {
        None
    }
}

/// The activity: its headline, then the buckets that fit (the selected
/// one in sight).
fn activity<'a>(
    a: &ActivityReport,
    rows: usize,
    width: usize,
    pane: &ReportPane,
    v: &ViewCx,
) -> (Vec<Line<'a>>, Option<Window>) {
    let mut lines = activity_headline(a, width, pane);
    let len = a.buckets.len();
    let at = selected(Block::Activity, pane, len)
        .unwrap_or(0)
        .min(len.saturating_sub(1));
    // Narrow, the words go to one header line over the figures.
    let header = width < NARROW_BUCKETS && len > 0 && rows > lines.len() + 1;
    let fits = rows.saturating_sub(lines.len() + usize::from(header));
    let (start, window) = scrolled(at, len, fits);
    // A bucket shorter than its size (the last of 30 days in weeks) says
    // its days, where there is room; the dates keep one column.
    let size = pane.dashboard_bucket();
    let whens: Vec<String> = a
        .buckets
        .iter()
        .map(|b| {
            let when = bucket_start(b.time_period.as_ref(), width);
            match b.time_period.as_ref().and_then(|p| p.partial_days(&size)) {
                Some(days) if width >= 90 => format!("{when} ({days}d)"),
                _ => when,
            }
        })
        .collect();
    let column = whens.iter().map(String::len).max().unwrap_or(0);
    if header {
        lines.push(Line::styled(
            format!(
                "  {:<column$}{:>7}{:>7}{:>8}{:>6}{:>6}  net",
                "", "opened", "fixed", "ignored", "prov", "rem"
            ),
            v.theme.dim(),
        ));
    }
    for (i, b) in a.buckets.iter().enumerate().skip(start).take(fits) {
        let mut line = bucket_line(b, &format!("{:<column$}", whens[i]), width, v);
        // Marked where the keys move it.
        if Block::Activity == pane.dashboard.block && i == at {
            line = marked(line, v);
        }
        lines.push(line);
    }
    (lines, window)
}

/// The backlog trend: what was open at each bucket's end, by severity and
/// in all, with how it moved since the bucket before (the selected bucket
/// in sight; the latest at first).
fn backlog<'a>(
    r: &BySeverityReport,
    rows: usize,
    width: usize,
    pane: &ReportPane,
    v: &ViewCx,
) -> (Vec<Line<'a>>, Option<Window>) {
    let len = r.buckets.len();
    if len == 0 {
        return (vec![Line::styled("  no buckets", v.theme.dim())], None);
    }
    let at = selected(Block::Backlog, pane, len)
        .unwrap_or(0)
        .min(len - 1);
    let (start, window) = scrolled(at, len, rows);
    let mut lines = Vec::new();
    for (i, b) in r.buckets.iter().enumerate().skip(start).take(rows) {
        let before = i.checked_sub(1).map(|k| r.buckets[k].counts.total());
        let mut line = backlog_line(b, before, width, v);
        if Block::Backlog == pane.dashboard.block && i == at {
            line = marked(line, v);
        }
        lines.push(line);
    }
    (lines, window)
}

/// A bucket's start: its date, without the year under 80 columns.
fn bucket_start(period: Option<&TimePeriod>, width: usize) -> String {
    let format = if width < 80 { "%m-%d" } else { "%Y-%m-%d" };
    period
        .and_then(|p| p.since)
        .map_or("?".to_owned(), |t| t.format(format).to_string())
}

/// One bucket of the backlog: its start, the open findings by severity,
/// their total and its change since the bucket before (red when it grew).
fn backlog_line<'a>(b: &SeverityBucket, before: Option<i64>, width: usize, v: &ViewCx) -> Line<'a> {
    let when = bucket_start(b.time_period.as_ref(), width);
    let mut line = severity_line("", &b.counts, width, v);
    // `severity_line` leads with the total: the date goes first.
    if let Some(first) = line.spans.first_mut() {
        first.content = format!("  {when}{}", first.content).into();
    }
    line.spans.pop();
    if let Some(before) = before {
        let change = b.counts.total() - before;
        let style = if change > 0 {
            v.theme.error()
        } else {
            v.theme.ok()
        };
        let sign = if change > 0 { "+" } else { "" };
        line.spans
            .push(Span::styled(format!("{sign}{}", thousands(change)), style));
    }
    line
}

/// The headline is the rows added up, every term of the net shown;
/// against the period before only when a period is chosen ("all time"
/// has none before it). Wrapped to `width`; none without rows.
fn activity_headline<'a>(a: &ActivityReport, width: usize, pane: &ReportPane) -> Vec<Line<'a>> {
    let mut lines = Vec::new();
    let before = a
        .previous_period
        .filter(|_| pane.since.is_some())
        .map(|p| p.sums());
    if !a.buckets.is_empty() {
        let parts = a.row_sums().terms(before.as_ref(), thousands);
        let mut text = String::from(if before.is_some() {
            "  the rows, against the period before:"
        } else {
            "  the rows added up:"
        });
        let mut first_on_line = true;
        for part in parts {
            if text.width() + 3 + part.width() > width {
                lines.push(Line::raw(std::mem::take(&mut text)));
                text.push_str("   ");
                first_on_line = true;
            }
            text.push_str(if first_on_line { " " } else { " · " });
            text.push_str(&part);
            first_on_line = false;
        }
        lines.push(Line::raw(text));
    }
    lines
}

/// Under this width the activity's buckets are figures under one header
/// line (the words would push the net out).
const NARROW_BUCKETS: usize = 80;

/// One bucket of the activity: its start, what it opened, fixed, ignored,
/// provisionally ignored and removed (the columns of the headless table,
/// so the headline above is these added up), and its net (red when it
/// grew). Under 100 columns the words shorten (the headline says them
/// whole); under 80 the year goes and the words go to a header line, so
/// the net is never cut.
fn bucket_line<'a>(b: &ActivityBucket, when: &str, width: usize, v: &ViewCx) -> Line<'a> {
    let n = |x: Option<i64>| thousands(x.unwrap_or(0));
    let figures = if width < NARROW_BUCKETS {
        // Under the header line `activity` writes.
        format!(
            "  {when}{:>7}{:>7}{:>8}{:>6}{:>6}  ",
            n(b.opened),
            n(b.fixed),
            n(b.ignored),
            n(b.provisionally_ignored),
            n(b.removed),
        )
    } else {
        let [opened, fixed, ignored, provisionally, removed] = if width < 100 {
            ["opn", "fix", "ign", "prv", "rem"]
        } else {
            ["opened", "fixed", "ignored", "prov", "removed"]
        };
        format!(
            "  {when}  {opened} {:>5}  {fixed} {:>5}  {ignored} {:>5}  {provisionally} {:>4}  {removed} {:>4}  ",
            n(b.opened),
            n(b.fixed),
            n(b.ignored),
            n(b.provisionally_ignored),
            n(b.removed),
        )
    };
    let net = b.net.unwrap_or(0);
    let style = if net > 0 {
        v.theme.error()
    } else {
        v.theme.ok()
    };
    let word = if width < NARROW_BUCKETS { "" } else { "net " };
    Line::from(vec![
        Span::raw(figures),
        Span::styled(
            format!("{word}{}{}", if net > 0 { "+" } else { "" }, thousands(net)),
            style,
        ),
    ])
}

/// The repositories' or rules' entries that fit, by severity where known
/// (the selected one in sight and marked).
fn entries<'a>(
    block: Block,
    rows: usize,
    width: usize,
    pane: &ReportPane,
    v: &ViewCx,
) -> (Vec<Line<'a>>, Option<Window>) {
    let entries = pane.dashboard.entries_of(block);
    if entries.is_empty() {
        return (
            vec![Line::styled("  no open findings", v.theme.dim())],
            None,
        );
    }
    // With what each opened in the period: a header line names the
    // figures.
    let opened = entries.iter().any(|e| e.opened.is_some());
    let mut lines = Vec::new();
    if opened && rows > 1 {
        lines.push(super::opened_view::header(block, pane, width, v));
    }
    let rows = rows - lines.len();
    let selected = selected(block, pane, entries.len());
    let (start, window) = scrolled(selected.unwrap_or(0), entries.len(), rows);
    lines.extend(
        entries
            .iter()
            .enumerate()
            .skip(start)
            .take(rows)
            .map(|(i, e)| {
                let mut line = match &e.by_severity {
                    _ if opened => super::opened_view::line(block, e, width, pane, v),
                    Some(counts) => severity_line(&safe(&e.key), counts, width, v),
                    None => Line::raw(format!(
                        "  {:>6}  {}",
                        thousands(e.total),
                        safe(&pane.rule_shown(&e.key))
                    )),
                };
                if Some(i) == selected {
                    line = marked(line, v);
                }
                line
            }),
    );
    (lines, window)
}

/// How old the oldest open finding of each chosen severity is, against
/// its target (and what it was at the period's start), then how many are
/// past their target.
fn open_age<'a>(r: &BySeverityReport, pane: &ReportPane, v: &ViewCx) -> Vec<Line<'a>> {
    let (Some(first), Some(last)) = (r.buckets.first(), r.buckets.last()) else {
        return vec![Line::styled("  no buckets", v.theme.dim())];
    };
    let [f, l] = [first.counts, last.counts].map(|c| [c.critical, c.high, c.medium, c.low]);
    let targets = pane.sla_days.most_severe_first();
    let mut lines: Vec<Line> = SEVERITY_NAMES
        .iter()
        .zip(f.iter().zip(l))
        .zip(targets)
        .enumerate()
        // The severity toggles choose the rows, as every view's.
        .filter(|(k, _)| severity_chosen(pane, *k))
        .map(|(_, row)| row)
        .map(|((name, (then, now)), target)| {
            let was = then.map_or(String::new(), |t| {
                format!(", was {t} at the period's start")
            });
            let target_days = i64::from(target);
            let (text, style) = match now {
                None => ("nothing open".to_owned(), v.theme.dim()),
                Some(n) if n > target_days => (
                    format!(
                        "{n} days: over the {target}-day target by {}{was}",
                        n - target_days
                    ),
                    v.theme.error(),
                ),
                Some(n) => (
                    format!("{n} days: within the {target}-day target{was}"),
                    v.theme.ok(),
                ),
            };
            Line::from(vec![
                Span::styled(
                    format!("  {name:<9}"),
                    v.theme.severity(Some(&severity(name))),
                ),
                Span::styled(text, style),
            ])
        })
        .collect();
    lines.push(past_target(pane, v));
    lines
}

/// `past target now: crit 209/233 · high 412/580 · med 20/300 · low 0/100`:
/// the open findings past their target, of those open (the reports give
/// the median age only; these are counted from the open findings).
fn past_target<'a>(pane: &ReportPane, v: &ViewCx) -> Line<'a> {
    let over = &pane.over_target;
    let Some(counts) = &over.counts else {
        let text = match &over.error {
            Some(e) => format!("  past target now: failed: {}", safe(e)),
            None if over.is_loading() => format!(
                "  {} counting the open findings past their target…",
                spinner(v.spinner)
            ),
            None => String::new(),
        };
        return Line::styled(text, v.theme.dim());
    };
    let parts: Vec<String> = ["crit", "high", "med", "low"]
        .iter()
        .enumerate()
        .filter(|(k, _)| severity_chosen(pane, *k))
        .map(|(k, name)| {
            format!(
                "{name} {}/{}",
                findings_base::text::thousands_of(counts.over[k]),
                findings_base::text::thousands_of(counts.open[k])
            )
        })
        .collect();
    let mut text = format!("  past target now: {}", parts.join(" · "));
    if counts.undated > 0 {
        text.push_str(&format!(
            " · {} undated",
            findings_base::text::thousands_of(counts.undated)
        ));
    }
    // Counted from the Issues list, which leaves archived projects out
    // (the medians above count them).
    text.push_str(" (of the open in the Issues list, archived left out)");
    let over_chosen: u64 = (0..4)
        .filter(|&k| severity_chosen(pane, k))
        .map(|k| counts.over[k])
        .sum();
    let style = if over_chosen > 0 {
        v.theme.error()
    } else {
        v.theme.ok()
    };
    Line::styled(text, style)
}

/// Whether the severity toggles show severity `k` (critical first); none
/// on means all.
fn severity_chosen(pane: &ReportPane, k: usize) -> bool {
    pane.severities.iter().all(|on| !on) || pane.severities.get(k).copied().unwrap_or(false)
}

fn severity(name: &str) -> Severity {
    match name {
        "critical" => Severity::Critical,
        "high" => Severity::High,
        "medium" => Severity::Medium,
        _ => Severity::Low,
    }
}

/// A repository's total and counts by severity, then its name: under 80
/// columns the severities by their initials, the name cut at its start
/// (`…/payments-api`), as the lists keep names' ends.
fn severity_line<'a>(name: &str, counts: &BySeverity, width: usize, v: &ViewCx) -> Line<'a> {
    let narrow = width < 80;
    let mut spans = vec![Span::raw(format!("  {:>6}  ", thousands(counts.total())))];
    let labels = if narrow {
        ["c", "h", "m", "l"]
    } else {
        ["crit ", "high ", "med ", "low "]
    };
    spans.extend(super::labels::severity_counts(counts, labels, v));
    let used: usize = spans.iter().map(|s| s.content.width()).sum();
    spans.push(Span::raw(findings_base::text::cut_left(
        name,
        width.saturating_sub(used).max(8),
    )));
    Line::from(spans)
}

/// The selected row: highlighted, and `›` in its first column, so it is
/// seen without colours too.
fn marked<'a>(line: Line<'a>, v: &ViewCx) -> Line<'a> {
    let mut spans = line.spans;
    if let Some(first) = spans.first_mut()
        && first.content.starts_with(' ')
    {
        first.content = format!("›{}", &first.content[1..]).into();
    }
    Line::from(spans).style(v.theme.selected())
}

/// A line cut to `width` columns.
fn cut(line: Line<'_>, width: usize) -> Line<'_> {
    // The line's own style (the selected row's) stays.
    let style = line.style;
    let mut used = 0;
    let mut spans = Vec::new();
    for span in line.spans {
        let w = span.content.width();
        if used + w <= width {
            used += w;
            spans.push(span);
            continue;
        }
        let mut kept = String::new();
        for c in span.content.chars() {
            let cw = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
            if used + cw + 1 > width {
                break;
            }
            used += cw;
            kept.push(c);
        }
        kept.push('…');
        spans.push(Span::styled(kept, span.style));
        break;
    }
    Line::from(spans).style(style)
}
