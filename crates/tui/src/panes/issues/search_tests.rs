//! The `/` search sliced across frames: a keystroke does one slice, the
//! event loop the rest, and what shows at the end is what one pass finds.

use super::searching::SliceRows;
use super::tests::shown_ids;
use super::*;
use crate::message::Outbox;
use crate::pane::testing::{Drive, cx};
use findings_model::ListIssuesResponse;

/// A pane holding `n` findings, all loaded, searched `slice` rows a slice.
fn loaded(n: usize, slice: usize) -> (IssuesPane, Outbox) {
    let pane = IssuesPane {
        slice: SliceRows(slice),
        ..IssuesPane::default()
    };
    let severities = [Severity::Low, Severity::High, Severity::Critical];
    let all: Vec<Severity> = (0..n).map(|i| severities[i % 3].clone()).collect();
    super::tests::complete_with(pane, &all)
}

/// Slices until the search is exact; how many it took.
fn finish(pane: &mut IssuesPane, outbox: &mut Outbox) -> usize {
    let mut slices = 0;
    while pane.work_left().is_some() {
        pane.work(&mut cx(outbox, 20));
        slices += 1;
        assert!(slices <= 10_000, "a search ends");
    }
    slices
}

/// What one pass over everything shows for `query` (the same rows, sort
/// and filters).
fn one_pass(pane: &IssuesPane, query: &str) -> Vec<String> {
    let (mut whole, _) = loaded(pane.list.items.len(), usize::MAX);
    whole.order.clone_from(&pane.order);
    whole.local_query = query.to_owned();
    whole.apply_local_filter();
    assert!(whole.work_left().is_none(), "one slice holds everything");
    shown_ids(&whole)
}

#[test]
fn a_keystroke_searches_one_slice_and_the_loop_the_rest() {
    let (mut pane, mut outbox) = loaded(1000, 64);
    pane.set_local_query("row 1".into());
    // One slice: rows 0 to 63 only (row 1, 10 to 19).
    assert_eq!(pane.search_progress(), Some(6), "64 of 1,000 rows");
    assert_eq!(pane.list.len(), 11);
    let slices = finish(&mut pane, &mut outbox);
    assert_eq!(slices, 15, "1,000 rows in slices of 64: 16 in all");
    assert_eq!(shown_ids(&pane), one_pass(&pane, "row 1"));
    assert_eq!(pane.list.len(), 111, "row 1, 10–19, 100–199");
    // A small list is searched whole at once, as before.
    let (mut small, _) = loaded(64, 64);
    small.set_local_query("row 1".into());
    assert!(small.work_left().is_none());
    assert_eq!(small.list.len(), 11);
}

#[test]
fn the_title_says_searching_until_the_result_is_exact() {
    let (mut pane, mut outbox) = loaded(1000, 100);
    pane.set_local_query("beta".into());
    let title = view::count_label(&pane);
    assert_eq!(
        title, "searching… 10% · 50 found so far of 1,000",
        "{title}"
    );
    assert!(
        pane.work_left()
            .is_some_and(|w| w == "searching /beta (10%)")
    );
    pane.work(&mut cx(&mut outbox, 20));
    assert_eq!(
        view::count_label(&pane),
        "searching… 20% · 100 found so far of 1,000"
    );
    assert!(pane.list.partial, "the position says `+` too");
    finish(&mut pane, &mut outbox);
    assert_eq!(view::count_label(&pane), "500 shown of 1,000");
    assert!(!pane.list.partial);
    // Nothing found yet is not "none matches".
    let (mut none_yet, _) = loaded(1000, 100);
    none_yet.set_local_query("row 999".into());
    assert_eq!(
        view::empty_reason(&none_yet),
        "searching… 10% (none found so far)"
    );
}

#[test]
fn an_action_on_the_rows_shown_waits_for_the_search_and_says_so() {
    let (mut pane, mut outbox) = loaded(1000, 100);
    pane.set_local_query("alpha".into());
    let status = |o: &Outbox| {
        o.events.iter().rev().find_map(|e| match e {
            crate::message::AppEvent::Status(s) => Some(s.clone()),
            _ => None,
        })
    };
    pane.act(Action::MarkShown, 20, &mut outbox);
    assert!(pane.marked.is_empty(), "no row marked");
    let said = status(&outbox).unwrap_or_default();
    assert!(
        said.starts_with(
            "still searching /alpha (10%): marking the rows shown acts on the rows shown"
        ),
        "{said}"
    );
    let selected = pane.list.selected;
    pane.act(Action::NextMatch, 20, &mut outbox);
    assert_eq!(pane.list.selected, selected, "n did not move");
    assert!(status(&outbox).is_some_and(|s| s.starts_with("still searching /alpha")));
    let err = pane.run("mark-shown", &[], &mut outbox).unwrap_err();
    assert!(err.starts_with("still searching"), "{err}");
    // Exact: they act.
    finish(&mut pane, &mut outbox);
    pane.act(Action::MarkShown, 20, &mut outbox);
    assert_eq!(pane.marked.len(), 500);
}

