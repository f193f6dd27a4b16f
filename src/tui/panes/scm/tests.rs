use super::*;
use crate::api::ApiError;
use crate::api::model::*;
use crate::tui::app::{App, Effect, Msg, Session};
use crate::tui::keymap::Keymap;
use crate::tui::message::AppEvent;
use crate::tui::pane::Pane;
use crate::tui::pane::testing::Drive;
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
    pane.set_config_id("1001");
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
    app.pane = crate::tui::panes::scm::ID;
    *app.scm_mut() = pane;
    app
}

fn render(app: &App, w: u16, h: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal
        .draw(|f| crate::tui::app::view::draw(f, app))
        .unwrap();
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
    let mut pane = ScmPane::new(&Session {
        read_only: false,
        ..Session::default()
    });
    assert_eq!(pane.contexts(), vec![Context::Scm]);
    pane.act(Action::Review, 20, &mut outbox);
    assert_eq!(pane.step, Step::Editing);
    assert_eq!(pane.problem.as_deref(), Some("the config id is required"));
    pane.set_config_id("1001");
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
    let mut pane = ScmPane::new(&Session {
        read_only: false,
        ..Session::default()
    });
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
    pane.act(Action::Back, 20, &mut outbox);
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
    let mut pane = ScmPane::new(&Session {
        read_only: false,
        ..Session::default()
    });
    set_text(&mut pane, Row::Namespace, "acme", &mut outbox);
    pane.act(Action::Submit, 20, &mut outbox);
    type_text(&mut pane, "-other", &mut outbox);
    pane.type_key(key(KeyCode::Esc), &mut outbox);
    assert!(!pane.text_input_active());
    assert_eq!(pane.draft.namespace, "acme");

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
        let mut pane = ScmPane::new(&Session {
            read_only: false,
            ..Session::default()
        });
        pane.draft.config_id = id.into();
        pane.draft.namespace = namespace.into();
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
    let mut pane = ScmPane::new(&Session {
        read_only: false,
        ..Session::default()
    });
    pane.set_config_id("1001");
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

#[test]
fn confirm_sends_one_update_and_never_a_second_while_in_flight() {
    let mut outbox = Outbox::default();
    let mut pane = reviewed(false, &mut outbox);
    pane.act(Action::Confirm, 20, &mut outbox);
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
        pane.act(action, 20, &mut outbox);
    }
    assert_eq!(sends(&outbox).len(), 1);
    assert_eq!(pane.step, Step::Sending);
    assert_eq!(outbox.effects.len(), 1, "no cancel either");
}

#[test]
fn a_success_shows_the_returned_config_and_forgets_the_token() {
    let mut outbox = Outbox::default();
    let (mut pane, id) = sent(&mut outbox);
    // Someone else's reply is not taken.
    pane.reply(
        id + 100,
        Err(ApiError::Timeout(Duration::ZERO)),
        &mut outbox,
    );
    assert_eq!(pane.step, Step::Sending);
    let reply = Ok(ApiResponse::Scm(ScmConfigResponse {
        config: Some(demo_config()),
    }));
    pane.reply(id, reply, &mut outbox);
    assert_eq!(pane.step, Step::Sent);
    assert!(!pane.is_loading());
    assert!(!pane.draft.has_token());
    assert_eq!(pane.draft.auto_scan, Some(true), "the rest stays on show");
    assert_eq!(pane.draft.config_id, "1001");
    assert_eq!(pane.contexts(), vec![Context::Scm]);
    // A late duplicate of the same id is no longer this pane's.
    pane.reply(id, Err(ApiError::Timeout(Duration::ZERO)), &mut outbox);
    assert_eq!(pane.step, Step::Sent);

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
    assert!(app.scm().status(&app.view_cx()).contains("sent"));
    // Scroll to the end to see the subscriptions.
    let mut app = app;
    for _ in 0..5 {
        app.scm_mut().act(Action::PageDown, 20, &mut outbox);
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
    pane.reply(id, Err(err), &mut outbox);
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
    let mut pane = take_scm(app);
    pane.act(Action::Review, 20, &mut outbox);
    assert_eq!(
        pane.review.as_ref().unwrap().patch.access_token.as_deref(),
        Some(SECRET)
    );
    pane.act(Action::Confirm, 20, &mut outbox);
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
        pane.reply(id, Err(err), &mut outbox);
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
        assert!(app.scm().status(&app.view_cx()).contains("outcome unknown"));
    }
    // A plain refusal is not "unknown".
    let mut outbox = Outbox::default();
    let (mut pane, id) = sent(&mut outbox);
    pane.reply(id, Err(server_error(404, "no such config")), &mut outbox);
    assert!(pane.failure.as_ref().unwrap().note.is_none());
}

