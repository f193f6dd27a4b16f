//! A profile's token: read from a file that only its owner may read, or
//! printed by a command. Neither is ever shown.

use super::ConfigError;
use findings_base::token::Token;
use std::path::Path;
use std::time::Duration;

/// How long a `token_command` may run (it may ask for a passphrase).
pub const TOKEN_COMMAND_TIMEOUT: Duration = Duration::from_secs(60);
/// The most of a `token_command`'s output, or of a `token_file`, read.
const MAX_TOKEN_BYTES: u64 = 64 * 1024;

/// A `token_file`'s first line, refused when the file is another user's or
/// group or others may read it.
pub(super) fn read_token_file(path: &Path, profile: &str) -> Result<Token, ConfigError> {
    let what = format!("token_file {} (profile {profile:?})", path.display());
    // A regular file only: a FIFO at the path would hold the start forever.
    let (bytes, meta) =
        findings_base::atomic_file::read_capped_with_metadata(path, MAX_TOKEN_BYTES)
            .map_err(|e| ConfigError(format!("cannot read {what}: {e}")))?;
    check_trusted(&meta, path, &format!("{what} holds a token"), Keep::Secret)?;
    let text =
        String::from_utf8(bytes).map_err(|_| ConfigError(format!("{what} is not UTF-8 text")))?;
    first_line(&text)
        .map(Token::new)
        .ok_or_else(|| ConfigError(format!("{what} is empty")))
}

/// The token of a command's output or a file: the first line, trimmed.
fn first_line(text: &str) -> Option<&str> {
    text.trim()
        .lines()
        .next()
        .map(str::trim)
        .filter(|t| !t.is_empty())
}

/// Runs `sh -c COMMAND` without stdin (its stderr goes to ours, so a
/// password manager can say what is wrong) and takes the first line of its
/// output. Errors name the exit status, never the output.
pub fn run_token_command(command: &str, timeout: Duration) -> Result<Token, String> {
    use std::io::Read;
    use std::process::{Command, Stdio};
    use std::time::Instant;
    #[cfg(unix)]
    let mut cmd = {
        let mut c = Command::new("sh");
        c.arg("-c").arg(command);
        c
    };
    #[cfg(not(unix))]
    let mut cmd = {
        let mut c = Command::new("cmd");
        c.arg("/C").arg(command);
        c
    };
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("could not be started: {e}"))?;
    let stdout = child.stdout.take().ok_or("could not be started")?;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        let result = stdout.take(MAX_TOKEN_BYTES).read_to_end(&mut buf);
        let _ = tx.send(result.map(|_| buf));
    });
    let deadline = Instant::now() + timeout;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() >= deadline => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "did not finish within {} s and was stopped",
                    timeout.as_secs()
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(format!("could not be waited for: {e}")),
        }
    };
    if !status.success() {
        return Err(format!(
            "failed ({status}); its output is not shown, run it yourself to see why"
        ));
    }
    let output = rx
        .recv_timeout(
            deadline
                .saturating_duration_since(Instant::now())
                .max(Duration::from_millis(100)),
        )
        .map_err(|_| "kept its output open after it exited".to_owned())?
        .map_err(|e| format!("output could not be read: {e}"))?;
    let text = String::from_utf8(output)
        .map_err(|_| "printed something that is not UTF-8 text".to_owned())?;
    first_line(&text)
        .map(Token::new)
        .ok_or_else(|| format!("printed nothing ({status}); it must print the token"))
}

/// What a file the app trusts must keep from other users.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Keep {
    /// It holds a secret: no one else may read or write it (`mode & 0o077`
    /// is 0).
    Secret,
    /// It says what to run or read (a `token_command`, a `token_file`): no
    /// one else may write it (`mode & 0o022` is 0), or they choose what
    /// runs as you.
    Commands,
}

/// Refuses a file the app trusts (a config file naming a token or a
/// command, a token file) unless it is yours (or root's) and no one else
/// can change it (nor read it, for a secret). `meta` is the open file's,
/// so what is checked is what is read. The one check for every such file.
#[cfg(unix)]
pub(super) fn check_trusted(
    meta: &std::fs::Metadata,
    path: &Path,
    what: &str,
    keep: Keep,
) -> Result<(), ConfigError> {
    use std::os::unix::fs::MetadataExt;
    let quoted = shell_quote(&path.display().to_string());
    let me = findings_base::sys::effective_uid();
    let owner = meta.uid();
    if owner != me && owner != 0 {
        return Err(ConfigError(format!(
            "{what} and belongs to another user (uid {owner}), who can change it; refusing to use it. Fix: use a file of your own, then chmod 600 {quoted}"
        )));
    }
    let mode = meta.mode() & 0o777;
    match keep {
        Keep::Secret if mode & 0o077 != 0 => Err(ConfigError(format!(
            "{what} and is open to group or others (mode {mode:03o}); refusing to use it. Fix: chmod 600 {quoted}"
        ))),
        Keep::Commands if mode & 0o022 != 0 => Err(ConfigError(format!(
            "{what} and group or others can write it (mode {mode:03o}), so they choose what runs; refusing to use it. Fix: chmod go-w {quoted} (or chmod 600)"
        ))),
        _ => Ok(()),
    }
}

#[cfg(not(unix))]
pub(super) fn check_trusted(
    _meta: &std::fs::Metadata,
    _path: &Path,
    _what: &str,
    _keep: Keep,
) -> Result<(), ConfigError> {
    Ok(())
}

/// Quotes a path for a shell command line when it needs it.
pub(super) fn shell_quote(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+,:@%~".contains(c))
    {
        s.to_owned()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}
