//! The finding rows: one random stream per finding decides its kind,
//! rule, place, levels, dates and states.

use super::{DAY, Dataset, FixPr, Kind, RepoInfo, Row, idx, stream};
use crate::catalog::ScaAdvisory;
use crate::rng::Rng;
use findings_model::*;

impl Dataset {
    pub(super) fn generate_row(&self, i: usize) -> Row {
        let c = &self.catalog;
        let mut r = Rng::for_item(self.seed, stream::ROW, i as u64);
        // Bigger repositories hold more findings.
        let repo_weights: Vec<u32> = (0..c.repositories.len())
            .map(|k| 4 + u32::try_from(k * 7 % 11).unwrap_or(0))
            .collect();
        let repo = r.weighted(&repo_weights);
        let info = &self.repos[repo];
        let (kind, rule) = self.kind_and_rule(&mut r, info);
        // The files of the rule that fit the repository.
        let files = match kind {
            Kind::Code | Kind::AiCode => info.code_paths.get(&rule),
            Kind::Sca => None,
            Kind::Secrets => info.secret_paths.get(&rule),
        };
        let (severity, confidence) = self.levels(&mut r, kind, rule);
        let ref_slot = ref_slot(&mut r, &c.repositories[repo].other_refs);

        let (created, first_detected, relevant_since) = self.dates(&mut r);

        let (status, triage, aggregate, triage_reason) = states(&mut r);

        let is_code = matches!(kind, Kind::Code | Kind::AiCode);
        let verdict =
            (is_code && r.chance(0.7)).then(|| idx(Verdict::ALL, r.pick(&Verdict::ALL[..3])));
        let sensitivity = r.chance(0.5).then(|| r.below_u8(Sensitivity::ALL.len()));
        let reachability =
            (kind == Kind::Sca).then(|| reachability(&mut r, &c.sca_advisories[rule as usize]));
        let validation = (kind == Kind::Secrets).then(|| r.below_u8(ValidationState::ALL.len()));
        let transitive = kind == Kind::Sca
            && !c.sca_advisories[rule as usize].parents.is_empty()
            && r.chance(0.7);
        let team = *r.pick(&info.teams);
        let ticket = r.chance(0.15);
        let ticket_failed = r.chance(0.04);
        let blocking = self.policy_blocking(kind, rule) && severity.rank() <= 1 && r.chance(0.6);
        let fix_pr = (is_code && r.chance(0.12)).then(|| fix_pr(&mut r));
        let memory_referenced = (verdict.is_some() && r.chance(0.2)).then(|| r.below_u8(12));
        let memory_rendered = (verdict.is_some() && r.chance(0.1)).then(|| r.below_u8(12));
        let exception = (status == IssueStatus::Unresolved && r.chance(0.05))
            .then(|| r.below_u8(ExceptionState::ALL.len()));
        let unicode = (!c.unicode_samples.is_empty() && r.chance(0.01))
            .then(|| r.below_u8(c.unicode_samples.len()));

        let mut row = Row {
            kind,
            rule,
            repo: u8::try_from(repo).unwrap_or(u8::MAX),
            ref_slot,
            path: files.map_or(0, |f| *r.pick(f)),
            line: u32::try_from(r.range(3, 640)).unwrap_or(3),
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
            triaged_at: None,
            fixed_at: None,
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
            historical: false,
            memory_referenced,
            memory_rendered,
            exception,
            unicode,
        };
        // A code finding is the snippet's sink line: the snippet starts
        // at line 1 at the earliest.
        if let Some(cr) = self.code_rule(&row) {
            row.line = row
                .line
                .max(u32::try_from(cr.sink_line() + 1).unwrap_or(u32::MAX));
        }
        // Drawn last, after the row's other draws (the literal above makes
        // some), so every row stays as it was before these existed.
        row.historical = kind == Kind::Secrets && r.chance(0.4);
        if row.fix_pr == Some(FixPr::Open) && r.chance(0.2) {
            row.fix_pr = Some(FixPr::Requested);
        }
        row
    }

