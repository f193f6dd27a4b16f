//! The Issues pane: List issues, loaded lazily by cursor, with a local `/`
//! filter over what is loaded, a server-side filter form, and sorting.

mod aliases;
mod commands;
mod groups;
mod groups_view;
mod load_all;
mod local_filter;
mod local_sort;
mod matches;
mod narrow;
mod reload;
mod saving;
mod searching;
mod since;
mod since_view;
mod summary;
mod view;

pub(crate) use commands::words;
pub use groups::Groups;
pub use searching::{SLICE, SliceRows};
pub use summary::IssuesAreas;

use crate::filter_form::FilterForm;
use crate::keymap::{Action, Context};
use crate::layout;
use crate::list::choices;
use crate::list::filter_values::FilterValues;
use crate::list::findings_list::{self, Findings, ListColumns, ListKey, Marks, NewSince};
use crate::list::issue_counts::{IssueCounts, ListedStates};
use crate::list::learned::Learned;
use crate::list::load::PagedList;
use crate::message::rows::{FindingRow, RowPage, SearchIndex};
use crate::message::{
    self, ApiResponse, ApiResult, Changed, PaneId, PaneMsg, ReplySlot, RequestId,
};
use crate::pane::{Cx, FindingsSource, Pane, ViewCx};
use crate::state::session::{SavedView, Session};
use crate::widgets::findings_table::{self, DateColumn};
use crossterm::event::{KeyCode, KeyEvent};
use findings_model::*;
use findings_requests::filter_spec::{self, LIST_FILTER};
use ratatui::Frame;
use ratatui::layout::Rect;
use tui_input::Input;
use tui_input::backend::crossterm::EventHandler;

pub const ID: PaneId = PaneId("issues");

/// What the pane's requests are for: each reply comes back in its slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// The pages of the list.
    List,
    /// The pages of the findings grouped by rule.
    Groups,
    /// The values the filters can take.
    FilterValues,
    /// The counts by state of the filter.
    Counts,
    /// The comparison with the last visit.
    Since,
    /// The pages an advisory alias is looked for in.
    Aliases,
}

impl ReplySlot for Slot {
    const ALL: &'static [Slot] = &[
        Slot::List,
        Slot::Groups,
        Slot::FilterValues,
        Slot::Counts,
        Slot::Since,
        Slot::Aliases,
    ];
}

/// The list's own keys, and the groups view's (before `list`'s).
pub const KEYS: Context = Context::named("issues");
pub const GROUP_KEYS: Context = Context::named("groups");
pub const SINCE_KEYS: Context = Context::named("since");

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
    /// The loaded rows by state, for the counts line (kept as rows come).
    listed_states: ListedStates,
    /// The server-side filters: the type selection and the filter object.
    pub selection: ListSelection,
    pub sort_by: Option<SortBy>,
    pub sort_direction: Option<SortDirection>,
    /// Sorted by the AGE column (first detection), which the server cannot
    /// sort by: the loaded rows are, once everything is loaded (the server
    /// is asked by `sort_by` meanwhile).
    pub sort_age: bool,
    /// `+` on a list loaded whole: only the rows new since the last visit
    /// show, picked here (the server is not asked again).
    pub new_local: bool,
    /// A new selection that would drop a whole set loaded, asked about.
    pending: Option<narrow::Pending>,
    /// The `/` input while it is being typed in.
    pub local_input: Option<Input>,
    /// The local filter in force ("" = none).
    pub local_query: String,
    /// The last `/` query, kept after Esc cleared the filter: `n` and `N`
    /// step through its matches among every row.
    pub last_query: String,
    pub form: Option<FilterForm>,
    /// Edits left with Esc, not applied, and the filter they were made
    /// over: `f` reopens them while that filter is in force.
    form_draft: Option<(ListSelection, FilterForm)>,
    /// Items per page (a profile's `page_size`; `DEFAULT_PAGE_SIZE` by default).
    pub page_size: Option<i64>,
    /// Rows marked with `Space` (until the list is loaded anew).
    pub marked: Marks,
    /// Findings relevant since the last visit are new.
    pub new: NewSince,
    /// Saved views, offered in the filter form and applied by `:view`.
    pub views: Vec<SavedView>,
    /// Why a profile's default view did not apply (the app says it at the
    /// start).
    pub start_note: Option<String>,
    /// The findings grouped by rule (`R`).
    pub groups: Groups,
    /// What changed since the last visit (`W`).
    pub since: since::Since,
    /// Open-age targets by severity (a profile's `sla_days`).
    pub targets: findings_config::SlaDays,
    /// Only findings open past their target show (`O`), their ages
    /// counted to this time (when it was asked).
    pub over_target: Option<Timestamp>,
    /// Ages are counted to this time rather than now: a snapshot's, when
    /// browsing one offline (its findings are as they were then).
    pub age_at: Option<Timestamp>,
    /// The lists before each narrowing, the last one last (`Esc` goes back).
    narrowed: Vec<narrow::Before>,
    /// The values the filters can take, asked for once.
    pub known: FilterValues,
    /// An advisory alias looked for before a filter applies.
    alias_search: Option<aliases::AliasSearch>,
    /// How many findings the filter matches, by state and in archived
    /// projects (asked once per filter, and after a triage).
    pub counts: IssueCounts,
    /// The loaded rows in the order of a local sort (everything loaded,
    /// sorted by a column the rows keep), when there is one.
    order: Option<Vec<u32>>,
    /// The rows shown before each narrowing of the `/` query, the last
    /// last: a backspace to a query typed before takes them back.
    typed: Vec<(String, Option<Vec<u32>>)>,
    /// The `/` search under way, sliced across frames: until it is done
    /// the rows shown are the hits so far.
    searching: Option<searching::Search>,
    /// Rows a slice of it searches.
    pub slice: searching::SliceRows,
    /// A load of everything under way (`G`, `:load all`, `/`).
    pub loading_all: Option<load_all::LoadAll>,
    /// The config file `:save` writes views into, and the profile whose
    /// views they are.
    pub config_file: Option<std::path::PathBuf>,
    pub profile: Option<String>,
    /// The rows a reload (`r`) replaces, until its first page comes: a
    /// reload that fails puts them back rather than leave none.
    kept: Option<Box<reload::Kept>>,
    /// Exception requests and fix PRs fresh fetches said, which a page
    /// does not: given to the rows of every page, so reloads keep them.
    learned: Learned,
    /// Supply-chain rules by the name their rows show (the groups name
    /// them so).
    pub rule_labels: crate::list::learned::RuleLabels,
}

