//! Colours and text styles, by role. Every view draws through the role
//! methods ([`Theme::title`], [`Theme::dim`], [`Theme::selected`] ...), so a
//! theme is one table of styles and nothing else hard-codes a colour.
//!
//! Built-in themes: `default` (the terminal's own named colours, which read
//! on dark and light backgrounds alike), `dark` and `light` (256-colour
//! palettes tuned for one kind of background) and `high-contrast` (bright
//! colours, bold, reverse video for the selection, underline where colour
//! would carry meaning). A user theme file (TOML) names a base and replaces
//! the styles of some roles. `NO_COLOR` wins over all of them: no colour at
//! all, only bold, dim, italic, reverse and underline, chosen so that the
//! severities still differ.

use crate::api::model::Severity;
use ratatui::style::{Color, Modifier, Style};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// The built-in themes' names, as `--theme`, `FINDINGS_THEME`, `theme =`
/// and a theme file's `base =` take them.
pub const NAMES: [&str; 4] = ["default", "dark", "light", "high-contrast"];

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

const ROLES: usize = 16;

impl Role {
    pub const ALL: [Role; ROLES] = [
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

/// A built-in palette, or the one `NO_COLOR` imposes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Palette {
    Default,
    Dark,
    Light,
    HighContrast,
    NoColor,
}

impl Palette {
    fn named(name: &str) -> Result<Palette, String> {
        match name.trim().to_ascii_lowercase().replace('_', "-").as_str() {
            "default" => Ok(Palette::Default),
            "dark" => Ok(Palette::Dark),
            "light" => Ok(Palette::Light),
            "high-contrast" => Ok(Palette::HighContrast),
            _ => Err(format!(
                "unknown theme {name:?}; valid: {}",
                NAMES.join(", ")
            )),
        }
    }

