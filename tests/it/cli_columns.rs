//! `--columns LIST` of `issues` and `expired`: the catalog's columns in csv,
//! table and markdown, the values those of the findings as `--format
//! ndjson` gives them, presets mixed with names, an unknown name refused
//! with the closest one, and a table of many columns that fits 80 columns.

use crate::cli::Server;
use crate::common::{csv_cells, findings};
use serde_json::Value;

fn ok(server: &Server, args: &[&str]) -> String {
    let (code, stdout, stderr) = server.run(args);
    assert_eq!(code, 0, "{args:?}: {stderr}");
    stdout
}

/// A CSV cell as the writer writes a text: one line, a formula start made
/// text.
fn as_cell(text: &str) -> String {
    let one = findings_base::text::one_line(text).into_owned();
    match one.chars().next() {
        Some('=' | '+' | '-' | '@') => format!("'{one}"),
        _ => one,
    }
}

fn time(v: &Value) -> String {
    v.as_str()
        .map(|t| {
            chrono::DateTime::parse_from_rfc3339(t)
                .unwrap()
                .with_timezone(&chrono::Utc)
                .format("%Y-%m-%d %H:%M")
                .to_string()
        })
        .unwrap_or_default()
}

#[test]
fn csv_columns_are_the_values_ndjson_gives_of_the_same_findings() {
    let server = Server::start(150);
    let columns = "id,severity,rule_id,branch,location,first_detected,ticket,ticket_url,fix_pr,note,owner_team,epss,url";
    let csv = ok(
        &server,
        &["issues", "--all", "--format", "csv", "--columns", columns],
    );
    let ndjson = ok(
        &server,
        &[
            "issues",
            "--all",
            "--format",
            "ndjson",
            "--include",
            "first-detected,activity",
        ],
    );
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some(columns), "the header is the names");
    let rows: Vec<Vec<String>> = lines.map(csv_cells).collect();
    let items: Vec<Value> = ndjson
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["issue"].clone())
        .collect();
    assert_eq!(rows.len(), items.len());
    assert!(rows.len() >= 100, "{}", rows.len());
    let text = |v: &Value| v.as_str().map(as_cell).unwrap_or_default();
    let (mut tickets, mut teams, mut scores, mut notes, mut fix_prs) = (0, 0, 0, 0, 0);
    for (row, f) in rows.iter().zip(&items) {
        assert_eq!(row.len(), 13, "{row:?}");
        assert!(row.iter().all(|c| c != "null"), "{row:?}");
        let id = f["id"].as_str().unwrap();
        assert_eq!(row[0], id);
        let severity = f["severity"].as_str().unwrap_or_default();
        assert_eq!(
            row[1],
            severity.trim_start_matches("SEVERITY_").to_lowercase(),
            "{id}"
        );
        assert_eq!(row[2], text(&f["ruleId"]), "{id}");
        assert_eq!(row[3], text(&f["ref"]), "{id}");
        let location = match f["line"].as_i64() {
            Some(line) if line > 0 => format!("{}:{line}", f["filePath"].as_str().unwrap_or("")),
            _ => f["filePath"].as_str().unwrap_or("").to_owned(),
        };
        assert_eq!(row[4], as_cell(&location), "{id}");
        assert_eq!(row[5], time(&f["firstDetectedAt"]), "{id}");
        let ticket = &f["externalTicket"];
        assert_eq!(row[6], text(&ticket["externalSlug"]), "{id}");
        assert_eq!(row[7], text(&ticket["url"]), "{id}");
        // A list answer has no link: where the fix PR stands, from the
        // latest of its events.
        assert_eq!(row[8], fix_pr_said(f), "{id}");
        fix_prs += usize::from(!row[8].is_empty());
        assert_eq!(row[9], text(&f["note"]), "{id}");
        let owners: Vec<&str> = f["codeowners"]
            .as_array()
            .map(|o| {
                o.iter()
                    .filter(|o| o["isTeam"] == true)
                    .filter_map(|o| o["name"].as_str())
                    .collect()
            })
            .unwrap_or_default();
        assert_eq!(row[10], owners.join("; "), "{id}");
        let score = f["scaAttributes"]["epssScore"]["score"].as_f64();
        assert_eq!(row[11].parse::<f64>().ok(), score, "{id}");
        assert_eq!(row[12], text(&f["lineOfCodeUrl"]), "{id}");
        tickets += usize::from(!row[6].is_empty());
        teams += usize::from(!row[10].is_empty());
        scores += usize::from(score.is_some());
        notes += usize::from(!row[9].is_empty());
    }
    // The demo has each of them: the comparison compared something.
    assert!(tickets > 0 && teams > 0 && scores > 0 && notes > 0 && fix_prs > 0);
}

