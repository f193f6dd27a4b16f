//! A profile's token: read from a file that only its owner may read, or
//! printed by a command. Neither is ever shown.

use super::ConfigError;
use crate::api::token::Token;
use std::path::Path;
use std::time::Duration;

/// How long a `token_command` may run (it may ask for a passphrase).
pub const TOKEN_COMMAND_TIMEOUT: Duration = Duration::from_secs(60);
/// The most of a `token_command`'s output, or of a `token_file`, read.
const MAX_TOKEN_BYTES: u64 = 64 * 1024;

/// A `token_file`'s first line, refused when group or others may read the
/// file.
pub(super) fn read_token_file(path: &Path, profile: &str) -> Result<Token, ConfigError> {
    use std::io::Read;
    let what = format!("token_file {} (profile {profile:?})", path.display());
    let file =
        std::fs::File::open(path).map_err(|e| ConfigError(format!("cannot read {what}: {e}")))?;
    check_private(path, &format!("{what} holds a token"))?;
    let mut bytes = Vec::new();
    file.take(MAX_TOKEN_BYTES)
        .read_to_end(&mut bytes)
        .map_err(|e| ConfigError(format!("cannot read {what}: {e}")))?;
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

/// Refuses a file holding a secret that group or others can read or write
/// (on unix: `mode & 0o077` must be 0).
#[cfg(unix)]
pub(super) fn check_private(path: &Path, what: &str) -> Result<(), ConfigError> {
    use std::os::unix::fs::PermissionsExt;
    let meta = std::fs::metadata(path)
        .map_err(|e| ConfigError(format!("cannot read {}: {e}", path.display())))?;
    let mode = meta.permissions().mode() & 0o777;
    if mode & 0o077 != 0 {
        return Err(ConfigError(format!(
            "{what} and is open to group or others (mode {mode:03o}); refusing to use it. Fix: chmod 600 {}",
            shell_quote(&path.display().to_string())
        )));
    }
    Ok(())
}

#[cfg(not(unix))]
pub(super) fn check_private(_path: &Path, _what: &str) -> Result<(), ConfigError> {
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
