//! Findings read by id, wherever they are: List issues leaves archived
//! projects' findings out unless `includeArchived` is true, and then lists
//! only those (published), so the ids not found at first are asked for
//! again among the archived.

use crate::paginate::{collect_issues, pages};
use crate::{ApiError, Client};
use findings_model::{Issue, IssueItem, ListIssuesRequest, MAX_PAGE_SIZE};

/// The list items of `ids`, wherever they are (as [`issues_by_id`]: the
/// ids not listed at first are asked for again among archived projects'
/// findings), whole: what a list's rows are refreshed from after a write.
/// At most `ids.len()`.
pub async fn items_by_id(client: &Client, ids: Vec<String>) -> Result<Vec<IssueItem>, ApiError> {
    use futures_util::StreamExt;
    let n = ids.len();
    let all = |ids: Vec<String>, archived: Option<bool>| async move {
        let mut request = ListIssuesRequest::of_ids(ids);
        request.limit = Some(MAX_PAGE_SIZE);
        if let Some(filter) = &mut request.filter {
            filter.include_archived = archived;
        }
        let mut items = Vec::new();
        let mut stream = std::pin::pin!(pages(client.clone(), request));
        while let Some(page) = stream.next().await {
            items.extend(page?.issues);
        }
        Ok::<_, ApiError>(items)
    };
    let mut items = all(ids.clone(), None).await?;
    let seen: std::collections::HashSet<String> = items
        .iter()
        .filter_map(|i| i.issue.as_ref().map(|issue| issue.id().to_owned()))
        .collect();
    let missing: Vec<String> = ids.into_iter().filter(|id| !seen.contains(id)).collect();
    if !missing.is_empty() {
        items.extend(all(missing, Some(true)).await?);
    }
    items.truncate(n);
    Ok(items)
}

/// What `keep` makes of each finding of `ids`, wherever it is: List issues
/// leaves out archived projects' findings unless `includeArchived` is true,
/// and then lists only those (published), so the ids not found the first
/// time are asked for again among the archived (`keep`'s second argument:
/// found there). At most `ids.len()` kept.
pub async fn issues_by_id<T>(
    client: &Client,
    ids: Vec<String>,
    mut keep: impl FnMut(Issue, bool) -> Option<T>,
    id_of: impl Fn(&T) -> &str,
) -> Result<Vec<T>, ApiError> {
    let n = ids.len();
    let asked = |ids: Vec<String>, archived: Option<bool>| {
        let mut request = ListIssuesRequest::of_ids(ids);
        if let Some(filter) = &mut request.filter {
            filter.include_archived = archived;
        }
        request
    };
    let (mut found, _) =
        collect_issues(client, asked(ids.clone(), None), n, |i| keep(i, false)).await?;
    let seen: std::collections::HashSet<&str> = found.iter().map(&id_of).collect();
    let missing: Vec<String> = ids
        .into_iter()
        .filter(|id| !seen.contains(id.as_str()))
        .collect();
    if !missing.is_empty() {
        let m = missing.len();
        let (archived, _) =
            collect_issues(client, asked(missing, Some(true)), m, |i| keep(i, true)).await?;
        found.extend(archived);
    }
    Ok(found)
}
