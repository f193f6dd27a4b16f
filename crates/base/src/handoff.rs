//! What leaves the app for another program: text for the clipboard (OSC 52)
//! and links for the browser (`$BROWSER`, `xdg-open`).
//!
//! Both come from the server, and both land somewhere that acts on them: a
//! pasted newline runs a shell command (pastejacking), a bidi override
//! shows a different name than the one pasted, a quote or a space can end
//! an argument early in a `$BROWSER` written as a shell command. So the
//! clipboard's effect carries a [`ClipboardText`] and the browser's a
//! [`SafeUrl`], and the only ways to make one are the constructors here,
//! all of which go through [`clean_line`]: bypassing the cleaning does not
//! type-check.

use std::fmt;

/// The one cleaning of text that leaves the app: trimmed, on one line, no
/// control characters, no bidi or zero-width characters. What is removed
/// from inside is shown by a visible stand-in (`␤` for a newline,
/// `<U+202E>` for a bidi override), so a hostile value stays recognisable
/// and is never silently turned into another one.
pub fn clean_line(s: &str) -> String {
    crate::text::one_line(s.trim()).trim().to_owned()
}

/// Text for the clipboard: made only by [`clean_line`], or from a
/// [`SafeUrl`], or a Markdown table whose every line went through
/// [`clean_line`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClipboardText(String);

impl ClipboardText {
    /// One line of text (an id, a path); `None` when nothing is left.
    pub fn line(s: &str) -> Option<ClipboardText> {
        Some(clean_line(s))
            .filter(|s| !s.is_empty())
            .map(ClipboardText)
    }

    /// A link, as it would be opened.
    pub fn url(url: &SafeUrl) -> ClipboardText {
        ClipboardText(url.0.clone())
    }

