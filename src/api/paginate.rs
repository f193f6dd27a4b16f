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
    pages_following(client, request, max_pages, Follow::WhenAsked)
}

/// When the next page's request is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Follow {
    /// When the caller asks for the page: a caller that stops early (`--max`,
    /// the first page only) sends no request it does not use.
    WhenAsked,
    /// As soon as the previous page gives its cursor, while the caller
    /// still writes that page: the server's work and the decoding of page
    /// N+1 overlap the caller's work on page N. For callers that follow
    /// every page; one that stops early has sent one request more.
    Ahead,
}

impl Follow {
    /// [`Follow::Ahead`] when every page will be read, else
    /// [`Follow::WhenAsked`].
    pub fn every_page(every: bool) -> Self {
        if every {
            Follow::Ahead
        } else {
            Follow::WhenAsked
        }
    }
}

/// [`pages_up_to`], its next request sent as `follow` says.
pub fn pages_following<R: PagedRequest>(
    client: Client,
    request: R,
    max_pages: usize,
    follow: Follow,
) -> impl Stream<Item = Result<R::Page, ApiError>> + Send {
    enum Next<R: PagedRequest> {
        Fetch(R),
        InFlight(InFlight<(R, Result<R::Page, ApiError>)>),
        Fail(ApiError),
        Done,
    }
    let start = (client, CursorGuard::up_to(max_pages), Next::Fetch(request));
    futures_util::stream::unfold(start, move |(client, mut guard, next)| async move {
        let (request, page) = match next {
            Next::Done => return None,
            Next::Fail(e) => return Some((Err(e), (client, guard, Next::Done))),
            Next::Fetch(r) => {
                let page = r.fetch(&client).await;
                (r, page)
            }
            Next::InFlight(fetch) => fetch.await?,
        };
        let page = match page {
            Ok(page) => page,
            Err(e) => return Some((Err(e), (client, guard, Next::Done))),
        };
        let next = match guard.next(&page) {
            Ok(Some(cursor)) => {
                let mut request = request;
                request.set_cursor(Some(cursor));
                match follow {
                    Follow::WhenAsked => Next::Fetch(request),
                    Follow::Ahead => {
                        let client = client.clone();
                        Next::InFlight(InFlight(tokio::spawn(async move {
                            let page = request.fetch(&client).await;
                            (request, page)
                        })))
                    }
                }
            }
            Ok(None) => Next::Done,
            Err(e) => Next::Fail(e),
        };
        Some((Ok(page), (client, guard, next)))
    })
}

/// A fetch sent ahead, on the runtime's other threads; dropped (the caller
/// stopped), it is cancelled.
struct InFlight<T>(tokio::task::JoinHandle<T>);

impl<T> Drop for InFlight<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}

impl<T> std::future::Future for InFlight<T> {
    /// `None`: cancelled (the runtime is shutting down). A panic in the
    /// fetch goes on in the caller.
    type Output = Option<T>;
    fn poll(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Self::Output> {
        std::pin::Pin::new(&mut self.0)
            .poll(cx)
            .map(|done| match done {
                Ok(value) => Some(value),
                Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
                Err(_) => None,
            })
    }
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

    /// Every page's ids, in order, following as `follow` says.
    async fn ids_following(client: &Client, follow: Follow) -> Vec<String> {
        use futures_util::StreamExt;
        let req = ListIssuesRequest {
            limit: Some(100),
            ..Default::default()
        };
        let mut ids = Vec::new();
        let mut stream = std::pin::pin!(pages_following(client.clone(), req, 100, follow));
        while let Some(page) = stream.next().await {
            ids.extend(page.unwrap().issues.into_iter().filter_map(|i| i.issue?.id));
        }
        ids
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn ahead_asks_for_the_next_page_before_the_caller_does() {
        use crate::api::{ClientConfig, Token};
        use crate::demo::{DemoOptions, DemoServer};
        use futures_util::StreamExt;
        let server = DemoServer::start_local(DemoOptions {
            findings: 450,
            ..Default::default()
        })
        .await
        .unwrap();
        let config = ClientConfig::new(server.url(), server.deployment(), Token::new("demo-token"));
        let client = Client::new(config).unwrap();
        let req = ListIssuesRequest {
            limit: Some(100),
            ..Default::default()
        };
        let mut stream = std::pin::pin!(pages_following(client.clone(), req, 100, Follow::Ahead));
        let first = stream.next().await.unwrap().unwrap();
        assert_eq!(first.issues.len(), 100);
        // The page after it is asked for while the caller holds this one.
        let asked = tokio::task::block_in_place(|| {
            server.wait_for_requests(2, std::time::Duration::from_secs(30))
        });
        assert!(asked, "{} requests", server.requests());
        // And the listing is the one followed when asked.
        let ahead = ids_following(&client, Follow::Ahead).await;
        assert_eq!(ahead, ids_following(&client, Follow::WhenAsked).await);
        assert!(ahead.len() > 300, "{}", ahead.len());
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
