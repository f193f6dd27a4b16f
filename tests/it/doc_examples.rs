//! Every command example of the README and the book runs, against one demo
//! server at a fixed clock, so a number in the docs is the number the demo
//! prints. `console` blocks are transcripts (`$ command`, an optional
//! `? CODE` line, then the expected stdout, with `[..]` and `...`
//! redactions); each command of an `sh` block must exit 0, or the code an
//! `exit` marker gives it; a command that cannot run here carries a
//! `not run` marker with its reason. CONTRIBUTING.md ("Examples") has the
//! conventions; `FINDINGS_BLESS=1` rewrites the transcripts' output.

use crate::cli::Server;
use crate::common;
use findings_demo::DemoOptions;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The subcommands (as the parser has them, through the command-line
/// reference's headings): a `findings` command with none of them starts
/// the TUI.
fn subcommands() -> &'static [String] {
    static NAMES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        let mut names: Vec<String> = findings_cli::command_reference()
            .lines()
            .filter_map(|l| l.strip_prefix("## findings "))
            .filter_map(|rest| rest.split_whitespace().next())
            .map(str::to_owned)
            .collect();
        names.dedup();
        names.push("help".to_owned());
        names
    })
}

/// Longer than any example takes; only a hang reaches it.
const DEADLINE: Duration = Duration::from_secs(30);

#[derive(Debug, Clone, PartialEq)]
enum Marker {
    /// `<!-- examples: not run — REASON -->`, or with `` `TEXT` `` (one or
    /// more) after `not run`: only the commands containing a TEXT.
    NotRun { only: Vec<String>, reason: String },
    /// `<!-- examples: exit CODE `TEXT`… -->`: the commands containing a
    /// TEXT exit CODE.
    Exit { only: Vec<String>, code: i32 },
}

impl Marker {
    /// Whether the marker is about `command`.
    fn covers(&self, command: &str) -> bool {
        let (Marker::NotRun { only, .. } | Marker::Exit { only, .. }) = self;
        only.is_empty() || only.iter().any(|t| command.contains(t.as_str()))
    }
}

/// The `` `TEXT` `` quoted at the start of `s`, and what follows them.
fn quoted(mut s: &str) -> (Vec<String>, &str) {
    let mut texts = Vec::new();
    while let Some((text, rest)) = s
        .trim_start()
        .strip_prefix('`')
        .and_then(|inner| inner.split_once('`'))
    {
        texts.push(text.to_owned());
        s = rest;
    }
    (texts, s)
}

/// The marker an HTML comment line is, if it is one of ours.
fn marker(line: &str) -> Result<Option<Marker>, String> {
    let body = line
        .trim()
        .trim_start_matches("<!--")
        .trim_end_matches("-->")
        .trim();
    if body.starts_with("ci-recipe:") {
        // cli_scripting.rs runs these against `demo serve` and checks them.
        let reason = "a CI recipe, run and checked by cli_scripting.rs".to_owned();
        return Ok(Some(Marker::NotRun {
            only: Vec::new(),
            reason,
        }));
    }
    let Some(rest) = body.strip_prefix("examples:") else {
        return Ok(None);
    };
    let rest = rest.trim();
    if let Some(rest) = rest.strip_prefix("not run") {
        let (only, rest) = quoted(rest);
        let reason = rest.trim_start_matches([' ', '—', '-', ':']).trim();
        if reason.is_empty() {
            return Err(format!("a `not run` marker without its reason: {line}"));
        }
        let reason = reason.to_owned();
        return Ok(Some(Marker::NotRun { only, reason }));
    }
    if let Some(rest) = rest.strip_prefix("exit ") {
        let (code, rest) = rest.trim_start().split_once(' ').unwrap_or((rest, ""));
        let (only, _) = quoted(rest);
        return match code.parse() {
            Ok(code) if !only.is_empty() => Ok(Some(Marker::Exit { only, code })),
            _ => Err(format!("an `exit` marker is `exit CODE `TEXT``: {line}")),
        };
    }
    Err(format!("an unknown examples marker: {line}"))
}

