//! The wire model of the operations the client uses. Imports nothing of ours.

pub mod counts;
pub mod deployment;
pub mod enums;
pub mod groups;
pub mod issue;
pub mod issue_filters;
pub mod list;
pub mod report;
pub mod reports;
pub mod scm;
pub mod search;
pub mod triage;
pub mod wire;

pub use counts::*;
pub use deployment::*;
pub use enums::*;
pub use groups::*;
pub use issue::*;
pub use issue_filters::*;
pub use list::*;
pub use report::*;
pub use reports::*;
pub use scm::*;
pub use search::*;
pub use triage::*;
pub use wire::Timestamp;
