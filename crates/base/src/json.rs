//! One JSON encoder and one decoder for every type the app reads or writes.
//!
//! serde generates a type's code once for each serializer or deserializer it
//! meets: a type read by `from_slice` in one place, `from_str` in another and
//! `from_value` in a third is compiled three times over. The wire model is
//! large, and those copies were half of the code the crate generated (its
//! build time, `cargo llvm-lines`). Every read of JSON goes through
//! [`decode`] and every write through [`encode`], so each type is compiled
//! once each way; [`pretty`] indents the compact text instead of asking
//! serde for a third copy.

use serde::Serialize;
use serde::de::DeserializeOwned;

/// Why a JSON text could not be read as the type asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    /// Where in the document: `issues[1].issue.line`, or `.` for the top.
    pub path: String,
    /// serde_json's message, with its line and column.
    pub message: String,
    /// The text ended inside the JSON.
    pub truncated: bool,
}

impl DecodeError {
    fn new(path: String, e: &serde_json::Error) -> DecodeError {
        DecodeError {
            path,
            message: e.to_string(),
            truncated: e.is_eof(),
        }
    }
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "at {}: {}", self.path, self.message)
    }
}

impl std::error::Error for DecodeError {}

/// Reads `bytes` as one JSON document of type `T`, naming the path of the
/// first value that does not fit. Nothing but whitespace may follow it.
///
/// The path is found from where serde_json stopped, by [`path_at`], rather
/// than by serde_path_to_error: its wrappers compiled every wire type a
/// second time, larger (a third of the crate's generated code).
pub fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, DecodeError> {
    serde_json::from_slice(bytes).map_err(|e| {
        let offset = offset_of(bytes, e.line(), e.column());
        DecodeError::new(path_at(bytes, offset), &e)
    })
}

/// The byte offset of serde_json's (one-based line, byte column).
fn offset_of(bytes: &[u8], line: usize, column: usize) -> usize {
    let start = if line <= 1 {
        0
    } else {
        bytes
            .iter()
            .enumerate()
            .filter(|(_, b)| **b == b'\n')
            .nth(line - 2)
            .map_or(bytes.len(), |(i, _)| i + 1)
    };
    (start + column).min(bytes.len())
}

/// One open container while scanning.
enum Open {
    /// An object, with the key last read (its value is being read once
    /// `in_value`).
    Object { key: Option<String>, in_value: bool },
    /// An array, with the index of the element being read, once one has
    /// begun (an error at its `[` is the array's owner's).
    Array { index: usize, begun: bool },
}

/// The path of the value being read at `offset` in the JSON text `bytes`,
/// written as serde_path_to_error writes it: `issues[1].issue.line`, or `.`
/// at the top. Malformed text gives the path as far as it could be followed.
fn path_at(bytes: &[u8], offset: usize) -> String {
    let mut open: Vec<Open> = Vec::new();
    // A value starts inside the innermost array: its element has begun.
    let begin = |open: &mut Vec<Open>| {
        if let Some(Open::Array { begun, .. }) = open.last_mut() {
            *begun = true;
        }
    };
    let mut i = 0;
    let end = offset.min(bytes.len());
    while i < end {
        match bytes[i] {
            b'"' => {
                begin(&mut open);
                // A string: find its end, and keep it when it is a key.
                let start = i + 1;
                let mut j = start;
                while j < bytes.len() && bytes[j] != b'"' {
                    j += if bytes[j] == b'\\' { 2 } else { 1 };
                }
                if let Some(Open::Object { key, in_value }) = open.last_mut()
                    && !*in_value
                {
                    let text = &bytes[start..j.min(bytes.len())];
                    *key = Some(String::from_utf8_lossy(text).into_owned());
                }
                i = j;
            }
            b'{' => {
                begin(&mut open);
                open.push(Open::Object {
                    key: None,
                    in_value: false,
                });
            }
            b'[' => {
                begin(&mut open);
                open.push(Open::Array {
                    index: 0,
                    begun: false,
                });
            }
            b'}' | b']' => {
                open.pop();
                if open.is_empty() {
                    // The document ended; what follows is trailing text.
                    break;
                }
            }
            b':' => {
                if let Some(Open::Object { in_value, .. }) = open.last_mut() {
                    *in_value = true;
                }
            }
            b',' => match open.last_mut() {
                Some(Open::Object { in_value, .. }) => *in_value = false,
                Some(Open::Array { index, .. }) => *index += 1,
                None => {}
            },
            b if b.is_ascii_whitespace() => {}
            _ => begin(&mut open),
        }
        i += 1;
    }
    let mut path = String::new();
    for part in &open {
        match part {
            Open::Object { key: Some(key), .. } => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(key);
            }
            Open::Object { key: None, .. } => {}
            Open::Array { index, begun } => {
                if *begun {
                    path.push_str(&format!("[{index}]"));
                }
            }
        }
    }
    if path.is_empty() {
        path.push('.');
    }
    path
}

