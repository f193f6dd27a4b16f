//! Opening a web link in a browser, the way `xdg-open` and most tools read
//! `$BROWSER`: a `:`-separated list of commands tried in turn, where `%s`
//! stands for the URL (`%%` for a `%`) and a command without `%s` gets the
//! URL as its last argument. Without `$BROWSER`, the desktop's opener. The
//! outcome is returned, so the status line can say it.

use findings_base::handoff::SafeUrl;
use std::io::Read;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// The desktop's opener, used when `$BROWSER` is unset or empty.
pub const DESKTOP_OPENER: &str = if cfg!(target_os = "macos") {
    "open"
} else {
    "xdg-open"
};

/// How long an opener may run before it counts as started: a browser that
/// stays in the foreground has opened the page, not failed.
pub const WAIT: Duration = Duration::from_secs(3);

/// The commands to try, each as its program and arguments. The link is a
/// [`SafeUrl`]: one word of plain ASCII, whatever the server sent.
pub fn commands(browser: Option<&str>, url: &SafeUrl) -> Result<Vec<Vec<String>>, String> {
    let url = url.as_str();
    let browser = browser.map(str::trim).filter(|b| !b.is_empty());
    let Some(browser) = browser else {
        return Ok(vec![vec![DESKTOP_OPENER.to_owned(), url.to_owned()]]);
    };
    let mut commands = Vec::new();
    for entry in browser.split(':').filter(|e| !e.trim().is_empty()) {
        let words = shell_words::split(entry).map_err(|e| format!("$BROWSER: {e} in {entry}"))?;
        let mut has_url = false;
        let mut argv: Vec<String> = words
            .iter()
            .map(|w| {
                has_url |= w.contains("%s");
                substitute(w, url)
            })
            .collect();
        if !has_url {
            argv.push(url.to_owned());
        }
        commands.push(argv);
    }
    Ok(commands)
}

/// `%s` → the URL, `%%` → `%`, in one pass (the URL is never read again).
fn substitute(word: &str, url: &str) -> String {
    let mut out = String::with_capacity(word.len() + url.len());
    let mut chars = word.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('s') => out.push_str(url),
            Some('%') => out.push('%'),
            Some(other) => {
                out.push('%');
                out.push(other);
            }
            None => out.push('%'),
        }
    }
    out
}

/// Opens `url` with the first command that works; else says why the last
/// one did not. Blocks up to `wait` per command: run it off the UI thread.
pub fn open(url: &SafeUrl, browser: Option<&str>, wait: Duration) -> Result<(), String> {
    let mut failure = format!("{DESKTOP_OPENER} not found");
    for argv in commands(browser, url)? {
        match run(&argv, wait) {
            Ok(()) => return Ok(()),
            Err(why) => failure = why,
        }
    }
    Err(failure)
}

fn run(argv: &[String], wait: Duration) -> Result<(), String> {
    let Some((program, args)) = argv.split_first() else {
        return Err("$BROWSER names no command".into());
    };
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => {
                format!("{program} not found (set $BROWSER to choose a browser)")
            }
            _ => format!("{program}: {e}"),
        })?;
    let said = read_stderr(&mut child);
    let deadline = Instant::now() + wait;
    loop {
        match child.try_wait() {
            Ok(Some(status)) if status.success() => return Ok(()),
            Ok(Some(status)) => {
                // Its last words, if it said any before exiting.
                let said = said
                    .recv_timeout(Duration::from_millis(300))
                    .unwrap_or_default();
                let said = String::from_utf8_lossy(&said);
                let line = said.lines().map(str::trim).find(|l| !l.is_empty());
                let mut why = format!("{program} {}", exit(status));
                if let Some(line) = line {
                    why.push_str(": ");
                    why.push_str(line);
                }
                return Err(why);
            }
            Ok(None) if Instant::now() >= deadline => {
                // Still running: a browser in the foreground. Reap it when
                // it ends, without holding anything up.
                std::thread::spawn(move || child.wait());
                return Ok(());
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(format!("{program}: {e}")),
        }
    }
}

