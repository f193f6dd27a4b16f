//! The values the filters can take (`IssuesService_GetIssueFilters`,
//! `POST /api/agent/deployments/{deploymentId}/issue_filters`): what the
//! filter form and `:filter` offer for the free-text fields.

use super::enums::IssueType;
use super::list::ListIssuesFilter;
use super::wire;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

/// `protos.issues.v1.GetIssueFiltersRequest`. The deprecated `issueType`
/// is read (by the demo) but never sent.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct IssueFiltersRequest {
    pub deployment_id: Option<String>,
    pub issue_type: Option<IssueType>,
    pub filter: Option<ListIssuesFilter>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub issue_types: Vec<IssueType>,
}

/// A list of strings that may be missing or `null`.
macro_rules! strings {
    ($($(#[$doc:meta])* $name:ident),* $(,)?) => {
        /// `protos.issues.v1.GetIssueFiltersResponse`: every published field.
        #[skip_serializing_none]
        #[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
        #[serde(rename_all = "camelCase", default)]
        pub struct IssueFiltersResponse {
            $(
                $(#[$doc])*
                #[serde(
                    deserialize_with = "wire::null_as_default",
                    skip_serializing_if = "wire::is_empty"
                )]
                pub $name: Vec<String>,
            )*
            #[serde(
                deserialize_with = "wire::null_as_default",
                skip_serializing_if = "wire::is_empty"
            )]
            pub repo_ref_groups: Vec<RepoRefGroup>,
            /// Rules by id, with names for display.
            #[serde(
                deserialize_with = "wire::null_as_default",
                skip_serializing_if = "wire::is_empty"
            )]
            pub rules: Vec<RuleFilterItem>,
            #[serde(
                deserialize_with = "wire::null_as_default",
                skip_serializing_if = "wire::is_empty"
            )]
            pub repos: Vec<Annotated>,
            #[serde(
                deserialize_with = "wire::null_as_default",
                skip_serializing_if = "wire::is_empty"
            )]
            pub tags: Vec<Annotated>,
        }
    };
}

strings! {
    /// Deprecated for `repos`.
    repo_names,
    /// Deprecated for `tags`.
    repo_tags,
    refs,
    ruleset_names,
    /// Rule paths (SAST); deprecated for `rules`.
    rule_names,
    categories,
    team_names,
    secret_types,
}

/// `GetIssueFiltersResponse_RepositoryRefFilterItemGroup`.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RepoRefGroup {
    pub repo_name: Option<String>,
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub repo_refs: Vec<RepoRef>,
    pub has_primary_ref: Option<bool>,
}

/// `RepositoryRefFilterItemGroup_RepoRef`.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RepoRef {
    pub id: Option<String>,
    pub ref_name: Option<String>,
    pub is_primary: Option<bool>,
}

/// `protos.issues.v1.RuleFilterItem`.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RuleFilterItem {
    pub id: Option<String>,
    pub name: Option<String>,
    pub sca_cve: Option<String>,
    pub sca_ghsa: Option<String>,
}

impl RuleFilterItem {
    /// The advisory a supply-chain rule stands for: its CVE, else its GHSA.
    pub fn advisory(&self) -> Option<&str> {
        given(&self.sca_cve).or_else(|| given(&self.sca_ghsa))
    }
}

/// A value given and not blank.
fn given(value: &Option<String>) -> Option<&str> {
    value.as_deref().filter(|s| !s.trim().is_empty())
}

/// An id and a name (`AnnotatedRepo`, `AnnotatedRepoTag`).
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Annotated {
    pub id: Option<String>,
    pub name: Option<String>,
}

impl IssueFiltersResponse {
    /// The name of repository (project) `id`, as the answer lists it.
    pub fn repository_name(&self, id: &str) -> Option<&str> {
        self.repos
            .iter()
            .find(|r| r.id.as_deref() == Some(id))
            .and_then(|r| r.name.as_deref())
    }

    /// Rule `id`'s name, one name everywhere it is shown: for a
    /// supply-chain rule its advisory (`scaCve`, else `scaGhsa`: what the
    /// list's RULE column leads with, and what `--cve` takes; never the
    /// opaque `ssc-<uuid>` nor the advisory's first sentence), else the
    /// name the answer lists.
    pub fn rule_name(&self, id: &str) -> Option<&str> {
        let rule = self.rules.iter().find(|r| r.id.as_deref() == Some(id))?;
        // A blank name is no name: the id is shown instead.
        rule.advisory().or_else(|| given(&rule.name))
    }

