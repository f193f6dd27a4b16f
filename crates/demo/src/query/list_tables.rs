//! The parts of a List issues filter decided once per catalog entry, so
//! that `list_match` tests a row with look-ups: which repositories, refs
//! and rules the filter admits. And the two helpers every filter list
//! uses: which values of an array filter filter, and what such a list
//! admits.

use super::CLASS_KINDS;
use crate::dataset::*;
use findings_model::*;

/// The values of an array filter that filter: `None` when there are none
/// (an empty list, or only `*_UNSPECIFIED`).
pub(super) fn active<T: Clone>(list: &[T], wire: impl Fn(&T) -> &str) -> Option<Vec<T>> {
    let kept: Vec<T> = list
        .iter()
        .filter(|v| !wire(v).ends_with("_UNSPECIFIED"))
        .cloned()
        .collect();
    (!kept.is_empty()).then_some(kept)
}

/// Whether an optional filter list admits `v`.
pub(super) fn admits<T: PartialEq>(list: &Option<Vec<T>>, v: &T) -> bool {
    list.as_ref().is_none_or(|l| l.contains(v))
}

/// Whether a plain string filter list admits `v` (an empty list admits
/// everything).
fn listed(list: &[String], v: &str) -> bool {
    list.is_empty() || list.iter().any(|x| x == v)
}

/// By repository: whether its name, id, tags, teams, deployment status,
/// public exposure and archived state pass the filter.
pub(super) fn repo_table(ds: &Dataset, f: &ListIssuesFilter) -> Vec<bool> {
    let team_ids: Option<Vec<u8>> = (!f.team_names.is_empty()).then(|| {
        let teams = &ds.catalog.people.teams;
        (0..teams.len())
            .filter(|&k| f.team_names.contains(&teams[k].name))
            .filter_map(|k| u8::try_from(k).ok())
            .collect()
    });
    let statuses = active(&f.repository_deployment_statuses, |v| v.as_wire());
    let exposures = active(&f.repository_public_exposures, |v| v.as_wire());
    let only_archived = f.include_archived == Some(true);
    ds.catalog
        .repositories
        .iter()
        .zip(&ds.repos)
        .map(|(repo, info)| {
            listed(&f.repository_names, &repo.name)
                && listed(&f.repository_ids, &info.id)
                && (f.repository_tags.is_empty()
                    || repo.tags.iter().any(|t| f.repository_tags.contains(t)))
                && team_ids
                    .as_ref()
                    .is_none_or(|t| info.teams.iter().any(|k| t.contains(k)))
                && admits(
                    &statuses,
                    &DeploymentStatus::from_wire(&repo.deployment_status),
                )
                && admits(&exposures, &PublicExposure::from_wire(&repo.public_exposure))
                // Only archived projects when true; none otherwise.
                && repo.archived == only_archived
        })
        .collect()
}

/// By `repo * 256 + ref_slot`: whether `refs` names the ref; `None` when
/// refs are not filtered.
pub(super) fn ref_table(ds: &Dataset, f: &ListIssuesFilter) -> Option<Vec<bool>> {
    (!f.refs.is_empty()).then(|| {
        (0..ds.catalog.repositories.len())
            .filter_map(|repo| u8::try_from(repo).ok())
            .flat_map(|repo| (0..=u8::MAX).map(move |slot| (repo, slot)))
            .map(|(repo, slot)| listed(&f.refs, ds.ref_name_of(repo, slot)))
            .collect()
    })
}

/// By repository: whether `repositoryRefIds` names its primary ref (the one
/// ref the data set gives an id); `None` when not filtered.
pub(super) fn ref_id_table(ds: &Dataset, f: &ListIssuesFilter) -> Option<Vec<bool>> {
    (!f.repository_ref_ids.is_empty()).then(|| {
        ds.repos
            .iter()
            .map(|info| f.repository_ref_ids.contains(&info.primary_ref_id))
            .collect()
    })
}

/// By rule, one table per rule class: whether `ruleIds` and the filters of
/// the rule's own type pass it.
pub(super) fn rule_tables(ds: &Dataset, f: &ListIssuesFilter) -> [Vec<bool>; 3] {
    let sources = active(&f.source, |v| v.as_wire());
    let rule_kinds = active(&f.sca_rule_kind, |v| v.as_wire());
    CLASS_KINDS.map(|kind| {
        (0..u16::try_from(ds.rule_count(kind)).unwrap_or(u16::MAX))
            .map(|rule| {
                let facts = ds.rule_facts_of(kind, rule);
                let all_types = listed(&f.rule_ids, facts.rule_id);
                all_types
                    && match kind {
                        Kind::Code | Kind::AiCode => code_rule_ok(ds, f, rule, &facts, &sources),
                        Kind::Sca => sca_rule_ok(ds, f, kind, rule, &rule_kinds),
                        Kind::Secrets => {
                            f.secret_types.is_empty()
                                || ds
                                    .secret_rule_of(kind, rule)
                                    .is_some_and(|s| f.secret_types.contains(&s.secret_type))
                        }
                    }
            })
            .collect()
    })
}

/// A code rule against the SAST filters: policy, rule path, ruleset,
/// category and source.
fn code_rule_ok(
    ds: &Dataset,
    f: &ListIssuesFilter,
    rule: u16,
    facts: &RuleFacts<'_>,
    sources: &Option<Vec<RuleSource>>,
) -> bool {
    let origin = ds
        .catalog
        .code_rules
        .get(rule as usize)
        .map(|r| RuleOrigin::from_wire(&r.rule_origin))
        .unwrap_or(RuleOrigin::ProRules);
    listed(&f.policy_slugs, facts.policy_slug)
        && listed(&f.rules, facts.rule_path)
        && listed(&f.rulesets, facts.ruleset)
        && listed(&f.categories, facts.category)
        && admits(sources, &rule_source(&origin))
}

/// An advisory against the SCA filters: dependency, CVE, advisory id and
/// rule kind (a filter set admits no rule without an advisory).
fn sca_rule_ok(
    ds: &Dataset,
    f: &ListIssuesFilter,
    kind: Kind,
    rule: u16,
    rule_kinds: &Option<Vec<ScaRuleKind>>,
) -> bool {
    let a = ds.advisory_of(kind, rule);
    let has = |list: &[String], v: Option<&String>| {
        list.is_empty() || v.is_some_and(|v| list.contains(v))
    };
    has(&f.dependencies, a.map(|a| &a.package))
        && has(&f.cves, a.map(|a| &a.vuln_id))
        && has(&f.advisory_ids, a.map(|a| &a.vuln_id))
        && rule_kinds.as_ref().is_none_or(|k| {
            a.is_some_and(|a| k.contains(&ScaRuleKind::from_wire(&a.sca_rule_kind)))
        })
}

fn rule_source(origin: &RuleOrigin) -> RuleSource {
    match origin {
        RuleOrigin::Community => RuleSource::Community,
        RuleOrigin::Custom => RuleSource::Custom,
        _ => RuleSource::Pro,
    }
}
