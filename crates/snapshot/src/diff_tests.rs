//! The diff's comparisons, each kind of change with what it was.

use super::*;

fn entry(id: &str, severity: &str, state: &str) -> Entry {
    Entry {
        id: id.into(),
        severity: Some(severity.into()),
        state: Some(state.into()),
        ..Entry::default()
    }
}

fn triaged(mut e: Entry, state: &str, reason: &str, by: &str, at: &str) -> Entry {
    e.triage_state = Some(state.into());
    e.triage_reason = Some(reason.into());
    e.triaged_by = Some(by.into());
    e.triaged_at = Some(at.parse().unwrap());
    e
}

/// The changes from `old` to `new`, as (category, id, was).
fn diff(old: &[Entry], new: &[Entry]) -> Vec<(&'static str, String, Option<String>)> {
    let mut baseline = Baseline::default();
    for e in old {
        baseline.add(e).unwrap();
    }
    let mut changes = Vec::new();
    for e in new {
        baseline.compare(e, |c| changes.push(c));
    }
    changes.extend(old.iter().filter_map(|e| baseline.gone(e)));
    changes
        .into_iter()
        .map(|c| (c.category, c.id, c.was))
        .collect()
}

#[test]
fn each_kind_of_change_is_found_with_what_it_was() {
    let t1 = "2026-11-01T10:00:00Z";
    let t2 = "2026-11-08T10:00:00Z";
    let old = [
        entry("same", "high", "open"),
        entry("fixed", "high", "open"),
        entry("gone", "low", "open"),
        entry("reopened", "high", "fixed"),
        entry("triaged", "high", "open"),
        triaged(
            entry("retriaged", "high", "ignored"),
            "ignored",
            "no time",
            "ana",
            t1,
        ),
        entry("severity", "medium", "open"),
    ];
    let new = [
        entry("same", "high", "open"),
        entry("fixed", "high", "fixed"),
        entry("reopened", "high", "open"),
        triaged(
            entry("triaged", "high", "ignored"),
            "ignored",
            "false positive",
            "bo",
            t2,
        ),
        triaged(
            entry("retriaged", "high", "ignored"),
            "ignored",
            "acceptable risk",
            "bo",
            t2,
        ),
        entry("severity", "critical", "open"),
        entry("brand-new", "critical", "open"),
    ];
    let s = |t: &str| Some(t.to_owned());
    assert_eq!(
        diff(&old, &new),
        [
            ("fixed", "fixed".into(), s("open")),
            ("reopened", "reopened".into(), s("fixed")),
            ("triaged", "triaged".into(), s("untriaged")),
            (
                "retriaged",
                "retriaged".into(),
                s("ignored (no time) by ana")
            ),
            ("severity", "severity".into(), s("medium")),
            ("new", "brand-new".into(), None),
            ("gone", "gone".into(), s("open")),
        ]
    );
    // Nothing against itself.
    assert_eq!(diff(&new, &new), []);
}

/// A triage undone (untriaged again, whatever its events) and a
/// ticket linked, unlinked or replaced are changes of their own.
#[test]
fn an_untriage_and_ticket_changes_are_changes() {
    let t1 = "2026-11-01T10:00:00Z";
    let t2 = "2026-11-08T10:00:00Z";
    let ticketed = |mut e: Entry, t: &str| {
        e.ticket = Some(t.into());
        e
    };
    let undone = {
        // The undo is a triage event too: its time moved.
        let mut e = triaged(entry("undone", "high", "open"), "untriaged", "", "bo", t2);
        e.triage_reason = None;
        e
    };
    let old = [
        triaged(
            entry("undone", "high", "ignored"),
            "ignored",
            "no time",
            "ana",
            t1,
        ),
        entry("linked", "high", "open"),
        ticketed(entry("unlinked", "high", "open"), "SEC-1"),
        ticketed(entry("replaced", "high", "open"), "SEC-2"),
        ticketed(entry("kept", "high", "open"), "SEC-3"),
    ];
    let new = [
        undone,
        ticketed(entry("linked", "high", "open"), "SEC-4"),
        entry("unlinked", "high", "open"),
        ticketed(entry("replaced", "high", "open"), "SEC-5"),
        ticketed(entry("kept", "high", "open"), "SEC-3"),
    ];
    let s = |t: &str| Some(t.to_owned());
    assert_eq!(
        diff(&old, &new),
        [
            // Open again too: an ignore undone brings it back.
            ("reopened", "undone".into(), s("ignored")),
            ("untriaged", "undone".into(), s("ignored (no time)")),
            ("ticket", "linked".into(), s("no ticket")),
            ("ticket", "unlinked".into(), s("SEC-1")),
            ("ticket", "replaced".into(), s("SEC-2")),
        ]
    );
}

