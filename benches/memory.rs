//! Resident memory of the TUI with 100,000 findings loaded in the Issues
//! pane, against the bytes of JSON received for them. Targets: at most the
//! JSON bytes plus 30 MB (issue 5); at most 400 bytes per loaded finding,
//! 0.13 of the JSON received (issue 28).
//!
//! The pages are real: the demo server's query engine answers each one,
//! serde_json writes the body the server would send, the client's decoder
//! reads it, and the app takes it as the worker would hand it over. Memory
//! is read from /proc/self/status (Linux). Run: `cargo bench --bench memory`
//! (FINDINGS=n for another count).

// Measuring and test code, not shipped: its casts turn a test's small
// counts and sizes into figures (issue 52 holds for the product's crates).
#![allow(
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss,
    clippy::cast_precision_loss
)]
// Benchmark, not shipped: a counting global allocator measures the peak. The product's only
// unsafe code is findings_base::sys (the architecture test keeps it so).
#![allow(unsafe_code)]

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use findings_client::client::decode;
use findings_demo::{DemoOptions, DemoState, query};
use findings_model::*;
use findings_tui::app::{App, Effect, Msg, Session};
use findings_tui::keymap::Keymap;
use findings_tui::message::rows::FindingRow;
use findings_tui::message::{ApiRequest, ApiResponse, Reply};
use findings_tui::theme::Theme;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

const MB: f64 = 1024.0 * 1024.0;

/// The system allocator, counting the bytes and blocks live on the heap.
struct Counting;

