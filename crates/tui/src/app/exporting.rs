//! Marking rows, exporting them to a file, and the copy menu, for the
//! findings lists (Issues and Report). State and key handling only: the
//! file is written outside `update`, by whoever performs
//! [`Effect::Export`] (see `save.rs`), and the outcome comes back as
//! [`Msg::Exported`](crate::app::Msg::Exported).

use super::{App, Effect, Overlay, PaneId};
use crate::message::{ExportItems, Then};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use findings_base::handoff::{ClipboardText, SafeUrl};
use findings_export::{Chosen, Context, Format, catalog};
use findings_model::Issue;
use std::path::PathBuf;
use tui_input::Input;
use tui_input::backend::crossterm::EventHandler;

/// The formats the export prompt offers, in order.
pub const FORMATS: [Format; 6] = [
    Format::Table,
    Format::Csv,
    Format::Json,
    Format::Ndjson,
    Format::Sarif,
    Format::Markdown,
];

/// The `e` prompt: a format, a file path and the columns.
#[derive(Debug, Clone)]
pub struct ExportPrompt {
    pub pane: PaneId,
    pub format: Format,
    pub path: Input,
    /// The columns of csv, table and markdown, names of the export
    /// catalog and presets (`findings issues --columns help`): at first
    /// the list's ([`FindingsSource::export_columns`](crate::pane::FindingsSource::export_columns)).
    pub columns: Input,
    /// What the columns' cells are reckoned with (the list's clock and
    /// targets).
    pub context: Context,
    /// Typing edits the columns (else the path); `↑`/`↓` switch.
    pub on_columns: bool,
    /// How many rows will be written, and whether they are the marked ones.
    pub count: usize,
    pub marked: bool,
    /// Why the last Enter did not export.
    pub error: Option<String>,
}

impl ExportPrompt {
    /// The format that will be written: the one the file name's extension
    /// names (`mine.json` holds JSON), else the one chosen.
    pub fn format(&self) -> Format {
        Format::from_path(self.path.value().trim()).unwrap_or(self.format)
    }

    /// Whether the format written has columns (csv, table, markdown).
    pub fn has_columns(&self) -> bool {
        matches!(
            self.format(),
            Format::Csv | Format::Table | Format::Markdown
        )
    }

    /// The columns typed, read from the catalog.
    pub fn chosen(&self) -> Result<Chosen, String> {
        catalog::parse(self.columns.value())
            .map(|columns| Chosen::new(columns, self.context))
            .map_err(|e| e.to_string())
    }
}

/// The `y` menu.
#[derive(Debug, Clone)]
pub struct CopyMenu {
    pub pane: PaneId,
    pub selected: usize,
    /// Marked rows on the pane (the Markdown choice copies those).
    pub marked: usize,
}

/// The choices of the copy menu: key, label.
pub const COPY_CHOICES: [(char, &str); 4] = [
    ('i', "id"),
    ('u', "URL"),
    ('p', "path:line"),
    ('m', "Markdown table"),
];

impl CopyMenu {
    /// The label of choice `k`, as the menu shows it.
    pub fn label(&self, k: usize) -> String {
        match k {
            3 if self.marked > 0 => format!(
                "the {} marked row{} as a Markdown table",
                findings_base::text::thousands_of(self.marked),
                if self.marked == 1 { "" } else { "s" }
            ),
            3 => "this row as a Markdown table".to_owned(),
            1 => "the finding's URL".to_owned(),
            0 => "the finding's id".to_owned(),
            _ => "path:line".to_owned(),
        }
    }
}

/// The file name the prompt proposes: `findings-YYYYMMDD-HHMMSS.EXT` in the
/// current directory.
pub fn default_path(format: Format) -> String {
    format!(
        "findings-{}.{}",
        chrono::Local::now().format("%Y%m%d-%H%M%S"),
        format.extension()
    )
}

/// What pane `pane` holds to export and copy, if it lists findings.
fn findings_of(app: &App, pane: PaneId) -> Option<Box<dyn crate::pane::FindingsSource + '_>> {
    app.panes().find(|p| p.id() == pane)?.findings()
}

fn marked_count(app: &App, pane: PaneId) -> usize {
    findings_of(app, pane).map_or(0, |f| f.marked())
}

fn shown_count(app: &App, pane: PaneId) -> usize {
    findings_of(app, pane).map_or(0, |f| f.shown())
}

fn selected_issue(app: &App, pane: PaneId) -> Option<Issue> {
    findings_of(app, pane)?.selected_issue()
}

