//! Decoding hand-written response fixtures (tests/fixtures/) with the client's
//! own decoder, `findings_client::client::decode`, into the wire model.
//!
//! What is checked, against findings-api.md and docs/src/api.md §3–6: every field of
//! the contract is mapped (nothing silently dropped as "unknown"), int64 values
//! arrive as numbers or strings, unknown enum values are kept verbatim, `null`,
//! missing and extra fields are accepted, timestamps follow RFC 3339, hostile
//! text decodes verbatim (the display layer sanitises it), and malformed bodies
//! give typed errors naming the JSON path, never a panic.

use chrono::{DateTime, Utc};
use findings_base::text::one_line;
use findings_client::ApiError;
use findings_client::client::decode;
use findings_model::*;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::path::PathBuf;

const JSON: &str = "application/json";

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

fn fixture_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("fixtures")
        .join(name)
}

fn fixture(name: &str) -> Vec<u8> {
    let path = fixture_path(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

fn fixture_value(name: &str) -> Value {
    serde_json::from_slice(&fixture(name)).unwrap_or_else(|e| panic!("{name} is not JSON: {e}"))
}

/// Decodes a fixture with the client's decoder; panics with the error.
fn load<T: DeserializeOwned>(name: &str) -> T {
    decode::<T>(&fixture(name), JSON).unwrap_or_else(|e| panic!("decoding {name}: {e}"))
}

/// Decodes an inline body; panics with the error.
fn decode_ok<T: DeserializeOwned>(body: &str) -> T {
    decode::<T>(body.as_bytes(), JSON).unwrap_or_else(|e| panic!("decoding {body}: {e}"))
}

/// Expects `ApiError::Decode` and returns its path.
fn decode_err_path<T: DeserializeOwned + std::fmt::Debug>(body: &[u8]) -> String {
    match decode::<T>(body, JSON) {
        Err(ApiError::Decode { path, message }) => {
            assert!(!message.is_empty(), "empty decode message at {path}");
            path
        }
        other => panic!("expected ApiError::Decode, got {other:?}"),
    }
}

fn ts(s: &str) -> Timestamp {
    DateTime::parse_from_rfc3339(s)
        .unwrap_or_else(|e| panic!("bad test timestamp {s}: {e}"))
        .with_timezone(&Utc)
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| (*s).to_owned()).collect()
}

/// Paths of `expected` whose value is not `null` but are absent from `actual`:
/// a field the model does not know is ignored on decode, so it disappears
/// when the decoded value is written back.
fn missing_paths(expected: &Value, actual: &Value, at: &str, out: &mut Vec<String>) {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => {
            for (k, ev) in e {
                let path = format!("{at}.{k}");
                match a.get(k) {
                    Some(av) => missing_paths(ev, av, &path, out),
                    None if ev.is_null() => {}
                    None => out.push(path),
                }
            }
        }
        (Value::Array(e), Value::Array(a)) => {
            if e.len() != a.len() {
                out.push(format!("{at} (length {} != {})", e.len(), a.len()));
            }
            for (i, (ev, av)) in e.iter().zip(a).enumerate() {
                missing_paths(ev, av, &format!("{at}[{i}]"), out);
            }
        }
        _ => {}
    }
}

/// Paths where two JSON values differ (for exact round-trip comparisons).
fn diff_paths(expected: &Value, actual: &Value, at: &str, out: &mut Vec<String>) {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => {
            for k in e.keys().chain(a.keys().filter(|k| !e.contains_key(*k))) {
                let path = format!("{at}.{k}");
                match (e.get(k), a.get(k)) {
                    (Some(ev), Some(av)) => diff_paths(ev, av, &path, out),
                    (Some(ev), None) => out.push(format!("{path}: missing (expected {ev})")),
                    (None, Some(av)) => out.push(format!("{path}: unexpected {av}")),
                    (None, None) => {}
                }
            }
        }
        (Value::Array(e), Value::Array(a)) if e.len() == a.len() => {
            for (i, (ev, av)) in e.iter().zip(a).enumerate() {
                diff_paths(ev, av, &format!("{at}[{i}]"), out);
            }
        }
        (e, a) if e != a => out.push(format!("{at}: expected {e}, got {a}")),
        _ => {}
    }
}

fn assert_json_eq(expected: &Value, actual: &Value) {
    let mut diffs = Vec::new();
    diff_paths(expected, actual, "", &mut diffs);
    assert!(diffs.is_empty(), "JSON differs:\n{}", diffs.join("\n"));
}

fn assert_nothing_dropped(name: &str, expected: &Value, actual: &Value) {
    let mut missing = Vec::new();
    missing_paths(expected, actual, "", &mut missing);
    assert!(
        missing.is_empty(),
        "{name}: fields of the fixture lost by decoding:\n{}",
        missing.join("\n")
    );
}

/// Several responses in one fixture file, each under its own key. The whole
/// file goes through `decode` as raw bytes; each section is a model type.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Sections {
    list_issues: Option<ListIssuesResponse>,
    list_issues_no_items: Option<ListIssuesResponse>,
    report: Option<ReportResponse>,
    report_request: Option<ReportRequest>,
    search: Option<SearchIssuesResponse>,
    scm_config: Option<ScmConfigResponse>,
    scm_config_null: Option<ScmConfigResponse>,
    scm_config_empty: Option<ScmConfigResponse>,
}

fn section<'a, T>(v: &'a Option<T>, name: &str) -> &'a T {
    v.as_ref()
        .unwrap_or_else(|| panic!("section {name} missing"))
}

fn full() -> ListIssuesResponse {
    load("list_issues_full.json")
}

fn first_issue(r: &ListIssuesResponse) -> &Issue {
    r.issues[0].issue.as_ref().expect("issues[0].issue")
}

// ---------------------------------------------------------------------------
// 1. list_issues_full.json: every field of the Issue table
// ---------------------------------------------------------------------------

/// Every field the spec lists, by object: (JSON pointer under
/// `issues[0].issue`, the keys that object must hold, none null).
const SPEC_FIELDS: &[(&str, &[&str])] = &[
    (
        "",
        &[
            "id",
            "createdAt",
            "ref",
            "syntacticId",
            "matchBasedId",
            "ruleId",
            "status",
            "repository",
            "firstSeenScan",
            "lastSeenScan",
            "triageState",
            "triageReason",
            "relevantSince",
            "aggregateState",
            "note",
            "externalTicket",
            "vulnGroupKey",
            "isBlocking",
            "autotriage",
            "aiTags",
            "lineOfCodeUrl",
            "codeSnippet",
            "dataflowTrace",
            "commitUrl",
            "refUrl",
            "activityHistory",
            "relatedIssues",
            "remediation",
            "filePath",
            "line",
            "endLine",
            "column",
            "endColumn",
            "severity",
            "message",
            "rulePath",
            "confidence",
            "ruleUrl",
            "ruleReferences",
            "ruleOrigin",
            "ruleHashId",
            "ruleCweNames",
            "ruleOwaspNames",
            "ruleset",
            "policySlug",
            "category",
            "subcategories",
            "ruleSupersededBy",
            "issueType",
            "issueParentId",
            "ticketAttempts",
            "sastAttributes",
            "scaAttributes",
            "secretsAttributes",
            "codeowners",
            "codeSnippets",
            "ruleExplanation",
            "ruleDisplayName",
            "clickToFixPrUrl",
            "clickToFixPrId",
            "clickToFixCommitMsg",
            "aiImpact",
            "aiExploitConditions",
            "exceptionRequest",
            "triagePermission",
            "isArchived",
            "firstDetectedAt",
        ],
    ),
    ("/repository", &["name", "id", "type", "primaryRef"]),
    ("/repository/primaryRef", &["id", "ref"]),
    ("/firstSeenScan", &["id", "meta"]),
    ("/lastSeenScan", &["id", "meta"]),
    (
        "/externalTicket",
        &["url", "externalSlug", "id", "linkedIssueIds"],
    ),
    (
        "/autotriage",
        &[
            "id",
            "issueId",
            "verdict",
            "reason",
            "feedback",
            "matchBasedId",
            "memoryIdsReferenced",
            "memoryIdsRendered",
        ],
    ),
    ("/autotriage/feedback", &["autotriageId", "rating", "note"]),
    ("/aiTags", &["id", "path", "tags", "sensitivity"]),
    (
        "/dataflowTrace",
        &["taintSource", "intermediateVars", "taintSink"],
    ),
    (
        "/dataflowTrace/taintSource/0",
        &["path", "start", "end", "locationUrl"],
    ),
    (
        "/dataflowTrace/taintSource/0/start",
        &["line", "col", "offset"],
    ),
    (
        "/dataflowTrace/taintSource/0/end",
        &["line", "col", "offset"],
    ),
    (
        "/activityHistory/1",
        &[
            "date",
            "title",
            "triageReason",
            "note",
            "actor",
            "historyType",
            "exceptionRequestDetails",
        ],
    ),
    (
        "/activityHistory/1/exceptionRequestDetails",
        &["actionSource"],
    ),
    (
        "/relatedIssues/0",
        &["id", "ref", "pullRequestId", "aggregateState", "createdAt"],
    ),
    (
        "/remediation",
        &["issueId", "matchBasedId", "autofix", "guidance"],
    ),
    (
        "/remediation/autofix",
        &["id", "fixCode", "fixDiff", "explanation", "url"],
    ),
    (
        "/remediation/guidance",
        &["id", "summary", "guidanceText", "memoryIdsUsed"],
    ),
    ("/ruleSupersededBy/0", &["product", "rulePath"]),
    ("/ticketAttempts/0", &["attemptedAt", "responseMessage"]),
    (
        "/scaAttributes",
        &[
            "severity",
            "vulnDatabaseIdentifier",
            "reachability",
            "reachableCondition",
            "cwes",
            "foundDependency",
            "fixRecommendations",
            "bestFix",
            "epssScore",
            "rulePublishDate",
            "scaRuleKind",
            "scaMatchInfo",
            "introducedBy",
        ],
    ),
    (
        "/scaAttributes/foundDependency",
        &[
            "package",
            "version",
            "transitivity",
            "lockfileLineUrl",
            "filePath",
            "ecosystem",
            "manifestFilePath",
        ],
    ),
    ("/scaAttributes/bestFix", &["package", "version"]),
    (
        "/scaAttributes/fixRecommendations/0",
        &["package", "version"],
    ),
    ("/scaAttributes/introducedBy/0", &["package", "version"]),
    (
        "/scaAttributes/epssScore",
        &["score", "percentile", "updatedAt", "categorization"],
    ),
    (
        "/scaAttributes/scaMatchInfo",
        &["matchKind", "analyzedPackages", "transitiveMatches"],
    ),
    (
        "/scaAttributes/scaMatchInfo/analyzedPackages/0",
        &[
            "package",
            "version",
            "transitivity",
            "lockfileLineUrl",
            "filePath",
            "ecosystem",
            "manifestFilePath",
        ],
    ),
    (
        "/scaAttributes/scaMatchInfo/transitiveMatches/0",
        &["dependency", "path", "line"],
    ),
    (
        "/secretsAttributes",
        &["validationState", "secretType", "historicalInfo"],
    ),
    (
        "/secretsAttributes/historicalInfo",
        &["gitCommit", "gitCommitTimestamp", "gitBlob"],
    ),
    ("/codeowners/0", &["id", "name", "isTeam", "members"]),
    (
        "/codeowners/0/members/0",
        &["id", "name", "isTeam", "members"],
    ),
    (
        "/codeowners/0/members/0/members/0",
        &["id", "name", "isTeam"],
    ),
    ("/codeSnippets/0", &["path", "content"]),
    ("/ruleExplanation", &["id", "summary", "explanation"]),
    ("/aiExploitConditions/0", &["description", "confirmed"]),
    (
        "/exceptionRequest",
        &[
            "exceptionState",
            "requesterLogin",
            "requesterName",
            "requesterNote",
            "requesterTriageReason",
            "requesterActionSource",
            "reviewerLogin",
            "reviewerName",
            "requestId",
            "reviewId",
            "issueId",
            "createdAt",
            "reviewedAt",
        ],
    ),
];

