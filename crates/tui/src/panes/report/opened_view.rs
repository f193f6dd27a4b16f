//! The rules and repositories views with a period: each row what it
//! opened in the period, the still open of those and the open backlog at
//! the period's end, under a header line naming the three, the title
//! saying each one's basis and dates; for all time, the backlog alone,
//! said so.

use super::ReportPane;
use super::dashboard::{Block, Entry, OpenedAnswer};
use crate::pane::ViewCx;
use crate::widgets::common::safe;
use findings_base::text::{thousands, thousands_of};
use ratatui::text::{Line, Span};
use unicode_width::UnicodeWidthStr;

/// What a list view counts: `opened in last 30 days: 210, still open 118
/// · open at 2026-11-01: 831` (the header line under it has the dates);
/// for all time `all time: open now: 1,098`. `open`: the backlog its
/// entries add up to.
pub(super) fn scope(pane: &ReportPane, open: Option<i64>) -> String {
    let end = pane.end_words();
    let backlog = match open {
        Some(n) => format!("open {end}: {}", thousands(n)),
        None => format!("open {end}"),
    };
    if pane.since.is_none() {
        return format!("all time: {backlog}");
    }
    let span = pane.opened_span();
    match &pane.dashboard.opened {
        OpenedAnswer::Known(o) => {
            let t = o.totals();
            format!(
                "opened in {span}: {}, still open {} · {backlog}",
                thousands_of(t.opened),
                thousands_of(t.still_open),
            )
        }
        OpenedAnswer::Loading(_) => format!("{backlog} · counting what the {span} opened…"),
        OpenedAnswer::Failed(why) => {
            format!("{backlog} · opened in the {span}: failed ({})", safe(why))
        }
        OpenedAnswer::NotAsked => backlog,
    }
}

/// Repositories show their severities beside the three figures from this
/// width.
const SEVERITIES_FROM: usize = 100;

/// The header line over rows with what they opened: the three figures'
/// names, the name's, and the dates (`opened 10-03 to 11-01, at end
/// 11-01`, the years left out under 120 columns).
pub(super) fn header<'a>(block: Block, pane: &ReportPane, width: usize, v: &ViewCx) -> Line<'a> {
    let narrow = width < 80;
    // A repository's severities (from 100 columns) say their own names.
    let what = match block {
        Block::Rules => "rule",
        _ if narrow => "repo",
        _ => "repository",
    };
    let short = width < 120;
    let (dates, end) = (pane.opened_dates(short), pane.end_day(short));
    let when = if narrow {
        format!("({dates}; end {end})")
    } else {
        format!("(opened {dates}, at end {end})")
    };
    Line::styled(
        format!(
            "  {:>6} {:>6} {:>6}  {what}  {when}",
            "opened", "still", "at end"
        ),
        v.theme.dim(),
    )
}

/// One row with what it opened: opened, still open, open at the end,
/// (a repository's severities where there is room), its name.
pub(super) fn line<'a>(
    block: Block,
    e: &Entry,
    width: usize,
    pane: &ReportPane,
    v: &ViewCx,
) -> Line<'a> {
    let n = e.opened.unwrap_or_default();
    let mut spans = vec![Span::raw(format!(
        "  {:>6} {:>6} {:>6}  ",
        thousands_of(n.opened),
        thousands_of(n.still_open),
        thousands(e.total)
    ))];
    let name = if block == Block::Rules {
        safe(&pane.rule_shown(&e.key))
    } else {
        if width >= SEVERITIES_FROM
            && let Some(counts) = &e.by_severity
        {
            spans.extend(super::labels::severity_counts(
                counts,
                ["crit ", "high ", "med ", "low "],
                v,
            ));
        }
        safe(&e.key)
    };
    let used: usize = spans.iter().map(|s| s.content.width()).sum();
    let room = width.saturating_sub(used).max(8);
    // A repository keeps its name's end, a rule its start.
    let name = if block == Block::Rules {
        super::labels::fit(&name, room)
    } else {
        findings_base::text::cut_left(&name, room)
    };
    spans.push(Span::raw(name));
    Line::from(spans)
}
