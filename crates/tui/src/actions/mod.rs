//! Acting on findings (`A`): a menu of tickets, links, fix pull requests,
//! AI verdict feedback and memories over the marked or selected findings
//! (or the detail's), each unavailable entry greyed with its reason.
//!
//! Every one is a write under triage's rules: the exact request is
//! reviewed (method, path, body: [`ActionRequest::review`]) and only `y`
//! sends it; it is sent once, never retried, one at a time; the form
//! stays with its findings until its request is answered; after a
//! timeout the outcome is said to be unknown and the touched findings are
//! fetched again; `--read-only` refuses in the outbox, where it is sent.

pub mod content;
mod form;
pub mod menu;
mod outcome;
mod view;

pub use form::Form;
pub use view::draw;

use crate::message::answer::Matching;
use crate::message::{
    ApiRequest, ApiResponse, ApiResult, AppEvent, Changed, Effect, Outbox, PaneId, RequestId,
    answer,
};
use crossterm::event::{KeyCode, KeyEvent};
use findings_base::handoff::SafeUrl;
use findings_base::text::capitalised;
use findings_client::ApiError;
use findings_model::*;
use menu::Choice;

/// The name its remembered state is kept under per profile
/// (`actions.json` in the state folder, beside the panes').
pub const REMEMBERED_AS: PaneId = PaneId("actions");

/// What the flow keeps for the next run under the profile.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Kept {
    /// The ticketing instance chosen last.
    pub instance: Option<i64>,
}

/// Where the flow is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Hidden,
    Menu,
    Form,
    Review,
    Sending,
    /// The answer, per finding, or why it failed.
    Result,
}

/// Something asked of the server once: not yet, on its way, had, or
/// failed (and why).
#[derive(Debug, Clone, PartialEq)]
pub enum Known<T> {
    NotAsked,
    Asking(RequestId),
    Have(T),
    Failed(String),
}

#[derive(Debug, Clone)]
pub struct Actions {
    pub step: Step,
    /// The findings acted on (the marked, the selected, the detail's).
    pub issues: Vec<Issue>,
    /// The list's server-side filter, for tickets by filter.
    pub filter: Option<ListSelection>,
    pub cursor: usize,
    /// The form being filled (kept with its findings after a failure).
    pub form: Option<Form>,
    /// The request the open review shows and `y` sends.
    pub reviewed: Option<ActionRequest>,
    /// Why the form cannot be reviewed yet.
    pub problem: Option<String>,
    sending: Option<(RequestId, ActionRequest)>,
    refresh: Option<RequestId>,
    pub authorized: Known<GetDeploymentAuthorizedActionsResponse>,
    pub instances: Known<GetTicketingInstancesResponse>,
    pub relevant: Known<FindRelevantIssuesResponse>,
    /// The findings the list's filter matches, listed before a review of
    /// tickets by filter: the request names exactly them, never the filter.
    pub counted: Known<Vec<String>>,
    /// The instance chosen for tickets (remembered per profile).
    pub instance: Option<i64>,
    /// The one remembered from the last run.
    kept: Kept,
    /// The result popup's title and lines.
    pub result: (String, Vec<String>),
    pub scroll: u16,
    /// The review shows every id of a long list (Enter), not its count.
    pub ids_expanded: bool,
    /// Where the review's or result's end is (the app sets it).
    pub bound: crate::triage::ScrollBound,
    pub read_only: bool,
    /// Why, as the menu says it (the outbox's reason).
    pub read_only_why: &'static str,
    pub deployment: String,
}

