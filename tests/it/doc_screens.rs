//! The screens in the README and the book are the app's own frames: each
//! shot below is drawn by the app on the demo data at its fixed date (the
//! test backend, as the snapshot tests draw), and must equal
//!
//! - the `text` block after its marker `<!-- screen: NAME -->` wherever the
//!   README or a page of the book shows it, and
//! - `docs/src/screens/NAME.svg`, the same frame in the colours of the
//!   default theme (what a terminal without `NO_COLOR` shows), or for a
//!   shot marked `no_color`, the frame as `NO_COLOR` draws it.
//!
//! `FINDINGS_BLESS=1 cargo test --test it doc_screens` writes them anew
//! (review the diff like code); without it a stale screen fails here.

use crate::common::{self, Harness};
use crossterm::event::KeyCode;
use findings_tui::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

/// A screen of the docs: its name, size and what is typed to reach it.
struct Shot {
    name: &'static str,
    size: (u16, u16),
    /// Drawn as under `NO_COLOR` (its page must say so), else in the
    /// default theme.
    no_color: bool,
    /// What is typed once the Issues pane has loaded.
    reach: fn(&mut Harness) -> std::pin::Pin<Box<dyn std::future::Future<Output = ()> + '_>>,
}

const SHOTS: &[Shot] = &[
    Shot {
        name: "issues-no-color",
        size: (100, 30),
        no_color: true,
        reach: |_| Box::pin(async {}),
    },
    Shot {
        name: "issues",
        size: (100, 30),
        no_color: false,
        reach: |_| Box::pin(async {}),
    },
    Shot {
        name: "issues-60x20",
        size: (60, 20),
        no_color: false,
        reach: |_| Box::pin(async {}),
    },
    Shot {
        name: "detail",
        size: (100, 30),
        no_color: false,
        reach: |h| {
            Box::pin(async move {
                h.keys(":filter issueTypes=sast");
                h.key(KeyCode::Enter);
                h.quiesce().await;
                h.key(KeyCode::Enter);
                h.quiesce().await;
            })
        },
    },
    Shot {
        name: "report",
        size: (100, 30),
        no_color: false,
        reach: |h| {
            Box::pin(async move {
                h.key(KeyCode::Char('1'));
                h.quiesce().await;
            })
        },
    },
    Shot {
        name: "report-activity",
        size: (100, 30),
        no_color: false,
        reach: |h| {
            Box::pin(async move {
                h.key(KeyCode::Char('1'));
                h.keys("pp");
                h.quiesce().await;
                h.key(KeyCode::Char('d'));
                h.quiesce().await;
            })
        },
    },
    Shot {
        name: "triage-review",
        size: (100, 30),
        no_color: false,
        reach: |h| {
            Box::pin(async move {
                // The first open finding, ignored as a false positive with
                // a note; Ctrl-s shows the review.
                h.select_first_open();
                h.draft_ignore_as_false_positive("dup of SEC-1");
                h.ctrl('s');
                h.quiesce().await;
            })
        },
    },
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn blessing() -> bool {
    std::env::var_os("FINDINGS_BLESS").is_some_and(|v| v == "1")
}

/// Every shot's frame, as text and as SVG.
async fn frames() -> BTreeMap<&'static str, (String, String)> {
    let mut out = BTreeMap::new();
    for shot in SHOTS {
        let (w, h) = shot.size;
        let mut app = Harness::anchored(2000, w, h).await;
        if !shot.no_color {
            app.app.theme = Theme::default();
        }
        app.start().await;
        app.quiesce().await;
        (shot.reach)(&mut app).await;
        let text = app.screen();
        common::drawn_whole(&text);
        let svg = svg(app.terminal.backend().buffer());
        out.insert(shot.name, (text, svg));
    }
    out
}

#[tokio::test(flavor = "multi_thread")]
async fn the_screens_of_the_docs_are_the_apps_own_frames() {
    let frames = frames().await;
    let bless = blessing();
    let mut stale = Vec::new();
    let mut shown = std::collections::BTreeSet::new();
    // The text blocks after each marker.
    for file in common::doc_pages() {
        let text = std::fs::read_to_string(&file).unwrap();
        let (fresh, names) =
            with_screens(&text, &frames).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        shown.extend(names);
        if fresh != text {
            if bless {
                std::fs::write(&file, fresh).unwrap();
            } else {
                stale.push(file.display().to_string());
            }
        }
    }
    // The pictures.
    let dir = root().join("docs/src/screens");
    for (name, (_, svg)) in &frames {
        let path = dir.join(format!("{name}.svg"));
        if std::fs::read_to_string(&path).ok().as_deref() != Some(svg.as_str()) {
            if bless {
                std::fs::create_dir_all(&dir).unwrap();
                std::fs::write(&path, svg).unwrap();
            } else {
                stale.push(path.display().to_string());
            }
        }
    }
    assert!(
        stale.is_empty(),
        "stale screens in {stale:?}: FINDINGS_BLESS=1 cargo test --test it doc_screens draws them anew"
    );
    assert!(shown.contains("issues"), "the README shows the Issues pane");
    // A picture no page shows (by its text or its SVG) is dead weight.
    let all_text: String = common::doc_pages()
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    for name in frames.keys() {
        assert!(
            shown.contains(name) || all_text.contains(&format!("screens/{name}.svg")),
            "no page shows the screen {name}"
        );
    }
    // A picture without colour is labelled as such where it is linked.
    for shot in SHOTS.iter().filter(|s| s.no_color) {
        let link = format!("screens/{}.svg", shot.name);
        for (at, _) in all_text.match_indices(&link) {
            let mut from = at.saturating_sub(200);
            while !all_text.is_char_boundary(from) {
                from -= 1;
            }
            let before = &all_text[from..at];
            assert!(
                before.contains("NO_COLOR"),
                "the link to {link} does not say it is the NO_COLOR rendering"
            );
        }
    }
}

