//! The TUI: state + messages + `update` (no IO) + pure `view`, an event loop,
//! and one API worker serving every pane over channels.
//!
//! The folders follow the diagram: `runtime/` is the loop, the worker, the
//! terminal and the IO it does; `app/` and `pane.rs` the state and its one
//! `update`; `panes/` one folder per pane; `list/` the machinery the finding
//! lists share (load, packed rows, marks, filter values, counts); `state/`
//! what persists between runs (visits, remembered selectors, the session);
//! `detail/`, `triage/`, `filter_form/` the parts over any pane; `widgets/`,
//! `layout.rs`, `theme.rs` the drawing pieces; `message.rs` the vocabulary.
//!
//! ```text
//! terminal events ─┐
//! worker replies  ─┼─▶ event loop ─▶ App::update(Msg) -> Vec<Effect> ─▶ app::view::draw(&App)
//! spinner ticks   ─┘                      │ Effect::Send
//!                                         ▼
//!                           API worker (owns api::Client) ─▶ Reply { id, result }
//! ```

pub mod actions;
pub mod app;
pub mod detail;
pub mod filter_form;
pub mod keymap;
pub mod launch;
pub mod layout;
pub mod list;
pub mod message;
pub mod pane;
mod pane_lookup;
pub mod panes;
pub mod runtime;
pub mod state;
pub mod theme;
pub mod triage;
pub mod widgets;

pub use runtime::{Platform, RealPlatform, main, remember, run};
