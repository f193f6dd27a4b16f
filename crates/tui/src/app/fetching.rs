//! Findings fetched whole on demand. A list row keeps only what its table
//! shows (see `message/rows.rs`); what needs more of a finding (its link,
//! a copy as Markdown, an export) asks the worker for it here, shows that
//! it waits ("fetching…", with the spinner), and does its work when the
//! findings come. One such fetch at a time: a new one, or `Esc`, stops the
//! one in flight.

use super::{App, Effect, Overlay, exporting};
use crate::detail::Enriched;
use crate::list::findings_list::{copy_link, open_url};
use crate::message::{
    ApiRequest, ApiResponse, ApiResult, ExportItems, Fetch, Owner, RequestId, Then,
};
use findings_model::{Issue, IssueItem};

/// A fetch in flight: its request and what to do when it comes.
#[derive(Debug, Clone)]
pub struct Fetching {
    pub id: RequestId,
    pub fetch: Fetch,
}

impl App {
    /// Starts `fetch` (a finding the detail fetched already is used as
    /// it is).
    pub(super) fn start_fetch(&mut self, fetch: Fetch) {
        if let Some(Enriched::Loaded(issue)) =
            fetch.one.as_ref().and_then(|id| self.enriched.get(id))
        {
            let items = as_items((**issue).clone(), fetch.items);
            return self.fetched(fetch.then, items);
        }
        self.stop_fetch();
        if let Then::Export { .. } = fetch.then {
            // Quitting now would lose it.
            self.exports_running += 1;
        }
        self.outbox.act_for(Owner::Fetch);
        // An export of many findings is written by the worker as they come,
        // page by page: they are never all held.
        let request = match &fetch.then {
            Then::Export {
                path,
                format,
                columns,
            } if exports_as_it_comes(&fetch.request) => ApiRequest::ExportTo {
                fetch: Box::new(fetch.request.clone()),
                path: path.clone(),
                format: *format,
                columns: columns.clone(),
            },
            _ => fetch.request.clone(),
        };
        let Some(id) = self.outbox.send(request) else {
            return;
        };
        self.status = Some(match fetch.count {
            1 => "fetching the finding… (Esc stops)".to_owned(),
            n => format!("fetching {n} findings… (Esc stops)"),
        });
        self.fetching = Some(Fetching { id, fetch });
    }

    /// Stops the fetch in flight; `false` when there was none.
    pub(super) fn stop_fetch(&mut self) -> bool {
        let Some(old) = self.fetching.take() else {
            return false;
        };
        self.outbox.cancel(Some(old.id));
        if let Then::Export { .. } = old.fetch.then {
            self.exports_running = self.exports_running.saturating_sub(1);
        }
        self.status = Some("fetch stopped".into());
        true
    }

    /// The answer to the fetch in flight.
    pub(super) fn on_fetch_reply(&mut self, id: RequestId, result: ApiResult) {
        let Some(fetching) = self.fetching.take_if(|f| f.id == id) else {
            return;
        };
        let then = fetching.fetch.then;
        if let Then::Export { .. } = then {
            self.exports_running = self.exports_running.saturating_sub(1);
        }
        match result {
            Ok(ApiResponse::Items(items)) => {
                if let Some(one) = &fetching.fetch.one
                    && let Some(issue) = first_issue(&items)
                    && issue.id() == one
                {
                    self.enriched
                        .insert(one.clone(), Enriched::Loaded(Box::new(issue)));
                }
                self.fetched(then, items);
            }
            Ok(ApiResponse::Exported { path, result }) => {
                // Counted done by `exported`, as a file written by the loop.
                self.exports_running += 1;
                exporting::exported(self, path, result);
            }
            Ok(other) => self.fetch_failed(&other.unexpected().to_string()),
            Err(e) => self.fetch_failed(&e.to_string()),
        }
    }

    fn fetch_failed(&mut self, message: &str) {
        self.status = Some(format!("fetching the findings failed: {message}"));
        self.overlay = Some(Overlay::error(
            "Fetching the findings failed",
            message.to_owned(),
        ));
    }

    /// Does `then` with the findings fetched.
    fn fetched(&mut self, then: Then, items: ExportItems) {
        let first = first_issue(&items);
        match then {
            Then::OpenUrl => open_url(&mut self.outbox, first.as_ref()),
            Then::CopyLink => copy_link(&mut self.outbox, first.as_ref()),
            Then::Copy(choice) => exporting::copy_fetched(self, choice, &items),
            Then::Export {
                path,
                format,
                columns,
            } => {
                self.status = Some(format!(
                    "exporting {} finding{} to {} as {}…",
                    items.len(),
                    if items.len() == 1 { "" } else { "s" },
                    findings_base::text::one_line(&path.to_string_lossy()),
                    format.name()
                ));
                self.exports_running += 1;
                self.outbox.effects.push(Effect::Export {
                    path,
                    format,
                    columns,
                    items,
                });
            }
            Then::Act => {
                self.status = None;
                let issues = match items {
                    ExportItems::Issues(items) => {
                        items.into_iter().filter_map(|i| i.issue).collect()
                    }
                    ExportItems::Findings(list) => list,
                };
                self.open_actions_on(issues);
            }
        }
    }
}

fn as_items(issue: Issue, items: bool) -> ExportItems {
    if items {
        ExportItems::Issues(vec![IssueItem {
            issue: Some(issue),
            ..IssueItem::default()
        }])
    } else {
        ExportItems::Findings(vec![issue])
    }
}

fn first_issue(items: &ExportItems) -> Option<Issue> {
    match items {
        ExportItems::Issues(v) => v.first().and_then(|i| i.issue.clone()),
        ExportItems::Findings(v) => v.first().cloned(),
    }
}

/// Exports of more findings than this are written by the worker as the
/// findings come ([`ApiRequest::ExportTo`]); fewer are fetched whole, then
/// written by the loop.
const EXPORTED_WHOLE: usize = 100;

/// Whether an export of what `fetch` gives is written as it comes: a
/// listing, or more than [`EXPORTED_WHOLE`] findings by id.
fn exports_as_it_comes(fetch: &ApiRequest) -> bool {
    match fetch {
        ApiRequest::Relist { .. } => true,
        ApiRequest::GetIssues { ids, .. } => ids.len() > EXPORTED_WHOLE,
        _ => false,
    }
}
