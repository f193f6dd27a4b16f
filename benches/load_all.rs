//! Loading every finding in the TUI (`G`: one stream of the largest pages,
//! the next asked for while the last is packed) against the headless
//! export of the same set (`findings issues --all --format ndjson --limit
//! 1000`), side by side against one demo server. Target (issue 28): the
//! TUI within 1.2x of the export.
//!
//! The TUI runs as it does for a user but for the terminal: the app, the
//! API worker over real HTTP, every reply handed to `update`. The demo
//! server is a `findings demo serve` process on a core of its own
//! (`support/own_core.rs`; `PIN=0` shares every core), as a deployment's
//! server runs on a machine of its own; the export and the TUI share the
//! others. Run, after `cargo build --release`: `cargo bench --bench
//! load_all` (FINDINGS=n, default 1,000,000; RUNS, default 3, each an
//! export then a load; FINDINGS_BIN, default target/release/findings).

// Test harness, not shipped: the benchmark pins itself to a core of its own. The product's only
// unsafe code is findings_base::sys (the architecture test keeps it so).
#![allow(unsafe_code)]

#[path = "support/figures.rs"]
mod figures;
#[path = "support/own_core.rs"]
mod own_core;
#[path = "support/tui_load.rs"]
mod tui_load;

use figures::spread;
use own_core::OwnCoreServer;
use std::time::Instant;

fn main() {
    if std::env::args().any(|a| a == "--list") {
        println!("load_all: bench");
        return;
    }
    let n: usize = std::env::var("FINDINGS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000);
    let runs: usize = std::env::var("RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3)
        .max(1);
    let bin = std::env::var("FINDINGS_BIN").unwrap_or_else(|_| "target/release/findings".into());
    // Before the runtime's threads start: they and the export keep off the
    // server's core.
    own_core::pin_off_server_core();
    findings_client::install_crypto_provider();
    let server = OwnCoreServer::start(&bin, n);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    println!(
        "load_all: a demo set of {n}, {runs} run(s); {}",
        server.placement()
    );
    let (mut exports, mut loads, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..runs {
        let headless = export(&bin, &server);
        let loaded = runtime.block_on(tui_load::load_everything(
            &server.url,
            &server.deployment,
            &server.token,
        ));
        let tui = loaded.seconds;
        let above = loaded.resident.saturating_sub(loaded.first_page_resident);
        println!(
            "  run: export {headless:6.2} s, TUI {tui:6.2} s ({} findings loaded); resident {:.1} MB with the first page, {:.1} MB with all: {} bytes a finding above the first page (target <= 250)",
            loaded.findings,
            mb(loaded.first_page_resident),
            mb(loaded.resident),
            above / u64::try_from(loaded.findings.max(1)).unwrap_or(1),
        );
        exports.push(headless);
        loads.push(tui);
        ratios.push(tui / headless);
    }
    println!(
        "  headless export (issues --all --format ndjson --limit 1000)  {} s",
        spread(&mut exports, 2)
    );
    println!(
        "  TUI, G to the end (streamed, pages of 1,000)               {} s",
        spread(&mut loads, 2)
    );
    println!(
        "  peak resident of the TUI's process {:.1} MB (VmHWM)",
        mb(figures::status_bytes("VmHWM:").unwrap_or(0))
    );
    let worst = ratios.iter().copied().fold(f64::MIN, f64::max);
    println!(
        "  ratio TUI / export, run by run {} (target <= 1.2): {}",
        spread(&mut ratios, 2),
        if worst <= 1.2 {
            "holds in every run"
        } else {
            "DOES NOT HOLD in every run"
        }
    );
}

#[allow(clippy::cast_precision_loss)] // a figure printed to a tenth of a MB
fn mb(bytes: u64) -> f64 {
    bytes as f64 / 1_048_576.0
}

/// The headless export of every finding, its output thrown away; seconds.
fn export(bin: &str, server: &OwnCoreServer) -> f64 {
    let started = Instant::now();
    let status = std::process::Command::new(bin)
        .args(["issues", "--all", "--format", "ndjson", "--limit", "1000"])
        .env("FINDINGS_BASE_URL", &server.url)
        .env("FINDINGS_DEPLOYMENT", &server.deployment)
        .env("FINDINGS_TOKEN", &server.token)
        // No config file: the usual place, in a folder that does not exist.
        .env_remove("FINDINGS_CONFIG")
        .env("XDG_CONFIG_HOME", "/nonexistent/findings-bench")
        .stdout(std::process::Stdio::null())
        .status()
        .expect("the findings binary (cargo build --release)");
    assert!(status.success(), "the export failed");
    started.elapsed().as_secs_f64()
}
