//! Contract tests of List SCM configs (`ScmService_ListScmConfig`), of a
//! `false` in the SCM PATCH, and of deployment discovery
//! (`DeploymentService_GetDeploymentByToken`): the real client against the
//! embedded demo server, and raw HTTP where the wire itself is the point.

use crate::common;
use crate::published::{Watched, published};
use findings_client::{ApiError, Client, ClientConfig, MAX_SCM_CONFIGS, Token, all_scm_configs};
use findings_demo::DemoServer;
use findings_demo::faults::{FaultKind, Faults};
use findings_demo::routes::TOKEN_WITHOUT_WEB_API;
use findings_model::*;
use serde_json::Value;

/// A demo server whose every exchange is checked against the published
/// schemas (the test fails when it ends if one broke them).
async fn server() -> Watched {
    Watched::new(common::demo(50).await)
}

fn client(server: &DemoServer, token: &str, deployment: &str) -> Client {
    Client::new(ClientConfig::new(
        server.url(),
        deployment,
        Token::new(token),
    ))
    .unwrap()
}

/// A GET as any HTTP client makes it: the status and the JSON body.
async fn get(server: &DemoServer, path: &str, token: Option<&str>) -> (u16, Value) {
    let mut request = crate::common::http().get(format!("{}{path}", server.url()));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap())
}

