//! The one catalog of finding columns: what `--columns` of the headless
//! listings (csv, table, markdown) and the TUI's export take, each with its
//! name (snake case: the CSV header; a table's header is it in capitals,
//! but `OVER` for days_over_target),
//! a one-line description, its table layout, what the request must ask
//! for so it has values, and how a finding gives its cell. A value the
//! finding lacks is an empty cell, never "null".
//!
//! `choice` holds the presets (`default` is the ten columns every listing
//! writes without `--columns`), the reading of a list of names, and the
//! text `--columns help` prints.

mod choice;
#[cfg(test)]
mod tests;

pub use choice::{Chosen, ColumnsError, PRESETS, Preset, catalog_text, parse, parse_list};

use crate::columns::{Column, Cut, Record, col, label, time};
use findings_model::*;

/// What a column's cells are reckoned with besides the finding: the time
/// ages are counted to (none: the age columns are empty) and the targets.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Context {
    pub now: Option<Timestamp>,
    pub targets: SlaDays,
}

/// What a request must ask for so a column has its values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Needs {
    /// What every List issues item carries.
    Nothing,
    /// `firstDetectedAt` (List issues: `includeFirstDetectedAt`).
    FirstDetected,
    /// The activity history (List issues: `includeActivityHistory`).
    Activity,
}

/// One column of the catalog.
#[derive(Debug, Clone, Copy)]
pub struct FindingColumn {
    /// The name, how a table lays it out and shows it.
    pub layout: Column,
    /// One line: what a cell holds.
    pub description: &'static str,
    pub needs: Needs,
    /// The cell of a finding.
    pub cell: fn(&Issue, &Context) -> String,
}

impl FindingColumn {
    pub fn name(&self) -> &'static str {
        self.layout.name
    }
}

const fn column(
    layout: Column,
    description: &'static str,
    cell: fn(&Issue, &Context) -> String,
) -> FindingColumn {
    FindingColumn {
        layout,
        description,
        needs: Needs::Nothing,
        cell,
    }
}

impl FindingColumn {
    const fn needing(self, needs: Needs) -> FindingColumn {
        FindingColumn { needs, ..self }
    }
}

fn text(v: &Option<String>) -> String {
    v.clone().unwrap_or_default()
}

// The layouts. A narrow table leaves columns out by `drop`, lowest first
// (0: never): the default ten in the TUI's order (the type and message,
// which its list lacks, then the date, the location, the repository; the
// state stays longest), the others placed among them. The minimums of the
// default ten are the TUI's, so at 80 columns the state is still there.
pub(crate) const ID: Column = col("id", 8, 6);
pub(crate) const SEVERITY: Column = col("severity", 8, 8);
pub(crate) const STATE: Column = col("state", 12, 9).dropped(50);
pub(crate) const TYPE: Column = col("type", 8, 7).dropped(22);
pub(crate) const RULE: Column = col("rule", 34, 16).shown(short_rule);
pub(crate) const REPOSITORY: Column = col("repository", 24, 14).dropped(44).cut(Cut::Left);
pub(crate) const LOCATION: Column = col("location", 34, 12).dropped(40).cut(Cut::Left);
pub(crate) const RELEVANT_SINCE: Column = col("relevant_since", 16, 10).dropped(36).cut(Cut::Date);
pub(crate) const MESSAGE: Column = col("message", 30, 18).dropped(24);
/// The finding's web page, for a ticket: a link cut to fit a terminal
/// column is no link, so tables leave it out.
pub(crate) const URL: Column = col("url", 40, 20).not_in_tables();

