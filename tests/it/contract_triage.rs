//! Contract tests of the two triage writes (`IssuesService_BulkUpdateIssues`,
//! `PublicIssuesService_TriageIssue`): the real client against the embedded
//! demo server, whose every read then shows what was written.

use crate::common;
use crate::published::Watched;
use findings_client::{ApiError, Client, ClientConfig, Token};
use findings_demo::DemoServer;
use findings_demo::dataset::{Dataset, finding_id};
use findings_demo::faults::{FaultKind, Faults};
use findings_model::*;
use serde_json::{Value, json};
use std::time::Duration;

async fn server() -> Watched {
    Watched::new(common::demo(50).await)
}

/// Findings of the data set that are open, unresolved and have `permission`.
fn open_with(server: &DemoServer, permission: TriagePermission) -> Vec<String> {
    let ds = &server.state().dataset;
    (0..ds.rows.len())
        .filter(|&i| {
            let issue = ds.issue(i, Default::default());
            issue.aggregate_state == Some(AggregateState::Open)
                && issue.status == Some(IssueStatus::Unresolved)
                && Dataset::triage_permission(i, &ds.rows[i]) == permission
        })
        .map(finding_id)
        .collect()
}

fn ignore(note: &str) -> UpdateFindingParams {
    UpdateFindingParams {
        triage_state: Some(TriageState::Ignored),
        triage_reason: Some(TriageReason::FalsePositive),
        note: Some(note.into()),
    }
}

/// Every finding List issues gives for `filter` (all pages).
async fn listed(client: &Client, filter: ListIssuesFilter) -> Vec<Issue> {
    let mut out = Vec::new();
    let mut cursor = None;
    loop {
        let page = client
            .list_issues(&ListIssuesRequest {
                filter: Some(filter.clone()),
                limit: Some(1000),
                cursor: cursor.take(),
                ..Default::default()
            })
            .await
            .unwrap();
        out.extend(page.issues.into_iter().filter_map(|i| i.issue));
        match page.cursor.filter(|c| !c.is_empty()) {
            Some(c) => cursor = Some(c),
            None => return out,
        }
    }
}

fn by_ids(ids: &[String]) -> ListIssuesFilter {
    ListIssuesFilter {
        ids: ids.to_vec(),
        ..Default::default()
    }
}

