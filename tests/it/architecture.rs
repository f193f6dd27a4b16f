//! The import rules of DESIGN.md ("Which way the imports run"), checked on
//! the source, tests left out:
//!
//! - no two modules anywhere under `src/` import each other, directly or
//!   round a circle: at every folder, its children (files and subfolders)
//!   form a graph whose edges are the imports between them, and that graph
//!   has no circle (a parent's `mod.rs` and its children do not count: the
//!   parent declares them, they use what it shares);
//! - the model imports nothing of ours but the leaves;
//! - the client (`api` outside the model) imports the model only;
//! - the demo server imports the model, never the client or the TUI;
//! - exports import the model only;
//! - views import state and the model, never the client, the runtime or
//!   the demo server;
//! - configuration imports neither the TUI nor the client;
//! - only the wiring (`main.rs`, `cli/`) knows every part: nothing imports
//!   `cli`, and no part but the wiring imports both the TUI and the demo;
//!
//! and no source file grows past 700 lines.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module's path under the crate root: `["api", "model", "issue"]`.
type ModPath = Vec<String>;

/// The leaf helpers every layer may import, and why each is one. The test
/// [`the_leaves_import_only_leaves`] keeps each of them a leaf.
const LEAVES: &[(&str, &str)] = &[
    (
        "text",
        "makes server text safe to show; imports only redact",
    ),
    (
        "json",
        "the one JSON encoder and decoder; imports only leaves",
    ),
    ("redact", "masks registered secrets; imports nothing"),
    (
        "atomic_file",
        "the one way a file is written; imports nothing",
    ),
    (
        "handoff",
        "the one way text leaves for a clipboard or browser",
    ),
    (
        "net",
        "what a URL points at (loopback or not); imports nothing",
    ),
    (
        "api::token",
        "the secret wrapper every layer passes around; imports only redact",
    ),
];

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
    out.sort();
    out
}

fn is_test_file(file: &Path) -> bool {
    file.iter().any(|p| {
        let p = p.to_string_lossy();
        p == "tests" || p == "tests.rs" || p.ends_with("_tests.rs")
    })
}

/// The module a file under `src/` defines: `src/api/model/issue.rs` is
/// `api::model::issue`, `src/demo/query/mod.rs` is `demo::query`.
fn module_of(file: &Path) -> ModPath {
    let rel = file.strip_prefix(root().join("src")).unwrap();
    let mut parts: ModPath = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The code of a file without its unit-test module and line comments.
fn code_of(file: &Path) -> String {
    let text = std::fs::read_to_string(file).unwrap();
    let code = match text.find("#[cfg(test)]\nmod ") {
        Some(i) => &text[..i],
        None => &text[..],
    };
    code.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn ident_at(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The paths a use tree starting at `s` names: `a::{b, c::d}` is `a::b`
/// and `a::c::d`.
fn use_tree(s: &str) -> Vec<ModPath> {
    let s = s.trim_start();
    if let Some(group) = s.strip_prefix('{') {
        let mut out = Vec::new();
        let mut depth = 0;
        let mut start = 0;
        for (i, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    out.extend(use_tree(&group[start..i]));
                    break;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    out.extend(use_tree(&group[start..i]));
                    start = i + 1;
                }
                _ => {}
            }
        }
        return out;
    }
    let name = ident_at(s);
    if name.is_empty() {
        return vec![Vec::new()];
    }
    match s[name.len()..].strip_prefix("::") {
        Some(rest) => use_tree(rest)
            .into_iter()
            .map(|mut p| {
                p.insert(0, name.to_owned());
                p
            })
            .collect(),
        None => vec![vec![name.to_owned()]],
    }
}

/// The deepest module of ours a path names (`api::model::Issue` is
/// `api::model`), or None for a path that is not ours.
fn resolve(from: &ModPath, path: &[String]) -> Option<ModPath> {
    let mut abs: ModPath = Vec::new();
    let mut rest = path.iter().peekable();
    match rest.peek().map(|s| s.as_str()) {
        Some("crate") => {
            rest.next();
        }
        Some("self") => {
            rest.next();
            abs = from.clone();
        }
        Some("super") => {
            abs = from.clone();
            while rest.peek().is_some_and(|s| *s == "super") {
                rest.next();
                abs.pop()?;
            }
        }
        _ => return None,
    }
    let src = root().join("src");
    for part in rest {
        if part == "self" {
            continue;
        }
        let dir = abs.iter().fold(src.clone(), |d, p| d.join(p));
        let is_module = dir.join(format!("{part}.rs")).is_file() || dir.join(part).is_dir();
        if !is_module {
            break;
        }
        abs.push(part.clone());
    }
    Some(abs)
}

/// Every (importing module, imported module) pair of the crate, tests and
/// `main.rs` (the binary, outside the library) left out.
fn imports() -> Vec<(ModPath, ModPath)> {
    let mut out = BTreeSet::new();
    for file in rust_files(&root().join("src")) {
        if is_test_file(&file) || file.ends_with("src/main.rs") {
            continue;
        }
        let from = module_of(&file);
        let code = code_of(&file);
        for start in ["crate::", "super::", "self::"] {
            for (i, _) in code.match_indices(start) {
                let before = code[..i].chars().next_back();
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                    continue;
                }
                for path in use_tree(&code[i..]) {
                    // The crate root holds only module declarations and
                    // exported macros (`crate::wire_enum!`): no layer.
                    if let Some(to) = resolve(&from, &path)
                        && to != from
                        && !to.is_empty()
                    {
                        out.insert((from.clone(), to));
                    }
                }
            }
        }
    }
    assert!(out.len() > 100, "the scan found too few imports: {out:?}");
    out.into_iter().collect()
}

