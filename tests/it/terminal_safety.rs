//! Terminal injection: findings full of escape sequences, C1 controls, bidi
//! overrides and zero-width characters, drawn in every pane and detail tab
//! through the real crossterm backend. The bytes written to the terminal
//! must carry none of the data's control sequences.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use findings_client::ApiError;
use findings_demo::materialize::Parts;
use findings_demo::{DemoOptions, DemoState};
use findings_model::*;
use findings_tui::app::{App, Effect, Msg, Session};
use findings_tui::keymap::Keymap;
use findings_tui::message::{ApiRequest, ApiResponse, Reply, RequestId};
use findings_tui::theme::Theme;
use ratatui::backend::CrosstermBackend;
use ratatui::layout::Rect;
use ratatui::{Terminal, TerminalOptions, Viewport};
use serde_json::Value;

/// Everything a hostile finding may carry.
pub(crate) const HOSTILE: &str = "\u{1b}]0;PWNED\u{7}\u{1b}]52;c;cm0gLXJmIH4=\u{7}\u{1b}[2J\u{1b}[31mred\u{9b}31m\u{1b}P+qdcs\u{1b}\\\u{202e}evil\u{202c}zero\u{200b}width\u{0}nul 用户🔥 e\u{301}";

/// Appends HOSTILE to every string of a JSON value but timestamps (which
/// and integers (which would no longer decode); enum fields then carry
/// unknown hostile values.
fn poison(v: &mut Value) {
    match v {
        Value::String(s)
            if chrono::DateTime::parse_from_rfc3339(s).is_err() && s.parse::<i64>().is_err() =>
        {
            s.insert_str(0, HOSTILE);
        }
        Value::Array(items) => items.iter_mut().for_each(poison),
        Value::Object(map) => map.values_mut().for_each(poison),
        _ => {}
    }
}

fn poisoned<T: serde::Serialize + serde::de::DeserializeOwned>(value: &T) -> T {
    let mut json = serde_json::to_value(value).unwrap();
    poison(&mut json);
    serde_json::from_value(json).unwrap()
}

/// Bytes that must never reach the terminal from the data.
fn assert_clean(bytes: &[u8], what: &str) {
    let text = String::from_utf8_lossy(bytes);
    for bad in [
        "\u{1b}]",
        "\u{1b}P",
        "\u{1b}\\",
        "\u{1b}[2J",
        "\u{1b}[31mred",
        "PWNED\u{7}",
        "\u{7}",
    ] {
        assert!(!text.contains(bad), "{what}: {bad:?} reached the terminal");
    }
    for c in text.chars() {
        assert!(
            !('\u{80}'..='\u{9f}').contains(&c),
            "{what}: C1 control U+{:04X} reached the terminal",
            c as u32
        );
        assert!(
            !matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200b}'),
            "{what}: U+{:04X} reached the terminal",
            c as u32
        );
        assert!(
            c == '\u{1b}' || !c.is_control() || c == '\r' || c == '\n',
            "{what}: control U+{:04X}",
            c as u32
        );
    }
    // Every escape is ratatui's own: a CSI with numeric parameters.
    let mut rest = &text[..];
    while let Some(i) = rest.find('\u{1b}') {
        let seq = &rest[i + 1..];
        assert!(
            seq.starts_with('['),
            "{what}: a non-CSI escape: {:?}",
            &seq[..seq.len().min(12)]
        );
        let params: String = seq[1..]
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == ';' || *c == '?')
            .collect();
        let end = seq[1 + params.len()..].chars().next();
        assert!(
            end.is_some_and(|c| c.is_ascii_alphabetic()),
            "{what}: odd CSI {:?}",
            &seq[..seq.len().min(12)]
        );
        rest = &seq[1..];
    }
    // The data is still readable: its escapes are shown visibly.
    assert!(
        text.contains('␛'),
        "{what}: the hostile text is shown, made visible"
    );
}

