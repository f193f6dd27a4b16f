//! The Agentic pane: Search issues (agentic workflows) with four text
//! queries (title, description, reasoning, file path) typed into inputs,
//! a sort, results loaded lazily by cursor, and a detail of one issue.

mod view;

use crate::keymap::{Action, Context};
use crate::layout;
use crate::list::choices;
use crate::list::load::PagedList;
use crate::message::{
    self, ApiRequest, ApiResponse, ApiResult, Changed, Effect, Outbox, PaneId, ReplySlot, RequestId,
};
use crate::pane::{Cx, Pane, ViewCx};
use crate::state::session::Session;
use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use findings_base::handoff::ClipboardText;
use findings_model::*;
use findings_requests::triage::Target;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use tui_input::Input;
use tui_input::backend::crossterm::EventHandler;

pub const ID: PaneId = PaneId("agentic");

/// The pane's own keys (before `list`'s).
pub const KEYS: Context = Context::named("agentic");

/// What the pane's requests are for: each reply comes back in its slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// The pages of the search.
    Search,
    /// The repository names the rows show.
    RepoNames,
    /// How many issues the search matches (`CountIssues`).
    Count,
}

impl ReplySlot for Slot {
    const ALL: &'static [Slot] = &[Slot::Search, Slot::RepoNames, Slot::Count];
}

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
    /// The count request in flight.
    counting: Option<RequestId>,
    /// The four inputs, in [`QueryField::ALL`] order.
    pub inputs: [Input; 4],
    /// The queries of the search in force (trimmed; "" = none).
    pub applied: [String; 4],
    /// The input being typed in, while editing.
    pub editing: Option<usize>,
    pub sort_field: Option<IssueSortField>,
    pub sort_direction: Option<SortDirection>,
    pub detail: Option<AgenticDetail>,
    /// Repository and ref names by id (the issue carries ids only), from
    /// the filter values, asked once.
    pub names: crate::list::filter_values::FilterValues,
    /// Browsing a snapshot: it holds no agentic issues, and says so.
    pub offline: bool,
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
        let (queries, results) = queries_and_results(left);
        return AgenticAreas {
            queries,
            results,
            detail,
        };
    }
    let (queries, results) = queries_and_results(body);
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

/// The four query inputs, then the results.
fn queries_and_results(body: Rect) -> (Rect, Rect) {
    let [queries, results] =
        Layout::vertical([Constraint::Length(4), Constraint::Min(0)]).areas(body);
    (queries, results)
}

/// Rows of the results table in the screen's body.
fn result_rows(body: Rect) -> usize {
    let (_, results) = queries_and_results(body);
    (layout::table_rows(results).height as usize).max(1)
}

