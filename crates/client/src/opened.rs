//! The findings opened in a period, counted by rule and by repository
//! ([`OpenedInPeriod`]), and the names of supply-chain rules their
//! findings give ([`advisory_labels`]): what `report --kind opened` and
//! the Report pane read, both through here.
//!
//! The count reads Report findings twice with the same filters and
//! period, every page, each finding counted as it passes and none kept:
//! `PROJECT` (every state, created in the period: the activity report's
//! "opened") and `TOTAL_OPEN` (open, reviewing or fixing now, created in
//! it: `report --report-type total-open`'s total). Each figure is the
//! server's own report type, so each equals the report it is checked
//! against.

use crate::paginate::{Follow, PagedRequest, PagesAs, pages_following};
use crate::{ApiError, Client};
use findings_model::*;
use futures_util::StreamExt;

/// Report findings read for a count: the rule, its names, the repository.
pub type TallyReportRequest = PagesAs<ReportRequest, TallyPage>;

/// How many supply-chain rules are asked for one finding at once.
const LABELS_AT_ONCE: usize = 8;

/// Counts the findings `filters` match that were opened (created) in
/// their period (none: all time), all of them and those still open, by
/// rule and repository, following at most `max_pages` pages of each.
pub async fn opened_in_period(
    client: &Client,
    mut filters: ReportFilters,
    max_pages: usize,
) -> Result<OpenedInPeriod, ApiError> {
    // Buckets narrow nothing without a bucket's start; not sent.
    filters.time_bucket_size = None;
    let ask = |report_type| ReportRequest {
        report_type: Some(report_type),
        filters: (filters != ReportFilters::default()).then(|| filters.clone()),
        limit: Some(MAX_PAGE_SIZE),
        ..ReportRequest::default()
    };
    let mut labels = RuleLabels::default();
    let mut still_labels = RuleLabels::default();
    let (opened, still_open) = futures_util::join!(
        tally(client, ask(ReportType::Project), max_pages, &mut labels),
        tally(
            client,
            ask(ReportType::TotalOpen),
            max_pages,
            &mut still_labels
        ),
    );
    Ok(OpenedInPeriod {
        period: filters.time_period.clone(),
        opened: opened?,
        still_open: still_open?,
        labels,
    })
}

/// Every page of `request`, each finding counted as it passes.
async fn tally(
    client: &Client,
    request: ReportRequest,
    max_pages: usize,
    labels: &mut RuleLabels,
) -> Result<Tally, ApiError> {
    let mut pages = std::pin::pin!(pages_following(
        client.clone(),
        TallyReportRequest::new(request),
        max_pages,
        Follow::Ahead,
    ));
    let mut tally = Tally::default();
    let mut first = true;
    while let Some(page) = pages.next().await {
        let page = page?;
        if std::mem::take(&mut first) {
            tally.total = page.totals.total;
        }
        for finding in &page.findings {
            tally.add(finding);
            labels.note_tallied(finding);
        }
    }
    Ok(tally)
}

/// The advisory and package of each supply-chain rule of `ids` (`CVE-2021-44906
/// minimist`), as one of its findings names it: one finding asked for
/// each rule (Report findings, every state, archived projects' too), a
/// few at once. A rule whose finding cannot be had is left out (it keeps
/// the name the filter values give); at most [`RuleLabels::MOST`] asked.
pub async fn advisory_labels(client: &Client, ids: Vec<String>) -> Vec<(String, String)> {
    let asks = ids.into_iter().take(RuleLabels::MOST).map(|id| {
        let request = TallyReportRequest::new(ReportRequest {
            report_type: Some(ReportType::Project),
            filters: Some(ReportFilters {
                rule_ids: vec![id.clone()],
                ..ReportFilters::default()
            }),
            limit: Some(1),
            ..ReportRequest::default()
        });
        async move {
            let page = request.fetch(client).await.ok()?;
            let finding = page
                .findings
                .iter()
                .find(|f| f.rule_id() == Some(id.as_str()))?;
            Some((id, finding.advisory_label()?))
        }
    });
    futures_util::stream::iter(asks)
        .buffer_unordered(LABELS_AT_ONCE)
        .filter_map(|label| async move { label })
        .collect()
        .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use findings_demo::{DemoOptions, DemoServer};

    async fn demo() -> (DemoServer, Client) {
        let server = DemoServer::start_local(DemoOptions {
            findings: 600,
            ..DemoOptions::default()
        })
        .await
        .unwrap();
        let config = crate::ClientConfig::new(
            server.url(),
            server.deployment(),
            crate::Token::new("demo-token"),
        );
        let client = Client::new(config).unwrap();
        (server, client)
    }

    /// All opened is the activity report's "opened" of the same period,
    /// still open is total-open's total, and every finding is counted
    /// once by rule and once by repository.
    #[tokio::test]
    async fn opened_and_still_open_are_the_reports_own_figures() {
        let (_server, client) = demo().await;
        let period = TimePeriod::last(chrono::Duration::days(30), chrono::Utc::now());
        let filters = ReportFilters {
            time_period: Some(period),
            ..ReportFilters::default()
        };
        let counted = opened_in_period(&client, filters.clone(), 100)
            .await
            .unwrap();
        let activity = client
            .activity_report(&GetReportRequest {
                filters: Some(filters.clone()),
            })
            .await
            .unwrap();
        let totals = counted.totals();
        assert_eq!(i64::try_from(totals.opened).ok(), activity.total_new);
        let open = client
            .report_findings(&ReportRequest {
                filters: Some(filters),
                limit: Some(1),
                ..ReportRequest::default()
            })
            .await
            .unwrap();
        assert_eq!(i64::try_from(totals.still_open).ok(), open.total);
        for tally in [&counted.opened, &counted.still_open] {
            assert!(tally.is_whole());
            assert_eq!(tally.rules.values().sum::<u64>(), tally.counted);
            assert_eq!(tally.repositories.values().sum::<u64>(), tally.counted);
        }
        assert!(
            counted
                .rules()
                .iter()
                .all(|(_, n)| n.still_open <= n.opened)
        );
    }
}
