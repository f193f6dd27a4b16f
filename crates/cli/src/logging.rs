//! Logging to a file: `--log-file PATH` and/or `FINDINGS_LOG=level`.
//!
//! Nothing is logged unless asked, and never to the terminal (the TUI owns
//! it). The client writes one line per HTTP attempt with the method, path,
//! status, duration and retry number; it never logs a header or a body, so
//! no token can reach the file. Only this crate's events are kept at the
//! level asked; other crates' only from `warn` up.

use super::Failure;
use findings_base::atomic_file::{self, Access};
use findings_config::{self as config, ENV_LOG};
use std::path::{Path, PathBuf};
use tracing_subscriber::filter::{LevelFilter, Targets};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

/// The file name used in the state folder when only `FINDINGS_LOG` is set.
pub const LOG_FILE_NAME: &str = "findings.log";

/// Starts logging when asked; returns the log file in use.
pub fn init(log_file: Option<&Path>) -> Result<Option<PathBuf>, Failure> {
    let level = match std::env::var(ENV_LOG) {
        Ok(v) if !v.trim().is_empty() => Some(parse_level(&v)?),
        _ => None,
    };
    let level = match (level, log_file) {
        (Some(LevelFilter::OFF), _) => return Ok(None),
        (Some(level), _) => level,
        (None, Some(_)) => LevelFilter::INFO,
        (None, None) => return Ok(None),
    };
    let path = match log_file {
        Some(p) => p.to_path_buf(),
        None => default_path()?,
    };
    let file = open(&path)?;
    let filter = Targets::new()
        .with_target(env!("CARGO_CRATE_NAME"), level)
        .with_default(level.min(LevelFilter::WARN));
    let layer = tracing_subscriber::fmt::layer()
        // Masked on the way out: an error's text may quote a secret.
        .with_writer(std::sync::Mutex::new(
            findings_base::redact::ScrubWriter::new(file),
        ))
        .with_ansi(false)
        .with_target(false);
    tracing_subscriber::registry()
        .with(layer)
        .with(filter)
        .try_init()
        .map_err(|e| Failure::Runtime(format!("cannot start logging: {e}")))?;
    Ok(Some(path))
}

fn parse_level(raw: &str) -> Result<LevelFilter, Failure> {
    raw.trim()
        .to_ascii_lowercase()
        .parse::<LevelFilter>()
        .map_err(|_| {
            Failure::Usage(format!(
                "{ENV_LOG}={raw:?}: expected a level: error, warn, info, debug, trace or off"
            ))
        })
}

/// `findings.log` in the state folder (`$XDG_STATE_HOME/findings` on Linux).
pub fn default_path() -> Result<PathBuf, Failure> {
    config::state_dir()
        .map(|d| d.join(LOG_FILE_NAME))
        .ok_or_else(|| {
            Failure::Usage(format!(
                "{ENV_LOG} is set but there is no state folder (no home directory); pass --log-file PATH"
            ))
        })
}

/// Opens the file for appending, creating it (and its folder) private to
/// the user; a link at its name is refused, never followed.
fn open(path: &Path) -> Result<std::fs::File, Failure> {
    let fail = |e: std::io::Error| {
        Failure::Runtime(format!("cannot open the log file {}: {e}", path.display()))
    };
    if let Some(dir) = path.parent() {
        atomic_file::create_folder(dir, Access::Private).map_err(fail)?;
    }
    atomic_file::open_append(path, Access::Private).map_err(fail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_parse_and_nonsense_is_refused() {
        assert_eq!(parse_level("debug").ok(), Some(LevelFilter::DEBUG));
        assert_eq!(parse_level(" INFO ").ok(), Some(LevelFilter::INFO));
        assert_eq!(parse_level("off").ok(), Some(LevelFilter::OFF));
        match parse_level("loud") {
            Err(Failure::Usage(msg)) => assert!(msg.contains("trace"), "{msg}"),
            other => panic!("{other:?}"),
        }
    }
}
