//! `findings fix ID`: a fix pull request for one finding, with the
//! operation its type takes (Code Autofix for code findings, Autofix for AI
//! code and supply chain); each typed error said in words with what to do.

use super::SendingArgs;
use super::permissions;
use super::send::{self, Sender};
use crate::write::Go;
use crate::{Failure, Session};
use clap::{Args, ValueHint};
use findings_model::*;

#[derive(Args, Debug)]
pub struct FixArgs {
    /// The finding's id
    #[arg(value_name = "ID", value_hint = ValueHint::Other)]
    id: String,
    #[command(flatten)]
    sending: SendingArgs,
}

pub struct Prepared {
    id: String,
    sending: SendingArgs,
}

impl FixArgs {
    pub fn prepare(self) -> Result<Prepared, Failure> {
        let ids = permissions::numeric_ids(std::slice::from_ref(&self.id))?;
        if ids.len() != 1 {
            return Err(Failure::Usage("fix takes one finding id".into()));
        }
        crate::write::json_output(&self.sending.format)?;
        Ok(Prepared {
            id: ids.into_iter().next().unwrap_or_default(),
            sending: self.sending,
        })
    }
}

/// A finding's fix pull request, as the refetch says it.
fn fix_state(issue: &Issue) -> String {
    match &issue.click_to_fix_pr_url {
        Some(url) => format!("fix pull request {url}"),
        None => "no fix pull request".into(),
    }
}

pub async fn run(session: &Session, p: Prepared, read_only: bool) -> Result<(), Failure> {
    let client = &session.client;
    let issue = client.get_issue(&p.id).await?;
    let Some(op) = FixOperation::for_type(issue.issue_type.as_ref()) else {
        return Err(permissions::refused(&format!(
            "finding {}: no fix pull request can be asked for a {} finding (code, AI code and supply-chain findings only)",
            p.id,
            issue.issue_type.as_ref().map_or("typeless", |t| t.label())
        )));
    };
    permissions::on_issue(&issue, FindingAction::Fix(op))?;
    permissions::authorized(client, FindingAction::Fix(op)).await?;
    let sender = Sender::new(session, &p.sending, read_only);
    let json = sender.json()?;
    let request = ActionRequest::Fix {
        operation: op,
        issue_id: p.id.clone(),
    };
    let go = sender.review(
        &request,
        &format!(
            "{} for finding {} ({}, {}), with {}",
            op.describe(),
            p.id,
            issue.issue_type.as_ref().map_or("-", |t| t.label()),
            issue.rule_name(),
            op.operation_id()
        ),
        &format!("Ask for a fix pull request for {}?", p.id),
    )?;
    if go == Go::DryRun {
        return Ok(());
    }
    let ids = [p.id.clone()];
    let ActionAnswer::Fix(answer) = sender
        .send("the fix request", &request, &ids, fix_state)
        .await?
    else {
        return Err(send::mismatch());
    };
    let mut lines = Vec::new();
    if answer.accepted() {
        lines.push(format!(
            "{}  fix requested: the pull request is made by the service and shows on the finding (findings show {})",
            p.id, p.id
        ));
    } else {
        for problem in answer.problems() {
            let mut line = format!("{}  {}: {}", p.id, problem.label, problem.advice);
            if let Some(m) = problem.message.as_deref().filter(|m| !m.is_empty()) {
                line.push_str(&format!(" (the service says: {m})"));
            }
            if let Some(url) = &problem.config_url {
                line.push_str(&format!("; the app's settings: {url}"));
            }
            lines.push(line);
        }
        if lines.is_empty() {
            lines.push(format!(
                "{}  not accepted, and the service gave no reason",
                p.id
            ));
        }
    }
    send::print(json, &answer, &lines)?;
    if answer.accepted() {
        Ok(())
    } else {
        Err(Failure::Runtime(format!(
            "the fix for {} was not accepted{}",
            p.id,
            answer
                .problems()
                .first()
                .map(|p| format!(": {}", p.label))
                .unwrap_or_default()
        )))
    }
}
