//! The TUI's vocabulary: what happens to the app ([`Msg`]), what it asks of
//! the world ([`Effect`]), what a pane asks of the app ([`AppEvent`]), the
//! requests to the API worker and their answers, and the [`Outbox`] that
//! collects them and remembers who sent each request.
//!
//! A leaf: it imports the API model and nothing of the rest of the TUI
//! (the packed rows the worker answers with are part of it, `rows.rs`), so
//! every other module may import it without a circle.

pub mod answer;
mod listed;
pub mod open_age;
mod outbox;
pub mod question;
mod read_only;
pub mod rows;
pub mod search;
pub mod since;
mod texts;

pub use answer::{Answer, answer};
pub use outbox::Outbox;
pub use question::{Asker, Question};
pub use read_only::{READ_ONLY_FLAG, READ_ONLY_OFFLINE};

/// The dashboard's reports, as requests and answers name them.
pub use findings_model::{DashboardAnswer, DashboardReport};

use crossterm::event::{KeyEvent, MouseEvent};
use findings_base::handoff::{ClipboardText, SafeUrl};
use findings_client::ApiError;
use findings_config::{SavedAt, SavedView};
use findings_export::{Chosen, Format, Record, Writer};
use findings_model::*;
use rows::RowPage;
use std::collections::HashMap;

pub type RequestId = u64;

/// The most findings a triage by filter lists (following pages).
pub const MAX_COUNTED: usize = 100_000;

/// A row's, text's or name's number: u32 throughout a list's index. A
/// list of 2^32 findings would take terabytes, so it never saturates in
/// practice (and would saturate, never wrap onto another's number).
pub fn row_number(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The most findings fetched again by id after a write (one page); above,
/// the lists load again.
pub const REFETCHED: usize = 1_000;

/// A pane's name: how the registry, the config file (`default_pane`),
/// commands and replies refer to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PaneId(pub &'static str);

impl std::fmt::Display for PaneId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

/// Which of its requests a reply answers: one of the slots its pane
/// declares (an enum of its own, see [`ReplySlot`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Slot(u8);

/// A pane's reply slots: an enum of the kinds of request the pane sends
/// (its list, its groups, the filter values, ...). The pane files each
/// request under one ([`Outbox::in_slot`]) and handles its replies with one
/// match over them.
pub trait ReplySlot: Copy + PartialEq + std::fmt::Debug + 'static {
    /// Every slot; the first is where a request the pane does not file goes.
    const ALL: &'static [Self];

    fn slot(self) -> Slot {
        let at = Self::ALL.iter().position(|s| *s == self).unwrap_or(0);
        // A pane has a handful of slots, far below 256; saturating else.
        Slot(u8::try_from(at).unwrap_or(u8::MAX))
    }

    /// The pane's slot a reply comes back in. (A slot is only ever made
    /// from the pane's own enum, so every one it gets back is one of them.)
    fn of(slot: Slot) -> Self {
        Self::ALL
            .get(slot.0 as usize)
            .copied()
            .unwrap_or(Self::ALL[0])
    }
}

/// Who sent a request: its reply goes straight back there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Owner {
    /// A pane, and the slot of its that the request fills.
    Pane(PaneId, Slot),
    /// The finding detail (over or beside any list).
    Detail,
    /// The triage flow (its writes, counts and reloads).
    Triage,
    /// Findings fetched whole for a link, a copy or an export.
    Fetch,
    /// The actions on findings (tickets, fixes, feedback, memories).
    Actions,
    App,
}

