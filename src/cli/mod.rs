//! The command line: argument parsing, connection, and the headless
//! commands. This is wiring: it knows every part.

mod config_cmd;
mod demo;
mod listing;
mod logging;
mod scm;
mod shell;

use crate::api::{ApiError, Client, Token};
use crate::config::{self, CommandLine, Effective, Given, Source, Target};
use crate::demo::{DemoOptions, DemoServer};
use crate::export::Format;
use clap::builder::{PossibleValue, StringValueParser, TypedValueParser};
use clap::parser::ValueSource;
use clap::{ArgMatches, Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueHint};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

pub use crate::filter_spec::UsageError;

/// Why a command failed, and so its exit code.
#[derive(Debug)]
pub enum Failure {
    /// Bad flags or configuration (exit 2).
    Usage(String),
    /// The API or the network failed (exit 1).
    Runtime(String),
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
    fn from(e: ApiError) -> Self {
        Failure::Runtime(e.to_string())
    }
}

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Self {
        Failure::Runtime(e.to_string())
    }
}

#[derive(Parser, Debug)]
#[command(
    name = "findings",
    version,
    about = "A keyboard-driven terminal client for a security-findings platform",
    long_about = "A keyboard-driven terminal client for a security-findings platform.\n\n\
        With no subcommand it shows the findings of the deployment. With no base URL \
        from any source, every command runs against the embedded demo server.\n\n\
        The API token is read from the FINDINGS_TOKEN environment variable, or from the \
        token_command, token_file or token of a profile in the config file, never from \
        the command line. `findings config path` prints where the config file is.",
    after_help = "Exit codes: 0 success, 1 runtime or API error, 2 usage error."
)]
pub struct Cli {
    #[command(flatten)]
    connection: ConnectionArgs,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Args, Debug, Clone)]
