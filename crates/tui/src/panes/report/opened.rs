//! "This period" in the Report pane: the filters of the findings opened
//! in the period (none for all time), the words of the period and of its
//! end that the views' titles say, and rules by their one name (a
//! supply-chain rule by its advisory and package, asked of one of its
//! findings where no page told it).

use super::{ReportPane, Slot, dashboard};
use crate::message::{ApiRequest, Outbox};
use findings_model::*;

impl ReportPane {
    /// Whether the report counts the findings the backlog reports count
    /// (open now, created at any time, in any of the open states): then
    /// the counts' top rules and repositories are those reports' of the
    /// whole set, not of the pages loaded.
    pub fn tops_of_whole_set(&self) -> bool {
        self.report_type == ReportType::TotalOpen
            && self.since.is_none()
            && self.finding_state.is_none()
    }

    /// Whether the top charts come from the report operations (the
    /// backlog at the period's end, every finding of it) rather than from
    /// the pages loaded: for the report types about open findings, whose
    /// question the backlog answers for the whole set. Their titles say
    /// when that is another set than the report's (a period, a state).
    pub fn tops_from_reports(&self) -> bool {
        matches!(
            self.report_type,
            ReportType::TotalOpen | ReportType::OpenBacklog
        )
    }

    /// The filters of the findings opened in the period (its
    /// selection, bounded by the period's creation time): none for all
    /// time, whose "opened" is every finding.
    pub fn opened_filters(&self) -> Option<ReportFilters> {
        self.since?;
        let mut f = self.request(None).filters.unwrap_or_default();
        f.time_bucket_size = None;
        Some(f)
    }

    /// Rule `id` by its one name: a supply-chain rule by its advisory and
    /// package, a code rule by its display name, else its id's last part.
    pub fn rule_shown(&self, id: &str) -> String {
        findings_model::rule_shown(id, &self.rule_labels, self.known.answer())
    }

    /// Asks the advisory and package of the supply-chain rules the views
    /// name that no finding has told yet (once each a session), when the
    /// filter values say which rules are advisories.
    pub(super) fn ask_rule_labels(&mut self, outbox: &mut Outbox) {
        let Some(values) = self.known.answer() else {
            return;
        };
        let entries = self.dashboard.entries_of(dashboard::Block::Rules);
        let missing: Vec<String> = self
            .rule_labels
            .missing(entries.iter().map(|e| e.key.as_str()), values)
            .into_iter()
            .filter(|id| !self.labels_asked.contains(id))
            .take(RuleLabels::MOST.saturating_sub(self.labels_asked.len()))
            .collect();
        if missing.is_empty() {
            return;
        }
        self.labels_asked.extend(missing.iter().cloned());
        outbox.in_slot(Slot::RuleLabels, |o| {
            o.send(ApiRequest::RuleLabels(missing))
        });
    }

    /// The period of what was opened, in words: `last 30 days`, `since
    /// the last visit`, `all time`.
    pub fn opened_span(&self) -> String {
        match (self.since, self.period_days) {
            (None, _) => "all time".to_owned(),
            (Some(_), Some(days)) if !self.new_only => format!("last {days} days"),
            (Some(_), _) => "since the last visit".to_owned(),
        }
    }

    /// [`ReportPane::opened_span`] in a few columns: `30d`, `since visit`.
    pub fn opened_span_short(&self) -> String {
        match (self.since, self.period_days) {
            (None, _) => "all time".to_owned(),
            (Some(_), Some(days)) if !self.new_only => format!("{days}d"),
            (Some(_), _) => "since visit".to_owned(),
        }
    }

    /// The period's first and last days: `2026-10-03 to 2026-11-01`
    /// (`10-03 to 11-01` when `short`), `since 2026-10-20`; empty for all
    /// time.
    pub fn opened_dates(&self, short: bool) -> String {
        let day = |t: Timestamp| {
            t.format(if short { "%m-%d" } else { "%Y-%m-%d" })
                .to_string()
        };
        match (self.since, self.until) {
            (Some(since), Some(until)) => format!(
                "{} to {}",
                day(since),
                day(until - chrono::Duration::days(1))
            ),
            (Some(since), None) => format!("since {}", day(since)),
            _ => String::new(),
        }
    }

    /// The period in words with its dates: `last 30 days, 2026-10-03 to
    /// 2026-11-01`, `all time`.
    pub fn opened_period_words(&self) -> String {
        match self.opened_dates(false) {
            dates if dates.is_empty() => self.opened_span(),
            dates => format!("{}, {dates}", self.opened_span()),
        }
    }

    /// The end of the period's last day, as a backlog is counted at it:
    /// `2026-11-01` (`11-01` when `short`); `now` for all time.
    pub fn end_day(&self, short: bool) -> String {
        match self.until {
            Some(until) => (until - chrono::Duration::days(1))
                .format(if short { "%m-%d" } else { "%Y-%m-%d" })
                .to_string(),
            None => "now".to_owned(),
        }
    }

    /// When the backlog beside it is counted: `at 2026-11-01` (the end of
    /// the period's last day), else `now`.
    pub fn end_words(&self) -> String {
        match self.until {
            Some(_) => format!("at {}", self.end_day(false)),
            None => "now".to_owned(),
        }
    }
}
