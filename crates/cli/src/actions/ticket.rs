//! `findings ticket instances|create|link|unlink`: the deployment's
//! ticketing instances, tickets for findings (by id or by the listing's
//! filter flags, one each or grouped by rule and repository), an existing
//! ticket linked by URL, tickets unlinked.

use super::SendingArgs;
use super::permissions::{self, numeric_ids};
use super::send::{self, Sender};
use crate::listing::{self, FindingFilters, Names};
use crate::write::Go;
use crate::{Failure, Session};
use clap::{Args, Subcommand, ValueHint};
use findings_base::text::one_line;
use findings_client::Client;
use findings_config::Effective;
use findings_model::*;
use findings_requests::filter_spec::LIST_NAMES;

/// The most findings one ticket creation by filter counts first.
const MAX_BY_FILTER: usize = 100_000;

#[derive(Subcommand, Debug)]
pub enum TicketCommand {
    /// The deployment's ticketing instances, and whether each can take
    /// tickets
    Instances(InstancesArgs),
    /// Tickets for findings, by id or by the filter flags: one per finding,
    /// or with --group one per rule and repository
    Create(Box<CreateArgs>),
    /// Link an existing ticket, by its URL, to findings (a finding with
    /// another ticket loses it, and is named)
    Link(LinkArgs),
    /// Unlink findings from their tickets
    Unlink(UnlinkArgs),
}

#[derive(Args, Debug)]
pub struct InstancesArgs {
    /// Output: table or json (the answer as sent)
    #[arg(long, value_name = "FORMAT", default_value = "table", help_heading = "Output",
          value_parser = crate::offer(["table", "json"]), hide_possible_values = true)]
    format: String,
}

#[derive(Args, Debug)]
pub struct CreateArgs {
    /// Ids of the findings (a,b or one after another). Without ids, the
    /// filter flags choose them: listed first, then their ids are sent, so
    /// the request touches exactly the findings the review names
    #[arg(value_name = "ID", value_hint = ValueHint::Other)]
    ids: Vec<String>,
    #[command(flatten)]
    filters: FindingFilters,
    /// State, as `issues --state` takes it (LIST)
    #[arg(long = "state", visible_alias = "current-state", value_name = "STATE", help_heading = "Filters",
          value_parser = crate::offer(listing::finding_states()),
          hide_possible_values = true)]
    states: Vec<String>,
    /// The ticketing instance (`ticket instances` lists them); default: the
    /// only one that can take tickets
    #[arg(long, value_name = "ID", help_heading = "Ticket", value_hint = ValueHint::Other)]
    instance: Option<i64>,
    /// One ticket per rule and repository instead of one per finding
    #[arg(long, help_heading = "Ticket")]
    group: bool,
    #[command(flatten)]
    sending: SendingArgs,
}

#[derive(Args, Debug)]
pub struct LinkArgs {
    /// The ticket's URL (https://...)
    #[arg(value_name = "URL", value_hint = ValueHint::Url)]
    url: String,
    /// Ids of the findings (a,b or one after another)
    #[arg(value_name = "ID", value_hint = ValueHint::Other)]
    ids: Vec<String>,
    /// The ticketing instance; default: the only one that can take tickets
    #[arg(long, value_name = "ID", help_heading = "Ticket", value_hint = ValueHint::Other)]
    instance: Option<i64>,
    #[command(flatten)]
    sending: SendingArgs,
}

#[derive(Args, Debug)]
pub struct UnlinkArgs {
    /// Ids of the findings (a,b or one after another)
    #[arg(value_name = "ID", value_hint = ValueHint::Other)]
    ids: Vec<String>,
    /// The ticketing instance; default: the only one that can take tickets
    #[arg(long, value_name = "ID", help_heading = "Ticket", value_hint = ValueHint::Other)]
    instance: Option<i64>,
    #[command(flatten)]
    sending: SendingArgs,
}

