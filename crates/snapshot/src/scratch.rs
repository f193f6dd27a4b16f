//! Temporary files that leave nothing behind, however the process ends:
//! a large diff's partitions and the Markdown summary's sections. Each is
//! made in a private folder (mode 0700, a random name) with `create_new`
//! and mode 0600, so no other local user reads or swaps it; on Unix its
//! name and the folder are removed as soon as it is open, so only the open
//! handle holds it (written, then read back from its start) and the kernel
//! frees it when the process ends, even by SIGKILL. Made with std: nothing
//! here needs a crate for it.

use super::{Category, Change, SnapshotError};
use serde::Deserialize;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Seek, Write};
use std::path::{Path, PathBuf};

/// Why a diff stopped: the snapshot (or its temporary files), or what was
/// given the changes.
#[derive(Debug)]
pub enum Halt<E> {
    Snapshot(SnapshotError),
    Said(E),
}

impl<E> From<SnapshotError> for Halt<E> {
    fn from(e: SnapshotError) -> Self {
        Halt::Snapshot(e)
    }
}

/// `n` new temporary files in `temp`, open to write and read back. The
/// [`Scratch`] returned is to be dropped after them: on Windows, which
/// cannot remove an open file, it holds their folder and removes it then
/// (on every way out but a kill); on Unix it holds nothing.
pub(crate) fn temp_files(temp: &Path, n: usize) -> Result<(Vec<File>, Scratch), SnapshotError> {
    let folder = Folder::new(temp)?;
    let files = (0..n)
        .map(|i| {
            let file = folder.create(&i.to_string())?;
            // Unix: the name is not needed past here (the file is never
            // opened again), so a kill leaves nothing to remove.
            if cfg!(unix) {
                let path = folder.0.join(i.to_string());
                std::fs::remove_file(&path).map_err(|e| scratch_error(&path, &e))?;
            }
            Ok(file)
        })
        .collect::<Result<Vec<File>, SnapshotError>>()?;
    // Unix: empty now, removed at once (on an error above, as it drops).
    // Windows, which cannot remove an open file: kept with the files.
    let folder = if cfg!(unix) {
        drop(folder);
        None
    } else {
        Some(folder)
    };
    Ok((files, Scratch { _folder: folder }))
}

/// What keeps the temporary files' folder until they are done with: on
/// Windows only (see [`temp_files`]).
#[must_use]
pub(crate) struct Scratch {
    _folder: Option<Folder>,
}

/// A private folder, removed with what it holds when dropped.
pub(crate) struct Folder(PathBuf);

impl Folder {
    pub(crate) fn new(temp: &Path) -> Result<Folder, SnapshotError> {
        let mut last = None;
        for _ in 0..8 {
            let path = temp.join(format!(
                "findings-diff-{}-{:016x}",
                std::process::id(),
                random()
            ));
            let mut builder = std::fs::DirBuilder::new();
            #[cfg(unix)]
            std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
            // Not recursive: a folder already there (or a link) is never
            // used, another name is tried.
            match builder.create(&path) {
                Ok(()) => return Ok(Folder(path)),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
                Err(e) => return Err(scratch_error(&path, &e)),
            }
        }
        let e = last.unwrap_or_else(|| io::Error::other("no name free"));
        Err(scratch_error(temp, &e))
    }

    /// A new file `name` in it, to write and read (mode 0600).
    pub(crate) fn create(&self, name: &str) -> Result<File, SnapshotError> {
        let path = self.0.join(name);
        let mut options = std::fs::OpenOptions::new();
        options.read(true).write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        options.open(&path).map_err(|e| scratch_error(&path, &e))
    }

    #[cfg(test)]
    pub(crate) fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub(crate) fn scratch_error(path: &Path, e: &io::Error) -> SnapshotError {
    SnapshotError::Scratch(format!("{}: {e}", path.display()))
}

/// An error of a temporary file named by none.
pub(crate) fn io_error(e: &io::Error) -> SnapshotError {
    scratch_error(Path::new("a partition"), e)
}

/// 64 bits that differ from run to run and call to call: std's hasher keys
/// are seeded from the system's randomness.
fn random() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    use std::sync::atomic::{AtomicU64, Ordering};
    static CALLS: AtomicU64 = AtomicU64::new(0);
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(CALLS.fetch_add(1, Ordering::Relaxed));
    hasher.finish()
}

/// Files being written, 64 KiB buffered each.
pub(crate) fn writers(files: Vec<File>) -> Vec<BufWriter<File>> {
    files
        .into_iter()
        .map(|f| BufWriter::with_capacity(64 * 1024, f))
        .collect()
}

/// The files written, flushed: a write that failed (the disk full) is an
/// error here. Nothing is synced (the files live as long as the diff).
pub(crate) fn written(writers: Vec<BufWriter<File>>) -> Result<Vec<File>, SnapshotError> {
    writers
        .into_iter()
        .map(|w| w.into_inner().map_err(|e| io_error(e.error())))
        .collect()
}

