//! The house rules the compiler cannot keep, checked on the source (tests
//! left out). The compiler keeps the rest: each layer is a crate of the
//! workspace, and a crate cannot import one it does not depend on.
//!
//! - the crates depend on each other only downward, as ARCHITECTURE.md
//!   draws them (read from `cargo metadata`), and every crate says what
//!   it is for in its `lib.rs` and in ARCHITECTURE.md;
//! - inside every crate, no two modules import each other, directly or
//!   round a circle: at every folder, its children (files and subfolders)
//!   form a graph whose edges are the imports between them, and that graph
//!   has no circle (a parent's `mod.rs` and its children do not count: the
//!   parent declares them, they use what it shares);
//! - in the TUI, views import neither the client nor the worker, and the
//!   vocabulary (`message`) imports nothing else of the TUI;
//! - the only unsafe code is `findings_base::sys` (and the test harness);
//! - no answer is dropped by an `Ok(_) =>` arm;
//!
//! and no source file grows past 700 lines.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module's path under its crate's root: `["query", "list"]`.
type ModPath = Vec<String>;

/// The crates and what each may depend on, the layers from the bottom
/// up: the picture of ARCHITECTURE.md, which
/// [`the_crates_depend_only_downward`] holds to `cargo metadata`.
const LAYERS: &[(&str, &[&str])] = &[
    ("findings-base", &[]),
    ("findings-model", &["findings-base"]),
    ("findings-client", &["findings-base", "findings-model"]),
    ("findings-demo", &["findings-base", "findings-model"]),
    ("findings-requests", &["findings-base", "findings-model"]),
    ("findings-export", &["findings-base", "findings-model"]),
    (
        "findings-snapshot",
        &["findings-base", "findings-model", "findings-export"],
    ),
    (
        "findings-config",
        &["findings-base", "findings-model", "findings-requests"],
    ),
    (
        "findings-tui",
        &[
            "findings-base",
            "findings-model",
            "findings-client",
            "findings-requests",
            "findings-export",
            "findings-snapshot",
            "findings-config",
        ],
    ),
    (
        "findings-cli",
        &[
            "findings-base",
            "findings-model",
            "findings-client",
            "findings-demo",
            "findings-requests",
            "findings-export",
            "findings-snapshot",
            "findings-config",
        ],
    ),
    // The binary wires the TUI into the CLI; neither depends on the other.
    (
        "findings",
        &["findings-cli", "findings-tui", "findings-config"],
    ),
];

/// Dependencies for tests only, beside a crate's layer: the client's
/// pagination is tested against the demo server (a sibling over the model).
const TEST_ONLY: &[(&str, &str)] = &[("findings-client", "findings-demo")];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Each crate of the workspace and its `src/`, the binary's left out.
fn crates() -> Vec<(String, PathBuf)> {
    let mut out: Vec<(String, PathBuf)> = std::fs::read_dir(root().join("crates"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("Cargo.toml").is_file())
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                p.join("src"),
            )
        })
        .collect();
    out.sort();
    assert!(out.len() >= 8, "the crates were not found: {out:?}");
    out
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

/// Every source file of the product: the crates' and the binary's.
fn product_files() -> Vec<PathBuf> {
    let mut files = rust_files(&root().join("src"));
    for (_, src) in crates() {
        files.extend(rust_files(&src));
    }
    files
}

fn is_test_file(file: &Path) -> bool {
    file.iter().any(|p| {
        let p = p.to_string_lossy();
        p == "tests" || p == "tests.rs" || p.ends_with("_tests.rs")
    })
}

/// The module a file under a crate's `src` defines: `query/list.rs` is
/// `query::list`, `query/mod.rs` is `query`, `lib.rs` the root.
fn module_of(src: &Path, file: &Path) -> ModPath {
    let rel = file.strip_prefix(src).unwrap();
    let mut parts: ModPath = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_owned())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
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

