use super::*;
use clap::Parser;
use findings_export::Format;

/// Every flag with values offered to shell completion, as the argv
/// prefix that reaches it (subcommands and required positionals), the
/// flag, and the values.
fn offered() -> Vec<(Vec<String>, String, Vec<String>)> {
    fn walk(
        cmd: &clap::Command,
        path: Vec<String>,
        out: &mut Vec<(Vec<String>, String, Vec<String>)>,
    ) {
        // Global flags once, at the top.
        let args = cmd
            .get_arguments()
            .filter(|a| a.get_action().takes_values())
            .filter(|a| path.len() == 1 || !a.is_global_set());
        for arg in args {
            let (Some(long), Some(values)) =
                (arg.get_long(), arg.get_value_parser().possible_values())
            else {
                continue;
            };
            let values = values
                .filter(|v| !v.is_hide_set())
                .map(|v| v.get_name().to_owned());
            out.push((path.clone(), format!("--{long}"), values.collect()));
        }
        for sub in cmd.get_subcommands() {
            let mut path = path.clone();
            path.push(sub.get_name().to_owned());
            if sub.get_positionals().any(|p| p.is_required_set()) {
                path.push("1001".into());
            }
            walk(sub, path, out);
        }
    }
    let mut cmd = super::help::command();
    cmd.build();
    let mut out = Vec::new();
    walk(&cmd, vec!["findings".into()], &mut out);
    out
}

#[test]
fn fixed_set_flags_offer_their_values_and_accept_each() {
    let offered = offered();
    let flags: Vec<(String, &str)> = offered
        .iter()
        .map(|(path, flag, _)| (path[1..].join(" "), flag.as_str()))
        .collect();
    for expected in [
        ("", "--theme"),
        ("issues", "--format"),
        ("issues", "--sort"),
        ("issues", "--type"),
        ("issues", "--include"),
        ("report", "--report-type"),
        ("report", "--finding-state"),
        ("report", "--severity"),
        ("report", "--type"),
        ("search", "--sort"),
        ("search", "--format"),
        ("scm update 1001", "--format"),
        ("scm update 1001", "--auto-scan"),
        ("demo serve", "--fault"),
        ("triage", "--state"),
        ("triage", "--reason"),
        ("triage", "--format"),
        ("triage", "--current-state"),
        ("triage", "--severity"),
        ("snapshot save", "--severity"),
        ("diff 1001", "--category"),
        ("diff 1001", "--format"),
        ("ticket create", "--format"),
        ("ticket create", "--severity"),
        ("fix 1001", "--format"),
        ("remember", "--type"),
    ] {
        assert!(
            flags.iter().any(|(p, f)| (p.as_str(), *f) == expected),
            "{expected:?} offers no values: {flags:?}"
        );
    }
    for (path, flag, values) in &offered {
        assert!(!values.is_empty(), "{path:?} {flag}");
        for value in values {
            let mut argv = path.clone();
            argv.extend([flag.clone(), value.clone()]);
            if flag == "--fail-status" {
                // It needs the rate of the failures it is the status of.
                argv.extend(["--fail-rate".into(), "0.5".into()]);
            }
            if path.get(2).is_some_and(|p| p == "save") {
                // The file is required.
                argv.extend(["-o".into(), "x.snap".into()]);
            }
            if path.get(1).is_some_and(|p| p == "feedback") {
                argv.push("--agree".into());
            }
            if path.get(1).is_some_and(|p| p == "remember") {
                argv.extend(["--note".into(), "n".into()]);
            }
            if path.get(1).is_some_and(|p| p == "triage") && flag != "--state" {
                // The state is required; ignored takes every reason.
                argv.extend(["--state".into(), "ignored".into()]);
            }
            let cli = Cli::try_parse_from(&argv)
                .unwrap_or_else(|e| panic!("{argv:?} does not parse: {e}"));
            accepted(cli, flag, value).unwrap_or_else(|e| panic!("{argv:?}: {e}"));
        }
    }
}

