//! Key bindings as data: `assets/keymap.toml`, embedded, parsed into
//! contexts of (key → action) with a description each, and the user's
//! keymap file merged over it. The file format and its names are
//! configuration's (`config::keymap_file`); this is the lookup. The help
//! overlay is drawn from here, so it always shows what the keys really do.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use findings_config::keymap_file::KeymapFile;
pub use findings_config::keymap_file::{Action, Binding, Context, Key, KeyCodeName, Name};
use findings_requests::filter_spec::did_you_mean;
use std::collections::BTreeMap;
use std::path::Path;

pub const DEFAULT_KEYMAP: &str = include_str!("../../../assets/keymap.toml");

/// Whether `inner`'s bindings are looked up before `outer`'s where both
/// apply: a pane's own context before `list`, everything before `global`.
fn looked_up_before(inner: Context, outer: Context) -> bool {
    match outer {
        Context::GLOBAL => inner != Context::GLOBAL,
        Context::LIST => !inner.is_app(),
        _ => false,
    }
}

/// The binding key of a terminal key event, if bindings can name it.
/// Here, not on `Key`: terminal events are the TUI's, configuration only
/// names keys.
pub fn key_of_event(ev: &KeyEvent) -> Option<Key> {
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

/// What a hint says for an action no key is bound to.
const UNBOUND: &str = "(unbound)";

#[derive(Debug, Clone, Default)]
pub struct Keymap {
    contexts: BTreeMap<Context, Vec<Binding>>,
}

impl Keymap {
    /// The built-in keymap.
    pub fn default_keymap() -> Keymap {
        Keymap::parse(DEFAULT_KEYMAP).expect("the embedded keymap is valid (tested)")
    }

    /// Parses the text of the built-in keymap; errors name the line and the
    /// key.
    pub fn parse(text: &str) -> Result<Keymap, String> {
        let file = KeymapFile::parse(Path::new("assets/keymap.toml"), text)?;
        Ok(Keymap {
            contexts: file.contexts,
        })
    }

    /// The defaults with a user keymap merged over them. A user binding
    /// gives its action new keys in that context (replacing the default
    /// keys of that action); a key it takes is removed from any other
    /// binding of the context.
    pub fn with_overrides(mut self, user: KeymapFile) -> Keymap {
        // A key the user binds is taken from the defaults of the contexts
        // looked up before theirs too, or those would still win it.
        for (context, bindings) in &user.contexts {
            for (inner, defaults) in &mut self.contexts {
                if !looked_up_before(*inner, *context) {
                    continue;
                }
                for default in defaults.iter_mut() {
                    default
                        .keys
                        .retain(|k| !bindings.iter().any(|b| b.keys.contains(k)));
                }
                defaults.retain(|b| !b.keys.is_empty());
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
        self
    }

    /// Checks the contexts and panes the bindings name against those there
    /// are (the app's contexts, and the contexts and names of `panes`): a
    /// typo in a keymap file is said at the start, naming what there is.
    pub fn check(&self, panes: &[(Name, Vec<Context>)]) -> Result<(), String> {
        let mut contexts: Vec<Context> = Context::APP.iter().map(|(c, _)| *c).collect();
        contexts.extend(panes.iter().flat_map(|(_, cs)| cs.iter().copied()));
        let names = |list: Vec<&str>| list.join(", ");
        for (context, bindings) in &self.contexts {
            if !contexts.contains(context) {
                let known: Vec<&str> = contexts.iter().map(|c| c.name()).collect();
                let hint = did_you_mean(&known, context.name())
                    .map(|d| format!(" ({d})"))
                    .unwrap_or_default();
                return Err(format!(
                    "unknown context [[{context}]]{hint}; contexts: {}",
                    names(known)
                ));
            }
            for b in bindings {
                if let Action::ShowPane(pane) = b.action
                    && !panes.iter().any(|(name, _)| *name == pane)
                {
                    let known: Vec<&str> = panes.iter().map(|(n, _)| n.as_str()).collect();
                    let hint = did_you_mean(&known, pane.as_str())
                        .map(|d| format!(" ({d})"))
                        .unwrap_or_default();
                    return Err(format!(
                        "[[{context}]] show_pane = {:?}: no such pane{hint}; panes: {}",
                        pane.as_str(),
                        names(known)
                    ));
                }
            }
        }
        Ok(())
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

    /// Every context with bindings.
    pub fn contexts(&self) -> impl Iterator<Item = Context> + '_ {
        self.contexts.keys().copied()
    }

    pub fn bindings(&self, context: Context) -> &[Binding] {
        self.contexts.get(&context).map_or(&[], Vec::as_slice)
    }

    /// The key a hint shows for `action` in `context` (else everywhere):
    /// the bindings in force, so a rebinding shows in every hint.
    pub fn hint(&self, context: Context, action: Action) -> String {
        self.hint_among(&[context], action)
    }

    /// The key a hint shows for `action` in the first of `contexts` that
    /// binds it, else globally.
    pub fn hint_among(&self, contexts: &[Context], action: Action) -> String {
        let mut all = contexts.to_vec();
        all.push(Context::GLOBAL);
        self.keys_in(&all, action)
            .into_iter()
            .next()
            .unwrap_or_else(|| UNBOUND.to_owned())
    }

    /// Every key of `action` in `context` (else everywhere), as a hint
    /// shows a pair: `y/Enter`.
    pub fn hints(&self, context: Context, action: Action) -> String {
        match self.keys_in(&[context, Context::GLOBAL], action) {
            keys if keys.is_empty() => UNBOUND.to_owned(),
            keys => keys.join("/"),
        }
    }

    /// Every key of `action` in the first of `contexts` that binds it, as
    /// shown.
    pub fn keys_in(&self, contexts: &[Context], action: Action) -> Vec<String> {
        contexts
            .iter()
            .find_map(|c| {
                let b = self.contexts.get(c)?.iter().find(|b| b.action == action)?;
                Some(b.keys.iter().map(ToString::to_string).collect())
            })
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ISSUES: Context = Context::named("issues");
    const REPORT: Context = Context::named("report");
    const AGENTIC: Context = Context::named("agentic");

    fn user_file(text: &str) -> Result<KeymapFile, String> {
        KeymapFile::parse(Path::new("/cfg/findings/keymap.toml"), text)
    }

    fn key(code: KeyCode, modifiers: KeyModifiers) -> Key {
        key_of_event(&KeyEvent::new(code, modifiers)).unwrap()
    }

    #[test]
    fn the_default_keymap_parses_and_resolves_by_context() {
        let km = Keymap::default_keymap();
        let j = key(KeyCode::Char('j'), KeyModifiers::NONE);
        assert_eq!(
            km.action(&[ISSUES, Context::LIST, Context::GLOBAL], &j),
            Some(Action::Down)
        );
        let g = key(KeyCode::Char('G'), KeyModifiers::SHIFT);
        assert_eq!(km.action(&[Context::LIST], &g), Some(Action::Bottom));
        let ctrl_d = key(KeyCode::Char('d'), KeyModifiers::CONTROL);
        assert_eq!(
            km.action(&[Context::LIST], &ctrl_d),
            Some(Action::HalfPageDown)
        );
        let back_tab = key(KeyCode::BackTab, KeyModifiers::SHIFT);
        assert_eq!(
            km.action(&[Context::GLOBAL], &back_tab),
            Some(Action::PrevPane)
        );
        let two = key(KeyCode::Char('2'), KeyModifiers::NONE);
        assert_eq!(
            km.action(&[Context::GLOBAL], &two),
            Some(Action::ShowPane(Name::new("issues")))
        );
        // The inner context wins: `q` closes a detail instead of quitting.
        let q = key(KeyCode::Char('q'), KeyModifiers::NONE);
        assert_eq!(
            km.action(&[Context::DETAIL, Context::GLOBAL], &q),
            Some(Action::Back)
        );
        assert_eq!(km.action(&[Context::GLOBAL], &q), Some(Action::Quit));
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
        let km = Keymap::default_keymap().with_overrides(user_file(user).unwrap());
        let n = Key::parse("n").unwrap();
        let j = Key::parse("j").unwrap();
        let q = Key::parse("q").unwrap();
        let x = Key::parse("x").unwrap();
        assert_eq!(km.action(&[Context::LIST], &n), Some(Action::Down));
        // Where a pane's own context is looked up first, its default `n`
        // gives way too.
        for pane in [ISSUES, REPORT, AGENTIC] {
            assert_eq!(
                km.action(&[pane, Context::LIST], &n),
                Some(Action::Down),
                "{pane:?}"
            );
        }
        // Other contexts keep theirs (`n` in the SCM review is "back").
        assert_eq!(km.action(&[Context::REVIEW], &n), Some(Action::Back));
        // `x` taken in global is taken from the report pane (toggle state).
        let report_x = Keymap::default_keymap().action(&[REPORT], &x);
        assert!(report_x.is_some());
        assert_eq!(
            km.action(&[REPORT, Context::LIST, Context::GLOBAL], &x),
            Some(Action::Quit)
        );
        assert_eq!(
            km.action(&[Context::LIST], &j),
            None,
            "the action's old keys are replaced"
        );
        assert_eq!(km.action(&[Context::GLOBAL], &x), Some(Action::Quit));
        assert_eq!(km.action(&[Context::GLOBAL], &q), None);
        let desc = &km
            .bindings(Context::LIST)
            .iter()
            .find(|b| b.action == Action::Down)
            .unwrap()
            .desc;
        assert_eq!(desc, "Next row", "the default description is kept");
        assert!(
            user_file("[[list]]\nkeys=[\"j\"]\naction=\"fly\"")
                .unwrap_err()
                .contains("fly")
        );
    }

    #[test]
    fn contexts_and_panes_a_keymap_names_are_checked_against_those_there_are() {
        let panes = vec![
            (Name::new("report"), vec![REPORT]),
            (
                Name::new("issues"),
                vec![ISSUES, Context::named("groups"), Context::named("since")],
            ),
            (Name::new("agentic"), vec![AGENTIC]),
            (
                Name::new("scm"),
                vec![Context::named("scm_list"), Context::named("scm")],
            ),
        ];
        let ok = "[[issues]]\nkeys = [\"x\"]\naction = \"refresh\"\n[[global]]\nkeys = [\"9\"]\nshow_pane = \"report\"\n";
        let km = Keymap::default_keymap().with_overrides(user_file(ok).unwrap());
        assert_eq!(km.check(&panes), Ok(()));
        let typo = "[[isues]]\nkeys = [\"x\"]\naction = \"refresh\"\n";
        let km = Keymap::default_keymap().with_overrides(user_file(typo).unwrap());
        let err = km.check(&panes).unwrap_err();
        assert!(
            err.contains("unknown context [[isues]] (did you mean issues?)"),
            "{err}"
        );
        assert!(
            err.contains("global, list") && err.contains("report, issues"),
            "{err}"
        );
        let pane = "[[global]]\nkeys = [\"9\"]\nshow_pane = \"repot\"\n";
        let km = Keymap::default_keymap().with_overrides(user_file(pane).unwrap());
        let err = km.check(&panes).unwrap_err();
        assert!(
            err.contains(
                "show_pane = \"repot\": no such pane (did you mean report?); panes: report, issues, agentic, scm"
            ),
            "{err}"
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
