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
    /// Show the pane of this name (`show_pane = "issues"` in the file,
    /// in place of `action`).
    #[serde(skip)]
    ShowPane(Name),
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
    /// Mark every row shown (under a `/` filter, the rows it shows).
    MarkShown,
    /// Export the marked (or all shown) rows to a file.
    Export,
    /// Show only the findings new since the last visit (again: all).
    NewOnly,
    LocalFilter,
    /// The next row the last `/` search matches (vim's `n`).
    NextMatch,
    /// The previous row the last `/` search matches (vim's `N`).
    PrevMatch,
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
    /// The Report's next view of the charts: counts, activity,
    /// repositories, rules, open age (and back).
    NextReportView,
    PrevReportView,
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
    /// Act on the marked findings, else the selected one: tickets, fix
    /// pull requests, AI verdict feedback, memories.
    Act,
    /// The findings grouped by rule, with counts (again: the list).
    Groups,
    /// What changed since the last visit, by kind (again: the list).
    SinceLastVisit,
    /// Only findings open past their severity's target (again: all).
    OverTarget,
    /// From a finding: the list narrowed to the same rule.
    RelatedRule,
    /// From a finding: the list narrowed to the same repository.
    RelatedRepo,
    /// From a finding: the list narrowed to the same CVE.
    RelatedCve,
    /// A form's fields back as what is in force (its draft dropped).
    Revert,
}

/// A name a keymap file gives: a context's (`[[issues]]`) or a pane's
/// (`show_pane = "issues"`). Copied freely: the names a file brings are
/// interned (few, and kept for the run).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Name(&'static str);

impl Name {
    pub const fn new(name: &'static str) -> Name {
        Name(name)
    }

    /// The name read from a file, interned: one allocation per distinct
    /// name for the whole run.
    pub fn intern(name: &str) -> Name {
        use std::collections::BTreeSet;
        use std::sync::{Mutex, OnceLock};
        static NAMES: OnceLock<Mutex<BTreeSet<&'static str>>> = OnceLock::new();
        let mut names = NAMES
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(known) = names.get(name) {
            return Name(known);
        }
        let leaked: &'static str = Box::leak(name.to_owned().into_boxed_str());
        names.insert(leaked);
        Name(leaked)
    }

    pub fn as_str(self) -> &'static str {
        self.0
    }
}

impl fmt::Display for Context {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// Where a binding applies. Lookups go from the innermost context outwards.
/// The app's own contexts are named here; a pane declares its own (the TUI
/// checks a file's contexts against the app's and the panes').
// Read from its name as a string, so that errors name the table it heads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize)]
#[serde(try_from = "String")]
pub struct Context(pub Name);

impl Context {
    /// Everywhere: looked up last.
    pub const GLOBAL: Context = Context::named("global");
    /// Any list of rows: looked up after the pane's own context.
    pub const LIST: Context = Context::named("list");
    pub const DETAIL: Context = Context::named("detail");
    pub const FORM: Context = Context::named("form");
    pub const REVIEW: Context = Context::named("review");
    pub const POPUP: Context = Context::named("popup");
    pub const HELP: Context = Context::named("help");

    /// The app's own contexts, with their headings in the help overlay.
    pub const APP: [(Context, &'static str); 7] = [
        (Context::GLOBAL, "Everywhere"),
        (Context::LIST, "Lists"),
        (Context::DETAIL, "Detail"),
        (Context::FORM, "Forms"),
        (Context::REVIEW, "Review"),
        (Context::POPUP, "Popup"),
        (Context::HELP, "Help"),
    ];

    pub const fn named(name: &'static str) -> Context {
        Context(Name::new(name))
    }

    /// The context's name in a keymap file (`[[list]]`).
    pub fn name(self) -> &'static str {
        self.0.as_str()
    }

