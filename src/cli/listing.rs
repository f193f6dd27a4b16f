//! `findings issues`, `report` and `search`: build the request from flags,
//! follow cursors, stream items out.

use super::{Failure, OutputArgs, UsageError, offer};
use crate::api::model::*;
use crate::api::{ApiError, Client, Page, PagedRequest, pages};
use crate::export::{Format, Record, Writer};
use crate::filter_spec::{self as filters, LIST_FILTER, REPORT_FILTERS, SEARCH_FILTERS};
use clap::{Args, ValueHint};
use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use std::io::{IsTerminal, Write};

/// Filter flags every listing has.
#[derive(Args, Debug, Clone)]
pub struct FilterArgs {
    /// Any field of the operation's filter object, by its spec name
    /// (repeat for more values), e.g. --filter repositoryNames=acme/api
    #[arg(long = "filter", value_name = "FIELD=VALUE", value_hint = ValueHint::Other)]
    filter: Vec<String>,
    /// Only since this time (RFC 3339, YYYY-MM-DD, or 7d/12h/2w ago)
    #[arg(long, value_name = "TIME", value_hint = ValueHint::Other)]
    since: Option<String>,
    /// Only before this time
    #[arg(long, value_name = "TIME", value_hint = ValueHint::Other)]
    until: Option<String>,
}

impl FilterArgs {
    fn pairs(&self) -> Result<Vec<(String, String)>, UsageError> {
        self.filter
            .iter()
            .map(|raw| filters::split_pair(raw))
            .collect()
    }
}

fn push_all(pairs: &mut Vec<(String, String)>, field: &str, values: &[String]) {
    pairs.extend(values.iter().map(|v| (field.to_owned(), v.clone())));
}

fn direction(asc: bool, desc: bool) -> Option<SortDirection> {
    match (asc, desc) {
        (true, _) => Some(SortDirection::Asc),
        (_, true) => Some(SortDirection::Desc),
        _ => None,
    }
}

// What shell completion offers for the flags that name an enum's values
// (each flag also takes the spec's enum names, e.g. `ISSUE_TYPE_SCA`, and
// checks its values itself; a unit test of `cli` checks it takes these).
const ISSUE_TYPES: [&str; 5] = ["sast", "sca", "secrets", "research", "ai-sast"];
const FINDING_TYPES: [&str; 3] = ["code", "sca", "secrets"];
const FINDING_SEVERITIES: [&str; 4] = ["critical", "high", "medium", "low"];
const FINDING_STATES: [&str; 9] = [
    "open",
    "reviewing",
    "fixing",
    "fixed",
    "removed",
    "ignored-app",
    "ignored-code",
    "provisionally-ignored-app",
    "unknown",
];
const INCLUDES: [&str; 4] = ["remediation", "activity", "archived", "first-detected"];

fn parse_enum<T: Clone>(
    what: &str,
    input: &str,
    parse: impl Fn(&str) -> Option<T>,
    all: &[T],
    name: impl Fn(&T) -> &str,
) -> Result<T, UsageError> {
    parse(input).ok_or_else(|| {
        let names: Vec<&str> = all.iter().map(&name).collect();
        UsageError(format!(
            "unknown {what} {input:?}; valid: {}",
            names.join(", ")
        ))
    })
}

// ------------------------------------------------------------------- issues

