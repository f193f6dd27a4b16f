//! The demo data set: compact rows generated from a seed, and the full wire
//! objects built from a row on demand.
//!
//! A row holds only what filters and sorts need (about 100 bytes), so 200,000
//! findings start in well under a second; the rich parts of a finding
//! (activity history, dataflow trace, remediation ...) are rebuilt from a
//! per-finding random stream when a page is answered, identical every time.

use super::catalog::{Catalog, CodeRule, ScaAdvisory, SecretRule};
use super::rng::Rng;
use crate::api::model::*;
use chrono::{DateTime, Duration, TimeZone, Utc};

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
/// the `ALL` list of their model enum.
#[derive(Debug, Clone)]
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
}

/// Derived, per-repository facts.
#[derive(Debug, Clone)]
pub struct RepoInfo {
    pub id: String,
    pub primary_ref_id: String,
    pub teams: Vec<u8>,
    /// Indices of code rules in the repository's languages.
    pub code_rules: Vec<u16>,
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
    pub agentic: Vec<AgenticRecord>,
    pub scm_configs: Vec<ScmConfig>,
}

/// Memory ids the autotriage of demo findings refers to.
pub fn memory_id(i: u8) -> String {
    format!("mem-{:03}", u32::from(i) + 1)
}

pub fn finding_id(index: usize) -> String {
    (FIRST_FINDING_ID + index as u64).to_string()
}

/// The row index of a demo finding id, when it is one.
pub fn finding_index(id: &str, len: usize) -> Option<usize> {
    let n: u64 = id.parse().ok()?;
    let i = n.checked_sub(FIRST_FINDING_ID)? as usize;
    (i < len).then_some(i)
}

fn idx<T: PartialEq>(all: &[T], v: &T) -> u8 {
    all.iter().position(|x| x == v).unwrap_or(0) as u8
}

fn ts(secs: i64) -> DateTime<Utc> {
    Utc.timestamp_opt(secs, 0).single().unwrap_or_default()
}

impl Dataset {
    pub fn generate(findings: usize, seed: u64, anchor: DateTime<Utc>, deployment: &str) -> Self {
        let catalog = super::catalog::load();
        let repos = repo_infos(&catalog);
        let mut ds = Dataset {
            catalog,
            seed,
            anchor,
            deployment: deployment.to_owned(),
            repos,
            rows: Vec::with_capacity(findings),
            agentic: Vec::new(),
            scm_configs: Vec::new(),
        };
        for i in 0..findings {
            let mut row = ds.generate_row(i);
            row.last_activity = ds.timeline(i, &row).last().map_or(row.created, |e| e.date);
            ds.rows.push(row);
        }
        ds.agentic = (0..200).map(|i| ds.generate_agentic(i)).collect();
        ds.scm_configs = scm_configs(&ds);
        ds
    }

    fn now(&self) -> i64 {
        self.anchor.timestamp()
    }

