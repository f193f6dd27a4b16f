use super::*;
use crate::app::{App, Msg, Session};
use crate::keymap::Keymap;
use crate::message::AppEvent;
use crate::message::Reply;
use crate::pane::Pane;
use crate::pane::testing::Drive;
use crate::theme::Theme;
use findings_client::ApiError;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

fn typed(pane: &mut AgenticPane, text: &str, outbox: &mut Outbox) {
    for c in text.chars() {
        pane.type_key(key(KeyCode::Char(c)), outbox);
    }
}

/// The Search requests queued, with their ids.
fn searches(outbox: &Outbox) -> Vec<(RequestId, SearchIssuesRequest)> {
    outbox
        .requests()
        .into_iter()
        .filter_map(|(id, r)| match r {
            ApiRequest::Search(r) => Some((id, r.clone())),
            _ => None,
        })
        .collect()
}

fn cancels(outbox: &Outbox) -> Vec<RequestId> {
    outbox.cancelled()
}

fn issue(n: usize) -> AgenticIssue {
    AgenticIssue {
        id: Some(format!("ag-{n}")),
        project_ids: vec![format!("5100{}", n % 3)],
        title: Some(format!("Issue number {n}")),
        description: Some(format!("Description of issue {n}")),
        reasoning: Some(format!("Reasoning of issue {n}")),
        severity: Some(Severity::High),
        detection_state: Some(DetectionState::Detected),
        triage_state: Some(AgenticTriageState::Open),
        ..Default::default()
    }
}

fn page(range: std::ops::Range<usize>, total: i64, cursor: Option<&str>) -> ApiResponse {
    ApiResponse::Search(SearchIssuesResponse {
        issues: range.map(issue).collect(),
        total: Some(total),
        cursor: cursor.map(str::to_owned),
    })
}

fn last_id(outbox: &Outbox) -> RequestId {
    searches(outbox).last().expect("a search was sent").0
}

#[test]
fn activate_runs_one_empty_search() {
    let mut pane = AgenticPane::default();
    let mut outbox = Outbox::default();
    pane.start(&mut outbox);
    pane.start(&mut outbox);
    let sent = searches(&outbox);
    assert_eq!(sent.len(), 1, "only the first activation searches");
    let req = &sent[0].1;
    assert_eq!(req.filters, None, "no empty query is sent");
    assert_eq!(req.limit, Some(DEFAULT_PAGE_SIZE));
    assert_eq!(req.cursor, None);
    assert_eq!(req.sort_field, None);
    assert!(pane.is_loading());
}

#[test]
fn each_search_asks_its_count_in_the_count_slot_and_shows_it_as_the_total() {
    let mut pane = AgenticPane::default();
    let mut outbox = Outbox::default();
    pane.start(&mut outbox);
    let counts: Vec<RequestId> = outbox
        .requests()
        .into_iter()
        .filter(|(_, r)| matches!(r, ApiRequest::CountAgentic(None)))
        .map(|(id, _)| id)
        .collect();
    let [count] = counts[..] else {
        panic!("one count: {:?}", outbox.requests())
    };
    assert_eq!(Slot::of(outbox.slot_of(count)), Slot::Count);
    pane.reply(
        last_id(&outbox),
        Ok(page(0..10, 40, Some("c"))),
        &mut outbox,
    );
    assert_eq!(pane.total, Some(40));
    let answer = CountIssuesResponse { count: Some(41) };
    pane.reply(count, Ok(ApiResponse::AgenticCount(answer)), &mut outbox);
    assert_eq!(pane.total, Some(41), "the published count is the total");
    // A new search: the count asked again, the old one cancelled if open.
    pane.act(Action::Refresh, 20, &mut outbox);
    let again = outbox
        .requests()
        .into_iter()
        .filter(|(_, r)| matches!(r, ApiRequest::CountAgentic(_)))
        .count();
    assert_eq!(again, 2);
}

