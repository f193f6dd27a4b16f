//! A config in full, as the form's panel shows it (the config as it is, or
//! as a PATCH returned it), and the text helpers the form's view shares.

use crate::theme::Theme;
use crate::widgets::common::{heading, paragraph, safe, time, wrap};
use findings_model::ScmConfig;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// Width of a label column (less on narrow areas, see [`label_width`]).
const LABEL: usize = 18;

pub(super) type Lines = Vec<Line<'static>>;

/// The label column: 18 cells, at most a third of a narrow area.
pub(super) fn label_width(width: usize) -> usize {
    LABEL.min(width / 3)
}

/// A label cut or padded to `width` cells (labels are ASCII), with a gap.
pub(super) fn label_cell(label: &str, width: usize) -> String {
    let cut: String = label.chars().take(width.saturating_sub(1)).collect();
    format!("{cut:<width$}")
}

pub(super) fn text(lines: &mut Lines, s: &str, width: usize, style: Style) {
    lines.extend(paragraph(s, width, 0, style));
}

/// `label  value`, the value wrapped under itself.
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

pub(super) fn config_lines(lines: &mut Lines, c: &ScmConfig, theme: &Theme, width: usize) {
    let plain = Style::new();
    let s = |v: &Option<String>| v.as_deref().map_or("-".to_owned(), safe);
    let on_off = |v: Option<bool>| match v {
        Some(true) => ("on", theme.ok()),
        Some(false) => ("off", theme.removed()),
        None => ("-", theme.dim()),
    };
    let yes_no = |v: Option<bool>| match v {
        Some(true) => "yes",
        Some(false) => "no",
        None => "-",
    };
    let utc = |t| {
        let t = time(t);
        if t.is_empty() {
            "-".to_owned()
        } else {
            format!("{t} UTC")
        }
    };

    let mut id = s(&c.id);
    if c.scm_id.is_some() {
        id.push_str(&format!(" · SCM id {}", s(&c.scm_id)));
    }
    if c.source_id.is_some() {
        id.push_str(&format!(" · source {}", s(&c.source_id)));
    }
    fact(lines, theme, "id", &id, theme.accent(), width);
    let kind = c.scm_type.as_ref().map_or("-", |t| t.label());
    fact(lines, theme, "type", kind, plain, width);
    fact(lines, theme, "namespace", &s(&c.namespace), plain, width);
    fact(lines, theme, "base URL", &s(&c.base_url), plain, width);
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
    let (v, st) = on_off(c.auto_scan);
    fact(lines, theme, "autoScan", v, st, width);
    let (v, st) = on_off(c.auto_scan_settings.as_ref().and_then(|a| a.diff_enabled));
    fact(lines, theme, "diffEnabled", v, st, width);
    let (v, st) = on_off(c.use_network_broker);
    fact(lines, theme, "network broker", v, st, width);
    let (token, style) = match c.has_access_token {
        Some(true) => ("set", theme.ok()),
        Some(false) => ("not set", theme.error()),
        None => ("-", theme.dim()),
    };
    fact(lines, theme, "access token", token, style, width);
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
        plain,
        width,
    );

    lines.push(Line::default());
    lines.push(heading(theme, "App"));
    match &c.app {
        Some(app) => {
            fact(lines, theme, "slug", &s(&app.slug), plain, width);
            fact(lines, theme, "app id", &s(&app.app_id), plain, width);
            fact(lines, theme, "SCM name", &s(&app.scm_name), plain, width);
            let (v, st) = on_off(app.code_access);
            fact(lines, theme, "code access", v, st, width);
            fact(lines, theme, "tenant", &s(&app.tenant_id), plain, width);
        }
        None => text(lines, "none", width, theme.dim()),
    }

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
        lines.extend(paragraph(&events, width, 4, plain));
    }
}
