//! The repository filter (`/`): a name the deployment does not have is
//! refused with the closest it has, as in the Issues pane, and never
//! applied (so never remembered).

use super::super::*;
use super::{loaded, sent};
use crate::message::AppEvent;
use crate::pane::testing::Drive;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use findings_client::ApiError;
use findings_model::{Annotated, IssueFiltersResponse};

fn key(pane: &mut ReportPane, code: KeyCode, outbox: &mut Outbox) {
    pane.type_key(KeyEvent::new(code, KeyModifiers::NONE), outbox);
}

fn type_text(pane: &mut ReportPane, text: &str, outbox: &mut Outbox) {
    for c in text.chars() {
        key(pane, KeyCode::Char(c), outbox);
    }
}

/// The request for the filter values, once sent.
fn values_asked(outbox: &Outbox) -> Vec<RequestId> {
    outbox
        .requests()
        .into_iter()
        .filter(|(_, r)| matches!(r, ApiRequest::IssueFilters(_)))
        .map(|(id, _)| id)
        .collect()
}

/// The error popups asked for, emptied.
fn errors(outbox: &mut Outbox) -> Vec<String> {
    std::mem::take(&mut outbox.events)
        .into_iter()
        .filter_map(|e| match e {
            // Refusals are said in the prompt and the status line.
            AppEvent::Status(message) => message
                .strip_prefix("Repository filter: ")
                .map(str::to_owned),
            _ => None,
        })
        .collect()
}

fn repositories(names: &[&str]) -> ApiResult {
    Ok(ApiResponse::IssueFilters(IssueFiltersResponse {
        repos: names
            .iter()
            .map(|n| Annotated {
                id: None,
                name: Some((*n).into()),
            })
            .collect(),
        ..Default::default()
    }))
}

/// The answer to the filter values request `/` sent: these repositories.
pub(super) fn names_arrive(pane: &mut ReportPane, names: &[&str], outbox: &mut Outbox) {
    let asked = *values_asked(outbox)
        .last()
        .expect("the names were asked for");
    pane.reply(asked, repositories(names), outbox);
}

#[test]
fn a_repository_the_deployment_does_not_have_is_refused_with_the_closest() {
    let mut outbox = Outbox::default();
    let mut pane = loaded(&mut outbox);
    pane.act(Action::RepoFilter, 20, &mut outbox);
    let asked = values_asked(&outbox);
    assert_eq!(asked.len(), 1, "`/` asks for the repository names");
    let report_requests = sent(&outbox).len();
    type_text(&mut pane, "payments-api", &mut outbox);
    // Before the names arrive, what was typed waits for them.
    key(&mut pane, KeyCode::Enter, &mut outbox);
    assert!(errors(&mut outbox).is_empty());
    assert!(pane.repo_input.is_none() && pane.projects.is_empty());
    assert_eq!(pane.pending_repos.as_deref(), Some("payments-api"));
    pane.reply(
        asked[0],
        repositories(&["acme/payments-api", "acme/web"]),
        &mut outbox,
    );
    assert_eq!(pane.pending_repos, None);
    assert_eq!(
        errors(&mut outbox),
        vec!["projects: \"payments-api\" matches nothing; did you mean acme/payments-api?"]
    );
    // The input opens again as typed, to be corrected; nothing was asked.
    assert_eq!(pane.repo_input.as_ref().unwrap().value(), "payments-api");
    assert!(pane.projects.is_empty());
    assert!(pane.selectors().projects.is_empty(), "never remembered");
    assert_eq!(sent(&outbox).len(), report_requests);
    // A known name (with one unknown beside it: refused whole).
    for _ in 0.."payments-api".len() {
        key(&mut pane, KeyCode::Backspace, &mut outbox);
    }
    type_text(&mut pane, "acme/payments-api, acme/nope", &mut outbox);
    key(&mut pane, KeyCode::Enter, &mut outbox);
    assert!(errors(&mut outbox)[0].contains("\"acme/nope\" matches nothing"));
    for _ in 0..", acme/nope".len() {
        key(&mut pane, KeyCode::Backspace, &mut outbox);
    }
    key(&mut pane, KeyCode::Enter, &mut outbox);
    assert!(errors(&mut outbox).is_empty());
    assert!(pane.repo_input.is_none());
    assert_eq!(pane.projects, vec!["acme/payments-api"]);
    let filters = sent(&outbox).pop().unwrap().1.filters.unwrap();
    assert_eq!(filters.projects, vec!["acme/payments-api"]);
    // Asked once per session.
    pane.act(Action::RepoFilter, 20, &mut outbox);
    assert_eq!(values_asked(&outbox).len(), 1);
}

#[test]
fn names_go_unchecked_when_the_server_cannot_list_them() {
    let mut outbox = Outbox::default();
    let mut pane = loaded(&mut outbox);
    pane.act(Action::RepoFilter, 20, &mut outbox);
    let asked = values_asked(&outbox)[0];
    pane.reply(asked, Err(ApiError::Connection("down".into())), &mut outbox);
    type_text(&mut pane, "acme/anything", &mut outbox);
    key(&mut pane, KeyCode::Enter, &mut outbox);
    assert!(errors(&mut outbox).is_empty());
    assert_eq!(pane.projects, vec!["acme/anything"]);
}
