//! What the TUI keeps between runs and what a run starts from: the visits
//! that mark findings new (`visits.rs`), the Report's remembered selectors
//! (`remembered.rs`), and the session the wiring hands the app (`session.rs`).

pub mod remembered;
pub mod session;
pub mod visits;
