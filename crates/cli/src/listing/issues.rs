//! `findings issues`: List issues.

use super::columns::{ColumnsArgs, with_context};
use super::finding_filters::FindingFilters;
use super::first_detected::{FirstDetected, OverTarget};
use super::names::Names;
use super::output::{Writing, run_listing};
use super::raw::{RawListPage, RawListRequest};
use super::{INCLUDES, LISTS_HELP, direction, list, page_size, parse_enum};
use crate::scripting::Script;
use crate::{Failure, OutputArgs, UsageError, offer};
use clap::Args;
use findings_client::{Client, ListedRequest, SarifRequest};
use findings_export::Format;
use findings_model::*;

#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Filters", after_help = LISTS_HELP)]
pub struct IssuesArgs {
    #[command(flatten)]
    pub(crate) filters: FindingFilters,
    /// State, as the STATE column shows it: open, reviewing, fixing, fixed,
    /// removed, ignored, ignored-in-code, provisionally-ignored, unknown (LIST)
    #[arg(long = "state", visible_alias = "current-state", value_name = "STATE", help_heading = "Filters",
          value_parser = offer(super::finding_states()),
          hide_possible_values = true)]
    pub(super) states: Vec<String>,
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
    /// Only open findings (open, reviewing, fixing) older than their
    /// severity's target, counted from first detection: the profile's
    /// sla_days (critical 7, high 30, medium 90, low 180 days by default;
    /// `config show` says them). Compared here, as --first-detected-since;
    /// a table, CSV or Markdown adds the AGE and OVER (days over) columns
    #[arg(long, help_heading = "Time")]
    pub(super) over_target: bool,
    /// The targets `--over-target` compares with: the profile's, once the
    /// settings are read ([`IssuesArgs::set_targets`]).
    #[arg(skip)]
    pub(super) targets: findings_config::SlaDays,
    #[command(flatten)]
    pub(crate) columns: ColumnsArgs,
    #[command(flatten)]
    pub(crate) output: OutputArgs,
}

