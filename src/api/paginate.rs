//! Cursor pagination as an async stream (docs/api.md §7).
//!
//! Follows `cursor` until it is absent or empty, or a page is empty; a cursor
//! seen twice in one listing ends the stream with [`ApiError::CursorLoop`].

use super::client::Client;
use super::error::ApiError;
use super::model::*;
use futures_util::Stream;
use std::collections::HashSet;

/// A request that can be sent for one page, and its response.
pub trait PagedRequest: Clone + Send + Sync + 'static {
    type Page: Page + Send + 'static;
    fn set_cursor(&mut self, cursor: Option<String>);
    fn fetch(
        &self,
        client: &Client,
    ) -> impl std::future::Future<Output = Result<Self::Page, ApiError>> + Send;
}

/// One page of a listing.
pub trait Page {
    fn next_cursor(&self) -> Option<&str>;
    fn item_count(&self) -> usize;
}

impl PagedRequest for ListIssuesRequest {
    type Page = ListIssuesResponse;
    fn set_cursor(&mut self, cursor: Option<String>) {
        self.cursor = cursor;
    }
    async fn fetch(&self, client: &Client) -> Result<ListIssuesResponse, ApiError> {
        client.list_issues(self).await
    }
}

impl PagedRequest for SearchIssuesRequest {
    type Page = SearchIssuesResponse;
    fn set_cursor(&mut self, cursor: Option<String>) {
        self.cursor = cursor;
    }
    async fn fetch(&self, client: &Client) -> Result<SearchIssuesResponse, ApiError> {
        client.search_issues(self).await
    }
}

impl PagedRequest for ReportRequest {
    type Page = ReportResponse;
    fn set_cursor(&mut self, cursor: Option<String>) {
        self.cursor = cursor;
    }
    async fn fetch(&self, client: &Client) -> Result<ReportResponse, ApiError> {
        client.report_findings(self).await
    }
}

impl PagedRequest for ListScmConfigsRequest {
    type Page = ListScmConfigsResponse;
    fn set_cursor(&mut self, cursor: Option<String>) {
        self.cursor = cursor;
    }
    async fn fetch(&self, client: &Client) -> Result<ListScmConfigsResponse, ApiError> {
        client.list_scm_configs(self).await
    }
}

impl Page for ListScmConfigsResponse {
    fn next_cursor(&self) -> Option<&str> {
        self.cursor.as_deref()
    }
    fn item_count(&self) -> usize {
        self.configs.len()
    }
}

impl Page for ListIssuesResponse {
    fn next_cursor(&self) -> Option<&str> {
        self.cursor.as_deref()
    }
    fn item_count(&self) -> usize {
        self.issues.len()
    }
}

impl Page for SearchIssuesResponse {
    fn next_cursor(&self) -> Option<&str> {
        self.cursor.as_deref()
    }
    fn item_count(&self) -> usize {
        self.issues.len()
    }
}

impl Page for ReportResponse {
    fn next_cursor(&self) -> Option<&str> {
        self.cursor.as_deref()
    }
    fn item_count(&self) -> usize {
        self.findings.len()
    }
}

/// The most pages one listing follows unless told otherwise: far more than
/// any deployment has (10 million findings at 100 a page), so reaching it
/// means a server that never stops paging.
pub const DEFAULT_MAX_PAGES: usize = 100_000;

/// Tracks the cursors of one listing and decides what comes next.
#[derive(Debug, Clone)]
pub struct CursorGuard {
    seen: HashSet<String>,
    max_pages: usize,
}

impl Default for CursorGuard {
    fn default() -> Self {
        CursorGuard::up_to(DEFAULT_MAX_PAGES)
    }
}

impl CursorGuard {
    /// A guard that ends the listing with an error after `max_pages`.
    pub fn up_to(max_pages: usize) -> Self {
        CursorGuard {
            seen: HashSet::new(),
            max_pages: max_pages.max(1),
        }
    }

    /// The cursor to follow after `page`, `Ok(None)` at the end, or an error
    /// when the server repeats a cursor.
    pub fn next<P: Page>(&mut self, page: &P) -> Result<Option<String>, ApiError> {
        match page.next_cursor() {
            None | Some("") => Ok(None),
            Some(_) if page.item_count() == 0 => Ok(None),
            Some(c) if !self.seen.insert(c.to_owned()) => Err(ApiError::CursorLoop {
                cursor: crate::text::truncate(&crate::text::one_line(c), 40).into_owned(),
            }),
            // `seen` holds one cursor per page followed.
            Some(_) if self.seen.len() >= self.max_pages => Err(ApiError::TooManyPages {
                pages: self.max_pages,
            }),
            Some(c) => Ok(Some(c.to_owned())),
        }
    }
}

