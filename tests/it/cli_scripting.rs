//! Scripts and CI: `--exit-code` both ways, `--json` (the fields listed,
//! then selected), `--jq` (a bad expression, one that fails on an item),
//! every listing format and the same default in `scm list`, the table's
//! columns at 80 and 100 columns, and the book's three CI recipes run as
//! written against `findings demo serve`.

use crate::cli::Server;
use crate::common::{self, findings};
use chrono::{DateTime, Duration, Utc};
use serde_json::Value;
use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// Runs the binary against `server`: exit code, stdout, stderr.
fn run(server: &Server, args: &[&str]) -> (i32, String, String) {
    let out = findings()
        .args(args)
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

fn lines(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

#[test]
fn exit_code_is_n_after_the_matches_are_printed_and_0_when_none_match() {
    let server = Server::start(300);
    let gate = [
        "issues",
        "--repo",
        "acme/payments-api",
        "--severity",
        "critical",
        "--all",
        "--format",
        "ndjson",
    ];
    let (code, stdout, stderr) = run(&server, &gate);
    assert_eq!(code, 0, "without --exit-code: {stderr}");
    let all = lines(&stdout);
    assert!(!all.is_empty());
    // Matches: every one printed, then exit N.
    let (code, stdout, stderr) = run(&server, &[&gate[..], &["--exit-code", "3"]].concat());
    assert_eq!(code, 3, "{stderr}");
    assert_eq!(lines(&stdout), all, "printed, all of them");
    assert!(
        stderr.contains(&format!("{} findings matched (--exit-code 3)", all.len())),
        "{stderr}"
    );
    // None: 0, with nothing printed.
    let none = [
        &gate[..],
        &["--first-detected-since", "2099-01-01", "--exit-code", "3"],
    ]
    .concat();
    let (code, stdout, stderr) = run(&server, &none);
    assert_eq!((code, stdout.as_str()), (0, ""), "{stderr}");
    // With --jq, an item matches when the expression gives a result for it.
    let critical = "select(.severity == \"SEVERITY_CRITICAL\") | .id";
    let (code, stdout, _) = run(
        &server,
        &["issues", "--all", "--jq", critical, "--exit-code", "4"],
    );
    assert_eq!(code, 4);
    assert!(!stdout.is_empty());
    let (code, stdout, _) = run(
        &server,
        &[
            "issues",
            "--all",
            "--jq",
            "select(false)",
            "--exit-code",
            "4",
        ],
    );
    assert_eq!((code, stdout.as_str()), (0, ""));
    // report, search and scm list gate alike; `-o FILE` is written first.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("critical.ndjson");
    let (code, _, stderr) = run(
        &server,
        &[
            "report",
            "--severity",
            "critical",
            "--max",
            "5",
            "--exit-code",
            "5",
            "-o",
            file.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 5, "{stderr}");
    assert_eq!(std::fs::read_to_string(&file).unwrap().lines().count(), 5);
    let (code, _, _) = run(
        &server,
        &[
            "search",
            "--title",
            "no-such-title-anywhere",
            "--exit-code",
            "6",
        ],
    );
    assert_eq!(code, 0);
    let (code, stdout, _) = run(
        &server,
        &[
            "scm",
            "list",
            "--jq",
            "select(.autoScan != true) | .id",
            "--exit-code",
            "7",
        ],
    );
    assert_eq!(code, 7);
    assert!(!stdout.is_empty());
    // A usage error is still 2, whatever --exit-code says.
    let (code, _, _) = run(
        &server,
        &["issues", "--exit-code", "9", "--severity", "dire"],
    );
    assert_eq!(code, 2);
}

#[test]
fn a_bad_jq_expression_is_exit_2_with_the_jq_error_and_nothing_sent() {
    let recorder = common::Recorder::start();
    let out = findings()
        .args(["issues", "--jq", ".["])
        .env("FINDINGS_BASE_URL", &recorder.url)
        .env("FINDINGS_DEPLOYMENT", "1234")
        .env("FINDINGS_TOKEN", "t")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--jq: expected closing bracket, found end of input at column 3"),
        "{stderr}"
    );
    let out = findings()
        .args(["issues", "--jq", ".id | nosuchfilter"])
        .env("FINDINGS_BASE_URL", &recorder.url)
        .env("FINDINGS_DEPLOYMENT", "1234")
        .env("FINDINGS_TOKEN", "t")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("undefined filter nosuchfilter/0"));
    assert!(recorder.bodies().is_empty(), "nothing was sent");
    // --jq prints lines: no other format.
    let out = findings()
        .args(["issues", "--jq", ".id", "--format", "csv"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_jq_error_on_an_item_is_exit_1_naming_it_after_the_items_before() {
    let server = Server::start(100);
    let (code, stdout, _) = run(&server, &["issues", "--max", "5", "--jq", ".id"]);
    assert_eq!(code, 0);
    let ids: Vec<&str> = stdout.lines().collect();
    assert_eq!(ids.len(), 5, "a string prints as its text: {stdout}");
    assert!(ids.iter().all(|id| id.chars().all(|c| c.is_ascii_digit())));
    // The third item fails: the two before it are printed, then exit 1.
    let third = ids[2];
    let expr = format!("if .id == \"{third}\" then .id.x else .id end");
    let (code, stdout, stderr) = run(&server, &["issues", "--max", "5", "--jq", &expr]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(stdout.lines().collect::<Vec<_>>(), ids[..2]);
    assert!(
        stderr.contains(&format!(
            "--jq: cannot index \"{third}\" with \"x\" (on finding {third})"
        )),
        "{stderr}"
    );
    assert!(stderr.contains("partial: 2 items written"), "{stderr}");
    // error("…") says its text.
    let (code, _, stderr) = run(
        &server,
        &["issues", "--max", "1", "--jq", "error(\"stop at \\(.id)\")"],
    );
    assert_eq!(code, 1);
    assert!(
        stderr.contains(&format!("--jq: stop at {}", ids[0])),
        "{stderr}"
    );
}

#[test]
fn json_without_fields_lists_them_and_with_fields_selects_them() {
    let recorder = common::Recorder::start();
    let listed = |args: &[&str]| -> Vec<String> {
        let out = findings()
            .args(args)
            .env("FINDINGS_BASE_URL", &recorder.url)
            .env("FINDINGS_DEPLOYMENT", "1234")
            .env("FINDINGS_TOKEN", "t")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}: {out:?}");
        let stdout = String::from_utf8(out.stdout).unwrap();
        let mut lines = stdout.lines();
        assert_eq!(
            lines.next(),
            Some("Specify one or more comma-separated fields for `--json`:")
        );
        lines
            .map(|l| l.strip_prefix("  ").expect("indented").to_owned())
            .collect()
    };
    let issues = listed(&["issues", "--json"]);
    assert!(issues.windows(2).all(|w| w[0] < w[1]), "sorted: {issues:?}");
    for field in [
        "id",
        "severity",
        "aggregateState",
        "repository",
        "reviewCount",
    ] {
        assert!(issues.contains(&field.to_owned()), "{field}");
    }
    assert!(
        !issues.contains(&"issue".to_owned()),
        "the finding is lifted"
    );
    let report = listed(&["report", "--json"]);
    assert!(report.contains(&"ruleId".to_owned()) && !report.contains(&"reviewCount".to_owned()));
    // `show` offers more than `report`: tests/it/cli_ci.rs.
    assert!(listed(&["search", "--json"]).contains(&"title".to_owned()));
    assert!(listed(&["scm", "list", "--json"]).contains(&"autoScan".to_owned()));
    assert!(recorder.bodies().is_empty(), "nothing was sent");

    let server = Server::start(100);
    let fields = "id,severity,reviewCount,nope";
    let (code, _, stderr) = run(&server, &["issues", "--json", fields]);
    assert_eq!(code, 2);
    assert!(stderr.contains("Unknown JSON field: \"nope\""), "{stderr}");
    assert!(
        stderr.contains("Available fields:\n  activityHistory"),
        "{stderr}"
    );
    let (_, _, stderr) = run(&server, &["issues", "--json", "severty"]);
    assert!(stderr.contains("(did you mean severity?)"), "{stderr}");
    let (code, _, _) = run(&server, &["issues", "--json", "id", "--format", "table"]);
    assert_eq!(code, 2);

    // Selected: those fields, in that order, one object a line.
    let (code, stdout, stderr) = run(
        &server,
        &["issues", "--max", "3", "--json", "id,severity,reviewCount"],
    );
    assert_eq!(code, 0, "{stderr}");
    let items = lines(&stdout);
    assert_eq!(items.len(), 3);
    let (_, raw, _) = run(&server, &["issues", "--max", "3", "--format", "ndjson"]);
    for ((item, line), wrapper) in items.iter().zip(stdout.lines()).zip(lines(&raw)) {
        assert_eq!(item.as_object().unwrap().len(), 3, "{line}");
        let at = |key: &str| line.find(&format!("\"{key}\":")).unwrap();
        assert!(
            at("id") < at("severity") && at("severity") < at("reviewCount"),
            "{line}"
        );
        assert_eq!(item["id"], wrapper["issue"]["id"]);
        assert_eq!(item["severity"], wrapper["issue"]["severity"]);
        assert_eq!(item["reviewCount"], wrapper["reviewCount"]);
    }
    // --format json: one array of them.
    let (_, stdout, _) = run(
        &server,
        &[
            "report",
            "--max",
            "4",
            "--json",
            "id,ruleId",
            "--format",
            "json",
        ],
    );
    let array: Vec<Value> = serde_json::from_str(&stdout).unwrap();
    assert_eq!(array.len(), 4);
    assert!(array.iter().all(|v| v["ruleId"].is_string()));
    // show: the same shape, one line.
    let id = items[0]["id"].as_str().unwrap();
    let (code, stdout, _) = run(&server, &["show", id, "--json", "id,severity"]);
    assert_eq!(code, 0);
    assert_eq!(
        lines(&stdout),
        [serde_json::json!({"id": id, "severity": items[0]["severity"]})]
    );
}

#[test]
fn a_single_object_prints_as_a_one_item_listing_and_ndjson_when_piped() {
    let server = Server::start(100);
    let (_, stdout, _) = run(&server, &["report", "--max", "1", "--format", "ndjson"]);
    let finding = &lines(&stdout)[0];
    let id = finding["id"].as_str().unwrap();
    // Piped: one line, the finding itself.
    let (code, stdout, _) = run(&server, &["show", id]);
    assert_eq!(code, 0);
    let shown = lines(&stdout);
    assert_eq!(shown.len(), 1, "{stdout}");
    assert_eq!(shown[0]["id"], finding["id"]);
    assert_eq!(shown[0]["ruleId"], finding["ruleId"]);
    let (_, csv, _) = run(&server, &["show", id, "--format", "csv"]);
    assert_eq!(csv.lines().count(), 2, "a header and a row: {csv}");
    assert!(csv.starts_with("id,severity,state,"));
    let (_, sarif, _) = run(&server, &["show", id, "--format", "sarif"]);
    let sarif: Value = serde_json::from_str(&sarif).unwrap();
    assert_eq!(sarif["runs"][0]["results"][0]["properties"]["id"], id);
    // scm update: the config, as scm list gives it, one line when piped.
    let out = findings()
        .args(["scm", "update", "1001", "--auto-scan", "on", "--yes"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let updated = lines(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(updated.len(), 1);
    assert_eq!(updated[0]["id"], "1001");
    assert_eq!(updated[0]["autoScan"], true);
}

#[test]
fn scm_list_takes_every_listing_format_and_ndjson_is_its_default_piped() {
    let piped = findings().args(["scm", "list"]).output().unwrap();
    assert!(piped.status.success());
    let configs = lines(&String::from_utf8_lossy(&piped.stdout));
    let ids: Vec<&str> = configs.iter().map(|c| c["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["1001", "1002", "1003", "1004", "1005"]);
    let as_json = findings()
        .args(["scm", "list", "--format", "json"])
        .output()
        .unwrap();
    let array: Vec<Value> = serde_json::from_slice(&as_json.stdout).unwrap();
    assert_eq!(array, configs, "json: the same configs, one array");
    let text = |format: &str| {
        let out = findings()
            .args(["scm", "list", "--format", format])
            .env("COLUMNS", "160")
            .output()
            .unwrap();
        assert!(out.status.success(), "{format}: {out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let csv = text("csv");
    assert_eq!(csv.lines().count(), 6);
    assert!(csv.starts_with("id,type,namespace,auto_scan,"), "{csv}");
    let markdown = text("markdown");
    assert_eq!(markdown.lines().count(), 7, "{markdown}");
    assert!(
        markdown.starts_with("| id | type | namespace |"),
        "{markdown}"
    );
    let table = text("table");
    assert!(table.starts_with("ID "), "{table}");
    // A file's extension names the format, as for the other listings.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("configs.md");
    let out = findings()
        .args(["scm", "list", "-o", file.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(
        std::fs::read_to_string(&file)
            .unwrap()
            .starts_with("| id |")
    );
}

#[test]
fn on_a_terminal_scm_list_and_issues_print_tables_that_keep_the_state() {
    let state = tempfile::tempdir().unwrap();
    let no_config = state.path().join("config-home");
    let env = [
        ("XDG_STATE_HOME", state.path().as_os_str()),
        ("XDG_CONFIG_HOME", no_config.as_os_str()),
    ];
    // scm list: a table by default, as every listing on a terminal.
    let s = common::pty::Pty::start(30, 100, &["scm", "list"], &env);
    s.wait_for("NAMESPACE");
    let (status, _, text) = s.finish();
    assert!(status.success(), "{text}");
    assert!(text.contains("acme-mobile"), "{text}");
    // issues at 80 and 100 columns: STATE kept, MESSAGE given up.
    for cols in [80, 100] {
        let s = common::pty::Pty::start(40, cols, &["issues", "--max", "5"], &env);
        s.wait_for("SEVERITY");
        let (status, _, text) = s.finish();
        assert!(status.success(), "{text}");
        let header = text
            .lines()
            .find(|l| l.starts_with("ID "))
            .unwrap_or_else(|| panic!("{text}"));
        assert!(header.contains("STATE"), "{cols}: {header}");
        assert!(!header.contains("MESSAGE"), "{cols}: {header}");
    }
}

/// `findings demo serve` in a child process, and how to reach it.
struct DemoServe {
    child: Child,
    env: Vec<(String, String)>,
    /// Kept open: the server prints after the line read, and a closed
    /// stdout would end it.
    _banner: std::io::Lines<BufReader<std::process::ChildStdout>>,
}

impl DemoServe {
    fn start() -> DemoServe {
        let mut child = Command::new(env!("CARGO_BIN_EXE_findings"))
            .args(["demo", "serve", "--addr", "127.0.0.1:0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut banner = BufReader::new(child.stdout.take().unwrap()).lines();
        // The banner's line to paste: `export FINDINGS_BASE_URL=… …`.
        let export = banner
            .by_ref()
            .map(Result::unwrap)
            .find(|l| l.trim_start().starts_with("export "))
            .expect("the banner says how to reach it");
        let env = export
            .split_whitespace()
            .skip(1)
            .filter_map(|kv| kv.split_once('='))
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .collect();
        DemoServe {
            child,
            env,
            _banner: banner,
        }
    }

    /// Runs `script` with `sh` in `dir`, `findings` on the PATH, the
    /// server's settings in the environment and no config file.
    fn sh(&self, dir: &std::path::Path, script: &str) -> std::process::Output {
        let bin = std::path::Path::new(env!("CARGO_BIN_EXE_findings"))
            .parent()
            .unwrap();
        let path = format!(
            "{}:{}",
            bin.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let mut cmd = Command::new("sh");
        cmd.arg("-c").arg(script).current_dir(dir).env("PATH", path);
        for var in ["FINDINGS_PROFILE", "FINDINGS_LOG", "FINDINGS_THEME"] {
            cmd.env_remove(var);
        }
        cmd.env("XDG_CONFIG_HOME", crate::common::empty_config_home());
        cmd.envs(self.env.iter().map(|(k, v)| (k, v)));
        cmd.output().unwrap()
    }

    /// Every finding (open or not) that List issues gives, as `--json`
    /// sees them.
    fn findings(&self, dir: &std::path::Path) -> Vec<Value> {
        let out = self.sh(
            dir,
            "findings issues --all --json id,severity,aggregateState,relevantSince,repository,ref",
        );
        assert!(out.status.success(), "{out:?}");
        lines(&String::from_utf8_lossy(&out.stdout))
    }
}

impl Drop for DemoServe {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The recipe `name` of the README or a page of the book (`docs/src/`):
/// the `sh` block after its marker, as written.
fn recipe(name: &str) -> String {
    let files = crate::common::doc_pages();
    let marker = format!("<!-- ci-recipe: {name} -->\n```sh\n");
    files
        .iter()
        .find_map(|file| {
            let text = std::fs::read_to_string(file).unwrap();
            let start = text.find(&marker)? + marker.len();
            let end = text[start..].find("```").unwrap() + start;
            Some(text[start..end].to_owned())
        })
        .unwrap_or_else(|| panic!("neither the README nor the book has the recipe {name}"))
}

/// The ids of `all` that `keep` accepts, split by whether the finding
/// became relevant since `cutoff` (± a minute: a recipe's `--since 7d`
/// is read when it runs).
struct Window {
    sure: BTreeSet<String>,
    maybe: BTreeSet<String>,
}

fn window(all: &[Value], cutoff: DateTime<Utc>, keep: impl Fn(&Value) -> bool) -> Window {
    let slack = Duration::minutes(1);
    let mut w = Window {
        sure: BTreeSet::new(),
        maybe: BTreeSet::new(),
    };
    for f in all.iter().filter(|f| keep(f)) {
        let since: DateTime<Utc> = f["relevantSince"].as_str().unwrap().parse().unwrap();
        let id = f["id"].as_str().unwrap().to_owned();
        if since >= cutoff + slack {
            w.sure.insert(id);
        } else if since >= cutoff - slack {
            w.maybe.insert(id);
        }
    }
    w
}

impl Window {
    fn check(&self, got: &BTreeSet<String>, what: &str) {
        assert!(!self.sure.is_empty(), "{what}: the demo has some");
        assert!(
            got.is_superset(&self.sure),
            "{what}: {got:?} lacks some of {:?}",
            self.sure
        );
        let extra: Vec<&String> = got.difference(&self.sure).collect();
        assert!(
            extra.iter().all(|id| self.maybe.contains(*id)),
            "{what}: {extra:?} should not be there"
        );
    }
}

#[test]
fn the_readme_ci_recipes_run_as_written_against_demo_serve() {
    let serve = DemoServe::start();
    let dir = tempfile::tempdir().unwrap();
    let all = serve.findings(dir.path());
    let week_ago = Utc::now() - Duration::days(7);
    the_gate_recipe(&serve, dir.path(), &all, week_ago);
    the_weekly_summary_recipe(&serve, dir.path(), &all, week_ago);
    the_sarif_recipe(&serve, dir.path(), &all);
}

/// Whether the finding's severity is one of `s`.
fn severity_in(f: &Value, s: &[&str]) -> bool {
    s.contains(&f["severity"].as_str().unwrap_or(""))
}

fn is_open(f: &Value) -> bool {
    f["aggregateState"] == "AGGREGATE_ISSUE_STATE_OPEN"
}

/// Whether a finding (the issue) is on its repository's primary branch.
fn on_primary_branch(f: &Value) -> bool {
    f["ref"] == f["repository"]["primaryRef"]["ref"]
}

fn in_payments(f: &Value) -> bool {
    f["repository"]["name"] == "acme/payments-api"
}

/// The gate: the open criticals of the repository that became
/// relevant this week are listed as a table, and the job fails.
fn the_gate_recipe(
    serve: &DemoServe,
    dir: &std::path::Path,
    all: &[Value],
    week_ago: DateTime<Utc>,
) {
    let out = serve.sh(dir, &recipe("gate"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    let mut rows = stdout.lines();
    let header = rows.next().unwrap();
    assert!(
        header.starts_with("ID ") && header.contains("STATE"),
        "{stdout}"
    );
    let listed: BTreeSet<String> = rows
        .map(|r| r.split_whitespace().next().unwrap().to_owned())
        .collect();
    window(all, week_ago, |f| {
        in_payments(f) && is_open(f) && severity_in(f, &["SEVERITY_CRITICAL"])
    })
    .check(&listed, "gate");
    assert!(stderr.contains("matched (--exit-code 1)"), "{stderr}");
}

/// The weekly summary: a heading, the week's count, the open ones
/// as a Markdown table, critical before high.
fn the_weekly_summary_recipe(
    serve: &DemoServe,
    dir: &std::path::Path,
    all: &[Value],
    week_ago: DateTime<Utc>,
) {
    let out = serve.sh(dir, &recipe("weekly-summary"));
    assert!(out.status.success(), "{out:?}");
    let summary = std::fs::read_to_string(dir.join("summary.md")).unwrap();
    let mut parts = summary.lines();
    let today = Utc::now().format("%Y-%m-%d").to_string();
    assert_eq!(
        parts.next(),
        Some(format!("## Security findings, week of {today}").as_str())
    );
    let count_line = parts.find(|l| !l.is_empty()).unwrap();
    let count: usize = count_line
        .rsplit(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap_or_else(|_| panic!("{summary}"));
    let this_week = window(all, week_ago, |f| {
        severity_in(f, &["SEVERITY_CRITICAL", "SEVERITY_HIGH"])
    });
    assert!(
        count >= this_week.sure.len() && count <= this_week.sure.len() + this_week.maybe.len(),
        "{count_line}: {} or up to {} more",
        this_week.sure.len(),
        this_week.maybe.len()
    );
    let table: Vec<&str> = parts.filter(|l| l.starts_with('|')).collect();
    assert!(
        table[0].starts_with("| id | severity | state |"),
        "{summary}"
    );
    let cells = |row: &str| -> Vec<String> {
        row.trim_matches('|')
            .split(" | ")
            .map(|c| c.trim().to_owned())
            .collect()
    };
    let rows: Vec<Vec<String>> = table[2..].iter().map(|r| cells(r)).collect();
    let ids: BTreeSet<String> = rows.iter().map(|r| r[0].clone()).collect();
    window(all, week_ago, |f| {
        is_open(f) && severity_in(f, &["SEVERITY_CRITICAL", "SEVERITY_HIGH"])
    })
    .check(&ids, "summary");
    let severities: Vec<&str> = rows.iter().map(|r| r[1].as_str()).collect();
    let first_high = severities.iter().position(|s| *s == "high").unwrap();
    assert!(severities[..first_high].iter().all(|s| *s == "critical"));
    assert!(
        severities[first_high..].iter().all(|s| *s == "high"),
        "{severities:?}"
    );
}

/// SARIF: one log whose results are the open findings of the repository's
/// primary branch (`--primary-branch`), none of another branch.
fn the_sarif_recipe(serve: &DemoServe, dir: &std::path::Path, all: &[Value]) {
    let out = serve.sh(dir, &recipe("sarif"));
    assert!(out.status.success(), "{out:?}");
    assert!(out.stdout.is_empty(), "the log goes to the file");
    let sarif: Value =
        serde_json::from_slice(&std::fs::read(dir.join("findings.sarif")).unwrap()).unwrap();
    assert_eq!(sarif["version"], "2.1.0");
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let got: BTreeSet<String> = results
        .iter()
        .map(|r| r["properties"]["id"].as_str().unwrap().to_owned())
        .collect();
    let expected: BTreeSet<String> = all
        .iter()
        .filter(|f| in_payments(f) && is_open(f) && on_primary_branch(f))
        .map(|f| f["id"].as_str().unwrap().to_owned())
        .collect();
    assert!(!expected.is_empty());
    assert_eq!(got, expected);
    let elsewhere = all
        .iter()
        .filter(|f| in_payments(f) && is_open(f) && !on_primary_branch(f))
        .count();
    assert!(
        elsewhere > 0,
        "the data set has open findings on other branches"
    );
    assert!(
        results
            .iter()
            .all(|r| r["ruleId"].is_string() && r["level"].is_string())
    );
    // No temporary file is left beside it.
    let names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
}
