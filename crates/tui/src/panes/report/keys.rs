//! The Report's own keys: the selectors (each both ways: `p` forward, `P`
//! back), the toggles, `n`, and the repository filter typed after `/`.

use super::repo_prompt::RepoPrompt;
use super::{PERIODS, ReportPane};
use crate::keymap::{Action, Context};
use crate::list::choices;
use crate::list::filter_values::FilterValues;
use crate::message::{AppEvent, PaneMsg};
use crate::pane::{Cx, ViewCx};
use crossterm::event::{KeyCode, KeyEvent};
use findings_model::*;
use findings_requests::filter_spec::{self, REPORT_NAMES};

impl ReportPane {
    pub(super) fn on_selector(&mut self, action: Action, cx: &mut Cx) {
        match action {
            Action::NewOnly => {
                let in_force = self.new.last_visit.filter(|_| self.new_only);
                let new_only = self.new.toggle(in_force, cx.outbox).is_some();
                if new_only != self.new_only {
                    self.new_only = new_only;
                    self.reload(cx);
                }
            }
            Action::CycleReportType | Action::PrevReportType => {
                let step = if action == Action::CycleReportType {
                    choices::next
                } else {
                    choices::prev
                };
                self.report_type =
                    step(ReportType::ALL, Some(&self.report_type)).unwrap_or(ReportType::TotalOpen);
                self.reload(cx);
            }
            Action::CyclePeriod | Action::PrevPeriod => {
                let len = PERIODS.len();
                let at = PERIODS.iter().position(|p| *p == self.period_days);
                let i = match (at, action == Action::CyclePeriod) {
                    (Some(i), true) => (i + 1) % len,
                    (Some(i), false) => (i + len - 1) % len,
                    (None, true) => 0,
                    (None, false) => len - 1,
                };
                self.period_days = PERIODS[i];
                self.new_only = false;
                self.reload(cx);
                cx.outbox.status(self.period_chosen());
            }
            // The bucket size changes only the trend: the list stays.
            Action::CycleBucket | Action::PrevBucket => {
                self.bucket = if action == Action::CycleBucket {
                    choices::next_or_none(TimeBucketSize::ALL, self.bucket.as_ref())
                } else {
                    choices::prev_or_none(TimeBucketSize::ALL, self.bucket.as_ref())
                };
                let trend = self.trend(cx);
                self.counts
                    .start_trend(&self.request(None), trend, cx.outbox);
            }
            Action::CycleState | Action::PrevState => {
                let state = self.finding_state.as_ref();
                self.finding_state = if action == Action::CycleState {
                    choices::next_or_none(AggregateState::ALL, state)
                } else {
                    choices::prev_or_none(AggregateState::ALL, state)
                };
                self.reload(cx);
            }
            Action::ToggleCode => self.toggle_type(0, cx),
            Action::ToggleSca => self.toggle_type(1, cx),
            Action::ToggleSecrets => self.toggle_type(2, cx),
            Action::ToggleCritical => self.toggle_severity(0, cx),
            Action::ToggleHigh => self.toggle_severity(1, cx),
            Action::ToggleMedium => self.toggle_severity(2, cx),
            Action::ToggleLow => self.toggle_severity(3, cx),
            Action::RepoFilter => {
                cx.outbox
                    .in_slot(super::Slot::FilterValues, |o| self.known.request(o));
                // What waits for the names, else what is in force.
                let text = self.pending_repos.take().unwrap_or_else(|| {
                    let typed: Vec<String> = self
                        .projects
                        .iter()
                        .map(|p| p.replace(',', "\\,"))
                        .collect();
                    typed.join(", ")
                });
                self.repo_input = Some(RepoPrompt::new(text));
            }
            Action::NextReportView | Action::PrevReportView => {
                use super::dashboard::Block;
                let at = Block::ALL.iter().position(|b| *b == self.dashboard.block);
                let step = if action == Action::NextReportView {
                    1
                } else {
                    Block::ALL.len() - 1
                };
                let next = (at.unwrap_or(0) + step) % Block::ALL.len();
                self.dashboard.choose(Block::ALL[next]);
                self.show_dashboard(cx.now, cx.outbox);
                cx.outbox.status(format!(
                    "view {}: {}",
                    self.dashboard.block.label(),
                    self.dashboard.block.meaning()
                ));
            }
            // Esc with nothing to stop clears the repository filter.
            Action::Back if !self.projects.is_empty() => self.set_projects(Vec::new(), cx),
            _ => {}
        }
    }

    /// `?` in a view of the dashboard's reports: what `j`/`k`, `g`/`G` and
    /// `Enter` do there, with the keys bound to them.
    pub(super) fn view_help(&self, v: &ViewCx) -> Option<(String, Vec<(String, String)>)> {
        use super::dashboard::Block;
        let block = self.dashboard.block;
        if block == Block::Counts {
            return None;
        }
        let key = |a| v.key_among(&[super::KEYS, Context::LIST], a);
        let mut rows = Vec::new();
        let what = match block {
            Block::Activity | Block::Backlog => Some("the buckets (the latest first selected)"),
            Block::Repositories => Some("the repositories"),
            Block::Rules => Some("the rules"),
            _ => None,
        };
        if let Some(what) = what {
            rows.push((
                format!("{}, {}", key(Action::Down), key(Action::Up)),
                format!("Move in {what}: the row marked ›"),
            ));
            rows.push((
                format!("{}, {}", key(Action::Top), key(Action::Bottom)),
                "First, last row".to_owned(),
            ));
        }
        if self.dashboard.is_list() {
            rows.push((
                key(Action::Open),
                format!(
                    "The open findings of the marked {} in the Issues pane (an archived repository's only with :filter includeArchived=true there)",
                    if block == Block::Rules { "rule" } else { "repository" }
                ),
            ));
        }
        rows.push((
            format!(
                "{}, {}",
                key(Action::NextReportView),
                key(Action::PrevReportView)
            ),
            "Next, previous view (the selectors keep)".to_owned(),
        ));
        Some((
            format!("In the {} view: {}", block.label(), block.meaning()),
            rows,
        ))
    }

