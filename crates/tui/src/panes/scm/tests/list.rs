//! The list of configs: the form starts from a config's values, a draft
//! stays with its config, the answer updates the row and is checked.

use super::*;

fn listed() -> Vec<ScmConfig> {
    let second = ScmConfig {
        id: Some("1002".into()),
        namespace: Some("acme-platform".into()),
        auto_scan: Some(false),
        use_network_broker: Some(true),
        auto_scan_settings: None,
        has_access_token: Some(false),
        ..demo_config()
    };
    vec![demo_config(), second]
}

/// A pane whose list was asked for and answered with [`listed`].
fn with_list(outbox: &mut Outbox) -> ScmPane {
    let mut pane = ScmPane::new(&Session::default());
    pane.start(outbox);
    let requests: Vec<_> = outbox
        .requests()
        .into_iter()
        .filter(|(_, r)| matches!(r, ApiRequest::ListScmConfigs(_)))
        .map(|(id, _)| id)
        .collect();
    assert_eq!(requests.len(), 1, "the list is asked for on first show");
    assert!(pane.is_loading());
    pane.reply(requests[0], Ok(ApiResponse::ScmConfigs(listed())), outbox);
    assert_eq!(pane.list.load, Load::Loaded);
    assert!(!pane.is_loading());
    pane
}

#[test]
fn the_pane_opens_on_the_configs_with_their_values() {
    let mut outbox = Outbox::default();
    let pane = with_list(&mut outbox);
    assert_eq!(pane.mode, Mode::List);
    assert_eq!(pane.contexts(), vec![crate::panes::scm::LIST_KEYS]);
    let app = app_with(pane, 120, 35);
    let screen = render(&app, 120, 35);
    for header in [
        "TYPE",
        "NAMESPACE",
        "AUTO SCAN",
        "BROKER",
        "DIFF SCAN",
        "TOKEN",
        "LAST SYNC",
        "STATUS",
    ] {
        assert!(screen.contains(header), "{header}:\n{screen}");
    }
    // 1001: host-a, autoScan on, broker off, diff on, token, failing.
    let row = screen.lines().find(|l| l.contains("1001")).unwrap();
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(
        &cells[1..8],
        ["1001", "host-a", "acme", "on", "off", "on", "yes"],
        "{row}"
    );
    assert!(
        // The columns fit their content: the whole error, made safe.
        row.contains("2025-03-01 08:00") && row.contains("error: token expired␛[2J"),
        "{row}"
    );
    // Wide enough, the whole error, made safe.
    let app = app_with(take_scm(app), 200, 35);
    let screen = render(&app, 200, 35);
    assert!(screen.contains("error: token expired␛[2J"), "{screen}");
    let row = screen.lines().find(|l| l.contains("1002")).unwrap();
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(
        &cells[3..8],
        ["acme-platform", "off", "on", "off", "no"],
        "{row}"
    );
}

