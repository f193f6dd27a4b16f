//! Making untrusted text safe for a terminal.
//!
//! Anything a server sends may carry escape sequences (a finding message is
//! written by whoever pushed the code). Before such text reaches a terminal,
//! every control character is replaced by a visible stand-in, so no sequence
//! can be interpreted while the text stays readable.

use std::borrow::Cow;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Replaces control characters (C0, DEL, C1), bidi overrides and zero-width
/// format characters with visible symbols. Newlines become `␤` and tabs a
/// space: the result is always one line.
pub fn one_line(s: &str) -> Cow<'_, str> {
    sanitize(s, false)
}

/// Like [`one_line`] but keeps `\n` (for multi-line blocks such as code).
pub fn multi_line(s: &str) -> Cow<'_, str> {
    sanitize(s, true)
}

/// Secrets are masked first ([`crate::redact`]): every string shown passes
/// here.
fn sanitize(s: &str, keep_newlines: bool) -> Cow<'_, str> {
    match crate::redact::scrub(s) {
        Cow::Borrowed(s) => escape(s, keep_newlines),
        Cow::Owned(s) => Cow::Owned(escape(&s, keep_newlines).into_owned()),
    }
}

fn escape(s: &str, keep_newlines: bool) -> Cow<'_, str> {
    // Printable ASCII, most of what a server sends, needs nothing: a byte
    // test the compiler vectorises, before the test of each character.
    if s.bytes()
        .all(|b| (0x20..0x7f).contains(&b) || (keep_newlines && b == b'\n'))
    {
        return Cow::Borrowed(s);
    }
    if !s.chars().any(|c| needs_escape(c, keep_newlines)) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if !needs_escape(c, keep_newlines) {
            out.push(c);
            continue;
        }
        match c {
            '\t' => out.push(' '),
            '\n' => out.push('␤'),
            '\r' => {}
            // C0 controls have dedicated "control pictures" (U+2400..).
            '\u{0}'..='\u{1f}' => out.push(char::from_u32(0x2400 + c as u32).unwrap_or('�')),
            '\u{7f}' => out.push('␡'),
            _ => {
                // C1 controls, bidi and zero-width format characters.
                out.push_str(&format!("<U+{:04X}>", c as u32));
            }
        }
    }
    Cow::Owned(out)
}

/// Whether `c` would act on a terminal or hide text rather than show
/// (a control, bidi or zero-width character): what [`one_line`] makes
/// visible, and what JSON output writes as `\uXXXX` (the JSON encoder asks here).
pub fn acts_on_a_terminal(c: char) -> bool {
    needs_escape(c, true) || c == '\n'
}

fn needs_escape(c: char, keep_newlines: bool) -> bool {
    match c {
        '\n' => !keep_newlines,
        '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}' => true,
        // Bidi embeddings, overrides, isolates and marks can reorder what is
        // shown.
        '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' => true,
        '\u{061c}' => true,
        // Zero-width and invisible characters hide text (joiners, invisible
        // operators, the BOM, tags that spell hidden ASCII); the line
        // separators and interlinear annotations too.
        '\u{200b}'..='\u{200d}' | '\u{2060}'..='\u{2065}' | '\u{feff}' | '\u{180e}' => true,
        '\u{2028}' | '\u{2029}' | '\u{fff9}'..='\u{fffb}' | '\u{e0000}'..='\u{e007f}' => true,
        // The rest of Unicode's default-ignorable code points, drawn as
        // nothing: the soft hyphen, the grapheme joiner, the Hangul and
        // Khmer fillers, Mongolian selectors, the deprecated format
        // characters (they switch shaping and digit forms), musical and
        // shorthand format controls, and the variation selectors that can
        // spell hidden bytes after any character. VS15 and VS16
        // (U+FE0E/U+FE0F) stay: they only pick text or emoji
        // presentation, and every emoji message has them.
        '\u{ad}' | '\u{34f}' | '\u{115f}' | '\u{1160}' | '\u{17b4}' | '\u{17b5}' => true,
        '\u{180b}'..='\u{180f}' | '\u{206a}'..='\u{206f}' | '\u{3164}' | '\u{ffa0}' => true,
        '\u{fe00}'..='\u{fe0d}' | '\u{fff0}'..='\u{fff8}' | '\u{1bca0}'..='\u{1bca3}' => true,
        '\u{1d173}'..='\u{1d17a}' | '\u{e0080}'..='\u{e0fff}' => true,
        _ => false,
    }
}

