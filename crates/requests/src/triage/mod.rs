//! What a triage decides, as people type it: the states and reasons each
//! kind of issue may be given, read with the one enum vocabulary
//! ([`wire::find_name`]), and the request bodies a decision becomes. The
//! TUI's dialog and `:triage`, and `findings triage`, all read it here.

pub mod expiry;
pub mod setting;

use findings_model::wire::{self, typed_name};
use findings_model::*;

/// What is triaged: findings (`IssuesService_BulkUpdateIssues`) or
/// agentic-workflow issues (`PublicIssuesService_TriageIssue`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Finding,
    Agentic,
}

/// The states a finding may be given (the published `UpdateFindingParams`
/// values but `UNKNOWN`), in the order the dialog offers them.
const FINDING_STATES: [TriageState; 6] = [
    TriageState::Ignored,
    TriageState::Reviewing,
    TriageState::Fixing,
    TriageState::Reopened,
    TriageState::ProvisionallyIgnored,
    TriageState::Untriaged,
];

const FINDING_REASONS: [TriageReason; 4] = [
    TriageReason::FalsePositive,
    TriageReason::AcceptableRisk,
    TriageReason::NoTime,
    TriageReason::Duplicate,
];

const AGENTIC_STATES: [AgenticTriageState; 7] = [
    AgenticTriageState::Ignored,
    AgenticTriageState::Reviewing,
    AgenticTriageState::Fixing,
    AgenticTriageState::Reopened,
    AgenticTriageState::ProvisionallyIgnored,
    AgenticTriageState::Open,
    AgenticTriageState::Fixed,
];

const AGENTIC_REASONS: [AgenticTriageReason; 3] = [
    AgenticTriageReason::FalsePositive,
    AgenticTriageReason::AcceptableRisk,
    AgenticTriageReason::NoTime,
];

impl Kind {
    /// The states this kind may be given, as `(wire name, label)`.
    pub fn states(self) -> Vec<(&'static str, &'static str)> {
        match self {
            Kind::Finding => offered(
                TriageState::names(),
                FINDING_STATES.map(|s| s.as_wire().to_owned()),
            ),
            Kind::Agentic => offered(
                AgenticTriageState::names(),
                AGENTIC_STATES.map(|s| s.as_wire().to_owned()),
            ),
        }
    }

    /// The reasons this kind takes, as `(wire name, label)`.
    pub fn reasons(self) -> Vec<(&'static str, &'static str)> {
        match self {
            Kind::Finding => offered(
                TriageReason::names(),
                FINDING_REASONS.map(|s| s.as_wire().to_owned()),
            ),
            Kind::Agentic => offered(
                AgenticTriageReason::names(),
                AGENTIC_REASONS.map(|s| s.as_wire().to_owned()),
            ),
        }
    }

    /// Whether a note goes with the decision (the agentic operation has none).
    pub fn takes_note(self) -> bool {
        self == Kind::Finding
    }

    /// What the kind is called in messages.
    pub fn noun(self, n: usize) -> &'static str {
        match (self, n) {
            (Kind::Finding, 1) => "finding",
            (Kind::Finding, _) => "findings",
            (Kind::Agentic, 1) => "agentic-workflow issue",
            (Kind::Agentic, _) => "agentic-workflow issues",
        }
    }
}

/// The names of `all` that `offered` lists, in `offered`'s order.
fn offered<const N: usize>(
    all: Vec<(&'static str, &'static str)>,
    offered: [String; N],
) -> Vec<(&'static str, &'static str)> {
    offered
        .iter()
        .filter_map(|w| all.iter().find(|(wire, _)| wire == w).copied())
        .collect()
}

/// Whether a state takes a reason: only the ignoring ones do.
pub fn takes_reason(state_wire: &str) -> bool {
    state_wire.ends_with("_IGNORED")
}

/// One triage decision, typed.
#[derive(Debug, Clone, PartialEq)]
pub enum Decision {
    Finding {
        state: TriageState,
        reason: Option<TriageReason>,
        /// Sent as typed (empty = none).
        note: Option<String>,
    },
    Agentic {
        state: AgenticTriageState,
        reason: Option<AgenticTriageReason>,
    },
}

