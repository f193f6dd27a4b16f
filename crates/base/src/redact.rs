//! One redaction layer between what a server sends and every place text
//! goes: the secrets this process holds are replaced by `***` wherever
//! they appear.
//!
//! A hostile or careless server can echo a secret back: a 401 body quoting
//! the Authorization header, a 500 whose details quote the request body
//! (with an SCM access token in it), a finding message carrying the token.
//! The secrets are registered here when they enter the process (the bearer
//! token when a client is built, an SCM access token when a draft with one
//! is reviewed or one is read from stdin), and every sink scrubs: the
//! terminal-safe text functions (every string the TUI and the tables show),
//! API error messages, logs, exports and the crash log. Credentials in
//! URLs (`scheme://user:password@host`) are masked too, registered or not.

use std::borrow::Cow;
use std::io::{self, Write};
use std::sync::RwLock;
use std::sync::atomic::{AtomicBool, Ordering};

/// What a secret is replaced with.
pub const MASK: &str = "***";

/// Secrets shorter than this are not registered: replacing a 3-letter
/// string everywhere would garble text and hide nothing worth hiding.
pub const MIN_SECRET_LEN: usize = 6;

static SECRETS: RwLock<Vec<String>> = RwLock::new(Vec::new());
/// Whether any secret is registered: the common path checks one flag.
static ANY: AtomicBool = AtomicBool::new(false);

/// Remembers `secret` (and its JSON-escaped form, as an echoed request body
/// writes it) so that every sink replaces it from now on.
pub fn register(secret: &str) {
    let secret = secret.trim();
    if secret.len() < MIN_SECRET_LEN {
        return;
    }
    let escaped = serde_json::to_string(secret).unwrap_or_default();
    let escaped = escaped.trim_matches('"');
    let mut secrets = SECRETS.write().unwrap_or_else(|e| e.into_inner());
    for form in [secret, escaped] {
        if !form.is_empty() && !secrets.iter().any(|s| s == form) {
            secrets.push(form.to_owned());
        }
    }
    // Longest first: a secret that contains another is masked whole.
    secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
    ANY.store(true, Ordering::Release);
}

/// `text` with every registered secret and every URL password masked.
pub fn scrub(text: &str) -> Cow<'_, str> {
    let mut out = Cow::Borrowed(text);
    if ANY.load(Ordering::Acquire) {
        let secrets = SECRETS.read().unwrap_or_else(|e| e.into_inner());
        for secret in secrets.iter() {
            if memchr::memmem::find(out.as_bytes(), secret.as_bytes()).is_some() {
                out = Cow::Owned(out.replace(secret.as_str(), MASK));
            }
        }
    }
    match mask_url_credentials(&out) {
        Cow::Borrowed(_) => out,
        Cow::Owned(masked) => Cow::Owned(masked),
    }
}

/// Whether `text` holds a registered secret (what [`scrub`] would mask):
/// for what is withheld whole rather than masked, as the environment a
/// `--jq` expression reads.
pub fn holds_secret(text: &str) -> bool {
    if !ANY.load(Ordering::Acquire) {
        return false;
    }
    let secrets = SECRETS.read().unwrap_or_else(|e| e.into_inner());
    secrets
        .iter()
        .any(|secret| memchr::memmem::find(text.as_bytes(), secret.as_bytes()).is_some())
}

/// `scheme://user:password@host` → `scheme://***@host`, anywhere in `text`.
pub fn mask_url_credentials(text: &str) -> Cow<'_, str> {
    // The common case, no URL holding credentials, allocates nothing.
    if authorities(text).all(|(_, authority)| !authority.contains('@')) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut done = 0;
    for (start, authority) in authorities(text) {
        if let Some(at) = authority.rfind('@') {
            out.push_str(&text[done..start]);
            out.push_str(MASK);
            done = start + at;
        }
    }
    out.push_str(&text[done..]);
    Cow::Owned(out)
}

