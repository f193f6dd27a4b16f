//! The `findings` binary as users and scripts run it: output formats, paging,
//! usage errors and exit codes, the SCM update flow, and `demo serve`.

use crate::common;

use common::findings;
use findings_demo::{DemoOptions, DemoServer};
use predicates::prelude::*;
use serde_json::Value;
use std::collections::HashSet;
use std::io::{BufRead, BufReader, Read};
use std::process::Stdio;

fn ndjson(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect()
}

/// The one line of a run's stderr that says its error.
pub(crate) fn error_line(stderr: &str) -> &str {
    stderr
        .lines()
        .find(|l| l.starts_with("findings: error: "))
        .unwrap_or_else(|| panic!("no error line: {stderr}"))
}

/// The ids of an ndjson listing (List issues wrappers or bare findings).
pub(crate) fn ndjson_ids(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).expect("each line is JSON");
            let issue = if v["issue"].is_object() {
                &v["issue"]
            } else {
                &v
            };
            issue["id"].as_str().expect("an id").to_owned()
        })
        .collect()
}

/// A demo server in this process, for commands pointed at it by URL.
pub(crate) struct Server {
    runtime: tokio::runtime::Runtime,
    server: Option<DemoServer>,
}

impl Server {
    pub(crate) fn start(findings: usize) -> Server {
        Server::with_options(DemoOptions {
            findings,
            ..Default::default()
        })
    }

    pub(crate) fn with_options(options: DemoOptions) -> Server {
        let runtime = tokio::runtime::Runtime::new().unwrap();
        let server = runtime.block_on(DemoServer::start_local(options)).unwrap();
        Server {
            runtime,
            server: Some(server),
        }
    }

    pub(crate) fn url(&self) -> String {
        self.server.as_ref().unwrap().url()
    }

    pub(crate) fn demo(&self) -> &DemoServer {
        self.server.as_ref().unwrap()
    }

    /// Runs the binary against this server: exit code, stdout, stderr.
    pub(crate) fn run(&self, args: &[&str]) -> (i32, String, String) {
        self.run_at(None, args)
    }

