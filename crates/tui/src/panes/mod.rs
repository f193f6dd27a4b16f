//! The panes, one folder each (state and update in `mod.rs`, drawing in
//! `view.rs`, tests beside them), and the registry that puts them on
//! screen.

pub mod agentic;
pub mod issues;
pub mod report;
pub mod scm;

use super::keymap::{Context, Name};
use super::message::PaneId;
use super::pane::Pane;
use crate::state::session::Session;

/// Every pane, in tab order (`Tab` walks it; the keymap's `show_pane`
/// picks one by name). A new pane is a new folder and one line here.
pub fn registry(session: &Session) -> Vec<Box<dyn Pane>> {
    vec![
        Box::new(report::ReportPane::new(session)),
        Box::new(issues::IssuesPane::new(session)),
        Box::new(agentic::AgenticPane::new(session)),
        Box::new(scm::ScmPane::new(session)),
    ]
}

/// The pane the app opens on when the profile names none.
pub const START: PaneId = issues::ID;

/// The pane a finding's relatives (same rule, repository, CVE) are listed
/// in.
pub const FINDINGS: PaneId = issues::ID;

/// Every pane's name and key contexts, in tab order: what a keymap file
/// and a profile's `default_pane` may name.
pub fn names() -> Vec<(Name, Vec<Context>)> {
    registry(&Session::default())
        .iter()
        .map(|p| {
            let contexts = p.key_contexts().iter().map(|(c, _)| *c).collect();
            (Name::new(p.id().0), contexts)
        })
        .collect()
}

/// The pane of this name, or which there are.
pub fn find(name: &str) -> Result<PaneId, String> {
    let panes = names();
    if let Some((n, _)) = panes.iter().find(|(n, _)| n.as_str() == name) {
        Ok(PaneId(n.as_str()))
    } else {
        let names: Vec<&str> = panes.iter().map(|(n, _)| n.as_str()).collect();
        Err(format!("no such pane; panes: {}", names.join(", ")))
    }
}
