//! The one API worker: a task that owns the client and serves every pane.
//!
//! Panes send [`WorkerCommand`]s over a channel; each request runs as its own
//! task (so a slow one never blocks another) and its [`Reply`] carries the
//! request id back. A cancelled request's task is aborted: its connection is
//! dropped and no reply is sent.

use super::fix_prs::SharedFixPrs;
use super::save::ExportFile;
use crate::message::rows::{Finding, RowPage};
use crate::message::{ApiRequest, ApiResponse, ExportItems, MAX_COUNTED, Reply, RequestId};
use findings_client::{ApiError, Client};
use findings_model::{Issue, IssueItem, ListIssuesRequest};
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
    // Shared with the tasks: an export written as its findings come notes
    // them on its way ([`export_to`]).
    let fix_prs = SharedFixPrs::default();
    loop {
        tokio::select! {
            command = commands.recv() => match command {
                None => break,
                Some(WorkerCommand::Send { id, request }) => {
                    let client = client.clone();
                    let done = done_tx.clone();
                    let fix_prs = fix_prs.clone();
                    let task = tokio::spawn(async move {
                        if let ApiRequest::StreamRows(request) = request {
                            return stream_rows(&client, id, request, &done).await;
                        }
                        let result = perform(&client, request, &fix_prs).await;
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
                    fix_prs.lock().note(response);
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

/// Pages of a stream taken from the network and not yet taken by the app:
/// when the loop is busy (a frame, a search), the stream waits rather than
/// piling pages up in memory.
const PAGES_AHEAD: usize = 4;

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
    let credits = Arc::new(tokio::sync::Semaphore::new(PAGES_AHEAD));
    let mut pages = std::pin::pin!(super::pages::every_page(client, RowsRequest::new(request)));
    loop {
        // Given back when the page it rides with is dropped (taken).
        let Ok(credit) = credits.clone().acquire_owned().await else {
            return;
        };
        let Some(page) = pages.next().await else {
            break;
        };
        let (result, last) = match page {
            Ok(mut rows) => {
                rows.credit = Some(Arc::new(credit));
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
type RowsRequest = findings_client::PagesAs<ListIssuesRequest, RowPage>;

/// The findings of `ids`, whole, in order: a few fetched at once.
async fn get_issues(client: &Client, ids: Vec<String>) -> Result<Vec<Issue>, ApiError> {
    use futures_util::{StreamExt, TryStreamExt};
    futures_util::stream::iter(ids)
        .map(|id| async move { client.get_issue(&id).await })
        .buffered(8)
        .try_collect()
        .await
}

/// Which findings of a listing are given again, page by page: the first
/// `max`, or those of `keep` among them.
struct Relisting {
    keep: Option<Arc<HashSet<String>>>,
    max: usize,
    want: usize,
    seen: usize,
    kept: usize,
}

impl Relisting {
    fn new(keep: Option<Arc<HashSet<String>>>, max: usize) -> Relisting {
        let want = keep.as_ref().map_or(max, |k| k.len().min(max));
        Relisting {
            keep,
            max,
            want,
            seen: 0,
            kept: 0,
        }
    }

    /// The items of a page to keep, and whether that was the last wanted.
    fn take(&mut self, page: Vec<IssueItem>) -> (Vec<IssueItem>, bool) {
        let mut items = Vec::new();
        for item in page {
            if self.done() {
                break;
            }
            self.seen += 1;
            let id = item.issue.as_ref().map_or("", Issue::id);
            if self.keep.as_ref().is_none_or(|k| k.contains(id)) {
                items.push(item);
                self.kept += 1;
            }
        }
        (items, self.done())
    }

    fn done(&self) -> bool {
        self.seen == self.max || self.kept == self.want
    }
}

/// The first `max` findings of a listing, or those of `keep`, whole.
async fn relist(
    client: &Client,
    request: ListIssuesRequest,
    keep: Option<Arc<HashSet<String>>>,
    max: usize,
) -> Result<Vec<IssueItem>, ApiError> {
    use futures_util::StreamExt;
    let mut relisting = Relisting::new(keep, max);
    let mut pages = std::pin::pin!(super::pages::every_page(client, request));
    let mut items = Vec::new();
    while let Some(page) = pages.next().await {
        let (kept, done) = relisting.take(page?.issues);
        items.extend(kept);
        if done {
            break;
        }
    }
    Ok(items)
}

/// The findings of `fetch` written to a new file at `path` as they come: a
/// listing's page by page, findings by id a hundred at a time; only those
/// being written are held. A failed fetch leaves no file.
async fn export_to(
    client: &Client,
    fetch: ApiRequest,
    path: &std::path::Path,
    (format, columns): (findings_export::Format, findings_export::Chosen),
    fix_prs: &SharedFixPrs,
) -> Result<ApiResponse, ApiError> {
    let target = super::save::resolve(path);
    let how = Exporting {
        target: &target,
        format,
        columns: &columns,
        fix_prs,
    };
    let result = match fetch {
        ApiRequest::Relist { request, keep, max } => {
            export_relisted(client, request, Relisting::new(keep, max), how).await
        }
        ApiRequest::GetIssues { ids, items: true } => {
            export_by_id::<IssueItem>(client, ids, how).await
        }
        ApiRequest::GetIssues { ids, items: false } => {
            export_by_id::<Issue>(client, ids, how).await
        }
        _ => Err(ApiError::Config(
            "only a listing or findings by id are exported".into(),
        )),
    }?;
    Ok(ApiResponse::Exported {
        path: target.display().to_string(),
        result,
    })
}

/// What an export answers: how writing the file went (`Err`: the file's
/// own failure), or the fetch's error.
type Written = Result<Result<usize, String>, ApiError>;

/// Where an export goes, and what notes the findings on their way.
#[derive(Clone, Copy)]
struct Exporting<'a> {
    target: &'a std::path::Path,
    format: findings_export::Format,
    columns: &'a findings_export::Chosen,
    fix_prs: &'a SharedFixPrs,
}

async fn export_relisted(
    client: &Client,
    request: ListIssuesRequest,
    mut relisting: Relisting,
    how: Exporting<'_>,
) -> Written {
    use futures_util::StreamExt;
    let mut file = match ExportFile::create(how.target, how.format, how.columns.clone()) {
        Ok(file) => file,
        Err(e) => return Ok(Err(e)),
    };
    let mut pages = std::pin::pin!(super::pages::every_page(client, request));
    while let Some(page) = pages.next().await {
        let (items, done) = relisting.take(page?.issues);
        how.fix_prs.lock().learn_items(&items);
        file = match write_apart(file, items).await? {
            Ok(file) => file,
            Err(e) => return Ok(Err(e)),
        };
        if done {
            break;
        }
    }
    Ok(file.finish())
}

/// The findings to export fetched whole by id (a few at once), written a
/// hundred at a time.
async fn export_by_id<T: Finding + findings_export::Record + Send + 'static>(
    client: &Client,
    ids: Vec<String>,
    how: Exporting<'_>,
) -> Written {
    use futures_util::StreamExt;
    let mut file = match ExportFile::create(how.target, how.format, how.columns.clone()) {
        Ok(file) => file,
        Err(e) => return Ok(Err(e)),
    };
    let fetched = futures_util::stream::iter(ids)
        .map(|id| async move { client.get_issue(&id).await })
        .buffered(8)
        .chunks(100);
    let mut fetched = std::pin::pin!(fetched);
    while let Some(chunk) = fetched.next().await {
        let items = {
            let mut fix_prs = how.fix_prs.lock();
            chunk
                .into_iter()
                .map(|issue| {
                    issue.map(|issue| {
                        fix_prs.learn(&issue);
                        T::from_issue(issue)
                    })
                })
                .collect::<Result<Vec<T>, _>>()?
        };
        file = match write_apart(file, items).await? {
            Ok(file) => file,
            Err(e) => return Ok(Err(e)),
        };
    }
    Ok(file.finish())
}

/// Writes `items` to `file` on a thread for blocking work (formatting a
/// page takes milliseconds); the file back, or why writing failed.
async fn write_apart<T: findings_export::Record + Send + 'static>(
    mut file: ExportFile,
    items: Vec<T>,
) -> Result<Result<ExportFile, String>, ApiError> {
    let written = tokio::task::spawn_blocking(move || {
        items
            .iter()
            .try_for_each(|item| file.item(item))
            .map(|()| file)
    })
    .await;
    written.map_err(|e| ApiError::Connection(format!("the export stopped: {e}")))
}

/// Answers one request: each arm says which client call or function of
/// this module answers it, the arms grouped by what they do (the findings
/// read, a file written, triage's targets, the writes, the reports and
/// counts, the deployment's settings).
async fn perform(
    client: &Client,
    request: ApiRequest,
    fix_prs: &SharedFixPrs,
) -> Result<ApiResponse, ApiError> {
    match request {
        // Answered page by page (`stream_rows`); as one request, the first.
        ApiRequest::StreamRows(r) | ApiRequest::ListRows(r) => {
            let answer = client.list_issues_answer(&r).await?;
            answer.decode_apart().await.map(ApiResponse::Rows)
        }
        ApiRequest::GetIssues { ids, items } => issue_items(client, ids, items).await,
        ApiRequest::Relist { request, keep, max } => relist(client, request, keep, max)
            .await
            .map(|items| ApiResponse::Items(ExportItems::Issues(items))),
        ApiRequest::ListIssues(r) => client.list_issues(&r).await.map(ApiResponse::ListIssues),
        ApiRequest::GetIssue { id } => client
            .get_issue(&id)
            .await
            .map(|issue| ApiResponse::Issue(Box::new(issue))),
        ApiRequest::Search(r) => client.search_issues(&r).await.map(ApiResponse::Search),
        ApiRequest::ListGroups(r) => client.list_issue_groups(&r).await.map(ApiResponse::Groups),
        ApiRequest::IssueFilters(r) => client
            .issue_filters(&r)
            .await
            .map(ApiResponse::IssueFilters),
        ApiRequest::RelevantIssues(r) => client
            .find_relevant_issues(&r)
            .await
            .map(ApiResponse::Relevant),
        ApiRequest::ExportTo {
            fetch,
            path,
            format,
            columns,
        } => export_to(client, *fetch, &path, (format, columns), fix_prs).await,
        ApiRequest::TargetsById(ids) => targets_by_id(client, ids).await,
        ApiRequest::Refetch(ids) => findings_client::items_by_id(client, ids)
            .await
            .map(|issues| {
                ApiResponse::ListIssues(findings_model::ListIssuesResponse {
                    issues,
                    ..Default::default()
                })
            }),
        ApiRequest::MatchingTargets(r) => matching_targets(client, r).await,
        ApiRequest::UpdateScm { config_id, patch } => client
            .update_scm_config(&config_id, &patch)
            .await
            .map(ApiResponse::Scm),
        ApiRequest::TriageFindings(r) => client.update_findings(&r).await.map(ApiResponse::Triaged),
        ApiRequest::TriageAgentic { issue_id, request } => client
            .triage_agentic_issue(&issue_id, &request)
            .await
            .map(ApiResponse::AgenticTriaged),
        ApiRequest::Act(r) => client.act(&r).await.map(ApiResponse::Acted),
        ApiRequest::Report(r) => client.report_findings(&r).await.map(ApiResponse::Report),
        // With the unknown state counted apart, so the counts add up to the list.
        ApiRequest::IssueCounts(r) => findings_client::issue_counts_listed(client, &r)
            .await
            .map(ApiResponse::IssueCounts),
        ApiRequest::CountAgentic(f) => client
            .count_issues(f.as_ref())
            .await
            .map(ApiResponse::AgenticCount),
        ApiRequest::Dashboard(report, r) => client
            .dashboard_report(report, &r)
            .await
            .map(ApiResponse::Dashboard),
        ApiRequest::Opened(filters) => {
            findings_client::opened_in_period(client, filters, findings_client::DEFAULT_MAX_PAGES)
                .await
                .map(|opened| ApiResponse::Opened(Box::new(opened)))
        }
        ApiRequest::RuleLabels(ids) => Ok(ApiResponse::RuleLabels(
            findings_client::advisory_labels(client, ids).await,
        )),
        ApiRequest::OverTarget {
            request,
            targets,
            now,
        } => super::over_target::count(client, request, targets, now)
            .await
            .map(ApiResponse::OverTarget),
        ApiRequest::SinceLastVisit {
            request,
            files,
            now,
        } => super::since::compare(client, request, files, now)
            .await
            .map(|report| ApiResponse::Since(Box::new(report))),
        ApiRequest::ListScmConfigs(r) => {
            findings_client::all_scm_configs(client, r, findings_client::MAX_SCM_CONFIGS)
                .await
                .map(ApiResponse::ScmConfigs)
        }
        ApiRequest::AuthorizedActions => client
            .authorized_actions()
            .await
            .map(ApiResponse::Authorized),
        ApiRequest::TicketingInstances => client
            .ticketing_instances()
            .await
            .map(ApiResponse::Instances),
    }
}

/// The findings of `ids`, whole: as List issues items when `items`, else
/// as report findings.
async fn issue_items(
    client: &Client,
    ids: Vec<String>,
    items: bool,
) -> Result<ApiResponse, ApiError> {
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

/// Triage's targets of `ids`, each read from its finding (all of them
/// asked for: the answer is whole).
async fn targets_by_id(client: &Client, ids: Vec<String>) -> Result<ApiResponse, ApiError> {
    let found = findings_client::issues_by_id(client, ids, |issue, archived| {
        findings_requests::triage::Target::read(&issue, archived)
    })
    .await;
    found.map(|targets| ApiResponse::Targets(targets, true))
}

/// Triage's targets of the findings a listing matches, at most
/// [`MAX_COUNTED`] (whether that was all of them said with them).
async fn matching_targets(client: &Client, r: ListIssuesRequest) -> Result<ApiResponse, ApiError> {
    findings_client::collect_issues(client, r, MAX_COUNTED, |issue| {
        (!issue.id().is_empty()).then(|| findings_requests::triage::Target::finding(&issue))
    })
    .await
    .map(|(targets, complete)| ApiResponse::Targets(targets, complete))
}
