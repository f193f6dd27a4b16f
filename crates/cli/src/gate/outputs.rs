//! What a gate writes for the CI: one verdict line on stderr, and on
//! request a Markdown summary for a pull-request comment (at most
//! [`MAX_SUMMARY`] characters), SARIF of the refused findings, JUnit XML
//! (one test case per rule of the policy, a failure per finding) and a
//! JSON verdict.

use super::verdict::{Novelty, Verdict};
use findings_base::text::thousands_of;
use findings_config::{GatePolicy, KindName};
use findings_export::markdown;
use findings_model::Issue;
use serde_json::{Value, json};

/// The most a pull-request comment holds (GitHub's limit): the summary is
/// cut at a row boundary below it, saying how many rows are not shown.
pub const MAX_SUMMARY: usize = 65_536;

/// What the gate was for: said in every output.
pub struct Scope {
    pub repository: String,
    pub reference: String,
    /// "main" (the primary branch), or "baseline FILE (saved …)".
    pub against: String,
}

/// `gate: fail — 3 new findings refused (2 critical, 1 high) on feature/x
/// against main · 5 new in all, 2 handled`.
pub fn verdict_line(v: &Verdict, policy: &GatePolicy, scope: &Scope) -> String {
    let mut reasons = Vec::new();
    if !v.refused.is_empty() {
        let reopened = v
            .refused
            .iter()
            .filter(|r| r.novelty == Novelty::Reopened)
            .count();
        let new = v.refused.len() - reopened;
        let which = match (new, reopened) {
            (_, 0) => plural(new, "new finding", "new findings"),
            (0, _) => plural(reopened, "reopened finding", "reopened findings"),
            _ => format!(
                "{} ({} new, {} reopened)",
                plural(v.refused.len(), "finding", "findings"),
                thousands_of(new),
                thousands_of(reopened)
            ),
        };
        let severities: Vec<String> = v
            .refused_by_severity()
            .iter()
            .map(|(s, n)| format!("{} {s}", thousands_of(*n)))
            .collect();
        reasons.push(format!("{which} refused ({})", severities.join(", ")));
    }
    for &k in &v.expired {
        let e = &policy.exempt[k];
        let day = e.expires.map(|d| d.to_string()).unwrap_or_default();
        reasons.push(format!("exemption {} expired {day}", e.name()));
    }
    if !v.overdue.is_empty() {
        let max = policy.old_findings.max_days_over_target.unwrap_or(0);
        reasons.push(format!(
            "{} more than {max} days past target",
            plural(v.overdue.len(), "old finding", "old findings")
        ));
    }
    let (word, why) = if v.fails() {
        ("fail", reasons.join("; "))
    } else {
        ("pass", "no finding refused".to_owned())
    };
    let exempted: usize = v.exempted.iter().sum();
    let mut tally = vec![format!("{} new", thousands_of(v.new))];
    if v.reopened > 0 {
        tally.push(format!("{} reopened", thousands_of(v.reopened)));
    }
    let mut tally = format!(
        "{} on the ref: {} in all",
        plural(v.present, "finding", "findings"),
        tally.join(" and ")
    );
    for (n, what) in [
        (v.handled, "handled"),
        (exempted, "exempted"),
        (v.allowed, "under the policy"),
    ] {
        if n > 0 {
            tally.push_str(&format!(", {} {what}", thousands_of(n)));
        }
    }
    let text = format!(
        "gate: {word} — {why} on {} of {} against {} · {tally}",
        scope.reference, scope.repository, scope.against
    );
    findings_base::text::one_line(&text).into_owned()
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{} {}", thousands_of(n), if n == 1 { one } else { many })
}

/// A finding's id as a Markdown link to its page, when it has a web URL.
fn linked_id(issue: &Issue) -> String {
    let id = markdown::cell(issue.id());
    match issue.web_url() {
        Some(url) => {
            let url: String = url
                .chars()
                .map(|c| match c {
                    '(' => "%28".to_owned(),
                    ')' => "%29".to_owned(),
                    ' ' => "%20".to_owned(),
                    '<' => "%3C".to_owned(),
                    '>' => "%3E".to_owned(),
                    c => c.to_string(),
                })
                .collect();
            format!("[{id}]({url})")
        }
        None => id,
    }
}

/// A row of the refused or overdue table (already escaped cells).
fn finding_row(issue: &Issue, change: &str) -> String {
    let cells = [
        linked_id(issue),
        markdown::cell(change),
        markdown::cell(issue.severity.as_ref().map_or("", |s| s.label())),
        markdown::cell(KindName::of(issue.issue_type.as_ref()).unwrap_or("")),
        markdown::cell(&issue.rule_label()),
        markdown::cell(&issue.location()),
    ];
    format!("| {} |", cells.join(" | "))
}

