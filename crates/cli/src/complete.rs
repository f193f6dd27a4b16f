//! Shell completion, answered by the binary itself (clap_complete's
//! dynamic engine): the script `findings completions SHELL` prints calls
//! `FINDINGS_COMPLETE=SHELL findings -- WORDS...` at each Tab, so values
//! can come from the user's files. Profile names come from the config file;
//! repository, rule, team, tag and ref names from the copy a listing kept
//! ([`names_cache`]); `triage --state` offers the states of findings, or
//! with `--agentic` those of agentic-workflow issues. Completion never
//! reaches the network, and says nothing when a file cannot be read.

use super::listing::typed;
use super::names_cache::{self, Names};
use clap::Command;
use clap_complete::engine::{ArgValueCompleter, CompletionCandidate};
use findings_config as config;
use findings_requests::triage::Kind;
use std::ffi::{OsStr, OsString};

/// The variable that asks the binary for completions.
pub const ENV_COMPLETE: &str = "FINDINGS_COMPLETE";

/// The script that registers completion for `shell` (`bash`, `zsh`,
/// `fish`, `powershell`, `elvish`).
pub fn registration(shell: &str) -> Result<Vec<u8>, String> {
    let shells = clap_complete::env::Shells::builtins();
    let Some(completer) = shells.completer(shell) else {
        let names: Vec<&str> = shells.names().collect();
        return Err(format!(
            "unknown shell {shell:?}; valid: {}",
            names.join(", ")
        ));
    };
    let mut script = Vec::new();
    completer
        .write_registration(
            ENV_COMPLETE,
            "findings",
            "findings",
            &this_binary(),
            &mut script,
        )
        .map_err(|e| e.to_string())?;
    Ok(script)
}

/// How the script calls this binary back: as it was started (a bare name
/// is looked up in PATH, a relative path made absolute), as clap does.
fn this_binary() -> String {
    let started = std::env::args_os()
        .next()
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| "findings".into());
    let path = if started.components().count() > 1 && started.is_relative() {
        std::env::current_dir()
            .map(|d| d.join(&started))
            .unwrap_or(started)
    } else {
        started
    };
    path.to_string_lossy().into_owned()
}

/// The derived command line with the completers that read files.
pub fn with_completers(cmd: Command) -> Command {
    let names = |pick: fn(&Names) -> &Vec<String>| {
        ArgValueCompleter::new(move |current: &OsStr| {
            offer(current, pick(&names_cache::load(profile().as_deref())))
        })
    };
    let filters = |cmd: Command| {
        cmd.mut_arg("repos", |a| a.add(names(|n| &n.repositories)))
            .mut_arg("rules", |a| a.add(names(|n| &n.rules)))
            .mut_arg("teams", |a| a.add(names(|n| &n.teams)))
            .mut_arg("tags", |a| a.add(names(|n| &n.tags)))
            .mut_arg("refs", |a| a.add(names(|n| &n.refs)))
    };
    cmd.mut_arg("profile", |a| {
        a.add(ArgValueCompleter::new(|current: &OsStr| {
            offer(current, &profile_names())
        }))
    })
    .mut_subcommand("issues", filters)
    .mut_subcommand("triage", |t| {
        filters(t).mut_arg("state", |a| {
            a.add(ArgValueCompleter::new(|current: &OsStr| {
                let kind = if words().iter().any(|w| w == "--agentic") {
                    Kind::Agentic
                } else {
                    Kind::Finding
                };
                let states: Vec<String> = typed(&kind.states())
                    .into_iter()
                    .map(str::to_owned)
                    .collect();
                offer(current, &states)
            }))
        })
    })
    .mut_subcommand("ticket", |t| t.mut_subcommand("create", filters))
    .mut_subcommand("remember", filters)
    .mut_subcommand("report", |r| {
        r.mut_arg("repos", |a| a.add(names(|n| &n.repositories)))
            .mut_arg("rules", |a| a.add(names(|n| &n.rules)))
            .mut_arg("teams", |a| a.add(names(|n| &n.teams)))
            .mut_arg("tags", |a| a.add(names(|n| &n.tags)))
    })
}

/// The words being completed (after the `--` the script passes).
fn words() -> Vec<OsString> {
    let args: Vec<OsString> = std::env::args_os().collect();
    match args.iter().position(|a| a == "--") {
        Some(i) => args[i + 1..].to_vec(),
        None => Vec::new(),
    }
}

/// The candidates of `known` that start with what is typed and are
/// [`names_cache::fit_for_a_shell`] (a copy kept by an older version, or a
/// profile's name, may hold anything). A list typed `a,b,c` completes its
/// last value.
fn offer(current: &OsStr, known: &[String]) -> Vec<CompletionCandidate> {
    let Some(current) = current.to_str() else {
        return Vec::new();
    };
    let (head, last) = match current.rfind(',') {
        Some(i) => current.split_at(i + 1),
        None => ("", current),
    };
    known
        .iter()
        .filter(|k| k.starts_with(last) && names_cache::fit_for_a_shell(k))
        .map(|k| CompletionCandidate::new(format!("{head}{k}")))
        .collect()
}

/// The profile the command being completed would use: its `--profile`,
/// else `FINDINGS_PROFILE`, else the config file's default profile.
fn profile() -> Option<String> {
    let words = words();
    let given = words.iter().enumerate().find_map(|(i, w)| {
        let w = w.to_str()?;
        match w.strip_prefix("--profile=") {
            Some(p) => Some(p.to_owned()),
            None if w == "--profile" => words.get(i + 1)?.to_str().map(str::to_owned),
            None => None,
        }
    });
    given
        .or_else(|| std::env::var(config::ENV_PROFILE).ok())
        .filter(|p| !p.trim().is_empty())
        .or_else(|| config_file()?.default_profile)
}

fn profile_names() -> Vec<String> {
    config_file()
        .map(|f| f.profiles.into_keys().collect())
        .unwrap_or_default()
}

fn config_file() -> Option<config::ConfigFile> {
    let path = config::config_path().ok()?;
    Some(config::load(&path).ok()??.file)
}
