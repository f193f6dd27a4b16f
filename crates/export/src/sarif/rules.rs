//! A SARIF rule from the first finding of each rule.

use super::document::{Rule, RuleProperties, Score, Text};
use super::{is_absolute_uri, non_empty};
use findings_model::*;

/// A finding with nothing to name its rule by still needs one: SARIF
/// requires `ruleId` or `rule.id` on every result (SARIF1010).
pub(super) const UNIDENTIFIED_RULE: &str = "unidentified-rule";

/// The id a finding's rule goes by: the rule id, else the rule path, the
/// advisory or the secret type, else [`UNIDENTIFIED_RULE`].
pub(super) fn rule_key(issue: &Issue) -> &str {
    let advisory = issue
        .sca_attributes
        .as_ref()
        .and_then(|a| a.vuln_database_identifier.as_deref());
    let secret = issue
        .secrets_attributes
        .as_ref()
        .and_then(|a| a.secret_type.as_deref());
    [
        issue.rule_id.as_deref(),
        issue.rule_path.as_deref(),
        advisory,
        secret,
    ]
    .into_iter()
    .flatten()
    .find(|s| !s.trim().is_empty())
    .unwrap_or(UNIDENTIFIED_RULE)
}

/// The `security-severity` score code-scanning services read from a rule's
/// properties (9.0+ critical, 7.0+ high, 4.0+ medium, else low).
pub(super) fn security_severity(s: &Severity) -> Option<f64> {
    match s {
        Severity::Critical => Some(9.5),
        Severity::High => Some(8.0),
        Severity::Medium => Some(5.5),
        Severity::Low => Some(2.0),
        Severity::Info | Severity::Other(_) => None,
    }
}

pub(super) fn new_rule(id: &str, issue: &Issue, score: Option<f64>) -> Rule {
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