impl Actions {
    pub fn new(deployment: &str, read_only: bool, kept: Option<Kept>) -> Actions {
        let kept = kept.unwrap_or_default();
        Actions {
            step: Step::Hidden,
            issues: Vec::new(),
            filter: None,
            cursor: 0,
            form: None,
            reviewed: None,
            problem: None,
            sending: None,
            refresh: None,
            authorized: Known::NotAsked,
            instances: Known::NotAsked,
            relevant: Known::NotAsked,
            counted: Known::NotAsked,
            instance: kept.instance,
            kept,
            result: (String::new(), Vec::new()),
            scroll: 0,
            ids_expanded: false,
            bound: Default::default(),
            read_only,
            read_only_why: crate::message::READ_ONLY_FLAG,
            deployment: deployment.to_owned(),
        }
    }

    /// What to keep for the next run, when it changed this run.
    pub fn remember(&self) -> Option<serde_json::Value> {
        let now = Kept {
            instance: self.instance,
        };
        (now != self.kept)
            .then(|| findings_base::json::to_value(&now).ok())
            .flatten()
    }

    pub fn is_open(&self) -> bool {
        self.step != Step::Hidden
    }

    pub fn in_flight(&self) -> bool {
        self.sending.is_some()
    }

    pub fn is_loading(&self) -> bool {
        self.in_flight()
            || self.refresh.is_some()
            || matches!(self.authorized, Known::Asking(_))
            || matches!(self.instances, Known::Asking(_))
            || matches!(self.relevant, Known::Asking(_))
            || matches!(self.counted, Known::Asking(_))
    }

    /// What quitting would lose.
    pub fn unsent_work(&self) -> Vec<String> {
        match &self.sending {
            Some((_, request)) => vec![format!(
                "{} in flight (its answer would not be seen)",
                request.action().write_name()
            )],
            None => Vec::new(),
        }
    }

    fn ids_of(issues: &[Issue]) -> Vec<&str> {
        issues.iter().map(|i| i.id()).collect()
    }

    /// `A` on `issues` (and the list's `filter`): the menu, or the form
    /// kept for the same findings. Permissions and instances are asked
    /// once.
    pub fn open(&mut self, issues: Vec<Issue>, filter: Option<ListSelection>, outbox: &mut Outbox) {
        if self.in_flight() {
            self.step = Step::Sending;
            return outbox.status("an action is in flight: one at a time");
        }
        let same = Self::ids_of(&issues) == Self::ids_of(&self.issues);
        self.issues = issues;
        self.read_only = outbox.read_only;
        self.read_only_why = outbox.why_read_only();
        let filter = filter.filter(|f| !crate::list::filters_shown::summary(f).is_empty());
        if filter != self.filter {
            // Another filter: its findings are listed anew.
            self.counted = Known::NotAsked;
        }
        self.filter = filter;
        self.scroll = 0;
        self.problem = None;
        if same && self.form.is_some() {
            self.step = Step::Form;
        } else {
            self.form = None;
            self.step = Step::Menu;
            self.cursor = 0;
        }
        if matches!(self.authorized, Known::NotAsked | Known::Failed(_)) {
            self.authorized = asked(outbox.send(ApiRequest::AuthorizedActions));
        }
        if matches!(self.instances, Known::NotAsked | Known::Failed(_)) {
            self.instances = asked(outbox.send(ApiRequest::TicketingInstances));
        }
    }

    /// A key while the flow has the keys.
    pub fn on_key(&mut self, key: KeyEvent, outbox: &mut Outbox) {
        match self.step {
            Step::Hidden => {}
            Step::Menu => self.menu_key(key, outbox),
            Step::Form => self.form_key(key, outbox),
            Step::Review => match key.code {
                KeyCode::Char('y') => self.send(outbox),
                KeyCode::Enter => self.ids_expanded = !self.ids_expanded,
                KeyCode::Esc | KeyCode::Char('n') => self.step = Step::Form,
                _ => self.scroll = crate::triage::scrolled(self.scroll, key, self.bound),
            },
            // The request goes on; the overlay may go.
            Step::Sending => {
                if matches!(key.code, KeyCode::Esc | KeyCode::Enter) {
                    self.step = Step::Hidden;
                    outbox.status("the action is still in flight: its answer shows when it comes");
                }
            }
            Step::Result => match key.code {
                KeyCode::Esc | KeyCode::Enter | KeyCode::Char('q') => self.step = Step::Hidden,
                _ => self.scroll = crate::triage::scrolled(self.scroll, key, self.bound),
            },
        }
    }

