//! Where a headless command's output goes: stdout, or `-o FILE`. A file is
//! written whole through [`atomic_file`](findings_base::atomic_file): it replaces
//! FILE only once the command has succeeded; on an error or Ctrl-C nothing
//! replaces FILE and the temporary file is removed.

use super::Failure;
use clap::{Args, ValueHint};
use findings_base::atomic_file::{Access, AtomicFile, Replace};
use std::io::{self, BufWriter, IsTerminal, StdoutLock, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// The `-o FILE` flag of the commands that print a listing.
#[derive(Args, Debug, Clone, Default)]
pub struct OutputFile {
    /// Write to FILE instead of stdout: FILE is replaced only when the
    /// command succeeds (default format: from FILE's extension, else ndjson)
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
/// it ends or Ctrl-C: on Ctrl-C it is dropped (its temporary file with it)
/// and the run fails as interrupted. Without a file, Ctrl-C is left to its
/// default (the process ends at once; stdout has what it had).
pub async fn until_interrupted<T>(
    file: Option<&Path>,
    command: impl Future<Output = Result<T, Failure>>,
) -> Result<T, Failure> {
    let Some(file) = file else {
        return command.await;
    };
    let said = || {
        Failure::Interrupted(format!(
            "interrupted; {} is not written",
            findings_base::text::one_line(&file.display().to_string())
        ))
    };
    // Also noted where a command's work waits without awaiting (a `--jq`
    // expression running on its thread): it looks at `interrupted()`.
    tokio::spawn(async {
        if tokio::signal::ctrl_c().await.is_ok() {
            INTERRUPTED.store(true, Ordering::Relaxed);
        }
    });
    let interrupted = tokio::signal::ctrl_c();
    tokio::select! {
        // Biased: the signal is listened for before the command starts
        // (and creates its temporary file).
        biased;
        _ = interrupted => Err(said()),
        result = command => match result {
            Err(Failure::Interrupted(_)) => Err(said()),
            other => other,
        },
    }
}

/// Set by Ctrl-C while `-o FILE` is written ([`until_interrupted`]).
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Whether Ctrl-C was pressed while `-o FILE` is written.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}
