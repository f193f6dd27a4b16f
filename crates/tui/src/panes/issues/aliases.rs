//! A filter's names checked before it applies (`:filter`, the form), and
//! an advisory alias the names do not pair (a GHSA id of an advisory they
//! list by its CVE) looked for first in the advisories' references, as the
//! headless check does: one page of their findings at a time, each rule's
//! references read from its first finding, at most [`PAGES`] pages. Then
//! the filter applies with the alias resolved, or is refused with the
//! closest ids.

use super::{IssuesPane, Slot};
use crate::message::{ApiRequest, ApiResponse, ApiResult, AppEvent, RequestId};
use crate::pane::Cx;
use findings_model::{IssueType, ListIssuesFilter, ListIssuesRequest};
use findings_requests::filter_spec;

/// The most pages of findings read for an alias.
const PAGES: usize = 5;

/// An alias being looked for, and the filter that waits for it.
#[derive(Debug, Clone)]
pub struct AliasSearch {
    id: RequestId,
    /// The advisory id looked for, canonical.
    value: String,
    /// The rules whose references are not read yet.
    left: Vec<String>,
    pages: usize,
    /// The filter, as typed, and the field whose names are checked (all
    /// of them when none: the form).
    pairs: Vec<(String, String)>,
    field: Option<String>,
}

impl IssuesPane {
    /// Applies `pairs` once the names of `field` (every field's when none)
    /// are checked: at once, or after an alias search.
    pub(super) fn check_and_filter(
        &mut self,
        pairs: Vec<(String, String)>,
        field: Option<&str>,
        cx: &mut Cx,
    ) -> Result<(), String> {
        // A search for an older filter is dropped: this one is newer.
        self.alias_search = None;
        let checked = |k: &str| field.is_none_or(|f| f == k);
        let (mut mine, mut rest): (Vec<_>, Vec<_>) =
            pairs.into_iter().partition(|(k, _)| checked(k));
        if let Some((value, left)) = self.known.alias_to_look_for(&mine) {
            let mut pairs = rest;
            pairs.extend(mine);
            let search = AliasSearch {
                id: 0,
                value,
                left,
                pages: 0,
                pairs,
                field: field.map(str::to_owned),
            };
            return self.search_alias(search, cx);
        }
        let said = self.known.resolve(&mut mine)?;
        rest.extend(mine);
        self.filter_by(rest, said, cx)
    }

    /// Asks for the next page of `search`'s findings.
    fn search_alias(&mut self, mut search: AliasSearch, cx: &mut Cx) -> Result<(), String> {
        let request = ListIssuesRequest {
            limit: Some(findings_client::transport::MAX_PAGE_ITEMS as i64),
            issue_types: vec![IssueType::Sca],
            filter: Some(ListIssuesFilter {
                rule_ids: search.left.clone(),
                ..Default::default()
            }),
            ..Default::default()
        };
        let sent = cx
            .outbox
            .in_slot(Slot::Aliases, |o| o.send(ApiRequest::ListIssues(request)));
        let Some(id) = sent else {
            return Err("the advisories' references could not be asked for".into());
        };
        cx.outbox.status(format!(
            "looking for {} in the advisories' references…",
            search.value
        ));
        search.id = id;
        search.pages += 1;
        self.alias_search = Some(search);
        Ok(())
    }

    /// A page of the alias search: the alias learned when a reference
    /// names it; else the next page, or the filter checked without it.
    pub(super) fn on_alias_reply(&mut self, id: RequestId, result: ApiResult, cx: &mut Cx) {
        let Some(mut search) = self.alias_search.take_if(|s| s.id == id) else {
            return;
        };
        let page = match result {
            Ok(ApiResponse::ListIssues(page)) => page,
            Ok(other) => return alias_failed(&other.unexpected().to_string(), cx),
            Err(e) => return alias_failed(&e.to_string(), cx),
        };
        let mut read = false;
        for issue in page.issues.into_iter().filter_map(|i| i.issue) {
            let Some(k) = search
                .left
                .iter()
                .position(|r| Some(r) == issue.rule_id.as_ref())
            else {
                continue;
            };
            let rule = search.left.swap_remove(k);
            read = true;
            if filter_spec::named_in(&issue.rule_references, &search.value) {
                self.known.learn(&rule, &search.value);
                search.left.clear();
                break;
            }
        }
        if read && !search.left.is_empty() && search.pages < PAGES {
            if let Err(e) = self.search_alias(search, cx) {
                refuse(e, cx);
            }
            return;
        }
        let AliasSearch { pairs, field, .. } = search;
        let checked = |k: &str| field.as_deref().is_none_or(|f| f == k);
        let (mut mine, mut rest): (Vec<_>, Vec<_>) =
            pairs.into_iter().partition(|(k, _)| checked(k));
        let applied = self.known.resolve(&mut mine).and_then(|said| {
            rest.extend(mine);
            self.filter_by(rest, said, cx)
        });
        if let Err(e) = applied {
            refuse(e, cx);
        }
    }
}

/// The search failed: the filter is not applied (its names could not be
/// checked), and it is said.
fn alias_failed(why: &str, cx: &mut Cx) {
    refuse(
        format!("the advisories' references could not be read ({why}): the filter was not applied"),
        cx,
    );
}

/// The filter refused, in the status line and a popup.
fn refuse(message: String, cx: &mut Cx) {
    cx.outbox.status(message.clone());
    cx.outbox.events.push(AppEvent::Error {
        title: "Filter".into(),
        message,
    });
}
