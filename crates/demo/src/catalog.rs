//! Catalog material for the embedded demo server.
//!
//! The demo server generates its deterministic data set by combining the pieces
//! described here. The pieces live as JSON under `assets/demo/` and are compiled
//! into the binary, so loading them cannot fail at run time unless the files are
//! broken, which the tests below rule out.
//!
//! Enum-like values (severities, SCM types, rule kinds, ...) are kept as the exact
//! upper-case wire strings; the generator maps them to its own types.

use serde::Deserialize;

const REPOSITORIES_JSON: &str = include_str!("../../../assets/demo/repositories.json");
const CODE_RULES_JSON: &str = include_str!("../../../assets/demo/code_rules.json");
const SCA_ADVISORIES_JSON: &str = include_str!("../../../assets/demo/sca_advisories.json");
const SECRET_RULES_JSON: &str = include_str!("../../../assets/demo/secret_rules.json");
const PEOPLE_JSON: &str = include_str!("../../../assets/demo/people.json");
const AGENTIC_JSON: &str = include_str!("../../../assets/demo/agentic.json");
const UNICODE_SAMPLES_JSON: &str = include_str!("../../../assets/demo/unicode_samples.json");

/// A demo project (repository) with the attributes the report filters use.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Repository {
    /// `owner/name`, e.g. `acme/payments-api`.
    pub name: String,
    /// `SCM_TYPE_HOST_A` ... `SCM_TYPE_HOST_E`.
    pub scm_type: String,
    pub primary_ref: String,
    pub other_refs: Vec<String>,
    pub tags: Vec<String>,
    pub archived: bool,
    /// `DEPLOYMENT_STATUS_DEPLOYED`, `_NOT_DEPLOYED` or `_UNKNOWN`.
    pub deployment_status: String,
    /// `PUBLIC_EXPOSURE_PUBLIC`, `_NOT_PUBLIC` or `_UNKNOWN`.
    pub public_exposure: String,
    /// Lower-case language names, matching `CodeRule::language`.
    pub languages: Vec<String>,
    /// Words of paths that belong to this repository (`ledger` of
    /// `com/acme/ledger/`): a path with another repository's word is none
    /// of this one's files.
    pub path_hints: Vec<String>,
}

/// A code (SAST or AI SAST) rule with everything needed to build findings,
/// dataflow traces and remediation for it.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CodeRule {
    pub rule_id: String,
    pub rule_path: String,
    /// Short display name (`ruleDisplayName`).
    pub name: String,
    pub message: String,
    /// `SEVERITY_CRITICAL` / `_HIGH` / `_MEDIUM` / `_LOW`.
    pub severity: String,
    /// `CONFIDENCE_HIGH` / `_MEDIUM` / `_LOW`.
    pub confidence: String,
    /// Full CWE names; never empty.
    pub cwe: Vec<String>,
    /// OWASP Top 10 2021 names; empty for non-security rules.
    pub owasp: Vec<String>,
    /// `security`, `correctness`, `best-practice`, `performance` or `other`.
    pub category: String,
    pub subcategories: Vec<String>,
    pub ruleset: String,
    pub policy_slug: String,
    pub references: Vec<String>,
    /// `RULE_ORIGIN_PRO_RULES` / `_COMMUNITY` / `_CUSTOM`.
    pub rule_origin: String,
    /// `ISSUE_TYPE_SAST` or `ISSUE_TYPE_AI_SAST`.
    pub issue_type: String,
    /// One lower-case language name.
    pub language: String,
    /// Candidate file paths for findings of this rule.
    pub paths: Vec<String>,
    /// Vulnerable code, lines separated by `\n`.
    pub snippet: String,
    /// Fixed version of `snippet`.
    pub fix_code: String,
    /// Unified diff from `snippet` to `fix_code`; its headers name `paths[0]`.
    pub fix_diff: String,
    /// What the autofix does.
    pub explanation: String,
    pub guidance_summary: String,
    pub guidance_text: String,
    /// Dataflow trace: the tainted input ...
    pub source_var: String,
    /// ... the intermediate variable ...
    pub intermediate_var: String,
    /// ... and the sink.
    pub sink_call: String,
}

