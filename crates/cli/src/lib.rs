//! The command line: argument parsing, connection, and the headless
//! commands. This is wiring: it knows every part.
//!
//! `args` defines the flags and subcommands; `settings` resolves them with
//! the environment and the config file; `session` connects; `interactive`
//! starts the TUI; one file per headless command (group) runs it.

/// The exit codes, one table for every `--help` that lists items, the man
/// pages and the book (docs/src/scripting.md; a macro, so help texts can `concat!` it).
macro_rules! exit_codes_help {
    () => {
        "Exit codes:\n  \
          0    success (with --exit-code: nothing matched)\n  \
          1    runtime or API error, a --jq error on an item, a write not applied as asked, \
               names that could not be checked (a gate, a write, or nothing matched)\n  \
          2    usage error: a flag, a value, a name the deployment lacks, a --json field, \
               a --jq expression\n  \
          3    findings gate: the change brings findings the policy refuses \
               (--exit-code N changes it)\n  \
          4    partly done: a triage applied, but some findings got an exception \
               request instead or were skipped (no permission); stdout has the counts\n  \
          N    --exit-code N: at least one item was printed (after all of them)\n  \
          129  stopped by SIGHUP (the output said to be partial; -o FILE left as it was)\n  \
          130  interrupted by Ctrl-C (likewise)\n  \
          143  stopped by SIGTERM, as CI cancels a job (likewise)"
    };
}

/// [`exit_codes_help`] as a value.
pub const EXIT_CODES: &str = exit_codes_help!();

/// The exit code of a command done only in part ([`Failure::Partly`]).
pub const PARTLY_DONE: u8 = 4;

mod actions;
mod args;
mod auth;
mod complete;
mod config_cmd;
mod demo;
mod destination;
mod diff;
mod frontend;
mod gate;
mod help;
mod interactive;
mod listing;
mod logging;
mod names_cache;
mod offer;
mod offline;
mod progress;
mod scm;
mod scripting;
mod session;
mod settings;
mod shell;
mod show;
mod snapshot;
mod triage;
mod watching;
mod write;

pub use args::{Cli, OutputArgs};
pub use frontend::{Frontend, Prepared, Running, Start, Tui};
pub use offline::{Opened as OpenedSnapshot, open as open_snapshot};
pub use session::Session;
pub use shell::command_reference;

use args::{Command, ConnectionArgs, at_least_one};
use clap::{ArgMatches, FromArgMatches};
use destination::until_interrupted;
use findings_client::ApiError;
use findings_config as config;
use findings_requests::filter_spec;
use offer::{offer, offer_to};
use scripting::shape;
use settings::{no_color, settings, settings_here};
use std::process::ExitCode;

pub use findings_requests::filter_spec::UsageError;

/// Why a command failed, and so its exit code.
#[derive(Debug)]
pub enum Failure {
    /// Bad flags or configuration (exit 2).
    Usage(String),
    /// The API or the network failed (exit 1).
    Runtime(String),
    /// Ctrl-C, SIGTERM or SIGHUP while a listing runs (exit 130, 143 or
    /// 129, as a shell reports the signal).
    Interrupted(String),
    /// Done as far as the server would: the rest said (exit [`PARTLY_DONE`]).
    Partly(String),
    /// `findings gate` refused the change (exit N; its verdict line said why).
    Refused(u8),
    /// Not a failure: `--exit-code N` and `matched` items printed (exit N,
    /// as trivy's `--exit-code`).
    Matched {
        code: u8,
        matched: usize,
        item: &'static str,
    },
}

impl Failure {
    /// What the failure says, without its kind.
    pub fn into_message(self) -> String {
        match self {
            Failure::Usage(said)
            | Failure::Runtime(said)
            | Failure::Interrupted(said)
            | Failure::Partly(said) => said,
            Failure::Matched {
                code,
                matched,
                item,
            } => format!("{matched} {item}(s) matched (--exit-code {code})"),
            Failure::Refused(code) => format!("the gate refused the change (exit {code})"),
        }
    }
}