#[derive(Args, Debug, Clone)]
pub struct IssuesArgs {
    #[command(flatten)]
    filters: FilterArgs,
    /// Issue type: sast, sca, secrets, research, ai-sast (repeatable)
    #[arg(long = "type", value_name = "TYPE", value_parser = offer(ISSUE_TYPES),
          hide_possible_values = true)]
    types: Vec<String>,
    /// Repository name (repeatable)
    #[arg(long = "repo", value_name = "NAME", value_hint = ValueHint::Other)]
    repos: Vec<String>,
    /// Rule id (repeatable)
    #[arg(long = "rule", value_name = "ID", value_hint = ValueHint::Other)]
    rules: Vec<String>,
    /// Branch (repeatable)
    #[arg(long = "ref", value_name = "REF", value_hint = ValueHint::Other)]
    refs: Vec<String>,
    /// Codeowner team (repeatable)
    #[arg(long = "team", value_name = "NAME", value_hint = ValueHint::Other)]
    teams: Vec<String>,
    /// File or folder path (repeatable)
    #[arg(long = "path", value_name = "PATH", value_hint = ValueHint::AnyPath)]
    paths: Vec<String>,
    /// CVE or advisory id (repeatable)
    #[arg(long = "cve", value_name = "ID", value_hint = ValueHint::Other)]
    cves: Vec<String>,
    /// Not a filter of List issues: explains where severity filters live
    #[arg(long, hide = true, value_hint = ValueHint::Other)]
    severity: Vec<String>,
    /// Sort: severity, ref, repo, rule, relevant-since, state
    #[arg(long, value_name = "FIELD", value_parser = offer(SortBy::ALL.iter().map(SortBy::label)),
          hide_possible_values = true)]
    sort: Option<String>,
    /// Ascending order
    #[arg(long, conflicts_with = "desc")]
    asc: bool,
    /// Descending order
    #[arg(long)]
    desc: bool,
    /// Extra data per finding: remediation, activity, archived, first-detected
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = offer(INCLUDES),
          hide_possible_values = true)]
    include: Vec<String>,
    #[command(flatten)]
    output: OutputArgs,
}

impl IssuesArgs {
    pub fn request(&self) -> Result<ListIssuesRequest, UsageError> {
        if !self.severity.is_empty() {
            return Err(UsageError(
                "List issues has no severity filter; use `findings report --severity LEVEL`, or sort with --sort severity".into(),
            ));
        }
        let mut pairs = Vec::new();
        push_all(&mut pairs, "issueTypes", &self.types);
        push_all(&mut pairs, "repositoryNames", &self.repos);
        push_all(&mut pairs, "ruleIds", &self.rules);
        push_all(&mut pairs, "refs", &self.refs);
        push_all(&mut pairs, "teamNames", &self.teams);
        push_all(&mut pairs, "filePaths", &self.paths);
        push_all(&mut pairs, "cves", &self.cves);
        push_all(&mut pairs, "since", self.filters.since.as_slice());
        push_all(&mut pairs, "until", self.filters.until.as_slice());
        pairs.extend(self.filters.pairs()?);
        let filter: Option<ListIssuesFilter> = filters::build(LIST_FILTER, "issues", &pairs)?;
        let sort_by = self
            .sort
            .as_deref()
            .map(|s| {
                parse_enum(
                    "sort field",
                    s,
                    SortBy::parse_known,
                    SortBy::ALL,
                    SortBy::label,
                )
            })
            .transpose()?;
        let mut req = ListIssuesRequest {
            filter,
            sort_by,
            sort_direction: direction(self.asc, self.desc),
            limit: page_size(&self.output),
            ..Default::default()
        };
        for flag in &self.include {
            match flag.trim() {
                "remediation" => req.include_remediation = Some(true),
                "activity" | "activity-history" => req.include_activity_history = Some(true),
                "archived" | "is-archived" => req.include_is_archived = Some(true),
                "first-detected" | "first-detected-at" => {
                    req.include_first_detected_at = Some(true)
                }
                "" => {}
                other => {
                    return Err(UsageError(format!(
                        "unknown --include {other:?}; valid: remediation, activity, archived, first-detected"
                    )));
                }
            }
        }
        Ok(req)
    }
}

/// The page size to ask for: `--limit`, else no more than `--max` needs.
fn page_size(output: &OutputArgs) -> Option<i64> {
    output
        .limit
        .or_else(|| output.max.map(|m| m.min(100) as i64))
}

pub async fn issues(
    client: &Client,
    req: ListIssuesRequest,
    args: &IssuesArgs,
) -> Result<(), Failure> {
    let format = args.output.format()?;
    if matches!(format, Format::Json | Format::Ndjson) {
        // The items exactly as the server sent them, without decoding them
        // into the model and encoding them again.
        return run_listing(
            client,
            RawListRequest(req),
            &args.output,
            format,
            |page: RawListPage| page.issues.unwrap_or_default(),
            |_| Ok(()),
        )
        .await
        .map(|_| ());
    }
    run_listing(
        client,
        req,
        &args.output,
        format,
        |page: ListIssuesResponse| page.issues,
        |_| Ok(()),
    )
    .await
    .map(|_| ())
}

