//! A data set made of a snapshot's findings, for the offline TUI: the same
//! compact rows the query engine filters, sorts and counts, over a catalog
//! made of the repositories, refs, rules and files the findings name. Pages
//! and single findings are answered with the stored findings, whole.
//!
//! Values the engine has no slot for are filtered as the nearest it has: a
//! severity it does not know as info, an aggregate state as unknown; the
//! stored finding still shows what the server sent.

use super::changes::Overlay;
use super::offline_ids::Ids;
use super::{Dataset, FixPr, Kind, RepoInfo, Row};
use crate::catalog::{
    AgenticMaterial, Catalog, CodeRule, People, Repository, ScaAdvisory, SecretRule, Team,
};
use chrono::{DateTime, Utc};
use findings_model::*;
use std::collections::HashMap;

/// The whole findings of an offline data set, by row index.
pub trait StoredFindings: Send + Sync {
    /// Finding `index` as the snapshot holds it; `None`: see `unavailable`.
    fn item(&self, index: usize) -> Option<IssueItem>;
    /// Why no finding may be answered from it (the file changed since it
    /// was opened, a finding could not be read); `None` while they may.
    fn unavailable(&self) -> Option<String>;
}

/// What makes a data set offline: its stored findings and their ids.
pub struct Offline {
    store: Box<dyn StoredFindings>,
    ids: Ids,
}

impl Offline {
    /// Finding `index` whole (empty if unread: the guard answers instead).
    pub fn item(&self, index: usize) -> IssueItem {
        self.store.item(index).unwrap_or_default()
    }

    pub fn unavailable(&self) -> Option<String> {
        self.store.unavailable()
    }

    pub fn index_of(&self, id: &str) -> Option<usize> {
        self.ids.get(id)
    }
}

/// Why a snapshot does not fit the engine's compact rows.
#[derive(Debug, thiserror::Error)]
pub enum TooMany {
    #[error("the offline view holds at most {limit} {what}; this snapshot has more")]
    Items { limit: usize, what: &'static str },
    /// A repeated finding is refused, not held twice (a file of one
    /// finding a million times would hold a million rows).
    #[error("finding {0} is in it more than once")]
    Twice(String),
}

fn too_many(limit: usize, what: &'static str) -> TooMany {
    TooMany::Items { limit, what }
}

/// The most findings the offline view holds: a snapshot's own cap. Each
/// is a compact row, its place in the file and its id (by number), about
/// 200 bytes with the engine's indexes (within the TUI's 250).
pub const MAX_FINDINGS: usize = 10_000_000;
/// The most text the offline view holds besides the rows: the ids, and the
/// names, paths and rule facts of its catalog.
pub const MAX_TEXT: usize = 256 * 1024 * 1024;

/// Builds an offline data set one finding at a time.
pub struct OfflineBuilder {
    catalog: Catalog,
    repos: Vec<RepoInfo>,
    repo_index: HashMap<String, u8>,
    ref_slots: HashMap<(u8, String), u8>,
    team_index: HashMap<String, u8>,
    /// By rule list, rule key and file: the catalog entry and its file slot.
    files: HashMap<(usize, String, String), (u16, u8)>,
    /// By rule list and rule key: the entry taking new files.
    open_entry: HashMap<(usize, String), u16>,
    rows: Vec<Row>,
    ids: Ids,
    /// The bytes of text held, at most [`MAX_TEXT`] (counted for each
    /// finding that adds to the catalog: what it could have added).
    text_bytes: usize,
}

impl Default for OfflineBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl OfflineBuilder {
    pub fn new() -> Self {
        OfflineBuilder {
            catalog: Catalog {
                repositories: Vec::new(),
                code_rules: Vec::new(),
                sca_advisories: Vec::new(),
                secret_rules: Vec::new(),
                // Team 0 is "no team" (its name empty, never offered).
                people: People {
                    users: Vec::new(),
                    teams: vec![Team {
                        name: String::new(),
                        members: Vec::new(),
                    }],
                },
                agentic: empty_agentic(),
                unicode_samples: Vec::new(),
            },
            repos: Vec::new(),
            repo_index: HashMap::new(),
            ref_slots: HashMap::new(),
            team_index: HashMap::new(),
            files: HashMap::new(),
            open_entry: HashMap::new(),
            rows: Vec::new(),
            ids: Ids::default(),
            text_bytes: 0,
        }
    }

