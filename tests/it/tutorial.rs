//! The tutorial (`docs/src/tutorial.md`) is followed to the letter: each
//! step's keys, named in the page's `<!-- tutorial ... -->` markers, are
//! typed into the app at 80×24 on the demo data (the test backend, as the
//! screens of the book are drawn), and each text the page says you will see
//! is asserted on the frame. A step changed in the page is checked; a page
//! that drifts from the app fails here.
//!
//! A marker holds directives, one a line, done in order:
//!
//! - `press: KEYS`: keys separated by spaces: a character (`s`, `G`, `*`),
//!   or `Enter`, `Esc`, `Space`, `Tab`, `Up`, `Down`, `Left`, `Right`,
//!   `Ctrl-s`;
//! - `type: TEXT`: the rest of the line typed as it is;
//! - `see: TEXT`: once the app has settled, the frame shows TEXT, and so
//!   does the page's prose (what the reader is told to look for);
//! - `gone: TEXT`: the frame no longer shows TEXT;
//! - `quits: KEYS`: those keys end the app, asking nothing.
//!
//! `TUTORIAL_SHOW=1` prints the frame after each `press:`, for whoever
//! writes a step.

use crate::common::Harness;
use crossterm::event::KeyCode;

const PAGE: &str = include_str!("../../docs/src/tutorial.md");
const SUMMARY: &str = include_str!("../../docs/src/SUMMARY.md");
const README: &str = include_str!("../../README.md");
const MAX_WORDS: usize = 1_500;
const MARKER: &str = "<!-- tutorial";

#[derive(Debug, PartialEq)]
enum Directive {
    Press(Vec<Key>),
    Type(String),
    See(String),
    Gone(String),
    Quits(Vec<Key>),
}

#[derive(Debug, PartialEq, Clone, Copy)]
enum Key {
    Code(KeyCode),
    Ctrl(char),
}

fn key(name: &str) -> Result<Key, String> {
    let mut chars = name.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        return Ok(Key::Code(KeyCode::Char(c)));
    }
    if let Some(c) = name
        .strip_prefix("Ctrl-")
        .filter(|c| c.chars().count() == 1)
    {
        return Ok(Key::Ctrl(c.chars().next().unwrap_or_default()));
    }
    Ok(Key::Code(match name {
        "Enter" => KeyCode::Enter,
        "Esc" => KeyCode::Esc,
        "Space" => KeyCode::Char(' '),
        "Tab" => KeyCode::Tab,
        "Up" => KeyCode::Up,
        "Down" => KeyCode::Down,
        "Left" => KeyCode::Left,
        "Right" => KeyCode::Right,
        _ => return Err(format!("no key is named {name:?}")),
    }))
}

fn keys(names: &str) -> Result<Vec<Key>, String> {
    names.split_whitespace().map(key).collect()
}

/// Types `keys` as a terminal sends them (a capital with SHIFT).
fn press(h: &mut Harness, keys: &[Key]) {
    for key in keys {
        match *key {
            Key::Code(KeyCode::Char(c)) => h.keys(&c.to_string()),
            Key::Code(code) => h.key(code),
            Key::Ctrl(c) => h.ctrl(c),
        }
    }
}

/// The directives of every marker of `page`, in order.
fn directives(page: &str) -> Result<Vec<Directive>, String> {
    let mut out = Vec::new();
    let mut rest = page;
    while let Some(at) = rest.find(MARKER) {
        let body = &rest[at + MARKER.len()..];
        let end = body.find("-->").ok_or("a marker without its end")?;
        for line in body[..end].lines().map(str::trim).filter(|l| !l.is_empty()) {
            let (what, arg) = line
                .split_once(": ")
                .ok_or_else(|| format!("not a directive: {line:?}"))?;
            out.push(match what {
                "press" => Directive::Press(keys(arg)?),
                "type" => Directive::Type(arg.to_owned()),
                "see" => Directive::See(arg.to_owned()),
                "gone" => Directive::Gone(arg.to_owned()),
                "quits" => Directive::Quits(keys(arg)?),
                _ => return Err(format!("no directive is named {what:?}")),
            });
        }
        rest = &body[end + 3..];
    }
    Ok(out)
}

/// The page without its comments: what a reader reads.
fn prose(page: &str) -> String {
    let mut out = String::new();
    let mut rest = page;
    while let Some(at) = rest.find("<!--") {
        out.push_str(&rest[..at]);
        rest = rest[at..]
            .find("-->")
            .map_or("", |end| &rest[at + end + 3..]);
    }
    out.push_str(rest);
    out
}

