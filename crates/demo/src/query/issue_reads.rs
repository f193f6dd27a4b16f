//! The public issue fetch's history (`PublicIssuesService_GetIssueActivityHistory`):
//! one agentic issue's events, newest first, cursor paged.

use super::BadRequest;
use super::pages::page_limit;
use crate::cursor::{self, Cursor};
use crate::dataset::Dataset;
use findings_model::*;

/// The index of agentic issue `id`, if there is one.
pub fn agentic_index(ds: &Dataset, id: &str) -> Option<usize> {
    ds.agentic
        .iter()
        .position(|r| r.issue.id.as_deref() == Some(id))
}

/// A query's `limit`: absent, empty or 0 is the default page, a negative or
/// non-integer value 400 (docs/src/api.md §8).
pub fn query_limit(raw: Option<&str>) -> Result<usize, BadRequest> {
    match raw.map(str::trim) {
        None | Some("") => page_limit(None),
        Some(raw) => match raw.parse::<i64>() {
            Ok(n) => page_limit(Some(n)),
            Err(_) => Err(BadRequest("limit must be an integer".into())),
        },
    }
}

/// A page of agentic issue `index`'s history, newest first. A cursor
/// holds how many of the oldest events are still to come, so a triage made
/// between two pages neither repeats nor skips an event.
pub fn agentic_activity(
    ds: &Dataset,
    index: usize,
    limit: Option<&str>,
    raw_cursor: Option<&str>,
) -> Result<GetAgenticActivityResponse, BadRequest> {
    let limit = query_limit(limit)?;
    let events = ds.agentic_history(index);
    let fingerprint = cursor::fingerprint("agentic-activity", &index);
    let older_than = match Cursor::decode_for(raw_cursor, fingerprint)? {
        0 => events.len(),
        n if n <= events.len() => n,
        _ => return Err(BadRequest("invalid cursor".into())),
    };
    let start = older_than.saturating_sub(limit);
    let history = events[start..older_than].iter().rev().cloned().collect();
    Ok(GetAgenticActivityResponse {
        history,
        cursor: (start > 0).then(|| {
            Cursor {
                position: start,
                fingerprint,
            }
            .encode()
        }),
    })
}
