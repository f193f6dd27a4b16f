//! The detail of one finding: tabs, scrolling, and the full copy that the
//! Code, Remediation and Activity tabs need (the single-issue fetch, asked
//! for when such a tab opens, then cached by id).

mod acted;
mod overview_view;
pub mod related;
pub mod relatives;
pub mod view;

use crate::keymap::Action;
use crate::list::findings_list::{copy_link, open_url};
use crate::list::load::Loader;
use crate::message::{
    ApiRequest, ApiResponse, ApiResult, AppEvent, Outbox, PaneMsg, RequestId, Then,
};
use findings_model::*;
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
    Related,
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
            Tab::Related => "Related",
            Tab::SupplyChain => "Supply chain",
            Tab::Secrets => "Secrets",
        }
    }

    /// Tabs whose data comes only with include flags or a single-issue fetch.
    pub fn needs_enriched(self) -> bool {
        matches!(
            self,
            Tab::Code | Tab::Remediation | Tab::Activity | Tab::Related
        )
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
    /// Opened from another finding's Related tab: only the id is known, so
    /// every tab waits for the single-issue fetch.
    pub bare: bool,
    /// The row of the Related tab that `Enter` opens.
    pub related: usize,
    /// How far the content can scroll, as last drawn (the view knows the
    /// wrapped content's length): `k` after `G` moves at once.
    pub max_scroll: Cell<Option<u16>>,
    /// A preview's fetch waits until then (the cursor may move on).
    pub hold_until: Option<Timestamp>,
}

