//! Sending a prepared triage: the findings chosen (a filter's listed and
//! counted first), the count guard, the exact request shown, `y` asked
//! for, one request sent (findings) or one per issue in turn (agentic),
//! and what the service did.

use super::Prepared;
use super::choose::{self, Origin};
use crate::write::{self, Confirmation, Go};
use crate::{Failure, Session};
use findings_base::text::one_line;
use findings_client::Client;
use findings_config::Given;
use findings_model::*;
use findings_requests::triage::Kind;
use std::io::Write;

/// Chooses, shows, asks and sends. `above`: the profile's
/// `triage_confirm_above` (a larger triage needs `--count` with `--yes`).
pub async fn run(session: &Session, p: Prepared, above: &Given<u32>) -> Result<(), Failure> {
    let (client, demo) = (&session.client, session.demo.is_some());
    let kind = p.decision.kind();
    let Prepared {
        chosen,
        decision,
        confirmation,
        show,
        count,
        json,
    } = p;
    let (ids, origin) = choose::resolve(session, chosen).await?;
    let n = ids.len();
    if origin == Origin::Filter {
        // The count first, whatever follows.
        eprintln!("findings: the filter matches {n} {}", Kind::Finding.noun(n));
    }
    choose::check_count(n, origin, kind, count, confirmation.yes, above)?;
    if n == 0 {
        eprintln!("findings: nothing to triage; nothing was sent");
        return Ok(());
    }
    let sending = Sending {
        ids,
        decision,
        confirmation,
        show,
        json,
        demo,
    };
    match kind {
        Kind::Finding => sending.findings(client).await,
        Kind::Agentic => sending.agentic(client).await,
    }
}

/// A triage whose ids are known.
struct Sending {
    ids: Vec<String>,
    decision: findings_requests::triage::Decision,
    confirmation: Confirmation,
    show: bool,
    json: bool,
    demo: bool,
}

impl Sending {
    async fn findings(&self, client: &Client) -> Result<(), Failure> {
        self.confirmation.can_go()?;
        let (groups, notes) = self.note_groups(client).await?;
        let requests: Vec<UpdateFindingsRequest> = groups.iter().map(|g| g.request()).collect();
        let n = self.ids.len();
        if self.show {
            for request in &requests {
                let shown = UpdateFindingsRequest {
                    deployment_id: Some(client.deployment().to_owned()),
                    ..request.clone()
                };
                eprintln!(
                    "PATCH /api/agent/deployments/{}/findings/v2",
                    client.deployment()
                );
                eprintln!(
                    "{}",
                    findings_base::json::pretty(&shown).unwrap_or_default()
                );
            }
            eprintln!(
                "{n} {} to be {}",
                Kind::Finding.noun(n),
                self.decision.describe()
            );
        }
        // Whose notes go is said before the question, even with --yes.
        if !notes.is_empty() {
            eprintln!("findings: notes: {}", one_line(&notes));
        }
        let question = format!("Triage {n} {}?", Kind::Finding.noun(n));
        if self.confirmation.ask(&question, self.demo)? == Go::DryRun {
            return Ok(());
        }
        let mut answers = Vec::new();
        for (k, request) in requests.iter().enumerate() {
            match client.update_findings(request).await {
                Ok(answer) => answers.push(answer),
                Err(e) => {
                    let left = requests.len() - k - 1;
                    let mut said = write::failed(e, "the triage").into_message();
                    if k > 0 || left > 0 {
                        said.push_str(&format!(
                            " (request {} of {}: the {k} before it were applied, the {left} after it not sent)",
                            k + 1,
                            requests.len()
                        ));
                    }
                    return Err(Failure::Runtime(said));
                }
            }
        }
        let answer = UpdateFindingsResponse::sum(&answers);
        let mut out = std::io::stdout().lock();
        if self.json {
            findings_base::json::write_pretty(&mut out, &answer)?;
        } else {
            writeln!(out, "{}", answer.summary())?;
        }
        not_updated(&answer, n).map_or(Ok(()), Err)
    }

