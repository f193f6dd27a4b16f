//! The SCM config pane. It opens on the deployment's configs as listed
//! (`ScmService_ListScmConfig`, docs/src/api.md §15) with their current values;
//! `Enter` edits one: a draft of a partial update (docs/src/api.md §14) that
//! starts from the config's values, a review of each change (`from → to`)
//! and of the exact body, one PATCH on confirmation (never retried,
//! docs/src/api.md §13), and the config the server returns, checked against
//! what was asked.
//!
//! A draft belongs to one config: opening another keeps it aside (the list
//! marks it) and never applies it there. When the list cannot be had, a
//! config is still edited by its id (`:scm ID`, or the config id row).
//!
//! The access token is a secret: it is kept only in the draft (and in the
//! request handed to the worker), never drawn, never put in a status or an
//! error string, and masked in `Debug`.

mod config_view;
mod draft;
mod list;
mod list_view;
mod view;

pub use draft::{Draft, Prepared, Row};
pub use list::{ConfigList, Load};

use crate::keymap::{Action, Context, Keymap};
use crate::message::{
    self, ApiRequest, ApiResponse, ApiResult, AppEvent, Outbox, PaneId, ReplySlot, RequestId,
};
use crate::pane::{Cx, Pane, ViewCx};
use crate::state::session::Session;
use crossterm::event::{KeyCode, KeyEvent};
use findings_client::WriteOutcome;
use findings_model::{ScmConfig, ScmConfigResponse, update_mismatches};
use ratatui::Frame;
use ratatui::layout::Rect;
use std::collections::BTreeMap;
use tui_input::Input;
use tui_input::backend::crossterm::EventHandler;

pub const ID: PaneId = PaneId("scm");

/// What the pane's requests are for: each reply comes back in its slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// The list of configs.
    Configs,
    /// The one update in flight (a write).
    Update,
}

impl ReplySlot for Slot {
    const ALL: &'static [Slot] = &[Slot::Configs, Slot::Update];
}

/// The keys of the config list, and of a config being edited.
pub const LIST_KEYS: Context = Context::named("scm_list");
pub const KEYS: Context = Context::named("scm");

/// Said when the PATCH may or may not have reached the server.
pub const OUTCOME_UNKNOWN: &str =
    "outcome unknown: the update may or may not have been applied; it was not retried";

/// Said when the server answered 2xx with a body that could not be read.
pub const PROBABLY_APPLIED: &str = "outcome unknown: the server accepted the request (2xx) but its answer could not be read, so the update was probably applied; it was not retried";

/// Lines a page key scrolls the review or the returned config.
const PAGE: u16 = 10;

/// What the pane shows: the configs, or the form of one.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Mode {
    #[default]
    List,
    Form,
}

/// Where the pane is in its flow.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Step {
    #[default]
    Editing,
    Review,
    Sending,
    Sent,
    Failed,
}

impl Step {
    pub fn label(self) -> &'static str {
        match self {
            Step::Editing => "editing",
            Step::Review => "review",
            Step::Sending => "sending",
            Step::Sent => "sent",
            Step::Failed => "failed",
        }
    }
}

/// A failed PATCH, as shown (the token is never in it).
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    pub message: String,
    /// A note on whether the update happened (timeouts, dropped
    /// connections, unreadable answers).
    pub note: Option<&'static str>,
}