impl Decision {
    /// A decision from typed names: `state` and `reason` in the vocabulary
    /// of `kind` (`ignored`, `false-positive`), each checked against what
    /// the state takes.
    pub fn parse(
        kind: Kind,
        state: &str,
        reason: Option<&str>,
        note: Option<String>,
    ) -> Result<Decision, String> {
        let states = kind.states();
        let Some(i) = wire::find_name(&states, state) else {
            return Err(format!(
                "{:?} is not a triage state of {}; one of {}",
                findings_base::text::one_line(state),
                kind.noun(2),
                typed(&states)
            ));
        };
        let (state_wire, state_label) = states[i];
        let reason = match reason.map(str::trim).filter(|r| !r.is_empty()) {
            None => None,
            Some(r) if !takes_reason(state_wire) => {
                return Err(format!(
                    "{} takes no reason (only ignored and provisionally-ignored do), not {:?}",
                    typed_name(state_label),
                    findings_base::text::one_line(r)
                ));
            }
            Some(r) => {
                let reasons = kind.reasons();
                let Some(k) = wire::find_name(&reasons, r) else {
                    return Err(format!(
                        "{:?} is not a triage reason; one of {}",
                        findings_base::text::one_line(r),
                        typed(&reasons)
                    ));
                };
                Some(reasons[k].0)
            }
        };
        let note = note.filter(|n| !n.trim().is_empty());
        match kind {
            Kind::Finding => Ok(Decision::Finding {
                state: TriageState::from_wire(state_wire),
                reason: reason.map(TriageReason::from_wire),
                note,
            }),
            Kind::Agentic if note.is_some() => Err(
                "agentic-workflow issues take no note (the service has no field for one)".into(),
            ),
            Kind::Agentic => Ok(Decision::Agentic {
                state: AgenticTriageState::from_wire(state_wire),
                reason: reason.map(AgenticTriageReason::from_wire),
            }),
        }
    }

    /// A decision from the words of `:triage STATE [REASON] [NOTE...]`: the
    /// second word is the reason when it names one, and the rest is the note.
    pub fn parse_words(kind: Kind, words: &str) -> Result<Decision, String> {
        let words = words.trim();
        let (state, rest) = split_word(words);
        if state.is_empty() {
            return Err(format!("which state? one of {}", typed(&kind.states())));
        }
        let (second, after) = split_word(rest);
        let reason_named = !second.is_empty() && wire::find_name(&kind.reasons(), second).is_some();
        let (reason, note) = if reason_named {
            (Some(second), after)
        } else {
            (None, rest)
        };
        let note = (!note.is_empty()).then(|| note.to_owned());
        Decision::parse(kind, state, reason, note)
    }

    pub fn kind(&self) -> Kind {
        match self {
            Decision::Finding { .. } => Kind::Finding,
            Decision::Agentic { .. } => Kind::Agentic,
        }
    }

    /// The state's label (`provisionally ignored`).
    pub fn state_label(&self) -> &str {
        match self {
            Decision::Finding { state, .. } => state.label(),
            Decision::Agentic { state, .. } => state.label(),
        }
    }

    pub fn reason_label(&self) -> Option<&str> {
        match self {
            Decision::Finding { reason, .. } => reason.as_ref().map(|r| r.label()),
            Decision::Agentic { reason, .. } => reason.as_ref().map(|r| r.label()),
        }
    }

    pub fn note(&self) -> Option<&str> {
        match self {
            Decision::Finding { note, .. } => note.as_deref(),
            Decision::Agentic { .. } => None,
        }
    }

    /// "ignored (false positive)".
    pub fn describe(&self) -> String {
        match self.reason_label() {
            Some(r) => format!("{} ({r})", self.state_label()),
            None => self.state_label().to_owned(),
        }
    }

    /// Whether the decision ignores (where `TRIAGE_PERMISSION_REQUEST` makes
    /// it an exception request instead).
    pub fn ignores(&self) -> bool {
        match self {
            Decision::Finding { state, .. } => {
                matches!(
                    state,
                    TriageState::Ignored | TriageState::ProvisionallyIgnored
                )
            }
            Decision::Agentic { state, .. } => matches!(
                state,
                AgenticTriageState::Ignored | AgenticTriageState::ProvisionallyIgnored
            ),
        }
    }

    /// The bulk update's `params` (a finding decision; `None` for agentic).
    pub fn finding_params(&self) -> Option<UpdateFindingParams> {
        match self {
            Decision::Finding {
                state,
                reason,
                note,
            } => Some(UpdateFindingParams {
                triage_state: Some(state.clone()),
                triage_reason: reason.clone(),
                note: note.clone(),
            }),
            Decision::Agentic { .. } => None,
        }
    }

    /// The agentic triage's body (`None` for a finding decision).
    pub fn agentic_request(&self) -> Option<TriageIssueRequest> {
        match self {
            Decision::Agentic { state, reason } => Some(TriageIssueRequest {
                triage_state: Some(state.clone()),
                triage_reason: reason.clone(),
                ..Default::default()
            }),
            Decision::Finding { .. } => None,
        }
    }
}

