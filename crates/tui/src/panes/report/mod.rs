//! The Report pane: ReportsService_GetReportFindings with selectors (report
//! type, time period, bucket size, finding state) and toggles (finding
//! types, severities) and a repository filter (`/`). The totals of the
//! response, charts of the whole filtered set where the API can count
//! ([`counts`]: by severity, by type, the trend over time buckets), charts
//! of the loaded findings where it cannot ([`stats`]: top rules and
//! projects), and the findings list, loaded lazily by cursor like the
//! Issues pane.
//!
//! Every selector or toggle change starts a new query: the requests in
//! flight are cancelled, the list is emptied and the first page and the
//! counts are requested. The totals of the previous query stay on screen
//! (dimmed) until the new ones arrive. The bucket size changes only the
//! trend.

mod areas;
mod charts;
mod counts;
mod coverage;
pub mod dashboard;
mod dashboard_view;
mod keys;
mod labels;
mod opened;
mod opened_view;
mod over_target;
pub mod repo_prompt;
mod selectors;
mod stats;
mod view;

pub use counts::{Counts, MAX_BUCKETS, Trend, bucket_starts};
pub use coverage::Comparison;
pub use stats::{Stats, rule_labels};

use crate::keymap::{Action, Context};
use crate::layout;
use crate::list::filter_values::FilterValues;
use crate::list::findings_list::{self, Findings, ListColumns, ListKey, Marks, NewSince};
use crate::list::issue_counts::IssueCounts;
use crate::list::load::PagedList;
use crate::message::rows::FindingRow;
use crate::message::{
    self, ApiRequest, ApiResponse, ApiResult, Changed, Outbox, PaneId, ReplySlot, RequestId,
};
use crate::pane::{Cx, FindingsSource, Pane, ViewCx};
use crate::state::remembered::ReportSelectors;
use crate::state::session::Session;
use crate::widgets::findings_table::{self, DateColumn};
pub use areas::{ReportAreas, areas};
use findings_model::*;
use ratatui::Frame;
use ratatui::layout::Rect;

pub const ID: PaneId = PaneId("report");

/// The pane's own keys (before `list`'s).
pub const KEYS: Context = Context::named("report");

/// What the pane's requests are for: each reply comes back in its slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// The pages of the report's findings (the first one brings the
    /// totals).
    List,
    /// The counts by severity and by time bucket of the charts.
    Counts,
    /// The counts by state that the totals are compared with.
    IssueCounts,
    /// The values the filters can take (the repository names).
    FilterValues,
    /// The dashboard's reports the charts area shows.
    Dashboard,
    /// The open findings past their target (the open-age view).
    OverTarget,
    /// The advisory and package of supply-chain rules a view names.
    RuleLabels,
}

impl ReplySlot for Slot {
    const ALL: &'static [Slot] = &[
        Slot::List,
        Slot::Counts,
        Slot::IssueCounts,
        Slot::FilterValues,
        Slot::Dashboard,
        Slot::OverTarget,
        Slot::RuleLabels,
    ];
}

/// The time periods `p` cycles through, in days back from now; `None` is
/// all time.
pub const PERIODS: [Option<u32>; 4] = [Some(7), Some(30), Some(90), None];

/// The finding-type toggles, in the order of `ReportPane::types`.
pub const TYPES: [FindingType; 3] = [FindingType::Code, FindingType::Sca, FindingType::Secrets];

/// The severity toggles, in the order of `ReportPane::severities`.
pub const SEVERITIES: [FindingSeverity; 4] = [
    FindingSeverity::Critical,
    FindingSeverity::High,
    FindingSeverity::Medium,
    FindingSeverity::Low,
];

/// How many rules and projects the "top" charts show.
pub const TOP: usize = 5;

/// The four totals of a response (they count the whole filtered set).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Totals {
    pub all: Option<i64>,
    pub code: Option<i64>,
    pub sca: Option<i64>,
    pub secrets: Option<i64>,
}

