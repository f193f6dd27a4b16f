//! A config in full, as the form's panel shows it (the config as it is, or
//! as a PATCH returned it), and the text helpers the form's view shares.

use crate::theme::Theme;
use crate::widgets::common::{heading, paragraph, safe, time, wrap};
use findings_model::{ScmConfig, Timestamp};
use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// Width of a label column (less on narrow areas, see [`label_width`]).
const LABEL: usize = 18;

pub(super) type Lines = Vec<Line<'static>>;

/// The label column: 18 cells, at most a third of a narrow area.
pub(super) fn label_width(width: usize) -> usize {
    LABEL.min(width / 3)
}

/// A label padded to `width` cells (labels are ASCII), with a gap; one
/// too long is cut with `…`, never run into its value.
pub(super) fn label_cell(label: &str, width: usize) -> String {
    let room = width.saturating_sub(1);
    if label.len() <= room {
        return format!("{label:<width$}");
    }
    let cut: String = label.chars().take(room.saturating_sub(1)).collect();
    format!("{cut}… ")
}

pub(super) fn text(lines: &mut Lines, s: &str, width: usize, style: Style) {
    lines.extend(paragraph(s, width, 0, style));
}

/// `label  value`, the value wrapped under itself; a label wider than its
/// column has its own line, the value under it.
pub(super) fn fact(
    lines: &mut Lines,
    theme: &Theme,
    label: &str,
    value: &str,
    style: Style,
    width: usize,
) {
    let label_w = label_width(width);
    let avail = width.saturating_sub(label_w).max(1);
    if label.len() >= label_w {
        lines.push(Line::from(Span::styled(
            findings_export::fit(label, width).trim_end().to_owned(),
            theme.dim(),
        )));
        for part in wrap(value, avail) {
            lines.push(Line::from(vec![
                Span::raw(" ".repeat(label_w)),
                Span::styled(part, style),
            ]));
        }
        return;
    }
    for (i, part) in wrap(value, avail).into_iter().enumerate() {
        let label = if i == 0 {
            label_cell(label, label_w)
        } else {
            " ".repeat(label_w)
        };
        lines.push(Line::from(vec![
            Span::styled(label, theme.dim()),
            Span::styled(part, style),
        ]));
    }
}

/// The config in full, section by section: what it is, its settings and
/// health, the app, the token's scopes and the subscriptions.
pub(super) fn config_lines(lines: &mut Lines, c: &ScmConfig, theme: &Theme, width: usize) {
    identity_lines(lines, c, theme, width);
    settings_lines(lines, c, theme, width);
    status_lines(lines, c, theme, width);
    app_lines(lines, c, theme, width);
    token_scope_lines(lines, c, theme, width);
    subscription_lines(lines, c, theme, width);
}

/// A server's string made safe, or "-".
fn or_dash(v: &Option<String>) -> String {
    v.as_deref().map_or("-".to_owned(), safe)
}

/// A switch as "on" (ok), "off" or "-", with its style.
fn on_off(theme: &Theme, v: Option<bool>) -> (&'static str, Style) {
    match v {
        Some(true) => ("on", theme.ok()),
        Some(false) => ("off", theme.removed()),
        None => ("-", theme.dim()),
    }
}

fn yes_no(v: Option<bool>) -> &'static str {
    match v {
        Some(true) => "yes",
        Some(false) => "no",
        None => "-",
    }
}

/// A time said in UTC, or "-".
fn utc(t: &Option<Timestamp>) -> String {
    let t = time(t);
    if t.is_empty() {
        "-".to_owned()
    } else {
        format!("{t} UTC")
    }
}

/// What the config is: its ids, type, namespace, base URL, entity type
/// and whether it is installed (suspended in red).
fn identity_lines(lines: &mut Lines, c: &ScmConfig, theme: &Theme, width: usize) {
    let plain = Style::new();
    let mut id = or_dash(&c.id);
    if c.scm_id.is_some() {
        id.push_str(&format!(" · SCM id {}", or_dash(&c.scm_id)));
    }
    if c.source_id.is_some() {
        id.push_str(&format!(" · source {}", or_dash(&c.source_id)));
    }
    fact(lines, theme, "id", &id, theme.accent(), width);
    let kind = c.scm_type.as_ref().map_or("-", |t| t.label());
    fact(lines, theme, "type", kind, plain, width);
    fact(
        lines,
        theme,
        "namespace",
        &or_dash(&c.namespace),
        plain,
        width,
    );
    fact(
        lines,
        theme,
        "base URL",
        &or_dash(&c.base_url),
        plain,
        width,
    );
    let entity = c.host_a_entity_type.as_ref().map_or("-", |e| e.label());
    fact(lines, theme, "entity type", entity, plain, width);
    let installed = format!(
        "{} · suspended {}",
        yes_no(c.installed),
        yes_no(c.suspended)
    );
    let style = if c.suspended == Some(true) {
        theme.error()
    } else {
        plain
    };
    fact(lines, theme, "installed", &installed, style, width);
}