struct ConnectionArgs {
    /// Base URL of the platform, e.g. https://findings.example.com
    #[arg(long, global = true, env = config::ENV_BASE_URL, value_name = "URL",
          value_hint = ValueHint::Other)]
    base_url: Option<String>,
    /// Numeric id of the deployment (organization)
    #[arg(long, global = true, env = config::ENV_DEPLOYMENT, value_name = "ID",
          value_hint = ValueHint::Other)]
    deployment: Option<String>,
    /// Allow plain http:// to a host other than this machine
    #[arg(long, global = true)]
    allow_http: bool,
    /// Seconds to wait for a connection
    #[arg(long, global = true, value_name = "SECS", default_value_t = 10,
          value_parser = clap::value_parser!(u64).range(1..=600), value_hint = ValueHint::Other)]
    connect_timeout: u64,
    /// Seconds to wait for a whole answer
    #[arg(long, global = true, value_name = "SECS", default_value_t = 30,
          value_parser = clap::value_parser!(u64).range(1..=3600), value_hint = ValueHint::Other)]
    timeout: u64,
    /// Refuse every write (the SCM config update)
    #[arg(long, global = true)]
    read_only: bool,
    /// Profile of the config file to use (default: the file's default_profile)
    #[arg(long, global = true, env = config::ENV_PROFILE, value_name = "NAME",
          value_hint = ValueHint::Other)]
    profile: Option<String>,
    /// Write a log line per HTTP request to this file (level from FINDINGS_LOG, default info)
    #[arg(long, global = true, value_name = "PATH", value_hint = ValueHint::FilePath)]
    log_file: Option<PathBuf>,
    /// The TUI's colours: default, dark, light or high-contrast (NO_COLOR turns colours off)
    #[arg(long, global = true, env = config::ENV_THEME, value_name = "NAME",
          value_parser = offer(crate::tui::theme::NAMES), hide_possible_values = true)]
    theme: Option<String>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List findings (List issues), with filters, sort and include flags
    Issues(listing::IssuesArgs),
    /// Dashboard report findings with totals by type
    Report(listing::ReportArgs),
    /// Search issues found by agentic workflows
    Search(listing::SearchArgs),
    /// Source-control integration configs
    Scm {
        #[command(subcommand)]
        command: scm::ScmCommand,
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

/// Runs the command line and returns the process exit code.
pub fn main() -> ExitCode {
    let parsed = Cli::command()
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m).map(|cli| (cli, m)));
    let (cli, matches) = match parsed {
        Ok(parsed) => parsed,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
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
fn report(failure: Failure) -> ExitCode {
    match failure {
        Failure::Usage(msg) => {
            eprintln!("findings: error: {msg}");
            ExitCode::from(2)
        }
        Failure::Runtime(msg) if is_broken_pipe(&msg) => ExitCode::SUCCESS,
        Failure::Runtime(msg) => {
            eprintln!("findings: error: {msg}");
            ExitCode::from(1)
        }
    }
}

/// A closed stdout (`findings issues | head`) is a normal end, not an error.
fn is_broken_pipe(msg: &str) -> bool {
    msg.contains("Broken pipe") || msg.contains("os error 32")
}

async fn run(cli: Cli, matches: &ArgMatches) -> Result<(), Failure> {
    let conn = cli.connection;
    match cli.command {
        Some(Command::Demo { command }) => demo::run(command).await,
        Some(Command::Completions { shell }) => shell::completions(shell),
        Some(Command::Man { dir }) => shell::man(dir.as_deref()),
        Some(Command::Config { command }) => {
            let path = config::config_path()?;
            match command {
                config_cmd::ConfigCommand::Path => config_cmd::path(&path),
                config_cmd::ConfigCommand::Init => config_cmd::init(&path),
                config_cmd::ConfigCommand::Show => {
                    let settings = settings(&conn, matches, &path)?;
                    let theme = settings.theme_choice(no_color())?;
                    config_cmd::show(&settings, &theme)
                }
            }
        }
        Some(Command::Issues(args)) => {
            let mut request = args.request()?;
            let settings = settings_here(&conn, matches)?;
            request.limit = request.limit.or(settings.page_size_override());
            let session = Session::open(&settings).await?;
            listing::issues(&session.client, request, &args).await
        }
        Some(Command::Report(args)) => {
            let mut request = args.request()?;
            let settings = settings_here(&conn, matches)?;
            request.limit = request.limit.or(settings.page_size_override());
            let session = Session::open(&settings).await?;
            listing::report(&session.client, request, &args).await
        }
        Some(Command::Search(args)) => {
            let mut request = args.request()?;
            let settings = settings_here(&conn, matches)?;
            request.limit = request.limit.or(settings.page_size_override());
            let session = Session::open(&settings).await?;
            listing::search(&session.client, request, &args).await
        }
        Some(Command::Scm { command }) => {
            let settings = settings_here(&conn, matches)?;
            if settings.read_only.value {
                return Err(Failure::Usage(format!(
                    "read-only is set ({}): the SCM config update is a write",
                    settings.read_only.source
                )));
            }
            let prepared = scm::prepare(command)?;
            let session = Session::open(&settings).await?;
            scm::run(&session.client, prepared, session.demo.is_some()).await
        }
        None => {
            use std::io::IsTerminal;
            let settings = settings_here(&conn, matches)?;
            if !std::io::stdout().is_terminal() {
                // Piped: a summary instead of a screen.
                let session = Session::open(&settings).await?;
                return listing::overview(&session.client).await;
            }
            // The user's files are checked before anything starts (a demo
            // server, a token command) and before the terminal is taken.
            let keymap = user_keymap()?;
            let theme = crate::tui::theme::Theme::chosen(&settings.theme_choice(no_color())?);
            let session = Session::open_quiet(&settings, true).await?;
            let default_view = (settings.default_sort.is_some()
                || settings.default_direction.is_some()
                || settings.default_filters.is_some())
            .then(|| crate::tui::app::SavedView {
                name: "default".into(),
                sort_by: settings.default_sort.as_ref().map(|g| g.value.clone()),
                direction: settings.default_direction.as_ref().map(|g| g.value.clone()),
                filters: settings
                    .default_filters
                    .as_ref()
                    .map(|g| g.value.clone())
                    .unwrap_or_default(),
            });
            let info = crate::tui::app::Session {
                deployment: session.client.deployment().to_owned(),
                base_url: session.client.base_url().to_owned(),
                demo: session.demo.is_some(),
                read_only: settings.read_only.value,
                default_pane: crate::tui::app::PaneId::named(&settings.default_pane.value),
                default_view,
                views: settings.saved_views(),
                page_size: Some(settings.page_size.value),
                last_visit: Default::default(),
                visits_file: None,
            };
            let info = with_visits(info, settings.profile.as_ref().map(|g| g.value.as_str()));
            crate::tui::main(
                session.client.clone(),
                info,
                keymap,
                theme,
                crate::config::state_dir(),
            )
            .await
            .map_err(Failure::Runtime)
        }
    }
}

/// What the session needs for "new since last visit": the profile's last
/// visits from the state folder (the demo and a run without a profile have
/// their own). A damaged file is logged and replaced when the app ends.
fn with_visits(
    mut info: crate::tui::app::Session,
    profile: Option<&str>,
) -> crate::tui::app::Session {
    use crate::tui::visits::VisitsFile;
    let Some(dir) = crate::config::state_dir() else {
        return info;
    };
    // The embedded demo's address changes with every start; a real
    // deployment is told apart by where it is, should a flag point a
    // profile elsewhere.
    let key = if info.demo {
        "(demo)".to_owned()
    } else {
        format!(
            "{} {} deployment {}",
            profile.unwrap_or("(no profile)"),
            info.base_url,
            info.deployment
        )
    };
    let file = VisitsFile::new(&dir, &key);
    match file.load() {
        Ok(visits) => info.last_visit = visits,
        Err(e) => tracing::warn!("{e}"),
    }
    info.visits_file = Some(file);
    info
}

/// The effective settings, from the config file at its usual place.
fn settings_here(conn: &ConnectionArgs, matches: &ArgMatches) -> Result<Effective, Failure> {
    settings(conn, matches, &config::config_path()?)
}

/// Flags > environment > the profile of the config file at `path` >
/// defaults.
fn settings(
    conn: &ConnectionArgs,
    matches: &ArgMatches,
    path: &Path,
) -> Result<Effective, Failure> {
    let given = |value: &Option<String>, id: &str, flag: &'static str, env: &'static str| {
        value.clone().map(|v| {
            let source = match value_source(matches, id) {
                Some(ValueSource::EnvVariable) => Source::Env(env),
                _ => Source::Flag(flag),
            };
            Given::new(v, source)
        })
    };
    let cli = CommandLine {
        base_url: given(
            &conn.base_url,
            "base_url",
            "--base-url",
            config::ENV_BASE_URL,
        ),
        deployment: given(
            &conn.deployment,
            "deployment",
            "--deployment",
            config::ENV_DEPLOYMENT,
        ),
        profile: given(&conn.profile, "profile", "--profile", config::ENV_PROFILE),
        theme: given(&conn.theme, "theme", "--theme", config::ENV_THEME),
        allow_http: conn.allow_http,
        read_only: conn.read_only,
        connect_timeout: Duration::from_secs(conn.connect_timeout),
        request_timeout: Duration::from_secs(conn.timeout),
        timeout_sources: (
            flag_or_default(matches, "connect_timeout", "--connect-timeout"),
            flag_or_default(matches, "timeout", "--timeout"),
        ),
    };
    let env_token = std::env::var(config::ENV_TOKEN).ok().map(Token::new);
    let loaded = config::load(path)?;
    Ok(config::effective(
        cli,
        env_token,
        path.to_owned(),
        loaded.as_ref(),
    )?)
}

fn flag_or_default(matches: &ArgMatches, id: &str, flag: &'static str) -> Source {
    match value_source(matches, id) {
        Some(ValueSource::CommandLine) => Source::Flag(flag),
        _ => Source::Default,
    }
}

/// Where a global argument's value came from, looking through the
/// subcommands too (a global flag may be given after the subcommand).
fn value_source(matches: &ArgMatches, id: &str) -> Option<ValueSource> {
    let mut best = None;
    let mut m = Some(matches);
    while let Some(current) = m {
        if current.try_contains_id(id).unwrap_or(false) {
            best = best.max(current.value_source(id));
        }
        m = current.subcommand().map(|(_, sub)| sub);
    }
    best
}

/// A connected client, and the demo server behind it when there is one
/// (kept alive for as long as the session).
pub struct Session {
    pub client: Client,
    pub demo: Option<DemoServer>,
}

impl Session {
    async fn open(settings: &Effective) -> Result<Session, Failure> {
        Self::open_quiet(settings, false).await
    }

    /// `quiet`: no demo notice on stderr (the TUI shows a DEMO badge).
    async fn open_quiet(settings: &Effective, quiet: bool) -> Result<Session, Failure> {
        match settings.target()? {
            Target::Remote(cfg) => Ok(Session {
                client: Client::new(cfg)?,
                demo: None,
            }),
            Target::Demo => {
                let server = DemoServer::start_local(DemoOptions::default())
                    .await
                    .map_err(|e| Failure::Runtime(format!("cannot start the demo server: {e}")))?;
                if !quiet {
                    eprintln!(
                        "findings: no base URL configured; using the embedded demo server at {} (deployment {})",
                        server.url(),
                        server.deployment()
                    );
                }
                let mut cfg = crate::api::ClientConfig::new(
                    server.url(),
                    server.deployment(),
                    Token::new(server.token()),
                );
                cfg.connect_timeout = settings.connect_timeout;
                cfg.request_timeout = settings.request_timeout;
                Ok(Session {
                    client: Client::new(cfg)?,
                    demo: Some(server),
                })
            }
        }
    }
}

/// Output options shared by the listing commands.
#[derive(Args, Debug, Clone)]
pub struct OutputArgs {
    /// Output format: table, json, ndjson, csv, sarif or markdown (default: table on a
    /// terminal, else ndjson)
    #[arg(long, value_name = "FORMAT", value_parser = offer(Format::NAMES.iter().copied()),
          hide_possible_values = true)]
    format: Option<String>,
    /// Follow cursors to the last page
    #[arg(long, conflicts_with = "max")]
    all: bool,
    /// Stop after N items (following cursors as needed)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..),
          value_hint = ValueHint::Other)]
    max: Option<u64>,
    /// Page size, 1 to 1000 (default: the profile's page_size, else 100)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(i64).range(1..=1000),
          value_hint = ValueHint::Other)]
    limit: Option<i64>,
}

