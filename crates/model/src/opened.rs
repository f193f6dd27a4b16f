//! "This period" answered: the findings opened (created) in a period,
//! counted by rule and by repository as the report's pages stream past,
//! none kept (`report --kind opened`, the Report pane's rules and
//! repositories with a period). Two counts of the same filters and
//! period: all opened (Report findings' `PROJECT`: every state, created
//! in it; the activity report's "opened") and still open of those
//! (`TOTAL_OPEN`: open, reviewing or fixing now, created in it).
//!
//! And a rule's one name ([`rule_shown`]): a supply-chain rule by its
//! advisory and package as its findings name it (`CVE-2021-44906
//! minimist`, [`RuleLabels`]), else the name the filter values give,
//! else its id's last part; never the opaque `ssc-<uuid>` where a name
//! can be had.

use super::enums::AggregateState;
use super::issue::{Dependency, Issue, ScaAttributes, short_rule};
use super::issue_filters::IssueFiltersResponse;
use super::pages::FindingsPage;
use super::report::TimePeriod;
use serde::Deserialize;
use std::collections::HashMap;

/// What a count of findings by rule and repository reads of each: the
/// rule, what names it, the repository, and the state. The rest of a
/// finding is skipped unread.
#[derive(Debug, Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct TallyIssue {
    rule_id: Option<String>,
    rule_display_name: Option<String>,
    rule_path: Option<String>,
    repository: Option<TallyRepository>,
    sca_attributes: Option<TallySca>,
    aggregate_state: Option<AggregateState>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(default)]
struct TallyRepository {
    name: Option<String>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct TallySca {
    vuln_database_identifier: Option<String>,
    found_dependency: Option<TallyDependency>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(default)]
struct TallyDependency {
    package: Option<String>,
}

/// A report page read for a count ([`TallyIssue`]), with its totals.
pub type TallyPage = FindingsPage<TallyIssue>;

impl TallyIssue {
    /// The rule's key: its id, else what names it.
    fn rule_key(&self) -> String {
        match self.rule_id.as_deref().filter(|r| !r.is_empty()) {
            Some(id) => id.to_owned(),
            None => self.as_issue().rule_label(),
        }
    }

    /// The advisory and package of a supply-chain finding's rule, as the
    /// list's RULE column names it (`None`: not a supply-chain finding).
    pub fn advisory_label(&self) -> Option<String> {
        self.sca_attributes
            .as_ref()
            .and_then(|s| s.vuln_database_identifier.as_ref())?;
        Some(self.as_issue().rule_label())
    }

    pub fn rule_id(&self) -> Option<&str> {
        self.rule_id.as_deref().filter(|r| !r.is_empty())
    }

    pub fn repository_name(&self) -> &str {
        self.repository
            .as_ref()
            .and_then(|r| r.name.as_deref())
            .unwrap_or("")
    }

    pub fn aggregate_state(&self) -> Option<&AggregateState> {
        self.aggregate_state.as_ref()
    }

    /// The fields read, as the model's finding (to name its rule as
    /// [`Issue::rule_label`] does).
    fn as_issue(&self) -> Issue {
        Issue {
            rule_id: self.rule_id.clone(),
            rule_display_name: self.rule_display_name.clone(),
            rule_path: self.rule_path.clone(),
            sca_attributes: self.sca_attributes.as_ref().map(|s| ScaAttributes {
                vuln_database_identifier: s.vuln_database_identifier.clone(),
                found_dependency: s.found_dependency.as_ref().map(|d| Dependency {
                    package: d.package.clone(),
                    ..Dependency::default()
                }),
                ..ScaAttributes::default()
            }),
            ..Issue::default()
        }
    }
}

/// The names findings gave supply-chain rules (`CVE-2021-44906
/// minimist`), by rule id: the filter values name such a rule by its
/// advisory alone and its id is opaque, so the package comes from one of
/// its findings. At most [`RuleLabels::MOST`] rules are kept.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RuleLabels {
    of: HashMap<String, String>,
}

impl RuleLabels {
    /// More rules than any deployment has advisories of: past it, a
    /// server sending endless rule ids fills no memory.
    pub const MOST: usize = 20_000;

    pub fn learn(&mut self, labels: &[(String, String)]) {
        for (rule, label) in labels {
            self.learn_one(rule, label);
        }
    }

    /// Learns every label `other` knows.
    pub fn learn_from(&mut self, other: &RuleLabels) {
        for (rule, label) in &other.of {
            self.learn_one(rule, label);
        }
    }

    pub fn learn_one(&mut self, rule: &str, label: &str) {
        if self.of.len() < Self::MOST || self.of.contains_key(rule) {
            self.of.insert(rule.to_owned(), label.to_owned());
        }
    }

