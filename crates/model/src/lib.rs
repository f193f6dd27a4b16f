//! The wire model: what the platform's published contract sends and takes,
//! typed. Imports nothing of ours but the leaves.

pub mod action_request;
pub mod actions;
pub mod counts;
pub mod deployment;
pub mod enums;
pub mod feedback;
pub mod fixes;
pub mod groups;
pub mod issue;
pub mod issue_filters;
pub mod issue_reads;
pub mod list;
pub mod listed;
pub mod memories;
pub mod open_age;
pub mod opened;
pub mod pages;
pub mod projects;
pub mod report;
pub mod reports;
pub mod sarif_fields;
pub mod scm;
pub mod search;
pub mod tickets;
pub mod triage;
pub mod wire;

#[cfg(test)]
mod decode_tests;

pub use action_request::*;
pub use actions::*;
pub use counts::*;
pub use deployment::*;
pub use enums::*;
pub use feedback::*;
pub use fixes::*;
pub use groups::*;
pub use issue::*;
pub use issue_filters::*;
pub use issue_reads::*;
pub use list::*;
pub use listed::*;
pub use memories::*;
pub use open_age::*;
pub use opened::*;
pub use pages::*;
pub use projects::*;
pub use report::*;
pub use reports::*;
pub use sarif_fields::*;
pub use scm::*;
pub use search::*;
pub use tickets::*;
pub use triage::*;
pub use wire::Timestamp;
