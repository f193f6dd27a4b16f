//! Reading a snapshot a block at a time: the header first, then each
//! finding, the trailer's count checked at the end. Every way a file can be
//! foreign, damaged or cut short is an error that says so, never a panic.

use super::write::{MAGIC_PREFIX, MAX_BLOCK_TEXT, MAX_LINE};
use super::{Entry, FORMAT, Header, Position, Trailer, VERSION};
use findings_model::IssueItem;
use std::io::{self, Read};

#[derive(Debug, thiserror::Error)]
pub enum SnapshotError {
    #[error("not a findings snapshot (it does not start as one)")]
    Foreign,
    #[error("damaged snapshot: {0}")]
    Damaged(String),
    #[error("snapshot format version {0} is newer than this build reads ({VERSION})")]
    Newer(u32),
    #[error(
        "snapshot format version {0} keeps only a few fields of each finding, not the whole \
         finding: save it again with this build (`findings snapshot save`)"
    )]
    FewFields(u32),
    #[error("the snapshot is larger than this build reads: {0}")]
    TooLarge(String),
    #[error("cannot read the snapshot: {0}")]
    Io(#[from] io::Error),
    #[error("the snapshot changed on disk since it was opened")]
    Changed,
    /// The temporary files of a large diff could not be written or read
    /// back (the disk full, say): the diff stops, never half said.
    #[error("the diff's temporary files: {0}")]
    Scratch(String),
}

pub(super) fn damaged(what: impl Into<String>) -> SnapshotError {
    SnapshotError::Damaged(what.into())
}

/// A snapshot being read from `R`.
pub struct Reader<R: Read> {
    input: R,
    /// The version of the magic bytes: how its blocks are packed.
    version: u32,
    header: Header,
    text: Vec<u8>,
    /// Where the block's lines start, in the order they were written (the
    /// next one last), and where the line in hand starts.
    starts: Vec<usize>,
    line_start: usize,
    /// Where in the file the block in hand starts, and where the next does.
    block_start: u64,
    next_block_start: u64,
    count: u64,
    /// The findings this build reads ([`super::MAX_FINDINGS`]).
    cap: u64,
    ended: bool,
}

impl<R: Read> Reader<R> {
    /// Checks the magic bytes and reads the header.
    pub fn new(mut input: R) -> Result<Self, SnapshotError> {
        let mut magic = [0u8; 8];
        match input.read_exact(&mut magic) {
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => {
                return Err(SnapshotError::Foreign);
            }
            other => other?,
        }
        if magic[..5] != MAGIC_PREFIX[..] || magic[7] != b'\n' {
            return Err(SnapshotError::Foreign);
        }
        let version = u32::from(u16::from_be_bytes([magic[5], magic[6]]));
        if version == 0 {
            return Err(SnapshotError::Foreign);
        }
        if version > VERSION {
            return Err(SnapshotError::Newer(version));
        }
        let mut reader = Reader {
            input,
            version,
            header: placeholder(),
            text: Vec::new(),
            starts: Vec::new(),
            line_start: 0,
            block_start: 8,
            next_block_start: 8,
            count: 0,
            cap: super::MAX_FINDINGS,
            ended: false,
        };
        let line = reader.next_line()?.ok_or_else(|| damaged("no header"))?;
        let header: Header = serde_json::from_slice(line)
            .map_err(|e| damaged(format!("its header is not one: {e}")))?;
        if header.format != FORMAT {
            return Err(SnapshotError::Foreign);
        }
        if header.version != version {
            return Err(damaged(format!(
                "it starts as version {version}, its header says {}",
                header.version
            )));
        }
        reader.header = header;
        Ok(reader)
    }

    /// This reader with a smaller cap (the tests' ten million is three).
    #[cfg(test)]
    pub(crate) fn with_cap(mut self, cap: u64) -> Self {
        self.cap = cap;
        self
    }

    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The next finding's few fields (of either version); `None` after the
    /// last, once the trailer's count agrees with the findings read.
    pub fn next_entry(&mut self) -> Result<Option<Entry>, SnapshotError> {
        let version = self.header.version;
        let Some((number, _, line)) = self.next_finding()? else {
            return Ok(None);
        };
        let entry = if version == 1 {
            serde_json::from_slice::<Entry>(line)
                .map_err(|e| damaged(format!("line {number}: {e}")))?
        } else {
            // Only what an entry reads: the rest of the finding (its code,
            // remediation, rule text) is skipped unread.
            let listed: findings_model::listed::ListedItem = findings_base::json::decode(line)
                .map_err(|e| damaged(format!("line {number}: {e}")))?;
            Entry::of(&IssueItem::from(listed))
                .ok_or_else(|| damaged(format!("line {number}: a finding without an id")))?
        };
        if entry.id.is_empty() {
            return Err(damaged(format!("line {number}: a finding without an id")));
        }
        Ok(Some(entry))
    }

