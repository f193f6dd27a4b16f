//! Choosing columns: the presets, a list of names and presets read into
//! columns (a name unknown refused with the closest known one), the
//! columns chosen with what their cells are reckoned with, and the text
//! that lists them all.

use super::{CATALOG, Context, FindingColumn, Needs, find};
use findings_model::Issue;
use std::fmt;

/// A named set of columns.
#[derive(Debug, Clone, Copy)]
pub struct Preset {
    pub name: &'static str,
    pub description: &'static str,
    pub columns: &'static [&'static str],
}

/// The presets; `all` is every column of the catalog.
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "default",
        description: "what csv, table and markdown write without --columns",
        columns: &[
            "id",
            "severity",
            "state",
            "type",
            "rule",
            "repository",
            "location",
            "relevant_since",
            "message",
            "url",
        ],
    },
    Preset {
        name: "triage",
        description: "what a triage review reads: the decision, its reason and note",
        columns: &[
            "id",
            "severity",
            "state",
            "triage_state",
            "triage_reason",
            "rule",
            "repository",
            "location",
            "note",
            "url",
        ],
    },
    Preset {
        name: "leadership",
        description: "open age against the targets, and who owns each finding",
        columns: &[
            "id",
            "severity",
            "state",
            "rule",
            "repository",
            "first_detected",
            "age",
            "days_over_target",
            "ticket",
            "owner_team",
        ],
    },
    Preset {
        name: "supply_chain",
        description: "advisories: reachability, EPSS, a fix pull request",
        columns: &[
            "id",
            "severity",
            "state",
            "rule",
            "repository",
            "location",
            "reachability",
            "epss",
            "fix_pr",
            "url",
        ],
    },
    Preset {
        name: "all",
        description: "every column, in the catalog's order",
        columns: &[],
    },
];

/// Why a list of columns was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ColumnsError {
    /// No name at all.
    Empty,
    /// A name neither a column nor a preset, and the closest known one.
    Unknown {
        given: String,
        closest: Option<&'static str>,
    },
}

impl fmt::Display for ColumnsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ColumnsError::Empty => f.write_str("no column named"),
            ColumnsError::Unknown { given, closest } => {
                write!(
                    f,
                    "unknown column {:?}",
                    findings_base::text::one_line(given)
                )?;
                match closest {
                    Some(name) => write!(f, " (did you mean {name}?)"),
                    None => Ok(()),
                }
            }
        }
    }
}

impl std::error::Error for ColumnsError {}

/// The columns a text names: names and presets separated by commas or
/// spaces ([`parse_list`]).
pub fn parse(text: &str) -> Result<Vec<&'static FindingColumn>, ColumnsError> {
    let names: Vec<&str> = text
        .split(|c: char| c == ',' || c.is_whitespace())
        .collect();
    parse_list(&names)
}

/// The columns `names` name, in order, each once: column names and preset
/// names mixed (`leadership,url`), either spelling (`first-detected`,
/// `first_detected`), any case. Empty names are skipped.
pub fn parse_list<S: AsRef<str>>(names: &[S]) -> Result<Vec<&'static FindingColumn>, ColumnsError> {
    let mut chosen: Vec<&'static FindingColumn> = Vec::new();
    let mut add = |c: &'static FindingColumn| {
        if !chosen.iter().any(|k| k.name() == c.name()) {
            chosen.push(c);
        }
    };
    for given in names {
        let given = given.as_ref().trim();
        if given.is_empty() {
            continue;
        }
        let name = given.to_ascii_lowercase().replace('-', "_");
        if let Some(c) = find(&name) {
            add(c);
        } else if let Some(preset) = PRESETS.iter().find(|p| p.name == name) {
            if preset.columns.is_empty() {
                CATALOG.iter().for_each(&mut add);
            } else {
                preset
                    .columns
                    .iter()
                    .filter_map(|n| find(n))
                    .for_each(&mut add);
            }
        } else {
            return Err(ColumnsError::Unknown {
                given: given.to_owned(),
                closest: closest(&name),
            });
        }
    }
    if chosen.is_empty() {
        return Err(ColumnsError::Empty);
    }
    Ok(chosen)
}

