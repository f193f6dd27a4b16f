//! `findings triage`: gives findings (one `IssuesService_BulkUpdateIssues`
//! by their ids) or agentic-workflow issues (one
//! `PublicIssuesService_TriageIssue` each, in turn) a triage state, shown
//! and confirmed before it is sent, never retried.
//!
//! The ids come from the command line, from standard input (`-`), or from
//! the listing's filter flags (`choose`: the findings they match are
//! listed and counted first, and exactly those are sent); `send` shows,
//! asks, sends and says what happened.

mod choose;
mod send;

pub use send::run;

use super::listing::{FindingFilters, Names, typed};
use super::write;
use super::{Failure, offer};
use choose::Chosen;
use clap::{Args, ValueHint};
use findings_model::TriageState;
use findings_requests::filter_spec::LIST_NAMES;
use findings_requests::triage::{Decision, Kind};
use std::io::Read;
use std::path::PathBuf;

/// The longest note a file may hold.
const MAX_NOTE_BYTES: u64 = 64 * 1024;

#[derive(Args, Debug)]
#[command(after_help = concat!(
    "A finding named but not updated is said on stderr, and the exit code \
    says why: 1 when an id matched no finding or a request failed, 4 (partly \
    done) when the server skipped it (no permission) or gave it an exception \
    request instead.\n\n",
    exit_codes_help!()
))]
pub struct TriageArgs {
    /// Ids of the findings (or, with --agentic, of the agentic-workflow
    /// issues), as a,b or one after another; - reads them from standard
    /// input, one per line or separated by spaces. Without ids, the filter
    /// flags choose the findings
    #[arg(value_name = "ID", value_hint = ValueHint::Other)]
    ids: Vec<String>,
    #[command(flatten)]
    filters: FindingFilters,
    /// With filter flags: only findings in this state now, as the STATE
    /// column shows it (the --state of `findings issues`) (LIST)
    #[arg(long = "current-state", value_name = "STATE", help_heading = "Filters",
          value_parser = offer(super::listing::finding_states()), hide_possible_values = true)]
    current_states: Vec<String>,
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
    /// Ignore until: a date (2026-12-25), an RFC 3339 time or a span ahead
    /// (30d, 2w); written as the note's last line, `expires: DATE`, which
    /// `findings expired` reads back (ignored and provisionally-ignored
    /// only; --until is the filter on creation time)
    #[arg(long, value_name = "DATE", help_heading = "Decision", value_hint = ValueHint::Other)]
    ignore_until: Option<String>,
    /// The ids are agentic-workflow issues (one request each, in turn)
    #[arg(long, help_heading = "Decision")]
    agentic: bool,
    /// How many findings (or issues) the triage must touch: any other
    /// number is refused and nothing is sent (exit 2). With --yes it is
    /// needed above triage_confirm_above (default 50) when a filter or
    /// standard input chooses them
    #[arg(long, value_name = "N", help_heading = "Sending",
          value_parser = clap::value_parser!(u64), value_hint = ValueHint::Other)]
    count: Option<u64>,
    /// Send without asking for confirmation (and without showing the
    /// request: only the counts)
    #[arg(long, short = 'y', help_heading = "Sending")]
    yes: bool,
    /// Show the exact request on stderr even with --yes
    #[arg(long, short = 'v', help_heading = "Sending")]
    verbose: bool,
    #[command(flatten)]
    dry_run: write::DryRunArg,
    /// Output: table (the counts, readable) or json (the raw answer)
    #[arg(long, value_name = "FORMAT", default_value = "table", help_heading = "Output",
          value_parser = offer(["table", "json"]), hide_possible_values = true)]
    format: String,
}

/// Every state either kind takes, as typed.
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

