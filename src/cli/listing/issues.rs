//! `findings issues`: List issues.

use super::output::run_listing;
use super::raw::{RawListPage, RawListRequest};
use super::{FilterArgs, INCLUDES, direction, offered, page_size, parse_enum, push_all};
use crate::api::Client;
use crate::api::model::*;
use crate::cli::{Failure, OutputArgs, UsageError, offer};
use crate::export::Format;
use crate::filter_spec::{self as filters, LIST_FILTER};
use clap::{Args, ValueHint};

#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Filters")]
pub struct IssuesArgs {
    #[command(flatten)]
    filters: FilterArgs,
    /// Issue type: code, sca, secrets, research, ai-code (repeatable)
    #[arg(long = "type", value_name = "TYPE", value_parser = offer(offered(LIST_FILTER, "issueTypes")),
          hide_possible_values = true)]
    types: Vec<String>,
    /// Severity: critical, high, medium, low (repeatable)
    #[arg(long = "severity", value_name = "LEVEL",
          value_parser = offer(offered(LIST_FILTER, "severities")), hide_possible_values = true)]
    severities: Vec<String>,
    /// State, as the STATE column shows it: open, reviewing, fixing, fixed,
    /// removed, ignored, ignored-in-code, provisionally-ignored, unknown (repeatable)
    #[arg(long = "state", value_name = "STATE",
          value_parser = offer(offered(LIST_FILTER, "aggregateIssueStates")),
          hide_possible_values = true)]
    states: Vec<String>,
    /// Repository name (repeatable)
    #[arg(long = "repo", value_name = "NAME", value_hint = ValueHint::Other)]
    repos: Vec<String>,
    /// Rule id (repeatable)
    #[arg(long = "rule", value_name = "ID", value_hint = ValueHint::Other)]
    rules: Vec<String>,
    /// Branch (repeatable)
    #[arg(long = "ref", value_name = "REF", value_hint = ValueHint::Other)]
    refs: Vec<String>,
    /// Team assigned to the repository (repeatable)
    #[arg(long = "team", value_name = "NAME", value_hint = ValueHint::Other)]
    teams: Vec<String>,
    /// File path search: fuzzy, by the words of the path (the server uses
    /// only the first --path)
    #[arg(long = "path", value_name = "PATH", value_hint = ValueHint::AnyPath)]
    paths: Vec<String>,
    /// CVE id of a supply-chain finding (repeatable; implies --type sca
    /// when no --type is given)
    #[arg(long = "cve", value_name = "ID", value_hint = ValueHint::Other)]
    cves: Vec<String>,
    /// Sort: severity, ref, repo, rule, relevant-since, state
    #[arg(long, value_name = "FIELD", help_heading = "Sort", value_parser = offer(SortBy::ALL.iter().map(SortBy::label)),
          hide_possible_values = true)]
    sort: Option<String>,
    /// Ascending order
    #[arg(long, conflicts_with = "desc", help_heading = "Sort")]
    asc: bool,
    /// Descending order
    #[arg(long, help_heading = "Sort")]
    desc: bool,
    /// Extra data per finding: remediation, activity, archived, first-detected
    #[arg(long, value_name = "LIST", value_delimiter = ',', help_heading = "Output", value_parser = offer(INCLUDES),
          hide_possible_values = true)]
    include: Vec<String>,
    #[command(flatten)]
    pub(in crate::cli) output: OutputArgs,
}

impl IssuesArgs {
    pub fn request(&self) -> Result<ListIssuesRequest, UsageError> {
        filters::check_flag(LIST_FILTER, "issueTypes", "--type", &self.types)?;
        filters::check_flag(LIST_FILTER, "severities", "--severity", &self.severities)?;
        filters::check_flag(LIST_FILTER, "aggregateIssueStates", "--state", &self.states)?;
        let mut pairs = Vec::new();
        push_all(&mut pairs, "issueTypes", &self.types);
        push_all(&mut pairs, "severities", &self.severities);
        push_all(&mut pairs, "aggregateIssueStates", &self.states);
        push_all(&mut pairs, "repositoryNames", &self.repos);
        push_all(&mut pairs, "ruleIds", &self.rules);
        push_all(&mut pairs, "refs", &self.refs);
        push_all(&mut pairs, "teamNames", &self.teams);
        push_all(&mut pairs, "filePaths", &self.paths);
        push_all(&mut pairs, "cves", &self.cves);
        push_all(&mut pairs, "since", self.filters.since.as_slice());
        push_all(&mut pairs, "until", self.filters.until.as_slice());
        pairs.extend(self.filters.pairs()?);
        // `cves` narrows supply-chain findings only (the published filter
        // applies to that type): on its own, --cve asks for that type.
        if !self.cves.is_empty() && !pairs.iter().any(|(k, _)| k == "issueTypes") {
            pairs.push(("issueTypes".into(), IssueType::Sca.as_wire().into()));
        }
        let selection: Option<ListSelection> = filters::build(LIST_FILTER, "issues", &pairs)?;
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
            sort_by,
            sort_direction: direction(self.asc, self.desc),
            limit: page_size(&self.output),
            ..Default::default()
        };
        selection.unwrap_or_default().apply_to(&mut req);
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
            |_, _| Ok(()),
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
        |_, _| Ok(()),
    )
    .await
    .map(|_| ())
}
