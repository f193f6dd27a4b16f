//! Property: no sequence of keys, resizes and worker replies (in order or
//! not, duplicated, for requests that no longer exist) panics the app or
//! leaves a selection out of bounds, and every frame draws.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use findings_demo::{DemoOptions, DemoState, query};
use findings_model::*;
use findings_tui::app::{App, Msg, Session};
use findings_tui::keymap::Keymap;
use findings_tui::message::{ApiResponse, Reply};
use findings_tui::theme::Theme;
use proptest::prelude::*;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::sync::OnceLock;

#[derive(Debug, Clone)]
enum Step {
    Key(KeyCode, KeyModifiers),
    Resize(u16, u16),
    /// A List issues page (by page number) for request id `id`.
    ListReply {
        id: u64,
        page: usize,
    },
    /// A failed reply for `id`.
    ErrorReply {
        id: u64,
    },
    Tick,
}

fn key_code() -> impl Strategy<Value = KeyCode> {
    prop_oneof![
        4 => proptest::sample::select(vec![
            'j', 'k', 'g', 'G', 'h', 'l', 'q', '/', 'f', 's', 'S', 'r', 'o', 'y', '?', ':', '1', '2', '3', '4',
            't', 'p', 'b', 'x', 'c', 'a', 'e', 'C', 'H', 'M', 'L', 'i', 'R', 'n', ' ', '!', 'z', '用',
        ])
        .prop_map(KeyCode::Char),
        3 => proptest::sample::select(vec![
            KeyCode::Enter, KeyCode::Esc, KeyCode::Tab, KeyCode::BackTab, KeyCode::Up, KeyCode::Down,
            KeyCode::Left, KeyCode::Right, KeyCode::PageUp, KeyCode::PageDown, KeyCode::Home, KeyCode::End,
            KeyCode::Backspace, KeyCode::Delete, KeyCode::F(1),
        ]),
    ]
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        12 => (key_code(), proptest::sample::select(vec![KeyModifiers::NONE, KeyModifiers::SHIFT, KeyModifiers::CONTROL]))
            .prop_map(|(k, m)| Step::Key(k, m)),
        1 => (1u16..=300, 1u16..=100).prop_map(|(w, h)| Step::Resize(w, h)),
        4 => (0u64..40, 0usize..4).prop_map(|(id, page)| Step::ListReply { id, page }),
        1 => (0u64..40).prop_map(|id| Step::ErrorReply { id }),
        1 => Just(Step::Tick),
    ]
}

/// Four real pages of demo data, made once.
fn pages() -> &'static Vec<ListIssuesResponse> {
    static PAGES: OnceLock<Vec<ListIssuesResponse>> = OnceLock::new();
    PAGES.get_or_init(|| {
        let st = DemoState::new(&DemoOptions {
            findings: 160,
            ..Default::default()
        });
        let mut out = Vec::new();
        let mut cursor = None;
        for _ in 0..4 {
            let req = ListIssuesRequest {
                limit: Some(40),
                cursor: cursor.clone(),
                ..Default::default()
            };
            let page = query::list_issues(&st.dataset, &st.orders, &req).unwrap();
            cursor = page.cursor.clone();
            out.push(page);
        }
        out
    })
}

fn check_invariants(app: &App) {
    let list = &app.issues().list;
    assert!(
        list.selected == 0 || list.selected < list.len(),
        "issues selection {} of {}",
        list.selected,
        list.len()
    );
    if let Some(v) = &list.visible {
        assert!(v.iter().all(|&i| (i as usize) < list.items.len()));
    }
    if let Some(d) = &app.detail {
        assert!(d.tab < d.tabs.len());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn the_app_survives_anything(steps in proptest::collection::vec(step(), 1..120)) {
        let mut app = App::new(Session { deployment: "1234".into(), demo: true, ..Default::default() },
            Keymap::default_keymap(), Theme::default(), (100, 30));
        let mut terminal = Terminal::new(TestBackend::new(100, 30)).unwrap();
        let _ = app.start();
        for (n, s) in steps.into_iter().enumerate() {
            let msg = match s {
                Step::Key(code, mods) => Msg::Key(KeyEvent::new(code, mods)),
                Step::Resize(w, h) => {
                    terminal.backend_mut().resize(w, h);
                    Msg::Resize(w, h)
                }
                Step::ListReply { id, page } => Msg::Reply(Reply { id, result: Ok(ApiResponse::ListIssues(pages()[page].clone())) }),
                Step::ErrorReply { id } => Msg::Reply(Reply {
                    id,
                    result: Err(findings_client::ApiError::Connection("reset by peer".into())),
                }),
                Step::Tick => Msg::Tick,
            };
            let _ = app.update(msg);
            check_invariants(&app);
            if n % 8 == 0 {
                terminal.draw(|f| findings_tui::app::view::draw(f, &app)).unwrap();
            }
            if app.quit {
                break;
            }
        }
        terminal.draw(|f| findings_tui::app::view::draw(f, &app)).unwrap();
    }
}
