//! Writing a snapshot: lines gathered into blocks, each block compressed
//! and written as soon as it is full, so memory holds one block.

use super::{Entry, Header, Trailer};
use serde::Serialize;
use std::io::{self, Write};

/// The file's first bytes.
pub(super) const MAGIC: &[u8; 8] = b"FSNAP\x00\x01\n";
/// A block is written once it holds this much text (whole lines only).
pub(super) const BLOCK_TEXT: usize = 256 * 1024;
/// The most text one block may hold: a reader refuses more, so a damaged
/// or hostile size cannot make it allocate without bound.
pub(super) const MAX_BLOCK_TEXT: usize = 64 * 1024 * 1024;

/// A snapshot being written to `W`.
pub struct Writer<W: Write> {
    out: W,
    text: Vec<u8>,
    count: u64,
}

impl<W: Write> Writer<W> {
    /// Starts a snapshot: the magic bytes and the header.
    pub fn new(mut out: W, header: &Header) -> io::Result<Self> {
        out.write_all(MAGIC)?;
        let mut writer = Writer {
            out,
            text: Vec::with_capacity(BLOCK_TEXT + 4096),
            count: 0,
        };
        writer.line(header)?;
        Ok(writer)
    }

    pub fn entry(&mut self, entry: &Entry) -> io::Result<()> {
        self.line(entry)?;
        self.count += 1;
        Ok(())
    }

    /// How many entries were written.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Writes the trailer and the last block; returns the output (to be
    /// flushed or committed by its owner).
    pub fn finish(mut self) -> io::Result<W> {
        self.line(&Trailer { end: self.count })?;
        self.block()?;
        Ok(self.out)
    }

    fn line<T: Serialize>(&mut self, value: &T) -> io::Result<()> {
        let start = self.text.len();
        serde_json::to_writer(&mut self.text, value)?;
        self.text.push(b'\n');
        if self.text.len() - start > MAX_BLOCK_TEXT / 2 {
            return Err(io::Error::other(
                "a finding's fields are too long for a snapshot (over 32 MiB)",
            ));
        }
        if self.text.len() >= BLOCK_TEXT {
            self.block()?;
        }
        Ok(())
    }

    /// One block: the compressed length (u32, little-endian), then the lz4
    /// block with the text's length prepended.
    fn block(&mut self) -> io::Result<()> {
        if self.text.is_empty() {
            return Ok(());
        }
        let packed = lz4_flex::block::compress_prepend_size(&self.text);
        let len = u32::try_from(packed.len()).map_err(io::Error::other)?;
        self.out.write_all(&len.to_le_bytes())?;
        self.out.write_all(&packed)?;
        self.text.clear();
        Ok(())
    }
}