    /// One of the app's own contexts (not a pane's).
    pub fn is_app(self) -> bool {
        Context::APP.iter().any(|(c, _)| *c == self)
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

/// The keys a keymap file names by a word (`f1` to `f12` too).
const KEY_NAMES: &[&str] = &[
    "enter",
    "esc",
    "tab",
    "backtab",
    "backspace",
    "delete",
    "up",
    "down",
    "left",
    "right",
    "home",
    "end",
    "pgup",
    "pgdn",
    "space",
];

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
                    _ => {
                        let prefix = &name[..name.len() - rest.len()];
                        let hint = findings_requests::filter_spec::did_you_mean(KEY_NAMES, rest)
                            .map(|d| {
                                format!(" ({})", d.replace("mean ", &format!("mean {prefix}")))
                            })
                            .unwrap_or_default();
                        return Err(format!("unknown key name {name:?}{hint}"));
                    }
                }
            }
        };
        Ok(Key { code, ctrl, alt })
    }
}

impl TryFrom<String> for Context {
    type Error = String;
    fn try_from(name: String) -> Result<Context, String> {
        // Which contexts there are is the TUI's to check (panes declare
        // theirs): here, only that it is a name.
        let word = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c == '_' || c.is_ascii_digit());
        if !word {
            return Err(format!(
                "{name:?} is not a context name (lower-case letters and _)"
            ));
        }
        Ok(Context(Name::intern(&name)))
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
#[serde(try_from = "BindingFields")]
pub struct Binding {
    pub keys: Vec<Key>,
    pub action: Action,
    /// Optional in a user keymap: the default's description is kept.
    pub desc: String,
}

/// A binding as written: `action = "NAME"`, or `show_pane = "PANE"` for
/// the action that shows a pane.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BindingFields {
    keys: Vec<Key>,
    #[serde(default)]
    action: Option<Action>,
    #[serde(default)]
    show_pane: Option<String>,
    #[serde(default)]
    desc: String,
}

impl TryFrom<BindingFields> for Binding {
    type Error = String;
    fn try_from(b: BindingFields) -> Result<Binding, String> {
        let action = match (b.action, b.show_pane) {
            (Some(action), None) => action,
            (None, Some(pane)) => Action::ShowPane(Name::intern(&pane)),
            (Some(_), Some(_)) => {
                return Err("a binding has an action or a show_pane, not both".into());
            }
            (None, None) => {
                return Err("a binding needs an action (or show_pane = \"PANE\")".into());
            }
        };
        Ok(Binding {
            keys: b.keys,
            action,
            desc: b.desc,
        })
    }
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
        let bytes = match findings_base::atomic_file::read_capped(path, crate::MAX_FILE_BYTES) {
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
        let err = parse_err("[[list]]\nkeys = [\"ctrl-escape\"]\naction = \"up\"\n");
        assert!(err.contains("(did you mean ctrl-esc?)"), "{err}");
        let err = parse_err("[[list]]\nkeys = [\"x\"]\naction = \"mark_shwn\"\n");
        assert!(err.contains("mark_shown?)"), "{err}");
        let err = parse_err("[[list]]\nkeys = [\"x\"]\nacton = \"up\"\n");
        assert!(err.contains("(did you mean action?)"), "{err}");

        // Which contexts there are is checked by the TUI (panes declare
        // theirs); a table that cannot be a context's name is refused here.
        let err = parse_err("[[\"Lst!\"]]\nkeys = [\"x\"]\naction = \"quit\"\n");
        assert!(err.contains("line 1"), "{err}");
        assert!(err.contains("not a context name"), "{err}");

        let err =
            parse_err("[[global]]\nkeys = [\"x\"]\naction = \"quit\"\nshow_pane = \"issues\"\n");
        assert!(err.contains("an action or a show_pane, not both"), "{err}");

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
        let list = &file.contexts[&Context::LIST];
        assert_eq!(list.len(), 1);
        assert_eq!(list[0].action, Action::Down);
        assert_eq!(
            list[0].keys,
            vec![Key::parse("ctrl-n").unwrap(), Key::parse("down").unwrap()]
        );
        assert_eq!(list[0].desc, "", "no description: the default's is kept");
        assert_eq!(file.contexts[&Context::GLOBAL][0].desc, "Leave");
        for (context, _) in Context::APP {
            assert_eq!(Context::try_from(context.name().to_owned()), Ok(context));
        }
        let panes = "[[global]]\nkeys = [\"1\"]\nshow_pane = \"report\"\n";
        let file = KeymapFile::parse(Path::new("keymap.toml"), panes).unwrap();
        assert_eq!(
            file.contexts[&Context::GLOBAL][0].action,
            Action::ShowPane(Name::new("report"))
        );
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
