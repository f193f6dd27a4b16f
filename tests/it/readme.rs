//! The README is the front door: it must give the two set-up commands. The
//! book under `docs/src/` is for users: its scripting page has the exit
//! codes of the help (the keys page is generated: `reference.rs`).

const README: &str = include_str!("../../README.md");
const SCRIPTING: &str = include_str!("../../docs/src/scripting.md");

#[test]
fn the_readme_gives_the_two_commands() {
    assert!(README.contains("cargo run --release"));
    assert!(README.contains("cargo test"));
}

#[test]
fn the_scripting_page_has_the_exit_codes_of_the_help() {
    let help = findings_cli::EXIT_CODES;
    let codes: Vec<&str> = help
        .lines()
        .skip(1)
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(
        codes,
        ["0", "1", "2", "4", "N", "129", "130", "143"],
        "{help}"
    );
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
