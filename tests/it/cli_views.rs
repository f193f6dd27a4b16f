//! Saved views headless: `--view NAME` lists what the TUI's `:view NAME`
//! shows, flags beside it replace the view's value of their field, an
//! unknown name is a usage error naming the saved ones, and `config show`
//! lists them.

use crate::cli::Server;
use crate::common::findings;

/// As `:save` writes them (see tui_views).
const CONFIG: &str = r#"
[views.monthly-crit-high]
sort = "repo"
direction = "asc"
filters = ["severities=critical", "severities=high", "repositoryNames=acme/payments-api"]

[views.secrets]
filters = ["issueTypes=secrets"]
"#;

/// Runs the binary with `config` against `server`: code, stdout, stderr.
fn run(server: &Server, config: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    let out = findings()
        .args(args)
        .env("FINDINGS_CONFIG", config)
        .env("FINDINGS_BASE_URL", server.url())
        .env("FINDINGS_DEPLOYMENT", "1234")
        .env("FINDINGS_TOKEN", "demo-token")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_saved_view_lists_what_its_filters_as_flags_list() {
    let server = Server::start(300);
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(&config, CONFIG).unwrap();
    let listed = |args: &[&str]| {
        let args = [&["issues", "--all", "--format", "ndjson"][..], args].concat();
        let (code, stdout, stderr) = run(&server, &config, &args);
        assert_eq!(code, 0, "{args:?}: {stderr}");
        stdout
    };
    let flags = ["--repo", "acme/payments-api", "--sort", "repo", "--asc"];
    let want = listed(&[&flags[..], &["--severity", "critical,high"]].concat());
    assert!(want.lines().count() > 1, "{want}");
    assert_eq!(listed(&["--view", "monthly-crit-high"]), want);
    // A flag replaces the view's value of its field; the rest stays.
    let critical = listed(&[&flags[..], &["--severity", "critical"]].concat());
    assert!(critical.lines().count() < want.lines().count());
    assert_eq!(
        listed(&["--view", "monthly-crit-high", "--severity", "critical"]),
        critical
    );
}

#[test]
fn an_unknown_view_is_a_usage_error_naming_the_saved_ones() {
    let server = Server::start(50);
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(&config, CONFIG).unwrap();
    let (code, stdout, stderr) = run(&server, &config, &["issues", "--view", "monthly"]);
    assert_eq!((code, stdout.as_str()), (2, ""), "{stderr}");
    assert!(
        stderr.contains(
            "--view monthly: no such view (did you mean monthly-crit-high?); saved views: monthly-crit-high, secrets"
        ),
        "{stderr}"
    );
    // `config show` lists them, with their filters.
    let (code, stdout, stderr) = run(&server, &config, &["config", "show"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("[views.monthly-crit-high]"), "{stdout}");
    assert!(
        stdout.contains(r#"filters = ["severities=critical", "severities=high", "repositoryNames=acme/payments-api"]"#),
        "{stdout}"
    );
}