/// A request to the API, as panes ask for it. (Not boxed: requests are few.)
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum ApiRequest {
    ListIssues(ListIssuesRequest),
    /// One finding by id (`IssuesService_GetIssue`), for the detail.
    GetIssue {
        id: String,
    },
    /// List issues, answered as list rows (packed by the worker, off the UI
    /// thread).
    ListRows(ListIssuesRequest),
    /// Every page from the request's cursor on, each answered as list rows
    /// ([`ApiResponse::RowsSoFar`], the last as [`ApiResponse::Rows`]) as
    /// it arrives, the next page asked for while this one is packed.
    StreamRows(ListIssuesRequest),
    /// Findings whole, by id, in this order (the single-issue fetch of
    /// each): what a list row does not keep, for an export or a link.
    /// `items`: as List issues items (else as report findings).
    GetIssues {
        ids: Vec<String>,
        items: bool,
    },
    /// The findings a listing gives again, whole: the first `max` of them,
    /// or only those of `keep` (ids) when given.
    Relist {
        request: ListIssuesRequest,
        keep: Option<std::sync::Arc<std::collections::HashSet<String>>>,
        max: usize,
    },
    /// The findings of `fetch` ([`ApiRequest::Relist`] or
    /// [`ApiRequest::GetIssues`]) written to a new file at `path` page by
    /// page as they come, none kept: answered with
    /// [`ApiResponse::Exported`].
    ExportTo {
        fetch: Box<ApiRequest>,
        path: std::path::PathBuf,
        format: Format,
        columns: Chosen,
    },
    Report(ReportRequest),
    Search(SearchIssuesRequest),
    UpdateScm {
        config_id: String,
        patch: ScmConfigPatch,
    },
    /// Every SCM config (the worker follows the cursors).
    ListScmConfigs(ListScmConfigsRequest),
    /// The findings a List issues request matches, each as a triage
    /// target (id, state, permission), every page followed, up to
    /// [`MAX_COUNTED`].
    MatchingTargets(ListIssuesRequest),
    /// These findings as they are now, each as a triage target (note and
    /// latest activity included), archived projects' too.
    TargetsById(Vec<String>),
    /// These findings' list items as they are now, archived projects'
    /// too, answered as a listing: a list's rows after a write.
    Refetch(Vec<String>),
    /// One page of findings grouped by rule (`IssuesService_ListIssueGroups`).
    ListGroups(ListIssueGroupsRequest),
    /// Triage the findings a filter matches (`IssuesService_BulkUpdateIssues`).
    TriageFindings(UpdateFindingsRequest),
    /// Triage one agentic-workflow issue (`PublicIssuesService_TriageIssue`).
    TriageAgentic {
        issue_id: String,
        request: TriageIssueRequest,
    },
    /// The values the filters can take (`IssuesService_GetIssueFilters`).
    IssueFilters(IssueFiltersRequest),
    /// How many findings a filter matches by state, and in archived
    /// projects (`IssuesService_GetIssueCounts`).
    IssueCounts(GetIssueCountsRequest),
    /// One of the dashboard's reports (`ReportsService_Get*Report`).
    Dashboard(DashboardReport, GetReportRequest),
    /// The findings the filters match that were opened in their period,
    /// all and still open, counted by rule and repository as the pages of
    /// Report findings pass ([`findings_client::opened_in_period`]).
    Opened(ReportFilters),
    /// The advisory and package of each of these supply-chain rules, as
    /// one of its findings names it ([`findings_client::advisory_labels`]).
    RuleLabels(Vec<String>),
    /// How many agentic-workflow issues the filters match
    /// (`PublicIssuesService_CountIssues`).
    CountAgentic(Option<SearchFilters>),
    /// One action on findings, sent once as its review shows it
    /// (`Client::act`).
    Act(ActionRequest),
    /// What the token may do (`DeploymentService_GetDeploymentAuthorizedActions`).
    AuthorizedActions,
    /// The ticketing instances (`ExternalTicketingService_GetTicketingInstances`).
    TicketingInstances,
    /// The findings a memory's rule would bring in
    /// (`MemoriesService_FindRelevantIssues`).
    RelevantIssues(FindRelevantIssuesRequest),
    /// Every finding a listing matches now, compared with the last
    /// visit's snapshot in `files` and kept beside it for the next one.
    /// How many open findings `request` matches are past their target,
    /// by severity, their ages counted to `now`.
    OverTarget {
        request: ListIssuesRequest,
        targets: findings_config::SlaDays,
        now: Timestamp,
    },
    /// `now`: the app's time, this visit's.
    SinceLastVisit {
        request: ListIssuesRequest,
        files: findings_snapshot::BaselineFiles,
        now: Timestamp,
    },
}

impl ApiRequest {
    /// Whether the request changes the team's data (refused under
    /// `--read-only`, never retried).
    pub fn is_write(&self) -> bool {
        matches!(
            self,
            ApiRequest::UpdateScm { .. }
                | ApiRequest::TriageFindings(_)
                | ApiRequest::TriageAgentic { .. }
                | ApiRequest::Act(_)
        )
    }

    /// What a write does, as the read-only refusal names it.
    pub fn write_name(&self) -> &'static str {
        match self {
            ApiRequest::UpdateScm { .. } => "the SCM config update",
            ApiRequest::TriageFindings(_) | ApiRequest::TriageAgentic { .. } => "the triage",
            ApiRequest::Act(r) => r.action().write_name(),
            _ => "the request",
        }
    }
}

