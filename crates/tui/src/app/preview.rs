//! The side-by-side detail as a preview: on a terminal wide enough to show
//! the detail beside the list, the keys stay with the list and the detail
//! follows the selected finding. Its single-issue fetch waits until the
//! cursor rests ([`REST`]), is cached by id, and is cancelled when the
//! cursor moves on. `Enter` moves the keys into the detail to scroll it;
//! `Esc` there gives them back to the list, and `Esc` in the list closes
//! the preview.

use super::App;
use crate::detail::DetailView;
use crate::keymap::Action;

/// How long the cursor rests on a finding before its detail is fetched.
pub const REST: chrono::Duration = chrono::Duration::milliseconds(150);

impl App {
    /// The detail is shown beside the list (not over it).
    pub fn side_by_side(&self) -> bool {
        self.detail.is_some() && self.geometry.detail.is_some() && self.geometry.list.width > 0
    }

    /// The open detail has the keys: it covers the list, or the user moved
    /// into it.
    pub fn detail_has_keys(&self) -> bool {
        self.detail.is_some() && (self.detail_focus || !self.side_by_side())
    }

    /// A key while the preview is beside the list and the list has the
    /// keys. `true` if it was the preview's.
    pub(super) fn on_preview_action(&mut self, action: Action) -> bool {
        match action {
            Action::Open => {
                self.detail_focus = true;
                true
            }
            Action::Back => {
                if let Some(mut detail) = self.detail.take() {
                    self.outbox.cancel(detail.close());
                }
                true
            }
            _ => false,
        }
    }

    /// After the list moved: the preview shows the selected finding (the
    /// list's copy at once; the full one once the cursor rests).
    pub(super) fn follow_selection(&mut self) {
        if !self.side_by_side() || self.detail_focus {
            return;
        }
        let Some(selected) = self.current().findings().and_then(|f| f.selected_issue()) else {
            return;
        };
        let shown = self.detail.as_ref().map(|d| d.issue.id());
        if shown == Some(selected.id()) {
            return;
        }
        if let Some(mut old) = self.detail.take() {
            self.outbox.cancel(old.close());
        }
        let mut detail = DetailView::new(selected);
        detail.hold_until = Some(self.now + REST);
        self.detail = Some(detail);
    }
}