#[test]
fn a_finding_reopened_and_fixed_again_in_between_is_not_reopened() {
    let mut now = entry("a", "high", "fixed");
    now.triage_state = Some("reopened".into());
    // Its triage changed (to reopened), its state did not open.
    let changes = diff(&[entry("a", "high", "removed")], &[now]);
    assert_eq!(changes, [("triaged", "a".into(), Some("untriaged".into()))]);
}

#[test]
fn a_repeated_id_keeps_its_last_entry_whatever_kind_of_id() {
    let old = [
        entry("100", "high", "open"),
        entry("a-1", "high", "open"),
        entry("100", "low", "open"),
        entry("a-1", "low", "open"),
    ];
    let new = [entry("100", "low", "open"), entry("a-1", "low", "open")];
    assert_eq!(diff(&old, &new), []);
}

#[test]
fn an_id_that_reads_as_a_number_is_not_the_same_as_the_number() {
    // "042" is not "42": each is new, and each old one gone.
    let changes = diff(
        &[entry("042", "high", "open"), entry("7", "high", "open")],
        &[entry("42", "high", "open"), entry("07", "high", "open")],
    );
    let s = |t: &str| Some(t.to_owned());
    assert_eq!(
        changes,
        [
            ("new", "42".into(), None),
            ("new", "07".into(), None),
            ("gone", "042".into(), s("open")),
            ("gone", "7".into(), s("open")),
        ]
    );
}

#[test]
fn every_old_finding_is_gone_when_the_new_side_is_empty() {
    let old = [entry("9", "high", "open"), entry("3", "low", "fixed")];
    let gone: Vec<String> = diff(&old, &[]).into_iter().map(|c| c.1).collect();
    assert_eq!(gone, ["9", "3"]);
}

/// What a million old findings cost: 24 bytes each with a numeric id
/// (24 MB), the labels kept once.
#[test]
fn an_old_finding_with_a_numeric_id_takes_24_bytes() {
    assert_eq!(std::mem::size_of::<(u64, Compact)>(), 24);
}

#[test]
fn categories_parse_by_their_names() {
    for c in Category::ALL {
        assert_eq!(Category::parse(c.name()), Some(c));
    }
    assert_eq!(Category::parse("moved"), None);
}

/// A file of one finding many times holds it once, as it is read; a
/// snapshot whose labels pass the cap is refused.
#[test]
fn a_repeated_finding_is_held_once_and_labels_are_capped() {
    let mut baseline = Baseline::default();
    for _ in 0..100_000 {
        baseline.add(&entry("7", "high", "open")).unwrap();
    }
    assert!(
        baseline.by_number.capacity() < 1_000,
        "{} held",
        baseline.by_number.capacity()
    );
    let mut changes = Vec::new();
    baseline.compare(&entry("7", "high", "fixed"), |c| changes.push(c.category));
    assert_eq!(changes, ["fixed"]);
    let mut baseline = Baseline::default();
    let by = |n: usize| format!("{n}{}", "x".repeat(1 << 20));
    let e = (0..100)
        .map(|n| {
            let mut e = entry(&n.to_string(), "high", "open");
            e.triaged_by = Some(by(n));
            baseline.add(&e)
        })
        .find_map(Result::err)
        .expect("refused");
    assert!(e.to_string().contains("MiB a diff holds"), "{e}");
}

/// A side that records no tickets (a version 1 snapshot) says no ticket
/// change, rather than every ticket changed.
#[test]
fn without_tickets_on_a_side_no_ticket_change_is_said() {
    let mut old = entry("a", "high", "open");
    old.ticket = Some("SEC-1".into());
    let mut baseline = Baseline::default();
    baseline.without_tickets();
    baseline.add(&old).unwrap();
    let mut changes = Vec::new();
    baseline.compare(&entry("a", "high", "open"), |c| changes.push(c));
    assert!(changes.is_empty(), "{changes:?}");
}