#[derive(Default)]
pub struct ScmPane {
    pub read_only: bool,
    /// Browsing a snapshot: it holds no SCM configs, and says so.
    pub offline: bool,
    pub mode: Mode,
    /// The configs as last listed.
    pub list: ConfigList,
    /// The draft of the config in the form.
    pub draft: Draft,
    /// Drafts of other configs, with unsent changes, by config id.
    pub kept: BTreeMap<String, Draft>,
    /// Index into [`Row::ALL`].
    pub selected: usize,
    /// The text row being edited (Enter keeps, Esc discards).
    pub editing: Option<Input>,
    pub step: Step,
    /// The checked request on the Review step (it holds the token).
    pub review: Option<Prepared>,
    /// The last request sent (in flight or answered), the token replaced
    /// by `***`.
    pub attempt: Option<Prepared>,
    in_flight: Option<RequestId>,
    /// Why the draft cannot be reviewed.
    pub problem: Option<String>,
    pub failure: Option<Failure>,
    /// The answer of the last successful PATCH.
    pub returned: Option<ScmConfigResponse>,
    /// What that answer shows was not done as asked.
    pub mismatches: Vec<String>,
    /// Scroll of the review / returned config panel.
    pub scroll: u16,
    /// How far the panel can scroll, as last drawn.
    pub panel_max_scroll: std::cell::Cell<Option<u16>>,
}

impl std::fmt::Debug for ScmPane {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // `editing` may hold the token being typed: only whether it is open.
        f.debug_struct("ScmPane")
            .field("read_only", &self.read_only)
            .field("mode", &self.mode)
            .field("list", &self.list.configs.len())
            .field("draft", &self.draft)
            .field("kept", &self.kept)
            .field("selected", &self.selected_row())
            .field("editing", &self.editing.is_some())
            .field("step", &self.step)
            .field(
                "review",
                &self.review.as_ref().map(Prepared::without_secret),
            )
            .field("attempt", &self.attempt)
            .field("in_flight", &self.in_flight)
            .field("problem", &self.problem)
            .field("failure", &self.failure)
            .field("returned", &self.returned)
            .field("mismatches", &self.mismatches)
            .finish()
    }
}

impl ScmPane {
    pub fn new(session: &Session) -> Self {
        ScmPane {
            read_only: session.read_only || session.offline.is_some(),
            offline: session.offline.is_some(),
            ..Default::default()
        }
    }

    pub fn selected_row(&self) -> Row {
        Row::ALL[self.selected.min(Row::ALL.len() - 1)]
    }

    /// The request shown on the right: the one under review, else the one
    /// sent last.
    pub fn shown_request(&self) -> Option<&Prepared> {
        self.review.as_ref().or(self.attempt.as_ref())
    }

    /// Whether config `id` has a draft with unsent changes.
    pub fn has_draft(&self, id: &str) -> bool {
        self.kept.contains_key(id) || (self.draft.is_for(id) && self.draft.changes() > 0)
    }

    /// Opens the form on config `id`: its kept draft, else a new one from
    /// its listed values. The draft in the form stays with its own config.
    pub fn set_config_id(&mut self, id: &str) -> Result<(), String> {
        let id = id.trim();
        if self.in_flight.is_some() && !self.draft.is_for(id) {
            return Err(
                "the update is in flight: wait for its answer before opening another config".into(),
            );
        }
        if !self.draft.is_for(id) {
            let next = self
                .kept
                .remove(id)
                .unwrap_or_else(|| Draft::new(id, self.list.find(id).cloned()));
            let previous = std::mem::replace(&mut self.draft, next);
            if previous.changes() > 0 && !previous.config_id.is_empty() {
                self.kept.insert(previous.config_id.clone(), previous);
            }
            self.returned = None;
            self.failure = None;
            self.attempt = None;
            self.mismatches.clear();
        }
        if let Some(row) = self
            .list
            .configs
            .iter()
            .position(|c| c.id.as_deref() == Some(id))
        {
            self.list.selected = row;
        }
        self.mode = Mode::Form;
        self.selected = 0;
        self.editing = None;
        self.scroll = 0;
        if self.step == Step::Review {
            self.review = None;
            self.step = Step::Editing;
        }
        self.edited();
        Ok(())
    }

    /// Mouse wheel (Up/Down) and page keys scroll the right-hand panel.
    fn scroll_action(&mut self, action: Action) -> bool {
        // Bounded by what the view last drew (unbounded before a draw).
        let max = self.panel_max_scroll.get().unwrap_or(u16::MAX);
        match action {
            Action::Down => self.scroll = self.scroll.saturating_add(1).min(max),
            Action::Up => self.scroll = self.scroll.saturating_sub(1),
            Action::PageDown => self.scroll = self.scroll.saturating_add(PAGE).min(max),
            Action::PageUp => self.scroll = self.scroll.saturating_sub(PAGE),
            _ => return false,
        }
        true
    }

