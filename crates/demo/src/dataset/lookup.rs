//! What a row refers to in the catalog: its repository, ref, rule, file
//! and team.

use super::{Dataset, Kind, Row, finding_id, ts};
use crate::catalog::{Catalog, CodeRule, Repository, ScaAdvisory, SecretRule};
use findings_model::{AggregateState, RelatedIssue};

impl Dataset {
    /// The same rule's findings in the same repository on its other refs
    /// (the same file first): real findings, so a jump to one finds it.
    pub fn related(&self, index: usize) -> Vec<RelatedIssue> {
        let row = &self.rows[index];
        let mut found: Vec<(bool, usize)> = self
            .rows
            .iter()
            .enumerate()
            .filter(|(j, o)| {
                *j != index
                    && o.kind == row.kind
                    && o.rule == row.rule
                    && o.repo == row.repo
                    && o.ref_slot != row.ref_slot
            })
            .map(|(j, o)| (o.path != row.path, j))
            .collect();
        found.sort_unstable();
        found
            .into_iter()
            .take(3)
            .map(|(_, j)| {
                let other = &self.row(j);
                RelatedIssue {
                    id: Some(finding_id(j)),
                    ref_: Some(self.ref_name(other).to_owned()),
                    // Findings off the primary ref come from pull requests.
                    pull_request_id: (other.ref_slot != 0).then(|| (400 + j % 500).to_string()),
                    aggregate_state: Some(AggregateState::ALL[other.aggregate as usize].clone()),
                    created_at: Some(ts(other.created)),
                }
            })
            .collect()
    }

    pub fn repo(&self, row: &Row) -> &Repository {
        &self.catalog.repositories[row.repo as usize]
    }

    pub fn ref_name(&self, row: &Row) -> &str {
        self.ref_name_of(row.repo, row.ref_slot)
    }

    /// The name of ref `slot` of repository `repo` (see [`Row::ref_slot`]).
    pub fn ref_name_of(&self, repo: u8, slot: u8) -> &str {
        let repo = &self.catalog.repositories[repo as usize];
        match slot {
            0 => &repo.primary_ref,
            n => repo
                .other_refs
                .get(n as usize - 1)
                .map_or(repo.primary_ref.as_str(), String::as_str),
        }
    }

    pub fn code_rule(&self, row: &Row) -> Option<&CodeRule> {
        self.code_rule_of(row.kind, row.rule)
    }

    pub fn code_rule_of(&self, kind: Kind, rule: u16) -> Option<&CodeRule> {
        matches!(kind, Kind::Code | Kind::AiCode).then(|| &self.catalog.code_rules[rule as usize])
    }

    pub fn advisory(&self, row: &Row) -> Option<&ScaAdvisory> {
        self.advisory_of(row.kind, row.rule)
    }

    pub fn advisory_of(&self, kind: Kind, rule: u16) -> Option<&ScaAdvisory> {
        (kind == Kind::Sca).then(|| &self.catalog.sca_advisories[rule as usize])
    }

    pub fn secret_rule(&self, row: &Row) -> Option<&SecretRule> {
        self.secret_rule_of(row.kind, row.rule)
    }

    pub fn secret_rule_of(&self, kind: Kind, rule: u16) -> Option<&SecretRule> {
        (kind == Kind::Secrets).then(|| &self.catalog.secret_rules[rule as usize])
    }

