//! Fix pull requests: `AutofixService_CreateAutofix` (SAST, AI SAST and
//! supply chain) and `AiFixJobsService_CreateFixJob` (SAST). Both take an
//! empty body (the finding is in the path) and answer `success` with typed
//! `errors`; the pull request itself is opened later, by the service, and
//! shows on the finding (`clickToFixPrUrl`, its activity).

use super::enums::{HistoryType, IssueType};
use super::issue::{Issue, is_web_url};
use super::wire;
use crate::wire_enum;
use serde::{Deserialize, Serialize};
use serde_with::skip_serializing_none;

/// Which operation asks for a finding's fix (docs/src/api.md "Fix pull
/// requests").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FixOperation {
    /// `AiFixJobsService_CreateFixJob`: Code Autofix, for code (SAST)
    /// findings, what the dashboard's "click to fix" pull requests are.
    FixJob,
    /// `AutofixService_CreateAutofix`: the unified Autofix, for AI SAST and
    /// supply-chain findings (an upgrade pull request).
    Autofix,
}

impl FixOperation {
    /// The operation for a finding of `issue_type`; `None`: no fix can be
    /// asked for (secrets, research, an unknown type).
    pub fn for_type(issue_type: Option<&IssueType>) -> Option<FixOperation> {
        match issue_type? {
            IssueType::Sast => Some(FixOperation::FixJob),
            IssueType::AiSast | IssueType::Sca => Some(FixOperation::Autofix),
            _ => None,
        }
    }

    pub fn operation_id(self) -> &'static str {
        match self {
            FixOperation::FixJob => "AiFixJobsService_CreateFixJob",
            FixOperation::Autofix => "AutofixService_CreateAutofix",
        }
    }

    /// What a person is told is asked for.
    pub fn describe(self) -> &'static str {
        match self {
            FixOperation::FixJob => "a Code Autofix pull request (AI fix job)",
            FixOperation::Autofix => "an Autofix pull request",
        }
    }
}

/// Where a finding's fix pull request stands, from its latest lifecycle
/// event in `activityHistory` (the single-issue fetch always carries it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FixPrStatus {
    /// Asked for; no pull request yet (in flight).
    Requested,
    Opened,
    Merged,
    Failed,
}

impl FixPrStatus {
    pub fn label(self) -> &'static str {
        match self {
            FixPrStatus::Requested => "fix requested",
            FixPrStatus::Opened => "fix PR open",
            FixPrStatus::Merged => "fix PR merged",
            FixPrStatus::Failed => "fix PR failed",
        }
    }
}

impl Issue {
    /// The fix pull request's link when it is a web URL (what `o` opens).
    pub fn fix_pr_url(&self) -> Option<&str> {
        self.click_to_fix_pr_url
            .as_deref()
            .filter(|u| is_web_url(u))
    }

    /// Where the fix pull request stands, from the activity history (the
    /// latest of its events, in the order sent); `None`: none asked for, or
    /// no history came. A PR link without history reads as opened.
    pub fn fix_pr_status(&self) -> Option<FixPrStatus> {
        let latest = self
            .activity_history
            .iter()
            .filter_map(|e| match e.history_type.as_ref()? {
                HistoryType::ClickToFixPrRequested => Some(FixPrStatus::Requested),
                HistoryType::ClickToFixPrOpened => Some(FixPrStatus::Opened),
                HistoryType::ClickToFixPrMerged => Some(FixPrStatus::Merged),
                HistoryType::ClickToFixPrFailed => Some(FixPrStatus::Failed),
                _ => None,
            })
            .next_back();
        latest.or_else(|| {
            self.click_to_fix_pr_url
                .as_ref()
                .map(|_| FixPrStatus::Opened)
        })
    }
}

/// `protos.ai.v1.CreateAutofixRequest` and `CreateFixJobRequest`: no
/// field (an empty object is sent).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CreateFixRequest {}