    /// The findings read again for their notes, grouped by what each gets:
    /// without `--note` each keeps its own (one request per distinct note);
    /// a note given replaces theirs, said in a line before the question.
    async fn note_groups(
        &self,
        client: &Client,
    ) -> Result<(Vec<findings_requests::triage::setting::Group>, String), Failure> {
        use findings_requests::triage::setting::{self, Notes, Setting};
        let now = findings_client::issues_by_id(client, self.ids.clone(), |issue, archived| {
            findings_requests::triage::Target::read(&issue, archived)
        })
        .await?;
        let by_id: std::collections::HashMap<&str, (Setting, bool)> = now
            .iter()
            .filter_map(|t| Setting::of(t).map(|s| (t.id.as_str(), (s, t.archived))))
            .collect();
        let notes = match self.decision.note() {
            Some(_) => Notes::Replace,
            None => Notes::Keep,
        };
        // An id the server does not list is sent as named (its answer says
        // it matched nothing): no note of it can be lost.
        let unknown = (
            Setting {
                state: TriageState::Unknown,
                reason: None,
                note: None,
            },
            false,
        );
        let planned: Vec<(&str, bool, &Setting, Setting)> = self
            .ids
            .iter()
            .map(|id| {
                let (now, archived) = by_id.get(id.as_str()).unwrap_or(&unknown);
                let to =
                    setting::planned(&self.decision, now, notes).unwrap_or_else(|| now.clone());
                (id.as_str(), *archived, now, to)
            })
            .collect();
        let (mut kept, mut replaced) = (0, Vec::new());
        for (id, _, now, to) in &planned {
            match (&now.note, &to.note) {
                (Some(a), Some(b)) if a == b => kept += 1,
                (Some(_), _) => replaced.push(*id),
                _ => {}
            }
        }
        let mut said = Vec::new();
        if kept > 0 {
            said.push(format!("{kept} keep their own (no --note given)"));
        }
        if !replaced.is_empty() {
            said.push(format!(
                "the note sent replaces the note of {} {}: {}",
                replaced.len(),
                Kind::Finding.noun(replaced.len()),
                shown_ids(&replaced)
            ));
        }
        let groups =
            setting::grouped_all(
                planned
                    .iter()
                    .map(|(id, archived, now, to)| setting::Planned {
                        id,
                        archived: *archived,
                        now,
                        to,
                    }),
            );
        Ok((groups, said.join("; ")))
    }

    async fn agentic(&self, client: &Client) -> Result<(), Failure> {
        let request = self.decision.agentic_request().unwrap_or_default();
        let n = self.ids.len();
        if self.show {
            for id in &self.ids {
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
                self.decision.describe()
            );
        }
        let question = format!("Triage {n} {}?", Kind::Agentic.noun(n));
        if self.confirmation.ask(&question, self.demo)? == Go::DryRun {
            return Ok(());
        }
        let mut answers = Vec::new();
        let mut failure = None;
        for (k, id) in self.ids.iter().enumerate() {
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
        if self.json {
            findings_base::json::write_pretty(&mut out, &answers)?;
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
}

/// Why not every finding named was updated, when one was not: "2 of 3
/// findings not updated: 1 matched no finding, 1 skipped (no permission)".
/// An id that matched no finding is an error (exit 1); findings the server
/// knew but gave an exception request instead, or skipped for want of
/// permission, leave the triage done as far as it would go: partly done
/// (exit 4), so a script tells the two apart without reading stderr.
fn not_updated(answer: &UpdateFindingsResponse, asked: usize) -> Option<Failure> {
    let count = |v: Option<i64>| usize::try_from(v.unwrap_or(0)).unwrap_or(0);
    let updated = count(answer.updated_count);
    if updated >= asked {
        return None;
    }
    let mut why = Vec::new();
    let mut unmatched = 0;
    if let Some(matched) = answer.issue_count {
        unmatched = asked.saturating_sub(count(Some(matched)));
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
    // Partly done only when the server said where each one went.
    let accounted = unmatched == 0 && updated + exceptions + skipped >= asked;
    let why = if why.is_empty() {
        String::new()
    } else {
        format!(": {}", why.join(", "))
    };
    let said = format!(
        "{} of {asked} {} not updated{why}",
        asked - updated,
        Kind::Finding.noun(asked)
    );
    Some(if accounted {
        Failure::Partly(said)
    } else {
        Failure::Runtime(said)
    })
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

/// The first ids of a list, then how many more.
fn shown_ids(ids: &[&str]) -> String {
    let mut shown: Vec<String> = ids
        .iter()
        .take(8)
        .map(|id| one_line(id).into_owned())
        .collect();
    if ids.len() > 8 {
        shown.push(format!("… and {} more", ids.len() - 8));
    }
    shown.join(", ")
}
