//! The small text helpers the Report's table and charts both draw with:
//! their own module so that the view and the charts share them without
//! importing each other.

use crate::keymap::{Action, Context};
use crate::pane::ViewCx;

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
