//! The Report pane: ReportsService_GetReportFindings with selectors (report
//! type, time period, bucket size, finding state) and toggles (finding
//! types, severities). The totals of the response, charts of the loaded
//! findings (counted here as pages arrive, so a frame does no O(n) work) and
//! the findings list, loaded lazily by cursor like the Issues pane.
//!
//! Every selector or toggle change starts a new query: the request in flight
//! is cancelled, the list is emptied and the first page is requested. The
//! totals of the previous query stay on screen (dimmed) until the new ones
//! arrive.

use crate::api::ApiError;
use crate::api::model::*;
use crate::tui::app::{AppEvent, Outbox, copy_link, open_url};
use crate::tui::exporting::Marks;
use crate::tui::keymap::{Action, Context};
use crate::tui::layout;
use crate::tui::load::PagedList;
use crate::tui::rows::{FindingRow, count_new, toggle_new_only};
use crate::tui::worker::{ApiRequest, ApiResponse, RequestId};
use crossterm::event::KeyEvent;
use ratatui::layout::Rect;
use std::collections::HashMap;

pub const PAGE_SIZE: i64 = 100;

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

/// Counts over the loaded findings, kept up to date as pages arrive.
#[derive(Debug, Clone, Default)]
pub struct Stats {
    /// By `Severity::rank`: critical, high, medium, low, info, other/none.
    pub by_severity: [u64; 6],
    /// Code (SAST and AI SAST), supply chain (SCA), secrets, other/none.
    pub by_type: [u64; 4],
    rules: HashMap<String, u64>,
    projects: HashMap<String, u64>,
    /// The most frequent rules, most first (ties by name).
    pub top_rules: Vec<(String, u64)>,
    /// The most frequent projects (repositories), most first.
    pub top_projects: Vec<(String, u64)>,
    /// Findings counted.
    pub count: u64,
}

impl Stats {
    /// Counts a page of findings and refreshes the top lists.
    pub fn add(&mut self, findings: &[Issue]) {
        for i in findings {
            let sev = i.severity.as_ref().map_or(5, |s| s.rank() as usize).min(5);
            self.by_severity[sev] += 1;
            let ty = match i.issue_type {
                Some(IssueType::Sast | IssueType::AiSast) => 0,
                Some(IssueType::Sca) => 1,
                Some(IssueType::Secrets) => 2,
                _ => 3,
            };
            self.by_type[ty] += 1;
            let rule = match i.rule_label() {
                r if r.is_empty() => "(no rule)".to_owned(),
                r => r,
            };
            *self.rules.entry(rule).or_default() += 1;
            let project = match i.repository_name() {
                "" => "(no project)",
                p => p,
            };
            *self.projects.entry(project.to_owned()).or_default() += 1;
            self.count += 1;
        }
        if !findings.is_empty() {
            self.top_rules = top(&self.rules);
            self.top_projects = top(&self.projects);
        }
    }
}

fn top(counts: &HashMap<String, u64>) -> Vec<(String, u64)> {
    let mut all: Vec<(&String, &u64)> = counts.iter().collect();
    all.sort_by(|a, b| b.1.cmp(a.1).then_with(|| a.0.cmp(b.0)));
    all.into_iter()
        .take(TOP)
        .map(|(k, v)| (k.clone(), *v))
        .collect()
}

#[derive(Debug)]
pub struct ReportPane {
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
    /// The totals last received, and the generation of their query (they
    /// stay visible, dimmed, while a newer query loads).
    pub totals: Option<(Totals, u64)>,
    pub stats: Stats,
    /// The request in flight is for the first page (it carries the totals).
    first_page_pending: bool,
    /// Rows marked with `Space` (until the report is loaded anew).
    pub marked: Marks,
    /// The last visit under this profile: findings created since are new.
    pub new_since: Option<Timestamp>,
    /// How many loaded findings are new.
    pub new_count: usize,
    /// When the list on show was asked for.
    listed_at: Option<Timestamp>,
    /// Only the findings created since the last visit are asked for (in
    /// place of the time period).
    pub new_only: bool,
    activated: bool,
}

impl Default for ReportPane {
    fn default() -> Self {
        ReportPane {
            list: PagedList::default(),
            report_type: ReportType::TotalOpen,
            period_days: None,
            bucket: None,
            finding_state: None,
            types: [false; 3],
            severities: [false; 4],
            since: None,
            totals: None,
            stats: Stats::default(),
            first_page_pending: false,
            marked: Marks::default(),
            new_since: None,
            new_count: 0,
            listed_at: None,
            new_only: false,
            activated: false,
        }
    }
}