    fn form_action(&mut self, action: Action, outbox: &mut Outbox, keymap: &Keymap) {
        let n = Row::ALL.len();
        let row = self.selected_row();
        let needs_id = row != Row::ConfigId && row != Row::Review;
        if needs_id
            && self.draft.config_id.is_empty()
            && matches!(action, Action::Toggle | Action::Submit | Action::ClearField)
        {
            self.problem =
                Some("choose a config first: type its id in the config id row (or :scm ID)".into());
            return;
        }
        match action {
            Action::NextField => self.selected = (self.selected + 1) % n,
            Action::PrevField => self.selected = (self.selected + n - 1) % n,
            // Only toggle rows cycle; Space elsewhere does nothing.
            Action::Toggle => self.cycle(),
            Action::Submit => {
                if row == Row::Review {
                    self.open_review(outbox, keymap);
                } else if row.is_toggle() {
                    self.cycle();
                } else if row.is_text() {
                    // A token is typed afresh (the old one is never shown).
                    let start = self.draft.edit_start(row).unwrap_or_default();
                    self.editing = Some(Input::new(start));
                }
            }
            Action::Review => self.open_review(outbox, keymap),
            Action::ClearField if row != Row::Review => {
                self.draft.reset(row);
                self.edited();
            }
            Action::Back => {
                self.mode = Mode::List;
                self.problem = None;
                if self.draft.changes() > 0 {
                    outbox.status(format!(
                        "the draft of SCM config {} is kept (✎ in the list)",
                        findings_base::text::one_line(&self.draft.config_id)
                    ));
                }
            }
            _ => {}
        }
    }

    fn cycle(&mut self) {
        if self.draft.cycle(self.selected_row()) {
            self.edited();
        }
    }

    /// The draft changed: back to editing (what was returned or what failed
    /// stays on show until the next send).
    fn edited(&mut self) {
        self.problem = None;
        if matches!(self.step, Step::Sent | Step::Failed) {
            self.step = Step::Editing;
        }
    }

    fn open_review(&mut self, outbox: &mut Outbox, keymap: &Keymap) {
        match self.draft.prepare(&keymap.hint(KEYS, Action::ClearField)) {
            Ok(prepared) => {
                self.review = Some(prepared);
                self.problem = None;
                self.step = Step::Review;
                self.scroll = 0;
            }
            Err(problem) => {
                outbox.status(format!("not ready to review: {problem}"));
                self.problem = Some(problem);
            }
        }
    }

    /// Sends the reviewed request, once.
    fn confirm(&mut self, outbox: &mut Outbox) {
        if self.read_only {
            outbox.status("read-only: the SCM config update is not sent");
            return;
        }
        if self.in_flight.is_some() {
            return;
        }
        let Some(prepared) = self.review.take() else {
            self.step = Step::Editing;
            return;
        };
        let request = ApiRequest::UpdateScm {
            config_id: prepared.config_id.clone(),
            patch: prepared.patch.clone(),
        };
        match outbox.in_slot(Slot::Update, |o| o.send(request)) {
            Some(id) => {
                self.in_flight = Some(id);
                self.attempt = Some(prepared.without_secret());
                self.failure = None;
                self.mismatches.clear();
                self.step = Step::Sending;
                self.scroll = 0;
            }
            // Refused (read-only): the app shows why; stay on the review.
            None => self.review = Some(prepared),
        }
    }

