//! `findings issues`: List issues.

use super::first_detected::FirstDetected;
use super::names::Names;
use super::output::run_listing;
use super::raw::{RawListPage, RawListRequest};
use super::{
    FilterArgs, INCLUDES, LISTS_HELP, direction, list, offered, page_size, parse_enum, push_all,
};
use crate::api::Client;
use crate::api::model::*;
use crate::cli::scripting::Script;
use crate::cli::{Failure, OutputArgs, UsageError, offer};
use crate::export::Format;
use crate::filter_spec::{self as filters, LIST_FILTER};
use clap::{Args, ValueHint};

#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Filters", after_help = LISTS_HELP)]
pub struct IssuesArgs {
    #[command(flatten)]
    filters: FilterArgs,
    /// Issue type: code, sca, secrets, research, ai-code (LIST)
    #[arg(long = "type", value_name = "TYPE", value_parser = offer(offered(LIST_FILTER, "issueTypes")),
          hide_possible_values = true)]
    types: Vec<String>,
    /// Severity: critical, high, medium, low (LIST)
    #[arg(long = "severity", value_name = "LEVEL",
          value_parser = offer(offered(LIST_FILTER, "severities")), hide_possible_values = true)]
    severities: Vec<String>,
    /// State, as the STATE column shows it: open, reviewing, fixing, fixed,
    /// removed, ignored, ignored-in-code, provisionally-ignored, unknown (LIST)
    #[arg(long = "state", value_name = "STATE",
          value_parser = offer(offered(LIST_FILTER, "aggregateIssueStates")),
          hide_possible_values = true)]
    states: Vec<String>,
    /// Repository name, as the deployment has it (LIST; one it does not have
    /// is refused with the closest it has)
    #[arg(long = "repo", value_name = "NAME", value_hint = ValueHint::Other)]
    repos: Vec<String>,
    /// Rule: its full id, or the name the RULE column shows (use-of-md5),
    /// which stands for every rule of that name (LIST)
    #[arg(long = "rule", value_name = "RULE", value_hint = ValueHint::Other)]
    rules: Vec<String>,
    /// Branch (LIST)
    #[arg(long = "ref", value_name = "REF", value_hint = ValueHint::Other)]
    refs: Vec<String>,
    /// Team assigned to the repository (LIST)
    #[arg(long = "team", value_name = "NAME", value_hint = ValueHint::Other)]
    teams: Vec<String>,
    /// Repository tag (LIST)
    #[arg(long = "tag", value_name = "TAG", value_hint = ValueHint::Other)]
    tags: Vec<String>,
    /// File path search: fuzzy, by the words of the path (LIST; the server
    /// uses only the first)
    #[arg(long = "path", value_name = "PATH", value_hint = ValueHint::AnyPath)]
    paths: Vec<String>,
    /// CVE id of a supply-chain finding (LIST; implies --type sca when no
    /// --type is given)
    #[arg(long = "cve", value_name = "ID", value_hint = ValueHint::Other)]
    cves: Vec<String>,
    /// Only findings relevant since TIME: the filter's `since`, which reads
    /// relevant-since (with --filter timeFilter=triaged-at or fixed-at: the
    /// time of the triage or of the fix). TIME: RFC 3339, YYYY-MM-DD, or
    /// 7d/12h/2w ago. Not the same time as `report --since` (creation)
    #[arg(long, value_name = "TIME", help_heading = "Time", value_hint = ValueHint::Other)]
    since: Option<String>,
    /// Only findings created before TIME: the filter's `until`, which reads
    /// the creation time whatever --since reads (as `report --until`)
    #[arg(long, value_name = "TIME", help_heading = "Time", value_hint = ValueHint::Other)]
    until: Option<String>,
    /// Only findings first detected (on any ref) at or after TIME. The
    /// published filter has no such field: each finding's firstDetectedAt,
    /// which this asks the server to include, is compared here, so without
    /// --all or --max only the page fetched is looked at
    #[arg(long, value_name = "TIME", help_heading = "Time", value_hint = ValueHint::Other)]
    first_detected_since: Option<String>,
    /// Only findings first detected before TIME (compared here, as
    /// --first-detected-since)
    #[arg(long, value_name = "TIME", help_heading = "Time", value_hint = ValueHint::Other)]
    first_detected_until: Option<String>,
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
    /// Extra data per finding: remediation, activity, archived, first-detected (LIST)
    #[arg(long, value_name = "LIST", help_heading = "Output", value_parser = offer(INCLUDES),
          hide_possible_values = true)]
    include: Vec<String>,
    #[command(flatten)]
    pub(in crate::cli) output: OutputArgs,
}

