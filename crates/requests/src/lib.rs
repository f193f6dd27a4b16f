//! What people type, read into the model's requests: `filter_spec`
//! (filters as `FIELD=VALUE` pairs, checked against the published filter
//! schemas, and their completion) and `triage` (decisions by name, the
//! settings a triage plans, and expiry dates).

// Issue 52: no silent truncation (the workspace still allows these for the crates not done yet).
#![deny(
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss,
    clippy::cast_precision_loss
)]

pub mod clock;
pub mod filter_spec;
pub mod triage;