/// The value parser of a flag whose values are a fixed set that the flag's
/// own code checks: it takes any text, as a plain `String` flag does (so
/// the names, spellings and errors stay the flag's), and offers `values` to
/// shell completion, which would otherwise offer file names.
fn offer(values: impl IntoIterator<Item = &'static str>) -> Offering<StringValueParser> {
    offer_to(StringValueParser::new(), values)
}

/// `inner`, parsing as it does, with `values` offered to shell completion.
fn offer_to<P>(inner: P, values: impl IntoIterator<Item = &'static str>) -> Offering<P> {
    Offering {
        inner,
        values: values.into_iter().collect(),
    }
}

/// See [`offer`].
#[derive(Clone)]
struct Offering<P> {
    inner: P,
    values: Vec<&'static str>,
}

impl<P: TypedValueParser> TypedValueParser for Offering<P> {
    type Value = P::Value;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Self::Value, clap::Error> {
        self.inner.parse_ref(cmd, arg, value)
    }

    fn parse(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: std::ffi::OsString,
    ) -> Result<Self::Value, clap::Error> {
        self.inner.parse(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(self.values.iter().map(|&v| PossibleValue::new(v))))
    }
}

impl OutputArgs {
    fn format(&self) -> Result<Format, UsageError> {
        use std::io::IsTerminal;
        match &self.format {
            None if std::io::stdout().is_terminal() => Ok(Format::Table),
            None => Ok(Format::Ndjson),
            Some(f) => Format::parse(f).ok_or_else(|| {
                UsageError(format!(
                    "unknown format {f:?}; valid formats: {}",
                    Format::NAMES.join(", ")
                ))
            }),
        }
    }
}

