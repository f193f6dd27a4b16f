//! The command line's flags and subcommands.

use super::destination::OutputFile;
use super::offer::offer;
use super::scripting::{self, ScriptArgs};
use super::{actions, config_cmd, demo, diff, gate, listing, scm, show, snapshot, triage};
use clap::builder::{StringValueParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueHint};
use findings_config as config;
use findings_export::Format;
use findings_requests::filter_spec::UsageError;
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "findings",
    version,
    about = "A keyboard-driven terminal client for a security-findings platform",
    long_about = "A keyboard-driven terminal client for a security-findings platform.\n\n\
        With no subcommand it shows the findings of the deployment. The embedded demo \
        server is used when asked for (--base-url demo, FINDINGS_BASE_URL=demo), or when \
        nothing at all is configured and a person is at a terminal; otherwise a missing \
        base URL is an error, never demo data in place of a deployment.\n\n\
        The API token is read from the FINDINGS_TOKEN environment variable, or from the \
        token_command, token_file or token of a profile in the config file, never from \
        the command line. `findings config path` prints where the config file is.",
    after_help = super::EXIT_CODES
)]
pub struct Cli {
    #[command(flatten)]
    pub(super) connection: ConnectionArgs,
    /// Open the TUI on a snapshot (`findings snapshot save`), offline and
    /// read-only: no request leaves this machine
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub(super) snapshot: Option<PathBuf>,
    #[command(subcommand)]
    pub(super) command: Option<Command>,
}

/// Global: every command takes them, so each command's help shows them
/// apart from its own flags.
#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Global options")]
pub(super) struct ConnectionArgs {
    /// Base URL of the platform, e.g. https://findings.example.com ("demo": the
    /// embedded demo server)
    #[arg(long, global = true, env = config::ENV_BASE_URL, value_name = "URL",
          value_hint = ValueHint::Other)]
    pub(super) base_url: Option<String>,
    /// Numeric id of the deployment (organization)
    #[arg(long, global = true, env = config::ENV_DEPLOYMENT, value_name = "ID",
          value_hint = ValueHint::Other)]
    pub(super) deployment: Option<String>,
    /// Allow plain http:// to a host other than this machine
    #[arg(long, global = true)]
    pub(super) allow_http: bool,
    /// Seconds to wait for a connection, 1 to 600 (default: the profile's
    /// connect_timeout, else 10)
    #[arg(long, global = true, env = config::ENV_CONNECT_TIMEOUT, value_name = "SECS",
          value_parser = clap::value_parser!(u64).range(1..=config::MAX_CONNECT_TIMEOUT),
          value_hint = ValueHint::Other)]
    pub(super) connect_timeout: Option<u64>,
    /// Seconds to wait for a whole answer, 1 to 3600 (default: the
    /// profile's timeout, else 30)
    #[arg(long, global = true, env = config::ENV_TIMEOUT, value_name = "SECS",
          value_parser = clap::value_parser!(u64).range(1..=config::MAX_REQUEST_TIMEOUT),
          value_hint = ValueHint::Other)]
    pub(super) timeout: Option<u64>,
    /// Refuse every write (SCM config updates, triage, the actions)
    #[arg(long, global = true, env = config::ENV_READ_ONLY,
          value_parser = clap::builder::FalseyValueParser::new(), hide_env_values = true)]
    pub(super) read_only: bool,
    /// Profile of the config file to use (default: the file's default_profile)
    #[arg(long, global = true, env = config::ENV_PROFILE, value_name = "NAME",
          value_hint = ValueHint::Other)]
    pub(super) profile: Option<String>,
    /// Write a log line per HTTP request to this file (level from FINDINGS_LOG, default info)
    #[arg(long, global = true, env = config::ENV_LOG_FILE, value_name = "PATH",
          value_hint = ValueHint::FilePath)]
    pub(super) log_file: Option<PathBuf>,
    /// The TUI's colours: default, dark, light or high-contrast (NO_COLOR turns colours off)
    #[arg(long, global = true, env = config::ENV_THEME, value_name = "NAME",
          value_parser = offer(findings_config::theme_file::THEME_NAMES), hide_possible_values = true)]
    pub(super) theme: Option<String>,
    /// No progress on stderr. It shows only for a person: stderr a
    /// terminal, CI unset, TERM not dumb, for steps over a second (also:
    /// FINDINGS_NO_PROGRESS=1, or progress = false in the profile)
    #[arg(long, short = 'q', global = true, env = config::ENV_NO_PROGRESS,
          value_parser = clap::builder::FalseyValueParser::new(), hide_env_values = true)]
    pub(super) quiet: bool,
    /// Width of tables (default: the terminal's; piped: COLUMNS, else 200)
    #[arg(long, global = true, value_name = "N", value_hint = ValueHint::Other,
          value_parser = clap::value_parser!(u16).range(20..=1000))]
    pub(super) width: Option<u16>,
}

