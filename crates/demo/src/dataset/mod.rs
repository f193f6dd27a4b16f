//! The demo data set: compact rows generated from a seed, and the full wire
//! objects built from a row on demand.
//!
//! A row holds only what filters and sorts need (about 100 bytes), so 200,000
//! findings start in well under a second; the rich parts of a finding
//! (activity history, dataflow trace, remediation ...) are rebuilt from a
//! per-finding random stream when a page is answered, identical every time.
//!
//! What is generated lives beside this file: the finding rows (`rows`), the
//! activity of a finding (`activity`), the agentic-workflow issues
//! (`agentic`) and the SCM configs (`scm_configs`); `lookup` answers what a
//! row refers to in the catalog; `twins` makes some findings of feature refs
//! the same findings as primary-ref ones (shared match ids).

mod acted;
mod activity;
mod agentic;
mod agentic_history;
mod changes;
mod lookup;
mod moved_on;
mod offline;
mod offline_ids;
mod rows;
mod scm_configs;
#[cfg(test)]
mod tests;
mod twins;
#[cfg(test)]
mod twins_tests;

pub use acted::{Acted, CreatedMemory, FixRequest, LinkedTicket};
pub use activity::Event;
pub use agentic_history::{activity, triage_values};
pub use changes::{AgenticChange, Changes, FindingChange};
pub use lookup::RuleFacts;
pub use offline::{Offline, OfflineBuilder, StoredFindings, TooMany};
pub use scm_configs::host_of;

use super::catalog::Catalog;
use chrono::{DateTime, TimeZone, Utc};
use findings_model::*;
use std::collections::HashMap;

/// Demo finding ids are this plus the row index.
pub const FIRST_FINDING_ID: u64 = 100_000;
const FIRST_REPO_ID: u64 = 51_000;
const FIRST_REF_ID: u64 = 61_000;
const DAY: i64 = 86_400;

/// Random streams: one per aspect of an item, so each can be rebuilt alone.
pub(super) mod stream {
    pub const ROW: u64 = 1;
    pub const ACTIVITY: u64 = 2;
    pub const DETAIL: u64 = 3;
    pub const AGENTIC: u64 = 4;
    pub const MATCH_ID: u64 = 9;
    pub const SYNTACTIC_ID: u64 = 10;
    pub const RULE_HASH: u64 = 11;
    pub const MOVED_ON: u64 = 12;
    pub const TWIN: u64 = 13;
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    Code,
    AiCode,
    Sca,
    Secrets,
}

impl Kind {
    pub fn issue_type(self) -> IssueType {
        match self {
            Kind::Code => IssueType::Sast,
            Kind::AiCode => IssueType::AiSast,
            Kind::Sca => IssueType::Sca,
            Kind::Secrets => IssueType::Secrets,
        }
    }
}

