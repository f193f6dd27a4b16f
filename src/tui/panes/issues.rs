//! The Issues pane: List issues, loaded lazily by cursor, with a local `/`
//! filter over what is loaded, a server-side filter form, and sorting.

use super::filter_form::{FilterForm, FormOutcome};
use crate::api::ApiError;
use crate::api::model::*;
use crate::filter_spec::{self, LIST_FILTER};
use crate::tui::app::{AppEvent, Outbox, SavedView, apply_view, copy_link, open_url};
use crate::tui::exporting::Marks;
use crate::tui::keymap::{Action, Context};
use crate::tui::load::PagedList;
use crate::tui::rows::{FindingRow, RowPage, SearchIndex, count_new, toggle_new_only};
use crate::tui::worker::ApiRequest;
use crate::tui::worker::{ApiResponse, RequestId};
use crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use tui_input::Input;
use tui_input::backend::crossterm::EventHandler;

/// Items per page unless a profile says otherwise.
pub const PAGE_SIZE: i64 = 100;

/// The order `s` walks the sort fields: from the default to what triage
/// wants most.
const SORT_CYCLE: [SortBy; 6] = [
    SortBy::RelevantSince,
    SortBy::Severity,
    SortBy::State,
    SortBy::Repo,
    SortBy::Rule,
    SortBy::Ref,
];

#[derive(Debug, Default)]
pub struct IssuesPane {
    pub list: PagedList<FindingRow<IssueItem>>,
    /// What `/` searches, row by row.
    search: SearchIndex,
    pub filter: ListIssuesFilter,
    pub sort_by: Option<SortBy>,
    pub sort_direction: Option<SortDirection>,
    /// The `/` input while it is being typed in.
    pub local_input: Option<Input>,
    /// The local filter in force ("" = none).
    pub local_query: String,
    pub form: Option<FilterForm>,
    /// Items per page (a profile's `page_size`; `PAGE_SIZE` by default).
    pub page_size: Option<i64>,
    /// Rows marked with `Space` (until the list is loaded anew).
    pub marked: Marks,
    /// The last visit under this profile: findings relevant since are new.
    pub new_since: Option<Timestamp>,
    /// How many loaded findings are new.
    pub new_count: usize,
    /// When the list on show was asked for.
    listed_at: Option<Timestamp>,
    /// Saved views, offered in the filter form.
    pub views: Vec<SavedView>,
    activated: bool,
}

impl IssuesPane {
    pub fn contexts(&self) -> Vec<Context> {
        if self.form.is_some() {
            vec![Context::Form]
        } else {
            vec![Context::Issues, Context::List]
        }
    }

    pub fn text_input_active(&self) -> bool {
        self.local_input.is_some() || self.form.as_ref().is_some_and(FilterForm::is_editing)
    }

    pub fn is_loading(&self) -> bool {
        self.list.loader.is_loading()
    }

    /// When the list on show was asked for (its first page): the visit to
    /// record, so what became relevant after it is new next time.
    pub fn seen_at(&self) -> Option<Timestamp> {
        self.listed_at
    }

    /// Whether only the findings new since the last visit are asked for.
    pub fn new_only(&self) -> bool {
        self.new_since.is_some() && self.filter.since == self.new_since
    }

    /// The first time the pane is shown, its first page is requested.
    pub fn activate(&mut self, outbox: &mut Outbox) {
        if !self.activated {
            self.activated = true;
            self.reload(outbox);
        }
    }

    /// The sort in force, as shown (`None` fields are the server default).
    pub fn sort_label(&self) -> String {
        let field = self
            .sort_by
            .as_ref()
            .map_or("relevant-since", SortBy::label);
        let dir = match self.sort_direction {
            Some(SortDirection::Asc) => "↑",
            _ => "↓",
        };
        format!("{field} {dir}")
    }

    /// Active server-side filters as `field=value` strings.
    pub fn filter_summary(&self) -> Vec<String> {
        let json = serde_json::to_value(&self.filter).unwrap_or_default();
        let Some(map) = json.as_object() else {
            return vec![];
        };
        map.iter()
            .map(|(k, v)| match v {
                serde_json::Value::Array(items) => format!(
                    "{k}={}",
                    items
                        .iter()
                        .filter_map(|i| i.as_str())
                        .collect::<Vec<_>>()
                        .join(",")
                ),
                serde_json::Value::String(s) => format!("{k}={s}"),
                other => format!("{k}={other}"),
            })
            .collect()
    }

    fn request(&self, cursor: Option<String>) -> ListIssuesRequest {
        ListIssuesRequest {
            limit: Some(self.page_size.unwrap_or(PAGE_SIZE)),
            cursor,
            filter: (!self.filter.is_empty()).then(|| self.filter.clone()),
            sort_by: self.sort_by.clone(),
            sort_direction: self.sort_direction.clone(),
            ..Default::default()
        }
    }

