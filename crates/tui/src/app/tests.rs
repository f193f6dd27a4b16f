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
    app.overlay = Some(Overlay::error("Loading findings failed", "HTTP 503"));
    app.status = Some("Loading findings failed: HTTP 503".into());
    press(&mut app, KeyCode::Esc);
    assert!(app.overlay.is_none());
    assert_eq!(
        app.status.as_deref(),
        Some("Loading findings failed: HTTP 503")
    );
}

fn app() -> App {
    App::new(
        Session::default(),
        Keymap::default_keymap(),
        Theme::default(),
        (100, 30),
    )
}

fn with_scm_draft() -> App {
    let mut app = app();
    app.scm_mut().draft = crate::panes::scm::Draft::new("1001", None);
    app.scm_mut().draft.namespace = Some("acme".into());
    app
}

fn quit_prompt(app: &App) -> Vec<String> {
    match &app.overlay {
        Some(Overlay::Question { question, .. }) => question.items.clone(),
        other => panic!("no quit prompt: {other:?}"),
    }
}

#[test]
fn q_with_an_unsent_scm_draft_asks_and_only_y_quits() {
    // No draft: q quits at once.
    let mut app = app();
    press(&mut app, KeyCode::Char('q'));
    assert!(app.quit);

    let mut app = with_scm_draft();
    press(&mut app, KeyCode::Char('q'));
    assert!(!app.quit, "the first q only asks");
    assert_eq!(
        quit_prompt(&app),
        vec!["an unsent SCM draft of config 1001".to_owned()]
    );
    // A double tap is not a yes.
    press(&mut app, KeyCode::Char('q'));
    assert!(!app.quit, "q q does not quit");
    assert!(!quit_prompt(&app).is_empty(), "still asking");
    // n stays, with the draft.
    press(&mut app, KeyCode::Char('n'));
    assert!(app.overlay.is_none() && !app.quit);
    assert_eq!(app.scm().draft.namespace.as_deref(), Some("acme"));
    // y quits.
    press(&mut app, KeyCode::Char('q'));
    press(&mut app, KeyCode::Char('y'));
    assert!(app.quit);
}

#[test]
fn ctrl_c_asks_once_with_unsent_work_and_a_second_forces() {
    let ctrl_c = |app: &mut App| {
        app.update(Msg::Key(KeyEvent::new(
            KeyCode::Char('c'),
            KeyModifiers::CONTROL,
        )))
    };
    let mut app = app();
    ctrl_c(&mut app);
    assert!(app.quit, "nothing unsent: Ctrl-C quits at once");
    let mut app = with_scm_draft();
    ctrl_c(&mut app);
    assert!(!app.quit);
    assert_eq!(quit_prompt(&app).len(), 1);
    ctrl_c(&mut app);
    assert!(app.quit, "Ctrl-C again forces");
}

#[test]
fn colon_q_goes_through_the_same_prompt_as_q() {
    let command = |app: &mut App, line: &str| {
        press(app, KeyCode::Char(':'));
        for c in line.chars() {
            press(app, KeyCode::Char(c));
        }
        press(app, KeyCode::Enter);
    };
    let mut app = with_scm_draft();
    command(&mut app, "q");
    assert!(!app.quit, ":q must not drop an unsent draft");
    assert_eq!(quit_prompt(&app).len(), 1);
    press(&mut app, KeyCode::Esc);
    assert!(app.overlay.is_none() && !app.quit);

    let mut app = with_scm_draft();
    command(&mut app, "q!");
    assert!(app.quit, ":q! quits without asking");

    let mut app = self::app();
    command(&mut app, "quit");
    assert!(app.quit, "nothing unsent: :quit quits at once");
}

