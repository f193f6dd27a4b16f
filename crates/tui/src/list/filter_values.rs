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

    pub fn ref_name(&self, id: &str) -> String {
        match self {
            FilterValues::Known(a) => a.ref_name(id).unwrap_or_else(|| id.to_owned()),
            _ => id.to_owned(),
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
        let FilterValues::Known(answer) = self else {
            return Ok(());
        };
        for (field, value) in pairs {
            let Some(named) = names.iter().find(|n| n.field == field) else {
                continue;
            };
            if let Err(e) = filter_spec::check_known(answer, named, std::slice::from_ref(value)) {
                let hint = match e.did_you_mean() {
                    Some(hint) => format!("; {hint}"),
                    None => format!("; {} known, Tab completes", e.known),
                };
                let value = findings_base::text::one_line(&e.value).into_owned();
                return Err(format!("{field}: {value:?} matches nothing{hint}"));
            }
        }
        Ok(())
    }

    /// [`FilterValues::check_in`] the List issues fields.
    pub fn check(&self, pairs: &[(String, String)]) -> Result<(), String> {
        self.check_in(filter_spec::LIST_NAMES, pairs)
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
        assert_eq!(values.check(&pair("acme/payments-api")), Ok(()));
        let e = values.check(&pair("payments-api")).unwrap_err();
        assert_eq!(
            e,
            "repositoryNames: \"payments-api\" matches nothing; did you mean acme/payments-api?"
        );
        let e = values.check(&pair("zzz")).unwrap_err();
        assert!(e.contains("matches nothing; 1 known"), "{e}");
        // Fields without known values are not checked.
        let refs = vec![("refs".to_owned(), "anything".to_owned())];
        assert_eq!(values.check(&refs), Ok(()));
        assert_eq!(FilterValues::Failed.check(&pair("zzz")), Ok(()));
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