    fn style(self, role: Role) -> Style {
        match self {
            Palette::Default => default_style(role),
            Palette::Dark => dark_style(role),
            Palette::Light => light_style(role),
            Palette::HighContrast => high_contrast_style(role),
            Palette::NoColor => no_color_style(role),
        }
    }
}

/// Checks a theme name (a built-in); the error lists the valid ones.
pub fn check_name(name: &str) -> Result<(), String> {
    Palette::named(name).map(|_| ())
}

const BOLD: Modifier = Modifier::BOLD;
const DIM: Modifier = Modifier::DIM;
const UNDERLINED: Modifier = Modifier::UNDERLINED;
const REVERSED: Modifier = Modifier::REVERSED;

fn fg(c: Color) -> Style {
    Style::new().fg(c)
}

fn on(fg: Color, bg: Color) -> Style {
    Style::new().fg(fg).bg(bg)
}

fn plain() -> Style {
    Style::new()
}

fn with(m: Modifier) -> Style {
    Style::new().add_modifier(m)
}

/// The terminal's own named colours: what its palette makes of them reads
/// on its background, dark or light. Black or white text only on a
/// background of ours.
fn default_style(role: Role) -> Style {
    match role {
        Role::Title => with(BOLD),
        Role::Dim => fg(Color::DarkGray),
        Role::Selected => with(REVERSED),
        Role::HeaderRow => with(BOLD | UNDERLINED),
        Role::Key => fg(Color::Cyan).add_modifier(BOLD),
        Role::Accent => fg(Color::Cyan),
        Role::Badge => on(Color::Black, Color::Yellow).add_modifier(BOLD),
        Role::Error => fg(Color::Red).add_modifier(BOLD),
        Role::Ok | Role::Added => fg(Color::Green),
        Role::Removed => fg(Color::Red),
        Role::SeverityCritical => fg(Color::Magenta).add_modifier(BOLD),
        Role::SeverityHigh => fg(Color::Red).add_modifier(BOLD),
        Role::SeverityMedium => fg(Color::Yellow),
        Role::SeverityLow => fg(Color::Blue),
        Role::SeverityInfo => fg(Color::DarkGray),
    }
}

/// For dark backgrounds: light, soft 256-colour tones; the selection a grey
/// band with white text.
fn dark_style(role: Role) -> Style {
    let c = Color::Indexed;
    match role {
        Role::Title => fg(c(189)).add_modifier(BOLD),
        Role::Dim => fg(c(245)),
        Role::Selected => on(c(231), c(238)),
        Role::HeaderRow => fg(c(252)).add_modifier(BOLD | UNDERLINED),
        Role::Key => fg(c(81)).add_modifier(BOLD),
        Role::Accent => fg(c(117)),
        Role::Badge => on(c(16), c(214)).add_modifier(BOLD),
        Role::Error => fg(c(203)).add_modifier(BOLD),
        Role::Ok | Role::Added => fg(c(114)),
        Role::Removed => fg(c(210)),
        Role::SeverityCritical => fg(c(213)).add_modifier(BOLD),
        Role::SeverityHigh => fg(c(203)).add_modifier(BOLD),
        Role::SeverityMedium => fg(c(221)),
        Role::SeverityLow => fg(c(111)),
        Role::SeverityInfo => fg(c(246)),
    }
}

/// For light backgrounds: dark tones (no yellow text: medium is a brown
/// orange), a grey for secondary text that still reads (#6c6c6c), the
/// selection a light-blue band with black text.
fn light_style(role: Role) -> Style {
    let c = Color::Indexed;
    match role {
        Role::Title => fg(c(18)).add_modifier(BOLD),
        Role::Dim => fg(c(242)),
        Role::Selected => on(c(16), c(153)),
        Role::HeaderRow => fg(c(236)).add_modifier(BOLD | UNDERLINED),
        Role::Key => fg(c(25)).add_modifier(BOLD),
        Role::Accent => fg(c(24)),
        Role::Badge => on(c(16), c(220)).add_modifier(BOLD),
        Role::Error => fg(c(160)).add_modifier(BOLD),
        Role::Ok | Role::Added => fg(c(28)),
        Role::Removed => fg(c(160)),
        Role::SeverityCritical => fg(c(125)).add_modifier(BOLD),
        Role::SeverityHigh => fg(c(160)).add_modifier(BOLD),
        Role::SeverityMedium => fg(c(130)),
        Role::SeverityLow => fg(c(25)),
        Role::SeverityInfo => fg(c(242)),
    }
}

/// Bright colours, bold, reverse video for the selection, underline where
/// colour would otherwise carry the meaning (errors, critical); nothing
/// dimmed.
fn high_contrast_style(role: Role) -> Style {
    match role {
        Role::Title => with(BOLD),
        Role::Dim => plain(),
        Role::Selected => with(REVERSED | BOLD),
        Role::HeaderRow => with(BOLD | UNDERLINED),
        Role::Key => fg(Color::LightCyan).add_modifier(BOLD),
        Role::Accent => fg(Color::LightCyan),
        Role::Badge => on(Color::Black, Color::LightYellow).add_modifier(BOLD),
        Role::Error => fg(Color::LightRed).add_modifier(BOLD | UNDERLINED),
        Role::Ok | Role::Added => fg(Color::LightGreen).add_modifier(BOLD),
        Role::Removed => fg(Color::LightRed).add_modifier(BOLD),
        Role::SeverityCritical => fg(Color::LightMagenta).add_modifier(BOLD | UNDERLINED),
        Role::SeverityHigh => fg(Color::LightRed).add_modifier(BOLD),
        Role::SeverityMedium => fg(Color::LightYellow),
        Role::SeverityLow => fg(Color::LightBlue),
        Role::SeverityInfo => plain(),
    }
}

/// `NO_COLOR`: modifiers only. The severities stay apart without colour:
/// critical bold and underlined, high bold, medium plain, low dim, info dim
/// and italic.
fn no_color_style(role: Role) -> Style {
    match role {
        Role::Title | Role::Key | Role::Error => with(BOLD),
        Role::Dim => with(DIM),
        Role::Selected => with(REVERSED),
        Role::HeaderRow => with(BOLD | UNDERLINED),
        Role::Badge => with(REVERSED | BOLD),
        Role::Accent | Role::Ok | Role::Added | Role::Removed => plain(),
        Role::SeverityCritical => with(BOLD | UNDERLINED),
        Role::SeverityHigh => with(BOLD),
        Role::SeverityMedium => plain(),
        Role::SeverityLow => with(DIM),
        Role::SeverityInfo => with(DIM | Modifier::ITALIC),
    }
}

/// The styles in force: a built-in, perhaps with a user file's styles over
/// it, or the colourless set of `NO_COLOR`.
#[derive(Debug, Clone, PartialEq)]
pub struct Theme {
    name: String,
    color: bool,
    styles: [Style; ROLES],
}

impl Default for Theme {
    /// The `default` theme, in colour (what tests draw with).
    fn default() -> Self {
        Theme::from_palette("default", Palette::Default)
    }
}

impl Theme {
    fn from_palette(name: &str, palette: Palette) -> Theme {
        Theme {
            name: name.to_owned(),
            color: palette != Palette::NoColor,
            styles: Role::ALL.map(|r| palette.style(r)),
        }
    }

