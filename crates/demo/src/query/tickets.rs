//! External tickets in the demo (docs/src/api.md "Tickets"): two instances, one
//! with its authorisation revoked; tickets created per finding or per rule
//! and repository, at `https://tickets.example.com/browse/SEC-N`; findings
//! already ticketed skipped, those whose generated ticket attempt failed
//! failing again; existing tickets linked by URL, and unlinked.

use super::list::selection;
use super::list_match::ListMatcher;
use super::refusal::{Refusal, event, finding};
use crate::dataset::*;
use crate::materialize::Parts;
use findings_model::*;
use std::sync::Arc;

/// The instance tickets go through.
pub const ACTIVE_INSTANCE: i64 = 7001;
/// The instance whose authorisation was revoked.
pub const REVOKED_INSTANCE: i64 = 7002;
/// Where demo tickets live.
const TICKETS: &str = "https://tickets.example.com/browse";
/// The first number the demo gives a ticket it creates.
const FIRST_TICKET: i64 = 9000;
/// Why a finding's generated failed attempt fails again.
const FAILURE: &str = "400 Bad Request: field 'component' is required by the SEC project";

/// `ExternalTicketingService_GetTicketingInstances`.
pub fn ticketing_instances() -> GetTicketingInstancesResponse {
    let instance = |id, subdomain: &str, project: &str, revoked| TicketingInstance {
        id: Some(id),
        is_configured: Some(true),
        is_auth_revoked: Some(revoked),
        instance_type: Some("jira".into()),
        subdomain: Some(subdomain.into()),
        project_id: Some(project.into()),
        issue_type_id: Some("10001".into()),
        automation_states: Some(AutomationStates {
            sast: Some(false),
            sca: Some(false),
            secrets: Some(false),
            sca_malicious_deps: Some(false),
            ai_sast: Some(false),
        }),
        ..Default::default()
    };
    GetTicketingInstancesResponse {
        instances: vec![
            instance(ACTIVE_INSTANCE, "acme", "SEC", false),
            instance(REVOKED_INSTANCE, "acme-legacy", "OPS", true),
        ],
    }
}

/// The instance `id`, able to take tickets, or why not.
fn usable(id: i64) -> Result<(), Refusal> {
    match id {
        ACTIVE_INSTANCE => Ok(()),
        REVOKED_INSTANCE => Err(Refusal::Precondition(format!(
            "ticketing instance {id}: its authorisation was revoked; reconnect it in the integration settings"
        ))),
        _ => Err(Refusal::NotFound(format!(
            "ticketing instance {id} not found"
        ))),
    }
}

/// The findings `ids` name, each once, in the order named; an id that
/// names none is a failure in `answer`.
fn findings_named(ds: &Dataset, ids: &[String], answer: &mut CreateTicketsResponse) -> Vec<usize> {
    let mut seen = std::collections::HashSet::new();
    let mut rows = Vec::new();
    for id in ids {
        match finding_index(id, ds.rows.len()) {
            Some(i) if seen.insert(i) => rows.push(i),
            Some(_) => {}
            None => answer.failed.push(TicketFailed {
                issue_ids: vec![id.clone()],
                error: Some(format!(
                    "finding {} not found",
                    findings_base::text::one_line(id)
                )),
            }),
        }
    }
    rows
}

/// `ExternalTicketingService_CreateTickets` through instance `instance`.
pub fn create_tickets(
    ds: &Dataset,
    instance: i64,
    req: &CreateTicketsRequest,
) -> Result<CreateTicketsResponse, Refusal> {
    usable(instance)?;
    let mut answer = CreateTicketsResponse::default();
    let chosen: Vec<usize> = match (req.issue_ids.is_empty(), &req.issue_filters) {
        (false, Some(_)) => {
            return Err(Refusal::Invalid(
                "give issueIds or issueFilters, not both".into(),
            ));
        }
        (true, None) => {
            return Err(Refusal::Invalid(
                "issueIds or issueFilters is required".into(),
            ));
        }
        (false, None) => findings_named(ds, &req.issue_ids, &mut answer),
        (true, Some(_)) => {
            let (f, types) = selection(
                &req.issue_type,
                &req.issue_types,
                req.issue_filters.as_ref(),
            )?;
            let changes = ds.changes();
            let matcher = ListMatcher::new(ds, &changes, f, &types);
            (0..ds.rows.len()).filter(|&i| matcher.matches(i)).collect()
        }
    };
    let group = req.group_issues.unwrap_or(true);
    Ok(ds.change(|before, next| {
        // Tickets to make: (the findings of one, grouped by rule and
        // repository or one each).
        let mut tickets: Vec<((u8, u16, usize), Vec<usize>)> = Vec::new();
        for &i in &chosen {
            let row = before.row(i, &ds.rows[i]);
            let id = finding_id(i);
            if row.ticket {
                let slug = ds
                    .issue_with(before, i, Parts::default())
                    .external_ticket
                    .and_then(|t| t.external_slug)
                    .unwrap_or_default();
                answer.skipped.push(TicketSkipped {
                    issue_ids: vec![id],
                    reason: Some(format!("already ticketed ({slug})")),
                });
                continue;
            }
            if row.ticket_failed {
                answer.failed.push(TicketFailed {
                    issue_ids: vec![id],
                    error: Some(FAILURE.into()),
                });
                continue;
            }
            let key = if group {
                (row.repo, row.rule, usize::MAX)
            } else {
                (row.repo, row.rule, i)
            };
            match tickets.iter_mut().find(|(k, _)| *k == key) {
                Some((_, rows)) => rows.push(i),
                None => tickets.push((key, vec![i])),
            }
        }
        for (_, rows) in tickets {
            let number = next.acted.next_ticket.max(FIRST_TICKET);
            next.acted.next_ticket = number + 1;
            let slug = format!("SEC-{number}");
            let ticket = Arc::new(LinkedTicket {
                id: number,
                url: format!("{TICKETS}/{slug}"),
                slug: slug.clone(),
                issue_ids: rows.iter().map(|&i| finding_id(i)).collect(),
            });
            for &i in &rows {
                next.acted.tickets.insert(i, Some(ticket.clone()));
                next.acted.events.entry(i).or_default().push(event(
                    ds,
                    HistoryType::TicketCreated,
                    format!("Ticket {slug} created"),
                    None,
                ));
            }
            answer.succeeded.push(TicketSucceeded {
                issue_ids: ticket.issue_ids.clone(),
                ticket_id: Some(number),
                ticket_url: Some(ticket.url.clone()),
                external_slug: Some(slug),
            });
        }
        answer
    }))
}

