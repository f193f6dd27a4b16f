//! The writer: formats, table layout, cells.

use super::*;
use findings_model::{AgenticIssue, Issue};
use unicode_width::UnicodeWidthStr;

#[test]
fn a_file_name_extension_names_its_format() {
    for (path, format) in [
        ("mine.json", Some(Format::Json)),
        ("out/MINE.CSV", Some(Format::Csv)),
        ("a.b/notes.md", Some(Format::Markdown)),
        ("x.markdown", Some(Format::Markdown)),
        ("scan.sarif", Some(Format::Sarif)),
        ("scan.sarif.json", Some(Format::Sarif)),
        ("all.jsonl", Some(Format::Ndjson)),
        ("all.ndjson", Some(Format::Ndjson)),
        ("table.txt", Some(Format::Table)),
        ("mine", None),
        ("mine.xlsx", None),
        (".json", None),
        ("dir.json/mine", None),
    ] {
        assert_eq!(Format::from_path(path), format, "{path}");
    }
}

#[test]
fn fit_pads_and_cuts_by_display_width() {
    assert_eq!(fit("abc", 5), "abc  ");
    assert_eq!(fit("abcdef", 4), "abc…");
    // Each CJK character is two columns wide.
    assert_eq!(fit("用户输入", 5), "用户…");
    assert_eq!(
        unicode_width::UnicodeWidthStr::width(fit("用户输入", 6).as_str()),
        6
    );
}

fn written<T: Record>(format: Format, items: &[T]) -> String {
    let mut w = Writer::new::<T>(Vec::new(), format, 120);
    for i in items {
        w.item(i).unwrap();
    }
    String::from_utf8(w.finish().unwrap()).unwrap()
}

fn sample() -> findings_model::Issue {
    findings_model::Issue {
        id: Some("7".into()),
        rule_id: Some("py.sqli".into()),
        severity: Some(findings_model::Severity::High),
        message: Some("bad | query\nhere".into()),
        file_path: Some("app.py".into()),
        line: Some(3),
        ..Default::default()
    }
}

/// The headers a table `width` wide shows, with their widths.
fn laid_out(columns: &[Column], width: usize) -> Vec<(&'static str, usize)> {
    let widths = table_layout(columns, width);
    assert_eq!(widths.len(), columns.len());
    columns
        .iter()
        .zip(widths)
        .filter_map(|(c, w)| w.map(|w| (c.name, w)))
        .collect()
}

fn line_width(shown: &[(&str, usize)]) -> usize {
    shown.iter().map(|(_, w)| w).sum::<usize>() + GAP * (shown.len() - 1)
}

#[test]
fn a_table_fits_the_width_it_is_given() {
    let issues = <Issue as Record>::COLUMNS;
    // Wide: every column of tables at its width, the last taking the
    // rest; the link is for CSV and Markdown only.
    let wide = laid_out(issues, 200);
    let tabled: Vec<&Column> = issues.iter().filter(|c| c.in_table).collect();
    assert_eq!(wide.len(), tabled.len());
    assert!(tabled.len() < issues.len() && !wide.iter().any(|(n, _)| *n == "url"));
    assert_eq!(line_width(&wide), 200);
    for ((name, w), col) in wide.iter().zip(&tabled).take(tabled.len() - 1) {
        assert_eq!((*name, *w), (col.name, col.width));
    }
    // Every width from a narrow terminal up fills it exactly: the
    // columns give way, then the least useful are left out.
    for width in 60..=200 {
        let shown = laid_out(issues, width);
        assert_eq!(line_width(&shown), width, "at {width}: {shown:?}");
        let names: Vec<&str> = shown.iter().map(|(n, _)| *n).collect();
        for kept in ["id", "severity", "rule"] {
            assert!(names.contains(&kept), "at {width}: {names:?}");
        }
        for (name, w) in &shown {
            let col = issues.iter().find(|c| c.name == *name).unwrap();
            assert!(*w >= col.min, "at {width}: {name} {w}");
        }
    }
    // The TUI's order: the type and message (which its list lacks) go
    // first, then the date, the location, the repository; the state
    // stays longest.
    let names = |width| -> Vec<&str> { laid_out(issues, width).iter().map(|(n, _)| *n).collect() };
    assert_eq!(
        names(120),
        [
            "id",
            "severity",
            "state",
            "type",
            "rule",
            "repository",
            "location",
            "relevant_since",
            "message"
        ]
    );
    assert_eq!(
        names(100),
        [
            "id",
            "severity",
            "state",
            "rule",
            "repository",
            "location",
            "relevant_since"
        ]
    );
    assert_eq!(
        names(80),
        ["id", "severity", "state", "rule", "repository", "location"]
    );
    // Narrower than the columns never left out: those at their minimum.
    let tiny = laid_out(issues, 20);
    assert_eq!(tiny, [("id", 6), ("severity", 8), ("rule", 16)], "{tiny:?}");
    // Agentic issues lay out the same way.
    let agentic = <AgenticIssue as Record>::COLUMNS;
    for width in 60..=200 {
        assert_eq!(line_width(&laid_out(agentic, width)), width);
    }
}

