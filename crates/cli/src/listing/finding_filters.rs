//! The flags that choose findings of List issues: `findings issues` lists
//! what they match, `findings triage` triages it. One set of flags, names
//! checked the same way ([`Names`]), one request built from them.

use super::first_detected::FirstDetected;
use super::names::Names;
use super::{FilterArgs, list, offered, push_all};
use crate::{Failure, UsageError, offer};
use clap::{Args, ValueHint};
use findings_client::Client;
use findings_config::SavedView;
use findings_model::*;
use findings_requests::filter_spec::{self as filters, LIST_FILTER};

/// Every filter flag of List issues but the state, whose flag is named by
/// each command (`issues --state`, `triage --current-state`: there
/// `--state` is the new state).
#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Filters")]
pub struct FindingFilters {
    /// A saved view (the TUI's `:save NAME`; `config show` lists them):
    /// its filters and sort, as the TUI's `:view NAME` sets them. A flag
    /// given beside it replaces the view's value of the field it sets (the
    /// filter field, or the sort); the view's other fields stay
    #[arg(long, value_name = "NAME", value_hint = ValueHint::Other)]
    view: Option<String>,
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
    /// Only findings on each repository's primary branch (the filter's
    /// onPrimaryBranch): what a code-scanning upload for the default
    /// branch holds (--ref names branches instead)
    #[arg(long)]
    primary_branch: bool,
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
    /// Advisory of a supply-chain finding: its CVE id in any case, or an
    /// alias (its GHSA id); one the deployment does not list is refused
    /// with the closest it does (LIST; implies --type sca when no --type
    /// is given)
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
}

impl FindingFilters {
    /// The request these flags and `states` (given to `state_flag`) make:
    /// its filter and type selection, every name checked by `names`.
    pub fn request(
        &self,
        names: &Names,
        state_flag: &str,
        states: &[String],
    ) -> Result<ListIssuesRequest, UsageError> {
        let (types, severities, states) = (list(&self.types), list(&self.severities), list(states));
        filters::check_flag(LIST_FILTER, "issueTypes", "--type", &types)?;
        filters::check_flag(LIST_FILTER, "severities", "--severity", &severities)?;
        filters::check_flag(LIST_FILTER, "aggregateIssueStates", state_flag, &states)?;
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
        let cves = names.resolve("cves", "--cve", &list(&self.cves))?;
        let mut pairs = Vec::new();
        push_all(&mut pairs, "issueTypes", &types);
        push_all(&mut pairs, "severities", &severities);
        push_all(&mut pairs, "aggregateIssueStates", &states);
        push_all(&mut pairs, "repositoryNames", &repos);
        push_all(&mut pairs, "ruleIds", &rules);
        push_all(&mut pairs, "refs", &refs);
        if self.primary_branch {
            pairs.push(("onPrimaryBranch".into(), "true".into()));
        }
        push_all(&mut pairs, "teamNames", &teams);
        push_all(&mut pairs, "repositoryTags", &tags);
        push_all(&mut pairs, "filePaths", &list(&self.paths));
        push_all(&mut pairs, "cves", &cves);
        push_all(&mut pairs, "since", self.since.as_slice());
        push_all(&mut pairs, "until", self.until.as_slice());
        pairs.extend(names.check_pairs(self.filters.pairs(LIST_FILTER)?)?);
        let view = self.saved_view(names)?;
        if let Some(view) = view {
            pairs = with_view(pairs, view)?;
        }
        // A field of one type only (`cves` narrows supply-chain findings,
        // other types pass it): on its own, it asks for its type.
        if let Some(note) = filters::scope_types(&mut pairs)? {
            names.say(&note);
        }
        if let Some(note) = filters::reachability_note(&pairs) {
            names.say(&note);
        }
        let selection: Option<ListSelection> = filters::build(LIST_FILTER, "issues", &pairs)?;
        let mut req = ListIssuesRequest::default();
        selection.unwrap_or_default().apply_to(&mut req);
        if let Some(view) = view {
            // The command's sort flags, given, replace these.
            req.sort_by = view.sort_by.clone();
            req.sort_direction = view.direction.clone();
        }
        if self.first_detected()?.is_set() {
            // Compared on the client: the items must carry the time.
            req.include_first_detected_at = Some(true);
        }
        Ok(req)
    }

