//! `findings config path|init|show`.

use super::Failure;
use clap::Subcommand;
use findings_base::atomic_file::{self, Access, Replace};
use findings_config::{self as config, Effective};
use std::io::Write;
use std::path::Path;

#[derive(Subcommand, Debug)]
pub enum ConfigCommand {
    /// Print the config file's path (FINDINGS_CONFIG, else the platform's config folder)
    Path,
    /// Write a commented example config file (never overwrites one)
    Init,
    /// Print the settings in force and where each comes from (secrets masked)
    Show,
}

pub fn path(path: &Path) -> Result<(), Failure> {
    writeln!(std::io::stdout().lock(), "{}", path.display())?;
    Ok(())
}

/// Writes [`config::EXAMPLE`] to `path`, private to the user, unless a file
/// is already there.
pub fn init(path: &Path) -> Result<(), Failure> {
    if let Some(dir) = path.parent() {
        atomic_file::create_folder(dir, Access::Private).map_err(|e| {
            Failure::Runtime(format!("cannot create the folder {}: {e}", dir.display()))
        })?;
    }
    // Never over an existing file (or a link).
    atomic_file::write(
        path,
        config::EXAMPLE.as_bytes(),
        Access::Private,
        Replace::Never,
    )
    .map_err(|e| match e.kind() {
        std::io::ErrorKind::AlreadyExists => Failure::Runtime(format!(
            "{} already exists; not overwritten (edit it, or move it away and run findings config init again)",
            path.display()
        )),
        _ => Failure::Runtime(format!("cannot create {}: {e}", path.display())),
    })?;
    eprintln!(
        "findings: wrote an example config to {} (every setting commented out)",
        path.display()
    );
    Ok(())
}

pub fn show(effective: &Effective, theme: &config::ThemeChoice) -> Result<(), Failure> {
    std::io::stdout()
        .lock()
        .write_all(config::show(effective, Some(theme)).as_bytes())?;
    Ok(())
}
