//! `IssuesService_GetIssueFilters`: the values the List issues filters can
//! take, from the data set's catalog. The type selection narrows the
//! type-specific lists (rulesets, rule paths and categories are SAST's,
//! secret types Secrets'); a deprecated `issueType` of
//! `ISSUE_TYPE_UNSPECIFIED` alone asks for the generic lists only. The
//! `filter` does not narrow the values (the published text does not say
//! how it would).

use super::BadRequest;
use crate::dataset::{Dataset, Kind};
use findings_model::*;
use std::collections::BTreeSet;

pub fn issue_filters(
    ds: &Dataset,
    req: &IssueFiltersRequest,
) -> Result<IssueFiltersResponse, BadRequest> {
    let wants = kinds_asked(req)?;
    let cat = &ds.catalog;
    let repos = &cat.repositories;
    let sorted = |set: BTreeSet<&String>| -> Vec<String> { set.into_iter().cloned().collect() };
    let tag_names = sorted(repos.iter().flat_map(|r| &r.tags).collect());
    let code = wants(Kind::Code) || wants(Kind::AiCode);
    let code_rules = cat.code_rules.iter().filter(|_| code);
    let rules = rule_items(ds, code, wants(Kind::Sca), wants(Kind::Secrets));
    Ok(IssueFiltersResponse {
        repo_names: repos.iter().map(|r| r.name.clone()).collect(),
        repo_tags: tag_names.clone(),
        refs: sorted(
            repos
                .iter()
                .flat_map(|r| std::iter::once(&r.primary_ref).chain(&r.other_refs))
                .collect(),
        ),
        repo_ref_groups: repo_ref_groups(ds),
        ruleset_names: sorted(code_rules.clone().map(|r| &r.ruleset).collect()),
        rule_names: first_of_each(code_rules.clone().map(|r| r.rule_path.clone()), |p| {
            p.clone()
        }),
        categories: sorted(code_rules.map(|r| &r.category).collect()),
        // An offline data set's team 0 is "no team", its name empty.
        team_names: cat
            .people
            .teams
            .iter()
            .filter(|t| !t.name.is_empty())
            .map(|t| t.name.clone())
            .collect(),
        secret_types: if wants(Kind::Secrets) {
            sorted(cat.secret_rules.iter().map(|r| &r.secret_type).collect())
        } else {
            Vec::new()
        },
        // A snapshot's rule can take more than one catalog entry.
        rules: first_of_each(rules, |r| {
            (r.id.clone(), r.sca_cve.clone(), r.sca_ghsa.clone())
        }),
        repos: repos
            .iter()
            .zip(&ds.repos)
            .map(|(r, info)| Annotated {
                id: Some(info.id.clone()),
                name: Some(r.name.clone()),
            })
            .collect(),
        tags: tag_names
            .into_iter()
            .enumerate()
            .map(|(k, name)| Annotated {
                id: Some((k + 1).to_string()),
                name: Some(name),
            })
            .collect(),
    })
}

/// The kinds of finding the request's type selection asks the lists of.
fn kinds_asked(req: &IssueFiltersRequest) -> Result<impl Fn(Kind) -> bool + '_, BadRequest> {
    require_known_all!(req.issue_types, "issueTypes");
    if let Some(t) = &req.issue_type
        && !t.is_known()
    {
        return Err(BadRequest(format!(
            "unknown value {:?} for issueType",
            t.as_wire()
        )));
    }
    let chosen: Vec<IssueType> = req
        .issue_types
        .iter()
        .filter(|t| **t != IssueType::Unspecified)
        .cloned()
        .collect();
    let generic_only = chosen.is_empty() && req.issue_type == Some(IssueType::Unspecified);
    Ok(move |kind: Kind| {
        !generic_only
            && match (&chosen[..], &req.issue_type) {
                ([], None | Some(IssueType::Unspecified)) => true,
                ([], Some(t)) => *t == kind.issue_type(),
                (types, _) => types.contains(&kind.issue_type()),
            }
    })
}

