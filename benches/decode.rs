//! Decoding a 1,000-item List issues page, and the demo server's query
//! engine answering one page. Run: `cargo bench --bench decode`.

use findings_tui::api::client::decode;
use findings_tui::api::model::*;
use findings_tui::demo::{DemoOptions, DemoState, query};

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

#[divan::bench(args = [20_000, 200_000], sample_count = 20)]
fn demo_page_of_1000_sorted_by_repo(bencher: divan::Bencher, findings: usize) {
    let st = state(findings);
    let req = ListIssuesRequest {
        limit: Some(1000),
        sort_by: Some(SortBy::Repo),
        filter: Some(ListIssuesFilter {
            issue_types: vec![IssueType::Sca],
            ..Default::default()
        }),
        ..Default::default()
    };
    // The sort order is built once, on first use; measure the pages after it.
    query::list_issues(&st.dataset, &st.orders, &req).expect("page");
    bencher.bench(|| {
        query::list_issues(&st.dataset, &st.orders, divan::black_box(&req)).expect("page")
    });
}