    /// Steps over the next finding unread (its block unpacked, its line
    /// not parsed): counting a side's findings; `false` after the last,
    /// once the trailer's count agrees.
    pub fn skip_finding(&mut self) -> Result<bool, SnapshotError> {
        Ok(self.next_finding()?.is_some())
    }

    /// The next whole finding and where it is in the file (version 2 on);
    /// `None` after the last.
    pub fn next_item(&mut self) -> Result<Option<(Position, IssueItem)>, SnapshotError> {
        if self.header.version < 2 {
            return Err(SnapshotError::FewFields(self.header.version));
        }
        let Some((number, position, line)) = self.next_finding()? else {
            return Ok(None);
        };
        let item = decode_item(number, line)?;
        if item
            .issue
            .as_ref()
            .and_then(|i| i.id.as_deref())
            .is_none_or(str::is_empty)
        {
            return Err(damaged(format!("line {number}: a finding without an id")));
        }
        Ok(Some((position, item)))
    }

    /// The next finding's line, its number and place; `None` after the
    /// trailer.
    fn next_finding(&mut self) -> Result<Option<Finding<'_>>, SnapshotError> {
        if self.ended {
            return Ok(None);
        }
        let number = self.count + 2;
        let Some(line) = self.next_line()? else {
            return Err(damaged("it ends before its last line (cut short?)"));
        };
        if line.starts_with(b"{\"end\":") {
            let trailer: Trailer =
                serde_json::from_slice(line).map_err(|e| damaged(format!("line {number}: {e}")))?;
            if trailer.end != self.count {
                return Err(damaged(format!(
                    "it says {} findings, {} were read",
                    trailer.end, self.count
                )));
            }
            self.ended = true;
            if self.next_line()?.is_some() {
                return Err(damaged("lines follow its last line"));
            }
            return Ok(None);
        }
        let len = line.len();
        // A finding past the cap (its trailer, after exactly the cap, is
        // read above: a file of ten million opens).
        if self.count >= self.cap {
            return Err(SnapshotError::TooLarge(format!(
                "more than {} findings",
                self.cap
            )));
        }
        self.count += 1;
        let at = self.line_start;
        // A block holds at most MAX_BLOCK_TEXT (3 MiB), so this never fails.
        let at_u32 =
            u32::try_from(at).map_err(|_| damaged("a line starts past 4 GiB in its block"))?;
        let position = Position {
            block: self.block_start,
            at: at_u32,
        };
        Ok(Some((number, position, &self.text[at..at + len])))
    }

    /// The next line's bytes (without its newline), reading a block when
    /// the one in hand is used up; `None` at the end of the file.
    fn next_line(&mut self) -> Result<Option<&[u8]>, SnapshotError> {
        if self.starts.is_empty() {
            self.block_start = self.next_block_start;
            match read_block(&mut self.input, self.version)? {
                None => return Ok(None),
                Some((text, size)) => {
                    let mut starts = written_order(&text, self.version)?;
                    starts.reverse();
                    self.text = text;
                    self.starts = starts;
                    self.next_block_start += size;
                }
            }
        }
        let Some(start) = self.starts.pop() else {
            return Err(damaged("an empty block"));
        };
        self.line_start = start;
        let line = line_at(&self.text, &mut { start })?;
        // A finding's strings cost at most its line (a crafted name of
        // 30 MB is refused here, before anything holds it).
        if line.len() >= MAX_LINE {
            return Err(SnapshotError::TooLarge(format!(
                "a line of {} bytes (a finding is at most {MAX_LINE})",
                line.len() + 1
            )));
        }
        Ok(Some(line))
    }
}

/// A finding's line number, place in the file and text.
type Finding<'t> = (u64, Position, &'t [u8]);