    /// The PATCH was answered: the form shows what came back with nothing
    /// pending, the list row too, and anything not done as asked is said.
    fn applied(&mut self, response: ScmConfigResponse, outbox: &mut Outbox) {
        let attempt = self.attempt.clone();
        let config_id = attempt
            .as_ref()
            .map(|p| p.config_id.clone())
            .unwrap_or_default();
        let shown_id = findings_base::text::one_line(&config_id).into_owned();
        // An answer for another config is not taken as this one's.
        let config = response
            .config
            .clone()
            .filter(|c| c.id.as_deref().is_none_or(|id| id == config_id))
            .map(|c| ScmConfig {
                id: Some(config_id.clone()),
                ..c
            });
        self.mismatches = match (&config, &attempt) {
            (Some(c), Some(a)) => update_mismatches(&a.patch, a.before.as_ref(), c),
            (None, _) if response.config.is_some() => {
                vec!["the server answered with another config: whether the update was applied cannot be told".into()]
            }
            _ => vec![
                "the server returned no config: whether the update was applied cannot be told"
                    .into(),
            ],
        };
        if let Some(c) = &config {
            self.list.update(c);
        } else {
            // What the config now holds is not known: ask.
            self.load_list(outbox);
        }
        self.draft = Draft::new(&config_id, config);
        self.returned = Some(response);
        self.failure = None;
        self.step = Step::Sent;
        if self.mismatches.is_empty() {
            outbox.status(format!("SCM config {shown_id} updated"));
        } else {
            outbox.status(format!(
                "SCM config {shown_id} answered, but {}",
                self.mismatches.join("; ")
            ));
            outbox.events.push(AppEvent::Error {
                title: "SCM update not applied as asked".into(),
                message: self.mismatches.join("\n"),
            });
        }
    }

    /// Keeps the whole draft; shows and raises the error, never the token.
    fn fail(&mut self, message: String, note: Option<&'static str>, outbox: &mut Outbox) {
        let message = self.redact(message);
        let popup = match note {
            Some(note) => format!("{message}\n\n{note}"),
            None => message.clone(),
        };
        outbox.events.push(AppEvent::Error {
            title: "SCM update failed".into(),
            message: popup,
        });
        self.failure = Some(Failure { message, note });
        self.step = Step::Failed;
    }

    /// Removes the token from text that will be shown (a server could echo
    /// it back in an error).
    fn redact(&self, text: String) -> String {
        let mut text = text;
        for secret in [
            self.draft.access_token.as_str(),
            self.draft.access_token.trim(),
        ] {
            if !secret.is_empty() && text.contains(secret) {
                text = text.replace(secret, "***");
            }
        }
        text
    }

    /// How many configs have changes not sent yet (or whose sending is
    /// still under way): what quitting would lose.
    pub fn unsent_drafts(&self) -> usize {
        self.kept.len() + usize::from(self.draft.changes() > 0)
    }
}

impl Pane for ScmPane {
    fn id(&self) -> PaneId {
        ID
    }

