//! `findings report`: Report findings, with the totals by type.

use super::columns::{ColumnsArgs, with_context};
use super::names::Names;
use super::output::{Writing, run_listing};
use super::raw_report::{RawReportPage, RawReportRequest};
use super::{FilterArgs, LISTS_HELP, list, offered, page_size, parse_enum, push_all, typed};
use crate::progress::Progress;
use crate::scripting::Script;
use crate::{Failure, OutputArgs, UsageError, offer};
use clap::{Args, ValueHint};
use findings_client::{Client, Follow, ListedReportRequest, SarifReportRequest, pages_following};
use findings_export::Format;
use findings_model::*;
use findings_requests::filter_spec::{self as filters, REPORT_FILTERS};
use futures_util::StreamExt;

#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Filters", after_help = LISTS_HELP)]
pub struct ReportArgs {
    #[command(flatten)]
    filters: FilterArgs,
    /// What to print: findings (the report's findings, the default), or one
    /// of the dashboard's reports of the same filters: activity (opened,
    /// fixed, ignored per bucket, and this period against the one before),
    /// by-project (open findings by repository and severity),
    /// backlog-by-rule, backlog-by-severity, open-age (median days open);
    /// opened: the rules and the repositories by the findings opened in
    /// the period (all, and still open of them), beside the open backlog
    /// at its end, most opened first ("the top rules this month"; --max N
    /// keeps the first N of each); or summary, the monthly review of them
    /// all in one page (with the findings past their target): --format
    /// markdown (the default), html (one self-contained file) or json;
    /// --exit-code N exits N when open findings are past their target
    #[arg(long, help_heading = "Report", value_name = "KIND",
          value_parser = offer(super::dashboard::KINDS), hide_possible_values = true)]
    pub kind: Option<String>,
    /// A --kind report's bucket: day, week or month (default week)
    #[arg(long, help_heading = "Report", value_name = "SIZE",
          value_parser = offer(["day", "week", "month"]), hide_possible_values = true)]
    bucket: Option<String>,
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
    /// Severity: critical, high, medium, low (LIST)
    #[arg(long = "severity", value_name = "LEVEL",
          value_parser = offer(offered(REPORT_FILTERS, "findingSeverities")),
          hide_possible_values = true)]
    severities: Vec<String>,
    /// Finding type: code, sca, secrets (LIST)
    #[arg(long = "type", value_name = "TYPE",
          value_parser = offer(offered(REPORT_FILTERS, "findingTypes")),
          hide_possible_values = true)]
    types: Vec<String>,
    /// Project (repository) name, as the deployment has it (LIST; one it
    /// does not have is refused with the closest it has)
    #[arg(long = "repo", value_name = "NAME", value_hint = ValueHint::Other)]
    repos: Vec<String>,
    /// Rule: its full id, or the name the RULE column shows (use-of-md5),
    /// which stands for every rule of that name (LIST)
    #[arg(long = "rule", value_name = "RULE", value_hint = ValueHint::Other)]
    rules: Vec<String>,
    /// Team (LIST)
    #[arg(long = "team", value_name = "NAME", value_hint = ValueHint::Other)]
    teams: Vec<String>,
    /// Project tag (LIST)
    #[arg(long = "tag", value_name = "TAG", value_hint = ValueHint::Other)]
    tags: Vec<String>,
    /// Only findings created at or after TIME: the report's
    /// timePeriod.since, which reads the creation time (`issues --since`
    /// reads relevant-since instead). TIME: RFC 3339, YYYY-MM-DD, or
    /// 7d/12h/2w ago
    #[arg(long, value_name = "TIME", help_heading = "Time", value_hint = ValueHint::Other)]
    since: Option<String>,
    /// The last SPAN (30d, 12w, 24h), exactly: a span of days ends at the
    /// end of today (UTC), so a rerun within the day reports the same
    /// period; a bucket shorter than its size is said with its days
    #[arg(long, value_name = "SPAN", help_heading = "Time", value_hint = ValueHint::Other,
          conflicts_with_all = ["since", "until"])]
    period: Option<String>,
    /// Only findings created before TIME: timePeriod.until (as `issues
    /// --until`)
    #[arg(long, value_name = "TIME", help_heading = "Time", value_hint = ValueHint::Other)]
    until: Option<String>,
    #[command(flatten)]
    pub(crate) columns: ColumnsArgs,
    /// The open-age targets of the age columns: the profile's, once the
    /// settings are read ([`ReportArgs::set_targets`]).
    #[arg(skip)]
    targets: findings_model::SlaDays,
    #[command(flatten)]
    pub(crate) output: OutputArgs,
}

impl ReportArgs {
    /// The open-age targets of the age columns (the profile's).
    pub fn set_targets(&mut self, targets: findings_model::SlaDays) {
        self.targets = targets;
    }

