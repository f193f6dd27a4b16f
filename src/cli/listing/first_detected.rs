//! `issues --first-detected-since` / `--first-detected-until`: the
//! published List issues filter has no first-detection field, so each
//! finding's `firstDetectedAt` (asked for with the include flag) is
//! compared here, page by page.

use crate::api::model::{IssueItem, Timestamp};
use crate::cli::UsageError;
use crate::filter_spec::parse_time;
use std::cell::Cell;

/// The first-detection window: since inclusive, until exclusive.
#[derive(Debug, Default)]
pub(super) struct FirstDetected {
    since: Option<Timestamp>,
    until: Option<Timestamp>,
    /// Items that came without the time (left out).
    missing: Cell<usize>,
}

/// What carries a first-detection time.
pub(super) trait FirstDetectedAt {
    fn first_detected_at(&self) -> Option<Timestamp>;
}

impl FirstDetectedAt for IssueItem {
    fn first_detected_at(&self) -> Option<Timestamp> {
        self.issue.as_ref().and_then(|i| i.first_detected_at)
    }
}

impl FirstDetected {
    pub(super) fn parse(since: Option<&str>, until: Option<&str>) -> Result<Self, UsageError> {
        let time = |flag: &str, value: Option<&str>| {
            value
                .map(|v| parse_time(v.trim()).map_err(|e| UsageError(format!("{flag}: {e}"))))
                .transpose()
        };
        Ok(FirstDetected {
            since: time("--first-detected-since", since)?,
            until: time("--first-detected-until", until)?,
            missing: Cell::new(0),
        })
    }

    pub(super) fn is_set(&self) -> bool {
        self.since.is_some() || self.until.is_some()
    }

    /// The items of a page inside the window. One without the time cannot
    /// be placed: it is left out, and counted for [`FirstDetected::warn`].
    pub(super) fn keep<T: FirstDetectedAt>(&self, items: Vec<T>) -> Vec<T> {
        if !self.is_set() {
            return items;
        }
        items
            .into_iter()
            .filter(|item| match item.first_detected_at() {
                Some(at) => self.since.is_none_or(|s| at >= s) && self.until.is_none_or(|u| at < u),
                None => {
                    self.missing.set(self.missing.get() + 1);
                    false
                }
            })
            .collect()
    }

    /// One line on stderr when items were left out for want of the time.
    pub(super) fn warn(&self) {
        let n = self.missing.get();
        if n > 0 {
            eprintln!(
                "findings: warning: {n} finding{} came without firstDetectedAt and {} left out",
                if n == 1 { "" } else { "s" },
                if n == 1 { "was" } else { "were" }
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::model::Issue;

    fn item(at: Option<&str>) -> IssueItem {
        IssueItem {
            issue: Some(Issue {
                first_detected_at: at.map(|t| t.parse().unwrap()),
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    #[test]
    fn the_window_keeps_since_inclusive_until_exclusive_and_counts_the_unknown() {
        let w = FirstDetected::parse(Some("2026-01-01"), Some("2026-02-01")).unwrap();
        assert!(w.is_set());
        let kept = w.keep(vec![
            item(Some("2025-12-31T23:59:59Z")),
            item(Some("2026-01-01T00:00:00Z")),
            item(Some("2026-01-31T23:59:59Z")),
            item(Some("2026-02-01T00:00:00Z")),
            item(None),
        ]);
        let times: Vec<_> = kept
            .iter()
            .map(|i| i.first_detected_at().unwrap().to_rfc3339())
            .collect();
        assert_eq!(
            times,
            ["2026-01-01T00:00:00+00:00", "2026-01-31T23:59:59+00:00"]
        );
        assert_eq!(w.missing.get(), 1);
        let open = FirstDetected::parse(None, None).unwrap();
        assert_eq!(open.keep(vec![item(None)]).len(), 1, "no window, no filter");
        let e = FirstDetected::parse(Some("yesterday"), None).unwrap_err();
        assert!(e.0.starts_with("--first-detected-since: "), "{e}");
    }
}