/// Cuts `s` to at most `max` characters, marking the cut with `…`.
pub fn truncate(s: &str, max: usize) -> Cow<'_, str> {
    if s.chars().count() <= max {
        return Cow::Borrowed(s);
    }
    let mut out: String = s.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    Cow::Owned(out)
}

/// Keeps the start of `s` within `width` terminal columns (wide characters
/// count as two), marking the cut with `…`.
pub fn cut_right(s: &str, width: usize) -> String {
    let total: usize = s
        .chars()
        .map(|c| UnicodeWidthChar::width(c).unwrap_or(0))
        .sum();
    if total <= width {
        return s.to_owned();
    }
    if width == 0 {
        return String::new();
    }
    let mut out = String::new();
    let mut used = 1;
    for c in s.chars() {
        let w = UnicodeWidthChar::width(c).unwrap_or(0);
        if used + w > width {
            break;
        }
        out.push(c);
        used += w;
    }
    out.push('…');
    out
}

/// How a cell too long for its column is cut: the TUI's lists and the
/// headless tables cut alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cut {
    /// Keep the start, `…` at the end (names, titles).
    Right,
    /// Keep the end, `…` at the start (paths, `owner/repository`).
    Left,
    /// A `YYYY-MM-DD HH:MM` time: the date alone when the time does not fit.
    Date,
}

/// `text` cut to `width` terminal columns as `how` says.
pub fn cut(text: &str, width: usize, how: Cut) -> String {
    if text.width() <= width {
        return text.to_owned();
    }
    if width == 0 {
        return String::new();
    }
    match how {
        Cut::Right => cut_right(text, width),
        Cut::Left => cut_left(text, width),
        Cut::Date => match text.split_once(' ') {
            Some((date, _)) if date.width() <= width => date.to_owned(),
            _ => cut_right(text, width),
        },
    }
}

/// Keeps the end of a path (file name and line), marking the cut with `…`.
pub fn cut_left(s: &str, width: usize) -> String {
    let total: usize = s
        .chars()
        .map(|c| UnicodeWidthChar::width(c).unwrap_or(0))
        .sum();
    if total <= width || width == 0 {
        return s.to_owned();
    }
    let mut kept = Vec::new();
    let mut used = 1;
    for c in s.chars().rev() {
        let w = UnicodeWidthChar::width(c).unwrap_or(0);
        if used + w > width {
            break;
        }
        kept.push(c);
        used += w;
    }
    std::iter::once('…').chain(kept.into_iter().rev()).collect()
}

/// [`thousands`] of an unsigned count (a `usize` length, a `u64` total):
/// exact up to `i64::MAX`, which no count reaches, and saturating past it.
pub fn thousands_of(n: impl TryInto<i64>) -> String {
    thousands(n.try_into().unwrap_or(i64::MAX))
}

/// A count grouped by thousands: `1,098`.
pub fn thousands(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0 {
        out.insert(0, '-');
    }
    out
}

/// `s` with its first letter upper-case ("activity" → "Activity").
pub fn capitalised(s: &str) -> String {
    let mut chars = s.chars();
    chars
        .next()
        .map_or(String::new(), |c| c.to_uppercase().chain(chars).collect())
}