    fn title(&self) -> &'static str {
        "SCM"
    }

    fn contexts(&self) -> Vec<Context> {
        match (self.mode, self.step) {
            (Mode::List, _) => vec![LIST_KEYS],
            (_, Step::Review | Step::Sending) => vec![Context::REVIEW],
            _ => vec![KEYS],
        }
    }

    fn key_contexts(&self) -> &'static [(Context, &'static str)] {
        &[(LIST_KEYS, "SCM configs"), (KEYS, "SCM config")]
    }

    fn text_input_active(&self) -> bool {
        self.editing.is_some()
    }

    fn is_loading(&self) -> bool {
        self.in_flight.is_some() || self.list.is_loading()
    }

    /// The first time: the configs are asked for.
    fn activate(&mut self, cx: &mut Cx) {
        if self.list.load == Load::NotAsked {
            self.load_list(cx.outbox);
        }
    }

    fn on_action(&mut self, action: Action, cx: &mut Cx) {
        let outbox = &mut *cx.outbox;
        if self.mode == Mode::List {
            return self.list_action(action, outbox);
        }
        if self.scroll_action(action) {
            return;
        }
        match self.step {
            Step::Review => match action {
                Action::Confirm => self.confirm(outbox),
                Action::Back => {
                    self.review = None;
                    self.step = Step::Editing;
                    self.scroll = 0;
                }
                _ => {}
            },
            Step::Sending => match action {
                Action::Confirm => {
                    outbox.status("the update is already being sent; not sent again");
                }
                Action::Back => outbox.status(
                    "the update is in flight and cannot be taken back; wait for the answer",
                ),
                _ => {}
            },
            Step::Editing | Step::Sent | Step::Failed => {
                self.form_action(action, outbox, cx.keymap);
            }
        }
    }

    fn on_text_key(&mut self, key: KeyEvent, cx: &mut Cx) {
        let Some(input) = &mut self.editing else {
            return;
        };
        match key.code {
            KeyCode::Enter => {
                let value = input.value().to_owned();
                self.editing = None;
                match self.selected_row() {
                    // Another id opens that config; this draft stays here.
                    Row::ConfigId => {
                        if !value.trim().is_empty()
                            && !self.draft.is_for(&value)
                            && let Err(e) = self.set_config_id(&value)
                        {
                            cx.outbox.status(e);
                        }
                    }
                    // An empty token keeps whatever was set (Ctrl-r resets it).
                    Row::AccessToken if !value.is_empty() => {
                        self.draft.set_token(value);
                        self.edited();
                    }
                    Row::Namespace => {
                        let before = self.draft.namespace.clone();
                        self.draft.set_namespace(value);
                        if self.draft.namespace != before {
                            self.edited();
                        }
                    }
                    _ => {}
                }
            }
            KeyCode::Esc => self.editing = None,
            _ => {
                input.handle_event(&crossterm::event::Event::Key(key));
            }
        }
    }

    /// The answer of this pane's PATCH, or of its list.
    fn on_reply(&mut self, slot: message::Slot, id: RequestId, result: ApiResult, cx: &mut Cx) {
        let outbox = &mut *cx.outbox;
        match Slot::of(slot) {
            Slot::Configs if self.list.load == Load::Loading(id) => {
                return self.on_list_reply(result, outbox);
            }
            // A list asked again meanwhile: the newer one counts.
            Slot::Configs => return,
            Slot::Update if self.in_flight != Some(id) => return,
            Slot::Update => {}
        }
        self.in_flight = None;
        self.scroll = 0;
        match result {
            Ok(ApiResponse::Scm(response)) => self.applied(response, outbox),
            Ok(other) => self.fail(
                other.unexpected().to_string(),
                Some(OUTCOME_UNKNOWN),
                outbox,
            ),
            Err(e) => {
                let note = e.write_outcome().map(|o| match o {
                    WriteOutcome::Unknown => OUTCOME_UNKNOWN,
                    WriteOutcome::ProbablyApplied => PROBABLY_APPLIED,
                });
                self.fail(e.to_string(), note, outbox);
            }
        }
    }

    fn commands(&self) -> &'static [&'static str] {
        &["scm ID"]
    }

    /// `:scm ID`
    fn command(&mut self, name: &str, args: &[&str], _cx: &mut Cx) -> Option<Result<(), String>> {
        (name == "scm").then(|| match args.first() {
            Some(id) => self.set_config_id(id),
            None => Err("usage: :scm CONFIG_ID".into()),
        })
    }

    fn unsent_work(&self) -> Vec<String> {
        let current = (self.draft.changes() > 0).then_some(&self.draft.config_id);
        current
            .into_iter()
            .chain(self.kept.keys())
            .map(|id| {
                if id.is_empty() {
                    "an unsent SCM draft (no config id yet)".to_owned()
                } else {
                    format!(
                        "an unsent SCM draft of config {}",
                        findings_base::text::one_line(id)
                    )
                }
            })
            .collect()
    }

    fn draw(&self, f: &mut Frame, area: Rect, v: &ViewCx) {
        match self.mode {
            Mode::List => list_view::draw(f, area, self, v),
            Mode::Form => view::draw(f, area, self, v),
        }
    }

    fn status(&self, v: &ViewCx) -> String {
        match self.mode {
            Mode::List => list_view::status(self, v),
            Mode::Form => view::status(self, v),
        }
    }
}

#[cfg(test)]
mod tests;