#[derive(Subcommand, Debug)]
pub(super) enum Command {
    /// List findings (List issues), with filters, sort and include flags
    Issues(listing::IssuesArgs),
    /// Dashboard report findings with totals by type
    Report(listing::ReportArgs),
    /// Search issues found by agentic workflows
    Search(listing::SearchArgs),
    /// One finding by id, with its code, remediation and history (the
    /// single-issue fetch)
    Show(show::ShowArgs),
    /// Source-control integration configs
    Scm {
        #[command(subcommand)]
        command: scm::ScmCommand,
    },
    /// Snapshots: every finding a filter matches, kept in one file
    Snapshot {
        #[command(subcommand)]
        command: snapshot::SnapshotCommand,
    },
    /// What changed since a snapshot: new, fixed, gone, reopened, triaged,
    /// re-triaged findings and changed severities, against a second
    /// snapshot or the live deployment
    Diff(diff::DiffArgs),
    /// Does a change bring findings the policy refuses? The findings of a
    /// ref not on the primary branch (or not in a baseline), weighed by
    /// .findings/gate.toml: exit 0 pass, 3 fail, 1 when anything could not
    /// be read or checked
    Gate(Box<gate::GateArgs>),
    /// Ignored findings whose expiry (triage --ignore-until) has passed, listed
    /// like `issues`; reopens nothing
    Expired(listing::ExpiredArgs),
    /// Triage findings (or agentic-workflow issues) by id, from standard
    /// input, or every finding a filter matches: a state, a reason, a note
    Triage(triage::TriageArgs),
    /// Tickets for findings in the deployment's ticketing system: the
    /// instances, create (by id or filter, grouped or one each), link an
    /// existing ticket by URL, unlink
    Ticket {
        #[command(subcommand)]
        command: actions::TicketCommand,
    },
    /// Ask for a fix pull request for a finding (Code Autofix for code
    /// findings, Autofix for AI code and supply chain)
    Fix(actions::FixArgs),
    /// Agree or disagree with a finding's AI verdict, with a note
    Feedback(actions::FeedbackArgs),
    /// Turn a triage note into an AI memory for the findings the filter
    /// flags choose, seeing first how many verdicts it would flip
    Remember(actions::RememberArgs),
    /// The token of a deployment: store it where the desktop keeps
    /// secrets, say where the one in force comes from, forget it
    Auth {
        #[command(subcommand)]
        command: super::auth::AuthCommand,
    },
    /// The embedded demo server
    Demo {
        #[command(subcommand)]
        command: demo::DemoCommand,
    },
    /// The config file: where it is, an example, the settings in force
    Config {
        #[command(subcommand)]
        command: config_cmd::ConfigCommand,
    },
    /// Print a shell completion script (e.g. `source <(findings completions bash)`)
    Completions {
        /// bash, zsh, fish, powershell or elvish
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff), or write one page per command into a folder
    Man {
        /// Write findings.1 and a page per subcommand into this folder
        #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath)]
        dir: Option<PathBuf>,
    },
}

/// Output options shared by the listing commands.
#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Output")]
pub struct OutputArgs {
    /// Output format: table, json, ndjson, csv, sarif or markdown (default:
    /// FINDINGS_FORMAT, else table on a terminal, else ndjson)
    #[arg(long, value_name = "FORMAT", value_parser = offer(Format::NAMES.iter().copied()),
          hide_possible_values = true)]
    format: Option<String>,
    /// Every item: follow cursors to the last page, asking pages of 1000
    /// (the most the server gives) unless --limit says otherwise
    #[arg(long, conflicts_with = "max")]
    pub(super) all: bool,
    /// The total: stop after N items, following cursors as needed (pages
    /// of up to 1000 unless --limit says otherwise)
    #[arg(long, value_name = "N", value_parser = at_least_one("--max"),
          value_hint = ValueHint::Other)]
    pub(super) max: Option<u64>,
    /// The page size (not the total: that is --max), 1 to 1000. Default:
    /// 1000 with --all or --max, else the profile's page_size, else 100
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(i64).range(1..=findings_model::MAX_PAGE_SIZE),
          value_hint = ValueHint::Other)]
    pub(super) limit: Option<i64>,
    /// With --all (and for report --kind summary's overdue findings):
    /// stop with an error after N pages, a guard against a server that
    /// never stops paging
    #[arg(long, value_name = "N", default_value_t = findings_client::DEFAULT_MAX_PAGES as u64,
          value_parser = at_least_one("--max-pages"), value_hint = ValueHint::Other)]
    pub(super) max_pages: u64,
    #[command(flatten)]
    pub(super) file: OutputFile,
    #[command(flatten)]
    pub(super) script: ScriptArgs,
}

impl OutputArgs {
    /// `--format` as given: `report --kind summary` reads its own formats.
    pub(super) fn format_given(&self) -> Option<&str> {
        self.format.as_deref()
    }

    pub(super) fn format(&self) -> Result<Format, UsageError> {
        scripting::format(
            self.format.as_deref(),
            &self.file,
            &self.script,
            &Format::ALL,
        )
    }
}

/// The value parser of a count `flag` that has no upper bound: a whole
/// number, at least 1, said in those words (clap's range would print
/// "not in 1..18446744073709551615").
pub(super) fn at_least_one(flag: &'static str) -> impl TypedValueParser<Value = u64> {
    StringValueParser::new().try_map(move |s| match s.trim().parse::<u64>() {
        Ok(0) => Err(format!("{flag} must be at least 1")),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("{flag} takes a whole number, at least 1")),
    })
}
