//! The TUI loading every finding (`G`) as it does for a user but for the
//! terminal: the app, the API worker over real HTTP, every reply handed to
//! `update`.

// Each bench that includes this uses a part of it (latency: the seconds).
#![allow(dead_code)]

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use findings_client::{Client, ClientConfig, Token};
use findings_tui::app::{App, Effect, Msg, Session};
use findings_tui::keymap::Keymap;
use findings_tui::runtime::worker::{self, WorkerCommand};
use findings_tui::theme::Theme;
use std::time::Instant;

/// A load of everything: seconds, the findings loaded, and this process's
/// resident bytes with the first page in and with everything in.
pub struct Loaded {
    pub seconds: f64,
    pub findings: usize,
    pub first_page_resident: u64,
    pub resident: u64,
}

/// This process's resident bytes (0 where /proc is not).
fn resident() -> u64 {
    crate::figures::status_bytes("VmRSS:").unwrap_or(0)
}

/// `G` against `url` until every finding is loaded.
pub async fn load_everything(url: &str, deployment: &str, token: &str) -> Loaded {
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
    let mut first_page_resident = 0;
    while !app.issues().list.complete {
        let reply = replies.recv().await.expect("a reply");
        send(app.update(Msg::Reply(reply)));
        if first_page_resident == 0 && !app.issues().list.items.is_empty() {
            first_page_resident = resident();
        }
    }
    Loaded {
        seconds: started.elapsed().as_secs_f64(),
        findings: app.issues().list.items.len(),
        first_page_resident,
        resident: resident(),
    }
}
