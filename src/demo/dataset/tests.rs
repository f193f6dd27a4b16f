//! The demo data agrees with itself: what a finding says in one field, its
//! other fields do not contradict.

use super::*;
use crate::demo::materialize::Parts;

const ALL: Parts = Parts {
    remediation: true,
    activity_history: true,
    is_archived: true,
    first_detected_at: true,
    single_issue: true,
};

fn dataset(findings: usize) -> Dataset {
    let anchor = Utc.with_ymd_and_hms(2026, 11, 1, 0, 0, 0).unwrap();
    Dataset::generate(findings, crate::demo::DEFAULT_SEED, anchor, "1234")
}

/// Every RFC 3339 string in a JSON value, with where it is.
fn timestamps(v: &serde_json::Value, at: &str, out: &mut Vec<(String, DateTime<Utc>)>) {
    match v {
        serde_json::Value::String(s) => {
            if let Ok(t) = DateTime::parse_from_rfc3339(s) {
                out.push((at.to_owned(), t.to_utc()));
            }
        }
        serde_json::Value::Array(items) => {
            for (k, item) in items.iter().enumerate() {
                timestamps(item, &format!("{at}[{k}]"), out);
            }
        }
        serde_json::Value::Object(map) => {
            for (k, item) in map {
                timestamps(item, &format!("{at}.{k}"), out);
            }
        }
        _ => {}
    }
}

#[test]
fn no_timestamp_lies_after_the_anchor() {
    // Enough rows for the rare ones made in the last minutes before the
    // anchor; the cheap facts of each, the whole finding of the risky ones.
    let ds = dataset(40_000);
    let mut found = Vec::new();
    for (i, row) in ds.rows.iter().enumerate() {
        for t in [
            row.created,
            row.relevant_since,
            row.first_detected,
            row.last_activity,
        ] {
            found.push((format!("row {i}"), ts(t)));
        }
        let risky = row.ticket_failed || row.created > ds.now() - DAY;
        if i < 500 || risky {
            let issue = serde_json::to_value(ds.issue(i, ALL)).unwrap();
            timestamps(&issue, &finding_id(i), &mut found);
        }
    }
    for a in &ds.agentic {
        timestamps(
            &serde_json::to_value(&a.issue).unwrap(),
            "agentic",
            &mut found,
        );
    }
    for c in &ds.scm_configs {
        timestamps(&serde_json::to_value(c).unwrap(), "scm", &mut found);
    }
    let late: Vec<_> = found.iter().filter(|(_, t)| *t > ds.anchor).collect();
    assert!(
        late.is_empty(),
        "{} of {} after the anchor: {:?}",
        late.len(),
        found.len(),
        &late[..late.len().min(10)]
    );
}