impl CodeRule {
    /// Where the finding is in the snippet: the line (from 0) that calls
    /// the sink, else the first.
    pub fn sink_line(&self) -> usize {
        self.find_sink().unwrap_or(0)
    }

    /// The line that calls the sink: by its whole name, else by its method
    /// (`DocumentBuilder.parse` is called as `builder.parse(`).
    fn find_sink(&self) -> Option<usize> {
        let method = self
            .sink_call
            .rsplit(['.', '#', ':'])
            .next()
            .unwrap_or(&self.sink_call);
        [
            self.sink_call.clone(),
            format!(".{method}"),
            format!("{method}("),
        ]
        .iter()
        .find_map(|needle| {
            self.snippet
                .lines()
                .position(|l| l.contains(needle.as_str()))
        })
    }

    /// The last line (from 1) of the snippet the finding may span: the
    /// snippet's, or its autofix hunk's when that ends first.
    pub fn last_line(&self) -> usize {
        let snippet = self.snippet.lines().count().max(1);
        self.hunk().map_or(snippet, |(from, count)| {
            snippet.min((from + count).saturating_sub(1))
        })
    }

    /// The first hunk's old lines of the autofix: from (1-based), count.
    fn hunk(&self) -> Option<(usize, usize)> {
        let header = self.fix_diff.lines().find(|l| l.starts_with("@@ -"))?;
        let old = header.get(4..)?.split(' ').next()?;
        let (from, count) = old.split_once(',').unwrap_or((old, "1"));
        Some((from.parse().ok()?, count.parse().ok()?))
    }
}

/// A `{package, version}` pair.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Package {
    pub package: String,
    pub version: String,
}

/// A supply-chain (SCA) advisory affecting one package version.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ScaAdvisory {
    pub rule_id: String,
    pub rule_path: String,
    /// `CVE-...` or, when `has_cve` is false, `GHSA-...`.
    pub vuln_id: String,
    pub package: String,
    /// `npm`, `pypi`, `maven`, `gomod`, `cargo`, `gem`, `nuget` or `composer`.
    pub ecosystem: String,
    pub vulnerable_version: String,
    pub fixed_version: String,
    pub severity: String,
    pub cwes: Vec<String>,
    pub message: String,
    pub reachable_condition: String,
    /// `SCA_RULE_KIND_REACHABLE` / `_UPGRADE_ONLY` / `_MALICIOUS_DEPENDENCY` / `_LEGACY`.
    pub sca_rule_kind: String,
    pub manifest_file: String,
    pub lockfile: String,
    /// Direct dependencies that pull the package in; empty when it is usually direct.
    pub parents: Vec<Package>,
    pub has_cve: bool,
    pub references: Vec<String>,
}

/// A secrets-detection rule.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SecretRule {
    pub rule_id: String,
    pub rule_path: String,
    /// Human name, used as `secretsAttributes.secretType`.
    pub secret_type: String,
    pub message: String,
    pub severity: String,
    pub paths: Vec<String>,
    /// One line with a redacted, obviously fake secret.
    pub snippet: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct User {
    pub login: String,
    pub name: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Team {
    pub name: String,
    /// Logins of `People::users`.
    pub members: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct People {
    pub users: Vec<User>,
    pub teams: Vec<Team>,
}

/// Parts from which agentic-workflow issues are assembled.
///
/// `titles`, `descriptions` and `reasonings` have the same length and are
/// index-aligned: entry `i` of each describes the same problem.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AgenticMaterial {
    pub titles: Vec<String>,
    pub descriptions: Vec<String>,
    pub reasonings: Vec<String>,
    pub actions: Vec<String>,
    pub workflow_ids: Vec<String>,
    pub workflow_job_ids: Vec<String>,
    pub identities: Vec<String>,
    pub trigger_sources: Vec<String>,
    pub domains: Vec<String>,
    pub file_paths: Vec<String>,
    pub dependency_paths: Vec<String>,
    pub direct_dependencies: Vec<String>,
    pub cwes: Vec<String>,
    pub owasps: Vec<String>,
}

/// A string that exercises terminal safety and wide-character handling
/// (CJK, emoji, combining marks, bidi overrides, zero-width characters and
/// raw escape sequences).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnicodeSample {
    pub label: String,
    pub text: String,
}

