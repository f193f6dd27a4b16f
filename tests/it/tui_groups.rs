//! The groups view and a finding's relatives, through the real app, worker
//! and demo server: counts as List issues gives them, `Enter`/a relative
//! key narrows the list, `Esc` restores it.

use crate::common::{self, Harness};
use crossterm::event::KeyCode;
use findings_client::Client;
use findings_model::*;

/// The findings List issues gives for `selection`, every page.
async fn listed(client: &Client, selection: &ListSelection) -> Vec<Issue> {
    let mut req = ListIssuesRequest {
        limit: Some(1000),
        ..Default::default()
    };
    selection.apply_to(&mut req);
    let mut out = Vec::new();
    loop {
        let page = client.list_issues(&req).await.expect("list");
        out.extend(page.issues.into_iter().filter_map(|i| i.issue));
        match page.cursor {
            Some(c) => req.cursor = Some(c),
            None => return out,
        }
    }
}

/// The findings the Issues list holds, whole.
async fn shown(h: &Harness) -> Vec<Issue> {
    h.loaded_whole().await
}

#[tokio::test(flavor = "multi_thread")]
async fn groups_count_what_the_list_gives_enter_narrows_and_esc_restores() {
    let mut h = Harness::new(600, 120, 35).await;
    h.start().await;
    h.keys(":filter severities=high,critical");
    h.key(KeyCode::Enter);
    h.settle().await;
    let filtered = h.app.issues().selection.clone();
    h.keys("R");
    h.settle().await;
    assert!(h.app.issues().groups.shown);
    let screen = h.screen();
    assert!(screen.contains("Issues by rule"), "{screen}");
    assert!(screen.contains("FINDINGS  RULE"), "{screen}");
    let groups = h.app.issues().groups.list.items.clone();
    assert!(groups.len() > 3, "{groups:?}");
    let client = common::client_for(h.server());
    let mut total = 0;
    for g in &groups {
        let narrowed = g.narrow(&filtered).expect("a rule id");
        let n = listed(&client, &narrowed).await.len() as i64;
        assert_eq!(g.issues_count, Some(n), "{}", g.label());
        total += n;
    }
    assert_eq!(total as usize, listed(&client, &filtered).await.len());
    // The rule by its display name, with its id's last part.
    let id = groups[0].rule_id.clone().unwrap();
    let name = h.app.issues().known.rule_name(&id).expect("a display name");
    let label = format!(
        "{:>8}  {name} · {}",
        groups[0].issues_count.unwrap(),
        findings_model::short_rule(&id)
    );
    assert!(screen.contains(&label), "{label}\n{screen}");

    // Enter on the second group: the list of its findings, filter kept.
    h.keys("j");
    h.key(KeyCode::Enter);
    h.settle().await;
    let pick = &groups[1];
    let issues = h.app.issues();
    assert!(!issues.groups.shown);
    assert_eq!(
        issues.selection.filter.rule_ids,
        vec![pick.rule_id.clone().unwrap()]
    );
    assert_eq!(
        issues.selection.filter.severities,
        filtered.filter.severities
    );
    let rows = shown(&h).await;
    assert_eq!(rows.len() as i64, pick.issues_count.unwrap());
    assert!(rows.iter().all(|i| i.rule_id == pick.rule_id));
    let screen = h.screen();
    assert!(screen.contains("narrowed to rule"), "{screen}");

    // Esc: back to the groups, where the cursor was, the filter as it was.
    h.key(KeyCode::Esc);
    h.settle().await;
    let issues = h.app.issues();
    assert!(issues.groups.shown);
    assert_eq!(issues.groups.list.selected, 1);
    assert_eq!(issues.selection, filtered);
    // A filter typed while the groups show counts them again.
    h.keys(":filter severities=critical");
    h.key(KeyCode::Enter);
    h.settle().await;
    let critical = h.app.issues().selection.clone();
    let regrouped = &h.app.issues().groups.list.items;
    let sum: i64 = regrouped.iter().filter_map(|g| g.issues_count).sum();
    assert_eq!(sum as usize, listed(&client, &critical).await.len());
    assert!(sum < total);
    // R again: the findings, under the filter now in force.
    h.keys("R");
    assert!(!h.app.issues().groups.shown);
    assert_eq!(
        shown(&h).await.len(),
        listed(&client, &critical).await.len().min(100)
    );
}

