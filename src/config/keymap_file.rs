//! The keymap file's format: bindings by context, each of keys, an action
//! and a description. The vocabulary (action, context and key names) is
//! defined here; the TUI looks keys up in what this reads (`tui::keymap`)
//! and turns terminal events into [`Key`]s.

use super::toml_error;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// Everything a key can do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    ForceQuit,
    Quit,
    Suspend,
    PaneReport,
    PaneIssues,
    PaneAgentic,
    PaneScm,
    NextPane,
    PrevPane,
    Help,
    CommandLine,
    Back,
    Up,
    Down,
    Top,
    Bottom,
    PageUp,
    PageDown,
    HalfPageUp,
    HalfPageDown,
    Open,
    Refresh,
    OpenInBrowser,
    Copy,
    /// Offer what to copy: id, URL, path:line, or marked rows as Markdown.
    CopyMenu,
    /// Mark or unmark the selected row.
    Mark,
    /// Unmark every row.
    ClearMarks,
    /// Export the marked (or all shown) rows to a file.
    Export,
    /// Show only the findings new since the last visit (again: all).
    NewOnly,
    LocalFilter,
    FilterForm,
    CycleSort,
    ToggleSortDirection,
    CycleReportType,
    CyclePeriod,
    CycleBucket,
    CycleState,
    PrevReportType,
    PrevPeriod,
    PrevBucket,
    PrevState,
    /// Filter the report by repository (project) names.
    RepoFilter,
    ToggleCode,
    ToggleSca,
    ToggleSecrets,
    ToggleCritical,
    ToggleHigh,
    ToggleMedium,
    ToggleLow,
    EditQuery,
    NextTab,
    PrevTab,
    NextField,
    PrevField,
    Toggle,
    Submit,
    ClearField,
    Review,
    Confirm,
    /// Triage the marked findings, else the selected one.
    Triage,
    /// Undo the last triage.
    UndoTriage,
    /// The findings grouped by rule, with counts (again: the list).
    Groups,
    /// From a finding: the list narrowed to the same rule.
    RelatedRule,
    /// From a finding: the list narrowed to the same repository.
    RelatedRepo,
    /// From a finding: the list narrowed to the same CVE.
    RelatedCve,
}

/// Where a binding applies. Lookups go from the innermost context outwards.
// Read from its name as a string, so that errors name the table it heads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize)]
#[serde(try_from = "String")]
pub enum Context {
    Global,
    List,
    Issues,
    Groups,
    Report,
    Agentic,
    Detail,
    Form,
    ScmList,
    Scm,
    Review,
    Popup,
    Help,
}

impl Context {
    pub const ALL: [Context; 13] = [
        Context::Global,
        Context::List,
        Context::Issues,
        Context::Groups,
        Context::Report,
        Context::Agentic,
        Context::Detail,
        Context::Form,
        Context::ScmList,
        Context::Scm,
        Context::Review,
        Context::Popup,
        Context::Help,
    ];

    /// The context's name in a keymap file (`[[list]]`).
    pub fn name(self) -> &'static str {
        match self {
            Context::Global => "global",
            Context::List => "list",
            Context::Issues => "issues",
            Context::Groups => "groups",
            Context::Report => "report",
            Context::Agentic => "agentic",
            Context::Detail => "detail",
            Context::Form => "form",
            Context::ScmList => "scm_list",
            Context::Scm => "scm",
            Context::Review => "review",
            Context::Popup => "popup",
            Context::Help => "help",
        }
    }

    /// Its heading in the help overlay.
    pub fn title(self) -> &'static str {
        match self {
            Context::Global => "Everywhere",
            Context::List => "Lists",
            Context::Issues => "Issues",
            Context::Groups => "Issue groups",
            Context::Report => "Report",
            Context::Agentic => "Agentic",
            Context::Detail => "Detail",
            Context::Form => "Forms",
            Context::ScmList => "SCM configs",
            Context::Scm => "SCM config",
            Context::Review => "Review",
            Context::Popup => "Popup",
            Context::Help => "Help",
        }
    }
}

/// A key with its modifiers, as bindings name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize)]
#[serde(try_from = "String")]
pub struct Key {
    pub code: KeyCodeName,
    pub ctrl: bool,
    pub alt: bool,
}

