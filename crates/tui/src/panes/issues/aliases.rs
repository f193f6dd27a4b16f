//! A filter's names checked before it applies (`:filter`, the form), and
//! an advisory alias the names do not pair (a GHSA id of an advisory they
//! list by its CVE) looked for first in the advisories' references, as the
//! headless check does ([`filter_spec::AliasSearch`]). Then the filter
//! applies with the alias resolved, or is refused with the closest ids.

use super::{IssuesPane, Slot};
use crate::message::{ApiRequest, ApiResponse, ApiResult, AppEvent, RequestId};
use crate::pane::Cx;
use findings_requests::filter_spec::{self, AliasStep};

/// An alias being looked for, and the filter that waits for it.
#[derive(Debug, Clone)]
pub struct AliasSearch {
    id: RequestId,
    search: filter_spec::AliasSearch,
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
        let given: Vec<_> = pairs.iter().filter(|(k, _)| checked(k)).cloned().collect();
        if let Some(search) = self.known.alias_to_look_for(&given) {
            let search = AliasSearch {
                id: 0,
                search,
                pairs,
                field: field.map(str::to_owned),
            };
            return self.search_alias(search, cx);
        }
        self.resolve_and_filter(pairs, field, cx)
    }

    /// Applies `pairs` with the names of `field` (every field's when none)
    /// made what the filter sends, or refuses them.
    fn resolve_and_filter(
        &mut self,
        pairs: Vec<(String, String)>,
        field: Option<&str>,
        cx: &mut Cx,
    ) -> Result<(), String> {
        let checked = |k: &str| field.is_none_or(|f| f == k);
        let (mut mine, mut rest): (Vec<_>, Vec<_>) =
            pairs.into_iter().partition(|(k, _)| checked(k));
        let said = self.known.resolve(&mut mine)?;
        rest.extend(mine);
        self.filter_by(rest, said, cx)
    }

    /// Asks for the next page of `search`'s findings.
    fn search_alias(&mut self, mut search: AliasSearch, cx: &mut Cx) -> Result<(), String> {
        let limit = findings_model::MAX_PAGE_SIZE;
        let request = search.search.request(limit);
        let sent = cx
            .outbox
            .in_slot(Slot::Aliases, |o| o.send(ApiRequest::ListIssues(request)));
        let Some(id) = sent else {
            return Err("the advisories' references could not be asked for".into());
        };
        cx.outbox.status(format!(
            "looking for {} in the advisories' references…",
            search.search.value
        ));
        search.id = id;
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
        let findings = page.issues.iter().filter_map(|i| i.issue.as_ref());
        let step = search
            .search
            .read(findings.map(|f| (f.rule_id.as_deref(), f.rule_references.as_slice())));
        match step {
            AliasStep::Found(rule) => self.known.learn(&rule, &search.search.value),
            AliasStep::Next => {
                if let Err(e) = self.search_alias(search, cx) {
                    refuse(e, cx);
                }
                return;
            }
            AliasStep::Done => {}
        }
        let AliasSearch { pairs, field, .. } = search;
        if let Err(e) = self.resolve_and_filter(pairs, field.as_deref(), cx) {
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
