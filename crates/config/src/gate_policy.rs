//! The policy of `findings gate`: which findings a change may not bring.
//! Read from `.findings/gate.toml` at the repository's root, a file named
//! by `--policy`, or a profile's `[gate]` table, with the same checks as
//! the config file: an unknown key or a bad value is refused naming the
//! file, the line and the key, with the names it most likely meant.
//!
//! Every key has a default ([`GatePolicy::default`]): critical and high
//! findings of every kind fail; ignored ones (in the app, in code, or
//! provisionally) count as handled; no exemption; old findings are not
//! gated.

use super::ConfigError;
use super::toml_error;
use chrono::NaiveDate;
use findings_model::{AggregateState, Issue, IssueType, Severity};
use findings_requests::filter_spec::did_you_mean;
use serde::Deserialize;
use std::path::Path;

/// Where the policy is looked for, from the repository's root.
pub const GATE_POLICY_FILE: &str = ".findings/gate.toml";

/// The kinds of finding, as the policy names them.
pub const KINDS: [&str; 3] = ["code", "supply-chain", "secrets"];

/// The states a policy may count as handled: the closed-by-a-person ones,
/// and the two a person is working in.
pub const HANDLED_STATES: [AggregateState; 5] = [
    AggregateState::IgnoredApp,
    AggregateState::IgnoredCode,
    AggregateState::ProvisionallyIgnoredApp,
    AggregateState::Reviewing,
    AggregateState::Fixing,
];

/// The policy, checked.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GatePolicy {
    /// New or reopened findings of these severities fail.
    pub severities: Vec<SeverityName>,
    /// Of these kinds (code, supply-chain, secrets).
    pub kinds: Vec<KindName>,
    /// A finding in one of these states counts as handled, never refused.
    pub handled: Vec<StateName>,
    pub supply_chain: SupplyChain,
    /// Findings not refused, each for a reason, until a date.
    pub exempt: Vec<Exemption>,
    pub old_findings: OldFindings,
}

impl Default for GatePolicy {
    fn default() -> Self {
        GatePolicy {
            severities: vec![
                SeverityName(Severity::Critical),
                SeverityName(Severity::High),
            ],
            kinds: KINDS.iter().map(|k| KindName((*k).to_owned())).collect(),
            handled: HANDLED_STATES[..3]
                .iter()
                .map(|s| StateName(s.clone()))
                .collect(),
            supply_chain: SupplyChain::default(),
            exempt: Vec::new(),
            old_findings: OldFindings::default(),
        }
    }
}

/// `[supply_chain]`: what of a supply-chain finding's analysis it takes
/// to fail. The published finding carries reachability and an EPSS score
/// (no exploit maturity).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SupplyChain {
    /// Only findings whose vulnerable code is reachable (always or
    /// conditionally) fail.
    pub reachable_only: bool,
    /// Only findings whose EPSS probability is at least this (0 to 1)
    /// fail; a finding without a score fails (it cannot be known low).
    pub min_epss: Option<Probability>,
}

/// `[old_findings]`: a second gate, on findings the change did not bring.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OldFindings {
    /// An open finding of the ref more than this many days past its
    /// severity's open-age target (the profile's `sla_days`) fails.
    pub max_days_over_target: Option<u32>,
}