/// A fenced `sh` or `console` block of a page.
struct Block {
    console: bool,
    markers: Vec<Marker>,
    /// Its lines, with their 1-based line numbers in the file.
    lines: Vec<(usize, String)>,
}

/// The `sh` and `console` blocks of `text`, with the markers of the
/// comment lines right above each.
fn blocks(file: &str, text: &str) -> Result<Vec<Block>, String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let fence = lines[i].trim();
        if !fence.starts_with("```") {
            i += 1;
            continue;
        }
        let tag = fence.trim_start_matches('`').trim();
        let end = (i + 1..lines.len())
            .find(|&j| lines[j].trim().starts_with("```"))
            .ok_or_else(|| format!("{file}:{}: a fence that never closes", i + 1))?;
        if tag == "sh" || tag == "console" {
            let mut markers = Vec::new();
            let mut above = i;
            while above > 0 && lines[above - 1].trim_start().starts_with("<!--") {
                above -= 1;
                let m = marker(lines[above]).map_err(|e| format!("{file}:{}: {e}", above + 1))?;
                markers.extend(m);
            }
            out.push(Block {
                console: tag == "console",
                markers,
                lines: (i + 1..end).map(|j| (j + 1, lines[j].to_owned())).collect(),
            });
        }
        i = end + 1;
    }
    Ok(out)
}

/// One command to run and what it should do.
#[derive(Debug, PartialEq)]
struct Example {
    /// The line of the command in its file.
    line: usize,
    command: String,
    code: i32,
    /// A transcript's expected stdout (none: not checked).
    stdout: Option<Expected>,
}

#[derive(Debug, PartialEq)]
struct Expected {
    lines: Vec<String>,
    /// The file's lines (0-based, end exclusive) of the `? CODE` line and
    /// the output: what bless rewrites.
    span: (usize, usize),
}

/// A line with its `\` continuations joined, and the index after them.
fn joined(lines: &[(usize, String)], mut i: usize) -> (String, usize) {
    let mut text = String::new();
    while i < lines.len() {
        let line = lines[i].1.trim();
        i += 1;
        if let Some(head) = line.strip_suffix('\\') {
            text.push_str(head.trim_end());
            text.push(' ');
        } else {
            text.push_str(line);
            break;
        }
    }
    (text.trim().to_owned(), i)
}

/// The commands of a transcript: `$ ` lines, an optional `? CODE` line
/// (the exit code; 0 without it), then stdout up to the next `$ `.
fn transcript(lines: &[(usize, String)]) -> Result<Vec<Example>, String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let (number, first) = &lines[i];
        if !first.starts_with("$ ") {
            return Err(format!(
                "line {number}: a transcript's output with no `$ ` before it"
            ));
        }
        let (text, mut next) = joined(lines, i);
        let command = text.trim_start_matches("$ ").to_owned();
        let mut code = 0;
        // File lines (1-based numbers → 0-based indices): the `? CODE` line
        // and the output start here.
        let from = lines.get(next).map_or(lines.last().unwrap().0, |l| l.0 - 1);
        if let Some(c) = lines.get(next).and_then(|(_, l)| l.strip_prefix("? ")) {
            code = c
                .trim()
                .parse()
                .map_err(|_| format!("line {}: `? CODE` wants a number", lines[next].0))?;
            next += 1;
        }
        let end = (next..lines.len())
            .find(|&j| lines[j].1.starts_with("$ "))
            .unwrap_or(lines.len());
        let expected = lines[next..end].iter().map(|(_, l)| l.clone()).collect();
        let to = lines.get(end).map_or(lines.last().unwrap().0, |l| l.0 - 1);
        out.push(Example {
            line: *number,
            command,
            code,
            stdout: Some(Expected {
                lines: expected,
                span: (from, to),
            }),
        });
        i = end;
    }
    Ok(out)
}

