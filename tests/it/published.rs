//! The platform's published contract as a validator.
//!
//! `tests/data/platform-schemas.json` is the published OpenAPI description
//! reduced by `tests/data/reduce_openapi.py` (descriptions dropped, nothing
//! else changed). Loading it closes every object schema that lists its
//! properties (`additionalProperties: false`): a property the platform does not declare
//! is a violation, not a tolerated extra. It also drops the `enum` the
//! published text puts beside `type: array` (a generator quirk repeating the
//! item values; JSON Schema would read it as values of the whole array): the
//! items keep their own `enum`.

use boon::{Compiler, SchemaIndex, Schemas};
use findings_client::Client;
use findings_demo::tap::Exchange;
use serde_json::Value;
use std::sync::{Mutex, OnceLock};

const DOCUMENT: &str = include_str!("../data/platform-schemas.json");
const BASE: &str = "urn:platform-schemas";

pub struct Published {
    schemas: Schemas,
    operations: Vec<Operation>,
}

pub struct Operation {
    pub id: String,
    method: String,
    /// Path segments; `None` stands for a `{parameter}`.
    segments: Vec<Option<String>>,
    query: Vec<String>,
    request: Option<SchemaIndex>,
    response: SchemaIndex,
}

/// The validator, built once per test binary.
pub fn published() -> &'static Published {
    static PUBLISHED: OnceLock<Published> = OnceLock::new();
    PUBLISHED.get_or_init(Published::load)
}

impl Published {
    fn load() -> Published {
        let mut doc: Value = serde_json::from_str(DOCUMENT).expect("the schema copy is JSON");
        close_objects(&mut doc["components"]["schemas"]);
        let mut compiler = Compiler::new();
        compiler.enable_format_assertions();
        compiler
            .add_resource(BASE, doc.clone())
            .expect("the schema copy is a resource");
        let mut schemas = Schemas::new();
        let mut compile = |reference: &str| {
            let pointer = reference.trim_start_matches('#');
            compiler
                .compile(&format!("{BASE}#{pointer}"), &mut schemas)
                .unwrap_or_else(|e| panic!("schema {reference} compiles: {e}"))
        };
        let mut operations = Vec::new();
        for (path, methods) in doc["paths"].as_object().expect("paths") {
            for (method, op) in methods.as_object().expect("methods") {
                let schema_ref = |v: &Value| {
                    v["content"]["application/json"]["schema"]["$ref"]
                        .as_str()
                        .map(str::to_owned)
                };
                let request = schema_ref(&op["requestBody"]).map(|r| compile(&r));
                let response = compile(
                    &schema_ref(&op["responses"]["200"]).expect("every operation answers a schema"),
                );
                let query = op["parameters"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter(|p| p["in"] == "query")
                    .filter_map(|p| p["name"].as_str().map(str::to_owned))
                    .collect();
                operations.push(Operation {
                    id: op["operationId"].as_str().expect("operationId").to_owned(),
                    method: method.to_ascii_uppercase(),
                    segments: segments(path),
                    query,
                    request,
                    response,
                });
            }
        }
        Published {
            schemas,
            operations,
        }
    }

    /// The published operation a method and route template (parameter names
    /// aside) stand for.
    pub fn operation(&self, method: &str, route: &str) -> Option<&Operation> {
        let wanted = segments(route);
        self.operations
            .iter()
            .find(|op| op.method.eq_ignore_ascii_case(method) && op.segments == wanted)
    }

    /// The published operation a method and concrete path stand for (the
    /// one with the most literal segments, when parameters could match
    /// several).
    pub fn operation_at(&self, method: &str, path: &str) -> Option<&Operation> {
        let wanted: Vec<&str> = path.trim_matches('/').split('/').collect();
        self.operations
            .iter()
            .filter(|op| {
                op.method.eq_ignore_ascii_case(method) && op.segments.len() == wanted.len()
            })
            .filter(|op| {
                op.segments
                    .iter()
                    .zip(&wanted)
                    .all(|(t, s)| t.as_deref().is_none_or(|t| t == *s))
            })
            .max_by_key(|op| op.segments.iter().filter(|t| t.is_some()).count())
    }

    pub fn operation_by_id(&self, id: &str) -> &Operation {
        self.operations
            .iter()
            .find(|op| op.id == id)
            .unwrap_or_else(|| panic!("{id} is a published operation"))
    }

    pub fn check_request(&self, op: &Operation, body: &Value) -> Result<(), String> {
        let Some(schema) = op.request else {
            return Err(format!("{} takes no request body", op.id));
        };
        self.check(schema, body)
            .map_err(|e| format!("{} request: {e}", op.id))
    }

    pub fn check_response(&self, op: &Operation, body: &Value) -> Result<(), String> {
        self.check(op.response, body)
            .map_err(|e| format!("{} response: {e}", op.id))
    }

    fn check(&self, schema: SchemaIndex, body: &Value) -> Result<(), String> {
        self.schemas
            .validate(body, schema)
            .map_err(|e| format!("{e:#}\n  in {}", excerpt(body)))
    }

    /// An exchange with the demo server: the request the client built (others,
    /// like deliberately odd raw requests, are not the client's) and every
    /// successful answer must be as published. Error answers have no published
    /// schema (docs/src/api.md §11–12).
    pub fn check_exchange(&self, ex: &Exchange) -> Result<(), String> {
        let op = self
            .operation(&ex.method, &ex.route)
            .ok_or_else(|| format!("{} {} is no published operation", ex.method, ex.route))?;
        let by_client = by_client(ex);
        if ex.status != 200 {
            return Ok(());
        }
        if by_client {
            for pair in ex.query.as_deref().unwrap_or("").split('&') {
                let name = pair.split('=').next().unwrap_or("");
                if !name.is_empty() && !op.query.iter().any(|q| q == name) {
                    return Err(format!("{}: undeclared query parameter {name:?}", op.id));
                }
            }
            match op.request {
                Some(_) => self.check_request(op, &json(&ex.request, &op.id)?)?,
                None if !ex.request.is_empty() => {
                    return Err(format!("{} sent a body to a GET", op.id));
                }
                None => {}
            }
        }
        self.check_response(op, &json(&ex.response, &op.id)?)
    }
}

/// Whether the app's client sent it (not a test's deliberately odd request).
fn by_client(ex: &Exchange) -> bool {
    ex.user_agent
        .as_deref()
        .is_some_and(|ua| ua.starts_with("findings-tui/"))
}

fn json(bytes: &[u8], op: &str) -> Result<Value, String> {
    serde_json::from_slice(bytes).map_err(|e| format!("{op}: body is not JSON: {e}"))
}

fn excerpt(body: &Value) -> String {
    let text = body.to_string();
    match text.char_indices().nth(300) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text,
    }
}

