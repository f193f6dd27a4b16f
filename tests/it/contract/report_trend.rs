//! The report's time buckets bound the time its type reads (docs/src/api.md,
//! "Report findings"): the latest activity for BACKLOG_ACTIVITY, so its
//! trend counts the findings the report counts.

use super::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn backlog_activity_buckets_read_the_latest_activity() {
    let env = Env::start().await;
    let truth = env.report_truth().await;
    let listed = env.list_truth_with(true).await;
    let mut latest: Vec<DateTime<Utc>> = listed.issues.iter().filter_map(last_activity).collect();
    latest.sort();
    // A day of activity, whatever the findings' creation.
    let day = latest[latest.len() / 2]
        .date_naive()
        .and_time(chrono::NaiveTime::MIN)
        .and_utc();
    let in_day = |t: DateTime<Utc>| t >= day && t < day + Duration::days(1);
    let expected = listed.ids_where(|i| last_activity(i).is_some_and(in_day));
    let created_then = listed.ids_where(|i| i.created_at.is_some_and(in_day));
    assert!(!expected.is_empty() && expected != created_then);
    env.assert_report(
        "BACKLOG_ACTIVITY, one day's bucket",
        ReportRequest {
            report_type: Some(ReportType::BacklogActivity),
            bucket_start: Some(day),
            filters: Some(ReportFilters {
                time_bucket_size: Some(TimeBucketSize::Day),
                ..Default::default()
            }),
            ..Default::default()
        },
        &expected,
        &truth,
    )
    .await;
}
