//! The Act menu's entries and why each is unavailable, before anything is
//! sent: `--read-only`, the deployment's authorized actions, the
//! findings' own state (type, autotriage, triage permission, ticket) and
//! the ticketing instances (revoked, not configured).

use super::{Actions, Known};
use findings_model::*;

/// One entry of the menu.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Choice {
    /// One ticket per finding, or one per rule and repository, for the
    /// findings.
    Tickets,
    /// Tickets for every finding of the list's filter.
    TicketsByFilter,
    Link,
    Unlink,
    /// A fix pull request, by the operation the finding's type takes.
    Fix(FixOperation),
    Feedback,
    Remember,
    OpenTicket,
    OpenPr,
}

impl Choice {
    /// The key that picks it in the menu.
    pub fn key(self) -> char {
        match self {
            Choice::Tickets => 't',
            Choice::TicketsByFilter => 'T',
            Choice::Link => 'l',
            Choice::Unlink => 'u',
            Choice::Fix(_) => 'f',
            Choice::Feedback => 'v',
            Choice::Remember => 'm',
            Choice::OpenTicket => 'o',
            Choice::OpenPr => 'p',
        }
    }

    /// The write it makes, if it makes one.
    pub fn action(self) -> Option<FindingAction> {
        match self {
            Choice::Tickets | Choice::TicketsByFilter => Some(FindingAction::CreateTickets),
            Choice::Link => Some(FindingAction::LinkTicket),
            Choice::Unlink => Some(FindingAction::UnlinkTicket),
            Choice::Fix(op) => Some(FindingAction::Fix(op)),
            Choice::Feedback => Some(FindingAction::Feedback),
            Choice::Remember => Some(FindingAction::Remember),
            Choice::OpenTicket | Choice::OpenPr => None,
        }
    }

    /// Whether it acts on one finding only.
    fn one_finding(self) -> bool {
        matches!(
            self,
            Choice::Fix(_)
                | Choice::Feedback
                | Choice::Remember
                | Choice::OpenTicket
                | Choice::OpenPr
        )
    }
}

/// An entry as the menu shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub choice: Choice,
    pub label: String,
    /// Why it cannot be taken now, when it cannot.
    pub refusal: Option<String>,
}

impl Actions {
    /// The menu for the findings in hand.
    pub fn entries(&self) -> Vec<Entry> {
        let n = self.issues.len();
        let findings = if n == 1 {
            "this finding".to_owned()
        } else {
            format!(
                "the {} marked findings",
                findings_base::text::thousands_of(n)
            )
        };
        let fix = self
            .issues
            .first()
            .and_then(|i| FixOperation::for_type(i.issue_type.as_ref()))
            .unwrap_or(FixOperation::Autofix);
        let mut choices = vec![(Choice::Tickets, format!("Create tickets for {findings}"))];
        if self.filter.is_some() {
            choices.push((
                Choice::TicketsByFilter,
                "Create tickets for every finding of the filter".to_owned(),
            ));
        }
        choices.extend([
            (
                Choice::Link,
                format!("Link an existing ticket URL to {findings}"),
            ),
            (Choice::Unlink, format!("Unlink the tickets of {findings}")),
            (
                Choice::Fix(fix),
                format!(
                    "Ask for a fix pull request ({})",
                    match fix {
                        FixOperation::FixJob => "Code Autofix",
                        FixOperation::Autofix => "Autofix",
                    }
                ),
            ),
            (
                Choice::Feedback,
                "Agree or disagree with the AI verdict".to_owned(),
            ),
            (
                Choice::Remember,
                "Remember a note as an AI memory (this rule)".to_owned(),
            ),
            (
                Choice::OpenTicket,
                "Open the ticket in the browser".to_owned(),
            ),
            (
                Choice::OpenPr,
                "Open the fix pull request in the browser".to_owned(),
            ),
        ]);
        choices
            .into_iter()
            .map(|(choice, label)| Entry {
                choice,
                label,
                refusal: self.refusal(choice),
            })
            .collect()
    }

    /// Why `choice` cannot be taken on the findings in hand, if it cannot.
    pub fn refusal(&self, choice: Choice) -> Option<String> {
        if choice.one_finding() && self.issues.len() != 1 {
            return Some(format!(
                "one finding at a time ({} are marked): select one",
                self.issues.len()
            ));
        }
        let issue = self.issues.first()?;
        match choice {
            Choice::OpenTicket => {
                return issue
                    .ticket_url()
                    .is_none()
                    .then(|| "this finding has no ticket link".to_owned());
            }
            Choice::OpenPr => {
                return issue
                    .fix_pr_url()
                    .is_none()
                    .then(|| "this finding has no fix pull request".to_owned());
            }
            _ => {}
        }
        let action = choice.action()?;
        if self.read_only {
            return Some(format!(
                "{}: {} is a write",
                self.read_only_why,
                action.write_name()
            ));
        }
        match &self.authorized {
            Known::Asking(_) => return Some("asking what the token may do…".into()),
            Known::Have(answer) => {
                if let Some(why) = answer.refusal(action) {
                    return Some(why);
                }
            }
            // The server still refuses what it must.
            Known::Failed(_) | Known::NotAsked => {}
        }
        if choice != Choice::TicketsByFilter {
            let refused: Vec<String> = self
                .issues
                .iter()
                .filter_map(|i| issue_refusal(i, action))
                .collect();
            // Unlinking some of the marked is fine: only those with a
            // ticket are sent.
            let all_refused = refused.len() == self.issues.len();
            if let Some(first) = refused.into_iter().next()
                && (choice != Choice::Unlink || all_refused)
            {
                return Some(first);
            }
        }
        if matches!(
            choice,
            Choice::Tickets | Choice::TicketsByFilter | Choice::Link | Choice::Unlink
        ) {
            return self.instance_refusal();
        }
        None
    }

    /// Why no ticketing instance can take a ticket, if none can.
    fn instance_refusal(&self) -> Option<String> {
        match &self.instances {
            Known::Asking(_) => Some("asking for the ticketing instances…".into()),
            Known::Failed(why) => Some(format!("the ticketing instances are not known: {why}")),
            Known::NotAsked => Some("the ticketing instances were not asked for".into()),
            Known::Have(answer) => {
                if answer.instances.is_empty() {
                    return Some("no ticketing instance is configured".into());
                }
                if answer.instances.iter().any(|i| i.unavailable().is_none()) {
                    None
                } else {
                    answer.instances.iter().find_map(|i| i.unavailable())
                }
            }
        }
    }

    /// The instances tickets can go through, in the order given.
    pub fn usable_instances(&self) -> Vec<&TicketingInstance> {
        match &self.instances {
            Known::Have(answer) => answer
                .instances
                .iter()
                .filter(|i| i.unavailable().is_none() && i.id.is_some())
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Every instance with why it cannot be used (the form lists them all).
    pub fn all_instances(&self) -> Vec<&TicketingInstance> {
        match &self.instances {
            Known::Have(answer) => answer.instances.iter().collect(),
            _ => Vec::new(),
        }
    }
}
