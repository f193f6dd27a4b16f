//! Sending the update: once, never retried, and what each answer leaves.

use super::*;

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
    // y again, Back, Review: nothing more goes out.
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
    // The form shows what came back, with nothing pending.
    assert_eq!(pane.draft.config_id, "1001");
    assert_eq!(pane.draft.changes(), 0);
    assert_eq!(pane.draft.base, Some(demo_config()));
    assert_eq!(
        pane.draft.current(Row::AutoScan),
        Some(ScmValue::Switch(true))
    );
    assert!(pane.mismatches.is_empty(), "{:?}", pane.mismatches);
    assert!(pane.unsent_work().is_empty());
    assert_eq!(pane.contexts(), vec![crate::panes::scm::KEYS]);
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
    assert_eq!(app.pane, crate::panes::scm::ID);
    assert_eq!(app.scm().mode, Mode::List);
    // Nothing listed (no worker here): Enter opens the form by id; Enter
    // edits the config id; typed keys go to the input (even 'q').
    press(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    assert_eq!(app.scm().mode, Mode::Form);
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
    assert_eq!(app.pane, crate::panes::scm::ID, "Tab moves the field here");
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
    states.push(form());
    let mut editing = form();
    editing.act(Action::Submit, 20, &mut outbox);
    type_text(&mut editing, &"x".repeat(300), &mut outbox);
    states.push(editing);
    let mut token_editing = form();
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
