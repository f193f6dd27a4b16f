//! Each registered pane by its type, for tests and tools (`app.issues()`).
//! The app itself names no pane: it reaches them through [`Pane`] and by
//! id. Nothing imports this module (the methods are `App`'s own), so it may
//! know both the app and every pane.
//!
//! [`Pane`]: super::pane::Pane

use super::app::App;
use super::panes::{agentic::AgenticPane, issues::IssuesPane, report::ReportPane, scm::ScmPane};

impl App {
    pub fn issues(&self) -> &IssuesPane {
        self.pane_of()
    }

    pub fn issues_mut(&mut self) -> &mut IssuesPane {
        self.pane_of_mut()
    }

    pub fn report(&self) -> &ReportPane {
        self.pane_of()
    }

    pub fn report_mut(&mut self) -> &mut ReportPane {
        self.pane_of_mut()
    }

    pub fn agentic(&self) -> &AgenticPane {
        self.pane_of()
    }

    pub fn agentic_mut(&mut self) -> &mut AgenticPane {
        self.pane_of_mut()
    }

    pub fn scm(&self) -> &ScmPane {
        self.pane_of()
    }

    pub fn scm_mut(&mut self) -> &mut ScmPane {
        self.pane_of_mut()
    }
}