    /// The dashboard report `--kind` asks for (`None`: the findings).
    pub fn kind(&self) -> Result<Option<super::dashboard::Kind>, UsageError> {
        super::dashboard::kind(self.kind.as_deref())
    }

    /// The buckets the request asks for: `--bucket`, or for a `--kind`
    /// report weeks (said in the request, so that its buckets and the
    /// period's start agree whatever a server's default); none for the
    /// findings. A typo is an error, not some other size.
    fn bucket_size(&self) -> Result<Option<TimeBucketSize>, UsageError> {
        match self.bucket.as_deref() {
            None => Ok(self.kind.is_some().then_some(TimeBucketSize::Week)),
            Some("day") => Ok(Some(TimeBucketSize::Day)),
            Some("week") => Ok(Some(TimeBucketSize::Week)),
            Some("month") => Ok(Some(TimeBucketSize::Month)),
            Some(other) => Err(UsageError(format!(
                "--bucket {:?}: day, week or month",
                findings_base::text::one_line(other)
            ))),
        }
    }

    /// The request the flags ask for, every name checked by `names`.
    pub fn request(&self, names: &Names) -> Result<ReportRequest, UsageError> {
        let (severities, types) = (list(&self.severities), list(&self.types));
        filters::check_flag(
            REPORT_FILTERS,
            "findingSeverities",
            "--severity",
            &severities,
        )?;
        filters::check_flag(REPORT_FILTERS, "findingTypes", "--type", &types)?;
        let (repos, teams, tags) = (list(&self.repos), list(&self.teams), list(&self.tags));
        names.check("projects", "--repo", &repos)?;
        names.check("teams", "--team", &teams)?;
        names.check("tags", "--tag", &tags)?;
        let rules = names.rule_ids("--rule", &list(&self.rules))?;
        let mut pairs = Vec::new();
        push_all(&mut pairs, "findingSeverities", &severities);
        push_all(&mut pairs, "findingTypes", &types);
        push_all(&mut pairs, "projects", &repos);
        push_all(&mut pairs, "ruleIds", &rules);
        push_all(&mut pairs, "teams", &teams);
        push_all(&mut pairs, "tags", &tags);
        let bucket = self.bucket_size()?;
        // The last SPAN, exactly (TimePeriod::last): the same period in
        // every command and in the TUI, the same within the day.
        let period = match &self.period {
            None => None,
            Some(span) => match filters::parse_point(span) {
                Ok(filters::Point::Span(back)) => {
                    let now = findings_requests::clock::now().map_err(UsageError)?;
                    Some(TimePeriod::last(back, now))
                }
                _ => {
                    return Err(UsageError(format!(
                        "--period {span:?}: a span back from now (30d, 12w, 24h); \
                         for a fixed start use --since"
                    )));
                }
            },
        };
        let time = |t: Option<Timestamp>| t.map(|t| t.to_rfc3339());
        let (period_since, period_until) =
            period.map_or((None, None), |p| (time(p.since), time(p.until)));
        push_all(&mut pairs, "timePeriod.since", self.since.as_slice());
        push_all(&mut pairs, "timePeriod.since", period_since.as_slice());
        push_all(&mut pairs, "timePeriod.until", self.until.as_slice());
        push_all(&mut pairs, "timePeriod.until", period_until.as_slice());
        let given = self.filters.pairs(REPORT_FILTERS)?;
        pairs.extend(names.check_pairs(given)?);
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
        let mut built: Option<ReportFilters> = filters::build(REPORT_FILTERS, "report", &pairs)?;
        if let Some(size) = bucket {
            built.get_or_insert_with(Default::default).time_bucket_size = Some(size);
        }
        Ok(ReportRequest {
            report_type,
            filters: built,
            limit: page_size(&self.output),
            bucket_start,
            finding_state,
            ..Default::default()
        })
    }
}

