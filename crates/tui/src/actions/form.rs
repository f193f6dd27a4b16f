//! The form of each action (what is asked before the review) and the one
//! request it makes: the instance and grouping of tickets, a ticket URL,
//! the rating and note of feedback, the note and scope of a memory.

use super::menu::Choice;
use super::{Actions, Known};
use crate::triage::edit_note;
use crossterm::event::{KeyCode, KeyEvent};
use findings_model::*;

#[derive(Debug, Clone, PartialEq)]
pub enum Form {
    Tickets {
        by_filter: bool,
        group: bool,
    },
    Link {
        url: String,
    },
    Unlink,
    Fix {
        operation: FixOperation,
    },
    Feedback {
        agree: bool,
        note: String,
    },
    Remember {
        /// The rule in every repository (else in this one).
        everywhere: bool,
        note: String,
    },
}

impl Form {
    /// The form of `choice` (none for the entries that only open a link).
    pub fn of(choice: Choice) -> Option<Form> {
        Some(match choice {
            Choice::Tickets => Form::Tickets {
                by_filter: false,
                group: false,
            },
            Choice::TicketsByFilter => Form::Tickets {
                by_filter: true,
                group: true,
            },
            Choice::Link => Form::Link { url: String::new() },
            Choice::Unlink => Form::Unlink,
            Choice::Fix(operation) => Form::Fix { operation },
            Choice::Feedback => Form::Feedback {
                agree: false,
                note: String::new(),
            },
            Choice::Remember => Form::Remember {
                everywhere: false,
                note: String::new(),
            },
            Choice::OpenTicket | Choice::OpenPr => return None,
        })
    }

    /// A key typed in the form: `Tab` flips its choice, text goes to its
    /// text. `true` when the memory's scope changed (its relevant
    /// findings are asked again).
    pub fn on_key(&mut self, key: KeyEvent) -> bool {
        match self {
            Form::Tickets { group, .. } => {
                if matches!(key.code, KeyCode::Tab | KeyCode::Char('g')) {
                    *group = !*group;
                }
                false
            }
            Form::Link { url } => {
                if key.code != KeyCode::Enter {
                    edit_note(url, key);
                }
                false
            }
            Form::Unlink | Form::Fix { .. } => false,
            Form::Feedback { agree, note } => {
                match key.code {
                    KeyCode::Tab | KeyCode::BackTab => *agree = !*agree,
                    KeyCode::Enter => {}
                    _ => edit_note(note, key),
                }
                false
            }
            Form::Remember { everywhere, note } => match key.code {
                KeyCode::Tab | KeyCode::BackTab => {
                    *everywhere = !*everywhere;
                    true
                }
                KeyCode::Enter => false,
                _ => {
                    edit_note(note, key);
                    false
                }
            },
        }
    }

    /// Whether typed letters are text here (else they are keys).
    pub fn takes_text(&self) -> bool {
        matches!(
            self,
            Form::Link { .. } | Form::Feedback { .. } | Form::Remember { .. }
        )
    }
}

impl Actions {
    /// The instance tickets go through: the one chosen, else the first
    /// usable.
    pub fn instance(&self) -> Option<&TicketingInstance> {
        let usable = self.usable_instances();
        self.instance
            .and_then(|id| usable.iter().copied().find(|i| i.id == Some(id)))
            .or_else(|| usable.first().copied())
    }

    /// Moves the instance chosen by `step` among the usable ones.
    pub fn choose_instance(&mut self, step: isize) {
        let usable: Vec<i64> = self
            .usable_instances()
            .iter()
            .filter_map(|i| i.id)
            .collect();
        if usable.is_empty() {
            return;
        }
        let at = self
            .instance()
            .and_then(|i| usable.iter().position(|id| Some(*id) == i.id))
            .unwrap_or(0);
        let next = crate::layout::cycled(at, step, usable.len());
        self.instance = Some(usable[next]);
    }

    /// The findings' ids (those with a ticket, to unlink).
    fn ids(&self, with_ticket: bool) -> Vec<String> {
        self.issues
            .iter()
            .filter(|i| !with_ticket || i.external_ticket.is_some())
            .map(|i| i.id().to_owned())
            .filter(|id| !id.is_empty())
            .collect()
    }

    /// The findings that have a ticket already, as `id (SLUG)`: a ticket
    /// creation skips them (they keep their ticket).
    pub fn ticketed_already(&self) -> Vec<String> {
        self.issues
            .iter()
            .filter(|i| i.external_ticket.is_some())
            .map(|i| format!("{} ({})", i.id(), i.ticket_slug().unwrap_or("a ticket")))
            .collect()
    }

    /// The findings that have another ticket than `url` (a link replaces
    /// it), as `id (SLUG)`.
    pub fn replaced_by_link(&self, url: &str) -> Vec<String> {
        self.issues
            .iter()
            .filter(|i| {
                i.external_ticket.is_some()
                    && i.external_ticket.as_ref().and_then(|t| t.url.as_deref()) != Some(url)
            })
            .map(|i| format!("{} ({})", i.id(), i.ticket_slug().unwrap_or("a ticket")))
            .collect()
    }