#[test]
fn typing_during_a_search_starts_it_over_and_finds_what_one_pass_finds() {
    let (mut pane, mut outbox) = loaded(1000, 200);
    pane.set_local_query("row".into());
    pane.work(&mut cx(&mut outbox, 20));
    // Extends the query before the search is exact: not narrowed from
    // the partial rows.
    pane.set_local_query("row 9".into());
    assert_eq!(pane.search_progress(), Some(20), "started over");
    finish(&mut pane, &mut outbox);
    assert_eq!(shown_ids(&pane), one_pass(&pane, "row 9"));
    // Narrowing an exact result goes through its rows only.
    pane.set_local_query("row 99".into());
    assert_eq!(pane.search_progress(), None, "111 rows: one slice");
    assert_eq!(shown_ids(&pane), one_pass(&pane, "row 99"));
    // A backspace takes back the exact rows at once.
    pane.set_local_query("row 9".into());
    assert_eq!(pane.search_progress(), None);
    assert_eq!(pane.list.len(), 111);
    // Another query during a search, then Esc: every row, no search.
    pane.set_local_query("beta".into());
    assert!(pane.search_progress().is_some());
    pane.clear_local_query();
    assert!(pane.work_left().is_none());
    assert_eq!(pane.list.len(), 1000);
}

/// A small generator (no dependency): the same seed, the same run.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        usize::try_from(self.0 >> 33).unwrap_or(0) % n.max(1)
    }
}

#[test]
fn any_keys_and_slices_end_where_one_pass_does() {
    let alphabet: Vec<char> = "row 12345 alphbetmsgf!".chars().collect();
    for seed in 0..40u64 {
        let mut rng = Lcg(seed);
        let slice = [7, 50, 333][rng.below(3)];
        let (mut pane, mut outbox) = loaded(700, slice);
        if seed % 3 == 0 {
            // A sort here (by severity): the search goes in its order.
            pane.act(Action::CycleSort, 20, &mut outbox);
        }
        let mut query = String::new();
        for _ in 0..12 {
            match rng.below(4) {
                0 => {
                    query.pop();
                }
                _ => query.push(alphabet[rng.below(alphabet.len())]),
            }
            pane.set_local_query(query.clone());
            for _ in 0..rng.below(4) {
                pane.work(&mut cx(&mut outbox, 20));
            }
            if pane.work_left().is_none() {
                assert_eq!(
                    shown_ids(&pane),
                    one_pass(&pane, &query),
                    "{seed}: {query:?}"
                );
            }
        }
        finish(&mut pane, &mut outbox);
        assert_eq!(
            shown_ids(&pane),
            one_pass(&pane, &query),
            "{seed}: {query:?}"
        );
    }
}

#[test]
fn rows_loaded_during_a_search_are_searched_too() {
    let (mut pane, mut outbox) = loaded(300, 100);
    // Not the last page: more come.
    pane.list.complete = false;
    pane.set_local_query("row 2".into());
    assert!(pane.work_left().is_some());
    let more: Vec<IssueItem> = (300..450)
        .map(|i| IssueItem {
            issue: Some(Issue {
                id: Some(format!("f{i}")),
                message: Some(format!("row {} {i}", i % 2 + 2)),
                ..Default::default()
            }),
            ..Default::default()
        })
        .collect();
    let page = RowPage::from(ListIssuesResponse {
        issues: more,
        cursor: None,
    });
    pane.take_page(page, &mut outbox);
    finish(&mut pane, &mut outbox);
    let ids = shown_ids(&pane);
    assert!(ids.contains(&"f2".to_owned()) && ids.contains(&"f299".to_owned()));
    assert!(ids.contains(&"f300".to_owned()) && !ids.contains(&"f301".to_owned()));
    assert_eq!(
        ids.len(),
        1 + 10 + 100 + 75,
        "row 2, 20–29, 200–299, and half the page"
    );
    pane.slice = SliceRows(usize::MAX);
    pane.apply_local_filter();
    assert_eq!(ids, shown_ids(&pane), "one pass finds the same");
}
