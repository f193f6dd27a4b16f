//! The published meanings of the List issues and Search filter fields
//! (docs/src/api.md, "Semantics of filters"), against the data: the enum
//! arrays, the archived and historical rules, `until`, the fuzzy file path
//! search, the time attribute `timeFilter` picks, and where the type
//! selection is read.

use super::*;
use crate::common::Recorder;

/// The repository-level and item-level facts a finding's wire form leaves
/// out, read from the whole List issues listing (its items carry review
/// counts).
async fn review_counts(env: &Env) -> HashMap<String, i64> {
    let mut out = HashMap::new();
    for archived in [None, Some(true)] {
        let pages = all_pages(
            &env.client,
            ListIssuesRequest {
                limit: Some(1000),
                filter: archived.map(|a| ListIssuesFilter {
                    include_archived: Some(a),
                    ..Default::default()
                }),
                ..Default::default()
            },
        )
        .await;
        for item in pages.into_iter().flat_map(|p| p.issues) {
            let id = item.issue.as_ref().map(|i| i.id().to_owned()).unwrap();
            out.insert(id, item.review_count.unwrap_or(0));
        }
    }
    out
}

fn transitive(i: &Issue) -> bool {
    i.sca_attributes
        .as_ref()
        .and_then(|s| s.found_dependency.as_ref())
        .and_then(|d| d.transitivity.as_deref())
        .is_some_and(|t| t.ends_with("TRANSITIVE"))
}

/// The EPSS bucket of a supply-chain finding: its categorization's last
/// word, NONE without a score.
fn epss_bucket(i: &Issue) -> String {
    i.sca_attributes
        .as_ref()
        .and_then(|s| s.epss_score.as_ref())
        .and_then(|e| e.categorization.as_deref())
        .and_then(|c| c.rsplit('_').next())
        .unwrap_or("NONE")
        .to_owned()
}

/// The latest activity event of one of `kinds`.
fn latest_of<'a>(i: &'a Issue, kinds: &[HistoryType]) -> Option<&'a ActivityEvent> {
    i.activity_history
        .iter()
        .filter(|e| e.history_type.as_ref().is_some_and(|h| kinds.contains(h)))
        .max_by_key(|e| e.date)
}

