//! `findings demo serve`: the embedded demo server, standalone.

use super::{Failure, at_least_one, offer_to};
use clap::builder::TypedValueParser;
use clap::{ArgGroup, Args, Subcommand, ValueHint};
use findings_demo::faults::{FaultKind, Faults};
use findings_demo::{self as demo, DemoOptions, DemoServer};
use std::io::Write;
use std::net::SocketAddr;
use std::time::Duration;

#[derive(Subcommand, Debug)]
pub enum DemoCommand {
    /// Serve the demo API until interrupted, and print how to reach it
    Serve(ServeArgs),
}

#[derive(Args, Debug)]
#[command(
    group(ArgGroup::new("faults").multiple(true).args(["latency", "fail_rate", "fault"])),
    after_help = "Fault injection (off unless a fault flag is given): --latency, --fail-rate \
        and --fault make the server misbehave, so you can see what the client does; \
        --fault-after, --fault-times and --fault-on-cursor narrow which requests suffer. \
        Example: findings demo serve --fault hang --fault-after 1 (the first page loads, \
        the next never answers)."
)]
pub struct ServeArgs {
    /// Address to listen on
    #[arg(long, default_value = "127.0.0.1:8787", value_name = "ADDR",
          value_hint = ValueHint::Other)]
    addr: SocketAddr,
    /// Number of findings to generate
    #[arg(long, default_value_t = demo::DEFAULT_FINDINGS, value_name = "N",
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(0..=demo::MAX_FINDINGS as u64),
          value_hint = ValueHint::Other)]
    findings: usize,
    /// Seed of the generated data (same seed, same data)
    #[arg(long, default_value_t = demo::DEFAULT_SEED, value_name = "S",
          value_hint = ValueHint::Other)]
    seed: u64,
    /// The data as it is N days later: findings new, fixed, reopened and
    /// triaged by someone since (the same seed and N, the same data), for
    /// a `findings diff` against a snapshot saved without it
    #[arg(long, default_value_t = 0, value_name = "N",
          value_parser = clap::value_parser!(u32).range(0..=3650), value_hint = ValueHint::Other)]
    days_later: u32,
    /// The one token the server accepts. Without it: demo-token and the
    /// built-in test tokens, everyone knows them, so on a loopback address
    /// only (and off loopback, not one of them)
    #[arg(long, value_name = "T", value_hint = ValueHint::Other)]
    token: Option<String>,
    /// Fault: wait this long before each answer (milliseconds)
    #[arg(long, value_name = "MS", help_heading = "Fault injection",
          value_parser = clap::value_parser!(u64).range(1..=600_000), value_hint = ValueHint::Other)]
    latency: Option<u64>,
    /// Fault: answer this fraction of requests (0 to 1, spread evenly) with --fail-status
    #[arg(long, value_name = "FRACTION", help_heading = "Fault injection", value_parser = fraction,
          value_hint = ValueHint::Other)]
    fail_rate: Option<f64>,
    /// Status of the --fail-rate answers (clients retry 502-504, never 500)
    #[arg(long, value_name = "STATUS", default_value_t = 503, requires = "fail_rate",
          help_heading = "Fault injection",
          value_parser = clap::builder::PossibleValuesParser::new(["500", "502", "503", "504"])
              .map(|s| s.parse::<u16>().unwrap_or(503)))]
    fail_status: u16,
    /// Fault: rate-limit[:SECS] (429 with Retry-After, default 1 s), reset (connection
    /// dropped mid-body), truncate (JSON cut in half), content-type[:TYPE] (JSON labelled
    /// text/plain or TYPE), html[:STATUS] (proxy error page, default 502; 200 = a sign-in
    /// page), huge[:MB] (pages padded to MB megabytes, default 10), loop-cursor (a page's
    /// cursor is its own), hang (never answers)
    #[arg(long, value_name = "KIND", help_heading = "Fault injection",
          value_parser = offer_to(|s: &str| FaultKind::parse(s), FAULTS),
          hide_possible_values = true)]
    fault: Option<FaultKind>,
    /// Serve the first N requests normally, then the faults
    #[arg(
        long,
        value_name = "N",
        default_value_t = 0,
        requires = "faults",
        help_heading = "Fault injection",
        value_hint = ValueHint::Other
    )]
    fault_after: u64,
    /// Spoil at most N requests, then serve normally again
    #[arg(long, value_name = "N", requires = "faults", help_heading = "Fault injection",
          value_parser = at_least_one("--fault-times"),
          value_hint = ValueHint::Other)]
    fault_times: Option<u64>,
    /// Spoil only requests for pages after the first (those with a cursor)
    #[arg(long, requires = "faults", help_heading = "Fault injection")]
    fault_on_cursor: bool,
}

/// The fault kinds shell completion offers for `--fault` (some take
/// `:ARG`).
const FAULTS: [&str; 8] = [
    "rate-limit",
    "reset",
    "truncate",
    "content-type",
    "html",
    "huge",
    "loop-cursor",
    "hang",
];

/// A fraction from 0 to 1 (`0.25`, `1`).
fn fraction(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(f) if (0.0..=1.0).contains(&f) => Ok(f),
        _ => Err(format!("{s:?} is not a fraction from 0 to 1 (e.g. 0.25)")),
    }
}