fn ids(configs: &[ScmConfig]) -> Vec<String> {
    configs.iter().filter_map(|c| c.id.clone()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_configs_are_listed_page_by_page_as_the_data_set_holds_them() {
    let server = server().await;
    let client = client(&server, server.token(), server.deployment());
    let expected = server.state().dataset.scm_configs.clone();
    let first = client
        .list_scm_configs(&ListScmConfigsRequest {
            limit: Some(2),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(ids(&first.configs), ["1001", "1002"]);
    assert!(first.cursor.as_deref().is_some_and(|c| !c.is_empty()));
    // Followed to the end: every config once, in id order, as served.
    let all = all_scm_configs(
        &client,
        ListScmConfigsRequest {
            limit: Some(2),
            ..Default::default()
        },
        MAX_SCM_CONFIGS,
    )
    .await
    .unwrap();
    assert_eq!(all, expected);
    // A cap smaller than the listing stops it.
    let capped = all_scm_configs(
        &client,
        ListScmConfigsRequest {
            limit: Some(2),
            ..Default::default()
        },
        3,
    )
    .await;
    assert!(matches!(capped, Err(ApiError::Decode { .. })), "{capped:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_list_sorts_as_asked() {
    let server = server().await;
    let client = client(&server, server.token(), server.deployment());
    let list = |sort_by, sort_direction| {
        let client = client.clone();
        async move {
            all_scm_configs(
                &client,
                ListScmConfigsRequest {
                    limit: Some(2),
                    sort_by: Some(sort_by),
                    sort_direction: Some(sort_direction),
                    cursor: None,
                },
                MAX_SCM_CONFIGS,
            )
            .await
            .unwrap()
        }
    };
    let by_id_desc = list(ScmConfigSortBy::Id, SortDirection::Desc).await;
    assert_eq!(ids(&by_id_desc), ["1005", "1004", "1003", "1002", "1001"]);
    let by_name = list(ScmConfigSortBy::Name, SortDirection::Asc).await;
    let names: Vec<String> = by_name
        .iter()
        .map(|c| c.namespace.clone().unwrap_or_default().to_lowercase())
        .collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
    let by_sync = list(ScmConfigSortBy::LastSuccessfulSyncAt, SortDirection::Desc).await;
    let syncs: Vec<_> = by_sync.iter().map(|c| c.last_successful_sync_at).collect();
    assert!(syncs.windows(2).all(|w| w[0] >= w[1]), "{syncs:?}");
    assert_eq!(by_sync.len(), 5);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_configs_carry_only_published_fields_and_values() {
    let server = server().await;
    let path = format!("/api/scm/deployments/{}/configs", server.deployment());
    let (status, body) = get(&server, &path, Some(server.token())).await;
    assert_eq!(status, 200, "{body}");
    let p = published();
    let op = p.operation_by_id("ScmService_ListScmConfig");
    p.check_response(op, &body)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(body["configs"].as_array().map(Vec::len), Some(5));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_list_refuses_like_the_other_operations() {
    let server = server().await;
    let ok = format!("/api/scm/deployments/{}/configs", server.deployment());
    let cases: [(String, Option<&str>, u16); 8] = [
        (ok.clone(), None, 401),
        (ok.clone(), Some("wrong"), 401),
        (ok.clone(), Some(TOKEN_WITHOUT_WEB_API), 403),
        (
            "/api/scm/deployments/9999/configs".into(),
            Some(server.token()),
            404,
        ),
        (format!("{ok}?limit=ten"), Some(server.token()), 400),
        (
            format!("{ok}?sortBy=SCM_CONFIG_SORT_BY_COLOUR"),
            Some(server.token()),
            400,
        ),
        (format!("{ok}?cursor=garbage"), Some(server.token()), 400),
        (format!("{ok}?colour=red"), Some(server.token()), 400),
    ];
    for (path, token, status) in cases {
        let (got, body) = get(&server, &path, token).await;
        assert_eq!(got, status, "{path} {token:?}: {body}");
        assert!(
            body["error"].is_string() && body["code"].is_string(),
            "{body}"
        );
    }
    // The client says the same.
    let err = client(&server, server.token(), "9999")
        .list_scm_configs(&ListScmConfigsRequest::default())
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(404));
    // A cursor of another sort is refused.
    let c = client(&server, server.token(), server.deployment());
    let first = c
        .list_scm_configs(&ListScmConfigsRequest {
            limit: Some(1),
            ..Default::default()
        })
        .await
        .unwrap();
    let err = c
        .list_scm_configs(&ListScmConfigsRequest {
            limit: Some(1),
            cursor: first.cursor,
            sort_by: Some(ScmConfigSortBy::Name),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(400));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_list_is_a_read_retried_and_its_loops_are_stopped() {
    let server = server().await;
    let mut cfg = ClientConfig::new(
        server.url(),
        server.deployment(),
        Token::new(server.token()),
    );
    cfg.retry.base_delay = std::time::Duration::from_millis(5);
    let client = Client::new(cfg).unwrap();
    server.set_faults(Faults::failing(503).times(2));
    let page = client
        .list_scm_configs(&ListScmConfigsRequest::default())
        .await
        .unwrap();
    assert_eq!(page.configs.len(), 5);
    assert_eq!(server.requests(), 3, "two 503s, then the answer");
    // A server that hands back the cursor it was given.
    server.set_faults(Faults::kind(FaultKind::LoopCursor));
    let err = all_scm_configs(
        &client,
        ListScmConfigsRequest {
            limit: Some(1),
            ..Default::default()
        },
        MAX_SCM_CONFIGS,
    )
    .await
    .unwrap_err();
    assert!(matches!(err, ApiError::CursorLoop { .. }), "{err:?}");
}

/// docs/src/api.md §14: a switch to `false` is written out, reaches the
/// server, and comes back `false`; the list then says so too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_false_reaches_the_server_and_comes_back_false() {
    let server = server().await;
    let client = client(&server, server.token(), server.deployment());
    let before = server.state().dataset.scm_configs[0].clone();
    assert_eq!(before.id.as_deref(), Some("1001"));
    assert_eq!(before.auto_scan, Some(true));
    assert_eq!(
        before
            .auto_scan_settings
            .as_ref()
            .and_then(|s| s.diff_enabled),
        Some(true)
    );
    let patch = ScmConfigPatch {
        auto_scan: Some(false),
        auto_scan_settings: Some(AutoScanSettings {
            diff_enabled: Some(false),
        }),
        ..Default::default()
    };
    let answer = client.update_scm_config("1001", &patch).await.unwrap();
    let after = answer.config.unwrap();
    assert_eq!(after.auto_scan, Some(false));
    assert_eq!(
        after
            .auto_scan_settings
            .as_ref()
            .and_then(|s| s.diff_enabled),
        Some(false)
    );
    assert!(update_mismatches(&patch, Some(&before), &after).is_empty());
    // The rest as it was.
    assert_eq!(
        ScmConfig {
            auto_scan: before.auto_scan,
            auto_scan_settings: before.auto_scan_settings.clone(),
            ..after.clone()
        },
        before
    );
    let listed = all_scm_configs(&client, ListScmConfigsRequest::default(), MAX_SCM_CONFIGS)
        .await
        .unwrap();
    assert_eq!(listed[0], after, "the list shows the PATCH");

    // Raw: an explicit false is a change, an absent field is not.
    let http = crate::common::http();
    let url = format!("{}/api/scm/deployments/1234/configs/1002", server.url());
    let send = |body: &'static str| {
        http.patch(url.clone())
            .bearer_auth(server.token())
            .header("content-type", "application/json")
            .body(body)
            .send()
    };
    let v: Value = send(r#"{"useNetworkBroker": false}"#)
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(v["config"]["useNetworkBroker"], Value::Bool(false));
    let v: Value = send(r"{}").await.unwrap().json().await.unwrap();
    assert_eq!(v["config"]["useNetworkBroker"], Value::Bool(false));
    assert_eq!(v["config"]["autoScan"], Value::Bool(true), "1002 untouched");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_deployment_of_the_token_is_answered_as_published() {
    let server = server().await;
    let (status, body) = get(&server, "/api/agent/deployment", Some(server.token())).await;
    assert_eq!(status, 200, "{body}");
    let p = published();
    let op = p.operation_by_id("DeploymentService_GetDeploymentByToken");
    p.check_response(op, &body)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        body["deployment"]["id"],
        serde_json::json!(1234),
        "an int64 number"
    );
    for (token, status) in [
        (None, 401),
        (Some("wrong"), 401),
        (Some(TOKEN_WITHOUT_WEB_API), 403),
    ] {
        let (got, body) = get(&server, "/api/agent/deployment", token).await;
        assert_eq!(got, status, "{token:?}: {body}");
    }

    // The client, from no deployment to one that answers.
    let unscoped = Client::for_token(ClientConfig::new(
        server.url(),
        "",
        Token::new(server.token()),
    ))
    .unwrap();
    let answer = unscoped.deployment_by_token().await.unwrap();
    let d = answer.deployment.unwrap();
    assert_eq!(d.path_id(), Some(1234));
    assert_eq!(d.shown_name(), Some("Acme Corp (demo)"));
    let (scoped, _) = unscoped.discover_deployment().await.unwrap();
    assert_eq!(scoped.deployment(), server.deployment());
    let page = scoped
        .list_issues(&ListIssuesRequest {
            limit: Some(3),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(page.issues.len(), 3);
    let bad = Client::for_token(ClientConfig::new(server.url(), "", Token::new("wrong"))).unwrap();
    let err = bad.discover_deployment().await.unwrap_err();
    assert_eq!(err.status(), Some(401));
}