    /// [`Server::run`], the binary's clock at `now` when given
    /// (`FINDINGS_NOW`: ages and periods that do not move between runs).
    pub(crate) fn run_at(&self, now: Option<&str>, args: &[&str]) -> (i32, String, String) {
        let mut command = findings();
        command
            .args(args)
            .env("FINDINGS_BASE_URL", self.url())
            .env("FINDINGS_DEPLOYMENT", "1234")
            .env("FINDINGS_TOKEN", "demo-token");
        if let Some(now) = now {
            command.env("FINDINGS_NOW", now);
        }
        let out = command.output().unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    /// A server that accepts `token` only.
    fn with_token(findings: usize, token: &str) -> Server {
        let runtime = tokio::runtime::Runtime::new().unwrap();
        let server = runtime
            .block_on(DemoServer::start_local(DemoOptions {
                findings,
                token: token.into(),
                ..Default::default()
            }))
            .unwrap();
        Server {
            runtime,
            server: Some(server),
        }
    }
}

#[test]
fn no_export_format_and_no_log_carries_the_token() {
    let secret = "tok-export-81c2f7";
    let server = Server::with_token(60, secret);
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("requests.log");
    for command in ["issues", "report"] {
        for format in ["table", "json", "ndjson", "csv", "sarif", "markdown"] {
            let out = findings()
                .args([
                    command,
                    "--base-url",
                    &server.url(),
                    "--deployment",
                    "1234",
                    "--all",
                    "--format",
                    format,
                    "--log-file",
                ])
                .arg(&log)
                .env("FINDINGS_TOKEN", secret)
                .env("FINDINGS_LOG", "trace")
                .output()
                .unwrap();
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(out.status.success(), "{command} {format}: {out:?}");
            assert!(stdout.len() > 100, "{command} {format} wrote the findings");
            assert!(!stdout.contains(secret), "{command} {format}");
            assert!(!String::from_utf8_lossy(&out.stderr).contains(secret));
        }
    }
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(logged.lines().count() >= 12, "{logged}");
    assert!(!logged.contains(secret), "{logged}");
}

impl Drop for Server {
    fn drop(&mut self) {
        let _guard = self.runtime.enter();
        self.server.take();
    }
}

#[test]
fn help_and_version_exit_zero() {
    findings()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("issues"));
    findings()
        .arg("--version")
        .assert()
        .success()
        .stdout(predicate::str::contains("findings"));
    findings()
        .args(["issues", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("--filter"));
}

/// The flags of `issues --help` under their headings: a global flag never
/// sits among the filters.
#[test]
fn help_groups_filters_sort_output_and_global_flags() {
    let out = findings().args(["issues", "--help"]).output().unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    let mut section = String::new();
    let mut seen: Vec<(String, String)> = Vec::new();
    for line in help.lines() {
        if let Some(heading) = line.strip_suffix(':').filter(|l| !l.starts_with(' ')) {
            section = heading.to_owned();
        } else if let Some(flag) = line.trim_start().strip_prefix("--") {
            let flag = flag.split([' ', '=']).next().unwrap().to_owned();
            seen.push((flag, section.clone()));
        }
    }
    let heading = |flag: &str| {
        seen.iter()
            .find(|(f, _)| f == flag)
            .map(|(_, s)| s.as_str())
            .unwrap_or_else(|| panic!("--{flag} is in the help: {help}"))
    };
    for flag in [
        "filter", "type", "severity", "state", "repo", "rule", "tag", "cve",
    ] {
        assert_eq!(heading(flag), "Filters", "--{flag}");
    }
    for flag in [
        "since",
        "until",
        "first-detected-since",
        "first-detected-until",
    ] {
        assert_eq!(heading(flag), "Time", "--{flag}");
    }
    for flag in ["sort", "asc", "desc"] {
        assert_eq!(heading(flag), "Sort", "--{flag}");
    }
    for flag in ["format", "all", "max", "limit", "include"] {
        assert_eq!(heading(flag), "Output", "--{flag}");
    }
    for flag in ["base-url", "deployment", "timeout", "profile", "log-file"] {
        assert_eq!(heading(flag), "Global options", "--{flag}");
    }
    // The TUI's and the writes' global flags do not apply to a listing.
    for flag in ["theme", "read-only"] {
        assert!(!seen.iter().any(|(f, _)| f == flag), "--{flag}: {help}");
    }
}

/// No variables over [`findings`]'s.
pub(crate) const NO_ENV: [(&str, &str); 0] = [];

/// What the binary offers at a Tab after `words` (the last is the word
/// being typed), as the completion script asks it: one candidate a line.
pub(crate) fn completed<V: AsRef<std::ffi::OsStr>>(
    words: &[&str],
    env: &[(&str, V)],
) -> Vec<String> {
    let mut cmd = findings();
    cmd.env("FINDINGS_COMPLETE", "bash")
        .env("_CLAP_COMPLETE_INDEX", (words.len() - 1).to_string())
        .env("_CLAP_IFS", "\n")
        .arg("--")
        .args(words);
    for (k, v) in env {
        cmd.env(k, v.as_ref());
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{words:?}: {out:?}");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn completion_offers_the_values_of_fixed_set_flags_not_files() {
    let offers = |words: &[&str], values: &str| {
        let mut argv = vec!["findings"];
        argv.extend(words);
        argv.push("");
        assert_eq!(completed(&argv, &NO_ENV).join(" "), values, "{words:?}");
    };
    let formats = "table json ndjson csv sarif markdown";
    let themes = "default dark light high-contrast";
    offers(
        &["issues", "--sort"],
        "severity ref repo rule relevant-since state",
    );
    offers(
        &["search", "--sort"],
        "severity last-detected created file-path",
    );
    for command in ["issues", "report", "search"] {
        offers(&[command, "--format"], formats);
    }
    // The TUI's flag, where the TUI starts.
    offers(&["--theme"], themes);
    offers(&["issues", "--type"], "code sca secrets research ai-code");
    offers(&["issues", "--severity"], "critical high medium low");
    offers(
        &["issues", "--state"],
        "open reviewing fixing fixed removed ignored ignored-in-code provisionally-ignored unknown",
    );
    offers(
        &["issues", "--include"],
        "remediation activity archived first-detected",
    );
    offers(&["report", "--severity"], "critical high medium low");
    offers(&["report", "--type"], "code sca secrets");
    offers(
        &["report", "--report-type"],
        "total-open total-fixed total-ignored total-provisionally-ignored open-backlog \
         backlog-activity project guardrails-activity",
    );
    offers(
        &["scm", "update", "1001", "--format"],
        "table json ndjson csv markdown",
    );
    // Free text completes nothing rather than file names (no names kept
    // here); paths complete file names.
    let nowhere = tempfile::tempdir().unwrap();
    let state = [("XDG_STATE_HOME", nowhere.path().as_os_str())];
    assert!(completed(&["findings", "issues", "--repo", ""], &state).is_empty());
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("findings.log"), "").unwrap();
    let typed = format!("{}/find", dir.path().display());
    assert_eq!(
        completed(&["findings", "issues", "--log-file", &typed], &NO_ENV),
        [format!("{}/findings.log", dir.path().display())]
    );
    // A global flag that does not apply to a command is not offered there.
    let flags = completed(&["findings", "demo", "serve", "--"], &NO_ENV);
    assert!(flags.contains(&"--findings".to_owned()), "{flags:?}");
    for hidden in ["--theme", "--base-url", "--profile"] {
        assert!(!flags.contains(&hidden.to_owned()), "{hidden} in {flags:?}");
    }
}

#[test]
fn issues_all_ndjson_lists_every_demo_finding_exactly_once() {
    let out = findings()
        .args(["issues", "--all", "--format", "ndjson", "--limit", "333"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let items = ndjson(&out.stdout);
    let ids = |items: &[Value]| -> HashSet<String> {
        items
            .iter()
            .map(|v| {
                v["issue"]["id"]
                    .as_str()
                    .expect("wrapper objects with an issue id")
                    .to_owned()
            })
            .collect()
    };
    // Archived projects' findings come only with includeArchived=true: the
    // two listings together hold every finding once.
    let archived = findings()
        .args(["issues", "--all", "--format", "ndjson", "--limit", "333"])
        .args(["--filter", "includeArchived=true"])
        .output()
        .unwrap();
    let archived = ndjson(&archived.stdout);
    assert!(!archived.is_empty() && archived.len() < 2000);
    assert_eq!(items.len() + archived.len(), 2000);
    let (listed, archived) = (ids(&items), ids(&archived));
    assert_eq!(listed.len(), items.len(), "each once");
    assert!(listed.is_disjoint(&archived));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "one line on stderr: {stderr}");
    assert!(stderr.contains("embedded demo server"), "{stderr}");
}

#[test]
fn without_all_one_page_and_max_stops_exactly() {
    let out = findings()
        .args(["issues", "--format", "ndjson"])
        .output()
        .unwrap();
    assert_eq!(ndjson(&out.stdout).len(), 100, "one default page");
    let out = findings()
        .args([
            "issues", "--max", "250", "--limit", "100", "--format", "ndjson",
        ])
        .output()
        .unwrap();
    assert_eq!(ndjson(&out.stdout).len(), 250);
}

#[test]
fn json_is_one_array_and_csv_has_a_header_with_the_id() {
    let out = findings()
        .args(["issues", "--max", "7", "--format", "json"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 7);
    assert!(v[0]["issue"]["id"].is_string());

    let out = findings()
        .args(["issues", "--max", "5", "--format", "csv"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    let header = lines.next().unwrap();
    assert!(header.starts_with("id,severity,"), "{header}");
    assert_eq!(lines.count(), 5);
}

#[test]
fn table_output_has_columns_and_no_control_bytes() {
    let out = findings()
        .args(["issues", "--all", "--format", "table"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.lines().next().unwrap().starts_with("ID"));
    assert_eq!(text.lines().count(), 1 + common::listed(2000));
    // Some demo findings carry escape sequences; none reach the output raw.
    assert!(
        !text.bytes().any(|b| b == 0x1b || b == 0x07),
        "raw control bytes in the table"
    );
}

/// Piped, a table is 200 columns wide, or `COLUMNS` wide when that is set;
/// its RULE column shows rules by their short names, as the TUI does.
#[test]
fn table_width_follows_columns_and_rules_go_by_their_short_names() {
    let table = |columns: Option<&str>| {
        let mut cmd = findings();
        cmd.args(["issues", "--max", "200", "--format", "table"]);
        match columns {
            Some(c) => cmd.env("COLUMNS", c),
            None => cmd.env_remove("COLUMNS"),
        };
        let out = cmd.assert().success().get_output().clone();
        String::from_utf8(out.stdout).unwrap()
    };
    let width = |line: &str| line.chars().count();
    let wide = table(None);
    let lines: Vec<&str> = wide.lines().collect();
    assert_eq!(lines.len(), 201);
    assert!(lines.iter().all(|l| width(l) <= 200));
    assert!(
        lines.iter().any(|l| width(l) > 180),
        "the message takes the rest"
    );
    let at = lines[0].find("RULE").unwrap();
    // By characters: a cut cell before it ends in a three-byte `…`.
    let rules: Vec<String> = lines[1..]
        .iter()
        .map(|l| l.chars().skip(at).collect::<String>())
        .map(|rest| rest.split("  ").next().unwrap().to_owned())
        .collect();
    // Code rules by the last part of their dotted id, supply-chain ones by
    // their advisory and package.
    assert!(rules.iter().any(|r| r == "open-redirect"), "{rules:?}");
    assert!(rules.iter().any(|r| r.starts_with("CVE-")), "{rules:?}");
    for rule in &rules {
        assert!(
            rule.contains(' ') || !rule.contains('.'),
            "a dotted rule path in the RULE column: {rule}"
        );
    }

    for columns in ["120", "80"] {
        let narrow = table(Some(columns));
        let limit: usize = columns.parse().unwrap();
        assert_eq!(narrow.lines().count(), 201);
        for line in narrow.lines() {
            assert!(width(line) <= limit, "wider than {columns}: {line}");
        }
        let header = narrow.lines().next().unwrap();
        assert!(
            header.starts_with("ID") && header.contains("RULE"),
            "{header}"
        );
    }
}

#[test]
fn report_json_has_the_totals_and_every_finding() {
    let out = findings()
        .args([
            "report",
            "--report-type",
            "project",
            "--all",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    // A number, as the published report schema has it.
    let total = v["total"].as_u64().expect("total is a number") as usize;
    assert_eq!(total, 2000);
    assert_eq!(v["findings"].as_array().unwrap().len(), total);
    assert!(v.get("cursor").is_none(), "no cursor after the last page");
}

/// `findings report ARGS`: its exit code, stdout and stderr.
fn report_run(args: &[&str]) -> (Option<i32>, String, String) {
    let out = findings().arg("report").args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// By project, as CSV: worst first, OPEN the sum of the severities.
#[test]
fn report_kind_by_project_as_csv_is_worst_first_and_adds_up() {
    let (code, csv, err) = report_run(&["--kind", "by-project", "--format", "csv"]);
    assert_eq!(code, Some(0), "{err}");
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("REPOSITORY,CRITICAL,HIGH,MEDIUM,LOW,OPEN")
    );
    let rows: Vec<Vec<i64>> = lines
        .map(|l| l.split(',').skip(1).map(|n| n.parse().unwrap()).collect())
        .collect();
    assert!(rows.len() > 5, "{csv}");
    for row in &rows {
        assert_eq!(row[..4].iter().sum::<i64>(), row[4], "{row:?}");
    }
    assert!(
        rows.windows(2).all(|w| w[0][..4] >= w[1][..4]),
        "worst first: {csv}"
    );
}

/// Activity as a Markdown page: the summary, then a row per bucket.
#[test]
fn report_kind_activity_as_markdown_says_the_rows_added_up() {
    let (code, md, err) = report_run(&[
        "--kind", "activity", "--since", "28d", "--bucket", "week", "--format", "markdown",
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        md.starts_with("The rows added up, against the period before: opened "),
        "{md}"
    );
    // The headline is the rows added up, every term of the net said.
    let cells: Vec<Vec<i64>> = md
        .lines()
        .filter(|l| l.starts_with("| 20"))
        .map(|l| {
            l.split('|')
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .skip(1)
                .map(|c| c.parse().unwrap())
                .collect()
        })
        .collect();
    let sum = |k: usize| cells.iter().map(|r| r[k]).sum::<i64>();
    let (opened, fixed, ignored, prov, removed) = (sum(0), sum(1), sum(2), sum(3), sum(4));
    let net = opened - fixed - ignored - prov - removed;
    assert_eq!(net, sum(5), "{md}");
    for said in [
        format!("opened {opened} ("),
        format!("fixed {fixed} ("),
        format!("ignored {ignored} ("),
        format!("provisionally ignored {prov} ("),
        format!("removed {removed} ("),
        format!("net {net} ("),
    ] {
        assert!(md.contains(&said), "{said}: {md}");
    }
    assert_eq!(
        md.lines().filter(|l| l.starts_with("| 20")).count(),
        4,
        "{md}"
    );
}

/// --period SPAN is exactly the span asked, to the end of today (UTC), in
/// every report: the same buckets run again within the day, and a bucket
/// shorter than its size said with its days.
#[test]
fn report_kind_activity_by_period_is_the_span_asked_and_reproducible() {
    let now = chrono::Utc::now();
    let (code, by_period, err) = report_run(&[
        "--kind", "activity", "--period", "30d", "--bucket", "week", "--format", "markdown",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let buckets: Vec<&str> = by_period
        .lines()
        .filter(|l| l.starts_with("| 20"))
        .collect();
    let first = buckets.first().unwrap_or_else(|| panic!("{by_period}"));
    let day = chrono::NaiveDate::parse_from_str(first[2..12].trim(), "%Y-%m-%d").unwrap();
    let end = now.date_naive() + chrono::Duration::days(1);
    assert_eq!(end - day, chrono::Duration::days(30), "{by_period}");
    // 30 days in weeks: four whole weeks, then 2 days said as such.
    assert_eq!(buckets.len(), 5, "{by_period}");
    assert!(buckets[4].contains(" (2 days) |"), "{by_period}");
    assert!(
        buckets[..4].iter().all(|b| !b.contains("days)")),
        "{by_period}"
    );
    let (_, again, _) = report_run(&[
        "--kind", "activity", "--period", "30d", "--bucket", "week", "--format", "markdown",
    ]);
    if chrono::Utc::now().date_naive() == now.date_naive() {
        assert_eq!(again, by_period, "reproducible within the day");
    }
    // The findings report and the summary count the same period.
    let total = |args: &[&str], pointer: &str| {
        let (code, json, err) = report_run(args);
        assert_eq!(code, Some(0), "{err}");
        let v: Value = serde_json::from_str(&json).unwrap();
        v.pointer(pointer).and_then(Value::as_i64).unwrap()
    };
    assert_eq!(
        total(
            &["--period", "30d", "--format", "json", "--max", "1"],
            "/total"
        ),
        total(
            &["--kind", "summary", "--period", "30d", "--format", "json"],
            "/totals/all"
        ),
    );
}

/// "All time" has no period before it: no comparison.
#[test]
fn report_kind_all_time_has_no_comparison_and_json_is_the_answer() {
    let (_, all, _) = report_run(&["--kind", "activity", "--format", "markdown"]);
    assert!(all.starts_with("The rows added up: opened "), "{all}");
    // JSON is the answer as the service gives it.
    let (_, json, _) = report_run(&["--kind", "open-age", "--format", "json"]);
    let v: Value = serde_json::from_str(&json).unwrap();
    assert!(
        v["buckets"].as_array().is_some_and(|b| !b.is_empty()),
        "{json}"
    );
}

/// A typo, a format that does not fit, a findings' field selection: exit
/// 2, said before any server starts.
#[test]
fn report_kind_usage_errors_exit_2_before_any_server_starts() {
    for (args, said) in [
        (&["--kind", "actvity"][..], "unknown --kind \"actvity\""),
        (
            &["--kind", "by-project", "--format", "sarif"][..],
            "sarif is for findings",
        ),
        (
            &["--kind", "activity", "--jq", ".x"][..],
            "--format json | jq",
        ),
        (
            &["--kind", "activity", "--period", "2026-01-01"][..],
            "for a fixed start use --since",
        ),
    ] {
        let (code, _, err) = report_run(args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains(said), "{err}");
        assert!(
            !err.contains("embedded demo server"),
            "checked first: {err}"
        );
    }
}

#[test]
fn report_severity_and_type_flags_narrow() {
    let out = findings()
        .args([
            "report",
            "--severity",
            "critical",
            "--type",
            "secrets",
            "--all",
            "--format",
            "ndjson",
        ])
        .output()
        .unwrap();
    let items = ndjson(&out.stdout);
    assert!(!items.is_empty());
    for item in &items {
        assert_eq!(item["severity"], "SEVERITY_CRITICAL");
        assert_eq!(item["issueType"], "ISSUE_TYPE_SECRETS");
    }
}

#[test]
fn search_all_returns_the_total() {
    let out = findings()
        .args([
            "search", "--all", "--format", "ndjson", "--sort", "severity",
        ])
        .output()
        .unwrap();
    let items = ndjson(&out.stdout);
    assert_eq!(items.len(), 200);
    let out = findings()
        .args(["search", "--title", "TOKEN", "--all", "--format", "ndjson"])
        .output()
        .unwrap();
    let items = ndjson(&out.stdout);
    assert!(!items.is_empty() && items.len() < 200);
    assert!(items.iter().all(|i| {
        i["title"]
            .as_str()
            .unwrap()
            .to_lowercase()
            .contains("token")
    }));
}

#[test]
fn filters_and_friendly_flags_reach_the_server() {
    let out = findings()
        .args([
            "issues",
            "--all",
            "--format",
            "ndjson",
            "--type",
            "secrets",
            "--filter",
            "excludeHistorical=true",
        ])
        .output()
        .unwrap();
    let items = ndjson(&out.stdout);
    assert!(!items.is_empty() && items.len() < 2000);
    for item in &items {
        assert_eq!(item["issue"]["issueType"], "ISSUE_TYPE_SECRETS");
        assert!(item["issue"]["secretsAttributes"]["historicalInfo"].is_null());
    }
}

/// `--severity` and `--state` take what the table shows: the open
/// criticals of one repository, newest first.
#[test]
fn severity_and_state_flags_take_the_values_the_table_shows() {
    let table = findings()
        .args(["issues", "--format", "table", "--max", "400"])
        .env("COLUMNS", "200")
        .output()
        .unwrap();
    let table = String::from_utf8_lossy(&table.stdout);
    assert!(
        table.contains("critical") && table.contains(" open "),
        "{table}"
    );
    let out = findings()
        .args(["issues", "--all", "--format", "ndjson"])
        .args(["--severity", "critical", "--state", "open"])
        .args(["--filter", "repositoryNames=acme/payments-api"])
        .args(["--sort", "relevant-since"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let items = ndjson(&out.stdout);
    assert!(!items.is_empty());
    let mut last: Option<String> = None;
    for item in &items {
        let issue = &item["issue"];
        assert_eq!(issue["severity"], "SEVERITY_CRITICAL");
        assert_eq!(issue["aggregateState"], "AGGREGATE_ISSUE_STATE_OPEN");
        assert_eq!(issue["repository"]["name"], "acme/payments-api");
        let since = issue["relevantSince"].as_str().unwrap().to_owned();
        assert!(last.as_ref().is_none_or(|l| *l >= since), "newest first");
        last = Some(since);
    }
    // Repeatable, any case, words joined by '-', '_' or a space, or the
    // wire name: the same selection.
    let count = |args: &[&str]| {
        let out = findings()
            .args(["issues", "--all", "--format", "ndjson"])
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}");
        ndjson(&out.stdout).len()
    };
    let both = count(&[
        "--state",
        "provisionally ignored",
        "--state",
        "ignored-in-code",
    ]);
    assert!(both > 0);
    assert_eq!(
        both,
        count(&[
            "--state",
            "AGGREGATE_ISSUE_STATE_PROVISIONALLY_IGNORED_APP",
            "--filter",
            "aggregateIssueStates=Ignored_In_Code",
        ])
    );
    assert!(count(&["--severity", "High", "--severity", "low"]) > count(&["--severity", "high"]));
}

#[test]
fn include_flags_add_fields() {
    let out = findings()
        .args([
            "issues",
            "--max",
            "20",
            "--format",
            "ndjson",
            "--include",
            "remediation,activity,archived,first-detected",
        ])
        .output()
        .unwrap();
    for item in ndjson(&out.stdout) {
        let issue = &item["issue"];
        assert!(issue["remediation"].is_object());
        assert!(issue["activityHistory"].is_array());
        assert!(issue["isArchived"].is_boolean());
        assert!(issue["firstDetectedAt"].is_string());
    }
    let out = findings()
        .args(["issues", "--max", "20", "--format", "ndjson"])
        .output()
        .unwrap();
    for item in ndjson(&out.stdout) {
        assert!(item["issue"].get("remediation").is_none());
        assert!(item["issue"].get("activityHistory").is_none());
    }
}

#[test]
fn sort_flags_order_the_output() {
    let out = findings()
        .args([
            "issues", "--all", "--format", "ndjson", "--sort", "severity", "--asc",
        ])
        .output()
        .unwrap();
    let rank = |s: &str| {
        [
            "SEVERITY_LOW",
            "SEVERITY_MEDIUM",
            "SEVERITY_HIGH",
            "SEVERITY_CRITICAL",
        ]
        .iter()
        .position(|x| *x == s)
        .unwrap()
    };
    let ranks: Vec<usize> = ndjson(&out.stdout)
        .iter()
        .map(|i| rank(i["issue"]["severity"].as_str().unwrap()))
        .collect();
    assert!(ranks.windows(2).all(|w| w[0] <= w[1]));
    assert_eq!(ranks.first(), Some(&0));
}

/// Usage errors: exit 2, one line naming the problem, nothing sent.
#[test]
fn usage_errors_exit_two_with_a_clear_line() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["issues", "--filter", "repoName=x"],
            "valid fields: issueTypes, severities, aggregateIssueStates, repositoryNames",
        ),
        (
            &["issues", "--filter", "issueTypes=java"],
            "\"java\" is not one of code, sca, secrets, research, ai-code",
        ),
        (
            &["issues", "--severity", "urgent"],
            "--severity: \"urgent\" is not one of critical, high, medium, low",
        ),
        (
            &["issues", "--state", "closed"],
            "--state: \"closed\" is not one of open, reviewing, fixing, fixed, removed, \
             ignored, ignored-in-code, provisionally-ignored, unknown",
        ),
        (
            &["issues", "--filter", "severities=info"],
            "is not one of critical, high, medium, low",
        ),
        (
            &["issues", "--filter", "includeArchived=maybe"],
            "true or false",
        ),
        (&["issues", "--filter", "since=last tuesday"], "RFC 3339"),
        (&["issues", "--filter", "novalue"], "FIELD=VALUE"),
        // The demo's cap: ten million, one more refused before anything
        // is generated.
        (
            &["demo", "serve", "--findings", "10000001"],
            "10000001 is not in 0..=10000000",
        ),
        (&["issues", "--sort", "colour"], "relevant-since"),
        (&["issues", "--format", "xml"], "table, json, ndjson, csv"),
        (
            &["issues", "--include", "everything"],
            "remediation, activity",
        ),
        (&["report", "--report-type", "weekly"], "total-open"),
        (
            &["report", "--filter", "findingSeverities=urgent"],
            "critical, high, medium, low",
        ),
        (&["report", "--finding-state", "closed"], "ignored-in-code"),
        (
            &["search", "--filter", "createdAt.startAt=soon"],
            "RFC 3339",
        ),
        (&["search", "--sort", "title"], "last-detected"),
        (&["scm", "update", "1001"], "nothing to change"),
        (
            &["scm", "update", "1001", "--auto-scan", "maybe"],
            "possible values",
        ),
        (&["issues", "--max", "0"], "--max must be at least 1"),
        (
            &["search", "--max", "many"],
            "--max takes a whole number, at least 1",
        ),
        (&["issues", "--bogus"], "unexpected argument '--bogus'"),
        (
            &["demo", "serve", "--fault", "hang", "--fault-times", "0"],
            "--fault-times must be at least 1",
        ),
    ];
    for (args, needle) in cases {
        let out = findings().args(*args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        // One style, whether clap or the command found the error.
        assert!(
            stderr.lines().any(|l| l.starts_with("findings: error: "))
                && !stderr.lines().any(|l| l.starts_with("error:")),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("18446744073709551615"), "{stderr}");
        assert!(
            stderr.contains(needle),
            "{args:?}: expected {needle:?} in {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?} wrote to stdout");
        assert!(
            !stderr.contains("SEVERITY_") && !stderr.contains("AGGREGATE_"),
            "{stderr}"
        );
    }
    findings().args(["issues", "--limit", "0"]).assert().code(2);
    findings()
        .args(["issues", "--limit", "1001"])
        .assert()
        .code(2);
    findings()
        .args(["issues", "--all", "--max", "3"])
        .assert()
        .code(2);
}

#[test]
fn connection_settings_are_checked_before_anything_is_sent() {
    findings()
        .args([
            "issues",
            "--base-url",
            "http://findings.example.com",
            "--deployment",
            "1",
        ])
        .env("FINDINGS_TOKEN", "t")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--allow-http"));
    findings()
        .args([
            "issues",
            "--base-url",
            "https://findings.example.com",
            "--deployment",
            "1",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("FINDINGS_TOKEN"));
    // No deployment: it is asked of the server; when that fails, the
    // error says what to configure.
    findings()
        .args([
            "issues",
            "--base-url",
            "http://127.0.0.1:9",
            "--connect-timeout",
            "2",
        ])
        .env("FINDINGS_TOKEN", "t")
        .assert()
        .code(1)
        // The hint fits the error: nothing listens there, so the port.
        .stderr(predicate::str::contains("nothing listens"))
        .stderr(predicate::str::contains("--deployment").not());
}

#[test]
fn global_options_work_after_the_subcommand_and_from_the_environment() {
    let server = Server::start(300);
    let out = findings()
        .args([
            "issues",
            "--all",
            "--format",
            "ndjson",
            "--base-url",
            &server.url(),
            "--deployment",
            "1234",
        ])
        .env("FINDINGS_TOKEN", "demo-token")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(ndjson(&out.stdout).len(), common::listed(300));
    assert!(
        out.stderr.is_empty(),
        "no demo notice when a base URL is given"
    );

    let out = findings()
        .args(["search", "--max", "3", "--format", "ndjson"])
        .env("FINDINGS_BASE_URL", server.url())
        .env("FINDINGS_DEPLOYMENT", "1234")
        .env("FINDINGS_TOKEN", "demo-token")
        .output()
        .unwrap();
    assert_eq!(ndjson(&out.stdout).len(), 3);
}

#[test]
fn api_errors_exit_one_and_never_show_the_token() {
    let server = Server::start(50);
    let secret = "wrong-token-3f9a";
    let out = findings()
        .args([
            "issues",
            "--base-url",
            &server.url(),
            "--deployment",
            "1234",
        ])
        .env("FINDINGS_TOKEN", secret)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("not authenticated") && stderr.contains("401"),
        "{stderr}"
    );
    assert!(!stderr.contains(secret) && !String::from_utf8_lossy(&out.stdout).contains(secret));
    assert_eq!(stderr.lines().count(), 1, "{stderr}");

    let out = findings()
        .args([
            "issues",
            "--base-url",
            &server.url(),
            "--deployment",
            "4321",
        ])
        .env("FINDINGS_TOKEN", "demo-token")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("deployment 4321 not found"));

    // Nothing listens here: a connection error, exit 1.
    let out = findings()
        .args([
            "report",
            "--base-url",
            "http://127.0.0.1:9",
            "--deployment",
            "1",
            "--connect-timeout",
            "2",
        ])
        .env("FINDINGS_TOKEN", "t")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("the connection was refused"));
}

#[test]
fn scm_update_sends_only_what_was_given_after_showing_it() {
    let out = findings()
        .args([
            "scm",
            "update",
            "1003",
            "--auto-scan",
            "on",
            "--diff-scan",
            "off",
            "--yes",
            "--format",
            "table",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("PATCH /api/scm/deployments/1234/configs/1003"),
        "{stderr}"
    );
    assert!(
        stderr.contains("\"autoScan\": true") && stderr.contains("\"diffEnabled\": false"),
        "{stderr}"
    );
    assert!(
        !stderr.contains("namespace"),
        "fields not given are not sent: {stderr}"
    );
    assert!(
        stdout.contains("auto scan") && stdout.contains("on"),
        "{stdout}"
    );
    assert!(stdout.contains("[x] readMetadata"), "{stdout}");
}

#[test]
fn scm_update_reads_the_token_from_stdin_and_never_prints_it() {
    let secret = "scm-pat-7c1e55d0";
    let out = findings()
        .args([
            "scm",
            "update",
            "1002",
            "--access-token-stdin",
            "--yes",
            "--format",
            "json",
        ])
        .write_stdin(format!("{secret}\n"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("\"accessToken\": \"***\""), "{stderr}");
    assert!(!stdout.contains(secret) && !stderr.contains(secret));
    // The config itself, as `scm list` gives it.
    let v: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["hasAccessToken"], true);
    assert!(v.get("accessToken").is_none() && v.get("config").is_none());
}

#[test]
fn scm_update_without_terminal_or_yes_refuses() {
    let out = findings()
        .args(["scm", "update", "1001", "--namespace", "acme-new"])
        .write_stdin("")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("pass --yes"));
}

#[test]
fn scm_update_errors_and_read_only() {
    findings()
        .args(["scm", "update", "7777", "--auto-scan", "on", "--yes"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("SCM config 7777 not found"));
    findings()
        .args([
            "scm",
            "update",
            "1001",
            "--auto-scan",
            "on",
            "--yes",
            "--read-only",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--read-only"));
    findings()
        .args(["scm", "update", "1001", "--access-token-stdin", "--yes"])
        .write_stdin("   \n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("empty"));
}

#[test]
fn no_subcommand_prints_a_summary_of_the_demo() {
    let out = findings().output().unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("Open findings: Total"), "{stdout}");
}

#[test]
fn demo_serve_prints_how_to_reach_it_and_answers() {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("findings"))
        .args([
            "demo",
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--findings",
            "120",
            "--token",
            "tok-1",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    let url = first.rsplit(' ').next().unwrap().to_owned();
    assert!(url.starts_with("http://127.0.0.1:"), "{first}");
    let rest: Vec<String> = lines.by_ref().take(5).map(Result::unwrap).collect();
    assert!(
        rest.iter()
            .any(|l| l.contains("deployment") && l.contains("1234")),
        "{rest:?}"
    );
    assert!(rest.iter().any(|l| l.contains("tok-1")), "{rest:?}");
    assert!(rest.iter().any(|l| l.contains("1001")), "{rest:?}");

    let out = findings()
        .args([
            "issues",
            "--all",
            "--format",
            "ndjson",
            "--base-url",
            &url,
            "--deployment",
            "1234",
        ])
        .env("FINDINGS_TOKEN", "tok-1")
        .output()
        .unwrap();
    assert_eq!(ndjson(&out.stdout).len(), common::listed(120));
    // Its token only: the built-in demo tokens everyone knows get 401.
    for built_in in [
        "demo-token",
        "demo-token-read-only",
        "demo-token-no-web-api",
    ] {
        let out = findings()
            .args(["issues", "--max", "1", "--base-url", &url])
            .args(["--deployment", "1234"])
            .env("FINDINGS_TOKEN", built_in)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && stderr.contains("401"),
            "{built_in}: {stderr}"
        );
    }
    child.kill().unwrap();
    let _ = child.wait();
}

/// Off loopback, others reach the server: the built-in tokens would open
/// it to anyone, so `--token` is needed, and the listening is said loudly.
#[test]
fn demo_serve_off_loopback_needs_a_token_and_warns() {
    // Bounded: a server that starts instead of refusing fails the test.
    let out = findings()
        .args(["demo", "serve", "--addr", "0.0.0.0:0", "--findings", "10"])
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--token") && stderr.contains("loopback"),
        "{stderr}"
    );
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("findings"))
        .args(["demo", "serve", "--addr", "0.0.0.0:0", "--findings", "10"])
        .args(["--token", "tok-2"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The warning comes before the banner, so it is there once the banner is.
    let first = BufReader::new(child.stdout.take().unwrap())
        .lines()
        .next()
        .unwrap()
        .unwrap();
    assert!(first.contains("listening"), "{first}");
    child.kill().unwrap();
    let _ = child.wait();
    let stderr = std::io::read_to_string(child.stderr.take().unwrap()).unwrap();
    assert!(
        stderr.contains("WARNING") && stderr.contains("every interface"),
        "{stderr}"
    );
}

/// Off loopback, `--token` set to a token the demo publishes is no token
/// of one's own: refused as a usage error naming the flag, never served.
#[test]
fn demo_serve_off_loopback_refuses_a_published_token() {
    for published in findings_demo::PUBLISHED_TOKENS {
        // Bounded: a server that starts instead of refusing fails the test.
        let out = findings()
            .args(["demo", "serve", "--addr", "0.0.0.0:0", "--findings", "10"])
            .args(["--token", published])
            .timeout(std::time::Duration::from_secs(60))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{published}: {stderr}");
        assert!(
            stderr.contains(&format!("--token {published}:")) && stderr.contains("loopback"),
            "{stderr}"
        );
        assert!(out.stdout.is_empty(), "{published}: no banner");
    }
}

/// `demo serve | head -1`, or a service manager with stdout closed: the
/// banner cannot be written, and the server serves all the same.
#[cfg(unix)]
#[test]
fn demo_serve_with_stdout_closed_serves_and_stops_cleanly() {
    // A port free now, for the child to bind (it prints no URL we can read).
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let addr = format!("127.0.0.1:{port}");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("findings"))
        .args(["demo", "serve", "--addr", &addr, "--findings", "50"])
        .stdout(writer)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Until it listens, or has ended (the banner's write panicked).
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while std::net::TcpStream::connect(&addr).is_err() {
        assert!(
            child.try_wait().unwrap().is_none(),
            "ended before serving: {}",
            std::io::read_to_string(child.stderr.take().unwrap()).unwrap()
        );
        assert!(std::time::Instant::now() < deadline, "never listened");
        std::thread::yield_now();
    }
    let out = findings()
        .args(["issues", "--max", "3", "--format", "ndjson"])
        .args([
            "--base-url",
            &format!("http://{addr}"),
            "--deployment",
            "1234",
        ])
        .env("FINDINGS_TOKEN", "demo-token")
        .output()
        .unwrap();
    assert_eq!(ndjson(&out.stdout).len(), 3, "{out:?}");
    // SAFETY: signals the child this test started, by its id.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let status = child.wait().unwrap();
    let stderr = std::io::read_to_string(child.stderr.take().unwrap()).unwrap();
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(status.success(), "{status:?}: {stderr}");
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("findings"))
        .args(["issues", "--all", "--format", "ndjson", "--limit", "50"])
        .env("FINDINGS_BASE_URL", "demo")
        .env_remove("CI")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 64];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let status = child.wait().unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        status.code().is_some_and(|c| c <= 1),
        "{status:?}: {stderr}"
    );
}

// ------------------------------------------------------------------ exports

fn sarif_of(args: &[&str]) -> Value {
    let out = findings()
        .args(args)
        .assert()
        .success()
        .get_output()
        .clone();
    serde_json::from_slice(&out.stdout).expect("the SARIF log is one JSON document")
}

/// The structure a SARIF consumer relies on (the full schema check is
/// tests/sarif/validate.py, outside `cargo test`).
pub(crate) fn check_sarif_structure(doc: &Value) -> &Vec<Value> {
    assert_eq!(
        doc["$schema"],
        "https://json.schemastore.org/sarif-2.1.0.json"
    );
    assert_eq!(doc["version"], "2.1.0");
    let runs = doc["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 1);
    let driver = &runs[0]["tool"]["driver"];
    assert_eq!(driver["name"], "findings");
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
    let rules = driver["rules"].as_array().map_or(&[][..], Vec::as_slice);
    let ids: HashSet<&str> = rules.iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), rules.len(), "each rule once");
    for rule in rules {
        // Every rule has a short name, and a title that is not its id (a
        // long dotted path, or an opaque `ssc-…` id for supply chain).
        let id = rule["id"].as_str().unwrap();
        let name = rule["name"].as_str().expect("every rule has a name");
        let short = rule["shortDescription"]["text"].as_str().unwrap();
        assert!(!name.is_empty(), "{id}");
        assert!(!short.is_empty() && short != id, "{id}: {short}");
        if id.starts_with("ssc-") {
            assert!(
                name.starts_with("CVE-") || name.starts_with("GHSA-"),
                "{id}: {name}"
            );
        } else {
            assert_eq!(name, id.rsplit('.').next().unwrap(), "{id}");
        }
        assert!(rule["properties"]["tags"].is_array());
    }
    let results = runs[0]["results"].as_array().unwrap();
    for r in results {
        let k = r["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[k]["id"], r["ruleId"], "ruleIndex points at its rule");
        assert!(["error", "warning", "note"].contains(&r["level"].as_str().unwrap()));
        assert!(!r["message"]["text"].as_str().unwrap().is_empty());
        let loc = &r["locations"][0]["physicalLocation"];
        assert!(loc["artifactLocation"]["uri"].is_string());
        let region = &loc["region"];
        let start = region["startLine"].as_i64().unwrap();
        assert!(start >= 1);
        if let Some(end) = region["endLine"].as_i64() {
            assert!(end >= start);
        }
        assert!(r["partialFingerprints"]["matchBasedId/v1"].is_string());
        assert!(r["properties"]["id"].is_string());
    }
    assert!(
        !doc.to_string().contains("null"),
        "empty fields are left out"
    );
    results
}

#[test]
fn issues_as_sarif_has_one_result_per_finding_with_rules_once() {
    let doc = sarif_of(&["issues", "--max", "150", "--format", "sarif"]);
    let results = check_sarif_structure(&doc);
    assert_eq!(results.len(), 150);
    // The same findings, in the same order, as the NDJSON listing.
    let out = findings()
        .args(["issues", "--max", "150", "--format", "ndjson"])
        .assert()
        .success()
        .get_output()
        .clone();
    let items = ndjson(&out.stdout);
    let ids: Vec<&str> = items
        .iter()
        .map(|i| i["issue"]["id"].as_str().unwrap())
        .collect();
    let sarif_ids: Vec<&str> = results
        .iter()
        .map(|r| r["properties"]["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, sarif_ids);
    // Fewer rules than findings: rules repeat across findings.
    let rules = doc["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    assert!(rules.len() < results.len(), "{} rules", rules.len());
    // Supply-chain findings carry their package data.
    let sca = results
        .iter()
        .find(|r| r["properties"]["issueType"] == "ISSUE_TYPE_SCA")
        .expect("the demo has supply-chain findings");
    assert!(sca["properties"]["sca"]["package"].is_string());
    assert!(sca["properties"]["sca"]["vulnId"].is_string());
}

#[test]
fn report_as_sarif_levels_follow_severity() {
    let doc = sarif_of(&[
        "report",
        "--severity",
        "critical",
        "--max",
        "40",
        "--format",
        "sarif",
    ]);
    let results = check_sarif_structure(&doc);
    assert_eq!(results.len(), 40);
    assert!(results.iter().all(|r| r["level"] == "error"));
    let doc = sarif_of(&[
        "report",
        "--severity",
        "low",
        "--max",
        "10",
        "--format",
        "sarif",
    ]);
    let results = check_sarif_structure(&doc);
    assert!(!results.is_empty() && results.iter().all(|r| r["level"] == "note"));
}

#[test]
fn sarif_of_nothing_is_a_valid_empty_log() {
    let doc = sarif_of(&["issues", "--filter", "ids=0", "--format", "sarif"]);
    let results = check_sarif_structure(&doc);
    assert!(results.is_empty());
}

/// Splits a Markdown table row into its cells (an escaped `\|` stays).
fn markdown_cells(line: &str) -> Vec<String> {
    assert!(line.starts_with("| ") && line.ends_with(" |"), "{line}");
    let mut cells = vec![String::new()];
    let mut chars = line[1..line.len() - 1].chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                cells.last_mut().unwrap().push(c);
                if let Some(n) = chars.next() {
                    cells.last_mut().unwrap().push(n);
                }
            }
            '|' => cells.push(String::new()),
            c => cells.last_mut().unwrap().push(c),
        }
    }
    cells.iter().map(|c| c.trim().to_owned()).collect()
}

#[test]
fn issues_and_report_as_markdown_tables() {
    for args in [
        &["issues", "--max", "5", "--format", "markdown"][..],
        &["report", "--max", "5", "--format", "markdown"][..],
    ] {
        let out = findings()
            .args(args)
            .assert()
            .success()
            .get_output()
            .clone();
        let text = String::from_utf8(out.stdout).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 7, "header, delimiter, 5 rows: {text}");
        let header = markdown_cells(lines[0]);
        assert_eq!(header[..3], ["id", "severity", "state"]);
        assert!(markdown_cells(lines[1]).iter().all(|c| c == "---"));
        for row in &lines[2..] {
            let cells = markdown_cells(row);
            assert_eq!(cells.len(), header.len(), "{row}");
            assert!(!cells[0].is_empty(), "every row has its id: {row}");
            assert!(!row.chars().any(|c| c.is_control()));
        }
    }
}

#[test]
fn search_takes_markdown_and_refuses_sarif() {
    let out = findings()
        .args(["search", "--max", "3", "--format", "markdown"])
        .assert()
        .success()
        .get_output()
        .clone();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 5, "{text}");
    assert!(text.starts_with("| id | severity | detection |"), "{text}");
    findings()
        .args(["search", "--format", "sarif"])
        .assert()
        .code(2)
        .stdout(predicate::str::is_empty())
        .stderr(predicate::str::contains("--format sarif is for findings"));
    findings()
        .args(["issues", "--format", "xml"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("sarif, markdown"));
}

/// The id of the first finding `issues` lists on the embedded demo.
fn first_demo_finding() -> String {
    let out = findings()
        .args(["issues", "--max", "1", "--format", "ndjson"])
        .output()
        .unwrap();
    assert!(out.status.success());
    ndjson(&out.stdout)[0]["issue"]["id"]
        .as_str()
        .expect("an id")
        .to_owned()
}

#[test]
fn show_prints_one_finding_from_the_single_issue_fetch() {
    let id = first_demo_finding();
    let out = findings()
        .args(["show", &id, "--format", "json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let issue: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(issue["id"], id.as_str());
    // What only the single-issue fetch gives.
    assert!(
        issue["activityHistory"]
            .as_array()
            .is_some_and(|a| !a.is_empty())
    );
    assert!(issue["firstDetectedAt"].is_string());

    let table = findings()
        .args(["show", &id, "--format", "table"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(table.status.success());
    for heading in ["── Overview ──", "── Code ──", "── Activity ──"] {
        assert!(text.contains(heading), "{heading} in\n{text}");
    }
    assert!(!text.bytes().any(|b| b == 0x1b), "no escape sequences");

    let md = findings()
        .args(["show", &id, "--format", "markdown"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&md.stdout).contains(&id));
}

#[test]
fn show_of_an_unknown_finding_fails_with_the_servers_word() {
    findings()
        .args(["show", "no-such-finding", "--format", "json"])
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains("not found"));
    findings()
        .args(["show", "x", "--format", "yaml"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "valid formats: table, json, ndjson, csv, sarif, markdown",
        ));
}

/// What `findings issues` sends: the type selection at the top level
/// (never `filter.issueTypes`), and always a limit.
#[test]
fn issues_sends_types_at_the_top_level_and_always_a_limit() {
    let recorder = common::Recorder::start();
    let run = |args: &[&str]| {
        let out = findings()
            .args(["issues", "--format", "ndjson"])
            .args(args)
            .env("FINDINGS_BASE_URL", &recorder.url)
            .env("FINDINGS_DEPLOYMENT", "1234")
            .env("FINDINGS_TOKEN", "t")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        // The recorder lists no names and answers nothing: a listing that
        // names any (a ref, an advisory) went unchecked, so its empty
        // answer is exit 1; the others succeed.
        let named = args.iter().any(|a| a.starts_with("refs=") || *a == "--cve");
        if named {
            assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
            assert!(stderr.contains("the filter is sent unchecked"), "{stderr}");
        } else {
            assert!(out.status.success(), "{args:?}: {stderr}");
        }
    };
    run(&["--type", "sca", "--severity", "critical"]);
    run(&[
        "--filter",
        "issueTypes=secrets",
        "--filter",
        "refs=main",
        "--all",
    ]);
    run(&["--cve", "CVE-2021-44906"]);
    run(&[]);
    let bodies = recorder.bodies();
    assert_eq!(bodies.len(), 4);
    assert_eq!(
        bodies[0]["issueTypes"],
        serde_json::json!(["ISSUE_TYPE_SCA"])
    );
    assert_eq!(
        bodies[0]["filter"],
        serde_json::json!({"severities": ["SEVERITY_CRITICAL"]})
    );
    assert_eq!(
        bodies[1]["issueTypes"],
        serde_json::json!(["ISSUE_TYPE_SECRETS"])
    );
    assert_eq!(bodies[1]["filter"], serde_json::json!({"refs": ["main"]}));
    // --cve narrows supply-chain findings, so it asks for them.
    assert_eq!(
        bodies[2]["issueTypes"],
        serde_json::json!(["ISSUE_TYPE_SCA"])
    );
    assert!(bodies[3].get("filter").is_none() && bodies[3].get("issueTypes").is_none());
    for (k, body) in bodies.iter().enumerate() {
        // --all asks the largest page; a single page the default.
        let limit = if k == 1 { 1000 } else { 100 };
        assert_eq!(body["limit"], serde_json::json!(limit), "{body}");
        assert!(body["filter"].get("issueTypes").is_none(), "{body}");
    }
}

/// One definition per figure: the activity's JSON carries the derived
/// headline beside the service's totals (named apart), the same figures
/// the summary's JSON and the table's line give, and in each the net is
/// opened less fixed, ignored, provisionally ignored and removed; the
/// ignored leave out the provisionally ignored, as the IGNORED column does.
#[test]
fn activity_headline_is_one_set_of_figures_in_every_format() {
    let period = ["--period", "30d", "--bucket", "week"];
    let (code, json, err) =
        report_run(&[&["--kind", "activity", "--format", "json"][..], &period].concat());
    assert_eq!(code, Some(0), "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let sum = |k: &str| -> i64 {
        v["buckets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b[k].as_i64().unwrap_or(0))
            .sum()
    };
    let h = &v["headline"];
    let figure =
        |h: &serde_json::Value, k: &str| h[k].as_i64().unwrap_or_else(|| panic!("{k}: {h}"));
    for (term, column) in [
        ("opened", "opened"),
        ("fixed", "fixed"),
        ("ignored", "ignored"),
        ("provisionallyIgnored", "provisionallyIgnored"),
        ("removed", "removed"),
        ("net", "net"),
    ] {
        assert_eq!(figure(h, term), sum(column), "{term}: {json}");
    }
    for h in [h, &v["headlinePreviousPeriod"]] {
        assert_eq!(
            figure(h, "net"),
            figure(h, "opened")
                - figure(h, "fixed")
                - figure(h, "ignored")
                - figure(h, "provisionallyIgnored")
                - figure(h, "removed"),
            "{h}"
        );
    }
    // The service's own totals stay as it sent them, apart from the headline.
    assert_eq!(
        v["totalIgnored"].as_i64(),
        Some(figure(h, "ignored")),
        "{json}"
    );

    // The summary's JSON: the same figures.
    let (code, summary, err) =
        report_run(&[&["--kind", "summary", "--format", "json"][..], &period].concat());
    assert_eq!(code, Some(0), "{err}");
    let s: serde_json::Value = serde_json::from_str(&summary).unwrap();
    let a = &s["activity"];
    for (theirs, ours) in [
        ("opened", "opened"),
        ("fixed", "fixed"),
        ("ignored", "ignored"),
        ("provisionally_ignored", "provisionallyIgnored"),
        ("removed", "removed"),
        ("net", "net"),
    ] {
        assert_eq!(
            a[theirs].as_i64(),
            Some(figure(h, ours)),
            "{theirs}: {summary}"
        );
    }

    // The table's line says each of them, in words.
    let (code, table, err) =
        report_run(&[&["--kind", "activity", "--format", "table"][..], &period].concat());
    assert_eq!(code, Some(0), "{err}");
    let line: String = table.split("\n\n").next().unwrap().replace('\n', " ");
    for said in [
        format!("ignored {} (", figure(h, "ignored")),
        format!(
            "provisionally ignored {} (",
            figure(h, "provisionallyIgnored")
        ),
        format!("removed {} (", figure(h, "removed")),
        format!("net {} (", figure(h, "net")),
    ] {
        assert!(line.contains(&said), "{said}: {table}");
    }
}

/// Days later, the demo's data is ahead of the clock: its banner says the
/// data's day and gives it as FINDINGS_NOW in the export line, so a client
/// counts ages and periods to it.
#[test]
fn demo_serve_days_later_gives_its_clock_to_clients() {
    let before = chrono::Utc::now().date_naive();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("findings"))
        .args(["demo", "serve", "--addr", "127.0.0.1:0", "--findings", "60"])
        .args(["--days-later", "3"])
        .env_remove("FINDINGS_BASE_URL")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let lines: Vec<String> = BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map(Result::unwrap)
        .take_while(|l| !l.starts_with("Press Ctrl-C"))
        .collect();
    child.kill().unwrap();
    child.wait().unwrap();
    // The server's day: today's, or tomorrow's if midnight passed since.
    let day = |d: chrono::NaiveDate| {
        (d + chrono::Duration::days(3))
            .format("%Y-%m-%dT00:00:00Z")
            .to_string()
    };
    let days = [day(before), day(chrono::Utc::now().date_naive())];
    let data = lines
        .iter()
        .find(|l| l.contains("data as of"))
        .unwrap_or_else(|| panic!("{lines:?}"));
    assert!(data.contains("3 days later"), "{data}");
    let export = lines.iter().find(|l| l.contains("export ")).unwrap();
    assert!(
        days.iter()
            .any(|d| data.contains(d.as_str()) && export.ends_with(&format!(" FINDINGS_NOW={d}"))),
        "{data}\n{export}"
    );
}
