//! What the Act menu (unavailable entries greyed with the reason), each
//! action's form, the review of the exact request, the sending notice and
//! the result show, as lines: read by the view to draw them and by update
//! to know a review's end. Server text is made terminal-safe here.

use super::form::Form;
use super::{Actions, Step};
use crate::theme::Theme;
use crate::widgets::common::{safe, wrap};
use crate::widgets::dialog::Dialog;
use findings_model::FixOperation;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

/// What the dialog shows now, and how wide it is: a function of the state
/// and the body, read by the view to draw it and by update to know where
/// a review's end is.
pub fn shown<'a>(body: Rect, actions: &'a Actions, theme: &Theme) -> Option<(u16, Dialog<'a>)> {
    let width = body.width.saturating_sub(4).clamp(20, 90);
    let inner = width.saturating_sub(2) as usize;
    let (title, lines, hint) = match actions.step {
        Step::Hidden => return None,
        Step::Menu => (
            " Act on findings ".to_owned(),
            menu(actions, inner, theme),
            " j/k move · Enter or its key choose · Esc close ",
        ),
        Step::Form => (
            " Act on findings ".to_owned(),
            form(actions, inner, theme),
            form_hint(actions.form.as_ref()),
        ),
        Step::Review => (
            " Review: only y sends ".to_owned(),
            review(actions, inner, theme),
            " y send · Esc back · j/k g/G scroll · Enter every id ",
        ),
        Step::Sending => (
            " Sending ".to_owned(),
            vec![Line::from(
                "Sending… (once, never retried; one action at a time)",
            )],
            " Esc hide (it goes on) ",
        ),
        Step::Result => (
            format!(" {} ", safe(&actions.result.0)),
            actions
                .result
                .1
                .iter()
                .flat_map(|l| wrap(&safe(l), inner))
                .map(Line::from)
                .collect(),
            " Esc close · j/k g/G scroll ",
        ),
    };
    let scroll = matches!(actions.step, Step::Review | Step::Result).then_some(actions.scroll);
    let dialog = Dialog {
        title,
        lines,
        hint,
        scroll,
    };
    Some((width, dialog))
}

/// What the flow acts on: the findings, or the list's filter.
fn subject(actions: &Actions) -> String {
    if let (
        Some(Form::Tickets {
            by_filter: true, ..
        }),
        Some(filter),
    ) = (&actions.form, &actions.filter)
    {
        return format!(
            "every finding of the filter {}",
            crate::list::filters_shown::summary(filter).join(" ")
        );
    }
    match actions.issues.as_slice() {
        // The rule as the list names it (a supply-chain rule id is opaque).
        [one] => format!(
            "finding {} · {} · {}",
            one.id(),
            one.rule_label(),
            one.repository_name()
        ),
        many => format!(
            "{} marked findings",
            findings_base::text::thousands_of(many.len())
        ),
    }
}

fn menu<'a>(actions: &Actions, width: usize, theme: &Theme) -> Vec<Line<'a>> {
    let mut lines = para(&subject(actions), width);
    lines.push(Line::default());
    let entries = actions.entries();
    for (i, entry) in entries.iter().enumerate() {
        let selected = i == actions.cursor;
        let marker = if selected { "›" } else { " " };
        let unavailable = if entry.refusal.is_some() {
            " (unavailable)"
        } else {
            ""
        };
        let text = format!(
            "{marker} {}  {}{unavailable}",
            entry.choice.key(),
            entry.label
        );
        let style = match (&entry.refusal, selected) {
            (None, true) => theme.selected(),
            (None, false) => ratatui::style::Style::new(),
            (Some(_), true) => theme.dim().patch(theme.selected()),
            (Some(_), false) => theme.dim(),
        };
        // An entry too long for the line wraps under its label.
        let indent = "     ";
        for (k, part) in wrap(&safe(&text), width.saturating_sub(indent.len()).max(8))
            .into_iter()
            .enumerate()
        {
            let part = if k == 0 {
                part
            } else {
                format!("{indent}{part}")
            };
            lines.push(Line::from(Span::styled(part, style)));
        }
    }
    // Why the entry under the cursor is unavailable, in full.
    if let Some(why) = entries.get(actions.cursor).and_then(|e| e.refusal.as_ref()) {
        lines.push(Line::default());
        for part in wrap(&safe(&format!("Unavailable: {why}")), width) {
            lines.push(Line::from(Span::styled(part, theme.error())));
        }
    }
    lines
}

