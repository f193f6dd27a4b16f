//! A property-based test of the demo server against the published contract
//! (issue 51): for every one of the 33 operations, requests generated from
//! its schemas (path, query and body). A valid one is accepted (2xx) and its
//! answer is as the response schema says; one with a single field made
//! invalid (a wrong type, an int out of range, an unknown enum value, `""`
//! for a time, an array for an object, a null array item) is refused with
//! 400 in the platform's error shape, naming the field — never a 5xx, never
//! a dropped connection.
//!
//! Bounded and repeatable: a fixed seed ([`SEED`]) and [`CASES`] valid and
//! [`CASES`] invalid requests per operation (proptest shrinks a failure to
//! the smallest request that still fails). Its own demo server: the writes
//! change its state.

use crate::common;
use crate::published::published;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use serde_json::{Map, Value, json};

/// The seed of every run (32 bytes for ChaCha).
const SEED: [u8; 32] = *b"findings-demo-issue-51-props-001";
/// Valid requests per operation, and as many invalid ones.
const CASES: u32 = 64;
/// How deep generated bodies nest (the filters are two levels down).
const DEPTH: u32 = 3;

/// One place in a body: a field, or the first item of an array.
#[derive(Debug, Clone)]
enum Step {
    Key(String),
    Item,
}

/// Where an invalid value goes.
#[derive(Debug, Clone)]
enum Place {
    Body(Vec<Step>),
    Query(String),
    Path(String),
}

/// A request to send.
#[derive(Debug, Clone)]
struct Request {
    method: String,
    /// Path parameters by name (the template is the operation's).
    path: Vec<(String, String)>,
    query: Vec<(String, String)>,
    body: Option<Value>,
}

/// What the test knows of an operation.
struct Operation {
    id: String,
    method: String,
    template: String,
    path_params: Vec<(String, Value)>,
    query_params: Vec<(String, Value)>,
    request: Option<Value>,
}

/// The published contract, as the generator reads it.
struct Contract {
    components: Map<String, Value>,
    operations: Vec<Operation>,
}

/// Real things of the demo the paths and ids name (a generated id would
/// name nothing: 404 is the right answer to it, not what is tested here).
#[derive(Debug, Clone)]
struct Known {
    finding: String,
    agentic: String,
    /// An autotriage the demo takes feedback on (`at-` and a finding's id).
    autotriage: String,
}

impl Contract {
    fn load() -> Contract {
        let doc: Value = serde_json::from_str(findings_demo::strict::DOCUMENT).unwrap();
        let components = doc["components"]["schemas"].as_object().unwrap().clone();
        let mut operations = Vec::new();
        for (template, methods) in doc["paths"].as_object().unwrap() {
            for (method, op) in methods.as_object().unwrap() {
                let params = |place: &str| -> Vec<(String, Value)> {
                    op["parameters"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter(|p| p["in"] == place)
                        .map(|p| (p["name"].as_str().unwrap().to_owned(), p["schema"].clone()))
                        .collect()
                };
                operations.push(Operation {
                    id: op["operationId"].as_str().unwrap().to_owned(),
                    method: method.to_ascii_uppercase(),
                    template: template.clone(),
                    path_params: params("path"),
                    query_params: params("query"),
                    request: op["requestBody"]["content"]["application/json"]
                        .get("schema")
                        .cloned(),
                });
            }
        }
        Contract {
            components,
            operations,
        }
    }

    /// `schema` with its `$ref` (or its one `allOf` part) followed.
    fn resolve<'a>(&'a self, schema: &'a Value) -> &'a Value {
        if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
            let name = r.trim_start_matches("#/components/schemas/");
            return self.resolve(&self.components[name]);
        }
        match schema.get("allOf").and_then(Value::as_array) {
            Some(parts) if parts.len() == 1 => self.resolve(&parts[0]),
            _ => schema,
        }
    }