/// `value` as compact JSON. Fails only for a map whose keys are not strings,
/// which no type of ours has.
pub fn encode<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, serde_json::Error> {
    let mut out = Vec::with_capacity(128);
    value.serialize(&mut serde_json::Serializer::with_formatter(
        &mut out,
        TerminalSafe,
    ))?;
    Ok(out)
}

/// serde_json's compact output, but a string's C1 controls, DEL, bidi and
/// zero-width characters are written as `\uXXXX` (serde_json escapes only
/// C0): the same JSON to any reader, and none of it acts on a terminal the
/// output is printed on (`--format json`, ndjson piped to `cat`).
struct TerminalSafe;

impl serde_json::ser::Formatter for TerminalSafe {
    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        // Printable ASCII, most of what is written, needs nothing.
        if needs_no_escape(fragment) {
            return writer.write_all(fragment.as_bytes());
        }
        let mut start = 0;
        for (i, c) in fragment.char_indices() {
            if crate::text::acts_on_a_terminal(c) {
                writer.write_all(&fragment.as_bytes()[start..i])?;
                write_unicode_escape(writer, c)?;
                start = i + c.len_utf8();
            }
        }
        writer.write_all(&fragment.as_bytes()[start..])
    }
}

/// Whether `fragment` is ASCII without DEL (serde_json escapes C0 before
/// it comes here). Not generic, so compiled once, here, rather than in
/// every crate that writes JSON (an iterator there, unoptimised in the
/// tests, was 2% of their run).
fn needs_no_escape(fragment: &str) -> bool {
    fragment.is_ascii() && !fragment.as_bytes().contains(&0x7f)
}

/// `value` as JSON indented by two spaces, as `serde_json::to_string_pretty`
/// writes it (fields in their declared order).
pub fn pretty<T: Serialize + ?Sized>(value: &T) -> Result<String, serde_json::Error> {
    Ok(indent(&encode(value)?))
}

/// `value` as a JSON tree, through [`encode`] (not a serde copy of its own).
pub fn to_value<T: Serialize + ?Sized>(value: &T) -> Result<serde_json::Value, serde_json::Error> {
    let bytes = encode(value)?;
    // What encode wrote reads back.
    decode(&bytes).map_err(|e| serde::de::Error::custom(e.message))
}

/// A JSON tree read as `T`, through [`decode`] (not a serde copy of its own).
pub fn from_value<T: DeserializeOwned>(value: &serde_json::Value) -> Result<T, DecodeError> {
    match encode(value) {
        Ok(bytes) => decode(&bytes),
        Err(e) => Err(DecodeError::new(".".into(), &e)),
    }
}

/// `value` pretty-printed, its lines after the first indented by `indent`
/// spaces: to sit at that depth of a document written piece by piece.
///
/// One pass of serde_json's pretty printer (the value holds no raw JSON
/// for [`pretty`]'s re-indenting to reach), then the pad after each line
/// break: a JSON string holds no raw line break, so each is the printer's.
/// A SARIF export writes a million results this way.
pub fn pretty_at<T: Serialize + ?Sized>(
    value: &T,
    indent: usize,
) -> Result<String, serde_json::Error> {
    let mut text = Vec::with_capacity(1024);
    let formatter = serde_json::ser::PrettyFormatter::with_indent(b"  ");
    value.serialize(&mut serde_json::Serializer::with_formatter(
        &mut text, formatter,
    ))?;
    let mut out = Vec::with_capacity(text.len() + text.len() / 4);
    let mut rest = &text[..];
    while let Some(at) = memchr::memchr(b'\n', rest) {
        out.extend_from_slice(&rest[..=at]);
        out.resize(out.len() + indent, b' ');
        rest = &rest[at + 1..];
    }
    out.extend_from_slice(rest);
    // serde_json writes UTF-8.
    String::from_utf8(out).map_err(<serde_json::Error as serde::ser::Error>::custom)
}

