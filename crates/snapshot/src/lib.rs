//! Snapshots: every finding a filter matched at one time, in one file of
//! our own format (docs/src/snapshots.md), written and read a line at a time so
//! 100,000 findings take no more memory than one.
//!
//! The file is compressed blocks (deflate from version 3, lz4 before)
//! holding NDJSON: first a [`Header`], then one line per finding, then a
//! [`Trailer`] with the count (a file cut short has none, and is refused as
//! damaged). From version 4 each block stores its lines rule by rule,
//! after a line giving the order they were written in. A finding's line
//! is, from version 2, the whole List issues item as the server sent it
//! (what the offline TUI shows); in version 1 an [`Entry`], its few
//! fields. Either reads as an [`Entry`] for a diff.

mod diff;
mod differ;
mod entry;
mod last_visit;
mod read;
mod scratch;
mod stored;
mod write;

pub use diff::{Baseline, CHANGE_FIELDS, Category, Change};
pub use differ::{DIFF_BOUND, Differ};
pub use entry::Entry;
pub use last_visit::BaselineFiles;
pub use read::{Reader, SnapshotError};
pub use scratch::ChangeFiles;
pub use scratch::Halt;
pub use stored::{Position, Stored};
pub use write::{MAX_BLOCK_TEXT, MAX_LINE, Writer};

use findings_model::{ListIssuesRequest, Timestamp};
use serde::{Deserialize, Serialize};

/// The `format` of every snapshot's header.
pub const FORMAT: &str = "findings-snapshot";
/// The newest version this build reads (and writes, for whole findings;
/// [`Writer::entry`] writes version 1).
pub const VERSION: u32 = 4;

/// The most findings a snapshot holds: a reader refuses more (and the
/// writer writes no more), so what a reader holds per finding (a diff's
/// 24 bytes, the offline view's compact row) has a bound.
pub const MAX_FINDINGS: u64 = 10_000_000;
/// The most a snapshot file may weigh (a million whole findings take
/// about 1.2 GB): a larger one is refused unread.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024 * 1024;

/// Opens a snapshot file for reading: a regular file of at most
/// [`MAX_FILE_BYTES`] (a FIFO or a link to a device is refused, never read
/// without end).
pub fn open_file(
    path: &std::path::Path,
) -> std::io::Result<std::io::BufReader<std::io::Take<std::fs::File>>> {
    let file = findings_base::atomic_file::open_capped(path, MAX_FILE_BYTES)?;
    Ok(std::io::BufReader::with_capacity(256 * 1024, file))
}

/// The first line of a snapshot: what it is and what it holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Header {
    /// Always [`FORMAT`].
    pub format: String,
    /// 2: whole findings; 1: [`Entry`] lines (set by the [`Writer`] from
    /// what it is given).
    pub version: u32,
    /// When the first page was asked for.
    pub saved_at: Timestamp,
    /// `findings` and its version.
    pub tool: String,
    /// The deployment's base URL, without credentials.
    pub base_url: String,
    pub deployment: String,
    /// The List issues request the findings matched (filter, types,
    /// includes; no cursor, no page size): what a diff against the live
    /// deployment asks again.
    pub request: ListIssuesRequest,
}

impl Header {
    pub fn new(
        saved_at: Timestamp,
        base_url: &str,
        deployment: &str,
        request: &ListIssuesRequest,
    ) -> Self {
        let mut request = request.clone();
        request.cursor = None;
        request.limit = None;
        request.deployment_id = None;
        Header {
            format: FORMAT.into(),
            version: VERSION,
            saved_at,
            tool: concat!("findings ", env!("CARGO_PKG_VERSION")).into(),
            base_url: findings_base::redact::mask_url_credentials(base_url).into_owned(),
            deployment: deployment.into(),
            request,
        }
    }
}

/// The last line: how many findings came before it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Trailer {
    pub end: u64,
}

#[cfg(test)]
mod tests;
