//! The review as one self-contained HTML page: inline CSS (printable),
//! inline SVG charts, no script and no address of anything outside it.
//! Every text is escaped (findings data is the server's, untrusted), and
//! every figure sits in an element whose `data-figure` is its path in the
//! JSON (`activity.opened`, `top_rules.0.name`), so a test or a script
//! reads the page as it reads `--format json`.

use super::markdown::title as review_title;
use super::{ActivityFigures, SECTIONS, Severities, Summary};
use std::fmt::Write;

const STYLE: &str = "
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 1.6em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: .5em 0; }
th, td { border: 1px solid #ccc; padding: .2em .6em; text-align: right; }
th:first-child, td.text { text-align: left; }
svg { display: block; margin: .5em 0; }
svg text { font-size: 11px; fill: #333; }
.critical { fill: #b71c1c; } .high { fill: #e65100; } .medium { fill: #f9a825; } .low { fill: #1565c0; }
.term { fill: #546e7a; } .fall { fill: #2e7d32; }
@media print {
  body { margin: 0; max-width: none; font-size: 10pt; }
  section { break-inside: avoid; }
  h2 { break-after: avoid; }
}
";

/// Text safe in an element and in an attribute's quotes: first made one
/// visible line as the Markdown's cells are (`text::one_line`: secrets
/// masked; controls, bidi and zero-width characters shown as stand-ins,
/// which a browser would otherwise obey or draw as nothing), then `<`,
/// `>`, `&` and both quotes as entities.
pub fn escape(s: &str) -> String {
    let shown = findings_base::text::one_line(s);
    let mut out = String::with_capacity(shown.len());
    for c in shown.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The whole page.
pub fn page(s: &Summary) -> String {
    let title = review_title(s);
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>{t}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{t}</h1>\n",
        t = escape(&title)
    );
    out.push_str(&period(s));
    for (i, title) in SECTIONS.iter().enumerate() {
        let _ = write!(
            out,
            "<section>\n<h2>{}</h2>\n{}</section>\n",
            escape(title),
            section(i, s)
        );
    }
    out.push_str("</body>\n</html>\n");
    out
}

fn period(s: &Summary) -> String {
    let mut out = String::from("<p class=\"period\">");
    let _ = write!(
        out,
        "Deployment {}. ",
        span("period.deployment", &s.period.deployment)
    );
    if let Some(since) = &s.period.since {
        let _ = write!(out, "From {} ", span("period.since", since));
    }
    if let Some(until) = &s.period.until {
        let _ = write!(out, "until {} ", span("period.until", until));
    }
    let _ = writeln!(out, "by {}.</p>", span("period.bucket", &s.period.bucket));
    out
}

/// A figure in a span.
fn span(path: &str, value: &str) -> String {
    format!(
        "<span data-figure=\"{}\">{}</span>",
        escape(path),
        escape(value)
    )
}

/// A figure's cell (a number's right-aligned, a text's left).
fn td(path: &str, value: &str) -> String {
    let class = if value.parse::<i64>().is_ok() {
        ""
    } else {
        " class=\"text\""
    };
    format!(
        "<td{class} data-figure=\"{}\">{}</td>",
        escape(path),
        escape(value)
    )
}

fn section(i: usize, s: &Summary) -> String {
    match i {
        0 => {
            let t = &s.totals;
            let cells = [
                ("all", t.all),
                ("code", t.code),
                ("supply_chain", t.supply_chain),
                ("secrets", t.secrets),
            ]
            .map(|(k, n)| td(&format!("totals.{k}"), &n.to_string()));
            table(
                &["all", "code", "supply chain", "secrets"],
                &[cells.concat()],
            )
        }
        1 => table(
            &["critical", "high", "medium", "low", "all"],
            &[severity_cells("open_by_severity", &s.open_by_severity)],
        ),
        2 => activity(s),
        3 => table(
            &["repository", "critical", "high", "medium", "low", "open"],
            &rows(&s.worst_repositories, |i, r| {
                let at = format!("worst_repositories.{i}");
                td(&format!("{at}.name"), &r.name) + &severity_cells(&at, &r.open)
            }),
        ),
        4 => table(
            &["rule", "rule id", "open"],
            &rows(&s.top_rules, |i, r| {
                let at = format!("top_rules.{i}");
                [
                    td(&format!("{at}.name"), &r.name),
                    td(&format!("{at}.id"), &r.id),
                    td(&format!("{at}.open"), &r.open.to_string()),
                ]
                .concat()
            }),
        ),
        5 => opened(s),
        6 => {
            backlog_chart(s)
                + &table(
                    &["bucket", "critical", "high", "medium", "low", "all"],
                    &rows(&s.backlog, |i, b| {
                        let at = format!("backlog.{i}");
                        td(&format!("{at}.start"), &b.start) + &severity_cells(&at, &b.open)
                    }),
                )
        }
        7 => open_age(s),
        _ => overdue(s),
    }
}

/// The rules and repositories by the findings opened in the period, under
/// the totals and the basis of each figure.
fn opened(s: &Summary) -> String {
    let o = &s.opened_in_period;
    let at = "opened_in_period";
    let f = |k: &str| format!("{at}.{k}");
    let mut out = format!(
        "<p>In {}: {} findings opened, {} of them still open; open at the period's end, \
         whatever their age: {}.",
        span(&f("period.said"), &o.period.said),
        span(&f("opened"), &o.opened.to_string()),
        span(&f("still_open"), &o.still_open.to_string()),
        span(&f("open_at_end"), &o.open_at_end.to_string()),
    );
    if let Some(since) = &o.period.since {
        let _ = write!(out, " From {}", span(&f("period.since"), since));
    }
    if let Some(until) = &o.period.until {
        let _ = write!(out, " until {}", span(&f("period.until"), until));
    }
    out.push_str("</p>\n<ul>");
    for (k, what) in [
        ("opened", "opened"),
        ("still_open", "still open"),
        ("open_at_end", "open at end"),
    ] {
        let _ = write!(
            out,
            "<li>{what}: {}</li>",
            span(
                &f(&format!("basis.{k}")),
                match k {
                    "opened" => &o.basis.opened,
                    "still_open" => &o.basis.still_open,
                    _ => &o.basis.open_at_end,
                }
            )
        );
    }
    out.push_str("</ul>\n");
    out.push_str(&table(
        &["rule", "rule id", "opened", "still open", "open at end"],
        &rows(&o.rules, |i, r| {
            let at = f(&format!("rules.{i}"));
            [
                td(&format!("{at}.name"), &r.name),
                td(&format!("{at}.rule_id"), &r.rule_id),
                td(&format!("{at}.opened"), &r.opened.to_string()),
                td(&format!("{at}.still_open"), &r.still_open.to_string()),
                td(&format!("{at}.open_at_end"), &r.open_at_end.to_string()),
            ]
            .concat()
        }),
    ));
    out.push_str(&table(
        &["repository", "opened", "still open", "open at end"],
        &rows(&o.repositories, |i, r| {
            let at = f(&format!("repositories.{i}"));
            [
                td(&format!("{at}.name"), &r.name),
                td(&format!("{at}.opened"), &r.opened.to_string()),
                td(&format!("{at}.still_open"), &r.still_open.to_string()),
                td(&format!("{at}.open_at_end"), &r.open_at_end.to_string()),
            ]
            .concat()
        }),
    ));
    out
}

fn rows<T>(items: &[T], row: impl Fn(usize, &T) -> String) -> Vec<String> {
    items.iter().enumerate().map(|(i, t)| row(i, t)).collect()
}

fn severity_cells(at: &str, c: &Severities) -> String {
    c.named()
        .iter()
        .map(|(k, n)| td(&format!("{at}.{k}"), &n.to_string()))
        .collect()
}

/// A table of rows of cells; "None." when it has none.
fn table(names: &[&str], rows: &[String]) -> String {
    if rows.is_empty() {
        return "<p>None.</p>\n".to_owned();
    }
    let mut out = String::from("<table>\n<thead><tr>");
    for name in names {
        let _ = write!(out, "<th>{}</th>", escape(name));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for row in rows {
        let _ = writeln!(out, "<tr>{row}</tr>");
    }
    out.push_str("</tbody>\n</table>\n");
    out
}

fn activity(s: &Summary) -> String {
    let a = &s.activity;
    let mut out = String::new();
    if let Some(said) = &a.said {
        let _ = writeln!(out, "<p data-figure=\"activity.said\">{}</p>", escape(said));
    }
    out.push_str(&activity_chart(&a.now));
    let line = |label: &str, at: &str, f: &ActivityFigures| {
        let cells: String = f
            .named()
            .iter()
            .map(|(k, n)| td(&format!("{at}{k}"), &n.to_string()))
            .collect();
        format!("<td class=\"text\">{}</td>{cells}", escape(label))
    };
    let mut rows = vec![line(super::markdown::rows_label(s), "activity.", &a.now)];
    rows.extend(
        a.previous
            .as_ref()
            .map(|p| line("the period before", "activity.previous.", p)),
    );
    out.push_str(&table(
        &[
            "",
            "opened",
            "fixed",
            "ignored",
            "provisionally ignored",
            "removed",
            "net",
        ],
        &rows,
    ));
    out
}

fn open_age(s: &Summary) -> String {
    table(
        &[
            "severity",
            "median days open",
            "target days",
            "over by",
            "against target",
        ],
        &rows(&s.open_age, |i, a| {
            let at = format!("open_age.{i}");
            let median = a.median_days.map_or_else(
                || "<td></td>".to_owned(),
                |d| td(&format!("{at}.median_days"), &d.to_string()),
            );
            let over = a.over_by.map_or_else(
                || "<td></td>".to_owned(),
                |d| td(&format!("{at}.over_by"), &d.to_string()),
            );
            [
                td(&format!("{at}.severity"), a.severity),
                median,
                td(&format!("{at}.target_days"), &a.target_days.to_string()),
                over,
                td(&format!("{at}.said"), &a.said),
            ]
            .concat()
        }),
    )
}

fn overdue(s: &Summary) -> String {
    let o = &s.overdue;
    let mut out = String::from("<p>Open findings past their target:</p>\n");
    out.push_str(&table(
        &["critical", "high", "medium", "low", "all"],
        &[severity_cells("overdue", &o.count)],
    ));
    let _ = writeln!(
        out,
        "<p>Open findings without a first detection (not counted): {}.</p>",
        span("overdue.undated", &o.undated.to_string())
    );
    if !o.findings.is_empty() {
        out.push_str("<p>The most overdue:</p>\n");
        out.push_str(&table(
            &[
                "id",
                "severity",
                "rule",
                "rule id",
                "repository",
                "age (days)",
                "days over target",
            ],
            &rows(&o.findings, |i, f| {
                let at = format!("overdue.findings.{i}");
                [
                    td(&format!("{at}.id"), &f.id),
                    td(&format!("{at}.severity"), &f.severity),
                    td(&format!("{at}.rule"), &f.rule),
                    td(&format!("{at}.rule_id"), &f.rule_id),
                    td(&format!("{at}.repository"), &f.repository),
                    td(&format!("{at}.age_days"), &f.age_days.to_string()),
                    td(
                        &format!("{at}.days_over_target"),
                        &f.days_over_target.to_string(),
                    ),
                ]
                .concat()
            }),
        ));
    }
    out
}

const CHART_WIDTH: i64 = 640;

/// The backlog per bucket: a bar each, stacked by severity.
fn backlog_chart(s: &Summary) -> String {
    if s.backlog.is_empty() {
        return String::new();
    }
    let (height, base) = (180_i64, 160_i64);
    let most = s
        .backlog
        .iter()
        .map(|b| b.open.all)
        .max()
        .unwrap_or(0)
        .max(1);
    let n = i64::try_from(s.backlog.len()).unwrap_or(1);
    let step = (CHART_WIDTH / n).max(4);
    let mut out = format!(
        "<svg width=\"{}\" height=\"{height}\" \
         role=\"img\" aria-label=\"Open findings per bucket, by severity\">\n",
        CHART_WIDTH + 100
    );
    // The legend, right of the bars.
    for (i, name) in (0_i64..).zip(["critical", "high", "medium", "low"]) {
        let y = 10 + i * 18;
        let _ = writeln!(
            out,
            "<rect class=\"{name}\" x=\"{}\" y=\"{y}\" width=\"10\" height=\"10\"></rect>\
             <text x=\"{}\" y=\"{}\">{name}</text>",
            CHART_WIDTH + 10,
            CHART_WIDTH + 24,
            y + 9
        );
    }
    for (i, b) in (0_i64..).zip(&s.backlog) {
        let x = i * step + 2;
        let mut top = base;
        for (name, count) in &b.open.named()[..4] {
            let h = count * (base - 10) / most;
            top -= h;
            let _ = writeln!(
                out,
                "<rect class=\"{name}\" x=\"{x}\" y=\"{top}\" width=\"{}\" height=\"{h}\">\
                 <title>{} {name}: {count}</title></rect>",
                (step - 4).max(1),
                escape(&b.start)
            );
        }
        if step >= 30 {
            let _ = writeln!(
                out,
                "<text x=\"{x}\" y=\"{}\">{}</text>",
                top - 3,
                b.open.all
            );
        }
        if i == 0 || i == n - 1 {
            let _ = writeln!(
                out,
                "<text x=\"{x}\" y=\"{}\">{}</text>",
                base + 14,
                escape(&b.start)
            );
        }
    }
    out.push_str("</svg>\n");
    out
}

/// The activity's terms as bars (a fall of the net drawn apart).
fn activity_chart(f: &ActivityFigures) -> String {
    let terms: Vec<(&str, i64)> = f
        .named()
        .into_iter()
        .filter(|(k, _)| *k != "provisionally_ignored")
        .collect();
    let most = terms.iter().map(|(_, n)| n.abs()).max().unwrap_or(0).max(1);
    let height = 22 * i64::try_from(terms.len()).unwrap_or(0) + 4;
    let mut out = format!(
        "<svg width=\"{CHART_WIDTH}\" height=\"{height}\" \
         role=\"img\" aria-label=\"The activity's terms\">\n"
    );
    for (i, (name, n)) in (0_i64..).zip(&terms) {
        let y = i * 22 + 2;
        let w = n.abs() * (CHART_WIDTH - 200) / most;
        let class = if *n < 0 { "fall" } else { "term" };
        let _ = writeln!(
            out,
            "<text x=\"0\" y=\"{}\">{name}</text><rect class=\"{class}\" x=\"90\" y=\"{y}\" \
             width=\"{w}\" height=\"16\"></rect><text x=\"{}\" y=\"{}\">{n}</text>",
            y + 12,
            96 + w,
            y + 12
        );
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn hostile_text_is_escaped() {
        assert_eq!(
            escape("<script>alert('x' & \"y\")</script>"),
            "&lt;script&gt;alert(&#39;x&#39; &amp; &quot;y&quot;)&lt;/script&gt;"
        );
    }

    /// What reorders or hides text in a browser is shown as the Markdown
    /// shows it (a rule named `evil<U+202E>gpj.exe` reads so, not as
    /// `evilexe.jpg`), and a control character never reaches the page.
    #[test]
    fn bidi_zero_width_and_controls_are_shown_as_the_markdown_shows_them() {
        let name = "evil\u{202e}gpj.exe\u{200b}x\u{2066}y\u{1b}[2J\u{9b}z\nw";
        let html = escape(name);
        assert_eq!(
            html,
            "evil&lt;U+202E&gt;gpj.exe&lt;U+200B&gt;x&lt;U+2066&gt;y\u{241b}[2J&lt;U+009B&gt;z\u{2424}w"
        );
        assert!(!html.chars().any(findings_base::text::acts_on_a_terminal));
    }
}
