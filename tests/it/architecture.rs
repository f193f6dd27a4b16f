//! The import rules that keep the house easy to change (see the README's
//! "Architecture"), checked on the source: no import circle among the
//! TUI's modules, configuration never imports the TUI, the vocabulary
//! module is a leaf, and no source file grows past 700 lines.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out
}

/// The module of the TUI a file belongs to: `app`, `panes::scm`, `rows`.
fn module_of(file: &Path) -> String {
    let rel = file.strip_prefix(root().join("src/tui")).unwrap();
    let parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_owned())
        .collect();
    match parts.as_slice() {
        [panes, pane, ..] if panes == "panes" && pane != "mod" => format!("panes::{pane}"),
        [first, ..] => first.clone(),
        [] => unreachable!(),
    }
}

/// The code of a file without its unit-test module.
fn code_of(file: &Path) -> String {
    let text = std::fs::read_to_string(file).unwrap();
    match text.find("#[cfg(test)]\nmod tests {") {
        Some(i) => text[..i].to_owned(),
        None => text,
    }
}

/// Which TUI modules each TUI module imports (by `crate::tui::` and
/// `super::` paths), tests left out.
fn tui_imports() -> BTreeMap<String, BTreeSet<String>> {
    let tui = root().join("src/tui");
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in rust_files(&tui) {
        let is_test = file.iter().any(|p| p == "tests" || p == "tests.rs");
        if is_test {
            continue;
        }
        let from = module_of(&file);
        if from == "mod" {
            continue; // the event loop: it wires everything
        }
        let code = code_of(&file);
        let mut targets = Vec::new();
        for (i, _) in code.match_indices("crate::tui::") {
            let rest = &code[i + "crate::tui::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let after = &rest[name.len()..];
            if name == "panes" && after.starts_with("::") {
                let pane: String = after[2..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                targets.push(format!("panes::{pane}"));
            } else {
                targets.push(name);
            }
        }
        // `super::x` from a file directly under src/tui (or a folder's
        // mod.rs whose parent is src/tui) names a sibling module.
        let parent = if file.file_name().is_some_and(|n| n == "mod.rs") {
            file.parent().unwrap().parent().unwrap().to_path_buf()
        } else {
            file.parent().unwrap().to_path_buf()
        };
        for (i, _) in code.match_indices("super::") {
            let name: String = code[i + 7..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let candidate = parent.join(&name);
            let target = if candidate.is_dir() {
                Some(candidate.join("mod.rs"))
            } else if candidate.with_extension("rs").is_file() {
                Some(candidate.with_extension("rs"))
            } else {
                None
            };
            if let Some(t) = target.filter(|t| t.starts_with(&tui)) {
                targets.push(module_of(&t));
            }
        }
        for to in targets {
            if to != from && to != "mod" && !from.starts_with(&format!("{to}::")) {
                edges.entry(from.clone()).or_default().insert(to);
            }
        }
    }
    edges
}

/// A path from `from` back to itself, if there is one.
fn circle_through(edges: &BTreeMap<String, BTreeSet<String>>, from: &str) -> Option<Vec<String>> {
    let mut stack = vec![vec![from.to_owned()]];
    let mut seen = BTreeSet::new();
    while let Some(path) = stack.pop() {
        let last = path.last().unwrap();
        for next in edges.get(last).into_iter().flatten() {
            if next == from {
                let mut circle = path.clone();
                circle.push(next.clone());
                return Some(circle);
            }
            if seen.insert(next.clone()) {
                let mut longer = path.clone();
                longer.push(next.clone());
                stack.push(longer);
            }
        }
    }
    None
}

#[test]
fn no_module_of_the_tui_imports_one_that_imports_it_back() {
    let edges = tui_imports();
    assert!(edges.contains_key("app") && edges.contains_key("panes::issues"));
    for module in edges.keys() {
        if let Some(circle) = circle_through(&edges, module) {
            panic!("import circle: {}", circle.join(" → "));
        }
    }
}

#[test]
fn the_vocabulary_imports_nothing_of_the_tui_but_the_packed_rows() {
    let edges = tui_imports();
    let message = edges.get("message").cloned().unwrap_or_default();
    assert_eq!(message, BTreeSet::from(["rows".to_owned()]));
    assert!(
        !edges.contains_key("rows"),
        "rows is a leaf: {:?}",
        edges.get("rows")
    );
}

#[test]
fn configuration_never_imports_the_tui() {
    for file in rust_files(&root().join("src")) {
        let rel = file
            .strip_prefix(root())
            .unwrap()
            .to_string_lossy()
            .into_owned();
        if rel.starts_with("src/config") {
            let code = code_of(&file);
            assert!(!code.contains("crate::tui"), "{rel} imports the TUI");
        }
    }
}

#[test]
fn no_source_file_is_longer_than_700_lines() {
    let long: Vec<String> = rust_files(&root().join("src"))
        .into_iter()
        .filter_map(|f| {
            let lines = std::fs::read_to_string(&f).unwrap().lines().count();
            (lines > 700).then(|| format!("{} ({lines})", f.display()))
        })
        .collect();
    assert!(long.is_empty(), "too long: {long:?}");
}