/// The answer to an [`ApiRequest`].
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub enum ApiResponse {
    ListIssues(ListIssuesResponse),
    Issue(Box<Issue>),
    Rows(RowPage),
    /// A page of a [`ApiRequest::StreamRows`]: more follow under the same
    /// request id.
    RowsSoFar(RowPage),
    /// Findings fetched whole ([`ApiRequest::GetIssues`],
    /// [`ApiRequest::Relist`]).
    Items(ExportItems),
    /// How an [`ApiRequest::ExportTo`] went: the file's path, and the
    /// findings written or why the file was not (a failed fetch is the
    /// request's error).
    Exported {
        path: String,
        result: Result<usize, String>,
    },
    Report(ReportResponse),
    Search(SearchIssuesResponse),
    Scm(ScmConfigResponse),
    ScmConfigs(Vec<ScmConfig>),
    /// The findings a request matches, as triage targets, and whether
    /// that is all of them (else the first [`MAX_COUNTED`]).
    Targets(Vec<findings_requests::triage::Target>, bool),
    Groups(ListIssueGroupsResponse),
    Triaged(UpdateFindingsResponse),
    AgenticTriaged(TriageIssueResponse),
    IssueFilters(IssueFiltersResponse),
    IssueCounts(GetIssueCountsResponse),
    Dashboard(DashboardAnswer),
    Opened(Box<OpenedInPeriod>),
    /// Rule ids and their labels (advisory and package).
    RuleLabels(Vec<(String, String)>),
    AgenticCount(CountIssuesResponse),
    Acted(ActionAnswer),
    Authorized(GetDeploymentAuthorizedActionsResponse),
    Instances(GetTicketingInstancesResponse),
    Relevant(FindRelevantIssuesResponse),
    Since(Box<since::SinceReport>),
    OverTarget(open_age::OverTargetCounts),
}

impl ApiResponse {
    /// The answer's kind, as an error names it.
    pub fn kind(&self) -> &'static str {
        match self {
            ApiResponse::ListIssues(_) => "list issues",
            ApiResponse::Issue(_) => "issue",
            ApiResponse::Rows(_) => "list rows",
            ApiResponse::RowsSoFar(_) => "list rows",
            ApiResponse::Items(_) => "findings",
            ApiResponse::Exported { .. } => "export",
            ApiResponse::Report(_) => "report",
            ApiResponse::Search(_) => "search",
            ApiResponse::Scm(_) => "SCM config",
            ApiResponse::ScmConfigs(_) => "SCM configs",
            ApiResponse::Targets(..) => "triage targets",
            ApiResponse::Groups(_) => "groups",
            ApiResponse::Triaged(_) => "triage",
            ApiResponse::AgenticTriaged(_) => "agentic triage",
            ApiResponse::IssueFilters(_) => "issue filters",
            ApiResponse::IssueCounts(_) => "issue counts",
            ApiResponse::Dashboard(_) => "dashboard report",
            ApiResponse::Opened(_) => "findings opened in the period",
            ApiResponse::RuleLabels(_) => "rule names",
            ApiResponse::AgenticCount(_) => "agentic count",
            ApiResponse::Acted(_) => "action",
            ApiResponse::Authorized(_) => "authorized actions",
            ApiResponse::Instances(_) => "ticketing instances",
            ApiResponse::Relevant(_) => "relevant issues",
            ApiResponse::Since(_) => "changes since the last visit",
            ApiResponse::OverTarget(_) => "open findings past their target",
        }
    }

    /// An answer of a kind the slot it came back in does not take (a bug
    /// of this app): said as the error of what waited for it, never
    /// dropped unseen.
    pub fn unexpected(&self) -> ApiError {
        another_kind(self.kind())
    }
}

/// The error of an answer of another kind (`kind`) than was asked for.
pub fn another_kind(kind: &str) -> ApiError {
    ApiError::Decode {
        path: "(reply)".into(),
        message: format!("an answer of another kind ({kind}) came back"),
    }
}

pub type ApiResult = Result<ApiResponse, ApiError>;

#[derive(Debug, Clone)]
pub struct Reply {
    pub id: RequestId,
    pub result: ApiResult,
}

