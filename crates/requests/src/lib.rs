//! What people type, read into the model's requests: `filter_spec`
//! (filters as `FIELD=VALUE` pairs, checked against the published filter
//! schemas, and their completion) and `triage` (decisions by name, the
//! settings a triage plans, and expiry dates).

pub mod clock;
pub mod filter_spec;
pub mod triage;