#[derive(Debug, Clone)]
pub struct ReportPane {
    /// The selectors the run started with (remembered, else the
    /// defaults): they are remembered again only when they changed.
    started_with: ReportSelectors,
    /// The dashboard's reports, one shown at a time in the charts area.
    pub dashboard: dashboard::Dashboard,
    /// The open findings past their target, for the open-age view.
    pub over_target: over_target::OverTarget,
    /// Open-age targets by severity (days): the open age view marks
    /// medians over them.
    pub sla_days: findings_config::SlaDays,
    /// When the period of the dashboard's reports starts (its selector's,
    /// else a year back: the reports read a bounded span).
    dashboard_since: Option<Timestamp>,
    pub list: PagedList<FindingRow<Issue>>,
    pub report_type: ReportType,
    /// Days back from now; `None` = all time.
    pub period_days: Option<u32>,
    pub bucket: Option<TimeBucketSize>,
    pub finding_state: Option<AggregateState>,
    /// Code, supply chain, secrets (see [`TYPES`]); all off = no filter.
    pub types: [bool; 3],
    /// Critical, high, medium, low (see [`SEVERITIES`]); all off = no filter.
    pub severities: [bool; 4],
    /// The start of the time period of the current query, fixed when the
    /// query starts so that every page of it asks for the same set.
    pub since: Option<Timestamp>,
    /// Its end, for a period of days (the end of the day: see
    /// `TimePeriod::last`); none for "since the last visit" or all time.
    pub until: Option<Timestamp>,
    /// The totals last received, and the generation of their query (they
    /// stay visible, dimmed, while a newer query loads).
    pub totals: Option<(Totals, u64)>,
    /// Counts of the whole filtered set (severity, trend).
    pub counts: Counts,
    /// Counts of the loaded findings (top rules and projects).
    pub stats: Stats,
    /// The Issues list's counts for the report's question, where it can
    /// ask it (see [`coverage`]).
    pub issues: IssueCounts,
    /// The projects (repository names) filtered on; empty = all.
    pub projects: Vec<String>,
    /// The repository filter being typed (`/`).
    pub repo_input: Option<repo_prompt::RepoPrompt>,
    /// The deployment's repository names, asked for when `/` first opens:
    /// a name it does not have is refused rather than counted as 0.
    pub known: FilterValues,
    /// The repository filter as typed when Enter came before the names:
    /// applied (or refused) when they arrive.
    pending_repos: Option<String>,
    /// The request in flight is for the first page (it carries the totals).
    first_page_pending: bool,
    /// Rows marked with `Space` (until the report is loaded anew).
    pub marked: Marks,
    /// Exception requests and fix PRs fresh fetches said, which a page
    /// does not: reloads keep them on the rows.
    learned: crate::list::learned::Learned,
    /// Findings created since the last visit are new.
    pub new: NewSince,
    /// Only the findings created since the last visit are asked for (in
    /// place of the time period).
    pub new_only: bool,
    /// The row to select again when a reload after a triage brings its
    /// first page (the place in the list is kept).
    keep_place: Option<usize>,
    /// The names supply-chain rules' findings gave them (advisory and
    /// package), from the pages, the opened count and the rules asked
    /// for; kept for the session.
    pub rule_labels: RuleLabels,
    /// The rules whose labels were asked for (each once a session).
    labels_asked: std::collections::HashSet<String>,
}

impl Default for ReportPane {
    fn default() -> Self {
        ReportPane {
            started_with: ReportSelectors::default(),
            dashboard: dashboard::Dashboard::default(),
            over_target: Default::default(),
            dashboard_since: None,
            sla_days: findings_config::SlaDays::default(),
            list: PagedList::default(),
            report_type: ReportType::TotalOpen,
            period_days: None,
            bucket: None,
            finding_state: None,
            types: [false; 3],
            severities: [false; 4],
            since: None,
            until: None,
            totals: None,
            counts: Counts::default(),
            stats: Stats::default(),
            issues: IssueCounts::default(),
            projects: Vec::new(),
            repo_input: None,
            known: FilterValues::default(),
            pending_repos: None,
            first_page_pending: false,
            marked: Marks::default(),
            learned: Default::default(),
            new: NewSince::default(),
            new_only: false,
            keep_place: None,
            rule_labels: RuleLabels::default(),
            labels_asked: std::collections::HashSet::new(),
        }
    }
}