const FINDING_HEADER: [&str; 6] = ["finding", "change", "severity", "kind", "rule", "where"];

/// The Markdown summary, at most `max` characters: the verdict and counts
/// first, then the tables, each cut at a row with what is not shown said.
pub fn summary(v: &Verdict, policy: &GatePolicy, scope: &Scope, max: usize) -> String {
    let mut head = String::new();
    let word = if v.fails() { "fail" } else { "pass" };
    head.push_str(&format!(
        "### findings gate: {word}\n\n{}\n\n",
        markdown::cell(&verdict_line(v, policy, scope))
    ));
    head.push_str(&markdown::header(["severity", "refused"]));
    head.push('\n');
    let counts = v.refused_by_severity();
    if counts.is_empty() {
        head.push_str(&markdown::row(["none", "0"]));
        head.push('\n');
    }
    for (s, n) in &counts {
        head.push_str(&markdown::row([s.as_str(), &n.to_string()]));
        head.push('\n');
    }
    let mut tables: Vec<Table> = Vec::new();
    if !v.refused.is_empty() {
        let rows = v
            .refused
            .iter()
            .map(|r| finding_row(&r.issue, r.novelty.name()))
            .collect();
        tables.push(Table {
            title: format!("Refused findings ({})", v.refused.len()),
            header: markdown::header(FINDING_HEADER),
            rows,
        });
    }
    if !policy.exempt.is_empty() {
        let today_expired = |k: usize| v.expired.contains(&k);
        let rows = policy
            .exempt
            .iter()
            .enumerate()
            .map(|(k, e)| {
                let expires = match (e.expires, today_expired(k)) {
                    (Some(d), true) => format!("{d} (expired)"),
                    (Some(d), false) => d.to_string(),
                    (None, _) => "never".into(),
                };
                let exempted = v.exempted.get(k).copied().unwrap_or(0).to_string();
                markdown::row([e.name().as_str(), &e.reason, &expires, &exempted])
            })
            .collect();
        tables.push(Table {
            title: "Exemptions".into(),
            header: markdown::header(["exemption", "reason", "expires", "exempted"]),
            rows,
        });
    }
    if !v.overdue.is_empty() {
        let rows = v
            .overdue
            .iter()
            .map(|o| finding_row(&o.issue, &format!("old, {} days past target", o.days_over)))
            .collect();
        tables.push(Table {
            title: format!("Old findings past target ({})", v.overdue.len()),
            header: markdown::header(FINDING_HEADER),
            rows,
        });
    }
    cut_to(head, &tables, max)
}

/// A table of the summary: its title, header and rows (escaped).
struct Table {
    title: String,
    header: String,
    rows: Vec<String>,
}

/// `out`, then each table, with as many rows as fit in `max` characters
/// (room is kept for the note of the rows left out of each table).
fn cut_to(mut out: String, tables: &[Table], max: usize) -> String {
    const NOTE_ROOM: usize = 64;
    // Characters so far, counted as they are added (not recounted a row).
    let mut used = count(&out);
    let push = |out: &mut String, used: &mut usize, text: &str| {
        out.push_str(text);
        *used += count(text);
    };
    for (k, table) in tables.iter().enumerate() {
        let title = markdown::cell(&table.title);
        let top = format!("\n#### {title}\n\n{}\n", table.header);
        let room_after = NOTE_ROOM * (tables.len() - k - 1);
        if used + count(&top) + NOTE_ROOM + room_after > max {
            let note = format!("\n_{title} not shown: {} rows_\n", table.rows.len());
            push(&mut out, &mut used, &note);
            continue;
        }
        push(&mut out, &mut used, &top);
        let mut shown = 0;
        for row in &table.rows {
            if used + count(row) + 1 + NOTE_ROOM + room_after > max {
                break;
            }
            push(&mut out, &mut used, row);
            push(&mut out, &mut used, "\n");
            shown += 1;
        }
        if shown < table.rows.len() {
            let note = format!("\n_{} more not shown_\n", table.rows.len() - shown);
            push(&mut out, &mut used, &note);
        }
    }
    out
}

/// Characters, as a comment's limit counts them.
fn count(s: &str) -> usize {
    s.chars().count()
}

/// A JUnit test case: a rule of the policy, and a failure (message, text)
/// per finding it refuses.
struct Case {
    name: String,
    failures: Vec<(String, String)>,
}