    /// Valid values of `schema` for field `name`.
    fn valid(&self, schema: &Value, name: &str, depth: u32) -> BoxedStrategy<Value> {
        if let Some(hinted) = hint(name) {
            return hinted;
        }
        let schema = self.resolve(schema);
        let kind = schema.get("type").and_then(Value::as_str);
        match kind {
            Some("object") => match schema.get("properties").and_then(Value::as_object) {
                Some(props) if depth > 0 => {
                    let fields: Vec<BoxedStrategy<Option<(String, Value)>>> = props
                        .iter()
                        .map(|(key, field)| {
                            let key = key.clone();
                            let value = self.valid(field, &key, depth - 1);
                            prop_oneof![
                                6 => Just(None),
                                1 => Just(Some((key.clone(), Value::Null))),
                                3 => value.prop_map(move |v| Some((key.clone(), v))),
                            ]
                            .boxed()
                        })
                        .collect();
                    fields
                        .prop_map(|pairs| Value::Object(pairs.into_iter().flatten().collect()))
                        .boxed()
                }
                _ => Just(json!({})).boxed(),
            },
            Some("array") => {
                let item = self.valid(&schema["items"], name, depth);
                prop::collection::vec(item, 0..3)
                    .prop_map(Value::Array)
                    .boxed()
            }
            Some("boolean") => any::<bool>().prop_map(Value::Bool).boxed(),
            Some("integer") => integers(schema),
            Some("number") => (-1.0e6f64..1.0e6).prop_map(|f| json!(f)).boxed(),
            Some("string") => strings(schema),
            _ => Just(json!({})).boxed(),
        }
    }

    /// Every place in a body of `schema` (fields up to `depth` down) and
    /// the invalid values it can take.
    fn places(
        &self,
        schema: &Value,
        at: Vec<Step>,
        depth: u32,
        out: &mut Vec<(Place, Vec<Value>)>,
    ) {
        let schema = self.resolve(schema);
        let wrong = wrong_values(schema);
        if !wrong.is_empty() {
            out.push((Place::Body(at.clone()), wrong));
        }
        if depth == 0 {
            return;
        }
        match schema.get("type").and_then(Value::as_str) {
            Some("object") => {
                for (key, field) in schema
                    .get("properties")
                    .and_then(Value::as_object)
                    .into_iter()
                    .flatten()
                {
                    let mut here = at.clone();
                    here.push(Step::Key(key.clone()));
                    self.places(field, here, depth - 1, out);
                }
            }
            Some("array") => {
                let mut here = at;
                here.push(Step::Item);
                self.places(&schema["items"], here, depth - 1, out);
            }
            _ => {}
        }
    }
}

/// Fields whose valid values are narrower than their type: a cursor must
/// be one the demo gave, a page size is bounded, ids name real things, a
/// note or a URL says something. Everything else is as the schema says.
fn hint(name: &str) -> Option<BoxedStrategy<Value>> {
    Some(match name {
        "cursor" | "pageToken" => Just(Value::Null).boxed(),
        "limit" | "pageSize" => (1i64..=50).prop_map(|n| json!(n)).boxed(),
        "deploymentId" => Just(json!("1234")).boxed(),
        _ => return None,
    })
}

