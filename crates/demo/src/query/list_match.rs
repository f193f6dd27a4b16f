//! The List issues filter, compiled against the data set: each field with
//! the meaning its published description gives (docs/src/api.md, "Semantics of
//! filters", List issues).
//!
//! A field the description scopes to one issue type ("Only applies when the
//! provided issue_type is SCA") narrows only the findings of that type;
//! findings of other types pass it. Code findings (SAST and AI SAST) are
//! the SAST type. `*_UNSPECIFIED` values do not filter.

use super::fuzzy::PathQuery;
use super::list_tables::{active, admits, ref_id_table, ref_table, repo_table, rule_tables};
use super::memo::Bits;
use super::{bound, class};
use crate::dataset::*;
use crate::materialize::Parts;
use findings_model::*;

/// How long a fix PR request stays in flight ("a 10-minute cooldown").
const AUTOFIX_COOLDOWN_SECS: i64 = 600;

/// [`active`] for the model's enums.
macro_rules! active {
    ($list:expr) => {
        active(&$list, |v| v.as_wire())
    };
}

/// A memory-id filter: `None` when absent or empty, else the memory index
/// the id names (`Some(None)` when it names none of the data set's).
fn memory_filter(id: &Option<String>) -> Option<Option<u8>> {
    match id.as_deref() {
        None | Some("") => None,
        Some(id) => Some((0..=u8::MAX).find(|&k| memory_id(k) == id)),
    }
}

/// A finding's memory reference `m` against a [`memory_filter`].
fn memory_matches(filter: Option<Option<u8>>, m: Option<u8>) -> bool {
    match filter {
        None => true,
        Some(target) => target.is_some() && m == target,
    }
}

/// The general status (`tab`) an aggregate state falls under.
fn tab_of(state: &AggregateState) -> Option<IssueTab> {
    Some(match state {
        AggregateState::Open => IssueTab::Open,
        AggregateState::Reviewing => IssueTab::Reviewing,
        AggregateState::Fixing => IssueTab::Fixing,
        AggregateState::IgnoredApp | AggregateState::IgnoredCode => IssueTab::Ignored,
        AggregateState::ProvisionallyIgnoredApp => IssueTab::ProvisionallyIgnored,
        AggregateState::Fixed | AggregateState::Removed => IssueTab::Closed,
        _ => return None,
    })
}

/// A supply-chain reachability as an exposure.
fn exposure_of(r: &Reachability) -> Exposure {
    match r {
        Reachability::Reachable
        | Reachability::AlwaysReachable
        | Reachability::ConditionallyReachable => Exposure::Reachable,
        Reachability::Unreachable => Exposure::Unreachable,
        _ => Exposure::Unknown,
    }
}

/// The EPSS bucket of an emitted categorization (by its last word, so the
/// bucket is read whatever prefix the data set writes); no EPSS score is
/// `NONE`.
fn epss_of(categorization: Option<&str>) -> EpssProbability {
    match categorization.and_then(|c| c.rsplit('_').next()) {
        Some("HIGH") => EpssProbability::High,
        Some("MEDIUM") => EpssProbability::Medium,
        Some("LOW") => EpssProbability::Low,
        _ => EpssProbability::None,
    }
}

/// The time `since` and `relativeSince` bound, as `timeFilter` picks it.
#[derive(Clone, Copy)]
enum SinceOf {
    RelevantSince,
    TriagedAt,
    FixedAt,
}