impl From<UsageError> for Failure {
    fn from(e: UsageError) -> Self {
        Failure::Usage(e.0)
    }
}

impl From<config::ConfigError> for Failure {
    fn from(e: config::ConfigError) -> Self {
        Failure::Usage(e.0)
    }
}

impl From<ApiError> for Failure {
    /// The error, and what to do about it when that is known.
    fn from(e: ApiError) -> Self {
        match e.hint() {
            Some(hint) => Failure::Runtime(format!("{e}; {hint}")),
            None => Failure::Runtime(e.to_string()),
        }
    }
}

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Self {
        Failure::Runtime(e.to_string())
    }
}

/// Runs the command line, the TUI as `frontend` gives it, and returns
/// the process exit code.
pub fn main(frontend: &'static Frontend) -> ExitCode {
    frontend::wire(frontend);
    // A Tab in a shell: answer it and exit, before anything else.
    answer_completion_if_asked();
    // glibc: `issues --all --format csv` at a million findings peaked at
    // 64 MB with the default arenas and 40 MB with one, no slower.
    findings_base::sys::one_malloc_arena();
    let parsed = help::command()
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m).map(|cli| (cli, m)));
    let (cli, matches) = match parsed {
        Ok(parsed) => parsed,
        Err(e) if e.use_stderr() => {
            // Clap's usage errors in the style of every other error:
            // `findings: error: …`, uncoloured.
            let text = help::naming_the_variable(&e, e.render().to_string());
            eprint!("findings: {text}");
            if !text.ends_with('\n') {
                eprintln!();
            }
            return ExitCode::from(2);
        }
        Err(e) => {
            // --help and --version.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
    };
    progress::set_quiet(cli.connection.quiet);
    listing::set_table_width(cli.connection.width);
    if let Err(failure) = logging::init(cli.connection.log_file.as_deref()) {
        return report(failure);
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("findings: error: cannot start the async runtime: {e}");
            return ExitCode::from(1);
        }
    };
    match runtime.block_on(run(cli, &matches)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => report(failure),
    }
}

/// One line on stderr and the exit code of a failure.
/// Answers a completion request and exits, when the environment asks for
/// one; else returns at once. Here, in the wiring, because it joins the
/// full command (`help`) with the completers (`complete`).
fn answer_completion_if_asked() {
    clap_complete::CompleteEnv::with_factory(help::command)
        .var(complete::ENV_COMPLETE)
        .complete();
}

/// Every failure's message passes [`findings_base::text::multi_line`] here, the
/// one place they are printed: a message quoting the server (a name, an
/// error type, an instance) reaches the terminal with its controls, bidi
/// and zero-width characters made visible, and its secrets masked.
fn report(failure: Failure) -> ExitCode {
    use findings_base::text::multi_line;
    match failure {
        Failure::Usage(msg) => {
            eprintln!("findings: error: {}", multi_line(&msg));
            ExitCode::from(2)
        }
        Failure::Runtime(msg) if is_broken_pipe(&msg) => ExitCode::SUCCESS,
        Failure::Runtime(msg) => {
            eprintln!("findings: error: {}", multi_line(&msg));
            ExitCode::from(1)
        }
        Failure::Interrupted(msg) => {
            eprintln!("findings: {}", multi_line(&msg));
            // 128 + the signal's number, as a shell reports it.
            ExitCode::from(destination::stopped().map_or(130, destination::Stop::code))
        }
        Failure::Partly(msg) => {
            eprintln!("findings: partly done: {}", multi_line(&msg));
            ExitCode::from(PARTLY_DONE)
        }
        Failure::Refused(code) => ExitCode::from(code),
        Failure::Matched {
            code,
            matched,
            item,
        } => {
            let s = if matched == 1 { "" } else { "s" };
            eprintln!("findings: {matched} {item}{s} matched (--exit-code {code})");
            ExitCode::from(code)
        }
    }
}

/// A closed stdout (`findings issues | head`) is a normal end, not an error.
fn is_broken_pipe(msg: &str) -> bool {
    msg.contains("Broken pipe") || msg.contains("os error 32")
}

