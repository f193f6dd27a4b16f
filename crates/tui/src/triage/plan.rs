//! What a triage touches and the exact requests it becomes: the findings
//! (or agentic-workflow issues) chosen, what each was before (so `u` can
//! put it back), and the batches of requests, sent one at a time.

use crate::message::{ApiRequest, RequestId};
use findings_model::*;
use findings_requests::triage::setting::{Group, Notes, Planned, Setting};
use findings_requests::triage::{Decision, Kind, Target};

/// What a triage applies to.
#[derive(Debug, Clone, PartialEq)]
pub enum Scope {
    /// These findings or issues, by id.
    Ids(Vec<Target>),
    /// Everything the Issues pane's server-side filter matches (`:triage-all`).
    Filter {
        filter: Box<ListIssuesFilter>,
        issue_types: Vec<IssueType>,
        matched: Matched,
    },
}

/// The findings a filter matches, listed before the review can send: the
/// review names them, and undo returns exactly them (never the filter,
/// which may match others by then) to their states before.
#[derive(Debug, Clone, PartialEq)]
pub enum Matched {
    Listing(Option<RequestId>),
    /// Each finding as it is, and whether that is all of them (else the
    /// first [`MAX_COUNTED`](crate::message::MAX_COUNTED)).
    Listed(Vec<Target>, bool),
    Failed(String),
}

impl Scope {
    pub fn kind(&self) -> Kind {
        match self {
            Scope::Ids(targets) => targets.first().map_or(Kind::Finding, Target::kind),
            Scope::Filter { .. } => Kind::Finding,
        }
    }

    /// The findings or issues it touches, when known.
    pub fn targets(&self) -> Option<&[Target]> {
        match self {
            Scope::Ids(targets) => Some(targets),
            Scope::Filter {
                matched: Matched::Listed(targets, _),
                ..
            } => Some(targets),
            Scope::Filter { .. } => None,
        }
    }

    /// How many it touches, when known.
    pub fn size(&self) -> Option<usize> {
        self.targets().map(<[Target]>::len)
    }

    pub fn ids(&self) -> Vec<String> {
        self.targets()
            .unwrap_or_default()
            .iter()
            .map(|t| t.id.clone())
            .collect()
    }

    pub fn is_filter(&self) -> bool {
        matches!(self, Scope::Filter { .. })
    }

    /// The same findings or issues (a kept draft is reopened for them).
    pub fn same_as(&self, other: &Scope) -> bool {
        match (self, other) {
            (Scope::Ids(_), Scope::Ids(_)) => self.ids() == other.ids(),
            (
                Scope::Filter {
                    filter: a,
                    issue_types: ta,
                    ..
                },
                Scope::Filter {
                    filter: b,
                    issue_types: tb,
                    ..
                },
            ) => a == b && ta == tb,
            _ => false,
        }
    }

    /// "finding 100196", "3 findings (100196, 100201, 100233)", "every
    /// finding the Issues filter matches": which ones, in a line.
    pub fn named(&self) -> String {
        match self {
            Scope::Ids(targets) => {
                let kind = self.kind();
                match targets.as_slice() {
                    [one] => format!("{} {}", kind.noun(1), one.id),
                    many => format!(
                        "{} {} ({})",
                        many.len(),
                        kind.noun(many.len()),
                        id_list(many.iter().map(|t| t.id.as_str()), 3)
                    ),
                }
            }
            Scope::Filter { .. } => "every finding the Issues filter matches".into(),
        }
    }
}

/// Ids in a line: the first `shown`, then how many more.
pub fn id_list<'a>(ids: impl ExactSizeIterator<Item = &'a str>, shown: usize) -> String {
    let n = ids.len();
    let mut out: Vec<&str> = ids.take(shown).collect();
    let more;
    if n > shown {
        more = format!("… and {} more", n - shown);
        out.push(&more);
    }
    out.join(", ")
}

/// One request of a triage and the ids it concerns (reloaded after it).
#[derive(Debug, Clone, PartialEq)]
pub struct Batch {
    pub request: ApiRequest,
    pub ids: Vec<String>,
    /// Said in the review above the body ("back to ignored (no time)").
    pub heading: String,
}

