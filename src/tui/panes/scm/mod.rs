//! The SCM config pane: a draft of a partial update (docs/api.md §14), a review
//! of the exact body, one PATCH on confirmation (never retried,
//! docs/api.md §13), and the config the server returns. There is no read operation for
//! SCM configs (docs/api.md §15), so every field shows "unchanged" until it is
//! set.
//!
//! The access token is a secret: it is kept only in the draft (and in the
//! request handed to the worker), never drawn, never put in a status or an
//! error string, and masked in `Debug`.

mod view;

use crate::api::ApiError;
use crate::api::model::{AutoScanSettings, ScmConfigPatch, ScmConfigResponse};
use crate::tui::keymap::{Action, Context};
use crate::tui::message::{
    ApiRequest, ApiResponse, ApiResult, AppEvent, Outbox, PaneId, RequestId,
};
use crate::tui::pane::{Cx, Pane, ViewCx};
use crate::tui::session::Session;
use crossterm::event::{KeyCode, KeyEvent};
use ratatui::Frame;
use ratatui::layout::Rect;
use tui_input::Input;
use tui_input::backend::crossterm::EventHandler;

pub const ID: PaneId = PaneId("scm");

/// Said when the PATCH may or may not have reached the server.
pub const OUTCOME_UNKNOWN: &str =
    "outcome unknown: the update may or may not have been applied; it was not retried";

/// Said when the server answered 2xx with a body that could not be read.
pub const PROBABLY_APPLIED: &str = "the server accepted the request (2xx) but its answer could not be read: the update was probably applied; it was not retried";

/// Lines a page key scrolls the review or the returned config.
const PAGE: u16 = 10;

/// The rows of the form, top to bottom.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Row {
    ConfigId,
    Namespace,
    AccessToken,
    AutoScan,
    NetworkBroker,
    Subscribe,
    DiffEnabled,
    Review,
}

impl Row {
    pub const ALL: [Row; 8] = [
        Row::ConfigId,
        Row::Namespace,
        Row::AccessToken,
        Row::AutoScan,
        Row::NetworkBroker,
        Row::Subscribe,
        Row::DiffEnabled,
        Row::Review,
    ];

    /// The label shown (the wire name for the toggles).
    pub fn label(self) -> &'static str {
        match self {
            Row::ConfigId => "config id",
            Row::Namespace => "namespace",
            Row::AccessToken => "access token",
            Row::AutoScan => "autoScan",
            Row::NetworkBroker => "useNetworkBroker",
            Row::Subscribe => "subscribe",
            Row::DiffEnabled => "diffEnabled",
            Row::Review => "[ Review ]",
        }
    }

    pub fn is_text(self) -> bool {
        matches!(self, Row::ConfigId | Row::Namespace | Row::AccessToken)
    }

    pub fn is_toggle(self) -> bool {
        matches!(
            self,
            Row::AutoScan | Row::NetworkBroker | Row::Subscribe | Row::DiffEnabled
        )
    }
}

/// What the user has set. Empty text and `None` toggles are "unchanged"
/// and are not sent.
#[derive(Clone, Default, PartialEq)]
pub struct Draft {
    pub config_id: String,
    /// "" = unchanged.
    pub namespace: String,
    /// "" = unchanged. Private: only [`Draft::has_token`] tells about it.
    access_token: String,
    pub auto_scan: Option<bool>,
    pub use_network_broker: Option<bool>,
    pub subscribe: Option<bool>,
    pub diff_enabled: Option<bool>,
}

impl std::fmt::Debug for Draft {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Draft")
            .field("config_id", &self.config_id)
            .field("namespace", &self.namespace)
            .field("access_token", &self.has_token().then_some("***"))
            .field("auto_scan", &self.auto_scan)
            .field("use_network_broker", &self.use_network_broker)
            .field("subscribe", &self.subscribe)
            .field("diff_enabled", &self.diff_enabled)
            .finish()
    }
}

impl Draft {
    /// Whether a new access token has been entered (its value is never
    /// exposed).
    pub fn has_token(&self) -> bool {
        !self.access_token.is_empty()
    }

    /// The tri-state of a toggle row (`None` for other rows).
    pub fn toggle(&self, row: Row) -> Option<Option<bool>> {
        match row {
            Row::AutoScan => Some(self.auto_scan),
            Row::NetworkBroker => Some(self.use_network_broker),
            Row::Subscribe => Some(self.subscribe),
            Row::DiffEnabled => Some(self.diff_enabled),
            _ => None,
        }
    }

    fn toggle_mut(&mut self, row: Row) -> Option<&mut Option<bool>> {
        match row {
            Row::AutoScan => Some(&mut self.auto_scan),
            Row::NetworkBroker => Some(&mut self.use_network_broker),
            Row::Subscribe => Some(&mut self.subscribe),
            Row::DiffEnabled => Some(&mut self.diff_enabled),
            _ => None,
        }
    }