    /// Adds a finding (one without an id is left out: nothing finds it);
    /// the same id again is refused (a numeric one by [`Self::finish`]).
    pub fn add(&mut self, item: &IssueItem) -> Result<(), TooMany> {
        let Some(issue) = item.issue.as_ref() else {
            return Ok(());
        };
        let Some(id) = issue.id.as_deref().filter(|id| !id.is_empty()) else {
            return Ok(());
        };
        // MAX_FINDINGS keeps a row number far within u32.
        let at = match u32::try_from(self.rows.len()) {
            Ok(at) if self.rows.len() < MAX_FINDINGS => at,
            _ => return Err(too_many(MAX_FINDINGS, "findings")),
        };
        let before = self.catalog_size();
        // A numeric id is held as a number, not text.
        if !self.ids.add(id, at).map_err(|t| TooMany::Twice(t.0))? {
            self.text_bytes += id.len();
        }
        let kind = kind_of(issue);
        let repo = self.repo(issue)?;
        let ref_slot = self.ref_slot(repo, issue.ref_.as_deref().unwrap_or(""))?;
        let team = self.team(repo, issue)?;
        let (rule, path) = self.rule_and_file(kind, issue)?;
        let row = row_of(issue, kind, rule, repo, ref_slot, path, team);
        if self.catalog_size() != before {
            self.text_bytes += catalog_text(issue);
        }
        if self.text_bytes > MAX_TEXT {
            return Err(too_many(MAX_TEXT >> 20, "MiB of ids, names and rules"));
        }
        self.rows.push(row);
        Ok(())
    }

    /// How many entries the catalog has (it grows with each new name).
    fn catalog_size(&self) -> usize {
        let c = &self.catalog;
        c.repositories.len()
            + self.ref_slots.len()
            + c.people.teams.len()
            + c.code_rules.len()
            + c.sca_advisories.len()
            + c.secret_rules.len()
            + self.files.len()
    }

    /// The data set, its "now" the snapshot's time; a numeric id seen
    /// twice is refused here.
    pub fn finish(
        mut self,
        saved_at: DateTime<Utc>,
        deployment: &str,
        store: Box<dyn StoredFindings>,
    ) -> Result<Dataset, TooMany> {
        self.ids.seal().map_err(|t| TooMany::Twice(t.0))?;
        self.rows.shrink_to_fit();
        Ok(Dataset {
            catalog: self.catalog,
            seed: 0,
            anchor: saved_at,
            deployment: deployment.to_owned(),
            repos: self.repos,
            rows: self.rows,
            twins: Vec::new(),
            agentic: Vec::new(),
            scm_configs: Vec::new(),
            overlay: Overlay::default(),
            days_later: 0,
            offline: Some(Offline {
                store,
                ids: self.ids,
            }),
        })
    }

