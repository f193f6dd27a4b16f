//! Small drawing helpers every view uses. All server text goes through
//! [`safe`] (or [`wrap`], which calls it) before it becomes a `Span`.

use crate::keymap::{Action, Context};
use crate::pane::ViewCx;
use crate::theme::Theme;
use findings_model::{AggregateState, ExceptionState, Timestamp};
use ratatui::style::Style;
use ratatui::text::{Line, Span};

const SPINNER: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

pub fn spinner(tick: usize) -> &'static str {
    SPINNER[tick % SPINNER.len()]
}

/// Untrusted text as one terminal-safe line.
pub fn safe(s: &str) -> String {
    findings_base::text::one_line(s).into_owned()
}

pub fn opt(s: &Option<String>) -> String {
    s.as_deref().map(safe).unwrap_or_default()
}

pub fn time(t: &Option<Timestamp>) -> String {
    t.map(|t| t.format("%Y-%m-%d %H:%M").to_string())
        .unwrap_or_default()
}

/// A finding's state as the Overview shows it: its aggregate state, and
/// where its exception request stands when one is known (`open ·
/// exception requested`), so a request made instead of an ignore is seen
/// where the state is.
pub fn state_label(state: Option<&AggregateState>, exception: Option<&ExceptionState>) -> String {
    let state = state.map_or(String::new(), |s| safe(s.label()));
    match exception {
        Some(e) if state.is_empty() => format!("exception {}", safe(e.label())),
        Some(e) => format!("{state} · exception {}", safe(e.label())),
        None => state,
    }
}

/// [`state_label`] as a list's narrow column shows it: the exception
/// first, which a cut keeps (`exc. requested · open`).
pub fn state_cell(state: Option<&AggregateState>, exception: Option<&ExceptionState>) -> String {
    let state = state.map_or(String::new(), |s| safe(s.label()));
    match exception {
        Some(e) if state.is_empty() => format!("exc. {}", safe(e.label())),
        Some(e) => format!("exc. {} · {state}", safe(e.label())),
        None => state,
    }
}

pub fn date(t: &Option<Timestamp>) -> String {
    t.map(|t| t.format("%Y-%m-%d").to_string())
        .unwrap_or_default()
}

pub use findings_base::text::wrap;

/// `label  value` with the label dimmed and padded.
pub fn field<'a>(theme: &Theme, label: &str, value: impl Into<String>) -> Line<'a> {
    Line::from(vec![
        // A long label still keeps a space before its value.
        Span::styled(format!("{label:<17} "), theme.dim()),
        Span::raw(value.into()),
    ])
}

/// A section heading inside a detail.
pub fn heading<'a>(theme: &Theme, text: &str) -> Line<'a> {
    Line::from(Span::styled(text.to_owned(), theme.title()))
}

/// The most of one paragraph's text that is wrapped and shown (some 700
/// rows at 100 columns): a frame wraps what it shows, so a 50 MB message
/// in the detail cost every frame seconds (`?` came 3 s late).
pub const PARAGRAPH_SHOWN: usize = 64 * 1024;

/// A wrapped block of untrusted text, indented, in `style`; past
/// [`PARAGRAPH_SHOWN`] bytes, a last row says how much is not shown.
pub fn paragraph<'a>(text: &str, width: usize, indent: usize, style: Style) -> Vec<Line<'a>> {
    let mut shown = text.len().min(PARAGRAPH_SHOWN);
    while !text.is_char_boundary(shown) {
        shown -= 1;
    }
    let pad = " ".repeat(indent);
    let mut lines: Vec<Line<'a>> = wrap(&text[..shown], width.saturating_sub(indent))
        .into_iter()
        .map(|l| Line::from(Span::styled(format!("{pad}{l}"), style)))
        .collect();
    if shown < text.len() {
        let rest = findings_base::text::thousands_of(text.len() - shown);
        lines.push(Line::from(Span::styled(
            format!("{pad}… {rest} more bytes, not shown"),
            style,
        )));
    }
    lines
}