/// The switches (autoScan, diffEnabled, network broker) and whether an
/// access token is set.
fn settings_lines(lines: &mut Lines, c: &ScmConfig, theme: &Theme, width: usize) {
    let (v, st) = on_off(theme, c.auto_scan);
    fact(lines, theme, "autoScan", v, st, width);
    let (v, st) = on_off(
        theme,
        c.auto_scan_settings.as_ref().and_then(|a| a.diff_enabled),
    );
    fact(lines, theme, "diffEnabled", v, st, width);
    let (v, st) = on_off(theme, c.use_network_broker);
    fact(lines, theme, "network broker", v, st, width);
    let (token, style) = match c.has_access_token {
        Some(true) => ("set", theme.ok()),
        Some(false) => ("not set", theme.error()),
        None => ("-", theme.dim()),
    };
    fact(lines, theme, "access token", token, style, width);
}

/// Its health when last checked (with the error), and the last sync.
fn status_lines(lines: &mut Lines, c: &ScmConfig, theme: &Theme, width: usize) {
    match &c.status {
        Some(st) => {
            let (health, style) = match st.ok {
                Some(true) => ("ok", theme.ok()),
                Some(false) => ("error", theme.error()),
                None => ("-", theme.dim()),
            };
            let shown = format!("{health} (checked {})", utc(&st.checked));
            fact(lines, theme, "status", &shown, style, width);
            if let Some(error) = &st.error {
                fact(lines, theme, "  error", error, theme.error(), width);
            }
        }
        None => fact(lines, theme, "status", "-", theme.dim(), width),
    }
    fact(
        lines,
        theme,
        "last sync",
        &utc(&c.last_successful_sync_at),
        Style::new(),
        width,
    );
}

/// The App section: the app's slug, ids, name, code access and tenant.
fn app_lines(lines: &mut Lines, c: &ScmConfig, theme: &Theme, width: usize) {
    let plain = Style::new();
    lines.push(Line::default());
    lines.push(heading(theme, "App"));
    match &c.app {
        Some(app) => {
            fact(lines, theme, "slug", &or_dash(&app.slug), plain, width);
            fact(lines, theme, "app id", &or_dash(&app.app_id), plain, width);
            fact(
                lines,
                theme,
                "SCM name",
                &or_dash(&app.scm_name),
                plain,
                width,
            );
            let (v, st) = on_off(theme, app.code_access);
            fact(lines, theme, "code access", v, st, width);
            fact(
                lines,
                theme,
                "tenant",
                &or_dash(&app.tenant_id),
                plain,
                width,
            );
        }
        None => text(lines, "none", width, theme.dim()),
    }
}

/// The Token scopes section: each scope granted or not.
fn token_scope_lines(lines: &mut Lines, c: &ScmConfig, theme: &Theme, width: usize) {
    lines.push(Line::default());
    lines.push(heading(theme, "Token scopes"));
    match &c.token_scopes {
        Some(scopes) => {
            // Two columns when they fit (the longest entry is 29 cells).
            let entries = scopes.entries();
            let columns = if width >= 62 { 2 } else { 1 };
            let rows = entries.len().div_ceil(columns);
            for r in 0..rows {
                let mut spans = Vec::new();
                for (name, granted) in entries.iter().skip(r).step_by(rows) {
                    let (mark, style) = if *granted {
                        ("[x]", theme.ok())
                    } else {
                        ("[ ]", theme.dim())
                    };
                    spans.push(Span::styled(format!("  {mark} "), style));
                    spans.push(Span::raw(format!("{name:<25}")));
                }
                lines.push(Line::from(spans));
            }
        }
        None => text(lines, "  not reported", width, theme.dim()),
    }
}

/// The Subscriptions section: each one's URL and the events it gets.
fn subscription_lines(lines: &mut Lines, c: &ScmConfig, theme: &Theme, width: usize) {
    lines.push(Line::default());
    lines.push(heading(theme, "Subscriptions"));
    if c.subscriptions.is_empty() {
        text(lines, "  none", width, theme.dim());
    }
    for sub in &c.subscriptions {
        lines.extend(paragraph(
            sub.scm_url.as_deref().unwrap_or("-"),
            width,
            2,
            theme.accent(),
        ));
        let events = if sub.events.is_empty() {
            "no events".to_owned()
        } else {
            sub.events.join(", ")
        };
        lines.extend(paragraph(&events, width, 4, Style::new()));
    }
}
