//! List-valued flags read one way everywhere (`a,b` and repetition alike,
//! `\,` for a comma inside a value), the time flags say in `--help` which
//! time they read, and first detection is filtered on the client.

use crate::cli::{Server, ndjson_ids};
use crate::common::{self, findings};
use serde_json::Value;

/// The ids listed by `args`, which must succeed.
fn listed(server: &Server, args: &[&str]) -> Vec<String> {
    let (code, stdout, stderr) = server.run(args);
    assert_eq!(code, 0, "{args:?}: {stderr}");
    ndjson_ids(&stdout)
}

#[test]
fn commas_and_repetition_are_one_list_in_every_command() {
    let server = Server::start(300);
    issues_lists_are_one_way(&server);
    report_lists_are_one_way(&server);
    search_lists_are_one_way(&server);
}

/// issues: each flag given with commas lists what it lists repeated; and
/// mixed, one given with a comma, one repeated.
fn issues_lists_are_one_way(server: &Server) {
    let issues = ["issues", "--all", "--format", "ndjson"];
    let cases: [(&[&str], &[&str]); 4] = [
        (
            &["--repo", "acme/payments-api,acme/web-storefront"],
            &[
                "--repo",
                "acme/payments-api",
                "--repo",
                "acme/web-storefront",
            ],
        ),
        (
            &["--severity", "critical,high"],
            &["--severity", "critical", "--severity", "high"],
        ),
        (
            &["--state", "open,fixed", "--type", "code,sca"],
            &[
                "--state", "open", "--state", "fixed", "--type", "code", "--type", "sca",
            ],
        ),
        (
            &[
                "--filter",
                "repositoryNames=acme/payments-api,acme/web-storefront",
            ],
            &[
                "--filter",
                "repositoryNames=acme/payments-api",
                "--filter",
                "repositoryNames=acme/web-storefront",
            ],
        ),
    ];
    for (commas, repeated) in cases {
        let a = listed(server, &[&issues[..], commas].concat());
        let b = listed(server, &[&issues[..], repeated].concat());
        assert!(!a.is_empty(), "{commas:?} matches some");
        assert_eq!(a, b, "{commas:?} and {repeated:?}");
        let all = listed(server, &issues);
        assert!(a.len() < all.len(), "{commas:?} narrows");
    }
    // Mixed: one given with a comma, one repeated.
    let mixed = listed(
        server,
        &[
            &issues[..],
            &[
                "--repo",
                "acme/payments-api,acme/web-storefront",
                "--repo",
                "acme/ledger-core",
            ],
        ]
        .concat(),
    );
    let three = listed(
        server,
        &[
            &issues[..],
            &[
                "--repo",
                "acme/payments-api",
                "--repo",
                "acme/web-storefront",
                "--repo",
                "acme/ledger-core",
            ],
        ]
        .concat(),
    );
    assert_eq!(mixed, three);
}

/// report: the total of two repositories is the sum of each.
fn report_lists_are_one_way(server: &Server) {
    let total = |args: &[&str]| -> u64 {
        let (code, stdout, stderr) =
            server.run(&[&["report", "--format", "json", "--max", "1"][..], args].concat());
        assert_eq!(code, 0, "{stderr}");
        let v: Value = serde_json::from_str(&stdout).unwrap();
        v["total"].as_u64().unwrap()
    };
    let both = total(&["--repo", "acme/payments-api,acme/web-storefront"]);
    assert!(both > 0);
    assert_eq!(
        both,
        total(&["--repo", "acme/payments-api"]) + total(&["--repo", "acme/web-storefront"])
    );
    assert_eq!(
        total(&["--severity", "critical,high"]),
        total(&["--severity", "critical", "--severity", "high"])
    );
}

/// search: workflow ids.
fn search_lists_are_one_way(server: &Server) {
    let search = ["search", "--all", "--format", "ndjson"];
    let every = listed(server, &search);
    let workflows: Vec<String> = {
        let (_, stdout, _) = server.run(&search);
        let mut w: Vec<String> = stdout
            .lines()
            .filter_map(|l| {
                let v: Value = serde_json::from_str(l).ok()?;
                v["workflowIds"][0].as_str().map(str::to_owned)
            })
            .collect();
        w.sort();
        w.dedup();
        w
    };
    assert!(workflows.len() >= 3, "{workflows:?}");
    let two = format!("{},{}", workflows[0], workflows[1]);
    let a = listed(server, &[&search[..], &["--workflow", &two]].concat());
    let b = listed(
        server,
        &[
            &search[..],
            &["--workflow", &workflows[0], "--workflow", &workflows[1]],
        ]
        .concat(),
    );
    assert!(!a.is_empty() && a.len() < every.len());
    assert_eq!(a, b);
}