impl IssuesPane {
    /// The pane as a profile sets it up: page size, saved views, the
    /// default view and the last visit.
    pub fn new(session: &Session) -> Self {
        let mut pane = IssuesPane {
            page_size: session.page_size,
            new: NewSince::new(session.last_visit.of(ID)),
            views: session.views.clone(),
            config_file: session.config_file.clone(),
            profile: session.profile.clone(),
            since: since::Since::new(session.remember_in.clone()),
            targets: session.sla_days,
            age_at: session.offline,
            ..IssuesPane::default()
        };
        if let Some(view) = &session.default_view
            && let Err(e) = pane.apply_view(view)
        {
            pane.start_note = Some(e);
        }
        pane
    }

    /// Whether only the findings new since the last visit are shown
    /// (asked of the server, or picked from everything loaded).
    pub fn new_only(&self) -> bool {
        self.new.last_visit.is_some()
            && (self.new_local || self.selection.filter.since == self.new.last_visit)
    }

    /// Rows of the table in the screen's body.
    fn rows(&self, body: Rect) -> usize {
        layout::table_rows(self.areas(body).table).height.max(1) as usize
    }

    /// The sort in force, as shown (`None` fields are the server default).
    pub fn sort_label(&self) -> String {
        let field = match &self.sort_by {
            _ if self.sort_age => "age",
            Some(by) => by.label(),
            None => "relevant-since",
        };
        let dir = match self.sort_direction {
            Some(SortDirection::Asc) => "↑",
            _ => "↓",
        };
        format!("{field} {dir}")
    }

    fn request(&self, cursor: Option<String>) -> ListIssuesRequest {
        let mut req = ListIssuesRequest {
            limit: Some(self.page_size.unwrap_or(DEFAULT_PAGE_SIZE)),
            cursor,
            sort_by: self.sort_by.clone(),
            sort_direction: self.sort_direction.clone(),
            // What the AGE column and `O` count from.
            include_first_detected_at: Some(true),
            ..Default::default()
        };
        self.selection.apply_to(&mut req);
        req
    }

    /// Bytes the search index holds (for the memory bench).
    pub fn search_bytes(&self) -> usize {
        self.search.heap_bytes()
    }

    /// The selected finding, as its row knows it.
    pub fn selected_issue(&self) -> Option<Issue> {
        self.list.selected_item()?.summary().issue
    }

