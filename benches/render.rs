//! What a keystroke costs in the Issues pane with 1,000, 100,000 and
//! 1,000,000 findings loaded: drawing a frame, `/` filtering (the first
//! key of a query, one that extends it, a backspace), sorting by a loaded
//! column, moving the selection. Targets (issue 28): a `/` keystroke or a
//! sort within 16 ms, a frame within 2 ms, at a million, flat in N; at
//! ten million (issue 52), a `/` keystroke within 16 ms, a sort within
//! 1 s, moving and drawing as at 100,000.
//!
//! A `/` key searches one slice (`SLICE` rows) and returns; the event
//! loop runs the slices left between keys: each `/` case is printed as the
//! key, a slice after it, and the time until the result is exact.
//!
//! Each case is timed alone (what undoes it between samples is not), and
//! printed as min / median / max in ms. Run: `cargo bench --bench render`
//! (`FINDINGS=1000,100000` for other counts; `FINDINGS=10000000` loads
//! ten million in-process beside the demo's data, about 4 GB and minutes).

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use findings_demo::{DemoOptions, DemoState, query};
use findings_model::*;
use findings_tui::app::{App, Effect, Msg, Session};
use findings_tui::keymap::Keymap;
use findings_tui::message::{ApiRequest, ApiResponse, Reply};
use findings_tui::theme::Theme;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::time::{Duration, Instant};

const W: u16 = 200;
const H: u16 = 60;