/// A triage checked and ready: what it applies to (ids, or a filter whose
/// findings are listed once connected), the decision, and how to ask.
pub struct Prepared {
    chosen: Chosen,
    decision: Decision,
    /// Asked, `--yes` or `--dry-run` (stdin carried the ids or the note:
    /// the question goes to the tty).
    confirmation: write::Confirmation,
    /// Whether the request is shown (always when asking first).
    show: bool,
    /// `--count`: the number the triage must touch.
    count: Option<u64>,
    json: bool,
}

/// Checks the flags, reads the note (and the ids, from stdin) and builds
/// the decision. Sends nothing.
pub fn prepare(args: TriageArgs) -> Result<Prepared, Failure> {
    let json = write::json_output(&args.format)?;
    let ids_from_stdin = args.ids.iter().any(|id| id == "-");
    let note_from_stdin = args.note_file.as_deref() == Some(std::path::Path::new("-"));
    if ids_from_stdin && note_from_stdin {
        return Err(Failure::Usage(
            "standard input can carry the ids (-) or the note (--note-file -), not both".into(),
        ));
    }
    let kind = if args.agentic {
        Kind::Agentic
    } else {
        Kind::Finding
    };
    let filtered = args.filters.given(&args.current_states);
    let chosen = match (args.ids.is_empty(), filtered) {
        (false, true) => {
            return Err(Failure::Usage(
                "give ids or filter flags, not both: the filter chooses the findings itself".into(),
            ));
        }
        (true, false) => {
            return Err(Failure::Usage(
                "which findings? give their ids (a,b or - to read them from standard input), or filter flags (--repo, --severity, --rule, --filter FIELD=VALUE, ...)".into(),
            ));
        }
        (true, true) if kind == Kind::Agentic => {
            return Err(Failure::Usage(
                "the filter flags choose findings; agentic-workflow issues are triaged by id"
                    .into(),
            ));
        }
        (true, true) => {
            let probe = Names::unchecked(LIST_NAMES);
            // Usage errors now, before connecting.
            args.filters
                .request(&probe, "--current-state", &args.current_states)?;
            Chosen::Filter {
                filters: Box::new(args.filters),
                states: args.current_states,
                probe,
            }
        }
        (false, false) if ids_from_stdin => {
            if args.ids.len() > 1 {
                return Err(Failure::Usage(
                    "- reads the ids from standard input: give no other id".into(),
                ));
            }
            Chosen::Stdin(choose::read_ids(std::io::stdin().lock())?)
        }
        (false, false) => Chosen::Given(choose::given_ids(&args.ids)?),
    };
    let note = match &args.note_file {
        Some(path) => Some(read_note(path, note_from_stdin)?),
        None => args.note,
    };
    let mut decision =
        Decision::parse(kind, &args.state, args.reason.as_deref(), note).map_err(Failure::Usage)?;
    if let Some(until) = &args.ignore_until {
        add_expiry(&mut decision, until)?;
    }
    let confirmation = write::Confirmation {
        yes: args.yes,
        dry_run: args.dry_run.dry_run,
        stdin_used: ids_from_stdin || note_from_stdin,
    };
    Ok(Prepared {
        chosen,
        decision,
        confirmation,
        show: confirmation.shows(args.verbose),
        count: args.count,
        json,
    })
}

/// Writes `--ignore-until` into the decision's note; only an ignore takes one.
fn add_expiry(decision: &mut Decision, until: &str) -> Result<(), Failure> {
    let Decision::Finding {
        state: TriageState::Ignored | TriageState::ProvisionallyIgnored,
        note,
        ..
    } = decision
    else {
        return Err(Failure::Usage(
            "--ignore-until goes with --state ignored or provisionally-ignored (of findings): only an ignore expires".into(),
        ));
    };
    let now = findings_requests::clock::now().map_err(Failure::Usage)?;
    let at = findings_requests::triage::expiry::parse_until(until, now).map_err(Failure::Usage)?;
    *note = Some(findings_requests::triage::expiry::with_expiry(
        note.as_deref(),
        at,
    ));
    Ok(())
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
