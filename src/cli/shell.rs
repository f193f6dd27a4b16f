//! `findings completions SHELL` and `findings man`: shell integration,
//! generated from the same clap definition that parses the command line.

use super::{Cli, Failure};
use clap::CommandFactory;
use std::io::Write;
use std::path::Path;

/// Writes the completion script for `shell` to stdout.
pub fn completions(shell: clap_complete::Shell) -> Result<(), Failure> {
    let mut cmd = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cmd, "findings", &mut out);
    std::io::stdout().lock().write_all(&out)?;
    Ok(())
}

/// Writes the man page (roff) to stdout, or one page per command into `dir`.
pub fn man(dir: Option<&Path>) -> Result<(), Failure> {
    let cmd = Cli::command();
    match dir {
        None => {
            let mut out = Vec::new();
            clap_mangen::Man::new(cmd).render(&mut out)?;
            std::io::stdout().lock().write_all(&out)?;
        }
        Some(dir) => {
            std::fs::create_dir_all(dir)
                .map_err(|e| Failure::Runtime(format!("cannot create {}: {e}", dir.display())))?;
            clap_mangen::generate_to(cmd, dir).map_err(|e| {
                Failure::Runtime(format!(
                    "cannot write the man pages to {}: {e}",
                    dir.display()
                ))
            })?;
            eprintln!("findings: man pages written to {}", dir.display());
        }
    }
    Ok(())
}
