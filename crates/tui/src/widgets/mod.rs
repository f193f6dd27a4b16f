//! Drawing pieces the panes share: safe text, the spinner, wrapped
//! paragraphs, column widths, the list position and scrollbar, and the
//! findings table.

pub mod columns;
pub mod common;
pub mod dialog;
pub mod findings_table;
pub mod question;
pub mod reflow;
pub mod review_json;
pub mod scroll;
pub mod tab_bar;
