//! What changed between two snapshots (or a snapshot and the live
//! deployment): the old side is held as a compact map (an id and a few
//! small numbers per finding), the new side compared as it streams, and
//! the old side read again for the findings the new one no longer has.

use super::{Entry, SnapshotError};
use findings_export::{Column, Cut, Record, col};
use findings_model::Timestamp;
use serde::Serialize;
use std::collections::HashMap;

/// A kind of change. A finding may show in more than one (fixed, and its
/// severity changed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Category {
    /// In the new side only.
    New,
    /// Its state became fixed or removed.
    Fixed,
    /// In the old side only: no longer matches the filter (fixed or
    /// removed, when the filter leaves those out).
    Gone,
    /// Fixed, removed or ignored before; open, reviewing or fixing now (or
    /// its triage state became reopened).
    Reopened,
    /// Untriaged before, triaged now.
    Triaged,
    /// Triaged before, triaged again (another state, reason or time).
    Retriaged,
    /// Triaged before, untriaged now (its triage undone or cleared).
    Untriaged,
    /// Its severity changed.
    Severity,
    /// Its ticket was linked, unlinked or replaced.
    Ticket,
}

impl Category {
    pub const ALL: [Category; 9] = [
        Category::New,
        Category::Fixed,
        Category::Gone,
        Category::Reopened,
        Category::Triaged,
        Category::Retriaged,
        Category::Untriaged,
        Category::Severity,
        Category::Ticket,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Category::New => "new",
            Category::Fixed => "fixed",
            Category::Gone => "gone",
            Category::Reopened => "reopened",
            Category::Triaged => "triaged",
            Category::Retriaged => "retriaged",
            Category::Untriaged => "untriaged",
            Category::Severity => "severity",
            Category::Ticket => "ticket",
        }
    }

    pub fn parse(name: &str) -> Option<Category> {
        Category::ALL.into_iter().find(|c| c.name() == name.trim())
    }
}

/// One change of one finding: the finding as it is now (as it was, for
/// `gone`), and what it was.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Change {
    pub category: &'static str,
    pub id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub severity: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// What it was: the old state, severity or triage, as the category says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub was: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub triage: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub triaged_by: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub triaged_at: Option<Timestamp>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repo: Option<String>,
    #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
    pub ref_: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ticket: Option<String>,
}

/// The fields of a change, for `--json`.
pub const CHANGE_FIELDS: &[&str] = &[
    "category",
    "id",
    "path",
    "ref",
    "repo",
    "rule",
    "severity",
    "state",
    "ticket",
    "triage",
    "triagedAt",
    "triagedBy",
    "was",
];

impl Change {
    fn of(category: Category, entry: &Entry, was: Option<String>) -> Change {
        Change {
            category: category.name(),
            id: entry.id.clone(),
            severity: entry.severity.clone(),
            state: entry.state.clone(),
            was,
            triage: triage_of(
                entry.triage_state.as_deref(),
                entry.triage_reason.as_deref(),
            ),
            triaged_by: entry.triaged_by.clone(),
            triaged_at: entry.triaged_at,
            rule: entry.rule.clone(),
            repo: entry.repo.clone(),
            ref_: entry.ref_.clone(),
            path: entry.path.clone(),
            ticket: entry.ticket.clone(),
        }
    }
}

/// "ignored (false positive)", "reopened"; `None` when untriaged.
fn triage_of(state: Option<&str>, reason: Option<&str>) -> Option<String> {
    let state = state.filter(|s| !s.is_empty() && *s != "untriaged")?;
    Some(match reason.filter(|r| !r.is_empty()) {
        Some(reason) => format!("{state} ({reason})"),
        None => state.to_owned(),
    })
}

/// A narrow table keeps what changed and what it is about longest (the
/// change, the finding, its severity and state, the rule by its short
/// name); the time and who give way first, then the path, the triage, the
/// repository and what it was.
const COLUMNS: &[Column] = &[
    col("category", 9, 9),
    col("id", 8, 6),
    col("severity", 8, 8),
    col("state", 10, 9),
    col("was", 16, 9).dropped(6),
    col("triage", 18, 9).dropped(4),
    col("ticket", 12, 8).dropped(4),
    col("by", 14, 8).dropped(2),
    col("at", 16, 10).dropped(1).cut(Cut::Date),
    col("rule", 24, 16).shown(findings_model::short_rule),
    col("repo", 18, 14).dropped(5).cut(Cut::Left),
    col("path", 30, 12).dropped(3).cut(Cut::Left),
];

