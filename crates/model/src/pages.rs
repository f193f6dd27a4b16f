//! The pages of List issues and of the report's findings, their items read
//! as any `T` that [`ItemOf`] knows: the whole model here, slimmer reads
//! in the modules that need them (each names this one, never the other way
//! round), or the text as the server wrote it (the CLI's JSON exports).
//! What a listing does with a page (its cursor, its count) does not depend
//! on how its items are read.

use super::issue::Issue;
use super::list::IssueItem;
use super::report::ReportTotals;
use super::wire;
use serde::Deserialize;

/// A List issues page, its items read as `T`.
#[derive(Debug, Deserialize)]
#[serde(default, bound(deserialize = "T: Deserialize<'de>"))]
pub struct IssuesPage<T> {
    #[serde(deserialize_with = "wire::page_items")]
    pub issues: Vec<T>,
    pub cursor: Option<String>,
}

/// A report page, its findings read as `T`, and the totals (a table heads
/// with them).
#[derive(Debug, Deserialize)]
#[serde(
    rename_all = "camelCase",
    default,
    bound(deserialize = "T: Deserialize<'de>")
)]
pub struct FindingsPage<T> {
    #[serde(deserialize_with = "wire::page_items")]
    pub findings: Vec<T>,
    pub cursor: Option<String>,
    #[serde(flatten)]
    pub totals: ReportTotals,
}

/// A List issues item, its finding read as `T` (the item's counts and
/// review threads skipped).
#[derive(Debug, Deserialize)]
#[serde(default, bound(deserialize = "T: Deserialize<'de>"))]
pub struct ItemOf<T> {
    pub issue: Option<T>,
}

// By hand: derived, each would ask `T: Default`, which an empty page does
// not need.
impl<T> Default for IssuesPage<T> {
    fn default() -> Self {
        IssuesPage {
            issues: Vec::new(),
            cursor: None,
        }
    }
}

impl<T> Default for FindingsPage<T> {
    fn default() -> Self {
        FindingsPage {
            findings: Vec::new(),
            cursor: None,
            totals: ReportTotals::default(),
        }
    }
}

impl<T> Default for ItemOf<T> {
    fn default() -> Self {
        ItemOf { issue: None }
    }
}

/// An item whose finding was read in part, as the model's item: the
/// fields read, the rest left empty.
impl<T: Into<Issue>> From<ItemOf<T>> for IssueItem {
    fn from(item: ItemOf<T>) -> IssueItem {
        IssueItem {
            issue: item.issue.map(Into::into),
            ..IssueItem::default()
        }
    }
}
