//! findings-tui: a terminal client for a security-findings platform, with an
//! embedded demo server.

pub mod api;
pub mod demo;
pub mod text;