impl Batch {
    /// The method and path it goes to, as the review shows them.
    pub fn line(&self, deployment: &str) -> String {
        match &self.request {
            ApiRequest::TriageAgentic { issue_id, .. } => {
                format!("POST /api/issues/{deployment}/issue/{issue_id}")
            }
            _ => format!("PATCH /api/agent/deployments/{deployment}/findings/v2"),
        }
    }

    /// The exact JSON body, pretty, a list of ids on one line (it wraps
    /// in the review: a thousand ids are not a thousand lines).
    pub fn body(&self) -> String {
        let value = match &self.request {
            ApiRequest::TriageFindings(r) => findings_base::json::pretty(r),
            ApiRequest::TriageAgentic { request, .. } => findings_base::json::pretty(request),
            _ => Ok(String::new()),
        };
        crate::widgets::review_json::arrays_on_one_line(&value.unwrap_or_default())
    }
}

/// A request as the review shows it, its body written once when the review
/// opens (not on every redraw); `y` sends exactly these.
#[derive(Debug, Clone, PartialEq)]
pub struct Reviewed {
    pub batch: Batch,
    pub body: String,
}

impl Reviewed {
    pub fn of(batches: Vec<Batch>) -> Vec<Reviewed> {
        batches
            .into_iter()
            .map(|batch| Reviewed {
                body: batch.body(),
                batch,
            })
            .collect()
    }
}

/// The requests of an agentic triage: one per issue. (Findings are
/// planned on the findings read again: [`plan_triage`].)
pub fn agentic_batches(decision: &Decision, scope: &Scope, deployment: &str) -> Vec<Batch> {
    let heading = decision.describe();
    match (decision, scope) {
        (Decision::Agentic { .. }, Scope::Ids(targets)) => targets
            .iter()
            .map(|t| agentic_batch(decision, &t.id, deployment, heading.clone()))
            .collect(),
        _ => Vec::new(),
    }
}

fn agentic_batch(decision: &Decision, id: &str, deployment: &str, heading: String) -> Batch {
    let mut request = decision.agentic_request().unwrap_or_default();
    request.deployment_id = Some(deployment.to_owned());
    request.issue_id = Some(id.to_owned());
    Batch {
        request: ApiRequest::TriageAgentic {
            issue_id: id.to_owned(),
            request,
        },
        ids: vec![id.to_owned()],
        heading,
    }
}

/// The requests that put agentic-workflow issues back as they were (one
/// per issue; those that can be put back). Findings are put back by
/// [`plan_undo`], after they are read again.
pub fn undo_batches(targets: &[Target], deployment: &str) -> Vec<Batch> {
    targets
        .iter()
        .filter_map(|target| {
            let decision = target.inverse()?;
            let heading = format!("back to {}", decision.describe());
            Some(agentic_batch(&decision, &target.id, deployment, heading))
        })
        .collect()
}

/// The findings of a triage (or undo) read again when its review opens:
/// what the requests are planned on, and how anyone else's change since
/// they were shown is found.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Check {
    #[default]
    Idle,
    Reading(RequestId),
    Read(Vec<Target>),
    Failed(String),
}

impl Check {
    pub fn read(&self) -> Option<&[Target]> {
        match self {
            Check::Read(targets) => Some(targets),
            _ => None,
        }
    }

    /// The request that reads `ids` again, with their activity (who
    /// changed them) and notes, archived projects' findings too.
    pub fn request(ids: Vec<String>) -> ApiRequest {
        ApiRequest::TargetsById(ids)
    }

    /// The answer to the read `id`, if it is this check's.
    pub fn answered(&mut self, id: RequestId, result: &crate::message::ApiResult) -> bool {
        if *self != Check::Reading(id) {
            return false;
        }
        *self = match result {
            Ok(crate::message::ApiResponse::Targets(targets, _)) => Check::Read(targets.clone()),
            Ok(other) => Check::Failed(other.unexpected().to_string()),
            Err(e) => Check::Failed(e.to_string()),
        };
        true
    }
}