/// The commands of an `sh` block: each line (continuations joined) but
/// comments and blank lines, expected to exit 0.
fn script(lines: &[(usize, String)]) -> Vec<Example> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let number = lines[i].0;
        let (command, next) = joined(lines, i);
        i = next;
        if !command.is_empty() && !command.starts_with('#') {
            out.push(Example {
                line: number,
                command,
                code: 0,
                stdout: None,
            });
        }
    }
    out
}

/// Whether `command` runs `findings` itself (after `NAME=value`
/// assignments), and with a subcommand: the others are other tools or the
/// TUI, which only a `not run` marker lets through.
fn runs_headless(command: &str) -> bool {
    let mut words = command
        .split_whitespace()
        .skip_while(|w| w.contains('=') && !w.starts_with('-'));
    if words.next() != Some("findings") {
        return false;
    }
    words
        .take_while(|w| !matches!(*w, "|" | ">" | ">>" | "#" | "&&" | ";"))
        .any(|w| subcommands().iter().any(|s| s == w))
}

/// `line` matches `pattern`, where `[..]` stands for any text.
fn line_matches(pattern: &str, line: &str) -> bool {
    let (pattern, line) = (pattern.trim_end(), line.trim_end());
    let mut parts = pattern.split("[..]");
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = line.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    let Some((last, middle)) = parts.split_last() else {
        return rest.is_empty();
    };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

/// `actual` matches `expected`, line by line; a line `...` stands for any
/// number of lines.
fn output_matches(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=actual.len()).any(|skip| output_matches(rest, &actual[skip..]))
        }
        Some((first, rest)) => actual
            .split_first()
            .is_some_and(|(line, more)| line_matches(first, line) && output_matches(rest, more)),
    }
}

/// What a command did.
struct Ran {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs `command` with `sh` in `dir`: the built `findings` first on the
/// PATH, the server's settings and the fixed clock in an environment of
/// their own (HOME and the XDG folders in `dir`: no user file read or
/// written), stdin closed (no terminal: writes without `--yes` refuse).
fn run(server: &Server, dir: &Path, command: &str) -> Ran {
    let bin = Path::new(env!("CARGO_BIN_EXE_findings")).parent().unwrap();
    let path = format!("{}:/usr/local/bin:/usr/bin:/bin", bin.display());
    let capture = tempfile::tempdir().unwrap();
    let (out, err) = (capture.path().join("out"), capture.path().join("err"));
    use std::os::unix::process::CommandExt;
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(command)
        // Its own process group, so a hung `findings` under `sh` is
        // killed with it.
        .process_group(0)
        .current_dir(dir)
        .env_clear()
        .env("PATH", path)
        .env("HOME", dir)
        .env("XDG_CONFIG_HOME", dir.join(".config"))
        .env("XDG_STATE_HOME", dir.join(".local/state"))
        .env("XDG_DATA_HOME", dir.join(".local/share"))
        .env("XDG_CACHE_HOME", dir.join(".cache"))
        .env("FINDINGS_BASE_URL", server.url())
        .env("FINDINGS_DEPLOYMENT", "1234")
        .env("FINDINGS_TOKEN", "demo-token")
        .env("FINDINGS_NOW", common::anchor().to_rfc3339())
        .stdin(Stdio::null())
        // Files, not pipes: a large output cannot block the child.
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&err).unwrap())
        .spawn()
        .unwrap();
    // The exit is waited for on a thread of its own; here, that wait
    // with a deadline only a hang reaches.
    let group = i32::try_from(child.id()).expect("a pid");
    let (exited, exit) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = exited.send(child.wait());
    });
    let Ok(status) = exit.recv_timeout(DEADLINE) else {
        // SAFETY: kill(2) with a process group id; no memory involved.
        unsafe { libc::kill(-group, libc::SIGKILL) };
        let _ = exit.recv();
        let stderr = format!("(killed: still running after {DEADLINE:?})");
        return Ran {
            code: -1,
            stdout: String::new(),
            stderr,
        };
    };
    let status = status.unwrap();
    let read = |p: &Path| String::from_utf8_lossy(&std::fs::read(p).unwrap()).into_owned();
    Ran {
        code: status.code().unwrap_or(-1),
        stdout: read(&out),
        stderr: read(&err),
    }
}

