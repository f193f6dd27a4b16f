use super::plan::{Check, Matched, Scope};
use super::*;
use crate::message::{ApiResponse, ApiResult, AppEvent, Changed, Outbox};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use findings_client::ApiError;
use findings_requests::triage::Target;
use std::time::Duration;

fn finding(id: &str, state: Option<TriageState>, permission: Option<TriagePermission>) -> Target {
    Target::finding(&Issue {
        id: Some(id.into()),
        triage_state: state,
        triage_permission: permission,
        ..Issue::default()
    })
}

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

fn ctrl(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)
}

fn type_text(t: &mut Triage, text: &str, outbox: &mut Outbox) {
    for c in text.chars() {
        let code = if c == '\n' {
            KeyCode::Enter
        } else {
            KeyCode::Char(c)
        };
        t.on_key(key(code), now(), outbox);
    }
}

/// The triage requests queued, with their ids.
fn writes(outbox: &Outbox) -> Vec<(RequestId, ApiRequest)> {
    outbox
        .requests()
        .into_iter()
        .filter(|(_, r)| r.is_write())
        .map(|(id, r)| (id, r.clone()))
        .collect()
}

fn statuses(outbox: &Outbox) -> Vec<String> {
    outbox
        .events
        .iter()
        .filter_map(|e| match e {
            AppEvent::Status(s) => Some(s.clone()),
            AppEvent::Error { message, .. } => Some(message.clone()),
            _ => None,
        })
        .collect()
}

/// The time replies are handled at.
fn now() -> Timestamp {
    chrono::DateTime::parse_from_rfc3339("2026-11-01T14:02:11Z")
        .unwrap()
        .to_utc()
}

/// Answers the reads the triage has in flight (the dialog's and the
/// review's) with the findings of `server` they ask for: the findings as
/// the server has them now.
fn answer_reads(t: &mut Triage, outbox: &mut Outbox, server: &[Target]) {
    let mut pending = Vec::new();
    if let Check::Reading(id) = t.check {
        pending.push(id);
    }
    if let Some(Check::Reading(id)) = t.draft.as_ref().map(|d| d.fresh.clone()) {
        pending.push(id);
    }
    for id in pending {
        let asked: Vec<String> = outbox
            .requests()
            .into_iter()
            .find_map(|(rid, r)| match r {
                ApiRequest::TargetsById(ids) if rid == id => Some(ids.clone()),
                _ => None,
            })
            .expect("a read by id");
        let answer = server
            .iter()
            .filter(|t| asked.contains(&t.id))
            .cloned()
            .collect();
        assert!(t.on_reply(id, Ok(ApiResponse::Targets(answer, true)), now(), outbox));
    }
}

/// A finding with a note.
fn noted(id: &str, state: Option<TriageState>, note: Option<&str>) -> Target {
    Target::finding(&Issue {
        id: Some(id.into()),
        triage_state: state,
        note: note.map(str::to_owned),
        ..Issue::default()
    })
}

/// The review's request bodies, as JSON.
fn reviewed_bodies(t: &Triage) -> Vec<serde_json::Value> {
    t.reviewed
        .iter()
        .map(|r| serde_json::from_str(&r.body).unwrap())
        .collect()
}

pub(crate) fn answer(updated: i64) -> ApiResult {
    Ok(ApiResponse::Triaged(UpdateFindingsResponse {
        issue_count: Some(updated),
        updated_count: Some(updated),
        ..Default::default()
    }))
}

/// A dialog on findings `ids`, ignored as a false positive with `note`,
/// on its review.
pub(crate) fn reviewed(ids: &[&str], note: &str, outbox: &mut Outbox) -> Triage {
    let mut t = Triage::new("42");
    let targets: Vec<Target> = ids
        .iter()
        .map(|id| finding(id, Some(TriageState::Untriaged), None))
        .collect();
    t.open(Scope::Ids(targets.clone()), outbox);
    assert_eq!(t.step, Step::Editing);
    answer_reads(&mut t, outbox, &targets);
    // State: ignored is first. Tab to the reason, → to false positive,
    // Tab past "until" (never) to the note.
    t.on_key(key(KeyCode::Tab), now(), outbox);
    t.on_key(key(KeyCode::Right), now(), outbox);
    t.on_key(key(KeyCode::Tab), now(), outbox);
    t.on_key(key(KeyCode::Tab), now(), outbox);
    type_text(&mut t, note, outbox);
    t.on_key(ctrl('s'), now(), outbox);
    assert_eq!(t.step, Step::Review, "{:?}", statuses(outbox));
    // y waits for the findings read again.
    t.on_key(key(KeyCode::Char('y')), now(), outbox);
    assert!(writes(outbox).is_empty(), "nothing before the check");
    answer_reads(&mut t, outbox, &targets);
    t
}