#[test]
fn table_rows_fit_the_width_and_show_the_short_rule() {
    let mut long = sample();
    long.rule_id = Some("typescript.express.security.audit.open-redirect.open-redirect".into());
    long.message = Some("m".repeat(300));
    long.file_path = Some(format!("{}/app.ts", "dir/".repeat(30)));
    let mut sca = sample();
    sca.rule_id = Some("ssc-5f74be81-4896-5993-a019-2374798726cb".into());
    sca.sca_attributes = Some(findings_model::ScaAttributes {
        vuln_database_identifier: Some("CVE-2024-21907".into()),
        found_dependency: Some(findings_model::Dependency {
            package: Some("Newtonsoft.Json".into()),
            ..Default::default()
        }),
        ..Default::default()
    });
    for width in [80, 120, 200] {
        let mut w = Writer::new::<Issue>(Vec::new(), Format::Table, width);
        for i in [&long, &sca] {
            w.item(i).unwrap();
        }
        let out = String::from_utf8(w.finish().unwrap()).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 3);
        for line in &lines {
            assert!(line.width() <= width, "{width}: {line}");
        }
        // The RULE column: where its header starts, the short name.
        let at = lines[0].find("RULE").unwrap();
        let cell = |line: &str| line[at..].split("  ").next().unwrap().to_owned();
        assert_eq!(cell(lines[1]), "open-redirect", "{width}: {out}");
        // The advisory and package, cut only when the terminal is narrow.
        let advisory = cell(lines[2]);
        let full = "CVE-2024-21907 Newtonsoft.Json";
        match advisory.strip_suffix('…') {
            Some(cut) => assert!(width < 200 && full.starts_with(cut), "{width}: {out}"),
            None => assert_eq!(advisory, full),
        }
        assert!(advisory.starts_with("CVE-2024-21907 "), "{width}: {out}");
        // A long path keeps its end: the file name and line.
        if lines[0].contains("LOCATION") {
            let at = lines[0].find("LOCATION").unwrap();
            let location = lines[1][at..].split("  ").next().unwrap();
            assert!(
                location.starts_with('…') && location.ends_with("/app.ts:3"),
                "{width}: {location:?}"
            );
        }
    }
    // CSV keeps the rule whole.
    let csv = written(Format::Csv, std::slice::from_ref(&long));
    assert!(csv.contains(",typescript.express.security.audit.open-redirect.open-redirect,"));
}

