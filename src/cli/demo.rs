//! `findings demo serve`: the embedded demo server, standalone.

use super::Failure;
use crate::demo::{self, DemoOptions, DemoServer};
use clap::{Args, Subcommand};
use std::net::SocketAddr;

#[derive(Subcommand, Debug)]
pub enum DemoCommand {
    /// Serve the demo API until interrupted, and print how to reach it
    Serve(ServeArgs),
}

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on
    #[arg(long, default_value = "127.0.0.1:8787", value_name = "ADDR")]
    addr: SocketAddr,
    /// Number of findings to generate
    #[arg(long, default_value_t = demo::DEFAULT_FINDINGS, value_name = "N",
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(0..=demo::MAX_FINDINGS as u64))]
    findings: usize,
    /// Seed of the generated data (same seed, same data)
    #[arg(long, default_value_t = demo::DEFAULT_SEED, value_name = "S")]
    seed: u64,
    /// Token the server accepts (a demo value, not a secret)
    #[arg(long, default_value = demo::DEMO_TOKEN, value_name = "T")]
    token: String,
}

pub async fn run(command: DemoCommand) -> Result<(), Failure> {
    let DemoCommand::Serve(args) = command;
    if args.token.trim().is_empty() {
        return Err(Failure::Usage("--token must not be empty".into()));
    }
    let opts = DemoOptions {
        findings: args.findings,
        seed: args.seed,
        token: args.token.clone(),
        anchor: None,
    };
    let started = std::time::Instant::now();
    let server = DemoServer::start(opts, args.addr)
        .await
        .map_err(|e| Failure::Runtime(format!("cannot listen on {}: {e}", args.addr)))?;
    let configs: Vec<String> = server
        .state()
        .dataset
        .scm_configs
        .iter()
        .filter_map(|c| c.id.clone())
        .collect();
    println!("findings demo server listening on {}", server.url());
    println!("  deployment   {}", server.deployment());
    println!("  token        {}", server.token());
    println!(
        "  findings     {} (seed {}), ready in {} ms",
        args.findings,
        args.seed,
        started.elapsed().as_millis()
    );
    println!("  SCM configs  {}", configs.join(", "));
    println!();
    println!("Try:");
    println!(
        "  export FINDINGS_BASE_URL={} FINDINGS_DEPLOYMENT={} FINDINGS_TOKEN={}",
        server.url(),
        server.deployment(),
        server.token()
    );
    println!("  findings issues --max 10");
    println!("Press Ctrl-C to stop.");
    // Stop on Ctrl-C or SIGTERM (service managers and `kill`).
    #[cfg(unix)]
    {
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
            .map_err(|e| Failure::Runtime(format!("cannot wait for SIGTERM: {e}")))?;
        tokio::select! {
            r = tokio::signal::ctrl_c() => r.map_err(|e| Failure::Runtime(format!("cannot wait for Ctrl-C: {e}")))?,
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    tokio::signal::ctrl_c()
        .await
        .map_err(|e| Failure::Runtime(format!("cannot wait for Ctrl-C: {e}")))?;
    eprintln!("findings: demo server stopped");
    drop(server);
    Ok(())
}
