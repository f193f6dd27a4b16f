//! Following a whole listing, as the worker's jobs do.

use findings_client::{ApiError, Client, Follow, PagedRequest};

/// Every page of a listing (up to the usual guard), the next asked for
/// while one is decoded and used: what each job of the worker that goes
/// through a whole listing follows.
pub(super) fn every_page<R: PagedRequest>(
    client: &Client,
    request: R,
) -> impl futures_util::Stream<Item = Result<R::Page, ApiError>> + Send {
    findings_client::pages_following(
        client.clone(),
        request,
        findings_client::DEFAULT_MAX_PAGES,
        Follow::Ahead,
    )
}
