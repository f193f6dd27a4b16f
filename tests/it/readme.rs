//! The README is for users: it must give the two set-up commands and list
//! every key binding the app has.

use findings_tui::keymap::{Context, Keymap};

const README: &str = include_str!("../../README.md");

#[test]
fn the_readme_gives_the_two_commands() {
    assert!(README.contains("cargo run --release"));
    assert!(README.contains("cargo test"));
}

#[test]
fn the_readme_lists_every_key_binding() {
    let keymap = Keymap::default_keymap();
    // Every context the keymap binds keys in but the overlays' own.
    let contexts: Vec<Context> = keymap
        .contexts()
        .filter(|c| ![Context::POPUP, Context::HELP].contains(c))
        .collect();
    for ctx in contexts {
        for binding in keymap.bindings(ctx) {
            assert!(
                README.contains(&format!("| {} |", binding.desc)),
                "README lacks the binding {:?} ({}) of [[{ctx}]]",
                binding.action,
                binding.desc,
            );
        }
    }
}

#[test]
fn the_readme_has_the_exit_codes_of_the_help() {
    let help = findings_cli::EXIT_CODES;
    let codes: Vec<&str> = help
        .lines()
        .skip(1)
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(codes, ["0", "1", "2", "N", "130"], "{help}");
    let table = &README[README
        .find("<!-- exit-codes -->")
        .expect("the table's marker")..];
    for code in codes {
        assert!(
            table.contains(&format!("\n| {code} | ")),
            "README lacks exit code {code}"
        );
    }
}
