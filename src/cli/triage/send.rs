//! Sending a prepared triage: the findings chosen (a filter's listed and
//! counted first), the count guard, the exact request shown, `y` asked
//! for, one request sent (findings) or one per issue in turn (agentic),
//! and what the service did.

use super::Prepared;
use super::choose::{self, Origin};
use crate::api::Client;
use crate::api::model::*;
use crate::cli::write::{self, confirm};
use crate::cli::{Failure, Session};
use crate::config::Given;
use crate::text::one_line;
use crate::triage::Kind;
use std::io::Write;

/// Chooses, shows, asks and sends. `above`: the profile's
/// `triage_confirm_above` (a larger triage needs `--count` with `--yes`).
pub async fn run(session: &Session, p: Prepared, above: &Given<u32>) -> Result<(), Failure> {
    let (client, demo) = (&session.client, session.demo.is_some());
    let kind = p.decision.kind();
    let Prepared {
        chosen,
        decision,
        confirm,
        show,
        stdin_used,
        count,
        json,
    } = p;
    let (ids, origin) = choose::resolve(session, chosen).await?;
    let n = ids.len();
    if origin == Origin::Filter {
        // The count first, whatever follows.
        eprintln!("findings: the filter matches {n} {}", Kind::Finding.noun(n));
    }
    choose::check_count(n, origin, kind, count, !confirm, above)?;
    if n == 0 {
        eprintln!("findings: nothing to triage; nothing was sent");
        return Ok(());
    }
    let sending = Sending {
        ids,
        decision,
        confirm,
        show,
        stdin_used,
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
    decision: crate::triage::Decision,
    confirm: bool,
    show: bool,
    stdin_used: bool,
    json: bool,
    demo: bool,
}

impl Sending {
    /// Asks, unless --yes (after the demo's note).
    fn confirmed(&self, question: &str) -> Result<(), Failure> {
        if self.demo {
            eprintln!("{}", write::DEMO_NOTE);
        }
        if self.confirm && !confirm(question, self.stdin_used)? {
            return Err(Failure::Runtime("not sent: cancelled".into()));
        }
        Ok(())
    }

    async fn findings(&self, client: &Client) -> Result<(), Failure> {
        let params = self.decision.finding_params().unwrap_or_default();
        let request = UpdateFindingsRequest::for_ids(self.ids.clone(), params);
        let n = self.ids.len();
        if self.show {
            let shown = UpdateFindingsRequest {
                deployment_id: Some(client.deployment().to_owned()),
                ..request.clone()
            };
            eprintln!(
                "PATCH /api/agent/deployments/{}/findings/v2",
                client.deployment()
            );
            eprintln!("{}", crate::json::pretty(&shown).unwrap_or_default());
            eprintln!(
                "{n} {} to be {}",
                Kind::Finding.noun(n),
                self.decision.describe()
            );
        }
        self.confirmed(&format!("Triage {n} {}?", Kind::Finding.noun(n)))?;
        let answer = client
            .update_findings(&request)
            .await
            .map_err(|e| write::failed(e, "the triage"))?;
        let mut out = std::io::stdout().lock();
        if self.json {
            crate::json::write_pretty(&mut out, &answer)?;
        } else {
            writeln!(out, "{}", answer.summary())?;
        }
        match not_updated(&answer, n) {
            Some(shortfall) => Err(Failure::Runtime(shortfall)),
            None => Ok(()),
        }
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
        self.confirmed(&format!("Triage {n} {}?", Kind::Agentic.noun(n)))?;
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
