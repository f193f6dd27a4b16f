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
    app.scm_mut().draft = crate::tui::panes::scm::Draft::new("1001", None);
    app.scm_mut().draft.namespace = Some("acme".into());
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

#[test]
fn colon_q_goes_through_the_same_guard_as_q() {
    let command = |app: &mut App, line: &str| {
        press(app, KeyCode::Char(':'));
        for c in line.chars() {
            press(app, KeyCode::Char(c));
        }
        press(app, KeyCode::Enter);
    };
    let with_draft = || {
        let mut app = App::new(
            Session::default(),
            Keymap::default_keymap(),
            Theme::default(),
            (100, 30),
        );
        app.scm_mut().draft = crate::tui::panes::scm::Draft::new("1001", None);
        app.scm_mut().draft.namespace = Some("acme".into());
        app
    };
    let mut app = with_draft();
    command(&mut app, "q");
    assert!(!app.quit, ":q must not drop an unsent draft");
    assert_eq!(
        app.status.as_deref(),
        Some("the SCM draft has not been sent: :q! quits and drops it")
    );
    // Asked once: q now quits, as after a first q.
    press(&mut app, KeyCode::Char('q'));
    assert!(app.quit);

    let mut app = with_draft();
    command(&mut app, "q!");
    assert!(app.quit, ":q! quits without asking");

    let mut app = App::new(
        Session::default(),
        Keymap::default_keymap(),
        Theme::default(),
        (100, 30),
    );
    command(&mut app, "quit");
    assert!(app.quit, "nothing unsent: :quit quits at once");
}

#[test]
fn q_with_a_kept_triage_draft_asks_first() {
    use crate::triage::Target;
    use crate::tui::triage::plan::Scope;
    let mut app = App::new(
        Session::default(),
        Keymap::default_keymap(),
        Theme::default(),
        (100, 30),
    );
    let target = Target::finding(&crate::api::model::Issue {
        id: Some("7".into()),
        ..Default::default()
    });
    app.triage.open(Scope::Ids(vec![target]), &mut app.outbox);
    assert!(app.triage.is_open());
    // The dialog has the keys: q is text for it, not quit.
    press(&mut app, KeyCode::Char('q'));
    assert!(!app.quit);
    press(&mut app, KeyCode::Esc);
    assert!(!app.triage.is_open());
    press(&mut app, KeyCode::Char('q'));
    assert!(!app.quit, "the first q only warns");
    assert!(
        app.status.as_deref().unwrap().contains("triage draft"),
        "{:?}",
        app.status
    );
    press(&mut app, KeyCode::Char('q'));
    assert!(app.quit);
}