/// One finding or agentic-workflow issue a triage touches.
#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    pub id: String,
    /// What the review lists for it (rule and place, or the title).
    pub label: String,
    /// Its state before: what undo returns it to.
    pub before: Before,
    pub permission: Option<TriagePermission>,
    /// Its note, when `note_read` (a list's row keeps no note: a triage
    /// reads the findings again before it plans their notes).
    pub note: Option<String>,
    pub note_read: bool,
    /// Who last acted on it and when, when its activity was read:
    /// "alice at 2026-11-28 12:03".
    pub last_change: Option<String>,
    /// Of an archived project (its requests ask with `includeArchived`).
    pub archived: bool,
}

/// A target's triage state and reason before the triage.
#[derive(Debug, Clone, PartialEq)]
pub enum Before {
    Finding(Option<TriageState>, Option<TriageReason>),
    Agentic(Option<AgenticTriageState>, Option<AgenticTriageReason>),
}

impl Target {
    pub fn finding(issue: &Issue) -> Target {
        let place = issue.location();
        let rule = issue.short_rule_label();
        Target {
            id: issue.id().to_owned(),
            label: [rule.as_str(), issue.repository_name(), place.as_str()]
                .into_iter()
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join("  "),
            before: Before::Finding(issue.triage_state.clone(), issue.triage_reason.clone()),
            permission: issue.triage_permission.clone(),
            note: issue.note.clone().filter(|n| !n.is_empty()),
            note_read: true,
            archived: issue.is_archived.unwrap_or(false),
            last_change: issue
                .activity_history
                .iter()
                .filter(|e| e.date.is_some())
                .max_by_key(|e| e.date)
                .map(|e| {
                    format!(
                        "{} at {}",
                        e.actor.as_deref().unwrap_or("someone"),
                        e.date
                            .map(|d| d.format("%Y-%m-%d %H:%M").to_string())
                            .unwrap_or_default()
                    )
                }),
        }
    }

    /// A finding as a read by id gives it (`None`: no id), `archived` when
    /// it was found among archived projects' findings.
    pub fn read(issue: &Issue, archived: bool) -> Option<Target> {
        (!issue.id().is_empty()).then(|| Target {
            archived,
            ..Target::finding(issue)
        })
    }

    /// The same target, its note marked unread (built from a list's row,
    /// which keeps none).
    pub fn note_unread(self) -> Target {
        Target {
            note: None,
            note_read: false,
            ..self
        }
    }

    pub fn agentic(issue: &AgenticIssue) -> Target {
        Target {
            id: issue.id.clone().unwrap_or_default(),
            label: issue.title.clone().unwrap_or_default(),
            before: Before::Agentic(issue.triage_state.clone(), issue.triage_reason.clone()),
            permission: None,
            note: None,
            note_read: false,
            last_change: None,
            archived: false,
        }
    }

    pub fn kind(&self) -> Kind {
        match self.before {
            Before::Finding(..) => Kind::Finding,
            Before::Agentic(..) => Kind::Agentic,
        }
    }

    /// The decision that puts this target back as it was; `None` when its
    /// state then is not one a triage can set (unknown to this build).
    pub fn inverse(&self) -> Option<Decision> {
        match &self.before {
            Before::Finding(state, reason) => {
                let state = state.clone().unwrap_or(TriageState::Untriaged);
                let settable = Kind::Finding
                    .states()
                    .iter()
                    .any(|(w, _)| *w == state.as_wire());
                if !settable {
                    return None;
                }
                let ignoring = takes_reason(state.as_wire());
                Some(Decision::Finding {
                    reason: reason.clone().filter(|_| ignoring),
                    state,
                    note: None,
                })
            }
            Before::Agentic(state, reason) => {
                let state = state.clone().unwrap_or(AgenticTriageState::Open);
                if !state.is_known() {
                    return None;
                }
                let ignoring = takes_reason(state.as_wire());
                Some(Decision::Agentic {
                    reason: reason.clone().filter(|_| ignoring),
                    state,
                })
            }
        }
    }
}

/// What the service does instead of the triage asked, by the target's
/// triage permission (`Issue.triagePermission`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Instead {
    /// `TRIAGE_PERMISSION_REQUEST` and an ignoring state: an exception
    /// request is made; the states stay.
    ExceptionRequest,
    /// `TRIAGE_PERMISSION_NONE`: left as it is.
    Skipped,
}

impl Target {
    /// Whether an undo can put it back as it was: its earlier state is one
    /// a triage can set, and setting it makes no exception request.
    pub fn can_be_put_back(&self) -> bool {
        self.inverse().is_some_and(|d| self.instead(&d).is_none())
    }

