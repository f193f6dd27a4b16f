//! The Agentic pane: Search issues (agentic workflows) with four text
//! queries (title, description, reasoning, file path) typed into inputs,
//! a sort, results loaded lazily by cursor, and a detail of one issue.

use crate::api::ApiError;
use crate::api::model::*;
use crate::tui::app::{Effect, Outbox};
use crate::tui::keymap::{Action, Context};
use crate::tui::layout;
use crate::tui::load::PagedList;
use crate::tui::worker::{ApiRequest, ApiResponse, RequestId};
use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use tui_input::Input;
use tui_input::backend::crossterm::EventHandler;

pub const PAGE_SIZE: i64 = 100;

/// The four text queries, in the order they are shown and tabbed through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueryField {
    Title,
    Description,
    Reasoning,
    FilePath,
}

impl QueryField {
    pub const ALL: [QueryField; 4] = [
        QueryField::Title,
        QueryField::Description,
        QueryField::Reasoning,
        QueryField::FilePath,
    ];

    pub fn label(self) -> &'static str {
        match self {
            QueryField::Title => "Title",
            QueryField::Description => "Description",
            QueryField::Reasoning => "Reasoning",
            QueryField::FilePath => "File path",
        }
    }

    /// A one-letter label for narrow terminals.
    pub fn short(self) -> &'static str {
        match self {
            QueryField::Title => "T",
            QueryField::Description => "D",
            QueryField::Reasoning => "R",
            QueryField::FilePath => "F",
        }
    }

    /// The name used in the status line.
    pub fn key(self) -> &'static str {
        match self {
            QueryField::Title => "title",
            QueryField::Description => "description",
            QueryField::Reasoning => "reasoning",
            QueryField::FilePath => "file",
        }
    }
}

/// The detail of one agentic issue, shown inside this pane.
#[derive(Debug, Clone)]
pub struct AgenticDetail {
    /// A copy: a reload of the list does not take it away.
    pub issue: AgenticIssue,
    /// First line shown (the view clamps it to the end of the content).
    pub scroll: u16,
}

#[derive(Debug, Default)]
pub struct AgenticPane {
    pub list: PagedList<AgenticIssue>,
    /// `total` of the last page of the current search.
    pub total: Option<i64>,
    /// The four inputs, in [`QueryField::ALL`] order.
    pub inputs: [Input; 4],
    /// The queries of the search in force (trimmed; "" = none).
    pub applied: [String; 4],
    /// The input being typed in, while editing.
    pub editing: Option<usize>,
    pub sort_field: Option<IssueSortField>,
    pub sort_direction: Option<SortDirection>,
    pub detail: Option<AgenticDetail>,
    activated: bool,
}

/// Where the parts of the pane go in the body; shared by the view (to
/// draw) and the pane (to map clicks and to page).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AgenticAreas {
    pub queries: Rect,
    /// The results table; empty when the detail covers it.
    pub results: Rect,
    pub detail: Option<Rect>,
}

/// The queries on top and the results under them; an open detail goes
/// beside them on wide terminals and over the results on narrow ones.
pub fn areas(body: Rect, detail_open: bool) -> AgenticAreas {
    if detail_open && body.width >= layout::SIDE_BY_SIDE_MIN_WIDTH {
        let (left, detail) = layout::list_and_detail(body, true);
        let (queries, results) = layout::agentic(left);
        return AgenticAreas {
            queries,
            results,
            detail,
        };
    }
    let (queries, results) = layout::agentic(body);
    if detail_open {
        AgenticAreas {
            queries,
            results: Rect::default(),
            detail: Some(results),
        }
    } else {
        AgenticAreas {
            queries,
            results,
            detail: None,
        }
    }
}

/// Rows of the results table, from the height the app pages with (the rows
/// of a bordered table filling the body: `body.height - 3`).
fn result_rows(height: usize) -> usize {
    let body_height = (height as u16).saturating_add(3);
    let (_, results) = layout::agentic(Rect::new(0, 0, 80, body_height));
    (layout::table_rows(results).height as usize).max(1)
}

impl AgenticPane {
    pub fn contexts(&self) -> Vec<Context> {
        if self.detail.is_some() {
            vec![Context::Detail]
        } else {
            vec![Context::Agentic, Context::List]
        }
    }

    pub fn text_input_active(&self) -> bool {
        self.editing.is_some()
    }

    pub fn is_loading(&self) -> bool {
        self.list.loader.is_loading()
    }

    /// The first time the pane is shown, the first (empty) search runs.
    pub fn activate(&mut self, outbox: &mut Outbox) {
        if !self.activated {
            self.activated = true;
            self.reload(outbox);
        }
    }