    /// Starts again from the first page (new filter, new sort, `r`).
    pub fn reload(&mut self, outbox: &mut Outbox) {
        self.listed_at = Some(chrono::Utc::now());
        let cancel = self.list.reset();
        outbox.cancel(cancel);
        self.marked.clear();
        self.search.clear();
        self.new_count = 0;
        self.apply_local_filter();
        self.load_next(outbox);
    }

    fn load_next(&mut self, outbox: &mut Outbox) {
        let req = self.request(self.list.next_cursor.clone());
        if let Some(id) = outbox.send(ApiRequest::ListRows(req)) {
            let superseded = self.list.loader.started(id);
            outbox.cancel(superseded);
        }
    }

    /// Prefetch: within one screen of the end of what is loaded, the next
    /// page is requested, so scrolling at a steady pace never waits.
    pub fn after_update(&mut self, height: usize, outbox: &mut Outbox) {
        if self.list.follow(height) && self.activated {
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
            // The worker packs the rows; a page as decoded is packed here.
            Ok(ApiResponse::Rows(page)) => self.take_page(page, outbox),
            Ok(ApiResponse::ListIssues(page)) => self.take_page(RowPage::from(page), outbox),
            Ok(_) => {}
            Err(e) => self.list.failed("Loading findings", &e, outbox),
        }
        None
    }

    fn take_page(&mut self, page: RowPage, outbox: &mut Outbox) {
        let start = self.list.items.len();
        self.search.extend(&page.search);
        self.new_count += count_new(&page.rows, self.new_since, |r| r.relevant_since);
        self.list
            .add_page(page.rows, page.cursor, "Loading findings", outbox);
        self.extend_local_filter(start);
    }

    pub fn on_action(&mut self, action: Action, height: usize, outbox: &mut Outbox) {
        if let Some(form) = &mut self.form {
            match action {
                Action::NextField => form.next(),
                Action::PrevField => form.prev(),
                Action::Toggle => form.toggle(),
                Action::ClearField => form.clear_field(),
                Action::Back => self.form = None,
                Action::Submit => match form.submit() {
                    FormOutcome::Applied(pairs) => {
                        match FilterForm::build::<ListIssuesFilter>(
                            LIST_FILTER,
                            "List issues",
                            &pairs,
                        ) {
                            Ok(filter) => {
                                self.filter = filter.unwrap_or_default();
                                self.form = None;
                                self.reload(outbox);
                            }
                            Err(e) => form.error = Some(e),
                        }
                    }
                    FormOutcome::Cancelled => self.form = None,
                    FormOutcome::View(k) => {
                        let Some(view) = self.views.get(k).cloned() else {
                            return;
                        };
                        match apply_view(&view, self) {
                            Ok(()) => {
                                self.form = None;
                                self.reload(outbox);
                                outbox
                                    .status(format!("view {}", crate::text::one_line(&view.name)));
                            }
                            Err(e) => {
                                if let Some(form) = &mut self.form {
                                    form.error = Some(e);
                                }
                            }
                        }
                    }
                    FormOutcome::Open => {}
                },
                _ => {}
            }
            return;
        }
        if self.list.navigate(action, height) {
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
                // Esc stops a load first; else it clears the local filter.
                let stopped = self.list.stop(outbox);
                if !stopped && !self.local_query.is_empty() {
                    self.local_query.clear();
                    self.apply_local_filter();
                }
            }
            Action::NewOnly => {
                let since = toggle_new_only(self.new_since, self.filter.since, outbox);
                if since != self.filter.since {
                    self.filter.since = since;
                    self.reload(outbox);
                }
            }
            Action::LocalFilter => self.local_input = Some(Input::new(self.local_query.clone())),
            Action::FilterForm => {
                let views = self
                    .views
                    .iter()
                    .map(|v| (v.name.clone(), v.summary()))
                    .collect();
                self.form = Some(FilterForm::new(LIST_FILTER, &self.filter).with_views(views));
            }
            Action::CycleSort => {
                let current = self.sort_by.clone().unwrap_or(SortBy::RelevantSince);
                let next = SORT_CYCLE
                    .iter()
                    .position(|s| *s == current)
                    .map_or(0, |i| (i + 1) % SORT_CYCLE.len());
                self.sort_by = Some(SORT_CYCLE[next].clone());
                self.reload(outbox);
            }
            Action::ToggleSortDirection => {
                self.sort_direction = Some(match self.sort_direction {
                    Some(SortDirection::Asc) => SortDirection::Desc,
                    _ => SortDirection::Asc,
                });
                self.reload(outbox);
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
            _ => {}
        }
    }

    /// The selected finding, unpacked.
    pub fn selected_issue(&self) -> Option<Issue> {
        self.list.selected_item()?.unpack()?.issue
    }