#[test]
fn a_backslash_keeps_a_comma_inside_a_value() {
    let recorder = common::Recorder::start();
    let out = findings()
        .args(["issues", "--format", "ndjson", "--path", r"src/a\,b.rs,lib"])
        .args(["--filter", r"filePaths=docs/x\,y"])
        .env("FINDINGS_BASE_URL", &recorder.url)
        .env("FINDINGS_DEPLOYMENT", "1234")
        .env("FINDINGS_TOKEN", "t")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let body = &recorder.bodies()[0];
    assert_eq!(
        body["filter"]["filePaths"],
        serde_json::json!(["src/a,b.rs", "lib", "docs/x,y"])
    );
}

#[test]
fn the_time_flags_say_which_time_they_read() {
    let help = |command: &str| {
        let out = findings().args([command, "--help"]).output().unwrap();
        String::from_utf8(out.stdout)
            .unwrap()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    let issues = help("issues");
    for says in [
        "Only findings relevant since TIME: the filter's `since`, which reads relevant-since",
        "timeFilter=triaged-at or fixed-at",
        "Only findings created before TIME: the filter's `until`",
        "--first-detected-since <TIME> Only findings first detected (on any ref) at or after TIME",
        "firstDetectedAt, which this asks the server to include, is compared here",
        "a,b or repeated",
    ] {
        assert!(
            issues.contains(says),
            "issues --help lacks {says:?}: {issues}"
        );
    }
    let report = help("report");
    assert!(
        report.contains("Only findings created at or after TIME: the report's timePeriod.since"),
        "{report}"
    );
    assert!(
        report.contains("`issues --since` reads relevant-since instead"),
        "{report}"
    );
    assert!(
        report.contains("Only findings created before TIME: timePeriod.until"),
        "{report}"
    );
    let search = help("search");
    assert!(
        search.contains("Only issues created at or after TIME: filters.createdAt.startAt"),
        "{search}"
    );
    assert!(
        search.contains("Only issues created before TIME: filters.createdAt.endAt"),
        "{search}"
    );
}

#[test]
fn first_detection_is_filtered_here_on_what_the_server_includes() {
    let server = Server::start(200);
    let times = |stdout: &str| -> Vec<String> {
        stdout
            .lines()
            .map(|l| {
                let v: Value = serde_json::from_str(l).unwrap();
                v["issue"]["firstDetectedAt"]
                    .as_str()
                    .expect("included")
                    .to_owned()
            })
            .collect()
    };
    let (code, stdout, _) = server.run(&[
        "issues",
        "--all",
        "--format",
        "ndjson",
        "--include",
        "first-detected",
    ]);
    assert_eq!(code, 0);
    let mut all = times(&stdout);
    all.sort();
    let (since, until) = (all[all.len() / 4].clone(), all[all.len() * 3 / 4].clone());
    let expected = all.iter().filter(|t| **t >= since && **t < until).count();
    // Without --include: the flag asks for the time itself.
    for format in ["ndjson", "csv"] {
        let (code, stdout, stderr) = server.run(&[
            "issues",
            "--all",
            "--format",
            format,
            "--first-detected-since",
            &since,
            "--first-detected-until",
            &until,
        ]);
        assert_eq!(code, 0, "{stderr}");
        if format == "ndjson" {
            let got = times(&stdout);
            assert!(got.iter().all(|t| *t >= since && *t < until), "{got:?}");
            assert_eq!(got.len(), expected);
        } else {
            assert_eq!(
                stdout.lines().count(),
                expected + 1,
                "a header and the rows"
            );
        }
    }
    // --max counts what is kept.
    let (_, stdout, _) = server.run(&[
        "issues",
        "--max",
        "3",
        "--limit",
        "5",
        "--format",
        "ndjson",
        "--first-detected-since",
        &until,
    ]);
    let got = times(&stdout);
    assert_eq!(got.len(), 3);
    assert!(got.iter().all(|t| *t >= until));
    let (code, _, stderr) = server.run(&["issues", "--first-detected-until", "soon"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("--first-detected-until: \"soon\" is not a time"),
        "{stderr}"
    );
}

/// `--all` asks the largest page the server gives (1000) unless `--limit`
/// says otherwise; `--max` asks no more than it needs, up to 1000; a single
/// page keeps the default of 100. `--help` says which flag is the page size
/// and which the total.
#[test]
fn following_asks_the_largest_page_unless_limit_says_otherwise() {
    let recorder = common::Recorder::start();
    let limit_of = |args: &[&str]| {
        let out = findings()
            .args(["issues", "--format", "ndjson"])
            .args(args)
            .env("FINDINGS_BASE_URL", &recorder.url)
            .env("FINDINGS_DEPLOYMENT", "1234")
            .env("FINDINGS_TOKEN", "t")
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}: {out:?}");
        recorder.bodies().last().unwrap()["limit"].clone()
    };
    assert_eq!(limit_of(&["--all"]), 1000);
    assert_eq!(limit_of(&["--all", "--limit", "250"]), 250);
    assert_eq!(limit_of(&["--max", "5"]), 5);
    assert_eq!(limit_of(&["--max", "2500"]), 1000);
    assert_eq!(limit_of(&["--max", "2500", "--limit", "10"]), 10);
    assert_eq!(limit_of(&[]), 100);
    let out = findings().args(["issues", "--help"]).output().unwrap();
    let help = String::from_utf8(out.stdout)
        .unwrap()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for says in [
        "--limit <N> The page size (not the total: that is --max)",
        "--max <N> The total: stop after N items",
        "asking pages of 1000 (the most the server gives) unless --limit says otherwise",
    ] {
        assert!(help.contains(says), "{says:?} not in {help}");
    }
}

/// jq's formats in `--jq`: one CSV row a finding, as jq prints it.
#[test]
fn jq_formats_a_row_of_csv_for_each_finding() {
    let server = Server::start(300);
    let (code, stdout, stderr) = server.run(&["issues", "--max", "3", "--format", "ndjson"]);
    assert_eq!(code, 0, "{stderr}");
    let want: Vec<String> = stdout
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            let (id, severity) = (&v["issue"]["id"], &v["issue"]["severity"]);
            format!(
                "\"{}\",\"{}\"",
                id.as_str().unwrap(),
                severity.as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(want.len(), 3);
    let csv = "[.id, .severity] | @csv";
    let (code, stdout, stderr) = server.run(&["issues", "--max", "3", "--jq", csv]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout.lines().collect::<Vec<_>>(), want);
}

/// Every command's table fits `--width` (and keeps names' ends): the
/// dashboard reports, the SCM configs, the expired ignores, the findings.
#[test]
fn every_table_fits_the_width_asked_for() {
    let server = Server::start(500);
    let commands: [&[&str]; 8] = [
        &["report", "--kind", "backlog-by-rule"],
        &["report", "--kind", "opened", "--period", "30d"],
        &["report", "--kind", "by-project"],
        &["report", "--kind", "activity"],
        &["report", "--kind", "backlog-by-severity"],
        &["scm", "list"],
        &["expired"],
        &["issues"],
    ];
    for command in commands {
        for width in [60usize, 80] {
            let mut args = command.to_vec();
            let w = width.to_string();
            args.extend(["--format", "table", "--width", &w]);
            let (code, stdout, stderr) = server.run(&args);
            assert!(code == 0, "{args:?}: {stderr}");
            let long: Vec<&str> = stdout
                .lines()
                .filter(|l| l.chars().count() > width)
                .collect();
            assert!(long.is_empty(), "{args:?}: {long:#?}");
        }
    }
    // A width out of range is refused, naming the flag.
    let (code, _, stderr) = server.run(&["issues", "--width", "5"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--width"), "{stderr}");
}

/// A rule is named as the TUI names it: its display name from the
/// deployment's filter values, its id beside it; JSON keeps the ids.
#[test]
fn backlog_by_rule_names_each_rule_and_keeps_its_id() {
    let server = Server::start(300);
    let (code, csv, stderr) =
        server.run(&["report", "--kind", "backlog-by-rule", "--format", "csv"]);
    assert_eq!(code, 0, "{stderr}");
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("BUCKET,RULE,RULE_ID,OPEN"));
    let rows: Vec<Vec<String>> = lines.map(crate::common::csv_cells).collect();
    assert!(!rows.is_empty());
    let (code, json, _) = server.run(&["report", "--kind", "backlog-by-rule", "--format", "json"]);
    assert_eq!(code, 0);
    let ids: Vec<String> = serde_json::from_str::<serde_json::Value>(&json).unwrap()["buckets"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|b| {
            b["open"]
                .as_object()
                .map(|m| m.keys().cloned().collect::<Vec<_>>())
                .unwrap_or_default()
        })
        .collect();
    for row in &rows {
        assert!(ids.contains(&row[2]), "an id of the JSON: {row:?}");
        assert_ne!(row[1], row[2], "a name, not the id again: {row:?}");
    }
    assert!(
        rows.iter()
            .any(|r| r[1] == "SQL injection in JdbcTemplate query"),
        "{rows:?}"
    );
}

/// A count for people is grouped by thousands, as the TUI's are; the
/// formats for programs keep it a number.
#[test]
fn the_report_totals_group_their_counts_by_thousands() {
    let run = |format: &str| {
        let out = findings()
            .args(["report", "--format", format, "--limit", "1"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let table = run("table");
    assert!(
        table.starts_with("Total 1,098   Code 646   Supply chain 304"),
        "{table}"
    );
    assert!(!run("ndjson").contains("1,098"));
}