/// The rules of the kinds asked for, code rules first.
fn rule_items(ds: &Dataset, code: bool, sca: bool, secrets: bool) -> Vec<RuleFilterItem> {
    let cat = &ds.catalog;
    let mut rules: Vec<RuleFilterItem> = cat
        .code_rules
        .iter()
        .filter(|_| code)
        .map(|r| RuleFilterItem {
            id: Some(r.rule_id.clone()),
            name: Some(r.name.clone()),
            ..Default::default()
        })
        .collect();
    if sca {
        rules.extend(cat.sca_advisories.iter().map(|a| RuleFilterItem {
            id: Some(a.rule_id.clone()),
            name: Some(a.message.clone()),
            sca_cve: a.vuln_id.starts_with("CVE-").then(|| a.vuln_id.clone()),
            sca_ghsa: a.vuln_id.starts_with("GHSA-").then(|| a.vuln_id.clone()),
        }));
    }
    if secrets {
        rules.extend(cat.secret_rules.iter().map(|r| RuleFilterItem {
            id: Some(r.rule_id.clone()),
            name: Some(r.secret_type.clone()),
            ..Default::default()
        }));
    }
    rules
}

/// Each repository's refs, its primary first.
fn repo_ref_groups(ds: &Dataset) -> Vec<RepoRefGroup> {
    ds.catalog
        .repositories
        .iter()
        .zip(&ds.repos)
        .map(|(r, info)| RepoRefGroup {
            repo_name: Some(r.name.clone()),
            // Only the primary ref has an id the demo's filters know.
            repo_refs: std::iter::once(RepoRef {
                id: Some(info.primary_ref_id.clone()),
                ref_name: Some(r.primary_ref.clone()),
                is_primary: Some(true),
            })
            .chain(r.other_refs.iter().map(|name| RepoRef {
                ref_name: Some(name.clone()),
                is_primary: Some(false),
                ..Default::default()
            }))
            .collect(),
            has_primary_ref: Some(true),
        })
        .collect()
}

/// Each value once (by `key`), in the order first met.
fn first_of_each<T, K: Eq + std::hash::Hash>(
    values: impl IntoIterator<Item = T>,
    key: impl Fn(&T) -> K,
) -> Vec<T> {
    let mut seen = std::collections::HashSet::new();
    values.into_iter().filter(|v| seen.insert(key(v))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ds() -> Dataset {
        Dataset::generate(50, 7, chrono::Utc::now(), "1234")
    }

    #[test]
    fn the_type_selection_narrows_the_typed_lists() {
        let ds = ds();
        let all = issue_filters(&ds, &IssueFiltersRequest::default()).unwrap();
        assert!(all.repo_names.contains(&"acme/payments-api".to_owned()));
        assert!(!all.secret_types.is_empty() && !all.ruleset_names.is_empty());
        let sca = IssueFiltersRequest {
            issue_types: vec![IssueType::Sca],
            ..Default::default()
        };
        let sca = issue_filters(&ds, &sca).unwrap();
        assert!(sca.secret_types.is_empty() && sca.ruleset_names.is_empty());
        assert!(
            sca.rules
                .iter()
                .all(|r| r.id.as_deref().is_some_and(|id| id.starts_with("ssc-")))
        );
        assert_eq!(sca.repos, all.repos, "generic lists stay");
        let generic = IssueFiltersRequest {
            issue_type: Some(IssueType::Unspecified),
            ..Default::default()
        };
        let generic = issue_filters(&ds, &generic).unwrap();
        assert!(generic.rules.is_empty() && generic.categories.is_empty());
        assert!(!generic.team_names.is_empty());
    }

    #[test]
    fn an_unknown_issue_type_is_a_bad_request() {
        let req: IssueFiltersRequest =
            serde_json::from_str(r#"{"issueTypes": ["ISSUE_TYPE_NOPE"]}"#).unwrap();
        let e = issue_filters(&ds(), &req).unwrap_err();
        assert!(e.0.contains("ISSUE_TYPE_NOPE"), "{}", e.0);
    }
}
