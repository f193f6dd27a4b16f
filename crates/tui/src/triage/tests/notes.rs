//! Notes through a triage and its undo: read before they are planned,
//! kept unless replaced on purpose, put back exactly; and findings someone
//! else changed since they were shown.

use super::*;

/// `t` with the reason of `reason` too.
fn with_reason(mut t: Target, reason: TriageReason) -> Target {
    if let findings_requests::triage::Before::Finding(state, _) = &t.before {
        t.before = findings_requests::triage::Before::Finding(state.clone(), Some(reason));
    }
    t
}

fn screen(t: &Triage) -> String {
    use ratatui::{Terminal, backend::TestBackend};
    let mut term = Terminal::new(TestBackend::new(100, 40)).unwrap();
    let theme = crate::theme::Theme::no_color();
    term.draw(|f| draw(f, f.area(), t, &theme)).unwrap();
    let buf = term.backend().buffer();
    (0..buf.area.height)
        .map(|y| {
            (0..buf.area.width)
                .map(|x| buf[(x, y)].symbol())
                .collect::<String>()
                + "\n"
        })
        .collect()
}

#[test]
fn no_note_typed_keeps_each_findings_own_and_undo_puts_every_note_back() {
    let mut outbox = Outbox::default();
    let mut t = Triage::new("42");
    let before = vec![
        noted("1", Some(TriageState::Untriaged), Some("teammate A")),
        noted("2", Some(TriageState::Untriaged), None),
        with_reason(
            noted("3", Some(TriageState::Ignored), Some("teammate B")),
            TriageReason::AcceptableRisk,
        ),
        noted("4", Some(TriageState::Untriaged), Some("teammate A")),
    ];
    // The rows keep no note: the dialog reads them.
    let rows = before.iter().cloned().map(Target::note_unread).collect();
    t.open(Scope::Ids(rows), &mut outbox);
    assert!(screen(&t).contains("reading them…"), "{}", screen(&t));
    answer_reads(&mut t, &mut outbox, &before);
    let dialog = screen(&t);
    assert!(
        dialog.contains("each keeps its own (3 of 4 have one)"),
        "{dialog}"
    );
    // Ignored (false positive), no note typed.
    t.on_key(key(KeyCode::Tab), now(), &mut outbox);
    t.on_key(key(KeyCode::Right), now(), &mut outbox);
    t.on_key(ctrl('s'), now(), &mut outbox);
    answer_reads(&mut t, &mut outbox, &before);
    let bodies = reviewed_bodies(&t);
    assert_eq!(bodies.len(), 3, "{bodies:#?}");
    assert_eq!(bodies[0]["filter"]["ids"], serde_json::json!(["1", "4"]));
    assert_eq!(bodies[0]["params"]["note"], "teammate A");
    assert_eq!(bodies[1]["filter"]["ids"], serde_json::json!(["2"]));
    assert!(bodies[1]["params"].get("note").is_none(), "nothing to keep");
    assert_eq!(bodies[2]["filter"]["ids"], serde_json::json!(["3"]));
    assert_eq!(bodies[2]["params"]["note"], "teammate B");
    assert!(screen(&t).contains("Notes: 3 findings keep their own note"));
    t.on_key(key(KeyCode::Char('y')), now(), &mut outbox);
    for k in 0..3 {
        let (id, _) = writes(&outbox)[k].clone();
        t.on_reply(id, answer(1), now(), &mut outbox);
    }
    assert!(!t.in_flight());
    // On the server now: each ignored as a false positive, notes as they were.
    let after: Vec<Target> = before
        .iter()
        .map(|b| {
            with_reason(
                noted(&b.id, Some(TriageState::Ignored), b.note.as_deref()),
                TriageReason::FalsePositive,
            )
        })
        .collect();
    t.undo(&mut outbox);
    answer_reads(&mut t, &mut outbox, &after);
    let bodies = reviewed_bodies(&t);
    assert_eq!(bodies.len(), 3, "{bodies:#?}");
    assert_eq!(bodies[0]["filter"]["ids"], serde_json::json!(["1", "4"]));
    assert_eq!(
        bodies[0]["params"],
        serde_json::json!({"triageState": "FINDING_TRIAGE_STATE_UNTRIAGED", "note": "teammate A"})
    );
    assert_eq!(
        bodies[1]["params"],
        serde_json::json!({"triageState": "FINDING_TRIAGE_STATE_UNTRIAGED"})
    );
    assert_eq!(
        bodies[2]["params"],
        serde_json::json!({
            "triageState": "FINDING_TRIAGE_STATE_IGNORED",
            "triageReason": "FINDING_TRIAGE_REASON_ACCEPTABLE_RISK",
            "note": "teammate B"
        })
    );
}

