//! `findings report --kind opened`: "the top rules this month", answered
//! with its basis. The rules and the repositories by the findings opened
//! (created) in the period, most first: all opened (Report findings
//! `PROJECT`, which the activity report's "opened" adds up to), still
//! open of them (`TOTAL_OPEN`, `report --report-type total-open`'s
//! total), and beside them the open backlog at the period's end, whatever
//! its age (the backlog-by-rule report's last bucket, the by-project
//! report), each table titled with its basis and the period's dates.
//! Counted as the pages stream past, none kept
//! ([`findings_client::opened_in_period`]).

use super::dashboard::to_json;
use super::rule_names::RuleNames;
use crate::{Failure, OutputArgs};
use findings_client::Client;
use findings_export::Format;
use findings_export::rows::Rows;
use findings_model::*;
use serde::Serialize;
use std::io::Write;

/// The answer: the period, the totals and the two tables (the JSON is
/// this, `--format json`).
#[derive(Debug, Clone, Serialize)]
pub struct OpenedReport {
    pub period: Period,
    /// Findings opened in the period (every state).
    pub opened: u64,
    /// Of those, open, reviewing or fixing now.
    pub still_open: u64,
    /// The open backlog at the period's end, whatever its age (the rules'
    /// backlog added up).
    pub open_at_end: i64,
    /// What each figure counts, in words.
    pub basis: Basis,
    /// Most opened first.
    pub rules: Vec<RuleRow>,
    /// Most opened first.
    pub repositories: Vec<RepositoryRow>,
}

