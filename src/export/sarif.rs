//! SARIF 2.1.0: one run, the rules seen (deduplicated, in order of first
//! appearance), one result per finding.
//!
//! A SARIF log cannot stream the way NDJSON does: the rules are gathered
//! across all results and `ruleIndex` points into them. So results are
//! collected as items arrive, keeping only what the SARIF needs (a few
//! strings per finding, never the whole issue), and the document is
//! written at the end. Empty values are left out rather than written as
//! `null`; region numbers are kept only when they are valid (1-based, an
//! end not before its start).

use crate::api::model::*;
use serde::Serialize;
use std::collections::HashMap;
use std::io::{self, Write};

pub const SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0.json";
pub const VERSION: &str = "2.1.0";
/// The tool's name in `tool.driver.name`.
pub const TOOL_NAME: &str = "findings";

/// Rules and results gathered so far.
#[derive(Debug, Default)]
pub struct SarifLog {
    rules: Vec<Rule>,
    /// Rule id → index into `rules`.
    rule_index: HashMap<String, usize>,
    results: Vec<SarifResult>,
}

impl SarifLog {
    pub fn new() -> SarifLog {
        SarifLog::default()
    }

    pub fn result_count(&self) -> usize {
        self.results.len()
    }

    pub fn rule_count(&self) -> usize {
        self.rules.len()
    }

    /// Adds one finding: its rule (once) and its result.
    pub fn add(&mut self, issue: &Issue) {
        let rule_id = rule_key(issue);
        let rule_index = rule_id.map(|id| self.rule(id, issue));
        self.results
            .push(result(issue, rule_id.map(str::to_owned), rule_index));
    }

    /// The index of the rule `id`, added from `issue` if it is new. A rule
    /// seen again keeps its first description; its security severity is
    /// the highest of its findings.
    fn rule(&mut self, id: &str, issue: &Issue) -> usize {
        let score = issue.severity.as_ref().and_then(security_severity);
        if let Some(&k) = self.rule_index.get(id) {
            let props = &mut self.rules[k].properties;
            if score.is_some_and(|s| props.security_severity.is_none_or(|old| s > old.0)) {
                props.security_severity = score.map(Score);
            }
            return k;
        }
        let k = self.rules.len();
        self.rules.push(new_rule(id, issue, score));
        self.rule_index.insert(id.to_owned(), k);
        k
    }

    /// Writes the whole document (pretty-printed, with a final newline).
    pub fn write<W: Write>(&self, mut out: W) -> io::Result<()> {
        serde_json::to_writer_pretty(&mut out, &self.document()).map_err(io::Error::other)?;
        out.write_all(b"\n")
    }

    fn document(&self) -> Document<'_> {
        let repository = env!("CARGO_PKG_REPOSITORY");
        let homepage = env!("CARGO_PKG_HOMEPAGE");
        let information_uri = [homepage, repository]
            .into_iter()
            .find(|u| is_absolute_uri(u))
            .map(str::to_owned);
        Document {
            schema: SCHEMA_URI,
            version: VERSION,
            runs: [Run {
                tool: Tool {
                    driver: Driver {
                        name: TOOL_NAME,
                        version: env!("CARGO_PKG_VERSION"),
                        information_uri,
                        rules: &self.rules,
                    },
                },
                results: &self.results,
            }],
        }
    }
}

/// The id a finding's rule goes by: the rule id, else the rule path.
fn rule_key(issue: &Issue) -> Option<&str> {
    [issue.rule_id.as_deref(), issue.rule_path.as_deref()]
        .into_iter()
        .flatten()
        .find(|s| !s.trim().is_empty())
}

fn non_empty(s: Option<&str>) -> Option<String> {
    s.filter(|s| !s.trim().is_empty()).map(str::to_owned)
}

/// SARIF's level for a severity: CRITICAL and HIGH are errors, MEDIUM a
/// warning, LOW and INFO notes; no or an unknown severity is a warning.
pub fn level(severity: Option<&Severity>) -> &'static str {
    match severity {
        Some(Severity::Critical | Severity::High) => "error",
        Some(Severity::Medium) => "warning",
        Some(Severity::Low | Severity::Info) => "note",
        Some(Severity::Other(_)) | None => "warning",
    }
}

