//! The values the List issues filters can take, asked of the server once
//! per session (`IssuesService_GetIssueFilters`) and kept: what the filter
//! form and `:filter` complete from, and what a name that matches nothing
//! is checked against (with the closest known name suggested).

use crate::message::{ApiRequest, ApiResponse, ApiResult, Outbox, RequestId};
use findings_model::{IssueFiltersRequest, IssueFiltersResponse};
use findings_requests::filter_spec::{self, Field, FieldKind, NamedField};

#[derive(Debug, Clone, Default)]
pub enum FilterValues {
    #[default]
    NotAsked,
    Asked(RequestId),
    Known(Box<IssueFiltersResponse>),
    /// The server could not say: completion offers nothing, nothing is
    /// checked.
    Failed,
}

impl FilterValues {
    /// Asks for the values unless they were asked for already.
    pub fn request(&mut self, outbox: &mut Outbox) {
        if let FilterValues::NotAsked = self
            && let Some(id) = outbox.send(ApiRequest::IssueFilters(IssueFiltersRequest::default()))
        {
            *self = FilterValues::Asked(id);
        }
    }

    /// Takes the reply to its request (one it no longer waits for is
    /// dropped).
    pub fn accept(&mut self, id: RequestId, result: ApiResult) {
        if let FilterValues::Asked(mine) = self
            && *mine == id
        {
            *self = match result {
                Ok(ApiResponse::IssueFilters(answer)) => FilterValues::Known(Box::new(answer)),
                _ => FilterValues::Failed,
            };
        }
    }

    /// Project (repository) or ref `id` by its name, else the id itself.
    pub fn project_name(&self, id: &str) -> String {
        match self {
            FilterValues::Known(a) => a
                .repository_name(id)
                .map_or_else(|| id.to_owned(), str::to_owned),
            _ => id.to_owned(),
        }
    }

    /// Rule `id`'s name, when the values are known and name it.
    pub fn rule_name(&self, id: &str) -> Option<String> {
        match self {
            FilterValues::Known(a) => a.rule_name(id).map(str::to_owned),
            _ => None,
        }
    }

    /// Whether rule `id` is named by its advisory: its id is opaque.
    pub fn names_an_advisory(&self, id: &str) -> bool {
        matches!(self, FilterValues::Known(a) if a.names_an_advisory(id))
    }

    pub fn ref_name(&self, id: &str) -> String {
        match self {
            FilterValues::Known(a) => a.ref_name(id).unwrap_or_else(|| id.to_owned()),
            _ => id.to_owned(),
        }
    }

    /// The values, when known.
    pub fn answer(&self) -> Option<&IssueFiltersResponse> {
        match self {
            FilterValues::Known(a) => Some(a),
            _ => None,
        }
    }

    pub fn is_known(&self) -> bool {
        matches!(self, FilterValues::Known(_))
    }

    /// The values filter field `field` can take (none when unknown).
    pub fn values_of(&self, field: &str) -> Vec<String> {
        match self {
            FilterValues::Known(answer) => answer.values_of(field),
            _ => Vec::new(),
        }
    }

    /// Every value of `pairs` for a field of `names` must be one the
    /// deployment lists ([`filter_spec::check_known`]): else which matches
    /// nothing, and the closest known.
    pub fn check_in(&self, names: &[NamedField], pairs: &[(String, String)]) -> Result<(), String> {
        self.resolve_in(names, &mut pairs.to_vec()).map(drop)
    }