/// Everything that can happen to the app. (Variant sizes differ; messages
/// are few and short-lived, so they are not boxed.)
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub enum Msg {
    Key(KeyEvent),
    Mouse(MouseEvent),
    Resize(u16, u16),
    Reply(Reply),
    /// The spinner's beat (sent only while something loads).
    Tick,
    /// A slice of the work panes do between input events (a `/` search
    /// through millions of rows): sent while some is left, input first.
    Work,
    /// How an [`Effect::Export`] went: the file's path, and the number of
    /// findings written or why nothing was.
    Exported {
        path: String,
        result: Result<usize, String>,
    },
    /// How an [`Effect::OpenUrl`] went: the URL, and why it did not open.
    Opened {
        url: String,
        result: Result<(), String>,
    },
    /// How an [`Effect::SaveView`] went: the pane that asked, the view,
    /// and where it was saved or why it was not.
    SavedView {
        pane: PaneId,
        view: SavedView,
        result: Result<SavedAt, String>,
    },
}

/// What `update` asks the outside world to do.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    Send {
        id: RequestId,
        request: ApiRequest,
    },
    Cancel(RequestId),
    /// Open a link in the browser: a [`SafeUrl`], so only a checked and
    /// cleaned http(s) link can be launched.
    OpenUrl(SafeUrl),
    /// Copy text to the clipboard (OSC 52): a [`ClipboardText`], so only
    /// cleaned text can be pasted elsewhere.
    Copy(ClipboardText),
    Suspend,
    Quit,
    /// Write `items` to a new file at `path` (never over an existing one)
    /// and answer with [`Msg::Exported`].
    Export {
        path: std::path::PathBuf,
        format: Format,
        /// The columns of csv, table and markdown.
        columns: Chosen,
        items: ExportItems,
    },
    /// Save a view of pane `pane` into the config file (under the profile
    /// when there is one) and answer with [`Msg::SavedView`].
    SaveView {
        pane: PaneId,
        path: std::path::PathBuf,
        profile: Option<String>,
        view: SavedView,
    },
}

/// Things a pane asks of the app (handled right after the pane's update).
#[derive(Debug, Clone)]
pub enum AppEvent {
    OpenDetail(Box<Issue>),
    /// Fetch findings whole, then do `then` with them: a row keeps only
    /// what its table shows.
    Fetch(Box<Fetch>),
    Error {
        title: String,
        message: String,
    },
    Status(String),
    /// A yes/no question for the user, in a popup; its asker hears the
    /// answer.
    Ask(Box<Question>),
    /// A message for one pane, by its id (the app shows the pane first
    /// when the message asks to be seen).
    ToPane(PaneId, PaneMsg),
    /// Findings or issues changed on the server (a triage): every pane and
    /// the detail take the fresh copies or load again.
    Changed(Changed),
}

/// Findings to fetch whole and what to do with them once they come.
#[derive(Debug, Clone, PartialEq)]
pub struct Fetch {
    pub request: ApiRequest,
    /// The finding's id when the request is for one (a finding the detail
    /// fetched already is not fetched again).
    pub one: Option<String>,
    /// As List issues items (else as report findings).
    pub items: bool,
    /// How many findings, as the status line says while they load.
    pub count: usize,
    pub then: Then,
}

impl Fetch {
    /// The selected finding `id`, for `then`.
    pub fn one(id: &str, items: bool, then: Then) -> Fetch {
        Fetch {
            request: ApiRequest::GetIssues {
                ids: vec![id.to_owned()],
                items,
            },
            one: Some(id.to_owned()),
            items,
            count: 1,
            then,
        }
    }
}

/// What is done with findings fetched whole.
#[derive(Debug, Clone, PartialEq)]
pub enum Then {
    /// `o`: open the finding's line of code.
    OpenUrl,
    /// `y` on a list: copy its link, else its id.
    CopyLink,
    /// A choice of the copy menu (see `COPY_CHOICES`).
    Copy(usize),
    /// Write them to a new file.
    Export {
        path: std::path::PathBuf,
        format: Format,
        /// The columns of csv, table and markdown.
        columns: Chosen,
    },
    /// `A`: open the Act menu on them (it checks their type, verdict and
    /// ticket, which a row does not keep, before anything is sent).
    Act,
}

/// What the app hands one pane, addressed by its id.
#[derive(Debug, Clone)]
pub enum PaneMsg {
    /// Show the list narrowed to this selection (a finding's relatives),
    /// named as the second; `Esc` there restores the list.
    Narrow(Box<ListSelection>, String),
    /// How saving a view the pane asked for went: where it was saved or
    /// why it was not.
    ViewSaved {
        view: SavedView,
        result: Result<SavedAt, String>,
    },
    /// The answer to the question the pane asked (`true`: yes).
    Answered(bool),
}

impl PaneMsg {
    /// Whether the pane is shown for it (a narrowed list is to be seen).
    pub fn shows_pane(&self) -> bool {
        matches!(self, PaneMsg::Narrow(..))
    }
}