    /// What the service does instead of `decision` for this target, if
    /// not the triage asked.
    pub fn instead(&self, decision: &Decision) -> Option<Instead> {
        match self.permission {
            Some(TriagePermission::None) => Some(Instead::Skipped),
            Some(TriagePermission::Request) if decision.ignores() => {
                Some(Instead::ExceptionRequest)
            }
            _ => None,
        }
    }

    /// Whether `decision` leaves its state and reason as they are (its
    /// undo would change nothing).
    pub fn already(&self, decision: &Decision) -> bool {
        match (self.inverse(), decision) {
            (
                Some(Decision::Finding { state, reason, .. }),
                Decision::Finding {
                    state: s,
                    reason: r,
                    ..
                },
            ) => state == *s && reason == *r,
            (
                Some(Decision::Agentic { state, reason }),
                Decision::Agentic {
                    state: s,
                    reason: r,
                },
            ) => state == *s && reason == *r,
            _ => false,
        }
    }

    /// Its state before, as said, with its reason if `reason`: `ignored
    /// (false positive)`.
    pub fn before_label(&self, reason: bool) -> String {
        match (self.inverse(), &self.before) {
            (Some(d), _) if reason => d.describe(),
            (Some(d), _) => d.state_label().to_owned(),
            (None, Before::Finding(state, _)) => {
                state.as_ref().map_or("-", |s| s.label()).to_owned()
            }
            (None, Before::Agentic(state, _)) => {
                state.as_ref().map_or("-", |s| s.label()).to_owned()
            }
        }
    }
}

fn split_word(s: &str) -> (&str, &str) {
    let s = s.trim_start();
    match s.find(char::is_whitespace) {
        Some(i) => (&s[..i], s[i..].trim()),
        None => (s, ""),
    }
}

fn typed(names: &[(&'static str, &'static str)]) -> String {
    crate::filter_spec::typed_names(names).join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_line_reads_state_reason_and_note() {
        let d =
            Decision::parse_words(Kind::Finding, "ignored false-positive dup of SEC-1").unwrap();
        assert_eq!(
            d,
            Decision::Finding {
                state: TriageState::Ignored,
                reason: Some(TriageReason::FalsePositive),
                note: Some("dup of SEC-1".into()),
            }
        );
        let d = Decision::parse_words(Kind::Finding, "reviewing looking at it").unwrap();
        assert_eq!(d.describe(), "reviewing");
        assert_eq!(d.note(), Some("looking at it"));
        let d = Decision::parse_words(Kind::Finding, "provisionally-ignored no-time").unwrap();
        assert_eq!(d.describe(), "provisionally ignored (no time)");
    }

    #[test]
    fn mistakes_name_what_is_allowed() {
        let e = Decision::parse_words(Kind::Finding, "closed").unwrap_err();
        assert!(
            e.contains("ignored, reviewing, fixing, reopened, provisionally-ignored, untriaged"),
            "{e}"
        );
        let e = Decision::parse_words(Kind::Finding, "fixing false-positive").unwrap_err();
        assert!(e.starts_with("fixing takes no reason"), "{e}");
        let e = Decision::parse(Kind::Finding, "ignored", Some("boredom"), None).unwrap_err();
        assert!(
            e.contains("false-positive, acceptable-risk, no-time, duplicate"),
            "{e}"
        );
        // The agentic vocabulary has no duplicate and no note.
        assert!(Decision::parse(Kind::Agentic, "ignored", Some("duplicate"), None).is_err());
        assert!(Decision::parse_words(Kind::Agentic, "ignored fine by me").is_err());
        assert!(Decision::parse_words(Kind::Agentic, "fixed").is_ok());
        assert!(Decision::parse_words(Kind::Finding, "fixed").is_err());
    }

    #[test]
    fn decisions_become_the_published_bodies() {
        let d = Decision::parse(Kind::Agentic, "ignored", Some("acceptable risk"), None).unwrap();
        let body = serde_json::to_value(d.agentic_request().unwrap()).unwrap();
        assert_eq!(
            body,
            serde_json::json!({"triageState": "TRIAGE_STATE_IGNORED", "triageReason": "TRIAGE_REASON_ACCEPTABLE_RISK"})
        );
        let d = Decision::parse(Kind::Finding, "reopened", None, Some("  ".into())).unwrap();
        let params = serde_json::to_value(d.finding_params().unwrap()).unwrap();
        assert_eq!(
            params,
            serde_json::json!({"triageState": "FINDING_TRIAGE_STATE_REOPENED"})
        );
        assert!(d.agentic_request().is_none());
    }
}