/// Runs the command given, or the TUI when none is: each command family
/// has its own function below.
async fn run(cli: Cli, matches: &ArgMatches) -> Result<(), Failure> {
    if cli.snapshot.is_some() && cli.command.is_some() {
        return Err(Failure::Usage(
            "--snapshot opens the TUI on a snapshot; a command reads one with \
             `findings snapshot show FILE` or `findings diff OLD [NEW]`"
                .into(),
        ));
    }
    // Every command's now, the TUI's too: a FINDINGS_NOW that is set but
    // not a time stops any command, not only those that count ages.
    findings_requests::clock::now().map_err(Failure::Usage)?;
    let conn = &cli.connection;
    match cli.command {
        Some(Command::Demo { command }) => demo::run(command).await,
        Some(Command::Auth { command }) => {
            let settings = settings_here(conn, matches)?;
            auth::run(command, &settings).await
        }
        Some(Command::Completions { shell }) => shell::completions(shell),
        Some(Command::Man { dir }) => shell::man(dir.as_deref()),
        Some(Command::Config { command }) => run_config(command, conn, matches),
        Some(Command::Issues(args)) => run_issues(args, conn, matches).await,
        Some(Command::Expired(args)) => run_expired(args, conn, matches).await,
        Some(Command::Report(args)) => run_report(args, conn, matches).await,
        Some(Command::Search(args)) => run_search(&args, conn, matches).await,
        Some(Command::Show(args)) => run_show(&args, conn, matches).await,
        Some(Command::Scm { command }) => run_scm(command, conn, matches).await,
        Some(Command::Diff(args)) => run_diff(&args, conn, matches).await,
        Some(Command::Gate(args)) => gate::run(*args, &settings_here(conn, matches)?).await,
        Some(Command::Snapshot {
            command: snapshot::SnapshotCommand::Show(args),
        }) => snapshot::show(&args),
        Some(Command::Snapshot {
            command: snapshot::SnapshotCommand::Save(args),
        }) => run_snapshot_save(&args, conn, matches).await,
        Some(Command::Triage(args)) => {
            let settings = settings_here(conn, matches)?;
            write::refuse_if_read_only(&settings, "the triage")?;
            let prepared = triage::prepare(args)?;
            let session = Session::open(&settings).await?;
            let above = &settings.triage_confirm_above;
            triage::run(&session, prepared, above).await
        }
        Some(Command::Ticket { command }) => {
            run_action(actions::ActionCommand::Ticket(command), conn, matches).await
        }
        Some(Command::Fix(args)) => {
            run_action(actions::ActionCommand::Fix(args), conn, matches).await
        }
        Some(Command::Feedback(args)) => {
            run_action(actions::ActionCommand::Feedback(args), conn, matches).await
        }
        Some(Command::Remember(args)) => {
            let command = actions::ActionCommand::Remember(Box::new(args));
            run_action(command, conn, matches).await
        }
        None => run_without_command(cli.snapshot.as_deref(), conn, matches).await,
    }
}

/// `findings config path | init | show`.
fn run_config(
    command: config_cmd::ConfigCommand,
    conn: &ConnectionArgs,
    matches: &ArgMatches,
) -> Result<(), Failure> {
    let path = config::config_path()?;
    match command {
        config_cmd::ConfigCommand::Path => config_cmd::path(&path),
        config_cmd::ConfigCommand::Init => config_cmd::init(&path),
        config_cmd::ConfigCommand::Show => {
            let settings = settings(conn, matches, &path)?;
            let theme = settings.theme_choice(no_color())?;
            config_cmd::show(&settings, &theme)
        }
    }
}

