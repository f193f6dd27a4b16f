//! The application: the panes (through [`Pane`]), the finding detail, the
//! overlays, and `update`, the one place state changes. `update` does no
//! IO and never awaits; what should happen outside (requests, the browser,
//! the clipboard) comes back as [`Effect`]s for the event loop to carry
//! out, and every reply goes back to the pane or detail that asked.

mod actions;
mod asking;
mod command_line;
mod commands;
mod exporting;
mod exporting_view;
mod fetching;
pub mod help;
mod messages;
mod preview;
mod quitting;
mod triage;
pub mod view;

#[cfg(test)]
mod tests;

pub use super::message::{AppEvent, Effect, Msg, Outbox, PaneId};
pub use crate::state::session::{SavedView, Session};
pub use command_line::CommandLine;
pub use exporting::{CopyMenu, ExportPrompt};

use super::detail::{Cache, DetailView};
use super::keymap::{Action, Context, Keymap};
use super::layout::{self, Geometry, ScrollBound};
use super::message::{Owner, PaneMsg, Reply};
use super::pane::{Cx, Pane, ViewCx};
use super::panes;
use super::theme::Theme;
use crate::state::visits::Visits;
use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseEvent, MouseEventKind};
use findings_model::{Issue, Timestamp};
use std::any::Any;

impl Overlay {
    /// An error popup, at its top.
    pub fn error(title: impl Into<String>, message: impl Into<String>) -> Overlay {
        Overlay::Error {
            title: title.into(),
            message: message.into(),
            scroll: 0,
        }
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
        /// Lines scrolled past, never past the end.
        scroll: u16,
    },
    Command(CommandLine),
    /// The `e` prompt: format and file of an export.
    Export(ExportPrompt),
    /// The `y` menu: what to copy.
    CopyMenu(CopyMenu),
    /// A yes/no question (quitting with unsent work, dropping what is
    /// loaded); `nagged`: a key that is not an answer was pressed.
    Question {
        question: Box<crate::message::Question>,
        nagged: bool,
    },
}

pub struct App {
    pub session: Session,
    /// Every pane, in tab order (see [`panes::registry`]).
    panes: Vec<Box<dyn Pane>>,
    /// The pane on show.
    pub pane: PaneId,
    pub detail: Option<DetailView>,
    /// The detail beside the list has the keys (`Enter` moved into it).
    pub detail_focus: bool,
    /// Findings fetched for the detail, by id.
    pub enriched: Cache,
    pub overlay: Option<Overlay>,
    pub status: Option<String>,
    /// What the status line said (`:messages`).
    messages: messages::Messages,
    pub keymap: Keymap,
    pub theme: Theme,
    /// Terminal size in cells.
    pub size: (u16, u16),
    /// Where things go on screen: computed on resize and when the layout
    /// mode (the detail open or not) changes; update and view both read it.
    pub geometry: Geometry,
    pub spinner: usize,
    pub outbox: Outbox,
    pub quit: bool,
    /// Exports handed out and not yet written (quitting asks first).
    pub exports_running: usize,
    /// The `:` commands run this session, oldest first (Up recalls them).
    pub command_history: Vec<String>,
    /// Findings being fetched whole for a link, a copy or an export.
    pub fetching: Option<fetching::Fetching>,
    /// The format of the last export (the next prompt offers it first).
    pub export_format: findings_export::Format,
    /// The columns of the last export with columns from a pane, as typed
    /// (the next prompt of that pane offers them, not the list's again).
    pub export_columns: Vec<(crate::message::PaneId, String)>,
    /// The triage dialog, its draft, the one triage in flight and what
    /// `u` undoes.
    pub triage: crate::triage::Triage,
    /// The Act menu (`A`): tickets, fixes, feedback, memories.
    pub actions: crate::actions::Actions,
    /// When the message being handled happened.
    now: Timestamp,
}