/// `e`: opens the export prompt (nothing to export: says so).
pub(super) fn open_export(app: &mut App) {
    let pane = app.pane;
    let marked = marked_count(app, pane);
    let count = if marked > 0 {
        marked
    } else {
        shown_count(app, pane)
    };
    if count == 0 {
        app.status = Some("nothing to export: no finding is loaded".into());
        return;
    }
    let format = app.export_format;
    let columns =
        findings_of(app, pane).map_or_else(Chosen::default, |f| f.export_columns(app.now));
    // The columns of the last export, else the list's.
    let typed = app
        .export_columns
        .iter()
        .find(|(p, _)| *p == pane)
        .map_or_else(|| columns.list(), |(_, typed)| typed.clone());
    app.overlay = Some(Overlay::Export(ExportPrompt {
        pane,
        format,
        path: Input::new(default_path(format)),
        columns: Input::new(typed),
        context: columns.context,
        on_columns: false,
        count,
        marked: marked > 0,
        error: None,
    }));
}

/// Keys while the export prompt is open: `Tab` and `Shift-Tab` choose the
/// format, `↑`/`↓` switch between the path and the columns, typing edits
/// the one chosen, `Enter` exports, `Esc` cancels.
pub fn on_export_key(app: &mut App, key: KeyEvent) {
    let Some(Overlay::Export(prompt)) = &mut app.overlay else {
        return;
    };
    match key.code {
        KeyCode::Esc => {
            app.overlay = None;
            app.status = Some("export cancelled".into());
        }
        KeyCode::Tab => cycle_format(prompt, 1),
        KeyCode::BackTab => cycle_format(prompt, FORMATS.len() - 1),
        KeyCode::Up | KeyCode::Down => prompt.on_columns = !prompt.on_columns,
        KeyCode::Enter => {
            let path = prompt.path.value().trim().to_owned();
            if path.is_empty() {
                prompt.error = Some("type a file name".into());
                prompt.on_columns = false;
                return;
            }
            // Formats without columns write the findings whole.
            let columns = match prompt.chosen() {
                Ok(columns) => columns,
                Err(_) if !prompt.has_columns() => Chosen::default(),
                Err(why) => {
                    prompt.error = Some(why);
                    prompt.on_columns = true;
                    return;
                }
            };
            let format = prompt.format();
            let pane = prompt.pane;
            if prompt.has_columns() {
                let typed = prompt.columns.value().to_owned();
                app.export_columns.retain(|(p, _)| *p != prompt.pane);
                app.export_columns.push((prompt.pane, typed));
            }
            app.overlay = None;
            app.export_format = format;
            // The rows keep only what the table shows: the findings an
            // export writes (the marked ones, else every row shown) are
            // fetched whole first.
            let then = Then::Export {
                path: PathBuf::from(path),
                format,
                columns,
            };
            match findings_of(app, pane).and_then(|f| f.export_fetch(then)) {
                Some(fetch) => app.start_fetch(fetch),
                None => app.status = Some("nothing to export: no finding is loaded".into()),
            }
        }
        _ => {
            prompt.error = None;
            let input = if prompt.on_columns {
                &mut prompt.columns
            } else {
                &mut prompt.path
            };
            input.handle_event(&crossterm::event::Event::Key(key));
        }
    }
}

/// The next (`step` 1) or previous (`step` len-1) format; the path's
/// extension follows when it is the old format's.
fn cycle_format(prompt: &mut ExportPrompt, step: usize) {
    let old = prompt.format();
    let k = FORMATS.iter().position(|f| *f == old).unwrap_or(0);
    let new = FORMATS[(k + step) % FORMATS.len()];
    prompt.format = new;
    let path = prompt.path.value();
    if let Some(stem) = path.strip_suffix(&format!(".{}", old.extension())) {
        prompt.path = Input::new(format!("{stem}.{}", new.extension()));
    }
}

/// What the performer of [`Effect::Export`] reports.
pub fn exported(app: &mut App, path: String, result: Result<usize, String>) {
    app.exports_running = app.exports_running.saturating_sub(1);
    let shown = findings_base::text::one_line(&path).into_owned();
    match result {
        Ok(n) => {
            app.status = Some(format!(
                "exported {} finding{} to {shown}",
                findings_base::text::thousands_of(n),
                if n == 1 { "" } else { "s" }
            ));
        }
        Err(message) => {
            app.status = Some(format!("export failed: {message}"));
            app.overlay = Some(Overlay::error("Export failed", message));
        }
    }
}