const MARKER: &str = "<!-- screen: ";

/// `page` with the text block after each screen marker replaced by that
/// screen's frame, and the names of the screens it shows; an error for a
/// marker of no shot or with no text block after it.
fn with_screens<'a>(
    page: &str,
    frames: &'a BTreeMap<&'static str, (String, String)>,
) -> Result<(String, Vec<&'a str>), String> {
    let mut out = String::new();
    let mut names = Vec::new();
    let mut rest = page;
    while let Some(at) = rest.find(MARKER) {
        let after = &rest[at + MARKER.len()..];
        let name = after[..after.find(" -->").ok_or("a marker without its end")?].trim();
        let (key, (text, _)) = frames
            .get_key_value(name)
            .ok_or_else(|| format!("no shot is named {name:?}"))?;
        names.push(*key);
        let marker_end = at + MARKER.len() + after.find("-->").unwrap() + 3;
        let block = &rest[marker_end..];
        let open = "\n```text\n";
        if !block.starts_with(open) {
            return Err(format!(
                "the marker of {name} is not followed by a text block"
            ));
        }
        let body = &block[open.len()..];
        let close = body.find("```").ok_or("a text block without its end")?;
        out.push_str(&rest[..marker_end]);
        out.push_str(open);
        out.push_str(text);
        rest = &body[close..];
    }
    out.push_str(rest);
    Ok((out, names))
}

// The SVG of a frame: a cell is CELL_W × CELL_H pixels; each run of cells
// of one style is one `text` (its length fixed, so any monospace font
// keeps the columns), on a `rect` where it has a background.

const CELL_W: f32 = 8.4;
const CELL_H: f32 = 17.0;
const FONT: f32 = 14.0;
const BACKGROUND: &str = "#1c1c1c";
const FOREGROUND: &str = "#d0d0d0";