/// `NO_COLOR` set to anything but "" (<https://no-color.org>).
fn no_color() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

/// The default keymap with the user's `keymap.toml` (beside the config file)
/// merged over it; a bad file is a usage error naming it.
fn user_keymap() -> Result<crate::tui::keymap::Keymap, Failure> {
    let defaults = crate::tui::keymap::Keymap::default_keymap();
    let Ok(path) = crate::config::keymap_path() else {
        return Ok(defaults);
    };
    match crate::config::keymap_file::KeymapFile::read(&path).map_err(Failure::Usage)? {
        Some(file) => Ok(defaults.with_overrides(file)),
        None => Ok(defaults),
    }
}

#[cfg(test)]
mod completion_tests {
    use super::*;

    /// Every flag with values offered to shell completion, as the argv
    /// prefix that reaches it (subcommands and required positionals), the
    /// flag, and the values.
    fn offered() -> Vec<(Vec<String>, String, Vec<String>)> {
        fn walk(
            cmd: &clap::Command,
            path: Vec<String>,
            out: &mut Vec<(Vec<String>, String, Vec<String>)>,
        ) {
            // Global flags once, at the top.
            let args = cmd
                .get_arguments()
                .filter(|a| a.get_action().takes_values())
                .filter(|a| path.len() == 1 || !a.is_global_set());
            for arg in args {
                let (Some(long), Some(values)) =
                    (arg.get_long(), arg.get_value_parser().possible_values())
                else {
                    continue;
                };
                let values = values
                    .filter(|v| !v.is_hide_set())
                    .map(|v| v.get_name().to_owned());
                out.push((path.clone(), format!("--{long}"), values.collect()));
            }
            for sub in cmd.get_subcommands() {
                let mut path = path.clone();
                path.push(sub.get_name().to_owned());
                if sub.get_positionals().any(|p| p.is_required_set()) {
                    path.push("1001".into());
                }
                walk(sub, path, out);
            }
        }
        let mut cmd = Cli::command();
        cmd.build();
        let mut out = Vec::new();
        walk(&cmd, vec!["findings".into()], &mut out);
        out
    }