/// What filters and sorts need of one finding. Enum fields are indices into
/// the `ALL` list of their model enum. As generated: [`Dataset::row`] gives
/// it with triage since applied.
#[derive(Debug, Clone, Copy)]
pub struct Row {
    pub kind: Kind,
    /// Index into the catalog list of `kind` (code rules hold both code kinds).
    pub rule: u16,
    pub repo: u8,
    /// 0 = the repository's primary ref, n = its other_refs[n - 1].
    pub ref_slot: u8,
    pub path: u8,
    pub line: u32,
    pub severity: u8,
    pub confidence: u8,
    pub status: u8,
    pub triage: u8,
    pub triage_reason: Option<u8>,
    pub aggregate: u8,
    pub created: i64,
    pub relevant_since: i64,
    pub first_detected: i64,
    pub last_activity: i64,
    /// When it was last triaged (its latest triage event), if ever.
    pub triaged_at: Option<i64>,
    /// When it was fixed (the status event that fixed it), if it is.
    pub fixed_at: Option<i64>,
    pub verdict: Option<u8>,
    pub sensitivity: Option<u8>,
    pub reachability: Option<u8>,
    pub validation: Option<u8>,
    pub transitive: bool,
    pub team: u8,
    pub ticket: bool,
    pub ticket_failed: bool,
    pub blocking: bool,
    pub fix_pr: Option<FixPr>,
    /// A secret found in the repository's history (it carries
    /// `historicalInfo`).
    pub historical: bool,
    pub memory_referenced: Option<u8>,
    pub memory_rendered: Option<u8>,
    pub exception: Option<u8>,
    /// A unicode sample mixed into the message (terminal-safety seasoning).
    pub unicode: Option<u8>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FixPr {
    Open,
    Merged,
    Failed,
    /// Asked for in the last minutes, neither opened nor failed yet: an
    /// in-flight request (`hasInFlightAutofixPr`).
    Requested,
}

/// Derived, per-repository facts.
#[derive(Debug, Clone)]
pub struct RepoInfo {
    pub id: String,
    pub primary_ref_id: String,
    pub teams: Vec<u8>,
    /// Indices of code rules in the repository's languages with a file
    /// that fits it, and of those files in each rule's `paths`.
    pub code_rules: Vec<u16>,
    pub code_paths: HashMap<u16, Vec<u8>>,
    /// The same for secret rules.
    pub secret_rules: Vec<u16>,
    pub secret_paths: HashMap<u16, Vec<u8>>,
    /// Advisories of the repository's ecosystems.
    pub advisories: Vec<u16>,
}

/// One agentic-workflow issue, with the job ids the search filter matches.
#[derive(Debug, Clone)]
pub struct AgenticRecord {
    pub issue: AgenticIssue,
    pub workflow_job_ids: Vec<String>,
}

pub struct Dataset {
    pub catalog: Catalog,
    pub seed: u64,
    /// "Now" of the data set: every timestamp lies before it.
    pub anchor: DateTime<Utc>,
    pub deployment: String,
    pub repos: Vec<RepoInfo>,
    pub rows: Vec<Row>,
    /// The feature-ref findings that are twins of primary-ref ones, as
    /// (twin, origin) row indices sorted by twin ([`twins`]).
    twins: Vec<(u32, u32)>,
    pub agentic: Vec<AgenticRecord>,
    pub scm_configs: Vec<ScmConfig>,
    /// What triage changed since start-up.
    overlay: changes::Overlay,
    /// Days the data has moved on since it was generated ([`moved_on`]).
    pub days_later: u32,
    /// A snapshot's findings instead of generated ones ([`offline`]).
    pub offline: Option<Offline>,
}

/// Memory ids the autotriage of demo findings refers to.
pub fn memory_id(i: u8) -> String {
    format!("mem-{:03}", u32::from(i) + 1)
}

pub fn finding_id(index: usize) -> String {
    (FIRST_FINDING_ID + index as u64).to_string()
}

impl Dataset {
    /// The row index of finding `id`: a snapshot's by its ids, a
    /// generated one's by its number.
    pub fn index_of(&self, id: &str) -> Option<usize> {
        match &self.offline {
            Some(offline) => offline.index_of(id),
            None => finding_index(id, self.rows.len()),
        }
    }
}

/// The row index of a demo finding id, when it is one.
pub fn finding_index(id: &str, len: usize) -> Option<usize> {
    let n: u64 = id.parse().ok()?;
    let i = usize::try_from(n.checked_sub(FIRST_FINDING_ID)?).ok()?;
    (i < len).then_some(i)
}

fn idx<T: PartialEq>(all: &[T], v: &T) -> u8 {
    // A table of a few values (an enum's): saturating never.
    u8::try_from(all.iter().position(|x| x == v).unwrap_or(0)).unwrap_or(u8::MAX)
}

fn ts(secs: i64) -> DateTime<Utc> {
    Utc.timestamp_opt(secs, 0).single().unwrap_or_default()
}

impl Dataset {
    pub fn generate(findings: usize, seed: u64, anchor: DateTime<Utc>, deployment: &str) -> Self {
        Self::generate_moved_on(findings, seed, anchor, deployment, 0)
    }