/// Every page of a listing, starting at the request's cursor, up to
/// [`DEFAULT_MAX_PAGES`]. A page is yielded before a loop is detected on
/// its cursor; the loop error follows.
pub fn pages<R: PagedRequest>(
    client: Client,
    request: R,
) -> impl Stream<Item = Result<R::Page, ApiError>> + Send {
    pages_up_to(client, request, DEFAULT_MAX_PAGES)
}

/// [`pages`], ending with [`ApiError::TooManyPages`] after `max_pages`.
pub fn pages_up_to<R: PagedRequest>(
    client: Client,
    request: R,
    max_pages: usize,
) -> impl Stream<Item = Result<R::Page, ApiError>> + Send {
    enum Next<R> {
        Fetch(R),
        Fail(ApiError),
        Done,
    }
    let start = (client, CursorGuard::up_to(max_pages), Next::Fetch(request));
    futures_util::stream::unfold(start, |(client, mut guard, next)| async move {
        let request = match next {
            Next::Done => return None,
            Next::Fail(e) => return Some((Err(e), (client, guard, Next::Done))),
            Next::Fetch(r) => r,
        };
        let page = match request.fetch(&client).await {
            Ok(page) => page,
            Err(e) => return Some((Err(e), (client, guard, Next::Done))),
        };
        let next = match guard.next(&page) {
            Ok(Some(cursor)) => {
                let mut request = request;
                request.set_cursor(Some(cursor));
                Next::Fetch(request)
            }
            Ok(None) => Next::Done,
            Err(e) => Next::Fail(e),
        };
        Some((Ok(page), (client, guard, next)))
    })
}

/// The most SCM configs a listing follows (a deployment has a handful).
pub const MAX_SCM_CONFIGS: usize = 10_000;

/// Every SCM config of the deployment, following the cursors (loops
/// refused) up to `max` configs: a server that never ends its listing is
/// stopped with an error rather than followed for ever.
pub async fn all_scm_configs(
    client: &Client,
    request: ListScmConfigsRequest,
    max: usize,
) -> Result<Vec<ScmConfig>, ApiError> {
    use futures_util::StreamExt;
    let mut configs = Vec::new();
    let mut stream = std::pin::pin!(pages(client.clone(), request));
    while let Some(page) = stream.next().await {
        configs.extend(page?.configs);
        if configs.len() > max {
            return Err(ApiError::Decode {
                path: "configs".into(),
                message: format!("the listing passed {max} SCM configs without ending: stopped"),
            });
        }
    }
    Ok(configs)
}

/// What `keep` makes of each finding a List issues request matches, by
/// following every page of 1,000 (List issues gives no total). Stops at
/// `max` findings: `(first max, false)`, else `(all, true)`.
pub async fn collect_issues<T>(
    client: &Client,
    request: ListIssuesRequest,
    max: usize,
    mut keep: impl FnMut(Issue) -> Option<T>,
) -> Result<(Vec<T>, bool), ApiError> {
    use futures_util::StreamExt;
    let request = ListIssuesRequest {
        limit: Some(MAX_PAGE_SIZE),
        cursor: None,
        ..request
    };
    let mut kept = Vec::new();
    let mut seen = 0;
    let mut stream = std::pin::pin!(pages(client.clone(), request));
    while let Some(page) = stream.next().await {
        for item in page?.issues {
            if seen == max {
                return Ok((kept, false));
            }
            seen += 1;
            kept.extend(item.issue.and_then(&mut keep));
        }
    }
    Ok((kept, true))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(cursor: Option<&str>, n: usize) -> ListIssuesResponse {
        ListIssuesResponse {
            issues: vec![IssueItem::default(); n],
            cursor: cursor.map(str::to_owned),
        }
    }

    #[test]
    fn guard_stops_on_absent_empty_cursor_or_empty_page() {
        let mut g = CursorGuard::default();
        assert_eq!(g.next(&page(None, 3)).unwrap(), None);
        assert_eq!(g.next(&page(Some(""), 3)).unwrap(), None);
        assert_eq!(g.next(&page(Some("c1"), 0)).unwrap(), None);
        assert_eq!(g.next(&page(Some("c1"), 2)).unwrap(), Some("c1".into()));
    }

    #[test]
    fn guard_refuses_a_repeated_cursor() {
        let mut g = CursorGuard::default();
        g.next(&page(Some("a"), 1)).unwrap();
        g.next(&page(Some("b"), 1)).unwrap();
        let err = g.next(&page(Some("a"), 1)).unwrap_err();
        assert!(matches!(err, ApiError::CursorLoop { .. }));
    }
}
