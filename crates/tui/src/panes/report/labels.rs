//! The small text helpers the Report's table and charts both draw with:
//! their own module so that the view and the charts share them without
//! importing each other.

use crate::keymap::{Action, Context};
use crate::pane::ViewCx;
use ratatui::text::Span;

pub(super) use crate::widgets::common::thousands as group;

/// The key of a Report action, as the contexts in force find it.
pub(super) fn key_label(v: &ViewCx, action: Action, fallback: &str) -> String {
    v.keymap
        .keys_in(&[super::KEYS, Context::LIST, Context::GLOBAL], action)
        .into_iter()
        .next()
        .unwrap_or_else(|| fallback.to_owned())
}

/// Cuts already-safe text to `width` cells, marking the cut with `…`
/// (the export's cut, without its padding).
pub(super) fn fit(s: &str, width: usize) -> String {
    findings_export::fit(s, width).trim_end().to_owned()
}

/// Counts by severity, most severe first, each after its label and in its
/// severity's colour (dim where none).
pub(super) fn severity_counts<'a>(
    counts: &findings_model::BySeverity,
    labels: [&str; 4],
    v: &ViewCx,
) -> Vec<Span<'a>> {
    let severities = [
        findings_model::Severity::Critical,
        findings_model::Severity::High,
        findings_model::Severity::Medium,
        findings_model::Severity::Low,
    ];
    labels
        .iter()
        .zip(&severities)
        .zip(counts.most_severe_first())
        .map(|((label, severity), count)| {
            let style = if count > 0 {
                v.theme.severity(Some(severity))
            } else {
                v.theme.dim()
            };
            Span::styled(format!("{label}{count:<4} "), style)
        })
        .collect()
}
