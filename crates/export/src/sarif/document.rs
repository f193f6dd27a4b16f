//! The SARIF 2.1.0 objects this export writes, as serde writes them. The
//! document and its run are written around the streamed results
//! (`super::head`, `SarifLog::finish`), not as objects.

use serde::Serialize;

#[derive(Serialize)]
pub(super) struct Tool<'a> {
    pub(super) driver: Driver<'a>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Driver<'a> {
    pub(super) name: &'static str,
    pub(super) version: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) information_uri: Option<String>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub(super) rules: &'a [Rule],
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Rule {
    pub(super) id: String,
    pub(super) name: String,
    pub(super) short_description: Text,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) full_description: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) help_uri: Option<String>,
    pub(super) properties: RuleProperties,
}

#[derive(Debug, Serialize)]
pub(super) struct Text {
    pub(super) text: String,
}

#[derive(Debug, Serialize)]
pub(super) struct RuleProperties {
    pub(super) tags: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) category: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) ruleset: Option<String>,
    #[serde(rename = "security-severity", skip_serializing_if = "Option::is_none")]
    pub(super) security_severity: Option<Score>,
}

/// A security-severity score, written as the string code scanning expects
/// ("8.0").
#[derive(Debug, Clone, Copy)]
pub(super) struct Score(pub(super) f64);

impl Serialize for Score {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{:.1}", self.0))
    }
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct SarifResult {
    /// Always present: SARIF1010 wants `ruleId` or `rule.id` on each result.
    pub(super) rule_id: String,
    pub(super) rule_index: usize,
    pub(super) level: &'static str,
    pub(super) message: Text,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(super) locations: Vec<ResultLocation>,
    #[serde(skip_serializing_if = "Fingerprints::is_empty")]
    pub(super) partial_fingerprints: Fingerprints,
    #[serde(skip_serializing_if = "ResultProperties::is_empty")]
    pub(super) properties: ResultProperties,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct ResultLocation {
    pub(super) physical_location: PhysicalLocation,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct PhysicalLocation {
    pub(super) artifact_location: ArtifactLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) region: Option<Region>,
}

#[derive(Debug, Serialize)]
pub(super) struct ArtifactLocation {
    pub(super) uri: String,
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
pub(super) struct Fingerprints {
    #[serde(rename = "matchBasedId/v1", skip_serializing_if = "Option::is_none")]
    pub(super) match_based: Option<String>,
    #[serde(rename = "syntacticId/v1", skip_serializing_if = "Option::is_none")]
    pub(super) syntactic: Option<String>,
}

impl Fingerprints {
    fn is_empty(&self) -> bool {
        self.match_based.is_none() && self.syntactic.is_none()
    }
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct ResultProperties {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) repository: Option<String>,
    #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
    pub(super) ref_: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) severity: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) issue_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) aggregate_state: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) triage_state: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) triage_reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) autotriage_verdict: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) line_of_code_url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) sca: Option<Sca>,
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
pub(super) struct Sca {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) package: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) version: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) vuln_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) reachability: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) epss: Option<Epss>,
}

impl Sca {
    pub(super) fn is_empty(&self) -> bool {
        self.package.is_none()
            && self.version.is_none()
            && self.vuln_id.is_none()
            && self.reachability.is_none()
            && self.epss.is_none()
    }
}

#[derive(Debug, Serialize)]
pub(super) struct Epss {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) score: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) percentile: Option<f64>,
}
