//! `findings triage`: gives findings (one `IssuesService_BulkUpdateIssues`
//! by their ids) or agentic-workflow issues (one
//! `PublicIssuesService_TriageIssue` each, in turn) a triage state, shown
//! and confirmed before it is sent, never retried.

use super::listing::typed;
use super::write::{self, confirm};
use super::{Failure, offer};
use crate::api::Client;
use crate::api::model::*;
use crate::text::one_line;
use crate::triage::{Decision, Kind};
use clap::{Args, ValueHint};
use std::io::{Read, Write};
use std::path::PathBuf;

/// The longest note a file may hold.
const MAX_NOTE_BYTES: u64 = 64 * 1024;

#[derive(Args, Debug)]
pub struct TriageArgs {
    /// Ids of the findings (or, with --agentic, of the agentic-workflow
    /// issues), as a,b or one after another
    #[arg(required = true, value_name = "ID", value_hint = ValueHint::Other)]
    ids: Vec<String>,
    /// The new state: ignored, reviewing, fixing, reopened, provisionally-ignored,
    /// untriaged (agentic: open and fixed, no untriaged)
    #[arg(long, value_name = "STATE", help_heading = "Decision",
          value_parser = offer(states()), hide_possible_values = true)]
    state: String,
    /// Why (ignored and provisionally-ignored only): false-positive, acceptable-risk,
    /// no-time, duplicate (not agentic)
    #[arg(long, value_name = "REASON", help_heading = "Decision",
          value_parser = offer(reasons()), hide_possible_values = true)]
    reason: Option<String>,
    /// A note sent with the triage, as typed (findings only)
    #[arg(long, value_name = "TEXT", help_heading = "Decision", conflicts_with = "note_file",
          value_hint = ValueHint::Other)]
    note: Option<String>,
    /// Read the note from a file (- for standard input); its last newline is dropped
    #[arg(long, value_name = "FILE", help_heading = "Decision", value_hint = ValueHint::FilePath)]
    note_file: Option<PathBuf>,
    /// The ids are agentic-workflow issues (one request each, in turn)
    #[arg(long, help_heading = "Decision")]
    agentic: bool,
    /// Send without asking for confirmation (and without showing the
    /// request: only the counts)
    #[arg(long, short = 'y', help_heading = "Sending")]
    yes: bool,
    /// Show the exact request on stderr even with --yes
    #[arg(long, short = 'v', help_heading = "Sending")]
    verbose: bool,
    /// Output: table (the counts, readable) or json (the raw answer)
    #[arg(long, value_name = "FORMAT", default_value = "table", help_heading = "Output",
          value_parser = offer(["table", "json"]), hide_possible_values = true)]
    format: String,
}

/// Every state either kind takes, as typed (for shell completion).
fn states() -> Vec<&'static str> {
    union(
        typed(&Kind::Finding.states()),
        typed(&Kind::Agentic.states()),
    )
}

fn reasons() -> Vec<&'static str> {
    union(
        typed(&Kind::Finding.reasons()),
        typed(&Kind::Agentic.reasons()),
    )
}

fn union(mut a: Vec<&'static str>, b: Vec<&'static str>) -> Vec<&'static str> {
    for v in b {
        if !a.contains(&v) {
            a.push(v);
        }
    }
    a
}

pub struct Prepared {
    ids: Vec<String>,
    decision: Decision,
    confirm: bool,
    /// Whether the request is shown (always when asking first).
    show: bool,
    /// Whether stdin carried the note (confirmation must use the tty).
    note_from_stdin: bool,
    json: bool,
}

