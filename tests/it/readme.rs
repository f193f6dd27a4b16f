//! The README is the front door: it must give the two set-up commands. The
//! book under `docs/src/` is for users: its keys page lists every key
//! binding the app has, and its scripting page the exit codes of the help.

use findings_tui::keymap::{Context, Keymap};

const README: &str = include_str!("../../README.md");
const KEYS: &str = include_str!("../../docs/src/keys.md");
const SCRIPTING: &str = include_str!("../../docs/src/scripting.md");

#[test]
fn the_readme_gives_the_two_commands() {
    assert!(README.contains("cargo run --release"));
    assert!(README.contains("cargo test"));
}

#[test]
fn the_keys_page_lists_every_key_binding() {
    let keymap = Keymap::default_keymap();
    // Every context the keymap binds keys in but the overlays' own.
    let contexts: Vec<Context> = keymap
        .contexts()
        .filter(|c| ![Context::POPUP, Context::HELP].contains(c))
        .collect();
    for ctx in contexts {
        for binding in keymap.bindings(ctx) {
            assert!(
                KEYS.contains(&format!("| {} |", binding.desc)),
                "docs/src/keys.md lacks the binding {:?} ({}) of [[{ctx}]]",
                binding.action,
                binding.desc,
            );
        }
    }
}

#[test]
fn the_scripting_page_has_the_exit_codes_of_the_help() {
    let help = findings_cli::EXIT_CODES;
    let codes: Vec<&str> = help
        .lines()
        .skip(1)
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(codes, ["0", "1", "2", "N", "130"], "{help}");
    let table = &SCRIPTING[SCRIPTING
        .find("<!-- exit-codes -->")
        .expect("the table's marker")..];
    for code in codes {
        assert!(
            table.contains(&format!("\n| {code} | ")),
            "docs/src/scripting.md lacks exit code {code}"
        );
    }
}