/// No names to check against (what a flag takes is the question here).
fn unchecked() -> super::listing::Names<'static> {
    super::listing::Names::unchecked(&[])
}

/// Whether the command takes `value` for `flag` past clap: the checks
/// the flag's own code makes.
fn accepted(cli: Cli, flag: &str, value: &str) -> Result<(), String> {
    let usage = |e: UsageError| e.0;
    if flag == "--theme" {
        findings_config::theme_file::BuiltinTheme::named(value)?;
    }
    if flag == "--format" && Format::parse(value).is_none() {
        return Err(format!("unknown format {value}"));
    }
    match cli.command {
        Some(Command::Issues(args)) => args.request(&unchecked()).map(drop).map_err(usage),
        Some(Command::Report(args)) => args.request(&unchecked()).map(drop).map_err(usage),
        // `search` names SARIF among the formats and refuses it, saying
        // why.
        Some(Command::Search(_)) if value == "sarif" => Ok(()),
        Some(Command::Search(args)) => args.request(&unchecked()).map(drop).map_err(usage),
        Some(Command::Scm { .. }) => {
            // With something to change, so that only the flag is judged.
            let mut argv = vec!["findings", "scm", "update", "1001", "--namespace", "ns"];
            argv.extend(["--yes", flag, value]);
            let cli = Cli::try_parse_from(&argv).map_err(|e| e.to_string())?;
            let Some(Command::Scm {
                command: scm::ScmCommand::Update(args),
            }) = cli.command
            else {
                unreachable!()
            };
            scm::prepare(args).map(drop).map_err(|e| format!("{e:?}"))
        }
        // A value of either kind: findings, else agentic-workflow issues.
        Some(Command::Snapshot {
            command: snapshot::SnapshotCommand::Save(args),
        }) => args.request(&unchecked()).map(drop).map_err(usage),
        Some(Command::Diff(args)) => args
            .format()
            .and_then(|_| args.categories())
            .map(drop)
            .map_err(usage),
        Some(Command::Triage(_)) => {
            let state = if flag == "--state" { value } else { "ignored" };
            // A decision's flags with an id; a filter's flags choose the
            // findings themselves.
            let decision = ["--state", "--reason", "--format"].contains(&flag);
            let mut base = vec!["findings", "triage", "--yes", "--state", state];
            if decision {
                base.insert(2, "1001");
            }
            let prepared = |agentic: bool| {
                let mut argv = base.clone();
                if flag != "--state" {
                    argv.extend([flag, value]);
                }
                if agentic {
                    argv.push("--agentic");
                }
                let cli = Cli::try_parse_from(&argv).map_err(|e| e.to_string())?;
                let Some(Command::Triage(args)) = cli.command else {
                    unreachable!()
                };
                triage::prepare(args)
                    .map(drop)
                    .map_err(|e| format!("{e:?}"))
            };
            prepared(false).or_else(|_| prepared(true))
        }
        _ => Ok(()),
    }
}

/// What `offer` changes is completion only: any text still reaches the
/// flag's own check, which names the valid values as before.
#[test]
fn offering_values_leaves_parsing_to_the_flag() {
    let cli = Cli::try_parse_from(["findings", "issues", "--sort", "SORT_BY_SEVERITY"]).unwrap();
    let Some(Command::Issues(args)) = cli.command else {
        unreachable!()
    };
    assert_eq!(
        args.request(&unchecked()).unwrap().sort_by,
        Some(findings_model::SortBy::Severity)
    );
    let cli = Cli::try_parse_from(["findings", "issues", "--sort", "colour"]).unwrap();
    let Some(Command::Issues(args)) = cli.command else {
        unreachable!()
    };
    let e = args.request(&unchecked()).unwrap_err();
    assert!(
        e.0.starts_with("unknown sort field \"colour\"; valid: severity, ref"),
        "{}",
        e.0
    );
}
