//! A SARIF result per finding: its level, message, location,
//! fingerprints and properties.

use super::document::{
    ArtifactLocation, Epss, Fingerprints, PhysicalLocation, Region, ResultLocation,
    ResultProperties, SarifResult, Sca, Text,
};
use super::{is_absolute_uri, non_empty};
use findings_model::*;

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
        .and_then(|path| uri_reference(&path))
        .map(|uri| {
            vec![ResultLocation {
                physical_location: PhysicalLocation {
                    artifact_location: ArtifactLocation { uri },
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

/// A file path as a relative URI reference (RFC 3986) that cannot leave
/// the repository: what code scanning and editors resolve against their
/// checkout. Backslashes count as `/`; a drive letter (`C:`), a UNC or
/// root prefix and `.` segments are dropped; `a/../b` is `b`. A path
/// whose `..` would climb above its root cannot be made safe, so it is
/// dropped to its file name (its folders are not trusted). What is left
/// is percent-encoded: characters a path segment may hold stay, others
/// (spaces, `%`, `#`, `?`, `:`, non-ASCII, controls) are encoded from
/// their UTF-8 bytes. `None` when no file name is left.
pub fn uri_reference(path: &str) -> Option<String> {
    let path = path.replace('\\', "/");
    let path = strip_drive(&path);
    let mut segments: Vec<&str> = Vec::new();
    let mut climbs_out = false;
    for segment in path.split('/') {
        match segment {
            "" | "." => {}
            ".." => climbs_out |= segments.pop().is_none(),
            s => segments.push(s),
        }
    }
    if climbs_out {
        segments.drain(..segments.len().saturating_sub(1));
    }
    if segments.is_empty() {
        return None;
    }
    let encoded: Vec<String> = segments.iter().map(|s| encode_segment(s)).collect();
    Some(encoded.join("/"))
}

/// `C:` or `c:` at the start (a Windows drive) goes.
fn strip_drive(path: &str) -> &str {
    let bytes = path.as_bytes();
    if bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':' {
        &path[2..]
    } else {
        path
    }
}

fn encode_segment(segment: &str) -> String {
    let mut out = String::with_capacity(segment.len());
    for c in segment.chars() {
        // `:` too: in a first segment it would read as a scheme.
        if c.is_ascii_alphanumeric() || "-._~!$&'()*+,;=@".contains(c) {
            out.push(c);
        } else {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        }
    }
    out
}