/// The `security-severity` score code-scanning services read from a rule's
/// properties (9.0+ critical, 7.0+ high, 4.0+ medium, else low).
fn security_severity(s: &Severity) -> Option<f64> {
    match s {
        Severity::Critical => Some(9.5),
        Severity::High => Some(8.0),
        Severity::Medium => Some(5.5),
        Severity::Low => Some(2.0),
        Severity::Info | Severity::Other(_) => None,
    }
}

fn new_rule(id: &str, issue: &Issue, score: Option<f64>) -> Rule {
    let explanation = issue.rule_explanation.as_ref();
    // The short name lists show: the last part of a dotted rule id, the
    // display name, or for supply chain the advisory and its package
    // (`CVE-2023-45857 axios`; their rule ids are opaque).
    let name = non_empty(Some(issue.short_rule_label().as_str())).unwrap_or_else(|| id.to_owned());
    // Its title: the display name, else that short name.
    let short = non_empty(issue.rule_display_name.as_deref()).unwrap_or_else(|| name.clone());
    // What the model says of the rule: its explanation, else the summary.
    let full = non_empty(explanation.and_then(|e| e.explanation.as_deref()))
        .or_else(|| non_empty(explanation.and_then(|e| e.summary.as_deref())));
    let mut tags = vec!["security".to_owned()];
    for t in issue.rule_cwe_names.iter().chain(&issue.rule_owasp_names) {
        if !t.trim().is_empty() && !tags.contains(t) {
            tags.push(t.clone());
        }
    }
    Rule {
        id: id.to_owned(),
        name,
        short_description: Text { text: short },
        full_description: full.map(|text| Text { text }),
        help_uri: issue
            .rule_url
            .as_deref()
            .filter(|u| is_absolute_uri(u))
            .map(str::to_owned),
        properties: RuleProperties {
            tags,
            category: non_empty(issue.category.as_deref()),
            ruleset: non_empty(issue.ruleset.as_deref()),
            security_severity: score.map(Score),
        },
    }
}

fn result(issue: &Issue, rule_id: Option<String>, rule_index: Option<usize>) -> SarifResult {
    let message = non_empty(issue.message.as_deref())
        .or_else(|| non_empty(Some(issue.rule_label().as_str())))
        .unwrap_or_else(|| format!("finding {}", issue.id()).trim_end().to_owned());
    let locations = non_empty(issue.file_path.as_deref())
        .map(|path| {
            vec![ResultLocation {
                physical_location: PhysicalLocation {
                    artifact_location: ArtifactLocation {
                        uri: uri_reference(&path),
                    },
                    region: region(issue),
                },
            }]
        })
        .unwrap_or_default();
    let fingerprints = Fingerprints {
        match_based: non_empty(issue.match_based_id.as_deref()),
        syntactic: non_empty(issue.syntactic_id.as_deref()),
    };
    SarifResult {
        rule_id,
        rule_index,
        level: level(issue.severity.as_ref()),
        message: Text { text: message },
        locations,
        partial_fingerprints: fingerprints,
        properties: properties(issue),
    }
}

/// The region of a finding: lines and columns only when valid. Without a
/// start line there is no region (SARIF needs one of line or offset).
pub fn region(issue: &Issue) -> Option<Region> {
    let positive = |v: Option<i64>| v.filter(|&n| n >= 1);
    let start_line = positive(issue.line)?;
    let end_line = positive(issue.end_line).filter(|&e| e >= start_line);
    let start_column = positive(issue.column);
    let same_line = end_line.is_none_or(|e| e == start_line);
    let end_column = positive(issue.end_column).filter(|&e| {
        // On one line the end column cannot come before the start.
        !same_line || start_column.is_none_or(|s| e >= s)
    });
    Some(Region {
        start_line,
        end_line,
        start_column,
        end_column,
    })
}