/// All demo catalog material.
#[derive(Debug, Clone)]
pub struct Catalog {
    pub repositories: Vec<Repository>,
    pub code_rules: Vec<CodeRule>,
    pub sca_advisories: Vec<ScaAdvisory>,
    pub secret_rules: Vec<SecretRule>,
    pub people: People,
    pub agentic: AgenticMaterial,
    pub unicode_samples: Vec<UnicodeSample>,
}

/// Parses the embedded catalog files.
///
/// The files are compiled in and validated by this module's tests, so a parse
/// failure is a build defect rather than a run-time condition.
///
/// # Panics
///
/// Panics if an embedded catalog file does not match these structs, which the
/// tests of this module rule out.
#[must_use]
pub fn load() -> Catalog {
    Catalog {
        repositories: serde_json::from_str(REPOSITORIES_JSON)
            .expect("embedded catalog repositories.json is valid"),
        code_rules: serde_json::from_str(CODE_RULES_JSON)
            .expect("embedded catalog code_rules.json is valid"),
        sca_advisories: serde_json::from_str(SCA_ADVISORIES_JSON)
            .expect("embedded catalog sca_advisories.json is valid"),
        secret_rules: serde_json::from_str(SECRET_RULES_JSON)
            .expect("embedded catalog secret_rules.json is valid"),
        people: serde_json::from_str(PEOPLE_JSON).expect("embedded catalog people.json is valid"),
        agentic: serde_json::from_str(AGENTIC_JSON)
            .expect("embedded catalog agentic.json is valid"),
        unicode_samples: serde_json::from_str(UNICODE_SAMPLES_JSON)
            .expect("embedded catalog unicode_samples.json is valid"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    const SCM_TYPES: [&str; 8] = [
        "SCM_TYPE_HOST_A",
        "SCM_TYPE_HOST_A_ENTERPRISE",
        "SCM_TYPE_HOST_B",
        "SCM_TYPE_HOST_B_SELFMANAGED",
        "SCM_TYPE_HOST_C",
        "SCM_TYPE_HOST_C_DATACENTER",
        "SCM_TYPE_HOST_D",
        "SCM_TYPE_HOST_E",
    ];
    const SEVERITIES: [&str; 4] = [
        "SEVERITY_CRITICAL",
        "SEVERITY_HIGH",
        "SEVERITY_MEDIUM",
        "SEVERITY_LOW",
    ];

    #[test]
    fn repositories() {
        let c = load();
        assert_eq!(c.repositories.len(), 15);
        let names: BTreeSet<&str> = c.repositories.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names.len(), 15, "repository names are unique");
        assert_eq!(c.repositories.iter().filter(|r| r.archived).count(), 2);
        let scm: BTreeSet<&str> = c.repositories.iter().map(|r| r.scm_type.as_str()).collect();
        for t in SCM_TYPES {
            assert!(scm.contains(t), "no repository uses {t}");
        }
        for r in &c.repositories {
            assert!(SCM_TYPES.contains(&r.scm_type.as_str()), "{}", r.name);
            assert!(!r.primary_ref.is_empty(), "{}", r.name);
            assert!((1..=3).contains(&r.languages.len()), "{}", r.name);
            assert!(!r.path_hints.is_empty(), "{}", r.name);
            assert!(r.deployment_status.starts_with("DEPLOYMENT_STATUS_"));
            assert!(r.public_exposure.starts_with("PUBLIC_EXPOSURE_"));
        }
    }

    #[test]
    fn code_rules() {
        let c = load();
        assert!(
            c.code_rules.len() >= 30,
            "{} code rules",
            c.code_rules.len()
        );
        let ids: BTreeSet<&str> = c.code_rules.iter().map(|r| r.rule_id.as_str()).collect();
        assert_eq!(ids.len(), c.code_rules.len(), "code rule ids are unique");
        let rule_languages: BTreeSet<&str> =
            c.code_rules.iter().map(|r| r.language.as_str()).collect();
        for repo in &c.repositories {
            for lang in &repo.languages {
                assert!(
                    rule_languages.contains(lang.as_str()),
                    "language {lang} of {} has no code rule",
                    repo.name
                );
            }
        }
        let ai = c
            .code_rules
            .iter()
            .filter(|r| r.issue_type == "ISSUE_TYPE_AI_SAST")
            .count();
        assert!(ai >= 1);
        for r in &c.code_rules {
            assert!(SEVERITIES.contains(&r.severity.as_str()), "{}", r.rule_id);
            assert!(r.confidence.starts_with("CONFIDENCE_"), "{}", r.rule_id);
            assert!(r.rule_origin.starts_with("RULE_ORIGIN_"), "{}", r.rule_id);
            assert!(
                r.issue_type == "ISSUE_TYPE_SAST" || r.issue_type == "ISSUE_TYPE_AI_SAST",
                "{}",
                r.rule_id
            );
            assert!(!r.cwe.is_empty(), "{}", r.rule_id);
            assert!(!r.paths.is_empty(), "{}", r.rule_id);
            assert!(!r.references.is_empty(), "{}", r.rule_id);
            assert!(
                r.references.iter().all(|u| u.starts_with("https://")),
                "{}",
                r.rule_id
            );
            assert!(r.fix_diff.starts_with("--- a/"), "{}", r.rule_id);
            let sink = r.find_sink().map(|l| l + 1);
            let hunk = r.hunk();
            assert!(
                matches!((sink, hunk), (Some(s), Some((from, n))) if from <= s && s < from + n),
                "{}: the sink (line {sink:?}) is in the autofix hunk {hunk:?}",
                r.rule_id
            );
            assert!(r.fix_diff.contains("\n+++ b/"), "{}", r.rule_id);
            assert!(r.fix_diff.contains("\n@@ "), "{}", r.rule_id);
            for field in [
                &r.rule_path,
                &r.name,
                &r.message,
                &r.category,
                &r.ruleset,
                &r.policy_slug,
                &r.snippet,
                &r.fix_code,
                &r.explanation,
                &r.guidance_summary,
                &r.guidance_text,
                &r.source_var,
                &r.intermediate_var,
                &r.sink_call,
            ] {
                assert!(!field.is_empty(), "{} has an empty field", r.rule_id);
            }
        }
    }

    #[test]
    fn sca_advisories() {
        let c = load();
        assert!(c.sca_advisories.len() >= 25);
        let ids: BTreeSet<&str> = c
            .sca_advisories
            .iter()
            .map(|a| a.rule_id.as_str())
            .collect();
        assert_eq!(
            ids.len(),
            c.sca_advisories.len(),
            "advisory rule ids are unique"
        );
        let ecosystems: BTreeSet<&str> = c
            .sca_advisories
            .iter()
            .map(|a| a.ecosystem.as_str())
            .collect();
        for eco in [
            "npm", "pypi", "maven", "gomod", "cargo", "gem", "nuget", "composer",
        ] {
            assert!(ecosystems.contains(eco), "no advisory for {eco}");
        }
        for a in &c.sca_advisories {
            assert!(a.rule_id.starts_with("ssc-"), "{}", a.rule_id);
            assert_eq!(a.has_cve, a.vuln_id.starts_with("CVE-"), "{}", a.vuln_id);
            assert!(a.has_cve || a.vuln_id.starts_with("GHSA-"), "{}", a.vuln_id);
            assert!(SEVERITIES.contains(&a.severity.as_str()), "{}", a.vuln_id);
            assert!(
                a.sca_rule_kind.starts_with("SCA_RULE_KIND_"),
                "{}",
                a.vuln_id
            );
            assert!(
                !a.cwes.is_empty() && !a.references.is_empty(),
                "{}",
                a.vuln_id
            );
            assert_ne!(a.vulnerable_version, a.fixed_version, "{}", a.vuln_id);
        }
        assert!(
            c.sca_advisories
                .iter()
                .any(|a| a.sca_rule_kind == "SCA_RULE_KIND_MALICIOUS_DEPENDENCY")
        );
    }

    #[test]
    fn secret_rules() {
        let c = load();
        assert!(c.secret_rules.len() >= 10);
        for s in &c.secret_rules {
            assert!(SEVERITIES.contains(&s.severity.as_str()), "{}", s.rule_id);
            assert!(
                !s.paths.is_empty() && !s.snippet.is_empty(),
                "{}",
                s.rule_id
            );
            assert!(!s.secret_type.is_empty(), "{}", s.rule_id);
        }
    }

    #[test]
    fn people() {
        let c = load();
        assert_eq!(c.people.users.len(), 20);
        assert_eq!(c.people.teams.len(), 6);
        let logins: BTreeSet<&str> = c.people.users.iter().map(|u| u.login.as_str()).collect();
        assert_eq!(logins.len(), 20, "logins are unique");
        for team in &c.people.teams {
            assert!(!team.members.is_empty(), "{}", team.name);
            for m in &team.members {
                assert!(
                    logins.contains(m.as_str()),
                    "{} lists unknown member {m}",
                    team.name
                );
            }
        }
    }

    #[test]
    fn agentic_material() {
        let a = load().agentic;
        assert!(a.titles.len() >= 40);
        assert!(a.descriptions.len() >= 30);
        assert!(a.reasonings.len() >= 30);
        assert_eq!(
            a.titles.len(),
            a.descriptions.len(),
            "titles and descriptions are aligned"
        );
        assert_eq!(
            a.titles.len(),
            a.reasonings.len(),
            "titles and reasonings are aligned"
        );
        let lists: [(&str, &Vec<String>); 14] = [
            ("titles", &a.titles),
            ("descriptions", &a.descriptions),
            ("reasonings", &a.reasonings),
            ("actions", &a.actions),
            ("workflowIds", &a.workflow_ids),
            ("workflowJobIds", &a.workflow_job_ids),
            ("identities", &a.identities),
            ("triggerSources", &a.trigger_sources),
            ("domains", &a.domains),
            ("filePaths", &a.file_paths),
            ("dependencyPaths", &a.dependency_paths),
            ("directDependencies", &a.direct_dependencies),
            ("cwes", &a.cwes),
            ("owasps", &a.owasps),
        ];
        for (name, list) in lists {
            assert!(!list.is_empty(), "{name} is empty");
            assert!(
                list.iter().all(|s| !s.is_empty()),
                "{name} has an empty entry"
            );
        }
    }

    #[test]
    fn unicode_samples() {
        let samples = load().unicode_samples;
        assert!((6..=10).contains(&samples.len()));
        let all: String = samples.iter().map(|s| s.text.as_str()).collect();
        assert!(all.contains('\u{1b}'), "an escape sequence sample exists");
        assert!(
            all.contains('\u{202e}'),
            "a right-to-left override sample exists"
        );
        assert!(
            all.contains('\u{200d}'),
            "a zero-width joiner sample exists"
        );
        assert!(all.contains("\u{1b}]0;"), "an OSC sample exists");
    }

    #[test]
    fn catalog_text_outside_unicode_samples_is_ascii() {
        for (name, text) in [
            ("repositories.json", REPOSITORIES_JSON),
            ("code_rules.json", CODE_RULES_JSON),
            ("sca_advisories.json", SCA_ADVISORIES_JSON),
            ("secret_rules.json", SECRET_RULES_JSON),
            ("people.json", PEOPLE_JSON),
            ("agentic.json", AGENTIC_JSON),
        ] {
            assert!(text.is_ascii(), "{name} contains non-ASCII text");
        }
    }
}