#[test]
fn at_80_and_100_columns_the_state_shows_and_names_keep_their_end() {
    let mut finding = sample();
    finding.aggregate_state = Some(findings_model::AggregateState::Open);
    finding.repository = Some(findings_model::Repository {
        name: Some("acme-platform-group/payments-api".into()),
        ..Default::default()
    });
    finding.message = Some("a message that a narrow table leaves out".into());
    for width in [80, 100] {
        let out = {
            let mut w = Writer::new::<Issue>(Vec::new(), Format::Table, width);
            w.item(&finding).unwrap();
            String::from_utf8(w.finish().unwrap()).unwrap()
        };
        let lines: Vec<&str> = out.lines().collect();
        let header = lines[0];
        assert!(header.contains("STATE"), "{width}: {out}");
        assert!(!header.contains("MESSAGE"), "{width}: {out}");
        let cell = |name: &str| {
            let at = header.find(name).unwrap();
            lines[1][at..].split("  ").next().unwrap().to_owned()
        };
        assert_eq!(cell("STATE"), "open", "{width}: {out}");
        // Cut on the left, as the TUI cuts it: the name stays.
        let repo = cell("REPOSITORY");
        assert!(
            repo.starts_with('…') && repo.ends_with("/payments-api"),
            "{width}: {repo:?}"
        );
    }
}

#[test]
fn markdown_is_a_table_with_the_table_columns() {
    let mut linked = sample();
    linked.line_of_code_url = Some("https://git.example.com/a/b#L3".into());
    // Not a web link: left out, never offered as one.
    let mut scripted = sample();
    scripted.line_of_code_url = Some("javascript:alert(1)".into());
    let out = written(Format::Markdown, &[linked, scripted]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert_eq!(
        lines[0],
        "| id | severity | state | type | rule | repository | location | relevant_since | message | url |"
    );
    assert_eq!(lines[1].matches("---").count(), 10);
    assert_eq!(
        lines[2],
        "| 7 | high |  |  | py.sqli |  | app.py:3 |  | bad \\| query␤here | https://git.example.com/a/b#L3 |"
    );
    assert!(lines[3].ends_with("here |  |"), "{}", lines[3]);
    // CSV carries the link too.
    let mut linked = sample();
    linked.line_of_code_url = Some("https://git.example.com/a/b#L3".into());
    let csv = written(Format::Csv, &[linked]);
    assert!(csv.starts_with("id,severity,"), "{csv}");
    assert!(
        csv.lines().next().unwrap().ends_with(",message,url"),
        "{csv}"
    );
    assert!(
        csv.lines()
            .nth(1)
            .unwrap()
            .ends_with(",https://git.example.com/a/b#L3"),
        "{csv}"
    );
    // With no items the header is still there.
    let empty = written::<findings_model::Issue>(Format::Markdown, &[]);
    assert_eq!(empty.lines().count(), 2);
}

#[test]
fn sarif_through_the_writer_takes_list_items_and_skips_empty_wrappers() {
    use findings_model::IssueItem;
    let items = [
        IssueItem {
            issue: Some(sample()),
            ..Default::default()
        },
        IssueItem::default(),
    ];
    let mut w = Writer::new::<IssueItem>(Vec::new(), Format::Sarif, 120);
    for i in &items {
        w.item(i).unwrap();
    }
    assert_eq!(w.count(), 2);
    let out = String::from_utf8(w.finish().unwrap()).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let results = doc["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 1);
    assert_eq!(results[0]["ruleId"], "py.sqli");
    assert_eq!(results[0]["level"], "error");
    // Nothing at all is still a valid, empty log.
    let empty = written::<IssueItem>(Format::Sarif, &[]);
    let doc: serde_json::Value = serde_json::from_str(&empty).unwrap();
    assert_eq!(doc["runs"][0]["results"], serde_json::json!([]));
}

#[test]
fn format_names_parse_and_have_extensions() {
    for (f, name) in Format::ALL.iter().zip(Format::NAMES) {
        assert_eq!(Format::parse(name), Some(*f));
        assert_eq!(f.name(), *name);
    }
    assert_eq!(Format::parse("SARIF"), Some(Format::Sarif));
    assert_eq!(Format::parse("md"), Some(Format::Markdown));
    assert_eq!(Format::Sarif.extension(), "sarif");
    assert_eq!(Format::Markdown.extension(), "md");
}