    /// Whether rule `id` is named by its advisory ([`Self::rule_name`]):
    /// its id is then opaque (`ssc-<uuid>`) and worth no room beside it.
    pub fn names_an_advisory(&self, id: &str) -> bool {
        self.rules
            .iter()
            .any(|r| r.id.as_deref() == Some(id) && r.advisory().is_some())
    }

    /// Ref `id` as `repository:ref`, as the answer lists it.
    pub fn ref_name(&self, id: &str) -> Option<String> {
        self.repo_ref_groups.iter().find_map(|g| {
            let r = g.repo_refs.iter().find(|r| r.id.as_deref() == Some(id))?;
            Some(format!(
                "{}:{}",
                g.repo_name.as_deref().unwrap_or(""),
                r.ref_name.as_deref().unwrap_or("")
            ))
        })
    }

    /// The values a `List issues` filter field (by spec name) can take, as
    /// the answer gives them: the current fields before the deprecated
    /// ones, each value once, in the order given. Empty for a field the
    /// answer says nothing about.
    pub fn values_of(&self, field: &str) -> Vec<String> {
        let names = |list: &[Annotated]| -> Vec<String> {
            list.iter().filter_map(|a| a.name.clone()).collect()
        };
        let mut all: Vec<String> = match field {
            "repositoryNames" => [names(&self.repos), self.repo_names.clone()].concat(),
            "repositoryIds" => self.repos.iter().filter_map(|a| a.id.clone()).collect(),
            "repositoryTags" => [names(&self.tags), self.repo_tags.clone()].concat(),
            "refs" => {
                let grouped = self
                    .repo_ref_groups
                    .iter()
                    .flat_map(|g| g.repo_refs.iter().filter_map(|r| r.ref_name.clone()));
                self.refs.iter().cloned().chain(grouped).collect()
            }
            "repositoryRefIds" => self
                .repo_ref_groups
                .iter()
                .flat_map(|g| g.repo_refs.iter().filter_map(|r| r.id.clone()))
                .collect(),
            "rules" => self.rule_names.clone(),
            "ruleIds" => self.rules.iter().filter_map(|r| r.id.clone()).collect(),
            "rulesets" => self.ruleset_names.clone(),
            "categories" => self.categories.clone(),
            "teamNames" => self.team_names.clone(),
            "secretTypes" => self.secret_types.clone(),
            "cves" => self
                .rules
                .iter()
                .filter_map(|r| r.sca_cve.clone())
                .collect(),
            "advisoryIds" => self
                .rules
                .iter()
                .flat_map(|r| [r.sca_cve.clone(), r.sca_ghsa.clone()])
                .flatten()
                .collect(),
            _ => Vec::new(),
        };
        let mut seen = std::collections::HashSet::new();
        all.retain(|v| !v.is_empty() && seen.insert(v.clone()));
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_prefer_the_current_fields_and_come_once() {
        let answer: IssueFiltersResponse = serde_json::from_value(serde_json::json!({
            "repoNames": ["acme/old", "acme/a"],
            "repos": [{"id": "1", "name": "acme/a"}, {"id": "2"}],
            "refs": null,
            "repoRefGroups": [{"repoName": "acme/a", "repoRefs": [
                {"id": "9", "refName": "main", "isPrimary": true}, {"refName": ""}]}],
            "rules": [{"id": "7", "name": "x", "scaCve": "CVE-1"},
                {"id": "8", "scaGhsa": "GHSA-1"}],
        }))
        .unwrap();
        assert_eq!(
            answer.values_of("repositoryNames"),
            vec!["acme/a", "acme/old"]
        );
        assert_eq!(answer.values_of("repositoryIds"), vec!["1", "2"]);
        assert_eq!(answer.values_of("refs"), vec!["main"]);
        assert_eq!(answer.values_of("repositoryRefIds"), vec!["9"]);
        assert_eq!(answer.values_of("cves"), vec!["CVE-1"]);
        assert_eq!(answer.values_of("advisoryIds"), vec!["CVE-1", "GHSA-1"]);
        assert!(answer.values_of("severities").is_empty());
    }
}
