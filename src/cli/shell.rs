//! `findings completions SHELL` and `findings man`: shell integration,
//! generated from the same clap definition that parses the command line.

use super::{Cli, Failure};
use crate::atomic_file::{self, Access, Replace};
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
            let fail = |e: std::io::Error| {
                Failure::Runtime(format!(
                    "cannot write the man pages to {}: {e}",
                    dir.display()
                ))
            };
            atomic_file::create_folder(dir, Access::Default).map_err(fail)?;
            let mut cmd = cmd.disable_help_subcommand(true);
            cmd.build();
            write_pages(cmd, dir).map_err(fail)?;
            eprintln!("findings: man pages written to {}", dir.display());
        }
    }
    Ok(())
}

/// A page for `cmd` and each of its subcommands (as clap_mangen's
/// `generate_to` does), each written whole and never through a link.
fn write_pages(cmd: clap::Command, dir: &Path) -> std::io::Result<()> {
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        write_pages(sub.clone(), dir)?;
    }
    let page = clap_mangen::Man::new(cmd);
    let mut roff = Vec::new();
    page.render(&mut roff)?;
    atomic_file::write(
        &dir.join(page.get_filename()),
        &roff,
        Access::Default,
        Replace::Existing,
    )
}
