//! The runtime: the event loop ([`run`], which turns a [`Runner`] on the
//! system [`Clock`]), the one API worker, the terminal, and the IO the loop
//! does for the app (the browser, files).
//! Everything else in the TUI is state and pure functions over it.

pub mod clock;
mod fix_prs;
pub mod opener;
mod over_target;
mod pages;
pub mod runner;
pub mod save;
mod since;
pub mod terminal;
pub mod worker;

#[cfg(test)]
mod tests;

use crate::app::App;
use crate::message::{ExportItems, Msg, Reply};
use crate::{keymap, state::session, theme};
use clock::Clock;
use crossterm::event::Event;
use findings_base::handoff::{ClipboardText, SafeUrl};
use findings_export::{Chosen, Format};
use futures_util::{Stream, StreamExt};
use ratatui::Terminal;
use ratatui::backend::Backend;
use runner::{Runner, Turn};
use tokio::sync::mpsc;
use worker::WorkerCommand;

/// What the loop does outside the terminal's drawing: the browser, the
/// clipboard, suspending, files. Tests record these instead.
pub trait Platform<B: Backend> {
    /// Opens `url` without blocking the loop, and says how it went through
    /// `done` ([`Msg::Opened`]).
    fn open_url(&mut self, url: &SafeUrl, done: &mpsc::UnboundedSender<Msg>);
    fn copy(&mut self, text: &ClipboardText);
    fn suspend(&mut self, terminal: &mut Terminal<B>) -> std::io::Result<()>;
    /// Writes an export off the loop (a large one takes a while: the
    /// screen stays live) and says how it went through `done`
    /// ([`Msg::Exported`]).
    fn export(
        &mut self,
        path: std::path::PathBuf,
        how: (Format, Chosen),
        items: ExportItems,
        done: &mpsc::UnboundedSender<Msg>,
    ) {
        save::export_off_loop(path, how, items, done);
    }
}

impl<B: Backend, P: Platform<B> + ?Sized> Platform<B> for &mut P {
    fn open_url(&mut self, url: &SafeUrl, done: &mpsc::UnboundedSender<Msg>) {
        (**self).open_url(url, done);
    }
    fn copy(&mut self, text: &ClipboardText) {
        (**self).copy(text);
    }
    fn suspend(&mut self, terminal: &mut Terminal<B>) -> std::io::Result<()> {
        (**self).suspend(terminal)
    }
    fn export(
        &mut self,
        path: std::path::PathBuf,
        how: (Format, Chosen),
        items: ExportItems,
        done: &mpsc::UnboundedSender<Msg>,
    ) {
        (**self).export(path, how, items, done);
    }
}

/// Runs the app until it quits, the input ends, or `shutdown` resolves, on
/// the system clock. The backend and the input stream are parameters; the
/// tests turn the same [`Runner`] with scripted keys into a `TestBackend`
/// on a virtual clock.
pub async fn run<B, E>(
    terminal: &mut Terminal<B>,
    mut events: E,
    app: &mut App,
    worker: mpsc::UnboundedSender<WorkerCommand>,
    replies: mpsc::UnboundedReceiver<Reply>,
    platform: &mut dyn Platform<B>,
    shutdown: impl std::future::Future<Output = ()>,
) -> std::io::Result<()>
where
    B: Backend,
    E: Stream<Item = std::io::Result<Event>> + Send + Unpin + 'static,
    B::Error: Send + Sync + 'static,
{
    // Input is forwarded through a channel so that what is queued can be
    // drained without polling the stream with a dummy waker (crossterm's
    // EventStream would lose its wake-up).
    let (input_tx, input) = mpsc::unbounded_channel();
    let forward = tokio::spawn(async move {
        while let Some(ev) = events.next().await {
            if input_tx.send(ev).is_err() {
                break;
            }
        }
    });
    let clock = Clock::system(app.session.clock_offset);
    let mut runner = Runner::new(worker, replies, input, platform, clock);
    let mut shutdown = std::pin::pin!(shutdown);
    let result = async {
        runner.start(app, terminal)?;
        loop {
            // A turn waits only at its start (for the next batch), so
            // dropping it there for the shutdown loses nothing.
            tokio::select! {
                turn = runner.step(app, terminal) => if turn? == Turn::Stop {
                    return Ok(());
                },
                () = &mut shutdown => return Ok(()),
            }
        }
    }
    .await;
    forward.abort();
    result
}

