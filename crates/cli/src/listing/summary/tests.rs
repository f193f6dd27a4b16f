use super::*;
use crate::listing::opened;

const HOSTILE: &str = "<script>alert('x')</script> & \"q\" | [l](u)";

fn hostile() -> Summary {
    let open = Severities {
        critical: 1,
        high: 2,
        medium: 3,
        low: 4,
        all: 10,
    };
    let figures = ActivityFigures {
        opened: 5,
        fixed: 2,
        ignored: 1,
        provisionally_ignored: 1,
        removed: 0,
        net: 2,
    };
    Summary {
        period: Period {
            deployment: "1234".to_owned(),
            since: Some("2026-10-26T00:00:00+00:00".into()),
            until: None,
            bucket: "week".into(),
        },
        totals: Totals {
            all: 9,
            code: 5,
            supply_chain: 3,
            secrets: 1,
        },
        open_by_severity: open,
        activity: Activity {
            now: figures,
            previous: Some(figures),
            said: Some(HOSTILE.into()),
        },
        worst_repositories: vec![Repository {
            name: HOSTILE.into(),
            open,
        }],
        top_rules: vec![Rule {
            name: HOSTILE.into(),
            id: HOSTILE.into(),
            open: 3,
        }],
        opened_in_period: hostile_opened(),
        backlog: vec![BacklogBucket {
            start: "2026-10-26".into(),
            open,
        }],
        open_age: open_age(&BySeverityReport::default(), SlaDays::default()),
        overdue: Overdue {
            count: open,
            undated: 1,
            findings: vec![OverdueFinding {
                id: "7".into(),
                severity: "critical".into(),
                rule: HOSTILE.into(),
                rule_id: HOSTILE.into(),
                repository: HOSTILE.into(),
                age_days: 40,
                days_over_target: 33,
            }],
        },
    }
}

fn hostile_opened() -> opened::OpenedReport {
    opened::OpenedReport {
        period: opened::Period {
            since: Some("2026-10-26T00:00:00+00:00".into()),
            until: Some("2026-11-02T00:00:00+00:00".into()),
            said: "the 7 days 2026-10-26 to 2026-11-01 (UTC)".into(),
        },
        opened: 5,
        still_open: 3,
        open_at_end: 10,
        basis: opened::Basis {
            opened: "opened".into(),
            still_open: "still open".into(),
            open_at_end: "open at end".into(),
        },
        rules: vec![opened::RuleRow {
            name: HOSTILE.into(),
            rule_id: HOSTILE.into(),
            shown: HOSTILE.into(),
            opened: 5,
            still_open: 3,
            open_at_end: 10,
        }],
        repositories: vec![opened::RepositoryRow {
            name: HOSTILE.into(),
            opened: 5,
            still_open: 3,
            open_at_end: 10,
        }],
    }
}

/// Findings data is the server's: in HTML no tag of it survives, in
/// Markdown no markup.
#[test]
fn hostile_text_is_escaped_in_html_and_markdown() {
    let s = hostile();
    let page = html::page(&s);
    assert!(!page.contains("<script"), "{page}");
    assert!(
        page.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;"),
        "{page}"
    );
    assert!(!page.contains("http://") && !page.contains("https://"));
    let md = markdown::page(&s);
    // Every `<` escaped (`\<`): no tag.
    assert!(!md.replace("\\<", "").contains('<'), "{md}");
    assert!(md.contains("\\<script\\>"), "{md}");
    for title in SECTIONS {
        assert!(md.contains(&format!("## {title}")), "{title}");
        assert!(page.contains(&format!("<h2>{title}</h2>")), "{title}");
    }
}

/// What reorders or hides text in a browser or a terminal, and a secret
/// the process holds, reach neither page: the HTML shows the stand-ins
/// the Markdown shows.
#[test]
fn bidi_zero_width_and_secrets_are_shown_alike_in_html_and_markdown() {
    findings_base::redact::register("summary-secret-3131");
    let mut s = hostile();
    let sly = "evil\u{202e}gpj.exe\u{200b}\u{2066} summary-secret-3131";
    s.worst_repositories[0].name = sly.into();
    s.overdue.findings[0].rule = sly.into();
    for (format, page) in [("html", html::page(&s)), ("markdown", markdown::page(&s))] {
        let hiding: Vec<String> = page
            .chars()
            .filter(|c| *c != '\n' && findings_base::text::acts_on_a_terminal(*c))
            .map(|c| format!("U+{:04X}", c as u32))
            .collect();
        assert!(hiding.is_empty(), "{format}: {hiding:?}");
        assert!(!page.contains("summary-secret-3131"), "{format}: {page}");
        for shown in ["U+202E", "U+200B", "U+2066"] {
            assert!(page.contains(shown), "{format}: {shown} not shown: {page}");
        }
    }
}

#[test]
fn open_age_says_over_or_within_its_target() {
    assert_eq!(age_said(Some(5)), "over target by 5 days");
    assert_eq!(age_said(Some(-1)), "within target by 1 day");
    assert_eq!(age_said(Some(0)), "at target");
    assert_eq!(age_said(None), "no open findings");
    let r = BySeverityReport {
        buckets: vec![SeverityBucket {
            time_period: None,
            counts: BySeverity {
                critical: Some(10),
                high: Some(20),
                medium: None,
                low: Some(180),
            },
        }],
    };
    let ages = open_age(&r, SlaDays::default());
    let said: Vec<&str> = ages.iter().map(|a| a.said.as_str()).collect();
    assert_eq!(
        said,
        [
            "over target by 3 days",
            "within target by 10 days",
            "no open findings",
            "at target"
        ]
    );
}

#[test]
fn the_format_is_markdown_html_or_json() {
    let f = |given: Option<&str>, file: Option<&str>| format(given, file.map(Path::new));
    assert_eq!(f(None, None).unwrap(), SummaryFormat::Markdown);
    assert_eq!(f(None, Some("x.html")).unwrap(), SummaryFormat::Html);
    assert_eq!(f(None, Some("x.md")).unwrap(), SummaryFormat::Markdown);
    assert_eq!(f(None, Some("x.json")).unwrap(), SummaryFormat::Json);
    assert_eq!(f(Some("html"), Some("x.md")).unwrap(), SummaryFormat::Html);
    assert!(
        f(Some("csv"), None)
            .unwrap_err()
            .0
            .contains("markdown, html or json")
    );
    assert!(f(None, Some("x.csv")).unwrap_err().0.contains("--format"));
}
