//! What each command's help and man page say beyond its flags: examples,
//! and which global flags apply to it. The command line is the derived
//! [`Cli`] decorated here ([`command`]), so parsing, `--help`, the man
//! pages and completion all see the same thing.
//!
//! A global flag that does not apply to a command (`--theme` under `demo
//! serve`) is hidden there: clap copies every global flag into every
//! subcommand, unless the subcommand already has one of that id, so each
//! subcommand gets its own copy, hidden where it does not apply. It is
//! still accepted (as before); `findings --help` lists every one.

use super::Cli;
use clap::{Arg, Command, CommandFactory};

/// The flags that say where and how to connect.
const CONNECT: &[&str] = &[
    "base_url",
    "deployment",
    "allow_http",
    "connect_timeout",
    "timeout",
    "profile",
    "log_file",
];

/// The global flags that apply to the command at `path` (its names after
/// `findings`), by id; `None`: all of them.
fn globals_of(path: &[&str]) -> Option<Vec<&'static str>> {
    let writes = || [CONNECT, &["read_only"]].concat();
    match path {
        [] | ["config"] | ["config", "show"] => None,
        ["issues" | "expired" | "report" | "search" | "show" | "gate"] | ["scm", "list"] => {
            Some(CONNECT.to_vec())
        }
        ["scm" | "triage"] | ["scm", "update"] => Some(writes()),
        ["ticket", ..] | ["fix" | "feedback" | "remember"] => Some(writes()),
        ["auth", ..] => Some(CONNECT.to_vec()),
        _ => Some(Vec::new()),
    }
}

/// A command's examples: `(what it does, the command)`.
type Examples = &'static [(&'static str, &'static str)];

/// The examples of the command at `path`, one table per command below.
pub fn examples(path: &[&str]) -> Examples {
    match path {
        [] => TOP_LEVEL_EXAMPLES,
        ["issues"] => ISSUES_EXAMPLES,
        ["report"] => REPORT_EXAMPLES,
        ["search"] => SEARCH_EXAMPLES,
        ["show"] => SHOW_EXAMPLES,
        ["scm"] | ["scm", "list"] => SCM_LIST_EXAMPLES,
        ["scm", "update"] => SCM_UPDATE_EXAMPLES,
        ["triage"] => TRIAGE_EXAMPLES,
        ["ticket"] | ["ticket", "create"] => TICKET_CREATE_EXAMPLES,
        ["ticket", "instances"] => TICKET_INSTANCES_EXAMPLES,
        ["ticket", "link"] => TICKET_LINK_EXAMPLES,
        ["ticket", "unlink"] => TICKET_UNLINK_EXAMPLES,
        ["fix"] => FIX_EXAMPLES,
        ["feedback"] => FEEDBACK_EXAMPLES,
        ["remember"] => REMEMBER_EXAMPLES,
        ["snapshot"] | ["snapshot", "save"] => SNAPSHOT_SAVE_EXAMPLES,
        ["snapshot", "show"] => SNAPSHOT_SHOW_EXAMPLES,
        ["expired"] => EXPIRED_EXAMPLES,
        ["diff"] => DIFF_EXAMPLES,
        ["gate"] => GATE_EXAMPLES,
        ["demo"] | ["demo", "serve"] => DEMO_SERVE_EXAMPLES,
        ["config"] | ["config", "show"] => CONFIG_SHOW_EXAMPLES,
        ["config", "path"] => CONFIG_PATH_EXAMPLES,
        ["config", "init"] => CONFIG_INIT_EXAMPLES,
        ["completions"] => COMPLETIONS_EXAMPLES,
        ["man"] => MAN_EXAMPLES,
        ["auth"] | ["auth", "login"] => AUTH_LOGIN_EXAMPLES,
        ["auth", "status"] => AUTH_STATUS_EXAMPLES,
        ["auth", "logout"] => AUTH_LOGOUT_EXAMPLES,
        _ => &[],
    }
}

/// The examples of `findings`.
const TOP_LEVEL_EXAMPLES: Examples = &[
    (
        "The TUI (on the embedded demo server when nothing is configured)",
        "findings",
    ),
    (
        "The open criticals, as a table or, piped, one JSON object per line",
        "findings issues --severity critical --state open",
    ),
    (
        "Keep a deployment's token in the desktop's secret store",
        "findings --profile work auth login",
    ),
];

/// The examples of `findings issues`.
const ISSUES_EXAMPLES: Examples = &[
    (
        "The open criticals of one repository, newest first",
        "findings issues --repo acme/payments-api --severity critical --state open",
    ),
    (
        "Every finding, one JSON object per line (pages of 1000)",
        "findings issues --all > findings.ndjson",
    ),
    (
        "Every MD5 finding, by the rule name the table shows, as CSV",
        "findings issues --rule use-of-md5 --all -o md5.csv",
    ),
];

