//! The application state, its messages and effects, and `update`: the one
//! place state changes. `update` does no IO and never awaits; what should
//! happen outside (requests, the browser, the clipboard) comes back as
//! [`Effect`]s for the event loop to carry out.

use super::exporting::{CopyMenu, ExportItems, ExportPrompt};
use super::keymap::{Action, Context, Key, Keymap};
use super::panes::agentic::AgenticPane;
use super::panes::detail::DetailView;
use super::panes::issues::IssuesPane;
use super::panes::report::ReportPane;
use super::panes::scm::ScmPane;
use super::theme::Theme;
use super::visits::{Visits, VisitsFile};
use super::worker::{ApiRequest, ApiResponse, Reply, RequestId};
use crate::api::ApiError;
use crate::api::model::*;
use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseEvent, MouseEventKind};
use std::collections::HashMap;
use tui_input::Input;
use tui_input::backend::crossterm::EventHandler;

/// Everything that can happen to the app. (Variant sizes differ; messages
/// are few and short-lived, so they are not boxed.)
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub enum Msg {
    Key(KeyEvent),
    Mouse(MouseEvent),
    Resize(u16, u16),
    Reply(Reply),
    /// The spinner's beat (sent only while something loads).
    Tick,
    /// How an [`Effect::Export`] went: the file's path, and the number of
    /// findings written or why nothing was.
    Exported {
        path: String,
        result: Result<usize, String>,
    },
}

/// What `update` asks the outside world to do.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    Send {
        id: RequestId,
        request: ApiRequest,
    },
    Cancel(RequestId),
    OpenUrl(String),
    /// Copy text to the clipboard (OSC 52).
    Copy(String),
    Suspend,
    Quit,
    /// Write `items` to a new file at `path` (never over an existing one)
    /// and answer with [`Msg::Exported`].
    Export {
        path: std::path::PathBuf,
        format: crate::export::Format,
        items: ExportItems,
    },
}

/// Things a pane asks of the app (handled right after the pane's update).
#[derive(Debug, Clone)]
pub enum AppEvent {
    OpenDetail(Box<Issue>),
    Error { title: String, message: String },
    Status(String),
}

/// Where panes put their requests, effects and app events.
#[derive(Debug, Default)]
pub struct Outbox {
    next_id: RequestId,
    pub effects: Vec<Effect>,
    pub events: Vec<AppEvent>,
    /// Set by `--read-only`: writes are refused here, where they are made.
    pub read_only: bool,
}

impl Outbox {
    /// Queues a request and returns its id. Writes are refused in read-only
    /// mode (`None`).
    pub fn send(&mut self, request: ApiRequest) -> Option<RequestId> {
        if self.read_only && matches!(request, ApiRequest::UpdateScm { .. }) {
            self.events.push(AppEvent::Error {
                title: "Read-only".into(),
                message: "--read-only is set: the SCM config update is not sent.".into(),
            });
            return None;
        }
        self.next_id += 1;
        let id = self.next_id;
        self.effects.push(Effect::Send { id, request });
        Some(id)
    }

    /// The requests queued so far, with their ids (for tests and tools).
    pub fn requests(&self) -> Vec<(RequestId, &ApiRequest)> {
        self.effects
            .iter()
            .filter_map(|e| match e {
                Effect::Send { id, request } => Some((*id, request)),
                _ => None,
            })
            .collect()
    }

    /// The cancellations queued so far.
    pub fn cancelled(&self) -> Vec<RequestId> {
        self.effects
            .iter()
            .filter_map(|e| match e {
                Effect::Cancel(id) => Some(*id),
                _ => None,
            })
            .collect()
    }

    pub fn cancel(&mut self, id: Option<RequestId>) {
        if let Some(id) = id {
            self.effects.push(Effect::Cancel(id));
        }
    }

    pub fn error(&mut self, title: &str, err: &ApiError) {
        self.events.push(AppEvent::Error {
            title: title.to_owned(),
            message: err.to_string(),
        });
    }

