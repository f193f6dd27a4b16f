//! The one way an action is sent: the exact request shown, `y` asked for
//! (unless --yes), the read-only gate right where the request goes, one
//! attempt (the client never retries a write), and after a failure whose
//! outcome is unknown, the touched findings fetched again and said.

use super::SendingArgs;
use crate::Failure;
use crate::session::Session;
use crate::write::{self, Confirmation, Go};
use findings_base::text::one_line;
use findings_client::Client;
use findings_model::{ActionAnswer, ActionRequest, Issue};
use serde::Serialize;
use std::io::Write;

/// One write about to be sent.
pub struct Sender<'a> {
    pub client: &'a Client,
    pub args: &'a SendingArgs,
    pub demo: bool,
    pub read_only: bool,
}

impl<'a> Sender<'a> {
    /// The sender of a command's write over `session`.
    pub fn new(session: &'a Session, args: &'a SendingArgs, read_only: bool) -> Self {
        Sender {
            client: &session.client,
            args,
            demo: session.demo.is_some(),
            read_only,
        }
    }
}

impl Sender<'_> {
    /// Whether the answer is printed as JSON (`--format json`).
    pub fn json(&self) -> Result<bool, Failure> {
        write::json_output(&self.args.format)
    }

    /// Shows the method, path and exact body of `req` (unless --yes
    /// without --verbose), then what it does, and asks `question`. Nothing
    /// is sent on any answer but `y`, nor with `--dry-run` ([`Go::DryRun`]:
    /// the command ends there).
    pub fn review(&self, req: &ActionRequest, does: &str, question: &str) -> Result<Go, Failure> {
        self.review_naming(req, does, &[], question)
    }

    /// [`Sender::review`], with `named` (what the request changes of each
    /// finding: the ticket it loses) said after what it does, a line each.
    pub fn review_naming(
        &self,
        req: &ActionRequest,
        does: &str,
        named: &[String],
        question: &str,
    ) -> Result<Go, Failure> {
        let confirmation = Confirmation {
            yes: self.args.yes,
            dry_run: self.args.dry_run.dry_run,
            stdin_used: false,
        };
        if confirmation.shows(self.args.verbose) {
            let review = req.review(self.client.deployment());
            eprintln!("{} {}", review.method, one_line(&review.path));
            eprintln!(
                "{}",
                findings_base::json::pretty(&review.body).unwrap_or_default()
            );
        }
        eprintln!("{}", one_line(does));
        for line in named {
            eprintln!("  {}", one_line(line));
        }
        confirmation.ask(question, self.demo)
    }

    /// Sends `req` once ([`Client::act`]). A failure whose outcome is
    /// unknown fetches `touched` again and says where each stands (`state`
    /// of a finding).
    pub async fn send(
        &self,
        what: &str,
        req: &ActionRequest,
        touched: &[String],
        state: fn(&Issue) -> String,
    ) -> Result<ActionAnswer, Failure> {
        if self.read_only {
            // Never reached past the command's own refusal; kept where the
            // request goes, so no path can send under read-only.
            return Err(Failure::Usage(format!(
                "read-only is set: {what} is a write; nothing was sent"
            )));
        }
        match self.client.act(req).await {
            Ok(answer) => Ok(answer),
            Err(e) if e.write_outcome().is_some() => {
                let failure = write::failed(e, what);
                self.refetch(touched, state).await;
                Err(failure)
            }
            Err(e) => Err(write::failed(e, what)),
        }
    }

    /// The touched findings as they are now (at most 20), on stderr.
    async fn refetch(&self, touched: &[String], state: fn(&Issue) -> String) {
        const MAX_SHOWN: usize = 20;
        eprintln!("findings: the outcome is unknown; the findings as they are now:");
        for id in touched.iter().take(MAX_SHOWN) {
            match self.client.get_issue(id).await {
                Ok(issue) => eprintln!("  {}  {}", one_line(id), one_line(&state(&issue))),
                Err(e) => eprintln!(
                    "  {}  cannot be fetched: {}",
                    one_line(id),
                    one_line(&e.to_string())
                ),
            }
        }
        if touched.len() > MAX_SHOWN {
            eprintln!("  ... and {} more", touched.len() - MAX_SHOWN);
        }
    }
}

/// The answer's kind did not match the request's (never: `act` answers
/// the kind asked).
pub fn mismatch() -> Failure {
    Failure::Runtime("the answer is of another action".into())
}

/// Prints `answer` as JSON on stdout, or `lines` as they are.
pub fn print<T: Serialize>(json: bool, answer: &T, lines: &[String]) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    if json {
        findings_base::json::write_pretty(&mut out, answer)?;
    } else {
        for line in lines {
            writeln!(out, "{}", one_line(line))?;
        }
    }
    Ok(())
}

/// A finding's ticket, as the refetch says it.
pub fn ticket_state(issue: &Issue) -> String {
    match &issue.external_ticket {
        // Its link only when a web link (`Issue::ticket_url`).
        Some(t) => format!(
            "ticket {} {}",
            t.external_slug.as_deref().unwrap_or("-"),
            issue.ticket_url().unwrap_or("")
        ),
        None => "no ticket".into(),
    }
}
