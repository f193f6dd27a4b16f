//! The TUI loading every finding (`G`) as it does for a user but for the
//! terminal: the app, the API worker over real HTTP, every reply handed to
//! `update`.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use findings_client::{Client, ClientConfig, Token};
use findings_tui::app::{App, Effect, Msg, Session};
use findings_tui::keymap::Keymap;
use findings_tui::runtime::worker::{self, WorkerCommand};
use findings_tui::theme::Theme;
use std::time::Instant;

/// `G` against `url` until every finding is loaded; seconds, and the
/// findings loaded.
pub async fn load_everything(url: &str, deployment: &str, token: &str) -> (f64, usize) {
    let client =
        Client::new(ClientConfig::new(url, deployment, Token::new(token))).expect("a client");
    let (commands, mut replies) = worker::spawn(client);
    let send = |effects: Vec<Effect>| {
        for effect in effects {
            let command = match effect {
                Effect::Send { id, request } => WorkerCommand::Send { id, request },
                Effect::Cancel(id) => WorkerCommand::Cancel { id },
                _ => continue,
            };
            commands.send(command).expect("the worker runs");
        }
    };
    let mut app = App::new(
        Session::default(),
        Keymap::default_keymap(),
        Theme::default(),
        (200, 60),
    );
    let started = Instant::now();
    send(app.start());
    send(app.update(Msg::Key(KeyEvent::new(
        KeyCode::Char('G'),
        KeyModifiers::SHIFT,
    ))));
    while !app.issues().list.complete {
        let reply = replies.recv().await.expect("a reply");
        send(app.update(Msg::Reply(reply)));
    }
    (
        started.elapsed().as_secs_f64(),
        app.issues().list.items.len(),
    )
}