/// The examples of `findings report`.
const REPORT_EXAMPLES: Examples = &[
    (
        "Critical code findings of the dashboard report, with the totals",
        "findings report --severity critical --type code --all --format json",
    ),
    (
        "Findings created in the last week, as CSV",
        "findings report --report-type total-open --since 7d --all -o week.csv",
    ),
    (
        "The top rules and repositories of the month: by findings opened in the last 30 days, beside the open backlog at its end",
        "findings report --kind opened --period 30d --max 5",
    ),
];

/// The examples of `findings search`.
const SEARCH_EXAMPLES: Examples = &[(
    "Agentic-workflow issues about tokens, oldest first",
    "findings search --title token --sort created --asc --all",
)];

/// The examples of `findings show`.
const SHOW_EXAMPLES: Examples = &[
    (
        "One finding as the TUI's detail shows it",
        "findings show 100042",
    ),
    (
        "As Markdown, for a ticket",
        "findings show 100042 --format markdown -o finding.md",
    ),
];

/// The examples of `findings scm` or `findings scm list`.
const SCM_LIST_EXAMPLES: Examples = &[
    (
        "The SCM configs with their current values",
        "findings scm list",
    ),
    ("As JSON, for a script", "findings scm list --format json"),
];

/// The examples of `findings scm update`.
const SCM_UPDATE_EXAMPLES: Examples = &[
    (
        "Turn on diff-aware scans (shows the body, asks first)",
        "findings scm update 1001 --diff-scan on",
    ),
    (
        "Rotate the access token from a password manager, without a prompt",
        "pass show scm/pat | findings scm update 1001 --access-token-stdin --yes",
    ),
];

/// The examples of `findings triage`.
const TRIAGE_EXAMPLES: Examples = &[
    (
        "Ignore two findings as false positives (shows the body, asks first)",
        "findings triage 100042,100057 --state ignored --reason false-positive",
    ),
    (
        "Accept a risk for 90 days; `findings expired` lists it after",
        "findings triage 100042 --state ignored --reason acceptable-risk --ignore-until 90d",
    ),
    (
        "Every open low finding of a repository: counted, shown, asked",
        "findings triage --repo acme/legacy-app --severity low --current-state open --state fixing",
    ),
    (
        "From CI: above triage_confirm_above (50), --yes needs the exact count",
        "findings triage --repo acme/legacy-app --severity low --state fixing --yes --count 120",
    ),
    (
        "Ids from another command; the question comes from the terminal",
        "findings issues --rule use-of-md5 --all | jq -r .issue.id | findings triage - --state fixing",
    ),
    (
        "Mark an agentic-workflow issue fixed, from a script",
        "findings triage agw-07001 --agentic --state fixed --yes",
    ),
];

/// The examples of `findings ticket` or `findings ticket create`.
const TICKET_CREATE_EXAMPLES: Examples = &[
    (
        "One grouped ticket for every finding of a rule in a repository (shows the body, asks first)",
        "findings ticket create --rule use-of-md5 --repo acme/payments-api --group",
    ),
    (
        "A ticket for each of two findings, through instance 7001, from a script",
        "findings ticket create 100042,100057 --instance 7001 --yes --format json",
    ),
];

/// The examples of `findings ticket instances`.
const TICKET_INSTANCES_EXAMPLES: Examples = &[(
    "The ticketing instances, and which can take tickets",
    "findings ticket instances",
)];

/// The examples of `findings ticket link`.
const TICKET_LINK_EXAMPLES: Examples = &[(
    "Attach an existing ticket to two findings",
    "findings ticket link https://tickets.example.com/browse/SEC-77 100042 100057",
)];

/// The examples of `findings ticket unlink`.
const TICKET_UNLINK_EXAMPLES: Examples = &[(
    "Detach two findings from their tickets",
    "findings ticket unlink 100042,100057",
)];

/// The examples of `findings fix`.
const FIX_EXAMPLES: Examples = &[(
    "Ask for a fix pull request (the dialog says which operation)",
    "findings fix 100042",
)];

/// The examples of `findings feedback`.
const FEEDBACK_EXAMPLES: Examples = &[(
    "Disagree with the AI verdict, saying why",
    "findings feedback 100042 --disagree --note \"the input is validated upstream\"",
)];

/// The examples of `findings remember`.
const REMEMBER_EXAMPLES: Examples = &[(
    "Remember a false-positive decision for one rule in one repository",
    "findings remember --note \"test fixtures only\" --rule use-of-md5 --repo acme/payments-api",
)];