/// A finding someone changed between its showing and the review.
#[derive(Debug, Clone, PartialEq)]
pub struct Meanwhile {
    pub id: String,
    /// "reviewing → ignored (no time), its note, by alice at 2026-11-28 12:03".
    pub what: String,
}

/// A triage or undo as planned on the findings read again: its requests,
/// what its undo will need, and what the review must say before `y`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Plan {
    /// Its requests (moved into the review's [`Reviewed`] once planned).
    pub batches: Vec<Batch>,
    /// Each finding it changes, as it is now (what its undo returns to),
    /// and what it sets.
    pub record: Vec<(Target, Setting)>,
    /// Changed by someone else since shown: left out unless included.
    pub meanwhile: Vec<Meanwhile>,
    /// Not answered by the server any more (removed, or out of reach).
    pub gone: Vec<String>,
    /// Changed, but its undo could not put them back (their state before
    /// is one a triage cannot set, or an ignore they may only request):
    /// said before `y`.
    pub irreversible: Vec<String>,
    /// Already so, note included: nothing to send.
    pub unchanged: usize,
    /// Findings keeping their own note; whose note is replaced; removed.
    pub notes_kept: usize,
    pub notes_replaced: Vec<String>,
    pub notes_removed: Vec<String>,
}

impl Plan {
    /// How it treats notes, in a line (empty: it touches none).
    pub fn notes_line(&self) -> String {
        let mut said = Vec::new();
        if self.notes_kept > 0 {
            said.push(format!(
                "{} keep{} {} own note",
                counted(self.notes_kept),
                if self.notes_kept == 1 { "s" } else { "" },
                if self.notes_kept == 1 { "its" } else { "their" }
            ));
        }
        if !self.notes_replaced.is_empty() {
            said.push(format!(
                "replaces the note of {}: {}",
                counted(self.notes_replaced.len()),
                id_list(self.notes_replaced.iter().map(String::as_str), 8)
            ));
        }
        if !self.notes_removed.is_empty() {
            said.push(format!(
                "removes the note of {}: {}",
                counted(self.notes_removed.len()),
                id_list(self.notes_removed.iter().map(String::as_str), 8)
            ));
        }
        said.join("; ")
    }
}

fn counted(n: usize) -> String {
    format!(
        "{} {}",
        findings_base::text::thousands_of(n),
        findings_requests::triage::Kind::Finding.noun(n)
    )
}

/// What changed between `shown` and `now`, by whom (`None`: nothing).
fn changed_since(shown: &Target, shown_setting: Option<&Setting>, now: &Target) -> Option<String> {
    let now_setting = Setting::of(now)?;
    let mut what = Vec::new();
    if let Some(was) = shown_setting {
        if !was.same_state(&now_setting) {
            what.push(format!("{} → {}", was.describe(), now_setting.describe()));
        }
        if was.note != now_setting.note {
            what.push("its note".to_owned());
        }
    } else {
        // Shown from a row: its state and reason, not its note.
        let row = Target {
            note: None,
            note_read: true,
            ..shown.clone()
        };
        let was = Setting::of(&row)?;
        if !was.same_state(&now_setting) {
            what.push(format!("{} → {}", was.describe(), now_setting.describe()));
        }
    }
    if what.is_empty() {
        return None;
    }
    if let Some(by) = &now.last_change {
        what.push(format!("by {by}"));
    }
    Some(what.join(", "))
}

/// The targets of `now` by id.
fn by_id(now: &[Target]) -> std::collections::HashMap<&str, &Target> {
    now.iter().map(|t| (t.id.as_str(), t)).collect()
}