    /// The text of a text row that may be drawn: never the token.
    pub fn shown_text(&self, row: Row) -> Option<&str> {
        match row {
            Row::ConfigId => Some(&self.config_id),
            Row::Namespace => Some(&self.namespace),
            _ => None,
        }
    }

    fn set_text(&mut self, row: Row, value: String) {
        match row {
            Row::ConfigId => self.config_id = value,
            Row::Namespace => self.namespace = value,
            Row::AccessToken => self.access_token = value,
            _ => {}
        }
    }

    /// Resets a row to "unchanged" (the config id to empty).
    fn reset(&mut self, row: Row) {
        if let Some(t) = self.toggle_mut(row) {
            *t = None;
        } else {
            self.set_text(row, String::new());
        }
    }

    /// How many fields would be sent (besides the ids).
    pub fn changes(&self) -> usize {
        [
            !self.namespace.is_empty(),
            self.has_token(),
            self.auto_scan.is_some(),
            self.use_network_broker.is_some(),
            self.subscribe.is_some(),
            self.diff_enabled.is_some(),
        ]
        .iter()
        .filter(|c| **c)
        .count()
    }

    /// Checks the draft and builds the request: only the changed fields
    /// (docs/api.md §14), diffEnabled inside `autoScanSettings`. The ids are
    /// added by the client, as [`Prepared::shown_body`] shows.
    pub fn prepare(&self) -> Result<Prepared, String> {
        let config_id = self.config_id.trim();
        if config_id.is_empty() {
            return Err("the config id is required".into());
        }
        if !config_id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        {
            return Err("the config id may hold only letters, digits, '-' and '_'".into());
        }
        if !self.namespace.is_empty() && self.namespace.trim().is_empty() {
            return Err(
                "the namespace must not be blank (reset it with Ctrl-r to leave it unchanged)"
                    .into(),
            );
        }
        if !self.access_token.is_empty() && self.access_token.trim().is_empty() {
            return Err(
                "the access token must not be blank (reset it with Ctrl-r to leave it unchanged)"
                    .into(),
            );
        }
        let text = |s: &str| (!s.is_empty()).then(|| s.trim().to_owned());
        let patch = ScmConfigPatch {
            deployment_id: None,
            config_id: None,
            access_token: text(&self.access_token),
            auto_scan: self.auto_scan,
            use_network_broker: self.use_network_broker,
            namespace: text(&self.namespace),
            subscribe: self.subscribe,
            auto_scan_settings: self.diff_enabled.map(|d| AutoScanSettings {
                diff_enabled: Some(d),
            }),
        };
        if !patch.has_changes() {
            return Err("nothing to change: set at least one field".into());
        }
        Ok(Prepared {
            config_id: config_id.to_owned(),
            patch,
        })
    }
}

/// A checked request: what Confirm sends, exactly.
#[derive(Debug, Clone, PartialEq)]
pub struct Prepared {
    pub config_id: String,
    /// Without the ids: the client adds `deploymentId` and `configId`.
    pub patch: ScmConfigPatch,
}

impl Prepared {
    /// The request line.
    pub fn request_line(&self, deployment: &str) -> String {
        format!(
            "PATCH /api/scm/deployments/{deployment}/configs/{}",
            self.config_id
        )
    }

    /// The body as the client sends it (with `deploymentId` and
    /// `configId`), pretty-printed, the access token masked.
    /// The fields come in the order the client serialises them; the content
    /// is `masked_json()` of the body sent (a test holds the two together).
    pub fn shown_body(&self, deployment: &str) -> String {
        let shown = ScmConfigPatch {
            deployment_id: Some(deployment.to_owned()),
            config_id: Some(self.config_id.clone()),
            ..self.without_secret().patch
        };
        serde_json::to_string_pretty(&shown).unwrap_or_default()
    }

    /// A copy that no longer holds the token (it still shows as `***`).
    fn without_secret(&self) -> Prepared {
        let mut copy = self.clone();
        if copy.patch.access_token.is_some() {
            copy.patch.access_token = Some("***".into());
        }
        copy
    }
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
    pub draft: Draft,
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
            .field("draft", &self.draft)
            .field("selected", &self.selected_row())
            .field("editing", &self.editing.is_some())
            .field("step", &self.step)
            .field("review", &self.review)
            .field("attempt", &self.attempt)
            .field("in_flight", &self.in_flight)
            .field("problem", &self.problem)
            .field("failure", &self.failure)
            .field("returned", &self.returned)
            .finish()
    }
}