fn segments(path: &str) -> Vec<Option<String>> {
    path.trim_matches('/')
        .split('/')
        .map(|s| (!s.starts_with('{')).then(|| s.to_owned()))
        .collect()
}

/// Every object schema that declares its properties (a message, even an
/// empty one) takes no other; one that declares none (`meta`, a free-form
/// struct) stays open. Arrays lose their misplaced `enum`.
fn close_objects(node: &mut Value) {
    match node {
        Value::Object(map) => {
            if map.get("type").and_then(Value::as_str) == Some("array") {
                map.remove("enum");
            }
            if map.get("type").and_then(Value::as_str) == Some("object")
                && map.contains_key("properties")
                && !map.contains_key("additionalProperties")
            {
                map.insert("additionalProperties".into(), Value::Bool(false));
            }
            map.values_mut().for_each(close_objects);
        }
        Value::Array(items) => items.iter_mut().for_each(close_objects),
        _ => {}
    }
}

/// Violations seen by the taps of the demo servers the contract tests run;
/// each test's `Env` takes them when it ends and fails on any.
pub static VIOLATIONS: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// The published operations the client has been seen to call.
pub static CALLED: Mutex<std::collections::BTreeSet<String>> =
    Mutex::new(std::collections::BTreeSet::new());

/// Installs a tap that checks every exchange against the published contract.
pub fn watch(server: &findings_demo::DemoServer) {
    server.observe(Some(std::sync::Arc::new(|ex: &Exchange| {
        let p = published();
        if ex
            .user_agent
            .as_deref()
            .is_some_and(|ua| ua.starts_with("findings-tui/"))
            && let Some(op) = p.operation(&ex.method, &ex.route)
        {
            CALLED
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(op.id.clone());
        }
        if let Err(e) = p.check_exchange(ex) {
            VIOLATIONS.lock().unwrap_or_else(|e| e.into_inner()).push(e);
        }
    })));
}

/// Fails the test if an exchange broke the published contract since the
/// last check (not while the test is already failing).
pub fn assert_no_violations() {
    let violations = std::mem::take(&mut *VIOLATIONS.lock().unwrap_or_else(|e| e.into_inner()));
    assert!(
        !(!violations.is_empty() && !std::thread::panicking()),
        "{} exchange(s) broke the published contract:\n{}",
        violations.len(),
        violations.join("\n")
    );
}

/// A demo server of a test's own, watched; checked when the test ends.
pub struct Watched(findings_demo::DemoServer);

impl Watched {
    pub fn new(server: findings_demo::DemoServer) -> Watched {
        watch(&server);
        Watched(server)
    }
}

