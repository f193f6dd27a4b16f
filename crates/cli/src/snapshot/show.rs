//! `findings snapshot show FILE`: the header and the counts by severity
//! and by state, read through the file once.

use crate::{Failure, offer};
use clap::{Args, ValueHint};
use findings_model::{AggregateState, Severity};
use findings_snapshot::Header;
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;

#[derive(Args, Debug, Clone)]
pub struct ShowArgs {
    /// The snapshot file
    #[arg(value_name = "FILE", value_hint = ValueHint::FilePath)]
    path: PathBuf,
    /// table or json (default: table)
    #[arg(long, value_name = "FORMAT", default_value = "table",
          value_parser = offer(["table", "json"]), hide_possible_values = true)]
    format: String,
}

/// What `show` prints.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Summary {
    header: Header,
    findings: u64,
    by_severity: Vec<(String, u64)>,
    by_state: Vec<(String, u64)>,
}

pub fn show(args: &ShowArgs) -> Result<(), Failure> {
    if !matches!(args.format.as_str(), "table" | "json") {
        return Err(Failure::Usage(format!(
            "unknown format {:?}; valid formats: table, json",
            args.format
        )));
    }
    let mut reader = super::open(&args.path)?;
    let (mut severities, mut states) = (BTreeMap::new(), BTreeMap::new());
    let mut findings = 0;
    while let Some(entry) = reader
        .next_entry()
        .map_err(|e| super::snapshot_failure(&args.path, &e))?
    {
        findings += 1;
        *severities
            .entry(entry.severity.unwrap_or_default())
            .or_insert(0) += 1;
        *states.entry(entry.state.unwrap_or_default()).or_insert(0) += 1;
    }
    let summary = Summary {
        header: reader.header().clone(),
        findings,
        by_severity: ordered(severities, &Severity::names()),
        by_state: ordered(states, &AggregateState::names()),
    };
    let mut out = std::io::stdout().lock();
    if args.format == "json" {
        let mut json = findings_base::json::pretty(&as_objects(&summary))
            .map_err(|e| Failure::Runtime(e.to_string()))?;
        json.push('\n');
        out.write_all(json.as_bytes())?;
    } else {
        out.write_all(table(&summary).as_bytes())?;
    }
    Ok(out.flush()?)
}

/// The counts in the vocabulary's order (critical first, open first),
/// values it does not know after, and no value as "(none)".
fn ordered(counts: BTreeMap<String, u64>, names: &[(&str, &str)]) -> Vec<(String, u64)> {
    let rank = |label: &str| {
        names
            .iter()
            .position(|&(_, l)| l == label)
            .unwrap_or(names.len())
    };
    let mut counts: Vec<(String, u64)> = counts
        .into_iter()
        .map(|(k, n)| (if k.is_empty() { "(none)".into() } else { k }, n))
        .collect();
    counts.sort_by(|a, b| rank(&a.0).cmp(&rank(&b.0)).then(a.0.cmp(&b.0)));
    counts
}

/// JSON with the counts as objects (`{"critical": 3, …}`), in order.
fn as_objects(summary: &Summary) -> serde_json::Value {
    let object = |counts: &[(String, u64)]| {
        serde_json::Value::Object(
            counts
                .iter()
                .map(|(k, n)| (k.clone(), serde_json::Value::from(*n)))
                .collect(),
        )
    };
    serde_json::json!({
        "header": summary.header,
        "findings": summary.findings,
        "bySeverity": object(&summary.by_severity),
        "byState": object(&summary.by_state),
    })
}

fn table(summary: &Summary) -> String {
    let h = &summary.header;
    let filter = findings_base::json::encode(&h.request)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default();
    let mut lines = vec![
        ("format", format!("{} {}", h.format, h.version)),
        ("saved at", h.saved_at.to_rfc3339()),
        ("tool", h.tool.clone()),
        ("base URL", h.base_url.clone()),
        ("deployment", h.deployment.clone()),
        ("filter", filter),
        ("findings", summary.findings.to_string()),
    ];
    // A long value (the filter) wraps under itself, within the terminal.
    let room = crate::listing::terminal_width().saturating_sub(12).max(20);
    let mut text = String::new();
    for (key, value) in lines.drain(..) {
        let value = findings_base::text::one_line(&value);
        for (i, part) in findings_base::text::wrap(&value, room).iter().enumerate() {
            let key = if i == 0 { key } else { "" };
            text.push_str(&format!("{key:<11} {part}\n"));
        }
    }
    for (title, counts) in [
        ("SEVERITY", &summary.by_severity),
        ("STATE", &summary.by_state),
    ] {
        text.push_str(&format!("\n{title:<22} COUNT\n"));
        for (label, n) in counts {
            let label = findings_base::text::cut_right(&findings_base::text::one_line(label), 22);
            text.push_str(&format!("{label:<22} {n:>5}\n"));
        }
    }
    text
}
