//! The real terminal: raw mode and the alternate screen on the way in, and
//! always restored on the way out (quit, error, panic, SIGTERM, Ctrl-Z).

use crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use findings_base::atomic_file::{self, Access, Replace};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use std::io::{self, Stdout, Write};

pub type RealTerminal = Terminal<CrosstermBackend<Stdout>>;

pub fn enter() -> io::Result<RealTerminal> {
    enable_raw_mode()?;
    let mut stdout = io::stdout();
    if let Err(e) = execute!(stdout, EnterAlternateScreen, EnableMouseCapture) {
        restore();
        return Err(e);
    }
    Terminal::new(CrosstermBackend::new(stdout))
}

/// Leaves raw mode and the alternate screen. Safe to call more than once.
pub fn restore() {
    let _ = disable_raw_mode();
    let mut stdout = io::stdout();
    let _ = execute!(
        stdout,
        DisableMouseCapture,
        LeaveAlternateScreen,
        crossterm::cursor::Show
    );
    let _ = stdout.flush();
}

/// A panic anywhere ends the app: the terminal is restored first, the
/// details go to a crash log (in `crash_dir`, else the temp folder), and one
/// short, terminal-safe line says where. The process exits with 101.
pub fn install_panic_hook(crash_dir: Option<std::path::PathBuf>) {
    std::panic::set_hook(Box::new(move |info| {
        restore();
        let payload = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".to_owned());
        let location = info
            .location()
            .map_or(String::new(), |l| format!(" at {}:{}", l.file(), l.line()));
        let report = format!(
            "findings {} crashed{location}\n{payload}\n\n{}\n",
            env!("CARGO_PKG_VERSION"),
            std::backtrace::Backtrace::force_capture()
        );
        // A panic message may quote what a server sent: masked too.
        let report = findings_base::redact::scrub(&report);
        let shown = findings_base::text::truncate(&findings_base::text::one_line(&payload), 200)
            .into_owned();
        match write_crash_log(crash_dir.as_deref(), &report) {
            Ok(path) => eprintln!(
                "findings crashed: {shown}\nThe details are in {}; please attach that file to a bug report.",
                path.display()
            ),
            Err(_) => eprintln!("findings crashed: {shown}{location}"),
        }
        std::process::exit(101);
    }));
}

fn write_crash_log(dir: Option<&std::path::Path>, report: &str) -> io::Result<std::path::PathBuf> {
    let dir = dir.map_or_else(std::env::temp_dir, std::path::Path::to_path_buf);
    atomic_file::create_folder(&dir, Access::Private)?;
    let name = format!(
        "crash-{}-{}.log",
        chrono::Utc::now().format("%Y%m%d-%H%M%S"),
        std::process::id()
    );
    let path = dir.join(name);
    atomic_file::write(&path, report.as_bytes(), Access::Private, Replace::Never)?;
    Ok(path)
}

/// Ctrl-Z: give the terminal back, stop, and take it again on `fg`.
///
/// Stopped with SIGSTOP, not SIGTSTP: the kernel discards SIGTSTP in an
/// orphaned process group (a program started by a pty's owner, or by a
/// shell that exited), and SIGSTOP cannot be caught or ignored. On `fg`
/// (SIGCONT) the terminal is taken again and the whole screen drawn anew,
/// without asking the terminal where its cursor is (ratatui's
/// `Terminal::clear` asks, and a terminal that does not answer within 2 s
/// made that fatal).
pub fn suspend(terminal: &mut RealTerminal) -> io::Result<()> {
    restore();
    #[cfg(unix)]
    findings_base::sys::stop_self();
    enable_raw_mode()?;
    execute!(
        io::stdout(),
        EnterAlternateScreen,
        EnableMouseCapture,
        crossterm::terminal::Clear(crossterm::terminal::ClearType::All)
    )?;
    redraw_whole(terminal)
}

/// The next frame is drawn whole, at the terminal's size now: a resize to
/// it clears the back buffer (for a full screen, without a cursor query).
fn redraw_whole(terminal: &mut RealTerminal) -> io::Result<()> {
    let size = terminal.size()?;
    terminal.resize(ratatui::layout::Rect::new(0, 0, size.width, size.height))
}

/// Copies through the terminal (OSC 52), which works over SSH too. The text
/// is base64-encoded, so nothing in it can act as a control sequence.
pub fn osc52_copy(text: &findings_base::handoff::ClipboardText) -> io::Result<()> {
    use base64::Engine;
    let encoded = base64::engine::general_purpose::STANDARD.encode(text.as_str());
    let mut stdout = io::stdout();
    write!(stdout, "\x1b]52;c;{encoded}\x07")?;
    stdout.flush()
}