/// The paths a file's doc comments link to, one per line (`[`super::listed`]`
/// is `super::listed`), its unit-test module left out.
fn doc_links_of(file: &Path) -> String {
    let text = std::fs::read_to_string(file).unwrap();
    let text = match text.find("#[cfg(test)]\nmod ") {
        Some(i) => &text[..i],
        None => &text[..],
    };
    let mut links = String::new();
    for line in text.lines().map(str::trim_start) {
        if !(line.starts_with("///") || line.starts_with("//!")) {
            continue;
        }
        for (i, _) in line.match_indices("[`") {
            let link = &line[i + 2..];
            let end = link.find('`').unwrap_or(link.len());
            links.push('\n');
            links.push_str(&link[..end]);
        }
    }
    links
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

/// The deepest module of the crate a path names (`crate::query::list::X`
/// is `query::list`), or None for a path into another crate.
fn resolve(src: &Path, from: &ModPath, path: &[String]) -> Option<ModPath> {
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
    for part in rest {
        if part == "self" {
            continue;
        }
        let dir = abs.iter().fold(src.to_path_buf(), |d, p| d.join(p));
        let is_module = dir.join(format!("{part}.rs")).is_file() || dir.join(part).is_dir();
        if !is_module {
            break;
        }
        abs.push(part.clone());
    }
    Some(abs)
}

/// Every (importing module, imported module) pair inside the crate at
/// `src`, tests left out.
fn imports(src: &Path) -> Vec<(ModPath, ModPath)> {
    let mut out = BTreeSet::new();
    for file in rust_files(src) {
        if is_test_file(&file) {
            continue;
        }
        let from = module_of(src, &file);
        // A doc comment's link ([`super::listed`]) knows its target as an
        // import does: the code and the links of the docs are read.
        let code = code_of(&file) + &doc_links_of(&file);
        for start in ["crate::", "super::", "self::"] {
            for (i, _) in code.match_indices(start) {
                let before = code[..i].chars().next_back();
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                    continue;
                }
                for path in use_tree(&code[i..]) {
                    // The crate root holds module declarations, re-exports
                    // and exported macros (`crate::wire_enum!`): no layer.
                    if let Some(to) = resolve(src, &from, &path)
                        && to != from
                        && !to.is_empty()
                    {
                        out.insert((from.clone(), to));
                    }
                }
            }
        }
    }
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

/// For each folder (module) of a crate, the imports among its children:
/// an import from `query::order` of `cursor` is the edge `query → cursor`
/// at the root.
fn sibling_edges(src: &Path) -> BTreeMap<ModPath, BTreeMap<String, BTreeSet<String>>> {
    let mut folders: BTreeMap<ModPath, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for (from, to) in imports(src) {
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

/// The circles among the modules of the crate at `src`, each once.
fn circles_in(crate_name: &str, src: &Path) -> Vec<String> {
    let mut circles = Vec::new();
    for (folder, edges) in &sibling_edges(src) {
        let mut seen = BTreeSet::new();
        for module in edges.keys() {
            if let Some(circle) = circle_through(edges, module)
                && seen.insert(circle.iter().cloned().collect::<BTreeSet<_>>())
            {
                circles.push(format!(
                    "in {crate_name} {}: {}",
                    name(folder),
                    circle.join(" → ")
                ));
            }
        }
    }
    circles
}

#[test]
fn no_two_modules_of_a_crate_import_each_other_directly_or_round_a_circle() {
    let tui = sibling_edges(&root().join("crates/tui/src"));
    assert!(
        tui.get(&Vec::new()).is_some_and(|e| e.len() > 5),
        "the scan found the TUI's modules and their imports"
    );
    let circles: Vec<String> = crates()
        .iter()
        .flat_map(|(name, src)| circles_in(name, src))
        .collect();
    assert!(
        circles.is_empty(),
        "import circles:\n{}",
        circles.join("\n")
    );
}

/// The check finds a circle where there is one: two modules of a crate
/// written here that import each other.
#[test]
fn a_circle_is_found() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::write(src.join("lib.rs"), "pub mod a;\npub mod b;\npub mod c;\n").unwrap();
    std::fs::write(src.join("a.rs"), "use crate::b::B;\npub struct A;\n").unwrap();
    std::fs::write(src.join("b.rs"), "use super::c::C;\npub struct B;\n").unwrap();
    std::fs::write(
        src.join("c.rs"),
        "use crate::a::{self, A};\npub struct C;\n",
    )
    .unwrap();
    let circles = circles_in("sample", src);
    assert_eq!(circles.len(), 1, "{circles:?}");
    assert!(circles[0].contains("a → b → c → a"), "{circles:?}");
}

/// Each package's dependencies on the workspace's crates, as `cargo
/// metadata` reads the manifests: (package, dependency, for tests only).
fn workspace_dependencies() -> Vec<(String, String, bool)> {
    let out = std::process::Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(root())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut deps = Vec::new();
    for package in meta["packages"].as_array().unwrap() {
        let name = package["name"].as_str().unwrap();
        for dep in package["dependencies"].as_array().unwrap() {
            let dep_name = dep["name"].as_str().unwrap();
            if dep_name.starts_with("findings") {
                deps.push((name.to_owned(), dep_name.to_owned(), dep["kind"] == "dev"));
            }
        }
    }
    deps
}

#[test]
fn the_crates_depend_only_downward() {
    let deps = workspace_dependencies();
    assert!(deps.len() > 20, "too few dependencies read: {deps:?}");
    let mut wrong = Vec::new();
    for (package, dep, for_tests) in &deps {
        let Some((_, allowed)) = LAYERS.iter().find(|(name, _)| name == package) else {
            wrong.push(format!("{package} is in no layer of ARCHITECTURE.md"));
            continue;
        };
        let test_only = TEST_ONLY.contains(&(package.as_str(), dep.as_str()));
        let downward = allowed.contains(&dep.as_str()) || (*for_tests && test_only);
        if !downward {
            wrong.push(format!("{package} depends on {dep}"));
        }
    }
    // The binary's tests drive every layer: its dev-dependencies are not
    // layers of the product.
    wrong.retain(|w| !w.starts_with("findings depends on"));
    assert!(wrong.is_empty(), "{wrong:#?}");
    // Nothing is left out of the picture: every layer is a package.
    for (name, _) in LAYERS {
        assert!(
            deps.iter().any(|(p, _, _)| p == name) || *name == "findings-base",
            "{name} is a layer but no package"
        );
    }
}

#[test]
fn every_crate_says_what_it_is_for_where_it_starts_and_in_architecture_md() {
    let picture = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    for (dir, src) in crates() {
        let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
        assert!(
            lib.starts_with("//! "),
            "crates/{dir}/src/lib.rs opens with what it is for"
        );
        assert!(
            picture.contains(&format!("findings-{dir}")),
            "ARCHITECTURE.md names findings-{dir}"
        );
    }
}

/// Every import inside the TUI from a module that `layer` picks of a
/// module that `allowed` refuses; and every use of another crate's path
/// that `allowed_crate` refuses.
fn tui_refused(
    layer: impl Fn(&ModPath) -> bool,
    allowed: impl Fn(&ModPath) -> bool,
    allowed_crate: impl Fn(&str) -> bool,
) -> Vec<String> {
    let src = root().join("crates/tui/src");
    let mut bad: Vec<String> = imports(&src)
        .into_iter()
        .filter(|(from, to)| layer(from) && !allowed(to))
        .map(|(from, to)| format!("{} imports {}", name(&from), name(&to)))
        .collect();
    for file in rust_files(&src) {
        let module = module_of(&src, &file);
        if is_test_file(&file) || !layer(&module) {
            continue;
        }
        let code = code_of(&file);
        for (i, _) in code.match_indices("findings_") {
            let krate = ident_at(&code[i..]);
            if !allowed_crate(krate) {
                bad.push(format!("{} uses {krate}", name(&module)));
            }
        }
    }
    bad
}

/// A view: a `view.rs` or `view/` of the TUI, or a part the TUI keeps
/// only for drawing (`layout`, `widgets`).
fn is_view(m: &ModPath) -> bool {
    m.iter()
        .any(|p| p == "view" || p.ends_with("_view") || p == "widgets" || p == "layout")
}

#[test]
fn views_never_import_the_client_or_the_worker() {
    let bad = tui_refused(
        is_view,
        |m| !within(m, "runtime"),
        |krate| krate != "findings_client",
    );
    assert!(bad.is_empty(), "{bad:#?}");
}

#[test]
fn the_vocabulary_imports_nothing_of_the_rest_of_the_tui() {
    // `message` (with the packed rows the worker answers with) is the leaf
    // every TUI module may import: it reaches out to no other.
    let bad = tui_refused(|m| within(m, "message"), |m| within(m, "message"), |_| true);
    assert!(bad.is_empty(), "{bad:#?}");
}

/// Where unsafe code is allowed: the one module of system calls, and the
/// roots of the test harness and the benchmarks (signals, children's
/// memory), which do not ship.
#[test]
fn unsafe_code_is_allowed_in_sys_alone() {
    let mut files = product_files();
    files.extend(rust_files(&root().join("tests")));
    files.extend(rust_files(&root().join("benches")));
    let allowing: BTreeSet<String> = files
        .iter()
        .filter(|f| {
            std::fs::read_to_string(f)
                .unwrap()
                .contains("allow(unsafe_code)")
        })
        .map(|f| f.strip_prefix(root()).unwrap().display().to_string())
        .collect();
    let allowed = [
        "crates/base/src/sys.rs",
        "tests/it/main.rs",
        "benches/export_memory.rs",
        "benches/load_all.rs",
        "benches/memory.rs",
    ];
    assert!(allowing.contains(allowed[0]), "the scan reads sys.rs");
    let elsewhere: Vec<&String> = allowing
        .iter()
        .filter(|f| !allowed.contains(&f.as_str()) && !f.ends_with("architecture.rs"))
        .collect();
    assert!(elsewhere.is_empty(), "unsafe code allowed in {elsewhere:?}");
}

/// No answer is dropped unread: a result's value is named or matched by
/// kind, never swallowed by `Ok(_) =>` (the TUI takes a reply by its kind,
/// `message::answer`, so a reply of another kind is an error said, not a
/// silent drop).
#[test]
fn no_answer_is_dropped_by_a_wildcard() {
    let files = product_files();
    assert!(files.len() > 200, "the scan found the sources");
    let dropping: Vec<String> = files
        .iter()
        .filter(|f| !is_test_file(f))
        .filter(|f| code_of(f).contains("Ok(_) =>"))
        .map(|f| f.strip_prefix(root()).unwrap().display().to_string())
        .collect();
    assert!(dropping.is_empty(), "`Ok(_) =>` in {dropping:?}");
}

#[test]
fn no_source_file_is_longer_than_700_lines() {
    let long: Vec<String> = product_files()
        .into_iter()
        .filter_map(|f| {
            let lines = std::fs::read_to_string(&f).unwrap().lines().count();
            (lines > 700).then(|| format!("{} ({lines})", f.display()))
        })
        .collect();
    assert!(long.is_empty(), "too long: {long:?}");
}

/// The product's files (tests left out) with a line of code that, past a
/// `pub `, starts with `start` and holds `holds`.
fn files_defining(start: &str, holds: &str) -> Vec<String> {
    product_files()
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
    assert_eq!(loopback, ["crates/base/src/net.rs"], "one is_loopback");
    let page_size = files_defining("const ", ": i64 = 100;");
    assert_eq!(page_size, ["crates/model/src/list.rs"], "one page size");
    let largest_page = files_defining("const ", ": i64 = 1000;");
    assert_eq!(
        largest_page,
        ["crates/model/src/list.rs"],
        "one largest page"
    );
}

/// A new pane is its folder and one registry line: the app, the runtime,
/// the detail and the triage flow name no pane of the registry (they reach
/// panes through `Pane` and by id; typed lookups for tests live in
/// `tui::pane_lookup`).
#[test]
fn the_app_names_no_pane() {
    let mut named = Vec::new();
    for folder in ["app", "runtime", "detail", "triage", "list", "state"] {
        for file in rust_files(&root().join("crates/tui/src").join(folder)) {
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