/// `text` indented, cut after `max` lines (an unchecked stdout can be long).
fn indented(text: &str, max: usize) -> String {
    let mut out = String::new();
    for line in text.lines().take(max) {
        out.push_str("    ");
        out.push_str(line);
        out.push('\n');
    }
    let more = text.lines().count().saturating_sub(max);
    if more > 0 {
        out.push_str(&format!("    ({more} more lines)\n"));
    }
    out
}

/// The first output line (1-based) that differs, when the expected output
/// has no `...` to make that a question.
fn first_difference(expected: &[String], actual: &[&str]) -> Option<usize> {
    if expected.iter().any(|l| l == "...") {
        return None;
    }
    let differs =
        (0..expected.len().max(actual.len())).find(|&i| match (expected.get(i), actual.get(i)) {
            (Some(e), Some(a)) => !line_matches(e, a),
            _ => true,
        });
    differs.map(|i| i + 1)
}

/// The run over every page: the server, what failed, what was skipped,
/// and for bless the edits of the page at hand.
struct Check {
    server: Server,
    bless: bool,
    failures: Vec<String>,
    blocks: usize,
    run: usize,
    checked: usize,
    skipped: Vec<String>,
    /// The slowest command, for the summary: what to look at when the
    /// test grows slow.
    slowest: (Duration, String),
    /// Bless edits of the page (file lines from, to, the new lines).
    edits: Vec<(usize, usize, Vec<String>)>,
}

impl Check {
    fn block(&mut self, name: &str, block: &Block) {
        self.blocks += 1;
        let examples = if block.console {
            transcript(&block.lines).unwrap_or_else(|e| panic!("{name}: {e}"))
        } else {
            script(&block.lines)
        };
        // A marker's every TEXT names a command of its block: a stale
        // marker would skip nothing, or the next command written to fit it.
        for m in &block.markers {
            let (Marker::NotRun { only, .. } | Marker::Exit { only, .. }) = m;
            for text in only {
                if !examples.iter().any(|e| e.command.contains(text.as_str())) {
                    let line = block.lines.first().map_or(0, |l| l.0);
                    self.failures.push(format!(
                        "{name}:{line}: the marker's `{text}` is in no command of the block"
                    ));
                }
            }
        }
        let dir = tempfile::tempdir().unwrap();
        for mut example in examples {
            let at = format!("{name}:{}: `{}`", example.line, example.command);
            let mut skip = None;
            for m in block.markers.iter().filter(|m| m.covers(&example.command)) {
                match m {
                    Marker::NotRun { reason, .. } => skip = Some(reason.clone()),
                    Marker::Exit { code, .. } => example.code = *code,
                }
            }
            if let Some(reason) = skip {
                self.skipped.push(format!("{at}: {reason}"));
            } else if runs_headless(&example.command) {
                self.example(&at, &example, dir.path());
            } else {
                self.failures.push(format!(
                    "{at}: not a headless `findings` command (another tool, or the TUI); \
                     mark it <!-- examples: not run `TEXT` — REASON -->"
                ));
            }
        }
    }

