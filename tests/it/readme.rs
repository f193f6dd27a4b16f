//! The README is for users: it must give the two set-up commands and list
//! every key binding the app has.

use findings_tui::tui::keymap::{Context, Keymap};

const README: &str = include_str!("../../README.md");

#[test]
fn the_readme_gives_the_two_commands() {
    assert!(README.contains("cargo run --release"));
    assert!(README.contains("cargo test"));
}

#[test]
fn the_readme_lists_every_key_binding() {
    let keymap = Keymap::default_keymap();
    let contexts = [
        Context::Global,
        Context::List,
        Context::Issues,
        Context::Groups,
        Context::Report,
        Context::Agentic,
        Context::Detail,
        Context::Form,
        Context::ScmList,
        Context::Scm,
        Context::Review,
    ];
    for ctx in contexts {
        for binding in keymap.bindings(ctx) {
            assert!(
                README.contains(&format!("| {} |", binding.desc)),
                "README lacks the binding {:?} ({}) of {}",
                binding.action,
                binding.desc,
                ctx.title()
            );
        }
    }
}