impl Record for Change {
    const COLUMNS: &'static [Column] = COLUMNS;
    fn to_json(&self) -> Result<Vec<u8>, serde_json::Error> {
        findings_base::json::encode(self)
    }
    fn cells(&self) -> Vec<String> {
        let s = |v: &Option<String>| v.clone().unwrap_or_default();
        vec![
            self.category.to_owned(),
            self.id.clone(),
            s(&self.severity),
            s(&self.state),
            s(&self.was),
            s(&self.triage),
            s(&self.ticket),
            s(&self.triaged_by),
            self.triaged_at
                .map(|t| t.format("%Y-%m-%d %H:%M").to_string())
                .unwrap_or_default(),
            s(&self.rule),
            s(&self.repo),
            s(&self.path),
        ]
    }
}

/// The old side of a diff: per id, the few fields compared, labels kept
/// once each. About 24 bytes a finding with a numeric id (a million: 24 MB),
/// more for another kind of id.
#[derive(Default)]
pub struct Baseline {
    /// Findings with a numeric id (the usual kind), by id; sorted (and a
    /// repeated id's last entry kept) on the first look-up.
    by_number: Vec<(u64, Compact)>,
    sorted: bool,
    /// Findings with any other id.
    by_text: HashMap<Box<str>, Compact>,
    /// The distinct (severity, state, triage state, triage reason) labels.
    fields: Vec<[u32; 4]>,
    field_ids: HashMap<[u32; 4], u32>,
    labels: Vec<Box<str>>,
    label_ids: HashMap<Box<str>, u32>,
    /// The bytes of text held (labels, ids that are not numbers), at most
    /// [`MAX_BASELINE_TEXT`].
    text_bytes: usize,
    /// The old findings' tickets, by id (few findings have one: kept
    /// apart, so a finding without costs nothing more).
    tickets: HashMap<Box<str>, Box<str>>,
    /// A side does not record tickets (a version 1 snapshot): no ticket
    /// change can be told, so none is said.
    tickets_unknown: bool,
}

/// The most text the old side of a diff holds: distinct labels (who
/// triaged, states) and ids that are not numbers. A snapshot needing more
/// is refused (every finding triaged by another 4 KB name, say) rather
/// than held.
pub const MAX_BASELINE_TEXT: usize = 64 * 1024 * 1024;

/// The compared fields of one old finding: label numbers (0 is none), the
/// four enumerations as one number of [`Baseline::fields`].
#[derive(Debug, Clone, Copy)]
struct Compact {
    /// Milliseconds; `i64::MIN` for none.
    triaged_at: i64,
    triaged_by: u32,
    /// The index of its labels in `fields`, and [`SEEN`].
    fields: u32,
}

/// The bit of [`Compact::fields`] that says the new side had it.
const SEEN: u32 = 1 << 31;

impl Compact {
    fn seen(self) -> bool {
        self.fields & SEEN != 0
    }
}

/// The number of a canonical decimal id ("100042"; not "0042" or "+1"),
/// which prints back as the same id.
fn numeric_id(id: &str) -> Option<u64> {
    let canonical = !id.is_empty()
        && id.bytes().all(|b| b.is_ascii_digit())
        && (id == "0" || !id.starts_with('0'));
    canonical.then(|| id.parse().ok()).flatten()
}

const FIXED_STATES: [&str; 2] = ["fixed", "removed"];
const CLOSED_STATES: [&str; 5] = [
    "fixed",
    "removed",
    "ignored",
    "ignored in code",
    "provisionally ignored",
];
const OPEN_STATES: [&str; 3] = ["open", "reviewing", "fixing"];

