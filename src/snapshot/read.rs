//! Reading a snapshot a block at a time: the header first, then each
//! entry, the trailer's count checked at the end. Every way a file can be
//! foreign, damaged or cut short is an error that says so, never a panic.

use super::write::{MAGIC, MAX_BLOCK_TEXT};
use super::{Entry, FORMAT, Header, Trailer, VERSION};
use std::io::{self, Read};

#[derive(Debug, thiserror::Error)]
pub enum SnapshotError {
    #[error("not a findings snapshot (it does not start as one)")]
    Foreign,
    #[error("damaged snapshot: {0}")]
    Damaged(String),
    #[error("snapshot format version {0} is newer than this build reads ({VERSION})")]
    Newer(u32),
    #[error("cannot read the snapshot: {0}")]
    Io(#[from] io::Error),
}

fn damaged(what: impl Into<String>) -> SnapshotError {
    SnapshotError::Damaged(what.into())
}

/// A snapshot being read from `R`.
pub struct Reader<R: Read> {
    input: R,
    header: Header,
    text: Vec<u8>,
    at: usize,
    count: u64,
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
        if magic[..6] != MAGIC[..6] {
            return Err(SnapshotError::Foreign);
        }
        if magic[6..] != MAGIC[6..] {
            return Err(SnapshotError::Newer(
                u32::from(magic[6]) << 8 | u32::from(magic[7]),
            ));
        }
        let mut reader = Reader {
            input,
            header: placeholder(),
            text: Vec::new(),
            at: 0,
            count: 0,
            ended: false,
        };
        let line = reader.next_line()?.ok_or_else(|| damaged("no header"))?;
        let header: Header = serde_json::from_slice(line)
            .map_err(|e| damaged(format!("its header is not one: {e}")))?;
        if header.format != FORMAT {
            return Err(SnapshotError::Foreign);
        }
        if header.version > VERSION {
            return Err(SnapshotError::Newer(header.version));
        }
        reader.header = header;
        Ok(reader)
    }

    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The next finding; `None` after the last, once the trailer's count
    /// agrees with the findings read.
    pub fn next_entry(&mut self) -> Result<Option<Entry>, SnapshotError> {
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
        let entry: Entry =
            serde_json::from_slice(line).map_err(|e| damaged(format!("line {number}: {e}")))?;
        if entry.id.is_empty() {
            return Err(damaged(format!("line {number}: a finding without an id")));
        }
        self.count += 1;
        Ok(Some(entry))
    }

    /// The next line's bytes (without its newline), reading a block when
    /// the one in hand is used up; `None` at the end of the file.
    fn next_line(&mut self) -> Result<Option<&[u8]>, SnapshotError> {
        if self.at >= self.text.len() && !self.next_block()? {
            return Ok(None);
        }
        let rest = &self.text[self.at..];
        let Some(end) = memchr::memchr(b'\n', rest) else {
            return Err(damaged("a block ends inside a line"));
        };
        let start = self.at;
        self.at += end + 1;
        Ok(Some(&self.text[start..start + end]))
    }

    /// Reads and unpacks the next block; false at the end of the file.
    fn next_block(&mut self) -> Result<bool, SnapshotError> {
        let mut len = [0u8; 4];
        let mut got = 0;
        while got < 4 {
            match self.input.read(&mut len[got..])? {
                0 if got == 0 => return Ok(false),
                0 => return Err(damaged("it ends inside a block's length")),
                n => got += n,
            }
        }
        let len = u32::from_le_bytes(len) as usize;
        if !(4..=MAX_BLOCK_TEXT + MAX_BLOCK_TEXT / 255 + 64).contains(&len) {
            return Err(damaged(format!("a block of {len} bytes")));
        }
        let mut packed = Vec::new();
        (&mut self.input)
            .take(len as u64)
            .read_to_end(&mut packed)?;
        if packed.len() != len {
            return Err(damaged("it ends inside a block (cut short?)"));
        }
        let size = u32::from_le_bytes([packed[0], packed[1], packed[2], packed[3]]) as usize;
        if size == 0 || size > MAX_BLOCK_TEXT {
            return Err(damaged(format!("a block said to hold {size} bytes")));
        }
        self.text = lz4_flex::block::decompress(&packed[4..], size)
            .map_err(|e| damaged(format!("a block does not unpack: {e}")))?;
        self.at = 0;
        Ok(true)
    }
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
