//! The single-issue reads (the finding fetch and its code snippets, the
//! public agentic issue fetch and its history) and the deployments list:
//! GETs, with the other operations' auth and errors.

use super::DemoState;
use super::http::{ApiFailure, admit, authenticate, json_ok, parse_query, run_blocking};
use super::query;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use findings_model::*;
use std::sync::Arc;

/// 404 for an issue id the demo does not hold.
pub fn no_issue(issue_id: &str) -> ApiFailure {
    ApiFailure::new(
        StatusCode::NOT_FOUND,
        "NOT_FOUND",
        format!(
            "issue {} not found",
            findings_base::text::one_line(issue_id)
        ),
    )
}

/// The query of the single-issue fetch.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GetIssueQuery {
    include_code_snippet: Option<bool>,
    include_is_archived: Option<bool>,
}

/// A query that takes no parameter: any is refused (400).
#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoQuery {}

/// The query of an agentic issue's history, as published (strings).
#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActivityQuery {
    limit: Option<String>,
    cursor: Option<String>,
}

/// Finding `issue_id` as the single-issue fetch gives it (everything the
/// list leaves out), or 404.
fn single_issue(state: &DemoState, issue_id: &str, is_archived: bool) -> Result<Issue, ApiFailure> {
    let ds = &state.dataset;
    let index = ds.index_of(issue_id).ok_or_else(|| no_issue(issue_id))?;
    let parts = super::materialize::Parts {
        remediation: true,
        activity_history: true,
        is_archived,
        first_detected_at: true,
        single_issue: true,
    };
    Ok(ds.issue(index, parts))
}

/// `IssuesService_GetIssue`: the bare Issue with everything the list
/// leaves out (code snippets, dataflow trace, related findings, the rule's
/// display name and explanation) and, always, its remediation, activity
/// history and first detection; `isArchived` when asked for.
pub async fn get_issue(
    State(state): State<Arc<DemoState>>,
    Path((deployment, issue_id)): Path<(String, String)>,
    query: Result<Query<GetIssueQuery>, QueryRejection>,
    headers: HeaderMap,
) -> Result<Response, ApiFailure> {
    admit(&state, &headers, &deployment)?;
    let query = parse_query(query)?;
    let mut issue = single_issue(&state, &issue_id, query.include_is_archived == Some(true))?;
    if query.include_code_snippet == Some(false) {
        issue.code_snippet = None;
        issue.code_snippets.clear();
    }
    Ok(json_ok(&issue))
}

/// `IssuesService_GetIssueCodeSnippets`: the code snippets of the
/// single-issue fetch, alone.
pub async fn code_snippets(
    State(state): State<Arc<DemoState>>,
    Path((deployment, issue_id)): Path<(String, String)>,
    query: Result<Query<NoQuery>, QueryRejection>,
    headers: HeaderMap,
) -> Result<Response, ApiFailure> {
    admit(&state, &headers, &deployment)?;
    parse_query(query)?;
    let issue = single_issue(&state, &issue_id, false)?;
    Ok(json_ok(&GetIssueCodeSnippetsResponse {
        code_snippets: issue.code_snippets,
    }))
}

/// `PublicIssuesService_GetIssue`: agentic issue `issue_id` as it is now
/// (the triage answer's `data`).
pub async fn get_agentic_issue(
    State(state): State<Arc<DemoState>>,
    Path((deployment, issue_id)): Path<(String, String)>,
    query: Result<Query<NoQuery>, QueryRejection>,
    headers: HeaderMap,
) -> Result<Response, ApiFailure> {
    admit(&state, &headers, &deployment)?;
    parse_query(query)?;
    let index =
        query::agentic_index(&state.dataset, &issue_id).ok_or_else(|| no_issue(&issue_id))?;
    Ok(json_ok(&GetAgenticIssueResponse {
        data: Some(state.dataset.agentic_issue(index)),
    }))
}

/// `PublicIssuesService_GetIssueActivityHistory`: a page of the agentic
/// issue's history, newest first.
pub async fn agentic_activity(
    State(state): State<Arc<DemoState>>,
    Path((deployment, issue_id)): Path<(String, String)>,
    query: Result<Query<ActivityQuery>, QueryRejection>,
    headers: HeaderMap,
) -> Result<Response, ApiFailure> {
    admit(&state, &headers, &deployment)?;
    let query = parse_query(query)?;
    let index =
        query::agentic_index(&state.dataset, &issue_id).ok_or_else(|| no_issue(&issue_id))?;
    let page = run_blocking(move || {
        query::agentic_activity(
            &state.dataset,
            index,
            query.limit.as_deref(),
            query.cursor.as_deref(),
        )
    })
    .await?;
    Ok(json_ok(&page))
}

/// `DeploymentsService_ListDeployments`: the token's one deployment.
pub async fn list_deployments(
    State(state): State<Arc<DemoState>>,
    query: Result<Query<NoQuery>, QueryRejection>,
    headers: HeaderMap,
) -> Result<Response, ApiFailure> {
    authenticate(&state, &headers)?;
    parse_query(query)?;
    Ok(json_ok(&query::list_deployments(&state.dataset)))
}
