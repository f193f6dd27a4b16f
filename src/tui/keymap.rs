//! Key bindings as data: `assets/keymap.toml`, embedded, parsed into
//! contexts of (key → action) with a description each. The help overlay is
//! drawn from here, so it always shows what the keys really do.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt;

pub const DEFAULT_KEYMAP: &str = include_str!("../../assets/keymap.toml");

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
}

/// Where a binding applies. Lookups go from the innermost context outwards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Context {
    Global,
    List,
    Issues,
    Report,
    Agentic,
    Detail,
    Form,
    Scm,
    Review,
    Popup,
    Help,
}

impl Context {
    /// The contexts whose bindings are looked up before this one's where
    /// both apply (a pane's own context before `list`; everything before
    /// `global`).
    pub fn looked_up_before(self) -> &'static [Context] {
        match self {
            Context::Global => &[
                Context::List,
                Context::Issues,
                Context::Report,
                Context::Agentic,
                Context::Detail,
                Context::Form,
                Context::Scm,
                Context::Review,
                Context::Popup,
                Context::Help,
            ],
            Context::List => &[Context::Issues, Context::Report, Context::Agentic],
            _ => &[],
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            Context::Global => "Everywhere",
            Context::List => "Lists",
            Context::Issues => "Issues",
            Context::Report => "Report",
            Context::Agentic => "Agentic",
            Context::Detail => "Detail",
            Context::Form => "Forms",
            Context::Scm => "SCM config",
            Context::Review => "Review",
            Context::Popup => "Popup",
            Context::Help => "Help",
        }
    }
}