    /// The memory's filter: this finding's rule, in its repository unless
    /// `everywhere`.
    pub fn memory_filter(&self, everywhere: bool) -> Option<(ListIssuesFilter, Option<IssueType>)> {
        let issue = self.issues.first()?;
        let rule = issue.rule_id.clone().filter(|r| !r.is_empty())?;
        // By name, as `findings remember --repo` sends it.
        let repository =
            Some(issue.repository_name().to_owned()).filter(|name| !everywhere && !name.is_empty());
        Some((
            ListIssuesFilter {
                rule_ids: vec![rule],
                repository_names: repository.into_iter().collect(),
                ..Default::default()
            },
            issue.issue_type.clone(),
        ))
    }

    /// The request the form makes, or what is missing.
    pub fn request(&self, form: &Form) -> Result<ActionRequest, String> {
        let instance_id = || {
            self.instance()
                .and_then(|i| i.id)
                .ok_or_else(|| "no ticketing instance can take it".to_owned())
        };
        Ok(match form {
            Form::Tickets { by_filter, group } => {
                let request = if *by_filter {
                    // The ids the filter matched, listed first: the request
                    // touches exactly the findings the review counts.
                    match &self.counted {
                        Known::Have(ids) if ids.is_empty() => {
                            return Err("the filter matches no finding".into());
                        }
                        Known::Have(ids) => CreateTicketsRequest::for_ids(ids.clone(), *group),
                        Known::Asking(_) => return Err("listing the filter's findings…".into()),
                        Known::Failed(why) => return Err(why.clone()),
                        Known::NotAsked => return Err("the list has no filter".into()),
                    }
                } else {
                    CreateTicketsRequest::for_ids(self.ids(false), *group)
                };
                ActionRequest::CreateTickets {
                    instance_id: instance_id()?,
                    request,
                }
            }
            Form::Link { url } => {
                let url = url.trim();
                if findings_base::handoff::SafeUrl::parse(url).is_err() {
                    return Err("type the ticket's http(s) URL".into());
                }
                ActionRequest::LinkTicket {
                    instance_id: instance_id()?,
                    request: LinkTicketRequest {
                        ticket_url: Some(url.to_owned()),
                        issue_ids: self.ids(false),
                    },
                }
            }
            Form::Unlink => ActionRequest::UnlinkTicket {
                instance_id: instance_id()?,
                request: UnlinkTicketRequest {
                    issue_ids: self.ids(true),
                },
            },
            Form::Fix { operation } => ActionRequest::Fix {
                operation: *operation,
                issue_id: self.ids(false).into_iter().next().ok_or("no finding")?,
            },
            Form::Feedback { agree, note } => {
                let autotriage = self
                    .issues
                    .first()
                    .and_then(|i| i.autotriage.as_ref()?.id.clone())
                    .ok_or("the finding has no AI verdict")?;
                let rating = if *agree { Rating::Good } else { Rating::Bad };
                ActionRequest::Feedback(AutotriageFeedback::new(
                    &autotriage,
                    rating,
                    Some(note.trim().to_owned()),
                ))
            }
            Form::Remember { everywhere, note } => {
                if note.trim().is_empty() {
                    return Err("type the note the AI is to remember".into());
                }
                let (filter, issue_type) = self
                    .memory_filter(*everywhere)
                    .ok_or("the finding has no rule to remember it for")?;
                ActionRequest::Remember(CreateMemoryFromTriageRequest {
                    deployment_id: None,
                    note: Some(note.trim().to_owned()),
                    filter: Some(filter),
                    issue_type,
                    identifier_filter: None,
                })
            }
        })
    }

    /// What the form's request does, in words (the review's first line).
    pub fn does(&self, form: &Form) -> String {
        let n = self.issues.len();
        let findings = if n == 1 {
            format!("finding {}", self.issues[0].id())
        } else {
            format!("{n} findings")
        };
        let through = self
            .instance()
            .map(|i| format!(" through ticketing instance {} ({})", i.id_text(), i.name()))
            .unwrap_or_default();
        match form {
            Form::Tickets { by_filter, group } => {
                let whom = if *by_filter {
                    "every finding of the list's filter".to_owned()
                } else {
                    findings
                };
                let how = if *group {
                    "grouped tickets (one per rule and repository)"
                } else {
                    "one ticket per finding"
                };
                format!("Creates {how} for {whom}{through}.")
            }
            Form::Link { url } => format!("Links {} to {findings}{through}.", url.trim()),
            Form::Unlink => format!("Unlinks the tickets of {findings}{through}."),
            Form::Fix { operation } => {
                format!("Asks for {} for {findings}.", operation.describe())
            }
            Form::Feedback { agree, .. } => format!(
                "Says you {} with the AI verdict of {findings}.",
                if *agree { "agree" } else { "disagree" }
            ),
            Form::Remember { everywhere, .. } => format!(
                "Creates an AI memory of the note for this rule {}.",
                if *everywhere {
                    "in every repository"
                } else {
                    "in this repository"
                }
            ),
        }
    }

    /// What the relevant findings of the memory's scope are, as said
    /// before sending.
    pub fn relevant_line(&self) -> String {
        match &self.relevant {
            Known::NotAsked => String::new(),
            Known::Asking(_) => "asking the service which findings are relevant…".into(),
            Known::Failed(why) => format!("the relevant findings cannot be had: {why}"),
            Known::Have(answer) => format!(
                "the service names {} finding{} of this scope relevant: the memory applies to them",
                answer.issue_ids.len(),
                if answer.issue_ids.len() == 1 { "" } else { "s" }
            ),
        }
    }
}