    pub fn status(&mut self, text: impl Into<String>) {
        self.events.push(AppEvent::Status(text.into()));
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PaneId {
    Report,
    Issues,
    Agentic,
    Scm,
}

impl PaneId {
    pub const ALL: [PaneId; 4] = [PaneId::Report, PaneId::Issues, PaneId::Agentic, PaneId::Scm];

    pub fn title(self) -> &'static str {
        match self {
            PaneId::Report => "Report",
            PaneId::Issues => "Issues",
            PaneId::Agentic => "Agentic",
            PaneId::Scm => "SCM",
        }
    }

    fn index(self) -> usize {
        PaneId::ALL.iter().position(|p| *p == self).unwrap_or(0)
    }

    /// The pane a `default_pane` names (`config::PANE_NAMES`).
    pub fn named(name: &str) -> Option<PaneId> {
        PaneId::ALL
            .into_iter()
            .find(|p| p.title().eq_ignore_ascii_case(name))
    }
}

/// A modal layer over the panes.
#[derive(Debug, Clone)]
pub enum Overlay {
    Help {
        scroll: u16,
    },
    Error {
        title: String,
        message: String,
    },
    Command(Input),
    /// The `e` prompt: format and file of an export.
    Export(ExportPrompt),
    /// The `y` menu: what to copy.
    CopyMenu(CopyMenu),
}

/// Facts about the connection, for the header, and what the config file
/// asks of the start.
#[derive(Debug, Clone, Default)]
pub struct Session {
    pub deployment: String,
    pub base_url: String,
    pub demo: bool,
    pub read_only: bool,
    /// The pane to open on (a profile's `default_pane`).
    pub default_pane: Option<PaneId>,
    /// The Issues pane's first sort and filters (a profile's defaults).
    pub default_view: Option<SavedView>,
    /// Saved views, applied with `:view NAME`.
    pub views: Vec<SavedView>,
    /// Items per page the lists ask for (a profile's `page_size`).
    pub page_size: Option<i64>,
    /// When the findings panes were last seen under this profile: what
    /// came after is marked new.
    pub last_visit: Visits,
    /// Where this visit is recorded when the app ends (none in tests).
    pub visits_file: Option<VisitsFile>,
}

pub use crate::config::SavedView;

/// Sets the pane's sort and filters to the view's (without loading).
pub(crate) fn apply_view(view: &SavedView, issues: &mut IssuesPane) -> Result<(), String> {
    let pairs = view
        .filters
        .iter()
        .map(|f| crate::filter_spec::split_pair(f))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.0)?;
    let filter: Option<ListIssuesFilter> =
        crate::filter_spec::build(crate::filter_spec::LIST_FILTER, "List issues", &pairs)
            .map_err(|e| format!("view {}: {}", view.name, e.0))?;
    issues.filter = filter.unwrap_or_default();
    issues.sort_by = view.sort_by.clone();
    issues.sort_direction = view.direction.clone();
    issues.local_query.clear();
    issues.local_input = None;
    Ok(())
}

/// Enriched copies of findings (fetched with every include flag), by id.
#[derive(Debug, Clone)]
pub enum Enriched {
    Loaded(Box<Issue>),
    Failed(String),
}

pub struct App {
    pub session: Session,
    pub pane: PaneId,
    pub report: ReportPane,
    pub issues: IssuesPane,
    pub agentic: AgenticPane,
    pub scm: ScmPane,
    pub detail: Option<DetailView>,
    pub enriched: HashMap<String, Enriched>,
    pub overlay: Option<Overlay>,
    pub status: Option<String>,
    pub keymap: Keymap,
    pub theme: Theme,
    /// Terminal size in cells.
    pub size: (u16, u16),
    pub spinner: usize,
    pub outbox: Outbox,
    pub quit: bool,
    /// `q` was pressed with an unsent SCM draft: the next key, if `q`,
    /// quits.
    quit_armed: bool,
    /// The format of the last export (the next prompt offers it first).
    pub export_format: crate::export::Format,
}

