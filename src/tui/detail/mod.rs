//! The detail of one finding: tabs, scrolling, and the enriched copy that
//! the Code, Remediation and Activity tabs need (fetched when such a tab
//! opens, with every include flag, then cached by id).

pub mod view;

use crate::api::model::*;
use crate::tui::findings_list::{copy_link, open_url};
use crate::tui::keymap::Action;
use crate::tui::load::Loader;
use crate::tui::message::{ApiRequest, ApiResponse, ApiResult, Outbox, RequestId};
use std::cell::Cell;
use std::collections::HashMap;

/// Enriched copies of findings (fetched with every include flag), by id.
#[derive(Debug, Clone)]
pub enum Enriched {
    Loaded(Box<Issue>),
    Failed(String),
}

pub type Cache = HashMap<String, Enriched>;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tab {
    Overview,
    Code,
    Remediation,
    Activity,
    SupplyChain,
    Secrets,
}

impl Tab {
    pub fn title(self) -> &'static str {
        match self {
            Tab::Overview => "Overview",
            Tab::Code => "Code",
            Tab::Remediation => "Remediation",
            Tab::Activity => "Activity",
            Tab::SupplyChain => "Supply chain",
            Tab::Secrets => "Secrets",
        }
    }

    /// Tabs whose data comes only with include flags or a single-issue fetch.
    pub fn needs_enriched(self) -> bool {
        matches!(self, Tab::Code | Tab::Remediation | Tab::Activity)
    }
}

#[derive(Debug, Clone)]
pub struct DetailView {
    /// The finding as the list had it.
    pub issue: Issue,
    pub tabs: Vec<Tab>,
    pub tab: usize,
    pub scroll: u16,
    pub loader: Loader,
    requested: bool,
    /// How far the content can scroll, as last drawn (the view knows the
    /// wrapped content's length): `k` after `G` moves at once.
    pub max_scroll: Cell<Option<u16>>,
}

impl DetailView {
    pub fn new(issue: Issue) -> Self {
        let mut tabs = vec![Tab::Overview, Tab::Code, Tab::Remediation, Tab::Activity];
        match issue.issue_type {
            Some(IssueType::Sca) => tabs.push(Tab::SupplyChain),
            Some(IssueType::Secrets) => tabs.push(Tab::Secrets),
            _ if issue.sca_attributes.is_some() => tabs.push(Tab::SupplyChain),
            _ if issue.secrets_attributes.is_some() => tabs.push(Tab::Secrets),
            _ => {}
        }
        DetailView {
            issue,
            tabs,
            tab: 0,
            scroll: 0,
            loader: Loader::default(),
            requested: false,
            max_scroll: Cell::new(None),
        }
    }

    pub fn current_tab(&self) -> Tab {
        self.tabs.get(self.tab).copied().unwrap_or(Tab::Overview)
    }

    pub fn is_loading(&self) -> bool {
        self.loader.is_loading()
    }

    pub fn pending(&self) -> Option<RequestId> {
        self.loader.pending()
    }

    /// Closing cancels what is in flight.
    pub fn close(&mut self) -> Option<RequestId> {
        self.loader.cancel()
    }

    /// `r`: fetches the finding again.
    pub fn refetch(&mut self, cache: &mut Cache) {
        if let Some(id) = &self.issue.id {
            cache.remove(id);
        }
        self.requested = false;
    }

    /// The answer to this detail's fetch, cached by the finding's id.
    pub fn on_reply(
        &mut self,
        id: RequestId,
        result: ApiResult,
        cache: &mut Cache,
        outbox: &mut Outbox,
    ) {
        if !self.loader.accept(id) {
            return;
        }
        let key = self.issue.id.clone().unwrap_or_default();
        let entry = match result {
            Ok(ApiResponse::ListIssues(page)) => {
                match page.issues.into_iter().find_map(|i| i.issue) {
                    Some(issue) => Enriched::Loaded(Box::new(issue)),
                    None => Enriched::Failed("the server returned no finding with this id".into()),
                }
            }
            Ok(_) => Enriched::Failed("unexpected answer".into()),
            Err(e) => {
                outbox.error("Loading the finding failed", &e);
                Enriched::Failed(e.to_string())
            }
        };
        cache.insert(key, entry);
    }

    /// The richest copy of the finding there is.
    pub fn best_issue<'a>(&'a self, cache: &'a Cache) -> Option<&'a Issue> {
        match self.issue.id.as_ref().and_then(|id| cache.get(id)) {
            Some(Enriched::Loaded(issue)) => Some(issue),
            _ => Some(&self.issue),
        }
    }

    /// Fetches the enriched copy when the open tab needs it and it is not
    /// cached: a List issues request filtered by this id, every flag set.
    pub fn ensure_data(&mut self, cache: &Cache, outbox: &mut Outbox) {
        let Some(id) = self.issue.id.clone() else {
            return;
        };
        if !self.current_tab().needs_enriched() || self.requested || cache.contains_key(&id) {
            return;
        }
        self.requested = true;
        let req = ListIssuesRequest {
            limit: Some(1),
            filter: Some(ListIssuesFilter {
                ids: vec![id],
                ..Default::default()
            }),
            include_remediation: Some(true),
            include_activity_history: Some(true),
            include_is_archived: Some(true),
            include_first_detected_at: Some(true),
            ..Default::default()
        };
        if let Some(rid) = outbox.send(ApiRequest::ListIssues(req)) {
            let old = self.loader.started(rid);
            outbox.cancel(old);
        }
    }

    /// A key on the open detail (`Esc` is the app's: it closes it).
    /// `height` is the rows the content shows.
    pub fn on_action(
        &mut self,
        action: Action,
        height: usize,
        cache: &mut Cache,
        outbox: &mut Outbox,
    ) {
        let page = height.max(1) as u16;
        if let Some(max) = self.max_scroll.get() {
            self.scroll = self.scroll.min(max);
        }
        match action {
            Action::Refresh => self.refetch(cache),
            Action::OpenInBrowser => open_url(outbox, self.best_issue(cache)),
            Action::Copy => copy_link(outbox, self.best_issue(cache)),
            Action::NextTab => {
                self.tab = (self.tab + 1) % self.tabs.len();
                self.scroll = 0;
            }
            Action::PrevTab => {
                self.tab = (self.tab + self.tabs.len() - 1) % self.tabs.len();
                self.scroll = 0;
            }
            Action::Down => self.scroll = self.scroll.saturating_add(1),
            Action::Up => self.scroll = self.scroll.saturating_sub(1),
            Action::PageDown | Action::HalfPageDown => {
                self.scroll = self.scroll.saturating_add(page)
            }
            Action::PageUp | Action::HalfPageUp => self.scroll = self.scroll.saturating_sub(page),
            Action::Top => self.scroll = 0,
            // The view clamps to the end of the content.
            Action::Bottom => self.scroll = u16::MAX,
            _ => {}
        }
    }
}
