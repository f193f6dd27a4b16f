//! The SCM config pane: a draft of a partial update (docs/api.md §14), a review
//! of the exact body, one PATCH on confirmation (never retried,
//! docs/api.md §13), and the config the server returns. There is no read operation for
//! SCM configs (docs/api.md §15), so every field shows "unchanged" until it is
//! set.
//!
//! The access token is a secret: it is kept only in the draft (and in the
//! request handed to the worker), never drawn, never put in a status or an
//! error string, and masked in `Debug`.

use crate::api::ApiError;
use crate::api::model::{AutoScanSettings, ScmConfigPatch, ScmConfigResponse};
use crate::tui::app::{AppEvent, Outbox};
use crate::tui::keymap::{Action, Context};
use crate::tui::worker::{ApiRequest, ApiResponse, RequestId};
use crossterm::event::{KeyCode, KeyEvent};
use tui_input::Input;
use tui_input::backend::crossterm::EventHandler;

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
    pub fn new(read_only: bool) -> Self {
        ScmPane {
            read_only,
            ..Default::default()
        }
    }

    pub fn contexts(&self) -> Vec<Context> {
        match self.step {
            Step::Review | Step::Sending => vec![Context::Review],
            _ => vec![Context::Scm],
        }
    }

    pub fn text_input_active(&self) -> bool {
        self.editing.is_some()
    }

    /// Whether quitting would lose changes not sent yet (or whose sending
    /// is still under way).
    pub fn has_unsent_changes(&self) -> bool {
        self.draft.changes() > 0 && self.step != Step::Sent
    }

    pub fn is_loading(&self) -> bool {
        self.in_flight.is_some()
    }

    pub fn selected_row(&self) -> Row {
        Row::ALL[self.selected.min(Row::ALL.len() - 1)]
    }

    /// The request shown on the right: the one under review, else the one
    /// sent last.
    pub fn shown_request(&self) -> Option<&Prepared> {
        self.review.as_ref().or(self.attempt.as_ref())
    }

    pub fn on_action(&mut self, action: Action, outbox: &mut Outbox) {
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

    /// Mouse wheel (Up/Down) and page keys scroll the right-hand panel.
    fn scroll_action(&mut self, action: Action) -> bool {
        let max = self.panel_len_hint();
        match action {
            Action::Down => self.scroll = self.scroll.saturating_add(1).min(max),
            Action::Up => self.scroll = self.scroll.saturating_sub(1),
            Action::PageDown => self.scroll = self.scroll.saturating_add(PAGE).min(max),
            Action::PageUp => self.scroll = self.scroll.saturating_sub(PAGE),
            _ => return false,
        }
        true
    }

    /// About how many lines the right-hand panel holds (to bound scrolling;
    /// the view clamps to what it really draws).
    fn panel_len_hint(&self) -> u16 {
        let body = self
            .shown_request()
            .map_or(0, |p| p.shown_body("").lines().count());
        let config = self.returned.as_ref().and_then(|r| r.config.as_ref());
        let subs = config.map_or(0, |c| c.subscriptions.len() * 3);
        // The same precedence as the view: review, failure, answer, intro.
        let lines = if matches!(self.step, Step::Review | Step::Sending) {
            body + 14
        } else if self.failure.is_some() {
            body + 18
        } else if config.is_some() {
            40 + subs
        } else {
            16
        };
        lines.min(u16::MAX as usize) as u16
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

    pub fn on_text_key(&mut self, key: KeyEvent, _outbox: &mut Outbox) {
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

    /// Takes the answer of this pane's PATCH; gives back any other reply.
    pub fn on_reply(
        &mut self,
        id: RequestId,
        result: Result<ApiResponse, ApiError>,
        outbox: &mut Outbox,
    ) -> Option<Result<ApiResponse, ApiError>> {
        if self.in_flight != Some(id) {
            return Some(result);
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
        None
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::model::*;
    use crate::tui::app::{App, Effect, Msg, PaneId, Session};
    use crate::tui::keymap::Keymap;
    use crate::tui::theme::Theme;
    use crossterm::event::{KeyEventKind, KeyEventState, KeyModifiers};
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use std::time::Duration;

    const SECRET: &str = "scm-pat-7c1e55d0-SECRET";

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent {
            code,
            modifiers: KeyModifiers::NONE,
            kind: KeyEventKind::Press,
            state: KeyEventState::NONE,
        }
    }

    fn type_text(pane: &mut ScmPane, text: &str, outbox: &mut Outbox) {
        for c in text.chars() {
            pane.on_text_key(key(KeyCode::Char(c)), outbox);
        }
    }

    fn select(pane: &mut ScmPane, row: Row) {
        pane.selected = Row::ALL.iter().position(|r| *r == row).unwrap();
    }

    /// Types `value` into a text row and keeps it.
    fn set_text(pane: &mut ScmPane, row: Row, value: &str, outbox: &mut Outbox) {
        select(pane, row);
        pane.on_action(Action::Submit, outbox);
        assert!(pane.text_input_active());
        // Start from empty whatever was there.
        for _ in 0..64 {
            pane.on_text_key(key(KeyCode::Backspace), outbox);
        }
        type_text(pane, value, outbox);
        pane.on_text_key(key(KeyCode::Enter), outbox);
        assert!(!pane.text_input_active());
    }

    fn sends(outbox: &Outbox) -> Vec<(RequestId, String, ScmConfigPatch)> {
        outbox
            .effects
            .iter()
            .filter_map(|e| match e {
                Effect::Send {
                    id,
                    request: ApiRequest::UpdateScm { config_id, patch },
                } => Some((*id, config_id.clone(), patch.clone())),
                _ => None,
            })
            .collect()
    }

    /// A pane with config 1001, autoScan on and a token, on the review.
    fn reviewed(read_only: bool, outbox: &mut Outbox) -> ScmPane {
        let mut pane = ScmPane::new(read_only);
        pane.set_config_id("1001");
        select(&mut pane, Row::AutoScan);
        pane.on_action(Action::Toggle, outbox);
        set_text(&mut pane, Row::AccessToken, SECRET, outbox);
        pane.on_action(Action::Review, outbox);
        assert_eq!(pane.step, Step::Review, "{:?}", pane.problem);
        pane
    }

    fn sent(outbox: &mut Outbox) -> (ScmPane, RequestId) {
        let mut pane = reviewed(false, outbox);
        pane.on_action(Action::Confirm, outbox);
        let id = sends(outbox)[0].0;
        (pane, id)
    }

    fn app_with(pane: ScmPane, w: u16, h: u16) -> App {
        let session = Session {
            deployment: "1234".into(),
            read_only: pane.read_only,
            ..Session::default()
        };
        let mut app = App::new(session, Keymap::default_keymap(), Theme::default(), (w, h));
        app.pane = PaneId::Scm;
        app.scm = pane;
        app
    }

    fn render(app: &App, w: u16, h: u16) -> String {
        let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
        terminal.draw(|f| crate::tui::view::draw(f, app)).unwrap();
        let buffer = terminal.backend().buffer();
        let mut out = String::new();
        for y in 0..buffer.area.height {
            for x in 0..buffer.area.width {
                out.push_str(buffer[(x, y)].symbol());
            }
            out.push('\n');
        }
        out
    }

    /// The token nowhere on screen, not even cut across lines.
    fn assert_no_secret(screen: &str) {
        let joined: String = screen.chars().filter(|c| *c != '\n').collect();
        for part in [SECRET, "7c1e55d0", "SECRET"] {
            assert!(!joined.contains(part), "token shown:\n{screen}");
        }
    }

    fn demo_config() -> ScmConfig {
        ScmConfig {
            id: Some("1001".into()),
            scm_type: Some(ScmType::HostA),
            namespace: Some("acme".into()),
            base_url: Some("https://scm-a.example.com".into()),
            app: Some(ScmApp {
                slug: Some("findings-scanner".into()),
                app_id: Some("41000".into()),
                scm_name: Some("acme on host-a".into()),
                code_access: Some(true),
                tenant_id: Some("tenant-7f3a".into()),
                ..Default::default()
            }),
            status: Some(ScmStatus {
                checked: "2025-03-01T10:20:00Z".parse().ok(),
                ok: Some(false),
                error: Some("token expired\u{1b}[2J".into()),
            }),
            installed: Some(true),
            suspended: Some(false),
            host_a_entity_type: Some(HostAEntityType::Org),
            auto_scan: Some(true),
            use_network_broker: Some(false),
            token_scopes: Some(TokenScopes {
                read_metadata: Some(true),
                write_contents: Some(false),
                ..Default::default()
            }),
            subscriptions: vec![Subscription {
                scm_url: Some("https://scm-a.example.com/acme".into()),
                events: vec!["push".into(), "pull_request".into()],
            }],
            last_successful_sync_at: "2025-03-01T08:00:00Z".parse().ok(),
            auto_scan_settings: Some(AutoScanSettings {
                diff_enabled: Some(true),
            }),
            has_access_token: Some(true),
            ..Default::default()
        }
    }

    fn server_error(status: u16, message: &str) -> ApiError {
        ApiError::from_status(
            status,
            format!(r#"{{"error":"{message}","code":"X"}}"#).as_bytes(),
            None,
        )
    }

    #[test]
    fn a_new_draft_changes_nothing_and_cannot_be_reviewed() {
        let mut outbox = Outbox::default();
        let mut pane = ScmPane::new(false);
        assert_eq!(pane.contexts(), vec![Context::Scm]);
        pane.on_action(Action::Review, &mut outbox);
        assert_eq!(pane.step, Step::Editing);
        assert_eq!(pane.problem.as_deref(), Some("the config id is required"));
        pane.set_config_id("1001");
        assert!(pane.problem.is_none());
        pane.on_action(Action::Review, &mut outbox);
        assert!(
            pane.problem
                .as_deref()
                .unwrap()
                .contains("nothing to change")
        );
        assert!(outbox.effects.is_empty());
    }

    #[test]
    fn toggles_and_edits_send_exactly_the_fields_changed() {
        let mut outbox = Outbox::default();
        let mut pane = ScmPane::new(false);
        set_text(&mut pane, Row::ConfigId, "1003", &mut outbox);
        // autoScan: unchanged → on.
        select(&mut pane, Row::AutoScan);
        pane.on_action(Action::Toggle, &mut outbox);
        // diffEnabled: unchanged → on → off (Enter toggles too).
        select(&mut pane, Row::DiffEnabled);
        pane.on_action(Action::Toggle, &mut outbox);
        pane.on_action(Action::Submit, &mut outbox);
        // subscribe: on, then reset to unchanged with Ctrl-r.
        select(&mut pane, Row::Subscribe);
        pane.on_action(Action::Toggle, &mut outbox);
        pane.on_action(Action::ClearField, &mut outbox);
        // useNetworkBroker: all the way round, back to unchanged.
        select(&mut pane, Row::NetworkBroker);
        for _ in 0..3 {
            pane.on_action(Action::Toggle, &mut outbox);
        }
        set_text(&mut pane, Row::Namespace, " acme-new ", &mut outbox);

        // Enter on the last row opens the review.
        select(&mut pane, Row::Review);
        pane.on_action(Action::Submit, &mut outbox);
        assert_eq!(pane.step, Step::Review);
        assert_eq!(pane.contexts(), vec![Context::Review]);
        let review = pane.review.clone().unwrap();
        assert_eq!(review.config_id, "1003");
        assert_eq!(
            review.patch,
            ScmConfigPatch {
                auto_scan: Some(true),
                namespace: Some("acme-new".into()),
                auto_scan_settings: Some(AutoScanSettings {
                    diff_enabled: Some(false)
                }),
                ..Default::default()
            }
        );
        // What is shown is what the client sends: the ids added, nothing else.
        let shown: serde_json::Value = serde_json::from_str(&review.shown_body("1234")).unwrap();
        assert_eq!(
            shown,
            serde_json::json!({
                "deploymentId": "1234",
                "configId": "1003",
                "autoScan": true,
                "namespace": "acme-new",
                "autoScanSettings": {"diffEnabled": false}
            })
        );
        // Exactly the client's body, masked, in the client's field order.
        let sent = ScmConfigPatch {
            deployment_id: Some("1234".into()),
            config_id: Some("1003".into()),
            ..review.patch.clone()
        };
        assert_eq!(shown, sent.masked_json());
        assert_eq!(
            review.shown_body("1234"),
            serde_json::to_string_pretty(&sent).unwrap()
        );
        assert_eq!(
            review.request_line("1234"),
            "PATCH /api/scm/deployments/1234/configs/1003"
        );

        // n/Esc back to the form: the draft is kept as it was.
        pane.on_action(Action::Back, &mut outbox);
        assert_eq!(pane.step, Step::Editing);
        assert!(pane.review.is_none());
        assert_eq!(pane.draft.auto_scan, Some(true));
        assert_eq!(pane.draft.diff_enabled, Some(false));
        assert_eq!(pane.draft.namespace, " acme-new ");
        assert!(outbox.effects.is_empty(), "nothing is sent before confirm");
    }

    #[test]
    fn esc_discards_an_edit_and_enter_keeps_it() {
        let mut outbox = Outbox::default();
        let mut pane = ScmPane::new(false);
        set_text(&mut pane, Row::Namespace, "acme", &mut outbox);
        pane.on_action(Action::Submit, &mut outbox);
        type_text(&mut pane, "-other", &mut outbox);
        pane.on_text_key(key(KeyCode::Esc), &mut outbox);
        assert!(!pane.text_input_active());
        assert_eq!(pane.draft.namespace, "acme");

        // The token: Esc keeps the old one, Enter on nothing keeps it too.
        set_text(&mut pane, Row::AccessToken, SECRET, &mut outbox);
        pane.on_action(Action::Submit, &mut outbox);
        type_text(&mut pane, "other", &mut outbox);
        pane.on_text_key(key(KeyCode::Esc), &mut outbox);
        assert_eq!(pane.draft.access_token, SECRET);
        pane.on_action(Action::Submit, &mut outbox);
        pane.on_text_key(key(KeyCode::Enter), &mut outbox);
        assert_eq!(pane.draft.access_token, SECRET);
        pane.on_action(Action::ClearField, &mut outbox);
        assert!(!pane.draft.has_token());
        assert!(!format!("{pane:?}").contains(SECRET));
    }

    #[test]
    fn invalid_drafts_are_explained_and_not_reviewed() {
        let mut outbox = Outbox::default();
        let cases: [(&str, &str, &str); 3] = [
            ("10/01", "", "letters, digits"),
            ("1001", "   ", "namespace must not be blank"),
            ("", "acme", "config id is required"),
        ];
        for (id, namespace, problem) in cases {
            let mut pane = ScmPane::new(false);
            pane.draft.config_id = id.into();
            pane.draft.namespace = namespace.into();
            pane.draft.auto_scan = Some(false);
            pane.on_action(Action::Review, &mut outbox);
            assert_eq!(pane.step, Step::Editing);
            assert!(
                pane.problem.as_deref().unwrap_or("").contains(problem),
                "{id:?} {namespace:?}: {:?}",
                pane.problem
            );
            let screen = render(&app_with(pane, 120, 35), 120, 35);
            assert!(screen.contains(problem), "{screen}");
        }
        assert!(outbox.effects.is_empty());
    }

    #[test]
    fn the_review_masks_the_token_and_the_screen_never_shows_it() {
        let mut outbox = Outbox::default();
        let mut pane = ScmPane::new(false);
        pane.set_config_id("1001");
        // While the token is typed.
        select(&mut pane, Row::AccessToken);
        pane.on_action(Action::Submit, &mut outbox);
        type_text(&mut pane, SECRET, &mut outbox);
        let app = app_with(pane, 120, 35);
        assert_no_secret(&render(&app, 120, 35));
        let mut pane = app.scm;
        pane.on_text_key(key(KeyCode::Enter), &mut outbox);
        assert!(pane.draft.has_token());
        // In the form.
        let app = app_with(pane, 120, 35);
        let screen = render(&app, 120, 35);
        assert!(screen.contains("•••• (set)"), "{screen}");
        assert_no_secret(&screen);
        // On the review, at both sizes.
        let mut pane = app.scm;
        pane.on_action(Action::Review, &mut outbox);
        let review = pane.review.clone().unwrap();
        assert_eq!(review.patch.access_token.as_deref(), Some(SECRET));
        let body = review.shown_body("1234");
        let full = ScmConfigPatch {
            deployment_id: Some("1234".into()),
            config_id: Some("1001".into()),
            ..review.patch.clone()
        };
        let parsed: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(parsed, full.masked_json());
        assert!(body.contains(r#""accessToken": "***""#), "{body}");
        assert!(!body.contains(SECRET));
        let app = app_with(pane, 120, 35);
        for (w, h) in [(120, 35), (80, 24)] {
            let screen = render(&app, w, h);
            assert!(
                screen.contains("PATCH /api/scm/deployments/1234/configs/1001"),
                "{screen}"
            );
            assert!(screen.contains(r#""accessToken": "***""#), "{screen}");
            assert!(screen.contains(r#""deploymentId": "1234""#), "{screen}");
            assert_no_secret(&screen);
            assert!(!crate::tui::view::scm::status(&app).contains(SECRET));
        }
        assert!(!format!("{:?}", app.scm).contains(SECRET));
    }

    #[test]
    fn confirm_sends_one_update_and_never_a_second_while_in_flight() {
        let mut outbox = Outbox::default();
        let mut pane = reviewed(false, &mut outbox);
        pane.on_action(Action::Confirm, &mut outbox);
        let sent = sends(&outbox);
        assert_eq!(sent.len(), 1);
        let (_, config_id, patch) = &sent[0];
        assert_eq!(config_id, "1001");
        assert_eq!(
            *patch,
            ScmConfigPatch {
                auto_scan: Some(true),
                access_token: Some(SECRET.into()),
                ..Default::default()
            }
        );
        assert_eq!(pane.step, Step::Sending);
        assert!(pane.is_loading());
        // The copy kept for display no longer holds the token.
        assert!(!format!("{:?}", pane.attempt).contains(SECRET));
        assert_eq!(
            pane.attempt.as_ref().unwrap().patch.access_token.as_deref(),
            Some("***")
        );
        // y/Enter again, Back, Review: nothing more goes out.
        for action in [
            Action::Confirm,
            Action::Confirm,
            Action::Back,
            Action::Review,
        ] {
            pane.on_action(action, &mut outbox);
        }
        assert_eq!(sends(&outbox).len(), 1);
        assert_eq!(pane.step, Step::Sending);
        assert_eq!(outbox.effects.len(), 1, "no cancel either");
    }

    #[test]
    fn a_success_shows_the_returned_config_and_forgets_the_token() {
        let mut outbox = Outbox::default();
        let (mut pane, id) = sent(&mut outbox);
        // Someone else's reply is passed on untouched.
        let other = pane.on_reply(
            id + 100,
            Err(ApiError::Timeout(Duration::ZERO)),
            &mut outbox,
        );
        assert!(other.is_some());
        assert_eq!(pane.step, Step::Sending);
        let reply = Ok(ApiResponse::Scm(ScmConfigResponse {
            config: Some(demo_config()),
        }));
        assert!(pane.on_reply(id, reply, &mut outbox).is_none());
        assert_eq!(pane.step, Step::Sent);
        assert!(!pane.is_loading());
        assert!(!pane.draft.has_token());
        assert_eq!(pane.draft.auto_scan, Some(true), "the rest stays on show");
        assert_eq!(pane.draft.config_id, "1001");
        assert_eq!(pane.contexts(), vec![Context::Scm]);
        // A late duplicate of the same id is no longer this pane's.
        assert!(
            pane.on_reply(id, Err(ApiError::Timeout(Duration::ZERO)), &mut outbox)
                .is_some()
        );

        let app = app_with(pane, 120, 35);
        let screen = render(&app, 120, 35);
        for fact in [
            "[x] readMetadata",
            "[ ] writeContents",
            "findings-scanner",
            "41000",
            "acme on host-a",
            "tenant-7f3a",
            "host-a",
            "https://scm-a.example.com",
            "organization",
            "2025-03-01 10:20",
            "token expired␛[2J",
            "2025-03-01 08:00",
        ] {
            assert!(screen.contains(fact), "{fact} missing:\n{screen}");
        }
        assert!(crate::tui::view::scm::status(&app).contains("sent"));
        // Scroll to the end to see the subscriptions.
        let mut app = app;
        for _ in 0..5 {
            app.scm.on_action(Action::PageDown, &mut outbox);
        }
        let screen = render(&app, 120, 35);
        assert!(
            screen.contains("https://scm-a.example.com/acme"),
            "{screen}"
        );
        assert!(screen.contains("push, pull_request"), "{screen}");
    }

    #[test]
    fn a_failed_update_keeps_the_whole_draft_and_raises_an_error() {
        let mut outbox = Outbox::default();
        let (mut pane, id) = sent(&mut outbox);
        let before = pane.draft.clone();
        // A server echoing the token never gets it shown.
        let err = server_error(400, &format!("bad token {SECRET}"));
        assert!(pane.on_reply(id, Err(err), &mut outbox).is_none());
        assert_eq!(pane.step, Step::Failed);
        assert!(!pane.is_loading());
        assert_eq!(pane.draft, before);
        assert_eq!(pane.draft.access_token, SECRET, "the token is kept");
        let failure = pane.failure.clone().unwrap();
        assert!(failure.note.is_none());
        assert!(failure.message.contains("bad token ***"), "{failure:?}");
        let errors: Vec<_> = outbox
            .events
            .iter()
            .filter_map(|e| match e {
                AppEvent::Error { title, message } => Some((title.clone(), message.clone())),
                _ => None,
            })
            .collect();
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].0, "SCM update failed");
        assert!(errors[0].1.contains("HTTP 400"));
        assert!(!errors[0].1.contains(SECRET));

        let app = app_with(pane, 120, 35);
        let screen = render(&app, 120, 35);
        assert!(screen.contains("HTTP 400"), "{screen}");
        assert!(screen.contains("•••• (set)"), "{screen}");
        assert_no_secret(&screen);

        // The draft can be reviewed and sent again, as it was.
        let mut pane = app.scm;
        pane.on_action(Action::Review, &mut outbox);
        assert_eq!(
            pane.review.as_ref().unwrap().patch.access_token.as_deref(),
            Some(SECRET)
        );
        pane.on_action(Action::Confirm, &mut outbox);
        assert_eq!(sends(&outbox).len(), 2);
    }

    #[test]
    fn a_timeout_or_dropped_connection_says_the_outcome_is_unknown() {
        for err in [
            ApiError::Timeout(Duration::from_secs(30)),
            ApiError::Connection("connection reset by peer".into()),
        ] {
            let mut outbox = Outbox::default();
            let (mut pane, id) = sent(&mut outbox);
            let before = pane.draft.clone();
            pane.on_reply(id, Err(err), &mut outbox);
            assert_eq!(pane.step, Step::Failed);
            assert_eq!(pane.draft, before);
            assert_eq!(pane.failure.as_ref().unwrap().note, Some(OUTCOME_UNKNOWN));
            assert!(outbox.events.iter().any(|e| matches!(
                e,
                AppEvent::Error { message, .. } if message.contains("outcome unknown")
            )));
            assert_eq!(sends(&outbox).len(), 1, "never retried");
            let app = app_with(pane, 120, 35);
            let screen = render(&app, 120, 35);
            assert!(screen.contains("outcome unknown"), "{screen}");
            assert!(crate::tui::view::scm::status(&app).contains("outcome unknown"));
        }
        // A plain refusal is not "unknown".
        let mut outbox = Outbox::default();
        let (mut pane, id) = sent(&mut outbox);
        pane.on_reply(id, Err(server_error(404, "no such config")), &mut outbox);
        assert!(pane.failure.as_ref().unwrap().note.is_none());
    }

    #[test]
    fn read_only_never_sends_the_update() {
        for outbox_read_only in [false, true] {
            let mut outbox = Outbox::default();
            outbox.read_only = outbox_read_only;
            let mut pane = reviewed(true, &mut outbox);
            for _ in 0..3 {
                pane.on_action(Action::Confirm, &mut outbox);
            }
            assert!(sends(&outbox).is_empty());
            assert!(
                !outbox
                    .effects
                    .iter()
                    .any(|e| matches!(e, Effect::Send { .. }))
            );
            assert_eq!(pane.step, Step::Review);
            assert!(!pane.is_loading());
            let app = app_with(pane, 120, 35);
            let screen = render(&app, 120, 35);
            assert!(screen.contains("READ-ONLY"), "{screen}");
            assert!(crate::tui::view::scm::status(&app).contains("READ-ONLY"));
        }
    }

    #[test]
    fn the_keys_drive_the_pane_through_the_app() {
        let session = Session {
            deployment: "1234".into(),
            ..Session::default()
        };
        let mut app = App::new(
            session,
            Keymap::default_keymap(),
            Theme::default(),
            (120, 35),
        );
        let press = |app: &mut App, code: KeyCode, modifiers: KeyModifiers| {
            app.update(Msg::Key(KeyEvent {
                code,
                modifiers,
                kind: KeyEventKind::Press,
                state: KeyEventState::NONE,
            }))
        };
        let ch = |app: &mut App, c: char| press(app, KeyCode::Char(c), KeyModifiers::NONE);
        ch(&mut app, '4');
        assert_eq!(app.pane, PaneId::Scm);
        // Enter edits the config id; typed keys go to the input (even 'q').
        press(&mut app, KeyCode::Enter, KeyModifiers::NONE);
        for c in "1002".chars() {
            ch(&mut app, c);
        }
        press(&mut app, KeyCode::Enter, KeyModifiers::NONE);
        assert_eq!(app.scm.draft.config_id, "1002");
        assert!(!app.quit);
        // j three times to autoScan, Space turns it on; Tab to useNetworkBroker, Space on.
        for _ in 0..3 {
            ch(&mut app, 'j');
        }
        ch(&mut app, ' ');
        press(&mut app, KeyCode::Tab, KeyModifiers::NONE);
        ch(&mut app, ' ');
        ch(&mut app, ' ');
        assert_eq!(app.scm.draft.auto_scan, Some(true));
        assert_eq!(app.scm.draft.use_network_broker, Some(false));
        assert_eq!(app.pane, PaneId::Scm, "Tab moves the field here");
        ch(&mut app, 'R');
        assert_eq!(app.scm.step, Step::Review);
        ch(&mut app, 'n');
        assert_eq!(app.scm.step, Step::Editing);
        ch(&mut app, 'R');
        let effects = ch(&mut app, 'y');
        assert!(matches!(
            effects.as_slice(),
            [Effect::Send {
                request: ApiRequest::UpdateScm { config_id, .. },
                ..
            }] if config_id == "1002"
        ));
        assert!(press(&mut app, KeyCode::Enter, KeyModifiers::NONE).is_empty());
        assert!(app.is_loading());
    }

    #[test]
    fn rendering_never_panics_at_any_size_or_step() {
        let mut states: Vec<ScmPane> = Vec::new();
        let mut outbox = Outbox::default();
        states.push(ScmPane::new(false));
        let mut editing = ScmPane::new(false);
        editing.on_action(Action::Submit, &mut outbox);
        type_text(&mut editing, &"x".repeat(300), &mut outbox);
        states.push(editing);
        let mut token_editing = ScmPane::new(false);
        select(&mut token_editing, Row::AccessToken);
        token_editing.on_action(Action::Submit, &mut outbox);
        type_text(&mut token_editing, SECRET, &mut outbox);
        states.push(token_editing);
        states.push(reviewed(false, &mut outbox));
        states.push(reviewed(true, &mut outbox));
        let (sending, _) = sent(&mut outbox);
        states.push(sending);
        let (mut done, id) = sent(&mut outbox);
        let mut config = demo_config();
        config.subscriptions = vec![Subscription::default(); 40];
        done.on_reply(
            id,
            Ok(ApiResponse::Scm(ScmConfigResponse {
                config: Some(config),
            })),
            &mut outbox,
        );
        for _ in 0..20 {
            done.on_action(Action::PageDown, &mut outbox);
        }
        states.push(done);
        let (mut empty, id) = sent(&mut outbox);
        empty.on_reply(
            id,
            Ok(ApiResponse::Scm(ScmConfigResponse::default())),
            &mut outbox,
        );
        states.push(empty);
        let (mut failed, id) = sent(&mut outbox);
        failed.on_reply(
            id,
            Err(ApiError::Timeout(Duration::from_secs(1))),
            &mut outbox,
        );
        states.push(failed);
        for pane in states {
            let mut app = app_with(pane, 120, 35);
            for (w, h) in [
                (120, 35),
                (80, 24),
                (20, 6),
                (19, 5),
                (1, 1),
                (250, 70),
                (60, 12),
            ] {
                app.size = (w, h);
                let screen = render(&app, w, h);
                assert_no_secret(&screen);
            }
        }
    }
}