/// Each part's share of `whole` in whole percent, rounded. When the parts
/// make up the whole exactly, by largest remainder, so the shares add up
/// to 100; else each to the nearest. `None` where there is no share to give
/// (no part, a whole of zero or less, a negative part).
pub fn percentages(parts: &[Option<i64>], whole: Option<i64>) -> Vec<Option<i64>> {
    let Some(whole) = whole.filter(|w| *w > 0).map(i128::from) else {
        return vec![None; parts.len()];
    };
    let valid = |p: &Option<i64>| p.filter(|v| *v >= 0).map(i128::from);
    let known: Vec<i128> = parts.iter().filter_map(valid).collect();
    if known.len() == parts.len() && known.iter().sum::<i128>() == whole {
        let mut shares: Vec<i128> = known.iter().map(|p| p * 100 / whole).collect();
        let mut by_remainder: Vec<usize> = (0..known.len()).collect();
        by_remainder.sort_by_key(|&k| std::cmp::Reverse(known[k] * 100 % whole));
        let left = 100 - shares.iter().sum::<i128>();
        // Shares of 100: `left` is at most 100.
        for &k in by_remainder
            .iter()
            .take(usize::try_from(left.max(0)).unwrap_or(0))
        {
            shares[k] += 1;
        }
        return shares.into_iter().map(|s| i64::try_from(s).ok()).collect();
    }
    parts
        .iter()
        .map(|p| {
            valid(p).map(|p| i64::try_from((p * 200 + whole) / (whole * 2)).unwrap_or(i64::MAX))
        })
        .collect()
}

pub use findings_model::short_rule;

pub use findings_base::text::cut_left;

/// `text`'s parts (` · ` between them) whole, as many as fit in `width`
/// with `more` after them; `None` when not even the first does.
pub fn parts_that_fit(text: &str, width: usize, more: &str) -> Option<String> {
    use unicode_width::UnicodeWidthStr;
    let mut kept = String::new();
    for part in text.split(" · ") {
        let with = if kept.is_empty() {
            part.to_owned()
        } else {
            format!("{kept} · {part}")
        };
        if with.width() + more.width() > width {
            break;
        }
        kept = with;
    }
    (!kept.is_empty()).then(|| kept + more)
}

/// A border's hint (` a · b · c `) in `inner` columns: its parts whole,
/// as many as fit, then `…`, with a space before the corner; never a
/// part cut in the middle running into it.
pub fn fit_hint(hint: &str, inner: usize) -> String {
    use unicode_width::UnicodeWidthStr;
    if hint.width() <= inner {
        return hint.to_owned();
    }
    parts_that_fit(hint.trim(), inner.saturating_sub(1), " … ")
        .map_or_else(String::new, |kept| format!(" {kept}"))
}

/// A border's title in a block `outer` columns wide: whole when it fits,
/// else cut with `…` and a space kept before the corner.
pub fn fit_title(title: &str, outer: u16) -> String {
    use unicode_width::UnicodeWidthStr;
    let inner = outer.saturating_sub(2) as usize;
    if title.width() <= inner {
        return title.to_owned();
    }
    let cut = findings_export::fit(title.trim_end(), inner.saturating_sub(1));
    format!("{} ", cut.trim_end())
}

/// How much of a list is loaded, for the status line.
pub fn loaded_note<T>(list: &crate::list::load::PagedList<T>) -> String {
    let n = list.items.len();
    let shown = findings_base::text::thousands_of(n);
    if n == 0 && list.loader.is_loading() {
        "loading the first page".to_owned()
    } else if list.complete {
        format!("{shown} loaded, all")
    } else if list.paused {
        // What follows says it stopped.
        format!("{shown} loaded")
    } else {
        format!("{shown} loaded, more available")
    }
}

/// The start of a list's status line: how much is loaded, then a load
/// that failed or that `Esc` stopped, first where no cut reaches it.
pub fn load_parts<T>(
    list: &crate::list::load::PagedList<T>,
    loaded: String,
    v: &ViewCx,
    context: Context,
) -> Vec<String> {
    let mut parts = vec![loaded];
    if let Some(e) = &list.loader.error {
        parts.push(format!("error: {}", safe(e)));
    } else if list.paused {
        parts.push(stopped(v, context));
    }
    parts
}

/// What a list says when `Esc` stopped its load, with the keys of the
/// pane's `context` (its own, then the list's, then the global ones). It
/// starts with "stopped": a cut status line must not leave "loading…".
pub fn stopped(v: &ViewCx, context: Context) -> String {
    let key = |action| v.key_among(&[context, Context::LIST], action);
    format!(
        "stopped by {}: moving on loads more, {} reloads",
        key(Action::Back),
        key(Action::Refresh)
    )
}

