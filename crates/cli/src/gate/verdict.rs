//! What a gate decides, from the findings read: each finding of the ref
//! matched (by `matchBasedId`) against the base (the primary branch, or a
//! baseline), then weighed by the policy. No reading here: the decision
//! alone, so it is tested with findings made up.

use findings_config::{GatePolicy, KindName};
use findings_model::{AggregateState, Issue, Reachability, Severity, SlaDays, Timestamp};
use std::collections::HashMap;

/// A finding of the ref, against the base.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Novelty {
    /// The base does not have it.
    New,
    /// The base has it only fixed or removed.
    Reopened,
    /// The base has it (open, triaged, or any state but fixed and removed).
    Old,
}

impl Novelty {
    pub fn name(self) -> &'static str {
        match self {
            Novelty::New => "new",
            Novelty::Reopened => "reopened",
            Novelty::Old => "old",
        }
    }
}

/// The base's findings by match id, each as whether every finding of that
/// id there is fixed or removed. Every state is kept: a base narrowed to
/// the open ones would count the ignored and the fixed as new.
#[derive(Debug, Default)]
pub struct Base {
    closed_by_key: HashMap<Box<str>, bool>,
    /// The base is the ref itself (the primary branch against itself):
    /// every finding is old, with nothing read to say so.
    itself: bool,
}

/// The id a finding is matched by across refs: its `matchBasedId`. One
/// without is new wherever it is (it cannot be matched: fail closed).
fn match_key(issue: &Issue) -> Option<&str> {
    issue.match_based_id.as_deref().filter(|k| !k.is_empty())
}

fn fixed_or_removed(issue: &Issue) -> bool {
    matches!(
        issue.aggregate_state,
        Some(AggregateState::Fixed | AggregateState::Removed)
    )
}

impl Base {
    /// The base of a ref gated against itself.
    pub fn itself() -> Base {
        Base {
            itself: true,
            ..Base::default()
        }
    }

    pub fn add(&mut self, issue: &Issue) {
        let Some(key) = match_key(issue) else { return };
        let closed = fixed_or_removed(issue);
        self.closed_by_key
            .entry(key.into())
            .and_modify(|c| *c &= closed)
            .or_insert(closed);
    }

    pub fn novelty(&self, issue: &Issue) -> Novelty {
        if self.itself {
            return Novelty::Old;
        }
        match match_key(issue).and_then(|k| self.closed_by_key.get(k)) {
            None => Novelty::New,
            Some(true) => Novelty::Reopened,
            Some(false) => Novelty::Old,
        }
    }
}

/// A finding the policy refuses, and why it is in the gate.
#[derive(Debug, Clone)]
pub struct Refused {
    pub issue: Issue,
    pub novelty: Novelty,
}

/// An old finding past its open-age target by more than the policy allows.
#[derive(Debug, Clone)]
pub struct Overdue {
    pub issue: Issue,
    pub days_over: i64,
}

/// The decision, and the counts it says.
#[derive(Debug, Default)]
pub struct Verdict {
    pub refused: Vec<Refused>,
    pub new: usize,
    pub reopened: usize,
    /// New or reopened, in a state the policy counts as handled.
    pub handled: usize,
    /// New or reopened, outside the policy (severity, kind, supply-chain
    /// analysis).
    pub allowed: usize,
    /// Per exemption of the policy (by index), how many findings it exempted.
    pub exempted: Vec<usize>,
    /// The policy's exemptions past their last day (by index).
    pub expired: Vec<usize>,
    pub overdue: Vec<Overdue>,
    /// Findings of the ref read, and of them present (not fixed or removed).
    pub read: usize,
    pub present: usize,
}

impl Verdict {
    pub fn fails(&self) -> bool {
        !self.refused.is_empty() || !self.expired.is_empty() || !self.overdue.is_empty()
    }