wire_enum! {
    /// `protos.ai.v1.AutofixError.errorType`.
    AutofixErrorType {
        IssueNotFound = "AUTOFIX_ERROR_TYPE_ISSUE_NOT_FOUND" => "issue not found",
        UnsupportedIssueType = "AUTOFIX_ERROR_TYPE_UNSUPPORTED_ISSUE_TYPE" => "unsupported issue type",
        AutofixNotEnabled = "AUTOFIX_ERROR_TYPE_AUTOFIX_NOT_ENABLED" => "autofix not enabled",
        InvalidRepository = "AUTOFIX_ERROR_TYPE_INVALID_REPOSITORY" => "invalid repository",
        NoWriteAccess = "AUTOFIX_ERROR_TYPE_NO_WRITE_ACCESS" => "no write access",
        ScmConfigNotFound = "AUTOFIX_ERROR_TYPE_SCM_CONFIG_NOT_FOUND" => "no SCM config",
        ScmTokenFailed = "AUTOFIX_ERROR_TYPE_SCM_TOKEN_FAILED" => "SCM token failed",
        CodeAccessNotGranted = "AUTOFIX_ERROR_TYPE_CODE_ACCESS_NOT_GRANTED" => "code access not granted",
        CreditsExhausted = "AUTOFIX_ERROR_TYPE_CREDITS_EXHAUSTED" => "credits exhausted",
        InFlightFixPending = "AUTOFIX_ERROR_TYPE_IN_FLIGHT_FIX_PENDING" => "fix already in flight",
        NoRecommendedUpgrade = "AUTOFIX_ERROR_TYPE_NO_RECOMMENDED_UPGRADE" => "no recommended upgrade",
        InvalidIssueState = "AUTOFIX_ERROR_TYPE_INVALID_ISSUE_STATE" => "invalid issue state",
    }
}

wire_enum! {
    /// `protos.ai.v1.FixJobError.errorType`.
    FixJobErrorType {
        NoWriteAccess = "FIX_JOB_ERROR_TYPE_NO_WRITE_ACCESS" => "no write access",
        InvalidRepository = "FIX_JOB_ERROR_TYPE_INVALID_REPOSITORY" => "invalid repository",
        ScmConfigNotFound = "FIX_JOB_ERROR_TYPE_SCM_CONFIG_NOT_FOUND" => "no SCM config",
        CreditsExhausted = "FIX_JOB_ERROR_TYPE_CREDITS_EXHAUSTED" => "credits exhausted",
        ScmTokenFailed = "FIX_JOB_ERROR_TYPE_SCM_TOKEN_FAILED" => "SCM token failed",
        CodeAccessNotGranted = "FIX_JOB_ERROR_TYPE_CODE_ACCESS_NOT_GRANTED" => "code access not granted",
        ArchivedRepository = "FIX_JOB_ERROR_TYPE_ARCHIVED_REPOSITORY" => "archived repository",
        AutofixDisabled = "FIX_JOB_ERROR_TYPE_AUTOFIX_DISABLED" => "autofix disabled",
        NonPrimaryBranchDisabled = "FIX_JOB_ERROR_TYPE_NON_PRIMARY_BRANCH_DISABLED" => "not on the primary branch",
        AiProviderNotAllowed = "FIX_JOB_ERROR_TYPE_AI_PROVIDER_NOT_ALLOWED" => "AI provider not allowed",
        GroupingDisabled = "FIX_JOB_ERROR_TYPE_GROUPING_DISABLED" => "grouping disabled",
        InvalidGroup = "FIX_JOB_ERROR_TYPE_INVALID_GROUP" => "invalid group",
        UnsupportedIssueType = "FIX_JOB_ERROR_TYPE_UNSUPPORTED_ISSUE_TYPE" => "unsupported issue type",
    }
}