/// `text` with each run of whitespace one space.
fn words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[tokio::test(flavor = "multi_thread")]
async fn the_tutorial_is_followed_to_the_letter_at_80x24() {
    let steps = directives(PAGE).unwrap_or_else(|e| panic!("docs/src/tutorial.md: {e}"));
    let prose = prose(PAGE);
    let mut h = Harness::anchored(2000, 80, 24).await;
    h.start().await;
    h.quiesce().await;
    let mut done = Vec::new();
    for step in &steps {
        match step {
            Directive::Press(keys) => {
                press(&mut h, keys);
                h.quiesce().await;
                if std::env::var_os("TUTORIAL_SHOW").is_some() {
                    eprintln!("{step:?}\n{}", h.screen());
                }
            }
            Directive::Type(text) => {
                h.keys(text);
                h.quiesce().await;
            }
            Directive::See(text) => {
                // Markdown wraps lines: a quote may break where it has a space.
                assert!(
                    words(&prose).contains(&words(text)),
                    "the page checks {text:?} but does not tell the reader so"
                );
                let screen = h.screen();
                assert!(
                    screen.contains(text.as_str()),
                    "after {done:?}\nthe tutorial says the screen shows {text:?}; it shows:\n{screen}"
                );
            }
            Directive::Quits(keys) => {
                press(&mut h, keys);
                assert!(
                    h.app.quit,
                    "after {done:?}\nthe tutorial says {keys:?} quits; the screen:\n{}",
                    h.screen()
                );
            }
            Directive::Gone(text) => {
                let screen = h.screen();
                assert!(
                    !screen.contains(text.as_str()),
                    "after {done:?}\nthe tutorial says {text:?} is gone; the screen:\n{screen}"
                );
            }
        }
        done.push(step);
    }
    assert!(
        steps
            .iter()
            .filter(|d| matches!(d, Directive::See(_)))
            .count()
            >= 10,
        "the tutorial checks what it says at each step"
    );
}

#[test]
fn the_tutorial_is_short_second_in_the_book_and_linked_from_the_readme() {
    let words = prose(PAGE).split_whitespace().count();
    assert!(
        words <= MAX_WORDS,
        "the tutorial has {words} words; at most {MAX_WORDS}"
    );
    let pages: Vec<&str> = SUMMARY
        .lines()
        .filter_map(|l| l.split_once("](")?.1.split_once(')'))
        .map(|(page, _)| page)
        .collect();
    assert_eq!(pages.get(1), Some(&"tutorial.md"), "{pages:?}");
    assert!(README.contains("(docs/src/tutorial.md)"));
}

#[test]
fn a_marker_reads_as_its_directives_and_a_wrong_one_is_an_error() {
    let page = "a\n<!-- tutorial\npress: s Ctrl-s Enter G\ntype: :filter x=y\nsee: sort ↓\ngone: Review\nquits: q\n-->\nb";
    assert_eq!(
        directives(page).unwrap(),
        [
            Directive::Press(vec![
                Key::Code(KeyCode::Char('s')),
                Key::Ctrl('s'),
                Key::Code(KeyCode::Enter),
                Key::Code(KeyCode::Char('G')),
            ]),
            Directive::Type(":filter x=y".into()),
            Directive::See("sort ↓".into()),
            Directive::Gone("Review".into()),
            Directive::Quits(vec![Key::Code(KeyCode::Char('q'))]),
        ]
    );
    assert!(directives("<!-- tutorial\npress: Hyper\n-->").is_err());
    assert!(directives("<!-- tutorial\nlook: x\n-->").is_err());
    assert!(directives("<!-- tutorial\npress: s\n").is_err());
    assert_eq!(prose("a <!-- x --> b"), "a  b");
}

/// The tutorial's first steps in the real binary, as a newcomer runs it:
/// nothing configured, at a terminal of 80×24, on today's clock (the test
/// above draws on the test backend at the demo's fixed date).
#[test]
fn the_first_steps_hold_in_the_real_binary_at_a_terminal() {
    let steps = directives(PAGE).unwrap_or_else(|e| panic!("docs/src/tutorial.md: {e}"));
    // What is seen up to the first key, the key, what is seen after it.
    let seen = |from: &[Directive]| -> Vec<String> {
        from.iter()
            .map_while(|d| match d {
                Directive::See(text) => Some(text.clone()),
                _ => None,
            })
            .collect()
    };
    let first = seen(&steps);
    let Some(Directive::Press(keys)) = steps.get(first.len()) else {
        panic!("the tutorial's second step is not a key: {steps:?}");
    };
    let Ok([Key::Code(KeyCode::Char(key))]) = <[Key; 1]>::try_from(keys.clone()) else {
        panic!("the tutorial's second step is not one character: {keys:?}");
    };
    let after = seen(&steps[first.len() + 1..]);
    assert!(!first.is_empty() && !after.is_empty(), "{steps:?}");
    let state = tempfile::tempdir().unwrap();
    let no_config = state.path().join("config-home");
    let env = [
        ("XDG_STATE_HOME", state.path().as_os_str()),
        ("XDG_CONFIG_HOME", no_config.as_os_str()),
    ];
    let mut app = crate::common::pty::Pty::start(24, 80, &[], &env);
    app.wait_until("the tutorial's first screen", |s| {
        first.iter().all(|t| s.contains(t.as_str()))
    });
    app.press(key.to_string().as_bytes());
    app.wait_until("the tutorial's second step", |s| {
        after.iter().all(|t| s.contains(t.as_str()))
    });
    app.press(b"q");
    let (status, _, raw) = app.finish();
    assert!(status.success(), "{raw}");
}