impl App {
    pub fn new(session: Session, keymap: Keymap, theme: Theme, size: (u16, u16)) -> App {
        let outbox = Outbox {
            read_only: session.read_only,
            ..Outbox::default()
        };
        let mut issues = IssuesPane::default();
        issues.page_size = session.page_size;
        issues.new_since = session.last_visit.issues;
        issues.views = session.views.clone();
        let mut report = ReportPane::default();
        report.new_since = session.last_visit.report;
        let mut status = None;
        if let Some(view) = &session.default_view
            && let Err(e) = apply_view(view, &mut issues)
        {
            status = Some(e);
        }
        App {
            pane: session.default_pane.unwrap_or(PaneId::Issues),
            report,
            issues,
            agentic: AgenticPane::default(),
            scm: ScmPane::new(session.read_only),
            detail: None,
            enriched: HashMap::new(),
            overlay: None,
            status,
            keymap,
            theme,
            size,
            spinner: 0,
            outbox,
            quit: false,
            quit_armed: false,
            export_format: crate::export::Format::Csv,
            session,
        }
    }

    /// The first effects: the first pane (Issues unless the config says
    /// otherwise) asks for its first page at once.
    pub fn start(&mut self) -> Vec<Effect> {
        match self.session.default_pane {
            Some(PaneId::Report) => self.report.activate(&mut self.outbox),
            Some(PaneId::Agentic) => self.agentic.activate(&mut self.outbox),
            Some(PaneId::Scm) => {}
            Some(PaneId::Issues) | None => self.issues.activate(&mut self.outbox),
        }
        self.finish()
    }

    /// Whether anything is being fetched (the spinner runs only then).
    pub fn is_loading(&self) -> bool {
        self.issues.is_loading()
            || self.report.is_loading()
            || self.agentic.is_loading()
            || self.scm.is_loading()
            || self.detail.as_ref().is_some_and(DetailView::is_loading)
    }

    /// The key contexts in force, innermost first (also what help shows).
    pub fn contexts(&self) -> Vec<Context> {
        match &self.overlay {
            Some(Overlay::Help { .. }) => return vec![Context::Help],
            Some(Overlay::Error { .. }) => return vec![Context::Popup],
            Some(Overlay::Command(_) | Overlay::Export(_) | Overlay::CopyMenu(_)) => return vec![],
            None => {}
        }
        if self.detail.is_some() {
            return vec![Context::Detail, Context::Global];
        }
        let mut list = match self.pane {
            PaneId::Issues => self.issues.contexts(),
            PaneId::Report => self.report.contexts(),
            PaneId::Agentic => self.agentic.contexts(),
            PaneId::Scm => self.scm.contexts(),
        };
        list.push(Context::Global);
        list
    }

    fn text_input_active(&self) -> bool {
        matches!(
            self.overlay,
            Some(Overlay::Command(_) | Overlay::Export(_) | Overlay::CopyMenu(_))
        ) || (self.overlay.is_none()
            && self.detail.is_none()
            && match self.pane {
                PaneId::Issues => self.issues.text_input_active(),
                PaneId::Report => false,
                PaneId::Agentic => self.agentic.text_input_active(),
                PaneId::Scm => self.scm.text_input_active(),
            })
    }

    /// Rows of the list on screen (for paging and prefetch).
    pub fn list_height(&self) -> usize {
        let area = ratatui::layout::Rect::new(0, 0, self.size.0, self.size.1);
        let screen = super::layout::screen(area);
        super::layout::table_rows(screen.body).height.max(1) as usize
    }

