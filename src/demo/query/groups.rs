//! List issue groups: the findings List issues would give for the same
//! filter and type selection, grouped by rule id, counted and ordered
//! (docs/api.md, "Issue groups").

use super::BadRequest;
use super::list::{matching, selection};
use super::order::Orders;
use super::pages::page_limit;
use crate::api::model::*;
use crate::demo::cursor::{self, Cursor};
use crate::demo::dataset::Dataset;
use std::collections::HashMap;

struct Tally<'a> {
    rule_id: &'a str,
    rule_path: &'a str,
    count: usize,
    /// The most severe finding's severity index (0 = critical).
    severity: u8,
}

pub fn list_issue_groups(
    ds: &Dataset,
    orders: &Orders,
    req: &ListIssueGroupsRequest,
) -> Result<ListIssueGroupsResponse, BadRequest> {
    require_known!(req.group_by, "groupBy");
    require_known!(req.sort_by, "sortBy");
    require_known!(req.sort_direction, "sortDirection");
    let (f, types) = selection(&req.issue_type, &req.issue_types, req.filter.as_ref())?;
    let limit = page_limit(req.limit)?;
    let shape = ListIssueGroupsRequest {
        cursor: None,
        limit: None,
        ..req.clone()
    };
    let fp = cursor::fingerprint("groups", &shape);
    let start = Cursor::decode_for(req.cursor.as_deref(), fp)?;
    let changes = ds.changes();
    let matches = matching(ds, orders, &changes, f, &types);
    let mut by_rule: HashMap<&str, Tally> = HashMap::new();
    for (i, row) in ds.rows.iter().enumerate() {
        if !matches.get(i) {
            continue;
        }
        let facts = ds.rule_facts(row);
        let t = by_rule.entry(facts.rule_id).or_insert(Tally {
            rule_id: facts.rule_id,
            rule_path: facts.rule_path,
            count: 0,
            severity: u8::MAX,
        });
        t.count += 1;
        t.severity = t.severity.min(row.severity);
    }
    let mut groups: Vec<Tally> = by_rule.into_values().collect();
    let by_severity = req.sort_by == Some(GroupSortBy::Severity);
    let asc = req.sort_direction == Some(SortDirection::Asc);
    groups.sort_by(|a, b| {
        // "Most" first when descending: more findings, or more severe (a
        // lower index) and then more findings.
        let key = |t: &Tally| {
            if by_severity {
                (usize::from(u8::MAX - t.severity), t.count)
            } else {
                (t.count, 0)
            }
        };
        let primary = key(a).cmp(&key(b));
        let primary = if asc { primary } else { primary.reverse() };
        primary.then_with(|| a.rule_id.cmp(b.rule_id))
    });
    let total = groups.len();
    let end = start.saturating_add(limit).min(total);
    let page = groups.get(start.min(total)..end).unwrap_or_default();
    Ok(ListIssueGroupsResponse {
        groups: page
            .iter()
            .map(|t| RuleGroup {
                issues_count: Some(t.count as i64),
                rule_id: Some(t.rule_id.to_owned()),
                rule_path: Some(t.rule_path.to_owned()),
                rule_meta: None,
            })
            .collect(),
        cursor: (end < total).then(|| {
            Cursor {
                position: end,
                fingerprint: fp,
            }
            .encode()
        }),
        total: Some(total as i64),
        fetched: Some(end as i64),
    })
}