impl DetailView {
    pub fn new(issue: Issue) -> Self {
        let mut tabs = vec![
            Tab::Overview,
            Tab::Code,
            Tab::Remediation,
            Tab::Activity,
            Tab::Related,
        ];
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
            bare: false,
            related: 0,
            max_scroll: Cell::new(None),
            hold_until: None,
        }
    }

    /// Whether the open tab waits for the single-issue fetch.
    pub fn needs_fetch(&self) -> bool {
        self.bare || self.current_tab().needs_enriched()
    }

    /// `Enter` on the Related tab: the selected related finding takes this
    /// one's place (what is in flight for this one is cancelled).
    fn open_related(&mut self, cache: &Cache, outbox: &mut Outbox) {
        let Some(id) = self
            .best_issue(cache)
            .and_then(|i| i.related_issues.get(self.related))
            .and_then(|r| r.id.clone())
            .filter(|id| !id.trim().is_empty())
        else {
            return;
        };
        outbox.cancel(self.close());
        let mut next = DetailView::new(Issue {
            id: Some(id),
            issue_type: self.issue.issue_type.clone(),
            ..Issue::default()
        });
        next.bare = true;
        *self = next;
    }

    fn related_count(&self, cache: &Cache) -> usize {
        self.best_issue(cache).map_or(0, |i| i.related_issues.len())
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
            // Another finding's data is never shown as this one's.
            Ok(ApiResponse::Issue(issue)) if issue.id() != key => Enriched::Failed(format!(
                "the server answered finding {:?} for {:?}; not shown",
                findings_base::text::one_line(issue.id()),
                findings_base::text::one_line(&key)
            )),
            Ok(ApiResponse::Issue(issue)) => Enriched::Loaded(issue),
            Ok(other) => Enriched::Failed(other.unexpected().to_string()),
            Err(e) => {
                outbox.error("Loading the finding failed", &e);
                Enriched::Failed(e.to_string())
            }
        };
        cache.insert(key, entry);
    }

    /// The finding whole, once its fetch came (the list's copy lacks its
    /// link).
    fn whole<'a>(&'a self, cache: &'a Cache) -> Option<&'a Issue> {
        match self.issue.id.as_ref().and_then(|id| cache.get(id)) {
            Some(Enriched::Loaded(issue)) => Some(issue),
            _ => None,
        }
    }

    /// Asks the app to fetch the finding whole for `then` (its own fetch
    /// has not come yet, or failed).
    fn fetch_whole(&self, then: Then, outbox: &mut Outbox) {
        let id = self.issue.id();
        if !id.is_empty() {
            outbox
                .events
                .push(AppEvent::Fetch(Box::new(crate::message::Fetch::one(
                    id, false, then,
                ))));
        }
    }

    /// The richest copy of the finding there is.
    pub fn best_issue<'a>(&'a self, cache: &'a Cache) -> Option<&'a Issue> {
        match self.issue.id.as_ref().and_then(|id| cache.get(id)) {
            Some(Enriched::Loaded(issue)) => Some(issue),
            _ => Some(&self.issue),
        }
    }

    /// Fetches the finding by id (the single-issue fetch, which alone gives
    /// code snippets, the dataflow trace and related findings) unless it is
    /// cached.
    pub fn ensure_data(&mut self, cache: &Cache, outbox: &mut Outbox, now: Timestamp) {
        let Some(id) = self.issue.id.clone() else {
            return;
        };
        // Asked on open whatever the tab: the Overview shows the list's copy
        // at once and the fix PR and other single-issue fields on arrival.
        if self.requested || cache.contains_key(&id) {
            self.hold_until = None;
            return;
        }
        if self.hold_until.is_some_and(|t| now < t) {
            return;
        }
        self.hold_until = None;
        self.requested = true;
        if let Some(rid) = outbox.send(ApiRequest::GetIssue { id }) {
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
        let page = crate::layout::cells(height.max(1));
        if let Some(max) = self.max_scroll.get() {
            self.scroll = self.scroll.min(max);
        }
        if self.current_tab() == Tab::Related {
            let last = self.related_count(cache).saturating_sub(1);
            match action {
                Action::Down => return self.related = (self.related + 1).min(last),
                Action::Up => return self.related = self.related.saturating_sub(1),
                Action::Open => return self.open_related(cache, outbox),
                _ => {}
            }
        }
        match action {
            Action::RelatedRule | Action::RelatedRepo | Action::RelatedCve => {
                if let Some(issue) = self.best_issue(cache) {
                    match relatives::relatives(issue, action) {
                        Ok((selection, what)) => outbox.events.push(AppEvent::ToPane(
                            crate::panes::FINDINGS,
                            PaneMsg::Narrow(Box::new(selection), what),
                        )),
                        Err(e) => outbox.status(e),
                    }
                }
            }
            Action::Refresh => self.refetch(cache),
            Action::OpenInBrowser => match self.whole(cache) {
                Some(issue) => open_url(outbox, Some(issue)),
                None => self.fetch_whole(Then::OpenUrl, outbox),
            },
            Action::Copy => match self.whole(cache) {
                Some(issue) => copy_link(outbox, Some(issue)),
                None => self.fetch_whole(Then::CopyLink, outbox),
            },
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
                self.scroll = self.scroll.saturating_add(page);
            }
            Action::PageUp | Action::HalfPageUp => self.scroll = self.scroll.saturating_sub(page),
            Action::Top => self.scroll = 0,
            // The view clamps to the end of the content.
            Action::Bottom => self.scroll = u16::MAX,
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(id: &str, message: &str) -> Issue {
        Issue {
            id: Some(id.into()),
            message: Some(message.into()),
            issue_type: Some(IssueType::Sast),
            ..Default::default()
        }
    }

    /// A detail on the Code tab that has asked for its finding.
    fn asking(outbox: &mut Outbox) -> (DetailView, RequestId) {
        let mut detail = DetailView::new(finding("a", "from the list"));
        let code = detail.tabs.iter().position(|t| *t == Tab::Code).unwrap();
        detail.tab = code;
        detail.ensure_data(&Cache::new(), outbox, chrono::Utc::now());
        let (id, request) = outbox.requests()[0];
        assert_eq!(request, &ApiRequest::GetIssue { id: "a".into() });
        (detail, id)
    }

    #[test]
    fn the_detail_asks_for_its_finding_once_by_id() {
        let mut outbox = Outbox::default();
        let (mut detail, id) = asking(&mut outbox);
        detail.ensure_data(&Cache::new(), &mut outbox, chrono::Utc::now());
        assert_eq!(outbox.requests().len(), 1, "asked once");
        let mut cache = Cache::new();
        let full = finding("a", "from the single-issue fetch");
        detail.on_reply(
            id,
            Ok(ApiResponse::Issue(Box::new(full))),
            &mut cache,
            &mut outbox,
        );
        assert_eq!(
            detail.best_issue(&cache).unwrap().message.as_deref(),
            Some("from the single-issue fetch")
        );
        assert!(!detail.is_loading());
    }

    #[test]
    fn another_findings_answer_is_never_shown_as_this_ones() {
        let mut outbox = Outbox::default();
        let (mut detail, id) = asking(&mut outbox);
        let mut cache = Cache::new();
        let other = finding("b", "someone else's code");
        detail.on_reply(
            id,
            Ok(ApiResponse::Issue(Box::new(other))),
            &mut cache,
            &mut outbox,
        );
        match cache.get("a") {
            Some(Enriched::Failed(why)) => assert!(why.contains("\"b\""), "{why}"),
            other => panic!("expected a failure, got {other:?}"),
        }
        assert!(!cache.contains_key("b"));
        assert_eq!(
            detail.best_issue(&cache).unwrap().message.as_deref(),
            Some("from the list")
        );
    }

    /// A detail whose finding `a` arrived with two related findings, on
    /// the Related tab.
    fn on_related(outbox: &mut Outbox) -> (DetailView, Cache) {
        let (mut detail, id) = asking(outbox);
        let mut full = finding("a", "full");
        full.related_issues = ["r1", "r2"]
            .iter()
            .map(|id| RelatedIssue {
                id: Some((*id).into()),
                ref_: Some("feature/x".into()),
                ..RelatedIssue::default()
            })
            .collect();
        let mut cache = Cache::new();
        detail.on_reply(
            id,
            Ok(ApiResponse::Issue(Box::new(full))),
            &mut cache,
            outbox,
        );
        detail.tab = detail.tabs.iter().position(|t| *t == Tab::Related).unwrap();
        (detail, cache)
    }

    #[test]
    fn enter_on_related_opens_the_selected_finding_by_its_id() {
        let mut outbox = Outbox::default();
        let (mut detail, mut cache) = on_related(&mut outbox);
        for _ in 0..5 {
            detail.on_action(Action::Down, 10, &mut cache, &mut outbox);
        }
        assert_eq!(detail.related, 1, "the selection stops at the last row");
        detail.on_action(Action::Open, 10, &mut cache, &mut outbox);
        assert_eq!(detail.issue.id.as_deref(), Some("r2"));
        assert!(detail.bare);
        assert_eq!(detail.current_tab(), Tab::Overview);
        // Even the Overview waits for the fetch: the list never had r2.
        detail.ensure_data(&cache, &mut outbox, chrono::Utc::now());
        let asked: Vec<_> = outbox
            .requests()
            .into_iter()
            .map(|(_, r)| r.clone())
            .collect();
        assert_eq!(
            asked.last(),
            Some(&ApiRequest::GetIssue { id: "r2".into() })
        );
        assert!(detail.is_loading());
    }

    #[test]
    fn activity_keeps_type_and_title_apart() {
        let at = |m: i64| chrono::DateTime::from_timestamp(1_790_000_000 + m * 60, 0);
        let mut issue = finding("a", "m");
        issue.activity_history = vec![
            ActivityEvent {
                date: at(0),
                history_type: Some(HistoryType::ReviewCommentSilenced),
                title: Some("Review comment silenced".into()),
                note: Some("Silenced on the pull request.".into()),
                ..Default::default()
            },
            ActivityEvent {
                date: at(1),
                history_type: Some(HistoryType::Status),
                title: Some("Finding opened".into()),
                actor: Some("pnair".into()),
                ..Default::default()
            },
        ];
        let text: Vec<String> = view::activity(&issue, &crate::theme::Theme::no_color(), 80)
            .iter()
            .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
            .collect();
        let time = |m| at(m).unwrap().format("%Y-%m-%d %H:%M").to_string();
        assert_eq!(
            text,
            vec![
                // The title only repeats the type: not shown twice.
                format!("{}  review comment silenced  ", time(0)),
                "                  Silenced on the pull request.".to_owned(),
                format!(
                    "{}  status                   Finding opened  by pnair",
                    time(1)
                ),
            ]
        );
    }

    fn overview_text(issue: &Issue) -> Vec<String> {
        view::tab_lines(Tab::Overview, issue, &crate::theme::Theme::no_color(), 100)
            .iter()
            .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
            .collect()
    }

    #[test]
    fn overview_labels_file_and_rule_path_apart_and_names_people_with_logins() {
        let mut issue = finding("a", "m");
        issue.file_path = Some("src/db.rs".into());
        issue.line = Some(14);
        issue.rule_id = Some("sql".into());
        issue.rule_path = Some("rust.lang.sql".into());
        issue.exception_request = Some(ExceptionRequest {
            requester_name: Some("Elena Guzman".into()),
            requester_login: Some("eguzman".into()),
            reviewer_login: Some("pnair".into()),
            ..Default::default()
        });
        let text = overview_text(&issue);
        let line = |label: &str| {
            text.iter()
                .find(|l| l.starts_with(&format!("{label} ")))
                .unwrap_or_else(|| panic!("{label}: {text:#?}"))
                .split_at(18)
                .1
                .to_owned()
        };
        assert_eq!(line("file"), "src/db.rs:14");
        assert_eq!(line("rule path"), "rust.lang.sql");
        assert!(!text.iter().any(|l| l.starts_with("path ")), "{text:#?}");
        assert_eq!(line("requester"), "Elena Guzman (eguzman)");
        assert_eq!(line("reviewer"), "pnair");
        assert_eq!(overview_view::person(&None, &None), "-");
        assert_eq!(
            overview_view::person(&Some("Elena Guzman".into()), &None),
            "Elena Guzman"
        );
    }

    #[test]
    fn up_and_down_scroll_other_tabs_and_enter_does_nothing_there() {
        let mut outbox = Outbox::default();
        let (mut detail, mut cache) = on_related(&mut outbox);
        detail.tab = 0;
        detail.on_action(Action::Down, 10, &mut cache, &mut outbox);
        assert_eq!((detail.scroll, detail.related), (1, 0));
        detail.on_action(Action::Open, 10, &mut cache, &mut outbox);
        assert_eq!(detail.issue.id.as_deref(), Some("a"));
    }
}