/// A List issues filter compiled against the data set: what depends on a
/// repository, a ref or a rule is decided once per catalog entry, so
/// testing a row is a few table look-ups.
pub(super) struct ListMatcher<'a> {
    ds: &'a Dataset,
    /// The state the rows are matched in (triage applied).
    changes: &'a Changes,
    ids: Option<Bits>,
    kind_ok: [bool; 4],
    repo_ok: Vec<bool>,
    /// By `repo * 256 + ref_slot`, when refs are filtered.
    ref_ok: Option<Vec<bool>>,
    /// Repositories whose primary ref (the one ref the data set gives an
    /// id) `repositoryRefIds` names.
    ref_id_ok: Option<Vec<bool>>,
    rule_ok: [Vec<bool>; 3],
    sensitivity: Option<Vec<Sensitivity>>,
    verdicts: Option<Vec<Verdict>>,
    status: Option<Vec<IssueStatus>>,
    tab: Option<IssueTab>,
    confidences: Option<Vec<Confidence>>,
    severities: Option<Vec<Severity>>,
    transitivities: Option<Vec<Transitivity>>,
    exposures: Option<Vec<Exposure>>,
    reachabilities: Option<Vec<Reachability>>,
    validation: Option<Vec<ValidationState>>,
    /// Whether secrets pass `repoVisibilities` (every demo repository's
    /// visibility is unknown).
    visibility_ok: bool,
    epss: Option<Vec<EpssProbability>>,
    triage_reasons: Option<Vec<TriageReason>>,
    aggregate: Option<Vec<AggregateState>>,
    pr_states: Option<Vec<ClickToFixPrState>>,
    /// Supply-chain findings pass the upgrade-guidance filters only when
    /// none is set: the data set has no upgrade guidance.
    upgrade_guidance_set: bool,
    preprod_only: bool,
    parents: Option<Vec<(u8, u16)>>,
    file_path: Option<PathTable>,
    since_of: SinceOf,
    since: Option<i64>,
    until: Option<i64>,
    exclude_historical: bool,
    on_primary_branch: Option<bool>,
    exclude_ticketed: bool,
    exclude_memory_rendered: bool,
    in_flight_pr: Option<bool>,
    memory_referenced: Option<Option<u8>>,
    memory_rendered: Option<Option<u8>>,
    memory_in_scope: Option<Option<u8>>,
    will_flip: Option<Option<u8>>,
}

impl<'a> ListMatcher<'a> {
    pub(super) fn new(
        ds: &'a Dataset,
        changes: &'a Changes,
        f: &'a ListIssuesFilter,
        issue_types: &[IssueType],
    ) -> Self {
        let kinds = [Kind::Code, Kind::AiCode, Kind::Sca, Kind::Secrets];
        let kind_ok =
            kinds.map(|k| issue_types.is_empty() || issue_types.contains(&k.issue_type()));
        let sensitivity = (!f.ai_sensitivities.is_empty()).then(|| {
            f.ai_sensitivities
                .iter()
                .map(|s| Sensitivity::from_wire(s))
                .collect()
        });
        let since_of = match f.time_filter {
            Some(TimeFilter::TriagedAt) => SinceOf::TriagedAt,
            Some(TimeFilter::FixedAt) => SinceOf::FixedAt,
            _ => SinceOf::RelevantSince,
        };
        ListMatcher {
            ds,
            changes,
            ids: ids_table(ds, f),
            kind_ok,
            repo_ok: repo_table(ds, f),
            ref_ok: ref_table(ds, f),
            ref_id_ok: ref_id_table(ds, f),
            rule_ok: rule_tables(ds, f),
            sensitivity,
            verdicts: active!(f.ai_verdicts),
            status: active!(f.status),
            tab: f
                .tab
                .clone()
                .filter(|t| !t.as_wire().ends_with("_UNSPECIFIED")),
            confidences: active!(f.confidences),
            severities: active!(f.severities),
            transitivities: active!(f.transitivities),
            exposures: active!(f.exposures),
            reachabilities: active!(f.reachabilities),
            validation: active!(f.validation_states),
            visibility_ok: active!(f.repo_visibilities)
                .is_none_or(|v| v.contains(&RepoVisibility::Unknown)),
            epss: active!(f.epss_probabilities),
            triage_reasons: active!(f.triage_reasons),
            aggregate: active!(f.aggregate_issue_states),
            pr_states: active!(f.click_to_fix_pr_states),
            upgrade_guidance_set: active!(f.upgrade_guidance).is_some()
                || active!(f.upgrade_guidance_filters).is_some(),
            preprod_only: f.backlog_type == Some(BacklogType::Preprod),
            parents: parent_keys(f),
            file_path: f
                .file_paths
                .first()
                .and_then(|p| PathQuery::new(p))
                .map(|q| PathTable::new(ds, &q)),
            since_of,
            since: since_bound(ds, f),
            until: f.until.map(bound),
            exclude_historical: f.exclude_historical == Some(true),
            on_primary_branch: f.on_primary_branch,
            exclude_ticketed: f.include_ticketed == Some(false),
            exclude_memory_rendered: f.include_ai_memory_rendered == Some(false),
            in_flight_pr: f.has_in_flight_autofix_pr,
            memory_referenced: memory_filter(&f.ai_memory_referenced),
            memory_rendered: memory_filter(&f.ai_memory_rendered),
            memory_in_scope: memory_filter(&f.memory_id_in_scope),
            will_flip: memory_filter(&f.ai_memory_will_flip_verdict),
        }
    }

