//! Contract tests of `IssuesService_GetIssueFilters`: the real client
//! against the embedded demo server, every exchange checked against the
//! published schemas; the values it gives are the ones the filters match.

use crate::common;
use crate::published::Watched;
use findings_client::{ApiError, Client, ClientConfig, Token};
use findings_demo::faults::Faults;
use findings_model::*;
use serde_json::json;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_values_are_those_the_filters_match() {
    let server = Watched::new(common::demo(300).await);
    let client = common::client_for(&server);
    let values = client
        .issue_filters(&IssueFiltersRequest::default())
        .await
        .expect("issue filters");
    let repos = values.values_of("repositoryNames");
    assert!(repos.contains(&"acme/payments-api".to_owned()), "{repos:?}");
    assert!(!values.values_of("teamNames").is_empty());
    assert!(!values.values_of("refs").is_empty());
    assert!(!values.values_of("secretTypes").is_empty());
    assert!(!values.values_of("rulesets").is_empty());
    // A value offered is a value that filters: some findings have it.
    for (field, value) in [
        ("repositoryNames", repos[0].clone()),
        ("ruleIds", values.values_of("ruleIds")[0].clone()),
        ("teamNames", values.values_of("teamNames")[0].clone()),
    ] {
        let filter: ListIssuesFilter = serde_json::from_value(json!({ field: [value] })).unwrap();
        let page = client
            .list_issues(&ListIssuesRequest {
                filter: Some(filter),
                limit: Some(1000),
                ..Default::default()
            })
            .await
            .unwrap();
        assert!(!page.issues.is_empty(), "{field}={value} matches nothing");
    }
    // The type selection narrows the typed lists.
    let sca = client
        .issue_filters(&IssueFiltersRequest {
            issue_types: vec![IssueType::Sca],
            ..Default::default()
        })
        .await
        .unwrap();
    assert!(sca.secret_types.is_empty() && sca.categories.is_empty());
    assert_eq!(sca.repos, values.repos);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn auth_deployment_and_faults_as_every_operation() {
    let server = Watched::new(common::demo(50).await);
    let url = format!(
        "{}/api/agent/deployments/{}/issue_filters",
        server.url(),
        server.deployment()
    );
    let http = common::http();
    let unauthenticated = http.post(&url).json(&json!({})).send().await.unwrap();
    assert_eq!(unauthenticated.status(), 401);
    let other = Client::new(ClientConfig::new(
        server.url(),
        "999",
        Token::new(server.token()),
    ))
    .unwrap();
    let err = other
        .issue_filters(&IssueFiltersRequest::default())
        .await
        .unwrap_err();
    assert!(matches!(err, ApiError::NotFound(_)), "{err:?}");
    let mut cfg = ClientConfig::new(
        server.url(),
        server.deployment(),
        Token::new(server.token()),
    );
    cfg.retry.base_delay = Duration::from_millis(5);
    let client = Client::new(cfg).unwrap();
    server.set_faults(Faults::failing(500));
    let err = client
        .issue_filters(&IssueFiltersRequest::default())
        .await
        .unwrap_err();
    assert!(matches!(err, ApiError::Server(_)), "{err:?}");
}