/// The real terminal's platform.
pub struct RealPlatform;

impl Platform<ratatui::backend::CrosstermBackend<std::io::Stdout>> for RealPlatform {
    fn open_url(&mut self, url: &SafeUrl, done: &mpsc::UnboundedSender<Msg>) {
        let url = url.clone();
        let browser = std::env::var("BROWSER").ok();
        let done = done.clone();
        // A thread of its own, not the blocking pool: a browser that stays
        // in the foreground is waited for, and must not hold up the exit.
        std::thread::spawn(move || {
            let result = opener::open(&url, browser.as_deref(), opener::WAIT);
            let url = url.to_string();
            let _ = done.send(Msg::Opened { url, result });
        });
    }
    fn copy(&mut self, text: &ClipboardText) {
        let _ = terminal::osc52_copy(text);
    }
    fn suspend(&mut self, t: &mut terminal::RealTerminal) -> std::io::Result<()> {
        terminal::suspend(t)
    }
}

/// Runs the TUI on the real terminal against `client`, drawn with `theme`.
/// A crash writes its report into `crash_dir`.
pub async fn main(
    client: findings_client::Client,
    session: session::Session,
    keymap: keymap::Keymap,
    theme: theme::Theme,
    crash_dir: Option<std::path::PathBuf>,
) -> Result<(), String> {
    let (worker_tx, replies) = worker::spawn(client);
    terminal::install_panic_hook(crash_dir);
    let mut terminal = terminal::enter().map_err(|e| format!("cannot set up the terminal: {e}"))?;
    let size = terminal.size().map_err(|e| e.to_string())?;
    let mut app = App::new(session, keymap, theme, (size.width, size.height));
    // A hidden crash trigger for the end-to-end test of the panic path:
    // with FINDINGS_TEST_PANIC set, F12 panics.
    let crash_on_f12 = std::env::var_os("FINDINGS_TEST_PANIC").is_some();
    let events = crossterm::event::EventStream::new().inspect(move |ev| {
        if crash_on_f12
            && matches!(ev, Ok(Event::Key(k)) if k.code == crossterm::event::KeyCode::F(12))
        {
            panic!("test crash requested with F12");
        }
    });
    let result = run(
        &mut terminal,
        events,
        &mut app,
        worker_tx,
        replies,
        &mut RealPlatform,
        sigterm(),
    )
    .await;
    terminal::restore();
    record_visit(&app);
    keep_visits(&app);
    if let Err(e) = remember(&app) {
        eprintln!("findings: {e}");
    }
    result.map_err(|e| format!("terminal error: {e}"))
}

/// Records the visit of the panes shown (when their lists were asked
/// for), so the next start marks what came after as new.
fn record_visit(app: &App) {
    let Some(file) = &app.session.visits_file else {
        return;
    };
    let seen = app.visits();
    if !seen.is_empty()
        && let Err(e) = file.save(seen)
    {
        eprintln!("findings: {e}");
    }
}

/// This session's snapshots become the last visits "since last visit"
/// compares the next one with.
pub fn keep_visits(app: &App) {
    for files in app.issues().kept_visits() {
        if let Err(e) = files.promote() {
            eprintln!(
                "findings: cannot keep this visit for next time ({}): {e}",
                files.last.display()
            );
        }
    }
}

/// Keeps what each pane remembers for the next run under the profile
/// (what changed this run).
pub fn remember(app: &App) -> Result<(), String> {
    for pane in app.panes() {
        if let (Some(value), Some(store)) = (pane.remember(), app.session.store_of(pane.id())) {
            store.save(&value)?;
        }
    }
    let actions = crate::actions::REMEMBERED_AS;
    if let (Some(value), Some(store)) = (app.actions.remember(), app.session.store_of(actions)) {
        store.save(&value)?;
    }
    Ok(())
}

/// Resolves on SIGTERM (never elsewhere).
async fn sigterm() {
    #[cfg(unix)]
    if let Ok(mut s) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
        s.recv().await;
        return;
    }
    std::future::pending::<()>().await;
}