#[test]
fn q_with_a_kept_triage_draft_asks_naming_its_findings() {
    use crate::triage::plan::Scope;
    use findings_requests::triage::Target;
    let mut app = app();
    let target = Target::finding(&findings_model::Issue {
        id: Some("7".into()),
        ..Default::default()
    });
    app.triage.open(Scope::Ids(vec![target]), &mut app.outbox);
    assert!(app.triage.is_open());
    // The dialog has the keys: q is no quit; → picks another state.
    press(&mut app, KeyCode::Char('q'));
    assert!(!app.quit);
    press(&mut app, KeyCode::Right);
    press(&mut app, KeyCode::Esc);
    assert!(!app.triage.is_open());
    press(&mut app, KeyCode::Char('q'));
    assert!(!app.quit, "the first q only asks");
    assert_eq!(
        quit_prompt(&app),
        vec!["a kept triage draft for finding 7 (reviewing)".to_owned()]
    );
    press(&mut app, KeyCode::Char('q'));
    assert!(!app.quit, "q q does not quit");
    press(&mut app, KeyCode::Char('y'));
    assert!(app.quit);
}

/// An app whose Issues list holds one finding with a link.
fn with_one_row() -> (App, Issue) {
    use crate::message::{ApiRequest, ApiResponse, Reply};
    use findings_model::{IssueItem, ListIssuesResponse};
    let mut app = app();
    let effects = app.start();
    let Some((id, ())) = effects.iter().find_map(|e| match e {
        Effect::Send {
            id,
            request: ApiRequest::ListRows(_),
        } => Some((*id, ())),
        _ => None,
    }) else {
        panic!("the list is asked for")
    };
    let issue = Issue {
        id: Some("f1".into()),
        line_of_code_url: Some("https://git.example/a.py#L3".into()),
        message: Some("kept by the server, not the row".into()),
        ..Issue::default()
    };
    let page = ListIssuesResponse {
        issues: vec![IssueItem {
            issue: Some(issue.clone()),
            ..IssueItem::default()
        }],
        cursor: None,
    };
    app.update(Msg::Reply(Reply {
        id,
        result: Ok(ApiResponse::ListIssues(page)),
    }));
    (app, issue)
}

fn fetch_sent(effects: &[Effect]) -> Option<crate::message::RequestId> {
    effects.iter().find_map(|e| match e {
        Effect::Send {
            id,
            request: crate::message::ApiRequest::GetIssues { ids, items: true },
        } if ids == &["f1".to_owned()] => Some(*id),
        _ => None,
    })
}

#[test]
fn o_fetches_the_finding_whole_says_so_and_opens_its_link_when_it_comes() {
    use crate::message::{ApiResponse, ExportItems, Reply};
    let (mut app, issue) = with_one_row();
    let effects = press(&mut app, KeyCode::Char('o'));
    let id = fetch_sent(&effects).expect("the finding is fetched for its link");
    assert!(!effects.iter().any(|e| matches!(e, Effect::OpenUrl(_))));
    assert!(
        app.fetching.is_some() && app.is_loading(),
        "the spinner runs"
    );
    assert!(
        app.status
            .as_deref()
            .unwrap()
            .starts_with("fetching the finding")
    );
    let whole = ExportItems::Issues(vec![findings_model::IssueItem {
        issue: Some(issue),
        ..Default::default()
    }]);
    let effects = app.update(Msg::Reply(Reply {
        id,
        result: Ok(ApiResponse::Items(whole)),
    }));
    assert!(
        effects.iter().any(
            |e| matches!(e, Effect::OpenUrl(u) if u.as_str() == "https://git.example/a.py#L3")
        )
    );
    assert!(app.fetching.is_none());
    // Fetched once: the copy menu's link is copied at once.
    press(&mut app, KeyCode::Char('y'));
    let effects = press(&mut app, KeyCode::Char('u'));
    assert!(fetch_sent(&effects).is_none());
    assert!(effects.iter().any(|e| matches!(e, Effect::Copy(_))));
}