impl App {
    pub fn new(session: Session, keymap: Keymap, theme: Theme, size: (u16, u16)) -> App {
        let panes = panes::registry(&session);
        let pane = session
            .default_pane
            .filter(|id| panes.iter().any(|p| p.id() == *id))
            .unwrap_or(panes::START);
        let mut app = App {
            panes,
            pane,
            detail: None,
            detail_focus: false,
            enriched: Cache::new(),
            overlay: None,
            status: None,
            messages: messages::Messages::default(),
            keymap,
            theme,
            size,
            geometry: Geometry::new(size, false),
            spinner: 0,
            outbox: match session.offline {
                Some(_) => Outbox::read_only_because(crate::message::READ_ONLY_OFFLINE),
                None => Outbox::new(session.read_only),
            },
            quit: false,
            exports_running: 0,
            fetching: None,
            command_history: Vec::new(),
            export_format: findings_export::Format::Csv,
            export_columns: Vec::new(),
            now: chrono::Utc::now(),
            actions: crate::actions::Actions::new(
                &session.deployment,
                session.read_only || session.offline.is_some(),
                session.remembered_by(crate::actions::REMEMBERED_AS),
            ),
            triage: crate::triage::Triage::new(&session.deployment)
                .confirming_above(session.triage_confirm_above),
            session,
        };
        // A profile's start settings that do not apply are said at once.
        let notes: Vec<String> = app
            .panes
            .iter_mut()
            .filter_map(|p| p.start_note())
            .collect();
        app.status = (!notes.is_empty()).then(|| notes.join("; "));
        app
    }

    /// The pane of type `P` (for commands, tests and tools).
    pub fn pane_of<P: Pane>(&self) -> &P {
        self.panes
            .iter()
            .find_map(|p| (p.as_ref() as &dyn Any).downcast_ref::<P>())
            .expect("every pane type is registered")
    }

    pub fn pane_of_mut<P: Pane>(&mut self) -> &mut P {
        self.panes
            .iter_mut()
            .find_map(|p| (p.as_mut() as &mut dyn Any).downcast_mut::<P>())
            .expect("every pane type is registered")
    }

    /// Every pane, in tab order.
    pub fn panes(&self) -> impl Iterator<Item = &dyn Pane> {
        self.panes.iter().map(|p| p.as_ref())
    }

    fn index_of(&self, id: PaneId) -> usize {
        self.panes.iter().position(|p| p.id() == id).unwrap_or(0)
    }

    /// The pane on show.
    pub fn current(&self) -> &dyn Pane {
        self.panes[self.index_of(self.pane)].as_ref()
    }

    /// Runs `f` on pane `id` with an update context; requests it sends are
    /// its own.
    fn with_pane<R>(&mut self, id: PaneId, f: impl FnOnce(&mut dyn Pane, &mut Cx) -> R) -> R {
        let index = self.index_of(id);
        self.outbox.act_for(Owner::Pane(id, Default::default()));
        let mut cx = Cx {
            outbox: &mut self.outbox,
            now: self.now,
            area: self.geometry.screen.body,
            keymap: &self.keymap,
        };
        f(self.panes[index].as_mut(), &mut cx)
    }

