//! `findings snapshot save` and `show`: every finding a filter matches,
//! kept in one file ([`findings_snapshot`]), and what such a file holds.

mod save;
mod show;

pub use save::{SaveArgs, save};
pub use show::{ShowArgs, show};

use super::Failure;
use clap::Subcommand;
use findings_snapshot::{Reader, SnapshotError};
use std::fs::File;
use std::io::{BufReader, Take};
use std::path::Path;

#[derive(Subcommand, Debug)]
pub enum SnapshotCommand {
    /// Save every finding the filters match (all pages) to one file
    Save(Box<SaveArgs>),
    /// Print a snapshot's header and its counts by severity and state
    Show(ShowArgs),
}

/// Opens a snapshot and reads its header; every error names the file.
pub(crate) fn open(path: &Path) -> Result<Reader<BufReader<Take<File>>>, Failure> {
    let file = findings_snapshot::open_file(path).map_err(|e| cannot_read(path, &e.to_string()))?;
    Reader::new(file).map_err(|e| snapshot_failure(path, &e))
}

/// A snapshot's error, naming the file.
pub(crate) fn snapshot_failure(path: &Path, e: &SnapshotError) -> Failure {
    cannot_read(path, &e.to_string())
}

fn cannot_read(path: &Path, said: &str) -> Failure {
    Failure::Runtime(format!(
        "{}: {said}",
        findings_base::text::one_line(&path.display().to_string())
    ))
}
