//! The machinery the finding lists share: cursor-paged loading
//! (`load.rs`), marks and
//! "new since the last visit" (`findings_list.rs`), the choices a filter
//! offers (`choices.rs`, `filter_values.rs`), the counts by state
//! (`issue_counts.rs`), the active filters in words (`filters_shown.rs`),
//! open age against the profile's targets (`open_age.rs`) and what fresh
//! fetches said that a page does not (`learned.rs`).

pub mod choices;
pub mod filter_values;
pub mod filters_shown;
pub mod findings_list;
pub mod issue_counts;
pub mod learned;
pub mod load;
pub mod open_age;