/// Each URL authority in `text` (what follows `://` up to the first `/`,
/// `?`, `#`, quote, bracket or space), with its byte offset.
fn authorities(text: &str) -> impl Iterator<Item = (usize, &str)> {
    // Built once: every string shown or exported passes here, and building
    // the searcher each time was a few per cent of a CSV export.
    static SCHEME_END: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"://"));
    SCHEME_END.find_iter(text.as_bytes()).map(move |i| {
        let start = i + 3;
        let tail = &text[start..];
        let end = tail
            .find(|c: char| {
                matches!(c, '/' | '?' | '#' | '"' | '\'' | '<' | '>' | '\\') || c.is_whitespace()
            })
            .unwrap_or(tail.len());
        (start, &tail[..end])
    })
}

/// A writer that scrubs what passes through it. A secret split across two
/// writes is still caught: the last bytes that could begin one are held
/// back until the next write or [`ScrubWriter::finish`].
pub struct ScrubWriter<W: Write> {
    /// `None` only once [`ScrubWriter::finish`] has taken it.
    inner: Option<W>,
    held: Vec<u8>,
}

impl<W: Write> ScrubWriter<W> {
    pub fn new(inner: W) -> Self {
        ScrubWriter {
            inner: Some(inner),
            held: Vec::new(),
        }
    }

    /// Writes what is held back and returns the inner writer.
    pub fn finish(mut self) -> io::Result<W> {
        self.release_all()?;
        let mut inner = self.inner.take().expect("finish is called once");
        inner.flush()?;
        Ok(inner)
    }

    fn release_all(&mut self) -> io::Result<()> {
        let held = std::mem::take(&mut self.held);
        match self.inner.as_mut() {
            Some(inner) if !held.is_empty() => write_scrubbed(inner, &held),
            _ => Ok(()),
        }
    }
}

/// How many bytes at the end of `held` could be the start of a secret
/// that the next write completes: they are held back, all else released.
fn pending_prefix(held: &[u8]) -> usize {
    if !ANY.load(Ordering::Acquire) {
        return 0;
    }
    let secrets = SECRETS.read().unwrap_or_else(|e| e.into_inner());
    let mut longest = 0;
    for secret in secrets.iter().map(String::as_bytes) {
        for k in (longest + 1..secret.len()).rev() {
            if held.ends_with(&secret[..k]) {
                longest = k;
                break;
            }
        }
    }
    // Cut on a character boundary: scrubbing reads text.
    let mut cut = held.len() - longest;
    while cut > 0 && !is_char_start(held.get(cut).copied()) {
        cut -= 1;
    }
    held.len() - cut
}

fn write_scrubbed<W: Write>(out: &mut W, bytes: &[u8]) -> io::Result<()> {
    match std::str::from_utf8(bytes) {
        Ok(text) => out.write_all(scrub(text).as_bytes()),
        // Not text: only whole secrets can be matched, byte-wise.
        Err(_) => out.write_all(&scrub_bytes(bytes)),
    }
}

fn scrub_bytes(bytes: &[u8]) -> Cow<'_, [u8]> {
    if !ANY.load(Ordering::Acquire) {
        return Cow::Borrowed(bytes);
    }
    let secrets = SECRETS.read().unwrap_or_else(|e| e.into_inner());
    let mut out = Cow::Borrowed(bytes);
    for secret in secrets.iter() {
        let finder = memchr::memmem::Finder::new(secret.as_bytes());
        if finder.find(&out).is_none() {
            continue;
        }
        let mut replaced = Vec::with_capacity(out.len());
        let mut start = 0;
        for i in finder.find_iter(&out) {
            if i < start {
                continue;
            }
            replaced.extend_from_slice(&out[start..i]);
            replaced.extend_from_slice(MASK.as_bytes());
            start = i + secret.len();
        }
        replaced.extend_from_slice(&out[start..]);
        out = Cow::Owned(replaced);
    }
    out
}

