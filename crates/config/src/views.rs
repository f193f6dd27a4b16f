//! Saved views: named sorts and filter sets of the Issues pane, from the
//! config file's `[views.NAME]` and `[profiles.P.views.NAME]` tables.

use super::values::{DirectionName, Filters, PaneName, SortName};
use findings_model::{SortBy, SortDirection};
use serde::{Deserialize, Deserializer};
use std::collections::BTreeMap;

/// A saved view of the Issues pane: its sort and its server-side filters
/// (`FIELD=VALUE`, as `:filter` takes them).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(try_from = "RawView")]
pub struct SavedView {
    /// The name of its table (`views.NAME`).
    pub name: String,
    pub sort_by: Option<SortBy>,
    pub direction: Option<SortDirection>,
    pub filters: Vec<String>,
}

impl SavedView {
    /// Its filters as `(FIELD, VALUE)` pairs: what the TUI's `:view` and
    /// the CLI's `--view` both build their filter from.
    pub fn pairs(&self) -> Result<Vec<(String, String)>, String> {
        self.filters
            .iter()
            .map(|f| findings_requests::filter_spec::split_pair(f).map_err(|e| e.0))
            .collect()
    }

    /// What the view sets, in a line: `sort severity ↑ · severity=critical`.
    pub fn summary(&self) -> String {
        let mut parts = Vec::new();
        if let Some(by) = &self.sort_by {
            let dir = match self.direction {
                Some(SortDirection::Asc) => " ↑",
                Some(_) => " ↓",
                None => "",
            };
            parts.push(format!("sort {}{dir}", by.label()));
        }
        parts.extend(self.filters.iter().cloned());
        if parts.is_empty() {
            "no filters".to_owned()
        } else {
            parts.join(" · ")
        }
    }
}

/// A table of views, each named after its key.
pub(super) fn named_views<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<BTreeMap<String, SavedView>, D::Error> {
    let mut views = BTreeMap::<String, SavedView>::deserialize(d)?;
    for (name, view) in &mut views {
        view.name.clone_from(name);
    }
    Ok(views)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawView {
    pane: Option<PaneName>,
    sort: Option<SortName>,
    direction: Option<DirectionName>,
    #[serde(default)]
    filters: Filters,
}

impl TryFrom<RawView> for SavedView {
    type Error = String;

    fn try_from(raw: RawView) -> Result<SavedView, String> {
        match raw.pane.map(|p| p.name()) {
            None | Some("issues") => {}
            Some(other) => {
                return Err(format!(
                    "views apply to the issues pane; pane = {other:?} is not supported"
                ));
            }
        }
        if raw.sort.is_none() && raw.direction.is_none() && raw.filters.0.is_empty() {
            return Err("a view needs a sort, a direction or filters".into());
        }
        Ok(SavedView {
            name: String::new(),
            sort_by: raw.sort.map(|s| s.0),
            direction: raw.direction.map(|d| d.0),
            filters: raw.filters.0,
        })
    }
}
