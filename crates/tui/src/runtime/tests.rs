//! The loop turned with a virtual clock: what it does between keys.

use super::clock::Clock;
use super::runner::Runner;
use crate::app::{App, Effect, Msg};
use crate::message::Reply;
use crate::message::{ApiRequest, ApiResponse};
use crate::panes::issues::{IssuesPane, SliceRows};
use crate::runtime::Platform;
use crossterm::event::Event;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use findings_base::handoff::{ClipboardText, SafeUrl};
use findings_model::{Issue, IssueItem, ListIssuesResponse};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::io;
use tokio::sync::mpsc;

struct Nowhere;

impl Platform<TestBackend> for Nowhere {
    fn open_url(&mut self, _: &SafeUrl, _: &mpsc::UnboundedSender<Msg>) {}
    fn copy(&mut self, _: &ClipboardText) {}
    fn suspend(&mut self, _: &mut Terminal<TestBackend>) -> io::Result<()> {
        Ok(())
    }
}

fn key(c: char) -> io::Result<Event> {
    Ok(Event::Key(KeyEvent::new(
        KeyCode::Char(c),
        KeyModifiers::NONE,
    )))
}

#[tokio::test]
async fn the_loop_runs_a_search_slice_by_slice_and_a_key_goes_first() {
    let (worker, _commands) = mpsc::unbounded_channel();
    let (_replies_tx, replies) = mpsc::unbounded_channel();
    let (keys, input) = mpsc::unbounded_channel();
    let start = "2026-11-01T00:00:00Z".parse().unwrap();
    let mut runner = Runner::new(worker, replies, input, Nowhere, Clock::starting_at(start));
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    let mut app = App::new(
        crate::state::session::Session::default(),
        crate::keymap::Keymap::default_keymap(),
        crate::theme::Theme::default(),
        (80, 24),
    );
    app.pane_of_mut::<IssuesPane>().slice = SliceRows(100);
    let id = app
        .start_at(start)
        .iter()
        .find_map(|e| match e {
            Effect::Send {
                id,
                request: ApiRequest::ListRows(_),
            } => Some(*id),
            _ => None,
        })
        .unwrap();
    let issues = (0..1000)
        .map(|i| IssueItem {
            issue: Some(Issue {
                id: Some(format!("f{i}")),
                ..Issue::default()
            }),
            ..IssueItem::default()
        })
        .collect();
    let page = ListIssuesResponse {
        issues,
        cursor: None,
    };
    app.update_at(
        Msg::Reply(Reply {
            id,
            result: Ok(ApiResponse::ListIssues(page)),
        }),
        start,
    );
    let progress = |app: &App| app.pane_of::<IssuesPane>().search_progress();
    for c in ['/', '1'] {
        keys.send(key(c)).unwrap();
    }
    runner.step(&mut app, &mut terminal).await.unwrap();
    assert_eq!(progress(&app), Some(10), "the keys, one slice");
    runner.step(&mut app, &mut terminal).await.unwrap();
    assert_eq!(progress(&app), Some(20), "no key: a slice");
    // A key waiting goes before the next slice, and starts over.
    keys.send(key('2')).unwrap();
    runner.step(&mut app, &mut terminal).await.unwrap();
    assert_eq!(progress(&app), Some(10), "/12 from the start");
    let mut turns = 0;
    while app.has_work() {
        runner.step(&mut app, &mut terminal).await.unwrap();
        turns += 1;
    }
    assert_eq!(turns, 9);
    let by_contains = (0..1000).filter(|i| format!("f{i}").contains("12")).count();
    assert_eq!(app.pane_of::<IssuesPane>().list.len(), by_contains);
    // Drawn after every slice: the last frame says the exact count.
    runner.draw(&app, &mut terminal, false).unwrap();
    let screen: String = terminal
        .backend()
        .buffer()
        .content()
        .iter()
        .map(|c| c.symbol())
        .collect();
    assert!(
        screen.contains(&format!("{by_contains} shown of 1,000")),
        "{screen}"
    );
}
