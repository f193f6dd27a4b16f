//! The groups view: one row per rule with its count of findings.

use super::IssuesPane;
use crate::keymap::Action;
use crate::layout;
use crate::pane::ViewCx;
use crate::widgets::common::{load_parts, loaded_note, safe, spinner, stopped};
use crate::widgets::scroll;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

/// Width of the count column.
const COUNT: usize = 8;

pub fn draw(pane: &IssuesPane, f: &mut Frame, area: Rect, v: &ViewCx) {
    let theme = v.theme;
    let groups = &pane.groups;
    let list = &groups.list;
    let table = pane.areas(area).table;
    let rows = layout::table_rows(table);
    let of = match groups.total {
        Some(n) => format!("{} of {n}", list.len()),
        None => list.len().to_string(),
    };
    let key = |action| v.key(super::GROUP_KEYS, action);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(super::view::titled(
            pane,
            &format!("Issues by rule {of}"),
            table.width,
        ))
        .title_bottom(format!(
            " {} the rule's findings · {} order · {} back ",
            key(Action::Open),
            key(Action::CycleSort),
            key(Action::Groups)
        ));
    f.render_widget(block, table);
    let header = layout::header_row(rows);
    f.render_widget(
        Paragraph::new(format!("{:>COUNT$}  RULE", "FINDINGS")).style(theme.header_row()),
        header,
    );
    let height = rows.height as usize;
    let lines: Vec<Line> = (list.offset..list.len().min(list.offset + height))
        .filter_map(|row| {
            let g = list.row(row)?;
            let count = g.issues_count.map_or("?".to_owned(), |n| n.to_string());
            let style = if row == list.selected {
                theme.selected()
            } else {
                Style::new()
            };
            let room = (rows.width as usize).saturating_sub(COUNT + 2);
            let text = format!("{count:>COUNT$}  {}", group_name(pane, g, room));
            let pad = (rows.width as usize).saturating_sub(text.chars().count());
            Some(Line::from(Span::styled(
                format!("{text}{}", " ".repeat(pad)),
                style,
            )))
        })
        .collect();
    if lines.is_empty() {
        let text = if list.loader.is_loading() {
            format!("{} counting findings by rule…", spinner(v.spinner))
        } else if let Some(e) = &list.loader.error {
            format!("failed: {}", safe(e))
        } else if list.paused {
            stopped(v, super::GROUP_KEYS)
        } else {
            "no findings to group".to_owned()
        };
        f.render_widget(Paragraph::new(text).style(theme.dim()), rows);
        return;
    }
    f.render_widget(Paragraph::new(lines), rows);
    scroll::scrollbar(f, theme, table, rows, list.len(), list.offset);
}

/// The groups view's part of the status line.
pub fn status(pane: &IssuesPane, v: &ViewCx) -> String {
    let list = &pane.groups.list;
    let loaded = format!("groups by rule: {}", loaded_note(list));
    let mut parts = load_parts(list, loaded, v, super::GROUP_KEYS);
    parts.push(format!("order {}", pane.groups.sort_label()));
    parts.join(" · ")
}

/// A group's rule as the lists name it: its display name (from the
/// filter values) with the rule's last part where there is room, else the
/// name alone, cut at its end (words); without a name, the rule's last
/// part, cut at its start (an id keeps its end).
pub(super) fn group_name(pane: &IssuesPane, g: &findings_model::RuleGroup, room: usize) -> String {
    use unicode_width::UnicodeWidthStr;
    let short = safe(findings_model::short_rule(g.label()));
    // A supply-chain rule as its rows name it: advisory and package.
    if let Some(label) = g.rule_id.as_deref().and_then(|id| pane.rule_labels.of(id)) {
        return findings_export::fit(&safe(label), room)
            .trim_end()
            .to_owned();
    }
    match g.rule_id.as_deref().and_then(|id| pane.known.rule_name(id)) {
        // A supply-chain rule no row named: its advisory alone (its id is
        // opaque).
        Some(name)
            if g.rule_id
                .as_deref()
                .is_some_and(|id| pane.known.names_an_advisory(id)) =>
        {
            findings_export::fit(&safe(&name), room)
                .trim_end()
                .to_owned()
        }
        Some(name) if name != short => {
            let name = safe(&name);
            let both = format!("{name} · {short}");
            if both.width() <= room {
                both
            } else {
                findings_export::fit(&name, room).trim_end().to_owned()
            }
        }
        _ => findings_base::text::cut_left(&short, room),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A supply-chain rule's group is named as its rows are (advisory and
    /// package) once a page named it; before, by its advisory or its id.
    #[test]
    fn a_supply_chain_group_is_named_as_its_rows_are() {
        let mut pane = IssuesPane::default();
        let group = findings_model::RuleGroup {
            rule_id: Some("ssc-b32e368f-3637-5ecc-9cab-e7e4072c71d0".into()),
            issues_count: Some(3),
            ..Default::default()
        };
        assert!(!group_name(&pane, &group, 60).contains("minimist"));
        pane.rule_labels.learn(&[(
            "ssc-b32e368f-3637-5ecc-9cab-e7e4072c71d0".into(),
            "CVE-2021-44906 minimist".into(),
        )]);
        assert_eq!(group_name(&pane, &group, 60), "CVE-2021-44906 minimist");
    }
}