impl AutofixErrorType {
    /// What went wrong and what to do about it, in words.
    pub fn advice(&self) -> &str {
        use AutofixErrorType::*;
        match self {
            IssueNotFound => "the deployment has no such finding; check the id",
            UnsupportedIssueType => "Autofix handles code, AI code and supply-chain findings only",
            AutofixNotEnabled => {
                "Autofix is not enabled for this organisation, repository or finding; an admin turns it on in the platform's settings"
            }
            InvalidRepository => "the repository is invalid, archived or gone",
            NoWriteAccess => {
                "the platform's app may not write to the repository; grant it write access in the source host's app settings"
            }
            ScmConfigNotFound => {
                "no source-control integration covers the repository; add one (findings scm list shows them)"
            }
            ScmTokenFailed => {
                "the platform could not get a source-control token for the repository; check the integration's credentials"
            }
            CodeAccessNotGranted => {
                "code access is not granted for the repository; grant it in the platform's settings"
            }
            CreditsExhausted => "the organisation's AI credits are used up; ask an admin for more",
            InFlightFixPending => {
                "a fix is already being made for this finding; wait for its pull request"
            }
            NoRecommendedUpgrade => {
                "no upgrade of the dependency is recommended, so there is nothing to fix automatically"
            }
            InvalidIssueState => {
                "the finding's state (fixed, ignored) does not take a fix; reopen it first"
            }
            Other(_) => "the service gave an error this version does not know",
        }
    }
}

impl FixJobErrorType {
    /// What went wrong and what to do about it, in words.
    pub fn advice(&self) -> &str {
        use FixJobErrorType::*;
        match self {
            NoWriteAccess => {
                "the platform's app may not write to the repository; grant it write access in the app's settings (the link below, when given)"
            }
            InvalidRepository => "the repository is invalid or gone",
            ScmConfigNotFound => {
                "no source-control integration covers the repository; add one (findings scm list shows them)"
            }
            CreditsExhausted => "the organisation's AI credits are used up; ask an admin for more",
            ScmTokenFailed => {
                "the platform could not get a source-control token for the repository; check the integration's credentials"
            }
            CodeAccessNotGranted => {
                "code access is not granted for the repository; grant it in the platform's settings"
            }
            ArchivedRepository => "the repository is archived and takes no pull request",
            AutofixDisabled => {
                "Code Autofix is not enabled for this finding; an admin turns it on in the platform's settings"
            }
            NonPrimaryBranchDisabled => {
                "Code Autofix is off for findings off the primary branch; an admin can turn it on"
            }
            AiProviderNotAllowed => {
                "the deployment does not allow the AI provider Code Autofix needs; an admin decides"
            }
            GroupingDisabled => "grouping findings into one fix is not enabled",
            InvalidGroup => "the fix group asked for is invalid",
            UnsupportedIssueType => "Code Autofix handles code (SAST) findings only",
            Other(_) => "the service gave an error this version does not know",
        }
    }
}

/// `protos.ai.v1.CreateAutofixResponse`: `success` (the job was accepted,
/// no pull request yet) or `errors`.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct CreateAutofixResponse {
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub errors: Vec<AutofixError>,
    pub success: Option<bool>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct AutofixError {
    pub error_type: Option<AutofixErrorType>,
    pub message: Option<String>,
}

/// `protos.ai.v1.CreateFixJobResponse`.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct CreateFixJobResponse {
    #[serde(
        deserialize_with = "wire::null_as_default",
        skip_serializing_if = "wire::is_empty"
    )]
    pub errors: Vec<FixJobError>,
    pub success: Option<bool>,
}

#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct FixJobError {
    pub error_type: Option<FixJobErrorType>,
    pub message: Option<String>,
    /// The source host's app, with the page to adjust its permissions.
    #[serde(rename = "hostAAppInfo")]
    pub host_a_app_info: Option<HostAAppInfo>,
}

/// `protos.ai.v1.HostAAppInfo`.
#[skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct HostAAppInfo {
    #[serde(with = "wire::int64_number")]
    pub app_id: Option<i64>,
    pub app_name: Option<String>,
    pub installation_target: Option<String>,
    pub config_url: Option<String>,
}

/// Either fix operation's answer, as one shape: what the TUI and the CLI
/// show.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum FixAnswer {
    Autofix(CreateAutofixResponse),
    FixJob(CreateFixJobResponse),
}

/// One typed error of a fix request, in words.
#[derive(Debug, Clone, PartialEq)]
pub struct FixProblem {
    /// The wire name (`AUTOFIX_ERROR_TYPE_...`), or "" when none came.
    pub error_type: String,
    pub label: String,
    pub advice: String,
    /// The service's own message, as sent.
    pub message: Option<String>,
    /// Where to fix the app's permissions, when the service says (a web URL).
    pub config_url: Option<String>,
}