    fn repo(&mut self, issue: &Issue) -> Result<u8, TooMany> {
        let r = issue.repository.clone().unwrap_or_default();
        let name = r.name.clone().unwrap_or_default();
        if let Some(&k) = self.repo_index.get(&name) {
            if issue.is_archived == Some(true) {
                self.catalog.repositories[k as usize].archived = true;
            }
            return Ok(k);
        }
        let k = u8::try_from(self.catalog.repositories.len())
            .map_err(|_| too_many(256, "repositories"))?;
        let primary = r.primary_ref.clone().unwrap_or_default();
        self.catalog.repositories.push(Repository {
            name: name.clone(),
            scm_type: r
                .scm_type
                .as_ref()
                .map_or("SCM_TYPE_UNKNOWN", |t| t.as_wire())
                .to_owned(),
            primary_ref: primary
                .ref_
                .clone()
                .or_else(|| issue.ref_.clone())
                .unwrap_or_default(),
            other_refs: Vec::new(),
            tags: Vec::new(),
            archived: issue.is_archived == Some(true),
            deployment_status: "DEPLOYMENT_STATUS_UNKNOWN".into(),
            public_exposure: "PUBLIC_EXPOSURE_UNKNOWN".into(),
            languages: Vec::new(),
            path_hints: Vec::new(),
        });
        self.repos.push(RepoInfo {
            id: r.id.unwrap_or_default(),
            primary_ref_id: primary.id.unwrap_or_default(),
            teams: Vec::new(),
            code_rules: Vec::new(),
            code_paths: HashMap::new(),
            secret_rules: Vec::new(),
            secret_paths: HashMap::new(),
            advisories: Vec::new(),
        });
        self.repo_index.insert(name, k);
        Ok(k)
    }

    fn ref_slot(&mut self, repo: u8, name: &str) -> Result<u8, TooMany> {
        let meta = &mut self.catalog.repositories[repo as usize];
        if meta.primary_ref == name {
            return Ok(0);
        }
        if let Some(&slot) = self.ref_slots.get(&(repo, name.to_owned())) {
            return Ok(slot);
        }
        let slot = u8::try_from(meta.other_refs.len() + 1)
            .map_err(|_| too_many(255, "refs besides the primary one in a repository"))?;
        meta.other_refs.push(name.to_owned());
        self.ref_slots.insert((repo, name.to_owned()), slot);
        Ok(slot)
    }

    /// The finding's first team among its code owners (0: none), noted as
    /// one of its repository's teams.
    fn team(&mut self, repo: u8, issue: &Issue) -> Result<u8, TooMany> {
        let Some(name) = issue
            .codeowners
            .iter()
            .find(|c| c.is_team == Some(true))
            .and_then(|c| c.name.clone())
            .filter(|n| !n.is_empty())
        else {
            return Ok(0);
        };
        let k = if let Some(&k) = self.team_index.get(&name) {
            k
        } else {
            let teams = &mut self.catalog.people.teams;
            let k = u8::try_from(teams.len()).map_err(|_| too_many(255, "teams"))?;
            teams.push(Team {
                name: name.clone(),
                members: Vec::new(),
            });
            self.team_index.insert(name, k);
            k
        };
        let teams = &mut self.repos[repo as usize].teams;
        if !teams.contains(&k) {
            teams.push(k);
        }
        Ok(k)
    }

    /// The catalog entry of the finding's rule and the slot of its file:
    /// a rule with more than 256 files takes more than one entry, each with
    /// the rule's facts.
    fn rule_and_file(&mut self, kind: Kind, issue: &Issue) -> Result<(u16, u8), TooMany> {
        let list = rule_list(kind);
        let sca = issue.sca_attributes.as_ref();
        let dependency = sca.and_then(|s| s.found_dependency.as_ref());
        let path = issue.file_path.clone().unwrap_or_default();
        let rule_key = format!(
            "{}\u{0}{}",
            issue.rule_id.as_deref().unwrap_or(""),
            issue.rule_path.as_deref().unwrap_or("")
        );
        // Supply chain: one entry per advisory, package and file (its
        // manifest and lockfile slots both name the file).
        let key = if kind == Kind::Sca {
            format!(
                "{rule_key}\u{0}{}\u{0}{}\u{0}{path}",
                sca.and_then(|s| s.vuln_database_identifier.as_deref())
                    .unwrap_or(""),
                dependency.and_then(|d| d.package.as_deref()).unwrap_or(""),
            )
        } else {
            rule_key
        };
        let file_key = (list, key.clone(), path.clone());
        if let Some(&found) = self.files.get(&file_key) {
            return Ok(found);
        }
        let open = self.open_entry.get(&(list, key.clone())).copied();
        let entry = match open {
            Some(entry) if kind == Kind::Sca || self.file_count(kind, entry) < 256 => entry,
            _ => {
                let entry = self.new_entry(kind, issue, &path)?;
                self.open_entry.insert((list, key), entry);
                entry
            }
        };
        let slot = if kind == Kind::Sca {
            u8::from(transitive(issue))
        } else {
            let paths = self.paths_mut(kind, entry);
            paths.push(path);
            u8::try_from(paths.len() - 1).unwrap_or(u8::MAX)
        };
        if kind != Kind::Sca {
            self.files.insert(file_key, (entry, slot));
        }
        Ok((entry, slot))
    }

