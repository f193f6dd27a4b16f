//! List issues: the type selection, its filter (compiled in `list_match`)
//! and its pages.

use super::BadRequest;
use super::list_match::ListMatcher;
use super::list_pages::{ListQuery, matches_key, page};
use super::order::Orders;
use super::pages::page_limit;
use crate::cursor::{self, Cursor};
use crate::dataset::*;
use crate::materialize::Parts;
use findings_model::*;

/// Fingerprint of everything that decides a listing's order and content.
fn list_fingerprint(req: &ListIssuesRequest) -> u64 {
    let shape = ListIssuesRequest {
        cursor: None,
        limit: None,
        include_remediation: None,
        include_activity_history: None,
        include_is_archived: None,
        include_first_detected_at: None,
        ..req.clone()
    };
    cursor::fingerprint("list", &shape)
}

pub fn list_issues(
    ds: &Dataset,
    orders: &Orders,
    req: &ListIssuesRequest,
) -> Result<ListIssuesResponse, BadRequest> {
    require_known!(req.sort_by, "sortBy");
    require_known!(req.sort_direction, "sortDirection");
    let (f, issue_types) = selection(&req.issue_type, &req.issue_types, req.filter.as_ref())?;
    let limit = page_limit(req.limit)?;
    let fp = list_fingerprint(req);
    let start = Cursor::decode_for(req.cursor.as_deref(), fp)?;
    let by = req.sort_by.clone().unwrap_or(SortBy::RelevantSince);
    let dir = req.sort_direction.clone().unwrap_or(SortDirection::Desc);
    // One state for the whole answer, triage applied.
    let changes = ds.changes();
    let order = orders.list_order(ds, &changes, &by, &dir);
    let query = ListQuery {
        ds,
        orders,
        changes: &changes,
        filter: f,
        types: &issue_types,
        by: &by,
        dir: &dir,
    };
    let (items, next) = page(&query, &order, start, limit);
    let parts = Parts {
        remediation: req.include_remediation == Some(true),
        activity_history: req.include_activity_history == Some(true),
        is_archived: req.include_is_archived == Some(true),
        first_detected_at: req.include_first_detected_at == Some(true),
        // Only the single-issue fetch gives those (docs/src/api.md).
        single_issue: false,
    };
    let issues = items
        .into_iter()
        .map(|i| {
            if let Some(offline) = &ds.offline {
                let mut item = offline.item(i);
                if let Some(issue) = item.issue.as_mut() {
                    parts.strip(issue);
                }
                return item;
            }
            let issue = ds.issue_with(&changes, i, parts);
            let row = &changes.row(i, &ds.rows[i]);
            let repo = ds.repo(row);
            let reviews = Dataset::review_count(i);
            IssueItem {
                review_count: Some(crate::wire_int(reviews)),
                triage_count: Some(i64::from(row.triage_reason.is_some())),
                all_refs: std::iter::once(repo.primary_ref.clone())
                    .chain(repo.other_refs.iter().take(i % 3).cloned())
                    .collect(),
                ai_silenced_count: Some(crate::wire_int((i / 3) % 2)),
                all_review_thread_ids: (0..reviews).map(|k| format!("thr-{i}-{k}")).collect(),
                all_review_comments: (0..reviews)
                    .map(|k| ReviewComment {
                        is_inline: Some(k % 2 == 0),
                        thread_id: Some(format!("thr-{i}-{k}")),
                    })
                    .collect(),
                issue: Some(issue),
            }
        })
        .collect();
    Ok(ListIssuesResponse {
        issues,
        cursor: next.map(|pos| {
            Cursor {
                position: pos,
                fingerprint: fp,
            }
            .encode()
        }),
    })
}