/// Where a block's lines start, in the order they were written: in the
/// order they are stored before version 4; from it, as the block's order
/// line says (each stored line once, else the block is damaged).
pub(super) fn written_order(text: &[u8], version: u32) -> Result<Vec<usize>, SnapshotError> {
    let mut at = 0;
    let order = if version >= 4 {
        let line = line_at(text, &mut at)?;
        if line.len() >= MAX_LINE {
            return Err(damaged("a block's order line is longer than one may be"));
        }
        let order: super::write::BlockOrder = serde_json::from_slice(line)
            .map_err(|e| damaged(format!("a block's order line: {e}")))?;
        Some(order.order)
    } else {
        None
    };
    // The lines counted before their places are held (a crafted block of
    // empty lines would hold millions).
    if let Some(order) = &order {
        let lines = memchr::memchr_iter(b'\n', &text[at..]).count();
        if order.len() != lines {
            return Err(damaged(format!(
                "a block's order names {} lines, it holds {lines}",
                order.len()
            )));
        }
    }
    let mut starts = Vec::new();
    while at < text.len() {
        starts.push(at);
        line_at(text, &mut at)?;
    }
    // Counted above: as many places as lines.
    let Some(order) = order else {
        return Ok(starts);
    };
    let mut taken = vec![false; starts.len()];
    order
        .iter()
        .map(|&place| {
            let place = place as usize;
            match taken.get_mut(place) {
                Some(taken) if !*taken => {
                    *taken = true;
                    Ok(starts[place])
                }
                _ => Err(damaged(
                    "a block's order does not name each of its lines once",
                )),
            }
        })
        .collect()
}

/// A version 2 finding's line as the model reads it.
fn decode_item(number: u64, line: &[u8]) -> Result<IssueItem, SnapshotError> {
    findings_base::json::decode::<IssueItem>(line)
        .map_err(|e| damaged(format!("line {number}: {e}")))
}

/// The line of `text` at `*at`, without its newline; `*at` moves past it.
pub(super) fn line_at<'t>(text: &'t [u8], at: &mut usize) -> Result<&'t [u8], SnapshotError> {
    let rest = text.get(*at..).unwrap_or_default();
    let Some(end) = memchr::memchr(b'\n', rest) else {
        return Err(damaged("a block ends inside a line"));
    };
    let start = *at;
    *at += end + 1;
    Ok(&text[start..start + end])
}

/// Reads and unpacks the next block: its text and how many bytes of the
/// file it took; `None` at the end of the file.
pub(super) fn read_block(
    input: &mut impl Read,
    version: u32,
) -> Result<Option<(Vec<u8>, u64)>, SnapshotError> {
    let mut len = [0u8; 4];
    let mut got = 0;
    while got < 4 {
        match input.read(&mut len[got..])? {
            0 if got == 0 => return Ok(None),
            0 => return Err(damaged("it ends inside a block's length")),
            n => got += n,
        }
    }
    let len = u32::from_le_bytes(len) as usize;
    if len < 4 {
        return Err(damaged(format!("a block of {len} bytes")));
    }
    // lz4's worst case for the largest block a reader takes.
    if len > MAX_BLOCK_TEXT + MAX_BLOCK_TEXT / 255 + 64 {
        return Err(SnapshotError::TooLarge(format!(
            "a block of {len} bytes packed (at most {MAX_BLOCK_TEXT} unpacked)"
        )));
    }
    let mut packed = Vec::new();
    input.take(len as u64).read_to_end(&mut packed)?;
    if packed.len() != len {
        return Err(damaged("it ends inside a block (cut short?)"));
    }
    let size = u32::from_le_bytes([packed[0], packed[1], packed[2], packed[3]]) as usize;
    if size == 0 {
        return Err(damaged("an empty block"));
    }
    // Checked before unpacking allocates it.
    if size > MAX_BLOCK_TEXT {
        return Err(SnapshotError::TooLarge(format!(
            "a block of {size} bytes unpacked (at most {MAX_BLOCK_TEXT}: a finding is at most \
             {MAX_LINE})"
        )));
    }
    let text = if version >= 3 {
        inflated(&packed[4..], size)?
    } else {
        lz4_flex::block::decompress(&packed[4..], size)
            .map_err(|e| damaged(format!("a block does not unpack: {e}")))?
    };
    Ok(Some((text, 4 + len as u64)))
}

/// A deflate block's text, exactly `size` bytes (never more is read out of
/// it: a block that unpacks to more is damaged, not a bomb).
fn inflated(packed: &[u8], size: usize) -> Result<Vec<u8>, SnapshotError> {
    let mut text = Vec::with_capacity(size);
    flate2::read::DeflateDecoder::new(packed)
        .take(size as u64 + 1)
        .read_to_end(&mut text)
        .map_err(|e| damaged(format!("a block does not unpack: {e}")))?;
    if text.len() != size {
        return Err(damaged(format!(
            "a block unpacks to {} bytes, not the {size} it says",
            text.len()
        )));
    }
    Ok(text)
}

/// The header until the real one is read.
fn placeholder() -> Header {
    Header {
        format: String::new(),
        version: 0,
        saved_at: chrono::DateTime::UNIX_EPOCH,
        tool: String::new(),
        base_url: String::new(),
        deployment: String::new(),
        request: Default::default(),
    }
}
