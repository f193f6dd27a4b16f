//! `findings completions SHELL` and `findings man`: shell integration,
//! generated from the same command line that parses ([`help::command`]).
//!
//! A man page has NAME, SYNOPSIS (the command's usage: its own flags are
//! `[OPTIONS]`, the global ones listed under GLOBAL OPTIONS), DESCRIPTION,
//! the options by heading, the subcommands, NOTES, EXAMPLES, ENVIRONMENT,
//! FILES, EXIT STATUS and SEE ALSO, which names only pages `man --dir`
//! writes.

use super::{Failure, help};
use clap::Command;
use findings_base::atomic_file::{self, Access, Replace};
use std::io::Write;
use std::path::Path;

/// Writes the completion script for `shell` to stdout.
pub fn completions(shell: clap_complete::Shell) -> Result<(), Failure> {
    let script = super::complete::registration(&shell.to_string()).map_err(Failure::Usage)?;
    std::io::stdout().lock().write_all(&script)?;
    Ok(())
}

/// Writes the man page (roff) to stdout, or one page per command into `dir`.
pub fn man(dir: Option<&Path>) -> Result<(), Failure> {
    let mut cmd = help::command().disable_help_subcommand(true);
    cmd.build();
    match dir {
        None => {
            let page = page(&cmd, &[]);
            std::io::stdout().lock().write_all(&page)?;
        }
        Some(dir) => {
            let fail = |e: std::io::Error| {
                Failure::Runtime(format!(
                    "cannot write the man pages to {}: {e}",
                    dir.display()
                ))
            };
            atomic_file::create_folder(dir, Access::Default).map_err(fail)?;
            for path in help::paths(&cmd) {
                let path: Vec<&str> = path.iter().map(String::as_str).collect();
                let file = dir.join(format!("{}.1", page_name(&path)));
                atomic_file::write(
                    &file,
                    &page(&cmd, &path),
                    Access::Default,
                    Replace::Existing,
                )
                .map_err(fail)?;
            }
            eprintln!("findings: man pages written to {}", dir.display());
        }
    }
    Ok(())
}

/// `findings`, `findings-scm-update`: a page's name.
fn page_name(path: &[&str]) -> String {
    std::iter::once("findings")
        .chain(path.iter().copied())
        .collect::<Vec<_>>()
        .join("-")
}

/// The command at `path` of `root`.
fn command_at<S: AsRef<str>>(root: &Command, path: &[S]) -> Command {
    let mut cmd = root.clone();
    for name in path {
        cmd = cmd
            .find_subcommand(name.as_ref())
            .cloned()
            .expect("a path of the command line");
    }
    cmd
}

/// The page of the command at `path` of `root` (built).
fn page(root: &Command, path: &[&str]) -> Vec<u8> {
    let mut cmd = command_at(root, path);
    let usage = cmd.render_usage().to_string();
    let usage = usage.trim_start_matches("Usage:").trim().to_owned();
    let notes = cmd
        .get_after_help()
        .map(|h| h.to_string())
        .and_then(|h| h.split("Examples:").next().map(|n| n.trim().to_owned()))
        .filter(|n| !n.is_empty() && !path.is_empty());
    let visible_args = cmd.get_arguments().any(|a| !a.is_hide_set());
    let subcommands: Vec<String> = cmd
        .get_subcommands()
        .filter(|s| !s.is_hide_set())
        .map(|s| s.get_name().to_owned())
        .collect();
    let man = clap_mangen::Man::new(cmd).title(page_name(path));
    let mut out = Vec::new();
    let mut section = |render: &dyn Fn(&mut Vec<u8>) -> std::io::Result<()>| {
        // Writing to memory cannot fail.
        let _ = render(&mut out);
    };
    section(&|w| man.render_title(w));
    section(&|w| man.render_name_section(w));
    section(&|w| {
        w.write_all(b".SH SYNOPSIS\n")?;
        w.write_all(text(&usage).as_bytes())
    });
    section(&|w| man.render_description_section(w));
    if visible_args {
        section(&|w| man.render_options_section(w));
    }
    if !subcommands.is_empty() {
        section(&|w| {
            w.write_all(b".SH COMMANDS\n")?;
            for name in &subcommands {
                let sub = [path, &[name.as_str()]].concat();
                writeln!(w, ".TP\n\\fB{}\\fR(1)", text(&page_name(&sub)).trim_end())?;
            }
            Ok(())
        });
    }
    if let Some(notes) = &notes {
        section(&|w| {
            w.write_all(b".SH NOTES\n")?;
            w.write_all(text(notes).as_bytes())
        });
    }
    section(&|w| examples(w, path));
    section(&|w| environment(w));
    section(&|w| files(w));
    section(&|w| exit_status(w));
    section(&|w| see_also(w, path, &subcommands));
    out
}

