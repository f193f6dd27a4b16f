//! The columns of each exported item kind (tables and CSV).

pub use findings_base::text::Cut;
use findings_model::*;
use serde::Serialize;

/// One column: its header, and how a table lays it out and shows it.
#[derive(Debug, Clone, Copy)]
pub struct Column {
    /// The CSV and Markdown header.
    pub name: &'static str,
    /// A table's header when not the name in capitals (a long name in a
    /// narrow column).
    pub header: Option<&'static str>,
    /// Its width in a table with room to spare (the last column takes the
    /// rest of the line).
    pub width: usize,
    /// The narrowest a table makes it; when every column at this width
    /// does not fit, columns are left out instead.
    pub min: usize,
    /// The order a narrow table leaves columns out in: 1 first, then 2, …;
    /// 0 never.
    pub drop: u8,
    /// How a table shows a cell (CSV and Markdown keep it whole), e.g. a
    /// rule's last part.
    pub table_cell: fn(&str) -> &str,
    /// How a cell too long is cut: a path or `owner/name` keeps its end,
    /// a time its date, as in the TUI.
    pub cut: Cut,
    /// Tables show it (a link cut to fit a terminal column is no link:
    /// CSV and Markdown carry it, tables leave it out).
    pub in_table: bool,
}

impl Column {
    /// A narrow table leaves this column out in `order` (1 first).
    pub const fn dropped(self, order: u8) -> Column {
        Column {
            drop: order,
            ..self
        }
    }

    /// A table cuts this column's long cells as `cut` says.
    pub const fn cut(self, cut: Cut) -> Column {
        Column { cut, ..self }
    }

    /// Only CSV and Markdown have this column.
    pub(crate) const fn not_in_tables(self) -> Column {
        Column {
            in_table: false,
            ..self
        }
    }

    /// A table heads this column `header`, not its name in capitals.
    pub(crate) const fn headed(self, header: &'static str) -> Column {
        Column {
            header: Some(header),
            ..self
        }
    }

    /// The header a table shows.
    pub fn table_header(&self) -> String {
        self.header
            .map_or_else(|| self.name.to_uppercase(), str::to_owned)
    }

    /// A table shows this column's cells through `f`.
    pub const fn shown(self, f: fn(&str) -> &str) -> Column {
        Column {
            table_cell: f,
            ..self
        }
    }
}

pub const fn col(name: &'static str, width: usize, min: usize) -> Column {
    Column {
        name,
        header: None,
        width,
        min,
        drop: 0,
        table_cell: whole,
        cut: Cut::Right,
        in_table: true,
    }
}

fn whole(cell: &str) -> &str {
    cell
}

/// An item that can be written as a row.
pub trait Record: Serialize {
    const COLUMNS: &'static [Column];
    fn cells(&self) -> Vec<String>;
    /// The item as JSON (`findings_base::json::encode`). No default: each
    /// impl's own body compiles its serialization once, in the crate of
    /// the impl, not again in each crate that writes items.
    fn to_json(&self) -> Result<Vec<u8>, serde_json::Error>;
    /// The finding this item is or wraps, for formats made of findings
    /// (SARIF); `None` for items that are not findings.
    fn issue(&self) -> Option<&Issue> {
        None
    }
}

/// `YYYY-MM-DD HH:MM` (UTC), as every date column writes it.
pub(crate) fn time(t: &Option<Timestamp>) -> String {
    t.map(|t| t.format("%Y-%m-%d %H:%M").to_string())
        .unwrap_or_default()
}

pub(crate) fn label<T: std::fmt::Display>(v: &Option<T>) -> String {
    v.as_ref().map(ToString::to_string).unwrap_or_default()
}

/// Narrow, the paths go first, then the detection state, the triage state
/// and the date, in the order of the TUI's list.
impl Record for AgenticIssue {
    const COLUMNS: &'static [Column] = &[
        col("id", 10, 8),
        col("severity", 8, 8),
        col("detection", 16, 9).dropped(2),
        col("triage", 12, 9).dropped(3),
        col("last_detected", 16, 10).dropped(4).cut(Cut::Date),
        col("file_paths", 30, 16).dropped(1).cut(Cut::Left),
        col("title", 30, 18),
    ];
    fn to_json(&self) -> Result<Vec<u8>, serde_json::Error> {
        findings_base::json::encode(self)
    }
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

/// The SCM configs of `findings scm list` and of the TUI's SCM pane: the
/// values a PATCH changes, then the token, the last sync and the health.
/// A narrow table leaves out the last sync first, then the type, the
/// token, the broker and the diff scans, as the TUI's list does.
impl Record for ScmConfig {
    const COLUMNS: &'static [Column] = &[
        col("id", 6, 4),
        col("type", 17, 8).dropped(2),
        col("namespace", 16, 12),
        col("auto_scan", 9, 9),
        col("network_broker", 14, 14).dropped(4),
        col("diff_scan", 9, 9).dropped(5),
        col("token", 5, 5).dropped(3),
        col("last_sync", 16, 10).dropped(1).cut(Cut::Date),
        col("status", 10, 10),
    ];
    fn to_json(&self) -> Result<Vec<u8>, serde_json::Error> {
        findings_base::json::encode(self)
    }
    fn cells(&self) -> Vec<String> {
        // Absent is the protobuf default: off (docs/src/api.md §5).
        let on = |v: Option<bool>| if v == Some(true) { "on" } else { "off" }.to_owned();
        let status = match (&self.status, self.suspended) {
            (_, Some(true)) => "suspended".to_owned(),
            (Some(st), _) => match (st.ok, &st.error) {
                (Some(true), _) => "ok".to_owned(),
                (_, Some(e)) if !e.is_empty() => format!("error: {e}"),
                (Some(false), _) => "error".to_owned(),
                _ => String::new(),
            },
            (None, _) => String::new(),
        };
        vec![
            self.id.clone().unwrap_or_default(),
            label(&self.scm_type),
            self.namespace.clone().unwrap_or_default(),
            on(self.auto_scan),
            on(self.use_network_broker),
            on(self
                .auto_scan_settings
                .as_ref()
                .and_then(|s| s.diff_enabled)),
            if self.has_access_token == Some(true) {
                "yes"
            } else {
                "no"
            }
            .to_owned(),
            time(&self.last_successful_sync_at),
            status,
        ]
    }
}
