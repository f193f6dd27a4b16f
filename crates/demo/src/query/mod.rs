//! The demo server's query engine: filter semantics (docs/src/api.md, "Semantics of
//! filters"), total orders (docs/src/api.md §10) and cursor pages (docs/src/api.md §7–9).
//!
//! Each sort order is computed once, on first use, as a permutation of row
//! indices; a page walks that permutation from the cursor's position and
//! builds wire objects only for the items it returns.
//!
//! One file per operation (`list`, `report`, `search`: its filter semantics
//! and its answer); `order` keeps the sort orders, `memo` the rows recent
//! filters matched, `pages` cuts a page out of an order. `list_pages`
//! finds a List issues page without a pass over every row (it has no
//! count to give), from the rows of each repository, ref, kind and rule
//! (`row_index`).

// Before the `mod` lines: a `macro_rules!` macro is in scope only in the
// modules declared after it.
macro_rules! require_known {
    ($value:expr, $field:literal) => {
        $crate::query::known(
            &$value,
            $field,
            |v| v.is_known(),
            |v| v.as_wire().to_owned(),
        )?
    };
}

macro_rules! require_known_all {
    ($values:expr, $field:literal) => {
        for v in &$values {
            if !v.is_known() {
                return Err($crate::query::BadRequest(format!(
                    "unknown value {:?} for {}",
                    v.as_wire(),
                    $field
                )));
            }
        }
    };
}

mod counts;
mod dashboard;
mod feedback;
mod filter_values;
mod fixes;
mod fuzzy;
mod groups;
mod issue_reads;
mod list;
mod list_match;
mod list_pages;
#[cfg(test)]
mod list_pages_tests;
mod list_tables;
mod memo;
mod memories;
mod order;
mod pages;
mod projects;
mod refusal;
mod report;
mod row_index;
mod search;
mod tickets;
mod triage;

pub use counts::issue_counts;
pub use dashboard::{
    activity_report, backlog_by_rule_report, backlog_by_severity_report, by_project_report,
    median_open_age_report,
};
pub use feedback::post_feedback;
pub use filter_values::issue_filters;
pub use fixes::{
    OPENS_AFTER_REQUESTS, autofix_error, fix_job_error, fixes_due, open_due_fixes, request_fix,
};
pub use groups::list_issue_groups;
pub use issue_reads::{agentic_activity, agentic_index};
pub use list::list_issues;
pub use memo::Bits;
pub use memories::{MAX_MEMORIES, MAX_RELEVANT, create_memory, find_relevant};
pub use order::Orders;
pub use projects::{list_deployments, list_projects};
pub use refusal::Refusal;
pub use report::report_findings;
pub use search::{count_issues, search_issues};
pub use tickets::{
    ACTIVE_INSTANCE, REVOKED_INSTANCE, create_tickets, link_ticket, ticketing_instances,
    unlink_ticket,
};
pub use triage::{triage_agentic, update_findings};

use super::dataset::Kind;
use chrono::{DateTime, TimeZone, Utc};

pub use super::bad_request::BadRequest;

fn known<T: Clone>(
    value: &Option<T>,
    field: &str,
    is_known: impl Fn(&T) -> bool,
    raw: impl Fn(&T) -> String,
) -> Result<(), BadRequest> {
    match value {
        Some(v) if !is_known(v) => Err(BadRequest(format!(
            "unknown value {:?} for {field}",
            raw(v)
        ))),
        _ => Ok(()),
    }
}

fn ts(secs: i64) -> DateTime<Utc> {
    Utc.timestamp_opt(secs, 0).single().unwrap_or_default()
}

/// Time helper for tests and the generator's callers.
pub fn at(secs: i64) -> DateTime<Utc> {
    ts(secs)
}

/// The catalog list a kind's rules index: code (both code kinds), SCA,
/// secrets.
fn class(kind: Kind) -> usize {
    match kind {
        Kind::Code | Kind::AiCode => 0,
        Kind::Sca => 1,
        Kind::Secrets => 2,
    }
}

const CLASS_KINDS: [Kind; 3] = [Kind::Code, Kind::Sca, Kind::Secrets];

/// A time bound in whole seconds, rounded up: demo times are whole seconds,
/// so `t >= bound(x)` is `t >= x` and `t < bound(x)` is `t < x` exactly,
/// fractions included.
fn bound(t: DateTime<Utc>) -> i64 {
    t.timestamp() + i64::from(t.timestamp_subsec_nanos() > 0)
}
