//! The theme file's format, as plain data: the built-in it starts from
//! (`base`) and, per role, the style that replaces the built-in's. The
//! vocabulary (theme, role, colour and modifier names) is defined here; the
//! TUI turns it into terminal styles.
//!
//! ```toml
//! base = "light"                 # used when nothing else picks a theme
//! [styles]
//! selected = { fg = "black", bg = "#ffd700", modifiers = ["bold"] }
//! severity_medium = { fg = 130 }
//! ```

use super::toml_error;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// The built-in themes' names, as `--theme`, `FINDINGS_THEME`, `theme =`
/// and a theme file's `base =` take them.
pub const THEME_NAMES: [&str; 4] = ["default", "dark", "light", "high-contrast"];

/// A built-in theme (in the order of [`THEME_NAMES`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BuiltinTheme {
    Default,
    Dark,
    Light,
    HighContrast,
}

impl BuiltinTheme {
    /// The built-in named `name`, in any case, `_` for `-`; the error lists
    /// the valid names.
    pub fn named(name: &str) -> Result<BuiltinTheme, String> {
        match name.trim().to_ascii_lowercase().replace('_', "-").as_str() {
            "default" => Ok(BuiltinTheme::Default),
            "dark" => Ok(BuiltinTheme::Dark),
            "light" => Ok(BuiltinTheme::Light),
            "high-contrast" => Ok(BuiltinTheme::HighContrast),
            _ => Err(format!(
                "unknown theme {name:?}; valid: {}",
                THEME_NAMES.join(", ")
            )),
        }
    }

    /// Its name as [`THEME_NAMES`] spells it.
    pub fn name(self) -> &'static str {
        THEME_NAMES[self as usize]
    }
}

/// Checks a theme name (a built-in); the error lists the valid ones.
pub fn check_name(name: &str) -> Result<(), String> {
    BuiltinTheme::named(name).map(|_| ())
}

/// What a style is for. Each view picks a role, never a colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    /// Block titles, headings, the app name.
    Title,
    /// Labels, hints, secondary text.
    Dim,
    /// The selected row, tab or field.
    Selected,
    /// Table header rows.
    HeaderRow,
    /// Key names in hints and help; marks.
    Key,
    /// Values and status messages that should stand out a little.
    Accent,
    /// The DEMO and READ-ONLY badges.
    Badge,
    Error,
    /// Good outcomes ("on", "ok").
    Ok,
    /// Added lines of a diff.
    Added,
    /// Removed lines of a diff; "off".
    Removed,
    SeverityCritical,
    SeverityHigh,
    SeverityMedium,
    SeverityLow,
    /// Info, unknown and missing severities.
    SeverityInfo,
}

impl Role {
    pub const ALL: [Role; 16] = [
        Role::Title,
        Role::Dim,
        Role::Selected,
        Role::HeaderRow,
        Role::Key,
        Role::Accent,
        Role::Badge,
        Role::Error,
        Role::Ok,
        Role::Added,
        Role::Removed,
        Role::SeverityCritical,
        Role::SeverityHigh,
        Role::SeverityMedium,
        Role::SeverityLow,
        Role::SeverityInfo,
    ];

    /// The role's name in a theme file's `[styles]` table.
    pub fn name(self) -> &'static str {
        match self {
            Role::Title => "title",
            Role::Dim => "dim",
            Role::Selected => "selected",
            Role::HeaderRow => "header_row",
            Role::Key => "key",
            Role::Accent => "accent",
            Role::Badge => "badge",
            Role::Error => "error",
            Role::Ok => "ok",
            Role::Added => "added",
            Role::Removed => "removed",
            Role::SeverityCritical => "severity_critical",
            Role::SeverityHigh => "severity_high",
            Role::SeverityMedium => "severity_medium",
            Role::SeverityLow => "severity_low",
            Role::SeverityInfo => "severity_info",
        }
    }

    fn parse(name: &str) -> Result<Role, String> {
        Role::ALL
            .into_iter()
            .find(|r| r.name() == name.trim())
            .ok_or_else(|| {
                let names: Vec<&str> = Role::ALL.iter().map(|r| r.name()).collect();
                format!("unknown role {name:?}; roles: {}", names.join(", "))
            })
    }
}