pub async fn run(
    command: TicketCommand,
    settings: &Effective,
    read_only: bool,
) -> Result<(), Failure> {
    match command {
        TicketCommand::Instances(args) => {
            let json = crate::write::json_output(&args.format)?;
            let session = Session::open(settings).await?;
            instances(&session.client, json).await
        }
        TicketCommand::Create(args) => create(*args, settings, read_only).await,
        TicketCommand::Link(args) => {
            let ids = named(&args.ids)?;
            if !is_web_url(&args.url) {
                return Err(Failure::Usage(format!(
                    "{:?} is not an http(s) URL",
                    one_line(&args.url)
                )));
            }
            let session = Session::open(settings).await?;
            link(&session, args, ids, read_only).await
        }
        TicketCommand::Unlink(args) => {
            let ids = named(&args.ids)?;
            let session = Session::open(settings).await?;
            unlink(&session, args, ids, read_only).await
        }
    }
}

/// The ids given, at least one.
fn named(given: &[String]) -> Result<Vec<String>, Failure> {
    let ids = numeric_ids(given)?;
    if ids.is_empty() {
        return Err(Failure::Usage("which findings? give their ids".into()));
    }
    Ok(ids)
}

async fn instances(client: &Client, json: bool) -> Result<(), Failure> {
    let answer = client.ticketing_instances().await?;
    // A long reason wraps to the terminal, under its instance.
    let width = listing::terminal_width();
    let lines: Vec<String> = answer
        .instances
        .iter()
        .flat_map(|i| {
            let status = i
                .unavailable()
                .map_or_else(|| "ready".to_owned(), |why| format!("unavailable: {why}"));
            let line = one_line(&format!("{}  {}  {status}", i.id_text(), i.name())).into_owned();
            hanging(&line, width, "      ")
        })
        .collect();
    send::print(json, &answer, &lines)
}

/// `line` wrapped to `width`, the lines after the first indented by
/// `indent` (so the first word of each entry stands out).
fn hanging(line: &str, width: usize, indent: &str) -> Vec<String> {
    // Wrapped once to the room an indented line has: every line fits.
    let room = width.saturating_sub(indent.len()).max(20);
    findings_base::text::wrap(line, room)
        .into_iter()
        .enumerate()
        .map(|(i, l)| if i == 0 { l } else { format!("{indent}{l}") })
        .collect()
}