/// Writes `value` pretty and a newline (the CLI's `--format json`).
pub fn write_pretty<T: Serialize + ?Sized>(
    out: &mut dyn std::io::Write,
    value: &T,
) -> std::io::Result<()> {
    let text = pretty(value).map_err(std::io::Error::other)?;
    writeln!(out, "{text}")
}

/// Indents compact JSON text (as [`encode`] writes it) the way serde_json's
/// pretty printer does: two spaces a level, `"key": value`, and `[]` and
/// `{}` for empty containers.
fn indent(compact: &[u8]) -> String {
    let text = String::from_utf8_lossy(compact);
    let mut out = String::with_capacity(text.len() * 2);
    let mut depth = 0usize;
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        for _ in 0..depth {
            out.push_str("  ");
        }
    };
    let mut parts = parts(&text).peekable();
    while let Some(part) = parts.next() {
        let c = match part {
            Part::String(s) => {
                out.push_str(s);
                continue;
            }
            Part::Char(c) => c,
        };
        match c {
            '{' | '[' => {
                out.push(c);
                let close = if c == '{' { '}' } else { ']' };
                if parts.peek() == Some(&Part::Char(close)) {
                    out.push(close);
                    parts.next();
                } else {
                    depth += 1;
                    newline(&mut out, depth);
                }
            }
            '}' | ']' => {
                depth = depth.saturating_sub(1);
                newline(&mut out, depth);
                out.push(c);
            }
            ',' => {
                out.push(c);
                newline(&mut out, depth);
            }
            ':' => out.push_str(": "),
            c if c.is_ascii_whitespace() => {}
            c => out.push(c),
        }
    }
    out
}

/// Valid JSON text without the whitespace between its tokens.
pub fn compact(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for part in parts(text) {
        match part {
            Part::String(s) => out.push_str(s),
            Part::Char(c) if c.is_ascii_whitespace() => {}
            Part::Char(c) => out.push(c),
        }
    }
    out
}

/// A piece of JSON text: a string literal (its quotes included, escapes
/// kept), or one character outside strings.
#[derive(Debug, PartialEq, Eq)]
enum Part<'a> {
    String(&'a str),
    Char(char),
}

/// The text's string literals and the characters between them, in order;
/// an unterminated string runs to the end.
fn parts(text: &str) -> impl Iterator<Item = Part<'_>> {
    let mut rest = text;
    std::iter::from_fn(move || {
        let c = rest.chars().next()?;
        if c != '"' {
            rest = &rest[c.len_utf8()..];
            return Some(Part::Char(c));
        }
        let bytes = rest.as_bytes();
        let mut end = 1;
        while end < bytes.len() && bytes[end] != b'"' {
            end += if bytes[end] == b'\\' { 2 } else { 1 };
        }
        // A stray backslash before a multi-byte character must not split it.
        let mut end = (end + 1).min(bytes.len());
        while !rest.is_char_boundary(end) {
            end += 1;
        }
        let (string, after) = rest.split_at(end);
        rest = after;
        Some(Part::String(string))
    })
}

/// Compact JSON text another writer wrote (jq's), with every character
/// that acts on a terminal written as `\uXXXX`, as [`encode`] writes
/// them: a C1 control, a bidi or zero-width character in a jq result
/// reaches no terminal, and the JSON means the same to a reader. Outside
/// its strings JSON is ASCII, and a compact writer escapes newlines, so
/// every such character is in a string, where the escape is the character.
pub fn escape_acting(json: Vec<u8>) -> Vec<u8> {
    // ASCII but DEL, most of what is written, needs nothing.
    if json.iter().all(|b| *b < 0x7f) {
        return json;
    }
    let Ok(text) = std::str::from_utf8(&json) else {
        return json;
    };
    if !text
        .chars()
        .any(|c| c != '\n' && crate::text::acts_on_a_terminal(c))
    {
        return json;
    }
    let mut out = Vec::with_capacity(json.len() + 16);
    for c in text.chars() {
        if c != '\n' && crate::text::acts_on_a_terminal(c) {
            // Writing to a Vec cannot fail.
            let _ = write_unicode_escape(&mut out, c);
        } else {
            let mut utf8 = [0u8; 4];
            out.extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
        }
    }
    out
}

