//! Refs and match ids in the demo, as a gate reads them over HTTP: a
//! feature ref's findings are new (their `matchBasedId` on no finding of
//! the primary branch) or twins of primary-branch findings, some of those
//! reopened; docs/src/demo-server.md "Refs and match ids" names the
//! figures of one ref, checked here.

use crate::common;
use findings_model::{Issue, IssueStatus, ListIssuesFilter, ListIssuesRequest};
use std::collections::HashMap;

/// The repository and feature ref the page names.
const REPOSITORY: &str = "acme/crypto-vault";
const FEATURE_REF: &str = "feature/hsm-rotation";

/// Every finding of `REPOSITORY` on `git_ref`, as List issues gives them.
async fn on_ref(client: &findings_client::Client, git_ref: &str) -> Vec<Issue> {
    let request = ListIssuesRequest {
        filter: Some(ListIssuesFilter {
            repository_names: vec![REPOSITORY.into()],
            refs: vec![git_ref.into()],
            ..Default::default()
        }),
        ..Default::default()
    };
    let (issues, whole) = findings_client::collect_issues(client, request, usize::MAX, Some)
        .await
        .unwrap();
    assert!(whole);
    // The filter is the server's; a gate relies on it, so check it.
    for i in &issues {
        let repo = i.repository.as_ref().and_then(|r| r.name.as_deref());
        assert_eq!((repo, i.ref_.as_deref()), (Some(REPOSITORY), Some(git_ref)));
    }
    issues
}

fn closed(i: &Issue) -> bool {
    matches!(i.status, Some(IssueStatus::Fixed | IssueStatus::Removed))
}

#[tokio::test(flavor = "multi_thread")]
async fn a_feature_refs_findings_are_new_twins_or_reopened_as_the_book_says() {
    // `findings demo serve` as it starts: the default size and seed.
    let server = common::demo(findings_demo::DEFAULT_FINDINGS).await;
    let client = common::client_for(&server);
    let feature = on_ref(&client, FEATURE_REF).await;
    let primary_ref = feature[0]
        .repository
        .as_ref()
        .and_then(|r| r.primary_ref.as_ref())
        .and_then(|p| p.ref_.clone())
        .unwrap();
    assert_ne!(primary_ref, FEATURE_REF);
    let primary = on_ref(&client, &primary_ref).await;
    let by_match: HashMap<&str, &Issue> = primary
        .iter()
        .map(|i| (i.match_based_id.as_deref().unwrap(), i))
        .collect();
    assert_eq!(by_match.len(), primary.len(), "one match id per finding");

    let (mut new, mut twins, mut reopened) = (0, 0, 0);
    let mut seen = HashMap::new();
    for f in &feature {
        let id = f.match_based_id.as_deref().unwrap();
        assert!(
            seen.insert(id, &f.id).is_none(),
            "{id} twice on {FEATURE_REF}"
        );
        match by_match.get(id) {
            None => new += 1,
            Some(origin) => {
                twins += 1;
                // The same finding on another ref.
                assert_eq!(f.rule_id, origin.rule_id, "{id}");
                assert_eq!((&f.file_path, f.line), (&origin.file_path, origin.line));
                assert_eq!(f.syntactic_id, origin.syntactic_id, "{id}");
                assert_ne!(f.id, origin.id, "{id}");
                if f.status == Some(IssueStatus::Unresolved) && closed(origin) {
                    reopened += 1;
                }
            }
        }
    }
    assert!(
        new > 0 && twins > 0 && reopened > 0,
        "{new} {twins} {reopened}"
    );

    let page = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/src/demo-server.md"),
    )
    .unwrap();
    let page = page.split_whitespace().collect::<Vec<_>>().join(" ");
    let said = format!(
        "`{REPOSITORY}` on `{FEATURE_REF}` holds {} findings: {new} new, {twins} twins \
         of findings on `{primary_ref}`, {reopened} of them reopened",
        feature.len()
    );
    assert!(
        page.contains(&said),
        "docs/src/demo-server.md should say: {said}"
    );
}
