//! The command line: argument parsing, connection, and the headless
//! commands. This is wiring: it knows every part.

mod demo;
mod listing;
mod scm;

use crate::api::{ApiError, Client, Token};
use crate::config::{self, ConnectionInput, Target};
use crate::demo::{DemoOptions, DemoServer};
use crate::export::Format;
use clap::{Args, Parser, Subcommand};
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
        The API token is read from the FINDINGS_TOKEN environment variable, never from \
        the command line.",
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
    #[arg(long, global = true, env = config::ENV_BASE_URL, value_name = "URL")]
    base_url: Option<String>,
    /// Numeric id of the deployment (organization)
    #[arg(long, global = true, env = config::ENV_DEPLOYMENT, value_name = "ID")]
    deployment: Option<String>,
    /// Allow plain http:// to a host other than this machine
    #[arg(long, global = true)]
    allow_http: bool,
    /// Seconds to wait for a connection
    #[arg(long, global = true, value_name = "SECS", default_value_t = 10,
          value_parser = clap::value_parser!(u64).range(1..=600))]
    connect_timeout: u64,
    /// Seconds to wait for a whole answer
    #[arg(long, global = true, value_name = "SECS", default_value_t = 30,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    timeout: u64,
    /// Refuse every write (the SCM config update)
    #[arg(long, global = true)]
    read_only: bool,
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
}

/// Runs the command line and returns the process exit code.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
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
    match runtime.block_on(run(cli)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(msg)) => {
            eprintln!("findings: error: {msg}");
            ExitCode::from(2)
        }
        Err(Failure::Runtime(msg)) if is_broken_pipe(&msg) => ExitCode::SUCCESS,
        Err(Failure::Runtime(msg)) => {
            eprintln!("findings: error: {msg}");
            ExitCode::from(1)
        }
    }
}

/// A closed stdout (`findings issues | head`) is a normal end, not an error.
fn is_broken_pipe(msg: &str) -> bool {
    msg.contains("Broken pipe") || msg.contains("os error 32")
}

async fn run(cli: Cli) -> Result<(), Failure> {
    let conn = cli.connection;
    match cli.command {
        Some(Command::Demo { command }) => demo::run(command).await,
        Some(Command::Issues(args)) => {
            let request = args.request()?;
            let session = Session::open(&conn).await?;
            listing::issues(&session.client, request, &args).await
        }
        Some(Command::Report(args)) => {
            let request = args.request()?;
            let session = Session::open(&conn).await?;
            listing::report(&session.client, request, &args).await
        }
        Some(Command::Search(args)) => {
            let request = args.request()?;
            let session = Session::open(&conn).await?;
            listing::search(&session.client, request, &args).await
        }
        Some(Command::Scm { command }) => {
            if conn.read_only {
                return Err(Failure::Usage(
                    "--read-only is set: the SCM config update is a write".into(),
                ));
            }
            let prepared = scm::prepare(command)?;
            let session = Session::open(&conn).await?;
            scm::run(&session.client, prepared, session.demo.is_some()).await
        }
        None => {
            use std::io::IsTerminal;
            let session = Session::open_quiet(&conn, std::io::stdout().is_terminal()).await?;
            if !std::io::stdout().is_terminal() {
                // Piped: a summary instead of a screen.
                return listing::overview(&session.client).await;
            }
            let info = crate::tui::app::Session {
                deployment: session.client.deployment().to_owned(),
                base_url: session.client.base_url().to_owned(),
                demo: session.demo.is_some(),
                read_only: conn.read_only,
            };
            crate::tui::main(session.client.clone(), info)
                .await
                .map_err(Failure::Runtime)
        }
    }
}

/// A connected client, and the demo server behind it when there is one
/// (kept alive for as long as the session).
pub struct Session {
    pub client: Client,
    pub demo: Option<DemoServer>,
}

impl Session {
    async fn open(conn: &ConnectionArgs) -> Result<Session, Failure> {
        Self::open_quiet(conn, false).await
    }

    /// `quiet`: no demo notice on stderr (the TUI shows a DEMO badge).
    async fn open_quiet(conn: &ConnectionArgs, quiet: bool) -> Result<Session, Failure> {
        let input = ConnectionInput {
            base_url: conn.base_url.clone(),
            deployment: conn.deployment.clone(),
            token: std::env::var(config::ENV_TOKEN).ok().map(Token::new),
            allow_http: conn.allow_http,
            connect_timeout: Duration::from_secs(conn.connect_timeout),
            request_timeout: Duration::from_secs(conn.timeout),
        };
        match config::resolve(input)? {
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
                cfg.connect_timeout = Duration::from_secs(conn.connect_timeout);
                cfg.request_timeout = Duration::from_secs(conn.timeout);
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
    /// Output format: table, json, ndjson or csv (default: table on a terminal, else ndjson)
    #[arg(long, value_name = "FORMAT")]
    format: Option<String>,
    /// Follow cursors to the last page
    #[arg(long, conflicts_with = "max")]
    all: bool,
    /// Stop after N items (following cursors as needed)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    max: Option<u64>,
    /// Page size, 1 to 1000 (default 100)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(i64).range(1..=1000))]
    limit: Option<i64>,
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