    /// A built-in theme by name.
    pub fn builtin(name: &str) -> Result<Theme, String> {
        let palette = Palette::named(name)?;
        Ok(Theme::from_palette(NAMES[palette as usize], palette))
    }

    /// What `NO_COLOR` gives: no colour at all.
    pub fn no_color() -> Theme {
        Theme::from_palette("no-color", Palette::NoColor)
    }

    /// The theme named `name`, with `file`'s styles over it; with
    /// `no_color`, the colourless set whatever the name and the file say
    /// (both are still checked).
    pub fn new(name: &str, file: Option<&ThemeFile>, no_color: bool) -> Result<Theme, String> {
        let mut theme = Theme::builtin(name)?;
        if no_color {
            return Ok(Theme::no_color());
        }
        if let Some(file) = file.filter(|f| !f.styles.is_empty()) {
            for (role, style) in &file.styles {
                theme.styles[*role as usize] = *style;
            }
            theme.name = format!("{} + {}", theme.name, file.path.display());
        }
        Ok(theme)
    }

    /// The built-in's name (with the theme file's path when it changed
    /// styles), or `no-color`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// False under `NO_COLOR`.
    pub fn is_color(&self) -> bool {
        self.color
    }

    pub fn style(&self, role: Role) -> Style {
        self.styles[role as usize]
    }

    pub fn title(&self) -> Style {
        self.style(Role::Title)
    }

    pub fn dim(&self) -> Style {
        self.style(Role::Dim)
    }

    pub fn selected(&self) -> Style {
        self.style(Role::Selected)
    }

    pub fn header_row(&self) -> Style {
        self.style(Role::HeaderRow)
    }

    pub fn key(&self) -> Style {
        self.style(Role::Key)
    }

    pub fn accent(&self) -> Style {
        self.style(Role::Accent)
    }

    pub fn badge(&self) -> Style {
        self.style(Role::Badge)
    }

    pub fn error(&self) -> Style {
        self.style(Role::Error)
    }

    pub fn ok(&self) -> Style {
        self.style(Role::Ok)
    }

    pub fn added(&self) -> Style {
        self.style(Role::Added)
    }

    pub fn removed(&self) -> Style {
        self.style(Role::Removed)
    }

