//! What the status line said, kept with its time: `:messages` lists the
//! latest, newest first, so a result longer than the status line (which
//! ends it in `… :messages`) is read whole.

use super::{App, Overlay};
use findings_model::Timestamp;
use std::collections::VecDeque;

/// How many are kept.
const KEPT: usize = 100;

/// The messages said, oldest first.
#[derive(Debug, Default)]
pub struct Messages {
    said: VecDeque<(Timestamp, String)>,
}

impl Messages {
    /// Keeps `status` when it is not the one kept last.
    pub fn note(&mut self, at: Timestamp, status: Option<&str>) {
        let Some(text) = status else { return };
        if self.said.back().is_some_and(|(_, last)| last == text) {
            return;
        }
        if self.said.len() == KEPT {
            self.said.pop_front();
        }
        self.said.push_back((at, text.to_owned()));
    }

    /// Newest first, each with its time (UTC).
    pub fn listed(&self) -> String {
        if self.said.is_empty() {
            return "Nothing was said yet.".into();
        }
        self.said
            .iter()
            .rev()
            .map(|(at, text)| format!("{}  {text}", at.format("%H:%M:%S")))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

impl App {
    /// `:messages`.
    pub(super) fn show_messages(&mut self) {
        self.overlay = Some(Overlay::error(
            "Messages, newest first (UTC)",
            self.messages.listed(),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_kept_once_newest_first_and_at_most_kept() {
        let at = |s: i64| chrono::DateTime::from_timestamp(s, 0).unwrap();
        let mut m = Messages::default();
        m.note(at(0), Some("one"));
        m.note(at(1), Some("one"));
        m.note(at(2), None);
        m.note(at(3), Some("two"));
        assert_eq!(m.listed(), "00:00:03  two\n00:00:00  one");
        for k in 0..2 * i64::try_from(KEPT).unwrap() {
            m.note(at(k), Some(&k.to_string()));
        }
        assert_eq!(m.said.len(), KEPT);
        let newest = m.listed().lines().next().unwrap().to_owned();
        assert!(newest.ends_with(&format!("  {}", 2 * KEPT - 1)), "{newest}");
    }
}