#[test]
fn a_note_typed_for_many_replaces_theirs_only_when_chosen_and_named() {
    let mut outbox = Outbox::default();
    let mut t = Triage::new("42");
    let before = vec![
        // Already ignored as a false positive, with a teammate's note.
        with_reason(
            noted("1", Some(TriageState::Ignored), Some("teammate's")),
            TriageReason::FalsePositive,
        ),
        noted("2", Some(TriageState::Untriaged), None),
    ];
    t.open_with(
        Scope::Ids(before.clone()),
        "ignored false-positive oncall INC-4411",
        &mut outbox,
    )
    .unwrap();
    answer_reads(&mut t, &mut outbox, &before);
    // Kept by default: 1 is already so, note included; only 2 is sent.
    let bodies = reviewed_bodies(&t);
    assert_eq!(bodies.len(), 1, "{bodies:#?}");
    assert_eq!(bodies[0]["filter"]["ids"], serde_json::json!(["2"]));
    assert_eq!(bodies[0]["params"]["note"], "oncall INC-4411");
    assert!(screen(&t).contains("1 finding already so, note included: not sent"));
    // Back to the dialog, to the Notes row: replace them all.
    t.on_key(key(KeyCode::Esc), now(), &mut outbox);
    while t.draft.as_ref().unwrap().focus != Field::Notes {
        t.on_key(key(KeyCode::Tab), now(), &mut outbox);
    }
    // Kept, the dialog says where the note typed goes.
    let dialog = screen(&t);
    assert!(
        dialog.contains("each keeps its own (1 of 2 have one)")
            && dialog.contains(
                "the note typed goes to the 1 finding without one; the others keep theirs"
            ),
        "{dialog}"
    );
    t.on_key(key(KeyCode::Right), now(), &mut outbox);
    assert!(screen(&t).contains("replace them all with the note typed (1 of 2 have one)"));
    assert!(!screen(&t).contains("the note typed goes to"));
    t.on_key(ctrl('s'), now(), &mut outbox);
    answer_reads(&mut t, &mut outbox, &before);
    let review = screen(&t);
    assert!(
        review.contains("replaces the note of 1 finding: 1"),
        "{review}"
    );
    t.on_key(key(KeyCode::Char('y')), now(), &mut outbox);
    let (id, _) = writes(&outbox)[0].clone();
    t.on_reply(id, answer(2), now(), &mut outbox);
    // Its undo covers 1 too: its note was replaced.
    let entry = &t.history.entries()[0];
    let ids: Vec<&str> = entry.targets.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids, ["1", "2"]);
    assert_eq!(entry.targets[0].note.as_deref(), Some("teammate's"));
}

#[test]
fn a_single_findings_note_is_in_the_dialog_and_removing_it_is_named() {
    let mut outbox = Outbox::default();
    let mut t = Triage::new("42");
    let before = noted("7", Some(TriageState::Ignored), Some("teammate's note"));
    t.open(Scope::Ids(vec![before.clone().note_unread()]), &mut outbox);
    answer_reads(&mut t, &mut outbox, std::slice::from_ref(&before));
    assert_eq!(t.draft.as_ref().unwrap().note, "teammate's note");
    assert!(screen(&t).contains("teammate's note"));
    // Reviewing, the note left as it is: sent with it.
    t.on_key(key(KeyCode::Right), now(), &mut outbox);
    t.on_key(ctrl('s'), now(), &mut outbox);
    answer_reads(&mut t, &mut outbox, std::slice::from_ref(&before));
    let bodies = reviewed_bodies(&t);
    assert_eq!(bodies[0]["params"]["note"], "teammate's note");
    // Cleared in the dialog: the review says it is removed, sent as "".
    t.on_key(key(KeyCode::Esc), now(), &mut outbox);
    t.on_key(key(KeyCode::Tab), now(), &mut outbox);
    assert_eq!(t.draft.as_ref().unwrap().focus, Field::Note);
    t.on_key(ctrl('u'), now(), &mut outbox);
    t.on_key(ctrl('s'), now(), &mut outbox);
    answer_reads(&mut t, &mut outbox, &[before]);
    assert!(screen(&t).contains("removes the note of 1 finding: 7"));
    assert_eq!(reviewed_bodies(&t)[0]["params"]["note"], "");
}

