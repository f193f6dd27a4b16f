//! The whole findings of a snapshot, read back one at a time from the file
//! by where each is ([`Position`]): what the offline server answers pages
//! and single findings from, holding a few blocks, never the whole file.

use super::read::{damaged, line_at, read_block};
use super::{Reader, SnapshotError};
use findings_model::IssueItem;
use std::fs::File;
use std::io::{BufReader, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Where a finding's line is: the file offset of its block and the offset
/// of the line in the block's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    pub(super) block: u64,
    pub(super) at: u32,
}

impl Position {
    /// Where its block starts in the file: how far a reading has come.
    pub fn file_offset(self) -> u64 {
        self.block
    }
}

/// How many unpacked blocks are kept (a page in another order than the
/// file's touches many; one in the file's order, one or two).
const KEPT_BLOCKS: usize = 8;

/// A snapshot file open for reading findings by position.
pub struct Stored {
    /// The file's version: how its blocks are packed.
    version: u32,
    path: PathBuf,
    /// The file as opened: a position means nothing in another.
    opened: Fingerprint,
    inner: Mutex<Inner>,
}

/// What tells that a file is no longer the one opened: the open file's
/// size and modification time (a rewrite in place), and the file its path
/// names (one put in its place).
#[derive(Debug, Clone, PartialEq)]
struct Fingerprint {
    held: Stamp,
    named: Option<Stamp>,
}

#[derive(Debug, Clone, PartialEq)]
struct Stamp {
    len: u64,
    modified: Option<std::time::SystemTime>,
    #[cfg(unix)]
    inode: (u64, u64),
}

impl Stamp {
    fn of(m: &std::fs::Metadata) -> Stamp {
        #[cfg(unix)]
        use std::os::unix::fs::MetadataExt;
        Stamp {
            len: m.len(),
            modified: m.modified().ok(),
            #[cfg(unix)]
            inode: (m.dev(), m.ino()),
        }
    }
}

fn fingerprint(file: &File, path: &Path) -> std::io::Result<Fingerprint> {
    Ok(Fingerprint {
        held: Stamp::of(&file.metadata()?),
        named: std::fs::metadata(path).ok().as_ref().map(Stamp::of),
    })
}

struct Inner {
    file: File,
    /// The most recently used first.
    blocks: Vec<(u64, Arc<Vec<u8>>)>,
}

impl Stored {
    /// Opens `path` (a snapshot already read through once, for the
    /// positions).
    pub fn open(path: &Path) -> Result<Stored, SnapshotError> {
        // A regular file within the cap (it is read by offset later).
        let file =
            findings_base::atomic_file::open_capped(path, super::MAX_FILE_BYTES)?.into_inner();
        // Checks it is still a snapshot of a version with whole findings.
        let reader = Reader::new(BufReader::new(file.try_clone()?))?;
        let version = reader.header().version;
        if version < 2 {
            return Err(SnapshotError::FewFields(version));
        }
        Ok(Stored {
            version,
            path: path.to_owned(),
            opened: fingerprint(&file, path)?,
            inner: Mutex::new(Inner {
                file,
                blocks: Vec::new(),
            }),
        })
    }

    /// Whether the file is still the one opened: `Changed` when it was
    /// rewritten, replaced or removed since (its positions are void).
    pub fn check(&self) -> Result<(), SnapshotError> {
        let inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        match fingerprint(&inner.file, &self.path) {
            Ok(now) if now == self.opened => Ok(()),
            _ => Err(SnapshotError::Changed),
        }
    }

    /// The finding at `position`.
    pub fn item(&self, position: Position) -> Result<IssueItem, SnapshotError> {
        let text = self.block(position.block)?;
        let mut at = position.at as usize;
        let line = line_at(&text, &mut at)?;
        findings_base::json::decode::<IssueItem>(line)
            .map_err(|e| damaged(format!("a finding changed since it was opened: {e}")))
    }

    fn block(&self, offset: u64) -> Result<Arc<Vec<u8>>, SnapshotError> {
        // A panic elsewhere while holding the lock leaves nothing half done.
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(k) = inner.blocks.iter().position(|(o, _)| *o == offset) {
            let kept = inner.blocks.remove(k);
            let text = kept.1.clone();
            inner.blocks.insert(0, kept);
            return Ok(text);
        }
        inner.file.seek(SeekFrom::Start(offset))?;
        let (text, _) = read_block(&mut BufReader::new(&mut inner.file), self.version)?
            .ok_or_else(|| damaged("it ends before a finding it held (changed since opened?)"))?;
        let text = Arc::new(text);
        inner.blocks.insert(0, (offset, text.clone()));
        inner.blocks.truncate(KEPT_BLOCKS);
        Ok(text)
    }
}