    /// The query of `field` in force, if any.
    pub fn query(&self, field: QueryField) -> Option<&str> {
        let i = QueryField::ALL.iter().position(|f| *f == field)?;
        Some(self.applied[i].as_str()).filter(|q| !q.is_empty())
    }

    /// Whether input `i` holds text that is not the query in force.
    pub fn is_modified(&self, i: usize) -> bool {
        self.inputs
            .get(i)
            .is_some_and(|input| input.value().trim() != self.applied[i])
    }

    /// The queries in force as `field~"text"` strings (not yet made safe).
    pub fn query_summary(&self) -> Vec<String> {
        QueryField::ALL
            .iter()
            .filter_map(|f| self.query(*f).map(|q| format!("{}~{q:?}", f.key())))
            .collect()
    }

    /// The sort in force, as shown (`None` is the server default: last
    /// detected, descending).
    pub fn sort_label(&self) -> String {
        let field = self
            .sort_field
            .as_ref()
            .map_or("last-detected", IssueSortField::label);
        let dir = match self.sort_direction {
            Some(SortDirection::Asc) => "↑",
            _ => "↓",
        };
        format!("{field} {dir}")
    }

    fn filters(&self) -> Option<SearchFilters> {
        let q = |field| self.query(field).map(str::to_owned);
        let filters = SearchFilters {
            title_query: q(QueryField::Title),
            description_query: q(QueryField::Description),
            reasoning_query: q(QueryField::Reasoning),
            file_path_query: q(QueryField::FilePath),
            ..Default::default()
        };
        (filters != SearchFilters::default()).then_some(filters)
    }

    pub fn request(&self, cursor: Option<String>) -> SearchIssuesRequest {
        SearchIssuesRequest {
            filters: self.filters(),
            limit: Some(PAGE_SIZE),
            cursor,
            sort_field: self.sort_field.clone(),
            sort_direction: self.sort_direction.clone(),
            ..Default::default()
        }
    }

    /// Runs the queries typed in the inputs (a new search).
    pub fn search(&mut self, outbox: &mut Outbox) {
        for (applied, input) in self.applied.iter_mut().zip(&self.inputs) {
            *applied = input.value().trim().to_owned();
        }
        self.reload(outbox);
    }

    /// Starts again from the first page (new queries, new sort, `r`): what
    /// is in flight is cancelled and its late reply dropped.
    pub fn reload(&mut self, outbox: &mut Outbox) {
        self.activated = true;
        let cancel = self.list.reset();
        outbox.cancel(cancel);
        self.total = None;
        self.load_next(outbox);
    }

    fn load_next(&mut self, outbox: &mut Outbox) {
        let req = self.request(self.list.next_cursor.clone());
        if let Some(id) = outbox.send(ApiRequest::Search(req)) {
            let superseded = self.list.loader.started(id);
            outbox.cancel(superseded);
        }
    }

    /// Prefetch: within one screen of the end of what is loaded, the next
    /// page is requested.
    pub fn after_update(&mut self, height: usize, outbox: &mut Outbox) {
        let rows = result_rows(height);
        if self.list.follow(rows) && self.activated {
            self.load_next(outbox);
        }
    }

    /// Takes the reply if it is this pane's; gives it back otherwise.
    pub fn on_reply(
        &mut self,
        id: RequestId,
        result: Result<ApiResponse, ApiError>,
        outbox: &mut Outbox,
    ) -> Option<Result<ApiResponse, ApiError>> {
        if !self.list.loader.accept(id) {
            return Some(result);
        }
        match result {
            Ok(ApiResponse::Search(page)) => {
                if page.total.is_some() {
                    self.total = page.total;
                }
                self.list
                    .add_page(page.issues, page.cursor, "Loading agentic issues", outbox);
                self.list.select(self.list.selected);
            }
            Ok(_) => {
                self.list.loader.error = Some("unexpected answer".into());
            }
            Err(e) => self.list.failed("Searching agentic issues", &e, outbox),
        }
        None
    }

