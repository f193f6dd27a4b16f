//! What the writing commands (`scm update`, `triage`, the actions) share:
//! the read-only refusal, the output choice, the question on the terminal
//! (or `--yes`, or `--dry-run`: [`Confirmation`]), and what a failed write
//! says.

use super::Failure;
use clap::Args;
use findings_client::ApiError;
use findings_config::Effective;
use std::io::{BufRead, IsTerminal, Write};

/// Refuses `what` (a write) under `--read-only` or a profile's read_only.
pub fn refuse_if_read_only(settings: &Effective, what: &str) -> Result<(), Failure> {
    if settings.read_only.value {
        return Err(Failure::Usage(format!(
            "read-only is set ({}): {what} is a write; nothing was sent",
            settings.read_only.source
        )));
    }
    Ok(())
}

/// `--format table|json` of a write: whether the answer is printed as JSON.
pub fn json_output(format: &str) -> Result<bool, Failure> {
    match format {
        "json" => Ok(true),
        "table" => Ok(false),
        other => Err(Failure::Usage(format!(
            "unknown format {other:?}; valid formats: table, json"
        ))),
    }
}

/// `--dry-run`, the one flag of every write that shows its request and
/// sends nothing.
#[derive(Args, Debug, Clone, Copy, Default)]
pub struct DryRunArg {
    /// Show the exact request and what it would do, then stop: nothing is
    /// sent (exit 0). Asks nothing, so it needs no terminal
    #[arg(long, conflicts_with = "yes", help_heading = "Sending")]
    pub dry_run: bool,
}

/// What happens to a write once its request is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[must_use]
pub enum Go {
    Send,
    /// `--dry-run`: shown, not sent; the command ends with exit 0.
    DryRun,
}

/// How a write is confirmed: asked on the terminal, sent at once
/// (`--yes`), or only shown (`--dry-run`).
#[derive(Debug, Clone, Copy)]
pub struct Confirmation {
    pub yes: bool,
    pub dry_run: bool,
    /// Stdin carried input (a token, a note, ids): the question is asked
    /// on the controlling terminal.
    pub stdin_used: bool,
}

impl Confirmation {
    /// Whether the exact request is shown: always, but with `--yes`
    /// without `verbose`.
    pub fn shows(self, verbose: bool) -> bool {
        !self.yes || verbose
    }

    /// Refuses, before anything is read, a write that would have to ask
    /// and has no terminal to ask on ([`can_confirm`]).
    pub fn can_go(self) -> Result<(), Failure> {
        if self.yes || self.dry_run {
            return Ok(());
        }
        can_confirm(self.stdin_used)
    }

    /// After the request was shown: a dry run stops here; else the demo's
    /// note, then `question` asked unless `--yes`. Anything but `y` sends
    /// nothing.
    pub fn ask(self, question: &str, demo: bool) -> Result<Go, Failure> {
        if self.dry_run {
            eprintln!("findings: --dry-run: nothing was sent");
            return Ok(Go::DryRun);
        }
        if demo {
            eprintln!("{DEMO_NOTE}");
        }
        if !self.yes && !confirm(question, self.stdin_used)? {
            return Err(Failure::Runtime("not sent: cancelled".into()));
        }
        Ok(Go::Send)
    }
}

/// Asks `question` on the terminal. Without one, refuses (the caller must
/// pass --yes). `stdin_used`: stdin carried input (a token, a note), so the
/// answer comes from the controlling terminal, as ssh and sudo do.
pub fn confirm(question: &str, stdin_used: bool) -> Result<bool, Failure> {
    can_confirm(stdin_used)?;
    let refuse = || Failure::Usage(NO_TERMINAL.into());
    let mut input: Box<dyn BufRead> = if stdin_used {
        let tty = std::fs::File::open("/dev/tty").map_err(|_| refuse())?;
        if !tty.is_terminal() {
            return Err(refuse());
        }
        Box::new(std::io::BufReader::new(tty))
    } else {
        if !std::io::stdin().is_terminal() {
            return Err(refuse());
        }
        Box::new(std::io::stdin().lock())
    };
    eprint!("{question} [y/N] ");
    let _ = std::io::stderr().flush();
    let mut answer = String::new();
    input.read_line(&mut answer).map_err(|_| refuse())?;
    Ok(matches!(
        answer.trim().to_ascii_lowercase().as_str(),
        "y" | "yes"
    ))
}

/// Whether [`confirm`] can ask: a terminal to ask on (checked before a
/// write reads anything, so a script without `--yes` sends nothing at all).
pub fn can_confirm(stdin_used: bool) -> Result<(), Failure> {
    let asking = if stdin_used {
        std::fs::File::open("/dev/tty").is_ok_and(|tty| tty.is_terminal())
    } else {
        std::io::stdin().is_terminal()
    };
    if asking {
        Ok(())
    } else {
        Err(Failure::Usage(NO_TERMINAL.into()))
    }
}

/// A failed write (`what`: "the update"), said so when its outcome is
/// unknown: a timeout, or a 2xx answer that could not be read (then it was
/// probably applied, and sending it again may do it twice). Writes are
/// never retried.
pub fn failed(e: ApiError, what: &str) -> Failure {
    match e.write_outcome() {
        Some(findings_client::WriteOutcome::Unknown) => Failure::Runtime(format!(
            "{e} (the outcome is unknown: {what} may or may not have been applied; it was not retried)"
        )),
        Some(findings_client::WriteOutcome::ProbablyApplied) => Failure::Runtime(format!(
            "{e} (the outcome is unknown: the server accepted {what} (2xx) but its answer could not be read, so it was probably applied; it was not retried: check before sending it again, or it may be done twice)"
        )),
        None => Failure::Runtime(e.to_string()),
    }
}

/// Why a write without `--yes` on no terminal is refused.
const NO_TERMINAL: &str = "refusing to send without confirmation: no terminal to ask on; \
     pass --yes to send, or --dry-run to see what would be sent";

/// Said before a write to the embedded demo server.
pub const DEMO_NOTE: &str =
    "(the embedded demo server keeps this change only while this command runs)";
