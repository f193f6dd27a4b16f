//! An action's answer in words, per finding where the answer is per
//! finding: the ticket (slug and link) or why it failed or was skipped,
//! the findings that lost another ticket to a link, each typed fix error
//! with what to do about it, the feedback stored, where a memory applies
//! and how many verdicts it would flip.

use findings_base::text::one_line;
use findings_model::*;

/// The title and lines of the result popup for `answer` to `request`.
pub fn lines(request: &ActionRequest, answer: &ActionAnswer) -> (String, Vec<String>) {
    match answer {
        ActionAnswer::Tickets(r) => ("Tickets".into(), tickets(r)),
        ActionAnswer::Linked(r) => ("Ticket linked".into(), linked(r)),
        ActionAnswer::Unlinked(r) => (
            "Tickets unlinked".into(),
            vec![format!(
                "unlinked from {} finding{}: {}",
                r.unlinked_issue_ids.len(),
                plural(r.unlinked_issue_ids.len()),
                one_line(&r.unlinked_issue_ids.join(", "))
            )],
        ),
        ActionAnswer::Fix(r) => fix(request, r),
        ActionAnswer::Feedback(r) => {
            let given = r.new_feedback.as_ref();
            let rating = given
                .and_then(|f| f.rating())
                .map_or_else(|| "-".to_owned(), |r| r.label().to_owned());
            let mut out = vec![format!("feedback stored on the AI verdict: {rating}")];
            if let Some(note) = given.and_then(|f| f.note.as_deref()) {
                out.push(format!("note: {}", one_line(note)));
            }
            ("Feedback given".into(), out)
        }
        ActionAnswer::Memory(r) => ("Memory created".into(), memory(r)),
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The summary, then each ticket with its findings, then the findings
/// that failed or were skipped, each with the reason.
fn tickets(r: &CreateTicketsResponse) -> Vec<String> {
    let ids = |ids: &[String]| one_line(&ids.join(", ")).into_owned();
    let mut out = vec![r.summary()];
    for s in &r.succeeded {
        out.push(format!(
            "ticket {} {} for {} finding{}: {}",
            one_line(s.external_slug.as_deref().unwrap_or("-")),
            one_line(s.web_url().unwrap_or("")),
            s.issue_ids.len(),
            plural(s.issue_ids.len()),
            ids(&s.issue_ids)
        ));
    }
    for f in &r.failed {
        out.push(format!(
            "failed ({}): {}",
            one_line(f.error.as_deref().unwrap_or("no reason given")),
            ids(&f.issue_ids)
        ));
    }
    for s in &r.skipped {
        out.push(format!(
            "skipped ({}): {}",
            one_line(s.reason.as_deref().unwrap_or("no reason given")),
            ids(&s.issue_ids)
        ));
    }
    out
}

fn linked(r: &LinkTicketResponse) -> Vec<String> {
    let mut out = vec![format!(
        "ticket {} {} linked to {} finding{}",
        one_line(r.external_slug.as_deref().unwrap_or("-")),
        one_line(r.web_url().unwrap_or("")),
        r.linked_issue_ids.len(),
        plural(r.linked_issue_ids.len())
    )];
    if !r.replaced_issue_ids.is_empty() {
        out.push(format!(
            "had another ticket, now replaced: {}",
            one_line(&r.replaced_issue_ids.join(", "))
        ));
    }
    out
}

fn fix(request: &ActionRequest, r: &FixAnswer) -> (String, Vec<String>) {
    let operation = match request {
        ActionRequest::Fix { operation, .. } => operation.describe(),
        _ => "the fix",
    };
    if r.accepted() {
        return (
            "Fix requested".into(),
            vec![
                format!("{operation}: accepted"),
                "the pull request shows on the finding once it opens (r reloads, the detail fetches it again)".into(),
            ],
        );
    }
    let mut out = vec![format!("{operation}: not accepted")];
    let problems = r.problems();
    if problems.is_empty() {
        out.push("the service said no, without saying why".into());
    }
    for p in problems {
        out.push(format!("{}: {}", one_line(&p.label), one_line(&p.advice)));
        if let Some(message) = &p.message {
            out.push(format!("  the service says: {}", one_line(message)));
        }
        if let Some(url) = &p.config_url {
            out.push(format!("  settings: {}", one_line(url)));
        }
    }
    ("Fix not requested".into(), out)
}

fn memory(r: &CreateMemoryFromTriageResponse) -> Vec<String> {
    let memory = r.memory.clone().unwrap_or_default();
    let mut out = vec![format!(
        "memory {} ({}) applies to {}",
        one_line(memory.id.as_deref().unwrap_or("-")),
        memory.stage.as_ref().map_or("-", |s| s.label()),
        one_line(&memory.scope())
    )];
    match &memory.preanalysis_counts {
        Some(counts) => out.push(format!("preanalysis: it {}", counts.summary())),
        None => out.push("the service gave no preanalysis counts".into()),
    }
    out
}