/// A failure of `issue`: its severity, id, rule and place, then its
/// message and link.
fn failure_of(issue: &Issue, what: &str) -> (String, String) {
    let message = format!(
        "{what} {} finding {}: {} at {}",
        issue.severity.as_ref().map_or("", |s| s.label()),
        issue.id(),
        issue.rule_label(),
        issue.location()
    );
    let body = format!(
        "{message}\n{}\n{}",
        issue.message.as_deref().unwrap_or(""),
        issue.web_url().unwrap_or("")
    );
    (message, body)
}

/// The test cases: each severity the policy fails (and any other a
/// refused finding has), each exemption's date, the old findings' age.
fn cases(v: &Verdict, policy: &GatePolicy) -> Vec<Case> {
    let label = |i: &Issue| {
        i.severity
            .as_ref()
            .map_or("unknown", |s| s.label())
            .to_owned()
    };
    let mut severities: Vec<String> = policy
        .severities
        .iter()
        .map(|s| s.0.label().to_owned())
        .collect();
    for r in &v.refused {
        if !severities.contains(&label(&r.issue)) {
            severities.push(label(&r.issue));
        }
    }
    let mut cases: Vec<Case> = severities
        .iter()
        .map(|severity| Case {
            name: format!("no new or reopened {severity} finding"),
            failures: v
                .refused
                .iter()
                .filter(|r| label(&r.issue) == *severity)
                .map(|r| failure_of(&r.issue, r.novelty.name()))
                .collect(),
        })
        .collect();
    for (k, e) in policy.exempt.iter().enumerate() {
        let day = e.expires.map(|d| d.to_string()).unwrap_or_default();
        let failures = v
            .expired
            .contains(&k)
            .then(|| {
                (
                    format!("exemption {} expired {day}", e.name()),
                    format!(
                        "exemption {} ({}) expired {day}: it no longer exempts",
                        e.name(),
                        e.reason
                    ),
                )
            })
            .into_iter()
            .collect();
        cases.push(Case {
            name: format!("exemption {} in date", e.name()),
            failures,
        });
    }
    if let Some(max) = policy.old_findings.max_days_over_target {
        cases.push(Case {
            name: format!("no old finding more than {max} days past target"),
            failures: v
                .overdue
                .iter()
                .map(|o| failure_of(&o.issue, &format!("{} days past target:", o.days_over)))
                .collect(),
        });
    }
    cases
}

/// JUnit XML: a test case per rule of the policy, a failure per finding
/// it refuses.
pub fn junit(v: &Verdict, policy: &GatePolicy, scope: &Scope) -> String {
    let cases = cases(v, policy);
    let tests = cases.len();
    let failed = cases.iter().filter(|c| !c.failures.is_empty()).count();
    let suite = format!(
        "findings gate: {} {} against {}",
        scope.repository, scope.reference, scope.against
    );
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str(&format!(
        "<testsuites name=\"findings gate\" tests=\"{tests}\" failures=\"{failed}\">\n  \
         <testsuite name=\"{}\" tests=\"{tests}\" failures=\"{failed}\" errors=\"0\">\n",
        xml(&suite)
    ));
    for case in cases {
        out.push_str(&format!(
            "    <testcase classname=\"findings.gate\" name=\"{}\"",
            xml(&case.name)
        ));
        if case.failures.is_empty() {
            out.push_str("/>\n");
            continue;
        }
        out.push_str(">\n");
        for (message, body) in case.failures {
            out.push_str(&format!(
                "      <failure message=\"{}\" type=\"refused\">{}</failure>\n",
                xml(&message),
                xml(&body)
            ));
        }
        out.push_str("    </testcase>\n");
    }
    out.push_str("  </testsuite>\n</testsuites>\n");
    out
}

/// Text made safe in XML 1.0 content and attributes: the five markup
/// characters escaped, and the characters XML 1.0 forbids (C0 controls
/// but tab, newline and carriage return; U+FFFE, U+FFFF) written as
/// visible `[U+001B]` (no reference can carry them).
pub fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // In an attribute, a raw newline or tab would be read as a space.
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\t' => out.push_str("&#9;"),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => {
                out.push_str(&format!("[U+{:04X}]", c as u32));
            }
            c => out.push(c),
        }
    }
    out
}

