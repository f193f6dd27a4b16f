//! The panes, one folder each (state and update in `mod.rs`, drawing in
//! `view.rs`, tests beside them), and the registry that puts them on
//! screen.

pub mod agentic;
pub mod issues;
pub mod report;
pub mod scm;

use super::pane::Pane;
use crate::tui::state::session::Session;

/// Every pane, in tab order (`Tab` walks it; `1`–`4` pick by name through
/// the keymap). A new pane is a new folder and one line here.
pub fn registry(session: &Session) -> Vec<Box<dyn Pane>> {
    vec![
        Box::new(report::ReportPane::new(session)),
        Box::new(issues::IssuesPane::new(session)),
        Box::new(agentic::AgenticPane::new(session)),
        Box::new(scm::ScmPane::new(session)),
    ]
}