/// `[[exempt]]`: a rule, a path, or both (then both must match).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "RawExemption")]
pub struct Exemption {
    pub rule: Option<String>,
    pub path: Option<String>,
    pub reason: String,
    /// The last day it exempts; after it, it fails the gate, said by name.
    pub expires: Option<NaiveDate>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawExemption {
    rule: Option<String>,
    path: Option<String>,
    reason: Option<String>,
    expires: Option<toml::Value>,
}

impl TryFrom<RawExemption> for Exemption {
    type Error = String;
    fn try_from(raw: RawExemption) -> Result<Exemption, String> {
        let given = |v: Option<String>| v.map(|s| s.trim().to_owned()).filter(|s| !s.is_empty());
        let (rule, path) = (given(raw.rule), given(raw.path));
        if rule.is_none() && path.is_none() {
            return Err("an exemption names a rule, a path, or both".into());
        }
        let reason = given(raw.reason).ok_or("an exemption needs a reason (reason = \"...\")")?;
        let expires = raw.expires.map(expiry).transpose()?;
        Ok(Exemption {
            rule,
            path,
            reason,
            expires,
        })
    }
}

/// A date, written as a TOML date (`2027-01-31`) or a string.
fn expiry(value: toml::Value) -> Result<NaiveDate, String> {
    let text = match value {
        toml::Value::String(s) => s,
        toml::Value::Datetime(d) => d.to_string(),
        other => {
            return Err(format!(
                "expires takes a date (2027-01-31), not a {}",
                other.type_str()
            ));
        }
    };
    NaiveDate::parse_from_str(text.trim(), "%Y-%m-%d")
        .map_err(|_| format!("expires {:?} is not a date (2027-01-31)", text.trim()))
}

impl Exemption {
    /// How it is named where it is said: `rule X in path Y`.
    pub fn name(&self) -> String {
        match (&self.rule, &self.path) {
            (Some(rule), Some(path)) => format!("rule {rule} in {path}"),
            (Some(rule), None) => format!("rule {rule}"),
            (None, Some(path)) => format!("path {path}"),
            (None, None) => String::new(),
        }
    }

    /// Whether it no longer exempts on `today` (its last day passed).
    pub fn expired(&self, today: NaiveDate) -> bool {
        self.expires.is_some_and(|last| today > last)
    }

    /// Whether it covers `issue`: its rule (id, path, display name or
    /// advisory) and its path (a glob: `*` within a folder, `**` across).
    pub fn covers(&self, issue: &Issue) -> bool {
        let rule_ok = self.rule.as_deref().is_none_or(|rule| {
            let advisory = issue
                .sca_attributes
                .as_ref()
                .and_then(|s| s.vuln_database_identifier.as_deref());
            [
                issue.rule_id.as_deref(),
                issue.rule_path.as_deref(),
                issue.rule_display_name.as_deref(),
            ]
            .into_iter()
            .flatten()
            .any(|r| r == rule)
                || advisory.is_some_and(|a| a.eq_ignore_ascii_case(rule))
        });
        let path_ok = self.path.as_deref().is_none_or(|glob| {
            issue
                .file_path
                .as_deref()
                .is_some_and(|p| glob_matches(glob.as_bytes(), p.as_bytes()))
        });
        rule_ok && path_ok
    }
}

/// Whether `path` matches `glob`: `**` any text, `*` any text without a
/// `/`, `?` one character other than `/`; a glob ending in `/` a folder and
/// all it holds. Iterative with one back-track point per star kind, so a
/// hostile glob costs at most length × length steps.
fn glob_matches(glob: &[u8], path: &[u8]) -> bool {
    if let Some(folder) = glob.strip_suffix(b"/") {
        return path.starts_with(glob) || glob_matches(&[folder, b"/**"].concat(), path);
    }
    let (mut g, mut p) = (0, 0);
    let mut star: Option<(usize, usize, bool)> = None;
    while p < path.len() {
        if g + 1 < glob.len() && glob[g] == b'*' && glob[g + 1] == b'*' {
            star = Some((g + 2, p, true));
            g += 2;
        } else if g < glob.len() && glob[g] == b'*' {
            star = Some((g + 1, p, false));
            g += 1;
        } else if g < glob.len() && (glob[g] == path[p] || (glob[g] == b'?' && path[p] != b'/')) {
            g += 1;
            p += 1;
        } else if let Some((after, from, deep)) = star {
            if !deep && path[from] == b'/' {
                return false;
            }
            star = Some((after, from + 1, deep));
            g = after;
            p = from + 1;
        } else {
            return false;
        }
    }
    glob[g..].iter().all(|&c| c == b'*')
}

/// A severity, by its label.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "String")]
pub struct SeverityName(pub Severity);

impl TryFrom<String> for SeverityName {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        let labels: Vec<&str> = Severity::ALL.iter().map(Severity::label).collect();
        Severity::parse_known(&s)
            .map(SeverityName)
            .ok_or_else(|| unknown("severity", &s, &labels))
    }
}

/// A kind of finding: code, supply-chain or secrets.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "String")]
pub struct KindName(pub String);

impl TryFrom<String> for KindName {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        let key = s.trim().to_ascii_lowercase().replace([' ', '_'], "-");
        KINDS
            .iter()
            .find(|k| **k == key)
            .map(|k| KindName((*k).to_owned()))
            .ok_or_else(|| unknown("kind", &s, &KINDS))
    }
}