    /// Whether an in-flight fix PR request: the latest PR lifecycle event is
    /// the request, within the cooldown before the data set's now.
    fn in_flight(&self, i: usize, row: &Row) -> bool {
        if let Some(fix) = self.changes.acted.fixes.get(&i) {
            return fix.state == FixPr::Requested;
        }
        // A snapshot's findings have no generated history.
        if row.fix_pr.is_none() || self.ds.offline.is_some() {
            return row.fix_pr == Some(FixPr::Requested);
        }
        // The history as generated: triage adds no fix PR events.
        let latest = self
            .ds
            .timeline(i, &self.ds.rows[i])
            .into_iter()
            .rev()
            .find(|e| {
                matches!(
                    e.history_type(),
                    HistoryType::ClickToFixPrRequested
                        | HistoryType::ClickToFixPrOpened
                        | HistoryType::ClickToFixPrFailed
                )
            });
        latest.is_some_and(|e| {
            *e.history_type() == HistoryType::ClickToFixPrRequested
                && e.date >= self.ds.now() - AUTOFIX_COOLDOWN_SECS
        })
    }

    /// The filters of every issue type.
    fn common(&self, i: usize, row: &Row) -> bool {
        let aggregate = &AggregateState::ALL[row.aggregate as usize];
        let since_time = match self.since_of {
            SinceOf::RelevantSince => Some(row.relevant_since),
            SinceOf::TriagedAt => row.triaged_at,
            SinceOf::FixedAt => row.fixed_at,
        };
        self.kind_ok[row.kind as usize]
            && self.repo_ok[row.repo as usize]
            && self.rule_ok[class(row.kind)][row.rule as usize]
            && self
                .ref_ok
                .as_ref()
                .is_none_or(|ok| ok[row.repo as usize * 256 + row.ref_slot as usize])
            && self
                .ref_id_ok
                .as_ref()
                .is_none_or(|ok| row.ref_slot == 0 && ok[row.repo as usize])
            && self.sensitivity.as_ref().is_none_or(|ok| {
                row.sensitivity
                    .is_some_and(|s| ok.contains(&Sensitivity::ALL[s as usize]))
            })
            && self.verdicts.as_ref().is_none_or(|ok| match row.verdict {
                Some(v) => ok.contains(&Verdict::ALL[v as usize]),
                None => ok.contains(&Verdict::NoVerdict),
            })
            && admits(&self.status, &IssueStatus::ALL[row.status as usize])
            && self
                .tab
                .as_ref()
                .is_none_or(|t| tab_of(aggregate).as_ref() == Some(t))
            && admits(&self.severities, &Severity::ALL[row.severity as usize])
            && self
                .triage_reasons
                .as_ref()
                .is_none_or(|ok| match row.triage_reason {
                    Some(k) => ok.contains(&TriageReason::ALL[k as usize]),
                    None => ok.contains(&TriageReason::NoTriageReason),
                })
            && admits(&self.aggregate, aggregate)
            && self
                .since
                .is_none_or(|s| since_time.is_some_and(|t| t >= s))
            && self.until.is_none_or(|u| row.created < u)
            && self
                .on_primary_branch
                .is_none_or(|p| p == (row.ref_slot == 0))
            && !(self.exclude_ticketed && row.ticket)
            && self
                .in_flight_pr
                .is_none_or(|h| h == self.in_flight(i, row))
            && self.will_flip_ok(i, row)
            && self
                .parents
                .as_ref()
                .is_none_or(|p| p.contains(&(row.repo, row.rule)))
            && self.file_path.as_ref().is_none_or(|t| t.admits(row))
            && self.ids.as_ref().is_none_or(|ids| ids.get(i))
    }

