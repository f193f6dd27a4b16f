//! Fail closed where nobody watches: demo data never stands in for a
//! deployment someone meant, nor reaches a pipe or a CI log unasked.

use crate::common::findings;
use predicates::prelude::*;

/// The CI job whose URL variable is unset: a token and a deployment are
/// set, the base URL is empty. Before, it wrote the demo's findings of
/// deployment 1234 to the SARIF file and exited 0.
#[test]
fn an_empty_base_url_with_a_token_and_a_deployment_is_refused_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("findings.sarif");
    findings()
        .env("FINDINGS_BASE_URL", "")
        .env("FINDINGS_TOKEN", "real-secret")
        .env("FINDINGS_DEPLOYMENT", "4711")
        .args(["issues", "--repo", "acme/payments-api", "--all", "-o"])
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "no base URL, but FINDINGS_BASE_URL is set and empty",
        ))
        .stderr(predicate::str::contains("FINDINGS_BASE_URL=demo"))
        .stderr(predicate::str::contains("real-secret").not());
    assert!(!out.exists(), "no file is written");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    // A token alone, with no base URL at all, is refused the same way.
    findings()
        .env_remove("FINDINGS_BASE_URL")
        .env("FINDINGS_TOKEN", "real-secret")
        .args(["issues", "--max", "1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("FINDINGS_TOKEN is set"));
}

#[test]
fn a_config_file_named_that_does_not_exist_is_an_error() {
    findings()
        .env_remove("FINDINGS_BASE_URL")
        .env("FINDINGS_CONFIG", "/path/that/does/not/exist/config.toml")
        .args(["issues", "--max", "1"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(
            "FINDINGS_CONFIG names /path/that/does/not/exist/config.toml, which does not exist",
        ));
}

/// Nothing configured at all: a person at a terminal gets the demo (the
/// pty tests show it); a pipe or CI does not, unless it asks by name.
#[test]
fn with_nothing_configured_a_command_without_a_terminal_or_in_ci_needs_the_demo_asked_for() {
    for ci in [None, Some("true")] {
        let mut cmd = findings();
        cmd.env_remove("FINDINGS_BASE_URL");
        if let Some(v) = ci {
            cmd.env("CI", v);
        }
        let why = if ci.is_some() {
            "CI is set"
        } else {
            "no terminal on standard output"
        };
        cmd.args(["issues", "--max", "1"])
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(format!(
                "no server configured and {why}"
            )));
    }
    for asked in [["--base-url", "demo"], ["--base-url", "DEMO"]] {
        findings()
            .env_remove("FINDINGS_BASE_URL")
            .env("CI", "true")
            .args(asked)
            .args(["issues", "--max", "1", "--json", "id"])
            .assert()
            .success()
            .stdout(predicate::str::contains("\"id\""))
            .stderr(predicate::str::contains(
                "demo data: using the embedded demo server",
            ));
    }
}

/// `-o out.sarf` (a typo) used to write NDJSON and exit 0.
#[test]
fn an_output_file_extension_that_names_no_format_is_refused_unless_the_format_is_given() {
    let dir = tempfile::tempdir().unwrap();
    let typo = dir.path().join("out.sarf");
    for args in [
        &["issues", "--max", "3"][..],
        &["issues", "--max", "3", "--json", "id"],
        &["report", "--max", "3"],
        &["scm", "list"],
    ] {
        findings()
            .args(args)
            .arg("-o")
            .arg(&typo)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(
                "out.sarf: the extension .sarf names no format",
            ))
            .stderr(predicate::str::contains("--format"));
        assert!(!typo.exists(), "{args:?}");
    }
    // Said outright, the name is the user's to choose; no extension at all
    // is NDJSON, as documented.
    findings()
        .args(["issues", "--max", "3", "--format", "sarif", "-o"])
        .arg(&typo)
        .assert()
        .success();
    assert!(
        std::fs::read_to_string(&typo)
            .unwrap()
            .contains("\"version\": \"2.1.0\"")
    );
    let bare = dir.path().join("out");
    findings()
        .args(["issues", "--max", "3", "-o"])
        .arg(&bare)
        .assert()
        .success();
    assert_eq!(std::fs::read_to_string(&bare).unwrap().lines().count(), 3);
}

/// An archived repository used to pass every gate with an empty SARIF,
/// which, uploaded, closes all its alerts.
#[test]
fn an_empty_answer_is_said_and_an_archived_repository_named() {
    let dir = tempfile::tempdir().unwrap();
    let sarif = dir.path().join("findings.sarif");
    findings()
        .args([
            "issues",
            "--repo",
            "acme/legacy-billing",
            "--all",
            "--exit-code",
            "3",
            "-o",
        ])
        .arg(&sarif)
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "nothing matched: the findings these filters match are all in archived repositories",
        ))
        .stderr(predicate::str::contains(
            "the SARIF holds no results: uploaded to code scanning, it closes every open alert",
        ));
    // Not archived, just nothing there: said plainly, no SARIF warning for
    // another format.
    findings()
        .args(["issues", "--repo", "acme/payments-api", "--severity", "low"])
        .args(["--until", "2000-01-01", "--json", "id"])
        .assert()
        .success()
        .stdout("")
        .stderr(predicate::str::contains(
            "findings: nothing matched these filters\n",
        ))
        .stderr(predicate::str::contains("SARIF").not());
}

/// `--primary-branch` asks for the published `onPrimaryBranch`, so SARIF
/// for a default-branch upload holds no other branch's findings.
#[test]
fn primary_branch_sends_the_published_filter() {
    let recorder = crate::common::Recorder::start();
    findings()
        .args(["issues", "--primary-branch", "--format", "sarif"])
        .env("FINDINGS_BASE_URL", &recorder.url)
        .env("FINDINGS_DEPLOYMENT", "1234")
        .env("FINDINGS_TOKEN", "t")
        .assert()
        .success();
    let body = &recorder.bodies()[0];
    assert_eq!(body["filter"]["onPrimaryBranch"], serde_json::json!(true));
}