    /// What drawing reads besides the state.
    pub fn view_cx(&self) -> ViewCx<'_> {
        ViewCx {
            theme: &self.theme,
            keymap: &self.keymap,
            spinner: self.spinner,
            deployment: &self.session.deployment,
            now: self.now,
        }
    }

    /// The first effects: the first pane (Issues unless the config says
    /// otherwise) asks for its data at once.
    pub fn start(&mut self) -> Vec<Effect> {
        self.start_at(chrono::Utc::now())
    }

    /// [`App::start`] at `now` (the loop's clock).
    pub fn start_at(&mut self, now: Timestamp) -> Vec<Effect> {
        self.now = now;
        self.with_pane(self.pane, |p, cx| p.activate(cx));
        // The other tabs' counts, so the header says what each holds.
        let others: Vec<PaneId> = self
            .panes()
            .map(|p| p.id())
            .filter(|id| *id != self.pane)
            .collect();
        for id in others {
            self.with_pane(id, |p, cx| p.count_for_tab(cx));
        }
        self.finish()
    }

    /// Whether anything is being fetched (the spinner runs only then).
    pub fn is_loading(&self) -> bool {
        self.triage.is_loading()
            || self.fetching.is_some()
            || self.actions.is_loading()
            // A preview waiting for the cursor to rest needs the clock.
            || self.detail.as_ref().is_some_and(|d| d.hold_until.is_some())
            || self.panes.iter().any(|p| p.is_loading())
            || self.detail.as_ref().is_some_and(DetailView::is_loading)
    }

    /// Whether a pane has work left to do a slice at a time (the loop
    /// sends [`Msg::Work`] until none is, input first).
    pub fn has_work(&self) -> bool {
        self.panes.iter().any(|p| p.work_left().is_some())
    }

    /// One slice of each pane's work left.
    fn work(&mut self) {
        let busy: Vec<PaneId> = self
            .panes
            .iter()
            .filter(|p| p.work_left().is_some())
            .map(|p| p.id())
            .collect();
        for id in busy {
            self.with_pane(id, |p, cx| p.work(cx));
        }
    }

    /// An action on the rows shown (`what`) while the pane's work leaves
    /// them partial: refused and said (see [`crate::pane::waits_for_work`]).
    fn waits_for_work(&mut self, what: &str) -> bool {
        let Some(note) = self.current().work_left() else {
            return false;
        };
        self.status = Some(crate::pane::waits_for_work(&note, what));
        true
    }

    /// When each pane's list was asked for: the visits to record.
    pub fn visits(&self) -> Visits {
        self.panes
            .iter()
            .filter_map(|p| Some((p.id(), p.seen_at()?)))
            .collect()
    }

    /// The help overlay's heading of a key context: the app's own, or the
    /// pane's that declares it.
    pub fn context_title(&self, context: Context) -> &'static str {
        Context::APP
            .iter()
            .chain(self.panes.iter().flat_map(|p| p.key_contexts()))
            .find(|(c, _)| *c == context)
            .map_or(context.name(), |(_, title)| title)
    }

    /// The key contexts in force, innermost first (also what help shows).
    pub fn contexts(&self) -> Vec<Context> {
        match &self.overlay {
            Some(Overlay::Help { .. }) => return vec![Context::HELP],
            Some(Overlay::Error { .. }) => return vec![Context::POPUP],
            Some(
                Overlay::Command(_)
                | Overlay::Export(_)
                | Overlay::CopyMenu(_)
                | Overlay::Question { .. },
            ) => return vec![],
            None if self.triage.is_open() || self.actions.is_open() => return vec![],
            None => {}
        }
        let mut list = self.pane_contexts();
        list.push(Context::GLOBAL);
        list
    }

    /// The contexts of what has the keys under the overlays: the detail,
    /// else the pane on show.
    pub fn pane_contexts(&self) -> Vec<Context> {
        if self.detail_has_keys() {
            vec![Context::DETAIL]
        } else {
            self.current().contexts()
        }
    }

    fn text_input_active(&self) -> bool {
        matches!(
            self.overlay,
            Some(
                Overlay::Command(_)
                    | Overlay::Export(_)
                    | Overlay::CopyMenu(_)
                    | Overlay::Question { .. }
            )
        ) || (self.overlay.is_none() && (self.triage.is_open() || self.actions.is_open()))
            || (self.overlay.is_none()
                && !self.detail_has_keys()
                && self.current().text_input_active())
    }

    /// Rows the list of the pane on show has on screen (for paging).
    pub fn list_height(&self) -> usize {
        self.current().list_rows(self.geometry.list)
    }

    /// Handles one message and returns the effects to carry out, reading
    /// the clock for the message's time (see [`App::update_at`]).
    pub fn update(&mut self, msg: Msg) -> Vec<Effect> {
        self.update_at(msg, chrono::Utc::now())
    }

    /// Handles one message that happened at `now`: the same message at the
    /// same time always does the same.
    pub fn update_at(&mut self, msg: Msg, now: Timestamp) -> Vec<Effect> {
        self.now = now;
        match msg {
            Msg::Key(key) if key.kind != KeyEventKind::Release => {
                // A message lasts until the next key ("request cancelled"
                // must not outlive the reload that follows it); the key
                // that closes a popup leaves the popup's message showing.
                if self.overlay.is_none() {
                    self.status = None;
                }
                self.on_key(key);
            }
            Msg::Key(_) => {}
            Msg::Mouse(mouse) => self.on_mouse(mouse),
            Msg::Resize(w, h) => self.size = (w, h),
            Msg::Reply(reply) => self.on_reply(reply),
            Msg::Tick => self.spinner = self.spinner.wrapping_add(1),
            Msg::Work => self.work(),
            Msg::Exported { path, result } => exporting::exported(self, path, result),
            Msg::Opened { url, result } => {
                crate::list::findings_list::opened(&mut self.status, &url, result);
            }
            Msg::SavedView { pane, view, result } => {
                self.hand_to_pane(pane, PaneMsg::ViewSaved { view, result });
            }
        }
        self.finish()
    }

    /// Runs what panes asked of the app, prefetches, and hands out effects.
    fn finish(&mut self) -> Vec<Effect> {
        self.relayout();
        self.with_pane(self.pane, |p, cx| p.after_update(cx));
        // What an event does may raise more (a fetch answered from the
        // cache says so at once): until none is left.
        while !self.outbox.events.is_empty() {
            self.take_events();
        }
        self.relayout();
        if let Some(detail) = &mut self.detail {
            self.outbox.act_for(Owner::Detail);
            detail.ensure_data(&self.enriched, &mut self.outbox, self.now);
        }
        self.messages.note(self.now, self.status.as_deref());
        std::mem::take(&mut self.outbox.effects)
    }

    /// Runs what panes asked of the app.
    fn take_events(&mut self) {
        for event in std::mem::take(&mut self.outbox.events) {
            match event {
                AppEvent::OpenDetail(issue) => self.open_detail(*issue),
                AppEvent::Fetch(fetch) => self.start_fetch(*fetch),
                AppEvent::Error { title, message } => {
                    self.status = Some(format!("{title}: {message}"));
                    self.overlay = Some(Overlay::error(title, message));
                }
                AppEvent::Status(text) => self.status = Some(text),
                AppEvent::Ask(question) => self.ask(*question),
                AppEvent::Changed(change) => self.on_changed(change),
                AppEvent::ToPane(pane, msg) => self.hand_to_pane(pane, msg),
            }
        }
    }

    /// Computes the geometry again if the size or the layout mode changed.
    fn relayout(&mut self) {
        let detail_open = self.detail.is_some();
        if !self.geometry.is_for(self.size, detail_open) {
            self.geometry = Geometry::new(self.size, detail_open);
        }
    }

    /// Hands `msg` to pane `pane`; a message to be seen (a narrowed list)
    /// closes the detail and shows the pane first.
    fn hand_to_pane(&mut self, pane: PaneId, msg: PaneMsg) {
        if msg.shows_pane() {
            if let Some(mut detail) = self.detail.take() {
                self.outbox.cancel(detail.close());
            }
            if self.pane != pane {
                self.switch_pane(pane);
            }
        }
        self.with_pane(pane, |p, cx| p.on_message(msg, cx));
    }

    fn open_detail(&mut self, issue: Issue) {
        self.detail = Some(DetailView::new(issue));
        // Beside the list, the list keeps the keys: the detail previews.
        self.detail_focus = false;
    }

    fn on_key(&mut self, key: KeyEvent) {
        let is_ctrl_c =
            key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL);
        if is_ctrl_c {
            return self.on_ctrl_c();
        }
        if self.is_suspend_key(&key) {
            return self.suspend();
        }
        if self.text_input_active() {
            self.on_text_key(key);
            return;
        }
        let Some(k) = crate::keymap::key_of_event(&key) else {
            return;
        };
        let contexts = self.contexts();
        let Some(action) = self.keymap.action(&contexts, &k) else {
            // A key that does nothing says so, rather than nothing at all.
            if self.overlay.is_none() {
                self.status = Some(format!("{k}: not bound here (? lists the keys)"));
            }
            return;
        };
        self.on_action(action);
    }

    /// Ctrl-z while it is the suspend key: no prompt uses it (a keymap's
    /// other Ctrl key may be a prompt's, as Ctrl-s reviews a triage), so it
    /// suspends from anywhere, as Ctrl-c quits from anywhere.
    fn is_suspend_key(&self, key: &KeyEvent) -> bool {
        key.code == KeyCode::Char('z')
            && key.modifiers.contains(KeyModifiers::CONTROL)
            && crate::keymap::key_of_event(key)
                .and_then(|k| self.keymap.action(&[Context::GLOBAL], &k))
                == Some(Action::Suspend)
    }

    /// Suspends, except while a write is in flight: a process stopped
    /// between a triage's requests (or with one unanswered) leaves the
    /// change half made for as long as it stays stopped, and its answer
    /// may come too late to be read.
    fn suspend(&mut self) {
        let sending = if self.triage.in_flight() {
            "a triage is"
        } else if self.actions.in_flight() {
            "an action is"
        } else {
            return self.outbox.effects.push(Effect::Suspend);
        };
        self.status = Some(format!(
            "Ctrl-z: not while {sending} being sent (stopped, it would be left half done); \
             again once it is answered"
        ));
    }

    fn quit_now(&mut self) {
        self.quit = true;
        self.outbox.effects.push(Effect::Quit);
    }

    fn on_text_key(&mut self, key: KeyEvent) {
        match &self.overlay {
            Some(Overlay::Export(_)) => return exporting::on_export_key(self, key),
            Some(Overlay::CopyMenu(_)) => return exporting::on_copy_key(self, key),
            Some(Overlay::Question { .. }) => return self.on_question_key(key),
            None if self.triage.is_open() => return self.on_triage_key(key),
            None if self.actions.is_open() => return self.on_actions_key(key),
            _ => {}
        }
        if let Some(Overlay::Command(_)) = &self.overlay {
            return command_line::on_key(self, key);
        }
        self.with_pane(self.pane, |p, cx| p.on_text_key(key, cx));
    }

    fn on_action(&mut self, action: Action) {
        // Overlays first.
        if let Some(Overlay::Help { scroll }) = self.overlay {
            // The help's end, from the state and the body's geometry.
            let shown = help::HelpBox::new(self, self.geometry.screen.body);
            self.overlay = shown
                .scrolled(scroll, action)
                .map(|scroll| Overlay::Help { scroll });
            return;
        }
        if let Some(Overlay::Error {
            message, scroll, ..
        }) = &mut self.overlay
        {
            // Keys that scroll scroll (up to the end), the rest dismiss.
            let body = self.geometry.screen.body;
            let lines = help::error_lines(message, body).len();
            let (page, end) = layout::dialog_rows(body, lines);
            match (ScrollBound { end, page }).after(*scroll, action) {
                Some(next) => *scroll = next,
                None => self.overlay = None,
            }
            return;
        }
        if self.on_app_action(action) {
            return;
        }
        // Esc stops a fetch for a link, copy or export first.
        if action == Action::Back && self.stop_fetch() {
            return;
        }
        if self.detail_has_keys() {
            return self.on_detail_action(action);
        }
        if self.detail.is_some() && self.on_preview_action(action) {
            return;
        }
        match action {
            Action::Export if self.waits_for_work("export") => {}
            Action::CopyMenu if self.waits_for_work("copy") => {}
            Action::Export => exporting::open_export(self),
            Action::CopyMenu => exporting::open_copy_menu(self),
            _ => self.with_pane(self.pane, |p, cx| p.on_action(action, cx)),
        }
        self.follow_selection();
    }

    /// What the app itself does with a key, wherever it is pressed: quit,
    /// help, the command line, switching panes. `false`: not the app's.
    fn on_app_action(&mut self, action: Action) -> bool {
        match action {
            Action::ForceQuit => self.on_ctrl_c(),
            Action::Quit => self.ask_to_quit(),
            Action::Suspend => self.suspend(),
            Action::Help => self.overlay = Some(Overlay::Help { scroll: 0 }),
            Action::CommandLine => self.overlay = Some(Overlay::Command(CommandLine::default())),
            Action::ShowPane(name) => match self.panes.iter().find(|p| p.id().0 == name.as_str()) {
                Some(p) => self.switch_pane(p.id()),
                // The keymap is checked at the start; a test's may not be.
                None => self.status = Some(format!("no pane {name}")),
            },
            Action::Triage if self.waits_for_work("triage") => {}
            Action::Triage => self.open_triage(),
            Action::UndoTriage => self.undo_triage(),
            Action::Act if self.waits_for_work("the Act menu") => {}
            Action::Act => self.open_actions(),
            Action::NextPane => self.switch_by(1),
            Action::PrevPane => self.switch_by(self.panes.len() - 1),
            _ => return false,
        }
        true
    }

    fn on_detail_action(&mut self, action: Action) {
        let Some(detail) = &mut self.detail else {
            return;
        };
        if action == Action::Back {
            if self.detail_focus && self.geometry.list.width > 0 {
                // Beside the list: the keys go back to it.
                self.detail_focus = false;
                return;
            }
            let cancel = detail.close();
            self.outbox.cancel(cancel);
            self.detail = None;
            return;
        }
        let rows = self.geometry.detail_rows();
        self.outbox.act_for(Owner::Detail);
        detail.on_action(action, rows, &mut self.enriched, &mut self.outbox);
    }

    /// Shows the pane `step` places on in tab order.
    fn switch_by(&mut self, step: usize) {
        let next = (self.index_of(self.pane) + step) % self.panes.len();
        self.switch_pane(self.panes[next].id());
    }

    fn switch_pane(&mut self, pane: PaneId) {
        if let Some(detail) = self.detail.take() {
            self.outbox.cancel(detail.pending());
        }
        self.pane = pane;
        self.relayout();
        self.with_pane(pane, |p, cx| p.activate(cx));
    }

    /// A reply goes straight to the one who asked; a reply nobody waits
    /// for (its request was cancelled or superseded) is dropped.
    fn on_reply(&mut self, reply: Reply) {
        let Reply { id, result } = reply;
        // A page of a stream: more come under the same id.
        let owner = match &result {
            Ok(super::message::ApiResponse::RowsSoFar(_)) => self.outbox.owner_so_far(id),
            _ => self.outbox.owner_of(id),
        };
        match owner {
            Some(Owner::Pane(pane, slot)) => {
                self.with_pane(pane, |p, cx| p.on_reply(slot, id, result, cx));
            }
            Some(Owner::Detail) => {
                if let Some(detail) = &mut self.detail {
                    self.outbox.act_for(Owner::Detail);
                    detail.on_reply(id, result, &mut self.enriched, &mut self.outbox);
                }
            }
            Some(Owner::Triage) => {
                self.outbox.act_for(Owner::Triage);
                self.triage.on_reply(id, result, self.now, &mut self.outbox);
            }
            Some(Owner::Fetch) => self.on_fetch_reply(id, result),
            Some(Owner::Actions) => {
                self.outbox.act_for(Owner::Actions);
                self.actions.on_reply(id, result, &mut self.outbox);
            }
            Some(Owner::App) | None => {}
        }
    }

    fn on_mouse(&mut self, mouse: MouseEvent) {
        if self.overlay.is_some() {
            return;
        }
        let scroll = match mouse.kind {
            MouseEventKind::ScrollDown => Action::Down,
            MouseEventKind::ScrollUp => Action::Up,
            MouseEventKind::Down(crossterm::event::MouseButton::Left)
                if !self.detail_has_keys() =>
            {
                let body = self.geometry.screen.body;
                self.with_pane(self.pane, |p, _| p.click(body, mouse.column, mouse.row));
                return self.follow_selection();
            }
            _ => return,
        };
        if self.detail_has_keys() {
            self.on_detail_action(scroll);
        } else {
            self.with_pane(self.pane, |p, cx| p.on_action(scroll, cx));
        }
    }
}