/// The examples of `findings snapshot` or `findings snapshot save`.
const SNAPSHOT_SAVE_EXAMPLES: Examples = &[
    (
        "Every finding of a repository, kept for a later diff",
        "findings snapshot save --repo acme/api -o release-1.4.snap",
    ),
    (
        "The open criticals only",
        "findings snapshot save --severity critical --state open -o criticals.snap",
    ),
];

/// The examples of `findings snapshot show`.
const SNAPSHOT_SHOW_EXAMPLES: Examples = &[
    (
        "What a snapshot holds: its filter, time, counts",
        "findings snapshot show release-1.4.snap",
    ),
    (
        "As JSON",
        "findings snapshot show release-1.4.snap --format json",
    ),
];

/// The examples of `findings expired`.
const EXPIRED_EXAMPLES: Examples = &[
    (
        "The ignores whose --ignore-until has passed",
        "findings expired",
    ),
    (
        "A CI gate on expired ignores of one repository",
        "findings expired --repo acme/api --exit-code 3",
    ),
];

/// The examples of `findings gate`.
const GATE_EXAMPLES: Examples = &[
    (
        "A pull request: what its branch brings that the primary branch has not",
        "findings gate --summary comment.md --junit gate.xml",
    ),
    (
        "On the primary branch: save a baseline for later gates",
        "findings gate --ref main --save-baseline main.snap",
    ),
    (
        "What is new or reopened since that baseline",
        "findings gate --baseline main.snap --sarif gate.sarif",
    ),
];

/// The examples of `findings diff`.
const DIFF_EXAMPLES: Examples = &[
    (
        "What changed since the snapshot, live, with its filter",
        "findings diff release-1.4.snap",
    ),
    (
        "A CI gate: exit 3 when anything is new",
        "findings diff release-1.4.snap --category new --exit-code 3",
    ),
    (
        "Two snapshots, as a pull-request comment",
        "findings diff old.snap new.snap --format markdown -o comment.md",
    ),
];

/// The examples of `findings demo` or `findings demo serve`.
const DEMO_SERVE_EXAMPLES: Examples = &[
    (
        "A demo API of 20,000 findings on port 8787",
        "findings demo serve --findings 20000",
    ),
    (
        "The first page loads, the next never answers",
        "findings demo serve --fault hang --fault-after 1",
    ),
    (
        "The same data two weeks on, for `findings diff`",
        "findings demo serve --days-later 14",
    ),
];

/// The examples of `findings config` or `findings config show`.
const CONFIG_SHOW_EXAMPLES: Examples = &[
    (
        "The settings in force and where each comes from",
        "findings config show",
    ),
    (
        "Those of another profile",
        "findings --profile work config show",
    ),
];

/// The examples of `findings config path`.
const CONFIG_PATH_EXAMPLES: Examples = &[(
    "Edit the config file",
    "$EDITOR \"$(findings config path)\"",
)];

/// The examples of `findings config init`.
const CONFIG_INIT_EXAMPLES: Examples = &[("Start a config file", "findings config init")];

/// The examples of `findings completions`.
const COMPLETIONS_EXAMPLES: Examples = &[
    (
        "Bash, for this shell (add it to ~/.bashrc)",
        "source <(findings completions bash)",
    ),
    (
        "Fish",
        "findings completions fish > ~/.config/fish/completions/findings.fish",
    ),
];

/// The examples of `findings man`.
const MAN_EXAMPLES: Examples = &[
    ("Read the page", "findings man | man -l -"),
    (
        "Install a page per command",
        "findings man --dir ~/.local/share/man/man1",
    ),
];

/// The examples of `findings auth` or `findings auth login`.
const AUTH_LOGIN_EXAMPLES: Examples = &[
    (
        "Store a profile's token, typed without echo",
        "findings --profile work auth login",
    ),
    (
        "From a password manager",
        "pass show findings/work | findings --profile work auth login",
    ),
];

/// The examples of `findings auth status`.
const AUTH_STATUS_EXAMPLES: Examples = &[(
    "Where the token comes from, checked against the deployment",
    "findings --profile work auth status",
)];

/// The examples of `findings auth logout`.
const AUTH_LOGOUT_EXAMPLES: Examples = &[(
    "Forget a profile's stored token",
    "findings --profile work auth logout",
)];

/// The examples as `--help` ends with them.
fn examples_text(path: &[&str]) -> String {
    let mut text = String::from("Examples:");
    for (what, example) in examples(path) {
        text.push_str(&format!("\n  # {what}\n  {example}"));
    }
    text
}

/// Said under a command whose help leaves global flags out.
const GLOBALS_NOTE: &str = "Global options that do not apply to this command are not listed; `findings --help` lists them all.";

/// The command line: the derived one with examples under each command's
/// help, and each global flag hidden where it does not apply.
pub fn command() -> Command {
    let root = super::complete::with_completers(Cli::command());
    let globals: Vec<Arg> = root
        .get_arguments()
        .filter(|a| a.is_global_set())
        .cloned()
        .collect();
    decorate(root, &[], &globals)
}