/// Lists the report's findings; returns how many were printed (for
/// `--exit-code`).
pub async fn report(
    client: &Client,
    req: ReportRequest,
    args: &ReportArgs,
    script: &Script,
) -> Result<usize, Failure> {
    let format = args.output.format()?;
    if format == Format::Json && !script.selects() {
        return report_json(client, req, &args.output).await;
    }
    if script.selects() || format == Format::Ndjson {
        // The findings exactly as the server sent them, without decoding
        // them into the model and encoding them again.
        return run_listing(
            client,
            RawReportRequest::new(req),
            &args.output,
            Writing {
                format,
                script,
                columns: None,
            },
            |page: RawReportPage| page.findings,
            |_, _| Ok(()),
        )
        .await;
    }
    if matches!(format, Format::Csv | Format::Table | Format::Markdown) {
        let columns = with_context(args.columns.chosen(format, script)?, args.targets)?;
        // Only the columns' fields are decoded: the rest is skipped unread.
        let mut totals_shown = false;
        return run_listing(
            client,
            ListedReportRequest::new(req),
            &args.output,
            Writing {
                format,
                script,
                columns,
            },
            |page: ListedReportPage| page.findings.into_iter().map(Issue::from).collect(),
            |page: &ListedReportPage, out: &mut dyn std::io::Write| {
                // The totals head a table; other formats carry items only.
                if format == Format::Table && !totals_shown {
                    totals_shown = true;
                    writeln!(out, "{}\n", totals_line(&page.totals))?;
                }
                Ok(())
            },
        )
        .await;
    }
    // SARIF, the one format left: only what a result and its rule read is
    // decoded.
    run_listing(
        client,
        SarifReportRequest::new(req),
        &args.output,
        Writing {
            format,
            script,
            columns: None,
        },
        |page: SarifReportPage| page.findings.into_iter().map(Issue::from).collect(),
        |_, _| Ok(()),
    )
    .await
}

/// `Total 1,098   Code 646   Supply chain 304   Secrets 148`, of a report's
/// total, code, supply-chain and secrets totals.
pub fn totals_line(t: &ReportTotals) -> String {
    let [total, code, sca, secrets] = [t.total, t.total_code, t.total_sca, t.total_secrets]
        .map(|v| findings_base::text::thousands(v.unwrap_or(0)));
    format!("Total {total}   Code {code}   Supply chain {sca}   Secrets {secrets}")
}

/// `--format json` of `report` is the response shape: the totals of the
/// first page, the findings of every page fetched, and the cursor to go on.
/// Streamed: the findings are written as their pages arrive (the totals
/// first, the cursor last), so memory stays flat however many pages
/// `--all` follows. A listing cut short leaves the document unclosed.
async fn report_json(
    client: &Client,
    req: ReportRequest,
    output: &OutputArgs,
) -> Result<usize, Failure> {
    let mut dest = output.file.open()?;
    let mut doc = ReportDocument::new(&mut dest);
    // Saturating: a bound past usize is no bound (exact on 64 bits).
    let max = output.max.map(|m| usize::try_from(m).unwrap_or(usize::MAX));
    let follow = Follow::every_page(output.all && max.is_none());
    let mut stream = Box::pin(pages_following(
        client.clone(),
        RawReportRequest::new(req),
        // Saturating: a bound past usize is no bound (exact on 64 bits).
        usize::try_from(output.max_pages).unwrap_or(usize::MAX),
        follow,
    ));
    let mut progress = Progress::new("report", "findings");
    let mut cursor = None;
    while let Some(page) = stream.next().await {
        let mut page = match page {
            Ok(page) => page,
            Err(e) => {
                progress.done();
                let n = doc.findings;
                doc.abandon()?;
                if n > 0 {
                    match output.file.path() {
                        Some(path) => eprintln!(
                            "findings: partial: {n} findings fetched before the error; {} was not written",
                            path.display()
                        ),
                        None => eprintln!(
                            "findings: partial: {n} findings written before the error; the JSON is left unclosed"
                        ),
                    }
                }
                dest.abandon();
                return Err(e.into());
            }
        };
        cursor = page.cursor.take();
        let findings = std::mem::take(&mut page.findings);
        doc.head(&page.totals)?;
        for finding in &findings {
            if max.is_some_and(|m| doc.findings >= m) {
                break;
            }
            doc.finding(finding.json())?;
        }
        progress.update(doc.findings as u64, None);
        if max.is_some_and(|m| doc.findings >= m) || (!output.all && max.is_none()) {
            break;
        }
    }
    progress.done();
    let written = doc.findings;
    doc.finish(cursor.as_deref())?;
    dest.finish()?;
    Ok(written)
}

/// A report's JSON document written piece by piece: the totals
/// pretty-printed as serde_json would, each finding as the server sent it
/// on a line of its own (as `issues --format json` writes its items), the
/// secrets of the process masked.
struct ReportDocument<W: std::io::Write> {
    out: std::io::BufWriter<findings_base::redact::ScrubWriter<W>>,
    head_written: bool,
    findings: usize,
}

impl<W: std::io::Write> ReportDocument<W> {
    fn new(out: W) -> Self {
        ReportDocument {
            out: std::io::BufWriter::new(findings_base::redact::ScrubWriter::new(out)),
            head_written: false,
            findings: 0,
        }
    }

    /// The totals (every field of the first page but its findings and
    /// cursor), once, and the start of the findings.
    fn head(&mut self, totals: &ReportTotals) -> std::io::Result<()> {
        use std::io::Write;
        if self.head_written {
            return Ok(());
        }
        self.head_written = true;
        let totals = findings_base::json::pretty(totals).map_err(std::io::Error::other)?;
        match totals.strip_suffix("\n}") {
            // `{\n  "total": ...` and its last field: the findings follow.
            Some(open) => write!(self.out, "{open},\n  \"findings\": [")?,
            None => write!(self.out, "{{\n  \"findings\": [")?,
        }
        Ok(())
    }