/// The period: its first and last instants (RFC 3339; none: all time),
/// and in words.
#[derive(Debug, Clone, Serialize)]
pub struct Period {
    pub since: Option<String>,
    /// Its end, excluded: the end of the last day.
    pub until: Option<String>,
    pub said: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct Basis {
    pub opened: String,
    pub still_open: String,
    pub open_at_end: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct RuleRow {
    /// The rule's one name: a code rule's display name, a supply-chain
    /// rule's advisory and package.
    pub name: String,
    pub rule_id: String,
    /// As one column for people says it: a code rule's name with its
    /// id's last part, a supply-chain rule's name alone (its id is
    /// opaque).
    #[serde(skip)]
    pub shown: String,
    pub opened: u64,
    pub still_open: u64,
    pub open_at_end: i64,
}

#[derive(Debug, Clone, Serialize)]
pub struct RepositoryRow {
    pub name: String,
    pub opened: u64,
    pub still_open: u64,
    pub open_at_end: i64,
}

/// Prints the report of `filters` (their period: the period counted);
/// at most `max` rows a table. Returns how many rules opened findings
/// (for `--exit-code`).
pub async fn opened(
    client: &Client,
    filters: ReportFilters,
    output: &OutputArgs,
) -> Result<usize, Failure> {
    let format = output.format()?;
    // Saturating: a bound past usize is no bound (exact on 64 bits).
    let max_pages = usize::try_from(output.max_pages).unwrap_or(usize::MAX);
    let max = output
        .max
        .map_or(usize::MAX, |m| usize::try_from(m).unwrap_or(usize::MAX));
    let report = gather(client, filters, max_pages, max).await?;
    let rules = report.rules.len();
    let text = match format {
        Format::Json => to_json(&report)? + "\n",
        Format::Table | Format::Markdown => {
            let width = super::output_width(&output.file);
            for_people(&report, format, width)?
        }
        _ => {
            let mut out = Vec::new();
            rows_for_programs(&report).write(format, &mut out)?;
            String::from_utf8_lossy(&out).into_owned()
        }
    };
    let mut out = output.file.open()?;
    {
        let mut safe = findings_base::redact::ScrubWriter::new(&mut out);
        write!(safe, "{text}")?;
        safe.flush()?;
    }
    out.finish()?;
    Ok(rules)
}

/// Counts what was opened (following at most `max_pages` pages of each
/// count), asks the backlog at the period's end and the rules' names, all
/// at once where they can be; keeps the first `max` rows of each table.
pub(super) async fn gather(
    client: &Client,
    filters: ReportFilters,
    max_pages: usize,
    max: usize,
) -> Result<OpenedReport, Failure> {
    let req = GetReportRequest {
        filters: Some(filters.clone()),
    };
    let names_req = IssueFiltersRequest::default();
    let (counted, by_rule, by_project, values) = futures_util::join!(
        findings_client::opened_in_period(client, filters.clone(), max_pages),
        client.backlog_by_rule_report(&req),
        client.by_project_report(&req),
        client.issue_filters(&names_req),
    );
    let (counted, by_rule, by_project) = (counted?, by_rule?, by_project?);
    for (tally, what) in [
        (&counted.opened, "opened"),
        (&counted.still_open, "still open"),
    ] {
        if !tally.is_whole() {
            eprintln!(
                "findings: warning: {} findings counted as {what} where the report's total says {}: \
                 the findings changed while they were read",
                tally.counted,
                tally.total.unwrap_or(0)
            );
        }
    }
    let at_end = by_rule.buckets.last();
    let rules: Vec<(String, Opened)> = counted.rules().into_iter().take(max).collect();
    let names = RuleNames::with_values(
        client,
        rules.iter().map(|(id, _)| id.as_str()),
        counted.labels.clone(),
        values.ok(),
    )
    .await;
    let end_of = |id: &str| {
        at_end
            .and_then(|b| b.open.get(id))
            .and_then(|c| c.0)
            .unwrap_or(0)
    };
    let totals = counted.totals();
    Ok(OpenedReport {
        period: period(filters.time_period.as_ref()),
        opened: totals.opened,
        still_open: totals.still_open,
        open_at_end: at_end.map_or(0, |b| b.most_first().iter().map(|(_, n)| n).sum()),
        basis: basis(filters.time_period.as_ref()),
        rules: rules
            .iter()
            .map(|(id, n)| RuleRow {
                name: names.name(id),
                rule_id: id.clone(),
                shown: names.name_and_short_id(id),
                opened: n.opened,
                still_open: n.still_open,
                open_at_end: end_of(id),
            })
            .collect(),
        repositories: counted
            .repositories()
            .into_iter()
            .take(max)
            .map(|(name, n)| RepositoryRow {
                open_at_end: by_project
                    .by_project
                    .get(&name)
                    .map_or(0, BySeverity::total),
                name,
                opened: n.opened,
                still_open: n.still_open,
            })
            .collect(),
    })
}

/// The period as asked: `the 30 days 2026-10-03 to 2026-11-01 (UTC)` for
/// whole days (the last day included), else its bounds; `all time`.
fn period(p: Option<&TimePeriod>) -> Period {
    let time = |t: Option<Timestamp>| t.map(|t| t.to_rfc3339());
    Period {
        since: time(p.and_then(|p| p.since)),
        until: time(p.and_then(|p| p.until)),
        said: period_said(p),
    }
}

fn day(t: Timestamp) -> String {
    t.format("%Y-%m-%d").to_string()
}

fn moment(t: Timestamp) -> String {
    if t.time() == chrono::NaiveTime::MIN {
        day(t)
    } else {
        t.format("%Y-%m-%d %H:%M UTC").to_string()
    }
}

pub(super) fn period_said(p: Option<&TimePeriod>) -> String {
    let midnight = |t: &Timestamp| t.time() == chrono::NaiveTime::MIN;
    match p.map(|p| (p.since, p.until)) {
        Some((Some(a), Some(b))) if midnight(&a) && midnight(&b) && a < b => {
            let days = (b - a).num_days();
            let last = b - chrono::Duration::days(1);
            if days == 1 {
                format!("the day {} (UTC)", day(a))
            } else {
                format!("the {days} days {} to {} (UTC)", day(a), day(last))
            }
        }
        Some((Some(a), Some(b))) => format!("{} to {}", moment(a), moment(b)),
        Some((Some(a), None)) => format!("since {}", moment(a)),
        Some((None, Some(b))) => format!("before {}", moment(b)),
        _ => "all time".to_owned(),
    }
}

/// The end of the period as the backlog is counted at it: `the end of
/// 2026-11-01`, a moment, or `now` (all time).
fn end_said(p: Option<&TimePeriod>) -> String {
    match p.and_then(|p| p.until) {
        Some(t) if t.time() == chrono::NaiveTime::MIN => {
            format!("the end of {}", day(t - chrono::Duration::days(1)))
        }
        Some(t) => moment(t),
        None => "now".to_owned(),
    }
}

fn basis(p: Option<&TimePeriod>) -> Basis {
    let when = match period_said(p).as_str() {
        "all time" => "at any time".to_owned(),
        said => format!("in the period ({said})"),
    };
    Basis {
        opened: format!("findings created {when}, in any state now (the activity report's opened)"),
        still_open: "of those, open, reviewing or fixing now \
                     (report --report-type total-open's total)"
            .to_owned(),
        open_at_end: format!(
            "findings open at {}, whatever their age: the open backlog (backlog-by-rule, by-project)",
            end_said(p)
        ),
    }
}

/// A table's title: what it counts and its dates.
pub(super) fn title(r: &OpenedReport, what: &str, at_end: i64) -> String {
    let when = match r.period.said.as_str() {
        "all time" => "at any time (all time)".to_owned(),
        said => format!("in {said}"),
    };
    let end = match end_said_of(r) {
        now if now == "now" => now,
        end => format!("at {end}"),
    };
    let n = |v: u64| findings_base::text::thousands(i64::try_from(v).unwrap_or(i64::MAX));
    format!(
        "{what} by findings opened {when}: {} opened, {} of them still open. \
         Open at end: open {end}, whatever their age (the backlog): {}.",
        n(r.opened),
        n(r.still_open),
        findings_base::text::thousands(at_end)
    )
}

fn end_said_of(r: &OpenedReport) -> String {
    let parse = |t: &Option<String>| {
        t.as_deref()
            .and_then(|t| chrono::DateTime::parse_from_rfc3339(t).ok())
            .map(|t| t.with_timezone(&chrono::Utc))
    };
    let p = TimePeriod {
        since: parse(&r.period.since),
        until: parse(&r.period.until),
    };
    end_said(Some(&p))
}

/// The rules' table for people: each rule in one column, read from its
/// start (a supply-chain rule's opaque id left out: its name says it).
fn rule_table(r: &OpenedReport) -> Rows {
    let rules = r
        .rules
        .iter()
        .map(|x| (&x.shown, x.opened, x.still_open, x.open_at_end));
    table("RULE", rules).reading_from_start(&["RULE"])
}

fn repository_table(r: &OpenedReport) -> Rows {
    let repos = r
        .repositories
        .iter()
        .map(|x| (&x.name, x.opened, x.still_open, x.open_at_end));
    table("REPOSITORY", repos)
}

/// A name column, then what was opened, is still open and is open at end.
fn table<'a>(name: &'static str, rows: impl Iterator<Item = (&'a String, u64, u64, i64)>) -> Rows {
    let mut table = Rows::new(&[name, "OPENED", "STILL_OPEN", "OPEN_AT_END"]);
    for (shown, opened, still_open, open_at_end) in rows {
        table.push(vec![
            shown.clone(),
            opened.to_string(),
            still_open.to_string(),
            open_at_end.to_string(),
        ]);
    }
    table
}

/// The two tables, each under its title (wrapped to a table's width).
fn for_people(r: &OpenedReport, format: Format, width: usize) -> Result<String, Failure> {
    let mut out: Vec<u8> = Vec::new();
    let parts = [
        (title(r, "Rules", r.open_at_end), rule_table(r)),
        (title(r, "Repositories", r.open_at_end), repository_table(r)),
    ];
    for (i, (title, mut rows)) in parts.into_iter().enumerate() {
        if i > 0 {
            writeln!(out)?;
        }
        if format == Format::Table {
            for line in findings_base::text::wrap(&title, width) {
                writeln!(out, "{line}")?;
            }
            writeln!(out)?;
            rows.width = Some(width);
        } else {
            writeln!(out, "{title}\n")?;
        }
        if rows.rows.is_empty() {
            writeln!(out, "(none opened)")?;
        } else {
            rows.write(format, &mut out)?;
        }
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// One table for CSV and NDJSON: `BY` says whether a row is a rule's or a
/// repository's; ids kept (a supply-chain rule's too, beside its name).
fn rows_for_programs(r: &OpenedReport) -> Rows {
    let mut rows = Rows::new(&[
        "BY",
        "NAME",
        "RULE_ID",
        "OPENED",
        "STILL_OPEN",
        "OPEN_AT_END",
    ]);
    for rule in &r.rules {
        rows.push(vec![
            "rule".into(),
            rule.name.clone(),
            rule.rule_id.clone(),
            rule.opened.to_string(),
            rule.still_open.to_string(),
            rule.open_at_end.to_string(),
        ]);
    }
    for repo in &r.repositories {
        rows.push(vec![
            "repository".into(),
            repo.name.clone(),
            String::new(),
            repo.opened.to_string(),
            repo.still_open.to_string(),
            repo.open_at_end.to_string(),
        ]);
    }
    rows
}