async fn open_total(client: &Client) -> i64 {
    client
        .report_findings(&ReportRequest::default())
        .await
        .unwrap()
        .total
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bulk_ignore_by_ids_shows_in_every_read_with_its_activity() {
    let server = server().await;
    let client = common::client_for(&server);
    let ids: Vec<String> = open_with(&server, TriagePermission::Ignore)
        .into_iter()
        .take(2)
        .collect();
    assert_eq!(ids.len(), 2, "the data set has open findings to ignore");
    let open_before = open_total(&client).await;
    let answer = client
        .update_findings(&UpdateFindingsRequest::for_ids(
            ids.clone(),
            ignore("dup of SEC-1 \u{1b}[31m"),
        ))
        .await
        .unwrap();
    assert_eq!(answer.issue_count, Some(2));
    assert_eq!(answer.updated_count, Some(2));
    assert_eq!(answer.num_ignored, Some(2));
    assert_eq!(answer.num_exceptions_requested, Some(0));
    assert_eq!(answer.num_skipped, Some(0));
    // List issues: the new state, reason and note.
    for issue in listed(&client, by_ids(&ids)).await {
        assert_eq!(issue.triage_state, Some(TriageState::Ignored));
        assert_eq!(issue.triage_reason, Some(TriageReason::FalsePositive));
        assert_eq!(issue.aggregate_state, Some(AggregateState::IgnoredApp));
        assert_eq!(issue.note.as_deref(), Some("dup of SEC-1 \u{1b}[31m"));
    }
    // Filters on the state see it too.
    let ignored = listed(
        &client,
        ListIssuesFilter {
            aggregate_issue_states: vec![AggregateState::IgnoredApp],
            ..Default::default()
        },
    )
    .await;
    for id in &ids {
        assert!(
            ignored.iter().any(|i| i.id() == id),
            "{id} is listed ignored"
        );
    }
    // The report's open total lost them.
    assert_eq!(open_total(&client).await, open_before - 2);
    // The single-issue fetch: the state and the event, last.
    let issue = client.get_issue(&ids[0]).await.unwrap();
    assert_eq!(issue.aggregate_state, Some(AggregateState::IgnoredApp));
    let event = issue.activity_history.last().expect("an event");
    assert_eq!(event.history_type, Some(HistoryType::Triage));
    assert_eq!(event.note.as_deref(), Some("dup of SEC-1 \u{1b}[31m"));
    assert_eq!(
        event.triage_reason.as_deref(),
        Some("FINDING_TRIAGE_REASON_FALSE_POSITIVE")
    );
    assert!(event.actor.is_some() && event.date.is_some());
    // Reopened: open again, a second event.
    let answer = client
        .update_findings(&UpdateFindingsRequest::for_ids(
            vec![ids[0].clone()],
            UpdateFindingParams {
                triage_state: Some(TriageState::Reopened),
                ..Default::default()
            },
        ))
        .await
        .unwrap();
    assert_eq!(answer.num_ignored, None, "only an ignore has the breakdown");
    let again = client.get_issue(&ids[0]).await.unwrap();
    assert_eq!(again.aggregate_state, Some(AggregateState::Open));
    assert_eq!(again.triage_reason, None);
    assert_eq!(
        again.activity_history.len(),
        issue.activity_history.len() + 1
    );
    assert_eq!(open_total(&client).await, open_before - 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn permission_request_asks_an_exception_and_none_is_skipped() {
    let server = server().await;
    let client = common::client_for(&server);
    let request = open_with(&server, TriagePermission::Request)[0].clone();
    let ds = &server.state().dataset;
    let none = (0..ds.rows.len())
        .find(|&i| Dataset::triage_permission(i, &ds.rows[i]) == TriagePermission::None)
        .map(finding_id)
        .expect("a finding nobody may triage");
    let before_request = client.get_issue(&request).await.unwrap();
    let before_none = client.get_issue(&none).await.unwrap();
    assert_eq!(
        before_request.triage_permission,
        Some(TriagePermission::Request)
    );
    assert_eq!(before_none.triage_permission, Some(TriagePermission::None));
    let answer = client
        .update_findings(&UpdateFindingsRequest::for_ids(
            vec![request.clone(), none.clone()],
            ignore("compensating control"),
        ))
        .await
        .unwrap();
    assert_eq!(answer.issue_count, Some(2));
    assert_eq!(answer.updated_count, Some(0));
    assert_eq!(answer.num_ignored, Some(0));
    assert_eq!(answer.num_exceptions_requested, Some(1));
    assert_eq!(answer.num_skipped, Some(1));
    assert_eq!(
        answer.summary(),
        "0 updated, 1 exception requested, 1 skipped (no permission), of 2"
    );
    let after = client.get_issue(&request).await.unwrap();
    assert_eq!(after.aggregate_state, before_request.aggregate_state);
    assert_eq!(after.triage_state, before_request.triage_state);
    let event = after.activity_history.last().unwrap();
    assert_eq!(
        event.history_type,
        Some(HistoryType::ExceptionRequestCreated)
    );
    assert_eq!(event.note.as_deref(), Some("compensating control"));
    assert_eq!(client.get_issue(&none).await.unwrap(), before_none);
    // Reviewing is no ignore: a REQUEST finding takes it.
    let answer = client
        .update_findings(&UpdateFindingsRequest::for_ids(
            vec![request.clone()],
            UpdateFindingParams {
                triage_state: Some(TriageState::Reviewing),
                ..Default::default()
            },
        ))
        .await
        .unwrap();
    assert_eq!(answer.updated_count, Some(1));
    let after = client.get_issue(&request).await.unwrap();
    assert_eq!(after.aggregate_state, Some(AggregateState::Reviewing));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_filter_triages_exactly_what_list_issues_matches_with_it() {
    let server = server().await;
    let client = common::client_for(&server);
    // The rule with the most findings.
    let everything = listed(&client, ListIssuesFilter::default()).await;
    let mut rules: Vec<String> = everything
        .iter()
        .filter_map(|i| i.rule_id.clone())
        .collect();
    rules.sort();
    let rule = rules
        .iter()
        .max_by_key(|r| rules.iter().filter(|x| x == r).count())
        .unwrap()
        .clone();
    let filter = ListIssuesFilter {
        rule_ids: vec![rule.clone()],
        ..Default::default()
    };
    let chosen = listed(&client, filter.clone()).await;
    assert!(chosen.len() > 1, "{rule}: {}", chosen.len());
    let may = |i: &Issue| i.triage_permission != Some(TriagePermission::None);
    let answer = client
        .update_findings(&UpdateFindingsRequest {
            filter: Some(filter),
            params: Some(UpdateFindingParams {
                triage_state: Some(TriageState::Fixing),
                note: Some("sprint 12".into()),
                ..Default::default()
            }),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(answer.issue_count, Some(chosen.len() as i64));
    assert_eq!(
        answer.updated_count,
        Some(chosen.iter().filter(|i| may(i)).count() as i64)
    );
    let mut parents: Vec<&str> = chosen
        .iter()
        .filter_map(|i| i.issue_parent_id.as_deref())
        .collect();
    parents.sort_unstable();
    parents.dedup();
    assert_eq!(answer.issue_parent_count, Some(parents.len() as i64));
    let after = listed(&client, ListIssuesFilter::default()).await;
    for (old, new) in everything.iter().zip(&after) {
        assert_eq!(old.id, new.id, "the order does not change");
        let in_filter = chosen.iter().any(|c| c.id == old.id);
        if in_filter && may(old) {
            assert_eq!(new.triage_state, Some(TriageState::Fixing), "{:?}", new.id);
            assert_eq!(new.note.as_deref(), Some("sprint 12"));
        } else {
            assert_eq!(old, new, "left as it was");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agentic_triage_shows_in_the_search() {
    let server = server().await;
    let client = common::client_for(&server);
    let id = "agw-07003";
    let answer = client
        .triage_agentic_issue(
            id,
            &TriageIssueRequest {
                triage_state: Some(AgenticTriageState::Ignored),
                triage_reason: Some(AgenticTriageReason::AcceptableRisk),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    let issue = answer.data.expect("the issue");
    assert_eq!(issue.id.as_deref(), Some(id));
    assert_eq!(issue.triage_state, Some(AgenticTriageState::Ignored));
    assert_eq!(
        issue.triage_reason,
        Some(AgenticTriageReason::AcceptableRisk)
    );
    let triaged_at = issue.triaged_at.expect("triagedAt");
    let found = client
        .search_issues(&SearchIssuesRequest {
            filters: Some(SearchFilters {
                ids: vec![id.into()],
                triage_states: vec![AgenticTriageState::Ignored],
                ..Default::default()
            }),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(found.issues.len(), 1);
    assert_eq!(found.issues[0].triaged_at, Some(triaged_at));
    assert_eq!(found.issues[0], issue);
    // An unknown id is 404, and changes nothing.
    let err = client
        .triage_agentic_issue("agw-99999", &TriageIssueRequest::default())
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(400), "no state: {err}");
    let err = client
        .triage_agentic_issue(
            "agw-99999",
            &TriageIssueRequest {
                triage_state: Some(AgenticTriageState::Fixed),
                ..Default::default()
            },
        )
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(404), "{err}");
}

/// A write as any HTTP client makes it: the status and the JSON body.
async fn send(
    server: &DemoServer,
    method: reqwest::Method,
    path: &str,
    token: Option<&str>,
    body: Value,
) -> (u16, Value) {
    let mut request = common::http()
        .request(method, format!("{}{path}", server.url()))
        .json(&body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap())
}

/// Nested objects given as arrays: serde would read them field by field
/// (before, this body really ignored finding 100001); a protobuf-JSON
/// server refuses them, and so does the demo, naming where.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nested_objects_given_as_arrays_are_refused() {
    let server = server().await;
    let findings = "/api/agent/deployments/1234/findings/v2";
    let token = Some(server.token());
    for (body, at) in [
        (
            json!({"filter": [["100001"]], "params": ["FINDING_TRIAGE_STATE_IGNORED", "FINDING_TRIAGE_REASON_FALSE_POSITIVE", "set through arrays"]}),
            ".filter",
        ),
        (
            json!({"filter": {"ids": ["100001"]}, "params": ["FINDING_TRIAGE_STATE_IGNORED"]}),
            ".params",
        ),
    ] {
        let (got, answer) = send(
            &server,
            reqwest::Method::PATCH,
            findings,
            token,
            body.clone(),
        )
        .await;
        assert_eq!(got, 400, "{body}: {answer}");
        assert_eq!(answer["code"], "INVALID_ARGUMENT");
        let said = answer["error"].as_str().unwrap_or_default();
        assert!(
            said.contains(&format!("at {at}: expected an object, found an array")),
            "{said}"
        );
    }
    assert_eq!(
        server.state().dataset.changes().generation,
        0,
        "nothing changed"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_writes_refuse_like_the_other_operations() {
    let server = server().await;
    let findings = "/api/agent/deployments/1234/findings/v2";
    let agentic = "/api/issues/1234/issue/agw-07001";
    let state = json!({"triageState": "TRIAGE_STATE_FIXED"});
    let ignore = json!({"filter": {"ids": ["100001"]}, "params": {"triageState": "FINDING_TRIAGE_STATE_IGNORED"}});
    let patch = reqwest::Method::PATCH;
    let post = reqwest::Method::POST;
    let token = Some(server.token());
    let cases = [
        (patch.clone(), findings, None, ignore.clone(), 401),
        (post.clone(), agentic, None, state.clone(), 401),
        (
            patch.clone(),
            "/api/agent/deployments/9999/findings/v2",
            token,
            ignore.clone(),
            404,
        ),
        (
            post.clone(),
            "/api/issues/9999/issue/agw-07001",
            token,
            state.clone(),
            404,
        ),
        // No state: 400, whatever else the body has.
        (
            patch.clone(),
            findings,
            token,
            json!({"filter": {"ids": ["100001"]}, "params": {"note": "x"}}),
            400,
        ),
        (
            patch.clone(),
            findings,
            token,
            json!({"filter": {"ids": ["100001"]}}),
            400,
        ),
        (
            patch.clone(),
            findings,
            token,
            json!({"params": {"triageState": "FINDING_TRIAGE_STATE_CLOSED"}}),
            400,
        ),
        (
            post.clone(),
            agentic,
            token,
            json!({"triageReason": "TRIAGE_REASON_NO_TIME"}),
            400,
        ),
        (
            post.clone(),
            agentic,
            token,
            json!({"issueId": "agw-07002", "triageState": "TRIAGE_STATE_OPEN"}),
            400,
        ),
        (
            post.clone(),
            "/api/issues/1234/issue/nope",
            token,
            state.clone(),
            404,
        ),
    ];
    for (method, path, token, body, status) in cases {
        let (got, answer) = send(&server, method.clone(), path, token, body.clone()).await;
        assert_eq!(got, status, "{method} {path} {body}: {answer}");
        assert!(
            answer["error"].is_string() && answer["code"].is_string(),
            "{answer}"
        );
        if status == 400 {
            assert_eq!(answer["code"], "INVALID_ARGUMENT");
        }
    }
    assert_eq!(
        server.state().dataset.changes().generation,
        0,
        "no refused write changed anything"
    );
    let (got, answer) = send(&server, patch, findings, token, ignore).await;
    assert_eq!(got, 200, "{answer}");
    assert_eq!(answer["issueCount"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_write_is_sent_exactly_once() {
    let server = server().await;
    let mut cfg = ClientConfig::new(
        server.url(),
        server.deployment(),
        Token::new(server.token()),
    );
    cfg.retry.base_delay = Duration::from_millis(5);
    cfg.request_timeout = Duration::from_millis(400);
    let client = Client::new(cfg).unwrap();
    let body = UpdateFindingsRequest::for_ids(vec!["100001".into()], ignore("x"));
    let agentic = TriageIssueRequest {
        triage_state: Some(AgenticTriageState::Fixed),
        ..Default::default()
    };
    // A 503 would be retried for a read.
    for plan in [
        Faults::failing(503),
        Faults::failing(500),
        Faults::kind(FaultKind::Hang),
        Faults::kind(FaultKind::Reset),
    ] {
        server.set_faults(plan.clone());
        let err = client.update_findings(&body).await.unwrap_err();
        assert_eq!(server.requests(), 1, "{plan:?}: {err}");
        server.set_faults(plan.clone());
        let err = client
            .triage_agentic_issue("agw-07001", &agentic)
            .await
            .unwrap_err();
        assert_eq!(server.requests(), 1, "{plan:?}: {err}");
        if matches!(plan.kind, Some(FaultKind::Hang)) {
            assert!(matches!(err, ApiError::Timeout(_)), "{err:?}");
        }
    }
}