#[test]
fn the_dialog_sends_exactly_the_reviewed_body_once_and_only_on_y() {
    let mut outbox = Outbox::default();
    let mut t = reviewed(&["7", "9"], "dup of SEC-1\nsee ticket", &mut outbox);
    // Enter does not send on the review; only y does.
    t.on_key(key(KeyCode::Enter), now(), &mut outbox);
    assert!(writes(&outbox).is_empty());
    t.on_key(key(KeyCode::Char('y')), now(), &mut outbox);
    let sent = writes(&outbox);
    assert_eq!(sent.len(), 1);
    let ApiRequest::TriageFindings(body) = &sent[0].1 else {
        panic!("{sent:?}")
    };
    assert_eq!(
        serde_json::to_value(body).unwrap(),
        serde_json::json!({
            "deploymentId": "42",
            "filter": {"ids": ["7", "9"]},
            "params": {
                "triageState": "FINDING_TRIAGE_STATE_IGNORED",
                "triageReason": "FINDING_TRIAGE_REASON_FALSE_POSITIVE",
                "note": "dup of SEC-1\nsee ticket"
            }
        })
    );
    // What the review showed is that body, its ids on one line.
    let shown: serde_json::Value = serde_json::from_str(&t.reviewed[0].body).unwrap();
    assert_eq!(shown, serde_json::to_value(body).unwrap());
    assert!(
        t.reviewed[0].body.contains(r#""ids": ["7", "9"]"#),
        "{}",
        t.reviewed[0].body
    );
    // A second y while in flight sends nothing more.
    t.on_key(key(KeyCode::Char('y')), now(), &mut outbox);
    assert_eq!(writes(&outbox).len(), 1);
}

#[test]
fn an_ignore_until_a_date_writes_its_expiry_into_the_reviewed_note() {
    let mut outbox = Outbox::default();
    let mut t = Triage::new("42");
    let target = finding("7", Some(TriageState::Untriaged), None);
    t.open(Scope::Ids(vec![target.clone()]), &mut outbox);
    answer_reads(&mut t, &mut outbox, std::slice::from_ref(&target));
    // Reason, then "until": a span read at the time it is typed.
    t.on_key(key(KeyCode::Tab), now(), &mut outbox);
    t.on_key(key(KeyCode::Tab), now(), &mut outbox);
    assert_eq!(t.draft.as_ref().unwrap().focus, Field::Until);
    for c in "30x".chars() {
        t.on_key(key(KeyCode::Char(c)), now(), &mut outbox);
    }
    // Not a date or a span: no review.
    t.on_key(key(KeyCode::Enter), now(), &mut outbox);
    assert_eq!(t.step, Step::Editing);
    let problem = t.draft.as_ref().unwrap().problem().unwrap_or_default();
    assert!(problem.starts_with("until"), "{problem}");
    t.on_key(key(KeyCode::Backspace), now(), &mut outbox);
    t.on_key(key(KeyCode::Char('d')), now(), &mut outbox);
    t.on_key(key(KeyCode::Tab), now(), &mut outbox);
    type_text(&mut t, "accepted until the rewrite", &mut outbox);
    t.on_key(ctrl('s'), now(), &mut outbox);
    assert_eq!(t.step, Step::Review);
    answer_reads(&mut t, &mut outbox, &[target]);
    t.on_key(key(KeyCode::Char('y')), now(), &mut outbox);
    let sent = writes(&outbox);
    let ApiRequest::TriageFindings(body) = &sent[0].1 else {
        panic!("{sent:?}")
    };
    // 30 days after 2026-11-01T14:02:11Z, in the note's last line.
    assert_eq!(
        body.params.as_ref().and_then(|p| p.note.as_deref()),
        Some("accepted until the rewrite\nexpires: 2026-12-01T14:02:11Z")
    );
}

#[test]
fn after_the_answer_the_counts_are_said_the_rows_fetched_and_undo_offered() {
    let mut outbox = Outbox::default();
    let mut t = reviewed(&["7"], "", &mut outbox);
    t.on_key(key(KeyCode::Char('y')), now(), &mut outbox);
    let (id, _) = writes(&outbox)[0].clone();
    assert!(t.on_reply(id, answer(1), now(), &mut outbox));
    assert!(t.draft.is_none(), "the draft is spent");
    assert_eq!(t.step, Step::Hidden);
    let said = statuses(&outbox).join("\n");
    assert!(
        said.contains("1 updated, of 1 · 1 finding → ignored (false positive)"),
        "{said}"
    );
    assert!(said.contains("u undoes"), "{said}");
    // The finding is fetched again by id, and the answer goes to the panes.
    let refresh = outbox
        .requests()
        .into_iter()
        .find_map(|(rid, r)| match r {
            ApiRequest::Refetch(ids) => Some((rid, ids.clone())),
            _ => None,
        })
        .expect("a refresh");
    assert_eq!(refresh.1, vec!["7".to_owned()]);
    let page = ListIssuesResponse {
        issues: vec![IssueItem {
            issue: Some(Issue {
                id: Some("7".into()),
                ..Issue::default()
            }),
            ..Default::default()
        }],
        cursor: None,
    };
    t.on_reply(
        refresh.0,
        Ok(ApiResponse::ListIssues(page)),
        now(),
        &mut outbox,
    );
    assert!(
        outbox
            .events
            .iter()
            .any(|e| matches!(e, AppEvent::Changed(Changed::Findings(v)) if v.len() == 1))
    );
    assert_eq!(t.history.len(), 1, "u can undo it");
}

#[test]
fn esc_goes_back_with_everything_kept_and_t_reopens_the_draft() {
    let mut outbox = Outbox::default();
    let mut t = reviewed(&["7"], "my note", &mut outbox);
    t.on_key(key(KeyCode::Esc), now(), &mut outbox);
    assert_eq!(t.step, Step::Editing);
    t.on_key(key(KeyCode::Esc), now(), &mut outbox);
    assert_eq!(t.step, Step::Hidden);
    assert!(
        !t.unsent_work().is_empty(),
        "the quit guard knows the draft"
    );
    t.open(Scope::Ids(vec![finding("7", None, None)]), &mut outbox);
    let draft = t.draft.as_ref().unwrap();
    assert_eq!(draft.note, "my note");
    assert_eq!(
        draft.decision().unwrap().describe(),
        "ignored (false positive)"
    );
    // Other findings get a draft of their own: the kept one stays with 7.
    t.on_key(key(KeyCode::Esc), now(), &mut outbox);
    t.open(Scope::Ids(vec![finding("8", None, None)]), &mut outbox);
    let draft = t.draft.as_ref().unwrap();
    assert_eq!(draft.note, "", "7's note does not follow the cursor");
    assert_eq!(draft.scope.ids(), vec!["8".to_owned()]);
    assert_eq!(t.kept.len(), 1);
    assert_eq!(t.kept[0].scope.ids(), vec!["7".to_owned()]);
    assert_eq!(t.kept[0].note, "my note");
    // 8's untouched draft is not kept; 7's comes back on T there.
    t.on_key(key(KeyCode::Esc), now(), &mut outbox);
    t.open(Scope::Ids(vec![finding("7", None, None)]), &mut outbox);
    assert_eq!(t.draft.as_ref().unwrap().note, "my note");
    assert!(t.kept.is_empty());
    assert_eq!(t.unsent_work().len(), 1);
}

#[test]
fn a_refused_triage_keeps_the_draft_and_changes_nothing_shown() {
    let mut outbox = Outbox::default();
    let mut t = reviewed(&["7"], "keep me", &mut outbox);
    t.on_key(key(KeyCode::Char('y')), now(), &mut outbox);
    let (id, _) = writes(&outbox)[0].clone();
    let refused = ApiError::from_status(500, br#"{"message":"boom"}"#, None);
    t.on_reply(id, Err(refused), now(), &mut outbox);
    assert_eq!(t.draft.as_ref().unwrap().note, "keep me");
    let said = statuses(&outbox).join("\n");
    assert!(said.contains("The draft is kept"), "{said}");
    assert!(!said.contains("Outcome unknown"), "{said}");
    // The server said no: nothing to fetch again.
    assert!(
        !outbox
            .requests()
            .iter()
            .any(|(_, r)| matches!(r, ApiRequest::Refetch(_)))
    );
    assert!(t.history.is_empty(), "nothing to undo");
}

#[test]
fn a_timeout_says_outcome_unknown_fetches_the_findings_and_never_resends() {
    let mut outbox = Outbox::default();
    let mut t = reviewed(&["7"], "n", &mut outbox);
    t.on_key(key(KeyCode::Char('y')), now(), &mut outbox);
    let (id, _) = writes(&outbox)[0].clone();
    t.on_reply(
        id,
        Err(ApiError::Timeout(Duration::from_secs(30))),
        now(),
        &mut outbox,
    );
    let said = statuses(&outbox).join("\n");
    assert!(said.contains("Outcome unknown"), "{said}");
    assert!(said.contains("not retried"), "{said}");
    assert_eq!(writes(&outbox).len(), 1, "sent once");
    assert!(
        outbox
            .requests()
            .iter()
            .any(|(_, r)| matches!(r, ApiRequest::Refetch(_)))
    );
    assert!(t.draft.is_some(), "the draft is kept");
    assert!(!t.in_flight());
}

#[test]
fn read_only_refuses_where_the_request_is_made() {
    let mut outbox = Outbox::new(true);
    let mut t = reviewed(&["7"], "", &mut outbox);
    t.on_key(key(KeyCode::Char('y')), now(), &mut outbox);
    assert!(writes(&outbox).is_empty());
    assert_eq!(t.step, Step::Review);
    assert!(
        statuses(&outbox)
            .join("\n")
            .contains("--read-only is set: the triage is not sent")
    );
}

#[test]
fn undo_puts_each_finding_back_one_request_at_a_time() {
    let mut outbox = Outbox::default();
    let mut t = Triage::new("42");
    let targets = vec![
        finding("1", Some(TriageState::Reviewing), None),
        finding("2", None, None),
        finding("3", Some(TriageState::Reviewing), None),
    ];
    t.open_with(Scope::Ids(targets.clone()), "fixing", &mut outbox)
        .unwrap();
    answer_reads(&mut t, &mut outbox, &targets);
    t.on_key(key(KeyCode::Char('y')), now(), &mut outbox);
    let (id, _) = writes(&outbox)[0].clone();
    t.on_reply(id, answer(3), now(), &mut outbox);
    outbox.events.clear();
    t.undo(&mut outbox);
    assert_eq!(t.step, Step::Review);
    let fixing: Vec<Target> = ["1", "2", "3"]
        .iter()
        .map(|id| finding(id, Some(TriageState::Fixing), None))
        .collect();
    answer_reads(&mut t, &mut outbox, &fixing);
    let bodies = reviewed_bodies(&t);
    assert_eq!(bodies.len(), 2);
    assert_eq!(bodies[0]["filter"]["ids"], serde_json::json!(["1", "3"]));
    assert_eq!(
        bodies[0]["params"]["triageState"],
        "FINDING_TRIAGE_STATE_REVIEWING"
    );
    assert_eq!(bodies[1]["filter"]["ids"], serde_json::json!(["2"]));
    assert_eq!(
        bodies[1]["params"]["triageState"],
        "FINDING_TRIAGE_STATE_UNTRIAGED"
    );
    t.on_key(key(KeyCode::Char('y')), now(), &mut outbox);
    assert_eq!(writes(&outbox).len(), 2, "one in flight at a time");
    let (first, _) = writes(&outbox)[1].clone();
    t.on_reply(first, answer(2), now(), &mut outbox);
    assert_eq!(writes(&outbox).len(), 3, "the next goes after the answer");
    let (second, _) = writes(&outbox)[2].clone();
    t.on_reply(second, answer(1), now(), &mut outbox);
    assert!(!t.in_flight());
    assert!(t.history.is_empty(), "an undo is not undone");
    let said = statuses(&outbox).join("\n");
    assert!(
        said.contains("3 updated, of 3 · undo of the triage of 14:02:11 (3 findings: reviewing ×2, untriaged → fixing)"),
        "{said}"
    );
}

#[test]
fn a_triage_by_filter_is_counted_before_it_can_be_sent_and_asks_twice_when_large() {
    let mut outbox = Outbox::default();
    let mut t = Triage::new("42");
    let filter = ListIssuesFilter {
        rules: vec!["tainted-sql".into()],
        ..Default::default()
    };
    let scope = Scope::Filter {
        filter: Box::new(filter.clone()),
        issue_types: vec![IssueType::Sast],
        matched: Matched::Listing(None),
    };
    t.open_with(scope, "ignored acceptable-risk legacy code", &mut outbox)
        .unwrap();
    let count_id = outbox
        .requests()
        .into_iter()
        .find_map(|(id, r)| matches!(r, ApiRequest::MatchingTargets(_)).then_some(id))
        .expect("listed first");
    t.on_key(key(KeyCode::Char('y')), now(), &mut outbox);
    assert!(writes(&outbox).is_empty(), "not before the listing");
    let listed: Vec<Target> = (0..120)
        .map(|k| finding(&k.to_string(), Some(TriageState::Reviewing), None))
        .collect();
    t.on_reply(
        count_id,
        Ok(ApiResponse::Targets(listed.clone(), true)),
        now(),
        &mut outbox,
    );
    answer_reads(&mut t, &mut outbox, &listed);
    t.on_key(key(KeyCode::Char('y')), now(), &mut outbox);
    assert_eq!(t.step, Step::ConfirmAgain);
    assert!(writes(&outbox).is_empty());
    t.on_key(key(KeyCode::Char('y')), now(), &mut outbox);
    let sent = writes(&outbox);
    let ApiRequest::TriageFindings(body) = &sent[0].1 else {
        panic!()
    };
    // Exactly the findings listed and reviewed, by id (never findings
    // the filter matches only later, which undo would not know).
    let ids = &body.filter.as_ref().unwrap().ids;
    assert_eq!(ids.len(), 120);
    assert!(body.filter.as_ref().unwrap().rules.is_empty());
    assert_eq!(
        body.params.as_ref().unwrap().note.as_deref(),
        Some("legacy code")
    );
    t.on_reply(sent[0].0, answer(120), now(), &mut outbox);
    // Its undo is bound to the 120 listed, by id, back to reviewing, and
    // takes the triage's note away again.
    assert_eq!(t.history.len(), 1);
    t.undo(&mut outbox);
    let ignored: Vec<Target> = (0..120)
        .map(|k| {
            let mut t = noted(
                &k.to_string(),
                Some(TriageState::Ignored),
                Some("legacy code"),
            );
            t.before = findings_requests::triage::Before::Finding(
                Some(TriageState::Ignored),
                Some(TriageReason::AcceptableRisk),
            );
            t
        })
        .collect();
    answer_reads(&mut t, &mut outbox, &ignored);
    let ApiRequest::TriageFindings(body) = &t.reviewed[0].batch.request else {
        panic!()
    };
    let filter = body.filter.as_ref().unwrap();
    assert_eq!(filter.ids.len(), 120);
    assert!(filter.rules.is_empty(), "not the filter");
    let params = body.params.as_ref().unwrap();
    assert_eq!(params.triage_state, Some(TriageState::Reviewing));
    assert_eq!(
        params.note.as_deref(),
        Some(""),
        "the triage's note removed"
    );
}

#[test]
fn agentic_issues_are_triaged_one_request_each_and_change_in_place() {
    let mut outbox = Outbox::default();
    let mut t = Triage::new("42");
    let issue = AgenticIssue {
        id: Some("a1".into()),
        triage_state: Some(AgenticTriageState::Open),
        ..Default::default()
    };
    t.open_with(
        Scope::Ids(vec![Target::agentic(&issue)]),
        "fixed",
        &mut outbox,
    )
    .unwrap();
    t.on_key(key(KeyCode::Char('y')), now(), &mut outbox);
    let sent = writes(&outbox);
    let ApiRequest::TriageAgentic { issue_id, request } = &sent[0].1 else {
        panic!()
    };
    assert_eq!(issue_id, "a1");
    assert_eq!(
        serde_json::to_value(request).unwrap(),
        serde_json::json!({"deploymentId": "42", "issueId": "a1", "triageState": "TRIAGE_STATE_FIXED"})
    );
    let fixed = AgenticIssue {
        triage_state: Some(AgenticTriageState::Fixed),
        ..issue
    };
    t.on_reply(
        sent[0].0,
        Ok(ApiResponse::AgenticTriaged(TriageIssueResponse {
            data: Some(fixed),
        })),
        now(),
        &mut outbox,
    );
    assert!(outbox.events.iter().any(
        |e| matches!(e, AppEvent::Changed(Changed::Agentic(i)) if i.triage_state == Some(AgenticTriageState::Fixed))
    ));
}

#[test]
fn permissions_are_said_before_sending() {
    let mut outbox = Outbox::default();
    let mut t = Triage::new("42");
    t.open(
        Scope::Ids(vec![finding("1", None, Some(TriagePermission::None))]),
        &mut outbox,
    );
    t.on_key(key(KeyCode::Enter), now(), &mut outbox);
    assert_eq!(t.step, Step::Editing, "cannot be reviewed");
    assert!(statuses(&outbox).join("\n").contains("cannot be triaged"));
    let mut t = Triage::new("42");
    let targets = vec![
        finding("1", None, Some(TriagePermission::Request)),
        finding("2", None, Some(TriagePermission::Ignore)),
    ];
    t.open_with(Scope::Ids(targets), "ignored", &mut outbox)
        .unwrap();
    let draft = t.draft.as_ref().unwrap();
    assert_eq!(draft.set_apart().exception, vec!["1"]);
    assert!(draft.set_apart().skipped.is_empty());
}

#[test]
fn one_triage_is_in_flight_at_a_time() {
    let mut outbox = Outbox::default();
    let mut t = reviewed(&["7"], "", &mut outbox);
    t.on_key(key(KeyCode::Char('y')), now(), &mut outbox);
    t.on_key(key(KeyCode::Esc), now(), &mut outbox);
    t.open(Scope::Ids(vec![finding("8", None, None)]), &mut outbox);
    assert!(
        t.open_with(
            Scope::Ids(vec![finding("8", None, None)]),
            "fixing",
            &mut outbox
        )
        .is_err()
    );
    assert_eq!(writes(&outbox).len(), 1);
    assert!(statuses(&outbox).join("\n").contains("one at a time"));
}

#[test]
fn the_review_shows_a_long_note_whole_at_80_columns() {
    use ratatui::{Terminal, backend::TestBackend};
    let mut outbox = Outbox::default();
    let note =
        "Cert pinning is done by the gateway in front of this service; see SEC-142 for the review";
    let t = reviewed(&["7"], note, &mut outbox);
    let mut term = Terminal::new(TestBackend::new(80, 24)).unwrap();
    let theme = crate::theme::Theme::no_color();
    term.draw(|f| draw(f, f.area(), &t, &theme)).unwrap();
    let buf = term.backend().buffer();
    let text: String = (0..buf.area.height)
        .map(|y| {
            (0..buf.area.width)
                .map(|x| buf[(x, y)].symbol())
                .collect::<String>()
                + "\n"
        })
        .collect();
    assert!(text.contains("Review: only y sends"), "{text}");
    assert!(
        text.contains("for the review"),
        "the note's end is shown:\n{text}"
    );
}

#[test]
fn an_undo_never_makes_an_exception_request_and_says_who_stays() {
    let mut outbox = Outbox::default();
    let mut t = Triage::new("42");
    let targets = vec![
        // Ignored before, may only request an ignore: cannot be put back.
        finding(
            "1",
            Some(TriageState::Ignored),
            Some(TriagePermission::Request),
        ),
        finding("2", None, Some(TriagePermission::Request)),
        // No permission: skipped by the triage, so not in its undo.
        finding("3", None, Some(TriagePermission::None)),
    ];
    t.open_with(Scope::Ids(targets.clone()), "fixing", &mut outbox)
        .unwrap();
    answer_reads(&mut t, &mut outbox, &targets);
    t.on_key(key(KeyCode::Char('y')), now(), &mut outbox);
    let (id, _) = writes(&outbox)[0].clone();
    t.on_reply(id, answer(2), now(), &mut outbox);
    assert!(t.draft.is_none(), "the draft is spent");
    assert_eq!(t.history.entries()[0].targets.len(), 2, "1 and 2 changed");
    t.undo(&mut outbox);
    let undo = t.draft.as_ref().unwrap().undo.clone().unwrap();
    assert_eq!(undo.left, vec!["1".to_owned()]);
    let now_fixing = vec![
        finding(
            "1",
            Some(TriageState::Fixing),
            Some(TriagePermission::Request),
        ),
        finding(
            "2",
            Some(TriageState::Fixing),
            Some(TriagePermission::Request),
        ),
    ];
    answer_reads(&mut t, &mut outbox, &now_fixing);
    let ApiRequest::TriageFindings(body) = &t.reviewed[0].batch.request else {
        panic!()
    };
    assert_eq!(body.filter.as_ref().unwrap().ids, vec!["2".to_owned()]);
    assert_eq!(
        body.params.as_ref().unwrap().triage_state,
        Some(TriageState::Untriaged)
    );
}

mod notes;