    /// Each value of `pairs` for a field of `names` made what the filter
    /// sends ([`filter_spec::resolve_known`]: an advisory in the case the
    /// deployment lists it, an alias as the id it stands for), every one a
    /// value the deployment lists: else which matches nothing, and the
    /// closest known. Returns what is to be said: an alias resolved, or
    /// that the names went unchecked (the deployment could not say them).
    pub fn resolve_in(
        &self,
        names: &[NamedField],
        pairs: &mut [(String, String)],
    ) -> Result<Vec<String>, String> {
        let named = |field: &str| names.iter().find(|n| n.field == field);
        let FilterValues::Known(answer) = self else {
            let given = pairs.iter().any(|(field, _)| named(field).is_some());
            return Ok(match self {
                FilterValues::Failed if given => {
                    vec!["names unchecked: the deployment's names could not be fetched".into()]
                }
                FilterValues::Asked(_) if given => {
                    vec!["names unchecked: the deployment's names are still loading".into()]
                }
                _ => Vec::new(),
            });
        };
        let advisories = filter_spec::Advisories::of(answer);
        let mut said = Vec::new();
        for (field, value) in pairs.iter_mut() {
            let Some(named) = named(field) else {
                continue;
            };
            let resolved =
                filter_spec::resolve_known(answer, &advisories, named, std::slice::from_ref(value))
                    .map_err(|e| refused(field, &e))?;
            for r in resolved {
                said.extend(r.said(field));
                *value = r.id;
            }
        }
        Ok(said)
    }

    /// The search for the first advisory id of `pairs` the names do not
    /// list that could be an alias named in the references of the
    /// advisories listed ([`filter_spec::AliasSearch`]).
    pub fn alias_to_look_for(
        &self,
        pairs: &[(String, String)],
    ) -> Option<filter_spec::AliasSearch> {
        let FilterValues::Known(answer) = self else {
            return None;
        };
        let advisories = filter_spec::Advisories::of(answer);
        pairs
            .iter()
            .filter(|(field, _)| {
                filter_spec::LIST_NAMES
                    .iter()
                    .any(|n| n.field == field && n.is_advisory())
            })
            .find_map(|(_, value)| filter_spec::AliasSearch::new(&advisories, value))
    }

    /// `alias`, named in the references of rule `rule_id`, is another id
    /// of its advisory: kept as the answer's field of its kind (a CVE or a
    /// GHSA id) for the session.
    pub fn learn(&mut self, rule_id: &str, alias: &str) {
        let FilterValues::Known(answer) = self else {
            return;
        };
        let Some(rule) = answer
            .rules
            .iter_mut()
            .find(|r| r.id.as_deref() == Some(rule_id))
        else {
            return;
        };
        let field = if alias.starts_with("CVE-") {
            &mut rule.sca_cve
        } else if alias.starts_with("GHSA-") {
            &mut rule.sca_ghsa
        } else {
            return;
        };
        if field.is_none() {
            *field = Some(alias.to_owned());
        }
    }

    /// [`FilterValues::resolve_in`] the List issues fields.
    pub fn resolve(&self, pairs: &mut [(String, String)]) -> Result<Vec<String>, String> {
        self.resolve_in(filter_spec::LIST_NAMES, pairs)
    }

    /// What the form offers for each field of `schema` with known values.
    pub fn offered(&self, schema: &[Field]) -> Vec<(&'static str, Vec<String>)> {
        schema
            .iter()
            .filter(|f| matches!(f.kind, FieldKind::Strings | FieldKind::Text))
            .map(|f| (f.name, self.values_of(f.name)))
            .filter(|(_, v)| !v.is_empty())
            .collect()
    }
}

