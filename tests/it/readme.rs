//! The README is the front door: it must give the two set-up commands. The
//! book under `docs/src/` is for users: its scripting page has the exit
//! codes of the help (the keys page is generated: `reference.rs`); it and
//! SECURITY.md state the snapshot reader's caps as the code has them.

const README: &str = include_str!("../../README.md");
const SCRIPTING: &str = include_str!("../../docs/src/scripting.md");
const SECURITY: &str = include_str!("../../SECURITY.md");
const SNAPSHOTS: &str = include_str!("../../docs/src/snapshots.md");

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
        ["0", "1", "2", "3", "4", "N", "129", "130", "143"],
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

/// A size as the docs write it: "3 MiB", "1.25 MiB".
fn mib(bytes: usize) -> String {
    let mib = bytes as f64 / (1024.0 * 1024.0);
    format!("{mib} MiB")
}

/// Markdown's line breaks as spaces, so a phrase may wrap.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// SECURITY.md and the snapshots page state the snapshot reader's caps
/// (a block's text, a line) as the code has them: one constant each.
#[test]
fn the_snapshot_caps_in_security_md_and_the_snapshots_page_are_the_codes() {
    let block = mib(findings_snapshot::MAX_BLOCK_TEXT);
    let line = mib(findings_snapshot::MAX_LINE);
    let security = one_line(SECURITY);
    let snapshots = one_line(SNAPSHOTS);
    for (doc, text, phrases) in [
        (
            "SECURITY.md",
            &security,
            vec![
                format!("a block unpacked {block},"),
                format!("a finding's line {line},"),
            ],
        ),
        (
            "docs/src/snapshots.md",
            &snapshots,
            vec![
                format!("a block holds at most {block} of text"),
                format!("lz4's worst case / {block} (checked before unpacking"),
                format!("a line is at most {line}"),
            ],
        ),
    ] {
        for phrase in phrases {
            assert!(text.contains(&phrase), "{doc} lacks \"{phrase}\"");
        }
    }
}

/// The README's transcripts are a deployment's; the notice it quotes is
/// what a headless command really prints first on the embedded demo, with
/// nothing configured, at a terminal (as a newcomer runs it).
#[test]
fn the_readme_quotes_the_demo_notice_as_printed() {
    let quoted = README
        .split_once("<!-- demo-notice -->\n```text\n")
        .and_then(|(_, rest)| rest.lines().next())
        .expect("the README quotes the demo notice");
    let state = tempfile::tempdir().unwrap();
    let no_config = state.path().join("config-home");
    let env = [
        ("XDG_STATE_HOME", state.path().as_os_str()),
        ("XDG_CONFIG_HOME", no_config.as_os_str()),
    ];
    // Wide enough that the notice is one line of the terminal.
    let s = crate::common::pty::Pty::start(10, 400, &["issues", "--max", "1"], &env);
    s.wait_for("SEVERITY");
    let (status, _, text) = s.finish();
    assert!(status.success(), "{text}");
    let printed = text.lines().next().map(str::trim_end).unwrap_or_default();
    // The port is the one the system gave this run.
    let (before, after) = printed
        .split_once("127.0.0.1:")
        .unwrap_or_else(|| panic!("no demo notice first: {text}"));
    let port_end = after.find(|c: char| !c.is_ascii_digit()).unwrap_or(0);
    let printed = format!("{before}127.0.0.1:PORT{}", &after[port_end..]);
    assert_eq!(quoted, printed);
}