/// `findings issues`.
async fn run_issues(
    mut args: listing::IssuesArgs,
    conn: &ConnectionArgs,
    matches: &ArgMatches,
) -> Result<(), Failure> {
    if args.columns.asks_help() {
        return Ok(listing::print_catalog()?);
    }
    // Usage errors before connecting; names checked once connected.
    let Some(mut script) = scripting::prepare(&args.output.script, shape::LIST_ITEM)? else {
        return Ok(()); // the fields were listed
    };
    let format = args.output.format()?;
    args.columns.chosen(format, &script)?;
    let probe = listing::Names::unchecked(filter_spec::LIST_NAMES).listing(script.gates());
    args.request(&probe)?;
    let settings = settings_here(conn, matches)?;
    args.set_targets(settings.sla_days.value);
    script.set_clock(shape::OpenAgeClock {
        targets: settings.sla_days.value,
        now: findings_requests::clock::now().map_err(Failure::Usage)?,
    });
    let session = Session::open(&settings).await?;
    let (mut request, names) = listing::checked(&session, &probe, |n| args.request(n)).await?;
    // List issues always says its page size (the default is 100).
    request.limit = Some(request.limit.unwrap_or(settings.page_size.value));
    let file = args.output.file.path();
    let asked = request.clone();
    let matched = until_interrupted(
        file,
        listing::issues(&session.client, request, &args, &script),
    )
    .await?;
    if matched == 0 && names.checked() {
        listing::say_empty(&session.client, &asked, format).await;
    }
    names.gate(&script, matched)
}

/// `findings expired`: as `issues`, with the clock `clock::now` reads.
async fn run_expired(
    mut args: listing::ExpiredArgs,
    conn: &ConnectionArgs,
    matches: &ArgMatches,
) -> Result<(), Failure> {
    if args.list.columns.asks_help() {
        return Ok(listing::print_catalog()?);
    }
    let Some(mut script) = scripting::prepare(&args.list.output.script, shape::LIST_ITEM)? else {
        return Ok(()); // the fields were listed
    };
    args.list
        .columns
        .chosen(args.list.output.format()?, &script)?;
    let now = findings_requests::clock::now().map_err(Failure::Usage)?;
    let probe = listing::Names::unchecked(filter_spec::LIST_NAMES).listing(script.gates());
    args.request(&probe)?;
    let settings = settings_here(conn, matches)?;
    args.list.set_targets(settings.sla_days.value);
    script.set_clock(shape::OpenAgeClock {
        targets: settings.sla_days.value,
        now,
    });
    let session = Session::open(&settings).await?;
    let (mut request, names) = listing::checked(&session, &probe, |n| args.request(n)).await?;
    request.limit = Some(request.limit.unwrap_or(settings.page_size.value));
    let file = args.list.output.file.path();
    let matched = until_interrupted(
        file,
        listing::expired(&session.client, request, &args, &script, now),
    )
    .await?;
    names.gate(&script, matched)
}

/// `findings report`: the findings, or with `--kind` a dashboard report.
async fn run_report(
    mut args: listing::ReportArgs,
    conn: &ConnectionArgs,
    matches: &ArgMatches,
) -> Result<(), Failure> {
    if args.columns.asks_help() {
        return Ok(listing::print_catalog()?);
    }
    let Some(script) = scripting::prepare(&args.output.script, shape::REPORT_FINDING)? else {
        return Ok(()); // the fields were listed
    };
    if args.kind.as_deref() == Some("summary") {
        return run_summary(&args, &script, conn, matches).await;
    }
    if args.output.format_given() == Some("html") {
        return Err(
            UsageError("--format html is the format of report --kind summary only".into()).into(),
        );
    }
    let format = args.output.format()?;
    // A --kind report's flags are checked before anything starts.
    let kind = args.kind()?;
    if kind.is_some() {
        check_kind_report(&script, format)?;
        if args.columns.given() {
            return Err(UsageError(
                "--columns chooses the columns of findings; a --kind report has its own".into(),
            )
            .into());
        }
    }
    args.columns.chosen(format, &script)?;
    let probe = listing::Names::unchecked(filter_spec::REPORT_NAMES).listing(script.gates());
    args.request(&probe)?;
    let settings = settings_here(conn, matches)?;
    args.set_targets(settings.sla_days.value);
    let session = Session::open(&settings).await?;
    let (mut request, names) = listing::checked(&session, &probe, |n| args.request(n)).await?;
    request.limit = request.limit.or(settings.page_size_override());
    let file = args.output.file.path();
    if let Some(kind) = kind {
        let filters = request.filters.unwrap_or_default();
        let rows = match kind {
            listing::Kind::Dashboard(kind) => {
                until_interrupted(
                    file,
                    listing::dashboard(&session.client, kind, filters, &args.output),
                )
                .await?
            }
            listing::Kind::Opened => {
                until_interrupted(
                    file,
                    listing::opened(&session.client, filters, &args.output),
                )
                .await?
            }
        };
        return names.gate(&script, rows);
    }
    let matched = until_interrupted(
        file,
        listing::report(&session.client, request, &args, &script),
    )
    .await?;
    names.gate(&script, matched)
}