    /// The refused findings' count per severity, most severe first.
    pub fn refused_by_severity(&self) -> Vec<(String, usize)> {
        let mut counts: Vec<(u8, String, usize)> = Vec::new();
        for r in &self.refused {
            let (rank, label) = match &r.issue.severity {
                Some(s) => (s.rank(), s.label().to_owned()),
                None => (u8::MAX, "unknown".to_owned()),
            };
            match counts.iter_mut().find(|c| c.1 == label) {
                Some(c) => c.2 += 1,
                None => counts.push((rank, label, 1)),
            }
        }
        counts.sort_by_key(|c| c.0);
        counts.into_iter().map(|(_, l, n)| (l, n)).collect()
    }
}

/// Weighs the findings of the ref as they are read.
pub struct Judge<'p> {
    policy: &'p GatePolicy,
    base: Base,
    today: chrono::NaiveDate,
    now: Timestamp,
    targets: SlaDays,
    verdict: Verdict,
}

impl<'p> Judge<'p> {
    pub fn new(policy: &'p GatePolicy, base: Base, now: Timestamp, targets: SlaDays) -> Self {
        let today = now.date_naive();
        let verdict = Verdict {
            exempted: vec![0; policy.exempt.len()],
            expired: (0..policy.exempt.len())
                .filter(|&k| policy.exempt[k].expired(today))
                .collect(),
            ..Verdict::default()
        };
        Judge {
            policy,
            base,
            today,
            now,
            targets,
            verdict,
        }
    }

    /// One finding of the ref.
    pub fn weigh(&mut self, issue: Issue) {
        self.verdict.read += 1;
        // Fixed or removed on the ref: the change does not bring it.
        if fixed_or_removed(&issue) {
            return;
        }
        self.verdict.present += 1;
        let novelty = self.base.novelty(&issue);
        if novelty == Novelty::Old {
            self.weigh_old(issue);
            return;
        }
        match novelty {
            Novelty::Reopened => self.verdict.reopened += 1,
            _ => self.verdict.new += 1,
        }
        let state = issue.aggregate_state.as_ref();
        if state.is_some_and(|s| self.policy.handled.iter().any(|h| h.0 == *s)) {
            self.verdict.handled += 1;
            return;
        }
        if !self.in_policy(&issue) {
            self.verdict.allowed += 1;
            return;
        }
        let exempting = self
            .policy
            .exempt
            .iter()
            .position(|e| !e.expired(self.today) && e.covers(&issue));
        if let Some(k) = exempting {
            self.verdict.exempted[k] += 1;
            return;
        }
        self.verdict.refused.push(Refused { issue, novelty });
    }

    /// The second gate: an old open finding too far past its target.
    fn weigh_old(&mut self, issue: Issue) {
        let Some(max) = self.policy.old_findings.max_days_over_target else {
            return;
        };
        let age = self.targets.open_age(
            issue.severity.as_ref(),
            issue.aggregate_state.as_ref(),
            issue.first_detected_at,
            self.now,
        );
        if let Some(age) = age.filter(|a| a.over > i64::from(max)) {
            self.verdict.overdue.push(Overdue {
                issue,
                days_over: age.over,
            });
        }
    }

    /// Whether the policy's severities, kinds and supply-chain thresholds
    /// take in `issue`. What cannot be known (a severity or kind this build
    /// does not know, no reachability, no EPSS score) is taken in.
    fn in_policy(&self, issue: &Issue) -> bool {
        let p = self.policy;
        let severity_in = match &issue.severity {
            Some(
                s @ (Severity::Critical
                | Severity::High
                | Severity::Medium
                | Severity::Low
                | Severity::Info),
            ) => p.severities.iter().any(|w| w.0 == *s),
            _ => true,
        };
        let kind = KindName::of(issue.issue_type.as_ref());
        let kind_in = kind.is_none_or(|k| p.kinds.iter().any(|w| w.0 == k));
        if !(severity_in && kind_in) {
            return false;
        }
        if kind != Some("supply-chain") {
            return true;
        }
        let sca = issue.sca_attributes.as_ref();
        if p.supply_chain.reachable_only {
            let unreachable =
                sca.and_then(|s| s.reachability.as_ref()) == Some(&Reachability::Unreachable);
            if unreachable {
                return false;
            }
        }
        if let Some(min) = p.supply_chain.min_epss {
            let score = sca
                .and_then(|s| s.epss_score.as_ref())
                .and_then(|e| e.score);
            if score.is_some_and(|s| s < min.0) {
                return false;
            }
        }
        true
    }