impl AgenticPane {
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
            limit: Some(DEFAULT_PAGE_SIZE),
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
        let cancel = self.list.reset();
        outbox.cancel(cancel);
        self.total = None;
        self.load_next(outbox);
        // The total from the published count, asked beside the first page.
        outbox.cancel(self.counting.take());
        let count = ApiRequest::CountAgentic(self.filters());
        self.counting = outbox.in_slot(Slot::Count, |o| o.send(count));
    }

    fn load_next(&mut self, outbox: &mut Outbox) {
        let req = self.request(self.list.next_cursor.clone());
        if let Some(id) = outbox.in_slot(Slot::Search, |o| o.send(ApiRequest::Search(req))) {
            let superseded = self.list.loader.started(id);
            outbox.cancel(superseded);
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

    pub fn new(session: &Session) -> Self {
        AgenticPane {
            offline: session.offline.is_some(),
            ..AgenticPane::default()
        }
    }

    /// `:sort FIELD [asc|desc]`
    fn set_sort(&mut self, args: &[&str], outbox: &mut Outbox) -> Result<(), String> {
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
        let by = IssueSortField::parse_known(field).ok_or_else(|| {
            let known: Vec<&str> = IssueSortField::ALL
                .iter()
                .map(IssueSortField::label)
                .collect();
            let hint = findings_requests::filter_spec::did_you_mean(&known, field)
                .map(|d| format!(" ({d})"))
                .unwrap_or_default();
            format!("unknown sort field {field:?}{hint}; valid: {}", names())
        })?;
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
        self.sort_changed(outbox);
        Ok(())
    }

    /// Loads in the new sort, and says it (`:messages` keeps it).
    fn sort_changed(&mut self, outbox: &mut Outbox) {
        self.reload(outbox);
        outbox.status(format!("sort {}", self.sort_label()));
    }
}

impl Pane for AgenticPane {
    fn id(&self) -> PaneId {
        ID
    }

    fn title(&self) -> &'static str {
        "Agentic"
    }

    fn contexts(&self) -> Vec<Context> {
        if self.detail.is_some() {
            vec![Context::DETAIL]
        } else {
            vec![KEYS, Context::LIST]
        }
    }

    fn key_contexts(&self) -> &'static [(Context, &'static str)] {
        &[(KEYS, "Agentic")]
    }

    fn text_input_active(&self) -> bool {
        self.editing.is_some()
    }

    fn is_loading(&self) -> bool {
        self.list.loader.is_loading()
    }

    fn tab_count(&self) -> Option<i64> {
        self.total
    }

    /// The published count of the search in force (the first show asks it
    /// again beside the first page).
    fn count_for_tab(&mut self, cx: &mut Cx) {
        let count = ApiRequest::CountAgentic(self.filters());
        self.counting = cx.outbox.in_slot(Slot::Count, |o| o.send(count));
    }

    /// The first time the pane is shown, the first (empty) search runs.
    fn activate(&mut self, cx: &mut Cx) {
        if self.list.first_show() {
            self.reload(cx.outbox);
            cx.outbox
                .in_slot(Slot::RepoNames, |o| self.names.request(o));
        }
    }

    fn on_action(&mut self, action: Action, cx: &mut Cx) {
        let rows = result_rows(cx.area);
        let outbox = &mut *cx.outbox;
        if let Some(detail) = &mut self.detail {
            let page = crate::layout::cells(rows);
            match action {
                Action::Down => detail.scroll = detail.scroll.saturating_add(1),
                Action::Up => detail.scroll = detail.scroll.saturating_sub(1),
                Action::PageDown => detail.scroll = detail.scroll.saturating_add(page),
                Action::PageUp => detail.scroll = detail.scroll.saturating_sub(page),
                Action::HalfPageDown => {
                    detail.scroll = detail.scroll.saturating_add((page / 2).max(1));
                }
                Action::HalfPageUp => {
                    detail.scroll = detail.scroll.saturating_sub((page / 2).max(1));
                }
                Action::Top => detail.scroll = 0,
                // The view clamps to the end of the content.
                Action::Bottom => detail.scroll = u16::MAX,
                Action::Back => self.detail = None,
                Action::Copy => copy_id(outbox, Some(&detail.issue)),
                Action::OpenInBrowser => {
                    outbox.status("agentic issues have no URL to open; y copies the id");
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
                let current = self
                    .sort_field
                    .clone()
                    .unwrap_or(IssueSortField::LastDetectedAt);
                self.sort_field = choices::next(IssueSortField::ALL, Some(&current));
                self.sort_changed(outbox);
            }
            Action::ToggleSortDirection => {
                self.sort_direction = Some(choices::flip(&self.sort_direction));
                self.sort_changed(outbox);
            }
            Action::Copy => copy_id(outbox, self.list.selected_item()),
            Action::OpenInBrowser => {
                outbox.status("agentic issues have no URL to open; y copies the id");
            }
            _ => {}
        }
    }

    /// Every key while a query is being typed.
    fn on_text_key(&mut self, key: KeyEvent, cx: &mut Cx) {
        let outbox = &mut *cx.outbox;
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

    fn on_reply(&mut self, slot: message::Slot, id: RequestId, result: ApiResult, cx: &mut Cx) {
        let outbox = &mut *cx.outbox;
        match Slot::of(slot) {
            Slot::RepoNames => self.names.accept(id, result),
            Slot::Count if self.counting == Some(id) => {
                self.counting = None;
                match result {
                    Ok(ApiResponse::AgenticCount(c)) if c.count.is_some() => self.total = c.count,
                    // The search's own total stands.
                    _ => {}
                }
            }
            // A count of an earlier search.
            Slot::Count => {}
            Slot::Search => {
                if !self.list.loader.accept(id) {
                    return;
                }
                match result {
                    Ok(ApiResponse::Search(page)) => {
                        if page.total.is_some() {
                            self.total = page.total;
                        }
                        self.list.add_page(
                            page.issues,
                            page.cursor,
                            "Loading agentic issues",
                            outbox,
                        );
                        self.list.select(self.list.selected);
                    }
                    Ok(other) => {
                        let error = other.unexpected();
                        self.list.failed("Searching agentic issues", &error, outbox);
                    }
                    Err(e) => self.list.failed("Searching agentic issues", &e, outbox),
                }
            }
        }
    }

    /// Prefetch: within one screen of the end of what is loaded, the next
    /// page is requested.
    fn after_update(&mut self, cx: &mut Cx) {
        let rows = result_rows(cx.area);
        if self.list.follow(rows) {
            self.load_next(cx.outbox);
        }
    }

    /// A click on a row selects it (and shows it, when the detail is open
    /// beside the list); a click on a query starts editing it.
    fn click(&mut self, body: Rect, x: u16, y: u16) {
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

    fn commands(&self) -> &'static [&'static str] {
        &["sort FIELD [asc|desc]"]
    }

    fn command(&mut self, name: &str, args: &[&str], cx: &mut Cx) -> Option<Result<(), String>> {
        (name == "sort").then(|| self.set_sort(args, cx.outbox))
    }

    /// The issue the detail shows, else the selected one.
    fn triage_targets(&self) -> Option<Vec<Target>> {
        let issue = match &self.detail {
            Some(d) => Some(&d.issue),
            None => self.list.selected_item(),
        }?;
        issue
            .id
            .as_deref()
            .is_some_and(|id| !id.is_empty())
            .then(|| vec![Target::agentic(issue)])
    }

    /// A triaged issue changes in place (list and detail).
    fn changed(&mut self, change: &Changed, cx: &mut Cx) {
        match change {
            Changed::Agentic(fresh) => {
                let same = |i: &AgenticIssue| i.id.is_some() && i.id == fresh.id;
                for item in self.list.items.iter_mut().filter(|i| same(i)) {
                    *item = (**fresh).clone();
                }
                if let Some(detail) = self.detail.as_mut().filter(|d| same(&d.issue)) {
                    detail.issue = (**fresh).clone();
                }
            }
            Changed::AgenticReload if !self.list.items.is_empty() => self.reload(cx.outbox),
            _ => {}
        }
    }

    fn complete(&self, name: &str, args: &[&str], word: &str) -> Vec<String> {
        use crate::panes::issues::words;
        match (name, args.len()) {
            ("sort", 0) => words(IssueSortField::ALL.iter().map(IssueSortField::label), word),
            ("sort", 1) => words(["asc", "desc"], word),
            _ => Vec::new(),
        }
    }

    fn draw(&self, f: &mut Frame, area: Rect, v: &ViewCx) {
        view::draw(f, area, self, v);
    }

    fn status(&self, v: &ViewCx) -> String {
        view::status(self, v)
    }
}

/// Copies the issue's id (agentic issues have no URL).
fn copy_id(outbox: &mut Outbox, issue: Option<&AgenticIssue>) {
    let Some(id) = issue
        .and_then(|i| i.id.as_deref())
        .and_then(ClipboardText::line)
    else {
        outbox.status("this issue has no id");
        return;
    };
    outbox.status(format!("copied {id}"));
    outbox.effects.push(Effect::Copy(id));
}

#[cfg(test)]
mod tests;
