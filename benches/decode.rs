//! Decoding a 1,000-item List issues page: into the model (what the TUI
//! does with every page), and with its items left as raw JSON (what the
//! `--format ndjson|json` export does before passing them through). The demo
//! server's answers are in `benches/demo_server.rs`.
//! Run: `cargo bench --bench decode`.

use findings_client::client::decode;
use findings_demo::{DemoOptions, DemoState, query};
use findings_model::*;

fn main() {
    divan::main();
}

fn state(findings: usize) -> DemoState {
    DemoState::new(&DemoOptions {
        findings,
        anchor: chrono::DateTime::parse_from_rfc3339("2026-11-01T00:00:00Z")
            .ok()
            .map(|t| t.to_utc()),
        ..Default::default()
    })
}

fn page_json(include: bool) -> Vec<u8> {
    let st = state(2_000);
    let req = ListIssuesRequest {
        limit: Some(1000),
        include_remediation: Some(include),
        include_activity_history: Some(include),
        ..Default::default()
    };
    let page = query::list_issues(&st.dataset, &st.orders, &req).expect("page");
    serde_json::to_vec(&page).expect("serialise")
}

#[divan::bench(args = [false, true])]
fn decode_1000_item_page(bencher: divan::Bencher, include: bool) {
    let bytes = page_json(include);
    bencher
        .counter(divan::counter::BytesCount::new(bytes.len()))
        .bench(|| {
            decode::<ListIssuesResponse>(divan::black_box(&bytes), "application/json")
                .expect("decodes")
        });
}

/// The export's reading of a page: each item checked to be valid JSON and
/// kept as its text.
#[divan::bench(args = [false, true])]
fn decode_1000_item_page_raw(bencher: divan::Bencher, include: bool) {
    #[derive(serde::Deserialize)]
    struct RawPage {
        #[allow(dead_code)]
        issues: Vec<Box<serde_json::value::RawValue>>,
        #[allow(dead_code)]
        cursor: Option<String>,
    }
    let bytes = page_json(include);
    bencher
        .counter(divan::counter::BytesCount::new(bytes.len()))
        .bench(|| {
            decode::<RawPage>(divan::black_box(&bytes), "application/json").expect("decodes")
        });
}

/// What the Issues pane does with each page it receives: every item kept as
/// a row (table cells, what a triage reads) and in the search index.
#[divan::bench]
fn pack_1000_item_page_into_rows(bencher: divan::Bencher) {
    let page: ListIssuesResponse = decode(&page_json(false), "application/json").expect("page");
    bencher.bench(|| findings_tui::message::rows::RowPage::from(divan::black_box(page.clone())));
}

/// The same page straight into the TUI's list rows and `/` index (only the
/// fields a row keeps are decoded; issue 28 measured 17 ms into the model,
/// then 6-11 ms to pack the rows).
#[divan::bench(args = [false, true])]
fn decode_1000_item_page_into_rows(bencher: divan::Bencher, include: bool) {
    let bytes = page_json(include);
    bencher
        .counter(divan::counter::BytesCount::new(bytes.len()))
        .bench(|| {
            decode::<findings_tui::message::rows::RowPage>(
                divan::black_box(&bytes),
                "application/json",
            )
            .expect("decodes")
        });
}