    pub fn finish(self) -> Verdict {
        self.verdict
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use findings_config::parse_gate_policy;
    use findings_model::{EpssScore, IssueType, ScaAttributes};

    fn finding(id: &str, key: &str, severity: Severity, state: AggregateState) -> Issue {
        Issue {
            id: Some(id.into()),
            match_based_id: Some(key.into()),
            severity: Some(severity),
            aggregate_state: Some(state),
            issue_type: Some(IssueType::Sast),
            rule_id: Some("sqli".into()),
            file_path: Some("src/a.py".into()),
            ..Issue::default()
        }
    }

    fn policy(text: &str) -> GatePolicy {
        parse_gate_policy(std::path::Path::new("gate.toml"), text).unwrap()
    }

    fn now() -> Timestamp {
        "2026-12-07T12:00:00Z".parse().unwrap()
    }

    fn judge(policy: &GatePolicy, base: &[Issue], refs: Vec<Issue>) -> Verdict {
        let mut known = Base::default();
        for i in base {
            known.add(i);
        }
        let mut judge = Judge::new(policy, known, now(), SlaDays::default());
        for i in refs {
            judge.weigh(i);
        }
        judge.finish()
    }

    use AggregateState::{Fixed, IgnoredApp, Open, Removed};
    use Severity::{Critical, High, Low};

    #[test]
    fn old_findings_never_fail_a_change_and_a_fixed_one_open_again_is_reopened() {
        let base = [
            finding("1", "a", Critical, Open),
            finding("2", "b", Critical, Fixed),
            finding("3", "c", High, IgnoredApp),
        ];
        let refs = vec![
            finding("11", "a", Critical, Open),  // a twin: old
            finding("12", "b", Critical, Open),  // fixed on main: reopened
            finding("13", "c", High, Open),      // ignored on main: old
            finding("14", "d", High, Open),      // new
            finding("15", "e", Critical, Fixed), // fixed on the ref: not brought
            finding("16", "f", Low, Open),       // new, under the policy
        ];
        let v = judge(&GatePolicy::default(), &base, refs);
        let refused: Vec<(&str, Novelty)> = v
            .refused
            .iter()
            .map(|r| (r.issue.id(), r.novelty))
            .collect();
        assert_eq!(refused, [("12", Novelty::Reopened), ("14", Novelty::New)]);
        assert_eq!(
            (v.new, v.reopened, v.allowed, v.present, v.read),
            (2, 1, 1, 5, 6)
        );
        assert!(v.fails());
        assert_eq!(
            v.refused_by_severity(),
            [("critical".to_owned(), 1), ("high".to_owned(), 1)]
        );
    }

    #[test]
    fn a_key_fixed_in_one_place_and_open_in_another_is_old() {
        let base = [
            finding("1", "a", High, Fixed),
            finding("2", "a", High, Open),
        ];
        let v = judge(
            &GatePolicy::default(),
            &base,
            vec![finding("9", "a", High, Open)],
        );
        assert!(!v.fails());
        let removed = [finding("1", "a", High, Removed)];
        let v = judge(
            &GatePolicy::default(),
            &removed,
            vec![finding("9", "a", High, Open)],
        );
        assert_eq!(v.reopened, 1);
    }

    #[test]
    fn a_ref_against_itself_brings_nothing_but_old_findings_still_age() {
        let mut old = finding("1", "a", Critical, Open);
        old.first_detected_at = Some("2026-10-01T00:00:00Z".parse().unwrap());
        let p = policy("[old_findings]\nmax_days_over_target = 1");
        let mut judge = Judge::new(&p, Base::itself(), now(), SlaDays::default());
        judge.weigh(old);
        judge.weigh(finding("2", "", High, Open));
        let v = judge.finish();
        assert_eq!(
            (v.new, v.reopened, v.refused.len(), v.overdue.len()),
            (0, 0, 0, 1)
        );
    }

    #[test]
    fn a_finding_without_a_match_id_is_new() {
        let mut twin = finding("9", "a", High, Open);
        twin.match_based_id = None;
        let v = judge(
            &GatePolicy::default(),
            &[finding("1", "a", High, Open)],
            vec![twin],
        );
        assert_eq!(v.refused.len(), 1);
    }

    #[test]
    fn handled_states_are_counted_apart() {
        let v = judge(
            &GatePolicy::default(),
            &[],
            vec![finding("1", "a", Critical, IgnoredApp)],
        );
        assert_eq!((v.handled, v.refused.len()), (1, 0));
        assert!(!v.fails());
        let strict = policy("handled = []");
        let v = judge(&strict, &[], vec![finding("1", "a", Critical, IgnoredApp)]);
        assert_eq!(v.refused.len(), 1);
    }

    #[test]
    fn an_exemption_exempts_until_its_last_day_then_fails_by_name() {
        let text = "[[exempt]]\nrule = \"sqli\"\nreason = \"legacy\"\nexpires = ";
        let live = policy(&format!("{text}2026-12-07"));
        let v = judge(&live, &[], vec![finding("1", "a", Critical, Open)]);
        assert_eq!((v.exempted[0], v.refused.len()), (1, 0));
        assert!(!v.fails());
        let past = policy(&format!("{text}2026-12-06"));
        let v = judge(&past, &[], vec![finding("1", "a", Critical, Open)]);
        assert_eq!(v.expired, [0]);
        assert_eq!((v.exempted[0], v.refused.len()), (0, 1));
        // Expired, it fails even with nothing it would cover.
        let v = judge(&past, &[], vec![]);
        assert!(v.fails());
    }

    #[test]
    fn supply_chain_thresholds_take_in_what_cannot_be_known() {
        let sca = |reach: Option<Reachability>, epss: Option<f64>| {
            let mut i = finding("1", "s", High, Open);
            i.issue_type = Some(IssueType::Sca);
            i.sca_attributes = Some(ScaAttributes {
                reachability: reach,
                epss_score: epss.map(|s| EpssScore {
                    score: Some(s),
                    ..EpssScore::default()
                }),
                ..ScaAttributes::default()
            });
            i
        };
        let p = policy("[supply_chain]\nreachable_only = true\nmin_epss = 0.1");
        let refused = |i| judge(&p, &[], vec![i]).refused.len();
        assert_eq!(refused(sca(Some(Reachability::Unreachable), Some(0.9))), 0);
        assert_eq!(refused(sca(Some(Reachability::Reachable), Some(0.01))), 0);
        assert_eq!(refused(sca(Some(Reachability::Reachable), Some(0.5))), 1);
        assert_eq!(refused(sca(None, None)), 1, "unknown is taken in");
        // Kinds: supply chain left out.
        let code_only = policy("kinds = [\"code\"]");
        assert_eq!(judge(&code_only, &[], vec![sca(None, None)]).allowed, 1);
    }

    #[test]
    fn old_findings_past_their_target_fail_the_second_gate() {
        let mut old = finding("9", "a", Critical, Open);
        old.first_detected_at = Some("2026-11-01T00:00:00Z".parse().unwrap());
        let base = [finding("1", "a", Critical, Open)];
        // 36 days open, target 7: 29 over.
        let v = judge(
            &policy("[old_findings]\nmax_days_over_target = 30"),
            &base,
            vec![old.clone()],
        );
        assert!(!v.fails());
        let v = judge(
            &policy("[old_findings]\nmax_days_over_target = 20"),
            &base,
            vec![old],
        );
        assert_eq!(v.overdue.len(), 1);
        assert_eq!(v.overdue[0].days_over, 29);
        assert!(v.fails());
    }
}
