//! The TUI's entry points, wired in by the binary: the command line does
//! not depend on the TUI's crate, so the two compile side by side.

use super::Failure;
use findings_client::Client;
use findings_config::Effective;
use std::future::Future;
use std::pin::Pin;
use std::sync::OnceLock;

/// The TUI checked and ready, or a usage error naming the file.
pub type Prepared = Result<Box<dyn Tui>, String>;

/// The TUI running, until it ends.
pub type Running = Pin<Box<dyn Future<Output = Result<(), String>>>>;

/// The TUI's entry points, as the binary hands them over.
pub struct Frontend {
    /// Checks the user's keymap, theme and default pane (an error is a
    /// usage error naming the file), before anything starts.
    pub prepare: fn(&Effective, bool) -> Prepared,
    /// The finding's detail as plain text (`show` on a terminal).
    pub plain_detail: fn(findings_model::Issue) -> String,
}

/// The TUI, checked and ready to run.
pub trait Tui {
    /// Runs it until it ends.
    fn run(self: Box<Self>, start: Start) -> Running;
}

/// What the TUI starts with: the settings and what they connected to.
pub struct Start {
    pub settings: Effective,
    pub client: Client,
    /// The deployment's name as the server gives it.
    pub deployment_name: Option<String>,
    /// The embedded demo server.
    pub demo: bool,
    /// When the snapshot opened offline was saved.
    pub offline: Option<chrono::DateTime<chrono::Utc>>,
    /// How far FINDINGS_NOW moves the clock.
    pub clock_offset: chrono::TimeDelta,
}

/// Set once by `main`, before any command runs: a global, so that the
/// commands' signatures need not carry it.
static FRONTEND: OnceLock<&'static Frontend> = OnceLock::new();

pub(super) fn wire(frontend: &'static Frontend) {
    let _ = FRONTEND.set(frontend);
}

pub(super) fn frontend() -> Result<&'static Frontend, Failure> {
    FRONTEND
        .get()
        .copied()
        .ok_or_else(|| Failure::Runtime("this build has no TUI".into()))
}

/// The finding's detail as the TUI shows it, in plain text.
pub(super) fn plain_detail(issue: findings_model::Issue) -> Result<String, Failure> {
    Ok((frontend()?.plain_detail)(issue))
}