impl Baseline {
    /// Adds an old finding (a later entry of the same id replaces it, and
    /// is not held twice). Past [`MAX_BASELINE_TEXT`] of text, an error.
    pub fn add(&mut self, entry: &Entry) -> Result<(), SnapshotError> {
        let labels = [
            self.label(entry.severity.as_deref())?,
            self.label(entry.state.as_deref())?,
            self.label(entry.triage_state.as_deref())?,
            self.label(entry.triage_reason.as_deref())?,
        ];
        let fields = if let Some(&n) = self.field_ids.get(&labels) {
            n
        } else {
            let n = label_number(self.fields.len())?;
            self.fields.push(labels);
            self.field_ids.insert(labels, n);
            n
        };
        match entry
            .ticket
            .as_deref()
            .filter(|t| !t.is_empty() && !self.tickets_unknown)
        {
            Some(ticket) => {
                if self.tickets.get(entry.id.as_str()).map(|t| &**t) != Some(ticket) {
                    self.hold(entry.id.len() + ticket.len())?;
                    self.tickets.insert(entry.id.as_str().into(), ticket.into());
                }
            }
            None => {
                self.tickets.remove(entry.id.as_str());
            }
        }
        let compact = Compact {
            triaged_at: entry.triaged_at.map_or(i64::MIN, |t| t.timestamp_millis()),
            triaged_by: self.label(entry.triaged_by.as_deref())?,
            fields,
        };
        if let Some(n) = numeric_id(&entry.id) {
            if self.by_number.len() == self.by_number.capacity() {
                self.compact();
            }
            self.by_number.push((n, compact));
            self.sorted = false;
        } else {
            if !self.by_text.contains_key(entry.id.as_str()) {
                self.hold(entry.id.len())?;
            }
            self.by_text.insert(entry.id.as_str().into(), compact);
        }
        Ok(())
    }

    /// Before the numeric ids grow: a repeated id's copies are merged (a
    /// file of one finding a million times holds one), and the list grows
    /// only when that frees less than a quarter (so the sorts cost
    /// O(log n) a finding).
    fn compact(&mut self) {
        let before = self.by_number.capacity();
        self.sort_and_merge();
        if self.by_number.len() > before / 4 * 3 {
            self.by_number.reserve(before.max(64));
        }
    }

    /// Sorts the numeric ids, keeping of a repeated id the last added.
    fn sort_and_merge(&mut self) {
        // Stable: of a repeated id, the last added is kept.
        self.by_number.sort_by_key(|(n, _)| *n);
        self.by_number.dedup_by(|later, earlier| {
            let same = later.0 == earlier.0;
            if same {
                earlier.1 = later.1;
            }
            same
        });
    }

    /// Counts `len` more bytes of text held.
    fn hold(&mut self, len: usize) -> Result<(), SnapshotError> {
        self.text_bytes += len;
        if self.text_bytes > MAX_BASELINE_TEXT {
            return Err(SnapshotError::TooLarge(format!(
                "its labels and ids take more than the {} MiB a diff holds",
                MAX_BASELINE_TEXT >> 20
            )));
        }
        Ok(())
    }

    /// Says that a side of the comparison does not record tickets (a
    /// snapshot of format version 1): ticket changes are then not said
    /// rather than every ticket said changed.
    pub fn without_tickets(&mut self) {
        self.tickets_unknown = true;
        self.tickets = HashMap::new();
    }

    /// Whether a snapshot of format `version` records tickets.
    pub fn records_tickets(version: u32) -> bool {
        version >= 2
    }

    /// Readies the look-ups (sorts the numeric ids), once every old
    /// finding is added: the sort's scratch space is then taken before the
    /// new side's pages arrive rather than beside them. The first look-up
    /// does it otherwise.
    pub fn ready(&mut self) {
        if !self.sorted {
            self.sort_and_merge();
            self.by_number.shrink_to_fit();
            self.sorted = true;
        }
    }

    /// The entry of `id`.
    fn find(&mut self, id: &str) -> Option<&mut Compact> {
        let Some(n) = numeric_id(id) else {
            return self.by_text.get_mut(id);
        };
        self.ready();
        let at = self.by_number.binary_search_by_key(&n, |(n, _)| *n).ok()?;
        Some(&mut self.by_number[at].1)
    }