/// The known name (column or preset) nearest `name`: one a few edits
/// away, else a column it starts (`first` → first_detected).
fn closest(name: &str) -> Option<&'static str> {
    let known = CATALOG
        .iter()
        .map(FindingColumn::name)
        .chain(PRESETS.iter().map(|p| p.name));
    let (edits, best) = known
        .map(|k| (distance(name, k), k))
        .min_by_key(|(d, _)| *d)?;
    if edits <= (name.chars().count() / 3).max(2) {
        return Some(best);
    }
    CATALOG
        .iter()
        .map(FindingColumn::name)
        .find(|k| name.len() >= 3 && k.starts_with(name))
}

/// Levenshtein distance, by characters.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let here = row[j + 1];
            row[j + 1] = if ca == *cb {
                previous
            } else {
                1 + previous.min(here).min(row[j])
            };
            previous = here;
        }
    }
    row[b.len()]
}

/// Columns chosen, and what their cells are reckoned with.
#[derive(Debug, Clone)]
pub struct Chosen {
    pub columns: Vec<&'static FindingColumn>,
    pub context: Context,
}

/// The same columns (by name) reckoned the same way.
impl PartialEq for Chosen {
    fn eq(&self, other: &Chosen) -> bool {
        self.names() == other.names() && self.context == other.context
    }
}

/// The `default` preset, its cells reckoned with nothing.
impl Default for Chosen {
    fn default() -> Chosen {
        Chosen::preset("default", Context::default())
    }
}

impl Chosen {
    pub fn new(columns: Vec<&'static FindingColumn>, context: Context) -> Chosen {
        Chosen { columns, context }
    }

    /// The columns of a preset (`default` when the name is unknown).
    pub fn preset(name: &str, context: Context) -> Chosen {
        let columns = parse(name)
            .or_else(|_| parse("default"))
            .unwrap_or_default();
        Chosen { columns, context }
    }

    /// The cells of one finding (`None`, an item without one: empty cells).
    pub fn cells(&self, issue: Option<&Issue>) -> Vec<String> {
        match issue {
            Some(i) => self
                .columns
                .iter()
                .map(|c| (c.cell)(i, &self.context))
                .collect(),
            None => vec![String::new(); self.columns.len()],
        }
    }

    /// Whether a column needs `needs` of the request.
    pub fn needs(&self, needs: Needs) -> bool {
        self.columns.iter().any(|c| c.needs == needs)
    }

    pub fn names(&self) -> Vec<&'static str> {
        self.columns.iter().map(|c| c.name()).collect()
    }

    /// The names as a list to type again: `id,severity,…`.
    pub fn list(&self) -> String {
        self.names().join(",")
    }
}

/// Every column and preset, one a line, as `--columns help` prints them.
pub fn catalog_text() -> String {
    let width = CATALOG
        .iter()
        .map(|c| c.name().len())
        .chain(PRESETS.iter().map(|p| p.name.len()))
        .max()
        .unwrap_or(0);
    let mut out = String::from(
        "Columns of csv, table and markdown (--columns NAME,...; `-` or `_` alike; \
         a table shows them as wide as it can, leaving some out when narrow):\n",
    );
    for c in CATALOG {
        out.push_str(&format!("  {:width$}  {}\n", c.name(), c.description));
    }
    out.push_str("\nPresets (mixed with names: --columns leadership,url):\n");
    for p in PRESETS {
        let names = if p.columns.is_empty() {
            "every column above".to_owned()
        } else {
            p.columns.join(",")
        };
        out.push_str(&format!(
            "  {:width$}  {}: {names}\n",
            p.name, p.description
        ));
    }
    out
}
