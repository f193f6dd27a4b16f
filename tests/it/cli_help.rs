//! What the command line tells about itself: each command's help has
//! examples and only the global flags that apply to it, the man pages have
//! every section and name only pages that exist, and completion offers
//! profile names, the names a listing kept, and the states that fit.

use crate::cli::{NO_ENV, Server, completed};
use crate::common::findings;
use std::path::Path;

fn help(path: &[&str]) -> String {
    let out = findings().args(path).arg("--help").output().unwrap();
    assert!(out.status.success(), "{path:?}: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn each_command_has_examples_and_only_the_global_flags_that_apply() {
    for path in [
        &[][..],
        &["issues"],
        &["report"],
        &["search"],
        &["show"],
        &["scm"],
        &["scm", "list"],
        &["scm", "update"],
        &["triage"],
        &["gate"],
        &["demo", "serve"],
        &["config", "show"],
        &["config", "path"],
        &["completions"],
        &["man"],
        &["auth", "login"],
        &["auth", "status"],
        &["auth", "logout"],
    ] {
        let text = help(path);
        let at = text
            .find("Examples:\n  # ")
            .unwrap_or_else(|| panic!("{path:?} has no examples:\n{text}"));
        assert!(text[at..].contains("findings "), "{path:?}:\n{text}");
    }
    let serve = help(&["demo", "serve"]);
    for flag in ["--theme", "--base-url", "--read-only", "--timeout"] {
        assert!(!serve.contains(flag), "{flag} under demo serve:\n{serve}");
    }
    assert!(
        serve.contains("`findings --help` lists them all"),
        "{serve}"
    );
    let issues = help(&["issues"]);
    assert!(
        issues.contains("--base-url") && !issues.contains("--theme"),
        "{issues}"
    );
    assert!(help(&["triage"]).contains("--read-only"));
    let root = help(&[]);
    assert!(
        root.contains("--theme") && root.contains("--read-only"),
        "{root}"
    );
}

/// The man pages `man --dir` writes.
fn man_pages(dir: &Path) -> Vec<(String, String)> {
    findings()
        .args(["man", "--dir"])
        .arg(dir)
        .assert()
        .success();
    let mut pages: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let path = e.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&path).unwrap())
        })
        .collect();
    pages.sort();
    pages
}

#[test]
fn every_man_page_has_every_section_and_names_only_pages_written() {
    let dir = tempfile::tempdir().unwrap();
    let pages = man_pages(dir.path());
    let names: Vec<&str> = pages.iter().map(|(n, _)| n.as_str()).collect();
    for expected in [
        "findings.1",
        "findings-issues.1",
        "findings-triage.1",
        "findings-demo-serve.1",
        "findings-auth-login.1",
    ] {
        assert!(names.contains(&expected), "{expected} not in {names:?}");
    }
    for (name, page) in &pages {
        for section in [
            ".SH NAME",
            ".SH SYNOPSIS",
            ".SH DESCRIPTION",
            ".SH OPTIONS",
            ".SH EXAMPLES",
            ".SH ENVIRONMENT",
            ".SH FILES",
            ".SH EXIT STATUS",
            ".SH SEE ALSO",
        ] {
            assert!(page.contains(section), "{name} has no {section}");
        }
        assert!(page.contains("FINDINGS_TOKEN"), "{name}");
        // Every page it refers to was written.
        for (at, _) in page.match_indices("\\fBfindings") {
            let rest = &page[at + 3..];
            let reference = &rest[..rest.find("\\fR(1)").unwrap()];
            let file = format!("{}.1", reference.replace("\\-", "-"));
            assert!(names.contains(&file.as_str()), "{name} refers to {file}");
        }
        assert!(!page.contains("findings\\-help"), "{name}");
    }
    // EXIT STATUS lists every code of the help's table, `--exit-code N`
    // and the partly done of a triage included.
    let root_page = &pages.iter().find(|(n, _)| n == "findings.1").unwrap().1;
    let status = &root_page[root_page.find(".SH EXIT STATUS").unwrap()..];
    let status = &status[..status.find(".SH SEE ALSO").unwrap_or(status.len())];
    for code in findings_cli::EXIT_CODES
        .lines()
        .skip(1)
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| w.chars().all(|c| c.is_ascii_digit()) || *w == "N")
    {
        assert!(
            status.contains(&format!(".TP\n\\fB{code}\\fR\n")),
            "EXIT STATUS lacks {code}: {status}"
        );
    }
    // The synopsis is the command's usage: its flags as [OPTIONS], not
    // every global flag spelled out.
    let triage = &pages
        .iter()
        .find(|(n, _)| n == "findings-triage.1")
        .unwrap()
        .1;
    let synopsis =
        &triage[triage.find(".SH SYNOPSIS").unwrap()..triage.find(".SH DESCRIPTION").unwrap()];
    assert!(synopsis.contains("findings triage [OPTIONS]"), "{synopsis}");
    assert!(!synopsis.contains("base\\-url"), "{synopsis}");
    // A page on stdout names only pages `man --dir` writes too.
    let out = findings().arg("man").output().unwrap();
    let root = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        root,
        pages.iter().find(|(n, _)| n == "findings.1").unwrap().1
    );
}