    /// The filters scoped to code (SAST) findings.
    fn code(&self, i: usize, row: &Row) -> bool {
        admits(&self.confidences, &Confidence::ALL[row.confidence as usize])
            && !(self.preprod_only && Dataset::review_count(i) == 0)
            && !(self.exclude_memory_rendered && row.memory_rendered.is_some())
            && memory_matches(self.memory_referenced, row.memory_referenced)
            && memory_matches(self.memory_rendered, row.memory_rendered)
            && (self.memory_in_scope.is_none()
                || memory_matches(self.memory_in_scope, row.memory_referenced)
                || memory_matches(self.memory_in_scope, row.memory_rendered)
                || self.created_in_scope(self.memory_in_scope, i))
            && self.pr_states_ok(row)
    }

    /// `aiMemoryWillFlipVerdict`: for a generated memory, the findings
    /// that referenced it and are false positives; for one created from a
    /// triage note (docs/src/api.md "Memories"), the findings in its scope
    /// whose verdict is true positive (the note would make them false
    /// positives).
    fn will_flip_ok(&self, i: usize, row: &Row) -> bool {
        let verdict_is = |want: Verdict| {
            row.verdict
                .is_some_and(|v| Verdict::ALL[v as usize] == want)
        };
        match self.will_flip {
            None => true,
            Some(Some(k)) if self.changes.acted.memory(k).is_some() => {
                self.created_in_scope(self.will_flip, i) && verdict_is(Verdict::TruePositive)
            }
            Some(_) => {
                memory_matches(self.will_flip, row.memory_referenced)
                    && verdict_is(Verdict::FalsePositive)
            }
        }
    }

    /// Whether finding `i` was in the scope of the created memory `filter`
    /// names.
    fn created_in_scope(&self, filter: Option<Option<u8>>, i: usize) -> bool {
        match filter {
            Some(Some(k)) => self
                .changes
                .acted
                .memory(k)
                .is_some_and(|m| m.in_scope.get(i).copied().unwrap_or(false)),
            _ => false,
        }
    }

    fn pr_states_ok(&self, row: &Row) -> bool {
        let state = match row.fix_pr {
            Some(FixPr::Open) => ClickToFixPrState::Open,
            Some(FixPr::Merged) => ClickToFixPrState::Merged,
            _ => ClickToFixPrState::NoPr,
        };
        admits(&self.pr_states, &state)
    }

