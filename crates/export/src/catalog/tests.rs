use super::*;
use crate::{Format, Record, Writer};
use unicode_width::UnicodeWidthStr;

/// Findings of every type, as the platform sends them.
fn samples() -> Vec<Issue> {
    let items: Vec<IssueItem> =
        serde_json::from_str(include_str!("../../../../assets/pack-samples.json")).unwrap();
    items.into_iter().filter_map(|i| i.issue).collect()
}

fn at(s: &str) -> Timestamp {
    s.parse().unwrap()
}

#[test]
fn every_column_is_named_once_in_snake_case_and_described_in_one_line() {
    let mut names: Vec<&str> = CATALOG.iter().map(FindingColumn::name).collect();
    for c in CATALOG {
        let name = c.name();
        assert!(
            name.chars().all(|ch| ch.is_ascii_lowercase() || ch == '_'),
            "{name}"
        );
        assert!(!c.description.trim().is_empty(), "{name}");
        assert!(!c.description.contains('\n'), "{name}");
        assert!(c.layout.min <= c.layout.width, "{name}");
        // Only the id, severity and rule stay however narrow a table is.
        assert_eq!(
            c.layout.drop == 0,
            ["id", "severity", "rule"].contains(&name) || !c.layout.in_table,
            "{name}"
        );
    }
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), CATALOG.len());
    for p in PRESETS {
        assert!(
            find(p.name).is_none(),
            "a preset named as a column: {}",
            p.name
        );
        for n in p.columns {
            assert!(find(n).is_some(), "{}: {n}", p.name);
        }
    }
    // What the issue asks for, at least.
    for n in [
        "id",
        "severity",
        "state",
        "triage_state",
        "triage_reason",
        "type",
        "rule",
        "rule_id",
        "repository",
        "branch",
        "location",
        "first_detected",
        "age",
        "days_over_target",
        "relevant_since",
        "created",
        "fixed_at",
        "ticket",
        "fix_pr",
        "note",
        "owner_team",
        "epss",
        "reachability",
        "message",
        "url",
    ] {
        assert!(find(n).is_some(), "{n}");
    }
}

#[test]
fn the_default_preset_is_the_ten_columns_of_every_listing() {
    let default: Vec<&str> = parse("default").unwrap().iter().map(|c| c.name()).collect();
    let fixed: Vec<&str> = <Issue as Record>::COLUMNS.iter().map(|c| c.name).collect();
    assert_eq!(default, fixed);
    // Written through the catalog, byte for byte what a listing writes.
    let findings = samples();
    for format in [Format::Csv, Format::Table, Format::Markdown] {
        for width in [60, 80, 200] {
            let mut plain = Writer::new::<Issue>(Vec::new(), format, width);
            let chosen = Chosen::preset("default", Context::default());
            let mut chosen = Writer::with_columns(Vec::new(), format, width, chosen);
            for f in &findings {
                plain.item(f).unwrap();
                chosen.item(f).unwrap();
            }
            assert_eq!(
                String::from_utf8(plain.finish().unwrap()).unwrap(),
                String::from_utf8(chosen.finish().unwrap()).unwrap(),
                "{format:?} at {width}"
            );
        }
    }
}

#[test]
fn every_column_renders_for_every_type_of_finding() {
    let findings = samples();
    let types: Vec<String> = findings.iter().map(|f| label(&f.issue_type)).collect();
    for t in ["sca", "code", "secrets"] {
        assert!(types.iter().any(|s| s == t), "{t}: {types:?}");
    }
    let context = Context {
        now: Some(at("2026-11-20T12:00:00Z")),
        targets: SlaDays::default(),
    };
    for f in findings.iter().chain([&Issue::default()]) {
        for c in CATALOG {
            let cell = (c.cell)(f, &context);
            assert_ne!(cell, "null", "{}", c.name());
        }
    }
    // A finding with nothing: every cell empty.
    let all = Chosen::new(parse("all").unwrap(), context);
    assert!(
        all.cells(Some(&Issue::default()))
            .iter()
            .all(String::is_empty)
    );
    assert_eq!(all.cells(None).len(), CATALOG.len());
}