    pub fn on_text_key(&mut self, key: KeyEvent, _outbox: &mut Outbox) {
        if let Some(form) = &mut self.form {
            form.on_text_key(key);
            return;
        }
        let Some(input) = &mut self.local_input else {
            return;
        };
        match key.code {
            KeyCode::Enter => self.local_input = None,
            KeyCode::Esc => {
                self.local_input = None;
                self.local_query.clear();
                self.apply_local_filter();
            }
            _ => {
                input.handle_event(&crossterm::event::Event::Key(key));
                let query = input.value().to_owned();
                self.set_local_query(query);
            }
        }
    }

    /// Refilters what is loaded. When the new query only narrows the old
    /// one, only the rows still shown are searched.
    fn set_local_query(&mut self, query: String) {
        let narrows = !self.local_query.is_empty()
            && !self.local_query.starts_with('!')
            && !query.starts_with('!')
            && query.contains(self.local_query.as_str());
        self.local_query = query;
        if narrows && let Some(visible) = self.list.visible.take() {
            let needle = self.local_query.to_lowercase();
            let kept: Vec<u32> = visible
                .into_iter()
                .filter(|&i| self.search.matches(i as usize, &needle))
                .collect();
            self.list.visible = Some(kept);
            self.list.select(self.list.selected);
            return;
        }
        self.apply_local_filter();
    }

    fn apply_local_filter(&mut self) {
        self.list.visible = None;
        self.extend_local_filter(0);
        self.list.select(self.list.selected);
    }

    /// Adds rows from `start` on to the local view (after a page arrives).
    fn extend_local_filter(&mut self, start: usize) {
        let (invert, needle) = match self.local_query.strip_prefix('!') {
            Some(rest) => (true, rest.to_lowercase()),
            None => (false, self.local_query.to_lowercase()),
        };
        if needle.is_empty() {
            self.list.visible = None;
            return;
        }
        let hits = self.search.matching(start, &needle);
        let visible = self.list.visible.get_or_insert_with(Vec::new);
        if invert {
            let mut hits = hits.into_iter().peekable();
            for row in start..self.search.len() {
                if hits.next_if_eq(&row).is_none() {
                    visible.push(row as u32);
                }
            }
        } else {
            visible.extend(hits.into_iter().map(|row| row as u32));
        }
    }

    pub fn click(&mut self, body: Rect, _x: u16, y: u16) {
        let rows = crate::tui::layout::table_rows(
            crate::tui::layout::issues(body, self.local_input.is_some()).0,
        );
        if y >= rows.y && y < rows.y + rows.height {
            self.list.select(self.list.offset + (y - rows.y) as usize);
        }
    }

    /// `:sort FIELD [asc|desc]`
    pub fn set_sort(&mut self, args: &[&str], outbox: &mut Outbox) -> Result<(), String> {
        let Some(field) = args.first() else {
            return Err("usage: :sort FIELD [asc|desc]".into());
        };
        let by = SortBy::parse_known(field).ok_or_else(|| {
            let names: Vec<&str> = SortBy::ALL.iter().map(SortBy::label).collect();
            format!("unknown sort field {field:?}; valid: {}", names.join(", "))
        })?;
        let dir = match args.get(1).copied() {
            None => None,
            Some(d) => Some(
                SortDirection::parse_known(d)
                    .ok_or_else(|| format!("direction {d:?} must be asc or desc"))?,
            ),
        };
        self.sort_by = Some(by);
        if dir.is_some() {
            self.sort_direction = dir;
        }
        self.reload(outbox);
        Ok(())
    }

    /// `:filter FIELD=VALUE` adds to the server-side filter.
    pub fn add_filter(&mut self, arg: &str, outbox: &mut Outbox) -> Result<(), String> {
        let pair = filter_spec::split_pair(arg).map_err(|e| e.0)?;
        let mut pairs = FilterForm::new(LIST_FILTER, &self.filter).pairs()?;
        // A scalar given again replaces the old value.
        let scalar = LIST_FILTER
            .iter()
            .find(|f| f.name == pair.0)
            .is_some_and(|f| {
                !matches!(
                    f.kind,
                    filter_spec::FieldKind::Strings | filter_spec::FieldKind::Enums(_)
                )
            });
        if scalar {
            pairs.retain(|(k, _)| *k != pair.0);
        }
        pairs.push(pair);
        let filter: Option<ListIssuesFilter> =
            filter_spec::build(LIST_FILTER, "List issues", &pairs).map_err(|e| e.0)?;
        self.filter = filter.unwrap_or_default();
        self.reload(outbox);
        Ok(())
    }

    /// `:clear` drops every filter, local and server-side.
    pub fn clear_filters(&mut self, outbox: &mut Outbox) {
        self.filter = ListIssuesFilter::default();
        self.local_query.clear();
        self.local_input = None;
        self.reload(outbox);
    }
}