/// `c` as JSON's `\uXXXX` (a surrogate pair past the first plane).
fn write_unicode_escape<W: ?Sized + std::io::Write>(
    writer: &mut W,
    c: char,
) -> std::io::Result<()> {
    let mut units = [0u16; 2];
    for unit in c.encode_utf16(&mut units) {
        write!(writer, "\\u{unit:04x}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn strings_are_written_with_nothing_that_acts_on_a_terminal() {
        let hostile = "a\u{1b}]52;c;x\u{7}\u{9b}2J\u{7f}\u{202e}b\u{200b}c\u{2066}\u{feff}\u{e0041} 用户🔥 e\u{301}";
        let bytes = encode(&json!({ "k\u{202e}": hostile })).unwrap();
        let text = std::str::from_utf8(&bytes).unwrap();
        assert!(
            !text
                .chars()
                .any(|c| c.is_control() || crate::text::acts_on_a_terminal(c)),
            "{text:?}"
        );
        assert!(
            text.contains("\\u009b") && text.contains("\\u202e") && text.contains("\\udb40\\udc41"),
            "{text}"
        );
        assert!(
            text.contains("用户🔥 e\u{301}"),
            "readable text is kept: {text}"
        );
        // The same JSON to a reader.
        let back: serde_json::Value = decode(&bytes).unwrap();
        assert_eq!(back, json!({ "k\u{202e}": hostile }));
    }

    /// What another writer wrote (jq's writer leaves C1, bidi and
    /// zero-width characters as they are) is made what [`encode`] writes.
    #[test]
    fn escape_acting_writes_as_encode_writes_and_means_the_same() {
        let hostile = "a\u{9b}2J\u{7f}\u{202e}b\u{200b}c\u{e0041}\u{ad} 用户🔥 e\u{301}";
        let value = json!({ "k\u{202e}": [hostile, 1] });
        let raw = serde_json::to_vec(&value).unwrap();
        let escaped = escape_acting(raw);
        let text = std::str::from_utf8(&escaped).unwrap();
        assert!(
            !text.chars().any(crate::text::acts_on_a_terminal),
            "{text:?}"
        );
        assert_eq!(escaped, encode(&value).unwrap());
        let back: serde_json::Value = decode(&escaped).unwrap();
        assert_eq!(back, value);
        let plain = br#"{"a":"b"}"#.to_vec();
        assert_eq!(escape_acting(plain.clone()), plain);
    }

    #[test]
    fn indent_writes_what_serde_json_pretty_writes() {
        let docs = [
            json!({}),
            json!([]),
            json!(null),
            json!("a \"quoted\", {braced} [bracketed]: string\\"),
            json!({"a": [], "b": {}, "c": [1, 2.5, -3e-7], "d": {"e": [{"f": true}, null]}}),
            json!([[[]], [{}], {"x": "y:z,"}]),
            json!({"unicode": "ünï — 日本", "escapes": "\n\t\u{1}"}),
        ];
        for doc in docs {
            let want = serde_json::to_string_pretty(&doc).unwrap();
            assert_eq!(pretty(&doc).unwrap(), want, "{doc}");
        }
    }

    #[test]
    fn compact_drops_whitespace_outside_strings_only_and_never_splits_a_character() {
        assert_eq!(
            compact("{ \"a b\" : [ 1 ,\n 2 ], \"c\\\" d\": \"\\u00e9 \" }"),
            "{\"a b\":[1,2],\"c\\\" d\":\"\\u00e9 \"}"
        );
        // Not JSON (a backslash before a multi-byte character, an open
        // string): kept as it is, without a panic.
        assert_eq!(compact("\"\\é x"), "\"\\é x");
        assert_eq!(compact("[\"é\\"), "[\"é\\");
    }

    #[test]
    fn pretty_keeps_the_declared_field_order() {
        #[derive(Serialize)]
        struct Body {
            zeta: u8,
            alpha: Vec<u8>,
        }
        let got = pretty(&Body {
            zeta: 1,
            alpha: vec![2],
        })
        .unwrap();
        assert_eq!(got, "{\n  \"zeta\": 1,\n  \"alpha\": [\n    2\n  ]\n}");
    }

    #[test]
    fn decode_names_the_path_and_refuses_trailing_text() {
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct Item {
            line: u32,
        }
        let err = decode::<Vec<Item>>(br#"[{"line":1},{"line":"two"}]"#).unwrap_err();
        assert_eq!(err.path, "[1].line");
        assert!(!err.truncated);
        let err = decode::<Vec<Item>>(br#"[{"line":1}"#).unwrap_err();
        assert!(err.truncated, "{err}");
        let err = decode::<Vec<Item>>(br"[] []").unwrap_err();
        assert_eq!(err.path, ".");
        assert!(decode::<Vec<Item>>(b" [ ] \n").unwrap().is_empty());
    }
}
