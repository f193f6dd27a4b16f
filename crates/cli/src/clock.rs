//! The headless commands' clock: now, or the time `FINDINGS_NOW` names.

use chrono::{DateTime, Utc};

/// The variable that sets the clock of `triage --ignore-until`, `findings
/// expired` and a snapshot's saved time (an RFC 3339 time), so tests can be
/// "two days later" without waiting. Nothing else reads it.
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