#[test]
fn a_finding_someone_changed_since_shown_is_named_and_left_out_unless_included() {
    let mut outbox = Outbox::default();
    let mut t = Triage::new("42");
    let shown = vec![
        finding("1", Some(TriageState::Untriaged), None),
        finding("2", Some(TriageState::Untriaged), None),
    ];
    t.open_with(Scope::Ids(shown.clone()), "reviewing", &mut outbox)
        .unwrap();
    // Meanwhile alice ignored 2.
    let alices = Target::finding(&Issue {
        id: Some("2".into()),
        triage_state: Some(TriageState::Ignored),
        triage_reason: Some(TriageReason::NoTime),
        activity_history: vec![ActivityEvent {
            date: Some(now()),
            actor: Some("alice".into()),
            ..Default::default()
        }],
        ..Issue::default()
    });
    let server = vec![shown[0].clone(), alices.clone()];
    answer_reads(&mut t, &mut outbox, &server);
    let review = screen(&t);
    assert!(
        review.contains("1 changed by someone else since shown, left out (i includes them)"),
        "{review}"
    );
    assert!(
        review.contains("2  untriaged → ignored (no time), by alice at 2026-11-01 14:02"),
        "{review}"
    );
    assert_eq!(
        reviewed_bodies(&t)[0]["filter"]["ids"],
        serde_json::json!(["1"])
    );
    t.on_key(key(KeyCode::Char('i')), now(), &mut outbox);
    assert_eq!(
        reviewed_bodies(&t)[0]["filter"]["ids"],
        serde_json::json!(["1", "2"])
    );
    t.on_key(key(KeyCode::Char('i')), now(), &mut outbox);
    t.on_key(key(KeyCode::Char('y')), now(), &mut outbox);
    let (id, _) = writes(&outbox)[0].clone();
    t.on_reply(id, answer(1), now(), &mut outbox);
    // The undo: bob took 1 on meanwhile; it is named and left alone.
    t.undo(&mut outbox);
    let bobs = Target::finding(&Issue {
        id: Some("1".into()),
        triage_state: Some(TriageState::Fixing),
        note: Some("bob's".into()),
        activity_history: vec![ActivityEvent {
            date: Some(now()),
            actor: Some("bob".into()),
            ..Default::default()
        }],
        ..Issue::default()
    });
    answer_reads(&mut t, &mut outbox, &[bobs, alices]);
    let review = screen(&t);
    assert!(
        review.contains("reviewing → fixing, its note, by bob"),
        "{review}"
    );
    assert!(review.contains("Nothing to send."), "{review}");
    t.on_key(key(KeyCode::Char('y')), now(), &mut outbox);
    assert_eq!(writes(&outbox).len(), 1, "the undo sends nothing");
}

#[test]
fn a_finding_its_undo_could_not_put_back_is_named_before_y() {
    let mut outbox = Outbox::default();
    let mut t = Triage::new("42");
    let shown = vec![
        finding("1", Some(TriageState::Unknown), None),
        finding("2", Some(TriageState::Untriaged), None),
    ];
    t.open_with(Scope::Ids(shown.clone()), "reviewing", &mut outbox)
        .unwrap();
    answer_reads(&mut t, &mut outbox, &shown);
    let review = screen(&t);
    assert!(review.contains("! u cannot put 1 back"), "{review}");
    assert!(
        review.contains("set again): 1\n") || review.contains("set again): 1 "),
        "{review}"
    );
    // Both are sent: the user asked for both, and was told.
    assert_eq!(
        reviewed_bodies(&t)[0]["filter"]["ids"],
        serde_json::json!(["1", "2"])
    );
}