/// What the fix_pr column says of finding `f` (with its activity): its
/// link, else the latest fix PR event's word.
fn fix_pr_said(f: &Value) -> String {
    if let Some(url) = f["clickToFixPrUrl"].as_str() {
        return url.to_owned();
    }
    let events = f["activityHistory"].as_array().cloned().unwrap_or_default();
    events
        .iter()
        .filter_map(|e| {
            let word = match e["historyType"].as_str()? {
                "HISTORY_TYPE_CLICK_TO_FIX_PR_REQUESTED" => "requested",
                "HISTORY_TYPE_CLICK_TO_FIX_PR_OPENED" => "opened",
                "HISTORY_TYPE_CLICK_TO_FIX_PR_MERGED" => "merged",
                "HISTORY_TYPE_CLICK_TO_FIX_PR_FAILED" => "failed",
                _ => return None,
            };
            Some((e["date"].as_str().unwrap_or("").to_owned(), word))
        })
        .max_by(|a, b| a.0.cmp(&b.0))
        .map(|(_, w)| w.to_owned())
        .unwrap_or_default()
}

/// A CVE response's inventory in one command: the package, the version in
/// use, the fix version, direct or transitive and where an exception
/// request stands, each the value the finding carries.
#[test]
fn supply_chain_columns_are_the_dependency_the_fix_and_the_exception() {
    let server = Server::start(400);
    let columns = "id,package,version,fix_version,transitivity,exception,reachability";
    let csv = ok(
        &server,
        &[
            "issues",
            "--all",
            "--type",
            "sca",
            "--format",
            "csv",
            "--columns",
            columns,
        ],
    );
    let ndjson = ok(
        &server,
        &[
            "issues",
            "--all",
            "--type",
            "sca",
            "--format",
            "ndjson",
            "--include",
            "activity",
        ],
    );
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some(columns));
    let rows: Vec<Vec<String>> = lines.map(csv_cells).collect();
    let items: Vec<Value> = ndjson
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["issue"].clone())
        .collect();
    assert_eq!(rows.len(), items.len());
    assert!(rows.len() >= 50, "{}", rows.len());
    let mut exceptions = 0;
    for (row, f) in rows.iter().zip(&items) {
        let sca = &f["scaAttributes"];
        let dep = &sca["foundDependency"];
        let s = |v: &Value| v.as_str().unwrap_or("").to_owned();
        assert_eq!(row[1], s(&dep["package"]), "{f}");
        assert_eq!(row[2], s(&dep["version"]), "{f}");
        let fix = sca["bestFix"]["version"]
            .as_str()
            .or_else(|| sca["fixRecommendations"][0]["version"].as_str())
            .unwrap_or("");
        assert_eq!(row[3], fix, "{f}");
        assert_eq!(row[4], s(&dep["transitivity"]).to_lowercase(), "{f}");
        assert!(!row[1].is_empty() && !row[2].is_empty(), "{row:?}");
        assert!(
            matches!(row[4].as_str(), "direct" | "transitive"),
            "{row:?}"
        );
        // The latest exception event says where the request stands.
        let latest = f["activityHistory"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|e| match e["historyType"].as_str()? {
                "HISTORY_TYPE_EXCEPTION_REQUEST_CREATED" => Some("requested"),
                "HISTORY_TYPE_EXCEPTION_REQUEST_APPROVED" => Some("approved"),
                "HISTORY_TYPE_EXCEPTION_REQUEST_REJECTED" => Some("rejected"),
                _ => None,
            })
            .next_back()
            .unwrap_or("");
        assert_eq!(row[5], latest, "{f}");
        exceptions += usize::from(!row[5].is_empty());
    }
    assert!(exceptions > 0, "no exception request among {}", rows.len());
}