/// `findings report --kind summary`: the review, in its own formats
/// (markdown, html, json).
async fn run_summary(
    args: &listing::ReportArgs,
    script: &scripting::Script,
    conn: &ConnectionArgs,
    matches: &ArgMatches,
) -> Result<(), Failure> {
    if script.selects() {
        return Err(UsageError(
            "--json and --jq select the fields of findings; a --kind summary: --format json | jq"
                .into(),
        )
        .into());
    }
    if args.columns.given() {
        return Err(UsageError(
            "--columns chooses the columns of findings; a --kind summary has its own".into(),
        )
        .into());
    }
    let format = listing::summary_format(args.output.format_given(), args.output.file.path())?;
    let probe = listing::Names::unchecked(filter_spec::REPORT_NAMES);
    args.request(&probe)?;
    let settings = settings_here(conn, matches)?;
    let session = Session::open(&settings).await?;
    // A review read as "nothing to see" stops rather than go unchecked.
    let (request, _) = listing::checked(&session, &probe, |n| args.request(n)).await?;
    let overdue = until_interrupted(
        args.output.file.path(),
        listing::summary(
            &session.client,
            request,
            settings.sla_days.value,
            format,
            &args.output,
        ),
    )
    .await?;
    // `--exit-code N`: when findings are past their target.
    script.gate(overdue)
}

/// A `--kind` report is not findings: `--json`, `--jq` and `--format sarif`,
/// which are for findings, are refused with it.
fn check_kind_report(
    script: &scripting::Script,
    format: findings_export::Format,
) -> Result<(), Failure> {
    if script.selects() {
        return Err(UsageError(
            "--json and --jq select the fields of findings; a --kind report: --format json | jq"
                .into(),
        )
        .into());
    }
    if format == findings_export::Format::Sarif {
        return Err(UsageError(
            "--format sarif is for findings; a --kind report is table, json, ndjson, csv or markdown".into(),
        )
        .into());
    }
    Ok(())
}

/// `findings search`.
async fn run_search(
    args: &listing::SearchArgs,
    conn: &ConnectionArgs,
    matches: &ArgMatches,
) -> Result<(), Failure> {
    let Some(script) = scripting::prepare(&args.output.script, shape::AGENTIC_ISSUE)? else {
        return Ok(()); // the fields were listed
    };
    args.output.format()?;
    let probe = listing::Names::unchecked(filter_spec::SEARCH_NAMES).listing(script.gates());
    args.request(&probe)?;
    let settings = settings_here(conn, matches)?;
    let session = Session::open(&settings).await?;
    let (mut request, names) = listing::checked(&session, &probe, |n| args.request(n)).await?;
    request.limit = request.limit.or(settings.page_size_override());
    let file = args.output.file.path();
    let matched = until_interrupted(
        file,
        listing::search(&session.client, request, args, &script),
    )
    .await?;
    names.gate(&script, matched)
}