#[test]
fn typed_queries_are_sent_and_empty_ones_omitted() {
    let mut pane = AgenticPane::default();
    let mut outbox = Outbox::default();
    pane.start(&mut outbox);
    let first = last_id(&outbox);
    pane.act(Action::EditQuery, 20, &mut outbox);
    assert!(pane.text_input_active());
    assert_eq!(pane.editing, Some(0), "the first input is focused");
    typed(&mut pane, "token leak", &mut outbox);
    // Skip description; type into reasoning, and spaces only into file path.
    pane.type_key(key(KeyCode::Tab), &mut outbox);
    pane.type_key(key(KeyCode::Down), &mut outbox);
    typed(&mut pane, "untrusted", &mut outbox);
    pane.type_key(key(KeyCode::Tab), &mut outbox);
    typed(&mut pane, "   ", &mut outbox);
    // Shift-Tab and Up move back; a key typed there edits that input.
    pane.type_key(key(KeyCode::BackTab), &mut outbox);
    assert_eq!(pane.editing, Some(2));
    pane.type_key(key(KeyCode::Up), &mut outbox);
    assert_eq!(pane.editing, Some(1));
    typed(&mut pane, "x", &mut outbox);
    pane.type_key(key(KeyCode::Backspace), &mut outbox);
    assert_eq!(pane.inputs[1].value(), "");
    assert_eq!(searches(&outbox).len(), 1, "typing sends nothing");

    pane.type_key(key(KeyCode::Enter), &mut outbox);
    assert!(!pane.text_input_active(), "Enter leaves editing");
    let sent = searches(&outbox);
    assert_eq!(sent.len(), 2);
    assert!(
        cancels(&outbox).contains(&first),
        "the search in flight is cancelled"
    );
    let req = &sent[1].1;
    assert_eq!(
        req.filters,
        Some(SearchFilters {
            title_query: Some("token leak".into()),
            reasoning_query: Some("untrusted".into()),
            ..Default::default()
        })
    );
    assert_eq!(req.cursor, None, "a new search starts at the first page");
    // The JSON body has no empty query fields.
    let json = serde_json::to_string(req).unwrap();
    assert!(!json.contains("descriptionQuery") && !json.contains("filePathQuery"));
    assert!(json.contains(r#""titleQuery":"token leak""#));
}

#[test]
fn esc_leaves_editing_without_searching_and_keeps_the_text() {
    let mut pane = AgenticPane::default();
    let mut outbox = Outbox::default();
    pane.start(&mut outbox);
    pane.act(Action::EditQuery, 20, &mut outbox);
    typed(&mut pane, "abc", &mut outbox);
    pane.type_key(key(KeyCode::Esc), &mut outbox);
    assert!(!pane.text_input_active());
    assert_eq!(searches(&outbox).len(), 1);
    assert_eq!(pane.inputs[0].value(), "abc");
    assert!(pane.is_modified(0));
    assert_eq!(pane.query(QueryField::Title), None, "not applied");
    // `r` reloads the search in force, not the unsubmitted text.
    pane.act(Action::Refresh, 20, &mut outbox);
    assert_eq!(searches(&outbox).last().unwrap().1.filters, None);
}

#[test]
fn sort_cycles_and_flips_and_reloads() {
    let mut pane = AgenticPane::default();
    let mut outbox = Outbox::default();
    pane.start(&mut outbox);
    let mut fields = Vec::new();
    for _ in 0..4 {
        pane.act(Action::CycleSort, 20, &mut outbox);
        fields.push(searches(&outbox).last().unwrap().1.sort_field.clone());
    }
    assert_eq!(
        fields,
        vec![
            Some(IssueSortField::CreatedAt),
            Some(IssueSortField::FilePath),
            Some(IssueSortField::Severity),
            Some(IssueSortField::LastDetectedAt),
        ]
    );
    pane.act(Action::ToggleSortDirection, 20, &mut outbox);
    assert_eq!(
        searches(&outbox).last().unwrap().1.sort_direction,
        Some(SortDirection::Asc)
    );
    pane.act(Action::ToggleSortDirection, 20, &mut outbox);
    assert_eq!(
        searches(&outbox).last().unwrap().1.sort_direction,
        Some(SortDirection::Desc)
    );
    assert_eq!(searches(&outbox).len(), 7, "each change reloads");
    assert_eq!(pane.sort_label(), "last-detected ↓");
}

#[test]
fn sort_command() {
    let mut pane = AgenticPane::default();
    let mut outbox = Outbox::default();
    pane.run("sort", &["severity", "asc"], &mut outbox).unwrap();
    let req = searches(&outbox).last().unwrap().1.clone();
    assert_eq!(req.sort_field, Some(IssueSortField::Severity));
    assert_eq!(req.sort_direction, Some(SortDirection::Asc));
    pane.run("sort", &["ISSUE_SORT_FIELD_FILE_PATH"], &mut outbox)
        .unwrap();
    let req = searches(&outbox).last().unwrap().1.clone();
    assert_eq!(req.sort_field, Some(IssueSortField::FilePath));
    assert_eq!(req.sort_direction, Some(SortDirection::Asc), "kept");

    let before = searches(&outbox).len();
    let err = pane.run("sort", &["rule"], &mut outbox).unwrap_err();
    assert!(
        err.contains("severity, last-detected, created, file-path"),
        "{err}"
    );
    let err = pane
        .run("sort", &["created", "up"], &mut outbox)
        .unwrap_err();
    assert!(err.contains("asc or desc"), "{err}");
    assert!(pane.run("sort", &[], &mut outbox).is_err());
    assert_eq!(searches(&outbox).len(), before, "errors send nothing");
    assert_eq!(pane.sort_field, Some(IssueSortField::FilePath));
}

#[test]
fn a_reply_of_a_superseded_search_is_dropped() {
    let mut pane = AgenticPane::default();
    let mut outbox = Outbox::default();
    pane.start(&mut outbox);
    let old = last_id(&outbox);
    pane.act(Action::EditQuery, 20, &mut outbox);
    typed(&mut pane, "new", &mut outbox);
    pane.type_key(key(KeyCode::Enter), &mut outbox);
    let new = last_id(&outbox);
    assert_ne!(old, new);

    // A stale reply is dropped.
    pane.reply(old, Ok(page(0..5, 200, Some("c1"))), &mut outbox);
    assert!(pane.list.is_empty());
    assert_eq!(pane.total, None);

    pane.reply(new, Ok(page(0..3, 3, None)), &mut outbox);
    assert_eq!(pane.list.len(), 3);
    assert_eq!(pane.total, Some(3));
    assert!(pane.list.complete);
    assert!(!pane.is_loading());
    // A duplicate reply is not taken either.
    pane.reply(new, Ok(page(3..6, 3, None)), &mut outbox);
    assert_eq!(pane.list.len(), 3);
}

#[test]
fn paging_prefetches_and_keeps_the_selection_in_bounds() {
    let mut pane = AgenticPane::default();
    let mut outbox = Outbox::default();
    pane.start(&mut outbox);
    let id = last_id(&outbox);
    pane.reply(id, Ok(page(0..100, 250, Some("c1"))), &mut outbox);
    // 20 app rows (body 23) = 16 result rows under the queries.
    pane.after(20, &mut outbox);
    assert_eq!(searches(&outbox).len(), 1, "no prefetch yet");
    pane.act(Action::Bottom, 20, &mut outbox);
    assert_eq!(pane.list.selected, 99);
    pane.after(20, &mut outbox);
    let sent = searches(&outbox);
    assert_eq!(sent.len(), 2, "near the end the next page is fetched");
    assert_eq!(sent[1].1.cursor.as_deref(), Some("c1"));
    assert_eq!(pane.list.offset, 99 + 1 - 16, "the selection is on screen");
    // While it loads, no second request goes out.
    pane.after(20, &mut outbox);
    assert_eq!(searches(&outbox).len(), 2);
    pane.reply(sent[1].0, Ok(page(100..200, 250, None)), &mut outbox);
    assert_eq!(pane.list.len(), 200);
    assert!(pane.list.complete);
    pane.act(Action::PageDown, 20, &mut outbox);
    assert_eq!(pane.list.selected, 99 + 16);
    pane.act(Action::HalfPageUp, 20, &mut outbox);
    assert_eq!(pane.list.selected, 99 + 16 - 8);
    pane.act(Action::Bottom, 20, &mut outbox);
    pane.act(Action::Down, 20, &mut outbox);
    assert_eq!(pane.list.selected, 199, "bounded at the end");
    pane.after(20, &mut outbox);
    assert_eq!(searches(&outbox).len(), 2, "the last page has come");
    pane.act(Action::Top, 20, &mut outbox);
    pane.act(Action::Up, 20, &mut outbox);
    assert_eq!(pane.list.selected, 0);
}

#[test]
fn a_failed_page_is_retried_from_where_it_stopped() {
    let mut pane = AgenticPane::default();
    let mut outbox = Outbox::default();
    pane.start(&mut outbox);
    pane.reply(
        last_id(&outbox),
        Ok(page(0..100, 200, Some("c1"))),
        &mut outbox,
    );
    pane.act(Action::Bottom, 20, &mut outbox);
    pane.after(20, &mut outbox);
    let id = last_id(&outbox);
    pane.reply(
        id,
        Err(ApiError::Connection("connection reset".into())),
        &mut outbox,
    );
    assert!(pane.list.loader.error.is_some());
    assert!(matches!(outbox.events.last(), Some(AppEvent::Error { .. })));
    pane.after(20, &mut outbox);
    assert_eq!(searches(&outbox).len(), 2, "no retry loop");
    pane.act(Action::Refresh, 20, &mut outbox);
    assert_eq!(
        searches(&outbox).last().unwrap().1.cursor.as_deref(),
        Some("c1")
    );
    assert_eq!(pane.list.len(), 100, "what was loaded is kept");
}

#[test]
fn the_detail_opens_scrolls_and_closes() {
    let mut pane = AgenticPane::default();
    let mut outbox = Outbox::default();
    pane.start(&mut outbox);
    pane.reply(last_id(&outbox), Ok(page(0..10, 10, None)), &mut outbox);
    pane.act(Action::Down, 20, &mut outbox);
    pane.act(Action::Open, 20, &mut outbox);
    let detail = pane.detail.as_ref().expect("open");
    assert_eq!(detail.issue.id.as_deref(), Some("ag-1"));
    assert_eq!(pane.contexts(), vec![Context::DETAIL]);
    pane.act(Action::Down, 20, &mut outbox);
    pane.act(Action::Down, 20, &mut outbox);
    pane.act(Action::Up, 20, &mut outbox);
    assert_eq!(pane.detail.as_ref().unwrap().scroll, 1);
    assert_eq!(pane.list.selected, 1, "j/k scroll the detail, not the list");
    pane.act(Action::NextTab, 20, &mut outbox);
    pane.act(Action::Copy, 20, &mut outbox);
    assert!(
        outbox
            .effects
            .contains(&Effect::Copy(ClipboardText::line("ag-1").unwrap()))
    );
    pane.act(Action::Back, 20, &mut outbox);
    assert!(pane.detail.is_none());
    assert_eq!(pane.contexts(), vec![super::KEYS, Context::LIST]);
}

#[test]
fn clicks_select_rows_and_focus_queries() {
    let mut pane = AgenticPane::default();
    let mut outbox = Outbox::default();
    pane.start(&mut outbox);
    pane.reply(last_id(&outbox), Ok(page(0..10, 10, None)), &mut outbox);
    let body = Rect::new(0, 1, 120, 33);
    // queries y 1..5, table block from y 5, header 6, rows from 7.
    pane.click(body, 10, 9);
    assert_eq!(pane.list.selected, 2);
    pane.click(body, 10, 30);
    assert_eq!(pane.list.selected, 2, "below the last row: nothing");
    pane.click(body, 10, 3);
    assert_eq!(pane.editing, Some(2), "a query line starts editing it");
}

// ---- Rendering ----

fn app(w: u16, h: u16) -> App {
    let mut app = App::new(
        Session::default(),
        Keymap::default_keymap(),
        Theme::default(),
        (w, h),
    );
    app.pane = super::ID;
    app
}

fn render(app: &App) -> String {
    let (w, h) = app.size;
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| crate::app::view::draw(f, app)).unwrap();
    let buf = terminal.backend().buffer();
    let mut out = String::new();
    for y in 0..buf.area.height {
        for x in 0..buf.area.width {
            out.push_str(buf[(x, y)].symbol());
        }
        out.push('\n');
    }
    out
}

/// Where the last frame put the cursor.
fn cursor(app: &App) -> (u16, u16) {
    let (w, h) = app.size;
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| crate::app::view::draw(f, app)).unwrap();
    let p = terminal.get_cursor_position().unwrap();
    (p.x, p.y)
}

