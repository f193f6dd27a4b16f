//! `findings` on a terminal: the TUI, started through the [`Frontend`]
//! the binary wires in.

use super::Failure;
use super::frontend::{Start, frontend};
use super::session::Session;
use super::settings::no_color;
use findings_config::Effective;
use std::path::Path;

/// Connects (or opens `snapshot` offline) and runs the TUI until it ends.
pub(super) async fn run(settings: Effective, snapshot: Option<&Path>) -> Result<(), Failure> {
    // The user's files are checked before anything starts (a demo
    // server, a token command) and before the terminal is taken.
    let tui = (frontend()?.prepare)(&settings, no_color()).map_err(Failure::Usage)?;
    // FINDINGS_NOW (the demo's `--days-later` line sets it) moves the
    // TUI's clock as it moves the commands'; a bad value stops here.
    let clock_offset =
        findings_requests::clock::now().map_err(Failure::Usage)? - chrono::Utc::now();
    let (session, offline) = match snapshot {
        Some(path) => {
            let opened = super::offline::open(path).await?;
            let saved_at = opened.header.saved_at;
            (opened.session, Some(saved_at))
        }
        None => (
            Session::open_for(&settings, super::session::Audience::Tui).await?,
            None,
        ),
    };
    let start = Start {
        deployment_name: session
            .discovered
            .as_ref()
            .and_then(|d| d.shown_name())
            .map(str::to_owned),
        demo: session.demo.is_some(),
        client: session.client.clone(),
        settings,
        offline,
        clock_offset,
    };
    let ended = tui.run(start).await.map_err(Failure::Runtime);
    // The demo server (if any) lives as long as the TUI.
    drop(session);
    ended
}