/// What the demo asks of a body beyond its schema (the contract marks
/// nothing required; the platform refuses these as the demo does): the
/// writes name what they change and how, a body's copy of a path
/// parameter names the same thing, a ticket goes to findings named by ids
/// or by a filter, not both.
fn settle(op: &str, body: &mut Value, known: &Known) {
    let Some(fields) = body.as_object_mut() else {
        return;
    };
    let finding: i64 = known.finding.parse().unwrap();
    match op {
        "IssuesService_BulkUpdateIssues" => {
            fill(fields, "params", json!({}));
            let params = fields["params"].as_object_mut().unwrap();
            // A finding is never given the state or the reason UNKNOWN.
            if params
                .get("triageState")
                .is_none_or(|s| s.is_null() || s == "FINDING_TRIAGE_STATE_UNKNOWN")
            {
                params.insert("triageState".into(), json!("FINDING_TRIAGE_STATE_IGNORED"));
            }
            if params.get("triageReason") == Some(&json!("FINDING_TRIAGE_REASON_UNKNOWN")) {
                params.remove("triageReason");
            }
        }
        "PublicIssuesService_TriageIssue" => {
            fill(fields, "triageState", json!("TRIAGE_STATE_FIXED"));
            fields.remove("issueId");
        }
        "AutotriageFeedbackService_PostAutotriageFeedback" => {
            fill(fields, "feedback", json!({}));
            let feedback = fields["feedback"].as_object_mut().unwrap();
            feedback.insert("autotriageId".into(), json!(known.autotriage));
            if feedback.get("rating").is_none_or(Value::is_null) {
                feedback.insert("rating".into(), json!("RATING_GOOD"));
            }
        }
        "MemoriesService_CreateMemoryFromTriage" => fill(fields, "note", json!("a note")),
        "ExternalTicketingService_CreateTickets" => {
            let ids = fields
                .get("issueIds")
                .and_then(Value::as_array)
                .is_some_and(|a| !a.is_empty());
            if ids {
                fields.remove("issueFilters");
            } else {
                fill(fields, "issueFilters", json!({"ids": [known.finding]}));
            }
        }
        "ExternalTicketingService_LinkTicket" => {
            fields.insert(
                "ticketUrl".into(),
                json!("https://tickets.example.com/browse/SEC-1"),
            );
            fields.insert("issueIds".into(), json!([finding]));
        }
        "ExternalTicketingService_UnlinkTicket" => {
            fields.insert("issueIds".into(), json!([finding]));
        }
        "ScmService_PatchScmConfig" => {
            fields.remove("configId");
        }
        _ => {}
    }
}

/// `value` for field `key` when the body does not set it.
fn fill(fields: &mut Map<String, Value>, key: &str, value: Value) {
    if fields.get(key).is_none_or(Value::is_null) {
        fields.insert(key.to_owned(), value);
    }
}

/// Integers in the schema's range, as numbers and as the decimal strings
/// protobuf JSON also reads.
fn integers(schema: &Value) -> BoxedStrategy<Value> {
    let min = schema.get("minimum").and_then(Value::as_f64);
    let max = schema.get("maximum").and_then(Value::as_f64);
    if let (Some(lo), Some(hi)) = (min, max) {
        return ((lo as i64)..=(hi as i64)).prop_map(|n| json!(n)).boxed();
    }
    match schema.get("format").and_then(Value::as_str) {
        Some("int32") => prop_oneof![
            any::<i32>().prop_map(|n| json!(n)),
            any::<i32>().prop_map(|n| json!(n.to_string())),
        ]
        .boxed(),
        _ => prop_oneof![
            any::<i64>().prop_map(|n| json!(n)),
            any::<i64>().prop_map(|n| json!(n.to_string())),
        ]
        .boxed(),
    }
}

/// Strings by their format: known enum values, RFC 3339 times, int64s.
fn strings(schema: &Value) -> BoxedStrategy<Value> {
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        return proptest::sample::select(values.clone()).boxed();
    }
    match schema.get("format").and_then(Value::as_str) {
        Some("date-time") => (0i64..4_000_000_000)
            .prop_map(|s| {
                let t = chrono::DateTime::from_timestamp(s, 0).unwrap();
                json!(t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
            })
            .boxed(),
        Some("int64") => any::<i64>().prop_map(|n| json!(n.to_string())).boxed(),
        // Not blank: a blank note or namespace is refused as empty.
        _ => "[a-z0-9]{1,8}".prop_map(Value::String).boxed(),
    }
}