impl ReportPane {
    /// The pane's areas in `body` (see [`areas`]).
    pub fn areas(&self, body: Rect) -> ReportAreas {
        let width = body.width as usize;
        let coverage: usize = view::coverage_texts(self, "·")
            .iter()
            .map(|(text, _)| crate::widgets::common::wrap(text, width).len())
            .sum();
        areas(body, self.dashboard.block, crate::layout::cells(coverage))
    }

    /// Rows of the findings table in the screen's body.
    fn table_rows(&self, body: Rect) -> usize {
        layout::table_rows(self.areas(body).list).height.max(1) as usize
    }

    pub fn new(session: &Session) -> Self {
        let mut pane = ReportPane {
            new: NewSince::new(session.last_visit.of(ID)),
            sla_days: session.sla_days,
            ..ReportPane::default()
        };
        if let Some(remembered) = session.remembered_by::<ReportSelectors>(ID) {
            pane.restore(&remembered);
        }
        pane.started_with = pane.selectors();
        pane
    }

    /// The totals, if they are those of the current query.
    pub fn current_totals(&self) -> Option<&Totals> {
        self.totals
            .as_ref()
            .filter(|(_, g)| *g == self.list.loader.generation)
            .map(|(t, _)| t)
    }

    /// The period as shown: "7 days" ... "all time".
    pub fn period_label(&self) -> String {
        if self.new_only && self.new.last_visit.is_some() {
            return "new since last visit".to_owned();
        }
        match self.period_days {
            Some(d) => format!("{d} days"),
            None => "all time".to_owned(),
        }
    }

    pub fn bucket_label(&self) -> &str {
        self.bucket.as_ref().map_or("none", TimeBucketSize::label)
    }

    /// The repositories filtered on ("all" when none is).
    pub fn repo_label(&self) -> String {
        match self.projects.as_slice() {
            [] => "all".to_owned(),
            names => names.join(","),
        }
    }

    /// Whether a chart of the whole set is still being counted.
    pub fn is_counting(&self) -> bool {
        self.counts.is_loading()
            || (self.list.loader.is_loading() && self.current_totals().is_none())
    }

    pub fn state_label(&self) -> &str {
        self.finding_state
            .as_ref()
            .map_or("any", AggregateState::label)
    }

    /// The finding types filtered on ("all" when none is toggled).
    pub fn types_label(&self) -> String {
        labels(&self.types, &TYPES.map(|t| t.label().to_owned()))
    }

    pub fn severities_label(&self) -> String {
        labels(&self.severities, &SEVERITIES.map(|s| s.label().to_owned()))
    }

    /// Asks the shown view's report if it is not known for the selection
    /// (with the counts shown, the top rules' and repositories' where
    /// they count the same findings).
    fn show_dashboard(&mut self, now: Timestamp, outbox: &mut Outbox) {
        if self.dashboard.block == dashboard::Block::OpenAge {
            self.over_target
                .ask(&self.projects, self.sla_days, now, outbox);
        }
        let filters = self.dashboard_filters();
        let tops = self.tops_from_reports();
        let opened = self.opened_filters();
        outbox.in_slot(Slot::Dashboard, |o| {
            self.dashboard.show(&filters, tops, opened.as_ref(), o);
        });
        // The rules view and the top rules chart name their rules: asked
        // with the first of them, so the names are there when they show.
        if self.dashboard.block != dashboard::Block::Counts || tops {
            outbox.in_slot(Slot::FilterValues, |o| self.known.request(o));
        }
    }