    /// One finding, as the server sent it, on one line.
    fn finding(&mut self, text: &str) -> std::io::Result<()> {
        use std::io::Write;
        let sep = if self.findings == 0 { "" } else { "," };
        write!(self.out, "{sep}\n    {text}")?;
        self.findings += 1;
        Ok(())
    }

    /// Closes the findings, adds the cursor to go on, closes the document.
    fn finish(mut self, cursor: Option<&str>) -> std::io::Result<()> {
        use std::io::Write;
        if !self.head_written {
            self.head(&ReportTotals::default())?;
        }
        if self.findings == 0 {
            write!(self.out, "]")?;
        } else {
            write!(self.out, "\n  ]")?;
        }
        if let Some(cursor) = cursor.filter(|c| !c.is_empty()) {
            let cursor = findings_base::json::pretty(cursor).map_err(std::io::Error::other)?;
            write!(self.out, ",\n  \"cursor\": {cursor}")?;
        }
        writeln!(self.out, "\n}}")?;
        self.abandon()
    }

    /// Pushes out what was written, as it is.
    fn abandon(self) -> std::io::Result<()> {
        self.out
            .into_inner()
            .map_err(std::io::IntoInnerError::into_error)?
            .finish()
            .map(drop)
    }
}

#[cfg(test)]
mod listed_tests {
    use super::*;
    use findings_export::Record;

    #[test]
    fn the_columns_and_totals_of_a_listed_report_page_are_those_of_the_whole_page() {
        let items: Vec<IssueItem> =
            serde_json::from_str(include_str!("../../../../assets/pack-samples.json")).unwrap();
        let page = ReportResponse {
            findings: items.into_iter().filter_map(|i| i.issue).collect(),
            cursor: Some("c".into()),
            total: Some(1098),
            total_code: Some(646),
            total_sca: Some(304),
            total_secrets: Some(148),
        };
        let json = findings_base::json::encode(&page).unwrap();
        let listed: ListedReportPage = findings_base::json::decode(&json).unwrap();
        assert_eq!(listed.cursor, page.cursor);
        assert_eq!(listed.totals, page.totals());
        assert_eq!(
            totals_line(&listed.totals),
            "Total 1,098   Code 646   Supply chain 304   Secrets 148"
        );
        assert_eq!(listed.findings.len(), page.findings.len());
        assert!(!page.findings.is_empty());
        for (slim, whole) in listed.findings.into_iter().zip(&page.findings) {
            assert_eq!(Issue::from(slim).cells(), whole.cells());
        }
    }
}

#[cfg(test)]
mod bucket_tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Line {
        #[command(flatten)]
        report: ReportArgs,
    }

    fn args(line: &[&str]) -> ReportArgs {
        Line::try_parse_from([&["report"], line].concat())
            .unwrap()
            .report
    }

    /// A typo in `--bucket` is an error, not weeks; a `--kind` report says
    /// its weeks in the request, so that its buckets agree whatever a
    /// server's default; `--period` is the span asked, exactly.
    #[test]
    fn the_bucket_is_one_of_three_and_a_kind_report_says_it() {
        let e = args(&["--kind", "activity", "--bucket", "dya"])
            .bucket_size()
            .unwrap_err();
        assert!(e.0.contains("day, week or month"), "{}", e.0);
        let sizes = [
            (&["--bucket", "month"][..], Some(TimeBucketSize::Month)),
            (
                &["--kind", "activity", "--bucket", "day"][..],
                Some(TimeBucketSize::Day),
            ),
            (&["--kind", "activity"][..], Some(TimeBucketSize::Week)),
            (&[][..], None),
        ];
        for (line, size) in sizes {
            assert_eq!(args(line).bucket_size().unwrap(), size, "{line:?}");
        }
        let request = args(&["--kind", "activity", "--period", "28d"])
            .request(&Names::unchecked(crate::filter_spec::REPORT_NAMES))
            .unwrap();
        let filters = request.filters.unwrap();
        assert_eq!(filters.time_bucket_size, Some(TimeBucketSize::Week));
        // The period asked, exactly: 28 days to the end of today.
        let period = filters.time_period.unwrap();
        let (since, until) = (period.since.unwrap(), period.until.unwrap());
        assert_eq!(until - since, chrono::Duration::days(28), "{since} {until}");
        assert_eq!(until, TimeBucketSize::Day.floor(until), "{until}");
        let now = chrono::Utc::now();
        assert!(
            until > now && until - now <= chrono::Duration::days(1),
            "{until}"
        );
    }
}
