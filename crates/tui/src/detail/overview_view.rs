//! The Overview tab of a finding's detail, built section by section: the
//! message and its state, where it is, the rule, the codeowners, the
//! autotriage, what was done on it and the exception asked for. Every
//! string from the server is made safe here.

use crate::theme::Theme;
use crate::widgets::common::{field, heading, opt, paragraph, safe, state_label, time};
use findings_model::*;
use findings_requests::triage::expiry;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// The Overview tab's lines, as they will be drawn at `width`.
pub(super) fn lines<'a>(i: &Issue, theme: &Theme, width: usize) -> Vec<Line<'a>> {
    let mut lines = summary_lines(i, theme, width);
    lines.extend(location_lines(i, theme));
    lines.extend(rule_lines(i, theme));
    lines.extend(codeowners_lines(i, theme));
    lines.extend(autotriage_lines(i, theme, width));
    lines.extend(super::acted::lines(i, theme));
    lines.extend(exception_lines(i, theme, width));
    lines
}

/// The message, then what the finding is: id, severity, state, triage,
/// note, type, confidence and whether it blocks.
fn summary_lines<'a>(i: &Issue, theme: &Theme, width: usize) -> Vec<Line<'a>> {
    let mut lines = paragraph(i.message.as_deref().unwrap_or(""), width, 0, Style::new());
    lines.push(Line::default());
    lines.push(field(theme, "id", safe(i.id())));
    let mut severity = vec![
        Span::styled(format!("{:<18}", "severity"), theme.dim()),
        Span::styled(
            i.severity.as_ref().map_or("-".into(), |s| safe(s.label())),
            theme.severity(i.severity.as_ref()),
        ),
    ];
    if let Some(advisory) = i.advisory_severity_apart() {
        severity.push(Span::styled(
            format!(
                " (the advisory is {}: the finding is rated for this use of the package, \
                 and --severity filters on it)",
                safe(advisory.label())
            ),
            theme.dim(),
        ));
    }
    lines.push(Line::from(severity));
    let state = state_label(i.aggregate_state.as_ref(), i.exception_state().as_ref());
    lines.push(field(
        theme,
        "state",
        if state.is_empty() { "-".into() } else { state },
    ));
    lines.push(field(theme, "triage", triage_text(i)));
    // A note keeps its lines (each made safe).
    for (k, part) in i.note.iter().flat_map(|n| n.split('\n')).enumerate() {
        lines.push(field(theme, if k == 0 { "note" } else { "" }, safe(part)));
    }
    lines.push(field(
        theme,
        "type",
        i.issue_type
            .as_ref()
            .map_or("-".into(), |t| safe(t.label())),
    ));
    lines.push(field(
        theme,
        "confidence",
        i.confidence
            .as_ref()
            .map_or("-".into(), |c| safe(c.label())),
    ));
    lines.push(field(theme, "blocking", yes_no(i.is_blocking)));
    lines
}

/// The triage state, its reason, and when an ignore expires.
fn triage_text(i: &Issue) -> String {
    let mut t = i
        .triage_state
        .as_ref()
        .map_or("-".into(), |s| safe(s.label()));
    if let Some(r) = &i.triage_reason {
        t.push_str(&format!(" ({})", safe(r.label())));
    }
    // An ignore with an expiry in its note (the list marks it expired
    // once the date passes; `findings expired` lists those).
    let ignored = expiry::is_ignored(i.triage_state.as_ref(), i.aggregate_state.as_ref());
    if let Some(at) = expiry::expiry_of(i).filter(|_| ignored) {
        t.push_str(&format!(" · expires {}", expiry::shown(at)));
    }
    t
}

fn yes_no(v: Option<bool>) -> String {
    match v {
        Some(true) => "yes".into(),
        Some(false) => "no".into(),
        None => "-".into(),
    }
}

/// Where the finding is, and since when.
fn location_lines<'a>(i: &Issue, theme: &Theme) -> Vec<Line<'a>> {
    let mut lines = vec![
        Line::default(),
        heading(theme, "Location"),
        field(theme, "repository", safe(i.repository_name())),
        field(theme, "ref", opt(&i.ref_)),
        field(theme, "file", safe(&i.location())),
    ];
    if let Some(url) = &i.line_of_code_url {
        lines.push(field(theme, "url", safe(url)));
    }
    lines.push(field(theme, "relevant since", time(&i.relevant_since)));
    lines.push(field(theme, "created", time(&i.created_at)));
    if i.first_detected_at.is_some() {
        lines.push(field(theme, "first detected", time(&i.first_detected_at)));
    }
    lines
}

