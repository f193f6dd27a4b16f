//! One turn of the event loop at a time: wait for the next batch of
//! messages, hand each to the app at the clock's time, carry out the effects
//! it returns, draw once. [`run`](super::run) turns it until the app quits;
//! the tests turn the same runner on a virtual clock with scripted input.

use super::Platform;
use super::clock::Clock;
use super::save;
use super::worker::WorkerCommand;
use crate::app::{self, App};
use crate::message::{Effect, Msg, Reply};
use crossterm::event::{Event, MouseEventKind};
use ratatui::Terminal;
use ratatui::backend::Backend;
use std::io;
use std::time::Duration;
use tokio::sync::mpsc;

/// The terminal's events, as the loop reads them.
pub type Input = mpsc::UnboundedReceiver<io::Result<Event>>;

/// What the loop owns besides the app and the terminal (which it borrows
/// at each turn, so its caller keeps them).
pub struct Runner<P> {
    worker: mpsc::UnboundedSender<WorkerCommand>,
    replies: mpsc::UnboundedReceiver<Reply>,
    input: Input,
    /// Effects done off the loop (exports, the browser) answer here.
    done_tx: mpsc::UnboundedSender<Msg>,
    done: mpsc::UnboundedReceiver<Msg>,
    pub platform: P,
    pub clock: Clock,
    pub traffic: Traffic,
    dirty: bool,
}

/// Requests handed to the worker and replies handed to the app, counted
/// (tests wait for every request to be answered).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Traffic {
    pub sent: usize,
    pub cancelled: usize,
    pub replies: usize,
}

/// Whether the loop goes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Turn {
    Continue,
    /// The app quit or the input ended.
    Stop,
}

impl<P> Runner<P> {
    pub fn new(
        worker: mpsc::UnboundedSender<WorkerCommand>,
        replies: mpsc::UnboundedReceiver<Reply>,
        input: Input,
        platform: P,
        clock: Clock,
    ) -> Runner<P> {
        let (done_tx, done) = mpsc::unbounded_channel();
        Runner {
            worker,
            replies,
            input,
            done_tx,
            done,
            platform,
            clock,
            traffic: Traffic::default(),
            dirty: true,
        }
    }

    /// The app's first effects (its first pane asks for its data), at the
    /// terminal's size.
    pub fn start<B>(&mut self, app: &mut App, terminal: &mut Terminal<B>) -> io::Result<()>
    where
        B: Backend,
        P: Platform<B>,
        B::Error: Send + Sync + 'static,
    {
        let size = terminal.size().map_err(io::Error::other)?;
        app.size = (size.width, size.height);
        let first = app.start_at(self.clock.now());
        self.perform(first, terminal)
    }

    /// One turn of the loop: draw if anything changed, then [`Runner::turn`].
    pub async fn step<B>(&mut self, app: &mut App, terminal: &mut Terminal<B>) -> io::Result<Turn>
    where
        B: Backend,
        P: Platform<B>,
        B::Error: Send + Sync + 'static,
    {
        self.draw(app, terminal, false)?;
        self.turn(app, terminal).await
    }

    /// Unless the app quit, waits for the next batch and handles it; the
    /// frame is left to the caller (a test draws when it reads the screen:
    /// a frame is a function of the state, so it is the one the loop would
    /// have drawn).
    pub async fn turn<B>(&mut self, app: &mut App, terminal: &mut Terminal<B>) -> io::Result<Turn>
    where
        B: Backend,
        P: Platform<B>,
        B::Error: Send + Sync + 'static,
    {
        if app.quit {
            return Ok(Turn::Stop);
        }
        let Some(msgs) = self.next_batch(app.is_loading(), app.has_work()).await? else {
            return Ok(Turn::Stop);
        };
        self.handle(app, terminal, msgs)?;
        Ok(Turn::Continue)
    }

    /// Waits for a message, then takes what else is queued, input first
    /// (`None`: the input ended). With work left (`work`), nothing is
    /// waited for: what is queued, else a slice of the work, so a key
    /// waits at most one slice and the frame is drawn after each.
    async fn next_batch(&mut self, loading: bool, work: bool) -> io::Result<Option<Vec<Msg>>> {
        if work {
            // The worker's tasks run too between slices.
            tokio::task::yield_now().await;
            let mut msgs = self.queued()?;
            if msgs.is_empty() {
                msgs.push(Msg::Work);
            }
            return Ok(Some(msgs));
        }
        let mut msgs = Vec::new();
        tokio::select! {
            ev = self.input.recv() => match ev {
                Some(ev) => msgs.extend(to_msg(ev?)),
                None => return Ok(None),
            },
            Some(reply) = self.replies.recv() => msgs.push(Msg::Reply(reply)),
            Some(msg) = self.done.recv() => msgs.push(msg),
            () = self.clock.beat(), if loading => msgs.push(Msg::Tick),
        }
        msgs.extend(self.queued()?);
        Ok(Some(msgs))
    }