    fn file_count(&mut self, kind: Kind, entry: u16) -> usize {
        self.paths_mut(kind, entry).len()
    }

    fn paths_mut(&mut self, kind: Kind, entry: u16) -> &mut Vec<String> {
        match kind {
            Kind::Secrets => &mut self.catalog.secret_rules[entry as usize].paths,
            _ => &mut self.catalog.code_rules[entry as usize].paths,
        }
    }

    fn new_entry(&mut self, kind: Kind, issue: &Issue, path: &str) -> Result<u16, TooMany> {
        let c = &mut self.catalog;
        let len = match kind {
            Kind::Code | Kind::AiCode => c.code_rules.len(),
            Kind::Sca => c.sca_advisories.len(),
            Kind::Secrets => c.secret_rules.len(),
        };
        let entry = u16::try_from(len).map_err(|_| too_many(65_536, "rules and files"))?;
        let text = |v: &Option<String>| v.clone().unwrap_or_default();
        let rule_id = text(&issue.rule_id);
        let rule_path = text(&issue.rule_path);
        let severity = issue
            .severity
            .as_ref()
            .map_or("", |s| s.as_wire())
            .to_owned();
        match kind {
            Kind::Code | Kind::AiCode => c.code_rules.push(CodeRule {
                rule_id,
                rule_path,
                name: text(&issue.rule_display_name),
                message: String::new(),
                severity,
                confidence: String::new(),
                cwe: issue.rule_cwe_names.clone(),
                owasp: issue.rule_owasp_names.clone(),
                category: text(&issue.category),
                subcategories: issue.subcategories.clone(),
                ruleset: text(&issue.ruleset),
                policy_slug: text(&issue.policy_slug),
                references: Vec::new(),
                rule_origin: issue
                    .rule_origin
                    .as_ref()
                    .map_or("", |o| o.as_wire())
                    .to_owned(),
                issue_type: kind.issue_type().as_wire().to_owned(),
                language: String::new(),
                paths: Vec::new(),
                snippet: String::new(),
                fix_code: String::new(),
                fix_diff: String::new(),
                explanation: String::new(),
                guidance_summary: String::new(),
                guidance_text: String::new(),
                source_var: String::new(),
                intermediate_var: String::new(),
                sink_call: String::new(),
            }),
            Kind::Sca => {
                let sca = issue.sca_attributes.clone().unwrap_or_default();
                let dependency = sca.found_dependency.clone().unwrap_or_default();
                c.sca_advisories.push(ScaAdvisory {
                    rule_id,
                    rule_path,
                    vuln_id: sca.vuln_database_identifier.unwrap_or_default(),
                    package: dependency.package.unwrap_or_default(),
                    ecosystem: dependency.ecosystem.unwrap_or_default(),
                    vulnerable_version: dependency.version.unwrap_or_default(),
                    fixed_version: String::new(),
                    severity,
                    cwes: sca.cwes,
                    message: text(&issue.message),
                    reachable_condition: String::new(),
                    sca_rule_kind: sca
                        .sca_rule_kind
                        .as_ref()
                        .map_or("", |k| k.as_wire())
                        .to_owned(),
                    manifest_file: path.to_owned(),
                    lockfile: path.to_owned(),
                    parents: Vec::new(),
                    has_cve: false,
                    references: Vec::new(),
                });
            }
            Kind::Secrets => c.secret_rules.push(SecretRule {
                rule_id,
                rule_path,
                secret_type: issue
                    .secrets_attributes
                    .as_ref()
                    .and_then(|s| s.secret_type.clone())
                    .unwrap_or_default(),
                message: String::new(),
                severity,
                paths: Vec::new(),
                snippet: String::new(),
            }),
        }
        Ok(entry)
    }
}

/// The most text of `issue` a new catalog entry can hold (a bound, not a
/// measure).
fn catalog_text(issue: &Issue) -> usize {
    let s = |v: &Option<String>| v.as_deref().map_or(0, str::len);
    let list = |v: &[String]| v.iter().map(String::len).sum::<usize>();
    let repo = issue.repository.as_ref();
    let sca = issue.sca_attributes.as_ref();
    let dependency = sca.and_then(|s| s.found_dependency.as_ref());
    repo.map_or(0, |r| {
        s(&r.name) + s(&r.id) + r.primary_ref.as_ref().map_or(0, |p| s(&p.ref_) + s(&p.id))
    }) + s(&issue.ref_)
        + s(&issue.file_path)
        + s(&issue.rule_id)
        + s(&issue.rule_path)
        + s(&issue.rule_display_name)
        + s(&issue.category)
        + s(&issue.ruleset)
        + s(&issue.policy_slug)
        + s(&issue.message)
        + list(&issue.rule_cwe_names)
        + list(&issue.rule_owasp_names)
        + list(&issue.subcategories)
        + issue.codeowners.iter().map(|c| s(&c.name)).sum::<usize>()
        + sca.map_or(0, |a| s(&a.vuln_database_identifier) + list(&a.cwes))
        + dependency.map_or(0, |d| s(&d.package) + s(&d.ecosystem) + s(&d.version))
        + issue
            .secrets_attributes
            .as_ref()
            .map_or(0, |a| s(&a.secret_type))
}

/// The catalog list a kind's rules are in (as the query engine reads them).
fn rule_list(kind: Kind) -> usize {
    match kind {
        Kind::Code | Kind::AiCode => 0,
        Kind::Sca => 1,
        Kind::Secrets => 2,
    }
}

fn empty_agentic() -> AgenticMaterial {
    AgenticMaterial {
        titles: Vec::new(),
        descriptions: Vec::new(),
        reasonings: Vec::new(),
        actions: Vec::new(),
        workflow_ids: Vec::new(),
        workflow_job_ids: Vec::new(),
        identities: Vec::new(),
        trigger_sources: Vec::new(),
        domains: Vec::new(),
        file_paths: Vec::new(),
        dependency_paths: Vec::new(),
        direct_dependencies: Vec::new(),
        cwes: Vec::new(),
        owasps: Vec::new(),
    }
}

/// The engine's kind of a finding: its issue type, else its attributes'.
fn kind_of(issue: &Issue) -> Kind {
    match issue.issue_type {
        Some(IssueType::Sast) => Kind::Code,
        Some(IssueType::AiSast) => Kind::AiCode,
        Some(IssueType::Sca) => Kind::Sca,
        Some(IssueType::Secrets) => Kind::Secrets,
        _ if issue.sca_attributes.is_some() => Kind::Sca,
        _ if issue.secrets_attributes.is_some() => Kind::Secrets,
        _ => Kind::Code,
    }
}

fn transitive(issue: &Issue) -> bool {
    issue
        .sca_attributes
        .as_ref()
        .and_then(|s| s.found_dependency.as_ref())
        .and_then(|d| d.transitivity.as_deref())
        .is_some_and(|t| t.to_ascii_uppercase().ends_with("TRANSITIVE") && !t.contains("DIRECT"))
}

/// The index of `v` in `all`, when it is one of them.
fn slot<T: PartialEq>(all: &[T], v: Option<&T>) -> Option<u8> {
    let k = all.iter().position(|x| Some(x) == v)?;
    u8::try_from(k).ok()
}

fn secs(t: Option<Timestamp>) -> Option<i64> {
    t.map(|t| t.timestamp())
}

fn row_of(issue: &Issue, kind: Kind, rule: u16, repo: u8, ref_slot: u8, path: u8, team: u8) -> Row {
    let info = slot(Severity::ALL, Some(&Severity::Info)).unwrap_or(0);
    let unknown_state = slot(AggregateState::ALL, Some(&AggregateState::Unknown)).unwrap_or(0);
    let latest = |kind: HistoryType| {
        issue
            .activity_history
            .iter()
            .filter(|e| e.history_type.as_ref() == Some(&kind))
            .filter_map(|e| e.date)
            .max()
            .map(|t| t.timestamp())
    };
    let created = secs(issue.created_at)
        .or(secs(issue.relevant_since))
        .or(secs(issue.first_detected_at))
        .unwrap_or(0);
    let status = issue.status.clone().unwrap_or(IssueStatus::Unresolved);
    let last_activity = issue
        .activity_history
        .iter()
        .filter_map(|e| e.date)
        .max()
        .map_or(created, |t| t.timestamp().max(created));
    Row {
        kind,
        rule,
        repo,
        ref_slot,
        path,
        line: u32::try_from(issue.line.unwrap_or(0).clamp(0, i64::from(u32::MAX))).unwrap_or(0),
        severity: slot(Severity::ALL, issue.severity.as_ref()).unwrap_or(info),
        confidence: slot(Confidence::ALL, issue.confidence.as_ref()).unwrap_or(0),
        status: slot(IssueStatus::ALL, Some(&status)).unwrap_or(0),
        triage: slot(TriageState::ALL, issue.triage_state.as_ref()).unwrap_or(0),
        triage_reason: slot(TriageReason::ALL, issue.triage_reason.as_ref()),
        aggregate: slot(AggregateState::ALL, issue.aggregate_state.as_ref())
            .unwrap_or(unknown_state),
        created,
        relevant_since: secs(issue.relevant_since).unwrap_or(created),
        first_detected: secs(issue.first_detected_at).unwrap_or(created),
        last_activity,
        triaged_at: latest(HistoryType::Triage),
        fixed_at: (status == IssueStatus::Fixed)
            .then(|| latest(HistoryType::Status))
            .flatten(),
        verdict: slot(
            Verdict::ALL,
            issue.autotriage.as_ref().and_then(|a| a.verdict.as_ref()),
        ),
        sensitivity: slot(
            Sensitivity::ALL,
            issue.ai_tags.as_ref().and_then(|t| t.sensitivity.as_ref()),
        ),
        reachability: slot(
            Reachability::ALL,
            issue
                .sca_attributes
                .as_ref()
                .and_then(|s| s.reachability.as_ref()),
        ),
        validation: slot(
            ValidationState::ALL,
            issue
                .secrets_attributes
                .as_ref()
                .and_then(|s| s.validation_state.as_ref()),
        ),
        transitive: kind == Kind::Sca && transitive(issue),
        team,
        ticket: issue.external_ticket.is_some(),
        ticket_failed: false,
        blocking: issue.is_blocking == Some(true),
        fix_pr: issue.click_to_fix_pr_url.is_some().then_some(FixPr::Open),
        historical: issue
            .secrets_attributes
            .as_ref()
            .is_some_and(|s| s.historical_info.is_some()),
        memory_referenced: None,
        memory_rendered: None,
        exception: None,
        unicode: None,
    }
}

#[cfg(test)]
#[path = "offline_tests.rs"]
mod tests;