    #[test]
    fn fixed_set_flags_offer_their_values_and_accept_each() {
        let offered = offered();
        let flags: Vec<(String, &str)> = offered
            .iter()
            .map(|(path, flag, _)| (path[1..].join(" "), flag.as_str()))
            .collect();
        for expected in [
            ("", "--theme"),
            ("issues", "--format"),
            ("issues", "--sort"),
            ("issues", "--type"),
            ("issues", "--include"),
            ("report", "--report-type"),
            ("report", "--finding-state"),
            ("report", "--severity"),
            ("report", "--type"),
            ("search", "--sort"),
            ("search", "--format"),
            ("scm update 1001", "--format"),
            ("scm update 1001", "--auto-scan"),
            ("demo serve", "--fault"),
        ] {
            assert!(
                flags.iter().any(|(p, f)| (p.as_str(), *f) == expected),
                "{expected:?} offers no values: {flags:?}"
            );
        }
        for (path, flag, values) in &offered {
            assert!(!values.is_empty(), "{path:?} {flag}");
            for value in values {
                let mut argv = path.clone();
                argv.extend([flag.clone(), value.clone()]);
                if flag == "--fail-status" {
                    // It needs the rate of the failures it is the status of.
                    argv.extend(["--fail-rate".into(), "0.5".into()]);
                }
                let cli = Cli::try_parse_from(&argv)
                    .unwrap_or_else(|e| panic!("{argv:?} does not parse: {e}"));
                accepted(cli, flag, value).unwrap_or_else(|e| panic!("{argv:?}: {e}"));
            }
        }
    }

    /// Whether the command takes `value` for `flag` past clap: the checks
    /// the flag's own code makes.
    fn accepted(cli: Cli, flag: &str, value: &str) -> Result<(), String> {
        let usage = |e: UsageError| e.0;
        if flag == "--theme" {
            crate::tui::theme::Theme::new(value, None, false)?;
        }
        if flag == "--format" && Format::parse(value).is_none() {
            return Err(format!("unknown format {value}"));
        }
        match cli.command {
            Some(Command::Issues(args)) => args.request().map(drop).map_err(usage),
            Some(Command::Report(args)) => args.request().map(drop).map_err(usage),
            // `search` names SARIF among the formats and refuses it, saying
            // why.
            Some(Command::Search(_)) if value == "sarif" => Ok(()),
            Some(Command::Search(args)) => args.request().map(drop).map_err(usage),
            Some(Command::Scm { .. }) => {
                // With something to change, so that only the flag is judged.
                let mut argv = vec!["findings", "scm", "update", "1001", "--namespace", "ns"];
                argv.extend(["--yes", flag, value]);
                let cli = Cli::try_parse_from(&argv).map_err(|e| e.to_string())?;
                let Some(Command::Scm { command }) = cli.command else {
                    unreachable!()
                };
                scm::prepare(command)
                    .map(drop)
                    .map_err(|e| format!("{e:?}"))
            }
            _ => Ok(()),
        }
    }

    /// What `offer` changes is completion only: any text still reaches the
    /// flag's own check, which names the valid values as before.
    #[test]
    fn offering_values_leaves_parsing_to_the_flag() {
        let cli =
            Cli::try_parse_from(["findings", "issues", "--sort", "SORT_BY_SEVERITY"]).unwrap();
        let Some(Command::Issues(args)) = cli.command else {
            unreachable!()
        };
        assert_eq!(
            args.request().unwrap().sort_by,
            Some(crate::api::model::SortBy::Severity)
        );
        let cli = Cli::try_parse_from(["findings", "issues", "--sort", "colour"]).unwrap();
        let Some(Command::Issues(args)) = cli.command else {
            unreachable!()
        };
        let e = args.request().unwrap_err();
        assert!(
            e.0.starts_with("unknown sort field \"colour\"; valid: severity, ref"),
            "{}",
            e.0
        );
    }
}