/// The rows `f` and the type selection match in the state `changes`,
/// kept for the next pages (and sorts) of that state. No filter at all
/// still leaves archived projects' findings out.
pub(super) fn matching(
    ds: &Dataset,
    orders: &Orders,
    changes: &Changes,
    f: &ListIssuesFilter,
    issue_types: &[IssueType],
) -> std::sync::Arc<super::Bits> {
    orders
        .list_matches
        .get_or_compute(matches_key(f, issue_types, changes), || {
            ListMatcher::new(ds, changes, f, issue_types).scan()
        })
}

/// Which findings a request selects, read the same way by List issues,
/// the groups and the bulk update: its filter (none: every finding) and its
/// type selection, every enum value checked (400 otherwise).
pub(super) fn selection<'a>(
    issue_type: &Option<IssueType>,
    issue_types: &[IssueType],
    filter: Option<&'a ListIssuesFilter>,
) -> Result<(&'a ListIssuesFilter, Vec<IssueType>), BadRequest> {
    static NONE: std::sync::LazyLock<ListIssuesFilter> =
        std::sync::LazyLock::new(ListIssuesFilter::default);
    require_known!(*issue_type, "issueType");
    require_known_all!(*issue_types, "issueTypes");
    let f = filter.unwrap_or(&NONE);
    require_known_filter(f)?;
    Ok((f, selected_types(issue_type, issue_types, f)))
}

/// The type selection: the top-level `issueTypes`; when empty, the
/// `filter.issueTypes` older clients send; when that is empty too, the
/// deprecated `issueType`. `*_UNSPECIFIED` selects nothing.
fn selected_types(
    issue_type: &Option<IssueType>,
    issue_types: &[IssueType],
    f: &ListIssuesFilter,
) -> Vec<IssueType> {
    let known = |list: &[IssueType]| -> Vec<IssueType> {
        list.iter()
            .filter(|t| **t != IssueType::Unspecified)
            .cloned()
            .collect()
    };
    [known(issue_types), known(&f.legacy_issue_types)]
        .into_iter()
        .find(|l| !l.is_empty())
        .or_else(|| {
            issue_type
                .iter()
                .find(|t| **t != IssueType::Unspecified)
                .map(|t| vec![t.clone()])
        })
        .unwrap_or_default()
}

/// Every enum value of the filter is one the published contract has (400
/// otherwise); the published `*_UNSPECIFIED` values are taken (and do not
/// filter).
pub(super) fn require_known_filter(f: &ListIssuesFilter) -> Result<(), BadRequest> {
    macro_rules! check {
        ($($values:expr => $field:literal),* $(,)?) => {
            $(
                for v in $values.iter() {
                    if !v.is_known() && !v.as_wire().ends_with("_UNSPECIFIED") {
                        return Err(BadRequest(format!(
                            "unknown value {:?} for filter.{}",
                            v.as_wire(),
                            $field
                        )));
                    }
                }
            )*
        };
    }
    check!(
        f.legacy_issue_types => "issueTypes",
        f.ai_verdicts => "aiVerdicts",
        f.status => "status",
        f.tab => "tab",
        f.actions => "actions",
        f.confidences => "confidences",
        f.severities => "severities",
        f.transitivities => "transitivities",
        f.exposures => "exposures",
        f.source => "source",
        f.reachabilities => "reachabilities",
        f.validation_states => "validationStates",
        f.repo_visibilities => "repoVisibilities",
        f.epss_probabilities => "epssProbabilities",
        f.triage_reasons => "triageReasons",
        f.time_filter => "timeFilter",
        f.backlog_type => "backlogType",
        f.sca_rule_kind => "scaRuleKind",
        f.relative_since => "relativeSince",
        f.repository_deployment_statuses => "repositoryDeploymentStatuses",
        f.upgrade_guidance => "upgradeGuidance",
        f.repository_public_exposures => "repositoryPublicExposures",
        f.click_to_fix_pr_states => "clickToFixPrStates",
        f.aggregate_issue_states => "aggregateIssueStates",
        f.upgrade_guidance_filters => "upgradeGuidanceFilters",
    );
    Ok(())
}
