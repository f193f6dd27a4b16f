//! The leaves every layer may use, each importing only the others here:
//! `text` (server text made safe to show), `json` (the one JSON encoder
//! and decoder every type goes through), `redact` (registered secrets
//! masked), `atomic_file` (the one way a file is written, and read
//! bounded), `handoff` (the one way text leaves for a clipboard or a
//! browser), `net` (what a URL points at), `token` (the secret wrapper
//! every layer passes around) and `sys` (the only calls into the C
//! library, and so the only unsafe code in the workspace).

// Issue 52: no silent truncation (the workspace still allows these for the crates not done yet).
#![deny(
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss,
    clippy::cast_precision_loss
)]

pub mod atomic_file;
pub mod handoff;
pub mod json;
pub mod net;
pub mod redact;
pub mod sys;
pub mod text;
pub mod token;
