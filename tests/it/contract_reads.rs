//! Contract tests of the published reads no client feature uses yet, as
//! the demo serves them (raw HTTP: the wire is the point): the public
//! agentic issue fetch and its activity history, a finding's code
//! snippets, the projects and the deployments. Every answer is checked
//! against the published schema (the server is `Watched`) and against
//! what the other operations say of the same issue, repository or
//! deployment.

use crate::common;
use crate::published::{Watched, published};
use findings_demo::DemoServer;
use findings_demo::routes::TOKEN_WITHOUT_WEB_API;
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashSet};

async fn server() -> Watched {
    Watched::new(common::demo(60).await)
}

/// A request as any HTTP client makes it: the status and the JSON body,
/// a 200 checked against the operation's published schema.
pub(crate) async fn call(
    server: &DemoServer,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (u16, Value) {
    let url = format!("{}{path}", server.url());
    let mut request = match method {
        "GET" => common::http().get(url),
        "PATCH" => common::http().patch(url),
        _ => common::http().post(url),
    };
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let body: Value = response.json().await.unwrap();
    if status == 200 {
        let route = path.split('?').next().unwrap_or(path);
        let p = published();
        let op = p
            .operation_at(method, route)
            .unwrap_or_else(|| panic!("{method} {route} is published"));
        p.check_response(op, &body)
            .unwrap_or_else(|e| panic!("{e}"));
    }
    (status, body)
}

async fn get(server: &DemoServer, path: &str) -> Value {
    let (status, body) = call(server, "GET", path, Some(server.token()), None).await;
    assert_eq!(status, 200, "{path}: {body}");
    body
}

/// Every event of an agentic issue's history, newest first, `limit` a page.
async fn whole_history(server: &DemoServer, id: &str, limit: Option<u32>) -> Vec<Value> {
    let mut events = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut path = format!("/api/issues/1234/issue/{id}/activity?");
        if let Some(limit) = limit {
            path.push_str(&format!("limit={limit}&"));
        }
        if let Some(c) = &cursor {
            path.push_str(&format!("cursor={c}"));
        }
        let page = get(server, &path).await;
        let items = page["history"].as_array().cloned().unwrap_or_default();
        if let Some(limit) = limit {
            assert!(items.len() <= limit as usize);
        }
        events.extend(items);
        match page["cursor"].as_str() {
            Some(c) if !c.is_empty() => cursor = Some(c.to_owned()),
            _ => return events,
        }
        assert!(events.len() < 1000, "the history pages end");
    }
}

/// The fields a history sets, replayed oldest to newest.
fn replayed(newest_first: &[Value]) -> BTreeMap<String, Value> {
    let mut fields = BTreeMap::new();
    for event in newest_first.iter().rev() {
        let changed = event["changedFields"].as_str().unwrap_or("");
        for field in changed.split(',').filter(|f| !f.is_empty()) {
            fields.insert(field.to_owned(), event["newValues"][field].clone());
        }
    }
    fields
}