/// Text as roff reads it: each line as is, but a backslash or a leading
/// dot or quote (which roff would take for a request) escaped.
fn text(s: &str) -> String {
    let mut out = String::new();
    for line in s.lines() {
        let line = line.replace('\\', "\\e").replace('-', "\\-");
        if line.starts_with('.') || line.starts_with('\'') {
            out.push_str("\\&");
        }
        out.push_str(&line);
        out.push('\n');
    }
    if out.is_empty() {
        out.push('\n');
    }
    out
}

/// A definition: a term in bold, then its text.
fn item(w: &mut dyn Write, term: &str, what: &str) -> std::io::Result<()> {
    write!(w, ".TP\n\\fB{}\\fR\n{}", text(term).trim_end(), text(what))
}

fn examples(w: &mut dyn Write, path: &[&str]) -> std::io::Result<()> {
    w.write_all(b".SH EXAMPLES\n")?;
    for (what, example) in help::examples(path) {
        write!(
            w,
            ".PP\n{}.RS\n.nf\n{}.fi\n.RE\n",
            text(what),
            text(example)
        )?;
    }
    Ok(())
}

fn environment(w: &mut dyn Write) -> std::io::Result<()> {
    use findings_config::*;
    w.write_all(b".SH ENVIRONMENT\n")?;
    for (name, what) in [
        (ENV_BASE_URL, "Base URL of the platform, as --base-url."),
        (
            ENV_DEPLOYMENT,
            "Numeric id of the deployment, as --deployment.",
        ),
        (
            ENV_TOKEN,
            "The API token. It beats every other source: a profile's token_command, token_file or token, then the token auth login stored.",
        ),
        (
            ENV_PROFILE,
            "Profile of the config file to use, as --profile.",
        ),
        (ENV_CONFIG, "Path of the config file."),
        (ENV_THEME, "The TUI's colours, as --theme."),
        (
            ENV_READ_ONLY,
            "Set to anything but empty, 0, false, no or off: refuse every write, as --read-only.",
        ),
        (ENV_LOG_FILE, "The file of the HTTP log, as --log-file."),
        (
            ENV_CONNECT_TIMEOUT,
            "Seconds to wait for a connection, as --connect-timeout (beats the profile's connect_timeout).",
        ),
        (
            ENV_TIMEOUT,
            "Seconds to wait for a whole answer, as --timeout (beats the profile's timeout).",
        ),
        (
            ENV_NO_PROGRESS,
            "Set to anything but empty, 0, false, no or off: no progress on stderr, as -q.",
        ),
        (
            ENV_FORMAT,
            "The output format of a command that prints items when --format, --json, --jq and -o FILE's extension do not say (one the command takes, else exit 2).",
        ),
        (
            "CI",
            "Set to anything but empty (as CI runners do): no progress on stderr, even on a pseudo-terminal.",
        ),
        (
            "TERM",
            "dumb: no progress on stderr (the terminal cannot wipe a line).",
        ),
        (
            ENV_LOG,
            "Log level (error, warn, info, debug, trace, off); with no --log-file, the log goes to findings.log in the state folder.",
        ),
        ("NO_COLOR", "Set to anything but empty: no colours."),
        ("BROWSER", "Commands the TUI opens links with, : separated."),
        (
            super::complete::ENV_COMPLETE,
            "Set by the completion script when it asks the binary for completions.",
        ),
    ] {
        item(w, name, what)?;
    }
    Ok(())
}