fn main() {
    if std::env::args().any(|a| a == "--list") {
        println!("render: bench");
        return;
    }
    let counts: Vec<usize> = std::env::var("FINDINGS")
        .ok()
        .map(|v| v.split(',').filter_map(|n| n.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![1_000, 100_000, 1_000_000]);
    println!(
        "render: Issues pane, {W}x{H}, everything loaded, `/` sliced by {} rows; \
         min / median / max ms",
        findings_tui::panes::issues::SLICE
    );
    for n in counts {
        bench(n);
    }
}

/// An app with the `n` findings of a demo data set loaded in the Issues
/// pane (every page of 1,000, as they arrive), and the selection on top.
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
    let next_request = |effects: &[Effect]| {
        effects.iter().find_map(|e| match e {
            Effect::Send {
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
        cursor = page.cursor.clone();
        effects = app.update(Msg::Reply(Reply {
            id,
            result: Ok(ApiResponse::ListIssues(page)),
        }));
        if cursor.is_none() {
            break;
        }
        // Keep the selection at the end so the next page is asked for.
        app.issues_mut().list.select(usize::MAX);
        effects.extend(app.update(Msg::Key(key(KeyCode::Char('j')))));
    }
    assert!(app.issues().list.complete, "every finding of {n} loaded");
    app.update(Msg::Key(key(KeyCode::Char('g'))));
    app
}

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

fn press(app: &mut App, code: KeyCode) {
    app.update(Msg::Key(key(code)));
}

/// Types `text`, each key's search run to its end (as the loop does
/// between keys when none comes sooner).
fn type_text(app: &mut App, text: &str) {
    for c in text.chars() {
        press(app, KeyCode::Char(c));
        exact(app);
    }
}

/// A key, its search then run to its end.
fn press_exact(app: &mut App, code: KeyCode) {
    press(app, code);
    exact(app);
}

/// The slices left of a `/` search, as the event loop runs them between
/// keys; each one's time.
fn exact(app: &mut App) -> Vec<Duration> {
    let mut slices = Vec::new();
    while app.has_work() {
        let start = Instant::now();
        app.update(Msg::Work);
        slices.push(start.elapsed());
    }
    slices
}

/// A `/` key three ways: the keystroke (its first slice: what a frame
/// waits for), each slice the loop runs after it, and the time until the
/// result is exact (the keystroke and every slice).
fn report_search(
    app: &mut App,
    what: &str,
    loaded: usize,
    samples: usize,
    mut before: impl FnMut(&mut App),
    code: KeyCode,
    mut after: impl FnMut(&mut App),
) {
    let (mut keys, mut slices, mut whole) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..samples {
        before(app);
        let start = Instant::now();
        press(app, code);
        let key = start.elapsed();
        let rest = exact(app);
        whole.push(key + rest.iter().sum::<Duration>());
        keys.push(key);
        slices.extend(rest);
        after(app);
    }
    report(&format!("{what}: the key"), loaded, keys);
    if !slices.is_empty() {
        report(&format!("{what}: a slice after"), loaded, slices);
    }
    report(&format!("{what}: to exact"), loaded, whole);
}

/// `samples` timings of `timed`, each after `before` (not timed).
fn time(
    app: &mut App,
    samples: usize,
    mut before: impl FnMut(&mut App),
    mut timed: impl FnMut(&mut App),
    mut after: impl FnMut(&mut App),
) -> Vec<Duration> {
    let mut out = Vec::with_capacity(samples);
    for _ in 0..samples {
        before(app);
        let start = Instant::now();
        timed(app);
        out.push(start.elapsed());
        after(app);
    }
    out
}

fn report(what: &str, n: usize, mut t: Vec<Duration>) {
    t.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "  {n:>9}  {what:<44} {:8.3} {:8.3} {:8.3}",
        ms(t[0]),
        ms(t[t.len() / 2]),
        ms(t[t.len() - 1])
    );
}

fn bench(n: usize) {
    let started = Instant::now();
    let mut app = app_with(n);
    let loaded = app.issues().list.items.len();
    eprintln!(
        "  ({loaded} of {n} loaded in {:.1} s)",
        started.elapsed().as_secs_f64()
    );
    let mut terminal = Terminal::new(TestBackend::new(W, H)).expect("a test terminal");
    let mut draw = |app: &mut App| {
        terminal
            .draw(|f| findings_tui::app::view::draw(f, app))
            .expect("a frame");
    };
    let samples = 15;
    report(
        "draw a frame",
        loaded,
        time(&mut app, 50, |_| {}, &mut draw, |_| {}),
    );
    report(
        "j (move the selection)",
        loaded,
        time(
            &mut app,
            50,
            |_| {},
            |a| press(a, KeyCode::Char('j')),
            |_| {},
        ),
    );
    report(
        "G (to the last row; g back untimed)",
        loaded,
        time(
            &mut app,
            50,
            |_| {},
            |a| press(a, KeyCode::Char('G')),
            |a| press(a, KeyCode::Char('g')),
        ),
    );
    bench_search(&mut app, loaded, samples);
    type_text(&mut app, "cri");
    report(
        "draw a frame, /cri in force",
        loaded,
        time(&mut app, 50, |_| {}, &mut draw, |_| {}),
    );
    press(&mut app, KeyCode::Esc);
    bench_sort(&mut app, loaded, samples);
    // A first key with a sort in force: its rows shown in the sort's order.
    press(&mut app, KeyCode::Char('/'));
    report_search(
        &mut app,
        "/ first key, sorted (e)",
        loaded,
        samples,
        |_| {},
        KeyCode::Char('e'),
        |a| press_exact(a, KeyCode::Backspace),
    );
    press(&mut app, KeyCode::Esc);
    report(
        "draw a frame, sorted",
        loaded,
        time(&mut app, 50, |_| {}, &mut draw, |_| {}),
    );
}

/// The `/` keystrokes: a query's first key, keys that extend it, a
/// backspace; the query is left open and empty.
fn bench_search(app: &mut App, loaded: usize, samples: usize) {
    press(app, KeyCode::Char('/'));
    // The first key of a query: every row searched.
    for (first, what) in [
        ('e', "/ first key, common letter (e)"),
        ('q', "/ first key, rare letter (q)"),
    ] {
        report_search(
            app,
            what,
            loaded,
            samples,
            |_| {},
            KeyCode::Char(first),
            |a| press_exact(a, KeyCode::Backspace),
        );
    }
    // Keys that extend the query: the rows still shown.
    for (typed, next, what) in [
        ("c", 'r', "/ extends c → cr"),
        ("cr", 'i', "/ extends cr → cri"),
        ("acme/", 'p', "/ extends acme/ → acme/p"),
    ] {
        report_search(
            app,
            what,
            loaded,
            samples,
            |a| type_text(a, typed),
            KeyCode::Char(next),
            |a| {
                for _ in 0..=typed.len() {
                    press_exact(a, KeyCode::Backspace);
                }
            },
        );
    }
    report_search(
        app,
        "/ backspace cri → cr",
        loaded,
        samples,
        |a| type_text(a, "cri"),
        KeyCode::Backspace,
        |a| {
            press_exact(a, KeyCode::Backspace);
            press_exact(a, KeyCode::Backspace);
        },
    );
}

/// Sorting by each loaded column (`:sort FIELD DIR`, the Enter timed),
/// which must not load the list anew.
fn bench_sort(app: &mut App, loaded: usize, samples: usize) {
    // Sorting by a loaded column: `:sort FIELD DIR`, the Enter timed.
    for field in [
        "severity",
        "repo",
        "rule",
        "state",
        "relevant-since",
        "ref",
        "age",
    ] {
        let mut dir = false;
        report(
            &format!(":sort {field}"),
            loaded,
            time(
                app,
                samples,
                |a| {
                    dir = !dir;
                    let d = if dir { "asc" } else { "desc" };
                    press(a, KeyCode::Char(':'));
                    type_text(a, &format!("sort {field} {d}"));
                },
                |a| press(a, KeyCode::Enter),
                |_| {},
            ),
        );
    }
    assert!(
        app.issues().list.complete && app.issues().list.items.len() == loaded,
        "sorted here, not loaded anew"
    );
}
