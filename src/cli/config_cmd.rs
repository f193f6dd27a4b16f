//! `findings config path|init|show`.

use super::Failure;
use crate::config::{self, Effective};
use clap::Subcommand;
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
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
        && !dir.exists()
    {
        let mut builder = std::fs::DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        builder.create(dir).map_err(|e| {
            Failure::Runtime(format!("cannot create the folder {}: {e}", dir.display()))
        })?;
    }
    let mut options = std::fs::OpenOptions::new();
    // create_new: an existing file (or a link) is never replaced.
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = match options.open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            return Err(Failure::Runtime(format!(
                "{} already exists; not overwritten (edit it, or move it away and run findings config init again)",
                path.display()
            )));
        }
        Err(e) => {
            return Err(Failure::Runtime(format!(
                "cannot create {}: {e}",
                path.display()
            )));
        }
    };
    file.write_all(config::EXAMPLE.as_bytes())
        .map_err(|e| Failure::Runtime(format!("cannot write {}: {e}", path.display())))?;
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
