//! Where a headless command's output goes: stdout, or `-o FILE`. A file is
//! written whole through [`atomic_file`](findings_base::atomic_file): it replaces
//! FILE only once the command has succeeded; on an error, Ctrl-C, SIGTERM
//! or SIGHUP nothing replaces FILE and the temporary file is removed.

use super::Failure;
use clap::{Args, ValueHint};
use findings_base::atomic_file::{Access, AtomicFile, Replace};
use std::io::{self, BufWriter, IsTerminal, StdoutLock, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU8, Ordering};

/// The `-o FILE` flag of the commands that print a listing.
#[derive(Args, Debug, Clone, Default)]
pub struct OutputFile {
    /// Write to FILE instead of stdout: FILE is replaced only when the
    /// command succeeds (default format: from FILE's extension, else ndjson;
    /// an extension that names no format needs --format)
    #[arg(short = 'o', long = "output", value_name = "FILE", value_hint = ValueHint::FilePath)]
    path: Option<PathBuf>,
}

impl OutputFile {
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Whether the output reaches a terminal (a table, a colour, a width).
    pub fn is_terminal(&self) -> bool {
        self.path.is_none() && io::stdout().is_terminal()
    }

    /// Starts the output.
    pub fn open(&self) -> Result<Out, Failure> {
        match &self.path {
            None => Ok(Out::Stdout(BufWriter::new(io::stdout().lock()))),
            Some(path) => {
                // Findings (or what they tell) are the owner's only (0600),
                // whatever the umask, as the state files are.
                let file =
                    AtomicFile::create(path, Access::Private, Replace::Existing).map_err(|e| {
                        Failure::Runtime(format!(
                            "cannot create {}: {e}",
                            findings_base::text::one_line(&path.display().to_string())
                        ))
                    })?;
                Ok(Out::File(BufWriter::new(file), path.clone()))
            }
        }
    }
}

/// An output being written.
pub enum Out {
    Stdout(BufWriter<StdoutLock<'static>>),
    File(BufWriter<AtomicFile>, PathBuf),
}

impl Out {
    /// Ends a command that succeeded: stdout is flushed, a file put in
    /// place of FILE.
    pub fn finish(self) -> Result<(), Failure> {
        match self {
            Out::Stdout(mut out) => Ok(out.flush()?),
            Out::File(out, path) => {
                let shown = findings_base::text::one_line(&path.display().to_string()).into_owned();
                let fail = |e: io::Error| Failure::Runtime(format!("cannot write {shown}: {e}"));
                let file = out.into_inner().map_err(|e| fail(e.into_error()))?;
                file.commit().map_err(fail)
            }
        }
    }

    /// Ends a command that failed: what stdout had is kept (flushed); a
    /// file is dropped, so FILE stays as it was.
    pub fn abandon(self) {
        if let Out::Stdout(mut out) = self {
            let _ = out.flush();
        }
    }
}

impl Write for Out {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Out::Stdout(out) => out.write(buf),
            Out::File(out, _) => out.write(buf),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Out::Stdout(out) => out.flush(),
            Out::File(out, _) => out.flush(),
        }
    }
}

/// Runs `command`, which writes to `-o FILE` when `file` is given, until
/// it ends or a stop: Ctrl-C (SIGINT), SIGTERM (how CI cancels a job or
/// ends one past its time) or SIGHUP (the terminal closed). On a stop the
/// command is dropped (a file's temporary file with it, so FILE stays as
/// it was) and the run fails as interrupted, saying what is left: FILE not
/// written, or stdout cut short. Its exit code is the shell's for that
/// signal (130, 143, 129).
pub async fn until_interrupted<T>(
    file: Option<&Path>,
    command: impl Future<Output = Result<T, Failure>>,
) -> Result<T, Failure> {
    let said = |stop: Stop| {
        let left = match file {
            Some(file) => format!(
                "{} is not written",
                findings_base::text::one_line(&file.display().to_string())
            ),
            None => "the output is cut short (partial)".to_owned(),
        };
        Failure::Interrupted(format!("interrupted by {}; {left}", stop.name()))
    };
    // Also noted where a command's work waits without awaiting (a `--jq`
    // expression running on its thread): it looks at `interrupted()`.
    tokio::spawn(async {
        let stop = stop_signal().await;
        STOPPED.store(stop.code(), Ordering::Relaxed);
    });
    tokio::select! {
        // Biased: the signals are listened for before the command starts
        // (and creates its temporary file).
        biased;
        stop = stop_signal() => {
            // Here too, not only in the task above: the exit code is read
            // from it, and that task may not have run yet.
            STOPPED.store(stop.code(), Ordering::Relaxed);
            Err(said(stop))
        }
        result = command => match result {
            Err(Failure::Interrupted(_)) => Err(said(stopped().unwrap_or(Stop::Interrupt))),
            // A run that failed says what it left of -o FILE (a listing
            // on stdout says "partial" itself).
            Err(Failure::Runtime(why)) => Err(Failure::Runtime(match file {
                Some(file) => format!(
                    "{why}; {} is not written (left as it was)",
                    findings_base::text::one_line(&file.display().to_string())
                ),
                None => why,
            })),
            other => other,
        },
    }
}

/// A signal that stops a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// SIGINT: Ctrl-C.
    Interrupt,
    /// SIGTERM.
    Terminate,
    /// SIGHUP.
    Hangup,
}

impl Stop {
    /// The exit code a shell gives for the signal: 128 + its number.
    pub fn code(self) -> u8 {
        match self {
            Stop::Interrupt => 130,
            Stop::Terminate => 143,
            Stop::Hangup => 129,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Stop::Interrupt => "Ctrl-C",
            Stop::Terminate => "SIGTERM",
            Stop::Hangup => "SIGHUP",
        }
    }
}

/// The first of Ctrl-C, SIGTERM and SIGHUP to come. A signal that cannot be
/// listened for is left to its default (it ends the process).
async fn stop_signal() -> Stop {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let listen = |kind: SignalKind| signal(kind).ok();
        let (mut term, mut hup) = (
            listen(SignalKind::terminate()),
            listen(SignalKind::hangup()),
        );
        tokio::select! {
            r = tokio::signal::ctrl_c() => match r {
                Ok(()) => Stop::Interrupt,
                Err(_) => std::future::pending().await,
            },
            Some(()) = next_of(&mut term) => Stop::Terminate,
            Some(()) = next_of(&mut hup) => Stop::Hangup,
        }
    }
    #[cfg(not(unix))]
    {
        match tokio::signal::ctrl_c().await {
            Ok(()) => Stop::Interrupt,
            Err(_) => std::future::pending().await,
        }
    }
}

/// The next of a signal listened for; never, for one that is not.
#[cfg(unix)]
async fn next_of(signal: &mut Option<tokio::signal::unix::Signal>) -> Option<()> {
    match signal {
        Some(s) => s.recv().await,
        None => std::future::pending().await,
    }
}

/// Set by a stop while a command runs ([`until_interrupted`]): the exit
/// code of its signal, 0 before.
static STOPPED: AtomicU8 = AtomicU8::new(0);

/// The stop that came while a command ran, if one did.
pub fn stopped() -> Option<Stop> {
    match STOPPED.load(Ordering::Relaxed) {
        130 => Some(Stop::Interrupt),
        143 => Some(Stop::Terminate),
        129 => Some(Stop::Hangup),
        _ => None,
    }
}

/// Whether a stop (Ctrl-C, SIGTERM, SIGHUP) came while a command runs.
pub fn interrupted() -> bool {
    stopped().is_some()
}
