//! How the read operations are retried (docs/src/api.md §13): exponential
//! backoff with jitter, a server's Retry-After winning. Writes never are.

use std::time::Duration;

/// Retry policy of the read operations (docs/src/api.md §13).
#[derive(Debug, Clone, Copy)]
pub struct RetryPolicy {
    /// Attempts in all, the first included.
    pub max_attempts: u32,
    pub base_delay: Duration,
    pub max_delay: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_attempts: 4,
            base_delay: Duration::from_millis(300),
            max_delay: Duration::from_secs(10),
        }
    }
}

impl RetryPolicy {
    /// Exponential backoff with jitter; a server's Retry-After wins (capped).
    pub(super) fn delay(&self, attempt: u32, retry_after: Option<Duration>) -> Duration {
        if let Some(d) = retry_after {
            return d.min(Duration::from_secs(60));
        }
        let exp = self.base_delay.saturating_mul(1 << attempt.min(10));
        let capped = exp.min(self.max_delay);
        // Jitter in [50%, 100%] without a random-number crate.
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        capped.mul_f64(0.5 + f64::from(nanos % 1000) / 2000.0)
    }
}
