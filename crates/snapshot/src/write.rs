//! Writing a snapshot: lines gathered into blocks, each block compressed
//! and written as soon as it is full, so memory holds one block.
//!
//! The version follows what is written: whole findings (the server's List
//! issues items) make version 4 (deflate blocks, each block's lines stored
//! rule by rule; versions 3 and 2 kept them in the order read, in deflate
//! and lz4 blocks, and are still read), [`Entry`] lines version 1 (what a
//! bounded baseline keeps, in lz4 blocks). The header waits for the first
//! line, so it says which.

use super::{Entry, Header, Trailer};
use serde::Serialize;
use std::io::{self, Write};

/// The file's first bytes: "FSNAP", the version (u16, big-endian), "\n".
pub(super) const MAGIC_PREFIX: &[u8; 5] = b"FSNAP";
/// A block is written once it holds this much text (whole lines only):
/// a megabyte holds many findings of each rule, which share most of their
/// text (deflate only looks back 32 KB, so the lines of a rule are stored
/// together: 16.5 % of `issues --format ndjson` at 100,000 demo findings,
/// where 256 KB in the order read gave 27.6 %).
pub(super) const BLOCK_TEXT: usize = 1024 * 1024;
/// The most text one line may hold (a finding, its newline included): a
/// reader refuses more, so no finding's strings cost more than this.
pub const MAX_LINE: usize = 1024 * 1024;
/// A block is written once it holds this many lines, so its order line
/// (at most 7 bytes a line) stays within [`MAX_LINE`].
pub(super) const MAX_BLOCK_LINES: usize = 65_536;
/// The most text one block may hold (a block is written once it passes
/// [`BLOCK_TEXT`], so it holds at most that and one line, and from version
/// 4 its order line): a reader refuses more, so a damaged or hostile size
/// cannot make it allocate without bound.
pub const MAX_BLOCK_TEXT: usize = BLOCK_TEXT + 2 * MAX_LINE;

/// The 8 magic bytes of a version.
pub(super) fn magic(version: u16) -> [u8; 8] {
    let v = version.to_be_bytes();
    let mut magic = [0u8; 8];
    magic[..5].copy_from_slice(MAGIC_PREFIX);
    magic[5..7].copy_from_slice(&v);
    magic[7] = b'\n';
    magic
}

/// A snapshot being written to `W`.
pub struct Writer<W: Write> {
    out: W,
    /// The header until the first line says the version.
    header: Option<Header>,
    /// The version written (0 until the first line).
    version: u32,
    text: Vec<u8>,
    /// The lines in `text`.
    lines: usize,
    /// The block before, being packed on a thread of its own while `text`
    /// fills (packing is most of a save's work: a megabyte of findings
    /// takes about 20 ms to deflate).
    packing: Option<std::thread::JoinHandle<io::Result<Vec<u8>>>>,
    count: u64,
    /// The findings a reader takes ([`super::MAX_FINDINGS`]).
    cap: u64,
}

impl<W: Write> Writer<W> {
    /// Starts a snapshot; the magic bytes and the header are written with
    /// the first line (or at the end, in the header's version, when there
    /// is none).
    pub fn new(out: W, header: &Header) -> io::Result<Self> {
        Ok(Writer {
            out,
            header: Some(header.clone()),
            version: 0,
            text: Vec::with_capacity(BLOCK_TEXT + 4096),
            lines: 0,
            packing: None,
            count: 0,
            cap: super::MAX_FINDINGS,
        })
    }

    /// This writer with a smaller cap (the tests' ten million is three).
    #[cfg(test)]
    pub(crate) fn with_cap(mut self, cap: u64) -> Self {
        self.cap = cap;
        self
    }

    /// A finding's few fields: a version 1 line.
    pub fn entry(&mut self, entry: &Entry) -> io::Result<()> {
        self.start(1)?;
        self.room()?;
        self.line(entry)?;
        self.count += 1;
        Ok(())
    }

    /// A whole finding: the List issues item's JSON text as the server sent
    /// it, on one line (a version 4 line). The caller checks it is one
    /// JSON object with no raw newline.
    pub fn item(&mut self, json: &[u8]) -> io::Result<()> {
        self.start(super::VERSION)?;
        self.room()?;
        if json.contains(&b'\n') {
            return Err(io::Error::other("a finding's JSON spans lines"));
        }
        let start = self.text.len();
        self.text.extend_from_slice(json);
        self.text.push(b'\n');
        self.ended_line(start)?;
        self.count += 1;
        Ok(())
    }

    /// One finding more would pass what a reader takes.
    fn room(&self) -> io::Result<()> {
        if self.count >= self.cap {
            return Err(io::Error::other(format!(
                "a snapshot holds at most {} findings",
                self.cap
            )));
        }
        Ok(())
    }

    /// How many findings were written.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Writes the trailer and the last block; returns the output (to be
    /// flushed or committed by its owner).
    pub fn finish(mut self) -> io::Result<W> {
        if let Some(header) = &self.header {
            self.start(header.version)?;
        }
        self.line(&Trailer { end: self.count })?;
        self.block()?;
        if let Some(last) = self.packing.take() {
            self.write_packed(last)?;
        }
        Ok(self.out)
    }

    /// The magic bytes and the header, in `version`, before the first
    /// line; a second kind of line after the first is refused.
    fn start(&mut self, version: u32) -> io::Result<()> {
        let Some(mut header) = self.header.take() else {
            return if self.version == version {
                Ok(())
            } else {
                Err(io::Error::other("a snapshot holds one kind of line"))
            };
        };
        header.version = version;
        self.version = version;
        // A reader takes the version from two bytes.
        let magic_version = u16::try_from(version).map_err(|_| {
            io::Error::other(format!(
                "snapshot format version {version} is past two bytes"
            ))
        })?;
        self.out.write_all(&magic(magic_version))?;
        self.line(&header)
    }