list_filter_test!(list_filter_severities, |t| {
    let wanted = vec![Severity::Critical, Severity::Low];
    let expected = t.ids_where(|i| i.severity.as_ref().is_some_and(|s| wanted.contains(s)));
    (
        with_filter(ListIssuesFilter {
            severities: wanted,
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_aggregate_issue_states, |t| {
    let wanted = vec![
        AggregateState::Open,
        AggregateState::ProvisionallyIgnoredApp,
    ];
    let expected = t.ids_where(|i| wanted.contains(&aggregate(i)));
    (
        with_filter(ListIssuesFilter {
            aggregate_issue_states: wanted,
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_status_deprecated_still_filters, |t| {
    let wanted = vec![IssueStatus::Fixed, IssueStatus::Muted];
    let expected = t.ids_where(|i| i.status.as_ref().is_some_and(|s| wanted.contains(s)));
    (
        with_filter(ListIssuesFilter {
            status: wanted,
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_tab_closed_is_fixed_and_removed, |t| {
    let expected = t.ids_where(|i| {
        matches!(
            aggregate(i),
            AggregateState::Fixed | AggregateState::Removed
        )
    });
    (
        with_filter(ListIssuesFilter {
            tab: Some(IssueTab::Closed),
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_tab_ignored_is_both_ignored_states, |t| {
    let expected = t.ids_where(|i| {
        matches!(
            aggregate(i),
            AggregateState::IgnoredApp | AggregateState::IgnoredCode
        )
    });
    (
        with_filter(ListIssuesFilter {
            tab: Some(IssueTab::Ignored),
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_include_archived_true_gives_only_archived, |t| {
    let expected = t.ids_where(|i| t.project(i).archived);
    assert!(!expected.is_empty(), "the data has archived projects");
    (
        with_filter(ListIssuesFilter {
            include_archived: Some(true),
            ..Default::default()
        }),
        expected,
    )
});

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_without_include_archived_leaves_archived_projects_out() {
    let env = Env::start().await;
    let t = env.list_truth().await;
    let got = list_all(
        &env.client,
        ListIssuesRequest {
            limit: Some(1000),
            ..Default::default()
        },
    )
    .await;
    let archived = t.ids_where(|i| t.project(i).archived);
    assert!(!archived.is_empty());
    assert_same_ids(
        "no filter",
        got.iter().map(|i| i.id().to_owned()),
        &t.listed(),
    );
    assert!(got.iter().all(|i| !archived.contains(i.id())));
}

list_filter_test!(
    list_filter_ai_verdicts_no_verdict_matches_no_autotriage,
    |t| {
        let wanted = vec![Verdict::FalsePositive, Verdict::NoVerdict];
        let expected = t.ids_where(|i| match verdict(i) {
            Some(v) => wanted.contains(v),
            None => true,
        });
        (
            with_filter(ListIssuesFilter {
                ai_verdicts: wanted,
                ..Default::default()
            }),
            expected,
        )
    }
);

list_filter_test!(list_filter_confidences_narrow_code_only, |t| {
    let expected = t.ids_where(|i| !is_code(i) || i.confidence == Some(Confidence::Low));
    assert!(
        t.issues
            .iter()
            .any(|i| !is_code(i) && i.confidence != Some(Confidence::Low)),
        "the case keeps other findings of other confidences"
    );
    (
        with_filter(ListIssuesFilter {
            confidences: vec![Confidence::Low],
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_triage_reasons, |t| {
    let wanted = vec![TriageReason::AcceptableRisk, TriageReason::NoTriageReason];
    let expected = t.ids_where(|i| match &i.triage_reason {
        Some(r) => wanted.contains(r),
        None => true,
    });
    (
        with_filter(ListIssuesFilter {
            triage_reasons: wanted,
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_transitivities_narrow_supply_chain_only, |t| {
    let expected = t.ids_where(|i| !is_type(i, IssueType::Sca) || !transitive(i));
    (
        with_filter(ListIssuesFilter {
            transitivities: vec![Transitivity::Direct],
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_exposures_and_reachabilities, |t| {
    // Both must hold: exposure REACHABLE (any reachable kind) and
    // reachability CONDITIONALLY_REACHABLE or UNREACHABLE.
    let expected = t.ids_where(|i| {
        !is_type(i, IssueType::Sca)
            || reachability(i) == Some(&Reachability::ConditionallyReachable)
    });
    (
        with_filter(ListIssuesFilter {
            exposures: vec![Exposure::Reachable],
            reachabilities: vec![
                Reachability::ConditionallyReachable,
                Reachability::Unreachable,
            ],
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_validation_states_narrow_secrets_only, |t| {
    let wanted = vec![ValidationState::ConfirmedValid];
    let expected = t.ids_where(|i| {
        !is_type(i, IssueType::Secrets) || validation(i).is_some_and(|v| wanted.contains(v))
    });
    (
        with_filter(ListIssuesFilter {
            validation_states: wanted,
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_repo_visibilities_public_keeps_no_secrets, |t| {
    // No demo repository has a known visibility.
    let expected = t.ids_where(|i| !is_type(i, IssueType::Secrets));
    (
        with_filter(ListIssuesFilter {
            repo_visibilities: vec![RepoVisibility::Public],
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_epss_probabilities, |t| {
    let expected = t.ids_where(|i| {
        !is_type(i, IssueType::Sca) || ["HIGH", "NONE"].contains(&epss_bucket(i).as_str())
    });
    assert!(
        t.issues
            .iter()
            .any(|i| is_type(i, IssueType::Sca) && epss_bucket(i) == "LOW"),
        "the case leaves some out"
    );
    (
        with_filter(ListIssuesFilter {
            epss_probabilities: vec![EpssProbability::High, EpssProbability::None],
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_sca_rule_kind, |t| {
    let wanted = vec![ScaRuleKind::MaliciousDependency, ScaRuleKind::UpgradeOnly];
    let expected = t.ids_where(|i| {
        !is_type(i, IssueType::Sca)
            || i.sca_attributes
                .as_ref()
                .and_then(|s| s.sca_rule_kind.as_ref())
                .is_some_and(|k| wanted.contains(k))
    });
    (
        with_filter(ListIssuesFilter {
            sca_rule_kind: wanted,
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_source_is_the_rule_origin_of_code, |t| {
    let expected = t.ids_where(|i| !is_code(i) || i.rule_origin == Some(RuleOrigin::Community));
    (
        with_filter(ListIssuesFilter {
            source: vec![RuleSource::Community],
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(
    list_filter_repository_deployment_statuses_and_exposures,
    |t| {
        let expected = t.ids_where(|i| {
            t.project(i).deployment_status == "DEPLOYMENT_STATUS_DEPLOYED"
                && t.project(i).public_exposure != "PUBLIC_EXPOSURE_PUBLIC"
        });
        (
            with_filter(ListIssuesFilter {
                repository_deployment_statuses: vec![DeploymentStatus::Deployed],
                repository_public_exposures: vec![
                    PublicExposure::NotPublic,
                    PublicExposure::Unknown,
                ],
                ..Default::default()
            }),
            expected,
        )
    }
);

list_filter_test!(list_filter_upgrade_guidance_keeps_no_supply_chain, |t| {
    // The data set has no upgrade guidance: no supply-chain finding has it.
    let expected = t.ids_where(|i| !is_type(i, IssueType::Sca));
    (
        with_filter(ListIssuesFilter {
            upgrade_guidance_filters: vec![UpgradeGuidanceSelection::Safe],
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_relative_since_from_the_data_sets_now, |t| {
    let since = anchor() - Duration::days(7);
    let expected = t.ids_where(|i| i.relevant_since.is_some_and(|r| r >= since));
    (
        with_filter(ListIssuesFilter {
            relative_since: Some(RelativeSince::OneWeek),
            ..Default::default()
        }),
        expected,
    )
});

list_filter_test!(list_filter_exclude_historical_with_the_secrets_type, |t| {
    let expected = t.ids_where(|i| is_type(i, IssueType::Secrets) && !is_historical_secret(i));
    assert!(
        t.issues.iter().any(is_historical_secret),
        "the data has historical secrets"
    );
    (
        ListIssuesRequest {
            issue_types: vec![IssueType::Secrets],
            ..with_filter(ListIssuesFilter {
                exclude_historical: Some(true),
                ..Default::default()
            })
        },
        expected,
    )
});

/// Edit distance with neighbour swaps, written apart from the server's.
fn edits(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut rows = vec![(0..=b.len()).collect::<Vec<_>>()];
    for i in 1..=a.len() {
        let mut row = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let sub = rows[i - 1][j - 1] + usize::from(a[i - 1] != b[j - 1]);
            row[j] = sub.min(rows[i - 1][j] + 1).min(row[j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                row[j] = row[j].min(rows[i - 2][j - 2] + 1);
            }
        }
        rows.push(row);
    }
    rows[a.len()][b.len()]
}

/// docs/src/api.md: every word of the query is a word of the path, within
/// 0 (up to 2 letters), 1 (up to 5) or 2 edits.
fn fuzzy_path_match(path: &str, query: &str) -> bool {
    let words = |s: &str| -> Vec<String> {
        s.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect()
    };
    let path = words(path);
    words(query).iter().all(|q| {
        let max = match q.chars().count() {
            0..=2 => 0,
            3..=5 => 1,
            _ => 2,
        };
        path.iter().any(|p| edits(q, p) <= max)
    })
}

list_filter_test!(
    list_filter_file_paths_is_a_fuzzy_word_search_of_the_first_value,
    |t| {
        // A long word of a real path, with two letters swapped (a typo), and a
        // second word from the same path after another separator.
        let path = t
            .issues
            .iter()
            .filter_map(|i| i.file_path.clone())
            .find(|p| p.contains('/') && p.split('/').any(|w| w.len() >= 8 && !w.contains('.')))
            .expect("a path with a long folder name");
        let word = path
            .split('/')
            .find(|w| w.len() >= 8 && !w.contains('.'))
            .unwrap()
            .to_owned();
        let mut typo: Vec<char> = word.chars().collect();
        typo.swap(1, 2);
        let typo: String = typo.into_iter().collect();
        let extension = path.rsplit('.').next().unwrap().to_owned();
        let query = format!("{typo}.{extension}");
        let matches =
            |q: &str| t.ids_where(|i| fuzzy_path_match(i.file_path.as_deref().unwrap_or(""), q));
        let expected = matches(&query);
        let source = t
            .issues
            .iter()
            .find(|i| i.file_path.as_deref() == Some(path.as_str()))
            .unwrap();
        assert!(
            expected.contains(source.id()),
            "the typo still finds {path}"
        );
        assert!(
            !path.to_lowercase().contains(&typo.to_lowercase()),
            "not a substring match"
        );
        assert!(
            !matches("src").is_subset(&expected),
            "the second value would add findings"
        );
        (
            with_filter(ListIssuesFilter {
                // Only the first value is used: the second would match more.
                file_paths: vec![query, "src".into()],
                ..Default::default()
            }),
            expected,
        )
    }
);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_filter_backlog_type_preprod_keeps_code_with_review_comments() {
    let env = Env::start().await;
    let t = env.list_truth().await;
    let reviews = review_counts(&env).await;
    let expected = t.ids_where(|i| !is_code(i) || reviews[i.id()] > 0);
    env.assert_list(
        "backlogType PREPROD",
        with_filter(ListIssuesFilter {
            backlog_type: Some(BacklogType::Preprod),
            ..Default::default()
        }),
        expected,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_filter_click_to_fix_pr_states_follow_the_pr_lifecycle() {
    let env = Env::start().await;
    let t = env.list_truth_with(true).await;
    use HistoryType::*;
    let state = |i: &Issue| {
        if latest_of(i, &[ClickToFixPrMerged]).is_some() {
            ClickToFixPrState::Merged
        } else if latest_of(i, &[ClickToFixPrOpened]).is_some() {
            ClickToFixPrState::Open
        } else {
            ClickToFixPrState::NoPr
        }
    };
    for wanted in [
        vec![ClickToFixPrState::Open],
        vec![ClickToFixPrState::Merged, ClickToFixPrState::NoPr],
    ] {
        let expected =
            t.ids_where(|i| is_type(i, IssueType::Secrets) || wanted.contains(&state(i)));
        env.assert_list(
            &format!("clickToFixPrStates {wanted:?}"),
            with_filter(ListIssuesFilter {
                click_to_fix_pr_states: wanted.clone(),
                ..Default::default()
            }),
            expected,
        )
        .await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_filter_has_in_flight_autofix_pr_is_a_recent_request() {
    let env = Env::start().await;
    let t = env.list_truth_with(true).await;
    use HistoryType::*;
    let cooldown = anchor() - Duration::minutes(10);
    let in_flight = |i: &Issue| {
        latest_of(
            i,
            &[
                ClickToFixPrRequested,
                ClickToFixPrOpened,
                ClickToFixPrFailed,
            ],
        )
        .is_some_and(|e| {
            e.history_type == Some(ClickToFixPrRequested) && e.date.is_some_and(|d| d >= cooldown)
        })
    };
    // Requests long answered are not in flight.
    assert!(
        t.issues
            .iter()
            .any(|i| !in_flight(i) && latest_of(i, &[ClickToFixPrRequested]).is_some())
    );
    for (flag, expected) in [
        (true, t.ids_where(in_flight)),
        (false, t.ids_where(|i| !in_flight(i))),
    ] {
        env.assert_list(
            &format!("hasInFlightAutofixPr {flag}"),
            with_filter(ListIssuesFilter {
                has_in_flight_autofix_pr: Some(flag),
                ..Default::default()
            }),
            expected,
        )
        .await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_filter_time_filter_picks_the_time_since_bounds() {
    let env = Env::start().await;
    let t = env.list_truth_with(true).await;
    use HistoryType::*;
    let since = anchor() - Duration::days(30);
    let triaged = |i: &Issue| latest_of(i, &[Triage]).and_then(|e| e.date);
    let fixed = |i: &Issue| {
        (i.status == Some(IssueStatus::Fixed))
            .then(|| latest_of(i, &[Status]).and_then(|e| e.date))
            .flatten()
    };
    type TimeOf = Box<dyn Fn(&Issue) -> Option<DateTime<Utc>>>;
    let cases: [(TimeFilter, TimeOf); 3] = [
        (
            TimeFilter::RelevantSince,
            Box::new(|i: &Issue| i.relevant_since),
        ),
        (TimeFilter::TriagedAt, Box::new(triaged)),
        (TimeFilter::FixedAt, Box::new(fixed)),
    ];
    for (filter, time) in cases {
        let expected = t.ids_where(|i| time(i).is_some_and(|d| d >= since));
        env.assert_list(
            &format!("timeFilter {filter:?}"),
            with_filter(ListIssuesFilter {
                since: Some(since),
                time_filter: Some(filter.clone()),
                ..Default::default()
            }),
            expected,
        )
        .await;
    }
}

/// The ids a raw List issues body selects (all pages of 1000).
async fn raw_list_ids(env: &Env, body: serde_json::Value) -> BTreeSet<String> {
    let http = crate::common::http();
    let mut ids = BTreeSet::new();
    let mut body = body;
    body["limit"] = serde_json::json!(1000);
    loop {
        let answer = raw(
            &http,
            reqwest::Method::POST,
            &env.url("/api/agent/deployments/1234/issues"),
            Some(TOKEN),
            &body.to_string(),
        )
        .await;
        assert_eq!(answer.status, 200, "{}", answer.text());
        let page = answer.json();
        for item in page["issues"].as_array().into_iter().flatten() {
            ids.insert(item["issue"]["id"].as_str().unwrap().to_owned());
        }
        match page["cursor"].as_str().filter(|c| !c.is_empty()) {
            Some(c) => body["cursor"] = serde_json::json!(c),
            None => return ids,
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_type_selection_top_level_wins_then_legacy_filter_then_issue_type() {
    use serde_json::json;
    let env = Env::start().await;
    let t = env.list_truth().await;
    let listed = t.listed();
    let of = |ty: IssueType| -> BTreeSet<String> {
        t.ids_where(|i| i.issue_type == Some(ty.clone()))
            .intersection(&listed)
            .cloned()
            .collect()
    };
    let cases = [
        (
            "top level",
            json!({"issueTypes": ["ISSUE_TYPE_SCA"]}),
            of(IssueType::Sca),
        ),
        (
            "legacy filter.issueTypes",
            json!({"filter": {"issueTypes": ["ISSUE_TYPE_SECRETS"]}}),
            of(IssueType::Secrets),
        ),
        (
            "top level wins over the legacy field",
            json!({"issueTypes": ["ISSUE_TYPE_SAST"], "filter": {"issueTypes": ["ISSUE_TYPE_SCA"]}}),
            of(IssueType::Sast),
        ),
        (
            "an empty top level leaves the legacy field",
            json!({"issueTypes": [], "filter": {"issueTypes": ["ISSUE_TYPE_SCA"]},
                   "issueType": "ISSUE_TYPE_SECRETS"}),
            of(IssueType::Sca),
        ),
        (
            "the deprecated issueType last",
            json!({"issueType": "ISSUE_TYPE_SECRETS"}),
            of(IssueType::Secrets),
        ),
    ];
    for (what, body, expected) in cases {
        assert!(!expected.is_empty(), "{what}");
        let got = raw_list_ids(&env, body).await;
        assert_eq!(got, expected, "{what}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_filter_unknown_new_enum_values_are_400_and_unspecified_is_taken() {
    let env = Env::start().await;
    let http = crate::common::http();
    let url = env.url("/api/agent/deployments/1234/issues");
    for (body, status) in [
        (r#"{"filter":{"severities":["SEVERITY_URGENT"]}}"#, 400),
        (r#"{"filter":{"tab":"ISSUE_TAB_NOPE"}}"#, 400),
        (r#"{"filter":{"severities":["SEVERITY_UNSPECIFIED"]}}"#, 200),
        (
            r#"{"filter":{"aggregateIssueStates":["AGGREGATE_ISSUE_STATE_UNSPECIFIED"]}}"#,
            200,
        ),
    ] {
        let answer = raw(&http, reqwest::Method::POST, &url, Some(TOKEN), body).await;
        assert_eq!(answer.status, status, "{body}: {}", answer.text());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_client_sends_the_type_selection_at_the_top_level_and_always_a_limit() {
    let recorder = Recorder::start();
    let client = recorder.client();
    let mut req = ListIssuesRequest::default();
    ListSelection {
        issue_types: vec![IssueType::Sca],
        filter: ListIssuesFilter {
            severities: vec![Severity::Critical],
            ..Default::default()
        },
    }
    .apply_to(&mut req);
    client.list_issues(&req).await.expect("an empty page");
    client
        .list_issues(&ListIssuesRequest::default())
        .await
        .expect("an empty page");
    let bodies = recorder.bodies();
    assert_eq!(bodies.len(), 2);
    assert_eq!(
        bodies[0]["issueTypes"],
        serde_json::json!(["ISSUE_TYPE_SCA"])
    );
    assert_eq!(
        bodies[0]["filter"],
        serde_json::json!({"severities": ["SEVERITY_CRITICAL"]})
    );
    for body in &bodies {
        assert_eq!(body["limit"], serde_json::json!(100), "{body}");
        assert!(body["filter"].get("issueTypes").is_none(), "{body}");
    }
}

// ------------------------------------------------------------ search

fn search_enum_case<T: Clone + PartialEq + std::fmt::Debug>(
    t: &SearchTruth,
    wanted: Vec<T>,
    value: impl Fn(&AgenticIssue) -> Option<T>,
    set: impl Fn(&mut SearchFilters, Vec<T>),
) -> (String, SearchFilters, BTreeSet<String>) {
    let mut filters = SearchFilters::default();
    set(&mut filters, wanted.clone());
    let expected = t.ids_where(|i| value(i).is_some_and(|v| wanted.contains(&v)));
    (format!("{wanted:?}"), filters, expected)
}

search_test!(search_filter_severities, |t| {
    vec![
        search_enum_case(
            &t,
            vec![Severity::Critical, Severity::Info],
            |i| i.severity.clone(),
            |f, v| f.severities = v,
        ),
        search_enum_case(
            &t,
            vec![Severity::Medium],
            |i| i.severity.clone(),
            |f, v| f.severities = v,
        ),
    ]
});

search_test!(search_filter_triage_states_and_reasons, |t| {
    vec![
        search_enum_case(
            &t,
            vec![AgenticTriageState::Open, AgenticTriageState::Reopened],
            |i| i.triage_state.clone(),
            |f, v| f.triage_states = v,
        ),
        search_enum_case(
            &t,
            vec![AgenticTriageReason::FalsePositive],
            |i| i.triage_reason.clone(),
            |f, v| f.triage_reasons = v,
        ),
    ]
});

search_test!(search_filter_detection_states, |t| {
    vec![search_enum_case(
        &t,
        vec![DetectionState::Detected, DetectionState::VerifiedPresent],
        |i| i.detection_state.clone(),
        |f, v| f.detection_states = v,
    )]
});
