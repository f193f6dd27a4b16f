//! The built-in themes, a theme file's styles over them, `NO_COLOR`, and
//! the Issues pane drawn with them.

use super::*;
use crate::app::{App, Effect, Msg, Session};
use crate::keymap::Keymap;
use crate::message::{ApiRequest, ApiResponse, Reply};
use findings_config::theme_file::check_name;
use findings_model::{IssueItem, ListIssuesResponse};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::path::PathBuf;

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

// ---- drawn ----

fn issue(n: usize, severity: Severity) -> IssueItem {
    IssueItem {
        issue: Some(findings_model::Issue {
            id: Some(format!("f{n}")),
            severity: Some(severity),
            rule_id: Some(format!("rule-{n}")),
            file_path: Some(format!("src/file{n}.rs")),
            line: Some(i64::try_from(n).unwrap() + 1),
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
    terminal.draw(|f| crate::app::view::draw(f, &app)).unwrap();
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
                let x = u16::try_from(text[..byte].chars().count()).unwrap();
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

/// A colour name reads as ratatui reads it, so theme files written for
/// `Color::from_str` keep their meaning.
#[test]
fn colour_names_read_as_ratatui_reads_them() {
    use std::str::FromStr;
    for name in [
        "black",
        "Dark Gray",
        "dark_grey",
        "bright-red",
        "LightBlue",
        "silver",
        "light-black",
        "light-white",
        "light-gray",
        "reset",
        "white",
        "0",
        "255",
        "#00af5f",
        "#FFD700",
    ] {
        let text = format!("[styles]\ntitle = {{ fg = {name:?} }}\n");
        let file = ThemeFile::parse(&path(), &text).unwrap_or_else(|e| panic!("{e}"));
        let theme = Theme::new("default", Some(&file), false).unwrap();
        assert_eq!(theme.title().fg, Color::from_str(name).ok(), "{name}");
    }
}

/// The theme the settings choose: the file's styles over the named
/// built-in, `NO_COLOR` over both.
#[test]
fn the_chosen_theme_puts_the_files_styles_over_the_named_one() {
    use findings_config::{CommandLine, Given, Source, effective};
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(
        dir.path().join("theme.toml"),
        "base = \"light\"\n[styles]\nselected = { fg = \"black\", bg = \"#ffd700\" }\n",
    )
    .unwrap();
    let gold = Style::new().fg(Color::Black).bg(Color::Rgb(255, 215, 0));
    let e = effective(CommandLine::default(), None, config.clone(), None).unwrap();
    let theme = Theme::chosen(&e.theme_choice(false).unwrap());
    assert_eq!(theme.selected(), gold);
    let light = Theme::builtin("light").unwrap();
    assert_eq!(theme.error(), light.error());

    let cli = CommandLine {
        theme: Some(Given::new("dark".to_owned(), Source::Flag("--theme"))),
        ..Default::default()
    };
    let e = effective(cli, None, config, None).unwrap();
    let theme = Theme::chosen(&e.theme_choice(false).unwrap());
    assert_eq!(theme.selected(), gold);
    assert_eq!(theme.error(), Theme::builtin("dark").unwrap().error());
    let theme = Theme::chosen(&e.theme_choice(true).unwrap());
    assert!(!theme.is_color());
    assert_eq!(theme.selected(), Theme::no_color().selected());
}