fn form_hint(form: Option<&Form>) -> &'static str {
    match form {
        Some(Form::Tickets { .. }) => {
            " j/k instance · Tab one each/grouped · Enter review · Esc back "
        }
        Some(Form::Feedback { .. }) => {
            " Tab agree/disagree · type a note · Enter review · Esc back "
        }
        Some(Form::Remember { .. }) => " Tab scope · type the note · Enter review · Esc back ",
        Some(Form::Link { .. }) => " type the URL · Enter review · Esc back ",
        _ => " Enter review · Esc back ",
    }
}

fn choice<'a>(label: &str, value: String, theme: &Theme) -> Line<'a> {
    Line::from(vec![
        Span::styled(format!("{label:<12}"), theme.dim()),
        Span::raw(value),
    ])
}

/// `text` made safe and wrapped to `width`, as lines.
fn para<'a>(text: &str, width: usize) -> Vec<Line<'a>> {
    wrap(&safe(text), width)
        .into_iter()
        .map(Line::from)
        .collect()
}

fn form<'a>(actions: &Actions, width: usize, theme: &Theme) -> Vec<Line<'a>> {
    let mut lines = para(&subject(actions), width);
    lines.push(Line::default());
    let Some(form) = &actions.form else {
        return lines;
    };
    lines.extend(match form {
        Form::Tickets { by_filter, group } => {
            tickets_form(actions, *by_filter, *group, width, theme)
        }
        Form::Link { url } => link_form(actions, url, width, theme),
        Form::Unlink => unlink_form(actions, width),
        Form::Fix { operation } => fix_form(actions, *operation, width),
        Form::Feedback { agree, note } => feedback_form(actions, *agree, note, width, theme),
        Form::Remember { everywhere, note } => {
            remember_form(actions, *everywhere, note, width, theme)
        }
    });
    if let Some(problem) = &actions.problem {
        lines.push(Line::default());
        lines.push(Line::from(Span::styled(
            safe(&format!("not ready: {problem}")),
            theme.error(),
        )));
    }
    lines
}

/// The tickets form: what gets tickets, one each or grouped, and the
/// ticketing instances to choose from (the unavailable ones dimmed with
/// why).
fn tickets_form<'a>(
    actions: &Actions,
    by_filter: bool,
    group: bool,
    width: usize,
    theme: &Theme,
) -> Vec<Line<'a>> {
    let mut lines = Vec::new();
    lines.push(Line::from(if by_filter {
        match &actions.counted {
            super::Known::Have(ids) => format!(
                "Create tickets for the {} finding(s) the filter matches (listed now: exactly these are sent)",
                findings_base::text::thousands_of(ids.len())
            ),
            _ => "Create tickets for every finding of the filter (listed when reviewed)".to_owned(),
        }
    } else {
        format!("Create tickets for {} finding(s)", actions.issues.len())
    }));
    // The platform groups by rule and repository: said as it is, with the
    // number of tickets when the findings are known.
    let grouped = if by_filter {
        "one per rule and repository".to_owned()
    } else {
        let mut keys: Vec<(&str, &str)> = actions
            .issues
            .iter()
            .map(|i| (i.rule_id.as_deref().unwrap_or(""), i.repository_name()))
            .collect();
        keys.sort_unstable();
        keys.dedup();
        let n = keys.len();
        format!(
            "one per rule and repository: {n} ticket{}",
            if n == 1 { "" } else { "s" }
        )
    };
    lines.push(choice(
        "tickets",
        if group {
            format!("{grouped} (Tab: one per finding)")
        } else {
            "one per finding (Tab: one per rule and repository)".into()
        },
        theme,
    ));
    lines.push(Line::default());
    lines.push(Line::from(
        "Ticketing instance (j/k; remembered for this profile):",
    ));
    let chosen = actions.instance().and_then(|i| i.id);
    for instance in actions.all_instances() {
        let mark = if instance.id == chosen && chosen.is_some() {
            "›"
        } else {
            " "
        };
        let text = format!("{mark} {} {}", instance.id_text(), instance.name());
        match instance.unavailable() {
            Some(why) => {
                lines.push(Line::from(Span::styled(safe(&text), theme.dim())));
                for part in wrap(&safe(&why), width.saturating_sub(4)) {
                    lines.push(Line::from(Span::styled(format!("    {part}"), theme.dim())));
                }
            }
            None => lines.push(Line::from(safe(&text))),
        }
    }
    lines
}

