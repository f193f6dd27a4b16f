//! Findings read by id, wherever they are: List issues leaves archived
//! projects' findings out unless `includeArchived` is true, and then lists
//! only those (published), so the ids not found at first are asked for
//! again among the archived.
//!
//! A read by id costs what its ids allow, whatever the server answers: it
//! keeps only the findings asked for, each once; it stops as soon as it
//! has them all; its pages are asked for the ids' number of items (so an
//! answer weighs what that many may, [`crate::transport`]); and it follows
//! at most the pages a server honouring the filter could need, one an id
//! and one more, before it stops with an error. What the TUI fetches again
//! after a write, and what triage and tickets read first, go through here.

use crate::paginate::pages_up_to;
use crate::{ApiError, Client};
use findings_model::{Issue, IssueItem, ListIssuesRequest, MAX_PAGE_SIZE};
use std::collections::HashSet;

/// The list items of `ids`, wherever they are (as [`issues_by_id`]),
/// whole: what a list's rows are refreshed from after a write. At most
/// `ids.len()`, one a finding.
pub async fn items_by_id(client: &Client, ids: Vec<String>) -> Result<Vec<IssueItem>, ApiError> {
    let mut items = Vec::new();
    let mut take = |item| {
        items.push(item);
        true
    };
    let missing = read_ids(client, ids, None, &mut take).await?;
    if !missing.is_empty() {
        read_ids(client, missing, Some(true), &mut take).await?;
    }
    Ok(items)
}

/// What `keep` makes of each finding of `ids`, wherever it is (`keep`'s
/// second argument: found among the archived). At most `ids.len()` kept.
pub async fn issues_by_id<T>(
    client: &Client,
    ids: Vec<String>,
    mut keep: impl FnMut(Issue, bool) -> Option<T>,
) -> Result<Vec<T>, ApiError> {
    let mut found = Vec::new();
    // Not kept: asked for again among the archived.
    let mut kept = |item: IssueItem, archived: bool| {
        let kept = item.issue.and_then(|issue| keep(issue, archived));
        let taken = kept.is_some();
        found.extend(kept);
        taken
    };
    let missing = read_ids(client, ids, None, |item| kept(item, false)).await?;
    if !missing.is_empty() {
        read_ids(client, missing, Some(true), |item| kept(item, true)).await?;
    }
    Ok(found)
}

/// Lists `ids` (among archived projects' findings, or not), giving `each`
/// every item that is one of them until `each` takes it (says `true`);
/// returns the ids not taken, in their order. Stops once all are taken.
async fn read_ids(
    client: &Client,
    ids: Vec<String>,
    archived: Option<bool>,
    mut each: impl FnMut(IssueItem) -> bool,
) -> Result<Vec<String>, ApiError> {
    use futures_util::StreamExt;
    let mut wanted: HashSet<String> = ids.iter().cloned().collect();
    if wanted.is_empty() {
        return Ok(Vec::new());
    }
    let pages = wanted.len() + 1;
    let mut request = ListIssuesRequest::of_ids(ids.clone());
    // Saturating, then clamped to a page: the same for any length.
    let asked = i64::try_from(wanted.len()).unwrap_or(i64::MAX);
    request.limit = Some(asked.clamp(1, MAX_PAGE_SIZE));
    if let Some(filter) = &mut request.filter {
        filter.include_archived = archived;
    }
    let mut stream = std::pin::pin!(pages_up_to(client.clone(), request, pages));
    while !wanted.is_empty() {
        let Some(page) = stream.next().await else {
            break;
        };
        let page = page.map_err(|e| match e {
            ApiError::TooManyPages { pages } => ApiError::IdsNotListed {
                ids: ids.len(),
                pages,
            },
            e => e,
        })?;
        for item in page.issues {
            let Some(id) = item.issue.as_ref().map(|issue| issue.id().to_owned()) else {
                continue;
            };
            if wanted.contains(&id) && each(item) {
                wanted.remove(&id);
            }
        }
    }
    Ok(ids.into_iter().filter(|id| wanted.contains(id)).collect())
}