    /// Handles one message and returns the effects to carry out.
    pub fn update(&mut self, msg: Msg) -> Vec<Effect> {
        match msg {
            Msg::Key(key) if key.kind != KeyEventKind::Release => {
                // A message lasts until the next key ("request cancelled"
                // must not outlive the reload that follows it); the key
                // that closes a popup leaves the popup's message showing.
                if self.overlay.is_none() {
                    self.status = None;
                }
                let was_armed = self.quit_armed;
                self.on_key(key);
                if was_armed {
                    self.quit_armed = false;
                }
            }
            Msg::Key(_) => {}
            Msg::Mouse(mouse) => self.on_mouse(mouse),
            Msg::Resize(w, h) => self.size = (w, h),
            Msg::Reply(reply) => self.on_reply(reply),
            Msg::Tick => self.spinner = self.spinner.wrapping_add(1),
            Msg::Exported { path, result } => super::exporting::exported(self, path, result),
        }
        self.finish()
    }

    /// Runs what panes asked of the app, prefetches, and hands out effects.
    fn finish(&mut self) -> Vec<Effect> {
        let height = self.list_height();
        self.issues.after_update(height, &mut self.outbox);
        self.report.after_update(height, &mut self.outbox);
        self.agentic.after_update(height, &mut self.outbox);
        for event in std::mem::take(&mut self.outbox.events) {
            match event {
                AppEvent::OpenDetail(issue) => self.open_detail(*issue),
                AppEvent::Error { title, message } => {
                    self.status = Some(format!("{title}: {message}"));
                    self.overlay = Some(Overlay::Error { title, message });
                }
                AppEvent::Status(text) => self.status = Some(text),
            }
        }
        if let Some(detail) = &mut self.detail {
            detail.ensure_data(&self.enriched, &mut self.outbox);
        }
        // Keep the detail's scroll within its content, so `k` after `G`
        // moves at once.
        let max = super::view::detail::max_scroll(self);
        if let Some(detail) = &mut self.detail {
            detail.scroll = detail.scroll.min(max);
        }
        std::mem::take(&mut self.outbox.effects)
    }

    fn open_detail(&mut self, issue: Issue) {
        self.detail = Some(DetailView::new(issue));
    }

