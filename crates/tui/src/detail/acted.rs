//! What was done to a finding beyond triage, as the Overview shows it:
//! its ticket (and attempts), its fix pull request with the state its
//! activity gives, and the feedback given on its AI verdict. (The Act
//! menu, `A`, opens the ticket and the pull request.)

use crate::theme::Theme;
use crate::widgets::common::{field, opt, safe, time};
use findings_model::*;
use ratatui::text::Line;

/// The ticket, the ticket attempts and the fix pull request.
pub fn lines<'a>(i: &Issue, theme: &Theme) -> Vec<Line<'a>> {
    let mut lines = Vec::new();
    if let Some(t) = &i.external_ticket {
        lines.push(field(
            theme,
            "ticket",
            format!("{} {}", opt(&t.external_slug), opt(&t.url)),
        ));
    }
    for a in &i.ticket_attempts {
        lines.push(field(
            theme,
            "ticket attempt",
            format!("{} {}", time(&a.attempted_at), opt(&a.response_message)),
        ));
    }
    // The pull request's state from its activity (requested: in flight).
    if i.click_to_fix_pr_url.is_some() || i.fix_pr_status().is_some() {
        let status = i.fix_pr_status().map_or("", |s| s.label());
        let url = i
            .click_to_fix_pr_url
            .as_deref()
            .map_or_else(String::new, safe);
        lines.push(field(
            theme,
            "fix PR",
            format!("{status} {url}").trim().to_owned(),
        ));
    }
    if let Some(msg) = &i.click_to_fix_commit_msg {
        lines.push(field(theme, "fix PR commit", safe(msg)));
    }
    lines
}

/// The feedback given on the AI verdict, if any.
pub fn feedback<'a>(at: &Autotriage, theme: &Theme) -> Option<Line<'a>> {
    let feedback = at.feedback.as_ref()?;
    let rating = feedback
        .rating()
        .map_or_else(|| "-".to_owned(), |r| safe(r.label()));
    let note = feedback
        .note
        .as_deref()
        .map(|n| format!(" · {}", safe(n)))
        .unwrap_or_default();
    Some(field(theme, "your feedback", format!("{rating}{note}")))
}
