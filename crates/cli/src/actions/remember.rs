//! `findings remember --note TEXT [FILTERS]`: a triage note made an AI
//! memory for the findings the filter flags choose (this rule, in this
//! repository or everywhere). Before sending, what it would change: the
//! scope's findings by AI verdict (a false-positive note flips the true
//! positives) and, for one rule, the findings the service names relevant;
//! after, the service's own preanalysis counts and where it applies.

use super::SendingArgs;
use super::permissions;
use super::send::{self, Sender};
use crate::listing::{self, FindingFilters, Names};
use crate::write::Go;
use crate::{Failure, Session};
use clap::{Args, ValueHint};
use findings_client::Client;
use findings_config::Effective;
use findings_model::*;
use findings_requests::filter_spec::LIST_NAMES;

/// The most findings the preview counts.
const MAX_PREVIEW: usize = 100_000;

#[derive(Args, Debug)]
pub struct RememberArgs {
    /// The note the AI is to remember, as typed
    #[arg(long, value_name = "TEXT", help_heading = "Memory", value_hint = ValueHint::Other)]
    note: String,
    #[command(flatten)]
    filters: FindingFilters,
    #[command(flatten)]
    sending: SendingArgs,
}

/// The scope's findings by AI verdict: (true positives, false positives,
/// all), counted from List issues.
async fn verdicts(
    client: &Client,
    req: ListIssuesRequest,
) -> Result<(usize, usize, usize), Failure> {
    use futures_util::StreamExt;
    let req = ListIssuesRequest {
        limit: Some(findings_model::MAX_PAGE_SIZE),
        cursor: None,
        ..req
    };
    let (mut tp, mut fp, mut all) = (0, 0, 0);
    let mut pages = std::pin::pin!(findings_client::pages(client.clone(), req));
    while let Some(page) = pages.next().await {
        for issue in page?.issues.into_iter().filter_map(|i| i.issue) {
            all += 1;
            match issue.autotriage.and_then(|a| a.verdict) {
                Some(Verdict::TruePositive) => tp += 1,
                Some(Verdict::FalsePositive) => fp += 1,
                _ => {}
            }
            if all >= MAX_PREVIEW {
                return Ok((tp, fp, all));
            }
        }
    }
    Ok((tp, fp, all))
}

pub async fn run(args: RememberArgs, settings: &Effective, read_only: bool) -> Result<(), Failure> {
    if args.note.trim().is_empty() {
        return Err(Failure::Usage("--note must not be empty".into()));
    }
    if !args.filters.given(&[]) {
        return Err(Failure::Usage(
            "which findings is the memory for? give filter flags (--rule, --repo, --type, --filter FIELD=VALUE, ...); a memory for every finding needs --filter issueTypes=...".into(),
        ));
    }
    if args.filters.compares_first_detected() {
        return Err(Failure::Usage(
            "--first-detected-since/--first-detected-until are compared by this tool, not by the \
             server: a memory applies to the server's filter only"
                .into(),
        ));
    }
    crate::write::json_output(&args.sending.format)?;
    let probe = Names::unchecked(LIST_NAMES);
    // Usage errors now, before connecting.
    one_type(&args.filters.request(&probe, "--filter", &[])?)?;
    let session = Session::open(settings).await?;
    let client = &session.client;
    permissions::authorized(client, FindingAction::Remember).await?;
    let (list, _) = listing::checked(&session, &probe, |n| {
        args.filters.request(n, "--filter", &[])
    })
    .await?;
    // Again with a saved view's types (`--view`), read once connected.
    one_type(&list)?;
    let filter = list.filter.clone().unwrap_or_default();
    let request = CreateMemoryFromTriageRequest {
        deployment_id: None,
        note: Some(args.note.clone()),
        filter: Some(filter.clone()),
        issue_type: list.issue_types.first().cloned(),
        identifier_filter: None,
    };
    // What the memory would change, before it is sent.
    let (tp, fp, all) = verdicts(client, list.clone()).await?;
    eprintln!(
        "findings: the memory's scope holds {all} findings: {tp} the AI calls true positives (a false-positive note would flip them), {fp} already false positives"
    );
    if let [rule] = filter.rule_ids.as_slice() {
        match client
            .find_relevant_issues(&FindRelevantIssuesRequest {
                rule_id: Some(rule.clone()),
                ..Default::default()
            })
            .await
        {
            Ok(r) => eprintln!(
                "findings: the service names {} findings of rule {} relevant",
                r.issue_ids.len(),
                findings_base::text::one_line(rule)
            ),
            Err(e) => eprintln!(
                "findings: warning: relevant findings cannot be had ({})",
                findings_base::text::one_line(&e.to_string())
            ),
        }
    }
    let sender = Sender::new(&session, &args.sending, read_only);
    let json = sender.json()?;
    let request = ActionRequest::Remember(request);
    let go = sender.review(
        &request,
        &format!("a memory of the note for the {all} findings of the filter"),
        "Create the memory?",
    )?;
    if go == Go::DryRun {
        return Ok(());
    }
    let ActionAnswer::Memory(answer) = sender
        .send("the memory", &request, &[], |_| String::new())
        .await?
    else {
        return Err(send::mismatch());
    };
    let memory = answer.memory.clone().unwrap_or_default();
    let mut lines = vec![format!(
        "memory {} ({}) applies to {}",
        memory.id.as_deref().unwrap_or("-"),
        memory.stage.as_ref().map_or("-", |s| s.label()),
        memory.scope()
    )];
    if let Some(counts) = &memory.preanalysis_counts {
        lines.push(format!("preanalysis: it {}", counts.summary()));
    }
    if let Some(id) = &memory.id {
        lines.push(format!(
            "the findings it would flip: findings issues --filter aiMemoryWillFlipVerdict={id}"
        ));
    }
    send::print(json, &answer, &lines)
}

/// A memory takes one issue type, or none.
fn one_type(list: &findings_model::ListIssuesRequest) -> Result<(), Failure> {
    if list.issue_types.len() > 1 {
        return Err(Failure::Usage(
            "a memory takes one issue type (--type): give one or none".into(),
        ));
    }
    Ok(())
}
