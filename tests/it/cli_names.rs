//! No silent zero: a repository, rule, team, tag or ref the deployment does
//! not have is refused (exit 2) with the closest names it has, before the
//! listing is asked for; `--rule` takes the name a table shows.

use crate::cli::{Server, ndjson_ids};
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
fn names_go_unchecked_after_one_warning_when_the_deployment_cannot_list_them() {
    // A server without the filter values operation (404).
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
    assert!(out.status.success(), "{stderr}");
    assert_eq!(
        stderr
            .matches("warning: the deployment's names could not be fetched")
            .count(),
        1,
        "{stderr}"
    );
    let body = &recorder.bodies()[0];
    assert_eq!(
        body["filter"]["repositoryNames"],
        serde_json::json!(["acme/new-repo"])
    );
    assert_eq!(body["filter"]["ruleIds"], serde_json::json!(["r1", "r2"]));
    // A server whose filter values fail once: the listing still comes.
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
}
