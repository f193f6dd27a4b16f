//! The one refusal every query and cursor shares: its own module so that
//! cursors and queries both use it without importing each other.

/// A request the server refuses with 400.
#[derive(Debug, Clone, PartialEq)]
pub struct BadRequest(pub String);