    pub fn severity(&self, s: Option<&Severity>) -> Style {
        self.style(match s {
            Some(Severity::Critical) => Role::SeverityCritical,
            Some(Severity::High) => Role::SeverityHigh,
            Some(Severity::Medium) => Role::SeverityMedium,
            Some(Severity::Low) => Role::SeverityLow,
            _ => Role::SeverityInfo,
        })
    }
}

// ---------------------------------------------------------------------------
// The user's theme file
// ---------------------------------------------------------------------------

/// A user theme file, checked:
///
/// ```toml
/// base = "light"                 # used when nothing else picks a theme
/// [styles]
/// selected = { fg = "black", bg = "#ffd700", modifiers = ["bold"] }
/// severity_medium = { fg = 130 }
/// ```
///
/// A role's style is replaced as a whole by what the file says.
#[derive(Debug, Clone, PartialEq)]
pub struct ThemeFile {
    pub path: PathBuf,
    /// The built-in the file names with `base =`.
    pub base: Option<String>,
    styles: Vec<(Role, Style)>,
}

impl ThemeFile {
    /// Reads and checks the file; `Ok(None)` when there is none.
    pub fn read(path: &Path) -> Result<Option<ThemeFile>, String> {
        let bytes = match std::fs::read(path) {
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
        let raw: RawFile = crate::config::toml_error::parse("theme file", path, text)?;
        Ok(ThemeFile {
            path: path.to_owned(),
            base: raw.base.map(|b| b.0),
            styles: raw
                .styles
                .into_iter()
                .map(|(role, spec)| (role.0, spec.0))
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
        let palette = Palette::named(&s)?;
        Ok(BaseName(NAMES[palette as usize].to_owned()))
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

/// `{ fg = COLOUR, bg = COLOUR, modifiers = [NAME, ...] }`.
#[derive(Deserialize)]
#[serde(try_from = "RawStyle")]
struct StyleSpec(Style);

#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a style: { fg = COLOUR, bg = COLOUR, modifiers = [NAME, ...] }"
)]
struct RawStyle {
    fg: Option<ColorSpec>,
    bg: Option<ColorSpec>,
    #[serde(default)]
    modifiers: Vec<ModifierName>,
}

impl TryFrom<RawStyle> for StyleSpec {
    type Error = String;
    fn try_from(raw: RawStyle) -> Result<StyleSpec, String> {
        let mut style = Style::new();
        if let Some(c) = raw.fg {
            style = style.fg(c.0);
        }
        if let Some(c) = raw.bg {
            style = style.bg(c.0);
        }
        for m in raw.modifiers {
            style = style.add_modifier(m.0);
        }
        Ok(StyleSpec(style))
    }
}

/// A colour: a name (`red`, `light-blue`, `dark-gray`, `reset` ...),
/// `#rrggbb`, or a 256-colour index (0-255, as a number or a string).
struct ColorSpec(Color);

const COLOR_HELP: &str = "use a name (black, red, green, yellow, blue, magenta, cyan, gray, dark-gray, light-red, light-green, light-yellow, light-blue, light-magenta, light-cyan, white, reset), #rrggbb, or an index 0-255";

impl<'de> Deserialize<'de> for ColorSpec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = ColorSpec;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a colour: a name, \"#rrggbb\" or an index 0-255")
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<ColorSpec, E> {
                u8::try_from(v)
                    .map(|i| ColorSpec(Color::Indexed(i)))
                    .map_err(|_| E::custom(format!("bad colour {v}: {COLOR_HELP}")))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<ColorSpec, E> {
                u8::try_from(v)
                    .map(|i| ColorSpec(Color::Indexed(i)))
                    .map_err(|_| E::custom(format!("bad colour {v}: {COLOR_HELP}")))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<ColorSpec, E> {
                let t = v.trim();
                // `Color::from_str` would take "" and odd spellings of
                // index numbers; only what the help names is accepted.
                if t.is_empty() || (t.starts_with('#') && t.len() != 7) {
                    return Err(E::custom(format!("bad colour {v:?}: {COLOR_HELP}")));
                }
                Color::from_str(t)
                    .map(ColorSpec)
                    .map_err(|_| E::custom(format!("bad colour {v:?}: {COLOR_HELP}")))
            }
        }
        d.deserialize_any(V)
    }
}

/// A text modifier by name.
#[derive(Deserialize)]
#[serde(try_from = "String")]
struct ModifierName(Modifier);

const MODIFIERS: [(&str, Modifier); 9] = [
    ("bold", Modifier::BOLD),
    ("dim", Modifier::DIM),
    ("italic", Modifier::ITALIC),
    ("underlined", Modifier::UNDERLINED),
    ("reversed", Modifier::REVERSED),
    ("crossed_out", Modifier::CROSSED_OUT),
    ("slow_blink", Modifier::SLOW_BLINK),
    ("rapid_blink", Modifier::RAPID_BLINK),
    ("hidden", Modifier::HIDDEN),
];

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
    use crate::api::model::{IssueItem, ListIssuesResponse};
    use crate::tui::app::{App, Effect, Msg, Session};
    use crate::tui::keymap::Keymap;
    use crate::tui::worker::{ApiRequest, ApiResponse, Reply};
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    const SEVERITIES: [Severity; 5] = [
        Severity::Critical,
        Severity::High,
        Severity::Medium,
        Severity::Low,
        Severity::Info,
    ];

