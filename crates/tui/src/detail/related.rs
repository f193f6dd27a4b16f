//! The Related tab: the same finding on other branches and pull requests
//! (`relatedIssues`, which only the single-issue fetch gives), one of which
//! can be opened in the detail's place.

use crate::theme::Theme;
use crate::widgets::common::{date, opt, safe};
use findings_model::*;
use ratatui::text::{Line, Span};

/// The lines of the tab (70 columns, so 80-column terminals show it all); `selected` marks the row `Enter` would open (none
/// when printed headless).
pub fn lines<'a>(i: &Issue, selected: Option<usize>, theme: &Theme) -> Vec<Line<'a>> {
    if i.related_issues.is_empty() {
        return vec![Line::from(Span::styled(
            "no related findings on other branches or pull requests",
            theme.dim(),
        ))];
    }
    let mut lines = vec![Line::from(Span::styled(
        format!(
            "  {:<12} {:<20} {:<8} {:<14} {}",
            "ID", "BRANCH", "PR", "STATE", "CREATED"
        ),
        theme.dim(),
    ))];
    for (k, r) in i.related_issues.iter().enumerate() {
        let chosen = selected == Some(k);
        let text = format!(
            "{} {:<12} {:<20} {:<8} {:<14} {}",
            if chosen { "▶" } else { " " },
            clip(&opt(&r.id), 12),
            clip(&opt(&r.ref_), 20),
            r.pull_request_id
                .as_deref()
                .map_or("-".into(), |p| clip(&format!("#{p}"), 8)),
            r.aggregate_state
                .as_ref()
                .map_or("-".into(), |s| clip(&safe(s.label()), 14)),
            date(&r.created_at),
        );
        lines.push(if chosen {
            Line::from(Span::styled(text, theme.selected()))
        } else {
            Line::from(text)
        });
    }
    lines
}

/// A cell's text, safe and at most `width` characters.
fn clip(s: &str, width: usize) -> String {
    findings_base::text::truncate(&safe(s), width).into_owned()
}
