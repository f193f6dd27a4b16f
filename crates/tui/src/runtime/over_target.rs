//! Counting the open findings past their open-age target
//! ([`ApiRequest::OverTarget`]): every open finding the request matches is
//! listed with its first detection (1,000 a page, the next asked for while
//! one is counted) and compared with the targets.
//!
//! [`ApiRequest::OverTarget`]: crate::message::ApiRequest::OverTarget

use crate::message::open_age::OverTargetCounts;
use findings_client::{ApiError, Client, transport::MAX_PAGE_ITEMS};
use findings_config::SlaDays;
use findings_model::{AggregateState, ListIssuesRequest, Severity, Timestamp};
use futures_util::StreamExt;

/// The severities with a target, in the counts' order.
const TARGETED: [Severity; 4] = [
    Severity::Critical,
    Severity::High,
    Severity::Medium,
    Severity::Low,
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
        .aggregate_issue_states = AggregateState::OPEN.to_vec();
    request.include_first_detected_at = Some(true);
    request.limit = Some(MAX_PAGE_ITEMS as i64);
    request.cursor = None;
    let mut pages = std::pin::pin!(super::pages::every_page(client, request));
    let mut counts = OverTargetCounts::default();
    while let Some(page) = pages.next().await {
        for issue in page?.issues.iter().filter_map(|i| i.issue.as_ref()) {
            let open = issue
                .aggregate_state
                .as_ref()
                .is_some_and(AggregateState::is_open);
            let Some(severity) = issue.severity.as_ref().filter(|_| open) else {
                continue;
            };
            // Info and unknown severities have no target.
            let Some(rank) = TARGETED.iter().position(|s| s == severity) else {
                continue;
            };
            let Some(first) = issue.first_detected_at else {
                counts.undated += 1;
                continue;
            };
            counts.open[rank] += 1;
            if targets.days_over(severity, first, now).is_some() {
                counts.over[rank] += 1;
            }
        }
    }
    Ok(counts)
}