/// A finding triage planned on the findings as read again (`now`): each
/// shown target gets `decision` with `notes`; one changed since it was
/// shown is left out unless `include`; the set apart are not recorded.
pub fn plan_triage(
    decision: &Decision,
    notes: Notes,
    shown: &[Target],
    now: &[Target],
    include: bool,
    deployment: &str,
) -> Plan {
    let now_by_id = by_id(now);
    let mut plan = Plan::default();
    let mut planned: Vec<(&Target, Setting, Setting)> = Vec::new();
    for target in shown {
        let Some(current) = now_by_id.get(target.id.as_str()).copied() else {
            plan.gone.push(target.id.clone());
            continue;
        };
        let Some(now_setting) = Setting::of(current) else {
            plan.gone.push(target.id.clone());
            continue;
        };
        if let Some(what) = changed_since(target, Setting::of(target).as_ref(), current) {
            plan.meanwhile.push(Meanwhile {
                id: target.id.clone(),
                what,
            });
            if !include {
                continue;
            }
        }
        if current.instead(decision) == Some(findings_requests::triage::Instead::Skipped) {
            continue;
        }
        let Some(to) = findings_requests::triage::setting::planned(decision, &now_setting, notes)
        else {
            continue;
        };
        planned.push((current, now_setting, to));
    }
    for (target, now, to) in &planned {
        if now == to {
            plan.unchanged += 1;
            continue;
        }
        match (&now.note, &to.note) {
            (Some(a), Some(b)) if a == b => plan.notes_kept += 1,
            (Some(_), Some(_)) => plan.notes_replaced.push(target.id.clone()),
            (Some(_), None) => plan.notes_removed.push(target.id.clone()),
            _ => {}
        }
        if target.instead(decision).is_none() {
            if !target.can_be_put_back() {
                plan.irreversible.push(target.id.clone());
            }
            plan.record.push(((*target).clone(), to.clone()));
        }
    }
    let groups =
        findings_requests::triage::setting::grouped(planned.iter().map(|(t, now, to)| Planned {
            id: &t.id,
            archived: t.archived,
            now,
            to,
        }));
    plan.batches = groups
        .into_iter()
        .map(|g| setting_batch(&g, deployment, g.setting.describe_with_note()))
        .collect();
    plan
}

/// The undo of `back` (each finding as it was, and what the triage set)
/// planned on the findings as read again: each goes back to what it was;
/// one changed since the triage is left out unless `include`.
pub fn plan_undo(
    back: &[(Target, Setting)],
    now: &[Target],
    include: bool,
    deployment: &str,
) -> Plan {
    let now_by_id = by_id(now);
    let mut plan = Plan::default();
    let mut planned: Vec<(&Target, Setting, Setting)> = Vec::new();
    for (before, set) in back {
        let (Some(current), Some(to)) = (
            now_by_id.get(before.id.as_str()).copied(),
            Setting::of(before),
        ) else {
            plan.gone.push(before.id.clone());
            continue;
        };
        let Some(now_setting) = Setting::of(current) else {
            plan.gone.push(before.id.clone());
            continue;
        };
        if now_setting != *set {
            let mut what = vec![format!(
                "now {} where the triage set {}",
                now_setting.describe(),
                set.describe()
            )];
            if now_setting.note != set.note {
                what = vec![if now_setting.same_state(set) {
                    "its note".to_owned()
                } else {
                    format!("{} → {}, its note", set.describe(), now_setting.describe())
                }];
            }
            if let Some(by) = &current.last_change {
                what.push(format!("by {by}"));
            }
            plan.meanwhile.push(Meanwhile {
                id: before.id.clone(),
                what: what.join(", "),
            });
            if !include {
                continue;
            }
        }
        planned.push((current, now_setting, to));
    }
    for (t, now, to) in &planned {
        if now == to {
            plan.unchanged += 1;
        } else if to.note.is_none() && now.note.is_some() {
            plan.notes_removed.push(t.id.clone());
        }
    }
    let groups =
        findings_requests::triage::setting::grouped(planned.iter().map(|(t, now, to)| Planned {
            id: &t.id,
            archived: t.archived,
            now,
            to,
        }));
    plan.batches = groups
        .into_iter()
        .map(|g| {
            setting_batch(
                &g,
                deployment,
                format!("back to {}", g.setting.describe_with_note()),
            )
        })
        .collect();
    plan
}

/// The request of one group: its findings by id get its setting.
fn setting_batch(group: &Group, deployment: &str, heading: String) -> Batch {
    let mut request = group.request();
    request.deployment_id = Some(deployment.to_owned());
    Batch {
        request: ApiRequest::TriageFindings(request),
        ids: group.ids.clone(),
        heading,
    }
}