    pub fn repo(&self, row: &Row) -> &super::catalog::Repository {
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

    fn generate_row(&self, i: usize) -> Row {
        let c = &self.catalog;
        let mut r = Rng::for_item(self.seed, stream::ROW, i as u64);
        // Bigger repositories hold more findings.
        let repo_weights: Vec<u32> = (0..c.repositories.len())
            .map(|k| 4 + ((k as u32 * 7) % 11))
            .collect();
        let repo = r.weighted(&repo_weights);
        let info = &self.repos[repo];
        let kind = match r.weighted(&[50, 6, 30, 14]) {
            0 => Kind::Code,
            1 => Kind::AiCode,
            2 => Kind::Sca,
            _ => Kind::Secrets,
        };
        let ai_rules: Vec<u16> = info
            .code_rules
            .iter()
            .copied()
            .filter(|&k| c.code_rules[k as usize].issue_type == "ISSUE_TYPE_AI_SAST")
            .collect();
        let plain_rules: Vec<u16> = info
            .code_rules
            .iter()
            .copied()
            .filter(|&k| c.code_rules[k as usize].issue_type != "ISSUE_TYPE_AI_SAST")
            .collect();
        let (kind, rule) = match kind {
            Kind::AiCode if !ai_rules.is_empty() => (Kind::AiCode, *r.pick(&ai_rules)),
            Kind::Code | Kind::AiCode if !plain_rules.is_empty() => {
                (Kind::Code, *r.pick(&plain_rules))
            }
            Kind::Code | Kind::AiCode | Kind::Sca => {
                (Kind::Sca, r.below(c.sca_advisories.len()) as u16)
            }
            Kind::Secrets => (Kind::Secrets, r.below(c.secret_rules.len()) as u16),
        };
        let (rule_severity, path_count) = match kind {
            Kind::Code | Kind::AiCode => {
                let cr = &c.code_rules[rule as usize];
                (cr.severity.as_str(), cr.paths.len())
            }
            Kind::Sca => (c.sca_advisories[rule as usize].severity.as_str(), 1),
            Kind::Secrets => {
                let s = &c.secret_rules[rule as usize];
                (s.severity.as_str(), s.paths.len())
            }
        };
        let issue_severities = &Severity::ALL[..4];
        let severity = if r.chance(0.85) {
            Severity::from_wire(rule_severity)
        } else {
            r.pick(issue_severities).clone()
        };
        let confidence = match kind {
            Kind::Code | Kind::AiCode if r.chance(0.8) => {
                Confidence::from_wire(&c.code_rules[rule as usize].confidence)
            }
            Kind::Secrets => Confidence::High,
            _ => r.pick(Confidence::ALL).clone(),
        };

        let repo_meta = &c.repositories[repo];
        let ref_slot = if repo_meta.other_refs.is_empty() || r.chance(0.8) {
            0
        } else {
            1 + r.below(repo_meta.other_refs.len()) as u8
        };

        // Most findings are recent; a long tail reaches back a year.
        let age_days = (r.unit().powf(1.8) * 365.0) as i64;
        let created = self.now() - age_days * DAY - r.range(0, DAY - 1);
        let first_detected = created
            - if r.chance(0.3) {
                r.range(0, 30) * DAY
            } else {
                0
            };
        // Later dates stay before "now" without piling up on it.
        let room = (self.now() - 60 - created).max(0);
        let relevant_since = created + r.range(0, room.min(3 * DAY));

        let status = match r.weighted(&[70, 20, 5, 5]) {
            0 => IssueStatus::Unresolved,
            1 => IssueStatus::Fixed,
            2 => IssueStatus::Removed,
            _ => IssueStatus::Muted,
        };
        let (triage, aggregate) = match status {
            IssueStatus::Fixed => (TriageState::Untriaged, AggregateState::Fixed),
            IssueStatus::Removed => (TriageState::Untriaged, AggregateState::Removed),
            IssueStatus::Muted => (TriageState::Untriaged, AggregateState::IgnoredCode),
            _ => match r.weighted(&[58, 12, 8, 8, 5, 7, 2]) {
                0 => (TriageState::Untriaged, AggregateState::Open),
                1 => (TriageState::Ignored, AggregateState::IgnoredApp),
                2 => (TriageState::Reviewing, AggregateState::Reviewing),
                3 => (TriageState::Fixing, AggregateState::Fixing),
                4 => (
                    TriageState::ProvisionallyIgnored,
                    AggregateState::ProvisionallyIgnoredApp,
                ),
                5 => (TriageState::Reopened, AggregateState::Open),
                _ => (TriageState::Unknown, AggregateState::Unknown),
            },
        };
        let triage_reason = matches!(
            triage,
            TriageState::Ignored | TriageState::ProvisionallyIgnored
        )
        .then(|| {
            idx(
                TriageReason::ALL,
                r.pick(&[
                    TriageReason::FalsePositive,
                    TriageReason::AcceptableRisk,
                    TriageReason::NoTime,
                    TriageReason::Duplicate,
                ]),
            )
        });

        let is_code = matches!(kind, Kind::Code | Kind::AiCode);
        let verdict =
            (is_code && r.chance(0.7)).then(|| idx(Verdict::ALL, r.pick(&Verdict::ALL[..3])));
        let sensitivity = r.chance(0.5).then(|| r.below(Sensitivity::ALL.len()) as u8);
        let reachability = (kind == Kind::Sca).then(|| {
            let adv = &c.sca_advisories[rule as usize];
            let v = match adv.sca_rule_kind.as_str() {
                "SCA_RULE_KIND_MALICIOUS_DEPENDENCY" => Reachability::AlwaysReachable,
                "SCA_RULE_KIND_UPGRADE_ONLY" | "SCA_RULE_KIND_LEGACY" => Reachability::Unknown,
                _ => r
                    .pick(&[
                        Reachability::Reachable,
                        Reachability::Reachable,
                        Reachability::ConditionallyReachable,
                        Reachability::Unreachable,
                        Reachability::Unreachable,
                        Reachability::AlwaysReachable,
                    ])
                    .clone(),
            };
            idx(Reachability::ALL, &v)
        });
        let validation = (kind == Kind::Secrets).then(|| r.below(ValidationState::ALL.len()) as u8);
        let transitive = kind == Kind::Sca
            && !c.sca_advisories[rule as usize].parents.is_empty()
            && r.chance(0.7);
        let team = *r.pick(&info.teams);
        let ticket = r.chance(0.15);
        let ticket_failed = r.chance(0.04);
        let policy_blocking = match kind {
            Kind::Code | Kind::AiCode => {
                c.code_rules[rule as usize].policy_slug.contains("blocking")
            }
            _ => true,
        };
        let blocking = policy_blocking && severity.rank() <= 1 && r.chance(0.6);
        let fix_pr = (is_code && r.chance(0.12)).then(|| match r.weighted(&[6, 3, 1]) {
            0 => FixPr::Open,
            1 => FixPr::Merged,
            _ => FixPr::Failed,
        });
        let memory_referenced = (verdict.is_some() && r.chance(0.2)).then(|| r.below(12) as u8);
        let memory_rendered = (verdict.is_some() && r.chance(0.1)).then(|| r.below(12) as u8);
        let exception = (status == IssueStatus::Unresolved && r.chance(0.05))
            .then(|| r.below(ExceptionState::ALL.len()) as u8);
        let unicode = (!c.unicode_samples.is_empty() && r.chance(0.01))
            .then(|| r.below(c.unicode_samples.len()) as u8);

        Row {
            kind,
            rule,
            repo: repo as u8,
            ref_slot,
            path: r.below(path_count.max(1)) as u8,
            line: r.range(3, 640) as u32,
            severity: idx(Severity::ALL, &severity),
            confidence: idx(Confidence::ALL, &confidence),
            status: idx(IssueStatus::ALL, &status),
            triage: idx(TriageState::ALL, &triage),
            triage_reason,
            aggregate: idx(AggregateState::ALL, &aggregate),
            created,
            relevant_since,
            first_detected,
            last_activity: created,
            verdict,
            sensitivity,
            reachability,
            validation,
            transitive,
            team,
            ticket,
            ticket_failed,
            blocking,
            fix_pr,
            memory_referenced,
            memory_rendered,
            exception,
            unicode,
        }
    }

    /// The activity of a finding, oldest first, without its strings.
    pub fn timeline(&self, index: usize, row: &Row) -> Vec<Event> {
        let mut r = Rng::for_item(self.seed, stream::ACTIVITY, index as u64);
        let now = self.now();
        let mut t = row.created;
        let mut events = Vec::new();
        // Each step takes at most half the time left before "now", so events
        // spread out instead of piling up on it.
        let mut step = |r: &mut Rng, max_days: i64| {
            let room = (now - 30 - t).max(0);
            let hi = (room / 2).min(max_days.max(1) * DAY);
            t += r.range(room.min(60).min(hi), hi);
            t
        };
        events.push(Event::new(row.created, HistoryType::AnalysisStarted, None));
        events.push(Event::new(row.created + 45, HistoryType::Status, None));
        if row.verdict.is_some() {
            events.push(Event::new(step(&mut r, 1), HistoryType::Autotriage, None));
            if r.chance(0.2) {
                let actor = Some(r.below(20) as u8);
                events.push(Event::new(
                    step(&mut r, 4),
                    HistoryType::AutotriageFeedback,
                    actor,
                ));
            }
        }
        if row.sensitivity.is_some() {
            events.push(Event::new(step(&mut r, 2), HistoryType::AiTag, None));
        }
        if r.chance(0.1) {
            events.push(Event::new(
                step(&mut r, 3),
                HistoryType::GuidanceRegeneration,
                None,
            ));
        }
        if r.chance(0.08) {
            let actor = Some(r.below(20) as u8);
            events.push(Event::new(step(&mut r, 5), HistoryType::ScmMention, actor));
        }
        if r.chance(0.06) {
            let actor = Some(r.below(20) as u8);
            events.push(Event::new(
                step(&mut r, 5),
                HistoryType::ReviewCommentSilenced,
                actor,
            ));
        }
        if row.ticket_failed {
            events.push(Event::new(
                step(&mut r, 5),
                HistoryType::TicketAttempted,
                None,
            ));
        }
        if row.ticket {
            let actor = Some(r.below(20) as u8);
            events.push(Event::new(
                step(&mut r, 10),
                HistoryType::TicketCreated,
                actor,
            ));
        }
        if let Some(pr) = row.fix_pr {
            let actor = Some(r.below(20) as u8);
            events.push(Event::new(
                step(&mut r, 6),
                HistoryType::ClickToFixPrRequested,
                actor,
            ));
            let outcome = match pr {
                FixPr::Failed => HistoryType::ClickToFixPrFailed,
                _ => HistoryType::ClickToFixPrOpened,
            };
            events.push(Event::new(step(&mut r, 1), outcome, None));
            if pr == FixPr::Merged {
                events.push(Event::new(
                    step(&mut r, 7),
                    HistoryType::ClickToFixPrMerged,
                    actor,
                ));
            }
        }
        if let Some(state) = row.exception {
            let requester = Some(r.below(20) as u8);
            events.push(Event::new(
                step(&mut r, 8),
                HistoryType::ExceptionRequestCreated,
                requester,
            ));
            let reviewer = Some(r.below(20) as u8);
            match ExceptionState::ALL[state as usize] {
                ExceptionState::Approved => events.push(Event::new(
                    step(&mut r, 5),
                    HistoryType::ExceptionRequestApproved,
                    reviewer,
                )),
                ExceptionState::Rejected => events.push(Event::new(
                    step(&mut r, 5),
                    HistoryType::ExceptionRequestRejected,
                    reviewer,
                )),
                _ => {}
            }
        }
        let triage = &TriageState::ALL[row.triage as usize];
        if *triage != TriageState::Untriaged && *triage != TriageState::Unknown {
            let actor = Some(r.below(20) as u8);
            events.push(Event::new(step(&mut r, 14), HistoryType::Triage, actor));
        }
        let status = &IssueStatus::ALL[row.status as usize];
        if *status != IssueStatus::Unresolved {
            events.push(Event::new(step(&mut r, 30), HistoryType::Status, None));
        }
        events.sort_by_key(|e| e.date);
        events
    }

    fn generate_agentic(&self, i: usize) -> AgenticRecord {
        let m = &self.catalog.agentic;
        let mut r = Rng::for_item(self.seed, stream::AGENTIC, i as u64);
        let now = self.now();
        let created = now - (r.unit().powf(1.5) * 120.0 * DAY as f64) as i64;
        let last_detected = created + r.range(0, (now - 60 - created).clamp(0, 20 * DAY));
        let severity = Severity::ALL[r.weighted(&[6, 18, 30, 26, 20])].clone();
        let triage_state = AgenticTriageState::ALL[r.weighted(&[45, 10, 8, 5, 14, 6, 12])].clone();
        let triaged = triage_state != AgenticTriageState::Open;
        let triage_reason = matches!(
            triage_state,
            AgenticTriageState::Ignored | AgenticTriageState::ProvisionallyIgnored
        )
        .then(|| r.pick(AgenticTriageReason::ALL).clone());
        let detection_state = DetectionState::ALL[r.weighted(&[60, 10, 10, 20])].clone();
        let pick_some = |r: &mut Rng, items: &[String], lo: usize, hi: usize| -> Vec<String> {
            let k = r.range(lo as i64, hi as i64) as usize;
            r.sample(items.len(), k)
                .into_iter()
                .map(|j| items[j].clone())
                .collect()
        };
        let story = r.below(m.titles.len());
        let repo_count = r.range(1, 2) as usize;
        let repos = r.sample(self.repos.len(), repo_count);
        let issue = AgenticIssue {
            id: Some(format!("agw-{:05}", 7001 + i)),
            deployment_id: Some(self.deployment.clone()),
            // Entry k of titles, descriptions and reasonings tell one story.
            title: Some(m.titles[story].clone()),
            description: m.descriptions.get(story).cloned(),
            reasoning: m.reasonings.get(story).cloned(),
            created_at: Some(ts(created)),
            last_detected_at: Some(ts(last_detected)),
            triaged_at: triaged.then(|| {
                ts(last_detected + r.range(0, (now - 30 - last_detected).clamp(0, 5 * DAY)))
            }),
            detection_state: Some(detection_state),
            severity: Some(severity),
            triage_state: Some(triage_state),
            triage_reason,
            actions: pick_some(&mut r, &m.actions, 1, 3),
            workflow_ids: pick_some(&mut r, &m.workflow_ids, 1, 2),
            identities: pick_some(&mut r, &m.identities, 1, 2),
            trigger_sources: pick_some(&mut r, &m.trigger_sources, 1, 2),
            project_ids: repos.iter().map(|&k| self.repos[k].id.clone()).collect(),
            ref_ids: repos
                .iter()
                .map(|&k| self.repos[k].primary_ref_id.clone())
                .collect(),
            file_paths: pick_some(&mut r, &m.file_paths, 1, 3),
            dependency_paths: pick_some(&mut r, &m.dependency_paths, 0, 2),
            direct_dependencies: pick_some(&mut r, &m.direct_dependencies, 0, 2),
            domains: pick_some(&mut r, &m.domains, 0, 3),
            cwes: pick_some(&mut r, &m.cwes, 1, 2),
            owasps: pick_some(&mut r, &m.owasps, 1, 1),
        };
        AgenticRecord {
            issue,
            workflow_job_ids: pick_some(&mut r, &m.workflow_job_ids, 1, 3),
        }
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

/// One activity event before its strings are made.
#[derive(Debug, Clone, Copy)]
pub struct Event {
    pub date: i64,
    /// Index into `HistoryType::ALL` (the enum is not `Copy`).
    pub kind: u8,
    pub actor: Option<u8>,
}

impl Event {
    fn new(date: i64, kind: HistoryType, actor: Option<u8>) -> Self {
        Event {
            date,
            kind: idx(HistoryType::ALL, &kind),
            actor,
        }
    }

    pub fn history_type(&self) -> &'static HistoryType {
        &HistoryType::ALL[self.kind as usize]
    }
}

fn repo_infos(c: &Catalog) -> Vec<RepoInfo> {
    c.repositories
        .iter()
        .enumerate()
        .map(|(k, repo)| {
            let code_rules: Vec<u16> = c
                .code_rules
                .iter()
                .enumerate()
                .filter(|(_, rule)| repo.languages.contains(&rule.language))
                .map(|(j, _)| j as u16)
                .collect();
            let teams = c.people.teams.len().max(1);
            let mut repo_teams = vec![(k % teams) as u8];
            if k % 3 == 0 {
                repo_teams.push(((k + 2) % teams) as u8);
            }
            RepoInfo {
                id: (FIRST_REPO_ID + k as u64).to_string(),
                primary_ref_id: (FIRST_REF_ID + k as u64).to_string(),
                teams: repo_teams,
                code_rules,
            }
        })
        .collect()
}

fn scm_configs(ds: &Dataset) -> Vec<ScmConfig> {
    let now = ds.anchor;
    let entries: [(&str, ScmType, &str, bool, bool, bool); 5] = [
        ("1001", ScmType::HostA, "acme", true, false, true),
        (
            "1002",
            ScmType::HostAEnterprise,
            "acme-platform",
            true,
            true,
            true,
        ),
        ("1003", ScmType::HostB, "acme-mobile", false, false, false),
        ("1004", ScmType::HostCDatacenter, "ACME", true, true, false),
        ("1005", ScmType::HostD, "acme-labs", false, false, true),
    ];
    entries
        .iter()
        .enumerate()
        .map(
            |(k, (id, scm_type, namespace, auto_scan, broker, healthy))| {
                let host = host_of(scm_type);
                ScmConfig {
                    id: Some((*id).to_owned()),
                    scm_type: Some(scm_type.clone()),
                    namespace: Some((*namespace).to_owned()),
                    source_id: Some(format!("src-{}", 880 + k)),
                    base_url: Some(format!("https://{host}")),
                    app: Some(ScmApp {
                        id: Some(format!("app-{}", 300 + k)),
                        slug: Some("findings-scanner".into()),
                        app_id: Some((41_000 + k).to_string()),
                        scm_type: Some(scm_type.clone()),
                        base_url: Some(format!("https://{host}")),
                        request_id: None,
                        scm_name: Some(format!("{namespace} on {}", scm_type.label())),
                        code_access: Some(true),
                        tenant_id: (k == 3).then(|| "tenant-7f3a".to_owned()),
                    }),
                    status: Some(ScmStatus {
                        checked: Some(now - Duration::minutes(17 + 40 * k as i64)),
                        ok: Some(*healthy),
                        error: (!healthy).then(|| {
                            "token expired: the SCM answered 401 when listing repositories"
                                .to_owned()
                        }),
                    }),
                    installed: Some(true),
                    suspended: Some(k == 4),
                    host_a_entity_type: matches!(
                        scm_type,
                        ScmType::HostA | ScmType::HostAEnterprise
                    )
                    .then_some(HostAEntityType::Org),
                    auto_scan: Some(*auto_scan),
                    use_network_broker: Some(*broker),
                    token_scopes: Some(TokenScopes {
                        read_metadata: Some(true),
                        read_pull_request: Some(true),
                        write_pull_request_comment: Some(k != 2),
                        read_contents: Some(true),
                        read_members: Some(k % 2 == 0),
                        manage_webhooks: Some(k < 3),
                        write_contents: Some(k == 0),
                        write_pull_request: Some(k == 0 || k == 1),
                    }),
                    subscriptions: vec![Subscription {
                        scm_url: Some(format!("https://{host}/{namespace}")),
                        events: vec!["push".into(), "pull_request".into()],
                    }],
                    last_successful_sync_at: Some(now - Duration::hours(2 + 5 * k as i64)),
                    auto_scan_settings: Some(AutoScanSettings {
                        diff_enabled: Some(k % 2 == 0),
                    }),
                    has_access_token: Some(k != 2),
                    scm_id: Some(format!("scm-{}", 9100 + k)),
                }
            },
        )
        .collect()
}

/// The host name the demo gives a source-control kind.
pub fn host_of(t: &ScmType) -> &'static str {
    match t {
        ScmType::HostA => "scm-a.example.com",
        ScmType::HostAEnterprise => "scm-a.acme.internal",
        ScmType::HostB => "scm-b.example.com",
        ScmType::HostBSelfManaged => "scm-b.acme.internal",
        ScmType::HostC => "scm-c.example.com",
        ScmType::HostCDatacenter => "scm-c.acme.internal",
        ScmType::HostD => "scm-d.example.com",
        ScmType::HostE => "scm-e.example.com",
        _ => "scm.example.com",
    }
}