/// Opens the detail on the first loaded finding `pick` chooses.
async fn open_detail_on(h: &mut Harness, pick: impl Fn(&Issue) -> bool) -> Issue {
    let row = shown(h)
        .await
        .iter()
        .position(pick)
        .expect("such a finding loaded");
    h.app.issues_mut().list.select(row);
    h.key(KeyCode::Enter);
    h.settle().await;
    assert!(h.app.detail_has_keys());
    shown(h).await[row].clone()
}

#[tokio::test(flavor = "multi_thread")]
async fn each_relative_key_narrows_the_list_and_esc_restores_it() {
    let mut h = Harness::new(600, 120, 35).await;
    h.start().await;
    let before = shown(&h).await;
    let client = common::client_for(h.server());

    // C: the same CVE, in every repository.
    let f = open_detail_on(&mut h, |i| {
        i.sca_attributes
            .as_ref()
            .is_some_and(|a| a.vuln_database_identifier.is_some())
    })
    .await;
    let cve = f.sca_attributes.unwrap().vuln_database_identifier.unwrap();
    h.keys("C");
    assert!(h.app.detail.is_none(), "the detail closes");
    h.settle().await;
    let sel = h.app.issues().selection.clone();
    assert_eq!(sel.filter.cves, vec![cve.clone()]);
    let rows = shown(&h).await;
    assert!(!rows.is_empty());
    assert!(rows.iter().all(|i| {
        i.sca_attributes
            .as_ref()
            .and_then(|a| a.vuln_database_identifier.as_ref())
            == Some(&cve)
    }));
    assert_eq!(rows.len(), listed(&client, &sel).await.len().min(100));
    h.key(KeyCode::Esc);
    h.settle().await;
    assert!(h.app.issues().selection.is_empty());
    assert_eq!(shown(&h).await.len(), before.len());

    // R: the same rule; then, from one of those, P: the same repository.
    let f = open_detail_on(&mut h, |i| i.rule_id.is_some()).await;
    h.keys("R");
    h.settle().await;
    assert_eq!(
        h.app.issues().selection.filter.rule_ids,
        vec![f.rule_id.clone().unwrap()]
    );
    assert!(shown(&h).await.iter().all(|i| i.rule_id == f.rule_id));
    let g = open_detail_on(&mut h, |_| true).await;
    let repo = g.repository.and_then(|r| r.name).unwrap();
    h.keys("P");
    h.settle().await;
    let sel = h.app.issues().selection.clone();
    assert_eq!(sel.filter.repository_names, vec![repo.clone()]);
    assert!(
        sel.filter.rule_ids.is_empty(),
        "a relative set is one field"
    );
    let rows = shown(&h).await;
    assert!(
        rows.iter()
            .all(|i| i.repository.as_ref().and_then(|r| r.name.as_ref()) == Some(&repo))
    );
    assert_eq!(rows.len(), listed(&client, &sel).await.len().min(100));
    // Esc walks back: the rule's findings, then the whole list.
    h.key(KeyCode::Esc);
    h.settle().await;
    assert_eq!(
        h.app.issues().selection.filter.rule_ids,
        vec![f.rule_id.clone().unwrap()]
    );
    h.key(KeyCode::Esc);
    h.settle().await;
    assert!(h.app.issues().selection.is_empty());
    let ids = |v: &[Issue]| v.iter().map(|i| i.id().to_owned()).collect::<Vec<_>>();
    assert_eq!(ids(&shown(&h).await), ids(&before));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_finding_without_a_cve_says_so_and_stays_open() {
    let mut h = Harness::new(300, 120, 35).await;
    h.start().await;
    open_detail_on(&mut h, |i| i.sca_attributes.is_none()).await;
    h.keys("C");
    assert!(h.app.detail.is_some());
    assert!(h.screen().contains("no CVE"));
    assert!(h.app.issues().selection.is_empty());
}