    /// The request for a page of the current query. `since` is the one
    /// fixed when the query started (see [`ReportPane::reload`]).
    pub fn request(&self, cursor: Option<String>) -> ReportRequest {
        let filters = ReportFilters {
            time_period: self.since.map(|since| TimePeriod {
                since: Some(since),
                until: self.until,
            }),
            finding_types: selected(&self.types, &TYPES),
            finding_severities: selected(&self.severities, &SEVERITIES),
            projects: self.projects.clone(),
            ..Default::default()
        };
        ReportRequest {
            report_type: Some(self.report_type.clone()),
            filters: (filters != ReportFilters::default()).then_some(filters),
            finding_state: self.finding_state.clone(),
            limit: Some(DEFAULT_PAGE_SIZE),
            cursor,
            ..Default::default()
        }
    }

    /// Starts a new query (a new selection, `r`): cancels the requests in
    /// flight, empties the list and asks for the first page and the counts.
    /// The totals of the previous query stay until the new ones arrive.
    ///
    /// The time period is fixed here, once per query, as the last
    /// `period_days` (`TimePeriod::last`, at the message's time), so a
    /// query's pages all ask for the same set.
    pub fn reload(&mut self, cx: &mut Cx) {
        self.new.restart(cx.now);
        // The period asked, exactly (the same as `report --period`): fixed
        // once per query, and the same asked again within the day.
        let bucket = self.dashboard_bucket();
        let period = match self.new.last_visit {
            Some(last) if self.new_only => TimePeriod {
                since: Some(last),
                until: None,
            },
            _ => self
                .period_days
                .map(|d| TimePeriod::last(chrono::Duration::days(i64::from(d)), cx.now))
                .unwrap_or_default(),
        };
        self.since = period.since;
        self.until = period.until;
        let cancel = self.list.reset();
        cx.outbox.cancel(cancel);
        self.marked.clear();
        self.stats = Stats::default();
        self.load_next(cx.outbox);
        let allowed = match self.severities {
            none if none.iter().all(|on| !on) => [true; 4],
            on => on,
        };
        let trend = self.trend(cx);
        self.counts
            .start(&self.request(None), allowed, trend, cx.outbox);
        // Every query: the findings may have changed (a triage).
        match self.issues_question() {
            Ok(question) => cx
                .outbox
                .in_slot(Slot::IssueCounts, |o| self.issues.ask(&question, true, o)),
            Err(_) => self.issues.clear(cx.outbox),
        }
        // The dashboard's reports read a bounded span: a year for "all time".
        self.dashboard_since = self
            .since
            .or_else(|| Some(bucket.floor(cx.now - chrono::Duration::days(365))));
        self.show_dashboard(cx.now, cx.outbox);
    }

    /// What the trend counts: the bucket size, up to now, from the start
    /// of the period. The open backlog is of findings created before the
    /// period: its buckets end where the period starts, so the trend shows
    /// the findings the report counts (not zeros after them).
    fn trend(&self, cx: &Cx) -> Trend {
        match (&self.report_type, self.since) {
            (ReportType::OpenBacklog, Some(since)) => Trend {
                size: self.bucket.clone(),
                now: since,
                since: None,
            },
            _ => Trend {
                size: self.bucket.clone(),
                now: cx.now,
                since: self.since,
            },
        }
    }

    fn load_next(&mut self, outbox: &mut Outbox) {
        let cursor = self.list.next_cursor.clone();
        let first = cursor.is_none();
        let request = ApiRequest::Report(self.request(cursor));
        if let Some(id) = outbox.in_slot(Slot::List, |o| o.send(request)) {
            let superseded = self.list.loader.started(id);
            outbox.cancel(superseded);
            self.first_page_pending = first;
        }
    }

    /// The selected finding, as its row knows it.
    pub fn selected_issue(&self) -> Option<Issue> {
        Some(self.list.selected_item()?.summary())
    }