    fn path() -> PathBuf {
        PathBuf::from("/cfg/findings/theme.toml")
    }

    fn parse_err(text: &str) -> String {
        ThemeFile::parse(&path(), text).unwrap_err()
    }

    /// Only modifiers: no foreground, background or underline colour.
    fn colourless(s: Style) -> bool {
        s == Style::new()
            .add_modifier(s.add_modifier)
            .remove_modifier(s.sub_modifier)
    }

    #[test]
    fn each_built_in_keeps_the_severities_apart() {
        let mut themes: Vec<Theme> = NAMES.iter().map(|n| Theme::builtin(n).unwrap()).collect();
        themes.push(Theme::no_color());
        for theme in &themes {
            let styles: Vec<Style> = SEVERITIES.iter().map(|s| theme.severity(Some(s))).collect();
            for (i, a) in styles.iter().enumerate() {
                for (j, b) in styles.iter().enumerate().skip(i + 1) {
                    assert_ne!(
                        a,
                        b,
                        "{}: {} and {} look the same",
                        theme.name(),
                        SEVERITIES[i].label(),
                        SEVERITIES[j].label()
                    );
                }
            }
            // Unknown and missing severities look like info.
            assert_eq!(theme.severity(None), theme.severity(Some(&Severity::Info)));
            // The selection stands out from a plain row.
            assert_ne!(theme.selected(), Style::new(), "{}", theme.name());
        }
        // The themes differ from each other.
        for (i, a) in themes.iter().enumerate() {
            for b in themes.iter().skip(i + 1) {
                assert_ne!(a.styles, b.styles, "{} = {}", a.name(), b.name());
            }
        }
    }

    #[test]
    fn without_colour_the_severities_differ_by_weight() {
        let t = Theme::no_color();
        let critical = t.severity(Some(&Severity::Critical)).add_modifier;
        let high = t.severity(Some(&Severity::High)).add_modifier;
        let low = t.severity(Some(&Severity::Low)).add_modifier;
        assert!(critical.contains(Modifier::BOLD) && high.contains(Modifier::BOLD));
        assert!(low.contains(Modifier::DIM));
        assert!(t.selected().add_modifier.contains(Modifier::REVERSED));
    }

    #[test]
    fn no_color_wins_over_every_theme_and_the_file() {
        let file = ThemeFile::parse(
            &path(),
            "[styles]\nselected = { fg = \"black\", bg = \"#ffd700\", modifiers = [\"bold\"] }\ndim = { fg = 242 }\n",
        )
        .unwrap();
        for name in NAMES {
            for file in [None, Some(&file)] {
                let theme = Theme::new(name, file, true).unwrap();
                assert!(!theme.is_color());
                for role in Role::ALL {
                    let s = theme.style(role);
                    assert!(colourless(s), "{name} {}: {s:?}", role.name());
                }
                for s in SEVERITIES {
                    assert!(colourless(theme.severity(Some(&s))));
                }
            }
        }
        // The name is still checked.
        assert!(Theme::new("solarized", None, true).is_err());
    }

    #[test]
    fn the_light_theme_has_no_yellow_or_white_text() {
        let light = Theme::builtin("light").unwrap();
        for role in Role::ALL {
            let s = light.style(role);
            if s.bg.is_none() {
                assert!(
                    !matches!(
                        s.fg,
                        Some(
                            Color::Yellow
                                | Color::LightYellow
                                | Color::White
                                | Color::Gray
                                | Color::Indexed(220 | 226 | 227 | 228 | 229 | 230 | 231)
                        )
                    ),
                    "{}: {s:?}",
                    role.name()
                );
            }
        }
        // The default theme never sets black or white text without its own
        // background (the terminal's background may be either).
        let default = Theme::default();
        for role in Role::ALL {
            let s = default.style(role);
            if matches!(s.fg, Some(Color::Black | Color::White)) {
                assert!(s.bg.is_some(), "{}: {s:?}", role.name());
            }
        }
    }

