//! Replies taken by kind. Each answer type names its variant of
//! [`ApiResponse`] once, here; a handler asks for the kind its request
//! brings (`answer::<ListIssuesResponse>(result)`) and matches `Ok` and
//! `Err` alone: no arm is left that could drop a reply of another kind
//! unsaid (a bug of this app, which then reads as the request's error).

use super::open_age::OverTargetCounts;
use super::since::SinceReport;
use super::{ApiResponse, ApiResult, another_kind};
use findings_client::ApiError;
use findings_model::{
    CountIssuesResponse, FindRelevantIssuesResponse, GetDeploymentAuthorizedActionsResponse,
    GetIssueCountsResponse, GetTicketingInstancesResponse, Issue, IssueFiltersResponse,
    ListIssueGroupsResponse, ListIssuesResponse, ScmConfigResponse, SearchIssuesResponse,
    TriageIssueResponse, UpdateFindingsResponse,
};

/// An answer of one kind of [`ApiResponse`].
pub trait Answer: Sized {
    /// The answer inside `response`, or the kind it is of when it is
    /// another.
    fn take(response: ApiResponse) -> Result<Self, &'static str>;
}

/// `result` as an answer of kind `T`: a failed request is its error, and an
/// answer of another kind the error that names it.
pub fn answer<T: Answer>(result: ApiResult) -> Result<T, ApiError> {
    T::take(result?).map_err(another_kind)
}

macro_rules! answers {
    ($($variant:ident => $answer:ty),* $(,)?) => {$(
        impl Answer for $answer {
            fn take(response: ApiResponse) -> Result<Self, &'static str> {
                match response {
                    ApiResponse::$variant(answer) => Ok(answer),
                    other => Err(other.kind()),
                }
            }
        }
    )*};
}

answers! {
    ListIssues => ListIssuesResponse,
    Issue => Box<Issue>,
    Search => SearchIssuesResponse,
    Scm => ScmConfigResponse,
    Groups => ListIssueGroupsResponse,
    Triaged => UpdateFindingsResponse,
    AgenticTriaged => TriageIssueResponse,
    IssueFilters => IssueFiltersResponse,
    IssueCounts => GetIssueCountsResponse,
    AgenticCount => CountIssuesResponse,
    Authorized => GetDeploymentAuthorizedActionsResponse,
    Instances => GetTicketingInstancesResponse,
    Relevant => FindRelevantIssuesResponse,
    Since => Box<SinceReport>,
    OverTarget => OverTargetCounts,
    Opened => Box<findings_model::OpenedInPeriod>,
    RuleLabels => Vec<(String, String)>,
}

/// The findings a listing matched as triage targets, and whether that is
/// all of them (else the first [`super::MAX_COUNTED`]).
pub struct Matching(pub Vec<findings_requests::triage::Target>, pub bool);

impl Answer for Matching {
    fn take(response: ApiResponse) -> Result<Self, &'static str> {
        match response {
            ApiResponse::Targets(targets, complete) => Ok(Matching(targets, complete)),
            other => Err(other.kind()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_of_another_kind_is_an_error_that_names_it() {
        let got = answer::<ListIssuesResponse>(Ok(ApiResponse::Targets(Vec::new(), true)));
        let e = got.expect_err("another kind is no listing");
        assert!(e.to_string().contains("triage targets"), "{e}");
        let page = answer::<ListIssuesResponse>(Ok(ApiResponse::ListIssues(
            ListIssuesResponse::default(),
        )));
        assert!(page.is_ok());
        let failed = answer::<ListIssuesResponse>(Err(ApiError::Config("bad".into())));
        assert!(matches!(failed, Err(ApiError::Config(_))));
    }
}