/// `repositoryNames: "payments-api" matches nothing; did you mean …?`
fn refused(field: &str, e: &filter_spec::Unknown) -> String {
    let value = findings_base::text::one_line(&e.value).into_owned();
    if let Some(form) = e.form {
        return format!(
            "{field}: {value:?} is not an {} id; it takes {form}",
            e.noun
        );
    }
    let hint = match e.did_you_mean() {
        Some(hint) => format!("; {hint}"),
        None => format!("; {} known, Tab completes", e.known),
    };
    format!("{field}: {value:?} matches nothing{hint}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use findings_model::Annotated;

    fn known() -> FilterValues {
        FilterValues::Known(Box::new(IssueFiltersResponse {
            repos: vec![Annotated {
                id: Some("1".into()),
                name: Some("acme/payments-api".into()),
            }],
            ..Default::default()
        }))
    }

    #[test]
    fn asked_once_and_the_answer_is_kept() {
        let mut outbox = Outbox::default();
        let mut values = FilterValues::default();
        values.request(&mut outbox);
        values.request(&mut outbox);
        let sent = outbox.requests();
        assert_eq!(sent.len(), 1, "asked once");
        let id = sent[0].0;
        // Another request's answer changes nothing.
        values.accept(id + 1, Ok(ApiResponse::Targets(Vec::new(), true)));
        assert!(matches!(values, FilterValues::Asked(_)));
        let answer = ApiResponse::IssueFilters(IssueFiltersResponse {
            team_names: vec!["core".into()],
            ..Default::default()
        });
        values.accept(id, Ok(answer));
        assert_eq!(values.values_of("teamNames"), vec!["core"]);
        values.request(&mut outbox);
        assert_eq!(outbox.requests().len(), 1, "not asked again");
    }

    #[test]
    fn a_name_that_matches_nothing_is_refused_with_the_closest() {
        let values = known();
        let pair = |v: &str| vec![("repositoryNames".to_owned(), v.to_owned())];
        let check =
            |values: &FilterValues, mut pairs: Vec<(String, String)>| values.resolve(&mut pairs);
        assert_eq!(check(&values, pair("acme/payments-api")), Ok(vec![]));
        let e = check(&values, pair("payments-api")).unwrap_err();
        assert_eq!(
            e,
            "repositoryNames: \"payments-api\" matches nothing; did you mean acme/payments-api?"
        );
        let e = check(&values, pair("zzz")).unwrap_err();
        assert!(e.contains("matches nothing; 1 known"), "{e}");
        // Fields without known values are not checked.
        let refs = vec![("refs".to_owned(), "anything".to_owned())];
        assert_eq!(check(&values, refs), Ok(vec![]));
        // Names that cannot be had go unchecked, and it is said.
        assert_eq!(
            check(&FilterValues::Failed, pair("zzz")),
            Ok(vec![
                "names unchecked: the deployment's names could not be fetched".to_owned()
            ])
        );
    }

    #[test]
    fn an_advisory_is_sent_as_the_deployment_lists_it_and_a_typo_refused() {
        let values = FilterValues::Known(Box::new(IssueFiltersResponse {
            rules: vec![findings_model::RuleFilterItem {
                id: Some("ssc-1".into()),
                sca_cve: Some("CVE-2021-23337".into()),
                sca_ghsa: Some("GHSA-35jh-r3h4-6jhm".into()),
                ..Default::default()
            }],
            ..Default::default()
        }));
        let mut pairs = vec![
            ("cves".to_owned(), "cve-2021-23337".to_owned()),
            ("advisoryIds".to_owned(), "GHSA-35JH-R3H4-6JHM".to_owned()),
        ];
        let said = values.resolve(&mut pairs).unwrap();
        assert_eq!(pairs[0].1, "CVE-2021-23337");
        assert_eq!(pairs[1].1, "CVE-2021-23337");
        assert_eq!(
            said,
            vec![
                "advisoryIds \"GHSA-35jh-r3h4-6jhm\" is an alias of CVE-2021-23337: the filter asks for CVE-2021-23337"
            ]
        );
        let mut typo = vec![("cves".to_owned(), "CVE-2021-23338".to_owned())];
        assert_eq!(
            values.resolve(&mut typo).unwrap_err(),
            "cves: \"CVE-2021-23338\" matches nothing; did you mean CVE-2021-23337?"
        );
    }

    #[test]
    fn ids_read_as_names_once_known_and_as_ids_before() {
        use findings_model::{RepoRef, RepoRefGroup};
        let answer = IssueFiltersResponse {
            repos: vec![Annotated {
                id: Some("51007".into()),
                name: Some("acme/claims-processing".into()),
            }],
            repo_ref_groups: vec![RepoRefGroup {
                repo_name: Some("acme/claims-processing".into()),
                repo_refs: vec![RepoRef {
                    id: Some("61007".into()),
                    ref_name: Some("master".into()),
                    is_primary: Some(true),
                }],
                has_primary_ref: Some(true),
            }],
            ..Default::default()
        };
        assert_eq!(FilterValues::NotAsked.project_name("51007"), "51007");
        let known = FilterValues::Known(Box::new(answer));
        assert_eq!(known.project_name("51007"), "acme/claims-processing");
        assert_eq!(known.project_name("99"), "99");
        assert_eq!(known.ref_name("61007"), "acme/claims-processing:master");
        assert_eq!(known.ref_name("1"), "1");
    }
}