#[test]
fn age_and_days_over_target_count_from_first_detection_to_the_clock() {
    let server = Server::start(120);
    let now = "2026-12-20T12:00:00Z";
    let run = |args: &[&str]| {
        let (code, stdout, stderr) = server.run_at(Some(now), args);
        assert!(code == 0, "{args:?}: {stderr}");
        stdout
    };
    let csv = run(&[
        "issues",
        "--all",
        "--format",
        "csv",
        "--columns",
        "id,state,severity,age,days_over_target",
    ]);
    let ndjson = run(&[
        "issues",
        "--all",
        "--format",
        "ndjson",
        "--include",
        "first-detected",
    ]);
    let now: chrono::DateTime<chrono::Utc> = now.parse().unwrap();
    let targets = findings_model::SlaDays::default();
    let mut over = 0;
    for (line, item) in csv.lines().skip(1).zip(ndjson.lines()) {
        let row = csv_cells(line);
        let f: findings_model::IssueItem = serde_json::from_str(item).unwrap();
        let f = f.issue.unwrap();
        let age = targets.open_age(
            f.severity.as_ref(),
            f.aggregate_state.as_ref(),
            f.first_detected_at,
            now,
        );
        assert_eq!(row[0], f.id());
        assert_eq!(
            row[3],
            age.map_or(String::new(), |a| a.days.to_string()),
            "{line}"
        );
        assert_eq!(
            row[4],
            age.map_or(String::new(), |a| a.over.to_string()),
            "{line}"
        );
        let open = f.aggregate_state.as_ref().is_some_and(|s| s.is_open());
        assert_eq!(row[3].is_empty(), !open, "{line}");
        over += usize::from(age.is_some_and(|a| a.over > 0));
    }
    assert!(over > 0, "some finding is past its target");
    json_reckons_age_as_the_csv(&run, &csv);
    // The same findings `--over-target` lists are those with days over.
    let listed = run(&[
        "issues",
        "--over-target",
        "--format",
        "csv",
        "--columns",
        "id,days_over_target",
    ]);
    assert_eq!(listed.lines().count() - 1, over);
    assert!(
        listed
            .lines()
            .skip(1)
            .all(|l| csv_cells(l)[1].parse::<i64>().unwrap() > 0)
    );
    // Without --columns, --over-target's CSV carries the age and the days
    // over (the answer to its question), for the same findings.
    let plain = run(&["issues", "--over-target", "--format", "csv"]);
    assert_over_target_csv_says_the_days_over(&plain, &listed);
}

/// `plain`, `--over-target`'s CSV without `--columns`, has an age column and
/// the days over of `listed` (`id,days_over_target`), row by row.
fn assert_over_target_csv_says_the_days_over(plain: &str, listed: &str) {
    let mut lines = plain.lines();
    let header = csv_cells(lines.next().unwrap());
    let at = |name: &str| {
        header
            .iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("{name}: {header:?}"))
    };
    let (id, over_at) = (at("id"), at("days_over_target"));
    assert!(header.iter().any(|h| h == "age"), "{header:?}");
    let days: Vec<(String, String)> = lines
        .map(|l| {
            let c = csv_cells(l);
            (c[id].clone(), c[over_at].clone())
        })
        .collect();
    let chosen: Vec<(String, String)> = listed
        .lines()
        .skip(1)
        .map(|l| {
            let c = csv_cells(l);
            (c[0].clone(), c[1].clone())
        })
        .collect();
    assert_eq!(days, chosen);
}

/// `--json` takes AGE and OVER as the CSV has them (null: no age), and
/// `--jq` reads them.
fn json_reckons_age_as_the_csv(run: &dyn Fn(&[&str]) -> String, csv: &str) {
    let json = run(&["issues", "--all", "--json", "id,age,days_over_target"]);
    let cell = |v: &Value| v.as_i64().map_or(String::new(), |n| n.to_string());
    for (line, item) in csv.lines().skip(1).zip(json.lines()) {
        let row = csv_cells(line);
        let v: Value = serde_json::from_str(item).unwrap();
        assert_eq!(v["id"], row[0].as_str());
        assert_eq!(
            (cell(&v["age"]), cell(&v["days_over_target"])),
            (row[3].clone(), row[4].clone()),
            "{item}"
        );
    }
    let jq = run(&["issues", "--max", "3", "--json", "id,age", "--jq", ".age"]);
    assert_eq!(jq.lines().count(), 3, "{jq}");
}