impl KindName {
    /// The kind of `issue_type`: research and AI findings are code.
    pub fn of(issue_type: Option<&IssueType>) -> Option<&'static str> {
        match issue_type? {
            IssueType::Sast | IssueType::AiSast | IssueType::Research => Some(KINDS[0]),
            IssueType::Sca => Some(KINDS[1]),
            IssueType::Secrets => Some(KINDS[2]),
            _ => None,
        }
    }
}

/// A state a policy may count as handled ([`HANDLED_STATES`]).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "String")]
pub struct StateName(pub AggregateState);

impl TryFrom<String> for StateName {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        let labels: Vec<&str> = HANDLED_STATES.iter().map(AggregateState::label).collect();
        AggregateState::parse_known(&s)
            .filter(|state| HANDLED_STATES.contains(state))
            .map(StateName)
            .ok_or_else(|| unknown("handled state", &s, &labels))
    }
}

/// A probability, 0 to 1.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(try_from = "f64")]
pub struct Probability(pub f64);

impl TryFrom<f64> for Probability {
    type Error = String;
    fn try_from(p: f64) -> Result<Self, String> {
        if (0.0..=1.0).contains(&p) {
            Ok(Probability(p))
        } else {
            Err(format!(
                "{p} is not a probability (0 to 1, e.g. 0.1 for 10%)"
            ))
        }
    }
}

/// `unknown severity "hgh"; did you mean high? valid: critical, high, ...`
fn unknown(what: &str, given: &str, valid: &[&str]) -> String {
    let given = findings_base::text::one_line(given.trim());
    let hint = did_you_mean(valid, &given)
        .map(|h| format!("{h} "))
        .unwrap_or_default();
    format!(
        "unknown {what} {given:?}; {hint}valid: {}",
        valid.join(", ")
    )
}

/// Reads a policy file: a regular file of at most
/// [`crate::MAX_FILE_BYTES`]; `Ok(None)` when there is none at `path`.
pub fn read_gate_policy(path: &Path) -> Result<Option<GatePolicy>, ConfigError> {
    let text =
        match findings_base::atomic_file::read_capped_with_metadata(path, crate::MAX_FILE_BYTES) {
            Ok((text, _)) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => {
                return Err(ConfigError(format!(
                    "cannot read the gate policy {}: {e}",
                    path.display()
                )));
            }
        };
    let text = String::from_utf8(text)
        .map_err(|_| ConfigError(format!("gate policy {}: not UTF-8 text", path.display())))?;
    parse_gate_policy(path, &text).map(Some)
}

