//! Per-pane state and its update logic.

pub mod agentic;
pub mod detail;
pub mod filter_form;
pub mod issues;
pub mod report;
pub mod scm;
