//! A diff whose old side is a snapshot file, with memory that does not grow
//! with it. Up to a bound ([`DIFF_BOUND`] findings) the old side is held
//! as a [`Baseline`] and the new side compared as it streams, as always.
//! Past it, both sides' entries go into partition files on disk by a hash
//! of the id (a finding's every copy in one), each partition is compared
//! alone holding only its old entries, and the changes are put back in the
//! order the in-memory diff gives them: the new side's order, then the old
//! side's for `gone`. Nothing is said until every partition is compared.

use super::{Baseline, Change, Entry, Header, Reader, SnapshotError};
use serde::Deserialize;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

/// The most old findings a diff holds in memory at once: a [`Baseline`] of
/// a million is about 40 MB (the diff's peak at a million), so a larger
/// side is compared a million at a time rather than held whole (329 MB at
/// ten million).
pub const DIFF_BOUND: u64 = 1_000_000;

/// The most partitions: each is a file open while a side is written (ten
/// at [`crate::MAX_FINDINGS`] with [`DIFF_BOUND`]); only a bound far
/// smaller than the default reaches it, and then holds more a partition.
const MAX_PARTITIONS: u64 = 64;

/// The old side of a diff, read from its file.
pub struct Differ {
    old: PathBuf,
    mode: Mode,
}

enum Mode {
    Memory(Box<Baseline>),
    Disk(Box<Spill>),
}

/// The partitions of a diff too large to hold.
struct Spill {
    scratch: Scratch,
    parts: u64,
    /// Whether either side keeps no tickets (a version 1 snapshot).
    tickets_unknown: bool,
    /// The new side's partitions, being written; its findings so far.
    new: Vec<BufWriter<File>>,
    new_count: u64,
}

impl Differ {
    /// Reads the old side from `path` (its header returned): held in
    /// memory up to [`DIFF_BOUND`] findings, else written into partitions
    /// in a private temporary folder.
    pub fn open(path: &Path) -> Result<(Header, Differ), SnapshotError> {
        Differ::open_with(path, DIFF_BOUND, &std::env::temp_dir())
    }

    /// [`Differ::open`] with another bound, the partitions in a folder
    /// made in `temp` (tests force a tiny bound).
    pub fn open_with(
        path: &Path,
        bound: u64,
        temp: &Path,
    ) -> Result<(Header, Differ), SnapshotError> {
        let mut reader = Reader::new(crate::open_file(path)?)?;
        let header = reader.header().clone();
        let tickets = Baseline::records_tickets(header.version);
        let mut baseline = Baseline::default();
        if !tickets {
            baseline.without_tickets();
        }
        // Within the bound: the whole old side in memory, as ever.
        let in_memory = |mut baseline: Baseline, header: Header| {
            baseline.ready();
            let mode = Mode::Memory(Box::new(baseline));
            let old = path.into();
            Ok((header, Differ { old, mode }))
        };
        let mut count = 0u64;
        while count < bound {
            let Some(entry) = reader.next_entry()? else {
                return in_memory(baseline, header);
            };
            baseline.add(&entry)?;
            count += 1;
        }
        if !reader.skip_finding()? {
            return in_memory(baseline, header);
        }
        // Larger than the bound: counted to the end unparsed, so the
        // partitions are sized to hold about the bound each.
        drop(baseline);
        count += 1;
        while reader.skip_finding()? {
            count += 1;
        }
        let parts = count.div_ceil(bound.max(1)).clamp(2, MAX_PARTITIONS);
        let scratch = Scratch::new(temp)?;
        let mut old = scratch.writers("old", parts)?;
        let mut reader = Reader::new(crate::open_file(path)?)?;
        let mut seq = 0u64;
        while let Some(entry) = reader.next_entry()? {
            write_line(&mut old, parts, &entry.id, seq, &entry)?;
            seq += 1;
        }
        finish_writers(old)?;
        let new = scratch.writers("new", parts)?;
        let spill = Spill {
            scratch,
            parts,
            tickets_unknown: !tickets,
            new,
            new_count: 0,
        };
        let mode = Mode::Disk(Box::new(spill));
        Ok((
            header,
            Differ {
                old: path.into(),
                mode,
            },
        ))
    }

    /// Whether the old side went to disk (it was larger than the bound).
    pub fn is_partitioned(&self) -> bool {
        matches!(self.mode, Mode::Disk(_))
    }

    /// The new side keeps no tickets (a version 1 snapshot): no ticket
    /// change is said.
    pub fn without_tickets(&mut self) {
        match &mut self.mode {
            Mode::Memory(baseline) => baseline.without_tickets(),
            Mode::Disk(spill) => spill.tickets_unknown = true,
        }
    }

