//! `findings report --kind summary`: the monthly review in one page, of
//! the report's filters and period. Every figure comes from the reports
//! the other `--kind`s print (and reads as they do): the totals by type
//! (Report findings), the open findings by severity and their trend
//! (backlog by severity), the activity with its one line of words, the
//! worst repositories (by project), the rules with most open findings
//! (backlog by rule, named as `--kind backlog-by-rule` names them), the
//! median open age against the profile's targets; and the findings past
//! their target, counted as the TUI's open-age view counts them
//! ([`OverTargetCounts::add`]).
//!
//! [`Summary`] holds the figures (its JSON is `--format json`);
//! `markdown` and `html` write them as a page.

mod html;
mod markdown;

use super::dashboard::{activity_summary, start, to_json};
use super::rule_names::RuleNames;
use crate::{Failure, OutputArgs, UsageError};
use findings_client::{Client, Follow, pages_following};
use findings_export::{CATALOG, Context};
use findings_model::*;
use futures_util::StreamExt;
use serde::Serialize;
use std::io::Write;
use std::path::Path;

/// How many repositories and rules the review names.
const TOP: usize = 5;
/// How many overdue findings its table lists, the most overdue first.
const MOST_OVERDUE: usize = 25;

/// The sections, in order: each format heads them so.
pub const SECTIONS: [&str; 9] = [
    "Totals",
    "Open findings by severity",
    "Activity",
    "Worst repositories",
    "Rules with most open findings",
    "Opened in the period",
    "Backlog trend",
    "Median open age against targets",
    "Overdue findings",
];

/// How the review is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SummaryFormat {
    Markdown,
    Html,
    Json,
}

/// The format: `--format` (markdown, html or json), else what `-o FILE`'s
/// extension names, else Markdown.
pub fn format(given: Option<&str>, file: Option<&Path>) -> Result<SummaryFormat, UsageError> {
    let named = |name: &str| match name.to_ascii_lowercase().as_str() {
        "markdown" | "md" => Some(SummaryFormat::Markdown),
        "html" | "htm" => Some(SummaryFormat::Html),
        "json" => Some(SummaryFormat::Json),
        _ => None,
    };
    if let Some(given) = given {
        return named(given).ok_or_else(|| {
            UsageError(format!(
                "--format {:?}: a --kind summary is markdown, html or json",
                findings_base::text::one_line(given)
            ))
        });
    }
    let Some(ext) = file.and_then(Path::extension) else {
        return Ok(SummaryFormat::Markdown);
    };
    let ext = ext.to_string_lossy();
    named(&ext).ok_or_else(|| {
        UsageError(format!(
            "-o *.{}: a --kind summary is markdown (.md), html (.html) or json (.json); \
             say which with --format",
            findings_base::text::one_line(&ext)
        ))
    })
}

/// The review's figures: what every format writes, `--format json` as is.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    pub period: Period,
    /// Report findings' totals by type.
    pub totals: Totals,
    /// Open at the end of the last bucket (backlog by severity).
    pub open_by_severity: Severities,
    pub activity: Activity,
    /// By project, worst first (the first five).
    pub worst_repositories: Vec<Repository>,
    /// Backlog by rule's last bucket, most open first (the first five).
    pub top_rules: Vec<Rule>,
    /// The rules and repositories by the findings opened in the period,
    /// most first (the first five of each), beside the open backlog at
    /// its end: `--kind opened`'s.
    pub opened_in_period: super::opened::OpenedReport,
    /// Backlog by severity, per bucket.
    pub backlog: Vec<BacklogBucket>,
    /// Median open age's last bucket against the targets.
    pub open_age: Vec<OpenAge>,
    pub overdue: Overdue,
}

/// The period: its start (none: all time) and end, the buckets' size.
#[derive(Debug, Clone, Serialize)]
pub struct Period {
    /// The deployment reviewed.
    pub deployment: String,
    pub since: Option<String>,
    /// The period's end: the one asked for, else the run's time.
    pub until: Option<String>,
    pub bucket: String,
}

#[derive(Debug, Clone, Copy, Serialize)]
pub struct Totals {
    pub all: i64,
    pub code: i64,
    pub supply_chain: i64,
    pub secrets: i64,
}

/// Counts by severity and in all.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct Severities {
    pub critical: i64,
    pub high: i64,
    pub medium: i64,
    pub low: i64,
    pub all: i64,
}

