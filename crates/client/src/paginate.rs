//! Cursor pagination as an async stream (docs/src/api.md §7).
//!
//! Follows `cursor` until it is absent or empty, or a page is empty; a cursor
//! seen twice in one listing ends the stream with [`ApiError::CursorLoop`]
//! ([`CursorGuard`]).

use super::client::{Answer, Client};
use super::cursor_guard::{CursorGuard, DEFAULT_MAX_PAGES};
use super::decoded::FromAnswer;
use super::error::ApiError;
use super::peek::{peek_page, tail_cursor};
use findings_model::*;
use futures_util::Stream;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

/// A request that can be sent for one page, and its response.
pub trait PagedRequest: Clone + Send + Sync + 'static {
    type Page: Page + Send + 'static;
    fn set_cursor(&mut self, cursor: Option<String>);
    /// One page's answer, read and checked but not decoded.
    fn answer(&self, client: &Client) -> impl Future<Output = Result<Answer, ApiError>> + Send;
    /// One page's answer decoded ([`Answer::decode`]). No default: a
    /// default body (generic) would be compiled in each crate that pages;
    /// this crate's requests decode with their page's [`FromAnswer`].
    fn decode_page(answer: &Answer) -> Result<Self::Page, ApiError>;
    /// One page.
    fn fetch(&self, client: &Client) -> impl Future<Output = Result<Self::Page, ApiError>> + Send {
        async move { Self::decode_page(&self.answer(client).await?) }
    }
}

/// One page of a listing.
pub trait Page {
    /// The name of the page's list of items in its JSON.
    const ITEMS: &'static str;
    fn next_cursor(&self) -> Option<&str>;
    fn item_count(&self) -> usize;
}

impl PagedRequest for ListIssuesRequest {
    type Page = ListIssuesResponse;
    fn set_cursor(&mut self, cursor: Option<String>) {
        self.cursor = cursor;
    }
    async fn answer(&self, client: &Client) -> Result<Answer, ApiError> {
        client.list_issues_answer(self).await
    }
    fn decode_page(answer: &Answer) -> Result<Self::Page, ApiError> {
        Self::Page::from_answer(answer)
    }
}

impl PagedRequest for SearchIssuesRequest {
    type Page = SearchIssuesResponse;
    fn set_cursor(&mut self, cursor: Option<String>) {
        self.cursor = cursor;
    }
    async fn answer(&self, client: &Client) -> Result<Answer, ApiError> {
        client.search_answer(self).await
    }
    fn decode_page(answer: &Answer) -> Result<Self::Page, ApiError> {
        Self::Page::from_answer(answer)
    }
}

impl PagedRequest for ReportRequest {
    type Page = ReportResponse;
    fn set_cursor(&mut self, cursor: Option<String>) {
        self.cursor = cursor;
    }
    async fn answer(&self, client: &Client) -> Result<Answer, ApiError> {
        client.report_answer(self).await
    }
    fn decode_page(answer: &Answer) -> Result<Self::Page, ApiError> {
        Self::Page::from_answer(answer)
    }
}

impl PagedRequest for ListScmConfigsRequest {
    type Page = ListScmConfigsResponse;
    fn set_cursor(&mut self, cursor: Option<String>) {
        self.cursor = cursor;
    }
    async fn answer(&self, client: &Client) -> Result<Answer, ApiError> {
        client.scm_configs_answer(self).await
    }
    fn decode_page(answer: &Answer) -> Result<Self::Page, ApiError> {
        Self::Page::from_answer(answer)
    }
}

/// The request `R`, its pages decoded as `P`: the same operation read
/// another way (only what a list shows of each finding, the items kept as
/// the server wrote them, only what a SARIF result reads), the rest of
/// each finding skipped unread.
pub struct PagesAs<R, P> {
    pub request: R,
    page: std::marker::PhantomData<fn() -> P>,
}

impl<R, P> PagesAs<R, P> {
    pub fn new(request: R) -> Self {
        PagesAs {
            request,
            page: std::marker::PhantomData,
        }
    }
}

