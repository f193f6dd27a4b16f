//! The book's reference cannot drift from the app: each part is generated
//! from what the app runs on, and a stale page fails here.
//!
//! - `docs/src/reference/commands.md`: every command's `--help`, from the
//!   command line's definitions ([`findings_cli::command_reference`]);
//! - the tables of `docs/src/keys.md` after `<!-- keymap: CONTEXT -->`:
//!   the default keymap's bindings of that context;
//! - `docs/src/reference/config-file.md`: the file `findings config init`
//!   writes, which names every key the config file's types take.
//!
//! `FINDINGS_BLESS=1 cargo test --test it reference` writes them anew
//! (review the diff like code).

use findings_tui::keymap::{Context, Keymap};
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `path` (from the project's root) holds `fresh`, else it is written
/// under `FINDINGS_BLESS=1` and the test fails without.
fn generated(path: &str, fresh: &str) {
    let file = root().join(path);
    let old = std::fs::read_to_string(&file).unwrap_or_default();
    if old == fresh {
        return;
    }
    if std::env::var_os("FINDINGS_BLESS").is_some_and(|v| v == "1") {
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, fresh).unwrap();
        return;
    }
    let line = old
        .lines()
        .zip(fresh.lines())
        .position(|(a, b)| a != b)
        .unwrap_or(old.lines().count().min(fresh.lines().count()));
    panic!(
        "{path} is stale from its line {}: FINDINGS_BLESS=1 cargo test --test it reference writes it anew\n  was: {:?}\n  now: {:?}",
        line + 1,
        old.lines().nth(line).unwrap_or(""),
        fresh.lines().nth(line).unwrap_or("")
    );
}

#[test]
fn the_command_line_reference_is_every_commands_help() {
    let page = findings_cli::command_reference();
    // Every command, its flags and its examples are there.
    for needle in [
        "## findings issues\n",
        "## findings scm update\n",
        "## findings report\n",
        "--columns <",
        "--exit-code <",
        "Examples:",
    ] {
        assert!(page.contains(needle), "the reference lacks {needle:?}");
    }
    // The help texts, after the page's own words.
    let helps = &page[page.find("\n## ").expect("a command's section")..];
    let wide: Vec<&str> = helps
        .lines()
        .filter(|l| l.chars().count() > 80 && !l.starts_with("- ["))
        .collect();
    assert!(wide.is_empty(), "help lines wider than the page: {wide:#?}");
    generated("docs/src/reference/commands.md", &page);
}

const KEYMAP_MARKER: &str = "<!-- keymap: ";

/// The table of `context`'s default bindings, as the keys page shows it.
fn keys_table(keymap: &Keymap, context: Context) -> String {
    let mut out = String::from("| Keys | Does |\n|---|---|\n");
    for binding in keymap.bindings(context) {
        let keys: Vec<String> = binding
            .keys
            .iter()
            .map(|k| match k.to_string() {
                k if k.contains('`') => format!("`` {k} ``"),
                k => format!("`{}`", k.replace('|', "\\|")),
            })
            .collect();
        out.push_str(&format!(
            "| {} | {} |\n",
            keys.join(", "),
            binding.desc.replace('|', "\\|")
        ));
    }
    out
}

/// `page` with the table after each keymap marker made anew, and the
/// contexts it has tables of.
fn with_keys_tables(page: &str, keymap: &Keymap) -> (String, Vec<String>) {
    let mut out = String::new();
    let mut contexts = Vec::new();
    let mut rest = page;
    while let Some(at) = rest.find(KEYMAP_MARKER) {
        let after = &rest[at + KEYMAP_MARKER.len()..];
        let end = after.find(" -->\n").expect("a marker's end");
        let name = &after[..end];
        let context = keymap
            .contexts()
            .find(|c| c.to_string() == name)
            .unwrap_or_else(|| panic!("docs/src/keys.md: no context {name:?} in the keymap"));
        contexts.push(name.to_owned());
        let table_at = at + KEYMAP_MARKER.len() + end + " -->\n".len();
        // The table runs to the first line that is not a row.
        let table = &rest[table_at..];
        let table_len = table
            .split_inclusive('\n')
            .take_while(|l| l.starts_with('|'))
            .map(str::len)
            .sum::<usize>();
        out.push_str(&rest[..table_at]);
        out.push_str(&keys_table(keymap, context));
        rest = &table[table_len..];
    }
    out.push_str(rest);
    (out, contexts)
}