impl Severities {
    fn of(c: &BySeverity) -> Self {
        let [critical, high, medium, low] = c.most_severe_first();
        Severities {
            critical,
            high,
            medium,
            low,
            all: c.total(),
        }
    }

    /// `(name, count)`, most severe first, then all.
    pub fn named(&self) -> [(&'static str, i64); 5] {
        [
            ("critical", self.critical),
            ("high", self.high),
            ("medium", self.medium),
            ("low", self.low),
            ("all", self.all),
        ]
    }
}

/// The activity report's rows added up, against the period before's
/// totals when a period is chosen; `said` is `report --kind activity`'s
/// line.
#[derive(Debug, Clone, Serialize)]
pub struct Activity {
    #[serde(flatten)]
    pub now: ActivityFigures,
    pub previous: Option<ActivityFigures>,
    pub said: Option<String>,
}

#[derive(Debug, Clone, Copy, Serialize)]
pub struct ActivityFigures {
    pub opened: i64,
    pub fixed: i64,
    /// Without the provisionally ignored (the next figure), as the
    /// activity report's IGNORED column is.
    pub ignored: i64,
    pub provisionally_ignored: i64,
    pub removed: i64,
    pub net: i64,
}

impl ActivityFigures {
    fn of(s: &ActivitySums) -> Self {
        ActivityFigures {
            opened: s.opened,
            fixed: s.fixed,
            ignored: s.ignored,
            provisionally_ignored: s.provisionally_ignored,
            removed: s.removed,
            net: s.net,
        }
    }