/// Every column, in the order `--columns help` lists them.
pub const CATALOG: &[FindingColumn] = &[
    column(ID, "the finding's id", |i, _| i.id().to_owned()),
    column(SEVERITY, "critical, high, medium, low or info", |i, _| {
        label(&i.severity)
    }),
    column(
        STATE,
        "the state the STATE column shows: open, reviewing, fixing, fixed, ignored…",
        |i, _| label(&i.aggregate_state),
    ),
    column(
        col("triage_state", 14, 9).dropped(42),
        "the triage decision: untriaged, ignored, reviewing, fixing…",
        |i, _| label(&i.triage_state),
    ),
    column(
        col("triage_reason", 16, 10).dropped(18),
        "why it was triaged so: false positive, acceptable risk…",
        |i, _| label(&i.triage_reason),
    ),
    column(TYPE, "code, supply chain or secrets", |i, _| {
        label(&i.issue_type)
    }),
    column(
        RULE,
        "the rule's display name (supply chain: the advisory and package); tables show its last part",
        |i, _| i.rule_label(),
    ),
    column(
        col("rule_id", 30, 14).dropped(14),
        "the rule's id as the platform names it",
        |i, _| text(&i.rule_id),
    ),
    column(REPOSITORY, "the repository, owner/name", |i, _| {
        i.repository_name().to_owned()
    }),
    column(
        col("branch", 16, 8).dropped(16),
        "the branch (ref) the finding was detected on",
        |i, _| text(&i.ref_),
    ),
    column(LOCATION, "path:line", |i, _| i.location()),
    column(
        col("first_detected", 16, 10).dropped(38).cut(Cut::Date),
        "when it was first detected, on any branch",
        |i, _| time(&i.first_detected_at),
    )
    .needing(Needs::FirstDetected),
    column(
        col("age", 5, 3).dropped(48),
        "days open, from first detection (open findings only, as the TUI's AGE column)",
        |i, c| open_age(i, c).map_or(String::new(), |a| a.days.to_string()),
    )
    .needing(Needs::FirstDetected),
    column(
        col("days_over_target", 5, 4).dropped(46).headed("OVER"),
        "days past the severity's target (the profile's sla_days; 0 within it; open findings only; a table heads it OVER)",
        |i, c| open_age(i, c).map_or(String::new(), |a| a.over.to_string()),
    )
    .needing(Needs::FirstDetected),
    column(
        RELEVANT_SINCE,
        "when it became relevant (detected again after a fix counts anew)",
        |i, _| time(&i.relevant_since),
    ),
    column(
        col("created", 16, 10).dropped(10).cut(Cut::Date),
        "when the platform created the finding",
        |i, _| time(&i.created_at),
    ),
    column(
        col("fixed_at", 16, 10).dropped(12).cut(Cut::Date),
        "when a fixed finding's state last changed (from its activity)",
        |i, _| time(&fixed_at(i)),
    )
    .needing(Needs::Activity),
    column(
        col("ticket", 14, 8).dropped(28).cut(Cut::Left),
        "the external ticket's key (OPS-158), else its link",
        |i, _| ticket(i, false),
    ),
    column(
        col("ticket_url", 40, 20).not_in_tables(),
        "the external ticket's link",
        |i, _| ticket(i, true),
    ),
    column(
        col("fix_pr", 30, 12).dropped(26).cut(Cut::Left),
        "the fix pull request (Autofix): its link where the answer carries one (the single-issue \
         fetch), else where it stands from the activity: requested, opened, merged or failed",
        |i, _| fix_pr(i),
    )
    .needing(Needs::Activity),
    column(
        col("note", 30, 12).dropped(20),
        "the triage note",
        |i, _| text(&i.note),
    ),
    column(
        col("owner_team", 18, 10).dropped(34),
        "the owning teams (code owners that are teams), separated by ;",
        |i, _| owner_teams(i),
    ),
    column(
        col("epss", 7, 5).dropped(30),
        "supply chain: the advisory's EPSS score, the probability of exploitation (0 to 1)",
        |i, _| epss(i),
    ),
    column(
        col("reachability", 23, 9).dropped(32),
        "supply chain: whether the vulnerable code is reachable from yours",
        |i, _| {
            label(
                &i.sca_attributes
                    .as_ref()
                    .and_then(|s| s.reachability.clone()),
            )
        },
    ),
    column(
        col("package", 24, 10).dropped(27).cut(Cut::Left),
        "supply chain: the vulnerable package",
        |i, _| dependency(i, |d| d.package.clone()),
    ),
    column(
        col("version", 12, 7).dropped(29),
        "supply chain: the package's version in use",
        |i, _| dependency(i, |d| d.version.clone()),
    ),
    column(
        col("fix_version", 12, 7).dropped(31),
        "supply chain: the version that fixes it (the best fix, else the first recommended)",
        |i, _| fix_version(i),
    ),
    column(
        col("transitivity", 10, 6).dropped(25).headed("DEP"),
        "supply chain: direct or transitive dependency (a table heads it DEP)",
        |i, _| dependency(i, |d| d.transitivity.clone()).to_ascii_lowercase(),
    ),
    column(
        col("exception", 10, 8).dropped(23),
        "where an exception request stands: requested, approved or rejected (from the activity)",
        |i, _| label(&i.exception_state()),
    )
    .needing(Needs::Activity),
    column(MESSAGE, "the finding's message", |i, _| text(&i.message)),
    column(URL, "the finding's web page (its line of code)", |i, _| {
        i.web_url().unwrap_or_default().to_owned()
    }),
];

/// The open age of `i` as of the context's time ([`SlaDays::open_age`]).
fn open_age(i: &Issue, c: &Context) -> Option<Age> {
    c.targets.open_age(
        i.severity.as_ref(),
        i.aggregate_state.as_ref(),
        i.first_detected_at,
        c.now?,
    )
}

