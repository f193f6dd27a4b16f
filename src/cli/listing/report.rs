//! `findings report`: Report findings, with the totals by type.

use super::output::{Progress, run_listing};
use super::{FilterArgs, offered, page_size, parse_enum, push_all, typed};
use crate::api::model::*;
use crate::api::{Client, pages};
use crate::cli::{Failure, OutputArgs, UsageError, offer};
use crate::export::Format;
use crate::filter_spec::{self as filters, REPORT_FILTERS};
use clap::{Args, ValueHint};
use futures_util::StreamExt;

#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Filters")]
pub struct ReportArgs {
    #[command(flatten)]
    filters: FilterArgs,
    /// total-open, total-fixed, total-ignored, total-provisionally-ignored,
    /// open-backlog, backlog-activity, project, guardrails-activity (or the enum name)
    #[arg(long, help_heading = "Report", value_name = "TYPE",
          value_parser = offer(ReportType::ALL.iter().map(ReportType::label)),
          hide_possible_values = true)]
    report_type: Option<String>,
    /// Only findings in this state, as the STATE column shows it: open, fixed,
    /// removed, ignored, ignored-in-code, ... (or the enum name)
    #[arg(long, help_heading = "Report", value_name = "STATE", value_parser = offer(typed(&AggregateState::names())),
          hide_possible_values = true)]
    finding_state: Option<String>,
    /// Start of one time bucket (with --filter timeBucketSize=week, default day)
    #[arg(long, help_heading = "Report", value_name = "TIME", value_hint = ValueHint::Other)]
    bucket_start: Option<String>,
    /// Severity: critical, high, medium, low (repeatable)
    #[arg(long = "severity", value_name = "LEVEL",
          value_parser = offer(offered(REPORT_FILTERS, "findingSeverities")),
          hide_possible_values = true)]
    severities: Vec<String>,
    /// Finding type: code, sca, secrets (repeatable)
    #[arg(long = "type", value_name = "TYPE",
          value_parser = offer(offered(REPORT_FILTERS, "findingTypes")),
          hide_possible_values = true)]
    types: Vec<String>,
    /// Project (repository) name (repeatable)
    #[arg(long = "repo", value_name = "NAME", value_hint = ValueHint::Other)]
    repos: Vec<String>,
    /// Rule id (repeatable)
    #[arg(long = "rule", value_name = "ID", value_hint = ValueHint::Other)]
    rules: Vec<String>,
    /// Team (repeatable)
    #[arg(long = "team", value_name = "NAME", value_hint = ValueHint::Other)]
    teams: Vec<String>,
    /// Project tag (repeatable)
    #[arg(long = "tag", value_name = "TAG", value_hint = ValueHint::Other)]
    tags: Vec<String>,
    #[command(flatten)]
    pub(in crate::cli) output: OutputArgs,
}

impl ReportArgs {
    pub fn request(&self) -> Result<ReportRequest, UsageError> {
        filters::check_flag(
            REPORT_FILTERS,
            "findingSeverities",
            "--severity",
            &self.severities,
        )?;
        filters::check_flag(REPORT_FILTERS, "findingTypes", "--type", &self.types)?;
        let mut pairs = Vec::new();
        push_all(&mut pairs, "findingSeverities", &self.severities);
        push_all(&mut pairs, "findingTypes", &self.types);
        push_all(&mut pairs, "projects", &self.repos);
        push_all(&mut pairs, "ruleIds", &self.rules);
        push_all(&mut pairs, "teams", &self.teams);
        push_all(&mut pairs, "tags", &self.tags);
        push_all(
            &mut pairs,
            "timePeriod.since",
            self.filters.since.as_slice(),
        );
        push_all(
            &mut pairs,
            "timePeriod.until",
            self.filters.until.as_slice(),
        );
        pairs.extend(self.filters.pairs()?);
        let report_type = self
            .report_type
            .as_deref()
            .map(|s| {
                parse_enum(
                    "report type",
                    s,
                    ReportType::parse_known,
                    ReportType::ALL,
                    ReportType::label,
                )
            })
            .transpose()?;
        let finding_state = self
            .finding_state
            .as_deref()
            .map(|s| {
                let names = AggregateState::names();
                filters::enum_value(&names, s)
                    .map(AggregateState::from_wire)
                    .ok_or_else(|| {
                        UsageError(format!(
                            "unknown finding state {s:?}; valid: {}",
                            filters::typed_names(&names).join(", ")
                        ))
                    })
            })
            .transpose()?;
        let bucket_start = self
            .bucket_start
            .as_deref()
            .map(|s| filters::parse_time(s).map_err(|e| UsageError(format!("--bucket-start: {e}"))))
            .transpose()?;
        Ok(ReportRequest {
            report_type,
            filters: filters::build(REPORT_FILTERS, "report", &pairs)?,
            limit: page_size(&self.output),
            bucket_start,
            finding_state,
            ..Default::default()
        })
    }
}

pub async fn report(client: &Client, req: ReportRequest, args: &ReportArgs) -> Result<(), Failure> {
    let format = args.output.format()?;
    if format == Format::Json {
        return report_json(client, req, &args.output).await;
    }
    let mut totals_shown = false;
    run_listing(
        client,
        req,
        &args.output,
        format,
        |page: ReportResponse| page.findings,
        |page: &ReportResponse, out: &mut dyn std::io::Write| {
            // The totals head a table; other formats carry items only.
            if format == Format::Table && !totals_shown {
                totals_shown = true;
                writeln!(out, "{}\n", totals_line(page))?;
            }
            Ok(())
        },
    )
    .await
    .map(|_| ())
}

pub fn totals_line(page: &ReportResponse) -> String {
    let n = |v: Option<i64>| v.unwrap_or(0);
    format!(
        "Total {}   Code {}   Supply chain {}   Secrets {}",
        n(page.total),
        n(page.total_code),
        n(page.total_sca),
        n(page.total_secrets)
    )
}

/// `--format json` of `report` is the response shape: the totals of the
/// first page, the findings of every page fetched, and the cursor to go on.
async fn report_json(
    client: &Client,
    req: ReportRequest,
    output: &OutputArgs,
) -> Result<(), Failure> {
    let mut out = output.file.open()?;
    let mut stream = Box::pin(pages(client.clone(), req));
    let mut combined: Option<ReportResponse> = None;
    let mut progress = Progress::new();
    let max = output.max.map(|m| m as usize);
    while let Some(page) = stream.next().await {
        let page = page?;
        let cursor = page.cursor.clone();
        let all = combined.get_or_insert_with(|| ReportResponse {
            findings: Vec::new(),
            ..page.clone()
        });
        all.findings.extend(page.findings);
        all.cursor = cursor;
        progress.page(all.findings.len());
        if let Some(m) = max
            && all.findings.len() >= m
        {
            all.findings.truncate(m);
            break;
        }
        if !output.all && max.is_none() {
            break;
        }
    }
    progress.done();
    crate::json::write_pretty(&mut out, &combined.unwrap_or_default())?;
    out.finish()
}