#[test]
fn esc_stops_a_fetch_and_a_failed_fetch_says_why() {
    use crate::message::Reply;
    let (mut app, _) = with_one_row();
    let effects = press(&mut app, KeyCode::Char('o'));
    let id = fetch_sent(&effects).unwrap();
    let effects = press(&mut app, KeyCode::Esc);
    assert!(effects.contains(&Effect::Cancel(id)));
    assert!(app.fetching.is_none());
    assert_eq!(app.status.as_deref(), Some("fetch stopped"));
    // A late answer is dropped.
    let effects = app.update(Msg::Reply(Reply {
        id,
        result: Err(findings_client::ApiError::Connection("reset".into())),
    }));
    assert!(effects.is_empty() && app.overlay.is_none());
    let effects = press(&mut app, KeyCode::Char('o'));
    let id = fetch_sent(&effects).unwrap();
    app.update(Msg::Reply(Reply {
        id,
        result: Err(findings_client::ApiError::Connection("reset".into())),
    }));
    assert!(
        matches!(&app.overlay, Some(Overlay::Error { message, .. }) if message.contains("reset"))
    );
    assert!(app.fetching.is_none());
}

/// The header names the deployment with its name and id each once ("Acme
/// Corp (demo) · 1234", a name with parentheses of its own), and gives way
/// to the id alone, then the bare id, as the width shrinks.
#[test]
fn the_header_names_the_deployment_once_each_and_gives_way_by_width() {
    use ratatui::{Terminal, backend::TestBackend};
    let session = Session {
        deployment: "1234".into(),
        deployment_name: Some("Acme Corp (demo)".into()),
        ..Session::default()
    };
    let header_at = |width: u16| {
        let app = App::new(
            session.clone(),
            Keymap::default_keymap(),
            Theme::default(),
            (width, 20),
        );
        let mut terminal = Terminal::new(TestBackend::new(width, 20)).unwrap();
        terminal.draw(|f| super::view::draw(f, &app)).unwrap();
        let buffer = terminal.backend().buffer();
        (0..width)
            .map(|x| buffer[(x, 0)].symbol().to_owned())
            .collect::<String>()
    };
    let wide = header_at(120);
    assert!(wide.contains("Acme Corp (demo) · 1234"), "{wide}");
    assert!(!wide.contains("(1234)"), "{wide}");
    let narrow = header_at(60);
    assert!(!narrow.contains("Acme"), "{narrow}");
}

#[test]
fn a_pane_question_takes_only_its_answers_and_ctrl_c_answers_no_first() {
    use crate::message::{Asker, Question};
    let mut app = with_scm_draft();
    app.outbox.events.push(AppEvent::Ask(Box::new(Question {
        title: "Drop the 1,824 findings loaded?".into(),
        said: String::new(),
        items: Vec::new(),
        yes: "apply".into(),
        no: "keep".into(),
        asker: Asker::Pane(crate::panes::issues::ID),
    })));
    app.update(Msg::Tick);
    for code in [
        KeyCode::Char(':'),
        KeyCode::Char('e'),
        KeyCode::Enter,
        KeyCode::Char('q'),
    ] {
        let effects = press(&mut app, code);
        assert!(effects.is_empty(), "{code:?}: {effects:?}");
        assert!(
            matches!(&app.overlay, Some(Overlay::Question { nagged: true, question }) if question.asker != Asker::Quit),
            "{code:?}: {:?}",
            app.overlay
        );
    }
    assert_eq!(
        app.said_first().as_deref(),
        Some("y or n: Drop the 1,824 findings loaded?")
    );
    // Ctrl-C: the pane's question is answered no, and quitting is asked.
    app.update(Msg::Key(KeyEvent::new(
        KeyCode::Char('c'),
        KeyModifiers::CONTROL,
    )));
    assert_eq!(quit_prompt(&app).len(), 1);
    assert!(!app.quit);
}