/// An app on the Agentic pane with a first page loaded through `update`.
fn loaded_app(w: u16, h: u16, issues: Vec<AgenticIssue>, total: i64) -> App {
    let mut app = app(w, h);
    app.pane = crate::panes::issues::ID;
    app.update(Msg::Key(key(KeyCode::Char('3'))));
    assert_eq!(app.pane, super::ID);
    let effects = app.update(Msg::Key(key(KeyCode::Char('3'))));
    assert!(effects.is_empty(), "shown again: no second first search");
    let id = app.agentic().list.loader.pending().expect("searching");
    app.update(Msg::Reply(Reply {
        id,
        result: Ok(ApiResponse::Search(SearchIssuesResponse {
            issues,
            total: Some(total),
            cursor: Some("next".into()),
        })),
    }));
    app
}

#[test]
fn renders_queries_results_and_total() {
    for (w, h) in [(120, 35), (80, 24)] {
        let mut app = loaded_app(w, h, (0..37).map(issue).collect(), 200);
        app.update(Msg::Key(key(KeyCode::Char('/'))));
        assert!(app.agentic().text_input_active());
        for c in "token".chars() {
            app.update(Msg::Key(key(KeyCode::Char(c))));
        }
        let effects = app.update(Msg::Key(key(KeyCode::Tab)));
        assert!(effects.is_empty());
        assert_eq!(app.pane, super::ID, "Tab moves between inputs");
        let screen = render(&app);
        assert!(screen.contains("Title"), "{screen}");
        assert!(screen.contains("token"), "{screen}");
        assert!(
            screen.contains("File path") || screen.contains("F "),
            "{screen}"
        );
        assert!(screen.contains("Agentic issues 37 of 200"), "{screen}");
        // With room (these titles are short, even at 80 columns) the
        // list names each issue's repository; by its id while the names
        // are not known.
        assert!(screen.contains("REPOSITORY"), "{screen}");
        assert!(screen.contains("51000"), "{screen}");
        assert!(screen.contains("Issue number 0"), "{screen}");
        assert!(screen.contains("high"), "{screen}");
        assert!(screen.contains("detected"), "{screen}");
        assert!(screen.contains("open"), "{screen}");
        assert!(screen.contains("editing description"), "{screen}");
        // The cursor is in the focused (second) input, after its label.
        assert_eq!(cursor(&app), (15, 2));
        // Esc stops editing; the status shows loaded/total, sort and
        // that the typed query is not searched yet.
        app.update(Msg::Key(key(KeyCode::Esc)));
        let screen = render(&app);
        assert!(screen.contains("37 of 200 loaded"), "{screen}");
        assert!(screen.contains("* Title"), "{screen}");
        app.update(Msg::Key(key(KeyCode::Char('i'))));
        app.update(Msg::Key(key(KeyCode::Enter)));
        let screen = render(&app);
        // (cut with `…` where the status line is narrow)
        assert!(screen.contains(r#"queries: title~"tok"#), "{screen}");
    }
}

#[test]
fn renders_the_detail_with_the_description_wrapped() {
    let long = "The workflow passes the pull request title straight into a shell \
                step, so anyone who opens a pull request can run commands with the \
                repository token. END-OF-DESCRIPTION";
    let mut one = issue(0);
    one.description = Some(long.into());
    one.workflow_ids = vec!["wf-build".into()];
    one.cwes = vec!["CWE-78".into()];
    one.file_paths = vec![".ci/build.yml".into()];
    one.project_ids = vec!["51007".into()];
    one.triage_reason = Some(AgenticTriageReason::NoTime);
    for (w, h) in [(80, 24), (120, 35), (200, 50)] {
        let mut app = loaded_app(w, h, vec![one.clone(), issue(1)], 2);
        app.update(Msg::Key(key(KeyCode::Enter)));
        assert!(app.agentic().detail.is_some());
        let screen = render(&app);
        assert!(screen.contains("END-OF-DESCRIPTION"), "{screen}");
        assert!(screen.contains("Description"), "{screen}");
        assert!(screen.contains("no time"), "{screen}");
        assert!(screen.contains("high · Issue number 0"), "{screen}");
        // The lists are further down: G scrolls to the end.
        app.update(Msg::Key(key(KeyCode::Char('G'))));
        let end = render(&app);
        for fact in [
            "Workflows (1)",
            "wf-build",
            "CWEs (1)",
            "CWE-78",
            ".ci/build.yml",
            // By id while the filter values (the names) are not in.
            "Repositories (1)",
            "51007",
        ] {
            assert!(end.contains(fact), "{fact}: {end}");
        }
        assert!(end.contains("none: actions"), "{end}");
        assert!(end.contains("refs"), "{end}");
        app.update(Msg::Key(key(KeyCode::Char('g'))));
        // Wrapped: no line of the screen holds the whole description.
        assert!(!screen.lines().any(|l| l.contains(long)));
        if w >= 180 {
            assert!(screen.contains("Issue number 1"), "list beside: {screen}");
        }
        // j scrolls the detail; q closes it without quitting.
        app.update(Msg::Key(key(KeyCode::Char('j'))));
        assert_eq!(app.agentic().detail.as_ref().unwrap().scroll, 1);
        app.update(Msg::Key(key(KeyCode::Char('q'))));
        assert!(app.agentic().detail.is_none() && !app.quit);
        let screen = render(&app);
        assert!(!screen.contains("END-OF-DESCRIPTION"));
    }
}

#[test]
fn tiny_and_empty_screens_do_not_panic() {
    for (w, h) in [(20, 6), (21, 7), (30, 8), (80, 24), (250, 70)] {
        let mut app = app(w, h);
        render(&app);
        app = loaded_app(w, h, (0..5).map(issue).collect(), 5);
        render(&app);
        app.update(Msg::Key(key(KeyCode::Char('i'))));
        for c in "a long query that will not fit the tiny input at all".chars() {
            app.update(Msg::Key(key(KeyCode::Char(c))));
        }
        render(&app);
        app.update(Msg::Key(key(KeyCode::Esc)));
        app.update(Msg::Key(key(KeyCode::Enter)));
        render(&app);
        app.update(Msg::Key(key(KeyCode::Char('G'))));
        render(&app);
    }
}

#[test]
fn long_queries_scroll_horizontally() {
    let mut app = loaded_app(80, 24, vec![], 0);
    app.update(Msg::Key(key(KeyCode::Char('i'))));
    let text = format!("{}TAIL", "x".repeat(150));
    for c in text.chars() {
        app.update(Msg::Key(key(KeyCode::Char(c))));
    }
    let screen = render(&app);
    assert!(screen.contains("TAIL"), "the cursor end is shown: {screen}");
}

#[test]
fn escape_sequences_from_the_server_are_drawn_safely() {
    let evil = "\u{1b}]52;c;ZXZpbA==\u{7}\u{1b}[2J";
    let mut bad = issue(0);
    bad.title = Some(format!("title{evil}"));
    bad.description = Some(format!("desc{evil}\nline two"));
    bad.reasoning = Some(format!("why{evil}"));
    bad.workflow_ids = vec![format!("wf{evil}")];
    bad.file_paths = vec![format!("path{evil}")];
    bad.triage_state = Some(AgenticTriageState::Other(format!("TRIAGE{evil}")));
    bad.detection_state = Some(DetectionState::Other(format!("DET{evil}")));
    bad.severity = Some(Severity::Other(format!("SEV{evil}")));
    let mut app = loaded_app(120, 35, vec![bad], 1);
    let screen = render(&app);
    assert!(!screen.contains('\u{1b}') && !screen.contains('\u{7}'));
    assert!(screen.contains("title"));
    app.update(Msg::Key(key(KeyCode::Enter)));
    let screen = render(&app);
    assert!(!screen.contains('\u{1b}') && !screen.contains('\u{7}'));
    assert!(screen.contains("line two"), "{screen}");
    // A query typed with control characters is drawn safely too.
    app.update(Msg::Key(key(KeyCode::Esc)));
    app.agentic_mut().inputs[0] = Input::new(format!("q{evil}"));
    let screen = render(&app);
    assert!(!screen.contains('\u{1b}') && !screen.contains('\u{7}'));
}
