//! The commands' clock: now, or the time `FINDINGS_NOW` names (the TUI
//! starts its own there and lets it run on).
//! Every "now" of a command reads it: a span (`--since 7d`), a period, an
//! expiry, a snapshot's time, so a test or a doc example fixes them all.

use chrono::{DateTime, Utc};

/// The variable that sets the clock (an RFC 3339 time), so tests and the
/// docs' examples can be "two days later" without waiting. Set, it is the
/// now of the TUI's span filters too (`:filter relevantSince=7d`), which
/// otherwise count back from the system clock as the commands do.
const NOW_VAR: &str = "FINDINGS_NOW";

/// Now, or the time `FINDINGS_NOW` names.
pub fn now() -> Result<DateTime<Utc>, String> {
    match std::env::var(NOW_VAR) {
        Err(_) => Ok(Utc::now()),
        Ok(v) => DateTime::parse_from_rfc3339(&v)
            .map(|t| t.with_timezone(&Utc))
            .map_err(|_| format!("{NOW_VAR}={v:?} is not an RFC 3339 time")),
    }
}