pub use findings_base::text::thousands;

/// The status line's note of what is new since the last visit (none on a
/// first visit).
pub fn new_note(last_visit: Option<Timestamp>, count: usize, only_new: bool) -> Option<String> {
    let last = last_visit?;
    let when = last.format("%Y-%m-%d %H:%M");
    Some(if only_new {
        format!("only new since {when}")
    } else {
        // Of the rows loaded so far: the server may hold more.
        format!("new since {when}: {count} loaded")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_title_cut_keeps_a_space_before_the_corner() {
        let t = " info · Workflow downloads and executes install script over curl ";
        assert_eq!(fit_title(t, 200), t);
        let cut = fit_title(t, 40);
        assert_eq!(cut.chars().count(), 38, "{cut:?}");
        assert!(cut.ends_with("… "), "{cut:?}");
    }

    #[test]
    fn a_hint_keeps_its_parts_whole() {
        let hint = " type the note · Enter new line · Tab next · Ctrl-S review · Esc close (kept) ";
        assert_eq!(fit_hint(hint, 200), hint);
        assert_eq!(
            fit_hint(hint, 56),
            " type the note · Enter new line · Tab next … "
        );
        assert_eq!(fit_hint(hint, 5), "");
    }

    #[test]
    fn wrap_respects_width_and_safety() {
        let lines = wrap("alpha beta gamma delta", 11);
        assert_eq!(lines, vec!["alpha beta", "gamma delta"]);
        let lines = wrap("用户输入未经验证即被使用", 6);
        assert!(
            lines
                .iter()
                .all(|l| unicode_width::UnicodeWidthStr::width(l.as_str()) <= 6)
        );
        let lines = wrap("a\u{1b}[2Jb\nnext", 40);
        assert_eq!(lines, vec!["a␛[2Jb", "next"]);
    }

    #[test]
    fn percentages_are_rounded_and_parts_of_a_whole_add_up_to_100() {
        let p = |parts: &[i64], whole| {
            let parts: Vec<Option<i64>> = parts.iter().copied().map(Some).collect();
            percentages(&parts, Some(whole))
                .into_iter()
                .map(|s| s.unwrap())
                .collect::<Vec<_>>()
        };
        // Cut, these were 33 + 33 + 33 = 99 (and 49 + 24 + 24 = 97).
        assert_eq!(p(&[1, 1, 1], 3), vec![34, 33, 33]);
        assert_eq!(p(&[995, 499, 506], 2000), vec![50, 25, 25]);
        assert_eq!(p(&[1200, 845, 300], 2345), vec![51, 36, 13]);
        assert_eq!(p(&[0, 7, 0], 7), vec![0, 100, 0]);
        // Parts that are not the whole: each rounded to the nearest.
        assert_eq!(p(&[2, 1], 3 + 6), vec![22, 11]);
        assert_eq!(p(&[995, 499], 2000), vec![50, 25]);
        // Nothing to share, or nonsense from the server: no figure, no panic.
        assert_eq!(percentages(&[Some(1), None], Some(0)), vec![None, None]);
        assert_eq!(
            percentages(&[Some(-1), Some(2)], Some(1)),
            vec![None, Some(200)]
        );
        assert_eq!(
            percentages(&[Some(i64::MAX)], Some(1)),
            vec![Some(i64::MAX)]
        );
    }

    /// A 50 MB message is not wrapped whole for each frame: its first
    /// 64 KiB are, and a last row says how much more there is.
    #[test]
    fn a_huge_paragraph_wraps_its_first_part_and_says_the_rest() {
        let text = "lorem ipsum dolor sit amet ".repeat(50_000_000 / 27);
        let lines = paragraph(&text, 100, 2, Style::new());
        assert!(lines.len() < 1_000, "{} rows", lines.len());
        let last = lines.last().unwrap().to_string();
        let rest = findings_base::text::thousands_of(text.len() - PARAGRAPH_SHOWN);
        assert_eq!(last, format!("  … {rest} more bytes, not shown"));
        // Short text is whole, with no such row.
        let short = paragraph("a short message", 100, 0, Style::new());
        assert_eq!(short.len(), 1);
    }
}