    fn menu_key(&mut self, key: KeyEvent, outbox: &mut Outbox) {
        let entries = self.entries();
        match key.code {
            KeyCode::Esc | KeyCode::Char('q') => self.step = Step::Hidden,
            KeyCode::Char('j') | KeyCode::Down => {
                self.cursor = (self.cursor + 1).min(entries.len().saturating_sub(1));
            }
            KeyCode::Char('k') | KeyCode::Up => self.cursor = self.cursor.saturating_sub(1),
            KeyCode::Enter => {
                if let Some(entry) = entries.get(self.cursor) {
                    self.choose(entry.choice, outbox);
                }
            }
            KeyCode::Char(c) => {
                if let Some(i) = entries.iter().position(|e| e.choice.key() == c) {
                    self.cursor = i;
                    self.choose(entries[i].choice, outbox);
                }
            }
            _ => {}
        }
    }

    /// Takes `choice`: opens its form, or its link; an unavailable one
    /// says why and stays in the menu.
    fn choose(&mut self, choice: Choice, outbox: &mut Outbox) {
        if let Some(why) = self.refusal(choice) {
            return outbox.status(format!("not available: {why}"));
        }
        match choice {
            Choice::OpenTicket => {
                let url = self.issues.first().and_then(|i| i.ticket_url());
                return open_link(url, "ticket", outbox, &mut self.step);
            }
            Choice::OpenPr => {
                let url = self.issues.first().and_then(|i| i.fix_pr_url());
                return open_link(url, "pull request", outbox, &mut self.step);
            }
            _ => {}
        }
        if choice == Choice::TicketsByFilter {
            // Listed when the review opens: what the filter matches now.
            self.counted = Known::NotAsked;
        }
        self.form = Form::of(choice);
        // A memory starts from the finding's triage note (the decision's
        // why), to be edited.
        if let (Some(Form::Remember { note, .. }), Some(issue)) =
            (&mut self.form, self.issues.first())
        {
            *note = issue.note.clone().unwrap_or_default();
        }
        self.problem = None;
        self.step = Step::Form;
        if choice == Choice::Remember {
            self.ask_relevant(false, outbox);
        }
    }

    /// The findings the service names relevant to the memory's scope.
    fn ask_relevant(&mut self, everywhere: bool, outbox: &mut Outbox) {
        if let Known::Asking(id) = self.relevant {
            outbox.cancel(Some(id));
        }
        let Some((filter, _)) = self.memory_filter(everywhere) else {
            self.relevant = Known::NotAsked;
            return;
        };
        let repository_id = self
            .issues
            .first()
            .and_then(|i| i.repository.as_ref()?.id.clone())
            .filter(|_| !everywhere);
        let request = FindRelevantIssuesRequest {
            deployment_id: None,
            rule_id: filter.rule_ids.first().cloned(),
            repository_id,
        };
        self.relevant = asked(outbox.send(ApiRequest::RelevantIssues(request)));
    }

    fn form_key(&mut self, key: KeyEvent, outbox: &mut Outbox) {
        let Some(form) = &mut self.form else {
            self.step = Step::Menu;
            return;
        };
        match key.code {
            KeyCode::Esc => {
                self.form = None;
                self.step = Step::Menu;
            }
            KeyCode::Enter => self.review(outbox),
            KeyCode::Up | KeyCode::Char('k') if matches!(form, Form::Tickets { .. }) => {
                self.choose_instance(-1);
            }
            KeyCode::Down | KeyCode::Char('j') if matches!(form, Form::Tickets { .. }) => {
                self.choose_instance(1);
            }
            _ => {
                if form.on_key(key)
                    && let Form::Remember { everywhere, .. } = form
                {
                    let everywhere = *everywhere;
                    self.ask_relevant(everywhere, outbox);
                }
            }
        }
    }