    pub fn on_action(&mut self, action: Action, height: usize, outbox: &mut Outbox) {
        let rows = result_rows(height);
        if let Some(detail) = &mut self.detail {
            let page = rows as u16;
            match action {
                Action::Down => detail.scroll = detail.scroll.saturating_add(1),
                Action::Up => detail.scroll = detail.scroll.saturating_sub(1),
                Action::PageDown => detail.scroll = detail.scroll.saturating_add(page),
                Action::PageUp => detail.scroll = detail.scroll.saturating_sub(page),
                Action::HalfPageDown => {
                    detail.scroll = detail.scroll.saturating_add((page / 2).max(1))
                }
                Action::HalfPageUp => {
                    detail.scroll = detail.scroll.saturating_sub((page / 2).max(1))
                }
                Action::Top => detail.scroll = 0,
                // The view clamps to the end of the content.
                Action::Bottom => detail.scroll = u16::MAX,
                Action::Back => self.detail = None,
                Action::Copy => copy_id(outbox, Some(&detail.issue)),
                Action::OpenInBrowser => {
                    outbox.status("agentic issues have no URL to open; y copies the id")
                }
                _ => {}
            }
            return;
        }
        if self.list.navigate(action, rows) {
            return;
        }
        match action {
            Action::Open => self.open_selected(),
            Action::Refresh => {
                if self.list.retry_failed_page() {
                    self.load_next(outbox);
                } else {
                    self.reload(outbox);
                }
            }
            Action::Back => {
                self.list.stop(outbox);
            }
            Action::EditQuery => self.editing = Some(0),
            Action::CycleSort => {
                let all = IssueSortField::ALL;
                let current = self
                    .sort_field
                    .clone()
                    .unwrap_or(IssueSortField::LastDetectedAt);
                let next = all
                    .iter()
                    .position(|s| *s == current)
                    .map_or(0, |i| (i + 1) % all.len());
                self.sort_field = Some(all[next].clone());
                self.reload(outbox);
            }
            Action::ToggleSortDirection => {
                self.sort_direction = Some(match self.sort_direction {
                    Some(SortDirection::Asc) => SortDirection::Desc,
                    _ => SortDirection::Asc,
                });
                self.reload(outbox);
            }
            Action::Copy => copy_id(outbox, self.list.selected_item()),
            Action::OpenInBrowser => {
                outbox.status("agentic issues have no URL to open; y copies the id")
            }
            _ => {}
        }
    }

    fn open_selected(&mut self) {
        if let Some(issue) = self.list.selected_item() {
            self.detail = Some(AgenticDetail {
                issue: issue.clone(),
                scroll: 0,
            });
        }
    }

    /// Every key while a query is being typed.
    pub fn on_text_key(&mut self, key: KeyEvent, outbox: &mut Outbox) {
        let Some(focus) = self.editing else {
            return;
        };
        let n = self.inputs.len();
        let shift = key.modifiers.contains(KeyModifiers::SHIFT);
        match key.code {
            KeyCode::Enter => {
                self.editing = None;
                self.search(outbox);
            }
            KeyCode::Esc => self.editing = None,
            KeyCode::Tab if shift => self.editing = Some((focus + n - 1) % n),
            KeyCode::BackTab | KeyCode::Up => self.editing = Some((focus + n - 1) % n),
            KeyCode::Tab | KeyCode::Down => self.editing = Some((focus + 1) % n),
            _ => {
                if let Some(input) = self.inputs.get_mut(focus) {
                    input.handle_event(&Event::Key(key));
                }
            }
        }
    }

    /// A click on a row selects it (and shows it, when the detail is open
    /// beside the list); a click on a query starts editing it.
    pub fn click(&mut self, body: Rect, x: u16, y: u16) {
        let a = areas(body, self.detail.is_some());
        let inside = |r: Rect| x >= r.x && x < r.right() && y >= r.y && y < r.bottom();
        if self.detail.is_none() && inside(a.queries) {
            let i = (y - a.queries.y) as usize;
            if i < self.inputs.len() {
                self.editing = Some(i);
            }
            return;
        }
        let rows = layout::table_rows(a.results);
        if !inside(rows) {
            return;
        }
        let row = self.list.offset + (y - rows.y) as usize;
        if row >= self.list.len() {
            return;
        }
        self.list.select(row);
        if self.detail.is_some() {
            self.open_selected();
        }
    }

    /// `:sort FIELD [asc|desc]`
    pub fn set_sort(&mut self, args: &[&str], outbox: &mut Outbox) -> Result<(), String> {
        let names = || {
            IssueSortField::ALL
                .iter()
                .map(IssueSortField::label)
                .collect::<Vec<_>>()
                .join(", ")
        };
        let Some(field) = args.first() else {
            return Err(format!(
                "usage: :sort FIELD [asc|desc]; fields: {}",
                names()
            ));
        };
        let by = IssueSortField::parse_known(field)
            .ok_or_else(|| format!("unknown sort field {field:?}; valid: {}", names()))?;
        let dir = match args.get(1).copied() {
            None => None,
            Some(d) => Some(
                SortDirection::parse_known(d)
                    .ok_or_else(|| format!("direction {d:?} must be asc or desc"))?,
            ),
        };
        self.sort_field = Some(by);
        if dir.is_some() {
            self.sort_direction = dir;
        }
        self.reload(outbox);
        Ok(())
    }
}