/// Values `schema` does not take: each a kind of mistake the issue names.
fn wrong_values(schema: &Value) -> Vec<Value> {
    let format = schema.get("format").and_then(Value::as_str);
    match schema.get("type").and_then(Value::as_str) {
        Some("object") => vec![json!([]), json!([["101576"]]), json!("x")],
        Some("array") => vec![json!({}), json!("x"), json!([null])],
        Some("boolean") => vec![json!("yes"), json!(1)],
        Some("integer") => match format {
            Some("int32") => vec![
                json!(2_147_483_648_i64),
                json!(-2_147_483_649_i64),
                json!(1.5),
                json!("x"),
                json!(true),
            ],
            _ => vec![
                json!("9223372036854775808"),
                json!(1.5),
                json!("ten"),
                json!([]),
            ],
        },
        Some("number") => vec![json!("abc"), json!(true)],
        Some("string") if schema.get("enum").is_some() => {
            vec![json!(""), json!("NOT_A_VALUE"), json!(3)]
        }
        Some("string") => match format {
            Some("date-time") => vec![json!(""), json!("yesterday"), json!("2026-13-01T00:00:00Z")],
            Some("int64") => vec![json!("abc"), json!(true)],
            _ => vec![json!(5), json!({})],
        },
        _ => Vec::new(),
    }
}

/// Invalid texts of a path or query parameter (none for a free string).
fn wrong_texts(schema: &Value) -> Vec<String> {
    let format = schema.get("format").and_then(Value::as_str);
    match schema.get("type").and_then(Value::as_str) {
        Some("integer") => vec!["abc".into(), "1.5".into(), "99999999999999999999".into()],
        Some("boolean") => vec!["maybe".into(), String::new()],
        Some("string") if schema.get("enum").is_some() => vec![String::new(), "NOPE".into()],
        Some("string") if format == Some("int64") => vec!["abc".into()],
        _ => Vec::new(),
    }
}

/// `bad` put at `at` in `body`, making the objects and arrays on the way.
fn put(body: &mut Value, at: &[Step], bad: Value) {
    let Some((first, rest)) = at.split_first() else {
        *body = bad;
        return;
    };
    match first {
        Step::Key(key) => {
            if !body.is_object() {
                *body = json!({});
            }
            let slot = body
                .as_object_mut()
                .unwrap()
                .entry(key.clone())
                .or_insert(Value::Null);
            put(slot, rest, bad);
        }
        Step::Item => {
            if !matches!(body, Value::Array(a) if !a.is_empty()) {
                *body = json!([Value::Null]);
            }
            put(&mut body.as_array_mut().unwrap()[0], rest, bad);
        }
    }
}

/// The path parameters every request of `op` uses: the demo's own.
fn path_values(op: &Operation, known: &Known) -> Vec<(String, String)> {
    let agentic = op.template.starts_with("/api/issues/");
    op.path_params
        .iter()
        .map(|(name, _)| {
            let value = match name.as_str() {
                "deploymentId" => "1234".to_owned(),
                "issueId" if agentic => known.agentic.clone(),
                "issueId" => known.finding.clone(),
                "ticketingInstanceId" => "7001".to_owned(),
                "configId" => "1001".to_owned(),
                other => panic!("{}: no value for path parameter {other}", op.id),
            };
            (name.clone(), value)
        })
        .collect()
}

/// Valid requests of `op`.
fn valid_requests(c: &Contract, op: &Operation, known: &Known) -> BoxedStrategy<Request> {
    let query: Vec<BoxedStrategy<Option<(String, String)>>> = op
        .query_params
        .iter()
        .map(|(name, schema)| {
            let name = name.clone();
            let value = c.valid(schema, &name, 0);
            prop_oneof![
                Just(None),
                value.prop_map(move |v| match v {
                    Value::Null => None,
                    Value::String(s) => Some((name.clone(), s)),
                    other => Some((name.clone(), other.to_string())),
                }),
            ]
            .boxed()
        })
        .collect();
    let body = match &op.request {
        Some(schema) => {
            let (id, known) = (op.id.clone(), known.clone());
            c.valid(schema, "", DEPTH)
                .prop_map(move |mut body| {
                    settle(&id, &mut body, &known);
                    Some(body)
                })
                .boxed()
        }
        None => Just(None).boxed(),
    };
    let method = op.method.clone();
    let path = path_values(op, known);
    (query, body)
        .prop_map(move |(query, body)| Request {
            method: method.clone(),
            path: path.clone(),
            query: query.into_iter().flatten().collect(),
            body,
        })
        .boxed()
}