    /// The data set generated at `anchor` less `days_later` days, then
    /// moved on to `anchor` as a deployment does over those days (findings
    /// new, fixed, reopened, triaged: [`moved_on`]).
    pub fn generate_moved_on(
        findings: usize,
        seed: u64,
        anchor: DateTime<Utc>,
        deployment: &str,
        days_later: u32,
    ) -> Self {
        let catalog = super::catalog::load();
        let repos = repo_infos(&catalog);
        let mut ds = Dataset {
            catalog,
            seed,
            anchor,
            deployment: deployment.to_owned(),
            repos,
            rows: Vec::with_capacity(findings),
            twins: Vec::new(),
            agentic: Vec::new(),
            scm_configs: Vec::new(),
            overlay: Default::default(),
            days_later,
            offline: None,
        };
        for i in 0..findings {
            let mut row = ds.generate_row(i);
            let timeline = ds.timeline(i, &row);
            row.last_activity = timeline.last().map_or(row.created, |e| e.date);
            let latest = |kind: HistoryType| {
                timeline
                    .iter()
                    .rev()
                    .find(|e| *e.history_type() == kind)
                    .map(|e| e.date)
            };
            row.triaged_at = latest(HistoryType::Triage);
            row.fixed_at = (IssueStatus::ALL[row.status as usize] == IssueStatus::Fixed)
                .then(|| latest(HistoryType::Status))
                .flatten();
            ds.rows.push(row);
        }
        let mut picker = twins::TwinPicker::new(&ds.rows);
        for i in 0..findings {
            ds.maybe_twin(&mut picker, i);
        }
        ds.move_on(findings, &mut picker);
        ds.agentic = (0..200).map(|i| ds.generate_agentic(i)).collect();
        ds.scm_configs = scm_configs::scm_configs(&ds);
        ds
    }

    /// "Now" of the data set, in seconds: what relative times and cooldowns
    /// are measured from.
    pub fn now(&self) -> i64 {
        self.anchor.timestamp()
    }

    /// "Now" when the data was generated: [`Self::now`] less the days it
    /// has moved on since.
    pub fn generated_now(&self) -> i64 {
        self.now() - i64::from(self.days_later) * DAY
    }

    /// Who may triage finding `index`: nobody for every 89th from the
    /// 45th (ids 100044, 100133 ...), an exception request for a blocking
    /// one, else an ignore.
    pub fn triage_permission(index: usize, row: &Row) -> TriagePermission {
        if index % 89 == 44 {
            TriagePermission::None
        } else if row.blocking {
            TriagePermission::Request
        } else {
            TriagePermission::Ignore
        }
    }

    /// How many review comments the List issues item of a finding counts.
    pub fn review_count(index: usize) -> usize {
        (index * 7 + 3) % 5
    }
}

fn repo_infos(c: &Catalog) -> Vec<RepoInfo> {
    c.repositories
        .iter()
        .enumerate()
        .map(|(k, repo)| {
            // The files of each rule that can be this repository's.
            let fitting = |paths: &[String]| -> Vec<u8> {
                (0..paths.len().min(256))
                    .filter(|&j| lookup::path_fits(c, k, &paths[j]))
                    .filter_map(|j| u8::try_from(j).ok())
                    .collect()
            };
            let mut code_paths = HashMap::new();
            for (j, rule) in c.code_rules.iter().enumerate() {
                let files = fitting(&rule.paths);
                if repo.languages.contains(&rule.language) && !files.is_empty() {
                    code_paths.insert(u16::try_from(j).unwrap_or(u16::MAX), files);
                }
            }
            let mut code_rules: Vec<u16> = code_paths.keys().copied().collect();
            code_rules.sort_unstable();
            let mut secret_paths = HashMap::new();
            for (j, rule) in c.secret_rules.iter().enumerate() {
                let files = fitting(&rule.paths);
                if !files.is_empty() {
                    secret_paths.insert(u16::try_from(j).unwrap_or(u16::MAX), files);
                }
            }
            let mut secret_rules: Vec<u16> = secret_paths.keys().copied().collect();
            secret_rules.sort_unstable();
            let advisories = (0..c.sca_advisories.len())
                .filter(|&j| lookup::ecosystem_fits(repo, &c.sca_advisories[j].ecosystem))
                .filter_map(|j| u16::try_from(j).ok())
                .collect();
            let teams = c.people.teams.len().max(1);
            // A catalog of a few teams: saturating never.
            let team = |t: usize| u8::try_from(t % teams).unwrap_or(u8::MAX);
            let mut repo_teams = vec![team(k)];
            if k % 3 == 0 {
                repo_teams.push(team(k + 2));
            }
            RepoInfo {
                id: (FIRST_REPO_ID + k as u64).to_string(),
                primary_ref_id: (FIRST_REF_ID + k as u64).to_string(),
                teams: repo_teams,
                code_rules,
                code_paths,
                secret_rules,
                secret_paths,
                advisories,
            }
        })
        .collect()
}
