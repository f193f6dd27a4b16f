//! Loading the whole listing when asked: `G` (to the end), `:load all`,
//! or `/` (a filter over everything). The worker streams the pages at the
//! server's largest page size, asking for the next one while it packs the
//! last ([`ApiRequest::StreamRows`]); each page joins the list as it comes,
//! so keys keep working throughout, and the status line says how far it
//! is (count, rate, time left). `Esc` stops it.

use super::{IssuesPane, Slot};
use crate::message::ApiRequest;
use crate::pane::Cx;
use findings_base::text::thousands;
use findings_model::{MAX_PAGE_SIZE, Timestamp};

/// A load of everything under way.
#[derive(Debug, Clone)]
pub struct LoadAll {
    /// When it started, and how many rows were loaded then.
    started: Timestamp,
    from: usize,
    /// The selection follows the end as pages come (`G`) until another key
    /// moves it.
    pub follow_end: bool,
}

impl LoadAll {
    /// `loading all: 45,000 of 90,955 · 9,000/s · 5 s left`.
    pub fn progress(&self, loaded: usize, total: Option<i64>, now: Timestamp) -> String {
        // Saturating: a Vec's length is below i64::MAX anyway.
        let loaded_i64 = i64::try_from(loaded).unwrap_or(i64::MAX);
        let mut parts = vec![match total {
            Some(total) if total >= loaded_i64 => format!(
                "loading all: {} of {}",
                findings_base::text::thousands_of(loaded),
                thousands(total)
            ),
            _ => format!("loading all: {}", findings_base::text::thousands_of(loaded)),
        }];
        // A rate and a time left for display: counts below 2^53 are exact
        // in f64, and `as` back from f64 saturates.
        #[allow(clippy::cast_precision_loss, clippy::cast_possible_truncation)]
        {
            let seconds = (now - self.started).num_milliseconds() as f64 / 1000.0;
            let done = loaded.saturating_sub(self.from) as f64;
            if seconds > 0.0 && done > 0.0 {
                let rate = done / seconds;
                parts.push(format!("{}/s", thousands(rate.round() as i64)));
                if let Some(total) = total.filter(|&t| t >= loaded_i64) {
                    let left = (total - loaded_i64) as f64 / rate;
                    parts.push(format!("{} s left", left.ceil() as i64));
                }
            }
        }
        parts.join(" · ")
    }
}

impl IssuesPane {
    /// Loads every page left, streamed; `follow_end`: the selection stays
    /// on the last row as they come (`G`).
    pub(super) fn load_all(&mut self, follow_end: bool, cx: &mut Cx) {
        if self.list.complete {
            return;
        }
        if let Some(load) = &mut self.loading_all {
            load.follow_end |= follow_end;
            return;
        }
        // A page asked for the usual way gives way to the stream.
        cx.outbox.cancel(self.list.loader.cancel());
        self.list.paused = false;
        self.list.loader.error = None;
        let mut request = self.request(self.list.next_cursor.clone());
        request.limit = Some(MAX_PAGE_SIZE);
        let sent = cx
            .outbox
            .in_slot(Slot::List, |o| o.send(ApiRequest::StreamRows(request)));
        if let Some(id) = sent {
            cx.outbox.cancel(self.list.loader.started(id));
            self.loading_all = Some(LoadAll {
                started: cx.now,
                from: self.list.items.len(),
                follow_end,
            });
        }
    }

    /// After a page of the load came: the selection follows the end if
    /// asked, and the load is over once nothing is in flight.
    pub(super) fn after_stream_page(&mut self) {
        if self.loading_all.as_ref().is_some_and(|l| l.follow_end) {
            self.list.select(usize::MAX);
        }
        if !self.list.loader.is_loading() {
            self.loading_all = None;
        }
    }

    /// The status line's progress of a load of everything.
    pub(super) fn load_all_progress(&self, now: Timestamp) -> Option<String> {
        let load = self.loading_all.as_ref()?;
        let total = self.counts.known_for(&self.selection).map(|c| c.listed());
        Some(load.progress(self.list.items.len(), total, now))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: i64) -> Timestamp {
        chrono::DateTime::from_timestamp(1_800_000_000 + s, 0).unwrap()
    }

    #[test]
    fn progress_says_count_rate_and_time_left() {
        let load = LoadAll {
            started: at(0),
            from: 1_000,
            follow_end: false,
        };
        assert_eq!(
            load.progress(1_000, Some(91_000), at(0)),
            "loading all: 1,000 of 91,000"
        );
        assert_eq!(
            load.progress(46_000, Some(91_000), at(5)),
            "loading all: 46,000 of 91,000 · 9,000/s · 5 s left"
        );
        // No count known, or more loaded than counted: no time left.
        assert_eq!(
            load.progress(46_000, None, at(5)),
            "loading all: 46,000 · 9,000/s"
        );
        assert_eq!(
            load.progress(92_000, Some(91_000), at(10)),
            "loading all: 92,000 · 9,100/s"
        );
    }
}
