//! A diff whose old side is a snapshot file, with memory that does not grow
//! with it. Up to a bound ([`DIFF_BOUND`] findings) the old side is held
//! as a [`Baseline`] and the new side compared as it streams, as always.
//! Past it, both sides' entries go into partition files on disk by a hash
//! of the id (a finding's every copy in one), each partition is compared
//! alone holding only its old entries, and the changes are put back in the
//! order the in-memory diff gives them: the new side's order, then the old
//! side's for `gone`. Nothing is said until every partition is compared.

use super::scratch::{
    Halt, Scratch, StoredChange, from_start, next_line, temp_files, write_record, writers, written,
};
use super::{Baseline, Change, Entry, Header, Reader, SnapshotError};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

/// The most old findings a diff holds in memory at once: a [`Baseline`] of
/// a million is about 40 MB (the diff's peak at a million), so a larger
/// side is compared a million at a time rather than held whole (329 MB at
/// ten million).
pub const DIFF_BOUND: u64 = 1_000_000;

/// The most partitions: four files each stay open from the start (the
/// sides, then their changes and the findings gone: a file with no name
/// is reached only by its handle), 128 at most, within the 256 a process
/// may open by default on macOS. Ten at [`crate::MAX_FINDINGS`] with
/// [`DIFF_BOUND`]; only a bound far smaller than the default reaches it,
/// and then holds more a partition.
const MAX_PARTITIONS: u64 = 32;

/// The old side of a diff, read from its file.
pub struct Differ {
    old: PathBuf,
    mode: Mode,
}

enum Mode {
    Memory(Box<Baseline>),
    Disk(Box<Spill>),
}

/// The partitions of a diff too large to hold: temporary files reached
/// only by their handles ([`temp_files`]).
struct Spill {
    parts: u64,
    /// Whether either side keeps no tickets (a version 1 snapshot).
    tickets_unknown: bool,
    /// The old side's partitions, written.
    old: Vec<File>,
    /// The new side's partitions, being written; its findings so far.
    new: Vec<BufWriter<File>>,
    new_count: u64,
    /// Each partition's changes, then its findings gone, once compared.
    changes: Vec<File>,
    gone: Vec<File>,
    /// Last: dropped after the files (see [`temp_files`]).
    scratch: Scratch,
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
        let n = to_index(parts);
        let (mut files, scratch) = temp_files(temp, 4 * n)?;
        let gone = files.split_off(3 * n);
        let changes = files.split_off(2 * n);
        let new = writers(files.split_off(n));
        let mut old = writers(files);
        let mut reader = Reader::new(crate::open_file(path)?)?;
        let mut seq = 0u64;
        while let Some(entry) = reader.next_entry()? {
            write_line(&mut old, parts, &entry.id, seq, &entry)?;
            seq += 1;
        }
        let spill = Spill {
            parts,
            tickets_unknown: !tickets,
            old: written(old)?,
            new,
            new_count: 0,
            changes,
            gone,
            scratch,
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

impl Spill {
    fn finish<E>(self, mut each: impl FnMut(Change) -> Result<(), E>) -> Result<(), Halt<E>> {
        let Spill {
            tickets_unknown,
            old,
            new,
            changes,
            gone,
            scratch,
            ..
        } = self;
        let new = written(new)?;
        let mut changes = writers(changes);
        let mut gone = writers(gone);
        for (part, (mut old, mut new)) in old.into_iter().zip(new).enumerate() {
            let mut baseline = Baseline::default();
            if tickets_unknown {
                baseline.without_tickets();
            }
            for_each_line(&mut old, |_, entry: Entry| baseline.add(&entry))?;
            baseline.ready();
            let out = &mut changes[part];
            for_each_line(&mut new, |seq, entry: Entry| {
                let mut said = Ok(());
                baseline.compare(&entry, |change| {
                    if said.is_ok() {
                        said = write_record(out, seq, &change);
                    }
                });
                said
            })?;
            let out = &mut gone[part];
            for_each_line(&mut old, |seq, entry: Entry| match baseline.gone(&entry) {
                Some(change) => write_record(out, seq, &change),
                None => Ok(()),
            })?;
            // What is compared no longer needs its room on disk (freed
            // as the file closes on Unix, emptied for Windows).
            let _ = old.set_len(0);
            let _ = new.set_len(0);
        }
        merge(written(changes)?, &mut each)?;
        merge(written(gone)?, &mut each)?;
        drop(scratch);
        Ok(())
    }
}

/// The changes of every partition in the order of their findings'
/// numbers (each partition's already in it).
fn merge<E>(
    mut parts: Vec<File>,
    each: &mut impl FnMut(Change) -> Result<(), E>,
) -> Result<(), Halt<E>> {
    let mut inputs = Vec::new();
    let mut heads = BinaryHeap::new();
    for (part, file) in parts.iter_mut().enumerate() {
        let mut input = from_start(file)?;
        if let Some((seq, change)) = next_line::<StoredChange>(&mut input)? {
            heads.push(Reverse((seq, part)));
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

/// A partition's number as an index (there are at most 32).
fn to_index(part: u64) -> usize {
    usize::try_from(part).unwrap_or(usize::MAX)
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

/// Each `SEQ\tJSON` line of a partition file, from its start.
fn for_each_line<T: serde::de::DeserializeOwned>(
    file: &mut File,
    mut each: impl FnMut(u64, T) -> Result<(), SnapshotError>,
) -> Result<(), SnapshotError> {
    let mut input = from_start(file)?;
    while let Some((seq, value)) = next_line(&mut input)? {
        each(seq, value)?;
    }
    Ok(())
}

#[cfg(test)]
#[path = "differ_tests.rs"]
mod tests;