/// The subset of key codes bindings use, orderable for stable help output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum KeyCodeName {
    Char(char),
    F(u8),
    Enter,
    Esc,
    Tab,
    BackTab,
    Backspace,
    Delete,
    Up,
    Down,
    Left,
    Right,
    Home,
    End,
    PageUp,
    PageDown,
}

impl Key {
    /// Parses `ctrl-d`, `G`, `enter`, `space`, `?` ...
    pub fn parse(name: &str) -> Result<Key, String> {
        let mut ctrl = false;
        let mut alt = false;
        let mut rest = name;
        loop {
            if let Some(r) = rest.strip_prefix("ctrl-") {
                ctrl = true;
                rest = r;
            } else if let Some(r) = rest.strip_prefix("alt-") {
                alt = true;
                rest = r;
            } else {
                break;
            }
        }
        let code = match rest {
            "enter" => KeyCodeName::Enter,
            "esc" => KeyCodeName::Esc,
            "tab" => KeyCodeName::Tab,
            "backtab" => KeyCodeName::BackTab,
            "backspace" => KeyCodeName::Backspace,
            "delete" => KeyCodeName::Delete,
            "up" => KeyCodeName::Up,
            "down" => KeyCodeName::Down,
            "left" => KeyCodeName::Left,
            "right" => KeyCodeName::Right,
            "home" => KeyCodeName::Home,
            "end" => KeyCodeName::End,
            "pgup" => KeyCodeName::PageUp,
            "pgdn" => KeyCodeName::PageDown,
            "space" => KeyCodeName::Char(' '),
            f if f.len() > 1
                && f.starts_with('f')
                && f[1..].parse::<u8>().is_ok_and(|n| (1..=12).contains(&n)) =>
            {
                KeyCodeName::F(f[1..].parse().unwrap_or(1))
            }
            s => {
                let mut chars = s.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) if !c.is_control() => KeyCodeName::Char(c),
                    _ => return Err(format!("unknown key name {name:?}")),
                }
            }
        };
        Ok(Key { code, ctrl, alt })
    }
}

impl TryFrom<String> for Context {
    type Error = String;
    fn try_from(name: String) -> Result<Context, String> {
        Context::ALL
            .into_iter()
            .find(|c| c.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = Context::ALL.iter().map(|c| c.name()).collect();
                format!("unknown context {name:?}; contexts: {}", names.join(", "))
            })
    }
}

impl TryFrom<String> for Key {
    type Error = String;
    fn try_from(name: String) -> Result<Key, String> {
        Key::parse(&name)
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.ctrl {
            f.write_str("Ctrl-")?;
        }
        if self.alt {
            f.write_str("Alt-")?;
        }
        match self.code {
            KeyCodeName::Char(' ') => f.write_str("Space"),
            KeyCodeName::Char(c) => write!(f, "{c}"),
            KeyCodeName::F(n) => write!(f, "F{n}"),
            KeyCodeName::Enter => f.write_str("Enter"),
            KeyCodeName::Esc => f.write_str("Esc"),
            KeyCodeName::Tab => f.write_str("Tab"),
            KeyCodeName::BackTab => f.write_str("Shift-Tab"),
            KeyCodeName::Backspace => f.write_str("Backspace"),
            KeyCodeName::Delete => f.write_str("Delete"),
            KeyCodeName::Up => f.write_str("↑"),
            KeyCodeName::Down => f.write_str("↓"),
            KeyCodeName::Left => f.write_str("←"),
            KeyCodeName::Right => f.write_str("→"),
            KeyCodeName::Home => f.write_str("Home"),
            KeyCodeName::End => f.write_str("End"),
            KeyCodeName::PageUp => f.write_str("PgUp"),
            KeyCodeName::PageDown => f.write_str("PgDn"),
        }
    }
}

/// One binding: its keys, its action, and what the help overlay says of
/// it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Binding {
    pub keys: Vec<Key>,
    pub action: Action,
    /// Optional in a user keymap: the default's description is kept.
    #[serde(default)]
    pub desc: String,
}

/// A keymap file, checked: every key and action known, no key bound twice
/// in one context.
#[derive(Debug, Clone)]
pub struct KeymapFile {
    pub path: PathBuf,
    pub contexts: BTreeMap<Context, Vec<Binding>>,
}