impl std::ops::Deref for Watched {
    type Target = findings_demo::DemoServer;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl Drop for Watched {
    fn drop(&mut self) {
        assert_no_violations();
    }
}

#[test]
fn the_validator_rejects_what_the_platform_would_not_send() {
    let p = published();
    let list = p.operation_by_id("IssuesService_ListIssues");
    let ok = serde_json::json!({"issues": [{"issue": {"id": "1", "severity": "SEVERITY_HIGH"}}], "cursor": "x"});
    assert_eq!(p.check_response(list, &ok), Ok(()));
    for bad in [
        serde_json::json!({"issues": [{"issue": {"id": "1", "severity": "SEVERITY_INFO"}}]}),
        serde_json::json!({"issues": [{"issue": {"id": "1", "undeclared": true}}]}),
        serde_json::json!({"issues": [{"issue": {"id": "1", "line": "12"}}]}),
        serde_json::json!({"issues": [{"issue": {"id": "1", "createdAt": "yesterday"}}]}),
        serde_json::json!({"total": 3}),
    ] {
        assert!(
            p.check_response(list, &bad).is_err(),
            "{bad} must be refused"
        );
    }
    let req_ok =
        serde_json::json!({"deploymentId": "1", "issueTypes": ["ISSUE_TYPE_SAST"], "limit": 10});
    assert_eq!(p.check_request(list, &req_ok), Ok(()));
    let legacy = serde_json::json!({"filter": {"issueTypes": ["ISSUE_TYPE_SAST"]}});
    assert!(p.check_request(list, &legacy).is_err());
}

#[test]
fn routes_map_to_published_operations_whatever_the_parameter_names() {
    let p = published();
    let op = p
        .operation(
            "GET",
            "/api/agent/deployments/{deployment}/issues/v2/{issue}",
        )
        .expect("GetIssue");
    assert_eq!(op.id, "IssuesService_GetIssue");
    assert!(
        p.operation("DELETE", "/api/agent/deployments/{d}/issues/v2/{i}")
            .is_none()
    );
}

/// Every operation the client uses, by its published operation id.
const CLIENT_OPERATIONS: &[&str] = &[
    "DeploymentService_GetDeploymentByToken",
    "IssuesService_ListIssues",
    "IssuesService_GetIssue",
    "IssuesService_ListIssueGroups",
    "IssuesService_GetIssueFilters",
    "IssuesService_GetIssueCounts",
    "PublicIssuesService_SearchIssues",
    "ReportsService_GetReportFindings",
    "ScmService_ListScmConfig",
    "ScmService_PatchScmConfig",
    "IssuesService_BulkUpdateIssues",
    "PublicIssuesService_TriageIssue",
    "PublicIssuesService_CountIssues",
    "ReportsService_GetFindingsActivityReport",
    "ReportsService_GetFindingsByProjectAndSeverityReport",
    "ReportsService_GetBacklogByRuleReport",
    "ReportsService_GetBacklogBySeverityReport",
    "ReportsService_GetMedianOpenAgeBySeverityReport",
    "DeploymentService_GetDeploymentAuthorizedActions",
    "ExternalTicketingService_GetTicketingInstances",
    "ExternalTicketingService_CreateTickets",
    "ExternalTicketingService_LinkTicket",
    "ExternalTicketingService_UnlinkTicket",
    "AutofixService_CreateAutofix",
    "AiFixJobsService_CreateFixJob",
    "AutotriageFeedbackService_PostAutotriageFeedback",
    "MemoriesService_CreateMemoryFromTriage",
    "MemoriesService_FindRelevantIssues",
];

/// Every operation the app uses goes through the check: each is called
/// once by the client and must have been seen and found as published.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_operation_the_client_uses_is_checked_against_the_schemas() {
    use findings_client::{ClientConfig, Token};
    let server = Watched::new(crate::common::demo(50).await);
    let unscoped = Client::for_token(ClientConfig::new(
        server.url(),
        "",
        Token::new(server.token()),
    ))
    .expect("a client");
    let (client, _) = unscoped.discover_deployment().await.expect("discovery");
    let id = call_the_listings(&client).await;
    call_the_writes(&client, &id).await;
    call_the_counts_and_reports(&client).await;
    call_the_actions(&client, &id).await;
    let called = CALLED.lock().unwrap_or_else(|e| e.into_inner()).clone();
    for op in CLIENT_OPERATIONS {
        assert!(called.contains(*op), "{op} was not seen: {called:?}");
    }
    drop(server);
}