/// The terminal's byte stream, shared with the test.
#[derive(Clone, Default)]
struct Sink(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

struct Screen {
    app: App,
}

const SIZE: (u16, u16) = (140, 45);

impl Screen {
    fn new() -> Screen {
        let app = App::new(
            Session {
                deployment: "1234".into(),
                demo: true,
                ..Default::default()
            },
            Keymap::default_keymap(),
            Theme::default(),
            SIZE,
        );
        Screen { app }
    }

    fn key(&mut self, c: KeyCode) -> Vec<Effect> {
        self.app
            .update(Msg::Key(KeyEvent::new(c, KeyModifiers::NONE)))
    }

    fn reply(&mut self, id: RequestId, result: Result<ApiResponse, ApiError>) -> Vec<Effect> {
        self.app.update(Msg::Reply(Reply { id, result }))
    }

    /// Draws a full frame on a fresh terminal and checks its bytes.
    fn check(&mut self, what: &str) {
        let sink = Sink::default();
        let mut terminal = Terminal::with_options(
            CrosstermBackend::new(sink.clone()),
            TerminalOptions {
                viewport: Viewport::Fixed(Rect::new(0, 0, SIZE.0, SIZE.1)),
            },
        )
        .unwrap();
        let app = &self.app;
        terminal
            .draw(|f| findings_tui::app::view::draw(f, app))
            .unwrap();
        let bytes = sink.0.lock().unwrap().clone();
        assert_clean(&bytes, what);
    }
}

fn sent(effects: &[Effect]) -> Vec<(RequestId, ApiRequest)> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Send { id, request } => Some((*id, request.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn hostile_text_never_reaches_the_terminal_raw() {
    let st = DemoState::new(&DemoOptions {
        findings: 60,
        ..Default::default()
    });
    let issues = poisoned_findings(&st);
    let mut s = Screen::new();
    check_issues_and_details(&mut s, &issues);
    // Local filter input with hostile paste-like input is typed text, shown safely.
    s.key(KeyCode::Char('/'));
    for c in "\u{1b}]0;x".chars() {
        s.key(KeyCode::Char(c));
    }
    s.check("local filter input");
    s.key(KeyCode::Esc);

    check_report_and_agentic(&mut s, &st, &issues);
    check_scm(&mut s, &st);
    // An error whose body is hostile: the popup and the status line.
    let effects = s.key(KeyCode::Char('2'));
    let effects = if sent(&effects).is_empty() {
        s.key(KeyCode::Char('r'))
    } else {
        effects
    };
    let (id, _) = sent(&effects)[0].clone();
    let err = ApiError::from_status(500, HOSTILE.as_bytes(), None);
    s.reply(id, Err(err));
    s.check("error popup");
}

/// A code, an SCA and a secrets finding with every part, all poisoned.
fn poisoned_findings(st: &DemoState) -> Vec<Issue> {
    let all = Parts {
        remediation: true,
        activity_history: true,
        is_archived: true,
        first_detected_at: true,
        single_issue: true,
    };
    let mut issues = Vec::new();
    for kind in [IssueType::Sast, IssueType::Sca, IssueType::Secrets] {
        let i = (0..60)
            .find(|&i| st.dataset.issue(i, Parts::default()).issue_type == Some(kind.clone()))
            .unwrap();
        issues.push(poisoned(&st.dataset.issue(i, all)));
    }
    issues
}

/// The Issues pane listing `issues`, and each one's detail, every tab.
fn check_issues_and_details(s: &mut Screen, issues: &[Issue]) {
    let items: Vec<IssueItem> = issues
        .iter()
        .map(|i| IssueItem {
            issue: Some(i.clone()),
            ..Default::default()
        })
        .collect();

    let first = sent(&s.app.start());
    let page = ListIssuesResponse {
        issues: items.clone(),
        cursor: None,
    };
    s.reply(first[0].0, Ok(ApiResponse::ListIssues(page)));
    s.check("issues pane");

    // The detail of each finding, every tab (the enriched copy is hostile too).
    for (row, issue) in issues.iter().enumerate() {
        s.key(KeyCode::Char('g'));
        for _ in 0..row {
            s.key(KeyCode::Char('j'));
        }
        s.key(KeyCode::Enter);
        let tabs = s.app.detail.as_ref().unwrap().tabs.len();
        for tab in 0..tabs {
            s.check(&format!("detail of finding {row}, tab {tab}"));
            let effects = s.key(KeyCode::Char('l'));
            for (id, _) in sent(&effects) {
                let enriched = ListIssuesResponse {
                    issues: vec![IssueItem {
                        issue: Some(issue.clone()),
                        ..Default::default()
                    }],
                    cursor: None,
                };
                s.reply(id, Ok(ApiResponse::ListIssues(enriched)));
            }
        }
        s.key(KeyCode::Esc);
    }
}

/// The Report pane with hostile findings and totals; the Agentic pane and
/// its detail.
fn check_report_and_agentic(s: &mut Screen, st: &DemoState, issues: &[Issue]) {
    // Report pane with hostile findings and totals.
    let effects = s.key(KeyCode::Char('1'));
    let (id, _) = sent(&effects)[0].clone();
    let report = ReportResponse {
        findings: issues.to_vec(),
        cursor: None,
        total: Some(3),
        total_code: Some(1),
        total_sca: Some(1),
        total_secrets: Some(1),
    };
    s.reply(id, Ok(ApiResponse::Report(report)));
    s.check("report pane");

    // Agentic pane and its detail.
    let effects = s.key(KeyCode::Char('3'));
    let (id, _) = sent(&effects)[0].clone();
    let agentic: Vec<AgenticIssue> = st
        .dataset
        .agentic
        .iter()
        .take(3)
        .map(|r| poisoned(&r.issue))
        .collect();
    s.reply(
        id,
        Ok(ApiResponse::Search(SearchIssuesResponse {
            issues: agentic,
            total: Some(3),
            cursor: None,
        })),
    );
    s.check("agentic pane");
    s.key(KeyCode::Enter);
    s.check("agentic detail");
    s.key(KeyCode::Esc);
}

/// SCM: hostile configs listed, their values in the form, and a
/// hostile returned config.
fn check_scm(s: &mut Screen, st: &DemoState) {
    let effects = s.key(KeyCode::Char('4'));
    let (id, _) = sent(&effects)[0].clone();
    let configs: Vec<ScmConfig> = st.dataset.scm_configs.iter().map(poisoned).collect();
    s.reply(id, Ok(ApiResponse::ScmConfigs(configs)));
    s.check("scm list");
    s.key(KeyCode::Enter);
    s.check("scm form of a listed config");
    s.key(KeyCode::Esc);
    s.key(KeyCode::Char(':'));
    for c in "scm 1001".chars() {
        s.key(KeyCode::Char(c));
    }
    s.key(KeyCode::Enter);
    for _ in 0..3 {
        s.key(KeyCode::Char('j'));
    }
    s.key(KeyCode::Char(' '));
    s.app.update(Msg::Key(KeyEvent::new(
        KeyCode::Char('R'),
        KeyModifiers::SHIFT,
    )));
    let effects = s.key(KeyCode::Char('y'));
    let (id, _) = sent(&effects)[0].clone();
    // As asked (autoScan off), so no mismatch popup is raised.
    let config = poisoned(&ScmConfig {
        auto_scan: Some(false),
        ..st.dataset.scm_configs[0].clone()
    });
    s.reply(
        id,
        Ok(ApiResponse::Scm(ScmConfigResponse {
            config: Some(config),
        })),
    );
    s.check("scm returned config");
}