/// Rows of the findings table, given the height `App::list_height` passes
/// (the rows of a table filling the whole body: `body.height - 3`). The
/// Report pane's table is smaller; its rows come from the same geometry as
/// the view's (`layout::report`), so paging and prefetch agree with it.
pub fn list_rows(height: usize) -> usize {
    let body_height = height.saturating_add(3).min(u16::MAX as usize) as u16;
    let areas = layout::report(Rect::new(0, 0, 80, body_height));
    layout::table_rows(areas.list).height.max(1) as usize
}

impl ReportPane {
    pub fn contexts(&self) -> Vec<Context> {
        vec![Context::Report, Context::List]
    }

    pub fn text_input_active(&self) -> bool {
        false
    }

    pub fn is_loading(&self) -> bool {
        self.list.loader.is_loading()
    }

    /// The first time the pane is shown, the report is requested.
    /// When the list on show was asked for (its first page): the visit to
    /// record, so what became relevant after it is new next time.
    pub fn seen_at(&self) -> Option<Timestamp> {
        self.listed_at
    }

    pub fn activate(&mut self, outbox: &mut Outbox) {
        if !self.activated {
            self.activated = true;
            self.reload(outbox);
        }
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
        if self.new_only && self.new_since.is_some() {
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

    /// The request for a page of the current query. `since` is the one
    /// fixed when the query started (see [`ReportPane::reload`]).
    pub fn request(&self, cursor: Option<String>) -> ReportRequest {
        let filters = ReportFilters {
            time_period: self.since.map(|since| TimePeriod {
                since: Some(since),
                until: None,
            }),
            time_bucket_size: self.bucket.clone(),
            finding_types: selected(&self.types, &TYPES),
            finding_severities: selected(&self.severities, &SEVERITIES),
            ..Default::default()
        };
        ReportRequest {
            report_type: Some(self.report_type.clone()),
            filters: (filters != ReportFilters::default()).then_some(filters),
            finding_state: self.finding_state.clone(),
            limit: Some(PAGE_SIZE),
            cursor,
            ..Default::default()
        }
    }

    /// Starts a new query (a new selection, `r`): cancels the request in
    /// flight, empties the list and asks for the first page. The totals of
    /// the previous query stay until the new ones arrive.
    ///
    /// This is where "now" is read: the start of the time period is fixed
    /// here, once per query, as `Utc::now() - period_days` (the one clock
    /// read of the pane, so a query's pages all ask for the same set).
    pub fn reload(&mut self, outbox: &mut Outbox) {
        self.listed_at = Some(chrono::Utc::now());
        self.since = match self.new_since {
            Some(last) if self.new_only => Some(last),
            _ => self
                .period_days
                .map(|d| chrono::Utc::now() - chrono::Duration::days(i64::from(d))),
        };
        let cancel = self.list.reset();
        outbox.cancel(cancel);
        self.marked.clear();
        self.new_count = 0;
        self.stats = Stats::default();
        self.load_next(outbox);
    }

    fn load_next(&mut self, outbox: &mut Outbox) {
        let cursor = self.list.next_cursor.clone();
        let first = cursor.is_none();
        if let Some(id) = outbox.send(ApiRequest::Report(self.request(cursor))) {
            let superseded = self.list.loader.started(id);
            outbox.cancel(superseded);
            self.first_page_pending = first;
        }
    }

    /// Prefetch: within one screen of the end of what is loaded, the next
    /// page is requested.
    pub fn after_update(&mut self, height: usize, outbox: &mut Outbox) {
        let rows = list_rows(height);
        if self.list.follow(rows) && self.activated {
            self.load_next(outbox);
        }
    }

    /// Takes the reply if it is this pane's current request's; gives it
    /// back otherwise (a superseded reply is then dropped by the app).
    pub fn on_reply(
        &mut self,
        id: RequestId,
        result: Result<ApiResponse, ApiError>,
        outbox: &mut Outbox,
    ) -> Option<Result<ApiResponse, ApiError>> {
        if !self.list.loader.accept(id) {
            return Some(result);
        }
        let first = std::mem::take(&mut self.first_page_pending);
        match result {
            Ok(ApiResponse::Report(page)) => {
                if first {
                    let totals = Totals {
                        all: page.total,
                        code: page.total_code,
                        sca: page.total_sca,
                        secrets: page.total_secrets,
                    };
                    self.totals = Some((totals, self.list.loader.generation));
                }
                self.stats.add(&page.findings);
                let rows: Vec<_> = page.findings.iter().map(FindingRow::new).collect();
                self.new_count += count_new(&rows, self.new_since, |r| r.created_at);
                self.list
                    .add_page(rows, page.cursor, "Loading the report", outbox);
            }
            Ok(_) => {
                self.list.loader.error = Some("unexpected answer to a report request".into());
            }
            Err(e) => self.list.failed("Loading the report", &e, outbox),
        }
        None
    }

    /// The selected finding, unpacked.
    pub fn selected_issue(&self) -> Option<Issue> {
        self.list.selected_item()?.unpack()
    }

    pub fn on_action(&mut self, action: Action, height: usize, outbox: &mut Outbox) {
        if self.list.navigate(action, list_rows(height)) {
            return;
        }
        match action {
            Action::Open => {
                if let Some(issue) = self.selected_issue() {
                    outbox.events.push(AppEvent::OpenDetail(Box::new(issue)));
                }
            }
            Action::Refresh => {
                if self.list.retry_failed_page() {
                    self.load_next(outbox);
                } else {
                    self.reload(outbox);
                }
            }
            Action::Back => {
                let stopped = self.list.stop(outbox);
                self.first_page_pending &= !stopped;
            }
            Action::OpenInBrowser => open_url(outbox, self.selected_issue().as_ref()),
            Action::Copy => copy_link(outbox, self.selected_issue().as_ref()),
            Action::Mark => {
                if let Some(row) = self.list.selected_item() {
                    match self.marked.toggle(&row.id) {
                        Ok(_) => self.list.move_by(1),
                        Err(e) => outbox.status(e),
                    }
                }
            }
            Action::NewOnly => {
                let in_force = self.new_since.filter(|_| self.new_only);
                let new_only = toggle_new_only(self.new_since, in_force, outbox).is_some();
                if new_only != self.new_only {
                    self.new_only = new_only;
                    self.reload(outbox);
                }
            }
            Action::CycleReportType => {
                self.report_type = cycle(ReportType::ALL, Some(&self.report_type))
                    .unwrap_or(ReportType::TotalOpen);
                self.reload(outbox);
            }
            Action::CyclePeriod => {
                let i = PERIODS
                    .iter()
                    .position(|p| *p == self.period_days)
                    .map_or(0, |i| (i + 1) % PERIODS.len());
                self.period_days = PERIODS[i];
                self.new_only = false;
                self.reload(outbox);
            }
            Action::CycleBucket => {
                self.bucket = cycle_optional(TimeBucketSize::ALL, self.bucket.as_ref());
                self.reload(outbox);
            }
            Action::CycleState => {
                self.finding_state =
                    cycle_optional(AggregateState::ALL, self.finding_state.as_ref());
                self.reload(outbox);
            }
            Action::ToggleCode => self.toggle_type(0, outbox),
            Action::ToggleSca => self.toggle_type(1, outbox),
            Action::ToggleSecrets => self.toggle_type(2, outbox),
            Action::ToggleCritical => self.toggle_severity(0, outbox),
            Action::ToggleHigh => self.toggle_severity(1, outbox),
            Action::ToggleMedium => self.toggle_severity(2, outbox),
            Action::ToggleLow => self.toggle_severity(3, outbox),
            _ => {}
        }
    }

    fn toggle_type(&mut self, i: usize, outbox: &mut Outbox) {
        self.types[i] = !self.types[i];
        self.reload(outbox);
    }

    fn toggle_severity(&mut self, i: usize, outbox: &mut Outbox) {
        self.severities[i] = !self.severities[i];
        self.reload(outbox);
    }

    pub fn on_text_key(&mut self, _key: KeyEvent, _outbox: &mut Outbox) {}

    /// A click on a row of the findings table selects it.
    pub fn click(&mut self, body: Rect, _x: u16, y: u16) {
        let rows = layout::table_rows(layout::report(body).list);
        if rows.height > 0 && y >= rows.y && y < rows.y.saturating_add(rows.height) {
            self.list.select(self.list.offset + (y - rows.y) as usize);
        }
    }

    pub fn set_sort(&mut self, _args: &[&str], _outbox: &mut Outbox) -> Result<(), String> {
        Err("the report has a fixed order (severity, most severe first)".into())
    }
}

/// The value after `current` in `all`, wrapping around.
fn cycle<T: Clone + PartialEq>(all: &[T], current: Option<&T>) -> Option<T> {
    let next = current
        .and_then(|c| all.iter().position(|v| v == c))
        .map_or(0, |i| (i + 1) % all.len());
    all.get(next).cloned()
}

/// `None`, then each value of `all`, then `None` again.
fn cycle_optional<T: Clone + PartialEq>(all: &[T], current: Option<&T>) -> Option<T> {
    match current.and_then(|c| all.iter().position(|v| v == c)) {
        None if current.is_none() => all.first().cloned(),
        None => None,
        Some(i) => all.get(i + 1).cloned(),
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
mod tests {
    use super::*;
    use crate::tui::app::{App, Effect, PaneId, Session};
    use crate::tui::keymap::Keymap;
    use crate::tui::theme::Theme;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    /// The report requests sent, with their ids.
    fn sent(outbox: &Outbox) -> Vec<(RequestId, ReportRequest)> {
        outbox
            .requests()
            .into_iter()
            .filter_map(|(id, r)| match r {
                ApiRequest::Report(r) => Some((id, r.clone())),
                _ => None,
            })
            .collect()
    }

    fn cancelled(outbox: &Outbox) -> Vec<RequestId> {
        outbox.cancelled()
    }

    fn last_request(outbox: &Outbox) -> ReportRequest {
        sent(outbox).pop().expect("a report request was sent").1
    }

    fn last_id(outbox: &Outbox) -> RequestId {
        sent(outbox).pop().expect("a report request was sent").0
    }

    fn finding(n: usize, sev: Severity, ty: IssueType, rule: &str, repo: &str) -> Issue {
        Issue {
            id: Some(format!("f{n}")),
            severity: Some(sev),
            issue_type: Some(ty),
            rule_id: Some(rule.to_owned()),
            repository: Some(Repository {
                name: Some(repo.to_owned()),
                ..Default::default()
            }),
            file_path: Some(format!("src/file{n}.rs")),
            line: Some(n as i64 + 1),
            aggregate_state: Some(AggregateState::Open),
            line_of_code_url: Some(format!("https://example.test/f{n}")),
            ..Default::default()
        }
    }

    fn page(range: std::ops::Range<usize>, cursor: Option<&str>) -> ReportResponse {
        ReportResponse {
            findings: range
                .map(|n| {
                    let sev = [Severity::Critical, Severity::High, Severity::Low][n % 3].clone();
                    let ty = [IssueType::Sast, IssueType::Sca, IssueType::Secrets][n % 3].clone();
                    finding(
                        n,
                        sev,
                        ty,
                        &format!("rule-{}", n % 7),
                        &format!("repo-{}", n % 4),
                    )
                })
                .collect(),
            cursor: cursor.map(str::to_owned),
            total: Some(2345),
            total_code: Some(1200),
            total_sca: Some(845),
            total_secrets: Some(300),
        }
    }

    fn reply(
        pane: &mut ReportPane,
        id: RequestId,
        resp: ReportResponse,
        outbox: &mut Outbox,
    ) -> Option<Result<ApiResponse, ApiError>> {
        pane.on_reply(id, Ok(ApiResponse::Report(resp)), outbox)
    }

    /// An activated pane whose first page has arrived.
    fn loaded(outbox: &mut Outbox) -> ReportPane {
        let mut pane = ReportPane::default();
        pane.activate(outbox);
        let id = last_id(outbox);
        assert!(reply(&mut pane, id, page(0..100, Some("c1")), outbox).is_none());
        pane
    }

    #[test]
    fn n_asks_for_the_findings_created_since_the_last_visit_and_marks_them() {
        let last: Timestamp = "2026-11-20T12:00:00Z".parse().unwrap();
        let mut outbox = Outbox::default();
        let mut pane = ReportPane {
            new_since: Some(last),
            ..ReportPane::default()
        };
        pane.activate(&mut outbox);
        let mut first = page(0..4, None);
        for (i, f) in first.findings.iter_mut().enumerate() {
            // Two before the visit, two after.
            f.created_at = Some(last + chrono::Duration::hours(i as i64 * 2 - 3));
        }
        reply(&mut pane, last_id(&outbox), first, &mut outbox);
        assert_eq!(pane.new_count, 2);
        pane.on_action(Action::NewOnly, 20, &mut outbox);
        assert!(pane.new_only);
        let r = last_request(&outbox);
        let since = r.filters.and_then(|f| f.time_period).and_then(|p| p.since);
        assert_eq!(since, Some(last));
        assert_eq!(pane.period_label(), "new since last visit");
        // Again: every finding, over the period chosen before.
        pane.on_action(Action::NewOnly, 20, &mut outbox);
        assert!(!pane.new_only);
        let r = last_request(&outbox);
        assert_eq!(r.filters.and_then(|f| f.time_period), None);
        // A period chosen while only new ones show replaces them.
        pane.on_action(Action::NewOnly, 20, &mut outbox);
        pane.on_action(Action::CyclePeriod, 20, &mut outbox);
        assert!(!pane.new_only);
        assert_eq!(pane.period_label(), "7 days");
    }

    #[test]
    fn n_on_a_first_visit_says_nothing_is_new_and_sends_nothing() {
        let mut outbox = Outbox::default();
        let mut pane = loaded(&mut outbox);
        let before = sent(&outbox).len();
        pane.on_action(Action::NewOnly, 20, &mut outbox);
        assert_eq!(sent(&outbox).len(), before);
        assert!(!pane.new_only);
        assert_eq!(pane.new_count, 0);
    }

    #[test]
    fn activation_requests_the_first_page_once_with_the_defaults() {
        let mut outbox = Outbox::default();
        let mut pane = ReportPane::default();
        pane.activate(&mut outbox);
        pane.activate(&mut outbox);
        let reqs = sent(&outbox);
        assert_eq!(reqs.len(), 1, "activate loads only the first time");
        let r = &reqs[0].1;
        assert_eq!(r.report_type, Some(ReportType::TotalOpen));
        assert_eq!(r.limit, Some(100));
        assert_eq!(r.cursor, None);
        assert_eq!(r.filters, None, "nothing toggled: no filter");
        assert_eq!(r.finding_state, None);
        assert!(pane.is_loading());
        let json = serde_json::to_value(r).unwrap();
        assert_eq!(json["reportType"], "REPORT_TYPE_TOTAL_OPEN");
    }

    #[test]
    fn each_selector_and_toggle_shapes_the_request() {
        let mut outbox = Outbox::default();
        let mut pane = ReportPane::default();
        pane.activate(&mut outbox);

        pane.on_action(Action::CycleReportType, 20, &mut outbox);
        assert_eq!(
            last_request(&outbox).report_type,
            Some(ReportType::TotalFixed)
        );
        for _ in 1..ReportType::ALL.len() {
            pane.on_action(Action::CycleReportType, 20, &mut outbox);
        }
        assert_eq!(
            last_request(&outbox).report_type,
            Some(ReportType::TotalOpen),
            "the report type wraps around"
        );

        pane.on_action(Action::ToggleCode, 20, &mut outbox);
        pane.on_action(Action::ToggleSecrets, 20, &mut outbox);
        let f = last_request(&outbox).filters.unwrap();
        assert_eq!(
            f.finding_types,
            vec![FindingType::Code, FindingType::Secrets]
        );
        let json = serde_json::to_value(last_request(&outbox)).unwrap();
        assert_eq!(
            json["filters"]["findingTypes"],
            serde_json::json!(["FINDING_TYPE_CODE", "FINDING_TYPE_SECRETS"])
        );
        pane.on_action(Action::ToggleSca, 20, &mut outbox);
        pane.on_action(Action::ToggleCode, 20, &mut outbox);
        assert_eq!(
            last_request(&outbox).filters.unwrap().finding_types,
            vec![FindingType::Sca, FindingType::Secrets]
        );
        pane.on_action(Action::ToggleSca, 20, &mut outbox);
        pane.on_action(Action::ToggleSecrets, 20, &mut outbox);
        assert_eq!(last_request(&outbox).filters, None, "all off: no filter");

        for action in [
            Action::ToggleCritical,
            Action::ToggleHigh,
            Action::ToggleMedium,
            Action::ToggleLow,
        ] {
            pane.on_action(action, 20, &mut outbox);
        }
        pane.on_action(Action::ToggleMedium, 20, &mut outbox);
        let json = serde_json::to_value(last_request(&outbox)).unwrap();
        assert_eq!(
            json["filters"]["findingSeverities"],
            serde_json::json!([
                "FINDING_SEVERITY_CRITICAL",
                "FINDING_SEVERITY_HIGH",
                "FINDING_SEVERITY_LOW"
            ])
        );
        assert_eq!(pane.severities_label(), "critical,high,low");
        for action in [
            Action::ToggleCritical,
            Action::ToggleHigh,
            Action::ToggleLow,
        ] {
            pane.on_action(action, 20, &mut outbox);
        }
        assert_eq!(last_request(&outbox).filters, None);

        // Bucket: none → day → week → month → none.
        let mut buckets = vec![];
        for _ in 0..4 {
            pane.on_action(Action::CycleBucket, 20, &mut outbox);
            buckets.push(
                last_request(&outbox)
                    .filters
                    .and_then(|f| f.time_bucket_size),
            );
        }
        assert_eq!(
            buckets,
            vec![
                Some(TimeBucketSize::Day),
                Some(TimeBucketSize::Week),
                Some(TimeBucketSize::Month),
                None
            ]
        );

        // State: none → each aggregate state → none.
        let mut states = vec![];
        for _ in 0..=AggregateState::ALL.len() {
            pane.on_action(Action::CycleState, 20, &mut outbox);
            states.push(last_request(&outbox).finding_state);
        }
        assert_eq!(states[0], Some(AggregateState::Open));
        assert_eq!(
            states[..AggregateState::ALL.len()]
                .iter()
                .map(|s| s.clone().unwrap())
                .collect::<Vec<_>>(),
            AggregateState::ALL.to_vec()
        );
        assert_eq!(states.last().unwrap(), &None);
        pane.on_action(Action::CycleState, 20, &mut outbox);
        let json = serde_json::to_value(last_request(&outbox)).unwrap();
        assert_eq!(json["findingState"], "AGGREGATE_ISSUE_STATE_OPEN");
    }

    #[test]
    fn the_period_is_counted_back_from_now() {
        let mut outbox = Outbox::default();
        let mut pane = ReportPane::default();
        pane.activate(&mut outbox);
        let mut seen = vec![];
        for _ in 0..4 {
            pane.on_action(Action::CyclePeriod, 20, &mut outbox);
            seen.push(pane.period_days);
            let req = last_request(&outbox);
            let since = req
                .filters
                .and_then(|f| f.time_period)
                .and_then(|p| p.since);
            match pane.period_days {
                Some(days) => {
                    let expected = chrono::Utc::now() - chrono::Duration::days(i64::from(days));
                    let since = since.expect("a period sends timePeriod.since");
                    assert!(
                        (expected - since).num_seconds().abs() < 60,
                        "{days} days: since {since} is about now - {days}d"
                    );
                }
                None => assert_eq!(since, None, "all time sends no period"),
            }
        }
        assert_eq!(seen, vec![Some(7), Some(30), Some(90), None]);
        assert_eq!(pane.period_label(), "all time");

        // The next pages of a query ask for the same period.
        pane.on_action(Action::CyclePeriod, 20, &mut outbox);
        let first = last_request(&outbox);
        let id = last_id(&outbox);
        reply(&mut pane, id, page(0..100, Some("c1")), &mut outbox);
        pane.list.select(99);
        pane.after_update(20, &mut outbox);
        let next = last_request(&outbox);
        assert_eq!(next.cursor.as_deref(), Some("c1"));
        assert_eq!(next.filters, first.filters);
    }

    #[test]
    fn a_new_selection_cancels_and_drops_the_late_reply() {
        let mut outbox = Outbox::default();
        let mut pane = ReportPane::default();
        pane.activate(&mut outbox);
        let old = last_id(&outbox);
        pane.on_action(Action::ToggleHigh, 20, &mut outbox);
        let new = last_id(&outbox);
        assert_ne!(old, new);
        assert!(
            cancelled(&outbox).contains(&old),
            "the old request is cancelled"
        );
        assert!(pane.is_loading());

        // The old generation's reply arrives late: not taken, nothing changes.
        let back = reply(&mut pane, old, page(0..100, Some("c1")), &mut outbox);
        assert!(back.is_some(), "a superseded reply is given back (dropped)");
        assert!(pane.list.items.is_empty());
        assert!(pane.totals.is_none());
        assert!(pane.is_loading(), "still waiting for the new query");

        let mut small = page(0..3, None);
        small.total = Some(3);
        assert!(reply(&mut pane, new, small, &mut outbox).is_none());
        assert_eq!(pane.list.items.len(), 3);
        assert_eq!(pane.current_totals().unwrap().all, Some(3));
    }

    #[test]
    fn totals_come_from_the_first_page_and_stay_while_the_next_query_loads() {
        let mut outbox = Outbox::default();
        let mut pane = loaded(&mut outbox);
        let t = pane.current_totals().cloned().unwrap();
        assert_eq!(
            t,
            Totals {
                all: Some(2345),
                code: Some(1200),
                sca: Some(845),
                secrets: Some(300)
            }
        );
        // A later page does not overwrite the totals.
        pane.list.select(99);
        pane.after_update(20, &mut outbox);
        let id = last_id(&outbox);
        let mut second = page(100..150, None);
        second.total = Some(1);
        reply(&mut pane, id, second, &mut outbox);
        assert_eq!(pane.current_totals().unwrap().all, Some(2345));

        // A new query: the old totals stay (not current) until new ones come.
        pane.on_action(Action::CycleReportType, 20, &mut outbox);
        assert!(pane.current_totals().is_none());
        assert_eq!(pane.totals.as_ref().unwrap().0.all, Some(2345));
        assert!(pane.list.items.is_empty(), "the list starts again");
        assert_eq!(pane.stats.count, 0, "the charts start again");
    }

    #[test]
    fn a_failure_is_kept_and_reported() {
        let mut outbox = Outbox::default();
        let mut pane = ReportPane::default();
        pane.activate(&mut outbox);
        let id = last_id(&outbox);
        let err = ApiError::Connection("refused".into());
        assert!(pane.on_reply(id, Err(err), &mut outbox).is_none());
        assert!(
            pane.list
                .loader
                .error
                .as_deref()
                .unwrap()
                .contains("refused")
        );
        assert!(
            outbox
                .events
                .iter()
                .any(|e| matches!(e, AppEvent::Error { title, .. } if title.contains("report")))
        );
        // `r` tries again from the start.
        outbox.effects.clear();
        pane.on_action(Action::Refresh, 20, &mut outbox);
        assert_eq!(last_request(&outbox).cursor, None);
        assert!(pane.list.loader.error.is_none());
    }

    #[test]
    fn paging_appends_and_stops_at_the_last_page() {
        let mut outbox = Outbox::default();
        let mut pane = loaded(&mut outbox);
        assert_eq!(pane.list.items.len(), 100);
        outbox.effects.clear();

        // Far from the end: no prefetch.
        pane.after_update(20, &mut outbox);
        assert!(sent(&outbox).is_empty());

        // Near the end: the next page, with the cursor.
        pane.on_action(Action::Bottom, 20, &mut outbox);
        pane.after_update(20, &mut outbox);
        let reqs = sent(&outbox);
        assert_eq!(reqs.len(), 1);
        assert_eq!(reqs[0].1.cursor.as_deref(), Some("c1"));
        // Not again while it is in flight.
        pane.after_update(20, &mut outbox);
        assert_eq!(sent(&outbox).len(), 1);

        reply(&mut pane, reqs[0].0, page(100..130, None), &mut outbox);
        assert_eq!(pane.list.items.len(), 130);
        assert!(pane.list.complete);
        assert_eq!(pane.stats.count, 130);
        pane.on_action(Action::Bottom, 20, &mut outbox);
        pane.after_update(20, &mut outbox);
        assert_eq!(sent(&outbox).len(), 1, "the last page has arrived");
    }

    #[test]
    fn selection_stays_in_bounds_and_enter_opens_the_detail() {
        let mut outbox = Outbox::default();
        let mut pane = loaded(&mut outbox);
        pane.on_action(Action::Up, 20, &mut outbox);
        assert_eq!(pane.list.selected, 0);
        pane.on_action(Action::PageDown, 20, &mut outbox);
        assert_eq!(pane.list.selected, list_rows(20));
        pane.on_action(Action::HalfPageUp, 20, &mut outbox);
        assert_eq!(pane.list.selected, list_rows(20) - list_rows(20) / 2);
        pane.on_action(Action::Bottom, 20, &mut outbox);
        pane.on_action(Action::Down, 20, &mut outbox);
        assert_eq!(pane.list.selected, 99);
        pane.on_action(Action::Top, 20, &mut outbox);
        pane.on_action(Action::Down, 20, &mut outbox);
        pane.on_action(Action::Open, 20, &mut outbox);
        let opened = outbox.events.iter().find_map(|e| match e {
            AppEvent::OpenDetail(i) => Some(i.id().to_owned()),
            _ => None,
        });
        assert_eq!(opened.as_deref(), Some("f1"));
        pane.on_action(Action::OpenInBrowser, 20, &mut outbox);
        assert!(
            outbox
                .effects
                .contains(&Effect::OpenUrl("https://example.test/f1".into()))
        );
        pane.on_action(Action::Copy, 20, &mut outbox);
        assert!(
            outbox
                .effects
                .contains(&Effect::Copy("https://example.test/f1".into()))
        );
    }

    #[test]
    fn a_click_selects_the_row_under_it() {
        let mut outbox = Outbox::default();
        let mut pane = loaded(&mut outbox);
        let body = Rect::new(0, 1, 120, 33);
        let rows = layout::table_rows(layout::report(body).list);
        pane.click(body, 10, rows.y + 3);
        assert_eq!(pane.list.selected, 3);
        pane.click(body, 10, body.y);
        assert_eq!(
            pane.list.selected, 3,
            "a click above the rows selects nothing"
        );
    }

    #[test]
    fn charts_count_the_loaded_findings() {
        let mut outbox = Outbox::default();
        let pane = loaded(&mut outbox);
        let s = &pane.stats;
        assert_eq!(s.count, 100);
        assert_eq!(s.by_severity[0], 34, "critical: n % 3 == 0");
        assert_eq!(s.by_severity[1], 33);
        assert_eq!(s.by_severity[3], 33);
        assert_eq!(s.by_type, [34, 33, 33, 0]);
        assert_eq!(s.top_rules.len(), TOP);
        assert_eq!(s.top_rules[0], ("rule-0".to_owned(), 15));
        assert_eq!(s.top_projects.len(), 4);
        assert_eq!(s.top_projects[0].1, 25);
    }

    fn screen(w: u16, h: u16, pane: ReportPane) -> String {
        let mut app = App::new(
            Session::default(),
            Keymap::default_keymap(),
            Theme::default(),
            (w, h),
        );
        app.pane = PaneId::Report;
        app.report = pane;
        let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
        terminal.draw(|f| crate::tui::view::draw(f, &app)).unwrap();
        let buf = terminal.backend().buffer();
        let mut out = String::new();
        for y in 0..h {
            for x in 0..w {
                out.push_str(buf[(x, y)].symbol());
            }
            out.push('\n');
        }
        out
    }

    #[test]
    fn the_totals_and_selectors_are_drawn() {
        for (w, h) in [(120, 35), (80, 24)] {
            let mut outbox = Outbox::default();
            let mut pane = loaded(&mut outbox);
            pane.on_action(Action::ToggleCritical, 20, &mut outbox);
            let id = last_id(&outbox);
            reply(&mut pane, id, page(0..40, Some("c2")), &mut outbox);
            let s = screen(w, h, pane);
            for text in [
                "All",
                "Code",
                "Supply chain",
                "Secrets",
                "2,345",
                "1,200",
                "845",
                "300",
                "total-open",
                "all time",
                "critical",
            ] {
                assert!(s.contains(text), "{w}x{h}: {text:?} missing in\n{s}");
            }
            assert!(s.contains("rule-"), "{w}x{h}: the list or the charts\n{s}");
            assert!(s.contains("40 loaded"), "{w}x{h}: the status line\n{s}");
        }
    }

    #[test]
    fn the_previous_totals_and_an_error_are_drawn() {
        let mut outbox = Outbox::default();
        let mut pane = loaded(&mut outbox);
        pane.on_action(Action::CyclePeriod, 20, &mut outbox);
        let id = last_id(&outbox);
        let s = screen(120, 35, {
            let mut p = std::mem::take(&mut pane);
            p.on_reply(id, Err(ApiError::Connection("boom".into())), &mut outbox);
            p
        });
        assert!(s.contains("2,345"), "the previous totals stay\n{s}");
        assert!(s.contains("boom"), "the error is shown in the pane\n{s}");
        assert!(s.contains("7 days"));
    }

    #[test]
    fn esc_cancels_the_request_in_flight() {
        let mut outbox = Outbox::default();
        let mut pane = ReportPane::default();
        pane.activate(&mut outbox);
        let id = last_id(&outbox);
        pane.on_action(Action::Back, 20, &mut outbox);
        assert_eq!(cancelled(&outbox), vec![id]);
        assert!(!pane.is_loading());
        assert!(reply(&mut pane, id, page(0..3, None), &mut outbox).is_some());
        assert!(pane.totals.is_none());
    }

    #[test]
    fn server_text_is_drawn_safely() {
        let mut outbox = Outbox::default();
        let mut pane = ReportPane::default();
        pane.activate(&mut outbox);
        let id = last_id(&outbox);
        let mut p = page(0..1, None);
        p.findings[0].rule_id = Some("evil\u{1b}[2Jrule".into());
        p.findings[0].repository = Some(Repository {
            name: Some("repo\u{7}x".into()),
            ..Default::default()
        });
        reply(&mut pane, id, p, &mut outbox);
        let s = screen(120, 35, pane);
        assert!(!s.contains('\u{1b}') && !s.contains('\u{7}'));
        assert!(s.contains("evil␛[2Jrule"), "{s}");
        assert!(s.contains("repo␇x"), "{s}");
    }

    #[test]
    fn tiny_and_huge_screens_do_not_panic() {
        for (w, h) in [(20, 6), (21, 7), (30, 10), (40, 15), (79, 19), (250, 70)] {
            let mut outbox = Outbox::default();
            let pane = loaded(&mut outbox);
            let _ = screen(w, h, pane);
            let _ = screen(w, h, ReportPane::default());
        }
    }
}