/// `findings show`.
async fn run_show(
    args: &show::ShowArgs,
    conn: &ConnectionArgs,
    matches: &ArgMatches,
) -> Result<(), Failure> {
    let Some(script) = scripting::prepare(&args.script, shape::FINDING)? else {
        return Ok(()); // the fields were listed
    };
    let format = args.format()?;
    let settings = settings_here(conn, matches)?;
    let session = Session::open(&settings).await?;
    let file = args.file.path();
    let matched =
        until_interrupted(file, show::run(&session.client, args, format, &script)).await?;
    script.gate(matched)
}

/// `findings scm list | update`.
async fn run_scm(
    command: scm::ScmCommand,
    conn: &ConnectionArgs,
    matches: &ArgMatches,
) -> Result<(), Failure> {
    match command {
        scm::ScmCommand::List(args) => {
            let Some(script) = scripting::prepare(&args.script, shape::SCM_CONFIG)? else {
                return Ok(()); // the fields were listed
            };
            let format = args.format()?;
            let settings = settings_here(conn, matches)?;
            let session = Session::open(&settings).await?;
            let file = args.file.path();
            let matched =
                until_interrupted(file, scm::list(&session.client, format, &args, &script)).await?;
            script.gate(matched)
        }
        scm::ScmCommand::Update(args) => {
            let settings = settings_here(conn, matches)?;
            write::refuse_if_read_only(&settings, "the SCM config update")?;
            let prepared = scm::prepare(args)?;
            let session = Session::open(&settings).await?;
            scm::run(&session.client, prepared, session.demo.is_some()).await
        }
    }
}

/// `findings diff`: connects only when one side is the live deployment.
async fn run_diff(
    args: &diff::DiffArgs,
    conn: &ConnectionArgs,
    matches: &ArgMatches,
) -> Result<(), Failure> {
    let Some(script) = scripting::prepare(&args.script, shape::CHANGE)? else {
        return Ok(()); // the fields were listed
    };
    args.format()?;
    args.categories()?;
    let session = if args.is_live() {
        let settings = settings_here(conn, matches)?;
        Some(Session::open(&settings).await?)
    } else {
        None
    };
    let client = session.as_ref().map(|s| &s.client);
    let matched = until_interrupted(args.file(), diff::run(args, client, &script)).await?;
    script.gate(matched)
}

/// `findings snapshot save`.
async fn run_snapshot_save(
    args: &snapshot::SaveArgs,
    conn: &ConnectionArgs,
    matches: &ArgMatches,
) -> Result<(), Failure> {
    let probe = listing::Names::unchecked(filter_spec::LIST_NAMES);
    args.request(&probe)?;
    let settings = settings_here(conn, matches)?;
    let session = Session::open(&settings).await?;
    // A snapshot is what a later diff compares with: never on a guess.
    let (request, _) = listing::checked(&session, &probe, |n| args.request(n)).await?;
    let count = until_interrupted(
        Some(args.path()),
        snapshot::save(&session.client, request, args),
    )
    .await?;
    eprintln!(
        "findings: saved {count} findings to {}",
        findings_base::text::one_line(&args.path().display().to_string())
    );
    Ok(())
}

/// `findings ticket | fix | feedback | remember`: the actions.
async fn run_action(
    command: actions::ActionCommand,
    conn: &ConnectionArgs,
    matches: &ArgMatches,
) -> Result<(), Failure> {
    let settings = settings_here(conn, matches)?;
    actions::run(command, &settings).await
}

/// No command: the TUI on a terminal, else a summary.
async fn run_without_command(
    snapshot: Option<&std::path::Path>,
    conn: &ConnectionArgs,
    matches: &ArgMatches,
) -> Result<(), Failure> {
    use std::io::IsTerminal;
    if snapshot.is_some() {
        offline::check_offline(matches)?;
    }
    let settings = settings_here(conn, matches)?;
    if !std::io::stdout().is_terminal() {
        // Piped: a summary instead of a screen.
        return if let Some(path) = snapshot {
            let opened = offline::open(path).await?;
            listing::overview(&opened.session.client).await
        } else {
            let session = Session::open(&settings).await?;
            listing::overview(&session.client).await
        };
    }
    interactive::run(settings, snapshot).await
}

#[cfg(test)]
mod completion_tests;