    fn on_key(&mut self, key: KeyEvent) {
        let is_ctrl_c =
            key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL);
        if is_ctrl_c {
            self.quit_now();
            return;
        }
        if self.text_input_active() {
            self.on_text_key(key);
            return;
        }
        let Some(k) = Key::from_event(&key) else {
            return;
        };
        let contexts = self.contexts();
        let Some(action) = self.keymap.action(&contexts, &k) else {
            return;
        };
        self.on_action(action);
    }

    fn quit_now(&mut self) {
        self.quit = true;
        self.outbox.effects.push(Effect::Quit);
    }

    fn on_text_key(&mut self, key: KeyEvent) {
        match &self.overlay {
            Some(Overlay::Export(_)) => return super::exporting::on_export_key(self, key),
            Some(Overlay::CopyMenu(_)) => return super::exporting::on_copy_key(self, key),
            _ => {}
        }
        if let Some(Overlay::Command(input)) = &mut self.overlay {
            match key.code {
                KeyCode::Esc => self.overlay = None,
                KeyCode::Enter => {
                    let line = input.value().to_owned();
                    self.overlay = None;
                    self.run_command(&line);
                }
                _ => {
                    input.handle_event(&crossterm::event::Event::Key(key));
                }
            }
            return;
        }
        match self.pane {
            PaneId::Issues => self.issues.on_text_key(key, &mut self.outbox),
            PaneId::Agentic => self.agentic.on_text_key(key, &mut self.outbox),
            PaneId::Scm => self.scm.on_text_key(key, &mut self.outbox),
            PaneId::Report => {}
        }
    }

    fn on_action(&mut self, action: Action) {
        // Overlays first.
        match &mut self.overlay {
            Some(Overlay::Help { scroll }) => {
                match action {
                    Action::Down => *scroll = scroll.saturating_add(1),
                    Action::Up => *scroll = scroll.saturating_sub(1),
                    _ => self.overlay = None,
                }
                return;
            }
            Some(Overlay::Error { .. }) => {
                self.overlay = None;
                return;
            }
            _ => {}
        }
        match action {
            Action::ForceQuit => return self.quit_now(),
            Action::Quit if self.scm.has_unsent_changes() && !self.quit_armed => {
                self.quit_armed = true;
                self.status =
                    Some("the SCM draft has not been sent: q again quits and drops it".into());
                return;
            }
            Action::Quit => return self.quit_now(),
            Action::Suspend => return self.outbox.effects.push(Effect::Suspend),
            Action::Help => {
                self.overlay = Some(Overlay::Help { scroll: 0 });
                return;
            }
            Action::CommandLine => {
                self.overlay = Some(Overlay::Command(Input::default()));
                return;
            }
            Action::PaneReport => return self.switch_pane(PaneId::Report),
            Action::PaneIssues => return self.switch_pane(PaneId::Issues),
            Action::PaneAgentic => return self.switch_pane(PaneId::Agentic),
            Action::PaneScm => return self.switch_pane(PaneId::Scm),
            Action::NextPane => return self.switch_pane(PaneId::ALL[(self.pane.index() + 1) % 4]),
            Action::PrevPane => return self.switch_pane(PaneId::ALL[(self.pane.index() + 3) % 4]),
            _ => {}
        }
        if let Some(detail) = &mut self.detail {
            let height = self.size.1.saturating_sub(6) as usize;
            match action {
                Action::Back => {
                    let cancel = detail.close();
                    self.outbox.cancel(cancel);
                    self.detail = None;
                }
                Action::Refresh => {
                    if let Some(id) = detail.issue.id.clone() {
                        self.enriched.remove(&id);
                    }
                    detail.refetch();
                }
                Action::OpenInBrowser => {
                    open_url(&mut self.outbox, detail.best_issue(&self.enriched))
                }
                Action::Copy => copy_link(&mut self.outbox, detail.best_issue(&self.enriched)),
                other => detail.on_action(other, height),
            }
            return;
        }
        match action {
            Action::Export => return super::exporting::open_export(self),
            Action::CopyMenu => return super::exporting::open_copy_menu(self),
            _ => {}
        }
        let height = self.list_height();
        match self.pane {
            PaneId::Issues => self.issues.on_action(action, height, &mut self.outbox),
            PaneId::Report => self.report.on_action(action, height, &mut self.outbox),
            PaneId::Agentic => self.agentic.on_action(action, height, &mut self.outbox),
            PaneId::Scm => self.scm.on_action(action, &mut self.outbox),
        }
    }

    fn switch_pane(&mut self, pane: PaneId) {
        if let Some(detail) = self.detail.take() {
            self.outbox.cancel(detail.pending());
        }
        self.pane = pane;
        match pane {
            PaneId::Issues => self.issues.activate(&mut self.outbox),
            PaneId::Report => self.report.activate(&mut self.outbox),
            PaneId::Agentic => self.agentic.activate(&mut self.outbox),
            PaneId::Scm => {}
        }
    }

    fn on_reply(&mut self, reply: Reply) {
        let Reply { id, result } = reply;
        if let Some(detail) = &mut self.detail
            && detail.pending() == Some(id)
        {
            detail.finish(id);
            let key = detail.issue.id.clone().unwrap_or_default();
            let entry = match result {
                Ok(ApiResponse::ListIssues(page)) => {
                    match page.issues.into_iter().find_map(|i| i.issue) {
                        Some(issue) => Enriched::Loaded(Box::new(issue)),
                        None => {
                            Enriched::Failed("the server returned no finding with this id".into())
                        }
                    }
                }
                Ok(_) => Enriched::Failed("unexpected answer".into()),
                Err(e) => {
                    self.outbox.error("Loading the finding failed", &e);
                    Enriched::Failed(e.to_string())
                }
            };
            self.enriched.insert(key, entry);
            return;
        }
        // Each pane takes only replies of its own request in flight; a reply
        // nobody takes is of a superseded request and is dropped.
        let result = match self.issues.on_reply(id, result, &mut self.outbox) {
            None => return,
            Some(r) => r,
        };
        let result = match self.report.on_reply(id, result, &mut self.outbox) {
            None => return,
            Some(r) => r,
        };
        let result = match self.agentic.on_reply(id, result, &mut self.outbox) {
            None => return,
            Some(r) => r,
        };
        let _ = self.scm.on_reply(id, result, &mut self.outbox);
    }

    fn on_mouse(&mut self, mouse: MouseEvent) {
        if self.overlay.is_some() {
            return;
        }
        let height = self.list_height();
        match mouse.kind {
            MouseEventKind::ScrollDown => {
                if let Some(d) = &mut self.detail {
                    d.on_action(Action::Down, height);
                } else {
                    self.pane_list_action(Action::Down, height);
                }
            }
            MouseEventKind::ScrollUp => {
                if let Some(d) = &mut self.detail {
                    d.on_action(Action::Up, height);
                } else {
                    self.pane_list_action(Action::Up, height);
                }
            }
            MouseEventKind::Down(crossterm::event::MouseButton::Left) if self.detail.is_none() => {
                let area = ratatui::layout::Rect::new(0, 0, self.size.0, self.size.1);
                let body = super::layout::screen(area).body;
                match self.pane {
                    PaneId::Issues => self.issues.click(body, mouse.column, mouse.row),
                    PaneId::Report => self.report.click(body, mouse.column, mouse.row),
                    PaneId::Agentic => self.agentic.click(body, mouse.column, mouse.row),
                    PaneId::Scm => {}
                }
            }
            _ => {}
        }
    }

    fn pane_list_action(&mut self, action: Action, height: usize) {
        match self.pane {
            PaneId::Issues => self.issues.on_action(action, height, &mut self.outbox),
            PaneId::Report => self.report.on_action(action, height, &mut self.outbox),
            PaneId::Agentic => self.agentic.on_action(action, height, &mut self.outbox),
            PaneId::Scm => self.scm.on_action(action, &mut self.outbox),
        }
    }

    /// `:view NAME`: a saved view's sort and filters on the Issues pane.
    fn apply_view(&mut self, name: Option<&str>) -> Result<(), String> {
        let names = || {
            let list: Vec<&str> = self.session.views.iter().map(|v| v.name.as_str()).collect();
            if list.is_empty() {
                "none (add [views.NAME] to the config file)".to_owned()
            } else {
                list.join(", ")
            }
        };
        let Some(name) = name else {
            // Not a mistake: the way to see them.
            self.status = Some(format!("saved views: {} (:view NAME applies one)", names()));
            return Ok(());
        };
        let Some(view) = self.session.views.iter().find(|v| v.name == name).cloned() else {
            return Err(format!(
                "no saved view {:?}; saved views: {}",
                crate::text::one_line(name),
                names()
            ));
        };
        self.switch_pane(PaneId::Issues);
        apply_view(&view, &mut self.issues)?;
        self.issues.reload(&mut self.outbox);
        self.status = Some(format!("view {}", crate::text::one_line(&view.name)));
        Ok(())
    }

    /// `:sort FIELD [asc|desc]`, `:filter FIELD=VALUE`, `:clear`, `:view NAME`, `:scm ID`, `:q`.
    fn run_command(&mut self, line: &str) {
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else { return };
        let rest: Vec<&str> = words.collect();
        let result: Result<(), String> = match cmd {
            "q" | "quit" | "q!" => {
                self.quit_now();
                Ok(())
            }
            "sort" => match self.pane {
                PaneId::Agentic => self.agentic.set_sort(&rest, &mut self.outbox),
                _ => {
                    self.switch_pane(PaneId::Issues);
                    self.issues.set_sort(&rest, &mut self.outbox)
                }
            },
            "filter" => {
                self.switch_pane(PaneId::Issues);
                self.issues.add_filter(&rest.join(" "), &mut self.outbox)
            }
            "clear" => {
                self.switch_pane(PaneId::Issues);
                self.issues.clear_filters(&mut self.outbox);
                Ok(())
            }
            "view" => self.apply_view(rest.first().copied()),
            "scm" => match rest.first() {
                Some(id) => {
                    self.switch_pane(PaneId::Scm);
                    self.scm.set_config_id(id);
                    Ok(())
                }
                None => Err("usage: :scm CONFIG_ID".into()),
            },
            other => Err(format!(
                "unknown command :{other} (try :sort FIELD [asc|desc], :filter FIELD=VALUE, :clear, :view NAME, :scm ID, :q)"
            )),
        };
        if let Err(message) = result {
            self.status = Some(message.clone());
            self.overlay = Some(Overlay::Error {
                title: "Command".into(),
                message,
            });
        }
    }
}

