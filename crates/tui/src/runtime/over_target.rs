//! Counting the open findings past their open-age target
//! ([`ApiRequest::OverTarget`]): every open finding the request matches is
//! listed with its first detection (1,000 a page, the next asked for while
//! one is counted) and compared with the targets.
//!
//! [`ApiRequest::OverTarget`]: crate::message::ApiRequest::OverTarget

use crate::message::open_age::OverTargetCounts;
use findings_client::{ApiError, Client};
use findings_config::SlaDays;
use findings_model::{AggregateState, ListIssuesRequest, Timestamp};
use futures_util::StreamExt;

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
    request.limit = Some(findings_model::MAX_PAGE_SIZE);
    request.cursor = None;
    let mut pages = std::pin::pin!(super::pages::every_page(client, request));
    let mut counts = OverTargetCounts::default();
    while let Some(page) = pages.next().await {
        for issue in page?.issues.iter().filter_map(|i| i.issue.as_ref()) {
            counts.add(issue, &targets, now);
        }
    }
    Ok(counts)
}
