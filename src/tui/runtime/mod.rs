//! The runtime: the event loop ([`run`]), the one API worker, the
//! terminal, and the IO the loop does for the app (the browser, files).
//! Everything else in the TUI is state and pure functions over it.

pub mod opener;
pub mod save;
pub mod terminal;
pub mod worker;

use crate::handoff::{ClipboardText, SafeUrl};
use crate::tui::app::{self, App};
use crate::tui::message::{Effect, Msg, Reply};
use crate::tui::{keymap, state::session, theme};
use crossterm::event::{Event, MouseEventKind};
use futures_util::{Stream, StreamExt};
use ratatui::Terminal;
use ratatui::backend::Backend;
use std::time::Duration;
use tokio::sync::mpsc;
use worker::WorkerCommand;

/// What the loop does outside the terminal's drawing: the browser, the
/// clipboard, suspending. Tests record these instead.
pub trait Platform<B: Backend> {
    /// Opens `url` without blocking the loop, and says how it went through
    /// `done` ([`Msg::Opened`]).
    fn open_url(&mut self, url: &SafeUrl, done: &mpsc::UnboundedSender<Msg>);
    fn copy(&mut self, text: &ClipboardText);
    fn suspend(&mut self, terminal: &mut Terminal<B>) -> std::io::Result<()>;
}

/// The spinner's beat while something loads.
const TICK: Duration = Duration::from_millis(100);

/// Runs the app until it quits, the input ends, or `shutdown` resolves.
/// The backend and the input stream are parameters, so tests drive the real
/// app with scripted keys into a `TestBackend`.
pub async fn run<B, E>(
    terminal: &mut Terminal<B>,
    mut events: E,
    app: &mut App,
    worker: mpsc::UnboundedSender<WorkerCommand>,
    mut replies: mpsc::UnboundedReceiver<Reply>,
    platform: &mut dyn Platform<B>,
    shutdown: impl std::future::Future<Output = ()>,
) -> std::io::Result<()>
where
    B: Backend,
    E: Stream<Item = std::io::Result<Event>> + Send + Unpin + 'static,
    std::io::Error: From<B::Error>,
{
    let size = terminal.size()?;
    app.size = (size.width, size.height);
    // Effects done off the loop (exports) answer through this channel.
    let (done_tx, mut done) = mpsc::unbounded_channel::<Msg>();
    let first = app.start();
    perform(first, terminal, &worker, &done_tx, platform)?;
    let mut tick = tokio::time::interval(TICK);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    let mut shutdown = std::pin::pin!(shutdown);
    // Input is forwarded through a channel so that what is queued can be
    // drained without polling the stream with a dummy waker (crossterm's
    // EventStream would lose its wake-up).
    let (input_tx, mut input) = mpsc::unbounded_channel();
    let forward = tokio::spawn(async move {
        while let Some(ev) = events.next().await {
            if input_tx.send(ev).is_err() {
                break;
            }
        }
    });
    let mut dirty = true;
    loop {
        if dirty {
            terminal.draw(|f| app::view::draw(f, app))?;
            dirty = false;
        }
        if app.quit {
            break;
        }
        let loading = app.is_loading();
        let mut msgs = Vec::new();
        tokio::select! {
            ev = input.recv() => match ev {
                Some(ev) => msgs.extend(to_msg(ev?)),
                None => break,
            },
            Some(reply) = replies.recv() => msgs.push(Msg::Reply(reply)),
            Some(msg) = done.recv() => msgs.push(msg),
            _ = tick.tick(), if loading => msgs.push(Msg::Tick),
            _ = &mut shutdown => break,
        }
        // Drain what is already queued, then draw once.
        while let Ok(ev) = input.try_recv() {
            msgs.extend(to_msg(ev?));
        }
        while let Ok(reply) = replies.try_recv() {
            msgs.push(Msg::Reply(reply));
        }
        while let Ok(msg) = done.try_recv() {
            msgs.push(msg);
        }
        // Time comes into update with the messages, read once here.
        let now = chrono::Utc::now();
        for msg in msgs {
            let effects = app.update_at(msg, now);
            perform(effects, terminal, &worker, &done_tx, platform)?;
            dirty = true;
        }
    }
    forward.abort();
    Ok(())
}

/// Terminal events that matter; the rest (mouse moves, focus) change
/// nothing and cause no redraw.
fn to_msg(ev: Event) -> Option<Msg> {
    match ev {
        Event::Key(k) => Some(Msg::Key(k)),
        Event::Mouse(m) => match m.kind {
            MouseEventKind::ScrollDown | MouseEventKind::ScrollUp | MouseEventKind::Down(_) => {
                Some(Msg::Mouse(m))
            }
            _ => None,
        },
        Event::Resize(w, h) => Some(Msg::Resize(w, h)),
        _ => None,
    }
}

fn perform<B: Backend>(
    effects: Vec<Effect>,
    terminal: &mut Terminal<B>,
    worker: &mpsc::UnboundedSender<WorkerCommand>,
    done: &mpsc::UnboundedSender<Msg>,
    platform: &mut dyn Platform<B>,
) -> std::io::Result<()> {
    for effect in effects {
        match effect {
            Effect::Send { id, request } => {
                let _ = worker.send(WorkerCommand::Send { id, request });
            }
            Effect::Cancel(id) => {
                let _ = worker.send(WorkerCommand::Cancel { id });
            }
            Effect::OpenUrl(url) => platform.open_url(&url, done),
            Effect::Copy(text) => platform.copy(&text),
            Effect::Suspend => platform.suspend(terminal)?,
            Effect::Quit => {}
            Effect::Export {
                path,
                format,
                items,
            } => {
                // A large export takes a while: write it off the loop, so
                // the screen stays live, and report back as a message.
                let done = done.clone();
                tokio::task::spawn_blocking(move || {
                    let _ = done.send(save::export(&path, format, &items));
                });
            }
            Effect::SaveView {
                pane,
                path,
                profile,
                view,
            } => {
                let _ = done.send(save::save_view(pane, &path, profile.as_deref(), view));
            }
        }
    }
    Ok(())
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
    client: crate::api::Client,
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

/// Keeps what each pane remembers for the next run under the profile
/// (what changed this run).
pub fn remember(app: &App) -> Result<(), String> {
    for pane in app.panes() {
        if let (Some(value), Some(store)) = (pane.remember(), app.session.store_of(pane.id())) {
            store.save(&value)?;
        }
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
    std::future::pending::<()>().await
}