fn properties(issue: &Issue) -> ResultProperties {
    let wire = |v: Option<&str>| non_empty(v);
    let sca = issue.sca_attributes.as_ref().map(|s| {
        let dep = s.found_dependency.as_ref();
        let epss = s.epss_score.as_ref().map(|e| Epss {
            score: e.score.filter(|v| v.is_finite()),
            percentile: e.percentile.filter(|v| v.is_finite()),
        });
        Sca {
            package: non_empty(dep.and_then(|d| d.package.as_deref())),
            version: non_empty(dep.and_then(|d| d.version.as_deref())),
            vuln_id: non_empty(s.vuln_database_identifier.as_deref()),
            reachability: wire(s.reachability.as_ref().map(Reachability::as_wire)),
            epss: epss.filter(|e| e.score.is_some() || e.percentile.is_some()),
        }
    });
    ResultProperties {
        id: non_empty(issue.id.as_deref()),
        repository: non_empty(Some(issue.repository_name())),
        ref_: non_empty(issue.ref_.as_deref()),
        severity: wire(issue.severity.as_ref().map(Severity::as_wire)),
        issue_type: wire(issue.issue_type.as_ref().map(IssueType::as_wire)),
        aggregate_state: wire(issue.aggregate_state.as_ref().map(AggregateState::as_wire)),
        triage_state: wire(issue.triage_state.as_ref().map(TriageState::as_wire)),
        triage_reason: wire(issue.triage_reason.as_ref().map(TriageReason::as_wire)),
        autotriage_verdict: wire(
            issue
                .autotriage
                .as_ref()
                .and_then(|a| a.verdict.as_ref())
                .map(Verdict::as_wire),
        ),
        line_of_code_url: issue
            .line_of_code_url
            .as_deref()
            .filter(|u| is_absolute_uri(u))
            .map(str::to_owned),
        sca: sca.filter(|s| !s.is_empty()),
    }
}

/// Whether `s` is an absolute http(s) URI without control characters or
/// spaces (SARIF's `format: uri` fields).
fn is_absolute_uri(s: &str) -> bool {
    !s.chars().any(|c| c.is_control() || c.is_whitespace())
        && url::Url::parse(s).is_ok_and(|u| matches!(u.scheme(), "http" | "https"))
}

/// A file path as a URI reference (RFC 3986): characters a path segment may
/// hold stay, everything else (spaces, `%`, `#`, `?`, non-ASCII, controls)
/// is percent-encoded from its UTF-8 bytes. Backslashes become `/`.
pub fn uri_reference(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for c in path.chars() {
        let c = if c == '\\' { '/' } else { c };
        if c.is_ascii_alphanumeric() || "-._~!$&'()*+,;=:@/".contains(c) {
            out.push(c);
        } else {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        }
    }
    // A first segment with a colon would read as a scheme ("C:/x").
    let first = out.split('/').next().unwrap_or("");
    if first.contains(':') {
        out.insert_str(0, "./");
    }
    out
}

// ------------------------------------------------------------ the document

#[derive(Serialize)]
struct Document<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: [Run<'a>; 1],
}

#[derive(Serialize)]
struct Run<'a> {
    tool: Tool<'a>,
    results: &'a [SarifResult],
}