#[test]
fn the_keys_pages_tables_are_the_default_keymap() {
    let keymap = Keymap::default_keymap();
    let page = std::fs::read_to_string(root().join("docs/src/keys.md")).unwrap();
    let (fresh, shown) = with_keys_tables(&page, &keymap);
    // Every context but the overlays' own (the help and the popups, said
    // in prose) has its table.
    for context in keymap.contexts() {
        if [Context::POPUP, Context::HELP].contains(&context) {
            continue;
        }
        assert!(
            shown.contains(&context.to_string()),
            "docs/src/keys.md has no table of [[{context}]]: add `{KEYMAP_MARKER}{context} -->`"
        );
    }
    generated("docs/src/keys.md", &fresh);
}

#[test]
fn a_keys_table_escapes_what_a_table_cannot_hold() {
    let keymap = Keymap::parse(
        "[[global]]\nkeys = [\"|\", \"ctrl-x\"]\naction = \"quit\"\ndesc = \"Quit | leave\"\n",
    )
    .unwrap();
    assert_eq!(
        keys_table(&keymap, Context::GLOBAL),
        "| Keys | Does |\n|---|---|\n| `\\|`, `Ctrl-x` | Quit \\| leave |\n"
    );
}

/// The config reference: what `config init` writes, and how it is read.
fn config_reference() -> String {
    format!(
        "# Config file reference\n\n\
         <!-- Generated from `findings config init`'s file; \
         `FINDINGS_BLESS=1 cargo test --test it reference` writes it anew. -->\n\n\
         Every key the config file takes, as `findings config init` writes \
         them: commented out, with what each does. How profiles, tokens and \
         views work: [Configuration](../configuration.md).\n\n\
         ```toml\n{}```\n",
        findings_config::EXAMPLE
    )
}

/// The keys a table of the config file takes, as its type's parser
/// names them when refusing one it does not take.
fn keys_of(table: &str) -> Vec<String> {
    let text = format!("{table}\nzz_not_a_key = 1\n");
    let err = findings_config::parse(std::path::Path::new("config.toml"), &text)
        .expect_err("an unknown key is refused")
        .0;
    let list = err
        .split("expected one of ")
        .nth(1)
        .unwrap_or_else(|| panic!("{table}: the error lists no keys: {err}"));
    list.split(", ")
        .map(|k| k.trim().trim_matches('`').to_owned())
        .filter(|k| !k.is_empty())
        .collect()
}

#[test]
fn the_config_reference_names_every_key_of_the_config_files_types() {
    let example = findings_config::EXAMPLE;
    // Each table's keys in its own part of the example: the top level
    // before the first table, a table from its header to the next.
    let part = |header: &str| -> &str {
        let start = if header.is_empty() {
            0
        } else {
            example
                .find(&format!("\n# {header}\n"))
                .unwrap_or_else(|| panic!("the example has no table {header}"))
                + 1
        };
        let end = example[start + 1..]
            .find("\n# [")
            .map_or(example.len(), |e| start + 1 + e);
        &example[start..end]
    };
    // A profile's view is a view: either view's table may show its keys.
    for (table, headers) in [
        ("", &[""][..]),
        ("[profiles.p]", &["[profiles.work]"]),
        ("[views.v]", &["[views.secrets]"]),
        (
            "[profiles.p.views.v]",
            &["[profiles.work.views.payments]", "[views.secrets]"],
        ),
    ] {
        let keys = keys_of(table);
        assert!(keys.len() >= 3, "{table}: {keys:?}");
        for key in keys {
            assert!(
                headers
                    .iter()
                    .any(|h| part(h).contains(&format!("# {key} =")))
                    || example.contains(&format!("# [{key}.")),
                "config init's example lacks the key {key} in its table {headers:?}"
            );
        }
    }
    generated("docs/src/reference/config-file.md", &config_reference());
}
