//! Fix pull requests in the demo (docs/src/api.md "Fix pull requests"): a
//! finding's answer follows from its state (type, repository, branch,
//! triage, a fix in flight) and, for the rest, from its index, so some
//! findings succeed and others fail with each typed error, the same every
//! run. An accepted request is in flight until the pull request opens, two
//! served requests later (the demo's clock is the requests it serves).

use super::refusal::{Refusal, event};
use crate::dataset::*;
use findings_model::*;

/// How many requests after a fix request its pull request opens.
pub const OPENS_AFTER_REQUESTS: u64 = 2;

/// The configuration errors a fix job may meet, given by index.
const FIX_JOB_CONFIG: [FixJobErrorType; 10] = [
    FixJobErrorType::NoWriteAccess,
    FixJobErrorType::InvalidRepository,
    FixJobErrorType::ScmConfigNotFound,
    FixJobErrorType::CreditsExhausted,
    FixJobErrorType::ScmTokenFailed,
    FixJobErrorType::CodeAccessNotGranted,
    FixJobErrorType::AutofixDisabled,
    FixJobErrorType::AiProviderNotAllowed,
    FixJobErrorType::GroupingDisabled,
    FixJobErrorType::InvalidGroup,
];

const AUTOFIX_CONFIG: [AutofixErrorType; 7] = [
    AutofixErrorType::AutofixNotEnabled,
    AutofixErrorType::InvalidRepository,
    AutofixErrorType::NoWriteAccess,
    AutofixErrorType::ScmConfigNotFound,
    AutofixErrorType::ScmTokenFailed,
    AutofixErrorType::CodeAccessNotGranted,
    AutofixErrorType::CreditsExhausted,
];

/// The slot of finding `i` among [`FIX_JOB_CONFIG`] / [`AUTOFIX_CONFIG`]:
/// one finding in four of each kind meets one of them.
fn config_slot(i: usize) -> usize {
    (i * 7 + 3) % 40
}

/// Why a fix job for finding `i` fails, if it does.
pub fn fix_job_error(ds: &Dataset, changes: &Changes, i: usize) -> Option<FixJobErrorType> {
    let row = changes.row(i, &ds.rows[i]);
    if row.kind != Kind::Code {
        return Some(FixJobErrorType::UnsupportedIssueType);
    }
    if ds.repo(&row).archived {
        return Some(FixJobErrorType::ArchivedRepository);
    }
    if row.ref_slot != 0 {
        return Some(FixJobErrorType::NonPrimaryBranchDisabled);
    }
    FIX_JOB_CONFIG.get(config_slot(i)).cloned()
}

/// Why an Autofix for finding `i` fails, if it does.
pub fn autofix_error(ds: &Dataset, changes: &Changes, i: usize) -> Option<AutofixErrorType> {
    let row = changes.row(i, &ds.rows[i]);
    if row.kind == Kind::Secrets {
        return Some(AutofixErrorType::UnsupportedIssueType);
    }
    if ds.repo(&row).archived {
        return Some(AutofixErrorType::InvalidRepository);
    }
    let open = IssueStatus::ALL[row.status as usize] == IssueStatus::Unresolved;
    let ignored = matches!(
        TriageState::ALL[row.triage as usize],
        TriageState::Ignored | TriageState::ProvisionallyIgnored
    );
    if !open || ignored {
        return Some(AutofixErrorType::InvalidIssueState);
    }
    if row.fix_pr == Some(FixPr::Requested) {
        return Some(AutofixErrorType::InFlightFixPending);
    }
    if row.kind == Kind::Sca && i % 5 == 1 {
        return Some(AutofixErrorType::NoRecommendedUpgrade);
    }
    AUTOFIX_CONFIG.get(config_slot(i)).cloned()
}