#[derive(Serialize)]
struct Tool<'a> {
    driver: Driver<'a>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver<'a> {
    name: &'static str,
    version: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    information_uri: Option<String>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    rules: &'a [Rule],
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Rule {
    id: String,
    name: String,
    short_description: Text,
    #[serde(skip_serializing_if = "Option::is_none")]
    full_description: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    help_uri: Option<String>,
    properties: RuleProperties,
}

#[derive(Debug, Serialize)]
struct Text {
    text: String,
}

#[derive(Debug, Serialize)]
struct RuleProperties {
    tags: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    category: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ruleset: Option<String>,
    #[serde(rename = "security-severity", skip_serializing_if = "Option::is_none")]
    security_severity: Option<Score>,
}

/// A security-severity score, written as the string code scanning expects
/// ("8.0").
#[derive(Debug, Clone, Copy)]
struct Score(f64);

impl Serialize for Score {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{:.1}", self.0))
    }
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult {
    #[serde(skip_serializing_if = "Option::is_none")]
    rule_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rule_index: Option<usize>,
    level: &'static str,
    message: Text,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    locations: Vec<ResultLocation>,
    #[serde(skip_serializing_if = "Fingerprints::is_empty")]
    partial_fingerprints: Fingerprints,
    #[serde(skip_serializing_if = "ResultProperties::is_empty")]
    properties: ResultProperties,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ResultLocation {
    physical_location: PhysicalLocation,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    region: Option<Region>,
}

#[derive(Debug, Serialize)]
struct ArtifactLocation {
    uri: String,
}

/// A SARIF region: 1-based lines and columns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Region {
    pub start_line: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_line: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_column: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_column: Option<i64>,
}

#[derive(Debug, Default, Serialize)]
struct Fingerprints {
    #[serde(rename = "matchBasedId/v1", skip_serializing_if = "Option::is_none")]
    match_based: Option<String>,
    #[serde(rename = "syntacticId/v1", skip_serializing_if = "Option::is_none")]
    syntactic: Option<String>,
}

impl Fingerprints {
    fn is_empty(&self) -> bool {
        self.match_based.is_none() && self.syntactic.is_none()
    }
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ResultProperties {
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    repository: Option<String>,
    #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
    ref_: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    severity: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    issue_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    aggregate_state: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    triage_state: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    triage_reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    autotriage_verdict: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    line_of_code_url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sca: Option<Sca>,
}

impl ResultProperties {
    fn is_empty(&self) -> bool {
        [
            &self.id,
            &self.repository,
            &self.ref_,
            &self.severity,
            &self.issue_type,
            &self.aggregate_state,
            &self.triage_state,
            &self.triage_reason,
            &self.autotriage_verdict,
            &self.line_of_code_url,
        ]
        .iter()
        .all(|v| v.is_none())
            && self.sca.is_none()
    }
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Sca {
    #[serde(skip_serializing_if = "Option::is_none")]
    package: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    version: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    vuln_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reachability: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    epss: Option<Epss>,
}

impl Sca {
    fn is_empty(&self) -> bool {
        self.package.is_none()
            && self.version.is_none()
            && self.vuln_id.is_none()
            && self.reachability.is_none()
            && self.epss.is_none()
    }
}

#[derive(Debug, Serialize)]
struct Epss {
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    percentile: Option<f64>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn finding(id: &str, rule: &str, severity: Severity) -> Issue {
        Issue {
            id: Some(id.into()),
            rule_id: Some(rule.into()),
            rule_path: Some(rule.into()),
            severity: Some(severity),
            message: Some(format!("message of {id}")),
            file_path: Some("src/app.py".into()),
            line: Some(10),
            ..Default::default()
        }
    }

    fn document(issues: &[Issue]) -> Value {
        let mut log = SarifLog::new();
        for i in issues {
            log.add(i);
        }
        let mut out = Vec::new();
        log.write(&mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.ends_with("}\n"));
        serde_json::from_str(&text).unwrap()
    }

    #[test]
    fn levels_follow_severity() {
        assert_eq!(level(Some(&Severity::Critical)), "error");
        assert_eq!(level(Some(&Severity::High)), "error");
        assert_eq!(level(Some(&Severity::Medium)), "warning");
        assert_eq!(level(Some(&Severity::Low)), "note");
        assert_eq!(level(Some(&Severity::Info)), "note");
        assert_eq!(
            level(Some(&Severity::Other("SEVERITY_X".into()))),
            "warning"
        );
        assert_eq!(level(None), "warning");
    }

    #[test]
    fn empty_input_is_a_document_with_one_run_and_no_results() {
        let doc = document(&[]);
        assert_eq!(doc["$schema"], SCHEMA_URI);
        assert_eq!(doc["version"], "2.1.0");
        let runs = doc["runs"].as_array().unwrap();
        assert_eq!(runs.len(), 1);
        assert_eq!(runs[0]["results"], json!([]));
        assert_eq!(runs[0]["tool"]["driver"]["name"], "findings");
        assert_eq!(
            runs[0]["tool"]["driver"]["version"],
            env!("CARGO_PKG_VERSION")
        );
        assert!(runs[0]["tool"]["driver"].get("rules").is_none());
    }

    #[test]
    fn rules_are_deduplicated_and_results_point_at_them() {
        let doc = document(&[
            finding("1", "py.sqli", Severity::Medium),
            finding("2", "py.xss", Severity::Low),
            finding("3", "py.sqli", Severity::Critical),
        ]);
        let run = &doc["runs"][0];
        let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
        let ids: Vec<&str> = rules.iter().map(|r| r["id"].as_str().unwrap()).collect();
        assert_eq!(ids, ["py.sqli", "py.xss"]);
        let results = run["results"].as_array().unwrap();
        let pairs: Vec<(&str, u64)> = results
            .iter()
            .map(|r| {
                (
                    r["ruleId"].as_str().unwrap(),
                    r["ruleIndex"].as_u64().unwrap(),
                )
            })
            .collect();
        assert_eq!(pairs, [("py.sqli", 0), ("py.xss", 1), ("py.sqli", 0)]);
        let levels: Vec<&str> = results
            .iter()
            .map(|r| r["level"].as_str().unwrap())
            .collect();
        assert_eq!(levels, ["warning", "note", "error"]);
        // A rule's security severity is the highest of its findings.
        assert_eq!(rules[0]["properties"]["security-severity"], "9.5");
        assert_eq!(rules[1]["properties"]["security-severity"], "2.0");
        assert_eq!(rules[0]["name"], "sqli");
    }

    #[test]
    fn rule_metadata_tags_and_help_uri() {
        let mut i = finding("1", "java.xxe", Severity::High);
        i.rule_url = Some("https://rules.example.com/r/java.xxe".into());
        i.rule_cwe_names = vec!["CWE-611: XXE".into(), "CWE-611: XXE".into()];
        i.rule_owasp_names = vec!["A05:2021 - Security Misconfiguration".into()];
        i.category = Some("security".into());
        i.ruleset = Some("java".into());
        let doc = document(&[i]);
        let rule = &doc["runs"][0]["tool"]["driver"]["rules"][0];
        assert_eq!(rule["helpUri"], "https://rules.example.com/r/java.xxe");
        assert_eq!(
            rule["properties"]["tags"],
            json!([
                "security",
                "CWE-611: XXE",
                "A05:2021 - Security Misconfiguration"
            ])
        );
        assert_eq!(rule["properties"]["category"], "security");
        assert_eq!(rule["properties"]["ruleset"], "java");
        assert_eq!(rule["name"], "xxe");
        assert_eq!(rule["shortDescription"]["text"], "xxe");

        // A help URI that is not an absolute web URI is left out.
        let mut bad = finding("2", "x", Severity::High);
        bad.rule_url = Some("javascript:alert(1)".into());
        let doc = document(&[bad]);
        assert!(
            doc["runs"][0]["tool"]["driver"]["rules"][0]
                .get("helpUri")
                .is_none()
        );
    }

    fn rule_of(issue: Issue) -> Value {
        document(&[issue])["runs"][0]["tool"]["driver"]["rules"][0].clone()
    }

    fn supply_chain(rule: &str, vuln: Option<&str>, package: Option<&str>) -> Issue {
        let mut i = finding("9", rule, Severity::High);
        i.sca_attributes = Some(ScaAttributes {
            vuln_database_identifier: vuln.map(str::to_owned),
            found_dependency: package.map(|p| Dependency {
                package: Some(p.to_owned()),
                ..Default::default()
            }),
            ..Default::default()
        });
        i
    }

    #[test]
    fn every_rule_has_a_short_name_and_a_description_that_says_something() {
        // Code: the last part of the dotted rule id, for both.
        let rule = rule_of(finding(
            "1",
            "typescript.express.security.audit.open-redirect.open-redirect",
            Severity::High,
        ));
        assert_eq!(rule["name"], "open-redirect");
        assert_eq!(rule["shortDescription"]["text"], "open-redirect");
        assert!(rule.get("fullDescription").is_none());

        // Supply chain: the rule id is opaque; the advisory and package name it.
        let ssc = "ssc-5f74be81-4896-5993-a019-2374798726cb";
        let rule = rule_of(supply_chain(ssc, Some("CVE-2023-45857"), Some("axios")));
        assert_eq!(rule["id"], ssc);
        assert_eq!(rule["name"], "CVE-2023-45857 axios");
        assert_eq!(rule["shortDescription"]["text"], "CVE-2023-45857 axios");
        // A package name with dots is not cut.
        let rule = rule_of(supply_chain(
            ssc,
            Some("CVE-2024-21907"),
            Some("Newtonsoft.Json"),
        ));
        assert_eq!(rule["name"], "CVE-2024-21907 Newtonsoft.Json");
        let rule = rule_of(supply_chain(ssc, Some("GHSA-jchw-25xp-jwwc"), None));
        assert_eq!(rule["name"], "GHSA-jchw-25xp-jwwc");
        // Nothing better than the id: the id is the name.
        let rule = rule_of(supply_chain(ssc, None, Some("axios")));
        assert_eq!(rule["name"], ssc);

        // The display name is the rule's title, and its explanation the
        // full description (the summary without one).
        let mut i = finding(
            "2",
            "java.spring.security.injection.tainted-sql-string",
            Severity::High,
        );
        i.rule_display_name = Some("Tainted SQL string".into());
        i.rule_explanation = Some(RuleExplanation {
            summary: Some("User input reaches a SQL string.".into()),
            explanation: Some("The query is built by concatenation ...".into()),
            ..Default::default()
        });
        let rule = rule_of(i.clone());
        assert_eq!(rule["name"], "Tainted SQL string");
        assert_eq!(rule["shortDescription"]["text"], "Tainted SQL string");
        assert_eq!(
            rule["fullDescription"]["text"],
            "The query is built by concatenation ..."
        );
        i.rule_explanation.as_mut().unwrap().explanation = None;
        assert_eq!(
            rule_of(i)["fullDescription"]["text"],
            "User input reaches a SQL string."
        );

        // A rule id without dots, and a rule known by its path only.
        assert_eq!(rule_of(finding("3", "x", Severity::Low))["name"], "x");
        let path_only = Issue {
            rule_path: Some("go.lang.security.audit.crypto.use-of-md5".into()),
            ..Default::default()
        };
        let rule = rule_of(path_only);
        assert_eq!(rule["id"], "go.lang.security.audit.crypto.use-of-md5");
        assert_eq!(rule["name"], "use-of-md5");
    }

    #[test]
    fn fingerprints_and_properties_carry_ids_state_and_sca() {
        let mut i = finding("42", "ssc-1", Severity::High);
        i.match_based_id = Some("mb-1".into());
        i.syntactic_id = Some("syn-1".into());
        i.repository = Some(Repository {
            name: Some("acme/api".into()),
            ..Default::default()
        });
        i.ref_ = Some("main".into());
        i.aggregate_state = Some(AggregateState::Open);
        i.triage_state = Some(TriageState::Reviewing);
        i.triage_reason = Some(TriageReason::AcceptableRisk);
        i.autotriage = Some(Autotriage {
            verdict: Some(Verdict::TruePositive),
            ..Default::default()
        });
        i.sca_attributes = Some(ScaAttributes {
            vuln_database_identifier: Some("CVE-2024-1".into()),
            reachability: Some(Reachability::Reachable),
            found_dependency: Some(Dependency {
                package: Some("lodash".into()),
                version: Some("4.17.0".into()),
                ..Default::default()
            }),
            epss_score: Some(EpssScore {
                score: Some(0.5),
                percentile: Some(0.9),
                ..Default::default()
            }),
            ..Default::default()
        });
        let doc = document(&[i]);
        let r = &doc["runs"][0]["results"][0];
        assert_eq!(
            r["partialFingerprints"],
            json!({"matchBasedId/v1": "mb-1", "syntacticId/v1": "syn-1"})
        );
        let p = &r["properties"];
        assert_eq!(p["id"], "42");
        assert_eq!(p["repository"], "acme/api");
        assert_eq!(p["ref"], "main");
        assert_eq!(p["aggregateState"], "AGGREGATE_ISSUE_STATE_OPEN");
        assert_eq!(p["triageState"], "FINDING_TRIAGE_STATE_REVIEWING");
        assert_eq!(p["triageReason"], "FINDING_TRIAGE_REASON_ACCEPTABLE_RISK");
        assert_eq!(p["autotriageVerdict"], "VERDICT_TRUE_POSITIVE");
        assert_eq!(
            p["sca"],
            json!({
                "package": "lodash", "version": "4.17.0", "vulnId": "CVE-2024-1",
                "reachability": "REACHABILITY_REACHABLE",
                "epss": {"score": 0.5, "percentile": 0.9}
            })
        );
        // The rule of a supply-chain finding is described by its advisory.
        assert_eq!(
            doc["runs"][0]["tool"]["driver"]["rules"][0]["shortDescription"]["text"],
            "CVE-2024-1 lodash"
        );
    }

    #[test]
    fn empty_fields_are_left_out_never_null() {
        let bare = Issue::default();
        let doc = document(&[bare]);
        let text = doc.to_string();
        assert!(!text.contains("null"), "{text}");
        let r = &doc["runs"][0]["results"][0];
        assert!(r.get("ruleId").is_none() && r.get("ruleIndex").is_none());
        assert!(r.get("locations").is_none());
        assert!(r.get("partialFingerprints").is_none());
        assert!(r.get("properties").is_none());
        assert_eq!(r["level"], "warning");
        assert!(!r["message"]["text"].as_str().unwrap().is_empty());
    }

    fn region_of(line: i64, end_line: i64, col: i64, end_col: i64) -> Option<Region> {
        region(&Issue {
            line: Some(line),
            end_line: Some(end_line),
            column: Some(col),
            end_column: Some(end_col),
            ..Default::default()
        })
    }

    #[test]
    fn regions_keep_only_valid_positions() {
        assert_eq!(
            region_of(3, 5, 2, 9),
            Some(Region {
                start_line: 3,
                end_line: Some(5),
                start_column: Some(2),
                end_column: Some(9)
            })
        );
        // No valid start line: no region at all.
        assert_eq!(region_of(0, 5, 2, 9), None);
        assert_eq!(region_of(-1, 5, 2, 9), None);
        assert_eq!(region(&Issue::default()), None);
        // An end before the start, zero or negative columns are dropped.
        let r = region_of(7, 6, 0, -4).unwrap();
        assert_eq!(
            (r.start_line, r.end_line, r.start_column, r.end_column),
            (7, None, None, None)
        );
        // On one line the end column cannot come before the start column;
        // on a later line it can.
        assert_eq!(region_of(4, 4, 10, 3).unwrap().end_column, None);
        assert_eq!(region_of(4, 6, 10, 3).unwrap().end_column, Some(3));
    }

    #[test]
    fn paths_become_uri_references() {
        assert_eq!(uri_reference("src/app.py"), "src/app.py");
        assert_eq!(uri_reference("my dir/a#1?.js"), "my%20dir/a%231%3F.js");
        assert_eq!(uri_reference("数据/ü.py"), "%E6%95%B0%E6%8D%AE/%C3%BC.py");
        assert_eq!(uri_reference("a\u{1b}[31m"), "a%1B%5B31m");
        assert_eq!(uri_reference("100%.txt"), "100%25.txt");
        assert_eq!(uri_reference("C:\\src\\x.cs"), "./C:/src/x.cs");
        let doc = document(&[Issue {
            file_path: Some("dir name/file.rs".into()),
            line: Some(1),
            ..Default::default()
        }]);
        assert_eq!(
            doc["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "dir%20name/file.rs"
        );
    }
}