/// `y`: opens the copy menu on the selected row.
pub fn open_copy_menu(app: &mut App) {
    let pane = app.pane;
    if selected_issue(app, pane).is_none() {
        app.status = Some("no finding selected".into());
        return;
    }
    app.overlay = Some(Overlay::CopyMenu(CopyMenu {
        pane,
        selected: 0,
        marked: marked_count(app, pane),
    }));
}

/// Keys while the copy menu is open: a choice's letter, or `j`/`k`
/// (`↓`/`↑`) and `Enter`; `Esc` or `q` closes it.
pub fn on_copy_key(app: &mut App, key: KeyEvent) {
    let Some(Overlay::CopyMenu(menu)) = &mut app.overlay else {
        return;
    };
    if key
        .modifiers
        .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
    {
        return;
    }
    let choice = match key.code {
        KeyCode::Esc | KeyCode::Char('q') => {
            app.overlay = None;
            return;
        }
        KeyCode::Down | KeyCode::Char('j') => {
            menu.selected = (menu.selected + 1) % COPY_CHOICES.len();
            return;
        }
        KeyCode::Up | KeyCode::Char('k') => {
            menu.selected = (menu.selected + COPY_CHOICES.len() - 1) % COPY_CHOICES.len();
            return;
        }
        KeyCode::Enter => menu.selected,
        KeyCode::Char(c) => match COPY_CHOICES.iter().position(|(k, _)| *k == c) {
            Some(k) => k,
            None => return,
        },
        _ => return,
    };
    let pane = menu.pane;
    app.overlay = None;
    let Some(findings) = findings_of(app, pane) else {
        return;
    };
    // The id and path:line are in the row; the link and a Markdown table
    // need the findings whole.
    let fetch = match choice {
        0 | 2 => None,
        3 if findings.marked() > 0 => findings.export_fetch(Then::Copy(choice)),
        _ => findings.selected_fetch(Then::Copy(choice)),
    };
    drop(findings);
    if let Some(fetch) = fetch {
        return app.start_fetch(fetch);
    }
    let copied = selected_issue(app, pane)
        .ok_or_else(|| "no finding selected".to_owned())
        .and_then(|issue| copy_text(&issue, choice, &ExportItems::Findings(Vec::new())));
    finish_copy(app, copied);
}

/// Copies what choice `choice` of the copy menu takes of `items`, the
/// findings fetched for it.
pub(super) fn copy_fetched(app: &mut App, choice: usize, items: &ExportItems) {
    let issue = match items {
        ExportItems::Issues(v) => v.first().and_then(|i| i.issue.clone()),
        ExportItems::Findings(v) => v.first().cloned(),
    };
    let copied = issue
        .ok_or_else(|| "the finding is gone".to_owned())
        .and_then(|issue| copy_text(&issue, choice, items));
    finish_copy(app, copied);
}

fn finish_copy(app: &mut App, copied: Result<(ClipboardText, String), String>) {
    match copied {
        Ok((text, what)) => {
            app.status = Some(format!("copied {what}"));
            app.outbox.effects.push(Effect::Copy(text));
        }
        Err(why) => app.status = Some(why),
    }
}

/// The text of a copy choice, and what to call it in the status line.
/// What is copied may be pasted into a shell: it is made only by the
/// cleaning constructors of [`ClipboardText`].
fn copy_text(
    issue: &Issue,
    choice: usize,
    items: &ExportItems,
) -> Result<(ClipboardText, String), String> {
    match choice {
        0 => match ClipboardText::line(issue.id()) {
            None => Err("this finding has no id".into()),
            Some(id) => Ok((id.clone(), format!("id {id}"))),
        },
        1 => match issue.line_of_code_url.as_deref().map(SafeUrl::parse) {
            Some(Ok(url)) => Ok((ClipboardText::url(&url), url.to_string())),
            Some(Err(why)) => Err(format!("the finding's link is not copied: {why}")),
            None => Err("this finding has no URL".into()),
        },
        2 => match ClipboardText::line(&issue.location()) {
            None => Err("this finding has no file path".into()),
            Some(loc) => Ok((loc.clone(), loc.to_string())),
        },
        _ => {
            let (out, n) = items
                .write_to(Vec::new(), Format::Markdown, 0)
                .map_err(|e| e.to_string())?;
            let text = ClipboardText::markdown_table(&String::from_utf8_lossy(&out))?;
            Ok((
                text,
                format!(
                    "{n} row{} as a Markdown table",
                    if n == 1 { "" } else { "s" }
                ),
            ))
        }
    }
}
