//! Get issue counts: the findings List issues would give for the same
//! filter and type selection, counted by state, and how many of the
//! filter's findings are in archived projects (docs/src/api.md, "Issue
//! counts").

use super::BadRequest;
use super::list::{matching, selection};
use super::order::Orders;
use crate::cursor;
use crate::dataset::{Changes, Dataset};
use findings_model::*;

pub fn issue_counts(
    ds: &Dataset,
    orders: &Orders,
    req: &GetIssueCountsRequest,
) -> Result<GetIssueCountsResponse, BadRequest> {
    let (f, types) = selection(&req.issue_type, &req.issue_types, req.filter.as_ref())?;
    let changes = ds.changes();
    let key = cursor::fingerprint("counts", &(f, &types, changes.generation));
    let counts = orders
        .counts
        .get_or_compute(key, || count(ds, orders, &changes, f, &types));
    Ok((*counts).clone())
}

/// The counts of the rows `f` and `types` select in the state `changes`.
fn count(
    ds: &Dataset,
    orders: &Orders,
    changes: &Changes,
    f: &ListIssuesFilter,
    types: &[IssueType],
) -> GetIssueCountsResponse {
    // As List issues reads the filter: archived projects only when asked.
    let listed = matching(ds, orders, changes, f, types);
    let in_archived = ListIssuesFilter {
        include_archived: Some(true),
        ..f.clone()
    };
    let archived = matching(ds, orders, changes, &in_archived, types);
    let mut counts = Counts::default();
    for i in listed.ones() {
        counts.add(&changes.row(i, &ds.rows[i]));
    }
    counts.archived = crate::wire_int(archived.count());
    counts.response()
}

#[derive(Default)]
struct Counts {
    open: i64,
    reviewing: i64,
    fixing: i64,
    closed: i64,
    provisionally_ignored: i64,
    /// Ignored in the app, by triage reason (index of `TriageReason::ALL`).
    ignored_by_reason: [i64; 6],
    ignored_code: i64,
    archived: i64,
}

impl Counts {
    fn add(&mut self, row: &crate::dataset::Row) {
        match AggregateState::ALL[row.aggregate as usize] {
            AggregateState::Open => self.open += 1,
            AggregateState::Reviewing => self.reviewing += 1,
            AggregateState::Fixing => self.fixing += 1,
            AggregateState::Fixed | AggregateState::Removed => self.closed += 1,
            AggregateState::ProvisionallyIgnoredApp => self.provisionally_ignored += 1,
            AggregateState::IgnoredCode => self.ignored_code += 1,
            AggregateState::IgnoredApp => {
                let reason = row
                    .triage_reason
                    .map_or(no_reason(), usize::from)
                    .min(self.ignored_by_reason.len() - 1);
                self.ignored_by_reason[reason] += 1;
            }
            AggregateState::Unknown | AggregateState::Other(_) => {}
        }
    }

    fn response(&self) -> GetIssueCountsResponse {
        let by = |reason: TriageReason| {
            let k = TriageReason::ALL.iter().position(|r| *r == reason);
            k.map_or(0, |k| self.ignored_by_reason[k])
        };
        let ignored_app: i64 = self.ignored_by_reason.iter().sum();
        GetIssueCountsResponse {
            open: Some(self.open),
            // Every ignored finding: in the app, whatever the reason, and
            // by an inline comment.
            ignored: Some(ignored_app + self.ignored_code),
            ignored_false_positive: Some(by(TriageReason::FalsePositive)),
            ignored_acceptable_risk: Some(by(TriageReason::AcceptableRisk)),
            ignored_no_time: Some(by(TriageReason::NoTime)),
            ignored_no_triage_reason: Some(by(TriageReason::NoTriageReason)),
            ignored_duplicate: Some(by(TriageReason::Duplicate)),
            ignored_code: Some(self.ignored_code),
            closed: Some(self.closed),
            reviewing: Some(self.reviewing),
            fixing: Some(self.fixing),
            provisionally_ignored: Some(self.provisionally_ignored),
            archived: Some(self.archived),
            // As published: no count of the unknown state.
            unknown: None,
        }
    }
}

/// Where an ignored finding without a reason is counted.
fn no_reason() -> usize {
    TriageReason::ALL
        .iter()
        .position(|r| *r == TriageReason::NoTriageReason)
        .unwrap_or(0)
}
