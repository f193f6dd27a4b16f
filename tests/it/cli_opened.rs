//! "This period" answered (issue 49, point 4), and a rule's one name
//! (point 3): `report --kind opened` counts the findings opened in the
//! period as the other reports do, for the same flags and period, in
//! every format; and no headless output names a rule by a bare
//! `ssc-<uuid>`: a supply-chain rule reads as its advisory and package.

use crate::cli::Server;
use serde_json::Value;

fn run(server: &Server, now: &str, args: &[&str]) -> String {
    let (code, stdout, stderr) = server.run_at(Some(now), args);
    assert!(code == 0, "{args:?}: {stderr}");
    stdout
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

fn n(v: &Value) -> i64 {
    v.as_i64()
        .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
        .unwrap_or_else(|| panic!("not a count: {v}"))
}

/// The opened add up to the activity report's "opened", the still open
/// to total-open's total, and the open at end to the backlog by rule's
/// last bucket, for two periods and a filter; each row's figures are
/// those of the reports narrowed to its rule or repository.
#[test]
fn the_opened_are_the_activity_reports_and_the_still_open_total_opens() {
    let server = Server::start(900);
    let now = chrono::Utc::now().to_rfc3339();
    let run = |args: &[&str]| run(&server, &now, args);
    for flags in [
        &["--period", "30d"][..],
        &["--period", "7d"][..],
        &["--period", "90d", "--severity", "critical,high"][..],
    ] {
        let with = |args: &[&'static str]| -> Vec<&'static str> { [args, flags].concat() };
        let opened = json(&run(&with(&[
            "report", "--kind", "opened", "--format", "json",
        ])));
        let activity = json(&run(&with(&[
            "report", "--kind", "activity", "--format", "json",
        ])));
        assert_eq!(
            n(&opened["opened"]),
            n(&activity["headline"]["opened"]),
            "{flags:?}"
        );
        let total_open = json(&run(&with(&[
            "report",
            "--report-type",
            "total-open",
            "--format",
            "json",
            "--limit",
            "1",
        ])));
        assert_eq!(
            n(&opened["still_open"]),
            n(&total_open["total"]),
            "{flags:?}"
        );
        let project = json(&run(&with(&[
            "report",
            "--report-type",
            "project",
            "--format",
            "json",
            "--limit",
            "1",
        ])));
        assert_eq!(n(&opened["opened"]), n(&project["total"]), "{flags:?}");
        let by_rule = json(&run(&with(&[
            "report",
            "--kind",
            "backlog-by-rule",
            "--format",
            "json",
        ])));
        let last = by_rule["buckets"]
            .as_array()
            .unwrap()
            .last()
            .unwrap()
            .clone();
        let backlog: i64 = last["open"].as_object().unwrap().values().map(n).sum();
        assert_eq!(n(&opened["open_at_end"]), backlog, "{flags:?}");
        // The rows add up to the totals, most opened first.
        for table in ["rules", "repositories"] {
            let rows = opened[table].as_array().unwrap();
            assert!(!rows.is_empty(), "{flags:?} {table}");
            let sum = |k: &str| rows.iter().map(|r| n(&r[k])).sum::<i64>();
            assert_eq!(sum("opened"), n(&opened["opened"]), "{flags:?} {table}");
            assert_eq!(
                sum("still_open"),
                n(&opened["still_open"]),
                "{flags:?} {table}"
            );
            let counts: Vec<i64> = rows.iter().map(|r| n(&r["opened"])).collect();
            assert!(counts.windows(2).all(|w| w[0] >= w[1]), "{counts:?}");
        }
        for rule in opened["rules"].as_array().unwrap() {
            let id = rule["rule_id"].as_str().unwrap();
            assert_eq!(
                n(&rule["open_at_end"]),
                last["open"].get(id).map_or(0, n),
                "{rule}"
            );
        }
    }
    the_most_opened_rule_is_the_reports_narrowed_to_it(&run);
}

/// One row checked against the reports narrowed to it: the most opened
/// rule, by its id.
fn the_most_opened_rule_is_the_reports_narrowed_to_it(run: &dyn Fn(&[&str]) -> String) {
    let opened = json(&run(&[
        "report", "--kind", "opened", "--period", "30d", "--format", "json",
    ]));
    let top = &opened["rules"][0];
    let id = top["rule_id"].as_str().unwrap();
    let narrowed = |report_type: &str| {
        n(&json(&run(&[
            "report",
            "--report-type",
            report_type,
            "--period",
            "30d",
            "--rule",
            id,
            "--format",
            "json",
            "--limit",
            "1",
        ]))["total"])
    };
    assert_eq!(n(&top["opened"]), narrowed("project"), "{top}");
    assert_eq!(n(&top["still_open"]), narrowed("total-open"), "{top}");
}

/// Every format says the period's days and each table's basis; a table
/// fits its width; `--max N` keeps the first N of each table, the totals
/// whole.
#[test]
fn every_format_of_opened_says_its_basis_and_its_dates() {
    let server = Server::start(600);
    let now = "2026-12-07T16:00:00Z";
    let run = |args: &[&str]| run(&server, now, args);
    let base = ["report", "--kind", "opened", "--period", "30d"];
    let with = |more: &[&'static str]| -> Vec<&'static str> { [&base[..], more].concat() };
    let table = run(&with(&["--format", "table", "--width", "80", "--max", "5"]));
    for words in [
        "Rules by findings opened in the 30 days 2026-11-08 to 2026-12-07 (UTC)",
        "Repositories by findings opened in the 30 days 2026-11-08 to 2026-12-07",
        "Open at end: open at the end of",
        "RULE",
        "STILL_OPEN",
    ] {
        let flat = table.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.contains(words), "{words:?} in\n{table}");
    }
    assert!(table.lines().all(|l| l.chars().count() <= 80), "{table}");
    let rows = |text: &str, header: &str| {
        text.lines()
            .skip_while(|l| !l.starts_with(header))
            .skip(1)
            .take_while(|l| !l.trim().is_empty())
            .count()
    };
    assert_eq!(rows(&table, "RULE"), 5, "{table}");
    assert_eq!(rows(&table, "REPOSITORY"), 5, "{table}");
    let markdown = run(&with(&["--format", "markdown"]));
    assert!(
        markdown.contains("| RULE | OPENED | STILL_OPEN | OPEN_AT_END |"),
        "{markdown}"
    );
    assert!(markdown.contains("2026-11-08 to 2026-12-07"), "{markdown}");
    let csv = run(&with(&["--format", "csv"]));
    assert_eq!(
        csv.lines().next(),
        Some("BY,NAME,RULE_ID,OPENED,STILL_OPEN,OPEN_AT_END")
    );
    assert!(
        csv.lines()
            .skip(1)
            .all(|l| l.starts_with("rule,") || l.starts_with("repository,"))
    );
    let ndjson = run(&with(&["--format", "ndjson"]));
    let first = json(ndjson.lines().next().unwrap());
    assert_eq!(first["by"], "rule");
    assert!(
        first["opened"].is_i64() && first["open_at_end"].is_i64(),
        "{first}"
    );
    let document = json(&run(&with(&["--format", "json", "--max", "3"])));
    assert_eq!(document["period"]["since"], "2026-11-08T00:00:00+00:00");
    assert_eq!(document["period"]["until"], "2026-12-08T00:00:00+00:00");
    assert_eq!(document["rules"].as_array().unwrap().len(), 3);
    let whole = json(&run(&with(&["--format", "json"])));
    assert_eq!(document["opened"], whole["opened"], "the totals are of all");
    for basis in ["opened", "still_open", "open_at_end"] {
        assert!(
            document["basis"][basis]
                .as_str()
                .is_some_and(|s| !s.is_empty())
        );
    }
    // All time says so.
    let all = run(&[
        "report", "--kind", "opened", "--format", "table", "--width", "200", "--max", "1",
    ]);
    assert!(all.contains("opened at any time (all time)"), "{all}");
    assert!(all.contains("Open at end: open now"), "{all}");
}

/// `ssc-` and a uuid: a supply-chain rule's opaque id.
fn opaque_ids(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("ssc-") {
        let candidate: String = rest[at + 4..].chars().take(36).collect();
        let uuid = candidate.len() == 36
            && candidate.char_indices().all(|(i, c)| match i {
                8 | 13 | 18 | 23 => c == '-',
                _ => c.is_ascii_hexdigit(),
            });
        if uuid {
            found.push(format!("ssc-{candidate}"));
        }
        rest = &rest[at + 4..];
    }
    found
}

/// An advisory id alone: `CVE-2021-44906`, `GHSA-xxxx-xxxx-xxxx`.
fn is_advisory(word: &str) -> bool {
    let cve = word.strip_prefix("CVE-").is_some_and(|rest| {
        let (year, n) = rest.split_once('-').unwrap_or(("", ""));
        year.len() == 4
            && year.chars().all(|c| c.is_ascii_digit())
            && n.len() >= 4
            && n.chars().all(|c| c.is_ascii_digit())
    });
    let ghsa = word.strip_prefix("GHSA-").is_some_and(|rest| {
        let parts: Vec<&str> = rest.split('-').collect();
        parts.len() == 3
            && parts
                .iter()
                .all(|p| p.len() == 4 && p.chars().all(|c| c.is_ascii_alphanumeric()))
    });
    cve || ghsa
}

/// How many rules of a page for people read as an advisory, each checked
/// to be followed by its package: in a Markdown table, the rule column's
/// cells; in an aligned table, no advisory stands alone in a column (the
/// two spaces between columns, or the line's end, right after it).
fn advisories_named_with_their_package(args: &[&str], out: &str) -> usize {
    let mut seen = 0;
    let mut rule_column: Option<usize> = None;
    for line in out.lines() {
        if line.starts_with('|') {
            let cells: Vec<&str> = line.trim_matches('|').split(" | ").map(str::trim).collect();
            if cells.iter().all(|c| c.chars().all(|ch| ch == '-')) {
                continue;
            }
            if let Some(at) = cells.iter().position(|c| c.eq_ignore_ascii_case("rule")) {
                rule_column = Some(at);
                continue;
            }
            let Some(cell) = rule_column.and_then(|at| cells.get(at)) else {
                continue;
            };
            let first = cell.split(' ').next().unwrap_or("");
            if is_advisory(first) {
                let package = cell.split(' ').nth(1).unwrap_or("");
                assert!(
                    !package.is_empty() && package != "·",
                    "{args:?}: {cell} without its package"
                );
                seen += 1;
            }
        } else {
            rule_column = None;
            for (at, _) in line.match_indices(['C', 'G']) {
                let word = line[at..].split(' ').next().unwrap_or("");
                if !is_advisory(word) || (at > 0 && !line[..at].ends_with(' ')) {
                    continue;
                }
                let after = &line[at + word.len()..];
                assert!(
                    !(after.is_empty() || after.starts_with("  ")),
                    "{args:?}: {word} alone in its column: {line}"
                );
                seen += 1;
            }
        }
    }
    seen
}

/// Whether every opaque id in a JSON value is an id: the value of a field
/// named as an id (`rule_id`, `ruleId`, `id`, `ruleIds`), or a key of a
/// map keyed by rule id in a document that names each (`ruleNames`).
fn ids_only_as_ids(value: &Value, key: &str, named: &dyn Fn(&str) -> bool, bad: &mut Vec<String>) {
    let is_id_field = |k: &str| {
        let k = k.to_ascii_lowercase();
        k == "id" || k.ends_with("_id") || k.ends_with("ruleid") || k.ends_with("ids")
    };
    match value {
        Value::String(s) => {
            for id in opaque_ids(s) {
                if !is_id_field(key) {
                    bad.push(format!("{key}: {id}"));
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                ids_only_as_ids(item, key, named, bad);
            }
        }
        Value::Object(map) => {
            for (k, v) in map {
                for id in opaque_ids(k) {
                    if !named(&id) {
                        bad.push(format!("a key not named: {id}"));
                    }
                }
                ids_only_as_ids(v, k, named, bad);
            }
        }
        _ => {}
    }
}

/// The headless outputs reached, for people (tables, Markdown) and for
/// programs (CSV, NDJSON, JSON): every `report --kind` in each of its
/// formats, the summary, the lists, the snapshot and the diff.
fn surface(snap: &str) -> (Vec<Vec<String>>, Vec<Vec<String>>) {
    let kinds = [
        "findings",
        "activity",
        "by-project",
        "backlog-by-rule",
        "backlog-by-severity",
        "open-age",
        "opened",
    ];
    let mut people: Vec<Vec<String>> = Vec::new();
    let mut programs: Vec<Vec<String>> = Vec::new();
    let owned = |args: &[&str]| args.iter().map(|a| (*a).to_owned()).collect::<Vec<_>>();
    for kind in kinds {
        for format in ["table", "markdown"] {
            people.push(owned(&[
                "report", "--kind", kind, "--period", "30d", "--format", format, "--max", "200",
            ]));
        }
        // The findings' JSON is the service's data as it sent it (its
        // `ruleId`, `rulePath`, `ruleUrl`): not named here.
        let formats: &[&str] = if kind == "findings" {
            &["csv"]
        } else {
            &["csv", "ndjson", "json"]
        };
        for format in formats {
            programs.push(owned(&[
                "report", "--kind", kind, "--period", "30d", "--format", format, "--max", "200",
            ]));
        }
    }
    people.push(owned(&[
        "report", "--kind", "summary", "--period", "30d", "--format", "markdown",
    ]));
    programs.push(owned(&[
        "report", "--kind", "summary", "--period", "30d", "--format", "json",
    ]));
    for format in ["table", "markdown"] {
        people.push(owned(&["issues", "--all", "--format", format]));
        people.push(owned(&[
            "issues",
            "--type",
            "sca",
            "--columns",
            "supply_chain",
            "--all",
            "--format",
            format,
        ]));
        people.push(owned(&[
            "issues",
            "--over-target",
            "--all",
            "--format",
            format,
        ]));
        people.push(owned(&["expired", "--format", format]));
    }
    people.push(owned(&["snapshot", "show", snap]));
    people.push(owned(&["diff", snap, "--format", "table"]));
    people.push(owned(&["diff", snap, "--format", "markdown"]));
    programs.push(owned(&["issues", "--all", "--format", "csv"]));
    programs.push(owned(&["diff", snap, "--format", "json"]));

    (people, programs)
}

/// An output for programs has an opaque id only in an id field: a CSV
/// column named as an id, a JSON field named as one, or a key of a map
/// keyed by rule id whose document names each (`ruleNames`).
fn opaque_ids_only_in_id_fields(args: &[&str], out: &str) {
    let format = args[args
        .iter()
        .position(|a| *a == "--format")
        .map_or(0, |i| i + 1)];
    if format == "csv" {
        let mut lines = out.lines();
        let header: Vec<String> = crate::common::csv_cells(lines.next().unwrap_or(""));
        for line in lines {
            for (name, cell) in header.iter().zip(crate::common::csv_cells(line)) {
                let id_column = name.to_ascii_lowercase().ends_with("id");
                assert!(
                    id_column || opaque_ids(&cell).is_empty(),
                    "{args:?}: {name} = {cell}"
                );
            }
        }
        return;
    }
    let docs: Vec<Value> = if format == "ndjson" {
        out.lines().map(json).collect()
    } else {
        vec![json(out)]
    };
    for doc in docs {
        let names = doc["ruleNames"].clone();
        let named = |id: &str| {
            names[id]
                .as_str()
                .is_some_and(|name| opaque_ids(name).is_empty() && name.contains(' '))
        };
        let mut bad = Vec::new();
        ids_only_as_ids(&doc, "", &named, &mut bad);
        assert!(bad.is_empty(), "{args:?}: {bad:?}");
    }
}

/// No output of the headless surface names a rule by a bare
/// `ssc-<uuid>`: formats for people (tables, Markdown) have none at all;
/// formats for programs (CSV, NDJSON, JSON, the HTML that carries the
/// JSON's figures) have one only in an id field, beside the rule's name;
/// and a supply-chain rule reads as its advisory and package.
#[test]
fn no_output_names_a_rule_by_a_bare_supply_chain_id() {
    let server = Server::start(900);
    let now = "2026-12-07T16:00:00Z";
    let dir = tempfile::tempdir().unwrap();
    let snap = dir.path().join("s.snap");
    let snap = snap.to_str().unwrap();
    let (code, _, stderr) = server.run_at(Some(now), &["snapshot", "save", "-o", snap]);
    assert_eq!(code, 0, "{stderr}");
    let html = dir.path().join("review.html");
    let html_path = html.to_str().unwrap();
    let (people, programs) = surface(snap);
    let mut advisories = 0;
    for args in &people {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = run(&server, now, &args);
        let found = opaque_ids(&out);
        assert!(found.is_empty(), "{args:?} shows {found:?}:\n{out}");
        // A supply-chain rule reads as its advisory and package.
        advisories += advisories_named_with_their_package(&args, &out);
    }
    assert!(
        advisories > 100,
        "supply-chain rules were seen: {advisories}"
    );

    for args in &programs {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = run(&server, now, &args);
        opaque_ids_only_in_id_fields(&args, &out);
    }

    // The HTML carries the JSON's figures: an opaque id only in an id's
    // cell.
    let (code, _, stderr) = server.run_at(
        Some(now),
        &[
            "report", "--kind", "summary", "--period", "30d", "-o", html_path,
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    let page = std::fs::read_to_string(&html).unwrap();
    for cell in page.split("data-figure=\"").skip(1) {
        let (path, rest) = cell.split_once('"').unwrap();
        let text = rest.split('<').next().unwrap_or("");
        assert!(
            opaque_ids(text).is_empty() || path.ends_with("id"),
            "{path}: {text}"
        );
    }
}

/// `report --kind backlog-by-rule` names a supply-chain rule by its
/// advisory and package in every format (its JSON beside the service's
/// answer, in `ruleNames`), never by the advisory alone.
#[test]
fn backlog_by_rule_names_a_supply_chain_rule_by_advisory_and_package() {
    let server = Server::start(600);
    let now = "2026-12-07T16:00:00Z";
    let run = |args: &[&str]| run(&server, now, args);
    let csv = run(&["report", "--kind", "backlog-by-rule", "--format", "csv"]);
    let rows: Vec<Vec<String>> = csv.lines().skip(1).map(crate::common::csv_cells).collect();
    let sca: Vec<&Vec<String>> = rows.iter().filter(|r| r[2].starts_with("ssc-")).collect();
    assert!(!sca.is_empty(), "{csv}");
    for row in &sca {
        let (advisory, package) = row[1].split_once(' ').unwrap_or((&row[1], ""));
        assert!(
            (advisory.starts_with("CVE-") || advisory.starts_with("GHSA-")) && !package.is_empty(),
            "{row:?}"
        );
    }
    let document = json(&run(&[
        "report",
        "--kind",
        "backlog-by-rule",
        "--format",
        "json",
    ]));
    for row in &sca {
        assert_eq!(document["ruleNames"][&row[2]], row[1].as_str(), "{row:?}");
    }
    // Log4Shell as the list's RULE column names it.
    let log4shell = "CVE-2021-44228 org.apache.logging.log4j:log4j-core";
    let issues = run(&[
        "issues",
        "--cve",
        "CVE-2021-44228",
        "--max",
        "1",
        "--format",
        "csv",
        "--columns",
        "rule",
    ]);
    assert!(issues.contains(log4shell), "{issues}");
    let table = run(&[
        "report",
        "--kind",
        "backlog-by-rule",
        "--format",
        "table",
        "--width",
        "200",
    ]);
    assert!(table.contains(log4shell), "{table}");
    let summary = run(&["report", "--kind", "summary", "--format", "markdown"]);
    assert!(opaque_ids(&summary).is_empty(), "{summary}");
}
