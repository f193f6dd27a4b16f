//! Colours and text styles, by role. Every view draws through the role
//! methods ([`Theme::title`], [`Theme::dim`], [`Theme::selected`] ...), so a
//! theme is one table of styles and nothing else hard-codes a colour.
//!
//! Built-in themes: `default` (the terminal's own named colours, which read
//! on dark and light backgrounds alike), `dark` and `light` (256-colour
//! palettes tuned for one kind of background) and `high-contrast` (bright
//! colours, bold, reverse video for the selection, underline where colour
//! would carry meaning). A user theme file (TOML, read by
//! `config::theme_file`) names a base and replaces the styles of some roles.
//! `NO_COLOR` wins over all of them: no colour at all, only bold, dim,
//! italic, reverse and underline, chosen so that the severities still
//! differ.

use findings_config::ThemeChoice;
use findings_config::theme_file::{BuiltinTheme, Colour, StyleSpec, TextModifier};
pub use findings_config::theme_file::{Role, THEME_NAMES as NAMES, ThemeFile};
use findings_model::Severity;
use ratatui::style::{Color, Modifier, Style};

/// A built-in palette, or the one `NO_COLOR` imposes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Palette {
    Default,
    Dark,
    Light,
    HighContrast,
    NoColor,
}

impl From<BuiltinTheme> for Palette {
    fn from(theme: BuiltinTheme) -> Palette {
        match theme {
            BuiltinTheme::Default => Palette::Default,
            BuiltinTheme::Dark => Palette::Dark,
            BuiltinTheme::Light => Palette::Light,
            BuiltinTheme::HighContrast => Palette::HighContrast,
        }
    }
}

impl Palette {
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
    styles: [Style; Role::ALL.len()],
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
        let builtin = BuiltinTheme::named(name)?;
        Ok(Theme::from_palette(builtin.name(), builtin.into()))
    }

    /// What `NO_COLOR` gives: no colour at all.
    pub fn no_color() -> Theme {
        Theme::from_palette("no-color", Palette::NoColor)
    }

    /// The theme named `name`, with `file`'s styles over it; with
    /// `no_color`, the colourless set whatever the name and the file say
    /// (both are still checked).
    pub fn new(name: &str, file: Option<&ThemeFile>, no_color: bool) -> Result<Theme, String> {
        let builtin = BuiltinTheme::named(name)?;
        Ok(Theme::with_file(builtin, file, no_color))
    }

    /// The theme the settings chose (`config::Effective::theme_choice`).
    pub fn chosen(choice: &ThemeChoice) -> Theme {
        Theme::with_file(choice.builtin, choice.file.as_ref(), choice.no_color)
    }

    fn with_file(builtin: BuiltinTheme, file: Option<&ThemeFile>, no_color: bool) -> Theme {
        if no_color {
            return Theme::no_color();
        }
        let mut theme = Theme::from_palette(builtin.name(), builtin.into());
        if let Some(file) = file.filter(|f| !f.styles.is_empty()) {
            for (role, spec) in &file.styles {
                theme.styles[*role as usize] = style_of(spec);
            }
            theme.name = format!("{} + {}", theme.name, file.path.display());
        }
        theme
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

/// A theme file's style as the terminal draws it.
fn style_of(spec: &StyleSpec) -> Style {
    let mut style = Style::new();
    if let Some(c) = spec.fg {
        style = style.fg(color_of(c));
    }
    if let Some(c) = spec.bg {
        style = style.bg(color_of(c));
    }
    for m in &spec.modifiers {
        style = style.add_modifier(modifier_of(*m));
    }
    style
}

fn color_of(colour: Colour) -> Color {
    match colour {
        Colour::Reset => Color::Reset,
        Colour::Black => Color::Black,
        Colour::Red => Color::Red,
        Colour::Green => Color::Green,
        Colour::Yellow => Color::Yellow,
        Colour::Blue => Color::Blue,
        Colour::Magenta => Color::Magenta,
        Colour::Cyan => Color::Cyan,
        Colour::Gray => Color::Gray,
        Colour::DarkGray => Color::DarkGray,
        Colour::LightRed => Color::LightRed,
        Colour::LightGreen => Color::LightGreen,
        Colour::LightYellow => Color::LightYellow,
        Colour::LightBlue => Color::LightBlue,
        Colour::LightMagenta => Color::LightMagenta,
        Colour::LightCyan => Color::LightCyan,
        Colour::White => Color::White,
        Colour::Indexed(i) => Color::Indexed(i),
        Colour::Rgb(r, g, b) => Color::Rgb(r, g, b),
    }
}

fn modifier_of(modifier: TextModifier) -> Modifier {
    match modifier {
        TextModifier::Bold => Modifier::BOLD,
        TextModifier::Dim => Modifier::DIM,
        TextModifier::Italic => Modifier::ITALIC,
        TextModifier::Underlined => Modifier::UNDERLINED,
        TextModifier::Reversed => Modifier::REVERSED,
        TextModifier::CrossedOut => Modifier::CROSSED_OUT,
        TextModifier::SlowBlink => Modifier::SLOW_BLINK,
        TextModifier::RapidBlink => Modifier::RAPID_BLINK,
        TextModifier::Hidden => Modifier::HIDDEN,
    }
}

#[cfg(test)]
mod tests;
