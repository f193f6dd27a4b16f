//! The actions on findings beyond triage, headless (docs/src/api.md "Acting on
//! findings"): `ticket instances|create|link|unlink`, `fix`, `feedback`,
//! `remember`. Each is a write under triage's rules ([`send`]): what the
//! token and the finding allow is checked first, the exact body is shown,
//! only `y` (or `--yes`) sends it, once, never retried; a timeout says the
//! outcome is unknown and fetches the touched findings again.

mod feedback;
mod fix;
mod permissions;
mod remember;
mod send;
mod ticket;

pub use feedback::FeedbackArgs;
pub use fix::FixArgs;
pub use remember::RememberArgs;
pub use ticket::TicketCommand;

use super::{Failure, Session, offer};
use clap::Args;
use findings_config::Effective;

/// How a write is asked for and answered: shared by every action.
#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Sending")]
pub struct SendingArgs {
    /// Send without asking for confirmation (and without showing the
    /// request: only what it does)
    #[arg(long, short = 'y')]
    yes: bool,
    /// Show the exact request on stderr even with --yes
    #[arg(long, short = 'v')]
    verbose: bool,
    #[command(flatten)]
    dry_run: super::write::DryRunArg,
    /// Output: table (readable) or json (the answer as sent)
    #[arg(long, value_name = "FORMAT", default_value = "table", help_heading = "Output",
          value_parser = offer(["table", "json"]), hide_possible_values = true)]
    format: String,
}

/// Runs `ticket ...`, `fix`, `feedback` or `remember`.
pub enum ActionCommand {
    Ticket(TicketCommand),
    Fix(FixArgs),
    Feedback(FeedbackArgs),
    Remember(Box<RememberArgs>),
}

impl ActionCommand {
    /// What the command is, as a refusal names it.
    fn what(&self) -> &'static str {
        match self {
            ActionCommand::Ticket(TicketCommand::Instances(_)) => "listing ticketing instances",
            ActionCommand::Ticket(TicketCommand::Create(_)) => "the ticket creation",
            ActionCommand::Ticket(TicketCommand::Link(_)) => "the ticket link",
            ActionCommand::Ticket(TicketCommand::Unlink(_)) => "the ticket unlink",
            ActionCommand::Fix(_) => "the fix request",
            ActionCommand::Feedback(_) => "the feedback",
            ActionCommand::Remember(_) => "the memory",
        }
    }
}

/// Checks the flags (usage errors before connecting), refuses a write
/// under read-only, connects, and runs the command.
pub async fn run(command: ActionCommand, settings: &Effective) -> Result<(), Failure> {
    let writes = !matches!(command, ActionCommand::Ticket(TicketCommand::Instances(_)));
    if writes {
        super::write::refuse_if_read_only(settings, command.what())?;
    }
    let read_only = settings.read_only.value;
    match command {
        ActionCommand::Ticket(t) => ticket::run(t, settings, read_only).await,
        ActionCommand::Fix(args) => {
            let prepared = args.prepare()?;
            let session = Session::open(settings).await?;
            fix::run(&session, prepared, read_only).await
        }
        ActionCommand::Feedback(args) => {
            let prepared = args.prepare()?;
            let session = Session::open(settings).await?;
            feedback::run(&session, prepared, read_only).await
        }
        ActionCommand::Remember(args) => remember::run(*args, settings, read_only).await,
    }
}