fn name(path: &[String]) -> String {
    if path.is_empty() {
        "crate".to_owned()
    } else {
        path.join("::")
    }
}

fn within(path: &[String], module: &str) -> bool {
    let module: Vec<&str> = module.split("::").collect();
    path.len() >= module.len() && path.iter().zip(&module).all(|(a, b)| a == b)
}

fn is_leaf(path: &[String]) -> bool {
    LEAVES.iter().any(|(leaf, _)| within(path, leaf))
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

/// For each folder (module), the imports among its children: an import
/// from `demo::query::order` of `demo::cursor` is the edge
/// `query → cursor` inside `demo`.
fn sibling_edges() -> BTreeMap<ModPath, BTreeMap<String, BTreeSet<String>>> {
    let mut folders: BTreeMap<ModPath, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for (from, to) in imports() {
        let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
        if let (Some(a), Some(b)) = (from.get(common), to.get(common)) {
            folders
                .entry(from[..common].to_vec())
                .or_default()
                .entry(a.clone())
                .or_default()
                .insert(b.clone());
        }
    }
    folders
}

/// Every import from a module within `layer` that `allowed` refuses.
fn refused(layer: impl Fn(&ModPath) -> bool, allowed: impl Fn(&ModPath) -> bool) -> Vec<String> {
    imports()
        .into_iter()
        .filter(|(from, to)| layer(from) && !allowed(to))
        .map(|(from, to)| format!("{} imports {}", name(&from), name(&to)))
        .collect()
}

#[test]
fn no_two_modules_anywhere_import_each_other_directly_or_round_a_circle() {
    let folders = sibling_edges();
    assert!(folders.contains_key(&vec!["tui".to_owned()]));
    let mut circles = Vec::new();
    for (folder, edges) in &folders {
        let mut seen = BTreeSet::new();
        for module in edges.keys() {
            if let Some(circle) = circle_through(edges, module)
                && seen.insert(circle.iter().cloned().collect::<BTreeSet<_>>())
            {
                circles.push(format!("in {}: {}", name(folder), circle.join(" → ")));
            }
        }
    }
    assert!(
        circles.is_empty(),
        "import circles:\n{}",
        circles.join("\n")
    );
}

#[test]
fn the_leaves_import_only_leaves() {
    let bad = refused(|m| is_leaf(m), |m| is_leaf(m));
    assert!(bad.is_empty(), "{bad:#?}");
}

/// Asserts that `layer` imports nothing of ours but itself, `allowed`
/// and the leaves.
fn imports_only(layer: &str, allowed: &[&str]) {
    let bad = refused(
        |m| within(m, layer),
        |m| within(m, layer) || allowed.iter().any(|a| within(m, a)) || is_leaf(m),
    );
    assert!(
        bad.is_empty(),
        "{layer} imports more than {allowed:?}: {bad:#?}"
    );
}

#[test]
fn the_model_imports_nothing_of_ours_but_the_leaves() {
    imports_only("api::model", &[]);
}

#[test]
fn the_client_imports_the_model_only() {
    // `api` holds the model: the client's modules are the rest of it.
    imports_only("api", &["api::model"]);
}

#[test]
fn the_demo_server_imports_the_model_never_the_client_or_the_tui() {
    imports_only("demo", &["api::model"]);
}

#[test]
fn exports_import_the_model_only() {
    imports_only("export", &["api::model"]);
}

/// A view: a `view.rs` or `view/` of the TUI, or a part the TUI keeps
/// only for drawing (`layout`, `widgets`).
fn is_view(m: &ModPath) -> bool {
    within(m, "tui")
        && m.iter()
            .skip(1)
            .any(|p| p == "view" || p.ends_with("_view") || p == "widgets" || p == "layout")
}

/// The client: `api` but its model and the leaf token.
fn is_client(m: &ModPath) -> bool {
    within(m, "api") && !within(m, "api::model") && !is_leaf(m)
}

#[test]
fn views_never_import_the_client_the_worker_or_the_demo_server() {
    let bad = refused(is_view, |m| {
        let refused = ["tui::runtime", "demo", "cli"];
        !is_client(m) && !refused.iter().any(|r| within(m, r))
    });
    assert!(bad.is_empty(), "{bad:#?}");
}

#[test]
fn configuration_imports_neither_the_tui_nor_the_client() {
    let bad = refused(
        |m| within(m, "config"),
        |m| !within(m, "tui") && !is_client(m),
    );
    assert!(bad.is_empty(), "{bad:#?}");
}

#[test]
fn only_the_wiring_knows_every_part() {
    let bad = refused(|m| !within(m, "cli"), |m| !within(m, "cli"));
    assert!(
        bad.is_empty(),
        "nothing but the wiring imports cli: {bad:#?}"
    );
    // Outside the wiring, no part reaches both the TUI and the demo server.
    let both: Vec<String> = ["tui", "demo"]
        .iter()
        .flat_map(|part| {
            let other = if *part == "tui" { "demo" } else { "tui" };
            refused(|m| within(m, part), move |m| !within(m, other))
        })
        .collect();
    assert!(both.is_empty(), "{both:#?}");
}

#[test]
fn the_vocabulary_imports_nothing_of_the_rest_of_the_tui() {
    // `tui::message` (with the packed rows the worker answers with) is the
    // leaf every TUI module may import: it reaches out to no other.
    let bad = refused(
        |m| within(m, "tui::message"),
        |m| !within(m, "tui") || within(m, "tui::message"),
    );
    assert!(bad.is_empty(), "{bad:#?}");
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

/// The files under `src/` (tests left out) with a line of code that,
/// past a `pub `, starts with `start` and holds `holds`.
fn files_defining(start: &str, holds: &str) -> Vec<String> {
    rust_files(&root().join("src"))
        .into_iter()
        .filter(|f| !is_test_file(f))
        .filter(|f| {
            code_of(f).lines().any(|l| {
                let l = l.trim_start().trim_start_matches("pub ");
                l.starts_with(start) && l.contains(holds)
            })
        })
        .map(|f| f.strip_prefix(root()).unwrap().display().to_string())
        .collect()
}

#[test]
fn each_shared_rule_is_defined_once() {
    let loopback = files_defining("fn is_loopback(", "");
    assert_eq!(loopback, ["src/net.rs"], "one is_loopback");
    let page_size = files_defining("const ", ": i64 = 100;");
    assert_eq!(page_size, ["src/api/model/list.rs"], "one page size");
    let largest_page = files_defining("const ", ": i64 = 1000;");
    assert_eq!(largest_page, ["src/api/model/list.rs"], "one largest page");
}

/// A new pane is its folder and one registry line: the app, the runtime,
/// the detail and the triage flow name no pane of the registry (they reach
/// panes through `Pane` and by id; typed lookups for tests live in
/// `tui::pane_lookup`).
#[test]
fn the_app_names_no_pane() {
    let mut named = Vec::new();
    for folder in ["app", "runtime", "detail", "triage", "list", "state"] {
        for file in rust_files(&root().join("src/tui").join(folder)) {
            if file.file_name().is_some_and(|n| n == "tests.rs") {
                continue;
            }
            let text = std::fs::read_to_string(&file).unwrap();
            for (n, line) in text.lines().enumerate() {
                let names_one = line.split("panes::").skip(1).any(|rest| {
                    let word: String = rest
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    // The registry's own items (registry, START, FINDINGS)
                    // are not a pane.
                    word.chars().next().is_some_and(|c| c.is_lowercase())
                        && word != "registry"
                        && rest[word.len()..].starts_with("::")
                });
                if names_one || line.contains("IssuesPane") || line.contains("ReportPane") {
                    named.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(named.is_empty(), "{named:#?}");
}
