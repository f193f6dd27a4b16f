//! The types an answer decodes to, each decoded by a concrete function of
//! this crate (issue 52, "generic code instantiated once").
//!
//! A generic decode (`Answer::decode::<R>`), and every async body that
//! calls it, is compiled in the crate that polls it: the CLI and the TUI
//! each compiled every `Deserialize` of the model again. The impls here
//! are for concrete types, so their bodies (and the serde code under
//! them) are compiled once, here, and the other crates call them.

use super::error::ApiError;
use super::transport::Answer;
use findings_model::*;

/// A type an answer decodes to, its decoding compiled in this crate.
pub trait FromAnswer: Sized {
    /// The answer's body decoded, held to its bounds: exactly
    /// [`Answer::decode`].
    fn from_answer(answer: &Answer) -> Result<Self, ApiError>;
}

/// `FromAnswer` for each type, a concrete body each (never `#[inline]`:
/// that would compile it again in each caller).
macro_rules! from_answer {
    ($($t:ty),* $(,)?) => {$(
        impl FromAnswer for $t {
            fn from_answer(answer: &Answer) -> Result<Self, ApiError> {
                answer.decode()
            }
        }
    )*};
}

from_answer!(
    // The listings' pages, whole or read another way.
    ListIssuesResponse,
    SearchIssuesResponse,
    ReportResponse,
    ListScmConfigsResponse,
    ListedPage,
    ListedReportPage,
    SarifPage,
    SarifReportPage,
    // What this crate reads of pages itself: tallies, counts.
    FindingsPage<TallyIssue>,
    IssuesPage<serde::de::IgnoredAny>,
    // A single finding, the counts, the filters, the groups.
    Issue,
    GetIssueCountsResponse,
    CountIssuesResponse,
    IssueFiltersResponse,
    ListIssueGroupsResponse,
    GetDeploymentByTokenResponse,
    // The dashboard's reports.
    ActivityReport,
    ByProjectReport,
    BacklogByRuleReport,
    BySeverityReport,
    // The writes and the actions.
    ScmConfigResponse,
    UpdateFindingsResponse,
    TriageIssueResponse,
    CreateTicketsResponse,
    LinkTicketResponse,
    UnlinkTicketResponse,
    CreateAutofixResponse,
    CreateFixJobResponse,
    PostAutotriageFeedbackResponse,
    CreateMemoryFromTriageResponse,
    GetDeploymentAuthorizedActionsResponse,
    GetTicketingInstancesResponse,
    FindRelevantIssuesResponse,
);