/// When a fixed finding was fixed: its latest status change.
fn fixed_at(i: &Issue) -> Option<Timestamp> {
    if i.aggregate_state != Some(AggregateState::Fixed) {
        return None;
    }
    i.activity_history
        .iter()
        .filter(|e| e.history_type == Some(HistoryType::Status))
        .filter_map(|e| e.date)
        .max()
}

/// A link the server sent, when it is a web URL (never other text
/// offered as one).
fn link(v: &Option<String>) -> String {
    v.clone().filter(|u| is_web_url(u)).unwrap_or_default()
}

fn ticket(i: &Issue, link: bool) -> String {
    let Some(t) = &i.external_ticket else {
        return String::new();
    };
    let nonempty = |s: &Option<String>| s.clone().filter(|s| !s.is_empty());
    let url = nonempty(&t.url).filter(|u| is_web_url(u));
    if link {
        return url.unwrap_or_default();
    }
    nonempty(&t.external_slug).or(url).unwrap_or_default()
}

fn owner_teams(i: &Issue) -> String {
    let teams: Vec<&str> = i
        .codeowners
        .iter()
        .filter(|o| o.is_team == Some(true))
        .filter_map(|o| o.name.as_deref())
        .filter(|n| !n.is_empty())
        .collect();
    teams.join("; ")
}

/// A part of the supply-chain finding's dependency, or nothing.
fn dependency(i: &Issue, part: fn(&Dependency) -> Option<String>) -> String {
    i.sca_attributes
        .as_ref()
        .and_then(|s| s.found_dependency.as_ref())
        .and_then(part)
        .unwrap_or_default()
}

/// The version that fixes it: the best fix, else the first recommended.
fn fix_version(i: &Issue) -> String {
    i.sca_attributes
        .as_ref()
        .and_then(|s| {
            s.best_fix
                .iter()
                .chain(&s.fix_recommendations)
                .find_map(|f| f.version.clone().filter(|v| !v.is_empty()))
        })
        .unwrap_or_default()
}

/// The fix pull request: its link when the answer carries one, else the
/// latest of its events (a list answer has no link: only the single-issue
/// fetch does).
fn fix_pr(i: &Issue) -> String {
    let linked = link(&i.click_to_fix_pr_url);
    if !linked.is_empty() {
        return linked;
    }
    i.activity_history
        .iter()
        .filter_map(|e| {
            let said = match e.history_type {
                Some(HistoryType::ClickToFixPrRequested) => "requested",
                Some(HistoryType::ClickToFixPrOpened) => "opened",
                Some(HistoryType::ClickToFixPrMerged) => "merged",
                Some(HistoryType::ClickToFixPrFailed) => "failed",
                _ => return None,
            };
            Some((e.date, said))
        })
        .max_by_key(|(date, _)| *date)
        .map(|(_, said)| said.to_owned())
        .unwrap_or_default()
}

fn epss(i: &Issue) -> String {
    i.sca_attributes
        .as_ref()
        .and_then(|s| s.epss_score.as_ref())
        .and_then(|e| e.score)
        .filter(|s| s.is_finite())
        .map(|s| s.to_string())
        .unwrap_or_default()
}

/// The column named `name` (snake case).
pub fn find(name: &str) -> Option<&'static FindingColumn> {
    CATALOG.iter().find(|c| c.name() == name)
}

/// The ten columns of a finding without `--columns`: the catalog's
/// `default` preset, whose layouts these are.
pub(crate) const ISSUE_COLUMNS: &[Column] = &[
    ID,
    SEVERITY,
    STATE,
    TYPE,
    RULE,
    REPOSITORY,
    LOCATION,
    RELEVANT_SINCE,
    MESSAGE,
    URL,
];

/// The `default` preset's columns, found in the catalog once.
static DEFAULT: std::sync::LazyLock<Chosen> =
    std::sync::LazyLock::new(|| Chosen::preset("default", Context::default()));

fn issue_cells(i: &Issue) -> Vec<String> {
    DEFAULT.cells(Some(i))
}

impl Record for Issue {
    const COLUMNS: &'static [Column] = ISSUE_COLUMNS;
    fn to_json(&self) -> Result<Vec<u8>, serde_json::Error> {
        findings_base::json::encode(self)
    }
    fn cells(&self) -> Vec<String> {
        issue_cells(self)
    }
    fn issue(&self) -> Option<&Issue> {
        Some(self)
    }
}

impl Record for IssueItem {
    const COLUMNS: &'static [Column] = ISSUE_COLUMNS;
    fn to_json(&self) -> Result<Vec<u8>, serde_json::Error> {
        findings_base::json::encode(self)
    }
    fn cells(&self) -> Vec<String> {
        match &self.issue {
            Some(i) => issue_cells(i),
            None => vec![String::new(); ISSUE_COLUMNS.len()],
        }
    }
    fn issue(&self) -> Option<&Issue> {
        self.issue.as_ref()
    }
}
