//! Findings read by id, wherever they are: List issues leaves archived
//! projects' findings out unless `includeArchived` is true, and then lists
//! only those (published), so the ids not found at first are asked for
//! again among the archived.

use crate::paginate::{collect_issues, pages};
use crate::{ApiError, Client};
use findings_model::{Issue, IssueItem, ListIssuesRequest, MAX_PAGE_SIZE};
use std::collections::HashSet;

/// The list items of `ids`, wherever they are (as [`issues_by_id`]),
/// whole: what a list's rows are refreshed from after a write. At most
/// `ids.len()`.
pub async fn items_by_id(client: &Client, ids: Vec<String>) -> Result<Vec<IssueItem>, ApiError> {
    let n = ids.len();
    let mut items = all_items(client, asked(ids.clone(), None)).await?;
    let seen: HashSet<&str> = items
        .iter()
        .filter_map(|i| i.issue.as_ref().map(Issue::id))
        .collect();
    let missing = not_in(ids, &seen);
    if !missing.is_empty() {
        items.extend(all_items(client, asked(missing, Some(true))).await?);
    }
    items.truncate(n);
    Ok(items)
}

/// What `keep` makes of each finding of `ids`, wherever it is (`keep`'s
/// second argument: found among the archived). At most `ids.len()` kept.
pub async fn issues_by_id<T>(
    client: &Client,
    ids: Vec<String>,
    mut keep: impl FnMut(Issue, bool) -> Option<T>,
    id_of: impl Fn(&T) -> &str,
) -> Result<Vec<T>, ApiError> {
    let n = ids.len();
    let (mut found, _) =
        collect_issues(client, asked(ids.clone(), None), n, |i| keep(i, false)).await?;
    let seen: HashSet<&str> = found.iter().map(&id_of).collect();
    let missing = not_in(ids, &seen);
    if !missing.is_empty() {
        let m = missing.len();
        let (archived, _) =
            collect_issues(client, asked(missing, Some(true)), m, |i| keep(i, true)).await?;
        found.extend(archived);
    }
    Ok(found)
}

/// The listing of `ids`, among archived projects' findings or not.
fn asked(ids: Vec<String>, archived: Option<bool>) -> ListIssuesRequest {
    let mut request = ListIssuesRequest::of_ids(ids);
    if let Some(filter) = &mut request.filter {
        filter.include_archived = archived;
    }
    request
}

/// The ids of `ids` not `seen`, in their order.
fn not_in(ids: Vec<String>, seen: &HashSet<&str>) -> Vec<String> {
    ids.into_iter()
        .filter(|id| !seen.contains(id.as_str()))
        .collect()
}

/// Every item `request` lists, page after page of the largest size.
async fn all_items(
    client: &Client,
    request: ListIssuesRequest,
) -> Result<Vec<IssueItem>, ApiError> {
    use futures_util::StreamExt;
    let request = ListIssuesRequest {
        limit: Some(MAX_PAGE_SIZE),
        cursor: None,
        ..request
    };
    let mut items = Vec::new();
    let mut stream = std::pin::pin!(pages(client.clone(), request));
    while let Some(page) = stream.next().await {
        items.extend(page?.issues);
    }
    Ok(items)
}