    /// Opens the review of the form's request, or says what is missing.
    /// Tickets by filter list the filter's findings first.
    fn review(&mut self, outbox: &mut Outbox) {
        let Some(form) = &self.form else { return };
        if matches!(
            form,
            Form::Tickets {
                by_filter: true,
                ..
            }
        ) && matches!(self.counted, Known::NotAsked | Known::Failed(_))
            && let Some(selection) = &self.filter
        {
            let request = ListIssuesRequest {
                filter: Some(selection.filter.clone()),
                issue_types: selection.issue_types.clone(),
                ..Default::default()
            };
            self.counted = asked(outbox.send(ApiRequest::MatchingTargets(request)));
        }
        match self.request(form) {
            Ok(request) => {
                self.reviewed = Some(request);
                self.problem = None;
                self.step = Step::Review;
                self.ids_expanded = false;
                self.scroll = 0;
            }
            Err(why) => self.problem = Some(why),
        }
    }

    /// `y`: sends the reviewed request, once.
    fn send(&mut self, outbox: &mut Outbox) {
        let Some(request) = self.reviewed.clone() else {
            return;
        };
        match outbox.send(ApiRequest::Act(request.clone())) {
            Some(id) => {
                self.sending = Some((id, request));
                self.step = Step::Sending;
            }
            // Refused (read-only): the outbox said why.
            None => self.step = Step::Form,
        }
    }

    /// The answer to a request of the flow. `true` if it was one.
    pub fn on_reply(&mut self, id: RequestId, result: ApiResult, outbox: &mut Outbox) -> bool {
        if self.refresh == Some(id) {
            self.refresh = None;
            match answer::<ListIssuesResponse>(result) {
                Ok(page) => outbox
                    .events
                    .push(AppEvent::Changed(Changed::Findings(page.issues))),
                Err(e) => outbox.status(format!(
                    "the findings acted on could not be fetched again ({e}): r reloads"
                )),
            }
            return true;
        }
        if self.counted == Known::Asking(id) {
            self.counted = match answer::<Matching>(result) {
                Ok(Matching(targets, true)) => {
                    Known::Have(targets.into_iter().map(|t| t.id).collect())
                }
                Ok(Matching(_, false)) => Known::Failed(format!(
                    "the filter matches more than {} findings: narrow it",
                    findings_base::text::thousands_of(crate::message::MAX_COUNTED)
                )),
                Err(e) => Known::Failed(format!("the filter's findings could not be listed: {e}")),
            };
            // The review waited for them.
            if self.step == Step::Form {
                self.review(outbox);
            }
            return true;
        }
        if self.authorized == Known::Asking(id) {
            self.authorized = known(answer(result));
            return true;
        }
        if self.instances == Known::Asking(id) {
            self.instances = known(answer(result));
            return true;
        }
        if self.relevant == Known::Asking(id) {
            self.relevant = known(answer(result));
            return true;
        }
        let Some((_, request)) = self.sending.take_if(|(sent, _)| *sent == id) else {
            return false;
        };
        self.scroll = 0;
        self.step = Step::Result;
        match result {
            Ok(ApiResponse::Acted(answer)) => {
                self.result = outcome::lines(&request, &answer);
                // Spent: the next `A` starts afresh.
                self.form = None;
                self.reviewed = None;
                outbox.status(format!(
                    "{}: {}",
                    self.result.0,
                    self.result.1.first().cloned().unwrap_or_default()
                ));
                self.refetch(&request, outbox);
            }
            other => {
                let (message, outcome) = match other {
                    Err(e) => (e.to_string(), e.write_outcome()),
                    Ok(answer) => (
                        answer.unexpected().to_string(),
                        Some(findings_client::WriteOutcome::Unknown),
                    ),
                };
                let what = request.action().write_name();
                let mut lines = vec![format!("{}: {message}", capitalised(what))];
                if let Some(outcome) = outcome {
                    lines.push(crate::triage::outcome_words(outcome, what));
                    self.refetch(&request, outbox);
                }
                lines.push("The form is kept: A on the same findings opens it again.".into());
                self.result = (format!("{} failed", capitalised(what)), lines);
            }
        }
        true
    }

