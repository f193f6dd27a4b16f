//! No silent zero: a repository, rule, team, tag or ref the deployment does
//! not have is refused (exit 2) with the closest names it has, before the
//! listing is asked for; `--rule` takes the name a table shows.

use crate::cli::{Server, error_line, ndjson_ids};
use crate::common::{self, findings};
use findings_demo::faults::Faults;
use serde_json::Value;

#[test]
fn a_name_the_deployment_lacks_exits_two_naming_the_closest_one_it_has_lists() {
    let server = Server::start(100);
    let cases: [(&[&str], &str); 14] = [
        (
            &["issues", "--repo", "payments-api"],
            "--repo \"payments-api\": the deployment has no such repository; did you mean acme/payments-api?",
        ),
        (
            &["issues", "--repo", "acme/payments-api,ledger-core"],
            "--repo \"ledger-core\": the deployment has no such repository; did you mean acme/ledger-core?",
        ),
        (
            &["issues", "--rule", "use-of-md4"],
            "--rule \"use-of-md4\": the deployment has no such rule; did you mean use-of-md5?",
        ),
        (
            &["issues", "--team", "payments-securty"],
            "no such team; did you mean payments-security?",
        ),
        (
            &["issues", "--tag", "hipa"],
            "no such tag; did you mean hipaa?",
        ),
        (
            &["issues", "--ref", "mian"],
            "--ref \"mian\": the deployment has no such ref; did you mean main?",
        ),
        (
            &["issues", "--filter", "repositoryNames=web-storefront"],
            "--filter repositoryNames \"web-storefront\": the deployment has no such repository; did you mean acme/web-storefront?",
        ),
        (
            &["issues", "--repo", "zzzzzzzz"],
            "no such repository; it lists 15 and none is close",
        ),
        (
            &["report", "--repo", "payments-api"],
            "did you mean acme/payments-api?",
        ),
        (
            &["report", "--rule", "use-of-md4"],
            "did you mean use-of-md5?",
        ),
        (
            &["report", "--team", "platform-infa"],
            "did you mean platform-infra?",
        ),
        (&["report", "--tag", "hipa"], "did you mean hipaa?"),
        (
            &["report", "--filter", "projectIds=5100"],
            "--filter projectIds \"5100\": the deployment has no such repository id",
        ),
        (
            &["search", "--filter", "projectIds=5100"],
            "--filter projectIds \"5100\": the deployment has no such repository id",
        ),
    ];
    for (args, says) in cases {
        let before = server.demo().requests();
        let (code, stdout, stderr) = server.run(&[args, &["--format", "json"]].concat());
        assert_eq!(code, 2, "{args:?}: {stderr}");
        let error = stderr
            .lines()
            .find(|l| l.starts_with("findings: error: "))
            .unwrap_or_default();
        assert!(error.contains(says), "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{args:?} wrote {stdout}");
        // The names were asked for; the listing never was.
        assert_eq!(server.demo().requests() - before, 1, "{args:?}");
    }
    // A name it has lists; a listing without names asks nothing more.
    let (code, stdout, stderr) = server.run(&[
        "issues",
        "--repo",
        "acme/payments-api",
        "--all",
        "--format",
        "ndjson",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!ndjson_ids(&stdout).is_empty());
    let before = server.demo().requests();
    let (code, _, _) = server.run(&["issues", "--severity", "critical", "--format", "ndjson"]);
    assert_eq!(code, 0);
    assert_eq!(server.demo().requests() - before, 1, "only the listing");
}

#[test]
fn a_rule_by_the_name_the_table_shows_finds_what_its_full_id_finds() {
    let server = Server::start(2000);
    let listing = ["issues", "--all", "--format", "ndjson"];
    let by = |rule: &str| {
        let (code, stdout, stderr) = server.run(&[&listing[..], &["--rule", rule]].concat());
        assert_eq!(code, 0, "{rule}: {stderr}");
        (ndjson_ids(&stdout), stderr)
    };
    let (short, _) = by("use-of-md5");
    let (full, _) = by("java.lang.security.audit.crypto.use-of-md5.use-of-md5");
    assert!(!short.is_empty());
    assert_eq!(short, full);
    // The table shows that name for these rows.
    let (_, table, _) = server.run(&[
        "issues",
        "--rule",
        "use-of-md5",
        "--max",
        "5",
        "--format",
        "table",
    ]);
    assert!(
        table.lines().skip(1).all(|l| l.contains("use-of-md5")),
        "{table}"
    );
    // report too.
    let total = |rule: &str| {
        let (_, stdout, _) =
            server.run(&["report", "--rule", rule, "--max", "1", "--format", "json"]);
        serde_json::from_str::<Value>(&stdout).unwrap()["total"]
            .as_u64()
            .unwrap()
    };
    assert!(total("use-of-md5") > 0);
    assert_eq!(
        total("use-of-md5"),
        total("java.lang.security.audit.crypto.use-of-md5.use-of-md5")
    );
    // One name, three rules: all three, and stderr says which.
    let (ambiguous, stderr) = by("tainted-sql-string");
    assert!(
        stderr.contains("--rule \"tainted-sql-string\" stands for 3 rules, all asked for (give a full id for one): "),
        "{stderr}"
    );
    let fulls: Vec<&str> = stderr
        .lines()
        .find(|l| l.contains("stands for"))
        .unwrap()
        .rsplit(": ")
        .next()
        .unwrap()
        .split(", ")
        .collect();
    assert_eq!(fulls.len(), 3);
    let mut each: Vec<String> = fulls.iter().flat_map(|id| by(id).0).collect();
    let mut ambiguous = ambiguous;
    each.sort();
    ambiguous.sort();
    assert!(!ambiguous.is_empty());
    assert_eq!(ambiguous, each);
}

#[test]
fn a_listing_goes_on_unchecked_after_one_warning_and_nothing_matched_exits_one() {
    // A server without the filter values operation (404): the listing
    // goes, its names as given, and its empty answer is no clean one.
    let recorder = common::Recorder::start();
    let out = findings()
        .args([
            "issues",
            "--format",
            "ndjson",
            "--repo",
            "acme/new-repo",
            "--rule",
            "r1,r2",
        ])
        .args(["--team", "core"])
        .env("FINDINGS_BASE_URL", &recorder.url)
        .env("FINDINGS_DEPLOYMENT", "1234")
        .env("FINDINGS_TOKEN", "t")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(
        stderr
            .matches("warning: the deployment's names could not be fetched")
            .count(),
        1,
        "{stderr}"
    );
    assert!(stderr.contains("the filter is sent unchecked"), "{stderr}");
    assert!(
        stderr.contains("error: nothing matched, with the filter's names unchecked"),
        "{stderr}"
    );
    let body = &recorder.bodies()[0];
    assert_eq!(
        body["filter"]["repositoryNames"],
        serde_json::json!(["acme/new-repo"])
    );
    assert_eq!(body["filter"]["ruleIds"], serde_json::json!(["r1", "r2"]));
    // A server whose filter values fail once: the listing still comes,
    // and what it finds is found (exit 0).
    let server = Server::start(100);
    server.demo().set_faults(Faults::failing(500).times(1));
    let (code, stdout, stderr) = server.run(&[
        "report",
        "--repo",
        "acme/payments-api",
        "--max",
        "3",
        "--format",
        "ndjson",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("warning: the deployment's names could not be fetched"),
        "{stderr}"
    );
    assert!(!ndjson_ids(&stdout).is_empty());
    // A name it lacks, unchecked: nothing matched, exit 1, never 0.
    server.demo().set_faults(Faults::failing(500).times(1));
    let (code, stdout, stderr) = server.run(&["issues", "--repo", "acme/payment-api"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    assert_eq!(
        stderr.lines().count(),
        2,
        "a warning, then the error: {stderr}"
    );
}

#[test]
fn a_gate_or_a_write_whose_names_cannot_be_checked_exits_one_never_zero() {
    let server = Server::start(200);
    let gate = [
        "issues",
        "--repo",
        "acme/payment-api",
        "--severity",
        "critical,high",
        "--state",
        "open",
        "--all",
        "--exit-code",
        "3",
    ];
    // A 500 (never retried), once: exit 1 with the reason; the listing
    // is never asked for.
    server.demo().set_faults(Faults::failing(500).times(1));
    let (code, stdout, stderr) = server.run(&gate);
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.is_empty());
    let error = error_line(&stderr);
    assert!(
        error.contains("the deployment's names could not be fetched to check the filter")
            && error.contains("HTTP 500")
            && error.contains("stopped before anything was listed or sent"),
        "{error}"
    );
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    assert_eq!(server.demo().requests(), 1, "only the names were asked for");
    // A moment later, the same command: the name is refused (exit 2).
    let (code, _, stderr) = server.run(&gate);
    assert_eq!(code, 2, "{stderr}");
    assert!(error_line(&stderr).contains("did you mean acme/payments-api?"));
    // A 503 is retried as every read is; still failing, exit 1.
    server.demo().set_faults(Faults::failing(503).times(4));
    let (code, _, stderr) = server.run(&gate);
    assert_eq!(code, 1, "{stderr}");
    assert!(error_line(&stderr).contains("HTTP 503"), "{stderr}");
    assert_eq!(server.demo().requests(), 4, "the lookup was tried 4 times");
    // A write by filter: nothing sent.
    server.demo().set_faults(Faults::failing(500).times(1));
    let (code, _, stderr) = server.run(&[
        "triage",
        "--repo",
        "acme/payments-api",
        "--state",
        "reviewing",
        "--yes",
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        error_line(&stderr).contains("stopped before anything was listed or sent"),
        "{stderr}"
    );
    assert_eq!(server.demo().requests(), 1, "nothing listed, nothing sent");
}

#[test]
fn a_wrong_token_says_one_line() {
    let server = Server::start(50);
    let out = findings()
        .args(["issues", "--repo", "acme/payments-api", "--exit-code", "3"])
        .env("FINDINGS_BASE_URL", server.url())
        .env("FINDINGS_DEPLOYMENT", "1234")
        .env("FINDINGS_TOKEN", "not-the-token")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("findings: error: not authenticated"),
        "{stderr}"
    );
}