impl IssuesArgs {
    /// The request the flags ask for, every name checked by `names`.
    pub fn request(&self, names: &Names) -> Result<ListIssuesRequest, UsageError> {
        let (types, severities, states) = (
            list(&self.types),
            list(&self.severities),
            list(&self.states),
        );
        filters::check_flag(LIST_FILTER, "issueTypes", "--type", &types)?;
        filters::check_flag(LIST_FILTER, "severities", "--severity", &severities)?;
        filters::check_flag(LIST_FILTER, "aggregateIssueStates", "--state", &states)?;
        let (repos, refs, teams, tags) = (
            list(&self.repos),
            list(&self.refs),
            list(&self.teams),
            list(&self.tags),
        );
        names.check("repositoryNames", "--repo", &repos)?;
        names.check("refs", "--ref", &refs)?;
        names.check("teamNames", "--team", &teams)?;
        names.check("repositoryTags", "--tag", &tags)?;
        let rules = names.rule_ids("--rule", &list(&self.rules))?;
        let cves = list(&self.cves);
        let mut pairs = Vec::new();
        push_all(&mut pairs, "issueTypes", &types);
        push_all(&mut pairs, "severities", &severities);
        push_all(&mut pairs, "aggregateIssueStates", &states);
        push_all(&mut pairs, "repositoryNames", &repos);
        push_all(&mut pairs, "ruleIds", &rules);
        push_all(&mut pairs, "refs", &refs);
        push_all(&mut pairs, "teamNames", &teams);
        push_all(&mut pairs, "repositoryTags", &tags);
        push_all(&mut pairs, "filePaths", &list(&self.paths));
        push_all(&mut pairs, "cves", &cves);
        push_all(&mut pairs, "since", self.since.as_slice());
        push_all(&mut pairs, "until", self.until.as_slice());
        let given = self.filters.pairs(LIST_FILTER)?;
        names.check_pairs(&given)?;
        pairs.extend(given);
        // `cves` narrows supply-chain findings only (the published filter
        // applies to that type): on its own, --cve asks for that type.
        if !cves.is_empty() && !pairs.iter().any(|(k, _)| k == "issueTypes") {
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
        for flag in list(&self.include) {
            match flag.as_str() {
                "remediation" => req.include_remediation = Some(true),
                "activity" | "activity-history" => req.include_activity_history = Some(true),
                "archived" | "is-archived" => req.include_is_archived = Some(true),
                "first-detected" | "first-detected-at" => {
                    req.include_first_detected_at = Some(true)
                }
                other => {
                    return Err(UsageError(format!(
                        "unknown --include {other:?}; valid: remediation, activity, archived, first-detected"
                    )));
                }
            }
        }
        if self.first_detected()?.is_set() {
            // Compared on the client: the items must carry the time.
            req.include_first_detected_at = Some(true);
        }
        Ok(req)
    }

    /// The first-detection window of the flags.
    fn first_detected(&self) -> Result<FirstDetected, UsageError> {
        FirstDetected::parse(
            self.first_detected_since.as_deref(),
            self.first_detected_until.as_deref(),
        )
    }
}

/// Lists the findings; returns how many were printed (for `--exit-code`).
pub async fn issues(
    client: &Client,
    req: ListIssuesRequest,
    args: &IssuesArgs,
    script: &Script,
) -> Result<usize, Failure> {
    let format = args.output.format()?;
    let window = args.first_detected()?;
    let done = if script.selects() || matches!(format, Format::Json | Format::Ndjson) {
        // The items exactly as the server sent them, without decoding them
        // into the model and encoding them again.
        run_listing(
            client,
            RawListRequest(req),
            &args.output,
            format,
            script,
            |page: RawListPage| window.keep(page.issues),
            |_, _| Ok(()),
        )
        .await
    } else {
        run_listing(
            client,
            req,
            &args.output,
            format,
            script,
            |page: ListIssuesResponse| window.keep(page.issues),
            |_, _| Ok(()),
        )
        .await
    };
    window.warn();
    done
}
