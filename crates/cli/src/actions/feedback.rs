//! `findings feedback ID --agree|--disagree [--note TEXT]`: agree or
//! disagree with a finding's AI verdict (its autotriage), with a note.

use super::SendingArgs;
use super::permissions;
use super::send::{self, Sender};
use crate::write::Go;
use crate::{Failure, Session};
use clap::{ArgGroup, Args, ValueHint};
use findings_model::*;

#[derive(Args, Debug)]
#[command(group(ArgGroup::new("rating").required(true).args(["agree", "disagree"])))]
pub struct FeedbackArgs {
    /// The finding's id
    #[arg(value_name = "ID", value_hint = ValueHint::Other)]
    id: String,
    /// The AI verdict is right (RATING_GOOD)
    #[arg(long, help_heading = "Feedback")]
    agree: bool,
    /// The AI verdict is wrong (RATING_BAD)
    #[arg(long, help_heading = "Feedback")]
    disagree: bool,
    /// Why, sent as typed
    #[arg(long, value_name = "TEXT", help_heading = "Feedback", value_hint = ValueHint::Other)]
    note: Option<String>,
    #[command(flatten)]
    sending: SendingArgs,
}

pub struct Prepared {
    id: String,
    rating: Rating,
    note: Option<String>,
    sending: SendingArgs,
}

impl FeedbackArgs {
    pub fn prepare(self) -> Result<Prepared, Failure> {
        let ids = permissions::numeric_ids(std::slice::from_ref(&self.id))?;
        if ids.len() != 1 {
            return Err(Failure::Usage("feedback takes one finding id".into()));
        }
        crate::write::json_output(&self.sending.format)?;
        Ok(Prepared {
            id: ids.into_iter().next().unwrap_or_default(),
            rating: if self.agree {
                Rating::Good
            } else {
                Rating::Bad
            },
            note: self.note,
            sending: self.sending,
        })
    }
}

/// A finding's feedback, as the refetch says it.
fn feedback_state(issue: &Issue) -> String {
    match issue.autotriage.as_ref().and_then(|a| a.feedback.as_ref()) {
        Some(f) => format!(
            "feedback {} {}",
            f.rating()
                .map_or_else(|| "-".to_owned(), |r| r.label().to_owned()),
            f.note.as_deref().unwrap_or("")
        ),
        None => "no feedback".into(),
    }
}

pub async fn run(session: &Session, p: Prepared, read_only: bool) -> Result<(), Failure> {
    let client = &session.client;
    let issue = client.get_issue(&p.id).await?;
    permissions::on_issue(&issue, FindingAction::Feedback)?;
    permissions::authorized(client, FindingAction::Feedback).await?;
    let autotriage = issue.autotriage.clone().unwrap_or_default();
    let feedback = AutotriageFeedback::new(
        autotriage.id.as_deref().unwrap_or(""),
        p.rating.clone(),
        p.note.clone(),
    );
    let sender = Sender::new(session, &p.sending, read_only);
    let json = sender.json()?;
    let verdict = autotriage.verdict.as_ref().map_or("none", |v| v.label());
    let request = ActionRequest::Feedback(feedback);
    let go = sender.review(
        &request,
        &format!(
            "{} with the AI verdict on {} ({verdict})",
            findings_base::text::capitalised(p.rating.label()),
            p.id
        ),
        &format!("Send the feedback on {}?", p.id),
    )?;
    if go == Go::DryRun {
        return Ok(());
    }
    let ids = [p.id.clone()];
    let ActionAnswer::Feedback(answer) = sender
        .send("the feedback", &request, &ids, feedback_state)
        .await?
    else {
        return Err(send::mismatch());
    };
    let stored = answer.new_feedback.clone().unwrap_or_default();
    let line = format!(
        "{}  feedback stored: {} ({verdict}){}",
        p.id,
        stored
            .rating()
            .map_or_else(|| "-".to_owned(), |r| r.label().to_owned()),
        stored
            .note
            .as_deref()
            .map(|n| format!(": {n}"))
            .unwrap_or_default()
    );
    send::print(json, &answer, &[line])
}