/// The link form: the URL being typed, and which findings would lose the
/// ticket they have.
fn link_form<'a>(actions: &Actions, url: &str, width: usize, theme: &Theme) -> Vec<Line<'a>> {
    let mut lines = vec![
        Line::from("Link an existing ticket: its URL"),
        choice("URL", format!("{}▏", safe(url)), theme),
    ];
    let replaced = actions.replaced_by_link(url.trim());
    if !replaced.is_empty() {
        lines.push(Line::default());
        for part in wrap(
            &safe(&format!(
                "These have another ticket and lose it: {}",
                replaced.join(", ")
            )),
            width,
        ) {
            lines.push(Line::from(Span::styled(part, theme.error())));
        }
    }
    lines
}

/// The unlink form: the findings whose tickets are unlinked.
fn unlink_form<'a>(actions: &Actions, width: usize) -> Vec<Line<'a>> {
    let with: Vec<&str> = actions
        .issues
        .iter()
        .filter(|i| i.external_ticket.is_some())
        .map(|i| i.id())
        .collect();
    para(
        &format!(
            "Unlink the tickets of {} finding(s): {}",
            with.len(),
            with.join(", ")
        ),
        width,
    )
}

/// The fix form: the operation asked for, and the kind of findings it is
/// for.
fn fix_form<'a>(actions: &Actions, operation: FixOperation, width: usize) -> Vec<Line<'a>> {
    let mut lines = para(
        &format!(
            "Ask for a fix pull request: {} ({})",
            operation.describe(),
            operation.operation_id()
        ),
        width,
    );
    let kind = actions
        .issues
        .first()
        .and_then(|i| i.issue_type.as_ref())
        .map_or("-", |t| t.label())
        .to_owned();
    lines.extend(para(
        &format!("the operation {kind} findings take; the pull request opens later on the finding"),
        width,
    ));
    lines
}

/// The feedback form: the AI's verdict, agree or disagree, and the note.
fn feedback_form<'a>(
    actions: &Actions,
    agree: bool,
    note: &str,
    width: usize,
    theme: &Theme,
) -> Vec<Line<'a>> {
    let verdict = actions
        .issues
        .first()
        .and_then(|i| i.autotriage.as_ref()?.verdict.as_ref())
        .map_or("-", |v| v.label())
        .to_owned();
    let mut lines = vec![
        choice("AI verdict", safe(&verdict), theme),
        choice(
            "you",
            if agree {
                "agree (Tab: disagree)".into()
            } else {
                "disagree (Tab: agree)".into()
            },
            theme,
        ),
    ];
    lines.extend(labelled("note", &format!("{}▏", safe(note)), width, theme));
    lines
}

/// The remember form: the memory's scope, its note, and what it is
/// relevant to.
fn remember_form<'a>(
    actions: &Actions,
    everywhere: bool,
    note: &str,
    width: usize,
    theme: &Theme,
) -> Vec<Line<'a>> {
    let scope = actions
        .memory_filter(everywhere)
        .map(|(f, _)| {
            // The rule as the list's RULE column names it (a supply-chain
            // rule by its advisory and package, never a bare ssc-<uuid>).
            let rule = match actions.issues.first() {
                Some(i) if f.rule_ids.first() == i.rule_id.as_ref() => i.rule_label(),
                _ => f.rule_ids.join(","),
            };
            if everywhere {
                format!("rule {rule} in every repository (Tab: this repository)")
            } else {
                format!(
                    "rule {rule} in this repository, {} (Tab: everywhere)",
                    actions.issues.first().map_or("", |i| i.repository_name())
                )
            }
        })
        .unwrap_or_else(|| "-".into());
    let mut lines = labelled("scope", &safe(&scope), width, theme);
    lines.extend(labelled("note", &format!("{}▏", safe(note)), width, theme));
    lines.push(Line::default());
    for part in wrap(&safe(&actions.relevant_line()), width) {
        lines.push(Line::from(part));
    }
    lines.push(Line::from(
        "how many verdicts it flips is said when the service answers",
    ));
    lines
}