fn decorate(mut cmd: Command, path: &[&str], globals: &[Arg]) -> Command {
    let applies = globals_of(path);
    if !path.is_empty() {
        // This command's own copy of each global flag, hidden where it
        // does not apply (clap then propagates no other).
        for global in globals {
            let shown = applies
                .as_ref()
                .is_none_or(|ids| ids.contains(&global.get_id().as_str()));
            cmd = cmd.arg(global.clone().hide(!shown));
        }
    }
    let mut after = cmd
        .get_after_help()
        .map(|h| format!("{h}\n\n"))
        .unwrap_or_default();
    after.push_str(&examples_text(path));
    if applies.is_some_and(|ids| ids.len() < globals.len()) {
        after.push_str(&format!("\n\n{GLOBALS_NOTE}"));
    }
    cmd = cmd.after_help(after);
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_owned())
        .collect();
    for name in names {
        let sub_path = [path, &[name.as_str()]].concat();
        cmd = cmd.mut_subcommand(&name, |sub| decorate(sub, &sub_path, globals));
    }
    cmd
}

/// Every command's path (the names after `findings`), the root first.
pub fn paths(cmd: &Command) -> Vec<Vec<String>> {
    fn walk(cmd: &Command, path: Vec<String>, out: &mut Vec<Vec<String>>) {
        out.push(path.clone());
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
            if sub.get_name() == "help" {
                continue;
            }
            let mut p = path.clone();
            p.push(sub.get_name().to_owned());
            walk(sub, p, out);
        }
    }
    let mut out = Vec::new();
    walk(cmd, Vec::new(), &mut out);
    out
}

/// A bad value that came from a flag's environment variable, not the
/// command line: clap's error names the flag, so it is told which
/// variable (`'--timeout <SECS>' (from FINDINGS_TIMEOUT)`).
pub(super) fn naming_the_variable(e: &clap::Error, text: String) -> String {
    use clap::error::{ContextKind, ContextValue};
    let (Some(ContextValue::String(arg)), Some(ContextValue::String(value))) = (
        e.get(ContextKind::InvalidArg),
        e.get(ContextKind::InvalidValue),
    ) else {
        return text;
    };
    let given: Vec<String> = std::env::args().collect();
    let from_env = command().get_arguments().find_map(|a| {
        let long = format!("--{}", a.get_long()?);
        let var = a.get_env()?;
        let on_line = given
            .iter()
            .any(|g| g == &long || g.starts_with(&format!("{long}=")));
        let same = std::env::var_os(var).is_some_and(|v| v.to_string_lossy() == *value);
        (arg.starts_with(&format!("{long} ")) && same && !on_line)
            .then(|| var.to_string_lossy().into_owned())
    });
    match from_env {
        Some(var) => text.replacen(&format!("'{arg}'"), &format!("'{arg}' (from {var})"), 1),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_has_examples() {
        let cmd = command();
        for path in paths(&cmd) {
            let path: Vec<&str> = path.iter().map(String::as_str).collect();
            assert!(!examples(&path).is_empty(), "no examples for {path:?}");
            for (_, example) in examples(&path) {
                assert!(example.contains("findings"), "{example}");
            }
        }
    }

    #[test]
    fn a_command_lists_only_the_global_flags_that_apply_to_it() {
        let mut cmd = command();
        let help = |cmd: &mut Command, path: &[&str]| {
            let mut sub = cmd.clone();
            sub.build();
            let mut at = &mut sub;
            for name in path {
                at = at.find_subcommand_mut(name).unwrap();
            }
            at.render_long_help().to_string()
        };
        let serve = help(&mut cmd, &["demo", "serve"]);
        for flag in ["--theme", "--base-url", "--read-only", "--profile"] {
            assert!(!serve.contains(flag), "{flag} under demo serve:\n{serve}");
        }
        assert!(serve.contains("Examples:") && serve.contains(GLOBALS_NOTE));
        let issues = help(&mut cmd, &["issues"]);
        assert!(issues.contains("--base-url") && issues.contains("--profile"));
        assert!(!issues.contains("--theme") && !issues.contains("--read-only"));
        let triage = help(&mut cmd, &["triage"]);
        assert!(triage.contains("--read-only") && !triage.contains("--theme"));
        let root = help(&mut cmd, &[]);
        assert!(root.contains("--theme") && root.contains("--read-only"));
        // Hidden, a global flag is still taken where it does not apply.
        let parsed =
            command().try_get_matches_from(["findings", "demo", "serve", "--theme", "dark"]);
        assert!(parsed.is_ok(), "{parsed:?}");
    }
}
