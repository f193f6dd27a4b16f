//! Contract tests of the actions on findings (tickets, fix pull requests,
//! AI verdict feedback, memories, authorized actions): the real client
//! against the embedded demo server, every exchange checked against the
//! published schemas, and what each action did seen through List issues
//! and the single-issue fetch.

use crate::common;
use crate::published::Watched;
use findings_client::{ApiError, Client, ClientConfig, Token};
use findings_demo::dataset::finding_id;
use findings_demo::query::{
    ACTIVE_INSTANCE, OPENS_AFTER_REQUESTS, REVOKED_INSTANCE, autofix_error, fix_job_error,
};
use findings_demo::routes::TOKEN_WITHOUT_ACTIONS;
use findings_model::*;

async fn server(n: usize) -> Watched {
    Watched::new(common::demo(n).await)
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

fn ids_of(issues: &[Issue]) -> Vec<String> {
    issues.iter().map(|i| i.id().to_owned()).collect()
}

/// A rule and repository with several findings, some ticketed already.
async fn busy_rule(client: &Client) -> (String, String, Vec<Issue>) {
    let all = listed(client, ListIssuesFilter::default()).await;
    let mut best: Option<(String, String, Vec<Issue>)> = None;
    for issue in &all {
        let (rule, repo) = (
            issue.rule_id.clone().unwrap_or_default(),
            issue.repository_name().to_owned(),
        );
        let same: Vec<Issue> = all
            .iter()
            .filter(|i| i.rule_id.as_deref() == Some(&rule) && i.repository_name() == repo)
            .cloned()
            .collect();
        if best.as_ref().is_none_or(|b| same.len() > b.2.len()) {
            best = Some((rule, repo, same));
        }
    }
    best.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_ticketing_instances_one_revoked() {
    let server = server(50).await;
    let client = common::client_for(&server);
    let answer = client.ticketing_instances().await.unwrap();
    assert_eq!(answer.instances.len(), 2);
    let revoked: Vec<_> = answer
        .instances
        .iter()
        .filter(|i| i.unavailable().is_some())
        .collect();
    assert_eq!(revoked.len(), 1);
    assert_eq!(revoked[0].id, Some(REVOKED_INSTANCE));
    assert!(revoked[0].unavailable().unwrap().contains("revoked"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_grouped_ticket_by_filter_shows_in_the_list_and_the_single_fetch() {
    let server = server(400).await;
    let client = common::client_for(&server);
    let (rule, repo, findings) = busy_rule(&client).await;
    let already: Vec<String> = ids_of(
        &findings
            .iter()
            .filter(|i| i.external_ticket.is_some())
            .cloned()
            .collect::<Vec<_>>(),
    );
    let filter = ListIssuesFilter {
        rule_ids: vec![rule.clone()],
        repository_names: vec![repo.clone()],
        ..Default::default()
    };
    let answer = client
        .create_tickets(
            ACTIVE_INSTANCE,
            &CreateTicketsRequest::for_filter(filter.clone(), vec![], true),
        )
        .await
        .unwrap();
    // Every finding of the filter is accounted for, once.
    let mut accounted: Vec<String> = answer.outcomes().into_iter().map(|(id, _)| id).collect();
    accounted.sort();
    let mut all = ids_of(&findings);
    all.sort();
    assert_eq!(accounted, all);
    // Skipped: exactly those ticketed before.
    let mut skipped: Vec<String> = answer
        .skipped
        .iter()
        .flat_map(|s| s.issue_ids.clone())
        .collect();
    skipped.sort();
    let mut already_sorted = already.clone();
    already_sorted.sort();
    assert_eq!(skipped, already_sorted);
    // One ticket (one rule, one repository) for the rest but the failures.
    assert_eq!(answer.succeeded.len(), 1, "{answer:?}");
    let ticket = &answer.succeeded[0];
    let url = ticket.ticket_url.clone().unwrap();
    assert!(
        url.starts_with("https://tickets.example.com/browse/SEC-"),
        "{url}"
    );
    for failed in &answer.failed {
        assert!(failed.error.as_deref().is_some_and(|e| !e.is_empty()));
    }
    // List issues: none of the filter's findings is unticketed now but the
    // failed ones.
    let unticketed = listed(
        &client,
        ListIssuesFilter {
            include_ticketed: Some(false),
            ..filter.clone()
        },
    )
    .await;
    let failed: Vec<String> = answer
        .failed
        .iter()
        .flat_map(|f| f.issue_ids.clone())
        .collect();
    assert_eq!(ids_of(&unticketed).len(), failed.len());
    // The list and the single fetch carry the ticket and its event.
    let first = &ticket.issue_ids[0];
    let in_list = listed(
        &client,
        ListIssuesFilter {
            ids: vec![first.clone()],
            ..Default::default()
        },
    )
    .await;
    assert_eq!(
        in_list[0].external_ticket.as_ref().unwrap().url.as_deref(),
        Some(url.as_str())
    );
    let issue = client.get_issue(first).await.unwrap();
    let t = issue.external_ticket.unwrap();
    assert_eq!(t.url.as_deref(), Some(url.as_str()));
    assert_eq!(t.linked_issue_ids, ticket.issue_ids);
    assert!(issue.activity_history.iter().any(|e| {
        e.history_type == Some(HistoryType::TicketCreated)
            && e.title.as_deref()
                == Some(&format!(
                    "Ticket {} created",
                    ticket.external_slug.clone().unwrap()
                ))
    }));
    // Asked again: all skipped now (already ticketed) or failed again.
    let again = client
        .create_tickets(
            ACTIVE_INSTANCE,
            &CreateTicketsRequest::for_ids(ticket.issue_ids.clone(), false),
        )
        .await
        .unwrap();
    assert!(again.succeeded.is_empty());
    assert_eq!(again.skipped.len(), ticket.issue_ids.len());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_ticket_each_and_an_unknown_id_fails() {
    let server = server(200).await;
    let client = common::client_for(&server);
    let free: Vec<String> = ids_of(
        &listed(
            &client,
            ListIssuesFilter {
                include_ticketed: Some(false),
                ..Default::default()
            },
        )
        .await,
    )
    .into_iter()
    .filter(|id| {
        let i: usize = id.parse::<usize>().unwrap() - 100_000;
        !server.state().dataset.rows[i].ticket_failed
    })
    .take(3)
    .collect();
    let mut ids = free.clone();
    ids.push("999999".into());
    let answer = client
        .create_tickets(ACTIVE_INSTANCE, &CreateTicketsRequest::for_ids(ids, false))
        .await
        .unwrap();
    assert_eq!(answer.succeeded.len(), 3);
    assert!(answer.succeeded.iter().all(|s| s.issue_ids.len() == 1));
    assert_eq!(answer.failed.len(), 1);
    assert_eq!(answer.failed[0].issue_ids, vec!["999999".to_owned()]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_revoked_instance_refuses_and_nothing_changes() {
    let server = server(50).await;
    let client = common::client_for(&server);
    let id = finding_id(3);
    let before = client.get_issue(&id).await.unwrap().external_ticket;
    let err = client
        .create_tickets(
            REVOKED_INSTANCE,
            &CreateTicketsRequest::for_ids(vec![id.clone()], true),
        )
        .await
        .unwrap_err();
    assert!(matches!(err, ApiError::BadRequest(_)), "{err:?}");
    assert!(err.to_string().contains("revoked"), "{err}");
    assert_eq!(client.get_issue(&id).await.unwrap().external_ticket, before);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_link_replaces_another_ticket_and_an_unlink_removes_it() {
    let server = server(200).await;
    let client = common::client_for(&server);
    let ticketed = listed(&client, ListIssuesFilter::default())
        .await
        .into_iter()
        .find(|i| i.external_ticket.is_some())
        .unwrap();
    let plain = listed(
        &client,
        ListIssuesFilter {
            include_ticketed: Some(false),
            ..Default::default()
        },
    )
    .await
    .remove(0);
    let url = "https://tickets.example.com/browse/OPS-77";
    let answer = client
        .link_ticket(
            ACTIVE_INSTANCE,
            &LinkTicketRequest {
                ticket_url: Some(url.into()),
                issue_ids: vec![ticketed.id().to_owned(), plain.id().to_owned()],
            },
        )
        .await
        .unwrap();
    assert_eq!(answer.replaced_issue_ids, vec![ticketed.id().to_owned()]);
    assert_eq!(answer.linked_issue_ids.len(), 2);
    assert_eq!(answer.external_slug.as_deref(), Some("OPS-77"));
    for id in [ticketed.id(), plain.id()] {
        let t = client.get_issue(id).await.unwrap().external_ticket.unwrap();
        assert_eq!(t.url.as_deref(), Some(url));
    }
    let answer = client
        .unlink_ticket(
            ACTIVE_INSTANCE,
            &UnlinkTicketRequest {
                issue_ids: vec![plain.id().to_owned()],
            },
        )
        .await
        .unwrap();
    assert_eq!(answer.unlinked_issue_ids, vec![plain.id().to_owned()]);
    assert!(
        client
            .get_issue(plain.id())
            .await
            .unwrap()
            .external_ticket
            .is_none()
    );
    // The list sees it unticketed again.
    let unticketed = listed(
        &client,
        ListIssuesFilter {
            include_ticketed: Some(false),
            ids: vec![plain.id().to_owned()],
            ..Default::default()
        },
    )
    .await;
    assert_eq!(unticketed.len(), 1);
    // A link of no URL is refused.
    let err = client
        .link_ticket(
            ACTIVE_INSTANCE,
            &LinkTicketRequest {
                ticket_url: Some("javascript:alert(1)".into()),
                issue_ids: vec![plain.id().to_owned()],
            },
        )
        .await
        .unwrap_err();
    assert!(matches!(err, ApiError::BadRequest(_)), "{err:?}");
}

/// The first finding whose fix (by `op`) the demo accepts.
fn fixable(server: &Watched, op: FixOperation) -> String {
    let ds = &server.state().dataset;
    let changes = ds.changes();
    (0..ds.rows.len())
        .find(|&i| match op {
            FixOperation::FixJob => fix_job_error(ds, &changes, i).is_none(),
            FixOperation::Autofix => autofix_error(ds, &changes, i).is_none(),
        })
        .map(finding_id)
        .expect("a fixable finding")
}

fn in_flight(ids: Vec<String>) -> ListIssuesFilter {
    ListIssuesFilter {
        ids,
        has_in_flight_autofix_pr: Some(true),
        ..Default::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fix_request_is_in_flight_then_its_pull_request_opens() {
    let server = server(300).await;
    let client = common::client_for(&server);
    let id = fixable(&server, FixOperation::FixJob);
    let before = client.get_issue(&id).await.unwrap();
    let answer = client.request_fix(FixOperation::FixJob, &id).await.unwrap();
    assert!(answer.accepted(), "{answer:?}");
    // The next request: in flight, no pull request yet.
    assert_eq!(
        ids_of(&listed(&client, in_flight(vec![id.clone()])).await),
        vec![id.clone()]
    );
    // Then it opens: the single fetch carries it and its events.
    for _ in 1..OPENS_AFTER_REQUESTS {
        let _ = client.ticketing_instances().await.unwrap();
    }
    let issue = client.get_issue(&id).await.unwrap();
    let url = issue.click_to_fix_pr_url.clone().expect("the pull request");
    assert!(url.contains("/pull/"), "{url}");
    assert_ne!(issue.click_to_fix_pr_url, before.click_to_fix_pr_url);
    let kinds: Vec<_> = issue
        .activity_history
        .iter()
        .filter_map(|e| e.history_type.clone())
        .collect();
    let requested = kinds
        .iter()
        .rposition(|k| *k == HistoryType::ClickToFixPrRequested)
        .unwrap();
    let opened = kinds
        .iter()
        .rposition(|k| *k == HistoryType::ClickToFixPrOpened)
        .unwrap();
    assert!(requested < opened);
    assert!(
        listed(&client, in_flight(vec![id.clone()]))
            .await
            .is_empty()
    );
    let open = listed(
        &client,
        ListIssuesFilter {
            ids: vec![id.clone()],
            click_to_fix_pr_states: vec![ClickToFixPrState::Open],
            ..Default::default()
        },
    )
    .await;
    assert_eq!(open.len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_typed_fix_error_comes_for_some_finding() {
    let server = server(2000).await;
    let client = common::client_for(&server);
    let ds = &server.state().dataset;
    let changes = ds.changes();
    for t in FixJobErrorType::ALL {
        let i = (0..ds.rows.len())
            .find(|&i| fix_job_error(ds, &changes, i).as_ref() == Some(t))
            .unwrap_or_else(|| panic!("a finding meets {t:?}"));
        let answer = client.create_fix_job(&finding_id(i)).await.unwrap();
        assert_eq!(answer.success, Some(false));
        assert_eq!(answer.errors[0].error_type.as_ref(), Some(t));
        let problems = FixAnswer::FixJob(answer).problems();
        assert!(!problems[0].advice.is_empty());
        if *t == FixJobErrorType::NoWriteAccess {
            assert!(
                problems[0]
                    .config_url
                    .as_deref()
                    .unwrap()
                    .starts_with("https://")
            );
        }
    }
    // In flight: a fix asked for twice.
    let id = fixable(&server, FixOperation::Autofix);
    assert!(
        client
            .request_fix(FixOperation::Autofix, &id)
            .await
            .unwrap()
            .accepted()
    );
    let again = client.create_autofix(&id).await.unwrap();
    assert_eq!(
        again.errors[0].error_type,
        Some(AutofixErrorType::InFlightFixPending)
    );
    let changes = ds.changes();
    for t in AutofixErrorType::ALL {
        if matches!(
            t,
            AutofixErrorType::InFlightFixPending | AutofixErrorType::IssueNotFound
        ) {
            continue;
        }
        let i = (0..ds.rows.len())
            .find(|&i| autofix_error(ds, &changes, i).as_ref() == Some(t))
            .unwrap_or_else(|| panic!("a finding meets {t:?}"));
        let answer = client.create_autofix(&finding_id(i)).await.unwrap();
        assert_eq!(answer.errors[0].error_type.as_ref(), Some(t));
    }
    let missing = client.create_autofix("999999").await.unwrap();
    assert_eq!(
        missing.errors[0].error_type,
        Some(AutofixErrorType::IssueNotFound)
    );
    let err = client.create_fix_job("999999").await.unwrap_err();
    assert!(matches!(err, ApiError::NotFound(_)), "{err:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn feedback_is_stored_on_the_autotriage() {
    let server = server(200).await;
    let client = common::client_for(&server);
    let issue = listed(&client, ListIssuesFilter::default())
        .await
        .into_iter()
        .find(|i| i.autotriage.is_some() && i.triage_permission != Some(TriagePermission::None))
        .unwrap();
    let at = issue.autotriage.as_ref().unwrap().id.clone().unwrap();
    let answer = client
        .post_autotriage_feedback(&AutotriageFeedback::new(
            &at,
            Rating::Bad,
            Some("the input is sanitised upstream".into()),
        ))
        .await
        .unwrap();
    assert_eq!(
        answer.new_feedback.as_ref().unwrap().rating(),
        Some(Rating::Bad)
    );
    let now = client.get_issue(issue.id()).await.unwrap();
    let feedback = now.autotriage.unwrap().feedback.unwrap();
    assert_eq!(feedback.rating(), Some(Rating::Bad));
    assert_eq!(
        feedback.note.as_deref(),
        Some("the input is sanitised upstream")
    );
    let event = now.activity_history.last().unwrap();
    assert_eq!(event.history_type, Some(HistoryType::AutotriageFeedback));
    let listed_now = listed(
        &client,
        ListIssuesFilter {
            ids: vec![issue.id().to_owned()],
            ..Default::default()
        },
    )
    .await;
    assert_eq!(
        listed_now[0]
            .autotriage
            .as_ref()
            .unwrap()
            .feedback
            .as_ref()
            .unwrap()
            .rating(),
        Some(Rating::Bad)
    );
    let err = client
        .post_autotriage_feedback(&AutotriageFeedback::new("at-999999", Rating::Good, None))
        .await
        .unwrap_err();
    assert!(matches!(err, ApiError::NotFound(_)), "{err:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_memory_reports_honest_counts_and_changes_will_flip_answers() {
    let server = server(600).await;
    let client = common::client_for(&server);
    let (rule, _, _) = busy_rule(&client).await;
    let scope = ListIssuesFilter {
        rule_ids: vec![rule.clone()],
        ..Default::default()
    };
    let in_scope = listed(&client, scope.clone()).await;
    let verdict = |v: Verdict| {
        in_scope
            .iter()
            .filter(|i| i.autotriage.as_ref().and_then(|a| a.verdict.as_ref()) == Some(&v))
            .count() as i64
    };
    let answer = client
        .create_memory_from_triage(&CreateMemoryFromTriageRequest {
            note: Some("Inputs to this sink are validated by the gateway".into()),
            filter: Some(scope.clone()),
            ..Default::default()
        })
        .await
        .unwrap();
    let memory = answer.memory.unwrap();
    let counts = memory.preanalysis_counts.clone().unwrap();
    assert_eq!(
        counts.newly_false_positive,
        Some(verdict(Verdict::TruePositive))
    );
    assert_eq!(
        counts.remains_false_positive,
        Some(verdict(Verdict::FalsePositive))
    );
    assert_eq!(memory.rule_id.as_deref(), Some(rule.as_str()));
    assert!(
        memory.scope().contains("every repository"),
        "{}",
        memory.scope()
    );
    // aiMemoryWillFlipVerdict with its id lists exactly those flipped.
    let flips = listed(
        &client,
        ListIssuesFilter {
            ai_memory_will_flip_verdict: memory.id.clone(),
            ..Default::default()
        },
    )
    .await;
    assert_eq!(flips.len() as i64, counts.flipped());
    assert!(
        flips
            .iter()
            .all(|i| i.rule_id.as_deref() == Some(rule.as_str()))
    );
    // Relevant issues of the rule: its unresolved findings.
    let relevant = client
        .find_relevant_issues(&FindRelevantIssuesRequest {
            rule_id: Some(rule.clone()),
            ..Default::default()
        })
        .await
        .unwrap();
    let unresolved = in_scope
        .iter()
        .filter(|i| i.status == Some(IssueStatus::Unresolved))
        .count();
    assert_eq!(relevant.issue_ids.len(), unresolved);
    // No note: refused.
    let err = client
        .create_memory_from_triage(&CreateMemoryFromTriageRequest::default())
        .await
        .unwrap_err();
    assert!(matches!(err, ApiError::BadRequest(_)), "{err:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_read_only_token_is_authorized_for_no_action_and_refused_one() {
    let server = server(50).await;
    let full = common::client_for(&server)
        .authorized_actions()
        .await
        .unwrap();
    for action in FindingAction::ALL {
        assert!(full.refusal(action).is_none(), "{action:?}");
    }
    let reader = Client::new(ClientConfig::new(
        server.url(),
        server.deployment(),
        Token::new(TOKEN_WITHOUT_ACTIONS),
    ))
    .unwrap();
    let limited = reader.authorized_actions().await.unwrap();
    for action in FindingAction::ALL {
        assert!(limited.refusal(action).is_some(), "{action:?} {limited:?}");
    }
    let err = reader
        .create_tickets(
            ACTIVE_INSTANCE,
            &CreateTicketsRequest::for_ids(vec![finding_id(1)], true),
        )
        .await
        .unwrap_err();
    assert!(matches!(err, ApiError::Forbidden(_)), "{err:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_write_is_not_retried() {
    use findings_demo::faults::Faults;
    let server = server(60).await;
    let client = common::client_for(&server);
    let id = fixable(&server, FixOperation::FixJob);
    server.set_faults(Faults::failing(503));
    let err = client
        .request_fix(FixOperation::FixJob, &id)
        .await
        .unwrap_err();
    assert!(matches!(err, ApiError::Server(_)), "{err:?}");
    assert_eq!(server.requests(), 1, "a write is sent once");
    // A read is retried under the same fault.
    server.set_faults(Faults::failing(503).times(1));
    client.ticketing_instances().await.unwrap();
    assert_eq!(server.requests(), 2);
}