impl FixAnswer {
    /// Whether the job was accepted: `success` and no error.
    pub fn accepted(&self) -> bool {
        match self {
            FixAnswer::Autofix(a) => a.success == Some(true) && a.errors.is_empty(),
            FixAnswer::FixJob(a) => a.success == Some(true) && a.errors.is_empty(),
        }
    }

    /// The errors, each with its advice.
    pub fn problems(&self) -> Vec<FixProblem> {
        match self {
            FixAnswer::Autofix(a) => a
                .errors
                .iter()
                .map(|e| {
                    let t = e.error_type.as_ref();
                    problem(
                        t.map(|t| (t.as_wire(), t.label(), t.advice())),
                        &e.message,
                        None,
                    )
                })
                .collect(),
            FixAnswer::FixJob(a) => a
                .errors
                .iter()
                .map(|e| {
                    let t = e.error_type.as_ref();
                    let config_url = e
                        .host_a_app_info
                        .as_ref()
                        .and_then(|i| i.config_url.clone())
                        .filter(|u| is_web_url(u));
                    problem(
                        t.map(|t| (t.as_wire(), t.label(), t.advice())),
                        &e.message,
                        config_url,
                    )
                })
                .collect(),
        }
    }
}

/// One error of either fix operation: its type as (wire name, label,
/// advice) when the service gave one.
fn problem(
    kind: Option<(&str, &str, &str)>,
    message: &Option<String>,
    config_url: Option<String>,
) -> FixProblem {
    let (error_type, label, advice) =
        kind.unwrap_or(("", "error", "the service gave no error type"));
    FixProblem {
        error_type: error_type.to_owned(),
        label: label.to_owned(),
        advice: advice.to_owned(),
        message: message.clone(),
        config_url,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_error_type_decodes_and_is_explained() {
        let a: CreateFixJobResponse = serde_json::from_value(serde_json::json!({
            "success": false,
            "errors": [
                {"errorType": "FIX_JOB_ERROR_TYPE_NEW_THING", "message": "m"},
                {"errorType": "FIX_JOB_ERROR_TYPE_NO_WRITE_ACCESS",
                 "hostAAppInfo": {"appId": "12", "configUrl": "https://scm.example.com/apps/12"}}
            ]
        }))
        .unwrap();
        let answer = FixAnswer::FixJob(a);
        assert!(!answer.accepted());
        let p = answer.problems();
        assert_eq!(p[0].label, "FIX_JOB_ERROR_TYPE_NEW_THING");
        assert!(p[0].advice.contains("does not know"));
        assert_eq!(
            p[1].config_url.as_deref(),
            Some("https://scm.example.com/apps/12")
        );
    }

    #[test]
    fn the_fix_status_is_the_latest_lifecycle_event() {
        let event = |t| crate::ActivityEvent {
            history_type: Some(t),
            ..Default::default()
        };
        let mut issue = Issue::default();
        assert_eq!(issue.fix_pr_status(), None);
        issue.activity_history = vec![
            event(HistoryType::ClickToFixPrRequested),
            event(HistoryType::Triage),
        ];
        assert_eq!(issue.fix_pr_status(), Some(FixPrStatus::Requested));
        issue
            .activity_history
            .push(event(HistoryType::ClickToFixPrOpened));
        issue.click_to_fix_pr_url = Some("javascript:alert(1)".into());
        assert_eq!(issue.fix_pr_status(), Some(FixPrStatus::Opened));
        assert_eq!(issue.fix_pr_url(), None);
    }

    #[test]
    fn the_operation_follows_the_type() {
        assert_eq!(
            FixOperation::for_type(Some(&IssueType::Sast)),
            Some(FixOperation::FixJob)
        );
        assert_eq!(
            FixOperation::for_type(Some(&IssueType::Sca)),
            Some(FixOperation::Autofix)
        );
        assert_eq!(FixOperation::for_type(Some(&IssueType::Secrets)), None);
        assert_eq!(FixOperation::for_type(None), None);
    }
}