/// Copies the issue's id (agentic issues have no URL).
fn copy_id(outbox: &mut Outbox, issue: Option<&AgenticIssue>) {
    let Some(id) = issue
        .and_then(|i| i.id.as_deref())
        .filter(|id| !id.is_empty())
    else {
        outbox.status("this issue has no id");
        return;
    };
    outbox.status(format!("copied {}", crate::text::one_line(id)));
    outbox.effects.push(Effect::Copy(id.to_owned()));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::app::{App, AppEvent, Msg, PaneId, Session};
    use crate::tui::keymap::Keymap;
    use crate::tui::theme::Theme;
    use crate::tui::worker::Reply;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    fn typed(pane: &mut AgenticPane, text: &str, outbox: &mut Outbox) {
        for c in text.chars() {
            pane.on_text_key(key(KeyCode::Char(c)), outbox);
        }
    }

    /// The Search requests queued, with their ids.
    fn searches(outbox: &Outbox) -> Vec<(RequestId, SearchIssuesRequest)> {
        outbox
            .requests()
            .into_iter()
            .filter_map(|(id, r)| match r {
                ApiRequest::Search(r) => Some((id, r.clone())),
                _ => None,
            })
            .collect()
    }

    fn cancels(outbox: &Outbox) -> Vec<RequestId> {
        outbox.cancelled()
    }

    fn issue(n: usize) -> AgenticIssue {
        AgenticIssue {
            id: Some(format!("ag-{n}")),
            title: Some(format!("Issue number {n}")),
            description: Some(format!("Description of issue {n}")),
            reasoning: Some(format!("Reasoning of issue {n}")),
            severity: Some(Severity::High),
            detection_state: Some(DetectionState::Detected),
            triage_state: Some(AgenticTriageState::Open),
            ..Default::default()
        }
    }

    fn page(range: std::ops::Range<usize>, total: i64, cursor: Option<&str>) -> ApiResponse {
        ApiResponse::Search(SearchIssuesResponse {
            issues: range.map(issue).collect(),
            total: Some(total),
            cursor: cursor.map(str::to_owned),
        })
    }

    fn last_id(outbox: &Outbox) -> RequestId {
        searches(outbox).last().expect("a search was sent").0
    }

    #[test]
    fn activate_runs_one_empty_search() {
        let mut pane = AgenticPane::default();
        let mut outbox = Outbox::default();
        pane.activate(&mut outbox);
        pane.activate(&mut outbox);
        let sent = searches(&outbox);
        assert_eq!(sent.len(), 1, "only the first activation searches");
        let req = &sent[0].1;
        assert_eq!(req.filters, None, "no empty query is sent");
        assert_eq!(req.limit, Some(PAGE_SIZE));
        assert_eq!(req.cursor, None);
        assert_eq!(req.sort_field, None);
        assert!(pane.is_loading());
    }

    #[test]
    fn typed_queries_are_sent_and_empty_ones_omitted() {
        let mut pane = AgenticPane::default();
        let mut outbox = Outbox::default();
        pane.activate(&mut outbox);
        let first = last_id(&outbox);
        pane.on_action(Action::EditQuery, 20, &mut outbox);
        assert!(pane.text_input_active());
        assert_eq!(pane.editing, Some(0), "the first input is focused");
        typed(&mut pane, "token leak", &mut outbox);
        // Skip description; type into reasoning, and spaces only into file path.
        pane.on_text_key(key(KeyCode::Tab), &mut outbox);
        pane.on_text_key(key(KeyCode::Down), &mut outbox);
        typed(&mut pane, "untrusted", &mut outbox);
        pane.on_text_key(key(KeyCode::Tab), &mut outbox);
        typed(&mut pane, "   ", &mut outbox);
        // Shift-Tab and Up move back; a key typed there edits that input.
        pane.on_text_key(key(KeyCode::BackTab), &mut outbox);
        assert_eq!(pane.editing, Some(2));
        pane.on_text_key(key(KeyCode::Up), &mut outbox);
        assert_eq!(pane.editing, Some(1));
        typed(&mut pane, "x", &mut outbox);
        pane.on_text_key(key(KeyCode::Backspace), &mut outbox);
        assert_eq!(pane.inputs[1].value(), "");
        assert_eq!(searches(&outbox).len(), 1, "typing sends nothing");

        pane.on_text_key(key(KeyCode::Enter), &mut outbox);
        assert!(!pane.text_input_active(), "Enter leaves editing");
        let sent = searches(&outbox);
        assert_eq!(sent.len(), 2);
        assert!(
            cancels(&outbox).contains(&first),
            "the search in flight is cancelled"
        );
        let req = &sent[1].1;
        assert_eq!(
            req.filters,
            Some(SearchFilters {
                title_query: Some("token leak".into()),
                reasoning_query: Some("untrusted".into()),
                ..Default::default()
            })
        );
        assert_eq!(req.cursor, None, "a new search starts at the first page");
        // The JSON body has no empty query fields.
        let json = serde_json::to_string(req).unwrap();
        assert!(!json.contains("descriptionQuery") && !json.contains("filePathQuery"));
        assert!(json.contains(r#""titleQuery":"token leak""#));
    }

    #[test]
    fn esc_leaves_editing_without_searching_and_keeps_the_text() {
        let mut pane = AgenticPane::default();
        let mut outbox = Outbox::default();
        pane.activate(&mut outbox);
        pane.on_action(Action::EditQuery, 20, &mut outbox);
        typed(&mut pane, "abc", &mut outbox);
        pane.on_text_key(key(KeyCode::Esc), &mut outbox);
        assert!(!pane.text_input_active());
        assert_eq!(searches(&outbox).len(), 1);
        assert_eq!(pane.inputs[0].value(), "abc");
        assert!(pane.is_modified(0));
        assert_eq!(pane.query(QueryField::Title), None, "not applied");
        // `r` reloads the search in force, not the unsubmitted text.
        pane.on_action(Action::Refresh, 20, &mut outbox);
        assert_eq!(searches(&outbox).last().unwrap().1.filters, None);
    }

    #[test]
    fn sort_cycles_and_flips_and_reloads() {
        let mut pane = AgenticPane::default();
        let mut outbox = Outbox::default();
        pane.activate(&mut outbox);
        let mut fields = Vec::new();
        for _ in 0..4 {
            pane.on_action(Action::CycleSort, 20, &mut outbox);
            fields.push(searches(&outbox).last().unwrap().1.sort_field.clone());
        }
        assert_eq!(
            fields,
            vec![
                Some(IssueSortField::CreatedAt),
                Some(IssueSortField::FilePath),
                Some(IssueSortField::Severity),
                Some(IssueSortField::LastDetectedAt),
            ]
        );
        pane.on_action(Action::ToggleSortDirection, 20, &mut outbox);
        assert_eq!(
            searches(&outbox).last().unwrap().1.sort_direction,
            Some(SortDirection::Asc)
        );
        pane.on_action(Action::ToggleSortDirection, 20, &mut outbox);
        assert_eq!(
            searches(&outbox).last().unwrap().1.sort_direction,
            Some(SortDirection::Desc)
        );
        assert_eq!(searches(&outbox).len(), 7, "each change reloads");
        assert_eq!(pane.sort_label(), "last-detected ↓");
    }

    #[test]
    fn sort_command() {
        let mut pane = AgenticPane::default();
        let mut outbox = Outbox::default();
        pane.set_sort(&["severity", "asc"], &mut outbox).unwrap();
        let req = searches(&outbox).last().unwrap().1.clone();
        assert_eq!(req.sort_field, Some(IssueSortField::Severity));
        assert_eq!(req.sort_direction, Some(SortDirection::Asc));
        pane.set_sort(&["ISSUE_SORT_FIELD_FILE_PATH"], &mut outbox)
            .unwrap();
        let req = searches(&outbox).last().unwrap().1.clone();
        assert_eq!(req.sort_field, Some(IssueSortField::FilePath));
        assert_eq!(req.sort_direction, Some(SortDirection::Asc), "kept");

        let before = searches(&outbox).len();
        let err = pane.set_sort(&["rule"], &mut outbox).unwrap_err();
        assert!(
            err.contains("severity, last-detected, created, file-path"),
            "{err}"
        );
        let err = pane.set_sort(&["created", "up"], &mut outbox).unwrap_err();
        assert!(err.contains("asc or desc"), "{err}");
        assert!(pane.set_sort(&[], &mut outbox).is_err());
        assert_eq!(searches(&outbox).len(), before, "errors send nothing");
        assert_eq!(pane.sort_field, Some(IssueSortField::FilePath));
    }

    #[test]
    fn a_reply_of_a_superseded_search_is_dropped() {
        let mut pane = AgenticPane::default();
        let mut outbox = Outbox::default();
        pane.activate(&mut outbox);
        let old = last_id(&outbox);
        pane.on_action(Action::EditQuery, 20, &mut outbox);
        typed(&mut pane, "new", &mut outbox);
        pane.on_text_key(key(KeyCode::Enter), &mut outbox);
        let new = last_id(&outbox);
        assert_ne!(old, new);

        let back = pane.on_reply(old, Ok(page(0..5, 200, Some("c1"))), &mut outbox);
        assert!(back.is_some(), "a stale reply is passed on (and dropped)");
        assert!(pane.list.is_empty());
        assert_eq!(pane.total, None);

        assert!(
            pane.on_reply(new, Ok(page(0..3, 3, None)), &mut outbox)
                .is_none()
        );
        assert_eq!(pane.list.len(), 3);
        assert_eq!(pane.total, Some(3));
        assert!(pane.list.complete);
        assert!(!pane.is_loading());
        // A duplicate reply is not taken either.
        assert!(
            pane.on_reply(new, Ok(page(3..6, 3, None)), &mut outbox)
                .is_some()
        );
    }

    #[test]
    fn paging_prefetches_and_keeps_the_selection_in_bounds() {
        let mut pane = AgenticPane::default();
        let mut outbox = Outbox::default();
        pane.activate(&mut outbox);
        let id = last_id(&outbox);
        pane.on_reply(id, Ok(page(0..100, 250, Some("c1"))), &mut outbox);
        // 20 app rows (body 23) = 16 result rows under the queries.
        pane.after_update(20, &mut outbox);
        assert_eq!(searches(&outbox).len(), 1, "no prefetch yet");
        pane.on_action(Action::Bottom, 20, &mut outbox);
        assert_eq!(pane.list.selected, 99);
        pane.after_update(20, &mut outbox);
        let sent = searches(&outbox);
        assert_eq!(sent.len(), 2, "near the end the next page is fetched");
        assert_eq!(sent[1].1.cursor.as_deref(), Some("c1"));
        assert_eq!(pane.list.offset, 99 + 1 - 16, "the selection is on screen");
        // While it loads, no second request goes out.
        pane.after_update(20, &mut outbox);
        assert_eq!(searches(&outbox).len(), 2);
        pane.on_reply(sent[1].0, Ok(page(100..200, 250, None)), &mut outbox);
        assert_eq!(pane.list.len(), 200);
        assert!(pane.list.complete);
        pane.on_action(Action::PageDown, 20, &mut outbox);
        assert_eq!(pane.list.selected, 99 + 16);
        pane.on_action(Action::HalfPageUp, 20, &mut outbox);
        assert_eq!(pane.list.selected, 99 + 16 - 8);
        pane.on_action(Action::Bottom, 20, &mut outbox);
        pane.on_action(Action::Down, 20, &mut outbox);
        assert_eq!(pane.list.selected, 199, "bounded at the end");
        pane.after_update(20, &mut outbox);
        assert_eq!(searches(&outbox).len(), 2, "the last page has come");
        pane.on_action(Action::Top, 20, &mut outbox);
        pane.on_action(Action::Up, 20, &mut outbox);
        assert_eq!(pane.list.selected, 0);
    }

    #[test]
    fn a_failed_page_is_retried_from_where_it_stopped() {
        let mut pane = AgenticPane::default();
        let mut outbox = Outbox::default();
        pane.activate(&mut outbox);
        pane.on_reply(
            last_id(&outbox),
            Ok(page(0..100, 200, Some("c1"))),
            &mut outbox,
        );
        pane.on_action(Action::Bottom, 20, &mut outbox);
        pane.after_update(20, &mut outbox);
        let id = last_id(&outbox);
        pane.on_reply(
            id,
            Err(ApiError::Connection("connection reset".into())),
            &mut outbox,
        );
        assert!(pane.list.loader.error.is_some());
        assert!(matches!(outbox.events.last(), Some(AppEvent::Error { .. })));
        pane.after_update(20, &mut outbox);
        assert_eq!(searches(&outbox).len(), 2, "no retry loop");
        pane.on_action(Action::Refresh, 20, &mut outbox);
        assert_eq!(
            searches(&outbox).last().unwrap().1.cursor.as_deref(),
            Some("c1")
        );
        assert_eq!(pane.list.len(), 100, "what was loaded is kept");
    }

    #[test]
    fn the_detail_opens_scrolls_and_closes() {
        let mut pane = AgenticPane::default();
        let mut outbox = Outbox::default();
        pane.activate(&mut outbox);
        pane.on_reply(last_id(&outbox), Ok(page(0..10, 10, None)), &mut outbox);
        pane.on_action(Action::Down, 20, &mut outbox);
        pane.on_action(Action::Open, 20, &mut outbox);
        let detail = pane.detail.as_ref().expect("open");
        assert_eq!(detail.issue.id.as_deref(), Some("ag-1"));
        assert_eq!(pane.contexts(), vec![Context::Detail]);
        pane.on_action(Action::Down, 20, &mut outbox);
        pane.on_action(Action::Down, 20, &mut outbox);
        pane.on_action(Action::Up, 20, &mut outbox);
        assert_eq!(pane.detail.as_ref().unwrap().scroll, 1);
        assert_eq!(pane.list.selected, 1, "j/k scroll the detail, not the list");
        pane.on_action(Action::NextTab, 20, &mut outbox);
        pane.on_action(Action::Copy, 20, &mut outbox);
        assert!(outbox.effects.contains(&Effect::Copy("ag-1".into())));
        pane.on_action(Action::Back, 20, &mut outbox);
        assert!(pane.detail.is_none());
        assert_eq!(pane.contexts(), vec![Context::Agentic, Context::List]);
    }

    #[test]
    fn clicks_select_rows_and_focus_queries() {
        let mut pane = AgenticPane::default();
        let mut outbox = Outbox::default();
        pane.activate(&mut outbox);
        pane.on_reply(last_id(&outbox), Ok(page(0..10, 10, None)), &mut outbox);
        let body = Rect::new(0, 1, 120, 33);
        // queries y 1..5, table block from y 5, header 6, rows from 7.
        pane.click(body, 10, 9);
        assert_eq!(pane.list.selected, 2);
        pane.click(body, 10, 30);
        assert_eq!(pane.list.selected, 2, "below the last row: nothing");
        pane.click(body, 10, 3);
        assert_eq!(pane.editing, Some(2), "a query line starts editing it");
    }

    // ---- Rendering ----

    fn app(w: u16, h: u16) -> App {
        let mut app = App::new(
            Session::default(),
            Keymap::default_keymap(),
            Theme::default(),
            (w, h),
        );
        app.pane = PaneId::Agentic;
        app
    }

    fn render(app: &App) -> String {
        let (w, h) = app.size;
        let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
        terminal.draw(|f| crate::tui::view::draw(f, app)).unwrap();
        let buf = terminal.backend().buffer();
        let mut out = String::new();
        for y in 0..buf.area.height {
            for x in 0..buf.area.width {
                out.push_str(buf[(x, y)].symbol());
            }
            out.push('\n');
        }
        out
    }

    /// Where the last frame put the cursor.
    fn cursor(app: &App) -> (u16, u16) {
        let (w, h) = app.size;
        let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
        terminal.draw(|f| crate::tui::view::draw(f, app)).unwrap();
        let p = terminal.get_cursor_position().unwrap();
        (p.x, p.y)
    }

    /// An app on the Agentic pane with a first page loaded through `update`.
    fn loaded_app(w: u16, h: u16, issues: Vec<AgenticIssue>, total: i64) -> App {
        let mut app = app(w, h);
        app.pane = PaneId::Issues;
        app.update(Msg::Key(key(KeyCode::Char('3'))));
        assert_eq!(app.pane, PaneId::Agentic);
        let effects = app.update(Msg::Key(key(KeyCode::Char('3'))));
        assert!(effects.is_empty(), "shown again: no second first search");
        let id = app.agentic.list.loader.pending().expect("searching");
        app.update(Msg::Reply(Reply {
            id,
            result: Ok(ApiResponse::Search(SearchIssuesResponse {
                issues,
                total: Some(total),
                cursor: Some("next".into()),
            })),
        }));
        app
    }

    #[test]
    fn renders_queries_results_and_total() {
        for (w, h) in [(120, 35), (80, 24)] {
            let mut app = loaded_app(w, h, (0..37).map(issue).collect(), 200);
            app.update(Msg::Key(key(KeyCode::Char('/'))));
            assert!(app.agentic.text_input_active());
            for c in "token".chars() {
                app.update(Msg::Key(key(KeyCode::Char(c))));
            }
            let effects = app.update(Msg::Key(key(KeyCode::Tab)));
            assert!(effects.is_empty());
            assert_eq!(app.pane, PaneId::Agentic, "Tab moves between inputs");
            let screen = render(&app);
            assert!(screen.contains("Title"), "{screen}");
            assert!(screen.contains("token"), "{screen}");
            assert!(
                screen.contains("File path") || screen.contains("F "),
                "{screen}"
            );
            assert!(screen.contains("Agentic issues 37 of 200"), "{screen}");
            assert!(screen.contains("Issue number 0"), "{screen}");
            assert!(screen.contains("high"), "{screen}");
            assert!(screen.contains("detected"), "{screen}");
            assert!(screen.contains("open"), "{screen}");
            assert!(screen.contains("editing description"), "{screen}");
            // The cursor is in the focused (second) input, after its label.
            assert_eq!(cursor(&app), (15, 2));
            // Esc stops editing; the status shows loaded/total, sort and
            // that the typed query is not searched yet.
            app.update(Msg::Key(key(KeyCode::Esc)));
            let screen = render(&app);
            assert!(screen.contains("37 of 200 loaded"), "{screen}");
            assert!(screen.contains("* Title"), "{screen}");
            app.update(Msg::Key(key(KeyCode::Char('i'))));
            app.update(Msg::Key(key(KeyCode::Enter)));
            let screen = render(&app);
            // (cut with `…` where the status line is narrow)
            assert!(screen.contains(r#"queries: title~"tok"#), "{screen}");
        }
    }

    #[test]
    fn renders_the_detail_with_the_description_wrapped() {
        let long = "The workflow passes the pull request title straight into a shell \
                    step, so anyone who opens a pull request can run commands with the \
                    repository token. END-OF-DESCRIPTION";
        let mut one = issue(0);
        one.description = Some(long.into());
        one.workflow_ids = vec!["wf-build".into()];
        one.cwes = vec!["CWE-78".into()];
        one.file_paths = vec![".ci/build.yml".into()];
        one.triage_reason = Some(AgenticTriageReason::NoTime);
        for (w, h) in [(80, 24), (120, 35), (200, 50)] {
            let mut app = loaded_app(w, h, vec![one.clone(), issue(1)], 2);
            app.update(Msg::Key(key(KeyCode::Enter)));
            assert!(app.agentic.detail.is_some());
            let screen = render(&app);
            assert!(screen.contains("END-OF-DESCRIPTION"), "{screen}");
            assert!(screen.contains("Description"), "{screen}");
            assert!(screen.contains("no time"), "{screen}");
            assert!(screen.contains("high · Issue number 0"), "{screen}");
            // The lists are further down: G scrolls to the end.
            app.update(Msg::Key(key(KeyCode::Char('G'))));
            let end = render(&app);
            for fact in [
                "Workflows (1)",
                "wf-build",
                "CWEs (1)",
                "CWE-78",
                ".ci/build.yml",
            ] {
                assert!(end.contains(fact), "{fact}: {end}");
            }
            assert!(end.contains("none: actions"), "{end}");
            app.update(Msg::Key(key(KeyCode::Char('g'))));
            // Wrapped: no line of the screen holds the whole description.
            assert!(!screen.lines().any(|l| l.contains(long)));
            if w >= 180 {
                assert!(screen.contains("Issue number 1"), "list beside: {screen}");
            }
            // j scrolls the detail; q closes it without quitting.
            app.update(Msg::Key(key(KeyCode::Char('j'))));
            assert_eq!(app.agentic.detail.as_ref().unwrap().scroll, 1);
            app.update(Msg::Key(key(KeyCode::Char('q'))));
            assert!(app.agentic.detail.is_none() && !app.quit);
            let screen = render(&app);
            assert!(!screen.contains("END-OF-DESCRIPTION"));
        }
    }

    #[test]
    fn tiny_and_empty_screens_do_not_panic() {
        for (w, h) in [(20, 6), (21, 7), (30, 8), (80, 24), (250, 70)] {
            let mut app = app(w, h);
            render(&app);
            app = loaded_app(w, h, (0..5).map(issue).collect(), 5);
            render(&app);
            app.update(Msg::Key(key(KeyCode::Char('i'))));
            for c in "a long query that will not fit the tiny input at all".chars() {
                app.update(Msg::Key(key(KeyCode::Char(c))));
            }
            render(&app);
            app.update(Msg::Key(key(KeyCode::Esc)));
            app.update(Msg::Key(key(KeyCode::Enter)));
            render(&app);
            app.update(Msg::Key(key(KeyCode::Char('G'))));
            render(&app);
        }
    }

    #[test]
    fn long_queries_scroll_horizontally() {
        let mut app = loaded_app(80, 24, vec![], 0);
        app.update(Msg::Key(key(KeyCode::Char('i'))));
        let text = format!("{}TAIL", "x".repeat(150));
        for c in text.chars() {
            app.update(Msg::Key(key(KeyCode::Char(c))));
        }
        let screen = render(&app);
        assert!(screen.contains("TAIL"), "the cursor end is shown: {screen}");
    }

    #[test]
    fn escape_sequences_from_the_server_are_drawn_safely() {
        let evil = "\u{1b}]52;c;ZXZpbA==\u{7}\u{1b}[2J";
        let mut bad = issue(0);
        bad.title = Some(format!("title{evil}"));
        bad.description = Some(format!("desc{evil}\nline two"));
        bad.reasoning = Some(format!("why{evil}"));
        bad.workflow_ids = vec![format!("wf{evil}")];
        bad.file_paths = vec![format!("path{evil}")];
        bad.triage_state = Some(AgenticTriageState::Other(format!("TRIAGE{evil}")));
        bad.detection_state = Some(DetectionState::Other(format!("DET{evil}")));
        bad.severity = Some(Severity::Other(format!("SEV{evil}")));
        let mut app = loaded_app(120, 35, vec![bad], 1);
        let screen = render(&app);
        assert!(!screen.contains('\u{1b}') && !screen.contains('\u{7}'));
        assert!(screen.contains("title"));
        app.update(Msg::Key(key(KeyCode::Enter)));
        let screen = render(&app);
        assert!(!screen.contains('\u{1b}') && !screen.contains('\u{7}'));
        assert!(screen.contains("line two"), "{screen}");
        // A query typed with control characters is drawn safely too.
        app.update(Msg::Key(key(KeyCode::Esc)));
        app.agentic.inputs[0] = Input::new(format!("q{evil}"));
        let screen = render(&app);
        assert!(!screen.contains('\u{1b}') && !screen.contains('\u{7}'));
    }
}
