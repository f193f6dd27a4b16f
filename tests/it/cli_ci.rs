//! Where nobody watches: a CI job. A diff across servers or deployments
//! is refused, `--json` fetches what it names and refuses what no
//! operation gives, and what a CI job sets by flag it may set by its
//! environment variable or in a profile.

use crate::cli::Server;
use crate::common::findings;
use findings_snapshot::{Header, Writer};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// An empty snapshot recorded as of `base_url` and `deployment`.
fn snapshot_of(dir: &Path, name: &str, base_url: &str, deployment: &str) -> PathBuf {
    let path = dir.join(name);
    let header = Header::new(
        crate::common::anchor(),
        base_url,
        deployment,
        &findings_model::ListIssuesRequest::default(),
    );
    let file = std::fs::File::create(&path).unwrap();
    Writer::new(file, &header).unwrap().finish().unwrap();
    path
}

#[test]
fn a_diff_across_servers_or_deployments_is_refused_naming_both_unless_forced() {
    let server = Server::start(60);
    let url = server.url();
    let dir = tempfile::tempdir().unwrap();
    let text = |p: PathBuf| p.to_str().unwrap().to_owned();
    let elsewhere = text(snapshot_of(
        dir.path(),
        "elsewhere.snap",
        "https://findings.example.com",
        "1234",
    ));
    let other = text(snapshot_of(dir.path(), "other.snap", &url, "5678"));
    let here = text(snapshot_of(dir.path(), "here.snap", &url, "1234"));
    // This machine on another port (the demo, a port-forward): the same.
    let moved = text(snapshot_of(
        dir.path(),
        "moved.snap",
        "http://localhost:9",
        "1234",
    ));

    // Against the live side: another server, another deployment.
    let (code, stdout, stderr) = server.run(&["diff", &elsewhere, "--format", "ndjson"]);
    assert_eq!((code, stdout.as_str()), (2, ""), "{stderr}");
    assert!(
        stderr.contains("https://findings.example.com, deployment 1234")
            && stderr.contains(&format!("{url}, deployment 1234"))
            && stderr.contains("another server")
            && stderr.contains("--force"),
        "{stderr}"
    );
    let (code, _, stderr) = server.run(&["diff", &other, "--format", "ndjson"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("deployment 5678") && stderr.contains("another deployment"),
        "{stderr}"
    );
    // --force compares anyway, and says so.
    let (code, stdout, stderr) = server.run(&["diff", &elsewhere, "--force", "--format", "ndjson"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("compared anyway (--force)"), "{stderr}");
    assert!(stdout.lines().count() > 0, "every live finding is new");
    // Two files of different deployments or servers; the same, and this
    // machine on another port, are compared.
    for (old, new) in [(&other, &here), (&here, &elsewhere)] {
        let (code, _, stderr) = server.run(&["diff", old, new, "--format", "ndjson"]);
        assert_eq!(code, 2, "{old} {new}: {stderr}");
        assert!(stderr.contains("--force"), "{stderr}");
    }
    for args in [
        vec!["diff", &here, &moved],
        vec!["diff", &moved],
        vec!["diff", &here],
    ] {
        let (code, _, stderr) = server.run(&[&args[..], &["--format", "ndjson"]].concat());
        assert_eq!(code, 0, "{args:?}: {stderr}");
        assert!(!stderr.contains("warning"), "{stderr}");
    }
}

#[test]
fn json_fetches_the_fields_it_names_and_refuses_those_the_command_never_has() {
    let server = Server::start(60);
    // The fields a list gives only when asked: asked for, as gh does.
    let fields = "id,remediation,activityHistory,isArchived,firstDetectedAt";
    let (code, stdout, stderr) = server.run(&["issues", "--all", "--json", fields]);
    assert_eq!(code, 0, "{stderr}");
    let items: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(items.len(), crate::common::listed(60), "{stdout}");
    for item in &items {
        assert!(item["firstDetectedAt"].is_string(), "{item}");
        assert!(item["isArchived"].is_boolean(), "{item}");
        assert!(item["activityHistory"].is_array(), "{item}");
    }
    assert!(items.iter().any(|i| i["remediation"].is_object()));
    // A --jq expression that reads one asks for it too.
    let (code, stdout, stderr) = server.run(&[
        "issues",
        "--all",
        "--jq",
        "select(.remediation != null and .isArchived != null) | .id",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.lines().count() > 0, "{stdout}");
    // A field only the single-issue fetch gives: refused in a list,
    // naming where it is, without it in the fields offered.
    let (code, stdout, stderr) = server.run(&["issues", "--json", "id,ruleDisplayName"]);
    assert_eq!((code, stdout.as_str()), (2, ""), "{stderr}");
    assert!(
        stderr.contains("--json ruleDisplayName")
            && stderr.contains("findings show ID --json ruleDisplayName")
            && stderr.contains("Available fields:\n  activityHistory"),
        "{stderr}"
    );
    let offered = |command: &[&str]| {
        let (_, listed, _) = server.run(&[command, &["--json"]].concat());
        listed
            .lines()
            .skip(1)
            .map(|l| l.trim().to_owned())
            .collect::<Vec<_>>()
    };
    let issues = offered(&["issues"]);
    assert!(!issues.contains(&"ruleDisplayName".into()), "{issues:?}");
    assert!(issues.contains(&"remediation".into()), "{issues:?}");
    // The single-issue fetch gives what Report findings does, and more.
    let (show, report) = (offered(&["show", "x"]), offered(&["report"]));
    assert!(report.iter().all(|f| show.contains(f)), "{show:?}");
    for only_show in ["codeSnippets", "remediation", "ruleDisplayName"] {
        assert!(show.contains(&only_show.into()) && !report.contains(&only_show.into()));
    }
    // `show` has it, filled.
    let id = items[0]["id"].as_str().unwrap();
    let (code, stdout, stderr) = server.run(&["show", id, "--json", "ruleDisplayName"]);
    assert_eq!(code, 0, "{stderr}");
    let shown: Value = serde_json::from_str(stdout.trim()).unwrap();
    assert!(shown["ruleDisplayName"].is_string(), "{shown}");
    // Report findings cannot ask for the includes: refused, naming issues.
    let (code, _, stderr) = server.run(&["report", "--json", "id,remediation"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("findings issues --json remediation"),
        "{stderr}"
    );
    // A deprecated field no operation returns: refused everywhere.
    let (code, _, stderr) = server.run(&["show", id, "--json", "aiExploitConditions"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("deprecated"), "{stderr}");
}

/// `config show` with `env` and the config file `config` (none: no file).
fn config_show(env: &[(&str, &str)], config: Option<&str>) -> (i32, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    if let Some(text) = config {
        std::fs::write(&path, text).unwrap();
    }
    let mut cmd = findings();
    cmd.args(["config", "show"]).env("FINDINGS_CONFIG", &path);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The line of `key` in `config show`'s output, its spaces squeezed.
fn setting(shown: &str, key: &str) -> String {
    let line = shown
        .lines()
        .find(|l| l.starts_with(&format!("{key} = ")))
        .unwrap_or_else(|| panic!("no {key}: {shown}"));
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn the_timeouts_and_progress_have_an_environment_variable_and_a_profile_key() {
    // The profile's keys, once refused as unknown.
    let profile = "default_profile = \"ci\"\n[profiles.ci]\nconnect_timeout = 5\ntimeout = 120\nprogress = false\n";
    let (code, shown, stderr) = config_show(&[], Some(profile));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        setting(&shown, "connect_timeout"),
        "connect_timeout = 5 # profile ci"
    );
    assert_eq!(setting(&shown, "timeout"), "timeout = 120 # profile ci");
    assert_eq!(setting(&shown, "progress"), "progress = false # profile ci");
    // The environment beats the profile.
    let env = [
        ("FINDINGS_CONNECT_TIMEOUT", "3"),
        ("FINDINGS_TIMEOUT", "7"),
        ("FINDINGS_NO_PROGRESS", "1"),
    ];
    let (code, shown, stderr) = config_show(&env, Some(profile));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        setting(&shown, "connect_timeout"),
        "connect_timeout = 3 # FINDINGS_CONNECT_TIMEOUT"
    );
    assert_eq!(setting(&shown, "timeout"), "timeout = 7 # FINDINGS_TIMEOUT");
    assert_eq!(
        setting(&shown, "progress"),
        "progress = false # FINDINGS_NO_PROGRESS"
    );
    // Off values of FINDINGS_NO_PROGRESS leave progress on; none: defaults.
    let (_, shown, _) = config_show(&[("FINDINGS_NO_PROGRESS", "0")], None);
    assert_eq!(setting(&shown, "progress"), "progress = true # default");
    assert_eq!(setting(&shown, "timeout"), "timeout = 30 # default");
    // Read-only, for a job that must never write.
    let (_, shown, _) = config_show(&[("FINDINGS_READ_ONLY", "1")], None);
    assert_eq!(
        setting(&shown, "read_only"),
        "read_only = true # FINDINGS_READ_ONLY"
    );
    let (_, shown, _) = config_show(&[("FINDINGS_READ_ONLY", "false")], None);
    assert_eq!(setting(&shown, "read_only"), "read_only = false # default");
    // Out of range, from the environment or the file: refused (exit 2).
    let (code, _, stderr) = config_show(&[("FINDINGS_TIMEOUT", "0")], None);
    assert_eq!(code, 2, "{stderr}");
    // Named as the variable it came from, not as the flag not given.
    assert!(
        stderr.contains("'--timeout <SECS>' (from FINDINGS_TIMEOUT)"),
        "{stderr}"
    );
    let (code, _, stderr) = config_show(&[], Some("[profiles.ci]\ntimeout = 99999\n"));
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("timeout"), "{stderr}");
}

#[test]
fn findings_format_is_the_format_when_no_flag_says() {
    let server = Server::start(60);
    let run = |format: &str, args: &[&str]| {
        let out = findings()
            .args(args)
            .env("FINDINGS_BASE_URL", server.url())
            .env("FINDINGS_DEPLOYMENT", "1234")
            .env("FINDINGS_TOKEN", "demo-token")
            .env("FINDINGS_FORMAT", format)
            .output()
            .unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, stdout, stderr) = run("csv", &["issues"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("id,"), "{stdout}");
    // A flag beats it; --json prints JSON whatever it says.
    let (_, stdout, _) = run("csv", &["issues", "--format", "ndjson"]);
    assert!(stdout.starts_with('{'), "{stdout}");
    let (code, stdout, _) = run("csv", &["issues", "--json", "id"]);
    assert_eq!(code, 0);
    assert!(stdout.starts_with("{\"id\""), "{stdout}");
    // One the command does not take: a usage error naming it.
    let (code, _, stderr) = run("html", &["issues"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("FINDINGS_FORMAT"), "{stderr}");
}

#[test]
fn read_only_and_the_log_file_have_environment_variables_too() {
    let server = Server::start(60);
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("requests.log");
    let out = findings()
        .args(["triage", "100042", "--state", "ignored", "--yes"])
        .env("FINDINGS_BASE_URL", server.url())
        .env("FINDINGS_DEPLOYMENT", "1234")
        .env("FINDINGS_TOKEN", "demo-token")
        .env("FINDINGS_READ_ONLY", "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("read-only is set (FINDINGS_READ_ONLY)"),
        "{stderr}"
    );
    let out = findings()
        .args(["issues", "--json", "id"])
        .env("FINDINGS_BASE_URL", server.url())
        .env("FINDINGS_DEPLOYMENT", "1234")
        .env("FINDINGS_TOKEN", "demo-token")
        .env("FINDINGS_LOG_FILE", &log)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let logged = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(logged.contains("/issues"), "{logged}");
}