    fn take_page(&mut self, page: ReportResponse, first: bool, outbox: &mut Outbox) {
        if first {
            let totals = Totals {
                all: page.total,
                code: page.total_code,
                sca: page.total_sca,
                secrets: page.total_secrets,
            };
            self.counts.total(totals.all);
            self.totals = Some((totals, self.list.loader.generation));
        }
        self.stats.add(&page.findings);
        for finding in &page.findings {
            self.rule_labels.note(finding);
        }
        let mut rows: Vec<_> = page.findings.iter().map(FindingRow::new).collect();
        self.learned.apply(&mut rows);
        self.new.count_page(&rows, |r| r.created_at());
        self.list
            .add_page(rows, page.cursor, "Loading the report", outbox);
        if let Some(place) = self.keep_place.take() {
            self.list.select(place);
        }
    }

    fn toggle_type(&mut self, i: usize, cx: &mut Cx) {
        self.types[i] = !self.types[i];
        self.reload(cx);
    }

    fn toggle_severity(&mut self, i: usize, cx: &mut Cx) {
        self.severities[i] = !self.severities[i];
        self.reload(cx);
    }
}

impl Pane for ReportPane {
    fn id(&self) -> PaneId {
        ID
    }

    fn title(&self) -> &'static str {
        "Report"
    }

    fn contexts(&self) -> Vec<Context> {
        vec![KEYS, Context::LIST]
    }

    fn key_contexts(&self) -> &'static [(Context, &'static str)] {
        &[(KEYS, "Report")]
    }

    /// The selectors, when they changed this run.
    fn remember(&self) -> Option<serde_json::Value> {
        let now = self.selectors();
        (now != self.started_with)
            .then(|| findings_base::json::to_value(&now).ok())
            .flatten()
    }

    fn help_here(&self, v: &ViewCx) -> Option<(String, Vec<(String, String)>)> {
        self.view_help(v)
    }

    fn is_loading(&self) -> bool {
        self.list.loader.is_loading()
            || self.counts.is_loading()
            || self.issues.is_loading()
            || self.dashboard.is_loading()
            || self.over_target.is_loading()
            || self.pending_repos.is_some()
    }

    fn text_input_active(&self) -> bool {
        self.repo_input.is_some()
    }

    fn on_text_key(&mut self, key: crossterm::event::KeyEvent, cx: &mut Cx) {
        self.on_repo_key(key, cx);
    }

    fn tab_count(&self) -> Option<i64> {
        self.current_totals().and_then(|t| t.all)
    }

    /// The first time the pane is shown, the report is requested.
    fn activate(&mut self, cx: &mut Cx) {
        if self.list.first_show() {
            self.reload(cx);
        }
    }

    fn on_action(&mut self, action: Action, cx: &mut Cx) {
        // A view of the charts with rows has the row keys (and a list's
        // Enter).
        if self.dashboard.has_rows() && self.on_view_key(action, cx) {
            return;
        }
        let rows = self.table_rows(cx.area);
        let stopping = action == Action::Back;
        // Esc stops the counts in flight too.
        let counts_stopped = stopping
            && (self.counts.cancel(cx.outbox)
                | self.issues.cancel(cx.outbox)
                | self.dashboard.cancel(cx.outbox));
        match findings_list::on_list_key(&mut self.list, &mut self.marked, action, rows, cx.outbox)
        {
            // Esc stopped the first page: its totals are not coming.
            ListKey::Handled if stopping => self.first_page_pending = false,
            ListKey::Handled => {}
            ListKey::LoadNext => self.load_next(cx.outbox),
            ListKey::Reload => self.reload(cx),
            ListKey::Unhandled if counts_stopped => cx.outbox.status("request cancelled"),
            ListKey::Unhandled => self.on_selector(action, cx),
        }
    }

    fn on_reply(&mut self, slot: message::Slot, id: RequestId, result: ApiResult, cx: &mut Cx) {
        match Slot::of(slot) {
            Slot::List => {
                if !self.list.loader.accept(id) {
                    return;
                }
                let first = std::mem::take(&mut self.first_page_pending);
                match result {
                    Ok(ApiResponse::Report(page)) => self.take_page(page, first, cx.outbox),
                    Ok(other) => {
                        self.list
                            .failed("Loading the report", &other.unexpected(), cx.outbox);
                    }
                    Err(e) => self.list.failed("Loading the report", &e, cx.outbox),
                }
            }
            Slot::Counts => self.counts.take(id, result),
            Slot::IssueCounts => self.issues.accept(id, result),
            Slot::Dashboard => {
                self.dashboard.accept(id, result);
                if let Some(opened) = self.dashboard.opened() {
                    self.rule_labels.learn_from(&opened.labels);
                }
                self.ask_rule_labels(cx.outbox);
            }
            Slot::OverTarget => self.over_target.accept(id, result),
            Slot::FilterValues => {
                self.known.accept(id, result);
                self.ask_rule_labels(cx.outbox);
                // What was typed while the names were on their way.
                if let Some(typed) = self.pending_repos.take() {
                    self.apply_typed(typed, cx);
                }
            }
            // A rule not named so keeps the name the filter values give.
            Slot::RuleLabels => {
                if let Ok(labels) = message::answer::<Vec<(String, String)>>(result) {
                    self.rule_labels.learn(&labels);
                }
            }
        }
    }

    /// Prefetch: within one screen of the end of what is loaded, the next
    /// page is requested.
    fn after_update(&mut self, cx: &mut Cx) {
        if self.list.follow(self.table_rows(cx.area)) {
            self.load_next(cx.outbox);
        }
    }

    fn list_rows(&self, area: Rect) -> usize {
        self.table_rows(area)
    }

    /// A click on a row of the findings table selects it.
    fn click(&mut self, area: Rect, _x: u16, y: u16) {
        let rows = layout::table_rows(self.areas(area).list);
        if rows.height > 0 && y >= rows.y && y < rows.y.saturating_add(rows.height) {
            self.list.select(self.list.offset + (y - rows.y) as usize);
        }
    }

    /// Triaged rows change in place; the totals are asked again.
    fn changed(&mut self, change: &Changed, cx: &mut Cx) {
        let loaded = !self.list.items.is_empty() || self.list.loader.is_loading();
        match change {
            Changed::Findings(fresh) => {
                self.learned.learn(fresh);
                crate::message::rows::refresh_rows(&mut self.list.items, fresh);
            }
            // A write changed what the views count: asked again (the same
            // selection would find the old answers); the list too, in the
            // same place, with the same marks.
            Changed::Totals | Changed::FindingsReload => {
                self.dashboard.forget(cx.outbox);
                if !loaded {
                    return;
                }
                self.over_target.forget();
                let marked = std::mem::take(&mut self.marked);
                let place = self.list.selected;
                self.reload(cx);
                self.marked = marked;
                self.keep_place = Some(place);
            }
            Changed::MarksSpent(ids) => self.marked.unmark(ids),
            _ => {}
        }
    }

    fn findings(&self) -> Option<Box<dyn FindingsSource + '_>> {
        let columns = ListColumns {
            names: findings_table::export_columns(DateColumn::Created, false),
            targets: self.sla_days,
            age_at: None,
        };
        Some(Findings::boxed(&self.list, &self.marked, columns))
    }

    /// When the list on show was asked for (its first page): the visit to
    /// record, so what was created after it is new next time.
    fn seen_at(&self) -> Option<Timestamp> {
        self.new.listed_at
    }

    fn draw(&self, f: &mut Frame, area: Rect, v: &ViewCx) {
        view::draw(f, area, self, v);
    }

    fn status(&self, v: &ViewCx) -> String {
        view::status(self, v)
    }
}

fn selected<T: Clone>(on: &[bool], values: &[T]) -> Vec<T> {
    on.iter()
        .zip(values)
        .filter(|(on, _)| **on)
        .map(|(_, v)| v.clone())
        .collect()
}

fn labels(on: &[bool], names: &[String]) -> String {
    let chosen: Vec<&str> = on
        .iter()
        .zip(names)
        .filter(|(on, _)| **on)
        .map(|(_, n)| n.as_str())
        .collect();
    if chosen.is_empty() {
        "all".to_owned()
    } else {
        chosen.join(",")
    }
}

#[cfg(test)]
mod tests;