/// What a triage changed, as the lists take it.
#[derive(Debug, Clone)]
pub enum Changed {
    /// Fresh copies of the findings it touched (rows change in place).
    Findings(Vec<IssueItem>),
    /// Findings changed that are not known one by one (a triage by filter,
    /// or an outcome unknown): load the lists again.
    FindingsReload,
    /// Counts over findings changed (report totals).
    Totals,
    /// The agentic-workflow issue as it is now.
    Agentic(Box<AgenticIssue>),
    /// Agentic issues changed unknown how: search again.
    AgenticReload,
    /// A triage of these findings was applied: the marks it used are
    /// spent (cleared), so the next `T` is not for them again.
    MarksSpent(Vec<String>),
}

/// The rows an export writes, as the pane holds them: List issues items
/// (the wrapper objects, as `findings issues` writes them) or report
/// findings.
#[derive(Debug, Clone, PartialEq)]
pub enum ExportItems {
    Issues(Vec<IssueItem>),
    Findings(Vec<Issue>),
}

impl ExportItems {
    pub fn len(&self) -> usize {
        match self {
            ExportItems::Issues(v) => v.len(),
            ExportItems::Findings(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The items written in `format` into `out`.
    pub fn write_to<W: std::io::Write>(
        &self,
        out: W,
        format: Format,
        width: usize,
    ) -> std::io::Result<(W, usize)> {
        fn all<T: Record, W: std::io::Write>(
            items: &[T],
            out: W,
            format: Format,
            width: usize,
        ) -> std::io::Result<(W, usize)> {
            let mut w = Writer::new::<T>(out, format, width);
            for item in items {
                w.item(item)?;
            }
            let n = w.count();
            Ok((w.finish()?, n))
        }
        match self {
            ExportItems::Issues(v) => all(v, out, format, width),
            ExportItems::Findings(v) => all(v, out, format, width),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, Copy, PartialEq)]
    enum TwoSlots {
        List,
        Counts,
    }

    impl ReplySlot for TwoSlots {
        const ALL: &'static [TwoSlots] = &[TwoSlots::List, TwoSlots::Counts];
    }

    #[test]
    fn a_reply_goes_to_the_owner_of_its_request_once_in_its_slot() {
        let mut outbox = Outbox::default();
        let issues = Owner::Pane(PaneId("issues"), Slot::default());
        outbox.act_for(issues);
        let a = outbox.send(ApiRequest::Search(Default::default())).unwrap();
        let c = outbox.in_slot(TwoSlots::Counts, |o| {
            o.send(ApiRequest::Search(Default::default())).unwrap()
        });
        // The slot lasts for what was sent in it.
        let d = outbox.send(ApiRequest::Search(Default::default())).unwrap();
        outbox.act_for(Owner::Detail);
        let b = outbox.send(ApiRequest::Search(Default::default())).unwrap();
        assert_eq!(outbox.owner_of(b), Some(Owner::Detail));
        assert_eq!(outbox.owner_of(a), Some(issues));
        assert_eq!(outbox.owner_of(a), None, "a reply is delivered once");
        let Some(Owner::Pane(_, slot)) = outbox.owner_of(c) else {
            panic!("the pane's")
        };
        assert_eq!(TwoSlots::of(slot), TwoSlots::Counts);
        let Some(Owner::Pane(_, slot)) = outbox.owner_of(d) else {
            panic!("the pane's")
        };
        assert_eq!(TwoSlots::of(slot), TwoSlots::List);
    }

    #[test]
    fn a_cancelled_request_has_no_owner_left() {
        let mut outbox = Outbox::default();
        let id = outbox.send(ApiRequest::Search(Default::default()));
        outbox.cancel(id);
        assert_eq!(outbox.owner_of(id.unwrap()), None);
    }

    #[test]
    fn read_only_refuses_writes_where_they_are_made() {
        let mut outbox = Outbox::new(true);
        let write = ApiRequest::UpdateScm {
            config_id: "1".into(),
            patch: Default::default(),
        };
        assert_eq!(outbox.send(write), None);
        let triage = ApiRequest::TriageFindings(Default::default());
        assert_eq!(outbox.send(triage), None);
        assert!(outbox.requests().is_empty());
        assert!(
            matches!(&outbox.events[1], AppEvent::Error { message, .. } if message.contains("the triage is not sent"))
        );
        assert!(
            outbox
                .send(ApiRequest::Search(Default::default()))
                .is_some()
        );
    }
}