/// The history agrees with the issue: ids unique, newest first, every
/// field it sets now as the issue fetch shows it, the last triage when
/// the issue says it was triaged.
fn assert_history_agrees(issue: &Value, history: &[Value]) {
    let id = issue["id"].as_str().unwrap();
    assert!(!history.is_empty(), "{id} has a history");
    let ids: HashSet<&str> = history.iter().filter_map(|e| e["id"].as_str()).collect();
    assert_eq!(ids.len(), history.len(), "{id}: event ids are unique");
    let times: Vec<&str> = history
        .iter()
        .map(|e| e["createdAt"].as_str().unwrap())
        .collect();
    let parsed: Vec<_> = times
        .iter()
        .map(|t| chrono::DateTime::parse_from_rfc3339(t).unwrap())
        .collect();
    assert!(
        parsed.windows(2).all(|w| w[0] >= w[1]),
        "{id} newest first: {times:?}"
    );
    for event in history {
        assert_eq!(event["issueId"], issue["id"]);
        assert_eq!(event["deploymentId"], issue["deploymentId"]);
    }
    assert_eq!(
        history.last().unwrap()["createdAt"],
        issue["createdAt"],
        "{id}: first the detection"
    );
    for (field, value) in replayed(history) {
        assert_eq!(
            value, issue[&field],
            "{id}: {field} as the history last set it"
        );
    }
    if let Some(triaged_at) = issue["triagedAt"].as_str() {
        let last_triage = history
            .iter()
            .find(|e| e["actorType"] == "ACTOR_TYPE_USER")
            .expect("a triage event");
        assert_eq!(last_triage["createdAt"], triaged_at, "{id}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_public_issue_fetch_and_its_history_agree_with_search_and_triage() {
    let server = server().await;
    let search = |cursor: Option<String>| {
        let server = &server;
        async move {
            let mut body = json!({"deploymentId": "1234", "limit": 1000});
            if let Some(c) = cursor {
                body["cursor"] = json!(c);
            }
            let (status, page) = call(
                server,
                "POST",
                "/api/issues/1234/search",
                Some(server.token()),
                Some(body),
            )
            .await;
            assert_eq!(status, 200, "{page}");
            page
        }
    };
    let issues = search(None).await["issues"].as_array().cloned().unwrap();
    assert_eq!(issues.len(), 200);
    for listed in &issues {
        let id = listed["id"].as_str().unwrap();
        let fetched = get(&server, &format!("/api/issues/1234/issue/{id}")).await;
        assert_eq!(&fetched["data"], listed, "the fetch is the search's issue");
        let history = whole_history(&server, id, None).await;
        assert_history_agrees(listed, &history);
    }
    // A triage is the fetch's state and the history's newest event; a
    // cursor taken before it goes on without a repeat or a gap.
    let id = "agw-07002";
    let before = whole_history(&server, id, None).await;
    let first = get(
        &server,
        &format!("/api/issues/1234/issue/{id}/activity?limit=1"),
    )
    .await;
    let cursor = first["cursor"].as_str().map(str::to_owned);
    let body = json!({"deploymentId": "1234", "issueId": id,
        "triageState": "TRIAGE_STATE_IGNORED", "triageReason": "TRIAGE_REASON_NO_TIME"});
    let path = format!("/api/issues/1234/issue/{id}");
    let (status, triaged) = call(&server, "POST", &path, Some(server.token()), Some(body)).await;
    assert_eq!(status, 200, "{triaged}");
    let fetched = get(&server, &path).await;
    assert_eq!(fetched, triaged, "the fetch is the triage's answer");
    let after = whole_history(&server, id, Some(1)).await;
    assert_eq!(after.len(), before.len() + 1);
    assert_eq!(&after[1..], &before[..]);
    let newest = &after[0];
    assert_eq!(newest["actorType"], "ACTOR_TYPE_USER");
    assert_eq!(newest["newValues"]["triageState"], "TRIAGE_STATE_IGNORED");
    assert_eq!(
        newest["oldValues"]["triageState"],
        replayed(&before)["triageState"]
    );
    assert_history_agrees(&fetched["data"], &after);
    if let Some(cursor) = cursor {
        let rest = get(
            &server,
            &format!("/api/issues/1234/issue/{id}/activity?cursor={cursor}"),
        )
        .await;
        assert_eq!(rest["history"].as_array().unwrap(), &before[1..]);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn code_snippets_are_the_single_issue_fetchs() {
    let server = server().await;
    let mut with_snippets = 0;
    for index in 0..60 {
        let id = 100_000 + index;
        let issue = get(
            &server,
            &format!("/api/agent/deployments/1234/issues/v2/{id}"),
        )
        .await;
        let snippets = get(
            &server,
            &format!("/api/agent/deployments/1234/issues/v2/{id}/code-snippets"),
        )
        .await;
        let expected = issue.get("codeSnippets").cloned().unwrap_or(json!([]));
        let got = snippets.get("codeSnippets").cloned().unwrap_or(json!([]));
        assert_eq!(got, expected, "finding {id}");
        with_snippets += usize::from(!expected.as_array().unwrap().is_empty());
    }
    assert!(with_snippets > 0, "some findings have snippets");
}

/// Every project, `page_size` a page, with `filter`.
async fn all_projects(server: &DemoServer, page_size: u32, filter: Value) -> Vec<Value> {
    let mut projects = Vec::new();
    let mut token: Option<String> = None;
    loop {
        let mut body = json!({"pageSize": page_size, "filter": filter});
        if let Some(t) = &token {
            body["pageToken"] = json!(t);
        }
        let path = "/api/v2/deployments/1234/projects/list";
        let (status, page) = call(server, "POST", path, Some(server.token()), Some(body)).await;
        assert_eq!(status, 200, "{page}");
        let items = page["projects"].as_array().cloned().unwrap_or_default();
        assert!(items.len() <= page_size as usize);
        projects.extend(items);
        match page["pageToken"].as_str() {
            Some(t) if !t.is_empty() => token = Some(t.to_owned()),
            _ => return projects,
        }
        assert!(projects.len() < 1000, "the project pages end");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn projects_are_the_findings_repositories() {
    let server = server().await;
    // The findings of archived projects are listed apart (`includeArchived`).
    let mut findings: Vec<Value> = Vec::new();
    for archived in [false, true] {
        let body = json!({"deploymentId": "1234", "limit": 1000, "includeIsArchived": true,
            "filter": {"includeArchived": archived}});
        let path = "/api/agent/deployments/1234/issues";
        let (status, list) = call(&server, "POST", path, Some(server.token()), Some(body)).await;
        assert_eq!(status, 200, "{list}");
        let items = list["issues"].as_array().unwrap();
        findings.extend(items.iter().map(|i| i["issue"].clone()));
    }
    assert_eq!(findings.len(), 60);
    let projects = all_projects(&server, 2, json!({})).await;
    let by_id: BTreeMap<String, &Value> = projects
        .iter()
        .map(|p| (p["id"].as_i64().expect("a numeric id").to_string(), p))
        .collect();
    assert_eq!(by_id.len(), projects.len(), "each project once");
    let ids: Vec<i64> = projects.iter().map(|p| p["id"].as_i64().unwrap()).collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "by id: {ids:?}");
    let archived: HashSet<String> = all_projects(
        &server,
        50,
        json!({"statuses": ["PROJECT_STATUS_ARCHIVED"]}),
    )
    .await
    .iter()
    .map(|p| p["id"].to_string())
    .collect();
    for finding in &findings {
        let repo = &finding["repository"];
        let id = repo["id"].as_str().unwrap();
        let project = by_id
            .get(id)
            .unwrap_or_else(|| panic!("repository {id} is a project"));
        assert_eq!(project["name"], repo["name"]);
        assert_eq!(project["scmType"], repo["type"]);
        assert_eq!(project["primaryBranchId"], repo["primaryRef"]["id"]);
        assert_eq!(
            archived.contains(id),
            finding["isArchived"] == json!(true),
            "{id}: archived as its findings say"
        );
        let created =
            |v: &Value| chrono::DateTime::parse_from_rfc3339(v.as_str().unwrap()).unwrap();
        assert!(created(&project["createTime"]) <= created(&finding["createdAt"]));
    }
    // The agentic issues name projects and their primary branches too.
    let body = json!({"deploymentId": "1234", "limit": 1000});
    let (_, search) = call(
        &server,
        "POST",
        "/api/issues/1234/search",
        Some(server.token()),
        Some(body),
    )
    .await;
    for issue in search["issues"].as_array().unwrap() {
        for (project, branch) in issue["projectIds"]
            .as_array()
            .unwrap()
            .iter()
            .zip(issue["refIds"].as_array().unwrap())
        {
            let project = by_id.get(project.as_str().unwrap()).expect("a project");
            assert_eq!(&project["primaryBranchId"], branch);
        }
    }
    // A name filter keeps the projects whose name holds the text.
    let name = projects[0]["name"].as_str().unwrap().to_owned();
    let part = &name[name.len() - 4..];
    let named = all_projects(&server, 100, json!({"names": [part]})).await;
    assert!(!named.is_empty());
    assert!(
        named
            .iter()
            .all(|p| p["name"].as_str().unwrap().contains(part))
    );
    let expected = projects
        .iter()
        .filter(|p| p["name"].as_str().unwrap().contains(part))
        .count();
    assert_eq!(named.len(), expected);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_deployments_are_the_tokens_one() {
    let server = server().await;
    let list = get(&server, "/api/v2/deployments").await;
    let of_token = {
        let (status, body) = call(
            &server,
            "GET",
            "/api/agent/deployment",
            Some(server.token()),
            None,
        )
        .await;
        assert_eq!(status, 200);
        body
    };
    let deployments = list["deployments"].as_array().unwrap();
    assert_eq!(deployments.len(), 1);
    assert_eq!(deployments[0]["id"], of_token["deployment"]["id"]);
    assert_eq!(
        deployments[0]["name"],
        of_token["deployment"]["display_name"]
    );
    assert_eq!(deployments[0]["id"].to_string(), server.deployment());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_new_reads_refuse_like_the_other_operations() {
    let server = server().await;
    let t = Some(server.token());
    let activity = "/api/issues/1234/issue/agw-07001/activity";
    let other_cursor =
        get(&server, "/api/issues/1234/issue/agw-07005/activity?limit=1").await["cursor"]
            .as_str()
            .expect("a second page")
            .to_owned();
    let gets: Vec<(String, Option<&str>, u16)> = vec![
        ("/api/v2/deployments".into(), None, 401),
        ("/api/v2/deployments".into(), Some("wrong"), 401),
        (
            "/api/v2/deployments".into(),
            Some(TOKEN_WITHOUT_WEB_API),
            403,
        ),
        ("/api/v2/deployments?colour=red".into(), t, 400),
        ("/api/issues/1234/issue/agw-07001".into(), None, 401),
        (
            "/api/issues/1234/issue/agw-07001".into(),
            Some(TOKEN_WITHOUT_WEB_API),
            403,
        ),
        ("/api/issues/9999/issue/agw-07001".into(), t, 404),
        ("/api/issues/1234/issue/agw-99999".into(), t, 404),
        ("/api/issues/1234/issue/100001".into(), t, 404),
        (activity.into(), Some("wrong"), 401),
        ("/api/issues/9999/issue/agw-07001/activity".into(), t, 404),
        ("/api/issues/1234/issue/agw-99999/activity".into(), t, 404),
        (format!("{activity}?limit=ten"), t, 400),
        (format!("{activity}?limit=-1"), t, 400),
        (format!("{activity}?cursor=garbage"), t, 400),
        (format!("{activity}?cursor={other_cursor}"), t, 400),
        (format!("{activity}?colour=red"), t, 400),
        (
            "/api/agent/deployments/1234/issues/v2/100001/code-snippets".into(),
            None,
            401,
        ),
        (
            "/api/agent/deployments/9999/issues/v2/100001/code-snippets".into(),
            t,
            404,
        ),
        (
            "/api/agent/deployments/1234/issues/v2/999999/code-snippets".into(),
            t,
            404,
        ),
        (
            "/api/agent/deployments/1234/issues/v2/agw-07001/code-snippets".into(),
            t,
            404,
        ),
    ];
    for (path, token, status) in gets {
        let (got, body) = call(&server, "GET", &path, token, None).await;
        assert_eq!(got, status, "{path} {token:?}: {body}");
        assert!(
            body["error"].is_string() && body["code"].is_string(),
            "{body}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_project_list_refuses_like_the_other_operations() {
    let server = server().await;
    let t = Some(server.token());
    let projects = "/api/v2/deployments/1234/projects/list";
    let posts: Vec<(&str, Option<&str>, Option<Value>, u16)> = vec![
        (projects, None, Some(json!({})), 401),
        (projects, Some(TOKEN_WITHOUT_WEB_API), Some(json!({})), 403),
        (
            "/api/v2/deployments/9999/projects/list",
            t,
            Some(json!({})),
            404,
        ),
        (projects, t, None, 400),
        (projects, t, Some(json!([])), 400),
        (projects, t, Some(json!({"pageSize": 3001})), 400),
        (projects, t, Some(json!({"pageSize": -1})), 400),
        (projects, t, Some(json!({"pageToken": "garbage"})), 400),
        (
            projects,
            t,
            Some(json!({"filter": {"statuses": ["PROJECT_STATUS_GONE"]}})),
            400,
        ),
    ];
    for (path, token, body, status) in posts {
        let (got, answer) = call(&server, "POST", path, token, body.clone()).await;
        assert_eq!(got, status, "{path} {token:?} {body:?}: {answer}");
        assert!(
            answer["error"].is_string() && answer["code"].is_string(),
            "{answer}"
        );
    }
    // A page token of another filter is refused.
    let (_, first) = call(&server, "POST", projects, t, Some(json!({"pageSize": 1}))).await;
    let token = first["pageToken"].as_str().expect("a second page");
    let (got, _) = call(
        &server,
        "POST",
        projects,
        t,
        Some(json!({"pageSize": 1, "pageToken": token, "filter": {"names": ["a"]}})),
    )
    .await;
    assert_eq!(got, 400);
}

/// Every operation of the published contract is served: none falls to the
/// router's "no such endpoint" or "method not allowed".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_published_operation_has_a_route() {
    let server = server().await;
    let doc: Value = serde_json::from_str(include_str!("../data/platform-schemas.json")).unwrap();
    let mut seen = 0;
    for (path, methods) in doc["paths"].as_object().unwrap() {
        for method in methods.as_object().unwrap().keys() {
            let concrete: String = path
                .split('/')
                .map(|s| if s.starts_with('{') { "1234" } else { s })
                .collect::<Vec<_>>()
                .join("/");
            let url = format!("{}{concrete}", server.url());
            let method =
                reqwest::Method::from_bytes(method.to_ascii_uppercase().as_bytes()).unwrap();
            // No token: a served route answers 401, the fallbacks 404/405.
            let response = common::http()
                .request(method.clone(), url)
                .send()
                .await
                .unwrap();
            assert_eq!(response.status().as_u16(), 401, "{method} {path}");
            seen += 1;
        }
    }
    assert_eq!(seen, 33);
}
