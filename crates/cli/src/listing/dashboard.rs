//! `findings report --kind activity|by-project|backlog-by-rule|
//! backlog-by-severity|open-age`: the dashboard's reports headless, of the
//! same filters as the findings report, as a table, JSON (the answer as
//! the service gives it), NDJSON, CSV or Markdown: a weekly summary in a
//! script. `--kind summary`, all of them in one page, is `summary`'s.

use super::rule_names::RuleNames;
use crate::{Failure, OutputArgs, UsageError};
use findings_client::Client;
use findings_export::Format;
use findings_export::rows::Rows;
use findings_model::*;
use std::io::Write;

/// A `--kind` report other than the findings and the summary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// One of the dashboard's reports, as the service gives it.
    Dashboard(DashboardReport),
    /// The rules and repositories by the findings opened in the period,
    /// beside the open backlog at its end (`report --kind opened`).
    Opened,
}

/// What `--kind` asks for: `None` for the report's findings (the
/// default), else one of the dashboard's reports or `opened`.
pub fn kind(name: Option<&str>) -> Result<Option<Kind>, UsageError> {
    match name {
        None | Some("findings") => Ok(None),
        Some("opened") => Ok(Some(Kind::Opened)),
        Some(name) => DashboardReport::ALL
            .into_iter()
            .find(|r| r.name() == name)
            .map(|r| Some(Kind::Dashboard(r)))
            .ok_or_else(|| {
                let names: Vec<&str> = DashboardReport::ALL.iter().map(|r| r.name()).collect();
                UsageError(format!(
                    "unknown --kind {name:?}; valid: findings, {}, opened, summary",
                    names.join(", ")
                ))
            }),
    }
}

/// The `--kind` values, for completion.
pub const KINDS: [&str; 8] = [
    "findings",
    "activity",
    "by-project",
    "backlog-by-rule",
    "backlog-by-severity",
    "open-age",
    "opened",
    "summary",
];

/// Prints a dashboard report; returns how many rows it has (for
/// `--exit-code`).
pub async fn dashboard(
    client: &Client,
    kind: DashboardReport,
    filters: ReportFilters,
    output: &OutputArgs,
) -> Result<usize, Failure> {
    let format = output.format()?;
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
        filters: Some(filters),
    };
    let answer = client.dashboard_report(kind, &req).await?;
    // Rules by their one name (a supply-chain rule by advisory and
    // package), asked once for the rules the answer has.
    let names = match &answer {
        DashboardAnswer::BacklogByRule(r) => {
            Some(RuleNames::of(client, rule_ids(r), RuleLabels::default()).await)
        }
        _ => None,
    };
    let names = names.unwrap_or_default();
    let json = match &answer {
        DashboardAnswer::Activity(r) => activity_json(r, compared)?,
        DashboardAnswer::ByProject(r) => to_json(r)?,
        DashboardAnswer::BacklogByRule(r) => backlog_by_rule_json(r, &names)?,
        DashboardAnswer::BySeverity(r) => to_json(r)?,
    };
    // A supply-chain rule's opaque id is for programs, not people.
    let for_people = matches!(format, Format::Table | Format::Markdown);
    let (rows, summary) = match &answer {
        DashboardAnswer::Activity(r) => (activity_rows(r, &size), activity_summary(r, compared)),
        DashboardAnswer::ByProject(r) => (project_rows(r), None),
        DashboardAnswer::BacklogByRule(r) => (rule_rows(r, &names, &size, for_people), None),
        DashboardAnswer::BySeverity(r) if kind == DashboardReport::MedianOpenAge => {
            (severity_rows(r, "DAYS", &size), None)
        }
        DashboardAnswer::BySeverity(r) => (severity_rows(r, "COUNT", &size), None),
    };
    let mut rows = rows;
    rows.width = Some(super::output_width(&output.file));
    let mut out = output.file.open()?;
    {
        let mut safe = findings_base::redact::ScrubWriter::new(&mut out);
        if format == Format::Json {
            writeln!(safe, "{json}")?;
        } else {
            // The summary heads a table or a Markdown page.
            match (&summary, format) {
                // A table's line fits its width, as the table does.
                (Some(line), Format::Table) => {
                    let width = rows.width.unwrap_or(usize::MAX);
                    for part in findings_base::text::wrap(line, width) {
                        writeln!(safe, "{part}")?;
                    }
                    writeln!(safe)?;
                }
                (Some(line), Format::Markdown) => writeln!(safe, "{line}\n")?,
                _ => {}
            }
            rows.write(format, &mut safe)?;
        }
        safe.flush()?;
    }
    out.finish()?;
    Ok(rows.rows.len())
}

/// The activity report as the service gives it, with the derived
/// `headline` beside its totals: the rows added up, as the table's and the
/// summary's line says them (`ignored` without the provisionally ignored,
/// `removed` counted, `net` every term taken from the opened), and with a
/// period before it, `headlinePreviousPeriod` from that period's totals.
fn activity_json(r: &ActivityReport, compared: bool) -> Result<String, Failure> {
    let mut value = serde_json::to_value(r).map_err(|e| Failure::Runtime(e.to_string()))?;
    if let Some(object) = value.as_object_mut() {
        let derived = |s: ActivitySums| serde_json::to_value(s).unwrap_or_default();
        if !r.buckets.is_empty() {
            object.insert("headline".into(), derived(r.row_sums()));
        }
        if let Some(before) = r.previous_period.filter(|_| compared) {
            object.insert("headlinePreviousPeriod".into(), derived(before.sums()));
        }
    }
    to_json(&value)
}

