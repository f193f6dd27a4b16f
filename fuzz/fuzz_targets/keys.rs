//! Arbitrary keys, resizes and replies into the app, with a frame drawn now
//! and then: never a panic, the selection always in bounds.
#![no_main]

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use findings_model::*;
use findings_tui::app::{App, Msg, Session};
use findings_tui::keymap::Keymap;
use findings_tui::theme::Theme;
use findings_tui::message::{ApiResponse, Reply};
use libfuzzer_sys::fuzz_target;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn page(n: u8) -> ListIssuesResponse {
    let issues = (0..n)
        .map(|i| IssueItem {
            issue: Some(Issue {
                id: Some(format!("{i}")),
                message: Some("m\u{1b}[2J".into()),
                ..Default::default()
            }),
            ..Default::default()
        })
        .collect();
    ListIssuesResponse { issues, cursor: (n % 3 != 0).then(|| format!("c{n}")) }
}

const KEYS: &[KeyCode] = &[
    KeyCode::Enter, KeyCode::Esc, KeyCode::Tab, KeyCode::BackTab, KeyCode::Up, KeyCode::Down,
    KeyCode::Left, KeyCode::Right, KeyCode::PageUp, KeyCode::PageDown, KeyCode::Home, KeyCode::End,
    KeyCode::Backspace, KeyCode::Delete,
];

fuzz_target!(|data: &[u8]| {
    let mut app = App::new(Session::default(), Keymap::default_keymap(), Theme::default(), (80, 24));
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    let _ = app.start();
    for chunk in data.chunks(2) {
        let (a, b) = (chunk[0], *chunk.get(1).unwrap_or(&0));
        let msg = match a % 8 {
            0..=3 => Msg::Key(KeyEvent::new(KeyCode::Char((b % 95 + 32) as char), KeyModifiers::NONE)),
            4 => Msg::Key(KeyEvent::new(KEYS[b as usize % KEYS.len()], KeyModifiers::NONE)),
            5 => {
                let (w, h) = (u16::from(b % 200) + 1, u16::from(b / 2 % 80) + 1);
                terminal.backend_mut().resize(w, h);
                Msg::Resize(w, h)
            }
            6 => Msg::Reply(Reply { id: u64::from(b % 16), result: Ok(ApiResponse::ListIssues(page(b % 40))) }),
            _ => Msg::Key(KeyEvent::new(KeyCode::Char((b % 26 + b'a') as char), KeyModifiers::CONTROL)),
        };
        let _ = app.update(msg);
        let list = &app.issues().list;
        assert!(list.selected == 0 || list.selected < list.len());
        if app.quit {
            break;
        }
    }
    terminal.draw(|f| findings_tui::app::view::draw(f, &app)).unwrap();
});
