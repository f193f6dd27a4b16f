//! The review as Markdown: a heading per section, a table of its figures
//! (cells escaped by the export crate's Markdown).

use super::{SECTIONS, Severities, Summary, age_said};
use findings_export::markdown::{cell, header, row};
use std::fmt::Write;

/// The whole page.
pub fn page(s: &Summary) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# {}\n", title(s));
    for (i, title) in SECTIONS.iter().enumerate() {
        let _ = writeln!(out, "## {title}\n");
        out.push_str(&section(i, s));
        out.push('\n');
    }
    out
}

/// "since 2026-10-26 (weekly buckets)", or "all time".
/// "Findings review of deployment 1234: 2026-10-26 to 2026-11-28, by week".
pub fn title(s: &Summary) -> String {
    format!(
        "Findings review of deployment {}: {}",
        findings_base::text::one_line(&s.period.deployment),
        period_said(s)
    )
}

/// The period in words: its first and last days, both included, and its
/// length when it is whole days ("2026-10-03 to 2026-11-01 (30 days)").
pub fn period_said(s: &Summary) -> String {
    let parse = |t: &str| chrono::DateTime::parse_from_rfc3339(t).ok();
    let whole = match (s.period.since.as_deref(), s.period.until.as_deref()) {
        (Some(a), Some(b)) => parse(a).zip(parse(b)).filter(|(a, b)| {
            a.time() == chrono::NaiveTime::MIN && b.time() == chrono::NaiveTime::MIN && a < b
        }),
        _ => None,
    };
    if let Some((a, b)) = whole {
        let last = b - chrono::Duration::days(1);
        return format!(
            "{} to {} ({} days), by {}",
            a.format("%Y-%m-%d"),
            last.format("%Y-%m-%d"),
            (b - a).num_days(),
            s.period.bucket
        );
    }
    let since = s.period.since.as_deref().map(|t| t.get(..10).unwrap_or(t));
    let until = s.period.until.as_deref().map(|t| t.get(..10).unwrap_or(t));
    let span = match (since, until) {
        (Some(a), Some(b)) => format!("{a} to {b}"),
        (Some(a), None) => format!("since {a}"),
        (None, Some(b)) => format!("until {b}"),
        (None, None) => "all time".to_owned(),
    };
    format!("{span}, by {}", s.period.bucket)
}

fn section(i: usize, s: &Summary) -> String {
    match i {
        0 => table(
            &["all", "code", "supply chain", "secrets"],
            [[
                s.totals.all,
                s.totals.code,
                s.totals.supply_chain,
                s.totals.secrets,
            ]
            .map(|n| n.to_string())
            .to_vec()],
        ),
        1 => table(
            &["critical", "high", "medium", "low", "all"],
            [severity_cells(&s.open_by_severity)],
        ),
        2 => activity(s),
        3 => table(
            &["repository", "critical", "high", "medium", "low", "open"],
            s.worst_repositories.iter().map(|r| {
                let mut cells = vec![r.name.clone()];
                cells.extend(severity_cells(&r.open));
                cells
            }),
        ),
        4 => table(
            &["rule", "rule id", "open"],
            s.top_rules
                .iter()
                .map(|r| vec![r.name.clone(), r.id.clone(), r.open.to_string()]),
        ),
        5 => opened(s),
        6 => table(
            &["bucket", "critical", "high", "medium", "low", "all"],
            s.backlog.iter().map(|b| {
                let mut cells = vec![b.start.clone()];
                cells.extend(severity_cells(&b.open));
                cells
            }),
        ),
        7 => table(
            &[
                "severity",
                "median days open",
                "target days",
                "against target",
            ],
            s.open_age.iter().map(|a| {
                vec![
                    a.severity.to_owned(),
                    a.median_days.map_or(String::new(), |d| d.to_string()),
                    a.target_days.to_string(),
                    age_said(a.over_by),
                ]
            }),
        ),
        _ => overdue(s),
    }
}

/// The rules and repositories by the findings opened in the period, each
/// table under its basis (as `--kind opened` says it).
fn opened(s: &Summary) -> String {
    let o = &s.opened_in_period;
    let rules = table(
        &["rule", "opened", "still open", "open at end"],
        o.rules.iter().map(|r| {
            vec![
                r.shown.clone(),
                r.opened.to_string(),
                r.still_open.to_string(),
                r.open_at_end.to_string(),
            ]
        }),
    );
    let repositories = table(
        &["repository", "opened", "still open", "open at end"],
        o.repositories.iter().map(|r| {
            vec![
                r.name.clone(),
                r.opened.to_string(),
                r.still_open.to_string(),
                r.open_at_end.to_string(),
            ]
        }),
    );
    format!(
        "{}

{rules}
{}

{repositories}",
        cell(&super::super::opened::title(o, "Rules", o.open_at_end)),
        cell(&super::super::opened::title(
            o,
            "Repositories",
            o.open_at_end
        ))
    )
}

fn severity_cells(c: &Severities) -> Vec<String> {
    c.named().iter().map(|(_, n)| n.to_string()).collect()
}

/// A table; "None." when it has no rows.
fn table(names: &[&str], rows: impl IntoIterator<Item = Vec<String>>) -> String {
    let mut out = String::new();
    for cells in rows {
        let _ = writeln!(out, "{}", row(cells.iter().map(String::as_str)));
    }
    if out.is_empty() {
        return "None.\n".to_owned();
    }
    format!("{}\n{out}", header(names.iter().copied()))
}

fn activity(s: &Summary) -> String {
    let a = &s.activity;
    let names: Vec<&str> = ["", "opened", "fixed", "ignored", "provisionally ignored"]
        .into_iter()
        .chain(["removed", "net"])
        .collect();
    let line = |label: &str, f: &super::ActivityFigures| {
        let mut cells = vec![label.to_owned()];
        cells.extend(f.named().iter().map(|(_, n)| n.to_string()));
        cells
    };
    let mut rows = vec![line(rows_label(s), &a.now)];
    rows.extend(a.previous.as_ref().map(|p| line("the period before", p)));
    let mut out = String::new();
    if let Some(said) = &a.said {
        let _ = writeln!(out, "{}\n", cell(said));
    }
    out.push_str(&table(&names, rows));
    out
}

fn overdue(s: &Summary) -> String {
    let o = &s.overdue;
    let by: Vec<String> = o.count.named()[..4]
        .iter()
        .map(|(name, n)| format!("{name} {n}"))
        .collect();
    let mut out = format!(
        "{} open finding{} past {} target: {}.\n",
        o.count.all,
        if o.count.all == 1 { " is" } else { "s are" },
        if o.count.all == 1 { "its" } else { "their" },
        by.join(" · ")
    );
    if o.undated > 0 {
        let _ = writeln!(
            out,
            "{} open findings came without a first detection and are not counted.",
            o.undated
        );
    }
    if !o.findings.is_empty() {
        let _ = writeln!(out, "\nThe most overdue:\n");
        out.push_str(&table(
            &[
                "id",
                "severity",
                "rule",
                "repository",
                "age (days)",
                "days over target",
            ],
            o.findings.iter().map(|f| {
                vec![
                    f.id.clone(),
                    f.severity.clone(),
                    f.rule.clone(),
                    f.repository.clone(),
                    f.age_days.to_string(),
                    f.days_over_target.to_string(),
                ]
            }),
        ));
    }
    out
}

/// What the activity's rows added up cover: the period chosen, or all
/// time.
pub fn rows_label(s: &Summary) -> &'static str {
    if s.period.since.is_some() {
        "this period"
    } else {
        "all time"
    }
}
