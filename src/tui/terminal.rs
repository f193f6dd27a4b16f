//! The real terminal: raw mode and the alternate screen on the way in, and
//! always restored on the way out (quit, error, panic, SIGTERM, Ctrl-Z).

use crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
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

/// Restores the terminal before the panic message is printed, so the
/// message is readable and the shell usable.
pub fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        previous(info);
    }));
}

/// Ctrl-Z: give the terminal back, stop, and take it again on `fg`.
pub fn suspend(terminal: &mut RealTerminal) -> io::Result<()> {
    restore();
    #[cfg(unix)]
    // SAFETY: raising a signal on our own process has no memory effects.
    unsafe {
        libc::raise(libc::SIGTSTP);
    }
    enable_raw_mode()?;
    execute!(io::stdout(), EnterAlternateScreen, EnableMouseCapture)?;
    terminal.clear()
}

/// Copies through the terminal (OSC 52), which works over SSH too. The text
/// is base64-encoded, so nothing in it can act as a control sequence.
pub fn osc52_copy(text: &str) -> io::Result<()> {
    use base64::Engine;
    let encoded = base64::engine::general_purpose::STANDARD.encode(text);
    let mut stdout = io::stdout();
    write!(stdout, "\x1b]52;c;{encoded}\x07")?;
    stdout.flush()
}

/// Opens a web URL with the desktop's opener, detached and silent.
pub fn open_url(url: &str) -> io::Result<()> {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map(|_| ())
}