/// `AutofixService_CreateAutofix` or `AiFixJobsService_CreateFixJob` for
/// finding `issue_id`; `served`: requests served so far (this one too).
pub fn request_fix(
    ds: &Dataset,
    op: FixOperation,
    issue_id: &str,
    served: u64,
) -> Result<FixAnswer, Refusal> {
    let Some(i) = finding_index(issue_id, ds.rows.len()) else {
        return match op {
            FixOperation::Autofix => Ok(FixAnswer::Autofix(CreateAutofixResponse {
                success: Some(false),
                errors: vec![AutofixError {
                    error_type: Some(AutofixErrorType::IssueNotFound),
                    message: Some(format!(
                        "Issue {} not found",
                        findings_base::text::one_line(issue_id)
                    )),
                }],
            })),
            FixOperation::FixJob => Err(Refusal::NotFound(format!(
                "issue {} not found",
                findings_base::text::one_line(issue_id)
            ))),
        };
    };
    ds.change(|before, next| {
        let row = before.row(i, &ds.rows[i]);
        let answer = match op {
            FixOperation::Autofix => FixAnswer::Autofix(match autofix_error(ds, before, i) {
                Some(t) => CreateAutofixResponse {
                    success: Some(false),
                    errors: vec![AutofixError {
                        message: Some(t.label().to_owned()),
                        error_type: Some(t),
                    }],
                },
                None => CreateAutofixResponse {
                    success: Some(true),
                    errors: vec![],
                },
            }),
            FixOperation::FixJob => FixAnswer::FixJob(match fix_job_error(ds, before, i) {
                Some(t) => CreateFixJobResponse {
                    success: Some(false),
                    errors: vec![FixJobError {
                        message: Some(t.label().to_owned()),
                        host_a_app_info: app_info(ds, &row, &t),
                        error_type: Some(t),
                    }],
                },
                None => CreateFixJobResponse {
                    success: Some(true),
                    errors: vec![],
                },
            }),
        };
        // A fix job asked for while one is in flight joins it.
        if answer.accepted() && row.fix_pr != Some(FixPr::Requested) {
            next.acted.fixes.insert(
                i,
                FixRequest {
                    state: FixPr::Requested,
                    pr_number: 20_000 + u32::try_from(i % 9000).unwrap_or(0),
                    opens_at: served + OPENS_AFTER_REQUESTS,
                },
            );
            next.acted.events.entry(i).or_default().push(event(
                ds,
                HistoryType::ClickToFixPrRequested,
                "Fix pull request requested".into(),
                None,
            ));
        }
        Ok(answer)
    })
}

/// The source host's app, where its permissions are what failed.
fn app_info(ds: &Dataset, row: &Row, t: &FixJobErrorType) -> Option<HostAAppInfo> {
    if !matches!(
        t,
        FixJobErrorType::NoWriteAccess | FixJobErrorType::CodeAccessNotGranted
    ) {
        return None;
    }
    let repo = ds.repo(row);
    let org = repo.name.split('/').next().unwrap_or("acme").to_owned();
    let host = host_of(&ScmType::from_wire(&repo.scm_type));
    Some(HostAAppInfo {
        app_id: Some(123_456),
        app_name: Some("findings-platform-app".into()),
        config_url: Some(format!(
            "https://{host}/organizations/{org}/settings/installations/123456"
        )),
        installation_target: Some(org),
    })
}

/// Whether a pull request is due to open by `served` requests.
pub fn fixes_due(ds: &Dataset, served: u64) -> bool {
    ds.changes()
        .acted
        .fixes
        .values()
        .any(|f| f.state == FixPr::Requested && f.opens_at <= served)
}

/// Opens the pull requests due by `served` requests (a write only when
/// one is due).
pub fn open_due_fixes(ds: &Dataset, served: u64) {
    if !fixes_due(ds, served) {
        return;
    }
    ds.change(|before, next| {
        for (&i, fix) in &before.acted.fixes {
            if fix.state == FixPr::Requested && fix.opens_at <= served {
                next.acted.fixes.insert(
                    i,
                    FixRequest {
                        state: FixPr::Open,
                        ..*fix
                    },
                );
                next.acted.events.entry(i).or_default().push(event(
                    ds,
                    HistoryType::ClickToFixPrOpened,
                    format!("Fix pull request #{} opened", fix.pr_number),
                    None,
                ));
            }
        }
    });
}
