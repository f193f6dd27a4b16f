//! The columns of each exported item kind (tables and CSV).

use crate::api::model::*;
use serde::Serialize;

/// One column: its header and its table width (the last column takes the
/// rest of the line).
#[derive(Debug, Clone, Copy)]
pub struct Column {
    pub name: &'static str,
    pub width: usize,
}

const fn col(name: &'static str, width: usize) -> Column {
    Column { name, width }
}

/// An item that can be written as a row.
pub trait Record: Serialize {
    const COLUMNS: &'static [Column];
    fn cells(&self) -> Vec<String>;
    /// The finding this item is or wraps, for formats made of findings
    /// (SARIF); `None` for items that are not findings.
    fn issue(&self) -> Option<&Issue> {
        None
    }
}

fn time(t: &Option<Timestamp>) -> String {
    t.map(|t| t.format("%Y-%m-%d %H:%M").to_string())
        .unwrap_or_default()
}

fn label<T: std::fmt::Display>(v: &Option<T>) -> String {
    v.as_ref().map(ToString::to_string).unwrap_or_default()
}

const ISSUE_COLUMNS: &[Column] = &[
    col("id", 8),
    col("severity", 8),
    col("state", 12),
    col("type", 8),
    col("rule", 38),
    col("repository", 24),
    col("location", 34),
    col("relevant_since", 16),
    col("message", 30),
];

fn issue_cells(i: &Issue) -> Vec<String> {
    vec![
        i.id().to_owned(),
        label(&i.severity),
        label(&i.aggregate_state),
        label(&i.issue_type),
        i.rule_label(),
        i.repository_name().to_owned(),
        i.location(),
        time(&i.relevant_since),
        i.message.clone().unwrap_or_default(),
    ]
}

impl Record for Issue {
    const COLUMNS: &'static [Column] = ISSUE_COLUMNS;
    fn cells(&self) -> Vec<String> {
        issue_cells(self)
    }
    fn issue(&self) -> Option<&Issue> {
        Some(self)
    }
}

impl Record for IssueItem {
    const COLUMNS: &'static [Column] = ISSUE_COLUMNS;
    fn cells(&self) -> Vec<String> {
        match &self.issue {
            Some(i) => issue_cells(i),
            None => vec![String::new(); ISSUE_COLUMNS.len()],
        }
    }
    fn issue(&self) -> Option<&Issue> {
        self.issue.as_ref()
    }
}

impl Record for AgenticIssue {
    const COLUMNS: &'static [Column] = &[
        col("id", 10),
        col("severity", 8),
        col("detection", 16),
        col("triage", 12),
        col("last_detected", 16),
        col("file_paths", 30),
        col("title", 30),
    ];
    fn cells(&self) -> Vec<String> {
        vec![
            self.id.clone().unwrap_or_default(),
            label(&self.severity),
            label(&self.detection_state),
            label(&self.triage_state),
            time(&self.last_detected_at),
            self.file_paths.join(";"),
            self.title.clone().unwrap_or_default(),
        ]
    }
}