/// List issues, its pages read with the items left as raw JSON.
#[derive(Debug, Clone)]
struct RawListRequest(ListIssuesRequest);

impl PagedRequest for RawListRequest {
    type Page = RawListPage;
    fn set_cursor(&mut self, cursor: Option<String>) {
        self.0.cursor = cursor;
    }
    async fn fetch(&self, client: &Client) -> Result<RawListPage, ApiError> {
        client.list_issues_as(&self.0).await
    }
}

/// A List issues page whose items are kept as the server wrote them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct RawListPage {
    issues: Option<Vec<RawItem>>,
    cursor: Option<String>,
}

impl Page for RawListPage {
    fn next_cursor(&self) -> Option<&str> {
        self.cursor.as_deref()
    }
    fn item_count(&self) -> usize {
        self.issues.as_ref().map_or(0, Vec::len)
    }
}

/// One List issues item: the server's JSON object, checked to be valid JSON
/// and an object, and put on one line when the server spread it over more.
#[derive(Debug)]
struct RawItem(Box<RawValue>);

impl<'de> Deserialize<'de> for RawItem {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let raw = Box::<RawValue>::deserialize(de)?;
        if !raw.get().starts_with('{') {
            return Err(D::Error::custom(format!(
                "invalid type: {}, expected a List issues item (an object)",
                crate::text::truncate(&crate::text::one_line(raw.get()), 40)
            )));
        }
        if !raw.get().contains(['\n', '\r']) {
            return Ok(RawItem(raw));
        }
        RawValue::from_string(compact_json(raw.get()))
            .map(RawItem)
            .map_err(D::Error::custom)
    }
}

impl Serialize for RawItem {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // serde_json writes a raw value's text verbatim.
        self.0.serialize(s)
    }
}

impl Record for RawItem {
    const COLUMNS: &'static [crate::export::Column] = IssueItem::COLUMNS;
    /// Raw items are written as JSON only; the cells, should a table ask,
    /// are those of the decoded item.
    fn cells(&self) -> Vec<String> {
        serde_json::from_str::<IssueItem>(self.0.get())
            .map(|item| item.cells())
            .unwrap_or_else(|_| vec![String::new(); Self::COLUMNS.len()])
    }
}

/// Valid JSON without the whitespace between its tokens.
fn compact_json(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    let (mut in_string, mut escaped) = (false, false);
    for c in json.chars() {
        if in_string {
            out.push(c);
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
        } else if !matches!(c, ' ' | '\t' | '\n' | '\r') {
            in_string = c == '"';
            out.push(c);
        }
    }
    out
}

// ------------------------------------------------------------------- report

#[derive(Args, Debug, Clone)]
pub struct ReportArgs {
    #[command(flatten)]
    filters: FilterArgs,
    /// total-open, total-fixed, total-ignored, total-provisionally-ignored,
    /// open-backlog, backlog-activity, project, guardrails-activity (or the enum name)
    #[arg(long, value_name = "TYPE",
          value_parser = offer(ReportType::ALL.iter().map(ReportType::label)),
          hide_possible_values = true)]
    report_type: Option<String>,
    /// Only findings in this state: open, fixed, removed, ignored-app, ... (or the enum name)
    #[arg(long, value_name = "STATE", value_parser = offer(FINDING_STATES),
          hide_possible_values = true)]
    finding_state: Option<String>,
    /// Start of one time bucket (with --filter timeBucketSize=week, default day)
    #[arg(long, value_name = "TIME", value_hint = ValueHint::Other)]
    bucket_start: Option<String>,
    /// Severity: critical, high, medium, low (repeatable)
    #[arg(long = "severity", value_name = "LEVEL", value_parser = offer(FINDING_SEVERITIES),
          hide_possible_values = true)]
    severities: Vec<String>,
    /// Finding type: code, sca, secrets (repeatable)
    #[arg(long = "type", value_name = "TYPE", value_parser = offer(FINDING_TYPES),
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
    output: OutputArgs,
}