    #[test]
    fn a_file_overrides_roles_over_its_base() {
        let text = r##"base = "light"

[styles]
selected = { fg = "black", bg = "#ffd700", modifiers = ["bold"] }
severity_low = { fg = 27, modifiers = ["underline", "Italic"] }
dim = {}
"##;
        let file = ThemeFile::parse(&path(), text).unwrap();
        assert_eq!(file.base.as_deref(), Some("light"));
        assert_eq!(
            file.roles(),
            vec![Role::Dim, Role::Selected, Role::SeverityLow]
        );
        let theme = Theme::new("light", Some(&file), false).unwrap();
        assert_eq!(
            theme.selected(),
            Style::new()
                .fg(Color::Black)
                .bg(Color::Rgb(0xff, 0xd7, 0x00))
                .add_modifier(Modifier::BOLD)
        );
        assert_eq!(
            theme.severity(Some(&Severity::Low)),
            Style::new()
                .fg(Color::Indexed(27))
                .add_modifier(Modifier::UNDERLINED | Modifier::ITALIC)
        );
        assert_eq!(theme.dim(), Style::new(), "a role is replaced as a whole");
        let light = Theme::builtin("light").unwrap();
        assert_eq!(theme.error(), light.error(), "other roles keep the base");
        assert!(theme.name().starts_with("light + "), "{}", theme.name());
        // The same file over another theme changes the same roles only.
        let dark = Theme::new("dark", Some(&file), false).unwrap();
        assert_eq!(dark.selected(), theme.selected());
        assert_eq!(dark.error(), Theme::builtin("dark").unwrap().error());
        // A file without styles leaves the theme as it is.
        let empty = ThemeFile::parse(&path(), "base = \"dark\"\n").unwrap();
        assert_eq!(
            Theme::new("dark", Some(&empty), false).unwrap(),
            Theme::builtin("dark").unwrap()
        );
    }

