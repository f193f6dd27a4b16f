//! The one way a mistake in a TOML file of ours is reported (the config,
//! theme and keymap files): the file, the line and the key, then what is
//! wrong. The value is never repeated from the file (it may be a token).

use serde::de::DeserializeOwned;
use std::path::Path;

/// Parses `text` as a `T`; a mistake is reported by [`located`], with the
/// key serde was reading, else the key written on the line.
pub(crate) fn parse<T: DeserializeOwned>(kind: &str, path: &Path, text: &str) -> Result<T, String> {
    let report = |e: &toml::de::Error, key: Option<String>| {
        let line = e.span().map(|span| line_at(text, span.start));
        // A syntax error has no key from serde: take the one written on
        // the line.
        let key = key
            .filter(|k| !k.is_empty() && k != ".")
            .or_else(|| line.and_then(|l| key_on_line(text, l)));
        let message = e.message().trim();
        let message = match did_you_mean(message) {
            Some(hint) => format!("{message} ({hint})"),
            None => message.to_owned(),
        };
        located(
            kind,
            path,
            line,
            key.as_deref(),
            &findings_base::text::one_line(&message),
        )
    };
    match toml::Deserializer::parse(text) {
        Err(e) => Err(report(&e, None)),
        Ok(de) => serde_path_to_error::deserialize(de).map_err(|e| {
            let key = e.path().to_string();
            report(e.inner(), Some(key))
        }),
    }
}

/// For serde's "unknown variant `X`, expected one of `a`, `b`" (and its
/// "unknown field"), the names there are that `X` most likely meant.
fn did_you_mean(message: &str) -> Option<String> {
    if !(message.starts_with("unknown variant") || message.starts_with("unknown field")) {
        return None;
    }
    let mut quoted = message.split('`').skip(1).step_by(2);
    let typed = quoted.next()?;
    let known: Vec<&str> = quoted.collect();
    findings_requests::filter_spec::did_you_mean(&known, typed)
}

/// `KIND PATH, line N, key KEY: MESSAGE`, leaving out what is not known.
pub(crate) fn located(
    kind: &str,
    path: &Path,
    line: Option<usize>,
    key: Option<&str>,
    message: &str,
) -> String {
    let mut msg = format!("{kind} {}", path.display());
    if let Some(line) = line {
        msg.push_str(&format!(", line {line}"));
    }
    if let Some(key) = key {
        msg.push_str(&format!(", key {key}"));
    }
    msg.push_str(": ");
    msg.push_str(message);
    msg
}

/// The 1-based line of byte `offset`.
fn line_at(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// The dotted key written on line `line` (1-based), under the table header
/// above it: `profiles.work.token` for `token = ...` after `[profiles.work]`.
/// Only the key is taken, never the value.
fn key_on_line(text: &str, line: usize) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let (key, _) = lines.get(line.checked_sub(1)?)?.split_once('=')?;
    let key = key.trim();
    let is_key = |k: &str| {
        !k.is_empty()
            && k.chars()
                .all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c))
    };
    if !is_key(key) {
        return None;
    }
    let table = lines[..line - 1].iter().rev().find_map(|l| {
        let l = l.trim();
        let inner = l.strip_prefix("[[").and_then(|r| r.strip_suffix("]]"));
        let inner = inner.or_else(|| l.strip_prefix('[').and_then(|r| r.strip_suffix(']')));
        inner.map(|t| t.trim().to_owned())
    });
    match table {
        Some(t) if is_key(&t) => Some(format!("{t}.{key}")),
        Some(_) => None,
        None => Some(key.to_owned()),
    }
}

/// The line of a top-level `key = ...` (for errors found after parsing).
pub(crate) fn top_level_key_line(text: &str, key: &str) -> Option<usize> {
    text.lines()
        .position(|l| {
            l.trim_start()
                .strip_prefix(key)
                .is_some_and(|rest| rest.trim_start().starts_with('='))
        })
        .map(|i| i + 1)
}