    /// Runs one command and compares (or, blessing, records the edit).
    fn example(&mut self, at: &str, example: &Example, dir: &Path) {
        let start = Instant::now();
        let ran = run(&self.server, dir, &example.command);
        self.run += 1;
        if start.elapsed() > self.slowest.0 {
            self.slowest = (start.elapsed(), at.to_owned());
        }
        let actual: Vec<&str> = ran.stdout.lines().collect();
        let code_ok = ran.code == example.code;
        let out_ok = example
            .stdout
            .as_ref()
            .is_none_or(|e| output_matches(&e.lines, &actual));
        if code_ok && out_ok {
            return;
        }
        let Some(expected) = &example.stdout else {
            self.failures.push(format!(
                "{at}\n  expected exit {}, got exit {}, stdout:\n{}  stderr:\n{}",
                example.code,
                ran.code,
                indented(&ran.stdout, 30),
                indented(&ran.stderr, 30),
            ));
            return;
        };
        if self.bless {
            let code = (ran.code != 0).then(|| format!("? {}", ran.code));
            // A line of the old transcript that still matches its line
            // is kept as written, its redactions with it.
            let out = actual
                .iter()
                .enumerate()
                .map(|(i, l)| match expected.lines.get(i) {
                    Some(old) if line_matches(old, l) => old.clone(),
                    _ => l.trim_end().to_owned(),
                });
            let (from, to) = expected.span;
            self.edits
                .push((from, to, code.into_iter().chain(out).collect()));
            return;
        }
        let differs = first_difference(&expected.lines, &actual)
            .map_or(String::new(), |n| format!(" (differs from line {n})"));
        self.failures.push(format!(
            "{at}\n  expected exit {}, stdout:\n{}  got exit {}, stdout{differs}:\n{}  stderr:\n{}",
            example.code,
            indented(&expected.lines.join("\n"), usize::MAX),
            ran.code,
            indented(&ran.stdout, usize::MAX),
            indented(&ran.stderr, 30),
        ));
    }

    /// Writes the page with the bless edits, from the bottom up so the
    /// line numbers hold.
    fn write_edits(&mut self, page: &Path, text: &str) {
        if self.edits.is_empty() {
            return;
        }
        let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
        self.edits.sort_by_key(|e| std::cmp::Reverse(e.0));
        for (from, to, new) in self.edits.drain(..) {
            lines.splice(from..to, new);
        }
        std::fs::write(page, lines.join("\n") + "\n").unwrap();
        eprintln!("blessed {}", page.display());
    }
}