/// Untrusted multi-line text, made safe and wrapped to `width` columns
/// (wide characters count as two). Long words are broken.
pub fn wrap(s: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let text = multi_line(s);
    let mut out = Vec::new();
    for raw_line in text.split('\n') {
        let mut line = String::new();
        let mut used = 0;
        for word in raw_line.split_inclusive(' ') {
            let w: usize = word
                .chars()
                .map(|c| UnicodeWidthChar::width(c).unwrap_or(0))
                .sum();
            if used + w > width && used > 0 {
                out.push(std::mem::take(&mut line).trim_end().to_owned());
                used = 0;
            }
            if w > width {
                for c in word.chars() {
                    let cw = UnicodeWidthChar::width(c).unwrap_or(0);
                    if used + cw > width {
                        out.push(std::mem::take(&mut line));
                        used = 0;
                    }
                    line.push(c);
                    used += cw;
                }
            } else {
                line.push_str(word);
                used += w;
            }
        }
        out.push(line.trim_end().to_owned());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_of_any_width_is_grouped_exactly_or_saturates() {
        assert_eq!(thousands_of(1_098usize), "1,098");
        assert_eq!(thousands_of(10_000_000u64), "10,000,000");
        assert_eq!(thousands_of(u64::MAX), thousands(i64::MAX));
    }

    #[test]
    fn a_registered_secret_never_reaches_the_screen() {
        // What the TUI draws (error popups included) and tables print all
        // pass here.
        crate::redact::register("screen-secret-5555");
        let echoed = "HTTP 401: Bearer screen-secret-5555\u{1b}[2J";
        assert_eq!(one_line(echoed), "HTTP 401: Bearer ***␛[2J");
        assert_eq!(multi_line("a\nscreen-secret-5555"), "a\n***");
    }

    #[test]
    fn plain_text_is_borrowed_unchanged() {
        assert!(matches!(one_line("hello wörld 用户"), Cow::Borrowed(_)));
    }

    #[test]
    fn escape_sequences_become_visible() {
        let s = one_line("a\u{1b}[31mred\u{1b}]0;title\u{7}b\u{9b}c");
        assert_eq!(s, "a␛[31mred␛]0;title␇b<U+009B>c");
        assert!(!s.contains('\u{1b}'));
    }

    #[test]
    fn bidi_and_zero_width_are_shown() {
        assert_eq!(one_line("x\u{202e}y\u{200b}z"), "x<U+202E>y<U+200B>z");
        assert_eq!(
            one_line("a\u{061c}b\u{2062}c\u{e0041}d"),
            "a<U+061C>b<U+2062>c<U+E0041>d"
        );
    }

    /// Every default-ignorable code point (Unicode's
    /// DerivedCoreProperties.txt), which a terminal draws as nothing, is
    /// shown, but the two that pick an emoji's presentation.
    #[test]
    fn every_default_ignorable_code_point_is_shown() {
        let ignorable = [
            0xad..=0xad,
            0x34f..=0x34f,
            0x61c..=0x61c,
            0x115f..=0x1160,
            0x17b4..=0x17b5,
            0x180b..=0x180f,
            0x200b..=0x200f,
            0x202a..=0x202e,
            0x2060..=0x206f,
            0x3164..=0x3164,
            0xfe00..=0xfe0d,
            0xfeff..=0xfeff,
            0xffa0..=0xffa0,
            0xfff0..=0xfff8,
            0x1bca0..=0x1bca3,
            0x1d173..=0x1d17a,
            0xe0000..=0xe0fff,
        ];
        for c in ignorable.into_iter().flatten().filter_map(char::from_u32) {
            let shown = one_line(&format!("a{c}b")).into_owned();
            assert_eq!(shown, format!("a<U+{:04X}>b", c as u32));
            assert!(acts_on_a_terminal(c), "U+{:04X}", c as u32);
        }
        assert_eq!(
            one_line("\u{2764}\u{fe0f} ok\u{fe0e}"),
            "\u{2764}\u{fe0f} ok\u{fe0e}"
        );
    }

    #[test]
    fn newlines_kept_only_in_multi_line() {
        assert_eq!(one_line("a\nb\tc\r"), "a␤b c");
        assert_eq!(multi_line("a\nb\r\n"), "a\nb\n");
    }

    #[test]
    fn truncate_marks_the_cut() {
        assert_eq!(truncate("abcdef", 4), "abc…");
        assert_eq!(truncate("abc", 4), "abc");
    }
}
