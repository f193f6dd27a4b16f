//! What a triage touches and the exact requests it becomes: the findings
//! (or agentic-workflow issues) chosen, what each was before (so `u` can
//! put it back), and the batches of requests, sent one at a time.

use crate::api::model::*;
use crate::triage::{Decision, Kind, Target};
use crate::tui::message::{ApiRequest, RequestId};

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
    /// first [`MAX_COUNTED`](crate::tui::message::MAX_COUNTED)).
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

    /// The exact JSON body, pretty.
    pub fn body(&self) -> String {
        let value = match &self.request {
            ApiRequest::TriageFindings(r) => crate::json::pretty(r),
            ApiRequest::TriageAgentic { request, .. } => crate::json::pretty(request),
            _ => Ok(String::new()),
        };
        value.unwrap_or_default()
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

/// The requests that apply `decision` to `scope`: one bulk update for
/// findings (by ids or by the filter), one request per agentic issue. The
/// bodies carry the deployment as the client sends it, so the review shows
/// exactly what goes.
pub fn batches(decision: &Decision, scope: &Scope, deployment: &str) -> Vec<Batch> {
    let heading = decision.describe();
    match (decision, scope) {
        (Decision::Finding { .. }, Scope::Ids(targets)) => {
            let ids: Vec<String> = targets.iter().map(|t| t.id.clone()).collect();
            vec![findings_batch(decision, ids, deployment, heading)]
        }
        (
            Decision::Finding { .. },
            Scope::Filter {
                filter,
                issue_types,
                ..
            },
        ) => vec![Batch {
            request: ApiRequest::TriageFindings(UpdateFindingsRequest {
                deployment_id: Some(deployment.to_owned()),
                filter: Some((**filter).clone()),
                params: decision.finding_params(),
                issue_types: issue_types.clone(),
                ..Default::default()
            }),
            // What the listing found: fetched again after.
            ids: scope.ids(),
            heading,
        }],
        (Decision::Agentic { .. }, Scope::Ids(targets)) => targets
            .iter()
            .map(|t| agentic_batch(decision, &t.id, deployment, heading.clone()))
            .collect(),
        (Decision::Agentic { .. }, Scope::Filter { .. }) => Vec::new(),
    }
}

fn findings_batch(
    decision: &Decision,
    ids: Vec<String>,
    deployment: &str,
    heading: String,
) -> Batch {
    let mut request =
        UpdateFindingsRequest::for_ids(ids.clone(), decision.finding_params().unwrap_or_default());
    request.deployment_id = Some(deployment.to_owned());
    Batch {
        request: ApiRequest::TriageFindings(request),
        ids,
        heading,
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

/// The requests that put every target back as it was before: one per
/// earlier state (findings that shared one go together), and the targets
/// whose earlier state cannot be set again.
pub fn undo_batches(targets: &[Target], deployment: &str) -> (Vec<Batch>, Vec<String>) {
    let mut groups: Vec<(Decision, Vec<String>)> = Vec::new();
    let mut left = Vec::new();
    for target in targets {
        let Some(decision) = target.inverse() else {
            left.push(target.id.clone());
            continue;
        };
        match groups.iter_mut().find(|(d, _)| *d == decision) {
            Some((_, ids)) => ids.push(target.id.clone()),
            None => groups.push((decision, vec![target.id.clone()])),
        }
    }
    let mut batches = Vec::new();
    for (decision, ids) in groups {
        let heading = format!("back to {}", decision.describe());
        match decision.kind() {
            Kind::Finding => batches.push(findings_batch(&decision, ids, deployment, heading)),
            Kind::Agentic => batches.extend(
                ids.iter()
                    .map(|id| agentic_batch(&decision, id, deployment, heading.clone())),
            ),
        }
    }
    (batches, left)
}
