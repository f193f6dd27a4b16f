//! The leaves every layer may use, each importing only the others here:
//! `text` (server text made safe to show), `json` (the one JSON encoder
//! and decoder every type goes through), `redact` (registered secrets
//! masked), `atomic_file` (the one way a file is written, and read
//! bounded), `handoff` (the one way text leaves for a clipboard or a
//! browser), `net` (what a URL points at), `token` (the secret wrapper
//! every layer passes around) and `sys` (the only calls into the C
//! library, and so the only unsafe code in the workspace).

pub mod atomic_file;
pub mod handoff;
pub mod json;
pub mod net;
pub mod redact;
pub mod sys;
pub mod text;
pub mod token;