/// `text` (already safe) wrapped beside `label`: the label on the first
/// line only, the rest under the text.
fn labelled<'a>(label: &str, text: &str, width: usize, theme: &Theme) -> Vec<Line<'a>> {
    wrap(text, width.saturating_sub(12))
        .into_iter()
        .enumerate()
        .map(|(k, part)| choice(if k == 0 { label } else { "" }, part, theme))
        .collect()
}

fn review<'a>(actions: &Actions, width: usize, theme: &Theme) -> Vec<Line<'a>> {
    let Some(request) = &actions.reviewed else {
        return Vec::new();
    };
    let review = request.review(&actions.deployment);
    let mut lines = para(&subject(actions), width);
    if let Some(form) = &actions.form {
        lines.extend(para(&actions.does(form), width));
    }
    lines.push(Line::default());
    for part in wrap(&safe(&format!("{} {}", review.method, review.path)), width) {
        lines.push(Line::from(Span::styled(part, theme.title())));
    }
    let body = crate::widgets::review_json::arrays_on_one_line(
        &findings_base::json::pretty(&review.body).unwrap_or_default(),
    );
    for line in body.lines() {
        let shown = crate::widgets::review_json::collapsed(line, actions.ids_expanded);
        for part in wrap(&safe(shown.as_deref().unwrap_or(line)), width) {
            lines.push(Line::from(part));
        }
    }
    if let Form::Link { url } = actions.form.as_ref().unwrap_or(&Form::Unlink) {
        let replaced = actions.replaced_by_link(url.trim());
        if !replaced.is_empty() {
            lines.push(Line::default());
            lines.push(Line::from(Span::styled(
                safe(&format!("lose their ticket: {}", replaced.join(", "))),
                theme.error(),
            )));
        }
    }
    if let Form::Remember { .. } = actions.form.as_ref().unwrap_or(&Form::Unlink) {
        lines.push(Line::default());
        lines.extend(para(&actions.relevant_line(), width));
    }
    if let Some(Form::Tickets { .. }) = actions.form.as_ref() {
        // As the command line says it: which are skipped, by name.
        let already = actions.ticketed_already();
        if !already.is_empty() {
            lines.push(Line::default());
            lines.extend(para(
                &safe(&format!(
                    "{} already ticketed, skipped (they keep their ticket): {}",
                    already.len(),
                    already.join(", ")
                )),
                width,
            ));
        }
    }
    lines.push(Line::default());
    lines.push(Line::from(
        "Sent once, never retried. y sends; Esc goes back.",
    ));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use findings_model::{Dependency, Issue, Repository, ScaAttributes};

    /// A memory's scope names its rule as the list's RULE column does: a
    /// supply-chain rule by its advisory and package, never `ssc-<uuid>`.
    #[test]
    fn a_memory_scope_names_a_supply_chain_rule_by_its_advisory() {
        let mut actions = Actions::new("1", false, None);
        actions.issues = vec![Issue {
            id: Some("100194".into()),
            rule_id: Some("ssc-b32e368f-3637-5ecc-9cab-e7e4072c71d0".into()),
            repository: Some(Repository {
                name: Some("acme/web-storefront".into()),
                ..Repository::default()
            }),
            sca_attributes: Some(ScaAttributes {
                vuln_database_identifier: Some("CVE-2021-44906".into()),
                found_dependency: Some(Dependency {
                    package: Some("minimist".into()),
                    ..Dependency::default()
                }),
                ..ScaAttributes::default()
            }),
            ..Issue::default()
        }];
        let theme = crate::theme::Theme::no_color();
        let text: String = remember_form(&actions, false, "", 100, &theme)
            .iter()
            .map(|l| {
                l.spans
                    .iter()
                    .map(|s| s.content.as_ref())
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n");
        assert!(
            text.contains("rule CVE-2021-44906 minimist in this repository"),
            "{text}"
        );
        assert!(!text.contains("ssc-"), "{text}");
    }
}