    /// Compares a finding of the new side; `each` gets its changes.
    pub fn compare(&mut self, new: &Entry, mut each: impl FnMut(Change)) {
        let Some(old) = self.find(&new.id) else {
            each(Change::of(Category::New, new, None));
            return;
        };
        if old.seen() {
            return; // the same id twice on the new side: compared once
        }
        old.fields |= SEEN;
        let old = *old;
        let [severity, state, triage_state, triage_reason] =
            self.fields[(old.fields & !SEEN) as usize];
        let old_triaged_at = (old.triaged_at != i64::MIN).then_some(old.triaged_at);
        let text = |n: u32| self.text(n);
        let (old_state, new_state) = (text(state), new.state.as_deref().unwrap_or(""));
        if !FIXED_STATES.contains(&old_state) && FIXED_STATES.contains(&new_state) {
            each(Change::of(Category::Fixed, new, some(old_state)));
        }
        let reopened_now =
            new.triage_state.as_deref() == Some("reopened") && text(triage_state) != "reopened";
        // Open again now: closed before, or triaged as reopened since (one
        // reopened and fixed again in between is not).
        if OPEN_STATES.contains(&new_state) && (CLOSED_STATES.contains(&old_state) || reopened_now)
        {
            each(Change::of(Category::Reopened, new, some(old_state)));
        }
        let was_triaged = old_triaged_at.is_some() || is_triaged(text(triage_state));
        let is_now =
            new.triaged_at.is_some() || is_triaged(new.triage_state.as_deref().unwrap_or(""));
        let old_triage = triage_of(Some(text(triage_state)), Some(text(triage_reason)));
        let retriaged = old_triaged_at != new.triaged_at.map(|t| t.timestamp_millis())
            || text(triage_state) != new.triage_state.as_deref().unwrap_or("")
            || text(triage_reason) != new.triage_reason.as_deref().unwrap_or("");
        // Its triage state back to untriaged (an undo, a triage cleared),
        // whatever the events since say.
        let untriaged_now = is_triaged(text(triage_state))
            && !is_triaged(new.triage_state.as_deref().unwrap_or(""));
        if untriaged_now {
            let was = old_triage.clone().unwrap_or_else(|| "triaged".into());
            each(Change::of(Category::Untriaged, new, Some(was)));
        } else if !was_triaged && is_now {
            each(Change::of(Category::Triaged, new, Some("untriaged".into())));
        } else if was_triaged && is_now && retriaged {
            let by = text(old.triaged_by);
            let was = match (old_triage, by) {
                (Some(t), "") => t,
                (Some(t), by) => format!("{t} by {by}"),
                (None, "") => "triaged".into(),
                (None, by) => format!("triaged by {by}"),
            };
            each(Change::of(Category::Retriaged, new, Some(was)));
        }
        let old_severity = text(severity);
        if !old_severity.is_empty() && new.severity.as_deref().is_some_and(|s| s != old_severity) {
            each(Change::of(Category::Severity, new, some(old_severity)));
        }
        let old_ticket = self.tickets.get(new.id.as_str()).map(|t| &**t);
        let new_ticket = new.ticket.as_deref().filter(|t| !t.is_empty());
        if !self.tickets_unknown && old_ticket != new_ticket {
            let was = old_ticket.map_or_else(|| "no ticket".to_owned(), str::to_owned);
            let mut change = Change::of(Category::Ticket, new, Some(was));
            if new_ticket.is_none() {
                change.ticket = Some("none".into());
            }
            each(change);
        }
    }

    /// The change of an old finding the new side did not have; `None` for
    /// one it had.
    pub fn gone(&mut self, old: &Entry) -> Option<Change> {
        let compact = self.find(&old.id)?;
        (!compact.seen()).then(|| {
            let mut change = Change::of(Category::Gone, old, old.state.clone());
            change.state = None;
            change
        })
    }

    fn label(&mut self, text: Option<&str>) -> Result<u32, SnapshotError> {
        let Some(text) = text.filter(|t| !t.is_empty()) else {
            return Ok(0);
        };
        if let Some(&n) = self.label_ids.get(text) {
            return Ok(n);
        }
        // Held twice: in the list and as the map's key.
        self.hold(2 * text.len())?;
        self.labels.push(text.into());
        let n = label_number(self.labels.len())?;
        self.label_ids.insert(text.into(), n);
        Ok(n)
    }

    fn text(&self, n: u32) -> &str {
        match n {
            0 => "",
            n => &self.labels[n as usize - 1],
        }
    }
}

/// The number of a label or of a set of labels, from the count held so
/// far: MAX_BASELINE_TEXT keeps it far below u32::MAX, and an error, not a
/// wrapped number, if it ever did not.
fn label_number(count: usize) -> Result<u32, SnapshotError> {
    u32::try_from(count)
        .map_err(|_| SnapshotError::TooLarge(format!("more than {} distinct labels", u32::MAX)))
}

fn is_triaged(triage_state: &str) -> bool {
    !triage_state.is_empty() && triage_state != "untriaged"
}

fn some(text: &str) -> Option<String> {
    (!text.is_empty()).then(|| text.to_owned())
}

#[cfg(test)]
#[path = "diff_tests.rs"]
mod tests;