/// The fixture itself must populate every field the spec lists, so that the
/// tests below really cover every field (guards against the fixture rotting).
#[test]
fn full_fixture_populates_every_spec_field() {
    let v = fixture_value("list_issues_full.json");
    let issue = &v["issues"][0]["issue"];
    for (pointer, keys) in SPEC_FIELDS {
        let obj = issue
            .pointer(pointer)
            .and_then(Value::as_object)
            .unwrap_or_else(|| panic!("fixture lacks object issues[0].issue{pointer}"));
        for key in *keys {
            let val = obj
                .get(*key)
                .unwrap_or_else(|| panic!("fixture lacks issues[0].issue{pointer}/{key}"));
            assert!(!val.is_null(), "issues[0].issue{pointer}/{key} is null");
        }
    }
    let wrapper = v["issues"][0].as_object().unwrap();
    for key in [
        "issue",
        "reviewCount",
        "triageCount",
        "allRefs",
        "aiSilencedCount",
        "allReviewThreadIds",
        "allReviewComments",
    ] {
        assert!(wrapper.contains_key(key), "wrapper lacks {key}");
    }
    for key in ["reviewCount", "triageCount", "aiSilencedCount"] {
        assert!(
            wrapper[key].is_string(),
            "{key} must be a string on the wire"
        );
    }
    for key in ["line", "col", "offset"] {
        assert!(issue["dataflowTrace"]["taintSink"][0]["start"][key].is_string());
    }
}

/// Written back, the decoded response is the fixture, field for field: no
/// field of the contract is unknown to the model (an unknown field would be
/// silently ignored on decode and vanish here).
#[test]
fn full_fixture_every_field_is_mapped_exactly() {
    let decoded = full();
    let written = serde_json::to_value(&decoded).unwrap();
    assert_json_eq(&fixture_value("list_issues_full.json"), &written);
}

#[test]
fn full_wrapper_fields_and_counters() {
    let r = full();
    assert_eq!(r.issues.len(), 2);
    assert_eq!(r.cursor.as_deref(), Some("eyJwb3MiOjIsImZwIjoiYWJjIn0"));
    let item = &r.issues[0];
    assert_eq!(item.review_count, Some(3));
    assert_eq!(item.triage_count, Some(2));
    assert_eq!(item.ai_silenced_count, Some(1));
    assert_eq!(
        item.all_refs,
        strings(&["refs/heads/main", "refs/heads/release-2025.03"])
    );
    assert_eq!(
        item.all_review_thread_ids,
        strings(&["thread-88001", "thread-88002"])
    );
    assert_eq!(
        item.all_review_comments,
        vec![
            ReviewComment {
                is_inline: Some(true),
                thread_id: Some("thread-88001".into()),
            },
            ReviewComment {
                is_inline: Some(false),
                thread_id: Some("thread-88002".into()),
            },
        ]
    );
    let second = &r.issues[1];
    assert_eq!(second.review_count, Some(0));
    assert_eq!(second.triage_count, Some(0));
    assert_eq!(second.ai_silenced_count, Some(0));
    assert!(second.all_review_comments.is_empty());
    let issue = second.issue.as_ref().unwrap();
    assert_eq!(issue.id(), "1185002");
    assert_eq!(issue.status, Some(IssueStatus::Fixed));
    assert_eq!(issue.issue_type, Some(IssueType::Secrets));
    assert_eq!(
        issue.repository.as_ref().unwrap().scm_type,
        Some(ScmType::HostBSelfManaged)
    );
    assert_eq!(issue.location(), "deploy/values.yaml:7");
}

#[test]
fn full_issue_scalars() {
    let r = full();
    let i = first_issue(&r);
    assert_eq!(i.id(), "1184501");
    assert_eq!(i.created_at, Some(ts("2025-03-14T09:26:53.589Z")));
    assert_eq!(i.ref_.as_deref(), Some("refs/heads/main"));
    assert_eq!(
        i.syntactic_id.as_deref(),
        Some("7f3c9a21d04be8e1a0c45d5b6e0f9a11")
    );
    assert!(i.match_based_id.as_deref().unwrap().starts_with("c0ffee"));
    assert_eq!(
        i.rule_id.as_deref(),
        Some("javascript.lodash.security.prototype-pollution-merge")
    );
    assert_eq!(i.status, Some(IssueStatus::Unresolved));
    assert_eq!(i.triage_state, Some(TriageState::Reviewing));
    assert_eq!(i.triage_reason, Some(TriageReason::AcceptableRisk));
    assert_eq!(i.relevant_since, Some(ts("2025-03-14T09:27:01Z")));
    assert_eq!(i.aggregate_state, Some(AggregateState::Reviewing));
    assert!(i.note.as_deref().unwrap().contains("PAY-2291"));
    assert_eq!(
        i.vuln_group_key.as_deref(),
        Some("npm:lodash:CVE-2020-8203")
    );
    assert_eq!(i.is_blocking, Some(true));
    assert!(i.line_of_code_url.as_deref().unwrap().ends_with("#L42"));
    assert_eq!(
        i.code_snippet.as_deref(),
        Some("  return _.merge(defaults, req.body.settings);")
    );
    assert!(
        i.commit_url
            .as_deref()
            .unwrap()
            .contains("/commit/4b825dc6")
    );
    assert_eq!(i.ref_url, i.commit_url);
    assert_eq!(i.file_path.as_deref(), Some("src/billing/merge.js"));
    assert_eq!(
        (i.line, i.end_line, i.column, i.end_column),
        (Some(42), Some(44), Some(10), Some(46))
    );
    assert_eq!(i.location(), "src/billing/merge.js:42");
    assert_eq!(i.severity, Some(Severity::High));
    assert!(
        i.message
            .as_deref()
            .unwrap()
            .starts_with("Prototype pollution")
    );
    assert_eq!(i.rule_path, i.rule_id);
    assert_eq!(i.confidence, Some(Confidence::Medium));
    assert!(i.rule_url.as_deref().unwrap().starts_with("https://rules."));
    assert_eq!(i.rule_origin, Some(RuleOrigin::ProRules));
    assert_eq!(i.rule_hash_id.as_deref(), Some("kxUgZ8"));
    assert_eq!(i.ruleset.as_deref(), Some("p/javascript"));
    assert_eq!(i.policy_slug.as_deref(), Some("default-blocking"));
    assert_eq!(i.category.as_deref(), Some("security"));
    assert_eq!(i.subcategories, strings(&["vuln", "audit"]));
    assert_eq!(i.issue_type, Some(IssueType::Sca));
    assert_eq!(i.issue_parent_id.as_deref(), Some("parent-99120"));
    assert_eq!(
        i.rule_display_name.as_deref(),
        Some("Prototype pollution via lodash merge")
    );
    assert_eq!(i.rule_name(), "Prototype pollution via lodash merge");
    assert!(
        i.click_to_fix_pr_url
            .as_deref()
            .unwrap()
            .ends_with("/pull/1340")
    );
    assert_eq!(i.click_to_fix_pr_id.as_deref(), Some("pr-1340"));
    assert!(
        i.click_to_fix_commit_msg
            .as_deref()
            .unwrap()
            .starts_with("fix:")
    );
    assert!(i.ai_impact.as_deref().unwrap().contains("isAdmin"));
    assert_eq!(i.triage_permission, Some(TriagePermission::Request));
    assert_eq!(i.is_archived, Some(false));
    assert_eq!(i.first_detected_at, Some(ts("2025-02-01T07:30:00Z")));
}

#[test]
fn full_issue_repository_and_scans() {
    let r = full();
    let i = first_issue(&r);
    assert_eq!(i.repository_name(), "acme/payments-api");
    let repo = i.repository.as_ref().unwrap();
    assert_eq!(repo.id.as_deref(), Some("204871"));
    assert_eq!(repo.scm_type, Some(ScmType::HostA));
    assert_eq!(
        repo.primary_ref,
        Some(PrimaryRef {
            id: Some("551902".into()),
            ref_: Some("refs/heads/main".into()),
        })
    );
    let first = i.first_seen_scan.as_ref().unwrap();
    assert_eq!(first.id.as_deref(), Some("90210001"));
    let meta = first.meta.as_ref().unwrap();
    assert_eq!(meta["trigger"]["number"], 1312);
    assert_eq!(meta["ci"], true);
    assert_eq!(meta["durations"], serde_json::json!([12, 40, 3]));
    let last = i.last_seen_scan.as_ref().unwrap();
    assert_eq!(last.id.as_deref(), Some("90210877"));
    assert_eq!(last.meta.as_ref().unwrap()["ci"], false);
}

#[test]
fn full_issue_ticket_autotriage_and_ai_tags() {
    let r = full();
    let i = first_issue(&r);
    assert_eq!(
        i.external_ticket,
        Some(ExternalTicket {
            url: Some("https://tickets.example.com/browse/PAY-2291".into()),
            external_slug: Some("PAY-2291".into()),
            id: Some("88123".into()),
            linked_issue_ids: strings(&["1184501", "1184777"]),
        })
    );
    let at = i.autotriage.as_ref().unwrap();
    assert_eq!(at.id.as_deref(), Some("at-55012"));
    assert_eq!(at.issue_id.as_deref(), Some("1184501"));
    assert_eq!(at.verdict, Some(Verdict::TruePositive));
    assert_eq!(at.reason.as_deref(), Some(""));
    assert_eq!(at.match_based_id, i.match_based_id);
    assert_eq!(
        at.feedback,
        Some(AutotriageFeedback {
            autotriage_id: Some("at-55012".into()),
            rating: Some("RATING_GOOD".into()),
            note: Some("Agree, the merge target is user-controlled.".into()),
        })
    );
    assert_eq!(at.memory_ids_referenced, strings(&["mem-101", "mem-204"]));
    assert_eq!(at.memory_ids_rendered, strings(&["mem-204"]));
    assert_eq!(
        i.ai_tags,
        Some(AiTags {
            id: Some("tag-3301".into()),
            path: Some("src/billing/merge.js".into()),
            tags: Some("payments,pii".into()),
            sensitivity: Some(Sensitivity::High),
        })
    );
}