    /// Learns the label of `issue`'s rule when it is a supply-chain
    /// finding's.
    pub fn note(&mut self, issue: &Issue) {
        let named = issue
            .sca_attributes
            .as_ref()
            .is_some_and(|s| s.vuln_database_identifier.is_some());
        if let Some(rule) = issue.rule_id.as_deref().filter(|r| !r.is_empty())
            && named
            && !self.of.contains_key(rule)
        {
            self.learn_one(rule, &issue.rule_label());
        }
    }

    /// Learns the label of a counted finding's rule when it is a
    /// supply-chain finding's (named once: the first finding tells).
    pub fn note_tallied(&mut self, finding: &TallyIssue) {
        if let Some(rule) = finding.rule_id()
            && self.of(rule).is_none()
            && let Some(label) = finding.advisory_label()
        {
            self.learn_one(rule, &label);
        }
    }

    pub fn of(&self, rule: &str) -> Option<&str> {
        self.of.get(rule).map(String::as_str)
    }

    pub fn len(&self) -> usize {
        self.of.len()
    }

    pub fn is_empty(&self) -> bool {
        self.of.is_empty()
    }

    /// Of `ids`, those the filter values name by an advisory (their ids
    /// are opaque) whose package no finding has told yet: the ones to
    /// ask one finding of.
    pub fn missing<'a>(
        &self,
        ids: impl IntoIterator<Item = &'a str>,
        values: &IssueFiltersResponse,
    ) -> Vec<String> {
        let mut missing: Vec<String> = ids
            .into_iter()
            .filter(|id| self.of(id).is_none() && values.names_an_advisory(id))
            .map(str::to_owned)
            .collect();
        missing.sort();
        missing.dedup();
        missing
    }
}

/// Rule `id` by its one name: a supply-chain rule by advisory and package
/// as a finding named it ([`RuleLabels`]), else by the name the filter
/// values give (a code rule's display name; an advisory alone when no
/// finding told its package), else by its id's last part.
pub fn rule_shown(id: &str, labels: &RuleLabels, values: Option<&IssueFiltersResponse>) -> String {
    labels
        .of(id)
        .or_else(|| values.and_then(|v| v.rule_name(id)))
        .unwrap_or_else(|| short_rule(id))
        .to_owned()
}

/// Findings counted by rule and by repository, and their report's own
/// total (its first page's). Bounded: past [`Tally::MOST`] rules or
/// repositories, the findings of a new one are counted in
/// [`Tally::counted`] alone (a server sending endless names fills no
/// memory).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tally {
    pub rules: HashMap<String, u64>,
    pub repositories: HashMap<String, u64>,
    /// Every finding counted.
    pub counted: u64,
    /// The report's total, as its first page said.
    pub total: Option<i64>,
}

impl Tally {
    pub const MOST: usize = 20_000;

    /// Counts one finding.
    pub fn add(&mut self, finding: &TallyIssue) {
        self.counted += 1;
        let rule = finding.rule_key();
        bump(&mut self.rules, rule);
        let repo = match finding.repository_name() {
            "" => "(no repository)".to_owned(),
            name => name.to_owned(),
        };
        bump(&mut self.repositories, repo);
    }

    /// Whether every finding of the report was counted (the sum is its
    /// total): a listing changed while it was read says otherwise.
    pub fn is_whole(&self) -> bool {
        self.total
            .is_none_or(|t| u64::try_from(t).is_ok_and(|t| t == self.counted))
    }
}

fn bump(counts: &mut HashMap<String, u64>, key: String) {
    if counts.len() < Tally::MOST || counts.contains_key(&key) {
        *counts.entry(key).or_default() += 1;
    }
}

/// The findings opened in a period, by rule and repository: all of them,
/// and those still open; with the labels their supply-chain findings
/// gave their rules.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OpenedInPeriod {
    /// The period counted (createdAt in it); `None`: all time.
    pub period: Option<TimePeriod>,
    /// Report findings `PROJECT`: every state.
    pub opened: Tally,
    /// Report findings `TOTAL_OPEN`: open, reviewing or fixing now.
    pub still_open: Tally,
    pub labels: RuleLabels,
}

/// One rule's or repository's row: opened in the period, still open of
/// those.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Opened {
    pub opened: u64,
    pub still_open: u64,
}

impl OpenedInPeriod {
    /// Rules by id, most opened first (then most still open, then by id).
    pub fn rules(&self) -> Vec<(String, Opened)> {
        rows(&self.opened.rules, &self.still_open.rules)
    }

    /// Repositories by name, most opened first.
    pub fn repositories(&self) -> Vec<(String, Opened)> {
        rows(&self.opened.repositories, &self.still_open.repositories)
    }

