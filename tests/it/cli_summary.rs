//! `report --kind summary`: the monthly review's figures are those of the
//! reports it gathers (and of `issues --over-target`), and its HTML is
//! one well-formed, self-contained page carrying every figure of its JSON.

use crate::cli::Server;
use serde_json::Value;

/// Runs the binary against `server` at one fixed time (the ages and the
/// period must not move between the runs compared).
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
        .unwrap_or(0)
}

const SEVERITIES: [&str; 4] = ["critical", "high", "medium", "low"];

#[test]
fn the_summary_says_the_figures_of_the_reports_it_gathers() {
    let server = Server::start(600);
    let now = chrono::Utc::now().to_rfc3339();
    let run = |args: &[&str]| run(&server, &now, args);
    let report = |kind: &str| {
        json(&run(&[
            "report", "--kind", kind, "--period", "30d", "--format", "json",
        ]))
    };
    let s = json(&run(&[
        "report", "--kind", "summary", "--period", "30d", "--format", "json",
    ]));

    let totals = json(&run(&[
        "report", "--period", "30d", "--kind", "findings", "--format", "json",
    ]));
    assert_eq!(n(&s["totals"]["all"]), n(&totals["total"]));
    assert_eq!(n(&s["totals"]["code"]), n(&totals["totalCode"]));
    assert_eq!(n(&s["totals"]["supply_chain"]), n(&totals["totalSca"]));
    assert_eq!(n(&s["totals"]["secrets"]), n(&totals["totalSecrets"]));

    let activity = report("activity");
    let buckets = activity["buckets"].as_array().unwrap();
    let sum = |k: &str| buckets.iter().map(|b| n(&b[k])).sum::<i64>();
    assert_eq!(n(&s["activity"]["opened"]), sum("opened"));
    assert_eq!(n(&s["activity"]["fixed"]), sum("fixed"));
    assert_eq!(n(&s["activity"]["removed"]), sum("removed"));
    // The ignored as the IGNORED column counts them, the provisionally
    // ignored apart (one definition per figure).
    assert_eq!(n(&s["activity"]["ignored"]), sum("ignored"));
    assert_eq!(
        n(&s["activity"]["provisionally_ignored"]),
        sum("provisionallyIgnored")
    );
    let before = &activity["previousPeriod"];
    assert_eq!(
        n(&s["activity"]["previous"]["opened"]),
        n(&before["totalNew"])
    );
    assert_eq!(
        n(&s["activity"]["previous"]["net"]),
        n(&before["totalNetNew"])
    );
    // The words are `--kind activity`'s.
    let markdown = run(&[
        "report", "--kind", "activity", "--period", "30d", "--format", "markdown",
    ]);
    let said = s["activity"]["said"].as_str().unwrap();
    assert!(markdown.starts_with(said), "{said:?}\n{markdown}");

    let by_project = report("by-project");
    let repos = s["worst_repositories"].as_array().unwrap();
    assert_eq!(repos.len(), 5);
    for r in repos {
        let counts = &by_project["byProject"][r["name"].as_str().unwrap()];
        for severity in SEVERITIES {
            assert_eq!(n(&r[severity]), n(&counts[severity]), "{r}");
        }
    }
    // Worst first: the first has the most critical of all.
    let most_critical = by_project["byProject"]
        .as_object()
        .unwrap()
        .values()
        .map(|c| n(&c["critical"]))
        .max();
    assert_eq!(Some(n(&repos[0]["critical"])), most_critical);

    let by_rule = report("backlog-by-rule");
    let last = by_rule["buckets"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    let rules = s["top_rules"].as_array().unwrap();
    assert_eq!(rules.len(), 5);
    let most = last["open"].as_object().unwrap().values().map(n).max();
    assert_eq!(Some(n(&rules[0]["open"])), most);
    for r in rules {
        assert_eq!(n(&r["open"]), n(&last["open"][r["id"].as_str().unwrap()]));
        assert_ne!(r["name"], r["id"], "named, not the id: {r}");
    }

    backlog_and_ages(&report, &s);
    overdue_as_listed(&run, &s);
    the_html_carries_every_figure(&run, &s);
    the_markdown_has_every_section(&run, &s);
}

/// The backlog and the median ages: the reports' own.
fn backlog_and_ages(report: &dyn Fn(&str) -> Value, s: &Value) {
    let backlog = report("backlog-by-severity");
    let backlog = backlog["buckets"].as_array().unwrap();
    assert_eq!(s["backlog"].as_array().unwrap().len(), backlog.len());
    for (mine, theirs) in s["backlog"].as_array().unwrap().iter().zip(backlog) {
        for severity in SEVERITIES {
            assert_eq!(n(&mine[severity]), n(&theirs[severity]));
        }
    }
    let last = backlog.last().unwrap();
    for severity in SEVERITIES {
        assert_eq!(n(&s["open_by_severity"][severity]), n(&last[severity]));
    }

    let ages = report("open-age");
    let last = ages["buckets"].as_array().unwrap().last().unwrap().clone();
    for (i, severity) in SEVERITIES.iter().enumerate() {
        let a = &s["open_age"][i];
        assert_eq!(a["severity"], *severity);
        assert_eq!(n(&a["median_days"]), n(&last[severity]));
        assert_eq!(n(&a["over_by"]), n(&last[severity]) - n(&a["target_days"]));
    }
}

/// The overdue: as many as `issues --over-target` lists, and the most
/// overdue among them.
fn overdue_as_listed(run: &dyn Fn(&[&str]) -> String, s: &Value) {
    // The overdue: as many as `issues --over-target` lists.
    let listed = run(&["issues", "--over-target", "--all", "--format", "ndjson"]);
    let listed: Vec<Value> = listed.lines().map(json).collect();
    assert!(!listed.is_empty());
    assert_eq!(n(&s["overdue"]["all"]), listed.len() as i64);
    for severity in SEVERITIES {
        let of = listed
            .iter()
            .filter(|v| {
                v["issue"]["severity"]
                    .as_str()
                    .is_some_and(|s| s.to_lowercase().ends_with(severity))
            })
            .count();
        assert_eq!(n(&s["overdue"][severity]), of as i64, "{severity}");
    }
    let most = s["overdue"]["findings"].as_array().unwrap();
    assert_eq!(most.len(), 25.min(listed.len()));
    let ids: Vec<&str> = listed
        .iter()
        .filter_map(|v| v["issue"]["id"].as_str())
        .collect();
    for f in most {
        assert!(ids.contains(&f["id"].as_str().unwrap()), "{f}");
    }
    assert!(
        most.windows(2)
            .all(|w| n(&w[0]["days_over_target"]) >= n(&w[1]["days_over_target"]))
    );
}

/// One self-contained, well-formed page: no script, no address outside
/// it, every figure of the JSON at its `data-figure` place.
fn the_html_carries_every_figure(run: &dyn Fn(&[&str]) -> String, s: &Value) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("review.html");
    let path_text = path.to_str().unwrap();
    run(&[
        "report", "--kind", "summary", "--period", "30d", "-o", path_text,
    ]);
    let html = std::fs::read_to_string(&path).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"), "{html}");
    well_formed(&html);
    let lower = html.to_lowercase();
    assert!(!lower.contains("<script"), "no script");
    assert!(
        !lower.contains("http://") && !lower.contains("https://"),
        "no URL"
    );
    assert!(
        !lower.contains("src=") && !lower.contains("href="),
        "nothing fetched"
    );
    assert!(lower.contains("<svg") && lower.contains("@media print"));
    let mut figures = Vec::new();
    leaves("", s, &mut figures);
    assert!(figures.len() > 100, "{}", figures.len());
    for (path, value) in figures {
        let at = format!("data-figure=\"{path}\">{}<", escape(&value));
        assert!(html.contains(&at), "{at} not in the page");
    }
}