/// The row indices of `ids`, each once; 404 for the first unknown one, 400
/// for none.
fn rows_of(ds: &Dataset, ids: &[String]) -> Result<Vec<usize>, Refusal> {
    if ids.is_empty() {
        return Err(Refusal::Invalid("issueIds is required".into()));
    }
    let mut rows = Vec::new();
    for id in ids {
        let i = finding(ds, id)?;
        if !rows.contains(&i) {
            rows.push(i);
        }
    }
    Ok(rows)
}

/// `ExternalTicketingService_LinkTicket`: the ticket at `ticketUrl` (one
/// the demo knows by its URL, or a new one) for the findings; those with
/// another ticket lose it (`replacedIssueIds`).
pub fn link_ticket(
    ds: &Dataset,
    instance: i64,
    req: &LinkTicketRequest,
) -> Result<LinkTicketResponse, Refusal> {
    usable(instance)?;
    let url = req.ticket_url.clone().unwrap_or_default();
    if !is_web_url(&url) {
        return Err(Refusal::Invalid("ticketUrl must be an http(s) URL".into()));
    }
    let rows = rows_of(ds, &req.issue_ids)?;
    Ok(ds.change(|before, next| {
        let known = before
            .acted
            .tickets
            .values()
            .flatten()
            .find(|t| t.url == url)
            .cloned();
        let id = known.as_ref().map_or_else(
            || {
                let n = next.acted.next_ticket.max(FIRST_TICKET);
                next.acted.next_ticket = n + 1;
                n
            },
            |t| t.id,
        );
        let slug = known.as_ref().map_or_else(
            || {
                url.trim_end_matches('/')
                    .rsplit('/')
                    .next()
                    .filter(|s| !s.is_empty())
                    .map_or_else(|| format!("ticket-{id}"), str::to_owned)
            },
            |t| t.slug.clone(),
        );
        let mut issue_ids = known.map(|t| t.issue_ids.clone()).unwrap_or_default();
        let mut replaced = Vec::new();
        for &i in &rows {
            let fid = finding_id(i);
            let now = ds.issue_with(before, i, Parts::default()).external_ticket;
            if now.is_some_and(|t| t.url.as_deref() != Some(url.as_str())) {
                replaced.push(fid.clone());
            }
            if !issue_ids.contains(&fid) {
                issue_ids.push(fid);
            }
        }
        let ticket = Arc::new(LinkedTicket {
            id,
            url: url.clone(),
            slug: slug.clone(),
            issue_ids,
        });
        // Every finding of the ticket sees it whole.
        for i in ticket
            .issue_ids
            .iter()
            .filter_map(|id| finding_index(id, ds.rows.len()))
        {
            if rows.contains(&i)
                || before
                    .acted
                    .tickets
                    .get(&i)
                    .is_some_and(|t| t.as_ref().is_some_and(|t| t.id == id))
            {
                next.acted.tickets.insert(i, Some(ticket.clone()));
            }
        }
        for &i in &rows {
            next.acted.events.entry(i).or_default().push(event(
                ds,
                HistoryType::TicketCreated,
                format!("Ticket {slug} linked"),
                None,
            ));
        }
        LinkTicketResponse {
            ticket_id: Some(id),
            ticket_url: Some(url.clone()),
            external_slug: Some(slug),
            linked_issue_ids: rows.iter().map(|&i| finding_id(i)).collect(),
            replaced_issue_ids: replaced,
        }
    }))
}

/// `ExternalTicketingService_UnlinkTicket`: the findings lose their
/// ticket; `unlinkedIssueIds` are those that had one.
pub fn unlink_ticket(
    ds: &Dataset,
    instance: i64,
    req: &UnlinkTicketRequest,
) -> Result<UnlinkTicketResponse, Refusal> {
    usable(instance)?;
    let rows = rows_of(ds, &req.issue_ids)?;
    Ok(ds.change(|before, next| {
        let mut unlinked = Vec::new();
        for &i in &rows {
            if before.row(i, &ds.rows[i]).ticket {
                next.acted.tickets.insert(i, None);
                unlinked.push(finding_id(i));
            }
        }
        UnlinkTicketResponse {
            unlinked_issue_ids: unlinked,
        }
    }))
}