    /// Sets the sort and filters of a saved view (without loading).
    pub fn apply_view(&mut self, view: &SavedView) -> Result<(), String> {
        let mut pairs = view.pairs()?;
        // A field of one type only, saved without its type, asks for it.
        let selection: Option<ListSelection> = filter_spec::scope_types(&mut pairs)
            .and_then(|_| filter_spec::build(LIST_FILTER, "List issues", &pairs))
            .map_err(|e| format!("view {}: {}", view.name, e.0))?;
        self.selection = selection.unwrap_or_default();
        self.sort_by = view.sort_by.clone();
        self.sort_direction = view.direction.clone();
        self.local_query.clear();
        self.local_input = None;
        Ok(())
    }
}

impl Pane for IssuesPane {
    fn id(&self) -> PaneId {
        ID
    }

    fn title(&self) -> &'static str {
        "Issues"
    }

    fn contexts(&self) -> Vec<Context> {
        if self.form.is_some() {
            vec![Context::FORM]
        } else if self.since.shown {
            vec![SINCE_KEYS, Context::LIST]
        } else if self.groups.shown {
            vec![GROUP_KEYS, Context::LIST]
        } else {
            vec![KEYS, Context::LIST]
        }
    }

    fn key_contexts(&self) -> &'static [(Context, &'static str)] {
        &[
            (KEYS, "Issues"),
            (GROUP_KEYS, "Issue groups"),
            (SINCE_KEYS, "Since last visit"),
        ]
    }

    fn on_message(&mut self, msg: PaneMsg, cx: &mut Cx) {
        match msg {
            PaneMsg::Narrow(selection, what) => self.narrow(*selection, what, cx),
            PaneMsg::ViewSaved { view, result } => self.view_saved(view, result, cx.outbox),
            PaneMsg::Answered(yes) => self.answer_drop(yes, cx),
        }
    }

    fn start_note(&mut self) -> Option<String> {
        self.start_note.take()
    }

    fn filter_scope(&self) -> Option<&ListSelection> {
        Some(&self.selection)
    }

    fn text_input_active(&self) -> bool {
        self.local_input.is_some() || self.form.as_ref().is_some_and(FilterForm::is_editing)
    }

    fn work_left(&self) -> Option<String> {
        let pct = self.search_progress()?;
        let query = crate::widgets::common::safe(&self.local_query);
        Some(format!("searching /{query} ({pct}%)"))
    }

    fn work(&mut self, _cx: &mut Cx) {
        self.search_slice();
    }

    fn is_loading(&self) -> bool {
        self.list.loader.is_loading()
            || self.groups.list.loader.is_loading()
            || self.counts.is_loading()
            || self.since.is_loading()
    }

    /// The first time the pane is shown, its first page is requested.
    fn activate(&mut self, cx: &mut Cx) {
        if self.list.first_show() {
            self.reload(cx);
            // Compared once the filter's count says how many to list.
            self.since.auto = true;
        }
    }

    fn tab_count(&self) -> Option<i64> {
        self.counts.known_for(&self.selection).map(|c| c.listed())
    }

    /// The counts of the filter in force (the first show finds them asked).
    fn count_for_tab(&mut self, cx: &mut Cx) {
        cx.outbox
            .in_slot(Slot::Counts, |o| self.counts.ask(&self.selection, false, o));
    }

    fn on_action(&mut self, action: Action, cx: &mut Cx) {
        if self.form.is_some() {
            return self.on_form_action(action, cx);
        }
        let rows = self.rows(cx.area);
        if self.since.shown {
            if action == Action::Refresh {
                return self.compare_with_last_visit(true, cx);
            }
            self.since.shown = self.since.on_action(action, rows, cx.outbox);
            return;
        }
        if self.groups.shown {
            match self.groups.on_action(action, rows, cx.outbox) {
                groups::GroupKey::Handled => {}
                groups::GroupKey::Narrow(selection, what) => self.narrow(*selection, what, cx),
                groups::GroupKey::Leave => self.groups.shown = false,
            }
            return;
        }
        match action {
            // `G`: to the end of everything, loaded as one stream.
            Action::Bottom => self.load_all(true, cx),
            // Esc stops a load of everything (the list's key stops the request).
            Action::Back => self.loading_all = None,
            _ if self.list.navigate(action, rows) => {
                if let Some(load) = &mut self.loading_all {
                    load.follow_end = false;
                }
                return;
            }
            _ => {}
        }
        // An action on the rows shown waits for them to be exact.
        if let Some(what) = on_rows_shown(action)
            && let Some(why) = self.refuse_while_searching(what)
        {
            return cx.outbox.status(why);
        }
        // Esc stops the counts in flight too.
        let counts_stopped = action == Action::Back && self.counts.cancel(cx.outbox);
        match findings_list::on_list_key(&mut self.list, &mut self.marked, action, rows, cx.outbox)
        {
            ListKey::Handled => return,
            ListKey::LoadNext => return self.load_next(cx.outbox),
            // `r`: the findings may have changed, so may their counts.
            ListKey::Reload => return self.reload_and_recount(cx),
            ListKey::Unhandled if counts_stopped => return cx.outbox.status("request cancelled"),
            ListKey::Unhandled => {}
        }
        match action {
            // Esc with no load to stop clears the local filter.
            Action::Back if !self.local_query.is_empty() => self.clear_local_query(),
            Action::Back => {
                self.restore(cx);
            }
            Action::Groups => self.groups.show(&self.selection, cx.outbox),
            Action::SinceLastVisit => self.show_since(cx),
            Action::OverTarget => self.toggle_over_target(cx),
            Action::NewOnly => self.toggle_new_only(cx),
            Action::NextMatch => self.step_match(true, cx),
            Action::PrevMatch => self.step_match(false, cx),
            // `/` filters everything: the rest is loaded meanwhile.
            Action::LocalFilter => {
                self.local_input = Some(Input::new(self.local_query.clone()));
                self.load_all(false, cx);
            }
            Action::FilterForm => self.open_form(),
            // Every column in turn, the AGE column (sorted here) last.
            Action::CycleSort => {
                let current = self.sort_by.clone().unwrap_or(SortBy::RelevantSince);
                if !self.sort_age && SORT_CYCLE.last() == Some(&current) {
                    self.sort_age = true;
                } else {
                    self.sort_age = false;
                    self.sort_by = choices::next(&SORT_CYCLE, Some(&current));
                }
                self.sort_changed(cx);
            }
            Action::ToggleSortDirection => {
                self.sort_direction = Some(choices::flip(&self.sort_direction));
                self.sort_changed(cx);
            }
            _ => {}
        }
    }

    fn on_text_key(&mut self, key: KeyEvent, cx: &mut Cx) {
        if let Some(form) = &mut self.form {
            // The form's apply key applies from the field typed in too.
            let apply = crate::keymap::key_of_event(&key)
                .and_then(|k| cx.keymap.action(&[Context::FORM], &k));
            if apply == Some(Action::Confirm) {
                return self.on_form_action(Action::Confirm, cx);
            }
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
                self.clear_local_query();
            }
            _ => {
                input.handle_event(&crossterm::event::Event::Key(key));
                let query = input.value().to_owned();
                self.set_local_query(query);
            }
        }
    }

    fn on_reply(&mut self, slot: message::Slot, id: RequestId, result: ApiResult, cx: &mut Cx) {
        match Slot::of(slot) {
            Slot::List => {
                // A streamed page leaves its request in flight.
                let mine = match &result {
                    Ok(ApiResponse::RowsSoFar(_)) => self.list.loader.owns(id),
                    _ => self.list.loader.accept(id),
                };
                if !mine {
                    return;
                }
                match result {
                    // The worker packs the rows; a page as decoded is packed here.
                    Ok(ApiResponse::Rows(page) | ApiResponse::RowsSoFar(page)) => {
                        self.take_page(page, cx.outbox);
                    }
                    Ok(ApiResponse::ListIssues(page)) => {
                        self.take_page(RowPage::from(page), cx.outbox);
                    }
                    Ok(other) => {
                        self.list
                            .failed("Loading findings", &other.unexpected(), cx.outbox);
                    }
                    Err(e) if self.kept.is_some() && self.list.items.is_empty() => {
                        self.put_back_kept(&e, cx.outbox);
                    }
                    Err(e) => self.list.failed("Loading findings", &e, cx.outbox),
                }
                self.after_stream_page();
            }
            Slot::Groups => self.groups.on_reply(id, result, cx.outbox),
            Slot::FilterValues => {
                self.known.accept(id, result);
                if let Some(form) = &mut self.form {
                    form.offered = self.known.offered(LIST_FILTER);
                }
            }
            Slot::Counts => {
                self.counts.accept(id, result);
                self.compare_when_counted(cx);
            }
            Slot::Since => self.since.on_reply(id, result, cx.outbox),
            Slot::Aliases => self.on_alias_reply(id, result, cx),
        }
    }

    /// Prefetch: within one screen of the end of what is loaded, the next
    /// page is requested, so scrolling at a steady pace never waits.
    fn after_update(&mut self, cx: &mut Cx) {
        let rows = self.rows(cx.area);
        if self.groups.shown && self.groups.list.follow(rows) {
            self.groups.load_next(cx.outbox);
        }
        if self.list.follow(rows) {
            self.load_next(cx.outbox);
        }
    }

    fn list_rows(&self, area: Rect) -> usize {
        self.rows(area)
    }

    fn click(&mut self, area: Rect, _x: u16, y: u16) {
        let rows = layout::table_rows(self.areas(area).table);
        if y >= rows.y && y < rows.y + rows.height {
            let row = (y - rows.y) as usize;
            if self.groups.shown {
                let list = &mut self.groups.list;
                list.select(list.offset + row);
            } else {
                self.list.select(self.list.offset + row);
            }
        }
    }

    fn commands(&self) -> &'static [&'static str] {
        commands::COMMANDS
    }

    fn command(&mut self, name: &str, args: &[&str], cx: &mut Cx) -> Option<Result<(), String>> {
        self.run_command(name, args, cx)
    }

    fn changed(&mut self, change: &Changed, cx: &mut Cx) {
        if matches!(
            change,
            Changed::Findings(_) | Changed::FindingsReload | Changed::Totals
        ) {
            self.groups.forget_counts();
        }
        match change {
            Changed::Findings(fresh) => {
                self.learned.learn(fresh);
                if crate::message::rows::refresh_rows(&mut self.list.items, fresh) > 0 {
                    // Rows changed state in place: counted again.
                    self.listed_states =
                        ListedStates::of(self.list.items.iter().map(|r| r.state()));
                }
            }
            Changed::FindingsReload
                if !self.list.items.is_empty() || self.list.loader.is_loading() =>
            {
                self.reload_and_recount(cx);
            }
            // A triage moved findings between states: counted again.
            Changed::Totals if self.counts.was_asked() => {
                cx.outbox
                    .in_slot(Slot::Counts, |o| self.counts.ask(&self.selection, true, o));
            }
            Changed::MarksSpent(ids) => self.marked.unmark(ids),
            _ => {}
        }
    }

    fn complete(&self, name: &str, args: &[&str], word: &str) -> Vec<String> {
        match (name, args.len()) {
            ("sort", 0) => words(
                SortBy::ALL.iter().map(SortBy::label).chain([commands::AGE]),
                word,
            ),
            ("sort", 1) => words(["asc", "desc"], word),
            ("filter", 0) => {
                filter_spec::complete_with(LIST_FILTER, word, |f| self.known.values_of(f))
            }
            _ => Vec::new(),
        }
    }

    fn findings(&self) -> Option<Box<dyn FindingsSource + '_>> {
        // The groups view shows no finding to export, copy or triage.
        if self.groups.shown {
            return None;
        }
        Some(Box::new(Findings {
            list: &self.list,
            marks: &self.marked,
            columns: ListColumns {
                names: findings_table::export_columns(DateColumn::RelevantSince, true),
                targets: self.targets,
                age_at: self.age_at.or(self.over_target),
            },
            listing: Some(self.request(None)),
        }))
    }

    /// When the list on show was asked for (its first page): the visit to
    /// record, so what became relevant after it is new next time.
    fn seen_at(&self) -> Option<Timestamp> {
        self.new.listed_at
    }

    fn draw(&self, f: &mut Frame, area: Rect, v: &ViewCx) {
        if self.since.shown {
            return since_view::draw(self, f, area, v);
        }
        if self.groups.shown {
            return groups_view::draw(self, f, area, v);
        }
        view::draw(self, f, area, v);
    }

    fn status(&self, v: &ViewCx) -> String {
        if self.since.shown {
            return since_view::status(self, v);
        }
        if self.groups.shown {
            return groups_view::status(self, v);
        }
        view::status(self, v)
    }
}

/// The list's keys that act on the rows shown (named for the message
/// when they must wait for a search).
fn on_rows_shown(action: Action) -> Option<&'static str> {
    match action {
        Action::NextMatch => Some("n"),
        Action::PrevMatch => Some("N"),
        Action::MarkShown => Some("marking the rows shown"),
        _ => None,
    }
}

#[cfg(test)]
mod search_tests;
#[cfg(test)]
mod tests;