/// Reads what the child writes to stderr (the first 2 KB kept, the rest
/// drained so it never blocks on a full pipe), handed over at its end.
fn read_stderr(child: &mut Child) -> std::sync::mpsc::Receiver<Vec<u8>> {
    let (tx, rx) = std::sync::mpsc::channel();
    if let Some(mut stderr) = child.stderr.take() {
        std::thread::spawn(move || {
            let mut kept = Vec::new();
            let mut buf = [0u8; 1024];
            while let Ok(n @ 1..) = stderr.read(&mut buf) {
                if kept.len() < 2048 {
                    kept.extend_from_slice(&buf[..n]);
                }
            }
            let _ = tx.send(kept);
        });
    }
    rx
}

fn exit(status: ExitStatus) -> String {
    match status.code() {
        Some(code) => format!("exited with status {code}"),
        None => "was stopped by a signal".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const URL: &str = "https://example.test/a?b=1&c=%20";

    fn url() -> SafeUrl {
        SafeUrl::parse(URL).unwrap()
    }

    #[test]
    fn browser_commands_follow_the_xdg_conventions() {
        assert_eq!(
            commands(None, &url()).unwrap(),
            vec![vec![DESKTOP_OPENER.to_owned(), URL.to_owned()]]
        );
        assert_eq!(commands(Some("  "), &url()).unwrap()[0][0], DESKTOP_OPENER);
        // No %s: the URL goes last; %s: in its place, inside a word too; a
        // list: each in turn; quotes group words.
        assert_eq!(
            commands(
                Some("firefox --new-tab:'my browser' --url=%s --x:echo 100%%"),
                &url()
            )
            .unwrap(),
            vec![
                vec!["firefox".to_owned(), "--new-tab".into(), URL.into()],
                vec![
                    "my browser".to_owned(),
                    format!("--url={URL}"),
                    "--x".into()
                ],
                vec!["echo".to_owned(), "100%".into(), URL.into()],
            ]
        );
        assert!(
            commands(Some("'unclosed"), &url())
                .unwrap_err()
                .contains("$BROWSER")
        );
    }

    #[test]
    fn opening_reports_what_went_wrong() {
        let wait = Duration::from_secs(5);
        // The URL reaches the command as one argument, where %s says.
        let dir = std::env::temp_dir().join(format!("findings-opener-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let got = dir.join("url");
        let records = format!("sh -c 'printf %%s \"$0\" > \"$1\"' %s '{}'", got.display());
        assert_eq!(open(&url(), Some(&records), wait), Ok(()));
        assert_eq!(std::fs::read_to_string(&got).unwrap(), URL);
        std::fs::remove_dir_all(&dir).unwrap();
        // A non-zero exit, with what the command said.
        assert_eq!(
            open(&url(), Some("sh -c 'echo no display >&2; exit 4'"), wait),
            Err("sh exited with status 4: no display".into())
        );
        // A command that cannot be run, alone or before one that works.
        let missing = "findings-no-such-browser";
        let err = open(&url(), Some(missing), wait).unwrap_err();
        assert!(err.starts_with(&format!("{missing} not found")), "{err}");
        assert_eq!(open(&url(), Some(&format!("{missing}:true")), wait), Ok(()));
    }

    #[test]
    fn a_browser_that_keeps_running_has_opened() {
        let started = Instant::now();
        assert_eq!(
            open(&url(), Some("sh -c 'sleep 2'"), Duration::from_millis(200)),
            Ok(())
        );
        assert!(started.elapsed() < Duration::from_secs(2));
    }

    /// A `$BROWSER` that hands the link to a shell script still gets one
    /// harmless word: what the server sent is parsed and encoded first.
    #[cfg(unix)]
    #[test]
    fn a_hostile_link_reaches_a_shell_browser_as_one_inert_word() {
        let dir = tempfile::tempdir().unwrap();
        let got = dir.path().join("url");
        let pwned = dir.path().join("pwned");
        let hostile = format!(
            "https://example.test/a b';touch {}; echo '$(touch {})\u{202e}",
            pwned.display(),
            pwned.display()
        );
        let url = SafeUrl::parse(&hostile).unwrap();
        let browser = format!("sh -c 'printf %%s %s > {}'", got.display());
        assert_eq!(open(&url, Some(&browser), Duration::from_secs(5)), Ok(()));
        assert_eq!(std::fs::read_to_string(&got).unwrap(), url.as_str());
        assert!(!pwned.exists(), "the link ran a command");
        assert!(url.as_str().chars().all(|c| c.is_ascii_graphic()), "{url}");
    }
}