    /// A finding of the new side: compared now (`each` gets its changes),
    /// or, partitioned, written for later.
    pub fn compare(&mut self, new: &Entry, each: impl FnMut(Change)) -> Result<(), SnapshotError> {
        match &mut self.mode {
            Mode::Memory(baseline) => {
                baseline.compare(new, each);
                Ok(())
            }
            Mode::Disk(spill) => {
                write_line(&mut spill.new, spill.parts, &new.id, spill.new_count, new)?;
                spill.new_count += 1;
                Ok(())
            }
        }
    }

    /// Once the new side is compared: the changes not said yet (all of
    /// them, partitioned) then the findings gone, each to `each`.
    pub fn finish<E>(self, mut each: impl FnMut(Change) -> Result<(), E>) -> Result<(), Halt<E>> {
        match self.mode {
            Mode::Memory(mut baseline) => {
                // The old side again, for what the new side no longer has.
                let file = crate::open_file(&self.old).map_err(SnapshotError::from)?;
                let mut reader = Reader::new(file)?;
                while let Some(entry) = reader.next_entry()? {
                    if let Some(change) = baseline.gone(&entry) {
                        each(change).map_err(Halt::Said)?;
                    }
                }
                Ok(())
            }
            Mode::Disk(spill) => spill.finish(each),
        }
    }
}

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

impl Spill {
    fn finish<E>(self, mut each: impl FnMut(Change) -> Result<(), E>) -> Result<(), Halt<E>> {
        let Spill {
            scratch,
            parts,
            tickets_unknown,
            new,
            ..
        } = self;
        finish_writers(new)?;
        let mut changes = scratch.writers("changes", parts)?;
        let mut gone = scratch.writers("gone", parts)?;
        for part in 0..parts {
            let mut baseline = Baseline::default();
            if tickets_unknown {
                baseline.without_tickets();
            }
            let old = scratch.path("old", part);
            for_each_line(&old, |_, entry: Entry| baseline.add(&entry))?;
            baseline.ready();
            let out = &mut changes[to_index(part)];
            for_each_line(&scratch.path("new", part), |seq, entry: Entry| {
                let mut written = Ok(());
                baseline.compare(&entry, |change| {
                    if written.is_ok() {
                        written = write_change(out, seq, &change);
                    }
                });
                written
            })?;
            let out = &mut gone[to_index(part)];
            for_each_line(&old, |seq, entry: Entry| match baseline.gone(&entry) {
                Some(change) => write_change(out, seq, &change),
                None => Ok(()),
            })?;
            // What is compared no longer needs its room on disk.
            let _ = std::fs::remove_file(&old);
            let _ = std::fs::remove_file(scratch.path("new", part));
        }
        finish_writers(changes)?;
        finish_writers(gone)?;
        merge(&scratch, "changes", parts, &mut each)?;
        merge(&scratch, "gone", parts, &mut each)
    }
}

/// The changes of every partition of `name` in the order of their
/// findings' numbers (each partition's already in it).
fn merge<E>(
    scratch: &Scratch,
    name: &str,
    parts: u64,
    each: &mut impl FnMut(Change) -> Result<(), E>,
) -> Result<(), Halt<E>> {
    let mut inputs = Vec::new();
    let mut heads = BinaryHeap::new();
    for part in 0..parts {
        let mut input = open_part(&scratch.path(name, part))?;
        if let Some((seq, change)) = next_line::<StoredChange>(&mut input)? {
            heads.push(Reverse((seq, to_index(part))));
            inputs.push((input, Some(change)));
        } else {
            inputs.push((input, None));
        }
    }
    while let Some(Reverse((_, part))) = heads.pop() {
        let (input, head) = &mut inputs[part];
        if let Some(change) = head.take() {
            each(change.into_change()?).map_err(Halt::Said)?;
        }
        if let Some((seq, change)) = next_line::<StoredChange>(input)? {
            *head = Some(change);
            heads.push(Reverse((seq, part)));
        }
    }
    Ok(())
}

/// A partition's number as an index (there are at most 64).
fn to_index(part: u64) -> usize {
    usize::try_from(part).unwrap_or(usize::MAX)
}

/// A private folder of temporary files (mode 0700, a name of its own),
/// removed with what it holds when dropped: on every way out, an error's
/// included. Made with std: nothing here needs a crate for it.
struct Scratch(PathBuf);