#[test]
fn read_only_never_sends_the_update() {
    for outbox_read_only in [false, true] {
        let mut outbox = Outbox::default();
        outbox.read_only = outbox_read_only;
        let mut pane = reviewed(true, &mut outbox);
        for _ in 0..3 {
            pane.act(Action::Confirm, 20, &mut outbox);
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
        assert!(app.scm().status(&app.view_cx()).contains("READ-ONLY"));
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
    assert_eq!(app.pane, crate::tui::panes::scm::ID);
    // Enter edits the config id; typed keys go to the input (even 'q').
    press(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    for c in "1002".chars() {
        ch(&mut app, c);
    }
    press(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    assert_eq!(app.scm().draft.config_id, "1002");
    assert!(!app.quit);
    // j three times to autoScan, Space turns it on; Tab to useNetworkBroker, Space on.
    for _ in 0..3 {
        ch(&mut app, 'j');
    }
    ch(&mut app, ' ');
    press(&mut app, KeyCode::Tab, KeyModifiers::NONE);
    ch(&mut app, ' ');
    ch(&mut app, ' ');
    assert_eq!(app.scm().draft.auto_scan, Some(true));
    assert_eq!(app.scm().draft.use_network_broker, Some(false));
    assert_eq!(
        app.pane,
        crate::tui::panes::scm::ID,
        "Tab moves the field here"
    );
    ch(&mut app, 'R');
    assert_eq!(app.scm().step, Step::Review);
    ch(&mut app, 'n');
    assert_eq!(app.scm().step, Step::Editing);
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
    states.push(ScmPane::new(&Session {
        read_only: false,
        ..Session::default()
    }));
    let mut editing = ScmPane::new(&Session {
        read_only: false,
        ..Session::default()
    });
    editing.act(Action::Submit, 20, &mut outbox);
    type_text(&mut editing, &"x".repeat(300), &mut outbox);
    states.push(editing);
    let mut token_editing = ScmPane::new(&Session {
        read_only: false,
        ..Session::default()
    });
    select(&mut token_editing, Row::AccessToken);
    token_editing.act(Action::Submit, 20, &mut outbox);
    type_text(&mut token_editing, SECRET, &mut outbox);
    states.push(token_editing);
    states.push(reviewed(false, &mut outbox));
    states.push(reviewed(true, &mut outbox));
    let (sending, _) = sent(&mut outbox);
    states.push(sending);
    let (mut done, id) = sent(&mut outbox);
    let mut config = demo_config();
    config.subscriptions = vec![Subscription::default(); 40];
    done.reply(
        id,
        Ok(ApiResponse::Scm(ScmConfigResponse {
            config: Some(config),
        })),
        &mut outbox,
    );
    for _ in 0..20 {
        done.act(Action::PageDown, 20, &mut outbox);
    }
    states.push(done);
    let (mut empty, id) = sent(&mut outbox);
    empty.reply(
        id,
        Ok(ApiResponse::Scm(ScmConfigResponse::default())),
        &mut outbox,
    );
    states.push(empty);
    let (mut failed, id) = sent(&mut outbox);
    failed.reply(
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

/// The SCM pane out of an app (to go on driving it alone).
fn take_scm(mut app: App) -> ScmPane {
    std::mem::take(app.scm_mut())
}