    /// What is already queued, input first, without waiting.
    fn queued(&mut self) -> io::Result<Vec<Msg>> {
        let mut msgs = self.queued_input()?;
        while let Ok(reply) = self.replies.try_recv() {
            msgs.push(Msg::Reply(reply));
        }
        while let Ok(msg) = self.done.try_recv() {
            msgs.push(msg);
        }
        Ok(msgs)
    }

    /// The input already queued, without waiting.
    fn queued_input(&mut self) -> io::Result<Vec<Msg>> {
        let mut msgs = Vec::new();
        while let Ok(ev) = self.input.try_recv() {
            msgs.extend(to_msg(ev?));
        }
        Ok(msgs)
    }

    /// Whether nothing waits to be handled (no input, reply or answer).
    pub fn is_idle(&self) -> bool {
        self.input.is_empty() && self.replies.is_empty() && self.done.is_empty()
    }

    /// Handles what is already queued as one batch, without waiting (drawn
    /// at the next step).
    pub fn step_queued<B>(&mut self, app: &mut App, terminal: &mut Terminal<B>) -> io::Result<()>
    where
        B: Backend,
        P: Platform<B>,
        B::Error: Send + Sync + 'static,
    {
        let msgs = self.queued()?;
        self.handle(app, terminal, msgs)
    }

    /// Handles the input already queued as a batch of its own (what the
    /// loop does when keys come before any reply). The frame is drawn at
    /// the next step, as the loop draws once before it waits.
    pub fn step_input<B>(&mut self, app: &mut App, terminal: &mut Terminal<B>) -> io::Result<()>
    where
        B: Backend,
        P: Platform<B>,
        B::Error: Send + Sync + 'static,
    {
        let msgs = self.queued_input()?;
        self.handle(app, terminal, msgs)
    }

    /// Hands a batch to the app at the clock's time (read once: the batch
    /// happened at one moment) and carries out the effects.
    pub fn handle<B>(
        &mut self,
        app: &mut App,
        terminal: &mut Terminal<B>,
        msgs: Vec<Msg>,
    ) -> io::Result<()>
    where
        B: Backend,
        P: Platform<B>,
        B::Error: Send + Sync + 'static,
    {
        let now = self.clock.now();
        for msg in msgs {
            if matches!(msg, Msg::Reply(_)) {
                self.traffic.replies += 1;
            }
            let effects = app.update_at(msg, now);
            self.perform(effects, terminal)?;
            self.dirty = true;
        }
        Ok(())
    }

    /// Moves a virtual clock `by` forward: at each beat passed while the app
    /// loads, a tick, handled at the beat's time (as the real loop's timer
    /// would); drawn at the next step.
    pub fn advance<B>(
        &mut self,
        app: &mut App,
        terminal: &mut Terminal<B>,
        by: Duration,
    ) -> io::Result<()>
    where
        B: Backend,
        P: Platform<B>,
        B::Error: Send + Sync + 'static,
    {
        let end = self.clock.now() + by;
        while self.clock.to_next_beat_before(end) {
            if app.is_loading() {
                self.handle(app, terminal, vec![Msg::Tick])?;
            }
        }
        Ok(())
    }

    /// Draws the app when anything changed since the last frame (or
    /// `always`).
    pub fn draw<B>(&mut self, app: &App, terminal: &mut Terminal<B>, always: bool) -> io::Result<()>
    where
        B: Backend,
        B::Error: Send + Sync + 'static,
    {
        if self.dirty || always {
            terminal
                .draw(|f| app::view::draw(f, app))
                .map_err(io::Error::other)?;
            self.dirty = false;
        }
        Ok(())
    }

    fn perform<B>(&mut self, effects: Vec<Effect>, terminal: &mut Terminal<B>) -> io::Result<()>
    where
        B: Backend,
        P: Platform<B>,
    {
        let done = &self.done_tx;
        for effect in effects {
            match effect {
                Effect::Send { id, request } => {
                    self.traffic.sent += 1;
                    let _ = self.worker.send(WorkerCommand::Send { id, request });
                }
                Effect::Cancel(id) => {
                    self.traffic.cancelled += 1;
                    let _ = self.worker.send(WorkerCommand::Cancel { id });
                }
                Effect::OpenUrl(url) => self.platform.open_url(&url, done),
                Effect::Copy(text) => self.platform.copy(&text),
                Effect::Suspend => self.platform.suspend(terminal)?,
                Effect::Quit => {}
                Effect::Export {
                    path,
                    format,
                    columns,
                    items,
                } => self.platform.export(path, (format, columns), items, done),
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