/// Parses a policy's text; errors name the file, the line and the key.
pub fn parse_gate_policy(path: &Path, text: &str) -> Result<GatePolicy, ConfigError> {
    toml_error::parse("gate policy", path, text).map_err(ConfigError)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<GatePolicy, String> {
        parse_gate_policy(Path::new("gate.toml"), text).map_err(|e| e.0)
    }

    #[test]
    fn an_empty_policy_is_the_default() {
        let p = parse("").unwrap();
        assert_eq!(p, GatePolicy::default());
        assert_eq!(
            p.severities,
            vec![
                SeverityName(Severity::Critical),
                SeverityName(Severity::High)
            ]
        );
        let handled: Vec<&str> = p.handled.iter().map(|s| s.0.label()).collect();
        assert_eq!(
            handled,
            ["ignored", "ignored in code", "provisionally ignored"]
        );
    }

    #[test]
    fn every_key_is_read() {
        let p = parse(
            r#"
severities = ["critical", "medium"]
kinds = ["supply chain", "secrets"]
handled = ["ignored", "reviewing"]
[supply_chain]
reachable_only = true
min_epss = 0.25
[old_findings]
max_days_over_target = 30
[[exempt]]
rule = "sql-injection"
path = "tests/**"
reason = "fixtures"
expires = 2027-01-31
"#,
        )
        .unwrap();
        assert_eq!(p.kinds[0].0, "supply-chain");
        assert_eq!(p.handled[1].0, AggregateState::Reviewing);
        assert!(p.supply_chain.reachable_only);
        assert_eq!(p.supply_chain.min_epss, Some(Probability(0.25)));
        assert_eq!(p.old_findings.max_days_over_target, Some(30));
        assert_eq!(p.exempt[0].expires, NaiveDate::from_ymd_opt(2027, 1, 31));
    }

    #[test]
    fn unknown_keys_and_bad_values_name_the_file_line_and_key_with_a_guess() {
        let e = parse("severites = [\"high\"]").unwrap_err();
        assert!(e.starts_with("gate policy gate.toml, line 1"), "{e}");
        assert!(e.contains("did you mean severities?"), "{e}");
        let e = parse("severities = [\"hgh\"]").unwrap_err();
        assert!(e.contains("key severities"), "{e}");
        assert!(e.contains("did you mean high?"), "{e}");
        let e = parse("kinds = [\"secret\"]").unwrap_err();
        assert!(e.contains("did you mean secrets?"), "{e}");
        let e = parse("handled = [\"open\"]").unwrap_err();
        assert!(e.contains("unknown handled state \"open\""), "{e}");
        let e = parse("[supply_chain]\nmin_epss = 1.5").unwrap_err();
        assert!(e.contains("key supply_chain.min_epss"), "{e}");
        let e = parse("[supply_chain]\nreachable = true").unwrap_err();
        assert!(e.contains("did you mean reachable_only?"), "{e}");
        let e = parse("[[exempt]]\nrule = \"x\"").unwrap_err();
        assert!(e.contains("needs a reason"), "{e}");
        let e = parse("[[exempt]]\nreason = \"x\"").unwrap_err();
        assert!(e.contains("a rule, a path, or both"), "{e}");
        let e = parse("[[exempt]]\nrule = \"x\"\nreason = \"y\"\nexpires = \"soon\"").unwrap_err();
        assert!(e.contains("not a date"), "{e}");
    }

    #[test]
    fn a_profiles_gate_table_is_read_and_checked_as_the_file_is() {
        let path = Path::new("config.toml");
        let file = crate::parse(path, "[profiles.ci.gate]\nseverities = [\"critical\"]\n").unwrap();
        let gate = file.profiles["ci"].gate.clone().unwrap();
        assert_eq!(gate.severities, vec![SeverityName(Severity::Critical)]);
        let e = crate::parse(path, "[profiles.ci.gate]\nseverites = []\n")
            .unwrap_err()
            .0;
        assert!(e.contains("key profiles.ci.gate.severites"), "{e}");
        assert!(e.contains("did you mean severities?"), "{e}");
    }

    #[test]
    fn an_exemption_expires_after_its_last_day() {
        let p = parse("[[exempt]]\nrule = \"r\"\nreason = \"why\"\nexpires = 2026-12-07").unwrap();
        let day = |d| NaiveDate::from_ymd_opt(2026, 12, d).unwrap();
        assert!(!p.exempt[0].expired(day(7)));
        assert!(p.exempt[0].expired(day(8)));
    }

    #[test]
    fn an_exemption_covers_its_rule_and_path() {
        let issue = |rule: &str, path: &str| Issue {
            rule_id: Some(rule.into()),
            file_path: Some(path.into()),
            ..Issue::default()
        };
        let e = Exemption {
            rule: Some("sqli".into()),
            path: Some("tests/**".into()),
            reason: "r".into(),
            expires: None,
        };
        assert!(e.covers(&issue("sqli", "tests/a/b.py")));
        assert!(!e.covers(&issue("sqli", "src/a.py")));
        assert!(!e.covers(&issue("xss", "tests/a.py")));
    }

    #[test]
    fn globs_match_as_documented() {
        let m = |g: &str, p: &str| glob_matches(g.as_bytes(), p.as_bytes());
        assert!(m("src/*.py", "src/a.py"));
        assert!(!m("src/*.py", "src/x/a.py"));
        assert!(m("src/**.py", "src/x/a.py"));
        assert!(m("**/fixtures/**", "a/b/fixtures/c.json"));
        assert!(m("vendor/", "vendor/x/y.js"));
        assert!(m("a?c", "abc"));
        assert!(!m("a?c", "a/c"));
        assert!(m("exact.txt", "exact.txt"));
        assert!(!m("exact.txt", "exact.txt2"));
        // A hostile glob ends quickly.
        let glob = "*a".repeat(200);
        assert!(!m(&glob, &"a".repeat(150)));
    }
}