/// A user theme file, checked. A role's style is replaced as a whole by
/// what the file says.
#[derive(Debug, Clone, PartialEq)]
pub struct ThemeFile {
    pub path: PathBuf,
    /// The built-in the file names with `base =`.
    pub base: Option<String>,
    /// The styles the file sets, in role order.
    pub styles: Vec<(Role, StyleSpec)>,
}

/// `{ fg = COLOUR, bg = COLOUR, modifiers = [NAME, ...] }`: no colour or
/// modifier given is none (the role's style is replaced, not patched).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(from = "RawStyle")]
pub struct StyleSpec {
    pub fg: Option<Colour>,
    pub bg: Option<Colour>,
    pub modifiers: Vec<TextModifier>,
}

/// A colour as a theme file names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Colour {
    /// The terminal's own foreground or background.
    Reset,
    Black,
    Red,
    Green,
    Yellow,
    Blue,
    Magenta,
    Cyan,
    Gray,
    DarkGray,
    LightRed,
    LightGreen,
    LightYellow,
    LightBlue,
    LightMagenta,
    LightCyan,
    White,
    /// One of the 256 colours.
    Indexed(u8),
    /// `#rrggbb`, for terminals with true colour.
    Rgb(u8, u8, u8),
}

/// A text modifier as a theme file names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextModifier {
    Bold,
    Dim,
    Italic,
    Underlined,
    Reversed,
    CrossedOut,
    SlowBlink,
    RapidBlink,
    Hidden,
}

const MODIFIERS: [(&str, TextModifier); 9] = [
    ("bold", TextModifier::Bold),
    ("dim", TextModifier::Dim),
    ("italic", TextModifier::Italic),
    ("underlined", TextModifier::Underlined),
    ("reversed", TextModifier::Reversed),
    ("crossed_out", TextModifier::CrossedOut),
    ("slow_blink", TextModifier::SlowBlink),
    ("rapid_blink", TextModifier::RapidBlink),
    ("hidden", TextModifier::Hidden),
];

impl ThemeFile {
    /// Reads and checks the file; `Ok(None)` when there is none.
    pub fn read(path: &Path) -> Result<Option<ThemeFile>, String> {
        let bytes = match findings_base::atomic_file::read_capped(path, crate::MAX_FILE_BYTES) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => {
                return Err(format!(
                    "cannot read the theme file {}: {e}",
                    path.display()
                ));
            }
        };
        let text = String::from_utf8(bytes)
            .map_err(|_| format!("theme file {}: not UTF-8 text", path.display()))?;
        ThemeFile::parse(path, &text).map(Some)
    }

    /// Parses a theme file; errors name the file, the line and the key.
    pub fn parse(path: &Path, text: &str) -> Result<ThemeFile, String> {
        let raw: RawFile = toml_error::parse("theme file", path, text)?;
        Ok(ThemeFile {
            path: path.to_owned(),
            base: raw.base.map(|b| b.0),
            styles: raw
                .styles
                .into_iter()
                .map(|(role, spec)| (role.0, spec))
                .collect(),
        })
    }

    /// The roles whose style the file sets.
    pub fn roles(&self) -> Vec<Role> {
        self.styles.iter().map(|(r, _)| *r).collect()
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    base: Option<BaseName>,
    #[serde(default)]
    styles: BTreeMap<RoleKey, StyleSpec>,
}

#[derive(Deserialize)]
#[serde(try_from = "String")]
struct BaseName(String);

impl TryFrom<String> for BaseName {
    type Error = String;
    fn try_from(s: String) -> Result<BaseName, String> {
        BuiltinTheme::named(&s).map(|b| BaseName(b.name().to_owned()))
    }
}