/// Requests of `op` with one place made invalid, and that place.
fn invalid_requests(
    c: &Contract,
    op: &Operation,
    known: &Known,
) -> Option<BoxedStrategy<(Request, Place)>> {
    let mut places: Vec<(Place, Vec<Value>)> = Vec::new();
    if let Some(schema) = &op.request {
        c.places(schema, Vec::new(), DEPTH, &mut places);
    }
    for (name, schema) in &op.query_params {
        let texts = wrong_texts(schema);
        if !texts.is_empty() {
            places.push((
                Place::Query(name.clone()),
                texts.into_iter().map(Value::String).collect(),
            ));
        }
    }
    for (name, schema) in &op.path_params {
        let texts = wrong_texts(schema);
        if !texts.is_empty() {
            places.push((
                Place::Path(name.clone()),
                texts.into_iter().map(Value::String).collect(),
            ));
        }
    }
    if places.is_empty() {
        return None;
    }
    let chosen = proptest::sample::select(places)
        .prop_flat_map(|(place, wrong)| (Just(place), proptest::sample::select(wrong)));
    Some(
        (valid_requests(c, op, known), chosen)
            .prop_map(|(mut req, (place, bad))| {
                match &place {
                    Place::Body(at) => put(req.body.get_or_insert_with(|| json!({})), at, bad),
                    Place::Query(name) => {
                        req.query.retain(|(n, _)| n != name);
                        req.query
                            .push((name.clone(), bad.as_str().unwrap().to_owned()));
                    }
                    Place::Path(name) => {
                        for (n, v) in &mut req.path {
                            if n == name {
                                *v = bad.as_str().unwrap().to_owned();
                            }
                        }
                    }
                }
                (req, place)
            })
            .boxed(),
    )
}

/// The URL of `req` for `op` (path parameters and query encoded).
fn url_of(base: &str, op: &Operation, req: &Request) -> reqwest::Url {
    let mut url = reqwest::Url::parse(base).unwrap();
    {
        let mut path = url.path_segments_mut().unwrap();
        path.clear();
        for segment in op.template.trim_start_matches('/').split('/') {
            let name = segment.trim_start_matches('{').trim_end_matches('}');
            match req
                .path
                .iter()
                .find(|(n, _)| segment.starts_with('{') && n == name)
            {
                Some((_, value)) => path.push(value),
                None => path.push(segment),
            };
        }
    }
    if !req.query.is_empty() {
        url.query_pairs_mut().extend_pairs(&req.query);
    }
    url
}

/// Sends `req`: the status and the body as JSON, or why there is none.
async fn send(
    http: &reqwest::Client,
    base: &str,
    token: &str,
    op: &Operation,
    req: &Request,
) -> Result<(u16, Value), String> {
    let method = reqwest::Method::from_bytes(req.method.as_bytes()).unwrap();
    let mut builder = http
        .request(method, url_of(base, op, req))
        .bearer_auth(token);
    if let Some(body) = &req.body {
        builder = builder.json(body);
    }
    let response = builder
        .send()
        .await
        .map_err(|e| format!("no answer: {e}"))?;
    let status = response.status().as_u16();
    let text = response
        .text()
        .await
        .map_err(|e| format!("answer cut: {e}"))?;
    let body = serde_json::from_str(&text)
        .map_err(|e| format!("HTTP {status}, not JSON ({e}): {text}"))?;
    Ok((status, body))
}

/// The name a refusal must give for `place`.
fn named(place: &Place) -> String {
    match place {
        Place::Body(at) => match at.iter().rev().find_map(|s| match s {
            Step::Key(k) => Some(k.clone()),
            Step::Item => None,
        }) {
            Some(key) => format!(".{key}"),
            None => ".".into(),
        },
        Place::Query(name) | Place::Path(name) => name.clone(),
    }
}

/// The demo server under test and a way to reach it from a plain test.
struct Target {
    // Dropped first: the server stops while its runtime still runs.
    server: findings_demo::DemoServer,
    runtime: tokio::runtime::Runtime,
    http: reqwest::Client,
}