    fn line<T: Serialize>(&mut self, value: &T) -> io::Result<()> {
        let start = self.text.len();
        serde_json::to_writer(&mut self.text, value)?;
        self.text.push(b'\n');
        self.ended_line(start)
    }

    fn ended_line(&mut self, start: usize) -> io::Result<()> {
        self.scrub_from(start);
        if self.text.len() - start > MAX_LINE {
            return Err(io::Error::other(
                "a finding is too long for a snapshot (over 1 MiB)",
            ));
        }
        self.lines += 1;
        if self.text.len() >= BLOCK_TEXT || self.lines >= MAX_BLOCK_LINES {
            self.block()?;
        }
        Ok(())
    }

    /// A secret the server echoed (the token in a finding's message) is
    /// masked in the line from `start`, as in every export.
    fn scrub_from(&mut self, start: usize) {
        let masked = match std::str::from_utf8(&self.text[start..]) {
            Ok(line) => match findings_base::redact::scrub(line) {
                std::borrow::Cow::Owned(masked) => Some(masked),
                std::borrow::Cow::Borrowed(_) => None,
            },
            Err(_) => None,
        };
        if let Some(masked) = masked {
            self.text.truncate(start);
            self.text.extend_from_slice(masked.as_bytes());
        }
    }

    /// One block: the compressed length (u32, little-endian), then the
    /// text's length (u32, little-endian) and the text packed (deflate from
    /// version 3, lz4 before; from version 4 the text is [`by_rule`]'s).
    fn block(&mut self) -> io::Result<()> {
        if self.text.is_empty() {
            return Ok(());
        }
        let text = std::mem::replace(&mut self.text, Vec::with_capacity(BLOCK_TEXT + 4096));
        self.lines = 0;
        let version = self.version;
        // A thread the system refuses is an error, not a panic. One left
        // running when the writer is dropped (an error) ends on its own.
        let packing = std::thread::Builder::new()
            .name("snapshot-pack".into())
            .spawn(move || packed(&text, version))?;
        // The block before is written as this one is packed: blocks go out
        // in the order they were filled.
        if let Some(before) = self.packing.replace(packing) {
            self.write_packed(before)?;
        }
        Ok(())
    }

    /// Writes a block once packed: its length, then what was packed.
    fn write_packed(
        &mut self,
        packing: std::thread::JoinHandle<io::Result<Vec<u8>>>,
    ) -> io::Result<()> {
        let packed = packing
            .join()
            .map_err(|_| io::Error::other("packing a block failed"))??;
        let len = u32::try_from(packed.len()).map_err(io::Error::other)?;
        self.out.write_all(&len.to_le_bytes())?;
        self.out.write_all(&packed)
    }
}

/// A block's text packed as `version` packs it: deflate from version 3
/// (from 4, [`by_rule`]'s text), lz4 before.
fn packed(text: &[u8], version: u32) -> io::Result<Vec<u8>> {
    if version >= 4 {
        deflated(&by_rule(text)?)
    } else if version >= 3 {
        deflated(text)
    } else {
        Ok(lz4_flex::block::compress_prepend_size(text))
    }
}

/// `text`'s length (u32, little-endian), then `text` deflated.
pub(super) fn deflated(text: &[u8]) -> io::Result<Vec<u8>> {
    let size = u32::try_from(text.len()).map_err(io::Error::other)?;
    let mut packed = size.to_le_bytes().to_vec();
    // Level 6 is zlib's default: a fifth of the text's size on findings.
    let mut encoder = flate2::write::DeflateEncoder::new(&mut packed, flate2::Compression::new(6));
    encoder.write_all(text)?;
    encoder.finish()?;
    Ok(packed)
}

/// A version 4 block's text: an order line, `{"order":[...]}` (for each
/// line as written, its place among the lines that follow), then the lines
/// grouped by rule (and in the order written within a rule), so deflate
/// finds the text a rule's findings share within its window.
fn by_rule(text: &[u8]) -> io::Result<Vec<u8>> {
    let lines: Vec<&[u8]> = text.split_inclusive(|&b| b == b'\n').collect();
    let mut stored: Vec<usize> = (0..lines.len()).collect();
    stored.sort_by_key(|&i| rule_id(lines[i]));
    let mut order = vec![0u32; lines.len()];
    for (place, &i) in stored.iter().enumerate() {
        order[i] = u32::try_from(place).map_err(io::Error::other)?;
    }
    let mut out = Vec::with_capacity(text.len() + 8 * lines.len() + 16);
    serde_json::to_writer(&mut out, &BlockOrder { order })?;
    out.push(b'\n');
    for i in stored {
        out.extend_from_slice(lines[i]);
    }
    Ok(out)
}

/// The order line that opens a version 4 block.
#[derive(Serialize, serde::Deserialize)]
pub(super) struct BlockOrder {
    pub(super) order: Vec<u32>,
}

/// The rule id a finding's line names first (its issue's): only what is
/// stored together depends on it, never what is read back.
pub(super) fn rule_id(line: &[u8]) -> &[u8] {
    const KEY: &[u8] = b"\"ruleId\"";
    let Some(at) = memchr::memmem::find(line, KEY) else {
        return b"";
    };
    // As the server spaced it: `"ruleId":"x"` or `"ruleId" : "x"`.
    let rest = line[at + KEY.len()..].trim_ascii_start();
    let Some(rest) = rest.strip_prefix(b":") else {
        return b"";
    };
    let Some(value) = rest.trim_ascii_start().strip_prefix(b"\"") else {
        return b"";
    };
    &value[..memchr::memchr(b'"', value).unwrap_or(value.len())]
}
