//! The demo server reads requests as a protobuf-JSON server does (issue
//! 51): the exact requests a property-based tester found accepted are
//! refused with 400 naming the field and the type expected, in the
//! platform's error shape; the caps answer 400 naming the cap. Raw HTTP:
//! the wire is the point. Every 200 is checked against its schema.

use crate::common;
use crate::contract_reads::call;
use crate::published::Watched;
use serde_json::{Value, json};

async fn server() -> Watched {
    Watched::new(common::demo(60).await)
}

/// A refusal: 400, the platform's error shape, a message with `words`.
fn assert_refused(answer: (u16, Value), words: &[&str]) {
    let (status, body) = answer;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["code"], "INVALID_ARGUMENT", "{body}");
    let message = body["error"].as_str().unwrap_or_default();
    for word in words {
        assert!(message.contains(word), "{message:?} must name {word:?}");
    }
}

const TICKETS: &str = "/api/notifications/deployments/1234/ticketing/v2/7001/create_tickets";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn create_tickets_reads_ids_as_int32_and_answers_them_so() {
    let s = server().await;
    let token = Some(s.token());
    // -5 is an int32: read, and answered as unknown ids are (a failure
    // per id, the id an int32 number as the schema says).
    let (status, body) = call(&s, "POST", TICKETS, token, Some(json!({"issueIds": [-5]}))).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["failed"],
        json!([{"issueIds": [-5], "error": "finding -5 not found"}])
    );
    let big = call(
        &s,
        "POST",
        TICKETS,
        token,
        Some(json!({"issueIds": [2147483648_i64]})),
    )
    .await;
    assert_refused(big, &[".issueIds[0]", "int32", "2147483648"]);
    let null_item = json!({"issueFilters": {"ids": ["100595"]}, "issueIds": [null]});
    let null = call(&s, "POST", TICKETS, token, Some(null_item)).await;
    assert_refused(null, &[".issueIds[0]", "int32", "found null"]);
    // A field the demo ignores when ids are given is checked all the same.
    let ignored = json!({"issueIds": [100595], "issueType": 7});
    let typed = call(&s, "POST", TICKETS, token, Some(ignored)).await;
    assert_refused(typed, &[".issueType", "one of ISSUE_TYPE_SAST"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bodies_are_read_as_the_schema_types_them() {
    let s = server().await;
    let token = Some(s.token());
    let findings = "/api/agent/deployments/1234/findings/v2";
    let array_filter =
        json!({"filter": [["101576"]], "params": {"triageState": "TRIAGE_STATE_IGNORED"}});
    let answer = call(&s, "PATCH", findings, token, Some(array_filter)).await;
    assert_refused(answer, &[".filter", "expected an object, found an array"]);
    for (path, body) in [
        (
            "/api/agent/deployments/1234/issues",
            json!({"filter": {"since": ""}}),
        ),
        (
            "/api/agent/deployments/1234/issue_counts",
            json!({"filter": {"until": ""}}),
        ),
        ("/api/reporting/1234/findings", json!({"bucketStart": ""})),
    ] {
        let answer = call(&s, "POST", path, token, Some(body)).await;
        assert_refused(answer, &["RFC 3339 time", "found \"\""]);
    }
    let memory = "/api/ai/deployments/1234/memories/triage";
    let bad_type = json!({"note": "n", "filter": {"filterIssueTypes": "AAA"}});
    let answer = call(&s, "POST", memory, token, Some(bad_type)).await;
    assert_refused(answer, &[".filter.filterIssueTypes", "expected an array"]);
    // The whole filter of GetIssueFilters is checked, though unused.
    let filters = "/api/agent/deployments/1234/issue_filters";
    let answer = call(
        &s,
        "POST",
        filters,
        token,
        Some(json!({"filter": {"severities": ["LOUD"]}})),
    )
    .await;
    assert_refused(answer, &[".filter.severities[0]", "unknown value \"LOUD\""]);
    // null is "not set"; int64 may be a string.
    let list = "/api/agent/deployments/1234/issues";
    let (status, body) = call(
        &s,
        "POST",
        list,
        token,
        Some(json!({"filter": null, "limit": "2"})),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["issues"].as_array().map(Vec::len), Some(2));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn parameters_are_read_as_the_schema_types_them() {
    let s = server().await;
    let token = Some(s.token());
    let scm = "/api/scm/deployments/1234/configs?sortBy=&sortDirection=";
    let answer = call(&s, "GET", scm, token, None).await;
    assert_refused(
        answer,
        &[
            "sortBy",
            "unknown value \"\"",
            "one of SCM_CONFIG_SORT_BY_UNSPECIFIED",
        ],
    );
    let scm = "/api/scm/deployments/1234/configs?sortDirection=";
    let answer = call(&s, "GET", scm, token, None).await;
    assert_refused(
        answer,
        &["sortDirection", "one of SORT_DIRECTION_UNSPECIFIED"],
    );
    // Autofix and fix jobs take an int32 issue id: "abc" is refused as
    // malformed by both (400); an unknown number is answered as each
    // answers one (autofix: 200 with ISSUE_NOT_FOUND, fix jobs: 404).
    for op in [
        "/api/v1/deployments/1234/issues/abc/autofix",
        "/api/agent/deployments/1234/issues/abc/fix_jobs",
    ] {
        let answer = call(&s, "POST", op, token, Some(json!({}))).await;
        assert_refused(answer, &["path parameter issueId", "int32", "\"abc\""]);
    }
    let autofix = "/api/v1/deployments/1234/issues/99/autofix";
    let (status, body) = call(&s, "POST", autofix, token, Some(json!({}))).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["errors"][0]["errorType"],
        "AUTOFIX_ERROR_TYPE_ISSUE_NOT_FOUND"
    );
    let fix_job = "/api/agent/deployments/1234/issues/99/fix_jobs";
    let (status, body) = call(&s, "POST", fix_job, token, Some(json!({}))).await;
    assert_eq!(status, 404, "{body}");
    let activity = "/api/issues/1234/issue/1/activity?limit=ten";
    let answer = call(&s, "GET", activity, token, None).await;
    assert_refused(answer, &["query parameter limit", "int64"]);
    // Without the right token, the token is what is refused.
    let (status, _) = call(&s, "POST", TICKETS, None, Some(json!({"issueIds": [null]}))).await;
    assert_eq!(status, 401);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_caps_answer_400_naming_them() {
    let s = server().await;
    let token = Some(s.token());
    let memory = "/api/ai/deployments/1234/memories/triage";
    for n in 0..findings_demo::query::MAX_MEMORIES {
        let body = json!({"note": format!("memory {n}"), "filter": {"ids": ["100001"]}});
        let (status, answer) = call(&s, "POST", memory, token, Some(body)).await;
        assert_eq!(status, 200, "memory {n}: {answer}");
    }
    let (status, body) = call(&s, "POST", memory, token, Some(json!({"note": "one more"}))).await;
    assert_eq!(status, 400, "{body}");
    let message = body["error"].as_str().unwrap_or_default();
    assert!(message.contains("at most 242 memories"), "{message}");
    let huge = json!({"note": "x".repeat(findings_demo::strict::MAX_BODY_BYTES)});
    let answer = call(&s, "POST", memory, token, Some(huge)).await;
    assert_refused(answer, &["cap of 2097152 bytes"]);
}

/// The page's example of strict reading (docs/src/demo-server.md "Strict
/// reading") is what the demo answers: its request sent, its answer exact.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pages_example_of_a_refusal_is_true() {
    let page = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/src/demo-server.md"),
    )
    .unwrap();
    let section = page
        .split("## Strict reading")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("the page has a section on strict reading");
    let block = |tag: &str| {
        section
            .split(&format!("```{tag}\n"))
            .nth(1)
            .and_then(|b| b.split("```").next())
            .unwrap_or_else(|| panic!("a {tag} block"))
            .to_owned()
    };
    let curl = block("sh").replace("\\\n", " ");
    let path = curl
        .split("http://127.0.0.1:8787")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .expect("the example's path");
    let body: Value = curl
        .split("-d '")
        .nth(1)
        .and_then(|rest| rest.split('\'').next())
        .map(|b| serde_json::from_str(b).unwrap())
        .expect("the example's body");
    let said: Value = serde_json::from_str(&block("json")).unwrap();
    let s = server().await;
    let (status, answered) = call(&s, "POST", path, Some(s.token()), Some(body)).await;
    assert_eq!((status, answered), (400, said));
}