    /// Rule id, path, severity text, category, ruleset and policy of a row.
    pub fn rule_facts(&self, row: &Row) -> RuleFacts<'_> {
        self.rule_facts_of(row.kind, row.rule)
    }

    /// The rule facts of rule `rule` of the catalog list of `kind`.
    pub fn rule_facts_of(&self, kind: Kind, rule: u16) -> RuleFacts<'_> {
        if let Some(r) = self.code_rule_of(kind, rule) {
            RuleFacts {
                rule_id: &r.rule_id,
                rule_path: &r.rule_path,
                category: &r.category,
                ruleset: &r.ruleset,
                policy_slug: &r.policy_slug,
            }
        } else if let Some(a) = self.advisory_of(kind, rule) {
            RuleFacts {
                rule_id: &a.rule_id,
                rule_path: &a.rule_path,
                category: "security",
                ruleset: "supply-chain",
                policy_slug: "supply-chain-default",
            }
        } else {
            let s = &self.catalog.secret_rules[rule as usize];
            RuleFacts {
                rule_id: &s.rule_id,
                rule_path: &s.rule_path,
                category: "security",
                ruleset: "secrets",
                policy_slug: "secrets-default",
            }
        }
    }

    /// How many rules the catalog list of `kind` holds.
    pub fn rule_count(&self, kind: Kind) -> usize {
        match kind {
            Kind::Code | Kind::AiCode => self.catalog.code_rules.len(),
            Kind::Sca => self.catalog.sca_advisories.len(),
            Kind::Secrets => self.catalog.secret_rules.len(),
        }
    }

    pub fn file_path(&self, row: &Row) -> &str {
        let paths: &[String] = if let Some(r) = self.code_rule(row) {
            &r.paths
        } else if let Some(a) = self.advisory(row) {
            return if row.transitive {
                &a.lockfile
            } else {
                &a.manifest_file
            };
        } else {
            &self.catalog.secret_rules[row.rule as usize].paths
        };
        paths.get(row.path as usize).map_or("", String::as_str)
    }

    pub fn team_name(&self, row: &Row) -> &str {
        &self.catalog.people.teams[row.team as usize].name
    }

    pub fn sca_package(&self, row: &Row) -> Option<&str> {
        self.advisory(row).map(|a| a.package.as_str())
    }
}

/// Rule facts every kind of finding has.
pub struct RuleFacts<'a> {
    pub rule_id: &'a str,
    pub rule_path: &'a str,
    pub category: &'a str,
    pub ruleset: &'a str,
    pub policy_slug: &'a str,
}

/// The language of a source file, by its extension (`None`: not a source
/// file, e.g. a config file, which any repository may hold).
fn language_of(path: &str) -> Option<&'static str> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let (_, ext) = name.rsplit_once('.')?;
    Some(match ext {
        "py" | "ipynb" => "python",
        "js" => "javascript",
        "ts" | "tsx" => "typescript",
        "java" => "java",
        "kt" => "kotlin",
        "go" => "go",
        "rs" => "rust",
        "rb" | "erb" => "ruby",
        "cs" => "csharp",
        "php" => "php",
        _ => return None,
    })
}

/// Whether `path` can be a file of repository `repo`: it names no other
/// repository's word ([`Repository::path_hints`]), a source file is in one
/// of the repository's languages, and the JVM layout (`src/main/`) is only
/// where Java or Kotlin is.
pub fn path_fits(c: &Catalog, repo: usize, path: &str) -> bool {
    let Some(this) = c.repositories.get(repo) else {
        return false;
    };
    let lower = path.to_ascii_lowercase();
    let words: Vec<&str> = lower
        .split(|ch: char| !ch.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let others = c
        .repositories
        .iter()
        .enumerate()
        .filter(|(k, _)| *k != repo)
        .flat_map(|(_, r)| &r.path_hints);
    let speaks = |lang: &str| this.languages.iter().any(|l| l == lang);
    !others
        .into_iter()
        .any(|hint| words.contains(&hint.as_str()))
        && language_of(path).is_none_or(speaks)
        && (!lower.contains("src/main/") || speaks("java") || speaks("kotlin"))
}

/// Whether a repository builds with the package ecosystem `ecosystem`.
pub fn ecosystem_fits(repo: &Repository, ecosystem: &str) -> bool {
    let languages: &[&str] = match ecosystem {
        "npm" => &["javascript", "typescript"],
        "pypi" => &["python"],
        "maven" => &["java", "kotlin"],
        "gomod" => &["go"],
        "cargo" => &["rust"],
        "gem" => &["ruby"],
        "nuget" => &["csharp"],
        "composer" => &["php"],
        _ => &[],
    };
    repo.languages
        .iter()
        .any(|l| languages.contains(&l.as_str()))
}