    /// The filters scoped to supply-chain findings.
    fn sca(&self, i: usize, row: &Row) -> bool {
        let reachability = row.reachability.map(|k| &Reachability::ALL[k as usize]);
        let transitivity = if row.transitive {
            Transitivity::Transitive
        } else {
            Transitivity::Direct
        };
        !self.upgrade_guidance_set
            && admits(&self.transitivities, &transitivity)
            && self
                .exposures
                .as_ref()
                .is_none_or(|ok| ok.contains(&reachability.map_or(Exposure::Unknown, exposure_of)))
            && self
                .reachabilities
                .as_ref()
                .is_none_or(|ok| reachability.is_some_and(|r| ok.contains(r)))
            && self.pr_states_ok(row)
            && self.epss.as_ref().is_none_or(|ok| {
                // The score is made with the rest of the finding.
                let issue = self.ds.issue_with(self.changes, i, Parts::default());
                let category = issue
                    .sca_attributes
                    .and_then(|s| s.epss_score)
                    .and_then(|e| e.categorization);
                ok.contains(&epss_of(category.as_deref()))
            })
    }

    /// The filters scoped to secrets findings.
    fn secrets(&self, row: &Row) -> bool {
        self.visibility_ok
            && !(self.exclude_historical && row.historical)
            && self.validation.as_ref().is_none_or(|ok| {
                row.validation
                    .is_some_and(|v| ok.contains(&ValidationState::ALL[v as usize]))
            })
    }

    pub(super) fn matches(&self, i: usize) -> bool {
        let row = &self.changes.row(i, &self.ds.rows[i]);
        self.common(i, row)
            && match row.kind {
                Kind::Code | Kind::AiCode => self.code(i, row),
                Kind::Sca => self.sca(i, row),
                Kind::Secrets => self.secrets(row),
            }
    }

    /// Whether a row of this repository, ref, kind and rule can match: the
    /// filters on those four alone, which every row of a
    /// [`RowIndex`](super::row_index::RowIndex) group passes or none does
    /// (`false`: no row of the group matches; `true`: [`Self::matches`]
    /// decides).
    pub(super) fn admits_group(&self, repo: u8, ref_slot: u8, kind: Kind, rule: u16) -> bool {
        self.kind_ok[kind as usize]
            && self.repo_ok[repo as usize]
            && self.rule_ok[class(kind)][rule as usize]
            && self
                .ref_ok
                .as_ref()
                .is_none_or(|ok| ok[repo as usize * 256 + ref_slot as usize])
            && self
                .ref_id_ok
                .as_ref()
                .is_none_or(|ok| ref_slot == 0 && ok[repo as usize])
            && self.on_primary_branch.is_none_or(|p| p == (ref_slot == 0))
            && self
                .parents
                .as_ref()
                .is_none_or(|p| p.contains(&(repo, rule)))
            && self
                .file_path
                .as_ref()
                .is_none_or(|t| t.may_admit(kind, rule))
    }

    /// The rows `ids` names, when the filter names any: no other row
    /// matches.
    pub(super) fn named_rows(&self) -> Option<&Bits> {
        self.ids.as_ref()
    }

    /// Every row the filter matches, in one pass over the rows.
    pub(super) fn scan(&self) -> Bits {
        let mut bits = Bits::new(self.ds.rows.len());
        for i in 0..self.ds.rows.len() {
            if self.matches(i) {
                bits.set(i);
            }
        }
        bits
    }
}

/// The findings `ids` names, when it names any.
fn ids_table(ds: &Dataset, f: &ListIssuesFilter) -> Option<Bits> {
    (!f.ids.is_empty()).then(|| {
        let mut bits = Bits::new(ds.rows.len());
        for i in f.ids.iter().filter_map(|id| ds.index_of(id)) {
            bits.set(i);
        }
        bits
    })
}

/// The (repository, rule) keys of `issueParentIds`. Parent ids are
/// `ip-{repo}-{rule}`: keep those a row can have.
fn parent_keys(f: &ListIssuesFilter) -> Option<Vec<(u8, u16)>> {
    (!f.issue_parent_ids.is_empty()).then(|| {
        f.issue_parent_ids
            .iter()
            .filter_map(|p| {
                let (repo, rule) = p.strip_prefix("ip-")?.split_once('-')?;
                let key = (repo.parse::<u8>().ok()?, rule.parse::<u16>().ok()?);
                (format!("ip-{}-{}", key.0, key.1) == *p).then_some(key)
            })
            .collect()
    })
}

