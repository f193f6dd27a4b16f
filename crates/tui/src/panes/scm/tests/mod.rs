use super::*;
use crate::app::{App, Effect, Msg, Session};
use crate::keymap::Keymap;
use crate::message::AppEvent;
use crate::pane::Pane;
use crate::pane::testing::Drive;
use crate::theme::Theme;
use crossterm::event::{KeyEventKind, KeyEventState, KeyModifiers};
use findings_client::ApiError;
use findings_model::ScmValue;
use findings_model::*;
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
        pane.type_key(key(KeyCode::Char(c)), outbox);
    }
}

fn select(pane: &mut ScmPane, row: Row) {
    pane.selected = Row::ALL.iter().position(|r| *r == row).unwrap();
}

/// Types `value` into a text row and keeps it.
fn set_text(pane: &mut ScmPane, row: Row, value: &str, outbox: &mut Outbox) {
    select(pane, row);
    pane.act(Action::Submit, 20, outbox);
    assert!(pane.text_input_active());
    // Start from empty whatever was there.
    for _ in 0..64 {
        pane.type_key(key(KeyCode::Backspace), outbox);
    }
    type_text(pane, value, outbox);
    pane.type_key(key(KeyCode::Enter), outbox);
    assert!(!pane.text_input_active());
}

/// A pane on the form of no config yet, as when the list could not be had
/// and `Enter` opened the form to edit a config by its id.
fn form() -> ScmPane {
    let mut pane = ScmPane::new(&Session::default());
    pane.set_config_id("").unwrap();
    assert_eq!(pane.mode, Mode::Form);
    pane
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
    let mut pane = ScmPane::new(&Session {
        read_only,
        ..Session::default()
    });
    pane.set_config_id("1001").unwrap();
    select(&mut pane, Row::AutoScan);
    pane.act(Action::Toggle, 20, outbox);
    set_text(&mut pane, Row::AccessToken, SECRET, outbox);
    pane.act(Action::Review, 20, outbox);
    assert_eq!(pane.step, Step::Review, "{:?}", pane.problem);
    pane
}

fn sent(outbox: &mut Outbox) -> (ScmPane, RequestId) {
    let mut pane = reviewed(false, outbox);
    pane.act(Action::Confirm, 20, outbox);
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
    app.pane = crate::panes::scm::ID;
    *app.scm_mut() = pane;
    app
}

fn render(app: &App, w: u16, h: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| crate::app::view::draw(f, app)).unwrap();
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
    let mut pane = form();
    assert_eq!(pane.contexts(), vec![crate::panes::scm::KEYS]);
    pane.act(Action::Review, 20, &mut outbox);
    assert_eq!(pane.step, Step::Editing);
    assert_eq!(pane.problem.as_deref(), Some("the config id is required"));
    pane.set_config_id("1001").unwrap();
    assert!(pane.problem.is_none());
    pane.act(Action::Review, 20, &mut outbox);
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
    let mut pane = form();
    set_text(&mut pane, Row::ConfigId, "1003", &mut outbox);
    // autoScan: unchanged → on.
    select(&mut pane, Row::AutoScan);
    pane.act(Action::Toggle, 20, &mut outbox);
    // diffEnabled: unchanged → on → off (Enter toggles too).
    select(&mut pane, Row::DiffEnabled);
    pane.act(Action::Toggle, 20, &mut outbox);
    pane.act(Action::Submit, 20, &mut outbox);
    // subscribe: on, then reset to unchanged with Ctrl-r.
    select(&mut pane, Row::Subscribe);
    pane.act(Action::Toggle, 20, &mut outbox);
    pane.act(Action::ClearField, 20, &mut outbox);
    // useNetworkBroker: all the way round, back to unchanged.
    select(&mut pane, Row::NetworkBroker);
    for _ in 0..3 {
        pane.act(Action::Toggle, 20, &mut outbox);
    }
    set_text(&mut pane, Row::Namespace, " acme-new ", &mut outbox);

    // Enter on the last row opens the review.
    select(&mut pane, Row::Review);
    pane.act(Action::Submit, 20, &mut outbox);
    assert_eq!(pane.step, Step::Review);
    assert_eq!(pane.contexts(), vec![Context::REVIEW]);
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
    pane.act(Action::Back, 20, &mut outbox);
    assert_eq!(pane.step, Step::Editing);
    assert!(pane.review.is_none());
    assert_eq!(pane.draft.auto_scan, Some(true));
    assert_eq!(pane.draft.diff_enabled, Some(false));
    assert_eq!(pane.draft.namespace.as_deref(), Some(" acme-new "));
    assert!(outbox.effects.is_empty(), "nothing is sent before confirm");
}

#[test]
fn esc_discards_an_edit_and_enter_keeps_it() {
    let mut outbox = Outbox::default();
    let mut pane = form();
    pane.set_config_id("1001").unwrap();
    set_text(&mut pane, Row::Namespace, "acme", &mut outbox);
    pane.act(Action::Submit, 20, &mut outbox);
    type_text(&mut pane, "-other", &mut outbox);
    pane.type_key(key(KeyCode::Esc), &mut outbox);
    assert!(!pane.text_input_active());
    assert_eq!(pane.draft.namespace.as_deref(), Some("acme"));

    // The token: Esc keeps the old one, Enter on nothing keeps it too.
    set_text(&mut pane, Row::AccessToken, SECRET, &mut outbox);
    pane.act(Action::Submit, 20, &mut outbox);
    type_text(&mut pane, "other", &mut outbox);
    pane.type_key(key(KeyCode::Esc), &mut outbox);
    assert_eq!(pane.draft.access_token, SECRET);
    pane.act(Action::Submit, 20, &mut outbox);
    pane.type_key(key(KeyCode::Enter), &mut outbox);
    assert_eq!(pane.draft.access_token, SECRET);
    pane.act(Action::ClearField, 20, &mut outbox);
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
        let mut pane = form();
        pane.draft.config_id = id.into();
        pane.draft.namespace = (!namespace.is_empty()).then(|| namespace.to_owned());
        pane.draft.auto_scan = Some(false);
        pane.act(Action::Review, 20, &mut outbox);
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
    let mut pane = form();
    pane.set_config_id("1001").unwrap();
    // While the token is typed.
    select(&mut pane, Row::AccessToken);
    pane.act(Action::Submit, 20, &mut outbox);
    type_text(&mut pane, SECRET, &mut outbox);
    let app = app_with(pane, 120, 35);
    assert_no_secret(&render(&app, 120, 35));
    let mut pane = take_scm(app);
    pane.type_key(key(KeyCode::Enter), &mut outbox);
    assert!(pane.draft.has_token());
    // In the form.
    let app = app_with(pane, 120, 35);
    let screen = render(&app, 120, 35);
    assert!(screen.contains("•••• (set)"), "{screen}");
    assert_no_secret(&screen);
    // On the review, at both sizes.
    let mut pane = take_scm(app);
    pane.act(Action::Review, 20, &mut outbox);
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
        assert!(!app.scm().status(&app.view_cx()).contains(SECRET));
    }
    assert!(!format!("{:?}", app.scm()).contains(SECRET));
}

/// The SCM pane out of an app (to go on driving it alone).
fn take_scm(mut app: App) -> ScmPane {
    std::mem::take(app.scm_mut())
}

mod list;
mod sending;