#[test]
fn presets_mix_with_names_and_the_default_is_todays_output() {
    let server = Server::start(80);
    let csv = ok(
        &server,
        &[
            "issues",
            "--all",
            "--format",
            "csv",
            "--columns",
            "leadership,url",
        ],
    );
    assert_eq!(
        csv.lines().next(),
        Some(
            "id,severity,state,rule,repository,first_detected,age,days_over_target,ticket,owner_team,url"
        )
    );
    // Kebab case and repetition read as one list.
    let kebab = ok(
        &server,
        &[
            "issues",
            "--all",
            "--format",
            "csv",
            "--columns",
            "leadership",
            "--columns",
            "URL",
        ],
    );
    assert_eq!(csv.lines().next(), kebab.lines().next());
    for format in ["csv", "markdown", "table"] {
        let plain = ok(&server, &["issues", "--all", "--format", format]);
        let default = ok(
            &server,
            &[
                "issues",
                "--all",
                "--format",
                format,
                "--columns",
                "default",
            ],
        );
        assert_eq!(plain, default, "{format}");
    }
    let md = ok(
        &server,
        &[
            "issues",
            "--max",
            "3",
            "--format",
            "markdown",
            "--columns",
            "triage",
        ],
    );
    assert_eq!(
        md.lines().next(),
        Some(
            "| id | severity | state | triage_state | triage_reason | rule | repository | location | note | url |"
        )
    );
    // `report` takes them too, not with a --kind report.
    let report = ok(
        &server,
        &[
            "report",
            "--max",
            "5",
            "--format",
            "csv",
            "--columns",
            "id,owner_team,ticket",
        ],
    );
    let mut lines = report.lines();
    assert_eq!(lines.next(), Some("id,owner_team,ticket"));
    assert_eq!(lines.count(), 5);
    let (code, _, stderr) = server.run(&["report", "--kind", "activity", "--columns", "id"]);
    assert_eq!(code, 2, "{stderr}");
    // `expired` takes them too.
    let expired = ok(
        &server,
        &["expired", "--format", "csv", "--columns", "id,note"],
    );
    assert_eq!(expired.lines().next(), Some("id,note"));
}

#[test]
fn a_table_of_many_columns_fits_80_columns() {
    for columns in ["all", "leadership,triage,supply_chain"] {
        let out = findings()
            .args([
                "issues",
                "--max",
                "60",
                "--format",
                "table",
                "--columns",
                columns,
            ])
            .env("COLUMNS", "80")
            .assert()
            .success()
            .get_output()
            .clone();
        let text = String::from_utf8(out.stdout).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 61);
        for line in &lines {
            assert!(line.chars().count() <= 80, "{columns}: {line}");
        }
        assert!(
            lines[0].starts_with("ID  ") && lines[0].contains("RULE"),
            "{}",
            lines[0]
        );
    }
}

#[test]
fn an_unknown_column_or_a_json_format_is_a_usage_error_before_any_request() {
    let cases: [(&[&str], &str); 6] = [
        (
            &["--format", "csv", "--columns", "id,sevrity"],
            "did you mean severity?",
        ),
        (
            &["--format", "csv", "--columns", "leadershp"],
            "did you mean leadership?",
        ),
        (&["--format", "json", "--columns", "id"], "not of json"),
        (&["--format", "sarif", "--columns", "id"], "not of sarif"),
        (&["--json", "id", "--columns", "id"], "--json and --jq"),
        (&["--jq", ".id", "--columns", "id"], "--json and --jq"),
    ];
    for (args, said) in cases {
        // Nothing listens there: a request would fail otherwise than 2.
        let out = findings()
            .args([&["issues"][..], args].concat())
            .env("FINDINGS_BASE_URL", "http://127.0.0.1:9")
            .env("FINDINGS_DEPLOYMENT", "1234")
            .env("FINDINGS_TOKEN", "t")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(said), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    let out = findings()
        .args(["issues", "--columns", "nope"])
        .env("FINDINGS_BASE_URL", "http://127.0.0.1:9")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("`--columns help` lists"));
    // The catalog, on stdout, without a server; --help says where it is.
    let help = findings()
        .args(["issues", "--columns", "help"])
        .env("FINDINGS_BASE_URL", "http://127.0.0.1:9")
        .assert()
        .success()
        .get_output()
        .clone();
    let text = String::from_utf8(help.stdout).unwrap();
    for c in findings_export::CATALOG {
        assert!(text.contains(c.description), "{}", c.name());
    }
    assert!(text.contains("leadership"));
    let usage = findings()
        .args(["issues", "--help"])
        .assert()
        .success()
        .get_output()
        .clone();
    assert!(
        String::from_utf8(usage.stdout)
            .unwrap()
            .contains("--columns help")
    );
}