/// The lower time bound of `since` and `relativeSince` (before the data
/// set's now); both hold when both are given.
fn since_bound(ds: &Dataset, f: &ListIssuesFilter) -> Option<i64> {
    let relative = f.relative_since.as_ref().and_then(|r| {
        let day = 86_400;
        let span = match r {
            RelativeSince::OneMinute => 60,
            RelativeSince::OneDay => day,
            RelativeSince::OneWeek => 7 * day,
            RelativeSince::OneMonth => 30 * day,
            RelativeSince::ThreeMonths => 90 * day,
            RelativeSince::SixMonths => 182 * day,
            RelativeSince::OneYear => 365 * day,
            _ => return None,
        };
        Some(ds.now() - span)
    });
    match (f.since.map(bound), relative) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    }
}

/// The file-path filter decided once per file the catalog names, by rule
/// list, rule and the row's file slot (its path index; for SCA, manifest or
/// lockfile): the same answers as matching [`Dataset::file_path`] row by
/// row, without a fuzzy match per row (700 ms at a million rows).
struct PathTable {
    by_rule: [Vec<Vec<bool>>; 3],
    /// A row whose slot names no file has the empty path.
    empty: bool,
}

impl PathTable {
    fn new(ds: &Dataset, q: &PathQuery) -> Self {
        let c = &ds.catalog;
        let each = |paths: &[String]| paths.iter().map(|p| q.matches(p)).collect::<Vec<_>>();
        PathTable {
            by_rule: [
                c.code_rules.iter().map(|r| each(&r.paths)).collect(),
                c.sca_advisories
                    .iter()
                    .map(|a| vec![q.matches(&a.manifest_file), q.matches(&a.lockfile)])
                    .collect(),
                c.secret_rules.iter().map(|r| each(&r.paths)).collect(),
            ],
            empty: q.matches(""),
        }
    }

    /// Whether a file of rule `rule` (of `kind`) can pass: false when
    /// [`Self::admits`] refuses every row of that rule.
    fn may_admit(&self, kind: Kind, rule: u16) -> bool {
        self.empty
            || self.by_rule[class(kind)]
                .get(rule as usize)
                .is_some_and(|files| files.contains(&true))
    }

    fn admits(&self, row: &Row) -> bool {
        let slot = match row.kind {
            Kind::Sca => usize::from(row.transitive),
            _ => row.path as usize,
        };
        self.by_rule[class(row.kind)]
            .get(row.rule as usize)
            .and_then(|files| files.get(slot))
            .copied()
            .unwrap_or(self.empty)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_path_table_answers_as_matching_each_rows_path() {
        let ds = Dataset::generate(3_000, 7, super::super::at(1_790_000_000), "1234");
        for query in [
            "src",
            "package",
            "yarn.lock",
            "api/handlers",
            "pom",
            ".env",
            "zz",
        ] {
            let q = PathQuery::new(query).expect("a query");
            let table = PathTable::new(&ds, &q);
            for row in &ds.rows {
                assert_eq!(
                    table.admits(row),
                    q.matches(ds.file_path(row)),
                    "{query} on {}",
                    ds.file_path(row)
                );
            }
        }
    }

    #[test]
    fn every_aggregate_state_but_unknown_has_a_tab() {
        for s in AggregateState::ALL {
            assert_eq!(tab_of(s).is_none(), *s == AggregateState::Unknown, "{s:?}");
        }
    }

    #[test]
    fn epss_buckets_read_either_prefix() {
        assert_eq!(
            epss_of(Some("EPSS_PROBABILITY_HIGH")),
            EpssProbability::High
        );
        assert_eq!(
            epss_of(Some("EPSS_CATEGORIZATION_LOW")),
            EpssProbability::Low
        );
        assert_eq!(epss_of(None), EpssProbability::None);
    }
}