fn files(w: &mut dyn Write) -> std::io::Result<()> {
    w.write_all(b".SH FILES\n")?;
    for (name, what) in [
        (
            "$XDG_CONFIG_HOME/findings/config.toml",
            "The config file (findings config path says where it is; findings config init writes an example). keymap.toml and theme.toml beside it change the TUI's keys and colours.",
        ),
        (
            "$XDG_CONFIG_HOME/findings/tokens/",
            "Tokens findings auth login stored where no secret store is available, one file per profile and base URL, readable by the owner only.",
        ),
        (
            "$XDG_STATE_HOME/findings/",
            "State: the TUI's last visits, findings.log, and names/, the deployment's repository, rule and team names a listing fetched, kept for shell completion (one file per profile).",
        ),
    ] {
        item(w, name, what)?;
    }
    Ok(())
}

fn exit_status(w: &mut dyn Write) -> std::io::Result<()> {
    w.write_all(b".SH EXIT STATUS\n")?;
    for (code, what) in [
        ("0", "Success."),
        (
            "1",
            "A runtime or API error, or a triage or write not applied as asked (an id that matched no finding, a request that failed).",
        ),
        (
            "2",
            "A usage error: a flag, value or name the deployment does not have, a configuration error, or a write refused (read-only, no confirmation, a --count that does not match).",
        ),
        (
            "3",
            "findings gate: the change brings findings the policy refuses (the gate's --exit-code N changes it).",
        ),
        (
            "4",
            "Partly done: a triage applied, but some findings got an exception request instead or were skipped (no permission); stdout has the counts, stderr what was not done.",
        ),
        (
            "N",
            "--exit-code N: at least one item was printed (after all of them). A failure (1, 2) wins over it; choose N other than 1, 2 and 4 to tell a match from the rest.",
        ),
        (
            "129",
            "Stopped by SIGHUP (the terminal closed) while a listing ran: -o FILE left as it was, no temporary file beside it; on stdout, stderr says the output is cut short.",
        ),
        ("130", "Interrupted by Ctrl-C (SIGINT), likewise."),
        (
            "143",
            "Stopped by SIGTERM (how CI cancels a job or ends one past its time), likewise.",
        ),
    ] {
        item(w, code, what)?;
    }
    Ok(())
}

/// The parent's page and the subcommands' pages: all written by `man
/// --dir`.
fn see_also(w: &mut dyn Write, path: &[&str], subcommands: &[String]) -> std::io::Result<()> {
    let mut pages: Vec<String> = Vec::new();
    if let Some((_, parent)) = path.split_last() {
        pages.push(page_name(parent));
    }
    pages.extend(
        subcommands
            .iter()
            .map(|s| page_name(&[path, &[s.as_str()]].concat())),
    );
    if pages.is_empty() {
        return Ok(());
    }
    w.write_all(b".SH SEE ALSO\n")?;
    let refs: Vec<String> = pages
        .iter()
        .map(|p| format!("\\fB{}\\fR(1)", text(p).trim_end()))
        .collect();
    writeln!(w, "{}", refs.join(", "))
}

/// The width the reference's help texts are wrapped to: the book's pages
/// and a terminal's both hold it.
const REFERENCE_WIDTH: usize = 80;

/// The book's command-line reference (`docs/src/reference/commands.md`):
/// every command's `--help`, from the same command line that parses, so
/// the page cannot say what the parser does not do.
pub fn command_reference() -> String {
    use std::fmt::Write as _;
    let mut cmd = help::command()
        .disable_help_subcommand(true)
        .term_width(REFERENCE_WIDTH)
        .max_term_width(REFERENCE_WIDTH);
    cmd.build();
    let paths = help::paths(&cmd);
    let title = |path: &[String]| {
        std::iter::once("findings")
            .chain(path.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut out = String::from(
        "# Command-line reference\n\n\
         <!-- Generated from the command line's definitions; \
         `FINDINGS_BLESS=1 cargo test --test it reference` writes it anew. -->\n\n\
         Every command's `--help`, as `findings COMMAND --help` prints it \
         (the man pages, `findings man`, say the same).\n\n",
    );
    for path in &paths {
        let name = title(path);
        let _ = writeln!(out, "- [`{name}`](#{})", name.replace(' ', "-"));
    }
    for path in &paths {
        let mut sub = command_at(&cmd, path);
        let _ = write!(out, "\n## {}\n\n```text\n", title(path));
        for line in sub.render_long_help().to_string().lines() {
            let _ = writeln!(out, "{}", line.trim_end());
        }
        out.push_str("```\n");
    }
    out
}
