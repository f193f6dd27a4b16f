//! Drawing pieces the panes share: safe text, the spinner, wrapped
//! paragraphs, and the findings table.

pub mod common;
pub mod findings_table;
