//! Saved views: named sorts and filter sets of the Issues pane.

use super::values::{DirectionName, Filters, PaneName, SortName};
use crate::api::model::{SortBy, SortDirection};
use crate::tui::app::PaneId;
use serde::Deserialize;

/// A saved view: a named sort and set of filters of the Issues pane.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(try_from = "RawView")]
pub struct View {
    pub sort: Option<SortBy>,
    pub direction: Option<SortDirection>,
    pub filters: Vec<String>,
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

impl TryFrom<RawView> for View {
    type Error = String;

    fn try_from(raw: RawView) -> Result<View, String> {
        match raw.pane.map(|p| p.0) {
            None | Some(PaneId::Issues) => {}
            Some(other) => {
                return Err(format!(
                    "views apply to the issues pane; pane = {:?} is not supported",
                    other.title().to_lowercase()
                ));
            }
        }
        if raw.sort.is_none() && raw.direction.is_none() && raw.filters.0.is_empty() {
            return Err("a view needs a sort, a direction or filters".into());
        }
        Ok(View {
            sort: raw.sort.map(|s| s.0),
            direction: raw.direction.map(|d| d.0),
            filters: raw.filters.0,
        })
    }
}