    /// Whether any flag chooses findings (a command that acts on what they
    /// match refuses to act on everything by default).
    pub fn given(&self, states: &[String]) -> bool {
        let lists = [
            &self.types,
            &self.severities,
            &self.repos,
            &self.rules,
            &self.refs,
            &self.teams,
            &self.tags,
            &self.paths,
            &self.cves,
            &self.filters.filter,
        ];
        !states.is_empty()
            || self.view.is_some()
            || lists.iter().any(|l| !l.is_empty())
            || [
                &self.since,
                &self.until,
                &self.first_detected_since,
                &self.first_detected_until,
            ]
            .iter()
            .any(|t| t.is_some())
    }

    /// The view `--view` names, once the settings are read (`names`); one
    /// not saved is a usage error naming those there are.
    fn saved_view<'v>(&self, names: &Names<'v>) -> Result<Option<&'v SavedView>, UsageError> {
        let (Some(name), Some(views)) = (&self.view, names.views()) else {
            return Ok(None);
        };
        if let Some(view) = views.iter().find(|v| &v.name == name) {
            return Ok(Some(view));
        }
        let known: Vec<&str> = views.iter().map(|v| v.name.as_str()).collect();
        let there = if known.is_empty() {
            "none is saved (`:save NAME` in the TUI saves one)".to_owned()
        } else {
            format!("saved views: {}", known.join(", "))
        };
        let hint = findings_requests::filter_spec::did_you_mean(&known, name)
            .map(|d| format!(" ({d})"))
            .unwrap_or_default();
        Err(UsageError(format!(
            "--view {}: no such view{hint}; {there}",
            findings_base::text::one_line(name)
        )))
    }

    /// The first-detection window of the flags.
    /// Whether a first-detected flag is given: compared here, not by the
    /// server, so not part of the request a snapshot keeps.
    pub fn compares_first_detected(&self) -> bool {
        self.first_detected_since.is_some() || self.first_detected_until.is_some()
    }

    pub(super) fn first_detected(&self) -> Result<FirstDetected, UsageError> {
        FirstDetected::parse(
            self.first_detected_since.as_deref(),
            self.first_detected_until.as_deref(),
        )
    }
}

/// The flags' `pairs` with `view`'s: a field a flag sets is the flag's
/// alone, the view's other fields stay (the TUI's filter form alike).
fn with_view(
    mut pairs: Vec<(String, String)>,
    view: &SavedView,
) -> Result<Vec<(String, String)>, UsageError> {
    let from_view = view.pairs().map_err(|e| {
        UsageError(format!(
            "view {}: {e}",
            findings_base::text::one_line(&view.name)
        ))
    })?;
    let set: std::collections::HashSet<String> = pairs.iter().map(|(k, _)| k.clone()).collect();
    pairs.extend(from_view.into_iter().filter(|(k, _)| !set.contains(k)));
    Ok(pairs)
}

impl FindingFilters {
    /// The ids of the findings `req` (built by [`FindingFilters::request`])
    /// matches, following every page of 1000, in the first-detection
    /// window. More than `max` is `Err(max)`: too many to name.
    pub async fn matching_ids(
        &self,
        client: &Client,
        req: ListIssuesRequest,
        max: usize,
    ) -> Result<Result<Vec<String>, usize>, Failure> {
        let matched = self.matching(client, req, max, |_| ()).await?;
        Ok(matched.map(|found| found.into_iter().map(|(id, ())| id).collect()))
    }

    /// [`FindingFilters::matching_ids`], each id with what `keep` reads of
    /// its finding in the same listing (no second read).
    pub async fn matching<T>(
        &self,
        client: &Client,
        req: ListIssuesRequest,
        max: usize,
        mut keep: impl FnMut(&Issue) -> T,
    ) -> Result<Result<Vec<(String, T)>, usize>, Failure> {
        use futures_util::StreamExt;
        let window = self.first_detected()?;
        let req = ListIssuesRequest {
            limit: Some(findings_model::MAX_PAGE_SIZE),
            cursor: None,
            ..req
        };
        let mut found: Vec<(String, T)> = Vec::new();
        let mut pages = std::pin::pin!(findings_client::pages(client.clone(), req));
        while let Some(page) = pages.next().await {
            for item in window.keep(page?.issues) {
                let Some(issue) = item.issue else { continue };
                let Some(id) = issue.id.clone() else { continue };
                if found.len() == max {
                    return Ok(Err(max));
                }
                found.push((id, keep(&issue)));
            }
        }
        window.warn();
        // A server that repeats a finding across pages names it once.
        let mut seen = std::collections::HashSet::new();
        found.retain(|(id, _)| seen.insert(id.clone()));
        Ok(Ok(found))
    }
}