    /// Opened in the period, and still open of them: the reports' totals
    /// (what the activity report's "opened" and `report --report-type
    /// total-open` say), else what was counted.
    pub fn totals(&self) -> Opened {
        let total = |t: &Tally| {
            t.total
                .and_then(|n| u64::try_from(n).ok())
                .unwrap_or(t.counted)
        };
        Opened {
            opened: total(&self.opened),
            still_open: total(&self.still_open),
        }
    }
}

fn rows(opened: &HashMap<String, u64>, still: &HashMap<String, u64>) -> Vec<(String, Opened)> {
    let mut rows: Vec<(String, Opened)> = opened
        .iter()
        .map(|(key, n)| {
            let still_open = still.get(key).copied().unwrap_or(0);
            (
                key.clone(),
                Opened {
                    opened: *n,
                    still_open,
                },
            )
        })
        .collect();
    // A finding still open is one opened: a key only the still-open count
    // has (the findings changed between the two reads) is kept too.
    for (key, n) in still {
        if !opened.contains_key(key) {
            rows.push((
                key.clone(),
                Opened {
                    opened: *n,
                    still_open: *n,
                },
            ));
        }
    }
    rows.sort_by(|a, b| {
        (b.1.opened, b.1.still_open)
            .cmp(&(a.1.opened, a.1.still_open))
            .then_with(|| a.0.cmp(&b.0))
    });
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(json: &str) -> TallyIssue {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn a_tally_counts_by_rule_and_repository_and_names_an_advisory_with_its_package() {
        let sca = finding(
            r#"{"ruleId":"ssc-1","repository":{"name":"acme/a"},
                "scaAttributes":{"vulnDatabaseIdentifier":"CVE-2021-44906",
                "foundDependency":{"package":"minimist"}},"message":"skipped"}"#,
        );
        let code = finding(r#"{"ruleId":"a.b.use-of-md5","repository":{"name":"acme/b"}}"#);
        assert_eq!(
            sca.advisory_label().as_deref(),
            Some("CVE-2021-44906 minimist")
        );
        assert_eq!(code.advisory_label(), None);
        let mut tally = Tally {
            total: Some(3),
            ..Tally::default()
        };
        for f in [&sca, &code, &code] {
            tally.add(f);
        }
        assert_eq!(tally.rules["a.b.use-of-md5"], 2);
        assert_eq!(tally.repositories["acme/a"], 1);
        assert!(tally.is_whole());
        tally.total = Some(4);
        assert!(!tally.is_whole());
    }

    #[test]
    fn rows_go_most_opened_first_with_the_still_open_beside() {
        let mut opened = Tally::default();
        let mut still = Tally::default();
        let f = |rule: &str| finding(&format!(r#"{{"ruleId":"{rule}"}}"#));
        for rule in ["a", "b", "b", "c", "c"] {
            opened.add(&f(rule));
        }
        for rule in ["c", "b", "b"] {
            still.add(&f(rule));
        }
        let period = OpenedInPeriod {
            opened,
            still_open: still,
            ..OpenedInPeriod::default()
        };
        let rules = period.rules();
        let keys: Vec<&str> = rules.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["b", "c", "a"]);
        assert_eq!(
            rules[1].1,
            Opened {
                opened: 2,
                still_open: 1
            }
        );
        assert_eq!(
            period.totals(),
            Opened {
                opened: 5,
                still_open: 3
            }
        );
    }

    #[test]
    fn a_rule_is_shown_by_its_advisory_and_package_else_its_name_else_its_last_part() {
        let values: IssueFiltersResponse = serde_json::from_str(
            r#"{"rules":[{"id":"ssc-1","name":"Prototype pollution in minimist","scaCve":"CVE-2021-44906"},
                          {"id":"a.b.use-of-md5","name":"Weak hash"}]}"#,
        )
        .unwrap();
        let mut labels = RuleLabels::default();
        assert_eq!(
            rule_shown("ssc-1", &labels, Some(&values)),
            "CVE-2021-44906"
        );
        assert_eq!(
            labels.missing(["ssc-1", "a.b.use-of-md5"], &values),
            ["ssc-1"]
        );
        labels.learn_one("ssc-1", "CVE-2021-44906 minimist");
        assert_eq!(
            rule_shown("ssc-1", &labels, Some(&values)),
            "CVE-2021-44906 minimist"
        );
        assert!(labels.missing(["ssc-1"], &values).is_empty());
        assert_eq!(
            rule_shown("a.b.use-of-md5", &labels, Some(&values)),
            "Weak hash"
        );
        assert_eq!(rule_shown("a.b.other", &labels, None), "other");
    }
}