impl ReportArgs {
    pub fn request(&self) -> Result<ReportRequest, UsageError> {
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
                let values: Vec<&'static str> =
                    AggregateState::ALL.iter().map(|v| v.as_wire()).collect();
                filters::enum_value(&values, s)
                    .map(|w| AggregateState::from_wire(&w))
                    .ok_or_else(|| {
                        UsageError(format!(
                            "unknown finding state {s:?}; valid: {}",
                            values.join(", ")
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
        |page: &ReportResponse| {
            // The totals head a table; other formats carry items only.
            if format == Format::Table && !totals_shown {
                totals_shown = true;
                println!("{}\n", totals_line(page));
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
    let out = combined.unwrap_or_default();
    let mut stdout = std::io::stdout().lock();
    serde_json::to_writer_pretty(&mut stdout, &out).map_err(std::io::Error::other)?;
    writeln!(stdout)?;
    Ok(())
}

// ------------------------------------------------------------------- search

#[derive(Args, Debug, Clone)]
pub struct SearchArgs {
    #[command(flatten)]
    filters: FilterArgs,
    /// Text in the title (case-insensitive)
    #[arg(long, value_name = "TEXT", value_hint = ValueHint::Other)]
    title: Option<String>,
    /// Text in the description
    #[arg(long, value_name = "TEXT", value_hint = ValueHint::Other)]
    description: Option<String>,
    /// Text in the reasoning
    #[arg(long, value_name = "TEXT", value_hint = ValueHint::Other)]
    reasoning: Option<String>,
    /// Text in a file path
    #[arg(long, value_name = "TEXT", value_hint = ValueHint::AnyPath)]
    file_path: Option<String>,
    /// Workflow id (repeatable)
    #[arg(long = "workflow", value_name = "ID", value_hint = ValueHint::Other)]
    workflows: Vec<String>,
    /// Sort: severity, last-detected, created, file-path
    #[arg(long, value_name = "FIELD",
          value_parser = offer(IssueSortField::ALL.iter().map(IssueSortField::label)),
          hide_possible_values = true)]
    sort: Option<String>,
    /// Ascending order
    #[arg(long, conflicts_with = "desc")]
    asc: bool,
    /// Descending order
    #[arg(long)]
    desc: bool,
    #[command(flatten)]
    output: OutputArgs,
}

impl SearchArgs {
    pub fn request(&self) -> Result<SearchIssuesRequest, UsageError> {
        if self.output.format()? == Format::Sarif {
            return Err(UsageError(
                "--format sarif is for findings (issues, report), not agentic-workflow issues; valid here: table, json, ndjson, csv, markdown".into(),
            ));
        }
        let mut pairs = Vec::new();
        push_all(&mut pairs, "titleQuery", self.title.as_slice());
        push_all(&mut pairs, "descriptionQuery", self.description.as_slice());
        push_all(&mut pairs, "reasoningQuery", self.reasoning.as_slice());
        push_all(&mut pairs, "filePathQuery", self.file_path.as_slice());
        push_all(&mut pairs, "workflowIds", &self.workflows);
        push_all(
            &mut pairs,
            "createdAt.startAt",
            self.filters.since.as_slice(),
        );
        push_all(&mut pairs, "createdAt.endAt", self.filters.until.as_slice());
        pairs.extend(self.filters.pairs()?);
        let sort_field = self
            .sort
            .as_deref()
            .map(|s| {
                parse_enum(
                    "sort field",
                    s,
                    IssueSortField::parse_known,
                    IssueSortField::ALL,
                    IssueSortField::label,
                )
            })
            .transpose()?;
        Ok(SearchIssuesRequest {
            filters: filters::build(SEARCH_FILTERS, "search", &pairs)?,
            sort_field,
            sort_direction: direction(self.asc, self.desc),
            limit: page_size(&self.output),
            ..Default::default()
        })
    }
}

pub async fn search(
    client: &Client,
    req: SearchIssuesRequest,
    args: &SearchArgs,
) -> Result<(), Failure> {
    let format = args.output.format()?;
    run_listing(
        client,
        req,
        &args.output,
        format,
        |page: SearchIssuesResponse| page.issues,
        |_| Ok(()),
    )
    .await
    .map(|_| ())
}

// ------------------------------------------------------------------- shared

/// Follows pages as `--all`/`--max` ask and streams each item to stdout.
/// `on_page` sees each page before its items are written.
async fn run_listing<R, T>(
    client: &Client,
    req: R,
    output: &OutputArgs,
    format: Format,
    items_of: impl Fn(R::Page) -> Vec<T>,
    mut on_page: impl FnMut(&R::Page) -> Result<(), Failure>,
) -> Result<usize, Failure>
where
    R: PagedRequest,
    T: Record,
{
    let max = output.max.map(|m| m as usize);
    let stdout = std::io::stdout().lock();
    let width = terminal_width();
    let mut writer = Writer::new::<T>(std::io::BufWriter::new(stdout), format, width);
    let mut stream = Box::pin(pages(client.clone(), req));
    let mut progress = Progress::new();
    let mut outcome = Ok(());
    'pages: while let Some(page) = stream.next().await {
        let page = match page {
            Ok(p) => p,
            Err(e) => {
                // Keep what was written; report the failure after it.
                outcome = Err(Failure::from(e));
                break;
            }
        };
        on_page(&page)?;
        for item in items_of(page) {
            if max.is_some_and(|m| writer.count() >= m) {
                break 'pages;
            }
            writer.item(&item)?;
        }
        progress.page(writer.count());
        if format == Format::Ndjson {
            // Stream: each page reaches the reader as it arrives.
            writer.flush()?;
        }
        if max.is_some_and(|m| writer.count() >= m) || (!output.all && max.is_none()) {
            break;
        }
    }
    progress.done();
    let count = writer.count();
    writer.finish()?;
    if count == 0 && format == Format::Table {
        eprintln!("findings: no items match");
    }
    outcome.map(|_| count)
}

/// The width a table on stdout fills ([`table_width`]).
fn terminal_width() -> usize {
    let terminal = std::io::stdout()
        .is_terminal()
        .then(|| crossterm::terminal::size().ok().map(|(w, _)| w))
        .flatten();
    table_width(terminal, std::env::var("COLUMNS").ok().as_deref())
}

/// A table's width when stdout piped or redirected has no terminal to fit.
const PIPED_TABLE_WIDTH: usize = 200;

/// The width a table fills: the terminal's (`terminal`, when stdout is
/// one), else `COLUMNS` when it is a number, else [`PIPED_TABLE_WIDTH`].
fn table_width(terminal: Option<u16>, columns_env: Option<&str>) -> usize {
    terminal
        .filter(|&w| w > 0)
        .map(usize::from)
        .or_else(|| {
            columns_env
                .and_then(|c| c.trim().parse::<usize>().ok())
                .filter(|&w| w > 0)
        })
        .unwrap_or(PIPED_TABLE_WIDTH)
}

/// "items so far" on stderr, only when stderr is a terminal.
struct Progress {
    enabled: bool,
    pages: usize,
    shown: bool,
}

impl Progress {
    fn new() -> Self {
        Progress {
            enabled: std::io::stderr().is_terminal(),
            pages: 0,
            shown: false,
        }
    }

    fn page(&mut self, items: usize) {
        self.pages += 1;
        if self.enabled && self.pages > 1 {
            eprint!("\r\x1b[2K{items} items, {} pages…", self.pages);
            self.shown = true;
        }
    }

    fn done(&mut self) {
        if self.shown {
            eprint!("\r\x1b[2K");
            self.shown = false;
        }
    }
}

// ----------------------------------------------------------------- overview

/// `findings` with no subcommand, until the TUI lands: the report totals and
/// the most severe open findings.
pub async fn overview(client: &Client) -> Result<(), Failure> {
    let report = client
        .report_findings(&ReportRequest {
            limit: Some(15),
            ..Default::default()
        })
        .await?;
    println!(
        "Deployment {} at {}",
        client.deployment(),
        client.base_url()
    );
    println!("Open findings: {}\n", totals_line(&report));
    let mut writer =
        Writer::new::<Issue>(std::io::stdout().lock(), Format::Table, terminal_width());
    for issue in &report.findings {
        writer.item(issue)?;
    }
    drop(writer.finish()?);
    println!("\nMore: findings issues --help, findings report --help, findings search --help");
    Ok(())
}

#[cfg(test)]
mod table_width_tests {
    use super::*;

    #[test]
    fn a_table_fits_the_terminal_else_columns_else_is_wide() {
        // On a terminal: its width, whatever COLUMNS says.
        assert_eq!(table_width(Some(120), None), 120);
        assert_eq!(table_width(Some(120), Some("80")), 120);
        // Piped: COLUMNS when it is a width, else the wide default.
        assert_eq!(table_width(None, Some("100")), 100);
        assert_eq!(table_width(None, Some(" 90\n")), 90);
        assert_eq!(table_width(None, None), PIPED_TABLE_WIDTH);
        for junk in ["", "0", "-5", "wide", "1e3"] {
            assert_eq!(table_width(None, Some(junk)), PIPED_TABLE_WIDTH, "{junk:?}");
        }
        // A terminal that reports no width is treated as piped.
        assert_eq!(table_width(Some(0), Some("70")), 70);
    }
}

#[cfg(test)]
mod raw_export_tests {
    use super::*;
    use crate::api::client::decode;

    const PRETTY_PAGE: &str = r#"{
  "issues": [
    {
      "issue": { "id": "7", "message": "say \"hi\"\n\tthen { leave }", "score": 0.0 },
      "reviewCount": "2",
      "fieldTheModelDoesNotKnow": [1, 2]
    },
    {"issue": {"id": "8"}}
  ],
  "cursor": "c2"
}"#;

    #[test]
    fn compact_json_drops_whitespace_between_tokens_only() {
        let json = "{ \"a\" : \"x \\\"y\\\" \\\\n z\" ,\n\t\"b\" : [1, 2 ] }";
        let compact = compact_json(json);
        assert_eq!(compact, r#"{"a":"x \"y\" \\n z","b":[1,2]}"#);
        let before: serde_json::Value = serde_json::from_str(json).unwrap();
        let after: serde_json::Value = serde_json::from_str(&compact).unwrap();
        assert_eq!(before, after);
    }

    #[test]
    fn raw_pages_keep_items_as_sent_on_one_line_each() {
        let page: RawListPage = decode(PRETTY_PAGE.as_bytes(), "application/json").unwrap();
        assert_eq!(page.next_cursor(), Some("c2"));
        assert_eq!(page.item_count(), 2);
        let sent: serde_json::Value = serde_json::from_str(PRETTY_PAGE).unwrap();
        let mut writer = Writer::new::<RawItem>(Vec::new(), Format::Ndjson, 80);
        for item in page.issues.unwrap() {
            writer.item(&item).unwrap();
        }
        let out = String::from_utf8(writer.finish().unwrap()).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2, "{out}");
        for (k, line) in lines.iter().enumerate() {
            let item: serde_json::Value = serde_json::from_str(line).unwrap();
            // Unknown fields and number spellings included.
            assert_eq!(item, sent["issues"][k]);
        }
        assert!(lines[0].contains(r#""score":0.0"#), "{}", lines[0]);
        assert!(lines[0].contains(r#""fieldTheModelDoesNotKnow":[1,2]"#));
        // The item's own text is kept when it is on one line already.
        assert_eq!(lines[1], r#"{"issue": {"id": "8"}}"#);
    }

    #[test]
    fn raw_pages_refuse_items_that_are_not_objects() {
        let body = br#"{"issues": [{"issue": {}}, "\u001b[31mnot an item"], "cursor": "c"}"#;
        match decode::<RawListPage>(body, "application/json") {
            Err(ApiError::Decode { path, message }) => {
                assert_eq!(path, "issues[1]");
                assert!(message.contains("expected a List issues item"), "{message}");
                assert!(!message.contains('\u{1b}'), "{message}");
            }
            other => panic!("expected a decode error, got {other:?}"),
        }
        assert!(decode::<RawListPage>(br#"{"issues": [{"a": 1"#, "application/json").is_err());
    }

    #[test]
    fn raw_pages_read_null_and_absent_fields_as_empty() {
        let page: RawListPage = decode(br#"{"issues": null}"#, "application/json").unwrap();
        assert_eq!((page.item_count(), page.next_cursor()), (0, None));
        let page: RawListPage = decode(br#"{}"#, "application/json").unwrap();
        assert_eq!(page.item_count(), 0);
    }
}
