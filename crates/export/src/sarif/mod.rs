//! SARIF 2.1.0: one run, the rules seen (deduplicated, in order of first
//! appearance), one result per finding.
//!
//! The results stream: each is written as its finding arrives, so memory
//! stays flat however many findings a listing follows. The rules are few;
//! they are gathered as results arrive (a result's `ruleIndex` is its
//! rule's order of first appearance, known at once) and written at the
//! end, after the results (`tool` follows `results` in the run: JSON object
//! members have no order). Empty values are left out rather than written as
//! `null`; region numbers are kept only when they are valid (1-based, an
//! end not before its start).
//!
//! `document` is the SARIF object model as written; `rules` and `results`
//! build its rules and results from findings.

mod document;
mod results;
mod rules;
#[cfg(test)]
mod tests;

pub use document::Region;
pub use results::{level, region, uri_reference};

use document::{Driver, Rule, Score, Tool};
use findings_model::Issue;
use results::result;
use rules::{new_rule, rule_key, security_severity};
use std::collections::HashMap;
use std::io::{self, Write};

pub const SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0.json";
pub const VERSION: &str = "2.1.0";
/// The tool's name in `tool.driver.name`.
pub const TOOL_NAME: &str = "findings";

/// The rules gathered so far, and how many results were written.
#[derive(Debug, Default)]
pub struct SarifLog {
    rules: Vec<Rule>,
    /// Rule id → index into `rules`.
    rule_index: HashMap<String, usize>,
    results: usize,
}

/// The document up to its results (pretty-printed as serde_json does).
fn head() -> String {
    let mut text = String::from("{\n");
    text.push_str(&format!("  \"$schema\": {},\n", json_string(SCHEMA_URI)));
    text.push_str(&format!("  \"version\": {},\n", json_string(VERSION)));
    text.push_str("  \"runs\": [\n    {\n      \"results\": [");
    text
}

fn json_string(s: &str) -> String {
    String::from_utf8(findings_base::json::encode(s).unwrap_or_default()).unwrap_or_default()
}

/// `value` pretty-printed at depth `indent` of the document.
fn nested<T: serde::Serialize>(value: &T, indent: usize) -> io::Result<String> {
    findings_base::json::pretty_at(value, indent).map_err(io::Error::other)
}

impl SarifLog {
    pub fn new() -> SarifLog {
        SarifLog::default()
    }

    pub fn result_count(&self) -> usize {
        self.results
    }

    pub fn rule_count(&self) -> usize {
        self.rules.len()
    }

    /// Writes one finding's result (the document's head before the first),
    /// its rule kept for the end.
    pub fn add<W: Write>(&mut self, out: &mut W, issue: &Issue) -> io::Result<()> {
        let rule_id = rule_key(issue);
        let rule_index = self.rule(rule_id, issue);
        let result = result(issue, rule_id.to_owned(), rule_index);
        let text = nested(&result, 8)?;
        if self.results == 0 {
            out.write_all(head().as_bytes())?;
        } else {
            out.write_all(b",")?;
        }
        write!(out, "\n        {text}")?;
        self.results += 1;
        Ok(())
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

    /// Ends the document: the results closed, then the tool with every
    /// rule seen (a final newline).
    pub fn finish<W: Write>(&self, out: &mut W) -> io::Result<()> {
        if self.results == 0 {
            out.write_all(head().as_bytes())?;
            out.write_all(b"],\n")?;
        } else {
            out.write_all(b"\n      ],\n")?;
        }
        let tool = nested(&self.tool(), 6)?;
        write!(out, "      \"tool\": {tool}\n    }}\n  ]\n}}\n")
    }

    fn tool(&self) -> Tool<'_> {
        let repository = env!("CARGO_PKG_REPOSITORY");
        let homepage = env!("CARGO_PKG_HOMEPAGE");
        let information_uri = [homepage, repository]
            .into_iter()
            .find(|u| is_absolute_uri(u))
            .map(str::to_owned);
        Tool {
            driver: Driver {
                name: TOOL_NAME,
                version: env!("CARGO_PKG_VERSION"),
                information_uri,
                rules: &self.rules,
            },
        }
    }
}

fn non_empty(s: Option<&str>) -> Option<String> {
    s.filter(|s| !s.trim().is_empty()).map(str::to_owned)
}

/// Whether `s` is an absolute http(s) URI without control characters or
/// spaces (SARIF's `format: uri` fields).
fn is_absolute_uri(s: &str) -> bool {
    !s.chars().any(|c| c.is_control() || c.is_whitespace())
        && url::Url::parse(s).is_ok_and(|u| matches!(u.scheme(), "http" | "https"))
}