    /// The finding's severity (mostly its rule's) and confidence.
    fn levels(&self, r: &mut Rng, kind: Kind, rule: u16) -> (Severity, Confidence) {
        let c = &self.catalog;
        let rule_severity = match kind {
            Kind::Code | Kind::AiCode => c.code_rules[rule as usize].severity.as_str(),
            Kind::Sca => c.sca_advisories[rule as usize].severity.as_str(),
            Kind::Secrets => c.secret_rules[rule as usize].severity.as_str(),
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
        (severity, confidence)
    }

    /// Whether the rule's policy can block a merge (code rules say so in
    /// their policy; the other kinds always can).
    fn policy_blocking(&self, kind: Kind, rule: u16) -> bool {
        match kind {
            Kind::Code | Kind::AiCode => self.catalog.code_rules[rule as usize]
                .policy_slug
                .contains("blocking"),
            _ => true,
        }
    }

    /// The row's kind and rule: one the repository holds, else one of the
    /// whole catalog.
    fn kind_and_rule(&self, r: &mut Rng, info: &RepoInfo) -> (Kind, u16) {
        let c = &self.catalog;
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
        match kind {
            Kind::AiCode if !ai_rules.is_empty() => (Kind::AiCode, *r.pick(&ai_rules)),
            Kind::Code | Kind::AiCode if !plain_rules.is_empty() => {
                (Kind::Code, *r.pick(&plain_rules))
            }
            // Every repository has advisories and secret rules of its own
            // (a catalog test says so); the whole list is a fallback only.
            Kind::Code | Kind::AiCode | Kind::Sca => (
                Kind::Sca,
                pick_or(r, &info.advisories, c.sca_advisories.len()),
            ),
            Kind::Secrets => (
                Kind::Secrets,
                pick_or(r, &info.secret_rules, c.secret_rules.len()),
            ),
        }
    }

    /// When the finding was created, first detected, and relevant since.
    fn dates(&self, r: &mut Rng) -> (i64, i64, i64) {
        // Most findings are recent; a long tail reaches back a year.
        // Under 365: the cast cannot lose.
        #[allow(clippy::cast_possible_truncation)]
        let age_days = (r.unit().powf(1.8) * 365.0) as i64;
        // Two minutes before "now" at the latest: its first events follow
        // it by up to a minute and must not pass "now".
        let created = (self.generated_now() - age_days * DAY - r.range(0, DAY - 1))
            .min(self.generated_now() - 120);
        let first_detected = created
            - if r.chance(0.3) {
                r.range(0, 30) * DAY
            } else {
                0
            };
        // Later dates stay before "now" without piling up on it.
        let room = (self.generated_now() - 60 - created).max(0);
        let relevant_since = created + r.range(0, room.min(3 * DAY));
        (created, first_detected, relevant_since)
    }
}

/// The row's status, triage state, aggregate state and triage reason.
fn states(r: &mut Rng) -> (IssueStatus, TriageState, AggregateState, Option<u8>) {
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
    (status, triage, aggregate, triage_reason)
}

/// How reachable an advisory's vulnerable code is, by the advisory's kind.
/// Which of the repository's refs the finding is on: mostly the default
/// (0), else one of the others.
fn ref_slot<T>(r: &mut Rng, other_refs: &[T]) -> u8 {
    if other_refs.is_empty() || r.chance(0.8) {
        0
    } else {
        1 + r.below_u8(other_refs.len())
    }
}

/// A fix pull request's fate: mostly open, some merged, a few failed.
fn fix_pr(r: &mut Rng) -> FixPr {
    match r.weighted(&[6, 3, 1]) {
        0 => FixPr::Open,
        1 => FixPr::Merged,
        _ => FixPr::Failed,
    }
}

fn reachability(r: &mut Rng, adv: &ScaAdvisory) -> u8 {
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
}

/// One of `items`, else (none) an index below `len`.
fn pick_or(r: &mut Rng, items: &[u16], len: usize) -> u16 {
    if items.is_empty() {
        r.below_u16(len.max(1))
    } else {
        *r.pick(items)
    }
}