static LIVE_BYTES: AtomicUsize = AtomicUsize::new(0);
static LIVE_BLOCKS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE_BYTES.fetch_add(layout.size(), Relaxed);
        LIVE_BLOCKS.fetch_add(1, Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE_BYTES.fetch_sub(layout.size(), Relaxed);
        LIVE_BLOCKS.fetch_sub(1, Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE_BYTES.fetch_add(new_size, Relaxed);
        LIVE_BYTES.fetch_sub(layout.size(), Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn heap() -> (usize, usize) {
    (LIVE_BYTES.load(Relaxed), LIVE_BLOCKS.load(Relaxed))
}

#[path = "support/figures.rs"]
mod figures;
use figures::status_bytes;

fn rss() -> u64 {
    status_bytes("VmRSS:").unwrap_or(0)
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        // `cargo bench -- --list` asks harnesses for their benches.
        println!("memory: bench");
        return;
    }
    let n: usize = std::env::var("FINDINGS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let start = rss();
    let st = DemoState::new(&DemoOptions {
        findings: n,
        ..Default::default()
    });
    let mut app = App::new(
        Session::default(),
        Keymap::default_keymap(),
        Theme::default(),
        (200, 60),
    );
    let mut terminal = Terminal::new(TestBackend::new(200, 60)).expect("a test terminal");
    terminal
        .draw(|f| findings_tui::app::view::draw(f, &app))
        .expect("a frame");
    let baseline = rss();
    let heap_before = heap();

    let Loaded {
        served,
        json_bytes,
        pages,
    } = load_every_page(&mut app, &st);
    terminal
        .draw(|f| findings_tui::app::view::draw(f, &app))
        .expect("a frame");
    let loaded = app.issues().list.items.len();
    assert_eq!(loaded, served, "every finding listed of {n} loaded");
    let after = rss();
    let heap_after = heap();
    let peak = status_bytes("VmHWM:").unwrap_or(0);
    report(
        &app,
        &Measured {
            loaded,
            pages,
            json_bytes,
            start,
            baseline,
            after,
            peak,
            heap_before,
            heap_after,
        },
    );
}

/// What loading every page gave: findings the server listed, bytes of
/// JSON received, pages.
struct Loaded {
    served: usize,
    json_bytes: usize,
    pages: usize,
}

/// Loads the Issues pane page by page, as the worker would hand the pages
/// over, until the server has no more.
fn load_every_page(app: &mut App, st: &DemoState) -> Loaded {
    let mut effects = app.start();
    let mut cursor = None;
    // What the server lists: archived projects' findings are left out.
    let mut served = 0;
    let mut json_bytes = 0usize;
    let mut pages = 0;
    let next_request = |effects: &[Effect]| {
        effects.iter().find_map(|e| match e {
            // The list's pages only: the counts and filter values asked in
            // the background are not what this loads.
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
        let body = {
            let page = query::list_issues(&st.dataset, &st.orders, &req).expect("a page");
            served += page.issues.len();
            serde_json::to_vec(&page).expect("a body")
        };
        json_bytes += body.len();
        pages += 1;
        let page: ListIssuesResponse = decode(&body, "application/json").expect("decodes");
        drop(body);
        cursor = page.cursor.clone();
        effects = app.update(Msg::Reply(Reply {
            id,
            result: Ok(ApiResponse::ListIssues(page)),
        }));
        if cursor.is_none() {
            break;
        }
        // The selection near the end: the next page is asked for (`G`
        // would ask for everything as one stream).
        app.issues_mut().list.select(usize::MAX);
        effects.extend(app.update(Msg::Key(KeyEvent::new(
            KeyCode::Char('j'),
            KeyModifiers::NONE,
        ))));
    }
    Loaded {
        served,
        json_bytes,
        pages,
    }
}

/// The figures measured around the load: findings loaded, pages, JSON
/// bytes, resident bytes (at the start, before and after loading, the
/// peak) and the heap's (bytes, blocks) before and after.
struct Measured {
    loaded: usize,
    pages: usize,
    json_bytes: usize,
    start: u64,
    baseline: u64,
    after: u64,
    peak: u64,
    heap_before: (usize, usize),
    heap_after: (usize, usize),
}

/// Prints the figures and whether the targets hold.
fn report(app: &App, m: &Measured) {
    let Measured {
        loaded,
        pages,
        json_bytes,
        start,
        baseline,
        after,
        peak,
        heap_before,
        heap_after,
    } = *m;
    let held = after.saturating_sub(baseline);
    let limit = json_bytes as u64 + 30 * 1024 * 1024;

    println!("memory: {loaded} findings loaded in the Issues pane, {pages} pages of 1,000");
    println!(
        "  JSON received            {:8.1} MB  ({} bytes per finding)",
        json_bytes as f64 / MB,
        json_bytes / loaded.max(1)
    );
    println!(
        "  resident, process        {:8.1} MB  (VmRSS; peak VmHWM {:.1} MB)",
        after as f64 / MB,
        peak as f64 / MB
    );
    println!(
        "  resident, before loading {:8.1} MB  (of which the demo server's data set {:.1} MB)",
        baseline as f64 / MB,
        baseline.saturating_sub(start) as f64 / MB
    );
    println!(
        "  held by the loaded list  {:8.1} MB  ({} bytes per finding)",
        held as f64 / MB,
        held / loaded.max(1) as u64
    );
    let per = |v: usize| v / loaded.max(1);
    println!(
        "  heap held per finding    {:8} bytes in {} blocks (size_of FindingRow: {} bytes)",
        per(heap_after.0.saturating_sub(heap_before.0)),
        per(heap_after.1.saturating_sub(heap_before.1)),
        std::mem::size_of::<FindingRow<IssueItem>>()
    );
    println!(
        "  target: resident <= JSON + 30 MB = {:.1} MB: {}",
        limit as f64 / MB,
        if after <= limit {
            "holds"
        } else {
            "DOES NOT HOLD"
        }
    );
    let own: usize = app.issues().list.items.iter().map(|r| r.heap_bytes()).sum();
    println!(
        "  of which rows' own text   {:8} bytes per finding; search index {} bytes per finding",
        own / loaded.max(1),
        app.issues().search_bytes() / loaded.max(1)
    );
    let json_per = json_bytes as f64 / loaded.max(1) as f64;
    let heap_per = heap_after.0.saturating_sub(heap_before.0) as f64 / loaded.max(1) as f64;
    let held_per = held as f64 / loaded.max(1) as f64;
    println!(
        "  per finding: JSON {json_per:.0} B, heap {heap_per:.0} B ({:.3} of the JSON), resident {held_per:.0} B ({:.3} of the JSON)",
        heap_per / json_per,
        held_per / json_per
    );
    let holds = held_per <= 400.0 && heap_per <= 400.0;
    println!(
        "  target: <= 400 bytes per finding (<= 0.13 of the JSON): {}",
        if holds { "holds" } else { "DOES NOT HOLD" }
    );
}