impl ScmPane {
    pub fn new(session: &Session) -> Self {
        ScmPane {
            read_only: session.read_only,
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

    fn form_action(&mut self, action: Action, outbox: &mut Outbox) {
        let n = Row::ALL.len();
        match action {
            Action::NextField => self.selected = (self.selected + 1) % n,
            Action::PrevField => self.selected = (self.selected + n - 1) % n,
            // Only toggle rows cycle; Space elsewhere does nothing.
            Action::Toggle => self.cycle(),
            Action::Submit => {
                let row = self.selected_row();
                if row == Row::Review {
                    self.open_review(outbox);
                } else if row.is_toggle() {
                    self.cycle();
                } else if row.is_text() {
                    // A token is typed afresh (the old one is never shown).
                    let start = self.draft.shown_text(row).unwrap_or("").to_owned();
                    self.editing = Some(Input::new(start));
                }
            }
            Action::Review => self.open_review(outbox),
            Action::ClearField => {
                let row = self.selected_row();
                if row != Row::Review {
                    self.draft.reset(row);
                    self.edited();
                }
            }
            _ => {}
        }
    }

    /// Space: unchanged → on → off → unchanged.
    fn cycle(&mut self) {
        let row = self.selected_row();
        if let Some(v) = self.draft.toggle_mut(row) {
            *v = match v {
                None => Some(true),
                Some(true) => Some(false),
                Some(false) => None,
            };
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

    fn open_review(&mut self, outbox: &mut Outbox) {
        match self.draft.prepare() {
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
        match outbox.send(request) {
            Some(id) => {
                self.in_flight = Some(id);
                self.attempt = Some(prepared.without_secret());
                self.failure = None;
                self.step = Step::Sending;
                self.scroll = 0;
            }
            // Refused (read-only): the app shows why; stay on the review.
            None => self.review = Some(prepared),
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

    /// Whether quitting would lose changes not sent yet (or whose sending
    /// is still under way).
    pub fn has_unsent_changes(&self) -> bool {
        self.draft.changes() > 0 && self.step != Step::Sent
    }

    /// `:scm ID`: sets the config id of the draft.
    pub fn set_config_id(&mut self, id: &str) {
        self.draft.config_id = id.trim().to_owned();
        self.selected = 0;
        self.editing = None;
        if self.step == Step::Review {
            self.review = None;
            self.step = Step::Editing;
        }
        self.edited();
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
        match self.step {
            Step::Review | Step::Sending => vec![Context::Review],
            _ => vec![Context::Scm],
        }
    }

    fn text_input_active(&self) -> bool {
        self.editing.is_some()
    }

    fn is_loading(&self) -> bool {
        self.in_flight.is_some()
    }

    fn on_action(&mut self, action: Action, cx: &mut Cx) {
        let outbox = &mut *cx.outbox;
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
                    outbox.status("the update is already being sent; not sent again")
                }
                Action::Back => outbox.status(
                    "the update is in flight and cannot be taken back; wait for the answer",
                ),
                _ => {}
            },
            Step::Editing | Step::Sent | Step::Failed => self.form_action(action, outbox),
        }
    }

    fn on_text_key(&mut self, key: KeyEvent, _cx: &mut Cx) {
        let Some(input) = &mut self.editing else {
            return;
        };
        match key.code {
            KeyCode::Enter => {
                let value = input.value().to_owned();
                self.editing = None;
                let row = self.selected_row();
                // An empty token keeps whatever was set (Ctrl-r resets it).
                if row == Row::AccessToken && value.is_empty() {
                    return;
                }
                if self.draft.shown_text(row) != Some(value.as_str()) {
                    self.draft.set_text(row, value);
                    self.edited();
                }
            }
            KeyCode::Esc => self.editing = None,
            _ => {
                input.handle_event(&crossterm::event::Event::Key(key));
            }
        }
    }

    /// The answer of this pane's PATCH.
    fn on_reply(&mut self, id: RequestId, result: ApiResult, cx: &mut Cx) {
        let outbox = &mut *cx.outbox;
        if self.in_flight != Some(id) {
            return;
        }
        self.in_flight = None;
        self.scroll = 0;
        let config_id = self
            .attempt
            .as_ref()
            .map(|p| p.config_id.clone())
            .unwrap_or_default();
        match result {
            Ok(ApiResponse::Scm(response)) => {
                // Applied: the token is not kept; the rest stays on show.
                self.draft.access_token.clear();
                self.returned = Some(response);
                self.failure = None;
                self.step = Step::Sent;
                outbox.status(format!(
                    "SCM config {} updated",
                    crate::text::one_line(&config_id)
                ));
            }
            Ok(_) => self.fail(
                "the server's answer is not an SCM config".into(),
                Some(OUTCOME_UNKNOWN),
                outbox,
            ),
            Err(e) => {
                let note = match e {
                    ApiError::Timeout(_) | ApiError::Connection(_) => Some(OUTCOME_UNKNOWN),
                    ApiError::Decode { .. } | ApiError::NotJson { .. } => Some(PROBABLY_APPLIED),
                    _ => None,
                };
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
            Some(id) => {
                self.set_config_id(id);
                Ok(())
            }
            None => Err("usage: :scm CONFIG_ID".into()),
        })
    }

    fn unsent_work(&self) -> Option<&'static str> {
        self.has_unsent_changes()
            .then_some("the SCM draft has not been sent")
    }

    fn draw(&self, f: &mut Frame, area: Rect, v: &ViewCx) {
        view::draw(f, area, self, v);
    }

    fn status(&self, v: &ViewCx) -> String {
        view::status(self, v)
    }
}

#[cfg(test)]
mod tests;