fn svg(buf: &Buffer) -> String {
    let (w, h) = (buf.area.width, buf.area.height);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{:.0}" height="{:.0}" viewBox="0 0 {:.1} {:.1}" font-family="'DejaVu Sans Mono', Menlo, Consolas, monospace" font-size="{FONT}">"#,
        f32::from(w) * CELL_W + 16.0,
        f32::from(h) * CELL_H + 16.0,
        f32::from(w) * CELL_W + 16.0,
        f32::from(h) * CELL_H + 16.0,
    );
    let _ = writeln!(
        out,
        r#"<rect width="100%" height="100%" rx="6" fill="{BACKGROUND}"/>"#
    );
    out.push_str("<g transform=\"translate(8 8)\" xml:space=\"preserve\">\n");
    for y in 0..h {
        let mut x = 0;
        while x < w {
            let style = cell_style(buf, x, y);
            let start = x;
            let mut run = String::new();
            while x < w && cell_style(buf, x, y) == style {
                run.push_str(buf[(x, y)].symbol());
                x += 1;
            }
            let cells = x - start;
            let (fg, bg) = style.colors();
            let (px, py) = (f32::from(start) * CELL_W, f32::from(y) * CELL_H);
            if let Some(bg) = bg {
                let _ = writeln!(
                    out,
                    r#"<rect x="{px:.1}" y="{py:.1}" width="{:.1}" height="{CELL_H:.1}" fill="{bg}"/>"#,
                    f32::from(cells) * CELL_W
                );
            }
            if run.trim().is_empty() {
                continue;
            }
            let mut attrs = format!(r#" fill="{fg}""#);
            if style.modifier.contains(Modifier::BOLD) {
                attrs.push_str(r#" font-weight="bold""#);
            }
            if style.modifier.contains(Modifier::ITALIC) {
                attrs.push_str(r#" font-style="italic""#);
            }
            if style.modifier.contains(Modifier::UNDERLINED) {
                attrs.push_str(r#" text-decoration="underline""#);
            }
            if style.modifier.contains(Modifier::DIM) {
                attrs.push_str(r#" opacity="0.6""#);
            }
            let _ = writeln!(
                out,
                r#"<text x="{px:.1}" y="{:.1}" textLength="{:.1}" lengthAdjust="spacingAndGlyphs"{attrs}>{}</text>"#,
                py + CELL_H * 0.78,
                f32::from(cells) * CELL_W,
                escape(&run)
            );
        }
    }
    out.push_str("</g>\n</svg>\n");
    out
}

/// What a cell's drawing depends on.
#[derive(Clone, Copy, PartialEq)]
struct CellStyle {
    fg: Color,
    bg: Color,
    modifier: Modifier,
}

impl CellStyle {
    /// The text's colour and the background's (`None`: the terminal's).
    fn colors(self) -> (String, Option<String>) {
        let (mut fg, mut bg) = (hex(self.fg), hex(self.bg));
        if self.modifier.contains(Modifier::REVERSED) {
            std::mem::swap(&mut fg, &mut bg);
            fg = fg.or(Some(BACKGROUND.to_owned()));
            bg = bg.or(Some(FOREGROUND.to_owned()));
        }
        (fg.unwrap_or_else(|| FOREGROUND.to_owned()), bg)
    }
}

fn cell_style(buf: &Buffer, x: u16, y: u16) -> CellStyle {
    let cell = &buf[(x, y)];
    CellStyle {
        fg: cell.fg,
        bg: cell.bg,
        modifier: cell.modifier,
    }
}

/// A colour as `#rrggbb` (a common dark terminal's palette for the 16
/// named ones), `None` for the terminal's own.
fn hex(color: Color) -> Option<String> {
    let named = |i: u8| -> (u8, u8, u8) {
        const PALETTE: [(u8, u8, u8); 16] = [
            (0x1c, 0x1c, 0x1c),
            (0xd7, 0x5f, 0x5f),
            (0x87, 0xaf, 0x5f),
            (0xd7, 0xaf, 0x5f),
            (0x5f, 0x87, 0xd7),
            (0xaf, 0x87, 0xd7),
            (0x5f, 0xaf, 0xaf),
            (0xbc, 0xbc, 0xbc),
            (0x6c, 0x6c, 0x6c),
            (0xff, 0x87, 0x87),
            (0xaf, 0xd7, 0x87),
            (0xff, 0xd7, 0x87),
            (0x87, 0xaf, 0xff),
            (0xd7, 0xaf, 0xff),
            (0x87, 0xd7, 0xd7),
            (0xee, 0xee, 0xee),
        ];
        PALETTE[usize::from(i)]
    };
    let (r, g, b) = match color {
        Color::Reset => return None,
        Color::Black => named(0),
        Color::Red => named(1),
        Color::Green => named(2),
        Color::Yellow => named(3),
        Color::Blue => named(4),
        Color::Magenta => named(5),
        Color::Cyan => named(6),
        Color::Gray => named(7),
        Color::DarkGray => named(8),
        Color::LightRed => named(9),
        Color::LightGreen => named(10),
        Color::LightYellow => named(11),
        Color::LightBlue => named(12),
        Color::LightMagenta => named(13),
        Color::LightCyan => named(14),
        Color::White => named(15),
        Color::Rgb(r, g, b) => (r, g, b),
        Color::Indexed(i) if i < 16 => named(i),
        // The 6×6×6 cube, then the 24 greys.
        Color::Indexed(i) if i < 232 => {
            let level = |v: u8| if v == 0 { 0 } else { 55 + 40 * v };
            let i = i - 16;
            (level(i / 36), level(i / 6 % 6), level(i % 6))
        }
        Color::Indexed(i) => {
            let v = 8 + 10 * (i - 232);
            (v, v, v)
        }
    };
    Some(format!("#{r:02x}{g:02x}{b:02x}"))
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

#[test]
fn a_marker_of_no_shot_or_without_its_block_is_an_error() {
    let mut frames = BTreeMap::new();
    frames.insert("issues", ("A\nB\n".to_owned(), String::new()));
    let page = "x\n<!-- screen: issues -->\n```text\nold\n```\ny\n";
    let (fresh, names) = with_screens(page, &frames).unwrap();
    assert_eq!(fresh, "x\n<!-- screen: issues -->\n```text\nA\nB\n```\ny\n");
    assert_eq!(names, ["issues"]);
    assert!(with_screens("<!-- screen: nope -->\n```text\n```\n", &frames).is_err());
    assert!(with_screens("<!-- screen: issues -->\nprose\n", &frames).is_err());
}

#[test]
fn the_svg_keeps_the_cells_text_and_colours() {
    use ratatui::layout::Rect;
    use ratatui::style::Style;
    let mut buf = Buffer::empty(Rect::new(0, 0, 6, 1));
    buf.set_string(0, 0, "a<b", Style::default().fg(Color::Red));
    buf.set_string(3, 0, "ok", Style::default().bg(Color::Rgb(1, 2, 3)));
    let svg = svg(&buf);
    assert!(svg.contains(r##"fill="#d75f5f">a&lt;b</text>"##), "{svg}");
    assert!(svg.contains(r##"fill="#010203"/>"##), "{svg}");
    assert!(svg.contains(">ok</text>"), "{svg}");
}