#[test]
fn completion_offers_profile_names_and_the_names_a_listing_kept() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(
        &config,
        "[profiles.work]\nbase_url = \"https://findings.example.com\"\n[profiles.ci]\n",
    )
    .unwrap();
    let state = dir.path().join("state");
    let env = [
        ("FINDINGS_CONFIG", config.as_os_str()),
        ("XDG_STATE_HOME", state.as_os_str()),
    ];
    assert_eq!(
        completed(&["findings", "--profile", ""], &env),
        ["ci", "work"]
    );
    assert_eq!(
        completed(&["findings", "issues", "--profile", "w"], &env),
        ["work"]
    );
    // Nothing kept yet: no repository names.
    assert!(completed(&["findings", "issues", "--repo", ""], &env).is_empty());
    {
        // A listing that checks a name keeps the deployment's names.
        let server = Server::start(200);
        let out = findings()
            .args(["issues", "--repo", "acme/payments-api", "--max", "1"])
            .args(["--base-url", &server.url(), "--deployment", "1234"])
            .env("FINDINGS_TOKEN", "demo-token")
            .env("XDG_STATE_HOME", &state)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
    }
    // The server is gone: completion reads the copy, never the network.
    let repos = completed(&["findings", "issues", "--repo", "acme/pay"], &env);
    assert!(repos.contains(&"acme/payments-api".to_owned()), "{repos:?}");
    assert!(repos.iter().all(|r| r.starts_with("acme/pay")), "{repos:?}");
    // A list typed a,b completes its last value.
    let listed = completed(&["findings", "issues", "--repo", "acme/x,acme/pay"], &env);
    assert!(
        listed.contains(&"acme/x,acme/payments-api".to_owned()),
        "{listed:?}"
    );
    let rules = completed(&["findings", "triage", "--rule", "use-of-m"], &env);
    assert!(rules.contains(&"use-of-md5".to_owned()), "{rules:?}");
    assert!(!completed(&["findings", "report", "--team", ""], &env).is_empty());
    // Kept per profile: another profile's are not offered.
    assert!(
        completed(
            &["findings", "--profile", "work", "issues", "--repo", ""],
            &env
        )
        .is_empty()
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let kept = state.join("findings").join("names").join("default.json");
        let mode = std::fs::metadata(&kept).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "{}", kept.display());
    }
}

/// Names a hostile server gave (kept by an older version, or written by
/// hand) are never offered when a shell would read them as more than a
/// word: Enter after Tab must run only what the user typed.
#[test]
fn completion_never_offers_a_name_a_shell_would_run() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let names = state.join("findings").join("names");
    std::fs::create_dir_all(&names).unwrap();
    let hostile = [
        "x;touch${IFS}/tmp/p",
        "$(id)",
        "`id`",
        "a|b",
        "a&&b",
        "*",
        "a b",
        "a\u{202e}b",
        "a\u{200b}b",
    ];
    let mut all: Vec<&str> = hostile.to_vec();
    all.extend(["acme/api", "feature/x-1.2"]);
    let kept = serde_json::json!({ "repositories": all, "refs": all });
    std::fs::write(names.join("default.json"), kept.to_string()).unwrap();
    let env = [
        (
            "FINDINGS_CONFIG",
            dir.path().join("none.toml").into_os_string(),
        ),
        ("XDG_STATE_HOME", state.into_os_string()),
    ];
    for flag in ["--repo", "--ref"] {
        let offered = completed(&["findings", "issues", flag, ""], &env);
        assert_eq!(offered, ["acme/api", "feature/x-1.2"], "{flag}");
        for typed in ["x", "$", "a", "`", "*"] {
            let offered = completed(&["findings", "issues", flag, typed], &env);
            assert!(
                offered.iter().all(|o| !hostile.contains(&o.as_str())),
                "{flag} {typed}: {offered:?}"
            );
        }
    }
}

#[test]
fn triage_state_completion_offers_the_states_of_the_kind() {
    assert_eq!(
        completed(&["findings", "triage", "--state", ""], &NO_ENV).join(" "),
        "ignored reviewing fixing reopened provisionally-ignored untriaged"
    );
    assert_eq!(
        completed(&["findings", "triage", "--agentic", "--state", ""], &NO_ENV).join(" "),
        "ignored reviewing fixing reopened provisionally-ignored open fixed"
    );
}
