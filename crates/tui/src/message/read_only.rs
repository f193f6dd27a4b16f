//! Why writes are refused, as the refusals say it: `--read-only` (or a
//! profile's `read_only`), or an offline snapshot.

use super::Outbox;

/// Why writes are refused under `--read-only` (or a profile's).
pub const READ_ONLY_FLAG: &str = "--read-only is set";
/// Why writes are refused on a snapshot (`findings --snapshot FILE`).
pub const READ_ONLY_OFFLINE: &str = "offline snapshot: read-only";

impl Outbox {
    /// Read-only for the reason `why` (e.g. [`READ_ONLY_OFFLINE`]).
    pub fn read_only_because(why: &'static str) -> Self {
        Outbox {
            read_only: true,
            read_only_why: why,
            ..Outbox::default()
        }
    }

    /// Why writes are refused, when they are.
    pub fn why_read_only(&self) -> &'static str {
        if self.read_only_why.is_empty() {
            READ_ONLY_FLAG
        } else {
            self.read_only_why
        }
    }
}