#[test]
fn full_issue_dataflow_trace_positions_from_strings() {
    let r = full();
    let trace = first_issue(&r).dataflow_trace.as_ref().unwrap();
    assert_eq!(trace.taint_source.len(), 1);
    assert_eq!(trace.intermediate_vars.len(), 2);
    assert_eq!(trace.taint_sink.len(), 1);
    let src = &trace.taint_source[0];
    assert_eq!(src.path.as_deref(), Some("src/routes/settings.js"));
    assert_eq!(
        src.start,
        Some(Position {
            line: Some(17),
            col: Some(21),
            offset: Some(512),
        })
    );
    assert_eq!(
        src.end,
        Some(Position {
            line: Some(17),
            col: Some(38),
            offset: Some(529),
        })
    );
    assert!(src.location_url.as_deref().unwrap().ends_with("#L17"));
    let mid = &trace.intermediate_vars[1];
    assert_eq!(mid.path.as_deref(), Some("src/billing/merge.js"));
    assert_eq!(mid.start.as_ref().unwrap().offset, Some(1201));
    let sink = &trace.taint_sink[0];
    assert_eq!(sink.end.as_ref().unwrap().line, Some(42));
    assert_eq!(sink.end.as_ref().unwrap().col, Some(46));
    assert_eq!(sink.end.as_ref().unwrap().offset, Some(1296));
}

#[test]
fn full_issue_activity_history_and_related_issues() {
    let r = full();
    let i = first_issue(&r);
    assert_eq!(i.activity_history.len(), 2);
    let opened = &i.activity_history[0];
    assert_eq!(opened.date, Some(ts("2025-03-14T09:27:01Z")));
    assert_eq!(opened.history_type, Some(HistoryType::Status));
    assert_eq!(opened.exception_request_details, None);
    let ev = &i.activity_history[1];
    assert_eq!(ev.date, Some(ts("2025-03-15T11:02:44.12Z")));
    assert_eq!(ev.title.as_deref(), Some("Exception requested"));
    assert_eq!(
        ev.triage_reason.as_deref(),
        Some("FINDING_TRIAGE_REASON_ACCEPTABLE_RISK")
    );
    assert_eq!(ev.note.as_deref(), Some("Admin-only code path."));
    assert_eq!(ev.actor.as_deref(), Some("jdoe"));
    assert_eq!(ev.history_type, Some(HistoryType::ExceptionRequestCreated));
    assert_eq!(
        ev.exception_request_details,
        Some(ExceptionRequestDetails {
            action_source: Some("ACTION_SOURCE_WEB_APP".into()),
        })
    );
    assert_eq!(
        i.related_issues,
        vec![RelatedIssue {
            id: Some("1184777".into()),
            ref_: Some("refs/heads/release-2025.03".into()),
            pull_request_id: Some("1312".into()),
            aggregate_state: Some(AggregateState::Open),
            created_at: Some(ts("2025-03-16T08:00:00Z")),
        }]
    );
}

#[test]
fn full_issue_remediation() {
    let r = full();
    let rem = first_issue(&r).remediation.as_ref().unwrap();
    assert_eq!(rem.issue_id.as_deref(), Some("1184501"));
    assert!(rem.match_based_id.as_deref().unwrap().starts_with("c0ffee"));
    let fix = rem.autofix.as_ref().unwrap();
    assert_eq!(fix.id.as_deref(), Some("fix-7781"));
    assert!(fix.fix_code.as_deref().unwrap().contains("ALLOWED_KEYS"));
    assert!(
        fix.fix_diff
            .as_deref()
            .unwrap()
            .starts_with("@@ -42 +42 @@\n-")
    );
    assert!(fix.explanation.as_deref().unwrap().contains("__proto__"));
    assert!(fix.url.as_deref().unwrap().ends_with("/autofix/fix-7781"));
    let g = rem.guidance.as_ref().unwrap();
    assert_eq!(g.id.as_deref(), Some("g-4410"));
    assert!(g.summary.as_deref().unwrap().starts_with("Upgrade lodash"));
    assert_eq!(g.guidance_text.as_deref().unwrap().lines().count(), 2);
    assert_eq!(g.memory_ids_used, strings(&["mem-101"]));
}

#[test]
fn full_issue_rule_metadata_and_ticket_attempts() {
    let r = full();
    let i = first_issue(&r);
    assert_eq!(
        i.rule_references,
        strings(&[
            "https://nvd.nist.gov/vuln/detail/CVE-2020-8203",
            "https://cwe.mitre.org/data/definitions/1321.html",
        ])
    );
    assert_eq!(i.rule_cwe_names.len(), 1);
    assert!(i.rule_cwe_names[0].starts_with("CWE-1321"));
    assert!(i.rule_owasp_names[0].starts_with("A08:2021"));
    assert_eq!(
        i.rule_superseded_by,
        vec![RuleSupersededBy {
            product: Some(RuleType::Sca),
            rule_path: Some("ssc-lodash-cve-2020-8203".into()),
        }]
    );
    assert_eq!(
        i.ticket_attempts,
        vec![TicketAttempt {
            attempted_at: Some(ts("2025-03-15T12:00:00Z")),
            response_message: Some("403 Forbidden: project PAY is read-only".into()),
        }]
    );
    assert_eq!(i.sast_attributes, Some(SastAttributes {}));
}

#[test]
fn full_issue_codeowners_two_levels_deep() {
    let r = full();
    let owners = &first_issue(&r).codeowners;
    assert_eq!(owners.len(), 2);
    let team = &owners[0];
    assert_eq!(team.name.as_deref(), Some("payments-platform"));
    assert_eq!(team.is_team, Some(true));
    assert_eq!(team.members.len(), 2);
    let sub = &team.members[0];
    assert_eq!(sub.id.as_deref(), Some("team-13"));
    assert_eq!(sub.is_team, Some(true));
    let names: Vec<_> = sub
        .members
        .iter()
        .map(|m| m.name.as_deref().unwrap())
        .collect();
    assert_eq!(names, ["jdoe", "asmith"]);
    assert!(sub.members.iter().all(|m| m.is_team == Some(false)));
    assert!(sub.members.iter().all(|m| m.members.is_empty()));
    assert_eq!(team.members[1].name.as_deref(), Some("mlee"));
    assert_eq!(owners[1].id.as_deref(), Some("user-704"));
    assert_eq!(owners[1].is_team, Some(false));
}

#[test]
fn full_issue_sca_attributes() {
    let r = full();
    let sca = first_issue(&r).sca_attributes.as_ref().unwrap();
    assert_eq!(sca.severity, Some(Severity::Critical));
    assert_eq!(
        sca.vuln_database_identifier.as_deref(),
        Some("CVE-2020-8203")
    );
    assert_eq!(sca.reachability, Some(Reachability::ConditionallyReachable));
    assert!(
        sca.reachable_condition
            .as_deref()
            .unwrap()
            .contains("untrusted")
    );
    assert_eq!(sca.cwes, strings(&["CWE-1321", "CWE-770"]));
    assert_eq!(
        sca.found_dependency,
        Some(Dependency {
            package: Some("lodash".into()),
            version: Some("4.17.15".into()),
            transitivity: Some("TRANSITIVE".into()),
            lockfile_line_url: Some(
                "https://scm.example.com/acme/payments-api/blob/4b825dc/package-lock.json#L2210"
                    .into()
            ),
            file_path: Some("package-lock.json".into()),
            ecosystem: Some("npm".into()),
            manifest_file_path: Some("package.json".into()),
        })
    );
    let fixes: Vec<_> = sca.fix_recommendations.iter().map(|p| p.spec()).collect();
    assert_eq!(fixes, ["lodash@4.17.19", "lodash@4.17.21"]);
    assert_eq!(sca.best_fix.as_ref().unwrap().spec(), "lodash@4.17.21");
    let epss = sca.epss_score.as_ref().unwrap();
    assert_eq!(epss.score, Some(0.97));
    assert_eq!(epss.percentile, Some(0.5));
    assert_eq!(epss.updated_at, Some(ts("2025-03-13T00:00:00Z")));
    assert_eq!(
        epss.categorization.as_deref(),
        Some("EPSS_PROBABILITY_HIGH")
    );
    assert_eq!(sca.rule_publish_date, Some(ts("2020-07-15T17:15:00Z")));
    assert_eq!(sca.sca_rule_kind, Some(ScaRuleKind::Reachable));
    let mi = sca.sca_match_info.as_ref().unwrap();
    assert_eq!(mi.match_kind.as_deref(), Some("MATCH_KIND_TRANSITIVE"));
    assert_eq!(mi.analyzed_packages.len(), 1);
    assert_eq!(
        mi.analyzed_packages[0].package.as_deref(),
        Some("express-settings")
    );
    assert_eq!(
        mi.analyzed_packages[0].transitivity.as_deref(),
        Some("DIRECT")
    );
    assert_eq!(
        mi.analyzed_packages[0].manifest_file_path.as_deref(),
        Some("package.json")
    );
    let tm = &mi.transitive_matches[0];
    assert_eq!(tm.line, Some(88));
    assert_eq!(
        tm.path.as_deref(),
        Some("node_modules/express-settings/lib/apply.js")
    );
    assert_eq!(
        tm.dependency.as_ref().unwrap().version.as_deref(),
        Some("2.1.0")
    );
    assert_eq!(
        sca.introduced_by,
        vec![PackageVersion {
            package: Some("express-settings".into()),
            version: Some("2.1.0".into()),
        }]
    );
}

#[test]
fn full_issue_secrets_attributes() {
    let r = full();
    let s = first_issue(&r).secrets_attributes.as_ref().unwrap();
    assert_eq!(s.validation_state, Some(ValidationState::ConfirmedInvalid));
    assert_eq!(s.secret_type.as_deref(), Some("Generic API Key"));
    assert_eq!(
        s.historical_info,
        Some(HistoricalInfo {
            git_commit: Some("e69de29bb2d1d6434b8b29ae775ad8c2e48c5391".into()),
            git_commit_timestamp: Some(ts("2024-11-02T22:10:05Z")),
            git_blob: Some("2b1d8f0c7a0e4c3d9b6a5f4e3d2c1b0a99887766".into()),
        })
    );
}

#[test]
fn full_issue_single_fetch_fields_and_exception_request() {
    let r = full();
    let i = first_issue(&r);
    assert_eq!(i.code_snippets.len(), 2);
    assert_eq!(
        i.code_snippets[1].path.as_deref(),
        Some("src/routes/settings.js")
    );
    assert_eq!(
        i.code_snippets[0]
            .content
            .as_deref()
            .unwrap()
            .lines()
            .count(),
        3
    );
    let rx = i.rule_explanation.as_ref().unwrap();
    assert_eq!(rx.id.as_deref(), Some("rx-2201"));
    assert_eq!(
        rx.summary.as_deref(),
        Some("User input flows into a deep merge.")
    );
    assert!(
        rx.explanation
            .as_deref()
            .unwrap()
            .contains("Object.prototype")
    );
    assert_eq!(
        i.ai_exploit_conditions,
        vec![
            AiExploitCondition {
                description: Some("The settings endpoint accepts unauthenticated requests.".into()),
                confirmed: Some(false),
            },
            AiExploitCondition {
                description: Some("lodash < 4.17.19 is loaded at runtime.".into()),
                confirmed: Some(true),
            },
        ]
    );
    assert_eq!(
        i.exception_request,
        Some(ExceptionRequest {
            exception_state: Some(ExceptionState::Approved),
            requester_login: Some("jdoe".into()),
            requester_name: Some("Jane Doe".into()),
            requester_note: Some("Admin-only code path; upgrade scheduled.".into()),
            requester_triage_reason: Some(TriageReason::AcceptableRisk),
            requester_action_source: Some("ACTION_SOURCE_WEB_APP".into()),
            reviewer_login: Some("secops-lead".into()),
            reviewer_name: Some("Sam Ortiz".into()),
            request_id: Some("exr-4501".into()),
            review_id: Some("exv-4502".into()),
            issue_id: Some("1184501".into()),
            created_at: Some(ts("2025-03-15T11:02:44.120Z")),
            reviewed_at: Some(ts("2025-03-15T16:45:00Z")),
        })
    );
}