impl Scratch {
    fn new(temp: &Path) -> Result<Scratch, SnapshotError> {
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
                Ok(()) => return Ok(Scratch(path)),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
                Err(e) => return Err(scratch_error(&path, &e)),
            }
        }
        let e = last.unwrap_or_else(|| io::Error::other("no name free"));
        Err(scratch_error(temp, &e))
    }

    fn path(&self, name: &str, part: u64) -> PathBuf {
        self.0.join(format!("{name}.{part}"))
    }

    fn writers(&self, name: &str, parts: u64) -> Result<Vec<BufWriter<File>>, SnapshotError> {
        (0..parts)
            .map(|part| {
                let path = self.path(name, part);
                let mut options = std::fs::OpenOptions::new();
                options.write(true).create_new(true);
                #[cfg(unix)]
                std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
                options
                    .open(&path)
                    .map(|f| BufWriter::with_capacity(64 * 1024, f))
                    .map_err(|e| scratch_error(&path, &e))
            })
            .collect()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch_error(path: &Path, e: &io::Error) -> SnapshotError {
    SnapshotError::Scratch(format!("{}: {e}", path.display()))
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

/// The partition of an id: FNV-1a, the same for every copy of it.
fn partition(id: &str, parts: u64) -> usize {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in id.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    to_index(hash % parts.max(1))
}

/// Writes `SEQ\tJSON\n` into the partition of `id`.
fn write_line<T: serde::Serialize>(
    out: &mut [BufWriter<File>],
    parts: u64,
    id: &str,
    seq: u64,
    value: &T,
) -> Result<(), SnapshotError> {
    let out = &mut out[partition(id, parts)];
    write_record(out, seq, value)
}

fn write_record<T: serde::Serialize>(
    out: &mut BufWriter<File>,
    seq: u64,
    value: &T,
) -> Result<(), SnapshotError> {
    let written = write!(out, "{seq}\t")
        .and_then(|()| serde_json::to_writer(&mut *out, value).map_err(io::Error::from))
        .and_then(|()| out.write_all(b"\n"));
    written.map_err(|e| scratch_error(Path::new("a partition"), &e))
}

fn write_change(out: &mut BufWriter<File>, seq: u64, change: &Change) -> Result<(), SnapshotError> {
    write_record(out, seq, change)
}

/// Flushes each and syncs nothing (the files live as long as the diff),
/// but a write that failed (the disk full) is an error here.
fn finish_writers(writers: Vec<BufWriter<File>>) -> Result<(), SnapshotError> {
    for mut writer in writers {
        writer
            .flush()
            .map_err(|e| scratch_error(Path::new("a partition"), &e))?;
    }
    Ok(())
}

fn open_part(path: &Path) -> Result<BufReader<File>, SnapshotError> {
    File::open(path)
        .map(|f| BufReader::with_capacity(64 * 1024, f))
        .map_err(|e| scratch_error(path, &e))
}

/// Each `SEQ\tJSON` line of a partition file, in order.
fn for_each_line<T: serde::de::DeserializeOwned>(
    path: &Path,
    mut each: impl FnMut(u64, T) -> Result<(), SnapshotError>,
) -> Result<(), SnapshotError> {
    let mut input = open_part(path)?;
    while let Some((seq, value)) = next_line(&mut input)? {
        each(seq, value)?;
    }
    Ok(())
}

fn next_line<T: serde::de::DeserializeOwned>(
    input: &mut BufReader<File>,
) -> Result<Option<(u64, T)>, SnapshotError> {
    let mut line = Vec::new();
    let read = input
        .read_until(b'\n', &mut line)
        .map_err(|e| scratch_error(Path::new("a partition"), &e))?;
    if read == 0 {
        return Ok(None);
    }
    let bad = || SnapshotError::Scratch("a partition reads back damaged".into());
    let tab = memchr::memchr(b'\t', &line).ok_or_else(bad)?;
    let seq = std::str::from_utf8(&line[..tab])
        .ok()
        .and_then(|s| s.parse().ok())
        .ok_or_else(bad)?;
    let value = serde_json::from_slice(&line[tab + 1..]).map_err(|_| bad())?;
    Ok(Some((seq, value)))
}

/// A [`Change`] as a partition keeps it.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct StoredChange {
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
    fn into_change(self) -> Result<Change, SnapshotError> {
        let category = super::Category::parse(&self.category)
            .ok_or_else(|| SnapshotError::Scratch("a partition reads back damaged".into()))?;
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

#[cfg(test)]
#[path = "differ_tests.rs"]
mod tests;