impl Target {
    fn start() -> Target {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let server = runtime.block_on(common::demo(60));
        Target {
            server,
            runtime,
            http: common::http(),
        }
    }

    fn send(&self, op: &Operation, req: &Request) -> Result<(u16, Value), TestCaseError> {
        let (base, token) = (self.server.url(), self.server.token());
        self.runtime
            .block_on(send(&self.http, &base, token, op, req))
            .map_err(TestCaseError::fail)
    }

    fn post(&self, path: &str, body: Value) -> Value {
        let url = format!("{}{path}", self.server.url());
        self.runtime.block_on(async {
            let answer = self
                .http
                .post(url)
                .bearer_auth(self.server.token())
                .json(&body)
                .send();
            answer.await.unwrap().json().await.unwrap()
        })
    }

    /// A finding, an agentic issue, an autotriage taking feedback.
    fn known(&self) -> Known {
        let list = self.post("/api/agent/deployments/1234/issues", json!({"limit": 100}));
        let search = self.post("/api/issues/1234/search", json!({"limit": 1}));
        let issues = list["issues"].as_array().unwrap();
        let autotriaged = issues
            .iter()
            .map(|i| &i["issue"])
            .find(|i| {
                i["autotriage"]["verdict"].is_string()
                    && i["triagePermission"] != "TRIAGE_PERMISSION_NONE"
            })
            .expect("a finding with a verdict");
        Known {
            finding: issues[0]["issue"]["id"].as_str().unwrap().to_owned(),
            agentic: search["issues"][0]["id"].as_str().unwrap().to_owned(),
            autotriage: format!("at-{}", autotriaged["id"].as_str().unwrap()),
        }
    }
}

/// A runner of [`CASES`] cases from [`SEED`], shrinking a failure.
fn runner() -> TestRunner {
    let config = Config {
        cases: CASES,
        failure_persistence: None,
        max_shrink_iters: 200,
        ..Config::default()
    };
    TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &SEED))
}

/// Valid requests of `op` are accepted, their answers as published.
fn valid_are_accepted(
    t: &Target,
    c: &Contract,
    op: &Operation,
    known: &Known,
) -> Result<(), String> {
    let p = published();
    let published_op = p.operation_by_id(&op.id);
    runner()
        .run(&valid_requests(c, op, known), |req| {
            let (status, body) = t.send(op, &req)?;
            prop_assert!(
                (200..300).contains(&status),
                "{req:?} answered {status} {body}"
            );
            p.check_response(published_op, &body)
                .map_err(TestCaseError::fail)?;
            Ok(())
        })
        .map_err(|e| format!("{}: a valid request: {e}", op.id))
}

/// Requests of `op` with one place invalid are refused (400), naming it.
fn invalid_are_refused(
    t: &Target,
    c: &Contract,
    op: &Operation,
    known: &Known,
) -> Result<(), String> {
    let Some(invalid) = invalid_requests(c, op, known) else {
        return Ok(());
    };
    runner()
        .run(&invalid, |(req, place)| {
            let (status, body) = t.send(op, &req)?;
            prop_assert!(status == 400, "{req:?} answered {status} {body}");
            prop_assert!(body["code"] == "INVALID_ARGUMENT", "{body}");
            let message = body["error"].as_str().unwrap_or_default();
            let name = named(&place);
            prop_assert!(message.contains(&name), "{message:?} must name {name}");
            Ok(())
        })
        .map_err(|e| format!("{}: an invalid request: {e}", op.id))
}

#[test]
fn generated_requests_are_answered_as_the_contract_says() {
    let contract = Contract::load();
    assert_eq!(contract.operations.len(), 33, "every published operation");
    let target = Target::start();
    let known = target.known();
    let mut failures = Vec::new();
    for op in &contract.operations {
        if let Err(e) = valid_are_accepted(&target, &contract, op, &known) {
            failures.push(e);
        }
        if let Err(e) = invalid_are_refused(&target, &contract, op, &known) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
