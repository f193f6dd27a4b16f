//! The book under `docs/` (the mdBook layout, no mdbook binary needed):
//! `docs/src/SUMMARY.md` lists every page there is and only those, every
//! relative link of the README and the book leads to a file that exists
//! (and, into a page, to one of its headings), and the README stays a short
//! front door.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn src() -> PathBuf {
    root().join("docs/src")
}

/// The pages of the book: every `.md` file under `docs/src/` but the
/// summary, as paths relative to it.
fn pages() -> BTreeSet<String> {
    fn walk(dir: &Path, base: &Path, out: &mut BTreeSet<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, base, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                let rel = path.strip_prefix(base).unwrap();
                out.insert(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let mut out = BTreeSet::new();
    walk(&src(), &src(), &mut out);
    out.remove("SUMMARY.md");
    out
}

/// The text of a file with its fenced code blocks and inline code spans
/// blanked, so a `](` in an example is not taken for a link.
fn prose(text: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            out.push('\n');
            continue;
        }
        if fenced {
            out.push('\n');
            continue;
        }
        let mut code = false;
        for ch in line.chars() {
            if ch == '`' {
                code = !code;
            } else if !code {
                out.push(ch);
            }
        }
        out.push('\n');
    }
    out
}

/// The targets of the Markdown links `[text](target)` of a text.
fn links(text: &str) -> Vec<String> {
    let text = prose(text);
    let mut out = Vec::new();
    let mut rest = text.as_str();
    while let Some(i) = rest.find("](") {
        rest = &rest[i + 2..];
        if let Some(end) = rest.find(')') {
            out.push(rest[..end].trim().to_owned());
            rest = &rest[end..];
        }
    }
    out
}

/// The anchors of a page's headings, as mdBook (and GitHub) make them:
/// lowercase, letters, digits, `-` and `_` kept, spaces as `-`.
fn anchors(text: &str) -> BTreeSet<String> {
    prose(text)
        .lines()
        .filter(|l| l.starts_with('#'))
        .map(|l| {
            l.trim_start_matches('#')
                .trim()
                .chars()
                .filter_map(|c| {
                    if c.is_alphanumeric() || c == '-' || c == '_' {
                        Some(c.to_lowercase().next().unwrap())
                    } else if c.is_whitespace() {
                        Some('-')
                    } else {
                        None
                    }
                })
                .collect()
        })
        .collect()
}

#[test]
fn the_summary_lists_every_page_and_only_those() {
    let summary = std::fs::read_to_string(src().join("SUMMARY.md")).unwrap();
    let listed: BTreeSet<String> = links(&summary)
        .into_iter()
        .map(|l| l.split('#').next().unwrap().to_owned())
        .collect();
    let pages = pages();
    let unlisted: Vec<_> = pages.difference(&listed).collect();
    assert!(unlisted.is_empty(), "SUMMARY.md does not list {unlisted:?}");
    let missing: Vec<_> = listed.difference(&pages).collect();
    assert!(
        missing.is_empty(),
        "SUMMARY.md lists pages that do not exist: {missing:?}"
    );
    let book = std::fs::read_to_string(root().join("docs/book.toml")).unwrap();
    assert!(book.contains("src = \"src\""), "{book}");
}

#[test]
fn every_relative_link_of_the_readme_and_the_book_leads_somewhere() {
    let mut files = vec![root().join("README.md"), src().join("SUMMARY.md")];
    files.extend(pages().iter().map(|p| src().join(p)));
    let mut broken = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let dir = file.parent().unwrap();
        for link in links(&text) {
            if link.contains("://") || link.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = match link.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (link.as_str(), None),
            };
            let target = if path.is_empty() {
                file.clone()
            } else {
                dir.join(path)
            };
            let name = file.strip_prefix(root()).unwrap().display().to_string();
            if !target.exists() {
                broken.push(format!("{name}: {link} (no such file)"));
                continue;
            }
            if let (Some(anchor), true) = (anchor, target.extension().is_some_and(|e| e == "md")) {
                let there = std::fs::read_to_string(&target).unwrap();
                if !anchors(&there).contains(anchor) {
                    broken.push(format!("{name}: {link} (no such heading)"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "{broken:#?}");
}

#[test]
fn the_readme_is_a_short_front_door() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(
        lines <= 200,
        "README.md has {lines} lines; the rest belongs in the book"
    );
}
