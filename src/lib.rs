//! findings-tui: a terminal client for a security-findings platform, with an
//! embedded demo server.
//!
//! Layers, and which way the imports run: `api::model` imports nothing of
//! ours; `api` (the client) imports the model; `demo` imports the model;
//! `export` imports the model; `snapshot` (the snapshot file and the diff
//! of two) imports the model and `export`; `cli` and `config` are the wiring. `text` and
//! `json` (the one JSON encoder and decoder every type goes through) are
//! leaf helpers any layer may use; so are `atomic_file` (the one way a
//! file is written), `handoff` (the one way text leaves for the
//! clipboard or a browser), `net` (what a URL points at) and `redact`.
//! `tests/it/architecture.rs` checks these rules.

pub mod api;
pub mod atomic_file;
pub mod cli;
pub mod config;
pub mod demo;
pub mod export;
pub mod filter_spec;
pub mod handoff;
pub mod json;
pub mod net;
pub mod redact;
pub mod snapshot;
pub mod text;
pub mod triage;
pub mod tui;