    /// `(name, count)` in the line's order.
    pub fn named(&self) -> [(&'static str, i64); 6] {
        [
            ("opened", self.opened),
            ("fixed", self.fixed),
            ("ignored", self.ignored),
            ("provisionally_ignored", self.provisionally_ignored),
            ("removed", self.removed),
            ("net", self.net),
        ]
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Repository {
    pub name: String,
    #[serde(flatten)]
    pub open: Severities,
}

#[derive(Debug, Clone, Serialize)]
pub struct Rule {
    pub name: String,
    pub id: String,
    pub open: i64,
}

#[derive(Debug, Clone, Serialize)]
pub struct BacklogBucket {
    pub start: String,
    #[serde(flatten)]
    pub open: Severities,
}

/// One severity's median open age against its target: `over_by` is the
/// median less the target (below 0: within it by that many days).
#[derive(Debug, Clone, Serialize)]
pub struct OpenAge {
    pub severity: &'static str,
    pub median_days: Option<i64>,
    pub target_days: u32,
    pub over_by: Option<i64>,
    pub said: String,
}

/// The open findings past their target, by severity, and the most
/// overdue of them.
#[derive(Debug, Clone, Serialize)]
pub struct Overdue {
    #[serde(flatten)]
    pub count: Severities,
    /// Open findings without a first detection (not counted).
    pub undated: u64,
    /// The most overdue (at most 25), the most days over first.
    pub findings: Vec<OverdueFinding>,
}

#[derive(Debug, Clone, Serialize)]
pub struct OverdueFinding {
    pub id: String,
    pub severity: String,
    /// As `--kind backlog-by-rule` names it (an advisory and its package
    /// for supply chain).
    pub rule: String,
    pub rule_id: String,
    pub repository: String,
    pub age_days: i64,
    pub days_over_target: i64,
}

/// Writes the review of `request`'s filters (its period among them);
/// returns how many open findings are past their target (for
/// `--exit-code`).
pub async fn summary(
    client: &Client,
    request: ReportRequest,
    targets: SlaDays,
    format: SummaryFormat,
    output: &OutputArgs,
) -> Result<usize, Failure> {
    let now = findings_requests::clock::now().map_err(UsageError)?;
    // Saturating: a bound past usize is no bound (exact on 64 bits).
    let max_pages = usize::try_from(output.max_pages).unwrap_or(usize::MAX);
    let summary = gather(client, request, targets, now, max_pages).await?;
    let text = match format {
        SummaryFormat::Json => to_json(&summary)?,
        SummaryFormat::Markdown => markdown::page(&summary),
        SummaryFormat::Html => html::page(&summary),
    };
    let mut out = output.file.open()?;
    {
        let mut safe = findings_base::redact::ScrubWriter::new(&mut out);
        write!(safe, "{text}")?;
        if !text.ends_with('\n') {
            writeln!(safe)?;
        }
        safe.flush()?;
    }
    out.finish()?;
    Ok(usize::try_from(summary.overdue.count.all).unwrap_or(0))
}

/// Asks every report (at once) and counts the overdue findings, following
/// at most `max_pages` pages of them (`--max-pages`).
async fn gather(
    client: &Client,
    request: ReportRequest,
    targets: SlaDays,
    now: Timestamp,
    max_pages: usize,
) -> Result<Summary, Failure> {
    let filters = request.filters.clone().unwrap_or_default();
    // "All time" has no period before it to compare with.
    let compared = filters
        .time_period
        .as_ref()
        .is_some_and(|p| p.since.is_some());
    let size = filters
        .time_bucket_size
        .clone()
        .unwrap_or(TimeBucketSize::Week);
    let req = GetReportRequest {
        filters: Some(filters.clone()),
    };
    let first = ReportRequest {
        limit: Some(1),
        ..request
    };
    let names_req = IssueFiltersRequest::default();
    let (totals, activity, by_project, by_rule, backlog, ages, names, overdue, opened) = futures_util::join!(
        client.report_findings(&first),
        client.activity_report(&req),
        client.by_project_report(&req),
        client.backlog_by_rule_report(&req),
        client.backlog_by_severity_report(&req),
        client.median_open_age_report(&req),
        client.issue_filters(&names_req),
        overdue(client, &filters.projects, targets, now, max_pages),
        super::opened::gather(client, filters.clone(), max_pages, TOP),
    );
    let opened_in_period = opened?;
    let totals = totals?;
    let activity = activity?;
    let backlog = backlog?;
    let by_rule = by_rule?;
    let mut overdue = overdue?;
    // The rules named: the top ones (a supply-chain rule's package asked
    // of one of its findings), and the overdue findings' (each finding
    // names its own advisory and package).
    let top_ids: Vec<&str> = by_rule
        .buckets
        .last()
        .map(|b| {
            b.most_first()
                .into_iter()
                .take(TOP)
                .map(|(id, _)| id.as_str())
                .collect()
        })
        .unwrap_or_default();
    let names = RuleNames::with_values(client, top_ids, RuleLabels::default(), names.ok()).await;
    for f in &mut overdue.findings {
        f.rule = if f.rule == f.rule_id {
            names.name(&f.rule_id)
        } else {
            short_rule(&f.rule).to_owned()
        };
    }
    Ok(Summary {
        period: period(&filters, client.deployment(), now),
        totals: Totals {
            all: totals.total.unwrap_or(0),
            code: totals.total_code.unwrap_or(0),
            supply_chain: totals.total_sca.unwrap_or(0),
            secrets: totals.total_secrets.unwrap_or(0),
        },
        open_by_severity: backlog
            .buckets
            .last()
            .map(|b| Severities::of(&b.counts))
            .unwrap_or_default(),
        activity: Activity {
            now: ActivityFigures::of(&activity.row_sums()),
            previous: activity
                .previous_period
                .filter(|_| compared)
                .map(|p| ActivityFigures::of(&p.sums())),
            said: activity_summary(&activity, compared),
        },
        worst_repositories: by_project?
            .worst_first()
            .into_iter()
            .take(TOP)
            .map(|(name, c)| Repository {
                name: name.clone(),
                open: Severities::of(c),
            })
            .collect(),
        top_rules: top_rules(&by_rule, &names),
        opened_in_period,
        backlog: backlog
            .buckets
            .iter()
            .map(|b| BacklogBucket {
                start: start(&b.time_period, &size),
                open: Severities::of(&b.counts),
            })
            .collect(),
        open_age: open_age(&ages?, targets),
        overdue,
    })
}

fn period(filters: &ReportFilters, deployment: &str, now: Timestamp) -> Period {
    let time = |t: Option<Timestamp>| t.map(|t| t.to_rfc3339());
    let mut p = filters.time_period.clone().unwrap_or_default();
    p.until = p.until.or(Some(now));
    let bucket = match filters.time_bucket_size {
        Some(TimeBucketSize::Day) => "day",
        Some(TimeBucketSize::Month) => "month",
        _ => "week",
    };
    Period {
        deployment: deployment.to_owned(),
        since: time(p.since),
        until: time(p.until),
        bucket: bucket.to_owned(),
    }
}

/// The last bucket's rules, most open first, named as
/// `--kind backlog-by-rule` names them.
fn top_rules(r: &BacklogByRuleReport, names: &RuleNames) -> Vec<Rule> {
    let Some(last) = r.buckets.last() else {
        return Vec::new();
    };
    last.most_first()
        .into_iter()
        .take(TOP)
        .map(|(id, open)| Rule {
            name: names.name(id),
            id: id.clone(),
            open,
        })
        .collect()
}

/// The last bucket's median ages against the targets, most severe first.
fn open_age(r: &BySeverityReport, targets: SlaDays) -> Vec<OpenAge> {
    let last = r.buckets.last().map(|b| b.counts).unwrap_or_default();
    let medians = [last.critical, last.high, last.medium, last.low];
    let names = ["critical", "high", "medium", "low"];
    names
        .into_iter()
        .zip(medians)
        .zip(targets.most_severe_first())
        .map(|((severity, median), target)| {
            let over_by = median.map(|m| m - i64::from(target));
            OpenAge {
                severity,
                median_days: median,
                target_days: target,
                over_by,
                said: age_said(over_by),
            }
        })
        .collect()
}

/// "over target by 5 days", "within target by 3 days", "at target", or
/// "no open findings".
pub fn age_said(over_by: Option<i64>) -> String {
    let days = |n: i64| {
        if n == 1 {
            "1 day".to_owned()
        } else {
            format!("{n} days")
        }
    };
    match over_by {
        None => "no open findings".to_owned(),
        Some(0) => "at target".to_owned(),
        Some(n) if n > 0 => format!("over target by {}", days(n)),
        Some(n) => format!("within target by {}", days(-n)),
    }
}

/// Lists the open findings of `projects` (all: none given), as the TUI's
/// open-age view does, up to `max_pages` pages, and counts those past
/// their target.
async fn overdue(
    client: &Client,
    projects: &[String],
    targets: SlaDays,
    now: Timestamp,
    max_pages: usize,
) -> Result<Overdue, Failure> {
    let mut request = ListIssuesRequest::default();
    let filter = request.filter.get_or_insert_with(Default::default);
    filter.repository_names = projects.to_vec();
    filter.aggregate_issue_states = AggregateState::OPEN.to_vec();
    request.include_first_detected_at = Some(true);
    request.limit = Some(findings_model::MAX_PAGE_SIZE);
    let mut pages = std::pin::pin!(pages_following(
        client.clone(),
        request,
        max_pages,
        Follow::Ahead,
    ));
    let mut counts = OverTargetCounts::default();
    let mut most: Vec<(i64, i64, Issue)> = Vec::new();
    while let Some(page) = pages.next().await {
        for issue in page?.issues.into_iter().filter_map(|i| i.issue) {
            if let Some(over) = counts.add(&issue, &targets, now) {
                let age = targets
                    .open_age(
                        issue.severity.as_ref(),
                        issue.aggregate_state.as_ref(),
                        issue.first_detected_at,
                        now,
                    )
                    .map_or(0, |a| a.days);
                most.push((over, age, issue));
            }
        }
        most_first(&mut most);
    }
    let [critical, high, medium, low] = counts.over.map(|n| i64::try_from(n).unwrap_or(i64::MAX));
    let cx = Context {
        now: Some(now),
        targets,
    };
    Ok(Overdue {
        count: Severities {
            critical,
            high,
            medium,
            low,
            all: critical + high + medium + low,
        },
        undated: counts.undated,
        findings: most
            .iter()
            .map(|(over, age, issue)| OverdueFinding {
                id: cell("id", issue, &cx),
                severity: cell("severity", issue, &cx),
                rule: cell("rule", issue, &cx),
                rule_id: cell("rule_id", issue, &cx),
                repository: cell("repository", issue, &cx),
                age_days: *age,
                days_over_target: *over,
            })
            .collect(),
    })
}

/// The most overdue first (then the oldest, then by id), no more than the
/// table lists.
fn most_first(most: &mut Vec<(i64, i64, Issue)>) {
    most.sort_by(|a, b| {
        (b.0, b.1)
            .cmp(&(a.0, a.1))
            .then_with(|| a.2.id().cmp(b.2.id()))
    });
    most.truncate(MOST_OVERDUE);
}

/// A finding's cell of the column `name` of the export catalog.
fn cell(name: &str, issue: &Issue, cx: &Context) -> String {
    CATALOG
        .iter()
        .find(|c| c.name() == name)
        .map_or_else(String::new, |c| (c.cell)(issue, cx))
}

#[cfg(test)]
mod tests;