/// A key with its modifiers, as bindings name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
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

    /// The binding key of a terminal key event, if bindings can name it.
    pub fn from_event(ev: &KeyEvent) -> Option<Key> {
        let ctrl = ev.modifiers.contains(KeyModifiers::CONTROL);
        let alt = ev.modifiers.contains(KeyModifiers::ALT);
        let code = match ev.code {
            // Shifted letters arrive as the upper-case char (and SHIFT).
            KeyCode::Char(c) => KeyCodeName::Char(if ctrl { c.to_ascii_lowercase() } else { c }),
            KeyCode::F(n) => KeyCodeName::F(n),
            KeyCode::Enter => KeyCodeName::Enter,
            KeyCode::Esc => KeyCodeName::Esc,
            KeyCode::Tab if ev.modifiers.contains(KeyModifiers::SHIFT) => KeyCodeName::BackTab,
            KeyCode::Tab => KeyCodeName::Tab,
            KeyCode::BackTab => KeyCodeName::BackTab,
            KeyCode::Backspace => KeyCodeName::Backspace,
            KeyCode::Delete => KeyCodeName::Delete,
            KeyCode::Up => KeyCodeName::Up,
            KeyCode::Down => KeyCodeName::Down,
            KeyCode::Left => KeyCodeName::Left,
            KeyCode::Right => KeyCodeName::Right,
            KeyCode::Home => KeyCodeName::Home,
            KeyCode::End => KeyCodeName::End,
            KeyCode::PageUp => KeyCodeName::PageUp,
            KeyCode::PageDown => KeyCodeName::PageDown,
            _ => return None,
        };
        Some(Key { code, ctrl, alt })
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

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBinding {
    keys: Vec<String>,
    action: Action,
    /// Optional in a user keymap: the default's description is kept.
    #[serde(default)]
    desc: String,
}

/// One binding as the help overlay shows it.
#[derive(Debug, Clone)]
pub struct Binding {
    pub keys: Vec<Key>,
    pub action: Action,
    pub desc: String,
}

#[derive(Debug, Clone, Default)]
pub struct Keymap {
    contexts: BTreeMap<Context, Vec<Binding>>,
}

impl Keymap {
    /// The built-in keymap.
    pub fn default_keymap() -> Keymap {
        Keymap::parse(DEFAULT_KEYMAP).expect("the embedded keymap is valid (tested)")
    }

    /// Parses a keymap file; errors name the context and the key.
    pub fn parse(text: &str) -> Result<Keymap, String> {
        let raw: BTreeMap<Context, Vec<RawBinding>> =
            toml::from_str(text).map_err(|e| format!("keymap: {e}"))?;
        let mut contexts = BTreeMap::new();
        for (context, bindings) in raw {
            let mut seen: BTreeMap<Key, Action> = BTreeMap::new();
            let mut list = Vec::new();
            for b in bindings {
                let mut keys = Vec::new();
                for name in &b.keys {
                    let key = Key::parse(name)
                        .map_err(|e| format!("keymap [{}]: {e}", context.title()))?;
                    if let Some(other) = seen.insert(key, b.action) {
                        return Err(format!(
                            "keymap [{}]: {key} is bound to both {other:?} and {:?}",
                            context.title(),
                            b.action
                        ));
                    }
                    keys.push(key);
                }
                list.push(Binding {
                    keys,
                    action: b.action,
                    desc: b.desc,
                });
            }
            contexts.insert(context, list);
        }
        Ok(Keymap { contexts })
    }

    /// The defaults with a user keymap merged over them. A user binding
    /// gives its action new keys in that context (replacing the default
    /// keys of that action); a key it takes is removed from any other
    /// binding of the context. Errors name the file's problem.
    pub fn with_overrides(mut self, user_text: &str) -> Result<Keymap, String> {
        let user = Keymap::parse(user_text)?;
        // A key the user binds is taken from the defaults of the contexts
        // looked up before theirs too, or those would still win it.
        for (context, bindings) in &user.contexts {
            for inner in context.looked_up_before() {
                if let Some(defaults) = self.contexts.get_mut(inner) {
                    for default in defaults.iter_mut() {
                        default
                            .keys
                            .retain(|k| !bindings.iter().any(|b| b.keys.contains(k)));
                    }
                    defaults.retain(|b| !b.keys.is_empty());
                }
            }
        }
        for (context, bindings) in user.contexts {
            let list = self.contexts.entry(context).or_default();
            for b in bindings {
                for other in list.iter_mut() {
                    other.keys.retain(|k| !b.keys.contains(k));
                }
                match list.iter_mut().find(|d| d.action == b.action) {
                    Some(existing) => {
                        existing.keys = b.keys;
                        if !b.desc.is_empty() {
                            existing.desc = b.desc;
                        }
                    }
                    None => list.push(Binding {
                        desc: if b.desc.is_empty() {
                            format!("{:?}", b.action)
                        } else {
                            b.desc
                        },
                        ..b
                    }),
                }
            }
            list.retain(|b| !b.keys.is_empty());
        }
        Ok(self)
    }

    /// The action of `key` in the innermost of `contexts` that binds it.
    pub fn action(&self, contexts: &[Context], key: &Key) -> Option<Action> {
        contexts.iter().find_map(|c| {
            self.contexts
                .get(c)?
                .iter()
                .find(|b| b.keys.contains(key))
                .map(|b| b.action)
        })
    }

    pub fn bindings(&self, context: Context) -> &[Binding] {
        self.contexts.get(&context).map_or(&[], Vec::as_slice)
    }

    /// The key a hint shows for `action` in `context` (else everywhere):
    /// the bindings in force, so a rebinding shows in every hint.
    pub fn hint(&self, context: Context, action: Action) -> String {
        self.key_for(&[context, Context::Global], action)
            .map_or_else(|| "(unbound)".to_owned(), |k| k.to_string())
    }

    /// Every key of `action` in `context` (else everywhere), as a hint
    /// shows a pair: `y/Enter`.
    pub fn hints(&self, context: Context, action: Action) -> String {
        match self.keys_of(context, action) {
            keys if keys.is_empty() => "(unbound)".to_owned(),
            keys => keys.join("/"),
        }
    }

    /// Every key of `action` in `context` (else everywhere), as shown.
    pub fn keys_of(&self, context: Context, action: Action) -> Vec<String> {
        [context, Context::Global]
            .iter()
            .find_map(|c| {
                let b = self.contexts.get(c)?.iter().find(|b| b.action == action)?;
                Some(b.keys.iter().map(ToString::to_string).collect())
            })
            .unwrap_or_default()
    }

    /// The first key bound to `action` in `contexts`, for hints.
    pub fn key_for(&self, contexts: &[Context], action: Action) -> Option<Key> {
        contexts.iter().find_map(|c| {
            self.contexts
                .get(c)?
                .iter()
                .find(|b| b.action == action)
                .and_then(|b| b.keys.first().copied())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode, modifiers: KeyModifiers) -> Key {
        Key::from_event(&KeyEvent::new(code, modifiers)).unwrap()
    }

    #[test]
    fn the_default_keymap_parses_and_resolves_by_context() {
        let km = Keymap::default_keymap();
        let j = key(KeyCode::Char('j'), KeyModifiers::NONE);
        assert_eq!(
            km.action(&[Context::Issues, Context::List, Context::Global], &j),
            Some(Action::Down)
        );
        let g = key(KeyCode::Char('G'), KeyModifiers::SHIFT);
        assert_eq!(km.action(&[Context::List], &g), Some(Action::Bottom));
        let ctrl_d = key(KeyCode::Char('d'), KeyModifiers::CONTROL);
        assert_eq!(
            km.action(&[Context::List], &ctrl_d),
            Some(Action::HalfPageDown)
        );
        let back_tab = key(KeyCode::BackTab, KeyModifiers::SHIFT);
        assert_eq!(
            km.action(&[Context::Global], &back_tab),
            Some(Action::PrevPane)
        );
        // The inner context wins: `q` closes a detail instead of quitting.
        let q = key(KeyCode::Char('q'), KeyModifiers::NONE);
        assert_eq!(
            km.action(&[Context::Detail, Context::Global], &q),
            Some(Action::Back)
        );
        assert_eq!(km.action(&[Context::Global], &q), Some(Action::Quit));
    }

    #[test]
    fn errors_name_the_problem() {
        let bad_action = "[[global]]\nkeys=[\"x\"]\naction=\"explode\"\ndesc=\"\"";
        assert!(Keymap::parse(bad_action).unwrap_err().contains("explode"));
        let bad_key = "[[global]]\nkeys=[\"hyper-x\"]\naction=\"quit\"\ndesc=\"\"";
        assert!(Keymap::parse(bad_key).unwrap_err().contains("hyper-x"));
        let conflict = "[[global]]\nkeys=[\"x\"]\naction=\"quit\"\ndesc=\"\"\n[[global]]\nkeys=[\"x\"]\naction=\"help\"\ndesc=\"\"";
        assert!(
            Keymap::parse(conflict)
                .unwrap_err()
                .contains("bound to both")
        );
    }

    #[test]
    fn a_user_keymap_rebinds_and_takes_keys_over() {
        let user = "[[list]]\nkeys = [\"n\"]\naction = \"down\"\n\n[[global]]\nkeys = [\"x\"]\naction = \"quit\"\n";
        let km = Keymap::default_keymap().with_overrides(user).unwrap();
        let n = Key::parse("n").unwrap();
        let j = Key::parse("j").unwrap();
        let q = Key::parse("q").unwrap();
        let x = Key::parse("x").unwrap();
        assert_eq!(km.action(&[Context::List], &n), Some(Action::Down));
        // Where a pane's own context is looked up first, its default `n`
        // gives way too.
        for pane in [Context::Issues, Context::Report, Context::Agentic] {
            assert_eq!(
                km.action(&[pane, Context::List], &n),
                Some(Action::Down),
                "{pane:?}"
            );
        }
        // Other contexts keep theirs (`n` in the SCM review is "back").
        assert_eq!(km.action(&[Context::Review], &n), Some(Action::Back));
        // `x` taken in global is taken from the report pane (toggle state).
        let report_x = Keymap::default_keymap().action(&[Context::Report], &x);
        assert!(report_x.is_some());
        assert_eq!(
            km.action(&[Context::Report, Context::List, Context::Global], &x),
            Some(Action::Quit)
        );
        assert_eq!(
            km.action(&[Context::List], &j),
            None,
            "the action's old keys are replaced"
        );
        assert_eq!(km.action(&[Context::Global], &x), Some(Action::Quit));
        assert_eq!(km.action(&[Context::Global], &q), None);
        let desc = &km
            .bindings(Context::List)
            .iter()
            .find(|b| b.action == Action::Down)
            .unwrap()
            .desc;
        assert_eq!(desc, "Next row", "the default description is kept");
        assert!(
            Keymap::default_keymap()
                .with_overrides("[[list]]\nkeys=[\"j\"]\naction=\"fly\"")
                .unwrap_err()
                .contains("fly")
        );
    }

    #[test]
    fn key_names_round_trip_for_display() {
        assert_eq!(Key::parse("ctrl-d").unwrap().to_string(), "Ctrl-d");
        assert_eq!(Key::parse("space").unwrap().to_string(), "Space");
        assert_eq!(Key::parse("backtab").unwrap().to_string(), "Shift-Tab");
        assert!(Key::parse("f13").is_err());
        assert_eq!(Key::parse("f5").unwrap().to_string(), "F5");
    }
}