#[derive(PartialEq, Eq, PartialOrd, Ord, Deserialize)]
#[serde(try_from = "String")]
struct RoleKey(Role);

impl TryFrom<String> for RoleKey {
    type Error = String;
    fn try_from(s: String) -> Result<RoleKey, String> {
        Role::parse(&s).map(RoleKey)
    }
}

#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a style: { fg = COLOUR, bg = COLOUR, modifiers = [NAME, ...] }"
)]
struct RawStyle {
    fg: Option<ColourName>,
    bg: Option<ColourName>,
    #[serde(default)]
    modifiers: Vec<ModifierName>,
}

impl From<RawStyle> for StyleSpec {
    fn from(raw: RawStyle) -> StyleSpec {
        StyleSpec {
            fg: raw.fg.map(|c| c.0),
            bg: raw.bg.map(|c| c.0),
            modifiers: raw.modifiers.into_iter().map(|m| m.0).collect(),
        }
    }
}

/// A colour: a name (`red`, `light-blue`, `dark-gray`, `reset` ...),
/// `#rrggbb`, or a 256-colour index (0-255, as a number or a string).
struct ColourName(Colour);

const COLOUR_HELP: &str = "use a name (black, red, green, yellow, blue, magenta, cyan, gray, dark-gray, light-red, light-green, light-yellow, light-blue, light-magenta, light-cyan, white, reset), #rrggbb, or an index 0-255";

impl<'de> Deserialize<'de> for ColourName {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = ColourName;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a colour: a name, \"#rrggbb\" or an index 0-255")
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<ColourName, E> {
                u8::try_from(v)
                    .map(|i| ColourName(Colour::Indexed(i)))
                    .map_err(|_| E::custom(format!("bad colour {v}: {COLOUR_HELP}")))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<ColourName, E> {
                u8::try_from(v)
                    .map(|i| ColourName(Colour::Indexed(i)))
                    .map_err(|_| E::custom(format!("bad colour {v}: {COLOUR_HELP}")))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<ColourName, E> {
                Colour::parse(v.trim())
                    .map(ColourName)
                    .ok_or_else(|| E::custom(format!("bad colour {v:?}: {COLOUR_HELP}")))
            }
        }
        d.deserialize_any(V)
    }
}

impl Colour {
    /// A colour's name, `#rrggbb` or index. Names are taken as ratatui
    /// takes them (any case, with or without `-`, `_` or spaces, `grey`,
    /// `bright-` for `light-`), so files written for it keep working.
    fn parse(s: &str) -> Option<Colour> {
        // "" and odd spellings of hex colours are refused, as the help says.
        if s.is_empty() || (s.starts_with('#') && s.len() != 7) {
            return None;
        }
        let name = s
            .to_lowercase()
            .replace([' ', '-', '_'], "")
            .replace("bright", "light")
            .replace("grey", "gray")
            .replace("silver", "gray")
            .replace("lightblack", "darkgray")
            .replace("lightwhite", "white")
            .replace("lightgray", "white");
        Some(match name.as_str() {
            "reset" => Colour::Reset,
            "black" => Colour::Black,
            "red" => Colour::Red,
            "green" => Colour::Green,
            "yellow" => Colour::Yellow,
            "blue" => Colour::Blue,
            "magenta" => Colour::Magenta,
            "cyan" => Colour::Cyan,
            "gray" => Colour::Gray,
            "darkgray" => Colour::DarkGray,
            "lightred" => Colour::LightRed,
            "lightgreen" => Colour::LightGreen,
            "lightyellow" => Colour::LightYellow,
            "lightblue" => Colour::LightBlue,
            "lightmagenta" => Colour::LightMagenta,
            "lightcyan" => Colour::LightCyan,
            "white" => Colour::White,
            _ => {
                if let Ok(index) = s.parse::<u8>() {
                    Colour::Indexed(index)
                } else {
                    let (r, g, b) = hex_colour(s)?;
                    Colour::Rgb(r, g, b)
                }
            }
        })
    }
}