pub(super) fn to_json<T: serde::Serialize>(value: &T) -> Result<String, Failure> {
    findings_base::json::pretty(value).map_err(|e| Failure::Runtime(e.to_string()))
}

fn n(v: Option<i64>) -> String {
    v.unwrap_or(0).to_string()
}

/// A bucket's start as a date (and time when not midnight), and its days
/// when it is shorter than a bucket of `size` (`2026-12-05 (2 days)`): a
/// period of 30 days in weeks ends with a partial one.
pub(super) fn start(p: &Option<TimePeriod>, size: &TimeBucketSize) -> String {
    let shown = match p.as_ref().and_then(|p| p.since) {
        Some(t) if t.time() == chrono::NaiveTime::MIN => t.format("%Y-%m-%d").to_string(),
        Some(t) => t.format("%Y-%m-%d %H:%M").to_string(),
        None => return String::new(),
    };
    match p.as_ref().and_then(|p| p.partial_days(size)) {
        Some(1) => format!("{shown} (1 day)"),
        Some(days) => format!("{shown} ({days} days)"),
        None => shown,
    }
}

fn activity_rows(r: &ActivityReport, size: &TimeBucketSize) -> Rows {
    let mut rows = Rows::new(&[
        "BUCKET",
        "OPENED",
        "FIXED",
        "IGNORED",
        "PROV_IGNORED",
        "REMOVED",
        "NET",
    ]);
    for b in &r.buckets {
        rows.push(vec![
            start(&b.time_period, size),
            n(b.opened),
            n(b.fixed),
            n(b.ignored),
            n(b.provisionally_ignored),
            n(b.removed),
            n(b.net),
        ]);
    }
    rows
}

/// The rows added up, every term of the net said: "The rows added up,
/// against the period before: opened 519 (+303) · fixed 95 (+3) · ...".
/// Against the period before only when one was chosen (`compared`).
pub(super) fn activity_summary(r: &ActivityReport, compared: bool) -> Option<String> {
    if r.buckets.is_empty() {
        return None;
    }
    let before = r.previous_period.filter(|_| compared).map(|p| p.sums());
    let terms = r
        .row_sums()
        .terms(before.as_ref(), findings_base::text::thousands);
    Some(format!(
        "The rows added up{}: {}",
        if before.is_some() {
            ", against the period before"
        } else {
            ""
        },
        terms.join(" · ")
    ))
}

/// Worst first: by critical, then high, medium, low.
fn project_rows(r: &ByProjectReport) -> Rows {
    let mut rows = Rows::new(&["REPOSITORY", "CRITICAL", "HIGH", "MEDIUM", "LOW", "OPEN"]);
    for (name, c) in r.worst_first() {
        rows.push(vec![
            name.clone(),
            n(c.critical),
            n(c.high),
            n(c.medium),
            n(c.low),
            c.total().to_string(),
        ]);
    }
    rows
}

/// The rule ids a backlog-by-rule answer has, each once.
pub(super) fn rule_ids(r: &BacklogByRuleReport) -> Vec<&str> {
    let mut ids: Vec<&str> = r
        .buckets
        .iter()
        .flat_map(|b| b.open.keys().map(String::as_str))
        .collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}

/// The backlog by rule as the service gives it (keyed by rule id), with
/// the derived `ruleNames` beside it: each rule id's one name, as the
/// table's RULE column says it.
fn backlog_by_rule_json(r: &BacklogByRuleReport, names: &RuleNames) -> Result<String, Failure> {
    let mut value = serde_json::to_value(r).map_err(|e| Failure::Runtime(e.to_string()))?;
    if let Some(object) = value.as_object_mut() {
        let named: serde_json::Map<String, serde_json::Value> = rule_ids(r)
            .into_iter()
            .map(|id| (id.to_owned(), names.name(id).into()))
            .collect();
        object.insert("ruleNames".into(), named.into());
    }
    to_json(&value)
}

/// By bucket, then most open first; each rule by its one name
/// ([`RuleNames`]) and its id (for people, a code rule's only: a
/// supply-chain rule's is opaque).
fn rule_rows(
    r: &BacklogByRuleReport,
    names: &RuleNames,
    size: &TimeBucketSize,
    for_people: bool,
) -> Rows {
    let mut rows = Rows::new(&["BUCKET", "RULE", "RULE_ID", "OPEN"]).reading_from_start(&["RULE"]);
    for b in &r.buckets {
        for (rule, count) in b.most_first() {
            let id = if for_people {
                names.id_for_people(rule)
            } else {
                rule
            };
            rows.push(vec![
                start(&b.time_period, size),
                names.name(rule),
                id.to_owned(),
                count.to_string(),
            ]);
        }
    }
    rows
}

/// A cell per severity; an absent value (a median of nothing) is empty.
fn severity_rows(r: &BySeverityReport, unit: &'static str, size: &TimeBucketSize) -> Rows {
    let header: [&'static str; 5] = match unit {
        "DAYS" => [
            "BUCKET",
            "CRITICAL_DAYS",
            "HIGH_DAYS",
            "MEDIUM_DAYS",
            "LOW_DAYS",
        ],
        _ => ["BUCKET", "CRITICAL", "HIGH", "MEDIUM", "LOW"],
    };
    let mut rows = Rows::new(&header);
    let cell = |v: Option<i64>| v.map_or(String::new(), |v| v.to_string());
    for b in &r.buckets {
        let c = b.counts;
        rows.push(vec![
            start(&b.time_period, size),
            cell(c.critical),
            cell(c.high),
            cell(c.medium),
            cell(c.low),
        ]);
    }
    rows
}
