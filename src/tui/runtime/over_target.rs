//! Counting the open findings past their open-age target
//! ([`ApiRequest::OverTarget`]): every open finding the request matches is
//! listed with its first detection (1,000 a page, the next asked for while
//! one is counted) and compared with the targets.
//!
//! [`ApiRequest::OverTarget`]: crate::tui::message::ApiRequest::OverTarget

use crate::api::model::{AggregateState, ListIssuesRequest, Severity, Timestamp};
use crate::api::{ApiError, Client, Follow, transport::MAX_PAGE_ITEMS};
use crate::config::SlaDays;
use crate::tui::message::open_age::OverTargetCounts;
use futures_util::StreamExt;

const OPEN: [AggregateState; 3] = [
    AggregateState::Open,
    AggregateState::Reviewing,
    AggregateState::Fixing,
];

pub async fn count(
    client: &Client,
    mut request: ListIssuesRequest,
    targets: SlaDays,
    now: Timestamp,
) -> Result<OverTargetCounts, ApiError> {
    request
        .filter
        .get_or_insert_with(Default::default)
        .aggregate_issue_states = OPEN.to_vec();
    request.include_first_detected_at = Some(true);
    request.limit = Some(MAX_PAGE_ITEMS as i64);
    request.cursor = None;
    let pages = crate::api::pages_following(
        client.clone(),
        request,
        crate::api::DEFAULT_MAX_PAGES,
        Follow::Ahead,
    );
    let mut pages = std::pin::pin!(pages);
    let mut counts = OverTargetCounts::default();
    while let Some(page) = pages.next().await {
        for issue in page?.issues.iter().filter_map(|i| i.issue.as_ref()) {
            let open = issue
                .aggregate_state
                .as_ref()
                .is_some_and(|s| OPEN.contains(s));
            let rank = match issue.severity {
                Some(Severity::Critical) => 0,
                Some(Severity::High) => 1,
                Some(Severity::Medium) => 2,
                Some(Severity::Low) => 3,
                _ => continue,
            };
            if !open {
                continue;
            }
            let Some(first) = issue.first_detected_at else {
                counts.undated += 1;
                continue;
            };
            counts.open[rank] += 1;
            let severity = issue.severity.as_ref().unwrap_or(&Severity::Low);
            if targets.days_over(severity, first, now).is_some() {
                counts.over[rank] += 1;
            }
        }
    }
    Ok(counts)
}