impl<R: Clone, P> Clone for PagesAs<R, P> {
    fn clone(&self) -> Self {
        PagesAs::new(self.request.clone())
    }
}

impl<R: PagedRequest, P: Page + FromAnswer + Send + 'static> PagedRequest for PagesAs<R, P> {
    type Page = P;
    fn set_cursor(&mut self, cursor: Option<String>) {
        self.request.set_cursor(cursor);
    }
    async fn answer(&self, client: &Client) -> Result<Answer, ApiError> {
        self.request.answer(client).await
    }
    fn decode_page(answer: &Answer) -> Result<P, ApiError> {
        P::from_answer(answer)
    }
}

/// List issues with only what a list shows of each finding: what a table
/// or CSV of them needs.
pub type ListedRequest = PagesAs<ListIssuesRequest, ListedPage>;

/// Report findings with only what a list shows of each.
pub type ListedReportRequest = PagesAs<ReportRequest, ListedReportPage>;

/// List issues with only what a SARIF result and its rule read.
pub type SarifRequest = PagesAs<ListIssuesRequest, SarifPage>;

/// Report findings with only what a SARIF result and its rule read.
pub type SarifReportRequest = PagesAs<ReportRequest, SarifReportPage>;

impl<T> Page for IssuesPage<T> {
    const ITEMS: &'static str = "issues";
    fn next_cursor(&self) -> Option<&str> {
        self.cursor.as_deref()
    }
    fn item_count(&self) -> usize {
        self.issues.len()
    }
}

impl<T> Page for FindingsPage<T> {
    const ITEMS: &'static str = "findings";
    fn next_cursor(&self) -> Option<&str> {
        self.cursor.as_deref()
    }
    fn item_count(&self) -> usize {
        self.findings.len()
    }
}

impl Page for ListScmConfigsResponse {
    const ITEMS: &'static str = "configs";
    fn next_cursor(&self) -> Option<&str> {
        self.cursor.as_deref()
    }
    fn item_count(&self) -> usize {
        self.configs.len()
    }
}

impl Page for ListIssuesResponse {
    const ITEMS: &'static str = "issues";
    fn next_cursor(&self) -> Option<&str> {
        self.cursor.as_deref()
    }
    fn item_count(&self) -> usize {
        self.issues.len()
    }
}

impl Page for SearchIssuesResponse {
    const ITEMS: &'static str = "issues";
    fn next_cursor(&self) -> Option<&str> {
        self.cursor.as_deref()
    }
    fn item_count(&self) -> usize {
        self.issues.len()
    }
}

