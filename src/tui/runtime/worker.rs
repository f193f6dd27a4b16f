//! The one API worker: a task that owns the client and serves every pane.
//!
//! Panes send [`WorkerCommand`]s over a channel; each request runs as its own
//! task (so a slow one never blocks another) and its [`Reply`] carries the
//! request id back. A cancelled request's task is aborted: its connection is
//! dropped and no reply is sent.

use crate::api::{ApiError, Client};
use crate::tui::message::rows::RowPage;
use crate::tui::message::{ApiRequest, ApiResponse, MAX_COUNTED, Reply, RequestId};
use std::collections::HashMap;
use tokio::sync::mpsc;
use tokio::task::AbortHandle;

#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum WorkerCommand {
    Send { id: RequestId, request: ApiRequest },
    Cancel { id: RequestId },
}

/// Starts the worker on the current runtime. Dropping the command sender
/// stops it (and aborts what is in flight).
pub fn spawn(
    client: Client,
) -> (
    mpsc::UnboundedSender<WorkerCommand>,
    mpsc::UnboundedReceiver<Reply>,
) {
    let (cmd_tx, cmd_rx) = mpsc::unbounded_channel();
    let (reply_tx, reply_rx) = mpsc::unbounded_channel();
    tokio::spawn(run(client, cmd_rx, reply_tx));
    (cmd_tx, reply_rx)
}

async fn run(
    client: Client,
    mut commands: mpsc::UnboundedReceiver<WorkerCommand>,
    replies: mpsc::UnboundedSender<Reply>,
) {
    let (done_tx, mut done_rx) = mpsc::unbounded_channel::<Reply>();
    let mut in_flight: HashMap<RequestId, AbortHandle> = HashMap::new();
    loop {
        tokio::select! {
            command = commands.recv() => match command {
                None => break,
                Some(WorkerCommand::Send { id, request }) => {
                    let client = client.clone();
                    let done = done_tx.clone();
                    let task = tokio::spawn(async move {
                        let result = perform(&client, request).await;
                        let _ = done.send(Reply { id, result });
                    });
                    in_flight.insert(id, task.abort_handle());
                }
                Some(WorkerCommand::Cancel { id }) => {
                    if let Some(handle) = in_flight.remove(&id) {
                        handle.abort();
                    }
                }
            },
            Some(reply) = done_rx.recv() => {
                // A reply of a request cancelled after it finished is dropped.
                if in_flight.remove(&reply.id).is_some() && replies.send(reply).is_err() {
                    break;
                }
            }
        }
    }
    for handle in in_flight.values() {
        handle.abort();
    }
}

async fn perform(client: &Client, request: ApiRequest) -> Result<ApiResponse, ApiError> {
    match request {
        ApiRequest::ListIssues(r) => client.list_issues(&r).await.map(ApiResponse::ListIssues),
        ApiRequest::GetIssue { id } => client
            .get_issue(&id)
            .await
            .map(|issue| ApiResponse::Issue(Box::new(issue))),
        ApiRequest::ListRows(r) => {
            let page = client.list_issues(&r).await?;
            // Packing a 1,000-item page takes ~15 ms of CPU: not on the
            // runtime's threads.
            tokio::task::spawn_blocking(move || RowPage::from(page))
                .await
                .map(ApiResponse::Rows)
                .map_err(|e| ApiError::Connection(format!("the page could not be kept: {e}")))
        }
        ApiRequest::Report(r) => client.report_findings(&r).await.map(ApiResponse::Report),
        ApiRequest::Search(r) => client.search_issues(&r).await.map(ApiResponse::Search),
        ApiRequest::UpdateScm { config_id, patch } => client
            .update_scm_config(&config_id, &patch)
            .await
            .map(ApiResponse::Scm),
        ApiRequest::MatchingTargets(r) => {
            crate::api::collect_issues(client, r, MAX_COUNTED, |issue| {
                (!issue.id().is_empty()).then(|| crate::triage::Target::finding(&issue))
            })
            .await
            .map(|(targets, complete)| ApiResponse::Targets(targets, complete))
        }
        ApiRequest::ListGroups(r) => client.list_issue_groups(&r).await.map(ApiResponse::Groups),
        ApiRequest::TriageFindings(r) => client.update_findings(&r).await.map(ApiResponse::Triaged),
        ApiRequest::TriageAgentic { issue_id, request } => client
            .triage_agentic_issue(&issue_id, &request)
            .await
            .map(ApiResponse::AgenticTriaged),
        ApiRequest::IssueFilters(r) => client
            .issue_filters(&r)
            .await
            .map(ApiResponse::IssueFilters),
        ApiRequest::IssueCounts(r) => client.issue_counts(&r).await.map(ApiResponse::IssueCounts),
        ApiRequest::CountAgentic(f) => client
            .count_issues(f.as_ref())
            .await
            .map(ApiResponse::AgenticCount),
        ApiRequest::Dashboard(report, r) => client
            .dashboard_report(report, &r)
            .await
            .map(ApiResponse::Dashboard),
        ApiRequest::ListScmConfigs(r) => {
            crate::api::all_scm_configs(client, r, crate::api::MAX_SCM_CONFIGS)
                .await
                .map(ApiResponse::ScmConfigs)
        }
        ApiRequest::Act(r) => client.act(&r).await.map(ApiResponse::Acted),
        ApiRequest::AuthorizedActions => client
            .authorized_actions()
            .await
            .map(ApiResponse::Authorized),
        ApiRequest::TicketingInstances => client
            .ticketing_instances()
            .await
            .map(ApiResponse::Instances),
        ApiRequest::RelevantIssues(r) => client
            .find_relevant_issues(&r)
            .await
            .map(ApiResponse::Relevant),
    }
}