impl KeymapFile {
    /// Reads and checks the file; `Ok(None)` when there is none.
    pub fn read(path: &Path) -> Result<Option<KeymapFile>, String> {
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => {
                return Err(format!(
                    "cannot read the keymap file {}: {e}",
                    path.display()
                ));
            }
        };
        let text = String::from_utf8(bytes)
            .map_err(|_| format!("keymap file {}: not UTF-8 text", path.display()))?;
        KeymapFile::parse(path, &text).map(Some)
    }

    /// Parses a keymap file; errors name the file, the line and the key.
    pub fn parse(path: &Path, text: &str) -> Result<KeymapFile, String> {
        let raw: BTreeMap<Context, ContextBindings> = toml_error::parse("keymap file", path, text)?;
        Ok(KeymapFile {
            path: path.to_owned(),
            contexts: raw.into_iter().map(|(c, b)| (c, b.0)).collect(),
        })
    }
}

/// The bindings of one context, no key bound twice.
#[derive(Deserialize)]
#[serde(try_from = "Vec<Binding>")]
struct ContextBindings(Vec<Binding>);

impl TryFrom<Vec<Binding>> for ContextBindings {
    type Error = String;
    fn try_from(bindings: Vec<Binding>) -> Result<ContextBindings, String> {
        let mut seen: BTreeMap<Key, Action> = BTreeMap::new();
        for b in &bindings {
            for key in &b.keys {
                if let Some(other) = seen.insert(*key, b.action) {
                    return Err(format!(
                        "{key} is bound to both {other:?} and {:?}",
                        b.action
                    ));
                }
            }
        }
        Ok(ContextBindings(bindings))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_err(text: &str) -> String {
        KeymapFile::parse(Path::new("/cfg/findings/keymap.toml"), text).unwrap_err()
    }

    #[test]
    fn errors_name_the_file_the_line_and_the_key() {
        let err = parse_err("[[global]]\nkeys = [\"x\"]\naction = \"explode\"\n");
        assert!(
            err.starts_with("keymap file /cfg/findings/keymap.toml, line 3, key global[0].action:"),
            "{err}"
        );
        assert!(
            err.contains("explode") && err.contains("force_quit"),
            "{err}"
        );

        let err = parse_err(
            "[[list]]\nkeys = [\"j\"]\naction = \"down\"\n\n[[list]]\nkeys = [\"y\", \"hyper-x\"]\naction = \"up\"\n",
        );
        assert!(err.contains("line 6, key list[1].keys[1]"), "{err}");
        assert!(err.contains("unknown key name \"hyper-x\""), "{err}");

        let err = parse_err("[[lst]]\nkeys = [\"x\"]\naction = \"quit\"\n");
        assert!(err.contains("line 1, key lst"), "{err}");
        assert!(err.contains("contexts: global, list"), "{err}");

        let err = parse_err("[[list]]\nkeys = [\"x\"]\naction = \"quit\"\ncolour = 1\n");
        assert!(err.contains("line 4, key list[0].colour"), "{err}");

        let err = parse_err(
            "[[global]]\nkeys = [\"x\"]\naction = \"quit\"\n[[global]]\nkeys = [\"x\"]\naction = \"help\"\n",
        );
        assert!(err.contains("key global"), "{err}");
        assert!(err.contains("x is bound to both Quit and Help"), "{err}");

        // A syntax error: the line and the key written on it.
        let err = parse_err("[[list]]\nkeys = [\"x\"\n");
        assert!(err.contains("line 2, key list.keys"), "{err}");
    }

    #[test]
    fn a_keymap_file_reads_its_bindings_by_context() {
        let text = "[[list]]\nkeys = [\"ctrl-n\", \"down\"]\naction = \"down\"\n\n[[global]]\nkeys = [\"x\"]\naction = \"quit\"\ndesc = \"Leave\"\n";
        let file = KeymapFile::parse(Path::new("keymap.toml"), text).unwrap();
        let list = &file.contexts[&Context::List];
        assert_eq!(list.len(), 1);
        assert_eq!(list[0].action, Action::Down);
        assert_eq!(
            list[0].keys,
            vec![Key::parse("ctrl-n").unwrap(), Key::parse("down").unwrap()]
        );
        assert_eq!(list[0].desc, "", "no description: the default's is kept");
        assert_eq!(file.contexts[&Context::Global][0].desc, "Leave");
        for context in Context::ALL {
            assert_eq!(Context::try_from(context.name().to_owned()), Ok(context));
        }
    }

    #[test]
    fn reading_a_missing_file_is_no_file() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(
            KeymapFile::read(&dir.path().join("keymap.toml")),
            Ok(None)
        ));
    }
}