/// Lists, gets, groups, searches and reports findings; returns a
/// finding's id.
async fn call_the_listings(client: &Client) -> String {
    use findings_model::*;
    let page = client
        .list_issues(&ListIssuesRequest::default())
        .await
        .expect("list");
    let id = page.issues[0]
        .issue
        .as_ref()
        .expect("an issue")
        .id()
        .to_owned();
    client.get_issue(&id).await.expect("get");
    let groups = client
        .list_issue_groups(&ListIssueGroupsRequest {
            sort_by: Some(GroupSortBy::Severity),
            limit: Some(5),
            ..ListIssueGroupsRequest::by_rule(&ListSelection::default())
        })
        .await
        .expect("groups");
    assert!(!groups.groups.is_empty() && groups.cursor.is_some());
    client
        .search_issues(&SearchIssuesRequest::default())
        .await
        .expect("search");
    client
        .report_findings(&ReportRequest::default())
        .await
        .expect("report");
    id
}

/// Updates an SCM config, triages a finding and an agentic issue.
async fn call_the_writes(client: &Client, id: &str) {
    use findings_model::*;
    let configs = client
        .list_scm_configs(&ListScmConfigsRequest::default())
        .await
        .expect("scm list");
    let config = configs.configs[0].id.clone().expect("a config id");
    let patch = ScmConfigPatch {
        auto_scan: Some(false),
        ..ScmConfigPatch::default()
    };
    client
        .update_scm_config(&config, &patch)
        .await
        .expect("scm update");
    let answer = client
        .update_findings(&UpdateFindingsRequest::for_ids(
            vec![id.to_owned()],
            UpdateFindingParams {
                triage_state: Some(TriageState::Ignored),
                triage_reason: Some(TriageReason::Duplicate),
                note: Some("checked".into()),
            },
        ))
        .await
        .expect("bulk update");
    assert_eq!(answer.issue_count, Some(1));
    let agentic = client
        .search_issues(&SearchIssuesRequest::default())
        .await
        .expect("search")
        .issues[0]
        .id
        .clone()
        .expect("an agentic id");
    client
        .triage_agentic_issue(
            &agentic,
            &TriageIssueRequest {
                triage_state: Some(AgenticTriageState::Fixed),
                ..Default::default()
            },
        )
        .await
        .expect("agentic triage");
}

/// The filter values, the counts and the dashboard reports.
async fn call_the_counts_and_reports(client: &Client) {
    use findings_model::*;
    client
        .issue_filters(&IssueFiltersRequest::default())
        .await
        .expect("issue filters");
    client
        .issue_counts(&GetIssueCountsRequest::default())
        .await
        .expect("issue counts");
    client.count_issues(None).await.expect("count issues");
    let report = GetReportRequest::default();
    client.activity_report(&report).await.expect("activity");
    client.by_project_report(&report).await.expect("by project");
    client
        .backlog_by_rule_report(&report)
        .await
        .expect("by rule");
    client
        .backlog_by_severity_report(&report)
        .await
        .expect("by severity");
    client
        .median_open_age_report(&report)
        .await
        .expect("median open age");
}

/// The actions on findings: tickets, fixes, feedback, memories.
async fn call_the_actions(client: &Client, id: &str) {
    use findings_model::*;
    client
        .authorized_actions()
        .await
        .expect("authorized actions");
    let instance = client
        .ticketing_instances()
        .await
        .expect("instances")
        .instances[0]
        .id
        .expect("an instance id");
    let ids = vec![id.to_owned()];
    client
        .create_tickets(instance, &CreateTicketsRequest::for_ids(ids.clone(), true))
        .await
        .expect("create tickets");
    client
        .link_ticket(
            instance,
            &LinkTicketRequest {
                ticket_url: Some("https://tickets.example.com/browse/SEC-1".into()),
                issue_ids: ids.clone(),
            },
        )
        .await
        .expect("link ticket");
    client
        .unlink_ticket(instance, &UnlinkTicketRequest { issue_ids: ids })
        .await
        .expect("unlink ticket");
    client.create_autofix(id).await.expect("autofix");
    client.create_fix_job(id).await.expect("fix job");
    client
        .post_autotriage_feedback(&AutotriageFeedback::new(
            &format!("at-{id}"),
            Rating::Good,
            Some("right".into()),
        ))
        .await
        .ok(); // a finding without a verdict answers 404: called either way
    client
        .create_memory_from_triage(&CreateMemoryFromTriageRequest {
            note: Some("fixtures".into()),
            filter: Some(ListIssuesFilter {
                ids: vec![id.to_owned()],
                ..Default::default()
            }),
            ..Default::default()
        })
        .await
        .expect("memory");
    client
        .find_relevant_issues(&FindRelevantIssuesRequest::default())
        .await
        .expect("relevant issues");
}
