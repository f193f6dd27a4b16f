//! The rule's part of a demo finding's wire `Issue`: what the rule is,
//! says and is filed under (the rest is built in `materialize`).

use super::catalog::{CodeRule, ScaAdvisory, SecretRule};
use super::dataset::*;
use super::rng::Rng;
use findings_model::*;

impl Dataset {
    /// An issue with only the rule's fields of row `index` set: its ids,
    /// message, taxonomy, ruleset and policy, and the issue type and group.
    pub(crate) fn rule_fields(&self, row: &Row, index: usize) -> Issue {
        let facts = self.rule_facts(row);
        let code_rule = self.code_rule(row);
        let advisory = self.advisory(row);
        let message = self.message(row, code_rule, advisory, self.secret_rule(row));
        let (cwe, owasp, references, origin) = rule_taxonomy(code_rule, advisory);
        Issue {
            rule_id: Some(facts.rule_id.to_owned()),
            vuln_group_key: advisory.map(|a| format!("{}:{}", a.package, a.vuln_id)),
            message: Some(message),
            rule_path: Some(facts.rule_path.to_owned()),
            rule_url: Some(format!("https://rules.example.com/r/{}", facts.rule_id)),
            rule_references: references,
            rule_origin: Some(origin),
            rule_hash_id: Some(
                Rng::for_item(self.seed, stream::RULE_HASH, u64::from(row.rule)).hex(16),
            ),
            rule_cwe_names: cwe,
            rule_owasp_names: owasp,
            ruleset: Some(facts.ruleset.to_owned()),
            policy_slug: Some(facts.policy_slug.to_owned()),
            category: Some(facts.category.to_owned()),
            subcategories: code_rule
                .map(|r| r.subcategories.clone())
                .unwrap_or_else(|| vec!["vuln".into()]),
            rule_superseded_by: superseded_by(index, facts.rule_path),
            issue_type: Some(row.kind.issue_type()),
            issue_parent_id: Some(format!("ip-{}-{}", row.repo, row.rule)),
            ..Issue::default()
        }
    }

    /// The finding's message: its rule's, with a sample of hostile text
    /// for the few rows that carry one.
    fn message(
        &self,
        row: &Row,
        code_rule: Option<&CodeRule>,
        advisory: Option<&ScaAdvisory>,
        secret: Option<&SecretRule>,
    ) -> String {
        let mut message = code_rule
            .map(|r| r.message.clone())
            .or_else(|| advisory.map(|a| a.message.clone()))
            .or_else(|| secret.map(|s| s.message.clone()))
            .unwrap_or_default();
        if let Some(u) = row.unicode {
            let sample = &self.catalog.unicode_samples[u as usize];
            message = format!("{message} {}", sample.text);
        }
        message
    }
}

/// The rule's CWE and OWASP names, references and origin.
fn rule_taxonomy(
    code_rule: Option<&CodeRule>,
    advisory: Option<&ScaAdvisory>,
) -> (Vec<String>, Vec<String>, Vec<String>, RuleOrigin) {
    if let Some(cr) = code_rule {
        (
            cr.cwe.clone(),
            cr.owasp.clone(),
            cr.references.clone(),
            RuleOrigin::from_wire(&cr.rule_origin),
        )
    } else if let Some(a) = advisory {
        (
            a.cwes.clone(),
            vec!["A06:2021 - Vulnerable and Outdated Components".into()],
            a.references.clone(),
            RuleOrigin::ProRules,
        )
    } else {
        (
            vec!["CWE-798: Use of Hard-coded Credentials".into()],
            vec!["A07:2021 - Identification and Authentication Failures".into()],
            vec![
                "https://owasp.org/Top10/A07_2021-Identification_and_Authentication_Failures/"
                    .into(),
            ],
            RuleOrigin::ProRules,
        )
    }
}

/// The rule that replaces this one, for a few findings.
fn superseded_by(index: usize, rule_path: &str) -> Vec<RuleSupersededBy> {
    if index.is_multiple_of(97) {
        vec![RuleSupersededBy {
            product: Some(RuleType::Sast),
            rule_path: Some(format!("{rule_path}-v2")),
        }]
    } else {
        vec![]
    }
}