/// The instance tickets go through: `--instance`, else the only usable
/// one; refused with the reason when it cannot take tickets.
async fn instance(client: &Client, asked: Option<i64>) -> Result<TicketingInstance, Failure> {
    let all = client.ticketing_instances().await?.instances;
    if let Some(id) = asked {
        let Some(found) = all.into_iter().find(|i| i.id == Some(id)) else {
            return Err(Failure::Usage(format!(
                "no ticketing instance {id}; `findings ticket instances` lists them"
            )));
        };
        if let Some(why) = found.unavailable() {
            return Err(permissions::refused(&why));
        }
        return Ok(found);
    }
    let (usable, not): (Vec<_>, Vec<_>) = all.into_iter().partition(|i| i.unavailable().is_none());
    match usable.len() {
        1 => Ok(usable.into_iter().next().unwrap_or_default()),
        0 => {
            let why: Vec<String> = not.iter().filter_map(|i| i.unavailable()).collect();
            Err(permissions::refused(&if why.is_empty() {
                "the deployment has no ticketing instance".to_owned()
            } else {
                format!("no ticketing instance can take tickets: {}", why.join("; "))
            }))
        }
        _ => Err(Failure::Usage(format!(
            "several ticketing instances can take tickets ({}): pass --instance ID",
            usable
                .iter()
                .map(|i| format!("{} {}", i.id_text(), i.name()))
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

async fn create(args: CreateArgs, settings: &Effective, read_only: bool) -> Result<(), Failure> {
    let ids = numeric_ids(&args.ids)?;
    let probe = Names::unchecked(LIST_NAMES);
    check_ids_or_filter(&args, &ids, &probe)?;
    let session = Session::open(settings).await?;
    let client = &session.client;
    permissions::authorized(client, FindingAction::CreateTickets).await?;
    let instance = instance(client, args.instance).await?;
    // Each finding with the ticket it has now: the filter's listing says
    // it, ids are read for it.
    let now = if ids.is_empty() {
        let Some(listed) = by_filter(&session, &args, &probe).await? else {
            return Ok(());
        };
        listed
    } else {
        tickets_now(client, &ids).await?
    };
    let named: Vec<String> = now.iter().map(|(id, _)| id.clone()).collect();
    // The ids, not the filter: the request touches exactly the findings
    // the review names, whatever changed since.
    let request = CreateTicketsRequest::for_ids(named.clone(), args.group);
    let sender = Sender::new(&session, &args.sending, read_only);
    let json = sender.json()?;
    let n = named.len();
    let how = if args.group {
        "one ticket per rule and repository"
    } else {
        "one ticket per finding"
    };
    let id = instance.id.unwrap_or_default();
    let request = ActionRequest::CreateTickets {
        instance_id: id,
        request,
    };
    // Those with a ticket already: skipped as the review says, so not a
    // failure when the answer skips them.
    let repositories: std::collections::HashMap<String, String> = now
        .iter()
        .map(|(id, (_, repo))| (id.clone(), repo.clone()))
        .collect();
    let (ticketed_now, expected): (Vec<String>, Vec<String>) = {
        let (had, new): (Vec<_>, Vec<_>) = now.into_iter().partition(|(_, (t, _))| t.is_some());
        (
            had.into_iter()
                .filter_map(|(id, (ticket, _))| ticket.map(|t| format!("{id} ({t})")))
                .collect(),
            new.into_iter().map(|(id, _)| id).collect(),
        )
    };
    let already = if ticketed_now.is_empty() {
        Vec::new()
    } else {
        vec![format!(
            "{} already ticketed, skipped (they keep their ticket): {}",
            ticketed_now.len(),
            ticketed_now.join(", ")
        )]
    };
    let go = sender.review_naming(
        &request,
        &format!(
            "tickets for {n} finding{} through {} ({}), {how}",
            s(n),
            instance.name(),
            instance.id_text()
        ),
        &already,
        &format!("Create tickets for {n} finding{}?", s(n)),
    )?;
    if go == Go::DryRun {
        return Ok(());
    }
    let ActionAnswer::Tickets(answer) = sender
        .send("the ticket creation", &request, &named, send::ticket_state)
        .await?
    else {
        return Err(send::mismatch());
    };
    send::print(json, &answer, &created_lines(&answer, &repositories))?;
    let ticketed: Vec<String> = answer
        .succeeded
        .iter()
        .flat_map(|t| t.issue_ids.clone())
        .collect();
    not_all("ticketed", &expected, &ticketed)
}

/// Ids or filter flags, one of the two; the filter's usage errors now,
/// before connecting.
fn check_ids_or_filter(args: &CreateArgs, ids: &[String], probe: &Names) -> Result<(), Failure> {
    let filtered = args.filters.given(&args.states);
    match (ids.is_empty(), filtered) {
        (false, true) => Err(Failure::Usage(
            "give ids or filter flags, not both: the filter chooses the findings itself".into(),
        )),
        (true, false) => Err(Failure::Usage(
            "which findings? give their ids, or filter flags (--repo, --rule, --severity, --filter FIELD=VALUE, ...)".into(),
        )),
        (true, true) => {
            args.filters.request(probe, "--state", &args.states)?;
            Ok(())
        }
        (false, false) => Ok(()),
    }
}

/// The request and the findings it names when the filter flags choose
/// them; `None` (nothing sent) when the filter matches none.
async fn by_filter(
    session: &Session,
    args: &CreateArgs,
    probe: &Names<'_>,
) -> Result<Option<Vec<(String, Now)>>, Failure> {
    let client = &session.client;
    let (list, _) = listing::checked(session, probe, |n| {
        args.filters.request(n, "--state", &args.states)
    })
    .await?;
    let named = match args
        .filters
        .matching(client, list, MAX_BY_FILTER, now_of)
        .await?
    {
        Ok(found) => found,
        Err(max) => {
            return Err(Failure::Usage(format!(
                "the filter matches more than {max} findings: narrow it; nothing was sent"
            )));
        }
    };
    eprintln!("findings: the filter matches {} findings", named.len());
    if named.is_empty() {
        eprintln!("findings: nothing to ticket; nothing was sent");
        return Ok(None);
    }
    Ok(Some(named))
}

/// One line per finding with what became of it, then the summary.
fn created_lines(
    answer: &CreateTicketsResponse,
    repositories: &std::collections::HashMap<String, String>,
) -> Vec<String> {
    let mut lines: Vec<String> = answer
        .outcomes()
        .into_iter()
        .map(|(id, outcome)| match outcome {
            TicketOutcome::Created {
                slug,
                url,
                shared_by,
            } => format!(
                "{id}  ticketed  {}  {}  {}{}",
                repositories.get(&id).map_or("", String::as_str),
                slug.unwrap_or_default(),
                url.unwrap_or_default(),
                if shared_by > 1 {
                    format!("  (shared by {shared_by})")
                } else {
                    String::new()
                }
            ),
            TicketOutcome::Failed(why) => format!("{id}  failed  {why}"),
            TicketOutcome::Skipped(why) => format!("{id}  skipped  {why}"),
        })
        .collect();
    lines.push(answer.summary());
    lines
}

async fn link(
    session: &Session,
    args: LinkArgs,
    ids: Vec<String>,
    read_only: bool,
) -> Result<(), Failure> {
    let client = &session.client;
    permissions::authorized(client, FindingAction::LinkTicket).await?;
    let instance = instance(client, args.instance).await?;
    let request = ActionRequest::LinkTicket {
        instance_id: instance.id.unwrap_or_default(),
        request: LinkTicketRequest {
            ticket_url: Some(args.url.clone()),
            issue_ids: ids.clone(),
        },
    };
    let sender = Sender::new(session, &args.sending, read_only);
    let json = sender.json()?;
    let n = ids.len();
    let now = tickets_now(client, &ids).await?;
    let losing: Vec<String> = now
        .iter()
        .filter_map(|(id, (ticket, _))| ticket.as_ref().map(|t| format!("{id} ({t})")))
        .collect();
    let named = if losing.is_empty() {
        vec!["none of them has a ticket now".to_owned()]
    } else {
        vec![format!(
            "{} of them lose{} the ticket {} now: {}",
            losing.len(),
            if losing.len() == 1 { "s" } else { "" },
            if losing.len() == 1 {
                "it has"
            } else {
                "they have"
            },
            losing.join(", ")
        )]
    };
    let go = sender.review_naming(
        &request,
        &format!("{} linked to {n} finding{}", args.url, s(n)),
        &named,
        &format!("Link the ticket to {n} finding{}?", s(n)),
    )?;
    if go == Go::DryRun {
        return Ok(());
    }
    let ActionAnswer::Linked(answer) = sender
        .send("the ticket link", &request, &ids, send::ticket_state)
        .await?
    else {
        return Err(send::mismatch());
    };
    let mut lines = vec![format!(
        "{} linked to {}",
        answer.external_slug.as_deref().unwrap_or(&args.url),
        answer.linked_issue_ids.join(", ")
    )];
    if !answer.replaced_issue_ids.is_empty() {
        lines.push(format!(
            "replaced: {} had another ticket, which they lost",
            answer.replaced_issue_ids.join(", ")
        ));
    }
    send::print(json, &answer, &lines)?;
    not_all("linked", &ids, &answer.linked_issue_ids)
}

async fn unlink(
    session: &Session,
    args: UnlinkArgs,
    ids: Vec<String>,
    read_only: bool,
) -> Result<(), Failure> {
    let client = &session.client;
    permissions::authorized(client, FindingAction::UnlinkTicket).await?;
    let instance = instance(client, args.instance).await?;
    let request = ActionRequest::UnlinkTicket {
        instance_id: instance.id.unwrap_or_default(),
        request: UnlinkTicketRequest {
            issue_ids: ids.clone(),
        },
    };
    let sender = Sender::new(session, &args.sending, read_only);
    let json = sender.json()?;
    let n = ids.len();
    let now = tickets_now(client, &ids).await?;
    let (with, without): (Vec<_>, Vec<_>) = now.iter().partition(|(_, (t, _))| t.is_some());
    let mut named: Vec<String> = with
        .iter()
        .map(|(id, (t, _))| format!("{id} from {}", t.as_deref().unwrap_or_default()))
        .collect();
    if !without.is_empty() {
        let ids: Vec<&str> = without.iter().map(|(id, _)| id.as_str()).collect();
        named.push(format!("no ticket, nothing to unlink: {}", ids.join(", ")));
    }
    let go = sender.review_naming(
        &request,
        &format!("{n} finding{} unlinked from their tickets:", s(n)),
        &named,
        &format!("Unlink {n} finding{}?", s(n)),
    )?;
    if go == Go::DryRun {
        return Ok(());
    }
    let ActionAnswer::Unlinked(answer) = sender
        .send("the ticket unlink", &request, &ids, send::ticket_state)
        .await?
    else {
        return Err(send::mismatch());
    };
    let lines = vec![format!(
        "unlinked: {}",
        answer.unlinked_issue_ids.join(", ")
    )];
    send::print(json, &answer, &lines)?;
    not_all("unlinked (no ticket?)", &ids, &answer.unlinked_issue_ids)
}

/// Each finding of `ids`, in their order, with the ticket it has now (its
/// key, else its web link, else "a ticket"), read before the review so
/// that it names what a link replaces or an unlink removes. An id that is
/// no finding is an error before anything is sent: a typo is likelier
/// than a finding gone.
async fn tickets_now(client: &Client, ids: &[String]) -> Result<Vec<(String, Now)>, Failure> {
    let found = findings_client::issues_by_id(client, ids.to_vec(), |issue, _archived| {
        Some((issue.id().to_owned(), now_of(&issue)))
    })
    .await?;
    let mut by_id: std::collections::HashMap<String, Now> = found.into_iter().collect();
    let mut in_order = Vec::with_capacity(ids.len());
    let mut unknown = Vec::new();
    for id in ids {
        match by_id.remove(id) {
            Some(ticket) => in_order.push((id.clone(), ticket)),
            None => unknown.push(one_line(id).into_owned()),
        }
    }
    if unknown.is_empty() {
        return Ok(in_order);
    }
    let more = unknown.len().saturating_sub(10);
    unknown.truncate(10);
    Err(Failure::Usage(format!(
        "no finding {}{}: nothing sent",
        unknown.join(", "),
        if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        }
    )))
}

/// The ticket a finding has now, as the review names it: its key, else its
/// web link, else "a ticket".
/// A finding as a ticket creation reads it first: its ticket now, and its
/// repository (each result line names the repository its ticket is for).
type Now = (Option<String>, String);

fn now_of(issue: &Issue) -> Now {
    (ticket_of(issue), issue.repository_name().to_owned())
}

fn ticket_of(issue: &Issue) -> Option<String> {
    issue.external_ticket.as_ref().map(|t| {
        t.external_slug
            .as_deref()
            .filter(|s| !s.is_empty())
            .or_else(|| issue.ticket_url())
            .unwrap_or("a ticket")
            .to_owned()
    })
}

/// Exit 1, naming how many, when some of `named` are not among `done`.
pub(super) fn not_all(what: &str, named: &[String], done: &[String]) -> Result<(), Failure> {
    let done: std::collections::HashSet<&String> = done.iter().collect();
    let missing: Vec<&String> = named.iter().filter(|id| !done.contains(id)).collect();
    if missing.is_empty() {
        return Ok(());
    }
    let shown: Vec<&str> = missing.iter().take(10).map(|s| s.as_str()).collect();
    Err(Failure::Runtime(format!(
        "{} of {} finding{} not {what}: {}{}",
        missing.len(),
        named.len(),
        s(named.len()),
        shown.join(", "),
        if missing.len() > 10 { ", ..." } else { "" }
    )))
}

fn s(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