    /// `j`/`k` in the views with rows (the activity's buckets, the
    /// repositories, the rules): the selected row moves, and the view
    /// scrolls to keep it in sight. `Enter` in the repositories and rules
    /// lists the entry's open findings in the Issues pane (with the
    /// severities toggled here). `false`: not a key of the view.
    pub(super) fn on_view_key(&mut self, action: Action, cx: &mut Cx) -> bool {
        use super::dashboard::Block;
        let last = self
            .dashboard
            .row_count(self.dashboard.block)
            .saturating_sub(1);
        let at = self.dashboard.selected_row();
        let selected = &mut self.dashboard.selected;
        match action {
            Action::Down => *selected = (at + 1).min(last),
            Action::Up => *selected = at.saturating_sub(1),
            Action::Top => *selected = 0,
            Action::Bottom => *selected = last,
            Action::Open if self.dashboard.is_list() => {
                let entries = self.dashboard.entries();
                let Some(entry) = entries.get(at) else {
                    return true;
                };
                let mut selection = ListSelection::default();
                let f = &mut selection.filter;
                f.aggregate_issue_states = AggregateState::OPEN.to_vec();
                // The severities the view counted: those toggled, else for
                // repositories the four they are counted by (the rules'
                // backlog counts every severity).
                let none_on = self.severities.iter().all(|on| !on)
                    && self.dashboard.block == Block::Repositories;
                f.severities = super::SEVERITIES
                    .iter()
                    .zip(self.severities)
                    .filter(|(_, on)| *on || none_on)
                    .map(|(s, _)| Severity::from_wire(&s.as_wire().replacen("FINDING_", "", 1)))
                    .collect();
                let what = if self.dashboard.block == Block::Rules {
                    f.rule_ids = vec![entry.key.clone()];
                    format!("open findings of rule {}", self.rule_shown(&entry.key))
                } else {
                    f.repository_names = vec![entry.key.clone()];
                    format!("open findings of {}", entry.key)
                };
                cx.outbox.events.push(AppEvent::ToPane(
                    crate::panes::FINDINGS,
                    PaneMsg::Narrow(Box::new(selection), what),
                ));
            }
            _ => return false,
        }
        true
    }

    /// A key while the repository filter is typed: `Enter` applies it
    /// (names separated by commas; none = every repository) when the
    /// deployment has every name, `Esc` leaves it as it was.
    pub(super) fn on_repo_key(&mut self, key: KeyEvent, cx: &mut Cx) {
        let Some(input) = &mut self.repo_input else {
            return;
        };
        match key.code {
            // Before the deployment's names arrive the input closes and
            // what was typed waits for them.
            KeyCode::Enter if matches!(self.known, FilterValues::Asked(_)) => {
                self.pending_repos = Some(input.value().to_owned());
                self.repo_input = None;
            }
            KeyCode::Enter => {
                let typed = input.value().to_owned();
                self.repo_input = None;
                self.apply_typed(typed, cx);
            }
            KeyCode::Esc => self.repo_input = None,
            KeyCode::Tab => input.complete(&self.known),
            _ => input.edit(key),
        }
    }

    /// Applies the names `typed`, when the deployment has every one (a
    /// name it does not have would count 0 everywhere, and be remembered):
    /// else they are refused with the closest it has, and the input opens
    /// again as typed. When the names could not be fetched they are taken
    /// unchecked.
    pub(super) fn apply_typed(&mut self, typed: String, cx: &mut Cx) {
        let projects = parse_projects(&typed);
        let pairs: Vec<(String, String)> = projects
            .iter()
            .map(|p| ("projects".to_owned(), p.clone()))
            .collect();
        if let Err(message) = self.known.check_in(REPORT_NAMES, &pairs) {
            // Said in the prompt, open again as typed: no popup to dismiss
            // first, so one Esc closes it.
            let mut prompt = RepoPrompt::new(typed);
            prompt.refused = Some(message.clone());
            self.repo_input = Some(prompt);
            cx.outbox.status(format!("Repository filter: {message}"));
            return;
        }
        if projects != self.projects {
            self.set_projects(projects, cx);
        }
    }

    fn set_projects(&mut self, projects: Vec<String>, cx: &mut Cx) {
        self.projects = projects;
        self.reload(cx);
    }
}

/// Repository names as typed: a list as every list is typed
/// ([`filter_spec::split_list`]), without repeats (names are
/// case-sensitive, as the API has them).
pub fn parse_projects(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for name in filter_spec::split_list(text) {
        if !out.contains(&name) {
            out.push(name);
        }
    }
    out
}
