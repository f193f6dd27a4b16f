//! Frame cost of the Issues pane with 100 and 100,000 findings loaded, the
//! `/` filter keystroke, and moving the selection. Run:
//! `cargo bench --bench render`.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use findings_tui::api::model::*;
use findings_tui::demo::{DemoOptions, DemoState, query};
use findings_tui::tui::app::{App, Msg, Session};
use findings_tui::tui::keymap::Keymap;
use findings_tui::tui::message::{ApiRequest, ApiResponse, Reply};
use findings_tui::tui::theme::Theme;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn main() {
    divan::main();
}

const W: u16 = 200;
const H: u16 = 60;

/// An app with `n` findings loaded into the Issues pane, as pages arrive.
fn app_with(n: usize) -> App {
    let st = DemoState::new(&DemoOptions {
        findings: n,
        ..Default::default()
    });
    let mut app = App::new(
        Session::default(),
        Keymap::default_keymap(),
        Theme::default(),
        (W, H),
    );
    let mut effects = app.start();
    let mut cursor = None;
    // What the server lists: archived projects' findings are left out.
    let mut served = 0;
    let next_request = |effects: &[findings_tui::tui::app::Effect]| {
        effects.iter().find_map(|e| match e {
            // The list's pages only: the counts and filter values asked in
            // the background are not what this loads.
            findings_tui::tui::app::Effect::Send {
                id,
                request: ApiRequest::ListIssues(_) | ApiRequest::ListRows(_),
            } => Some(*id),
            _ => None,
        })
    };
    while let Some(id) = next_request(&effects) {
        let req = ListIssuesRequest {
            limit: Some(1000),
            cursor: cursor.clone(),
            ..Default::default()
        };
        let page = query::list_issues(&st.dataset, &st.orders, &req).expect("page");
        served += page.issues.len();
        cursor = page.cursor.clone();
        effects = app.update(Msg::Reply(Reply {
            id,
            result: Ok(ApiResponse::ListIssues(page)),
        }));
        if cursor.is_none() {
            break;
        }
        // Keep the selection near the end so the next page is asked for.
        effects.extend(app.update(Msg::Key(KeyEvent::new(
            KeyCode::Char('G'),
            KeyModifiers::SHIFT,
        ))));
    }
    app.update(Msg::Key(KeyEvent::new(
        KeyCode::Char('g'),
        KeyModifiers::NONE,
    )));
    assert_eq!(
        app.issues().list.items.len(),
        served,
        "every finding listed of {n} loaded"
    );
    app
}

#[divan::bench(args = [100, 100_000], sample_count = 50)]
fn frame_200x60(bencher: divan::Bencher, loaded: usize) {
    let app = app_with(loaded);
    let mut terminal = Terminal::new(TestBackend::new(W, H)).unwrap();
    bencher.bench_local(|| {
        terminal
            .draw(|f| findings_tui::tui::app::view::draw(f, &app))
            .unwrap();
    });
}

#[divan::bench(sample_count = 50)]
fn filter_keystroke_100k(bencher: divan::Bencher) {
    let mut app = app_with(100_000);
    let mut terminal = Terminal::new(TestBackend::new(W, H)).unwrap();
    app.update(Msg::Key(KeyEvent::new(
        KeyCode::Char('/'),
        KeyModifiers::NONE,
    )));
    bencher.bench_local(|| {
        // One keystroke: refilter from scratch, then draw.
        app.update(Msg::Key(KeyEvent::new(
            KeyCode::Char('x'),
            KeyModifiers::NONE,
        )));
        app.update(Msg::Key(KeyEvent::new(
            KeyCode::Backspace,
            KeyModifiers::NONE,
        )));
        terminal
            .draw(|f| findings_tui::tui::app::view::draw(f, &app))
            .unwrap();
    });
}

#[divan::bench(sample_count = 200)]
fn move_selection_100k(bencher: divan::Bencher) {
    let mut app = app_with(100_000);
    bencher.bench_local(|| {
        app.update(Msg::Key(KeyEvent::new(
            KeyCode::Char('j'),
            KeyModifiers::NONE,
        )));
    });
}