/// The rule that found it: its id and path, links, references, CWE and
/// OWASP names, category, ruleset and origin.
fn rule_lines<'a>(i: &Issue, theme: &Theme) -> Vec<Line<'a>> {
    let mut lines = vec![
        Line::default(),
        heading(theme, "Rule"),
        field(theme, "rule", opt(&i.rule_id)),
    ];
    if i.rule_path != i.rule_id {
        lines.push(field(theme, "rule path", opt(&i.rule_path)));
    }
    if let Some(url) = &i.rule_url {
        lines.push(field(theme, "link", safe(url)));
    }
    for r in &i.rule_references {
        lines.push(field(theme, "reference", safe(r)));
    }
    for c in &i.rule_cwe_names {
        lines.push(field(theme, "CWE", safe(c)));
    }
    for o in &i.rule_owasp_names {
        lines.push(field(theme, "OWASP", safe(o)));
    }
    lines.push(field(theme, "category", opt(&i.category)));
    if !i.subcategories.is_empty() {
        lines.push(field(
            theme,
            "subcategories",
            safe(&i.subcategories.join(", ")),
        ));
    }
    lines.push(field(
        theme,
        "ruleset · policy",
        format!("{} · {}", opt(&i.ruleset), opt(&i.policy_slug)),
    ));
    if let Some(o) = &i.rule_origin {
        lines.push(field(theme, "origin", safe(o.label())));
    }
    lines
}

/// The codeowners, teams with their members indented (none: no section).
fn codeowners_lines<'a>(i: &Issue, theme: &Theme) -> Vec<Line<'a>> {
    if i.codeowners.is_empty() {
        return Vec::new();
    }
    let mut lines = vec![Line::default(), heading(theme, "Codeowners")];
    for owner in &i.codeowners {
        push_owner(&mut lines, owner, 0);
    }
    lines
}

fn push_owner(lines: &mut Vec<Line<'_>>, owner: &Codeowner, depth: usize) {
    if depth > 8 {
        return;
    }
    let kind = if owner.is_team == Some(true) {
        "team"
    } else {
        "user"
    };
    lines.push(Line::from(format!(
        "{}{} ({kind})",
        "  ".repeat(depth + 1),
        opt(&owner.name)
    )));
    for m in &owner.members {
        push_owner(lines, m, depth + 1);
    }
}

/// The AI's verdict with its reason and the feedback given on it, then
/// the AI tags (each only when there is one).
fn autotriage_lines<'a>(i: &Issue, theme: &Theme, width: usize) -> Vec<Line<'a>> {
    let mut lines = Vec::new();
    if let Some(at) = &i.autotriage {
        lines.push(Line::default());
        lines.push(heading(theme, "Autotriage"));
        lines.push(field(
            theme,
            "verdict",
            at.verdict.as_ref().map_or("-".into(), |v| safe(v.label())),
        ));
        if let Some(reason) = &at.reason {
            lines.extend(paragraph(reason, width, 2, Style::new()));
        }
        lines.extend(super::acted::feedback(at, theme));
    }
    if let Some(tags) = &i.ai_tags {
        lines.push(field(
            theme,
            "AI tags",
            format!(
                "{} ({})",
                opt(&tags.tags),
                tags.sensitivity
                    .as_ref()
                    .map_or("-".to_owned(), |s| safe(s.label()))
            ),
        ));
    }
    lines
}

/// The exception asked for: its state, who asked and why, who reviewed
/// it and when (none: no section).
fn exception_lines<'a>(i: &Issue, theme: &Theme, width: usize) -> Vec<Line<'a>> {
    let Some(ex) = &i.exception_request else {
        return Vec::new();
    };
    let mut lines = vec![
        Line::default(),
        heading(theme, "Exception request"),
        field(
            theme,
            "state",
            ex.exception_state
                .as_ref()
                .map_or("-".into(), |s| safe(s.label())),
        ),
        field(
            theme,
            "requester",
            person(&ex.requester_name, &ex.requester_login),
        ),
    ];
    if let Some(note) = &ex.requester_note {
        lines.extend(paragraph(note, width, 2, Style::new()));
    }
    if ex.reviewer_login.is_some() || ex.reviewer_name.is_some() {
        let mut reviewer = person(&ex.reviewer_name, &ex.reviewer_login);
        if ex.reviewed_at.is_some() {
            reviewer.push_str(&format!(" on {}", time(&ex.reviewed_at)));
        }
        lines.push(field(theme, "reviewer", reviewer));
    }
    lines
}

/// A person as `Name (login)`, or whichever of the two there is.
pub(super) fn person(name: &Option<String>, login: &Option<String>) -> String {
    let (name, login) = (opt(name), opt(login));
    match (name.trim(), login.trim()) {
        ("", "") => "-".to_owned(),
        (name, "") => name.to_owned(),
        ("", login) => login.to_owned(),
        (name, login) => format!("{name} ({login})"),
    }
}