/// Writes `SEQ\tJSON\n`.
pub(crate) fn write_record<T: serde::Serialize>(
    out: &mut impl Write,
    seq: u64,
    value: &T,
) -> Result<(), SnapshotError> {
    let written = write!(out, "{seq}\t")
        .and_then(|()| serde_json::to_writer(&mut *out, value).map_err(io::Error::from))
        .and_then(|()| out.write_all(b"\n"));
    written.map_err(|e| io_error(&e))
}

/// A written file from its start, to read.
pub(crate) fn from_start(file: &mut File) -> Result<BufReader<&mut File>, SnapshotError> {
    file.rewind().map_err(|e| io_error(&e))?;
    Ok(BufReader::with_capacity(64 * 1024, file))
}

/// The next `SEQ\tJSON` line.
pub(crate) fn next_line<T: serde::de::DeserializeOwned>(
    input: &mut impl BufRead,
) -> Result<Option<(u64, T)>, SnapshotError> {
    let mut line = Vec::new();
    let read = input
        .read_until(b'\n', &mut line)
        .map_err(|e| io_error(&e))?;
    if read == 0 {
        return Ok(None);
    }
    let tab = memchr::memchr(b'\t', &line).ok_or_else(damaged)?;
    let seq = std::str::from_utf8(&line[..tab])
        .ok()
        .and_then(|s| s.parse().ok())
        .ok_or_else(damaged)?;
    let value = serde_json::from_slice(&line[tab + 1..]).map_err(|_| damaged())?;
    Ok(Some((seq, value)))
}

fn damaged() -> SnapshotError {
    SnapshotError::Scratch("a partition reads back damaged".into())
}

/// Changes put by in temporary files, one a kind ([`Category::ALL`]'s
/// order), then read back kind by kind: the Markdown summary's tables,
/// whatever their number, without holding them.
pub struct ChangeFiles {
    files: Vec<BufWriter<File>>,
    _scratch: Scratch,
}

impl ChangeFiles {
    /// The files, in the system's temporary folder.
    pub fn new() -> Result<ChangeFiles, SnapshotError> {
        let (files, scratch) = temp_files(&std::env::temp_dir(), Category::ALL.len())?;
        Ok(ChangeFiles {
            files: writers(files),
            _scratch: scratch,
        })
    }

    /// Puts `change` by with the others of its kind.
    pub fn put(&mut self, change: &Change) -> Result<(), SnapshotError> {
        let category = Category::parse(change.category).ok_or_else(damaged)?;
        let kind = Category::ALL.iter().position(|&c| c == category);
        let out = kind
            .and_then(|k| self.files.get_mut(k))
            .ok_or_else(damaged)?;
        write_record(out, 0, change)
    }

    /// Each change of `kind` put by so far, in the order put (again on
    /// each call).
    pub fn each<E>(
        &mut self,
        kind: Category,
        mut each: impl FnMut(Change) -> Result<(), E>,
    ) -> Result<(), Halt<E>> {
        let at = Category::ALL.iter().position(|&c| c == kind);
        let out = at.and_then(|k| self.files.get_mut(k)).ok_or_else(damaged)?;
        out.flush().map_err(|e| io_error(&e))?;
        // Positioned at its end again after: a later put appends.
        let mut input = from_start(out.get_mut())?;
        while let Some((_, change)) = next_line::<StoredChange>(&mut input)? {
            each(change.into_change()?).map_err(Halt::Said)?;
        }
        drop(input);
        out.get_mut()
            .seek(io::SeekFrom::End(0))
            .map_err(|e| io_error(&e))?;
        Ok(())
    }
}

/// A [`Change`] as a temporary file keeps it.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct StoredChange {
    category: String,
    id: String,
    severity: Option<String>,
    state: Option<String>,
    was: Option<String>,
    triage: Option<String>,
    triaged_by: Option<String>,
    triaged_at: Option<findings_model::Timestamp>,
    rule: Option<String>,
    repo: Option<String>,
    #[serde(rename = "ref")]
    ref_: Option<String>,
    path: Option<String>,
    ticket: Option<String>,
}

impl StoredChange {
    pub(crate) fn into_change(self) -> Result<Change, SnapshotError> {
        let category = Category::parse(&self.category).ok_or_else(damaged)?;
        Ok(Change {
            category: category.name(),
            id: self.id,
            severity: self.severity,
            state: self.state,
            was: self.was,
            triage: self.triage,
            triaged_by: self.triaged_by,
            triaged_at: self.triaged_at,
            rule: self.rule,
            repo: self.repo,
            ref_: self.ref_,
            path: self.path,
            ticket: self.ticket,
        })
    }
}