/// Checks the flags, reads the note and builds the decision. Sends nothing.
pub fn prepare(args: TriageArgs) -> Result<Prepared, Failure> {
    let json = write::json_output(&args.format)?;
    let mut ids: Vec<String> = Vec::new();
    for given in &args.ids {
        let listed = crate::filter_spec::split_list(given);
        if listed.is_empty() {
            return Err(Failure::Usage("an ID must not be empty".into()));
        }
        for id in listed {
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
    }
    let note_from_stdin = args.note_file.as_deref() == Some(std::path::Path::new("-"));
    let note = match &args.note_file {
        Some(path) => Some(read_note(path, note_from_stdin)?),
        None => args.note,
    };
    let kind = if args.agentic {
        Kind::Agentic
    } else {
        Kind::Finding
    };
    let decision =
        Decision::parse(kind, &args.state, args.reason.as_deref(), note).map_err(Failure::Usage)?;
    Ok(Prepared {
        ids,
        decision,
        confirm: !args.yes,
        show: !args.yes || args.verbose,
        note_from_stdin,
        json,
    })
}

/// The note in `path` (stdin for `-`), without its last line break.
fn read_note(path: &std::path::Path, stdin: bool) -> Result<String, Failure> {
    let mut bytes = Vec::new();
    let shown = path.display();
    let read = if stdin {
        std::io::stdin()
            .take(MAX_NOTE_BYTES + 1)
            .read_to_end(&mut bytes)
    } else {
        std::fs::File::open(path).and_then(|f| f.take(MAX_NOTE_BYTES + 1).read_to_end(&mut bytes))
    };
    read.map_err(|e| Failure::Usage(format!("--note-file {shown}: {e}")))?;
    if bytes.len() as u64 > MAX_NOTE_BYTES {
        return Err(Failure::Usage(format!(
            "--note-file {shown}: longer than {} KiB",
            MAX_NOTE_BYTES / 1024
        )));
    }
    let mut note = String::from_utf8(bytes)
        .map_err(|_| Failure::Usage(format!("--note-file {shown}: not UTF-8 text")))?;
    if note.ends_with('\n') {
        note.pop();
        if note.ends_with('\r') {
            note.pop();
        }
    }
    Ok(note)
}

pub async fn run(client: &Client, p: Prepared, demo: bool) -> Result<(), Failure> {
    match p.decision.kind() {
        Kind::Finding => findings(client, &p, demo).await,
        Kind::Agentic => agentic(client, &p, demo).await,
    }
}

/// Shows what will be sent and asks, unless --yes.
fn show_and_confirm(p: &Prepared, demo: bool, question: &str) -> Result<(), Failure> {
    if demo {
        eprintln!("{}", write::DEMO_NOTE);
    }
    if p.confirm && !confirm(question, p.note_from_stdin)? {
        return Err(Failure::Runtime("not sent: cancelled".into()));
    }
    Ok(())
}

async fn findings(client: &Client, p: &Prepared, demo: bool) -> Result<(), Failure> {
    let params = p.decision.finding_params().unwrap_or_default();
    let request = UpdateFindingsRequest::for_ids(p.ids.clone(), params);
    let shown = UpdateFindingsRequest {
        deployment_id: Some(client.deployment().to_owned()),
        ..request.clone()
    };
    let n = p.ids.len();
    if p.show {
        eprintln!(
            "PATCH /api/agent/deployments/{}/findings/v2",
            client.deployment()
        );
        eprintln!("{}", crate::json::pretty(&shown).unwrap_or_default());
        eprintln!(
            "{n} {} to be {}",
            Kind::Finding.noun(n),
            p.decision.describe()
        );
    }
    show_and_confirm(p, demo, &format!("Triage {n} {}?", Kind::Finding.noun(n)))?;
    let answer = client
        .update_findings(&request)
        .await
        .map_err(|e| write::failed(e, "the triage"))?;
    let mut out = std::io::stdout().lock();
    if p.json {
        crate::json::write_pretty(&mut out, &answer)?;
    } else {
        writeln!(out, "{}", answer.summary())?;
    }
    match not_updated(&answer, n) {
        Some(shortfall) => Err(Failure::Runtime(shortfall)),
        None => Ok(()),
    }
}

/// Why not every finding named was updated, when one was not: "2 of 3
/// findings not updated: 1 matched no finding, 1 skipped (no permission)".
/// A script reads it as exit 1.
fn not_updated(answer: &UpdateFindingsResponse, asked: usize) -> Option<String> {
    let count = |v: Option<i64>| usize::try_from(v.unwrap_or(0)).unwrap_or(0);
    let updated = count(answer.updated_count);
    if updated >= asked {
        return None;
    }
    let mut why = Vec::new();
    if let Some(matched) = answer.issue_count {
        let unmatched = asked.saturating_sub(count(Some(matched)));
        if unmatched > 0 {
            why.push(format!("{unmatched} matched no finding (unknown id?)"));
        }
    }
    let exceptions = count(answer.num_exceptions_requested);
    if exceptions > 0 {
        why.push(format!("{exceptions} got an exception request instead"));
    }
    let skipped = count(answer.num_skipped);
    if skipped > 0 {
        why.push(format!("{skipped} skipped (no permission)"));
    }
    let why = if why.is_empty() {
        String::new()
    } else {
        format!(": {}", why.join(", "))
    };
    Some(format!(
        "{} of {asked} {} not updated{why}",
        asked - updated,
        Kind::Finding.noun(asked)
    ))
}

async fn agentic(client: &Client, p: &Prepared, demo: bool) -> Result<(), Failure> {
    let request = p.decision.agentic_request().unwrap_or_default();
    let n = p.ids.len();
    if p.show {
        for id in &p.ids {
            let body = TriageIssueRequest {
                deployment_id: Some(client.deployment().to_owned()),
                issue_id: Some(id.clone()),
                ..request.clone()
            };
            eprintln!(
                "POST /api/issues/{}/issue/{} {}",
                client.deployment(),
                one_line(id),
                serde_json::to_string(&body).unwrap_or_default()
            );
        }
        eprintln!(
            "{n} {} to be {}, one request each",
            Kind::Agentic.noun(n),
            p.decision.describe()
        );
    }
    show_and_confirm(p, demo, &format!("Triage {n} {}?", Kind::Agentic.noun(n)))?;
    let mut answers = Vec::new();
    let mut failure = None;
    for (k, id) in p.ids.iter().enumerate() {
        match client.triage_agentic_issue(id, &request).await {
            Ok(answer) => answers.push(answer),
            Err(e) => {
                let left = n - k - 1;
                let rest = if left > 0 {
                    format!("; the {left} after it were not sent")
                } else {
                    String::new()
                };
                let said = write::failed(e, "this triage").into_message();
                failure = Some(format!(
                    "{}: {said}{rest} ({} of {n} triaged)",
                    one_line(id),
                    answers.len()
                ));
                break;
            }
        }
    }
    let mut out = std::io::stdout().lock();
    if p.json {
        crate::json::write_pretty(&mut out, &answers)?;
    } else {
        for issue in answers.iter().filter_map(|a| a.data.as_ref()) {
            writeln!(out, "{}", describe(issue))?;
        }
    }
    match failure {
        Some(msg) => Err(Failure::Runtime(msg)),
        None => Ok(()),
    }
}

/// "agw-07001  ignored (acceptable risk)  <title>", terminal-safe.
fn describe(issue: &AgenticIssue) -> String {
    let state = issue
        .triage_state
        .as_ref()
        .map_or("-".to_owned(), |s| s.label().to_owned());
    let state = match &issue.triage_reason {
        Some(r) => format!("{state} ({})", r.label()),
        None => state,
    };
    one_line(&format!(
        "{}  {state}  {}",
        issue.id.as_deref().unwrap_or("-"),
        issue.title.as_deref().unwrap_or("")
    ))
    .into_owned()
}