// ---------------------------------------------------------------------------
// 11. Round trip
// ---------------------------------------------------------------------------

fn round_trip<T>(name: &str)
where
    T: DeserializeOwned + serde::Serialize + PartialEq + std::fmt::Debug,
{
    let first: T = load(name);
    let bytes = serde_json::to_vec(&first).unwrap();
    let second: T =
        decode(&bytes, JSON).unwrap_or_else(|e| panic!("{name}: re-decoding failed: {e}"));
    assert_eq!(first, second, "{name}: round trip changed the value");
    // And once more: the written form is stable.
    assert_eq!(bytes, serde_json::to_vec(&second).unwrap(), "{name}");
}

#[test]
fn round_trip_list_issues_full() {
    round_trip::<ListIssuesResponse>("list_issues_full.json");
}

#[test]
fn round_trip_other_responses() {
    round_trip::<ReportResponse>("report.json");
    round_trip::<SearchIssuesResponse>("search.json");
    round_trip::<ScmConfigResponse>("scm_config.json");
    round_trip::<ListIssuesResponse>("long_and_wide.json");
    round_trip::<ListIssuesResponse>("control_chars.json");
    round_trip::<ListIssuesResponse>("timestamps.json");
}

// ---------------------------------------------------------------------------
// 2. int64 as numbers or strings (docs/src/api.md §3)
// ---------------------------------------------------------------------------

#[test]
fn int64_numbers_and_strings_decode_alike() {
    let as_strings: Sections = load("numbers_as_strings.json");
    let as_numbers: Sections = load("strings_as_numbers.json");
    for s in [&as_strings, &as_numbers] {
        let list = section(&s.list_issues, "listIssues");
        let item = &list.issues[0];
        assert_eq!(item.review_count, Some(3));
        assert_eq!(item.triage_count, Some(1));
        assert_eq!(item.ai_silenced_count, Some(0));
        let i = item.issue.as_ref().unwrap();
        assert_eq!(
            (i.line, i.end_line, i.column, i.end_column),
            (Some(42), Some(45), Some(5), Some(61))
        );
        let trace = i.dataflow_trace.as_ref().unwrap();
        assert_eq!(
            trace.taint_source[0].start,
            Some(Position {
                line: Some(30),
                col: Some(12),
                offset: Some(804),
            })
        );
        assert_eq!(trace.taint_sink[0].end.as_ref().unwrap().offset, Some(1377));
        let sca = i.sca_attributes.as_ref().unwrap();
        let epss = sca.epss_score.as_ref().unwrap();
        assert_eq!(epss.score, Some(0.00043));
        assert_eq!(epss.percentile, Some(0.0912));
        assert_eq!(
            sca.sca_match_info.as_ref().unwrap().transitive_matches[0].line,
            Some(118)
        );

        let report = section(&s.report, "report");
        // Beyond 2^53: must not pass through a float.
        assert_eq!(report.total, Some(9_007_199_254_740_993));
        assert_eq!(report.total_code, Some(12));
        assert_eq!(report.total_sca, Some(-1));
        assert_eq!(report.total_secrets, Some(0));
        assert_eq!(report.findings[0].line, Some(42));

        let search = section(&s.search, "search");
        assert_eq!(search.total, Some(12));
    }
    assert_eq!(as_strings.list_issues, as_numbers.list_issues);
    assert_eq!(as_strings.report, as_numbers.report);
    assert_eq!(as_strings.search, as_numbers.search);
}

#[test]
fn int64_written_back_in_the_platform_form() {
    let s: Sections = load("strings_as_numbers.json");
    let list = serde_json::to_value(section(&s.list_issues, "listIssues")).unwrap();
    // As the published schema has them: counters, positions and Search's
    // total are strings; line and the report's totals are numbers.
    assert_eq!(list["issues"][0]["reviewCount"], "3");
    assert_eq!(list["issues"][0]["issue"]["line"], 42);
    assert_eq!(
        list["issues"][0]["issue"]["dataflowTrace"]["taintSource"][0]["start"]["offset"],
        "804"
    );
    let report = serde_json::to_value(section(&s.report, "report")).unwrap();
    assert_eq!(report["total"], 9007199254740993i64);
    let search = serde_json::to_value(section(&s.search, "search")).unwrap();
    assert_eq!(search["total"], "12");
}