impl IssuesArgs {
    /// The request the flags ask for, every name checked by `names`.
    pub fn request(&self, names: &Names) -> Result<ListIssuesRequest, UsageError> {
        // Only open findings age against a target: the server narrows to
        // them unless states are chosen.
        let open_states: Vec<String>;
        let states = if self.over_target && self.states.is_empty() {
            open_states = AggregateState::OPEN
                .iter()
                .map(|s| s.as_wire().to_owned())
                .collect();
            &open_states
        } else {
            &self.states
        };
        let mut req = self.filters.request(names, "--state", states)?;
        if self.over_target {
            // Compared on the client: the items must carry the time.
            req.include_first_detected_at = Some(true);
        }
        // What the columns show: the first detection, the activity; and
        // `--json`'s computed age fields, the first detection.
        self.columns.ask_for(&mut req);
        // `--json` fetches what it names, as gh does (and `--jq` what its
        // expression reads): a field a list gives only when asked is asked for.
        let script = &self.output.script;
        if script.names_any(crate::scripting::shape::COMPUTED) || script.wants("firstDetectedAt") {
            req.include_first_detected_at = Some(true);
        }
        if script.wants("remediation") {
            req.include_remediation = Some(true);
        }
        if script.wants("activityHistory") {
            req.include_activity_history = Some(true);
        }
        if script.wants("isArchived") {
            req.include_is_archived = Some(true);
        }
        // A sort flag replaces a view's (`--view`).
        if let Some(s) = self.sort.as_deref() {
            req.sort_by = Some(parse_enum(
                "sort field",
                s,
                SortBy::parse_known,
                SortBy::ALL,
                SortBy::label,
            )?);
        }
        if let Some(d) = direction(self.asc, self.desc) {
            req.sort_direction = Some(d);
        }
        req.limit = page_size(&self.followed(false));
        for flag in list(&self.include) {
            match flag.as_str() {
                "remediation" => req.include_remediation = Some(true),
                "activity" | "activity-history" => req.include_activity_history = Some(true),
                "archived" | "is-archived" => req.include_is_archived = Some(true),
                "first-detected" | "first-detected-at" => {
                    req.include_first_detected_at = Some(true);
                }
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

impl IssuesArgs {
    /// The output flags as the listing follows them: a question of the
    /// whole set (`whole`, or a comparison made here: first detection,
    /// `--over-target`) reads every page unless `--max` says how many; one
    /// page of it would be a partial answer that looks whole.
    pub(super) fn followed(&self, whole: bool) -> OutputArgs {
        let compares_here =
            self.over_target || self.filters.first_detected().is_ok_and(|w| w.is_set());
        let mut output = self.output.clone();
        if (whole || compares_here) && output.max.is_none() {
            output.all = true;
        }
        output
    }

    /// The open-age targets `--over-target` compares with (the profile's).
    pub fn set_targets(&mut self, targets: findings_config::SlaDays) {
        self.targets = targets;
    }

    /// The client-side window: first detection, and with `--over-target`
    /// the targets as of the command's clock.
    pub(super) fn window(&self) -> Result<FirstDetected, UsageError> {
        let over_target = if self.over_target {
            let now = findings_requests::clock::now().map_err(UsageError)?;
            Some(OverTarget {
                targets: self.targets,
                now,
            })
        } else {
            None
        };
        Ok(self.filters.first_detected()?.over(over_target))
    }
}

/// `--over-target`'s columns without `--columns`: the default ones with
/// the open age and the days past the target before the message.
fn over_target_columns() -> Result<Vec<&'static findings_export::catalog::FindingColumn>, Failure> {
    let default = findings_export::catalog::PRESETS
        .iter()
        .find(|p| p.name == "default")
        .map_or(&[][..], |p| p.columns);
    let mut names: Vec<&str> = default.to_vec();
    let at = names
        .iter()
        .position(|c| *c == "message")
        .unwrap_or(names.len());
    names.splice(at..at, ["age", "days_over_target"]);
    findings_export::catalog::parse_list(&names).map_err(|e| Failure::Runtime(e.to_string()))
}

/// Lists the findings; returns how many were printed (for `--exit-code`).
pub async fn issues(
    client: &Client,
    req: ListIssuesRequest,
    args: &IssuesArgs,
    script: &Script,
) -> Result<usize, Failure> {
    let format = args.output.format()?;
    let columns = match args.columns.chosen(format, script)? {
        // Past their target, a finding's age and its days over it are the
        // answer: in the default columns of a table, CSV or Markdown.
        None if args.over_target
            && !script.selects()
            && matches!(format, Format::Csv | Format::Table | Format::Markdown) =>
        {
            Some(over_target_columns()?)
        }
        chosen => chosen,
    };
    let columns = with_context(columns, args.targets)?;
    let window = args.window()?;
    let output = &args.followed(false);
    let done = if script.selects() || matches!(format, Format::Json | Format::Ndjson) {
        // The items exactly as the server sent them, without decoding them
        // into the model and encoding them again.
        run_listing(
            client,
            RawListRequest::new(req),
            output,
            Writing {
                format,
                script,
                columns: None,
            },
            |page: RawListPage| window.keep(page.issues),
            |_, _| Ok(()),
        )
        .await
    } else if matches!(format, Format::Csv | Format::Table | Format::Markdown) {
        // Only the columns' fields are decoded: the rest is skipped unread.
        run_listing(
            client,
            ListedRequest::new(req),
            output,
            Writing {
                format,
                script,
                columns,
            },
            |page: ListedPage| window.keep(page.issues.into_iter().map(IssueItem::from).collect()),
            |_, _| Ok(()),
        )
        .await
    } else {
        // SARIF, the one format left: only what a result and its rule
        // read is decoded.
        run_listing(
            client,
            SarifRequest::new(req),
            output,
            Writing {
                format,
                script,
                columns: None,
            },
            |page: SarifPage| window.keep(page.issues.into_iter().map(IssueItem::from).collect()),
            |_, _| Ok(()),
        )
        .await
    };
    window.warn();
    done
}

#[cfg(test)]
mod listed_tests {
    use findings_export::Record;
    use findings_model::*;

    /// A table, CSV or Markdown export decodes only what its columns show:
    /// every cell is the one the whole finding gives.
    #[test]
    fn the_columns_of_a_listed_page_are_those_of_the_whole_page() {
        let items: Vec<IssueItem> =
            serde_json::from_str(include_str!("../../../../assets/pack-samples.json")).unwrap();
        let page = ListIssuesResponse {
            issues: items,
            cursor: Some("c".into()),
        };
        let json = findings_base::json::encode(&page).unwrap();
        let listed: ListedPage = findings_base::json::decode(&json).unwrap();
        assert_eq!(listed.cursor, page.cursor);
        assert_eq!(listed.issues.len(), page.issues.len());
        for (slim, whole) in listed.issues.into_iter().zip(&page.issues) {
            let slim = IssueItem::from(slim);
            assert_eq!(slim.cells(), whole.cells());
            let (s, w) = (slim.issue.unwrap(), whole.issue.clone().unwrap());
            assert_eq!(s.first_detected_at, w.first_detected_at);
            assert!(!s.id().is_empty());
        }
    }
}