#[test]
fn the_derived_columns_read_the_open_age_and_the_findings_parts() {
    let context = Context {
        now: Some(at("2026-11-20T12:00:00Z")),
        targets: SlaDays::default(),
    };
    let mut f = Issue {
        severity: Some(Severity::Critical),
        aggregate_state: Some(AggregateState::Open),
        first_detected_at: Some(at("2026-11-10T00:00:00Z")),
        external_ticket: Some(ExternalTicket {
            url: Some("https://tickets.example.com/browse/SEC-1".into()),
            external_slug: Some("SEC-1".into()),
            ..Default::default()
        }),
        codeowners: vec![
            Codeowner {
                name: Some("payments".into()),
                is_team: Some(true),
                ..Default::default()
            },
            Codeowner {
                name: Some("pnair".into()),
                is_team: Some(false),
                ..Default::default()
            },
        ],
        ..Default::default()
    };
    let cell = |f: &Issue, name: &str| (find(name).unwrap().cell)(f, &context);
    assert_eq!(cell(&f, "age"), "10");
    // Critical: 7 days.
    assert_eq!(cell(&f, "days_over_target"), "3");
    assert_eq!(cell(&f, "first_detected"), "2026-11-10 00:00");
    assert_eq!(cell(&f, "ticket"), "SEC-1");
    assert_eq!(
        cell(&f, "ticket_url"),
        "https://tickets.example.com/browse/SEC-1"
    );
    assert_eq!(cell(&f, "owner_team"), "payments");
    // Without the time (no context), or closed: no open age.
    assert_eq!((find("age").unwrap().cell)(&f, &Context::default()), "");
    f.aggregate_state = Some(AggregateState::Fixed);
    assert_eq!(cell(&f, "age"), "");
    assert_eq!(cell(&f, "days_over_target"), "");
    // Fixed: the latest status change.
    f.activity_history = vec![
        ActivityEvent {
            date: Some(at("2026-11-12T08:00:00Z")),
            history_type: Some(HistoryType::Status),
            ..Default::default()
        },
        ActivityEvent {
            date: Some(at("2026-11-01T08:00:00Z")),
            history_type: Some(HistoryType::Status),
            ..Default::default()
        },
    ];
    assert_eq!(cell(&f, "fixed_at"), "2026-11-12 08:00");
    // A link that is no web link is never written as one.
    f.click_to_fix_pr_url = Some("javascript:alert(1)".into());
    assert_eq!(cell(&f, "fix_pr"), "");
}

#[test]
fn names_and_presets_mix_in_order_each_once() {
    let names =
        |text: &str| -> Vec<&str> { parse(text).unwrap().iter().map(|c| c.name()).collect() };
    let leadership = names("leadership");
    assert_eq!(
        leadership,
        [
            "id",
            "severity",
            "state",
            "rule",
            "repository",
            "first_detected",
            "age",
            "days_over_target",
            "ticket",
            "owner_team"
        ]
    );
    let mut with_url = leadership.clone();
    with_url.push("url");
    assert_eq!(names("leadership,url"), with_url);
    assert_eq!(names("Leadership, URL,id"), with_url);
    assert_eq!(
        names("first-detected rule-id"),
        ["first_detected", "rule_id"]
    );
    assert_eq!(names("all").len(), CATALOG.len());
    assert_eq!(parse(" , ").unwrap_err(), ColumnsError::Empty);
    let unknown = parse("id,sevrity").unwrap_err();
    assert_eq!(
        unknown,
        ColumnsError::Unknown {
            given: "sevrity".into(),
            closest: Some("severity")
        }
    );
    assert_eq!(
        unknown.to_string(),
        "unknown column \"sevrity\" (did you mean severity?)"
    );
    let prefix = parse("first").unwrap_err();
    assert!(
        prefix.to_string().contains("did you mean first_detected?"),
        "{prefix}"
    );
    let far = parse("zzzzzzzzzz").unwrap_err();
    assert_eq!(far.to_string(), "unknown column \"zzzzzzzzzz\"");
    // The catalog's text names every column and preset.
    let text = catalog_text();
    for c in CATALOG {
        assert!(text.contains(c.description), "{}", c.name());
    }
    for p in PRESETS {
        assert!(text.contains(&format!("  {}", p.name)), "{}", p.name);
    }
}

#[test]
fn a_table_of_every_column_fits_80_columns() {
    let context = Context {
        now: Some(at("2026-11-20T12:00:00Z")),
        targets: SlaDays::default(),
    };
    for width in [60, 80, 100, 200] {
        let chosen = Chosen::new(parse("all").unwrap(), context);
        let mut w = Writer::with_columns(Vec::new(), Format::Table, width, chosen);
        for f in samples() {
            w.item(&f).unwrap();
        }
        let out = String::from_utf8(w.finish().unwrap()).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 7, "{out}");
        for line in &lines {
            assert!(line.width() <= width, "{width}: {line}");
        }
        // What stays longest: the id, the severity and the rule.
        for kept in ["ID", "SEVERITY", "RULE"] {
            assert!(lines[0].contains(kept), "{width}: {}", lines[0]);
        }
    }
    let chosen = Chosen::new(parse("leadership").unwrap(), context);
    let mut w = Writer::with_columns(Vec::new(), Format::Table, 80, chosen);
    w.item(&samples()[0]).unwrap();
    let out = String::from_utf8(w.finish().unwrap()).unwrap();
    let header = out.lines().next().unwrap();
    assert!(header.starts_with("ID") && header.contains("AGE"), "{out}");
    // A long name heads a narrow column briefly; CSV keeps the name.
    assert!(header.contains("OVER") && !header.contains("DAYS"), "{out}");
}