#[test]
fn int64_edge_forms() {
    // Extremes of int64, both ways.
    let r: ReportResponse = decode_ok(
        r#"{"total":"9223372036854775807","totalCode":-9223372036854775808,"totalSca":" 7 ","totalSecrets":""}"#,
    );
    assert_eq!(r.total, Some(i64::MAX));
    assert_eq!(r.total_code, Some(i64::MIN));
    assert_eq!(r.total_sca, Some(7));
    // "" is the protobuf default (docs/src/api.md §5): absent.
    assert_eq!(r.total_secrets, None);
    // An integral float is an integer.
    let l: ListIssuesResponse = decode_ok(r#"{"issues":[{"issue":{"line":42.0}}]}"#);
    assert_eq!(first_issue(&l).line, Some(42));

    // Not integers: errors naming the field.
    for (body, path) in [
        (
            r#"{"issues":[{"issue":{"line":4.5}}]}"#,
            "issues[0].issue.line",
        ),
        (
            r#"{"issues":[{"reviewCount":"3x"}]}"#,
            "issues[0].reviewCount",
        ),
        (
            r#"{"issues":[{"issue":{"endColumn":"9223372036854775808"}}]}"#,
            "issues[0].issue.endColumn",
        ),
        (
            r#"{"issues":[{"issue":{"line":18446744073709551615}}]}"#,
            "issues[0].issue.line",
        ),
        (
            r#"{"issues":[{"issue":{"dataflowTrace":{"taintSink":[{"start":{"col":true}}]}}}]}"#,
            "issues[0].issue.dataflowTrace.taintSink[0].start.col",
        ),
    ] {
        assert_eq!(
            decode_err_path::<ListIssuesResponse>(body.as_bytes()),
            path,
            "{body}"
        );
    }
    assert_eq!(
        decode_err_path::<ReportResponse>(br#"{"total":[1]}"#),
        "total"
    );
    assert_eq!(
        decode_err_path::<ReportResponse>(
            br#"{"findings":[{"scaAttributes":{"epssScore":{"score":"high"}}}]}"#
        ),
        "findings[0].scaAttributes.epssScore.score"
    );
}

// ---------------------------------------------------------------------------
// 3. Unknown enum values (docs/src/api.md §4)
// ---------------------------------------------------------------------------

/// The value is `Other(raw)`, shows as `raw`, writes back as `raw`.
macro_rules! assert_unknown {
    ($ty:ident, $value:expr, $raw:expr) => {{
        let raw: &str = $raw;
        let v: &$ty = $value.expect(concat!(stringify!($value), " is absent"));
        assert_eq!(v, &$ty::Other(raw.to_owned()), "{}", stringify!($value));
        assert_eq!(v.as_wire(), raw);
        assert_eq!(v.label(), raw);
        assert_eq!(v.to_string(), raw);
        assert!(!v.is_known());
        assert_eq!(&$ty::from_wire(raw), v);
        assert!(!$ty::ALL.contains(v));
        assert_eq!(
            serde_json::to_value(v).unwrap(),
            Value::String(raw.to_owned())
        );
    }};
}

/// The `listIssues` section of `unknown_enums.json`.
fn unknown_list_issues() -> ListIssuesResponse {
    let s: Sections = load("unknown_enums.json");
    s.list_issues
        .unwrap_or_else(|| panic!("section listIssues missing"))
}

#[test]
fn unknown_enums_in_list_issues_are_kept() {
    let list = unknown_list_issues();
    let i = first_issue(&list);
    assert_unknown!(IssueStatus, i.status.as_ref(), "ISSUE_STATUS_QUARANTINED");
    assert_unknown!(Severity, i.severity.as_ref(), "SEVERITY_CATASTROPHIC");
    assert_unknown!(Confidence, i.confidence.as_ref(), "CONFIDENCE_CERTAIN");
    assert_unknown!(
        TriageState,
        i.triage_state.as_ref(),
        "FINDING_TRIAGE_STATE_ESCALATED"
    );
    assert_unknown!(
        TriageReason,
        i.triage_reason.as_ref(),
        "FINDING_TRIAGE_REASON_WONT_FIX"
    );
    assert_unknown!(
        AggregateState,
        i.aggregate_state.as_ref(),
        "AGGREGATE_ISSUE_STATE_SNOOZED"
    );
    assert_unknown!(
        RuleOrigin,
        i.rule_origin.as_ref(),
        "RULE_ORIGIN_MARKETPLACE"
    );
    assert_unknown!(IssueType, i.issue_type.as_ref(), "ISSUE_TYPE_IAC");
    assert_unknown!(
        TriagePermission,
        i.triage_permission.as_ref(),
        "TRIAGE_PERMISSION_ESCALATE"
    );
    let repo = i.repository.as_ref().unwrap();
    assert_unknown!(ScmType, repo.scm_type.as_ref(), "SCM_TYPE_HOST_F");
    let at = i.autotriage.as_ref().unwrap();
    assert_unknown!(Verdict, at.verdict.as_ref(), "VERDICT_NEEDS_HUMAN");
    assert_eq!(
        at.feedback.as_ref().unwrap().rating.as_deref(),
        Some("RATING_MEH")
    );
    assert_unknown!(
        Sensitivity,
        i.ai_tags.as_ref().unwrap().sensitivity.as_ref(),
        "SENSITIVITY_EXTREME_SENSITIVITY"
    );
}

#[test]
fn unknown_enums_in_list_issues_history_and_related_are_kept() {
    let list = unknown_list_issues();
    let i = first_issue(&list);
    let ev = &i.activity_history[0];
    assert_unknown!(
        HistoryType,
        ev.history_type.as_ref(),
        "HISTORY_TYPE_SLA_BREACHED"
    );
    assert_eq!(
        ev.exception_request_details
            .as_ref()
            .unwrap()
            .action_source
            .as_deref(),
        Some("ACTION_SOURCE_CHAT_BOT")
    );
    assert_unknown!(
        AggregateState,
        i.related_issues[0].aggregate_state.as_ref(),
        "AGGREGATE_ISSUE_STATE_MERGED"
    );
    assert_unknown!(
        RuleType,
        i.rule_superseded_by[0].product.as_ref(),
        "RULE_TYPE_IAC"
    );
}

#[test]
fn unknown_enums_in_list_issues_sca_and_secrets_are_kept() {
    let list = unknown_list_issues();
    let i = first_issue(&list);
    let sca = i.sca_attributes.as_ref().unwrap();
    assert_unknown!(Severity, sca.severity.as_ref(), "SEVERITY_SEVERE");
    assert_unknown!(
        Reachability,
        sca.reachability.as_ref(),
        "REACHABILITY_PARTIALLY_REACHABLE"
    );
    assert_unknown!(
        ScaRuleKind,
        sca.sca_rule_kind.as_ref(),
        "SCA_RULE_KIND_LICENSE"
    );
    let dep = sca.found_dependency.as_ref().unwrap();
    assert_eq!(
        dep.transitivity.as_deref(),
        Some("TRANSITIVITY_UNDETERMINED")
    );
    assert_eq!(dep.ecosystem.as_deref(), Some("ECOSYSTEM_SWIFTPM"));
    assert_eq!(
        sca.epss_score.as_ref().unwrap().categorization.as_deref(),
        Some("EPSS_PROBABILITY_EXTREME")
    );
    assert_eq!(
        sca.sca_match_info.as_ref().unwrap().match_kind.as_deref(),
        Some("MATCH_KIND_FUZZY")
    );
    assert_unknown!(
        ValidationState,
        i.secrets_attributes
            .as_ref()
            .unwrap()
            .validation_state
            .as_ref(),
        "VALIDATION_STATE_RATE_LIMITED"
    );
}

#[test]
fn unknown_enums_in_list_issues_exception_request_are_kept() {
    let list = unknown_list_issues();
    let i = first_issue(&list);
    let ex = i.exception_request.as_ref().unwrap();
    assert_unknown!(
        ExceptionState,
        ex.exception_state.as_ref(),
        "FINDING_EXCEPTION_REQUEST_STATE_EXPIRED"
    );
    assert_unknown!(
        TriageReason,
        ex.requester_triage_reason.as_ref(),
        "FINDING_TRIAGE_REASON_DUPLICATE_OF_TICKET"
    );
    assert_eq!(
        ex.requester_action_source.as_deref(),
        Some("ACTION_SOURCE_API")
    );
}

/// The protobuf numeric form of an enum is kept as its decimal text.
#[test]
fn numeric_enum_in_list_issues_is_kept_as_text() {
    let list = unknown_list_issues();
    let numeric = list.issues[1].issue.as_ref().unwrap();
    assert_unknown!(Severity, numeric.severity.as_ref(), "7");
    assert_eq!(numeric.severity.as_ref().unwrap().rank(), 5);
    assert_eq!(numeric.status, Some(IssueStatus::Unresolved));
}

#[test]
fn unknown_enums_in_report_search_and_scm_are_kept() {
    let s: Sections = load("unknown_enums.json");
    let report = section(&s.report, "report");
    let f = &report.findings[0];
    assert_unknown!(IssueType, f.issue_type.as_ref(), "ISSUE_TYPE_CONTAINER");
    assert_unknown!(Severity, f.severity.as_ref(), "SEVERITY_URGENT");
    assert_unknown!(
        AggregateState,
        f.aggregate_state.as_ref(),
        "AGGREGATE_ISSUE_STATE_ARCHIVED"
    );
    assert_unknown!(Confidence, f.confidence.as_ref(), "CONFIDENCE_UNSPECIFIED");

    let req = section(&s.report_request, "reportRequest");
    assert_unknown!(
        ReportType,
        req.report_type.as_ref(),
        "REPORT_TYPE_TOTAL_SNOOZED"
    );
    assert_unknown!(
        AggregateState,
        req.finding_state.as_ref(),
        "AGGREGATE_ISSUE_STATE_SNOOZED"
    );
    let filters = req.filters.as_ref().unwrap();
    assert_unknown!(
        TimeBucketSize,
        filters.time_bucket_size.as_ref(),
        "TIME_BUCKET_SIZE_QUARTER"
    );
    assert_eq!(filters.finding_types[0], FindingType::Code);
    assert_unknown!(
        FindingType,
        filters.finding_types.get(1),
        "FINDING_TYPE_IAC"
    );
    assert_unknown!(
        FindingSeverity,
        filters.finding_severities.first(),
        "FINDING_SEVERITY_BLOCKER"
    );
    assert_unknown!(
        FindingConfidence,
        filters.confidence.first(),
        "FINDING_CONFIDENCE_CERTAIN"
    );
    assert_unknown!(
        FindingReachability,
        filters.reachability.first(),
        "FINDING_REACHABILITY_MAYBE"
    );
    assert_unknown!(
        FindingValidity,
        filters.validity.first(),
        "FINDING_VALIDITY_EXPIRED"
    );
    assert_unknown!(Verdict, filters.ai_verdicts.first(), "VERDICT_NEEDS_HUMAN");
    assert_unknown!(
        DeploymentStatus,
        filters.deployment_statuses.first(),
        "DEPLOYMENT_STATUS_STAGING"
    );
    assert_unknown!(
        PublicExposure,
        filters.public_exposures.first(),
        "PUBLIC_EXPOSURE_PARTNER_ONLY"
    );

    let search = section(&s.search, "search");
    let a = &search.issues[0];
    assert_unknown!(
        DetectionState,
        a.detection_state.as_ref(),
        "DETECTION_STATE_FLAKY"
    );
    assert_unknown!(Severity, a.severity.as_ref(), "SEVERITY_NOTICE");
    assert_unknown!(
        AgenticTriageState,
        a.triage_state.as_ref(),
        "TRIAGE_STATE_ESCALATED"
    );
    assert_unknown!(
        AgenticTriageReason,
        a.triage_reason.as_ref(),
        "TRIAGE_REASON_BY_DESIGN"
    );

    let cfg = section(&s.scm_config, "scmConfig").config.as_ref().unwrap();
    assert_unknown!(ScmType, cfg.scm_type.as_ref(), "SCM_TYPE_HOST_Z_ONPREM");
    assert_unknown!(
        HostAEntityType,
        cfg.host_a_entity_type.as_ref(),
        "HOST_A_ENTITY_TYPE_TEAM"
    );
    assert_unknown!(
        ScmType,
        cfg.app.as_ref().unwrap().scm_type.as_ref(),
        "SCM_TYPE_HOST_Z_ONPREM"
    );
}

/// Writing every decoded section back gives the exact raw names of the
/// fixture (the numeric enum form comes back as its decimal text).
#[test]
fn unknown_enums_are_written_back_verbatim() {
    let s: Sections = load("unknown_enums.json");
    let mut fx = fixture_value("unknown_enums.json");
    fx["listIssues"]["issues"][1]["issue"]["severity"] = Value::String("7".into());
    let pairs = [
        ("listIssues", serde_json::to_value(&s.list_issues).unwrap()),
        ("report", serde_json::to_value(&s.report).unwrap()),
        (
            "reportRequest",
            serde_json::to_value(&s.report_request).unwrap(),
        ),
        ("search", serde_json::to_value(&s.search).unwrap()),
        ("scmConfig", serde_json::to_value(&s.scm_config).unwrap()),
    ];
    for (key, written) in pairs {
        let mut diffs = Vec::new();
        diff_paths(&fx[key], &written, key, &mut diffs);
        assert!(diffs.is_empty(), "{}", diffs.join("\n"));
    }
}

#[test]
fn known_enum_names_are_exact_and_case_sensitive() {
    // A known name in another case is not that value: kept raw, not guessed.
    let r: ListIssuesResponse = decode_ok(r#"{"issues":[{"issue":{"severity":"severity_high"}}]}"#);
    assert_unknown!(Severity, first_issue(&r).severity.as_ref(), "severity_high");
    for v in Severity::ALL {
        assert_eq!(&Severity::from_wire(v.as_wire()), v);
        assert!(v.is_known());
    }
}

// ---------------------------------------------------------------------------
// 4. null everywhere (docs/src/api.md §5)
// ---------------------------------------------------------------------------

#[test]
fn nulls_decode_as_absent_or_empty() {
    let s: Sections = load("nulls.json");
    let list = section(&s.list_issues, "listIssues");
    assert_eq!(list.cursor, None);
    assert_eq!(list.issues.len(), 2);

    // Every Issue field null: exactly the empty Issue.
    let item = &list.issues[0];
    assert_eq!(item.issue, Some(Issue::default()));
    assert_eq!(
        item,
        &IssueItem {
            issue: Some(Issue::default()),
            ..IssueItem::default()
        }
    );
}

/// Every field of every nested object null: each object is its empty value.
#[test]
fn nulls_in_nested_objects_decode_as_empty() {
    let s: Sections = load("nulls.json");
    let list = section(&s.list_issues, "listIssues");
    let i = list.issues[1].issue.as_ref().unwrap();
    assert_eq!(i.id(), "4002");
    assert_eq!(
        i.repository,
        Some(Repository {
            primary_ref: Some(PrimaryRef::default()),
            ..Repository::default()
        })
    );
    assert_eq!(i.first_seen_scan, Some(Scan::default()));
    assert_eq!(i.external_ticket, Some(ExternalTicket::default()));
    assert_eq!(
        i.autotriage,
        Some(Autotriage {
            feedback: Some(AutotriageFeedback::default()),
            ..Autotriage::default()
        })
    );
    assert_eq!(i.ai_tags, Some(AiTags::default()));
    assert_eq!(
        i.dataflow_trace,
        Some(DataflowTrace {
            taint_source: vec![Location {
                start: Some(Position::default()),
                ..Location::default()
            }],
            ..DataflowTrace::default()
        })
    );
    assert_eq!(
        i.activity_history,
        vec![ActivityEvent {
            exception_request_details: Some(ExceptionRequestDetails::default()),
            ..ActivityEvent::default()
        }]
    );
    assert_eq!(i.related_issues, vec![RelatedIssue::default()]);
    assert_eq!(
        i.remediation,
        Some(Remediation {
            autofix: Some(Autofix::default()),
            guidance: Some(Guidance::default()),
            ..Remediation::default()
        })
    );
    assert_eq!(i.rule_superseded_by, vec![RuleSupersededBy::default()]);
    assert_eq!(i.ticket_attempts, vec![TicketAttempt::default()]);
    assert_eq!(
        i.sca_attributes,
        Some(ScaAttributes {
            found_dependency: Some(Dependency::default()),
            best_fix: Some(PackageVersion::default()),
            epss_score: Some(EpssScore::default()),
            sca_match_info: Some(ScaMatchInfo {
                transitive_matches: vec![TransitiveMatch::default()],
                ..ScaMatchInfo::default()
            }),
            ..ScaAttributes::default()
        })
    );
    assert_eq!(
        i.secrets_attributes,
        Some(SecretsAttributes {
            historical_info: Some(HistoricalInfo::default()),
            ..SecretsAttributes::default()
        })
    );
    assert_eq!(i.codeowners, vec![Codeowner::default()]);
    assert_eq!(i.code_snippets, vec![CodeSnippet::default()]);
    assert_eq!(i.rule_explanation, Some(RuleExplanation::default()));
    assert_eq!(i.ai_exploit_conditions, vec![AiExploitCondition::default()]);
    assert_eq!(i.exception_request, Some(ExceptionRequest::default()));
    assert_eq!(
        list.issues[1].all_review_comments,
        vec![ReviewComment::default()]
    );
}

#[test]
fn nulls_in_the_other_sections_decode_as_absent_or_empty() {
    let s: Sections = load("nulls.json");
    assert_eq!(
        section(&s.list_issues_no_items, "listIssuesNoItems"),
        &ListIssuesResponse::default()
    );
    assert_eq!(section(&s.report, "report"), &ReportResponse::default());
    let search = section(&s.search, "search");
    assert_eq!(search.issues, vec![AgenticIssue::default()]);
    assert_eq!((search.total, search.cursor.as_deref()), (None, None));

    let cfg = section(&s.scm_config, "scmConfig").config.as_ref().unwrap();
    assert_eq!(
        cfg,
        &ScmConfig {
            app: Some(ScmApp::default()),
            status: Some(ScmStatus::default()),
            token_scopes: Some(TokenScopes::default()),
            subscriptions: vec![Subscription::default()],
            auto_scan_settings: Some(AutoScanSettings::default()),
            ..ScmConfig::default()
        }
    );
    assert!(
        cfg.token_scopes
            .as_ref()
            .unwrap()
            .entries()
            .iter()
            .all(|(_, on)| !on)
    );
    assert_eq!(
        section(&s.scm_config_null, "scmConfigNull"),
        &ScmConfigResponse::default()
    );
}

// ---------------------------------------------------------------------------
// 5. Missing and extra fields (docs/src/api.md §5)
// ---------------------------------------------------------------------------

#[test]
fn missing_and_extra_fields_decode() {
    let s: Sections = load("missing_and_extra.json");
    let list = section(&s.list_issues, "listIssues");
    assert_eq!(list.cursor.as_deref(), Some("next-page"));
    assert_eq!(list.issues.len(), 3);
    assert_eq!(list.issues[0], IssueItem::default());
    assert_eq!(list.issues[1].issue, Some(Issue::default()));

    let item = &list.issues[2];
    assert_eq!(item.review_count, Some(1));
    assert_eq!(
        item.all_review_comments[0].thread_id.as_deref(),
        Some("th-1")
    );
    let i = item.issue.as_ref().unwrap();
    assert_eq!(i.id(), "5003");
    assert_eq!(i.severity, Some(Severity::Low));
    let repo = i.repository.as_ref().unwrap();
    assert_eq!(repo.scm_type, Some(ScmType::HostC));
    assert_eq!(
        repo.primary_ref.as_ref().unwrap().ref_.as_deref(),
        Some("refs/heads/trunk")
    );
    assert_eq!(
        i.external_ticket.as_ref().unwrap().url.as_deref(),
        Some("https://t.example.com/X-1")
    );
    let at = i.autotriage.as_ref().unwrap();
    assert_eq!(at.verdict, Some(Verdict::FalsePositive));
    assert_eq!(
        at.feedback.as_ref().unwrap().rating.as_deref(),
        Some("RATING_BAD")
    );
    let src = &i.dataflow_trace.as_ref().unwrap().taint_source[0];
    assert_eq!(src.end.as_ref().unwrap().offset, Some(10));
    assert_eq!(
        i.activity_history[0].history_type,
        Some(HistoryType::Triage)
    );
    let rem = i.remediation.as_ref().unwrap();
    assert_eq!(rem.autofix.as_ref().unwrap().id.as_deref(), Some("f-1"));
    assert_eq!(
        rem.guidance.as_ref().unwrap().summary.as_deref(),
        Some("Escape output.")
    );
    assert_eq!(i.sast_attributes, Some(SastAttributes {}));
    let sca = i.sca_attributes.as_ref().unwrap();
    assert_eq!(sca.best_fix.as_ref().unwrap().spec(), "left-pad@1.3.0");
    assert_eq!(sca.epss_score.as_ref().unwrap().score, Some(0.01));
    let tm = &sca.sca_match_info.as_ref().unwrap().transitive_matches[0];
    assert_eq!((tm.path.as_deref(), tm.line), (Some("p"), Some(3)));
    assert_eq!(
        i.secrets_attributes
            .as_ref()
            .unwrap()
            .historical_info
            .as_ref()
            .unwrap()
            .git_commit
            .as_deref(),
        Some("abc")
    );
    assert_eq!(i.codeowners[0].members[0].name.as_deref(), Some("jdoe"));
    assert_eq!(
        i.exception_request.as_ref().unwrap().exception_state,
        Some(ExceptionState::Requested)
    );

    let report = section(&s.report, "report");
    assert_eq!(report.findings.len(), 2);
    assert_eq!(report.findings[0], Issue::default());
    assert_eq!(report.total, None);

    let search = section(&s.search, "search");
    assert_eq!(search.issues[0], AgenticIssue::default());
    assert_eq!(search.issues[1].id.as_deref(), Some("wf-5"));

    let cfg = section(&s.scm_config, "scmConfig").config.as_ref().unwrap();
    assert_eq!(cfg.id.as_deref(), Some("cfg-5"));
    assert_eq!(cfg.status.as_ref().unwrap().ok, Some(true));
    assert_eq!(cfg.token_scopes.as_ref().unwrap().read_metadata, Some(true));
    assert_eq!(cfg.subscriptions[0].events, strings(&["push"]));
    assert_eq!(
        cfg.auto_scan_settings.as_ref().unwrap().diff_enabled,
        Some(true)
    );
    assert_eq!(
        section(&s.scm_config_empty, "scmConfigEmpty"),
        &ScmConfigResponse::default()
    );
}

#[test]
fn empty_objects_decode_as_empty_responses() {
    assert_eq!(
        decode_ok::<ListIssuesResponse>("{}"),
        ListIssuesResponse::default()
    );
    assert_eq!(decode_ok::<ReportResponse>("{}"), ReportResponse::default());
    assert_eq!(
        decode_ok::<SearchIssuesResponse>(" \n{ }\n"),
        SearchIssuesResponse::default()
    );
    assert_eq!(
        decode_ok::<ScmConfigResponse>("{}"),
        ScmConfigResponse::default()
    );
    assert_eq!(
        decode_ok::<ListIssuesResponse>(r#"{"issues":[],"cursor":""}"#),
        ListIssuesResponse {
            cursor: Some(String::new()),
            ..ListIssuesResponse::default()
        }
    );
}

// ---------------------------------------------------------------------------
// 6. Control characters: verbatim in the model, harmless through `one_line`
// ---------------------------------------------------------------------------

fn is_c1(c: char) -> bool {
    ('\u{80}'..='\u{9f}').contains(&c)
}

fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}')
}

fn assert_terminal_safe(raw: &str) {
    let shown = one_line(raw);
    assert!(!shown.contains('\u{1b}'), "ESC survives in {shown:?}");
    assert!(!shown.chars().any(is_c1), "C1 survives in {shown:?}");
    assert!(
        !shown.chars().any(is_bidi_control),
        "bidi control survives in {shown:?}"
    );
    assert!(
        !shown.chars().any(char::is_control),
        "control survives in {shown:?}"
    );
    assert!(!shown.contains('\u{200b}'), "zero-width space survives");
}

#[test]
fn control_characters_decode_verbatim() {
    let r: ListIssuesResponse = load("control_chars.json");
    let i = first_issue(&r);
    assert_eq!(
        i.message.as_deref(),
        Some(
            "Hardcoded credential\u{1b}[31m RED \u{1b}[0m\u{1b}]0;pwned title\u{7} then CSI\u{9b}2J \
             and bidi \u{202e}txt.exe\u{202c} zero\u{200b}width NUL\u{0}end"
        )
    );
    assert_eq!(
        i.file_path.as_deref(),
        Some("src/\u{1b}[2Jevil\u{202e}gnp.js")
    );
    assert_eq!(
        i.repository_name(),
        "acme/\u{1b}]8;;https://evil.example.com\u{7}click\u{1b}]8;;\u{7}"
    );
    assert_eq!(i.rule_id.as_deref(), Some("rule\u{0}id\u{85}next"));
    assert_eq!(i.note.as_deref(), Some("line1\nline2\r\n\ttabbed\u{7f}DEL"));
    assert_eq!(
        i.code_snippets[0].content.as_deref(),
        Some("a\u{1b}Pq#0;2;0;0;0\u{1b}\\ sixel\u{90}DCS\u{9c}")
    );
    assert_eq!(
        i.code_snippets[0].path.as_deref(),
        Some("src/\u{202e}evil.js")
    );
    assert_eq!(
        i.activity_history[0].actor.as_deref(),
        Some("\u{200b}\u{200b}")
    );
    assert_eq!(r.cursor.as_deref(), Some("\u{1b}[31mcursor"));

    // Raw UTF-8 (not \u escapes) C1 and bidi characters, too.
    let raw = r.issues[1]
        .issue
        .as_ref()
        .unwrap()
        .message
        .as_deref()
        .unwrap();
    assert_eq!(
        raw,
        "raw UTF-8: C1 CSI \u{9b}2J, PAD \u{80}, APC \u{9f}, RLO \u{202e}, LRI \u{2066}, \
         PDI \u{2069}, ZWJ \u{200d}, BOM \u{feff}"
    );
}

#[test]
fn control_characters_are_neutralised_by_one_line() {
    let r: ListIssuesResponse = load("control_chars.json");
    let i = first_issue(&r);
    let second = r.issues[1].issue.as_ref().unwrap();
    let fields = [
        i.message.as_deref().unwrap(),
        i.file_path.as_deref().unwrap(),
        i.repository_name(),
        i.rule_id.as_deref().unwrap(),
        i.note.as_deref().unwrap(),
        i.code_snippet.as_deref().unwrap(),
        i.code_snippets[0].path.as_deref().unwrap(),
        i.code_snippets[0].content.as_deref().unwrap(),
        i.activity_history[0].title.as_deref().unwrap(),
        i.activity_history[0].actor.as_deref().unwrap(),
        i.rule_references[0].as_str(),
        second.message.as_deref().unwrap(),
        r.cursor.as_deref().unwrap(),
    ];
    for raw in fields {
        assert_terminal_safe(raw);
    }
    // The readable part of the message survives.
    let shown = one_line(i.message.as_deref().unwrap());
    assert!(shown.starts_with("Hardcoded credential"), "{shown}");
    assert!(shown.contains("txt.exe"), "{shown}");
    assert!(shown.ends_with("end"), "{shown}");
}

// ---------------------------------------------------------------------------
// 7. Long and wide text
// ---------------------------------------------------------------------------

#[test]
fn long_and_wide_values_keep_their_lengths() {
    let r: ListIssuesResponse = load("long_and_wide.json");
    let long = first_issue(&r).message.as_deref().unwrap();
    assert_eq!(long.chars().count(), 100_000);
    assert!(long.starts_with("Unsanitised input reaches the SQL query builder (注入); "));

    let wide = r.issues[1].issue.as_ref().unwrap();
    let msg = wide.message.as_deref().unwrap();
    assert_eq!(msg.chars().count(), 110);
    assert!(msg.starts_with("用户输入未经验证直接拼接到SQL查询中 🔥🔥"));
    assert!(msg.contains("👩\u{200d}💻"));
    assert!(msg.contains("🇯🇵"));
    assert!(msg.contains("𠜎𠜱𠝹𠱓"));
    assert_eq!(
        wide.file_path.as_deref(),
        Some("服务/用户管理/控制器/用户控制器🚀.ts")
    );
    assert_eq!(wide.repository_name(), "アクメ/決済-api");
    assert_eq!(wide.codeowners[0].name.as_deref(), Some("チーム決済 💳"));
    assert_eq!(r.issues[1].all_refs, strings(&["refs/heads/功能/登录"]));

    assert_eq!(wide.rule_references.len(), 5_000);
    assert_eq!(
        wide.rule_references[0],
        "https://advisories.example.com/GHSA-0000-x00q-0000"
    );
    assert_eq!(
        wide.rule_references[4_999],
        "https://advisories.example.com/GHSA-4999-x52q-7081"
    );
    let distinct: std::collections::HashSet<_> = wide.rule_references.iter().collect();
    assert_eq!(distinct.len(), 5_000);

    // A JSON surrogate pair escape decodes to the astral character.
    assert_eq!(r.cursor.as_deref(), Some("🚀"));
}

// ---------------------------------------------------------------------------
// 8. Report, Search issues and SCM config responses
// ---------------------------------------------------------------------------

#[test]
fn report_response_with_string_totals() {
    let r: ReportResponse = load("report.json");
    assert_eq!(r.total, Some(1234));
    assert_eq!(r.total_code, Some(1000));
    assert_eq!(r.total_sca, Some(200));
    assert_eq!(r.total_secrets, Some(34));
    assert_eq!(r.cursor.as_deref(), Some("cmVwb3J0OjM"));
    assert_eq!(r.findings.len(), 3);
    let sast = &r.findings[0];
    assert_eq!(sast.issue_type, Some(IssueType::Sast));
    assert_eq!(sast.severity, Some(Severity::Critical));
    assert_eq!(sast.rule_origin, Some(RuleOrigin::Community));
    assert_eq!(
        sast.repository.as_ref().unwrap().scm_type,
        Some(ScmType::HostCDatacenter)
    );
    assert_eq!(sast.sast_attributes, Some(SastAttributes {}));
    assert_eq!(sast.location(), "shop/views/search.py:58");
    let sca = &r.findings[1];
    assert_eq!(
        sca.aggregate_state,
        Some(AggregateState::ProvisionallyIgnoredApp)
    );
    let attrs = sca.sca_attributes.as_ref().unwrap();
    assert_eq!(attrs.reachability, Some(Reachability::Unreachable));
    assert_eq!(
        attrs
            .found_dependency
            .as_ref()
            .unwrap()
            .ecosystem
            .as_deref(),
        Some("pypi")
    );
    let secret = &r.findings[2];
    assert_eq!(secret.created_at, Some(ts("2025-02-05T23:59:59.999Z")));
    assert_eq!(
        secret.secrets_attributes.as_ref().unwrap().validation_state,
        Some(ValidationState::ConfirmedValid)
    );
    assert_nothing_dropped(
        "report.json",
        &fixture_value("report.json"),
        &serde_json::to_value(&r).unwrap(),
    );
}

#[test]
fn search_response_with_every_agentic_field() {
    let r: SearchIssuesResponse = load("search.json");
    assert_eq!(r.total, Some(57));
    assert_eq!(r.cursor.as_deref(), Some("c2VhcmNoOjI"));
    assert_eq!(r.issues.len(), 2);
    let a = &r.issues[0];
    assert_eq!(
        a,
        &AgenticIssue {
            id: Some("wf-iss-01HQ8Z".into()),
            deployment_id: Some("4417".into()),
            title: Some("Service account token exposed in CI logs".into()),
            description: Some(
                "The deploy workflow echoes $DEPLOY_TOKEN when debug logging is on.".into()
            ),
            reasoning: Some(
                "Step 'print env' runs `env` without masking; the token is a long-lived credential."
                    .into()
            ),
            created_at: Some(ts("2025-04-01T12:00:00.250Z")),
            last_detected_at: Some(ts("2025-04-03T04:30:00Z")),
            triaged_at: Some(ts("2025-04-02T09:15:30Z")),
            detection_state: Some(DetectionState::VerifiedPresent),
            severity: Some(Severity::Critical),
            triage_state: Some(AgenticTriageState::Ignored),
            triage_reason: Some(AgenticTriageReason::FalsePositive),
            actions: strings(&["actions/checkout@v4", "acme/deploy-action@v2"]),
            workflow_ids: strings(&["wf-deploy", "wf-nightly"]),
            identities: strings(&["svc-deployer@acme.example.com"]),
            trigger_sources: strings(&["push", "schedule"]),
            project_ids: strings(&["300", "301"]),
            ref_ids: strings(&["551902"]),
            file_paths: strings(&[".ci/deploy.yml", ".ci/nightly.yml"]),
            dependency_paths: strings(&["acme/deploy-action@v2 > acme/print-env@v1"]),
            direct_dependencies: strings(&["acme/deploy-action@v2"]),
            domains: strings(&["deploy.acme.example.com"]),
            cwes: strings(&["CWE-532"]),
            owasps: strings(&["A09:2021 - Security Logging and Monitoring Failures"]),
        }
    );
    let b = &r.issues[1];
    assert_eq!(b.detection_state, Some(DetectionState::Detected));
    assert_eq!(b.severity, Some(Severity::Info));
    assert_eq!(b.triage_state, Some(AgenticTriageState::Open));
    assert!(b.actions.is_empty());
    assert_nothing_dropped(
        "search.json",
        &fixture_value("search.json"),
        &serde_json::to_value(&r).unwrap(),
    );
}

#[test]
fn scm_config_response_with_every_field() {
    let r: ScmConfigResponse = load("scm_config.json");
    let cfg = r.config.as_ref().unwrap();
    assert_eq!(
        cfg,
        &ScmConfig {
            id: Some("cfg-1207".into()),
            scm_type: Some(ScmType::HostAEnterprise),
            namespace: Some("acme-corp".into()),
            source_id: Some("src-88120".into()),
            base_url: Some("https://scm.acme.example.com".into()),
            app: Some(ScmApp {
                id: Some("app-512".into()),
                slug: Some("acme-security-scanner".into()),
                app_id: Some("913".into()),
                scm_type: Some(ScmType::HostAEnterprise),
                base_url: Some("https://scm.acme.example.com/api/v3".into()),
                request_id: Some("req-77a1".into()),
                scm_name: Some("Acme Enterprise SCM".into()),
                code_access: Some(true),
                tenant_id: Some("tenant-0042".into()),
            }),
            status: Some(ScmStatus {
                checked: Some(ts("2025-04-05T10:00:00Z")),
                ok: Some(false),
                error: Some("token expired on 2025-04-01".into()),
            }),
            installed: Some(true),
            suspended: Some(false),
            host_a_entity_type: Some(HostAEntityType::Org),
            auto_scan: Some(true),
            use_network_broker: Some(true),
            token_scopes: Some(TokenScopes {
                read_metadata: Some(true),
                read_pull_request: Some(true),
                write_pull_request_comment: Some(true),
                read_contents: Some(true),
                read_members: Some(false),
                manage_webhooks: Some(true),
                write_contents: Some(false),
                write_pull_request: Some(true),
            }),
            subscriptions: vec![
                Subscription {
                    scm_url: Some("https://scm.acme.example.com/acme-corp".into()),
                    events: strings(&["push", "pull_request", "installation"]),
                },
                Subscription {
                    scm_url: Some("https://scm.acme.example.com/acme-corp/payments-api".into()),
                    events: strings(&["push"]),
                },
            ],
            last_successful_sync_at: Some(ts("2025-03-31T23:45:10.500Z")),
            auto_scan_settings: Some(AutoScanSettings {
                diff_enabled: Some(true),
            }),
            has_access_token: Some(true),
            scm_id: Some("scm-3".into()),
        }
    );
    let granted: Vec<_> = cfg
        .token_scopes
        .as_ref()
        .unwrap()
        .entries()
        .iter()
        .filter(|(_, on)| *on)
        .map(|(name, _)| *name)
        .collect();
    assert_eq!(
        granted,
        [
            "readMetadata",
            "readPullRequest",
            "writePullRequestComment",
            "readContents",
            "manageWebhooks",
            "writePullRequest",
        ]
    );
    assert_nothing_dropped(
        "scm_config.json",
        &fixture_value("scm_config.json"),
        &serde_json::to_value(&r).unwrap(),
    );
}

// ---------------------------------------------------------------------------
// 9. Timestamps (docs/src/api.md §6)
// ---------------------------------------------------------------------------

#[test]
fn timestamps_in_every_rfc3339_form() {
    let r: ListIssuesResponse = load("timestamps.json");
    let issue = |n: usize| r.issues[n].issue.as_ref().unwrap();
    let created = |n: usize| issue(n).created_at;

    // Fractional seconds, to the nanosecond.
    assert_eq!(created(0), Some(ts("2025-03-14T09:26:53.589123456Z")));
    assert_eq!(created(0).unwrap().timestamp_subsec_nanos(), 589_123_456);
    assert_eq!(
        issue(0).relevant_since,
        Some(ts("2025-03-14T09:26:53.500Z"))
    );
    // Z, and RFC 3339's lower-case t/z.
    assert_eq!(created(1), Some(ts("2025-03-14T09:26:53Z")));
    assert_eq!(issue(1).first_detected_at, created(1));
    // Offsets: the same instant in UTC.
    assert_eq!(created(2), Some(ts("2025-03-14T09:26:53Z")));
    assert_eq!(issue(2).relevant_since, Some(ts("2025-03-14T09:26:53Z")));
    assert_eq!(created(4), Some(ts("2025-03-14T09:26:53Z")));
    // "" is the protobuf default: absent.
    assert_eq!(created(3), None);
    assert_eq!(issue(3).relevant_since, None);
    assert_eq!(issue(3).first_detected_at, None);
    // A leap second and a single nanosecond.
    let ex = issue(4).exception_request.as_ref().unwrap();
    assert!(ex.created_at.is_some());
    assert_eq!(
        ex.reviewed_at.unwrap().timestamp_subsec_nanos(),
        1,
        "{:?}",
        ex.reviewed_at
    );
}

#[test]
fn invalid_timestamp_names_its_field() {
    assert_eq!(
        decode_err_path::<ListIssuesResponse>(&fixture("invalid_timestamp.json")),
        "issues[0].issue.createdAt"
    );
    let cases: [(&str, &str); 4] = [
        (
            r#"{"issues":[{"issue":{"scaAttributes":{"epssScore":{"updatedAt":"yesterday"}}}}]}"#,
            "issues[0].issue.scaAttributes.epssScore.updatedAt",
        ),
        (
            r#"{"issues":[{},{"issue":{"activityHistory":[{},{"date":1710408413}]}}]}"#,
            "issues[1].issue.activityHistory[1].date",
        ),
        (
            r#"{"issues":[{"issue":{"secretsAttributes":{"historicalInfo":{"gitCommitTimestamp":"2025-13-01T00:00:00Z"}}}}]}"#,
            "issues[0].issue.secretsAttributes.historicalInfo.gitCommitTimestamp",
        ),
        (
            r#"{"issues":[{"issue":{"firstDetectedAt":"2025-03-14"}}]}"#,
            "issues[0].issue.firstDetectedAt",
        ),
    ];
    for (body, path) in cases {
        assert_eq!(
            decode_err_path::<ListIssuesResponse>(body.as_bytes()),
            path,
            "{body}"
        );
    }
    assert_eq!(
        decode_err_path::<SearchIssuesResponse>(
            br#"{"issues":[{"triagedAt":"2025-04-02 25:00"}]}"#
        ),
        "issues[0].triagedAt"
    );
    assert_eq!(
        decode_err_path::<ScmConfigResponse>(br#"{"config":{"status":{"checked":"now"}}}"#),
        "config.status.checked"
    );
    // The message is terminal-safe even when the bad value is not.
    match decode::<ListIssuesResponse>(
        "{\"issues\":[{\"issue\":{\"createdAt\":\"\\u001b[31mred\"}}]}".as_bytes(),
        JSON,
    ) {
        Err(ApiError::Decode { path, message }) => {
            assert_eq!(path, "issues[0].issue.createdAt");
            assert!(!message.contains('\u{1b}'), "{message:?}");
        }
        other => panic!("expected a decode error, got {other:?}"),
    }
}

// ---------------------------------------------------------------------------
// 10. Malformed bodies
// ---------------------------------------------------------------------------

#[test]
fn wrong_type_at_a_nested_path_is_named_exactly() {
    let err = decode::<ListIssuesResponse>(&fixture("wrong_type_nested.json"), JSON).unwrap_err();
    match &err {
        ApiError::Decode { path, message } => {
            assert_eq!(path, "issues[1].issue.codeowners[0].members[0].isTeam");
            assert!(message.contains("yes"), "{message}");
        }
        other => panic!("expected ApiError::Decode, got {other:?}"),
    }
    assert!(
        err.to_string()
            .contains("issues[1].issue.codeowners[0].members[0].isTeam"),
        "{err}"
    );
    for (body, path) in [
        (r#"{"issues":{}}"#, "issues"),
        (r#"{"issues":[{"issue":"1184501"}]}"#, "issues[0].issue"),
        (r#"{"issues":[{"issue":{"id":17}}]}"#, "issues[0].issue.id"),
        (
            r#"{"issues":[{"issue":{"ruleReferences":["a",7]}}]}"#,
            "issues[0].issue.ruleReferences[1]",
        ),
        (
            r#"{"issues":[{"issue":{"severity":{"name":"SEVERITY_HIGH"}}}]}"#,
            "issues[0].issue.severity",
        ),
        (
            r#"{"issues":[{"allReviewComments":[{"isInline":"true"}]}]}"#,
            "issues[0].allReviewComments[0].isInline",
        ),
        (r#"{"cursor":5}"#, "cursor"),
    ] {
        assert_eq!(
            decode_err_path::<ListIssuesResponse>(body.as_bytes()),
            path,
            "{body}"
        );
    }
}

#[test]
fn truncated_json_is_a_decode_error() {
    let err = decode::<ListIssuesResponse>(&fixture("truncated.json"), JSON).unwrap_err();
    assert!(matches!(err, ApiError::Decode { .. }), "{err:?}");
    // The full fixture cut short anywhere after the opening brace.
    let full = fixture("list_issues_full.json");
    for cut in [1, 2, 100, full.len() / 2, full.len() - 3] {
        let err = decode::<ListIssuesResponse>(&full[..cut], JSON).unwrap_err();
        assert!(matches!(err, ApiError::Decode { .. }), "cut {cut}: {err:?}");
    }
}

#[test]
fn trailing_garbage_is_a_decode_error() {
    let err = decode::<ListIssuesResponse>(br#"{"issues":[]} {"issues":[]}"#, JSON).unwrap_err();
    assert!(matches!(err, ApiError::Decode { .. }), "{err:?}");
    // Trailing whitespace is fine.
    assert!(decode::<ListIssuesResponse>(b"{\"issues\":[]}\r\n\t ", JSON).is_ok());
}

#[test]
fn html_body_is_not_json() {
    let err = decode::<ListIssuesResponse>(&fixture("bad_gateway.html"), "text/html").unwrap_err();
    match &err {
        ApiError::NotJson {
            content_type,
            snippet,
        } => {
            assert_eq!(content_type, "text/html");
            assert!(snippet.contains("502 Bad Gateway"), "{snippet}");
            assert!(!snippet.contains('\n'), "{snippet:?}");
        }
        other => panic!("expected ApiError::NotJson, got {other:?}"),
    }
    // Also when the server claims it is JSON.
    let err = decode::<ReportResponse>(&fixture("bad_gateway.html"), JSON).unwrap_err();
    assert!(matches!(err, ApiError::NotJson { .. }), "{err:?}");
}

#[test]
fn empty_and_blank_bodies_are_errors() {
    let empty = fixture("empty.json");
    assert!(empty.is_empty());
    assert!(decode::<ListIssuesResponse>(&empty, JSON).is_err());
    assert!(decode::<ReportResponse>(&empty, "").is_err());
    assert!(decode::<SearchIssuesResponse>(b"   \n", JSON).is_err());
    assert!(decode::<ScmConfigResponse>(b"null", JSON).is_err());
    assert!(decode::<ListIssuesResponse>(b"\"issues\"", JSON).is_err());
    match decode::<ListIssuesResponse>(&empty, "") {
        Err(ApiError::NotJson { content_type, .. }) => assert_eq!(content_type, "no content type"),
        other => panic!("expected ApiError::NotJson, got {other:?}"),
    }
}

#[test]
fn invalid_utf8_is_an_error() {
    let body = b"{\"issues\":[{\"issue\":{\"message\":\"caf\xe9\"}}]}";
    let err = decode::<ListIssuesResponse>(body, JSON).unwrap_err();
    assert!(matches!(err, ApiError::Decode { .. }), "{err:?}");
}

/// Nested codeowners deeper than any real team tree: an error (serde_json's
/// recursion limit), not a stack overflow that would abort the client.
#[test]
fn deeply_nested_codeowners_do_not_overflow() {
    for depth in [10usize, 60, 200, 5_000] {
        let mut body = String::from(r#"{"issues":[{"issue":{"codeowners":["#);
        for _ in 0..depth {
            body.push_str(r#"{"isTeam":true,"members":["#);
        }
        for _ in 0..depth {
            body.push_str("]}");
        }
        body.push_str("]}}]}");
        // Run on a thread with the default 2 MiB stack, like a runtime worker.
        let result = std::thread::Builder::new()
            .stack_size(2 * 1024 * 1024)
            .spawn(move || decode::<ListIssuesResponse>(body.as_bytes(), JSON).map(|_| ()))
            .unwrap()
            .join()
            .expect("decode panicked");
        if depth <= 60 {
            assert!(result.is_ok(), "depth {depth}: {result:?}");
        } else {
            assert!(
                matches!(result, Err(ApiError::Decode { .. })),
                "depth {depth}: {result:?}"
            );
        }
    }
}

/// A JSON syntax error inside the value of an unknown field puts that field's
/// name, chosen by the server, into `ApiError::Decode::path`. error.rs says
/// every message that came from the server is made terminal-safe; the CLI
/// prints `ApiError`'s Display to stderr as is.
#[test]
fn decode_error_path_is_terminal_safe() {
    let body = "{\"issues\":[{\"issue\":{\"\\u001b]0;pwned\\u0007\\u001b[2J\":[1,}}]}";
    let err = decode::<ListIssuesResponse>(body.as_bytes(), JSON).unwrap_err();
    let ApiError::Decode { path, .. } = &err else {
        panic!("expected ApiError::Decode, got {err:?}");
    };
    assert!(!path.chars().any(char::is_control), "{path:?}");
    let shown = err.to_string();
    assert!(!shown.contains('\u{1b}'), "{shown:?}");
    assert!(!shown.chars().any(char::is_control), "{shown:?}");
}

/// error.rs: server text is "cut to a readable length". A Decode error's
/// message quotes the offending value (serde's "invalid type: string ...")
/// and its path quotes unknown keys, both without any bound.
#[test]
fn decode_error_is_cut_to_a_readable_length() {
    let huge_value = format!(
        "{{\"issues\":[{{\"issue\":{{\"codeowners\":[{{\"isTeam\":\"{}\"}}]}}}}]}}",
        "yes".repeat(35_000)
    );
    let huge_key = format!("{{\"issues\":[{{\"{}\":[1,}}]}}", "k".repeat(100_000));
    for body in [huge_value, huge_key] {
        let err = decode::<ListIssuesResponse>(body.as_bytes(), JSON).unwrap_err();
        assert!(matches!(err, ApiError::Decode { .. }), "{err:?}");
        let shown = err.to_string().chars().count();
        assert!(shown <= 1_000, "error line is {shown} characters long");
    }
}

// ---------------------------------------------------------------------------
// Fuzz-ish: ~2,000 deterministic mutations of the full fixture never panic
// ---------------------------------------------------------------------------

/// A small deterministic generator (SplitMix64); no external crates.
struct Mix(u64);

impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn mutated_bodies_never_panic() {
    let full = fixture("list_issues_full.json");
    let mut mutations: Vec<(String, Vec<u8>)> = Vec::new();

    // Truncate at every 37th byte.
    for cut in (0..full.len()).step_by(37) {
        mutations.push((format!("truncate at {cut}"), full[..cut].to_vec()));
    }
    let mut rng = Mix(0x5EED_F00D);
    // Flip a byte: all bits, one bit, or replace with a JSON-significant byte.
    const SIGNIFICANT: &[u8] = b"\"\\{}[],:0-9.eE tfn\x00\x1b\xff";
    while mutations.len() < 1_400 {
        let at = rng.below(full.len());
        let mut m = full.clone();
        let how = rng.below(3);
        m[at] = match how {
            0 => m[at] ^ 0xFF,
            1 => m[at] ^ (1 << rng.below(8)),
            _ => SIGNIFICANT[rng.below(SIGNIFICANT.len())],
        };
        mutations.push((format!("flip {how} at {at}"), m));
    }
    // Insert a quote.
    while mutations.len() < 2_000 {
        let at = rng.below(full.len() + 1);
        let mut m = full.clone();
        m.insert(at, b'"');
        mutations.push((format!("quote at {at}"), m));
    }
    assert_eq!(mutations.len(), 2_000);

    let mut ok = 0;
    let mut err = 0;
    for (what, body) in &mutations {
        let outcome = std::panic::catch_unwind(|| decode::<ListIssuesResponse>(body, JSON));
        match outcome {
            Ok(Ok(_)) => ok += 1,
            Ok(Err(e)) => {
                err += 1;
                // Errors are typed and displayable.
                assert!(!e.to_string().is_empty(), "{what}");
            }
            Err(_) => panic!("decode panicked on mutation: {what}"),
        }
    }
    assert_eq!(ok + err, 2_000);
    // Truncations must all fail; a good share of the rest too.
    assert!(err > 400, "only {err} of 2000 mutations failed");
    assert!(ok > 0, "no mutation decoded; the mutations are too coarse");
}