impl<W: Write> ScrubWriter<W> {
    /// Writes all that cannot be the start of a secret.
    fn release(&mut self) -> io::Result<()> {
        let Some(inner) = self.inner.as_mut() else {
            return Err(io::Error::other("write after finish"));
        };
        let cut = self.held.len() - pending_prefix(&self.held);
        if cut > 0 {
            write_scrubbed(inner, &self.held[..cut])?;
            self.held.drain(..cut);
        }
        Ok(())
    }
}

impl<W: Write> Write for ScrubWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.held.is_empty()
            && !ANY.load(Ordering::Acquire)
            && let Some(inner) = self.inner.as_mut()
        {
            inner.write_all(buf)?;
            return Ok(buf.len());
        }
        self.held.extend_from_slice(buf);
        self.release()?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.release()?;
        match self.inner.as_mut() {
            Some(inner) => inner.flush(),
            None => Ok(()),
        }
    }
}

impl<W: Write> Drop for ScrubWriter<W> {
    fn drop(&mut self) {
        let _ = self.release_all();
    }
}

// A UTF-8 continuation byte is 0b10xx_xxxx; any other byte starts a char.
fn is_char_start(b: Option<u8>) -> bool {
    b.is_none_or(|b| b & 0xC0 != 0x80)
}

#[cfg(test)]
mod tests {
    use super::*;

    // The registry is process-wide: each test uses secrets of its own.

    #[test]
    fn registered_secrets_are_masked_wherever_they_appear() {
        register("tok-AAAA-1111");
        let echoed = "HTTP 401: bad header Authorization: Bearer tok-AAAA-1111 (x)";
        assert_eq!(
            scrub(echoed),
            "HTTP 401: bad header Authorization: Bearer *** (x)"
        );
        assert!(matches!(scrub("nothing here"), Cow::Borrowed(_)));
    }

    #[test]
    fn holds_secret_finds_a_registered_secret_inside_text() {
        assert!(!holds_secret("held-secret-6161"));
        register("held-secret-6161");
        assert!(holds_secret("held-secret-6161"));
        assert!(holds_secret("prefix:held-secret-6161:suffix"));
        assert!(!holds_secret("held-secret-616"));
    }

    #[test]
    fn short_secrets_are_not_registered() {
        register("abc");
        assert_eq!(scrub("abc abc"), "abc abc");
    }

    #[test]
    fn a_json_escaped_secret_is_masked_too() {
        register("scm\"tok/9\\x");
        // An echoed request body, as its JSON text writes the secret.
        let body = r#"{"accessToken":"scm\"tok/9\\x"}"#;
        let shown = scrub(body);
        assert!(!shown.contains(r#"scm\"tok/9\\x"#), "{shown}");
        assert!(shown.contains(MASK), "{shown}");
    }

    #[test]
    fn url_passwords_are_masked_registered_or_not() {
        assert_eq!(
            scrub("see https://alice:hunter2@example.com/x and http://h/ok"),
            "see https://***@example.com/x and http://h/ok"
        );
        assert_eq!(
            mask_url_credentials("proxy http://u@p:8080"),
            "proxy http://***@p:8080"
        );
        assert!(matches!(
            mask_url_credentials("https://example.com/a@b"),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn a_secret_split_across_writes_is_caught() {
        register("split-secret-7777");
        for cut in 1.."split-secret-7777".len() {
            let text = "before split-secret-7777 after\n";
            let at = "before ".len() + cut;
            let mut w = ScrubWriter::new(Vec::new());
            w.write_all(&text.as_bytes()[..at]).unwrap();
            w.flush().unwrap();
            w.write_all(&text.as_bytes()[at..]).unwrap();
            let out = String::from_utf8(w.finish().unwrap()).unwrap();
            assert_eq!(out, "before *** after\n", "cut at {cut}");
        }
    }

    #[test]
    fn a_dropped_writer_releases_what_it_held() {
        register("drop-secret-8888");
        let mut sink = Vec::new();
        {
            let mut w = ScrubWriter::new(&mut sink);
            w.write_all(b"tail drop-secret-8888").unwrap();
        }
        assert_eq!(sink, b"tail ***");
    }
}