/// Ctrl-z suspends from anywhere (a prompt, the triage's popups), but not
/// while a triage is in flight, popup shown or not: it says why instead.
#[test]
fn ctrl_z_suspends_anywhere_but_says_why_not_while_a_triage_is_sent() {
    use crate::message::Reply;
    let ctrl_z = |app: &mut App| {
        app.update(Msg::Key(KeyEvent::new(
            KeyCode::Char('z'),
            KeyModifiers::CONTROL,
        )))
    };
    let suspends = |effects: &[Effect]| effects.iter().any(|e| matches!(e, Effect::Suspend));
    let mut app = app();
    // In the command line, a prompt.
    press(&mut app, KeyCode::Char(':'));
    assert!(suspends(&ctrl_z(&mut app)), "in the command line");
    press(&mut app, KeyCode::Esc);
    // On the triage's review, then sending it.
    app.triage = crate::triage::tests::reviewed(&["7"], "fp", &mut app.outbox);
    assert!(suspends(&ctrl_z(&mut app)), "on the review");
    let effects = press(&mut app, KeyCode::Char('y'));
    let sent = effects
        .iter()
        .find_map(|e| match e {
            Effect::Send { id, request } if request.is_write() => Some(*id),
            _ => None,
        })
        .expect("the triage is sent");
    assert!(app.triage.is_open(), "the Sending popup is up");
    let refused = "Ctrl-z: not while a triage is being sent";
    assert!(!suspends(&ctrl_z(&mut app)), "not mid-send");
    assert!(
        app.status
            .as_deref()
            .is_some_and(|s| s.starts_with(refused)),
        "{:?}",
        app.status
    );
    // The popup hidden, the triage still goes on: still not.
    press(&mut app, KeyCode::Esc);
    assert!(!app.triage.is_open() && app.triage.in_flight());
    assert!(!suspends(&ctrl_z(&mut app)), "not mid-send, popup hidden");
    assert!(
        app.status
            .as_deref()
            .is_some_and(|s| s.starts_with(refused))
    );
    // Answered: it suspends again.
    app.update(Msg::Reply(Reply {
        id: sent,
        result: crate::triage::tests::answer(1),
    }));
    assert!(!app.triage.in_flight());
    assert!(suspends(&ctrl_z(&mut app)), "after the answer");
}

#[test]
fn a_search_through_many_rows_runs_between_keys_and_an_export_waits_for_it() {
    use crate::message::{ApiRequest, ApiResponse, Reply};
    use crate::panes::issues::IssuesPane;
    use findings_model::{IssueItem, ListIssuesResponse};
    let mut app = app();
    app.pane_of_mut::<IssuesPane>().slice = crate::panes::issues::SliceRows(100);
    let effects = app.start();
    let id = effects
        .iter()
        .find_map(|e| match e {
            Effect::Send {
                id,
                request: ApiRequest::ListRows(_),
            } => Some(*id),
            _ => None,
        })
        .expect("the list is asked for");
    let issues = (0..1000)
        .map(|i| IssueItem {
            issue: Some(Issue {
                id: Some(format!("f{i}")),
                message: Some(format!("row {i}")),
                ..Issue::default()
            }),
            ..IssueItem::default()
        })
        .collect();
    app.update(Msg::Reply(Reply {
        id,
        result: Ok(ApiResponse::ListIssues(ListIssuesResponse {
            issues,
            cursor: None,
        })),
    }));
    for code in [KeyCode::Char('/'), KeyCode::Char('7'), KeyCode::Enter] {
        press(&mut app, code);
    }
    assert!(app.has_work(), "a slice done, nine left");
    assert_eq!(app.pane_of::<IssuesPane>().search_progress(), Some(10));
    // `e` exports the rows shown: not while they are partial.
    press(&mut app, KeyCode::Char('e'));
    assert!(app.overlay.is_none(), "no export prompt");
    let said = app.status.clone().unwrap_or_default();
    assert!(
        said.starts_with("still searching /7 (10%): export acts on the rows shown"),
        "{said}"
    );
    let mut slices = 0;
    while app.has_work() {
        app.update(Msg::Work);
        slices += 1;
    }
    assert_eq!(slices, 9);
    // 7, 17, …, 97 (10), 70–79 (10, 77 counted once), 107–997 (…).
    let pane = app.pane_of::<IssuesPane>();
    let by_contains = (0..1000).filter(|i| i.to_string().contains('7')).count();
    assert_eq!(pane.list.len(), by_contains);
    press(&mut app, KeyCode::Char('e'));
    assert!(
        matches!(app.overlay, Some(Overlay::Export(_))),
        "exact: the prompt opens"
    );
}
