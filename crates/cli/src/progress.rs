//! Progress on stderr for a step that takes a while: what so far, of how
//! much when known, the rate and the time left. Drawn only for a person
//! ([`for_a_person`]: stderr a terminal, `CI` unset, `TERM` not `dumb`) and
//! when neither `-q`, `FINDINGS_NO_PROGRESS` nor the profile's `progress =
//! false` turned it off, from a second in (a step the
//! user waits on before anything else shows, as opening a snapshot before
//! the TUI, at once), at most ten times a second, on one line wiped when
//! the step ends, however it ends (the value is dropped).

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// `--quiet` (or its environment variable, or the profile): no progress.
static QUIET: AtomicBool = AtomicBool::new(false);

/// Said at the start, from `--quiet`, and again once the settings are
/// read (the profile's `progress`).
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

/// Whether stderr is read by a person as it is written: a terminal, but
/// not a CI runner's pseudo-terminal (`CI` set, as every major CI sets
/// it) nor a terminal that cannot wipe a line (`TERM=dumb`), whose log
/// would keep each redrawing.
fn for_a_person(terminal: bool, env: impl Fn(&str) -> Option<std::ffi::OsString>) -> bool {
    let ci = super::watching::says_ci(env("CI").as_deref());
    let dumb = env("TERM").is_some_and(|t| t == "dumb");
    terminal && !ci && !dumb
}

/// Whether progress is drawn in this process.
fn enabled() -> bool {
    !QUIET.load(Ordering::Relaxed)
        && for_a_person(std::io::stderr().is_terminal(), |k| std::env::var_os(k))
}

/// How long a step runs before its progress shows.
const QUIET_FOR: Duration = Duration::from_secs(1);
/// The least time between two drawings.
const REDRAW: Duration = Duration::from_millis(100);

/// One step's progress line.
pub(crate) struct Progress {
    enabled: bool,
    /// What is done, e.g. "issues" or "opening big.snap".
    what: String,
    /// What is counted, e.g. "items" or "findings".
    unit: &'static str,
    started: Instant,
    shows_after: Duration,
    last_drawn: Option<Instant>,
    shown: bool,
}

impl Progress {
    /// A headless step's progress: shown from a second in.
    pub(crate) fn new(what: &str, unit: &'static str) -> Self {
        Progress {
            enabled: enabled(),
            what: findings_base::text::one_line(what).into_owned(),
            unit,
            started: Instant::now(),
            shows_after: QUIET_FOR,
            last_drawn: None,
            shown: false,
        }
    }

    /// A step the user waits on with nothing else on the screen: its line
    /// shows now, before the first item.
    pub(crate) fn at_once(what: &str, unit: &'static str) -> Self {
        let mut progress = Progress::new(what, unit);
        progress.shows_after = Duration::ZERO;
        progress.update(0, None);
        progress
    }

    /// `done` so far; `fraction` (0 to 1) when the part done is known (the
    /// bytes of a file read), for the time left.
    pub(crate) fn update(&mut self, done: u64, fraction: Option<f64>) {
        if !self.enabled {
            return;
        }
        let now = Instant::now();
        let elapsed = now.duration_since(self.started);
        let due = self
            .last_drawn
            .is_none_or(|last| now.duration_since(last) >= REDRAW);
        if elapsed < self.shows_after || !due {
            return;
        }
        self.last_drawn = Some(now);
        let line = line(&self.what, done, self.unit, fraction, elapsed);
        eprint!("\r\x1b[2K{line}");
        self.shown = true;
    }

    /// The step ended: its line goes.
    pub(crate) fn done(&mut self) {
        if self.shown {
            eprint!("\r\x1b[2K");
            self.shown = false;
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.done();
    }
}

/// "opening a.snap: 12,000 findings (12%) · 3,000/s · about 29 s left".
fn line(what: &str, done: u64, unit: &str, fraction: Option<f64>, elapsed: Duration) -> String {
    let count = |n: u64| findings_base::text::thousands_of(n);
    let mut line = format!("{what}: {} {unit}", count(done));
    if let Some(f) = fraction.filter(|f| f.is_finite()) {
        line.push_str(&format!(" ({:.0}%)", (f * 100.0).clamp(0.0, 100.0)));
    }
    let seconds = elapsed.as_secs_f64();
    if seconds >= 0.5 && done > 0 {
        // A rate for display: `as` from f64 saturates, and a count below
        // 2^53 is exact in f64.
        #[allow(
            clippy::cast_precision_loss,
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss
        )]
        let rate = (done as f64 / seconds) as u64;
        line.push_str(&format!(" · {}/s", count(rate)));
    }
    if let Some(f) = fraction.filter(|f| f.is_finite() && *f > 0.01 && *f < 1.0) {
        let left = seconds * (1.0 - f) / f;
        line.push_str(&format!(" · about {} left", short_time(left)));
    }
    line.push_str(" · Ctrl-C stops");
    line
}

fn short_time(seconds: f64) -> String {
    // Display only: `as` from f64 saturates (a negative or NaN time is 0 s).
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let s = seconds.round() as u64;
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min {} s", s / 60, s % 60),
        _ => format!("{} h {} min", s / 3600, s % 3600 / 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_says_what_so_far_of_how_many_the_rate_and_the_time_left() {
        let s = |n| Duration::from_secs(n);
        assert_eq!(
            line("opening a.snap", 12_000, "findings", Some(0.12), s(4)),
            "opening a.snap: 12,000 findings (12%) · 3,000/s · about 29 s left · Ctrl-C stops"
        );
        // Nothing says how far: the count and the rate only.
        assert_eq!(
            line("diff", 5_000, "findings", None, s(2)),
            "diff: 5,000 findings · 2,500/s · Ctrl-C stops"
        );
        // The first drawing, before anything is read: no rate, no guess.
        assert_eq!(
            line("opening a.snap", 0, "findings", Some(0.0), s(0)),
            "opening a.snap: 0 findings (0%) · Ctrl-C stops"
        );
        // Long steps in minutes and hours.
        assert_eq!(
            line("x", 10, "items", Some(0.5), s(400)),
            "x: 10 items (50%) · 0/s · about 6 min 40 s left · Ctrl-C stops"
        );
        assert_eq!(short_time(7_300.0), "2 h 1 min");
        // A fraction past the ends is held to them; a broken one is left out.
        assert!(line("x", 1, "items", Some(1.7), s(1)).contains("(100%)"));
        assert!(!line("x", 1, "items", Some(f64::NAN), s(1)).contains('%'));
    }

    #[test]
    fn progress_is_for_a_person_only() {
        use std::ffi::OsString;
        let env = |vars: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                vars.iter()
                    .find(|(name, _)| *name == k)
                    .map(|(_, v)| OsString::from(v))
            }
        };
        assert!(for_a_person(true, env(&[("TERM", "xterm-256color")])));
        // A CI runner's pseudo-terminal, a dumb terminal, no terminal.
        assert!(!for_a_person(true, env(&[("CI", "true")])));
        assert!(!for_a_person(true, env(&[("CI", "1"), ("TERM", "xterm")])));
        assert!(!for_a_person(true, env(&[("TERM", "dumb")])));
        assert!(!for_a_person(false, env(&[])));
        // CI set to nothing is CI unset.
        assert!(for_a_person(true, env(&[("CI", "")])));
    }

    #[test]
    fn quiet_draws_nothing() {
        set_quiet(true);
        assert!(!Progress::new("x", "items").enabled);
        set_quiet(false);
    }
}
