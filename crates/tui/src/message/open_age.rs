//! How many open findings are past their open-age target, by severity:
//! what the worker answers for the Report's open-age view
//! (`runtime::over_target`). The published reports give the median open
//! age only, so the open findings are listed (with their first
//! detection) and counted.

/// Counts by severity, most severe first: critical, high, medium, low.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OverTargetCounts {
    /// Open findings (open, reviewing, fixing) of each severity.
    pub open: [u64; 4],
    /// Of them, those past their severity's target.
    pub over: [u64; 4],
    /// Open findings that came without a first detection (not counted).
    pub undated: u64,
}

impl OverTargetCounts {
    pub fn total_over(&self) -> u64 {
        self.over.iter().sum()
    }

    pub fn total_open(&self) -> u64 {
        self.open.iter().sum()
    }
}