impl ServeArgs {
    /// The fault plan the flags ask for (none by default).
    fn faults(&self) -> Faults {
        Faults {
            latency: Duration::from_millis(self.latency.unwrap_or(0)),
            fail_rate: self.fail_rate.unwrap_or(0.0),
            fail_status: self.fail_status,
            kind: self.fault.clone(),
            after: self.fault_after,
            only_with_cursor: self.fault_on_cursor,
            times: self.fault_times,
        }
    }
}

/// Who can reach the server, and with which token: off loopback, only a
/// token of the user's own, and said loudly.
fn check_reach(args: &ServeArgs) -> Result<(), Failure> {
    if args.token.as_ref().is_some_and(|t| t.trim().is_empty()) {
        return Err(Failure::Usage("--token must not be empty".into()));
    }
    let ip = args.addr.ip();
    if !ip.is_loopback() {
        if args.token.is_none() {
            return Err(Failure::Usage(format!(
                "--addr {}: not a loopback address, so others can reach the server, and without --token it answers the built-in demo tokens everyone knows; give --token T (a token of your own), or listen on 127.0.0.1",
                args.addr
            )));
        }
        // --token demo-token-read-only is no token of one's own.
        if let Some(published) = args
            .token
            .as_deref()
            .map(str::trim)
            .filter(|t| demo::PUBLISHED_TOKENS.contains(t))
        {
            return Err(Failure::Usage(format!(
                "--token {published}: the demo publishes that token, everyone knows it, and --addr {} is not a loopback address, so others can reach the server; give --token T (a token of your own), or listen on 127.0.0.1",
                args.addr
            )));
        }
        // Loud: the data and its writes are open to whoever has the token.
        let reach = if ip.is_unspecified() {
            "on every interface of this machine"
        } else {
            "on an address that is not loopback"
        };
        let _ = writeln!(
            std::io::stderr(),
            "findings: WARNING: the demo server listens {reach} ({}): anyone who can reach it and knows the token can read and change its data",
            args.addr
        );
    }
    Ok(())
}

pub async fn run(command: DemoCommand) -> Result<(), Failure> {
    let DemoCommand::Serve(args) = command;
    check_reach(&args)?;
    let opts = DemoOptions {
        findings: args.findings,
        seed: args.seed,
        own_token_only: args.token.is_some(),
        token: args
            .token
            .clone()
            .unwrap_or_else(|| demo::DEMO_TOKEN.to_owned()),
        anchor: None,
        days_later: args.days_later,
    };
    let faults = args.faults();
    // Before listening: a SIGTERM sent once the port answers stops it
    // cleanly, never by the default action.
    #[cfg(unix)]
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .map_err(|e| Failure::Runtime(format!("cannot wait for SIGTERM: {e}")))?;
    let started = std::time::Instant::now();
    let server = DemoServer::start(opts, args.addr)
        .await
        .map_err(|e| Failure::Runtime(format!("cannot listen on {}: {e}", args.addr)))?;
    // Before the banner: whoever reads the URL meets the faults at once.
    server.set_faults(faults.clone());
    let configs: Vec<String> = server
        .state()
        .dataset
        .scm_configs
        .iter()
        .filter_map(|c| c.id.clone())
        .collect();
    let mut banner = format!("findings demo server listening on {}\n", server.url());
    let mut line = |text: String| {
        banner.push_str(&text);
        banner.push('\n');
    };
    line(format!("  deployment   {}", server.deployment()));
    line(format!("  token        {}", server.token()));
    line(format!(
        "  findings     {} (seed {}), ready in {} ms",
        args.findings,
        args.seed,
        started.elapsed().as_millis()
    ));
    line(format!("  SCM configs  {}", configs.join(", ")));
    if faults.is_active() {
        line(format!("  faults       {faults}"));
    }
    // Days later, the data's "now" is ahead of the clock: a client told it
    // (FINDINGS_NOW) counts ages and periods to the data's day, not today.
    let data_now = (args.days_later > 0)
        .then(|| {
            chrono::DateTime::from_timestamp(server.state().dataset.now(), 0)
                .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
        })
        .flatten();
    if let Some(now) = &data_now {
        line(format!(
            "  data as of   {now} ({} days later: FINDINGS_NOW below makes a client count ages and periods to it)",
            args.days_later
        ));
    }
    line(String::new());
    line("Try:".into());
    line(format!(
        "  export FINDINGS_BASE_URL={} FINDINGS_DEPLOYMENT={} FINDINGS_TOKEN={}{}",
        server.url(),
        server.deployment(),
        server.token(),
        data_now.map_or(String::new(), |now| format!(" FINDINGS_NOW={now}"))
    ));
    line("  findings issues --max 10".into());
    line("Press Ctrl-C to stop.".into());
    // The banner is for whoever watches; a closed stdout (`| head -1`, a
    // service manager) must not stop the server, so a failed write is let go.
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(banner.as_bytes()).and_then(|()| out.flush());
    drop(out);
    // Stop on Ctrl-C or SIGTERM (service managers and `kill`).
    #[cfg(unix)]
    {
        tokio::select! {
            r = tokio::signal::ctrl_c() => r.map_err(|e| Failure::Runtime(format!("cannot wait for Ctrl-C: {e}")))?,
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    tokio::signal::ctrl_c()
        .await
        .map_err(|e| Failure::Runtime(format!("cannot wait for Ctrl-C: {e}")))?;
    let _ = writeln!(std::io::stderr(), "findings: demo server stopped");
    drop(server);
    Ok(())
}