    /// A Markdown table: each row cleaned, and each starting with `|`, so
    /// that no line pasted into a shell is a command (a line starting with
    /// `|` is a syntax error to every shell). No newline after the last
    /// row, so a paste does not run anything. Anything else is refused.
    pub fn markdown_table(table: &str) -> Result<ClipboardText, String> {
        let rows: Vec<String> = table.lines().map(clean_line).collect();
        if rows.is_empty() || rows.iter().any(|r| !r.starts_with('|')) {
            return Err("not a Markdown table; not copied".into());
        }
        Ok(ClipboardText(rows.join("\n")))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ClipboardText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// An absolute http(s) link, parsed and written out again: scheme and host
/// normalised (an international name as punycode), dot segments resolved,
/// and every character that is not plain ASCII or that a shell or a
/// command line treats specially percent-encoded. Made only by
/// [`SafeUrl::parse`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SafeUrl(String);

/// Characters encoded in the path, query and fragment beyond what the URL
/// standard encodes: quotes, spaces and the shell's special characters, so
/// the link is one word however a `$BROWSER` command line is split. They
/// mean the same encoded to every web server that serves source code.
const SHELL_SPECIAL: &[char] = &[
    ' ', '"', '\'', '`', '$', '(', ')', ';', '|', '\\', '!', '*', '{', '}', '^', '[', ']', '<', '>',
];

impl SafeUrl {
    /// Checks and normalises a link from the server. Refused: anything but
    /// http(s), control characters anywhere (the URL standard would drop a
    /// newline silently), and user names or passwords in the link (a
    /// `https://good.example@evil.example/` disguise).
    pub fn parse(raw: &str) -> Result<SafeUrl, String> {
        let raw = raw.trim();
        if raw.chars().any(char::is_control) {
            return Err("the link has control characters".into());
        }
        let mut url = url::Url::parse(raw).map_err(|e| format!("not a valid link ({e})"))?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err("not an http(s) link".into());
        }
        if !url.username().is_empty() || url.password().is_some() {
            return Err("the link carries a user name or password".into());
        }
        if url.host_str().is_none_or(str::is_empty) {
            return Err("the link has no host".into());
        }
        let path = encode_special(url.path());
        url.set_path(&path);
        if let Some(query) = url.query().map(encode_special) {
            url.set_query(Some(&query));
        }
        if let Some(fragment) = url.fragment().map(encode_special) {
            url.set_fragment(Some(&fragment));
        }
        let text = String::from(url);
        // What the URL standard lets through is ASCII without controls;
        // checked again, as this is what a browser command receives.
        debug_assert!(text.chars().all(|c| c.is_ascii_graphic()), "{text}");
        if !text.chars().all(|c| c.is_ascii_graphic()) {
            return Err("the link cannot be made safe".into());
        }
        Ok(SafeUrl(text))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for SafeUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn encode_special(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if SHELL_SPECIAL.contains(&c) {
            out.push_str(&format!("%{:02X}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_one_line_without_controls_bidi_or_zero_width() {
        let pasted = ClipboardText::line("F1\ntouch /tmp/x\n").unwrap();
        assert_eq!(pasted.as_str(), "F1␤touch /tmp/x");
        for hostile in [
            "a\u{1b}]52;c;eA==\u{7}b",
            "x\u{1b}[201~; rm -rf ~\r\n",
            "evil\u{202e}txt.exe",
            "zero\u{200b}\u{200c}\u{200d}\u{200e}\u{200f}width",
            "iso\u{2066}\u{2067}\u{2068}\u{2069}late",
            "join\u{2060}\u{2061}\u{2064}er",
            "bom\u{feff}\u{061c}\u{180e}",
            "tag\u{e0041}\u{e007f}s",
            "sep\u{2028}\u{2029}\u{85}c1",
        ] {
            let text = ClipboardText::line(hostile).unwrap();
            let bad = text.as_str().chars().find(|&c| {
                c.is_control()
                    || matches!(c,
                        '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2069}'
                        | '\u{feff}' | '\u{061c}' | '\u{180e}' | '\u{2028}' | '\u{2029}'
                        | '\u{e0000}'..='\u{e007f}')
            });
            assert_eq!(bad, None, "{hostile:?} → {text:?}");
        }
        assert_eq!(ClipboardText::line(" \n\t "), None);
        assert_eq!(
            ClipboardText::line("  plain id ").unwrap().as_str(),
            "plain id"
        );
    }

    #[test]
    fn a_markdown_table_keeps_its_rows_each_cleaned() {
        let table = "| id | rule |\n| --- | --- |\n| F1 | x\u{202e}y |\n";
        assert_eq!(
            ClipboardText::markdown_table(table).unwrap().as_str(),
            "| id | rule |\n| --- | --- |\n| F1 | x<U+202E>y |"
        );
        assert!(ClipboardText::markdown_table("| a |\ntouch /tmp/x\n").is_err());
        assert!(ClipboardText::markdown_table("").is_err());
    }

    #[test]
    fn links_are_parsed_normalised_and_percent_encoded() {
        let ok = |raw: &str| SafeUrl::parse(raw).unwrap().as_str().to_owned();
        assert_eq!(
            ok("https://git.example/acme/api/blob/main/src/app.py#L10"),
            "https://git.example/acme/api/blob/main/src/app.py#L10"
        );
        assert_eq!(
            ok("  HTTPS://Git.Example:443/a/./b/../c?q=1&r=x y  "),
            "https://git.example/a/c?q=1&r=x%20y"
        );
        // Quotes, spaces, shell characters and bidi controls: encoded.
        assert_eq!(
            ok("https://git.example/a b\"c'd`$(x);|e\u{202e}f.py#L1 \"x\""),
            "https://git.example/a%20b%22c%27d%60%24%28x%29%3B%7Ce%E2%80%AEf.py#L1%20%22x%22"
        );
        // An international host becomes punycode.
        assert_eq!(
            ok("https://bücher.example/x"),
            "https://xn--bcher-kva.example/x"
        );
    }

    #[test]
    fn links_that_cannot_be_made_safe_are_refused() {
        for raw in [
            "javascript:alert(1)",
            "file:///etc/passwd",
            "ftp://git.example/x",
            "data:text/html,hi",
            "https://git.example/a\nb",
            "https://git.example/a\u{1b}[31m",
            "https://good.example@evil.example/",
            "https://user:pw@git.example/",
            "https://git\u{202e}.example/",
            "/relative/path",
            "",
        ] {
            assert!(SafeUrl::parse(raw).is_err(), "{raw:?}");
        }
    }
}