    /// Fetches again the findings the action touched (the feedback's
    /// finding too), with their activity, so rows and the detail show
    /// their ticket, pull request or feedback at once.
    fn refetch(&mut self, request: &ActionRequest, outbox: &mut Outbox) {
        let mut ids = request.touched();
        if ids.is_empty() && matches!(request, ActionRequest::Feedback(_)) {
            ids = self.issues.iter().map(|i| i.id().to_owned()).collect();
        }
        if matches!(
            request,
            ActionRequest::CreateTickets { request, .. } if request.issue_ids.is_empty()
        ) {
            // By filter: which findings changed is not known one by one.
            outbox
                .events
                .push(AppEvent::Changed(Changed::FindingsReload));
            return;
        }
        ids.retain(|id| !id.is_empty());
        if ids.is_empty() {
            return;
        }
        if ids.len() > crate::message::REFETCHED {
            // Many: the lists load again rather than a listing by id.
            outbox
                .events
                .push(AppEvent::Changed(Changed::FindingsReload));
            return;
        }
        outbox.cancel(self.refresh.take());
        self.refresh = outbox.send(ApiRequest::Refetch(ids));
    }
}

fn asked<T>(id: Option<RequestId>) -> Known<T> {
    match id {
        Some(id) => Known::Asking(id),
        None => Known::Failed("not asked".into()),
    }
}

fn known<T>(answer: Result<T, ApiError>) -> Known<T> {
    answer.map_or_else(|e| Known::Failed(e.to_string()), Known::Have)
}

/// Opens a finding's `what` link (checked: http(s) only) and closes the
/// menu.
fn open_link(url: Option<&str>, what: &str, outbox: &mut Outbox, step: &mut Step) {
    *step = Step::Hidden;
    match url.map(SafeUrl::parse) {
        Some(Ok(url)) => {
            outbox.status(crate::list::findings_list::opening(url.as_str()));
            outbox.effects.push(Effect::OpenUrl(url));
        }
        Some(Err(why)) => outbox.status(format!("the {what} link is not opened: {why}")),
        None => outbox.status(format!("this finding has no {what} link")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn instances() -> Known<GetTicketingInstancesResponse> {
        Known::Have(
            serde_json::from_value(serde_json::json!({"instances": [
                {"id": "7001", "instanceType": "jira"},
                {"id": "7002", "instanceType": "linear", "isAuthRevoked": true},
                {"id": "7003", "instanceType": "linear"}
            ]}))
            .unwrap(),
        )
    }

    #[test]
    fn the_instance_chosen_is_kept_for_the_next_run_and_a_revoked_one_is_never_chosen() {
        let mut actions = Actions::new("1", false, None);
        actions.instances = instances();
        assert_eq!(actions.instance().and_then(|i| i.id), Some(7001));
        assert_eq!(actions.remember(), None, "nothing chosen: nothing kept");
        actions.choose_instance(1);
        assert_eq!(actions.instance().and_then(|i| i.id), Some(7003));
        let kept: Kept = serde_json::from_value(actions.remember().unwrap()).unwrap();
        let mut next = Actions::new("1", false, Some(kept));
        next.instances = instances();
        assert_eq!(next.instance().and_then(|i| i.id), Some(7003));
        assert_eq!(next.remember(), None, "unchanged: not written again");
    }
}