#[test]
fn enter_edits_the_selected_config_from_its_current_values() {
    let mut outbox = Outbox::default();
    let mut pane = with_list(&mut outbox);
    pane.act(Action::Down, 20, &mut outbox);
    pane.act(Action::Open, 20, &mut outbox);
    assert_eq!(pane.mode, Mode::Form);
    assert_eq!(pane.contexts(), vec![crate::panes::scm::KEYS]);
    assert_eq!(pane.draft.config_id, "1002");
    assert_eq!(pane.draft.changes(), 0);
    let app = app_with(pane, 120, 35);
    let screen = render(&app, 120, 35);
    let value = |label: &str| {
        let line = screen.lines().find(|l| l.contains(label)).unwrap();
        line.split(label)
            .nth(1)
            .unwrap()
            .split('│')
            .next()
            .unwrap()
            .trim()
            .to_owned()
    };
    assert_eq!(value("namespace "), "acme-platform");
    assert_eq!(value("autoScan "), "off");
    assert_eq!(value("useNetworkBroker "), "on");
    assert_eq!(value("diffEnabled "), "off");
    assert_eq!(value("access token "), "none (unchanged)");
    assert!(screen.contains("Current config"), "{screen}");

    // Space flips a value; a second Space goes back to it (nothing sent).
    let mut pane = take_scm(app);
    select(&mut pane, Row::NetworkBroker);
    pane.act(Action::Toggle, 20, &mut outbox);
    assert_eq!(pane.draft.use_network_broker, Some(false));
    pane.act(Action::Toggle, 20, &mut outbox);
    assert_eq!(pane.draft.changes(), 0);
    pane.act(Action::Toggle, 20, &mut outbox);
    // Typing the namespace it has is no change either.
    set_text(&mut pane, Row::Namespace, "acme-platform", &mut outbox);
    assert_eq!(pane.draft.namespace, None);
    pane.act(Action::Review, 20, &mut outbox);
    let review = pane.review.clone().unwrap();
    // The switch to false is written out.
    let shown: serde_json::Value = serde_json::from_str(&review.shown_body("1234")).unwrap();
    assert_eq!(
        shown,
        serde_json::json!({"deploymentId": "1234", "configId": "1002", "useNetworkBroker": false})
    );
    assert_eq!(review.changes(), ["useNetworkBroker: on → off"]);
    let app = app_with(pane, 120, 35);
    let screen = render(&app, 120, 35);
    assert!(screen.contains("useNetworkBroker: on → off"), "{screen}");
    assert!(screen.contains(r#""useNetworkBroker": false"#), "{screen}");
}

#[test]
fn a_draft_never_follows_to_another_config() {
    let mut outbox = Outbox::default();
    let mut pane = with_list(&mut outbox);
    pane.act(Action::Open, 20, &mut outbox);
    select(&mut pane, Row::AutoScan);
    pane.act(Action::Toggle, 20, &mut outbox);
    set_text(&mut pane, Row::AccessToken, SECRET, &mut outbox);
    assert_eq!(pane.draft.changes(), 2);

    // Back to the list: the draft is kept and marked.
    pane.act(Action::Back, 20, &mut outbox);
    assert_eq!(pane.mode, Mode::List);
    assert!(pane.has_draft("1001") && !pane.has_draft("1002"));
    let app = app_with(pane, 120, 35);
    let screen = render(&app, 120, 35);
    let row = screen.lines().find(|l| l.contains("1001")).unwrap();
    assert!(row.contains('✎'), "{row}");
    assert_no_secret(&screen);
    let mut pane = take_scm(app);

    // Another config starts clean: nothing of 1001's draft applies.
    pane.act(Action::Down, 20, &mut outbox);
    pane.act(Action::Open, 20, &mut outbox);
    assert_eq!(pane.draft.config_id, "1002");
    assert_eq!(pane.draft.changes(), 0);
    assert!(!pane.draft.has_token());
    pane.act(Action::Review, 20, &mut outbox);
    assert!(pane.review.is_none(), "nothing to send for 1002");
    assert_eq!(
        pane.unsent_work(),
        vec!["an unsent SCM draft of config 1001".to_owned()],
        "1001's draft still guards q"
    );

    // The config id row and `:scm` switch configs the same way.
    select(&mut pane, Row::Namespace);
    set_text(&mut pane, Row::Namespace, "other", &mut outbox);
    set_text(&mut pane, Row::ConfigId, "1001", &mut outbox);
    assert_eq!(pane.draft.config_id, "1001");
    assert_eq!(
        pane.draft.auto_scan,
        Some(false),
        "1001's own draft is back"
    );
    assert!(pane.draft.has_token());
    assert_eq!(pane.draft.namespace, None);
    assert_eq!(pane.kept["1002"].namespace.as_deref(), Some("other"));
    pane.run("scm", &["1002"], &mut outbox).unwrap();
    assert_eq!(pane.draft.namespace.as_deref(), Some("other"));
    assert!(pane.kept.contains_key("1001"));
    assert_eq!(
        pane.unsent_work(),
        vec![
            "an unsent SCM draft of config 1002".to_owned(),
            "an unsent SCM draft of config 1001".to_owned()
        ]
    );
    assert!(!format!("{pane:?}").contains(SECRET));
    assert!(sends(&outbox).is_empty());
}

#[test]
fn after_a_send_the_form_and_the_row_show_what_came_back() {
    let mut outbox = Outbox::default();
    let mut pane = with_list(&mut outbox);
    pane.act(Action::Open, 20, &mut outbox);
    select(&mut pane, Row::AutoScan);
    pane.act(Action::Toggle, 20, &mut outbox);
    pane.act(Action::Review, 20, &mut outbox);
    pane.act(Action::Confirm, 20, &mut outbox);
    let (id, config_id, patch) = sends(&outbox).remove(0);
    assert_eq!(config_id, "1001");
    assert_eq!(patch.auto_scan, Some(false));
    // Another config cannot be opened while the update is in flight.
    assert!(pane.run("scm", &["1002"], &mut outbox).is_err());
    assert_eq!(pane.draft.config_id, "1001");

    let returned = ScmConfig {
        auto_scan: Some(false),
        ..demo_config()
    };
    pane.reply(
        id,
        Ok(ApiResponse::Scm(ScmConfigResponse {
            config: Some(returned.clone()),
        })),
        &mut outbox,
    );
    assert!(pane.mismatches.is_empty());
    assert_eq!(pane.draft.changes(), 0, "nothing pending");
    assert_eq!(pane.draft.base.as_ref(), Some(&returned));
    assert_eq!(
        pane.list.find("1001"),
        Some(&returned),
        "the row is updated"
    );
    assert!(pane.unsent_work().is_empty());
    pane.act(Action::Back, 20, &mut outbox);
    let app = app_with(pane, 120, 35);
    let screen = render(&app, 120, 35);
    let row = screen.lines().find(|l| l.contains("1001")).unwrap();
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(&cells[1..5], ["1001", "host-a", "acme", "off"], "{row}");
}

#[test]
fn a_field_the_server_did_not_apply_is_said_plainly() {
    let mut outbox = Outbox::default();
    let mut pane = with_list(&mut outbox);
    pane.act(Action::Open, 20, &mut outbox);
    select(&mut pane, Row::AutoScan);
    pane.act(Action::Toggle, 20, &mut outbox);
    pane.act(Action::Review, 20, &mut outbox);
    pane.act(Action::Confirm, 20, &mut outbox);
    let id = sends(&outbox)[0].0;
    // The server answers 200 with autoScan still on.
    pane.reply(
        id,
        Ok(ApiResponse::Scm(ScmConfigResponse {
            config: Some(demo_config()),
        })),
        &mut outbox,
    );
    let said = "autoScan is still on after the update (off was asked)";
    assert_eq!(pane.mismatches, [said]);
    assert!(outbox.events.iter().any(|e| matches!(
        e,
        AppEvent::Error { title, message } if title == "SCM update not applied as asked" && message == said
    )));
    assert!(outbox.events.iter().any(|e| matches!(
        e,
        AppEvent::Status(s) if s.contains(said)
    )));
    // The form shows the config as it is: autoScan on, nothing pending.
    assert_eq!(pane.draft.changes(), 0);
    let app = app_with(pane, 120, 35);
    let screen = render(&app, 120, 35);
    assert!(screen.contains("not as asked"), "{screen}");
    assert!(
        screen.contains("autoScan is still on after the"),
        "{screen}"
    );
}

#[test]
fn without_the_list_a_config_is_edited_by_its_id() {
    let mut outbox = Outbox::default();
    let mut pane = ScmPane::new(&Session::default());
    pane.start(&mut outbox);
    let id = outbox.requests()[0].0;
    pane.reply(id, Err(server_error(503, "down")), &mut outbox);
    assert!(matches!(pane.list.load, Load::Failed(_)));
    let app = app_with(pane, 120, 35);
    let screen = render(&app, 120, 35);
    assert!(screen.contains("could not be listed"), "{screen}");
    assert!(screen.contains(":scm ID"), "{screen}");
    let mut pane = take_scm(app);
    // r asks again; Enter on no rows opens the form by id.
    pane.act(Action::Refresh, 20, &mut outbox);
    assert!(pane.list.is_loading());
    pane.act(Action::Open, 20, &mut outbox);
    assert_eq!(pane.mode, Mode::Form);
    assert_eq!(pane.selected_row(), Row::ConfigId);
    // Other rows wait for an id.
    select(&mut pane, Row::AutoScan);
    pane.act(Action::Toggle, 20, &mut outbox);
    assert_eq!(pane.draft.auto_scan, None);
    assert!(
        pane.problem
            .as_deref()
            .unwrap()
            .contains("choose a config first")
    );
    set_text(&mut pane, Row::ConfigId, "1003", &mut outbox);
    select(&mut pane, Row::AutoScan);
    pane.act(Action::Toggle, 20, &mut outbox);
    pane.act(Action::Review, 20, &mut outbox);
    let review = pane.review.clone().unwrap();
    assert_eq!(review.changes(), ["autoScan: (not known) → on"]);

    // The list arriving later fills a draft with nothing changed.
    let mut pane = ScmPane::new(&Session::default());
    pane.set_config_id("1002").unwrap();
    assert!(pane.draft.base.is_none());
    pane.start(&mut outbox);
    let id = outbox.requests().last().unwrap().0;
    pane.reply(id, Ok(ApiResponse::ScmConfigs(listed())), &mut outbox);
    assert_eq!(pane.draft.base, listed().into_iter().nth(1));
}
