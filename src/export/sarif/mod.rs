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

use crate::api::model::Issue;
use document::{Document, Driver, Rule, Run, SarifResult, Score, Tool};
use results::result;
use rules::{new_rule, rule_key, security_severity};
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
        let rule_index = self.rule(rule_id, issue);
        self.results
            .push(result(issue, rule_id.to_owned(), rule_index));
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
        crate::json::write_pretty(&mut out, &self.document())
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

fn non_empty(s: Option<&str>) -> Option<String> {
    s.filter(|s| !s.trim().is_empty()).map(str::to_owned)
}

/// Whether `s` is an absolute http(s) URI without control characters or
/// spaces (SARIF's `format: uri` fields).
fn is_absolute_uri(s: &str) -> bool {
    !s.chars().any(|c| c.is_control() || c.is_whitespace())
        && url::Url::parse(s).is_ok_and(|u| matches!(u.scheme(), "http" | "https"))
}
