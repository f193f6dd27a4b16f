//! List issue groups: the findings List issues would give for the same
//! filter and type selection, grouped by rule id, counted and ordered
//! (docs/src/api.md, "Issue groups").

use super::list::{matching, selection};
use super::memo::Bits;
use super::order::Orders;
use super::pages::page_limit;
use super::{BadRequest, CLASS_KINDS, class};
use crate::cursor::{self, Cursor};
use crate::dataset::{Dataset, Kind};
use findings_model::*;
use std::collections::HashMap;

struct Tally<'a> {
    rule_id: &'a str,
    rule_path: &'a str,
    count: usize,
    /// The most severe finding's severity index (0 = critical).
    severity: u8,
}

/// The matched rows counted per catalog rule (an array per rule list, no
/// hashing per row), with each rule's most severe finding: `(kind, rule,
/// count, severity)` in the order of each rule's first matched row, so
/// rules sharing an id are met in row order as a scan would meet them.
fn tally_rules(ds: &Dataset, matches: &Bits) -> Vec<(Kind, u16, usize, u8)> {
    // Per rule: count, most severe, first row matched.
    let mut per_rule =
        CLASS_KINDS.map(|kind| vec![(0usize, u8::MAX, usize::MAX); ds.rule_count(kind)]);
    for i in matches.ones() {
        let row = &ds.rows[i];
        let t = &mut per_rule[class(row.kind)][row.rule as usize];
        t.0 += 1;
        t.1 = t.1.min(row.severity);
        t.2 = t.2.min(i);
    }
    let mut tallies: Vec<(usize, Kind, u16, usize, u8)> = CLASS_KINDS
        .iter()
        .zip(&per_rule)
        .flat_map(|(&kind, rules)| {
            rules.iter().enumerate().filter(|(_, t)| t.0 > 0).map(
                move |(rule, &(count, severity, first))| {
                    (
                        first,
                        kind,
                        u16::try_from(rule).unwrap_or(u16::MAX),
                        count,
                        severity,
                    )
                },
            )
        })
        .collect();
    tallies.sort_unstable_by_key(|t| t.0);
    tallies
        .into_iter()
        .map(|(_, kind, rule, count, severity)| (kind, rule, count, severity))
        .collect()
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
    for (kind, rule, count, severity) in tally_rules(ds, &matches) {
        let facts = ds.rule_facts_of(kind, rule);
        let t = by_rule.entry(facts.rule_id).or_insert(Tally {
            rule_id: facts.rule_id,
            rule_path: facts.rule_path,
            count: 0,
            severity: u8::MAX,
        });
        t.count += count;
        t.severity = t.severity.min(severity);
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
                issues_count: Some(crate::wire_int(t.count)),
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
        total: Some(crate::wire_int(total)),
        fetched: Some(crate::wire_int(end)),
    })
}
