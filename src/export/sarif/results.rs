//! A SARIF result per finding: its level, message, location,
//! fingerprints and properties.

use super::document::{
    ArtifactLocation, Epss, Fingerprints, PhysicalLocation, Region, ResultLocation,
    ResultProperties, SarifResult, Sca, Text,
};
use super::{is_absolute_uri, non_empty};
use crate::api::model::*;

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

pub(super) fn result(issue: &Issue, rule_id: String, rule_index: usize) -> SarifResult {
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