/// Opens the finding's line of code, if it is a web URL (it comes from the
/// server: anything else is refused).
pub fn open_url(outbox: &mut Outbox, issue: Option<&Issue>) {
    match issue.and_then(|i| i.line_of_code_url.as_deref()) {
        Some(url) if is_web_url(url) => {
            outbox.effects.push(Effect::OpenUrl(url.to_owned()));
            outbox.status(format!("opening {}", crate::text::one_line(url)));
        }
        Some(_) => outbox.status("the finding's URL is not an http(s) URL; not opened"),
        None => outbox.status("this finding has no line-of-code URL"),
    }
}

/// Copies the finding's URL, or its id when it has none.
pub fn copy_link(outbox: &mut Outbox, issue: Option<&Issue>) {
    let Some(issue) = issue else { return };
    let text = issue
        .line_of_code_url
        .as_deref()
        .filter(|u| is_web_url(u))
        .map(str::to_owned)
        .unwrap_or_else(|| issue.id().to_owned());
    if text.is_empty() {
        return;
    }
    outbox.status(format!("copied {}", crate::text::one_line(&text)));
    outbox.effects.push(Effect::Copy(text));
}

pub fn is_web_url(url: &str) -> bool {
    url::Url::parse(url).is_ok_and(|u| matches!(u.scheme(), "http" | "https"))
        && !url.chars().any(char::is_control)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::KeyModifiers;

    fn press(app: &mut App, code: KeyCode) -> Vec<Effect> {
        app.update(Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)))
    }

    #[test]
    fn a_status_message_lasts_until_the_next_key() {
        let mut app = App::new(
            Session::default(),
            Keymap::default_keymap(),
            Theme::default(),
            (100, 30),
        );
        app.start();
        press(&mut app, KeyCode::Esc);
        assert_eq!(app.status.as_deref(), Some("request cancelled"));
        // `r` goes on; the message of the cancel does not stay.
        let effects = press(&mut app, KeyCode::Char('r'));
        assert!(effects.iter().any(|e| matches!(e, Effect::Send { .. })));
        assert_eq!(app.status, None);
        // The key that closes a popup leaves its message in the status line.
        app.overlay = Some(Overlay::Error {
            title: "Loading findings failed".into(),
            message: "HTTP 503".into(),
        });
        app.status = Some("Loading findings failed: HTTP 503".into());
        press(&mut app, KeyCode::Esc);
        assert!(app.overlay.is_none());
        assert_eq!(
            app.status.as_deref(),
            Some("Loading findings failed: HTTP 503")
        );
    }

    #[test]
    fn q_with_an_unsent_scm_draft_asks_first() {
        let mut app = App::new(
            Session::default(),
            Keymap::default_keymap(),
            Theme::default(),
            (100, 30),
        );
        // No draft: q quits at once.
        press(&mut app, KeyCode::Char('q'));
        assert!(app.quit);

        let mut app = App::new(
            Session::default(),
            Keymap::default_keymap(),
            Theme::default(),
            (100, 30),
        );
        app.scm.draft.namespace = "acme".into();
        press(&mut app, KeyCode::Char('q'));
        assert!(!app.quit, "the first q only warns");
        assert!(app.status.as_deref().unwrap().contains("not been sent"));
        // Another key disarms it; q warns again, then q quits.
        press(&mut app, KeyCode::Char('j'));
        press(&mut app, KeyCode::Char('q'));
        assert!(!app.quit);
        press(&mut app, KeyCode::Char('q'));
        assert!(app.quit);
    }
}