/// The JSON verdict (`--json`).
pub fn json(v: &Verdict, policy: &GatePolicy, scope: &Scope) -> Value {
    let finding = |issue: &Issue| {
        json!({
            "id": issue.id(),
            "severity": issue.severity.as_ref().map(|s| s.label()),
            "kind": KindName::of(issue.issue_type.as_ref()),
            "rule": issue.rule_label(),
            "path": issue.file_path,
            "line": issue.line,
            "url": issue.web_url(),
        })
    };
    let refused: Vec<Value> = v
        .refused
        .iter()
        .map(|r| {
            let mut f = finding(&r.issue);
            f["change"] = json!(r.novelty.name());
            f
        })
        .collect();
    let overdue: Vec<Value> = v
        .overdue
        .iter()
        .map(|o| {
            let mut f = finding(&o.issue);
            f["daysOverTarget"] = json!(o.days_over);
            f
        })
        .collect();
    let exemptions: Vec<Value> = policy
        .exempt
        .iter()
        .enumerate()
        .map(|(k, e)| {
            json!({
                "name": e.name(),
                "reason": e.reason,
                "expires": e.expires.map(|d| d.to_string()),
                "expired": v.expired.contains(&k),
                "exempted": v.exempted.get(k).copied().unwrap_or(0),
            })
        })
        .collect();
    json!({
        "verdict": if v.fails() { "fail" } else { "pass" },
        "repository": scope.repository,
        "ref": scope.reference,
        "against": scope.against,
        "counts": {
            "new": v.new,
            "reopened": v.reopened,
            "handled": v.handled,
            "underPolicy": v.allowed,
            "exempted": v.exempted.iter().sum::<usize>(),
            "refused": v.refused.len(),
            "overdue": v.overdue.len(),
        },
        "refused": refused,
        "exemptions": exemptions,
        "overdue": overdue,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gate::verdict::Refused;
    use findings_model::{AggregateState, IssueType, Severity};

    fn scope() -> Scope {
        Scope {
            repository: "acme/a".into(),
            reference: "feature/x".into(),
            against: "main".into(),
        }
    }

    fn refused(n: usize) -> Verdict {
        let refused = (0..n)
            .map(|k| Refused {
                issue: Issue {
                    id: Some(format!("{}", 100_000 + k)),
                    severity: Some(if k % 3 == 0 {
                        Severity::Critical
                    } else {
                        Severity::High
                    }),
                    aggregate_state: Some(AggregateState::Open),
                    issue_type: Some(IssueType::Sast),
                    rule_id: Some("python.lang.security.sqli".into()),
                    file_path: Some(format!("src/module_{k}/handlers.py")),
                    line: Some(12),
                    line_of_code_url: Some(format!(
                        "https://scm.example/acme/a/blob/x/src/{k}.py#L12"
                    )),
                    ..Issue::default()
                },
                novelty: Novelty::New,
            })
            .collect();
        Verdict {
            refused,
            new: n,
            handled: 2,
            present: n + 2,
            ..Verdict::default()
        }
    }

    #[test]
    fn the_verdict_line_says_what_failed_where_and_the_tally() {
        let line = verdict_line(&refused(3), &GatePolicy::default(), &scope());
        assert_eq!(
            line,
            "gate: fail — 3 new findings refused (1 critical, 2 high) on feature/x of acme/a \
             against main · 5 findings on the ref: 3 new in all, 2 handled"
        );
        let pass = verdict_line(&Verdict::default(), &GatePolicy::default(), &scope());
        assert!(
            pass.starts_with("gate: pass — no finding refused"),
            "{pass}"
        );
    }

    #[test]
    fn the_summary_is_cut_at_a_row_and_says_how_many_are_not_shown() {
        let v = refused(2000);
        let text = summary(&v, &GatePolicy::default(), &scope(), MAX_SUMMARY);
        assert!(text.chars().count() <= MAX_SUMMARY);
        let rows = text.lines().filter(|l| l.starts_with("| [")).count();
        assert!(rows > 100 && rows < 2000, "{rows}");
        assert!(
            text.contains(&format!("_{} more not shown_", 2000 - rows)),
            "{}",
            &text[text.len() - 200..]
        );
        // Whole rows only: the last table line ends its row.
        let last_row = text.lines().rfind(|l| l.starts_with('|')).unwrap();
        assert!(last_row.ends_with(" |"), "{last_row}");
        // Small: all of it.
        let small = summary(&refused(3), &GatePolicy::default(), &scope(), MAX_SUMMARY);
        assert!(!small.contains("not shown"));
        assert!(small.contains(
            "| [100000](https://scm.example/acme/a/blob/x/src/0.py#L12) | new | critical |"
        ));
    }

    #[test]
    fn xml_escapes_markup_and_what_xml_1_0_forbids() {
        assert_eq!(xml("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&apos;");
        assert_eq!(
            xml("x\u{1b}[31m\u{0}y\u{FFFF}"),
            "x[U+001B][31m[U+0000]y[U+FFFF]"
        );
        assert_eq!(xml("l1\nl2\tt"), "l1&#10;l2&#9;t");
    }
}