#[test]
fn every_command_example_of_the_readme_and_the_book_runs_as_shown() {
    let mut check = Check {
        server: Server::with_options(DemoOptions {
            anchor: Some(common::anchor()),
            ..Default::default()
        }),
        bless: std::env::var_os("FINDINGS_BLESS").is_some_and(|v| v == "1"),
        failures: Vec::new(),
        blocks: 0,
        run: 0,
        checked: 0,
        skipped: Vec::new(),
        slowest: (Duration::ZERO, String::new()),
        edits: Vec::new(),
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for page in common::doc_pages() {
        let name = page.strip_prefix(root).unwrap().display().to_string();
        let text = std::fs::read_to_string(&page).unwrap();
        for block in blocks(&name, &text).unwrap_or_else(|e| panic!("{e}")) {
            check.checked += usize::from(block.console);
            check.block(&name, &block);
        }
        check.write_edits(&page, &text);
    }
    eprintln!(
        "{} blocks ({} transcripts): {} commands run (the slowest {:?}: {}), {} not run:\n{}",
        check.blocks,
        check.checked,
        check.run,
        check.slowest.0,
        check.slowest.1,
        check.skipped.len(),
        check.skipped.join("\n")
    );
    let failures = &check.failures;
    assert!(failures.is_empty(), "\n{}", failures.join("\n\n"));
    // The test checks something: the docs hold transcripts and they ran.
    assert!(check.checked >= 5, "only {} transcripts", check.checked);
    assert!(check.run >= 40, "only {} commands ran", check.run);
}

#[test]
fn the_matcher_takes_redactions_and_the_exit_code_line() {
    let lines = |s: &str| -> Vec<String> { s.lines().map(str::to_owned).collect() };
    // `[..]` is any text within a line, the rest is literal.
    assert!(line_matches(
        "saved [..] findings to a.snap",
        "saved 1824 findings to a.snap"
    ));
    assert!(line_matches("[..]", ""));
    assert!(line_matches("a[..]b[..]c", "a1b2b3c"));
    assert!(!line_matches("saved [..] findings", "saved 3 issues"));
    assert!(
        !line_matches("ab[..]ba", "aba"),
        "the two ends may not overlap"
    );
    assert!(!line_matches("total 12", "total 123"));
    // `...` is any number of lines, none included.
    let out = ["head", "1", "2", "tail"];
    assert!(output_matches(&lines("head\n...\ntail"), &out));
    assert!(output_matches(&lines("...\ntail"), &out));
    assert!(output_matches(&lines("head\n1\n2\ntail\n..."), &out));
    assert!(!output_matches(&lines("head\n...\n1"), &out));
    assert!(
        !output_matches(&lines("head\n1"), &out),
        "every line is shown"
    );
    // A transcript: commands, continuations, `? CODE`, output.
    let block: Vec<(usize, String)> = ["$ findings a \\", "    --b", "? 2", "x", "$ findings c"]
        .iter()
        .enumerate()
        .map(|(i, l)| (i + 11, l.to_string()))
        .collect();
    let got = transcript(&block).unwrap();
    assert_eq!(got[0].command, "findings a --b");
    assert_eq!((got[0].line, got[0].code), (11, 2));
    let first = got[0].stdout.as_ref().unwrap();
    assert_eq!((first.lines.clone(), first.span), (lines("x"), (12, 14)));
    assert_eq!(
        (got[1].code, got[1].stdout.as_ref().unwrap().span),
        (0, (15, 15))
    );
    assert!(transcript(&[(1, "output first".into())]).is_err());
}

#[test]
fn markers_need_a_reason_and_commands_need_a_marker_to_be_skipped() {
    let not_run = marker("<!-- examples: not run `auth login` — needs a real deployment -->");
    assert_eq!(
        not_run.unwrap(),
        Some(Marker::NotRun {
            only: vec!["auth login".into()],
            reason: "needs a real deployment".into()
        })
    );
    assert!(marker("<!-- examples: not run -->").is_err());
    assert!(marker("<!-- examples: not run `tmux` -->").is_err());
    assert!(marker("<!-- examples: skip it -->").is_err());
    assert_eq!(
        marker("<!-- examples: exit 3 `--exit-code 3` `fix` -->").unwrap(),
        Some(Marker::Exit {
            only: vec!["--exit-code 3".into(), "fix".into()],
            code: 3
        })
    );
    assert!(
        marker("<!-- examples: exit 3 -->").is_err(),
        "about which commands?"
    );
    assert_eq!(marker("<!-- a comment of the page -->").unwrap(), None);
    // Only headless `findings` commands run unmarked.
    assert!(runs_headless("findings issues --all | wc -l"));
    assert!(runs_headless(
        "FINDINGS_LOG=debug findings --profile work auth status"
    ));
    assert!(!runs_headless("findings"), "the TUI");
    assert!(
        !runs_headless("findings --snapshot week-48.snap # issues"),
        "the TUI"
    );
    assert!(!runs_headless("cargo run --release"));
    assert!(!runs_headless("tmux split-window -h -l 80 findings"));
}

#[test]
fn a_failure_names_the_first_line_that_differs() {
    let lines = |s: &str| -> Vec<String> { s.lines().map(str::to_owned).collect() };
    assert_eq!(
        first_difference(&lines("a\nb [..]\nc"), &["a", "b 1", "d"]),
        Some(3)
    );
    assert_eq!(first_difference(&lines("a\nb"), &["a"]), Some(2));
    assert_eq!(first_difference(&lines("a"), &["a"]), None);
    assert_eq!(first_difference(&lines("a\n..."), &["b"]), None);
}