impl Page for ReportResponse {
    const ITEMS: &'static str = "findings";
    fn next_cursor(&self) -> Option<&str> {
        self.cursor.as_deref()
    }
    fn item_count(&self) -> usize {
        self.findings.len()
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
    let start = Next::Fetch(request, CursorGuard::up_to(max_pages));
    let ahead = Arc::new(tokio::sync::Semaphore::new(PAGES_AHEAD));
    futures_util::stream::unfold(start, move |next| {
        let (client, ahead) = (client.clone(), ahead.clone());
        async move {
            // The page's permit is given back as the caller takes it.
            let (page, next, _permit) = match next {
                Next::Done => return None,
                Next::Fail(e) => return Some((Err(e), Next::Done)),
                Next::Fetch(r, guard) => page_then_next(client, r, guard, follow, ahead).await,
                Next::InFlight(fetch) => fetch.await?,
            };
            Some((page, next))
        }
    })
}

/// The most pages fetched ahead and not yet taken by the caller: the page
/// being decoded and the next one's request, while the caller works on
/// its own.
const PAGES_AHEAD: usize = 2;

/// What comes after a page.
enum Next<R: PagedRequest> {
    Fetch(R, CursorGuard),
    InFlight(InFlight<Fetched<R>>),
    Fail(ApiError),
    Done,
}

/// A page, what follows it, and its place among the pages ahead.
type Fetched<R> = (
    Result<<R as PagedRequest>::Page, ApiError>,
    Next<R>,
    Option<tokio::sync::OwnedSemaphorePermit>,
);

/// Fetches the page of `request`; following [`Follow::Ahead`], sends the
/// next page's request (its cursor read from the answer's text) before
/// decoding this one, so the server's work and the transfer of the next
/// page overlap the decoding of this one.
fn page_then_next<R: PagedRequest>(
    client: Client,
    mut request: R,
    guard: CursorGuard,
    follow: Follow,
    ahead: Arc<tokio::sync::Semaphore>,
) -> Pin<Box<dyn Future<Output = Fetched<R>> + Send>> {
    Box::pin(async move {
        let permit = ahead.clone().acquire_owned().await.ok();
        let answer = match request.answer(&client).await {
            Ok(answer) => answer,
            Err(e) => return (Err(e), Next::Done, permit),
        };
        // The cursor read from the page's end, else from a scan of it.
        let (tail, peeked) = match follow {
            Follow::Ahead => match tail_cursor(answer.bytes()) {
                Some(cursor) => (Some(cursor.to_owned()), None),
                None => (None, peek_page(answer.bytes(), R::Page::ITEMS)),
            },
            Follow::WhenAsked => (None, None),
        };
        // The guard goes with the next page's request, moved, never copied
        // (a copy a page would cost the pages followed so far, each page).
        let mut guard = Some(guard);
        let mut next = |cursor: Option<&str>, items: usize| {
            let Some(mut held) = guard.take() else {
                // Given to the request sent ahead, whose cursor the decoded
                // page contradicts (never, of valid JSON): stop, as on an
                // answer that cannot be read.
                return match cursor {
                    Some(c) if !c.is_empty() && items > 0 => Next::Fail(ApiError::Decode {
                        path: "cursor".into(),
                        message: "the page's cursor is not the one its text ends with".into(),
                    }),
                    _ => Next::Done,
                };
            };
            let cursor = match held.next(cursor, items) {
                Ok(Some(cursor)) => cursor,
                Ok(None) => {
                    guard = Some(held);
                    return Next::Done;
                }
                Err(e) => {
                    guard = Some(held);
                    return Next::Fail(e);
                }
            };
            request.set_cursor(Some(cursor));
            let request = request.clone();
            match follow {
                Follow::WhenAsked => Next::Fetch(request, held),
                Follow::Ahead => Next::InFlight(InFlight(tokio::spawn(page_then_next(
                    client.clone(),
                    request,
                    held,
                    follow,
                    ahead.clone(),
                )))),
            }
        };
        // Sent before the decoding when the page's text says where to go
        // (an answer the scan cannot read is decoded first, and refused
        // there with its path).
        // A cursor read from the end is followed before the items are
        // counted (one at least, said here).
        let sent = match (&tail, peeked) {
            (Some(cursor), _) => Some(next(Some(cursor), 1)),
            (None, Some(p)) => Some(next(p.cursor.as_deref(), p.items)),
            (None, None) => None,
        };
        if sent.is_some() {
            // Let the next page's task send its request before the decode
            // is handed to a thread: that thread, woken, may take the core
            // for its whole page, and the server would wait on us (3 ms a
            // page on one core, 20% of the time the server takes).
            tokio::task::yield_now().await;
        }
        let page = match answer.decode_apart_with(R::decode_page).await {
            Ok(page) => page,
            // What was sent ahead is dropped with `sent`, which cancels it.
            Err(e) => return (Err(e), Next::Done, permit),
        };
        let read_ahead_holds =
            tail.is_none() || (page.item_count() > 0 && page.next_cursor() == tail.as_deref());
        let next = match sent {
            Some(sent) if read_ahead_holds => sent,
            // An empty page (it ends a listing), or a cursor that is not the
            // decode's (never, of valid JSON): the request sent ahead is
            // dropped, which cancels it, and the decode's page decides.
            _ => next(page.next_cursor(), page.item_count()),
        };
        (Ok(page), next, permit)
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

/// Get issue counts, and how many of the findings are in the unknown
/// state, which List issues lists and no published count names: counted
/// by listing them (pages of 1,000, their items skipped unread), so the
/// counts add up to what the list holds. None is asked for when the
/// filter's states leave the unknown one out.
pub async fn issue_counts_listed(
    client: &Client,
    request: &GetIssueCountsRequest,
) -> Result<GetIssueCountsResponse, ApiError> {
    use futures_util::StreamExt;
    let mut counts = client.issue_counts(request).await?;
    let filter = request.filter.clone().unwrap_or_default();
    let states = &filter.aggregate_issue_states;
    if !states.is_empty() && !states.contains(&AggregateState::Unknown) {
        counts.unknown = Some(0);
        return Ok(counts);
    }
    let list = ListIssuesRequest {
        limit: Some(MAX_PAGE_SIZE),
        issue_types: request.issue_types.clone(),
        issue_type: request.issue_type.clone(),
        filter: Some(ListIssuesFilter {
            aggregate_issue_states: vec![AggregateState::Unknown],
            ..filter
        }),
        ..ListIssuesRequest::default()
    };
    let mut unknown = 0i64;
    let request = PagesAs::<_, IssuesPage<serde::de::IgnoredAny>>::new(list);
    let mut stream = std::pin::pin!(pages(client.clone(), request));
    while let Some(page) = stream.next().await {
        // Saturating, as the sum is.
        let on_page = i64::try_from(page?.issues.len()).unwrap_or(i64::MAX);
        unknown = unknown.saturating_add(on_page);
    }
    counts.unknown = Some(unknown);
    Ok(counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A demo server of 450 findings, and a client of it.
    async fn demo_of_450() -> (findings_demo::DemoServer, Client) {
        use crate::{ClientConfig, Token};
        let server = findings_demo::DemoServer::start_local(findings_demo::DemoOptions {
            findings: 450,
            ..Default::default()
        })
        .await
        .unwrap();
        let config = ClientConfig::new(server.url(), server.deployment(), Token::new("demo-token"));
        let client = Client::new(config).unwrap();
        (server, client)
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
        use futures_util::StreamExt;
        let (server, client) = demo_of_450().await;
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

    /// The demo server of the test below, for the page it decodes.
    static WAITED_ON: std::sync::OnceLock<findings_demo::DemoServer> = std::sync::OnceLock::new();
    static DECODED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

    /// A page that, while it is decoded, waits (at most 30 s) for the
    /// listing's second request to reach the server, and says whether it
    /// came.
    struct WaitsForNext {
        page: ListIssuesResponse,
        next_asked: bool,
    }

    impl<'de> serde::Deserialize<'de> for WaitsForNext {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            let page = ListIssuesResponse::deserialize(d)?;
            let decoded = DECODED.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
            let last = page.cursor.as_deref().is_none_or(str::is_empty);
            let server = WAITED_ON.get().expect("the server");
            let within = std::time::Duration::from_secs(30);
            // The first page only: later pages may be decoded side by side.
            let next_asked = last || decoded > 1 || server.wait_for_requests(2, within);
            Ok(WaitsForNext { page, next_asked })
        }
    }

    impl FromAnswer for WaitsForNext {
        fn from_answer(answer: &Answer) -> Result<Self, ApiError> {
            answer.decode()
        }
    }

    impl Page for WaitsForNext {
        const ITEMS: &'static str = "issues";
        fn next_cursor(&self) -> Option<&str> {
            self.page.cursor.as_deref()
        }
        fn item_count(&self) -> usize {
            self.page.issues.len()
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn ahead_asks_for_the_next_page_before_decoding_this_one() {
        use futures_util::StreamExt;
        let (server, client) = demo_of_450().await;
        assert!(WAITED_ON.set(server).is_ok());
        let req = PagesAs::<_, WaitsForNext>::new(ListIssuesRequest {
            limit: Some(100),
            ..Default::default()
        });
        let mut stream = std::pin::pin!(pages_following(client, req, 100, Follow::Ahead));
        let first = stream.next().await.unwrap().unwrap();
        assert!(
            first.next_asked,
            "decoded before the next page was asked for"
        );
        let mut pages = 1;
        while let Some(page) = stream.next().await {
            assert!(page.unwrap().next_asked);
            pages += 1;
        }
        assert!(pages >= 4, "{pages}");
    }
}