    #[test]
    fn colour_names_indexes_and_hex_are_taken() {
        let text = "[styles]\ntitle = { fg = \"light-blue\", bg = \"Dark Gray\" }\nkey = { fg = \"200\" }\naccent = { fg = \"#00AF5f\" }\nok = { fg = \"reset\" }\n";
        let t = Theme::new(
            "default",
            Some(&ThemeFile::parse(&path(), text).unwrap()),
            false,
        )
        .unwrap();
        assert_eq!(
            t.title(),
            Style::new().fg(Color::LightBlue).bg(Color::DarkGray)
        );
        assert_eq!(t.key(), Style::new().fg(Color::Indexed(200)));
        assert_eq!(t.accent(), Style::new().fg(Color::Rgb(0, 0xaf, 0x5f)));
        assert_eq!(t.ok(), Style::new().fg(Color::Reset));
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
    fn an_unknown_theme_name_lists_the_valid_ones() {
        let err = Theme::builtin("solarized").unwrap_err();
        assert!(err.contains("\"solarized\""), "{err}");
        for name in NAMES {
            assert!(err.contains(name), "{err}");
            assert!(check_name(name).is_ok());
        }
        assert_eq!(Theme::builtin(" Light ").unwrap().name(), "light");
        assert_eq!(
            Theme::builtin("high_contrast").unwrap().name(),
            "high-contrast"
        );
        assert!(Theme::new("nope", None, false).is_err());
    }

    #[test]
    fn reading_a_missing_file_is_no_file() {
        let dir = std::env::temp_dir().join(format!("findings-theme-{}", std::process::id()));
        assert_eq!(ThemeFile::read(&dir.join("none.toml")), Ok(None));
    }

    // ---- drawn ----

    fn issue(n: usize, severity: Severity) -> IssueItem {
        IssueItem {
            issue: Some(crate::api::model::Issue {
                id: Some(format!("f{n}")),
                severity: Some(severity),
                rule_id: Some(format!("rule-{n}")),
                file_path: Some(format!("src/file{n}.rs")),
                line: Some(n as i64 + 1),
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    /// The Issues pane with five findings, one of each severity, drawn.
    fn draw_issues(theme: Theme) -> ratatui::buffer::Buffer {
        let (w, h) = (120, 35);
        let mut app = App::new(Session::default(), Keymap::default_keymap(), theme, (w, h));
        let id = app
            .start()
            .into_iter()
            .find_map(|e| match e {
                Effect::Send {
                    id,
                    request: ApiRequest::ListRows(_),
                } => Some(id),
                _ => None,
            })
            .expect("the first page is asked for");
        let issues = SEVERITIES
            .iter()
            .enumerate()
            .map(|(n, s)| issue(n, s.clone()))
            .collect();
        app.update(Msg::Reply(Reply {
            id,
            result: Ok(ApiResponse::ListIssues(ListIssuesResponse {
                issues,
                cursor: None,
            })),
        }));
        let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
        terminal.draw(|f| crate::tui::view::draw(f, &app)).unwrap();
        terminal.backend().buffer().clone()
    }

    fn row_text(buf: &ratatui::buffer::Buffer, y: u16) -> String {
        (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect()
    }

    /// The row showing `needle`, and the column where it starts.
    fn find(buf: &ratatui::buffer::Buffer, needle: &str) -> (u16, u16) {
        (0..buf.area.height)
            .find_map(|y| {
                let text = row_text(buf, y);
                text.find(needle).map(|byte| {
                    let x = text[..byte].chars().count() as u16;
                    (x, y)
                })
            })
            .unwrap_or_else(|| panic!("{needle:?} is not on the screen"))
    }

    #[test]
    fn the_issues_pane_draws_with_the_light_palette() {
        let light = Theme::builtin("light").unwrap();
        let buf = draw_issues(light.clone());
        // The first row is selected: the light selection's band.
        let (x, y) = find(&buf, "rule-0");
        let cell = &buf[(x, y)];
        assert_eq!(cell.bg, light.selected().bg.unwrap(), "{cell:?}");
        assert_eq!(cell.fg, light.selected().fg.unwrap(), "{cell:?}");
        assert_eq!(light.selected().bg, Some(Color::Indexed(153)));
        // A row further down: its severity cell in the light colour.
        let (_, y) = find(&buf, "rule-1");
        let (x, _) = find(&buf, "SEVERITY");
        let sev = &buf[(x, y)];
        assert!(row_text(&buf, y).contains("high"));
        assert_eq!(sev.symbol(), "h");
        assert_eq!(
            Some(sev.fg),
            light.severity(Some(&Severity::High)).fg,
            "{sev:?}"
        );
        assert_eq!(sev.fg, Color::Indexed(160));
        assert_ne!(
            Some(sev.fg),
            Theme::default().severity(Some(&Severity::High)).fg
        );
        assert!(sev.modifier.contains(Modifier::BOLD));
    }

    #[test]
    fn under_no_color_nothing_on_screen_has_a_colour() {
        for name in NAMES {
            let buf = draw_issues(Theme::new(name, None, true).unwrap());
            for y in 0..buf.area.height {
                for x in 0..buf.area.width {
                    let c = &buf[(x, y)];
                    assert!(
                        c.fg == Color::Reset && c.bg == Color::Reset,
                        "{name}: ({x},{y}) {c:?}"
                    );
                }
            }
            // The severities are there as words, told apart by weight.
            let (col, _) = find(&buf, "SEVERITY");
            for (n, s) in SEVERITIES.iter().enumerate() {
                let (_, y) = find(&buf, &format!("rule-{n}"));
                assert!(row_text(&buf, y).contains(s.label()), "{}", s.label());
                let cell = &buf[(col, y)];
                let expected = Theme::no_color().severity(Some(s)).add_modifier;
                assert!(
                    cell.modifier.contains(expected),
                    "{}: {:?}",
                    s.label(),
                    cell.modifier
                );
            }
            // The selected row is reversed.
            let (x, y) = find(&buf, "rule-0");
            assert!(buf[(x, y)].modifier.contains(Modifier::REVERSED));
        }
    }
}