/// `#rrggbb`.
fn hex_colour(s: &str) -> Option<(u8, u8, u8)> {
    if !s.starts_with('#') || s.len() != 7 {
        return None;
    }
    let byte = |range| u8::from_str_radix(s.get(range)?, 16).ok();
    Some((byte(1..3)?, byte(3..5)?, byte(5..7)?))
}

/// A text modifier by name.
#[derive(Deserialize)]
#[serde(try_from = "String")]
struct ModifierName(TextModifier);

impl TryFrom<String> for ModifierName {
    type Error = String;
    fn try_from(s: String) -> Result<ModifierName, String> {
        let name = s.trim().to_ascii_lowercase().replace('-', "_");
        let name = match name.as_str() {
            "underline" => "underlined",
            "reverse" => "reversed",
            "strikethrough" => "crossed_out",
            other => other,
        };
        MODIFIERS
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, m)| ModifierName(*m))
            .ok_or_else(|| {
                let names: Vec<&str> = MODIFIERS.iter().map(|(n, _)| *n).collect();
                format!("unknown modifier {s:?}; valid: {}", names.join(", "))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path() -> PathBuf {
        PathBuf::from("/cfg/findings/theme.toml")
    }

    fn parse_err(text: &str) -> String {
        ThemeFile::parse(&path(), text).unwrap_err()
    }

    #[test]
    fn file_errors_name_the_file_the_line_and_the_key() {
        let err = parse_err("base = \"light\"\n\n[styles]\nselectd = { fg = \"red\" }\n");
        assert!(err.contains("/cfg/findings/theme.toml"), "{err}");
        assert!(err.contains("line 4"), "{err}");
        assert!(err.contains("selectd"), "{err}");
        assert!(
            err.contains("severity_critical"),
            "{err}: the roles are listed"
        );

        let err =
            parse_err("[styles]\ntitle = { fg = \"red\" }\nselected = { bg = \"blurple\" }\n");
        assert!(err.contains("line 3"), "{err}");
        assert!(err.contains("styles.selected.bg"), "{err}");
        assert!(err.contains("blurple") && err.contains("#rrggbb"), "{err}");

        let err = parse_err("[styles]\nkey = { fg = 300 }\n");
        assert!(err.contains("line 2") && err.contains("300"), "{err}");
        let err = parse_err("[styles]\nkey = { fg = \"#12345\" }\n");
        assert!(err.contains("line 2") && err.contains("#12345"), "{err}");

        let err = parse_err("[styles]\n\nerror = { modifiers = [\"bold\", \"blinky\"] }\n");
        assert!(err.contains("line 3"), "{err}");
        assert!(err.contains("styles.error.modifiers"), "{err}");
        assert!(
            err.contains("blinky") && err.contains("crossed_out"),
            "{err}"
        );

        let err = parse_err("[styles]\nerror = { colour = \"red\" }\n");
        assert!(err.contains("line 2") && err.contains("colour"), "{err}");

        let err = parse_err("base = \"solarized\"\n");
        assert!(err.contains("line 1") && err.contains("key base"), "{err}");
        assert!(err.contains("high-contrast"), "{err}: valid names listed");

        let err = parse_err("bse = \"light\"\n");
        assert!(err.contains("line 1") && err.contains("bse"), "{err}");

        // A syntax error: the line and the key written on it.
        let err = parse_err("[styles]\nselected = { fg = }\n");
        assert!(err.contains("line 2, key styles.selected"), "{err}");

        let err = parse_err("[styles]\nerror = \"red\"\n");
        assert!(
            err.contains("line 2") && err.contains("fg = COLOUR"),
            "{err}"
        );
    }

    #[test]
    fn reading_a_missing_file_is_no_file() {
        let dir = std::env::temp_dir().join(format!("findings-theme-{}", std::process::id()));
        assert_eq!(ThemeFile::read(&dir.join("none.toml")), Ok(None));
    }
}
