//! The one API worker: a task that owns the client and serves every pane.
//!
//! Panes send [`WorkerCommand`]s over a channel; each request runs as its own
//! task (so a slow one never blocks another) and its [`Reply`] carries the
//! request id back. A cancelled request's task is aborted: its connection is
//! dropped and no reply is sent.

use crate::api::client::Answer;
use crate::api::model::{Issue, IssueItem, ListIssuesRequest};
use crate::api::{ApiError, Client, Follow, PagedRequest};
use crate::tui::message::rows::RowPage;
use crate::tui::message::{ApiRequest, ApiResponse, ExportItems, MAX_COUNTED, Reply, RequestId};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
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
    // Replies of the tasks, and whether each is their last.
    let (done_tx, mut done_rx) = mpsc::unbounded_channel::<(Reply, bool)>();
    let mut in_flight: HashMap<RequestId, AbortHandle> = HashMap::new();
    let mut fix_prs = super::fix_prs::FixPrs::default();
    loop {
        tokio::select! {
            command = commands.recv() => match command {
                None => break,
                Some(WorkerCommand::Send { id, request }) => {
                    let client = client.clone();
                    let done = done_tx.clone();
                    let task = tokio::spawn(async move {
                        if let ApiRequest::StreamRows(request) = request {
                            return stream_rows(&client, id, request, &done).await;
                        }
                        let result = perform(&client, request).await;
                        let _ = done.send((Reply { id, result }, true));
                    });
                    in_flight.insert(id, task.abort_handle());
                }
                Some(WorkerCommand::Cancel { id }) => {
                    if let Some(handle) = in_flight.remove(&id) {
                        handle.abort();
                    }
                }
            },
            Some((mut reply, last)) = done_rx.recv() => {
                if let Ok(response) = &mut reply.result {
                    fix_prs.note(response);
                }
                // A reply of a request cancelled after it finished is dropped.
                let wanted = if last {
                    in_flight.remove(&reply.id).is_some()
                } else {
                    in_flight.contains_key(&reply.id)
                };
                if wanted && replies.send(reply).is_err() {
                    break;
                }
            }
        }
    }
    for handle in in_flight.values() {
        handle.abort();
    }
}

/// Every page of `request` as list rows, each sent as it is packed (the
/// next page is asked for meanwhile: [`Follow::Ahead`]); the last page, or
/// a failure, ends it.
async fn stream_rows(
    client: &Client,
    id: RequestId,
    request: ListIssuesRequest,
    done: &mpsc::UnboundedSender<(Reply, bool)>,
) {
    use futures_util::StreamExt;
    let pages = crate::api::pages_following(
        client.clone(),
        RowsRequest(request),
        crate::api::DEFAULT_MAX_PAGES,
        Follow::Ahead,
    );
    let mut pages = std::pin::pin!(pages);
    while let Some(page) = pages.next().await {
        let (result, last) = match page {
            Ok(rows) => {
                let last = rows.cursor.as_deref().is_none_or(str::is_empty) || rows.rows.is_empty();
                if last {
                    (Ok(ApiResponse::Rows(rows)), true)
                } else {
                    (Ok(ApiResponse::RowsSoFar(rows)), false)
                }
            }
            Err(e) => (Err(e), true),
        };
        if done.send((Reply { id, result }, last)).is_err() || last {
            return;
        }
    }
    // The stream ended without a last page (a loop is an error above).
    let end = ApiResponse::Rows(RowPage::default());
    let _ = done.send((
        Reply {
            id,
            result: Ok(end),
        },
        true,
    ));
}

/// List issues, its pages decoded straight into rows (only the fields a
/// row keeps are read: `message/listed.rs`).
#[derive(Debug, Clone)]
struct RowsRequest(ListIssuesRequest);

impl PagedRequest for RowsRequest {
    type Page = RowPage;
    fn set_cursor(&mut self, cursor: Option<String>) {
        self.0.cursor = cursor;
    }
    async fn answer(&self, client: &Client) -> Result<Answer, ApiError> {
        client.list_issues_answer(&self.0).await
    }
}

/// The findings of `ids`, whole, in order: a few fetched at once.
async fn get_issues(client: &Client, ids: Vec<String>) -> Result<Vec<Issue>, ApiError> {
    use futures_util::{StreamExt, TryStreamExt};
    futures_util::stream::iter(ids)
        .map(|id| async move { client.get_issue(&id).await })
        .buffered(8)
        .try_collect()
        .await
}

/// The first `max` findings of a listing, or those of `keep`, whole.
async fn relist(
    client: &Client,
    request: ListIssuesRequest,
    keep: Option<Arc<HashSet<String>>>,
    max: usize,
) -> Result<Vec<IssueItem>, ApiError> {
    use futures_util::StreamExt;
    let want = keep.as_ref().map_or(max, |k| k.len().min(max));
    let pages = crate::api::pages_following(
        client.clone(),
        request,
        crate::api::DEFAULT_MAX_PAGES,
        Follow::Ahead,
    );
    let mut pages = std::pin::pin!(pages);
    let mut items = Vec::new();
    let mut seen = 0;
    while let Some(page) = pages.next().await {
        for item in page?.issues {
            if seen == max || items.len() == want {
                return Ok(items);
            }
            seen += 1;
            let id = item.issue.as_ref().map_or("", Issue::id);
            if keep.as_ref().is_none_or(|k| k.contains(id)) {
                items.push(item);
            }
        }
    }
    Ok(items)
}

async fn perform(client: &Client, request: ApiRequest) -> Result<ApiResponse, ApiError> {
    match request {
        // Answered page by page (`stream_rows`); as one request, the first.
        ApiRequest::StreamRows(r) | ApiRequest::ListRows(r) => {
            let answer = client.list_issues_answer(&r).await?;
            answer.decode_apart().await.map(ApiResponse::Rows)
        }
        ApiRequest::GetIssues { ids, items } => {
            let issues = get_issues(client, ids).await?;
            Ok(ApiResponse::Items(if items {
                ExportItems::Issues(
                    issues
                        .into_iter()
                        .map(|issue| IssueItem {
                            issue: Some(issue),
                            ..IssueItem::default()
                        })
                        .collect(),
                )
            } else {
                ExportItems::Findings(issues)
            }))
        }
        ApiRequest::Relist { request, keep, max } => relist(client, request, keep, max)
            .await
            .map(|items| ApiResponse::Items(ExportItems::Issues(items))),
        ApiRequest::ListIssues(r) => client.list_issues(&r).await.map(ApiResponse::ListIssues),
        ApiRequest::GetIssue { id } => client
            .get_issue(&id)
            .await
            .map(|issue| ApiResponse::Issue(Box::new(issue))),
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