fn the_markdown_has_every_section(run: &dyn Fn(&[&str]) -> String, s: &Value) {
    let md = run(&[
        "report", "--kind", "summary", "--period", "30d", "--format", "markdown",
    ]);
    for title in [
        "## Totals",
        "## Open findings by severity",
        "## Activity",
        "## Worst repositories",
        "## Rules with most open findings",
        "## Backlog trend",
        "## Median open age against targets",
        "## Overdue findings",
    ] {
        assert!(md.contains(title), "{title}");
    }
    let t = &s["totals"];
    let row = format!(
        "| {} | {} | {} | {} |",
        t["all"], t["code"], t["supply_chain"], t["secrets"]
    );
    assert!(md.contains(&row), "{row}");
    assert!(md.contains(s["activity"]["said"].as_str().unwrap()));
    let o = &s["overdue"];
    assert!(md.contains(&format!("{} open findings are past their target", o["all"])));
    let first = &o["findings"][0];
    assert!(md.contains(&format!(
        "| {} | {} |",
        first["id"].as_str().unwrap(),
        first["severity"].as_str().unwrap()
    )));
}

/// Every non-null leaf of `v` with its dotted path.
fn leaves(at: &str, v: &Value, out: &mut Vec<(String, String)>) {
    let join = |k: &str| {
        if at.is_empty() {
            k.to_owned()
        } else {
            format!("{at}.{k}")
        }
    };
    match v {
        Value::Object(m) => m.iter().for_each(|(k, v)| leaves(&join(k), v, out)),
        Value::Array(a) => a
            .iter()
            .enumerate()
            .for_each(|(i, v)| leaves(&join(&i.to_string()), v, out)),
        Value::Null => {}
        Value::String(s) => out.push((at.to_owned(), s.clone())),
        other => out.push((at.to_owned(), other.to_string())),
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// Every tag opened is closed, in order (void elements and the doctype
/// apart).
fn well_formed(html: &str) {
    const VOID: [&str; 6] = ["meta", "br", "hr", "img", "link", "input"];
    let mut open: Vec<String> = Vec::new();
    let mut rest = html;
    while let Some(i) = rest.find('<') {
        rest = &rest[i + 1..];
        let end = rest.find('>').expect("a tag ends");
        let tag = &rest[..end];
        rest = &rest[end + 1..];
        if tag.starts_with('!') {
            continue;
        }
        if let Some(name) = tag.strip_prefix('/') {
            let top = open.pop();
            assert_eq!(
                top.as_deref(),
                Some(name.trim()),
                "closing {name} at {rest:.80}"
            );
            continue;
        }
        let name: String = tag
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        assert!(!name.is_empty(), "a tag: <{tag}>");
        if tag.ends_with('/') || VOID.contains(&name.as_str()) {
            continue;
        }
        if name == "style" {
            // Its text is CSS: skip to its end.
            let close = rest.find("</style>").expect("style closed");
            rest = &rest[close + "</style>".len()..];
            continue;
        }
        open.push(name);
    }
    assert!(open.is_empty(), "left open: {open:?}");
}

#[test]
fn summary_usage_errors_are_clear() {
    let server = Server::start(50);
    for (args, says) in [
        (
            &["report", "--kind", "summary", "--format", "csv"][..],
            "markdown, html or json",
        ),
        (
            &["report", "--kind", "summary", "--jq", ".id"][..],
            "--format json | jq",
        ),
        (
            &["report", "--kind", "summary", "-o", "x.csv"][..],
            "--format",
        ),
        (
            &["report", "--kind", "activity", "--format", "html"][..],
            "html",
        ),
        (&["report", "--kind", "sumary"][..], "summary"),
    ] {
        let (code, _, stderr) = server.run(args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
    // `--exit-code N`: when open findings are past their target.
    let (code, stdout, stderr) = server.run(&[
        "report",
        "--kind",
        "summary",
        "--format",
        "json",
        "--exit-code",
        "3",
    ]);
    let overdue = n(&json(&stdout)["overdue"]["all"]);
    assert!(overdue > 0, "{stdout}");
    assert_eq!(code, 3, "{stderr}");
}
