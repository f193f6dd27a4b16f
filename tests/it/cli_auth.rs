//! `findings auth login | status | logout` in a temporary home: with no
//! secret store reachable (no session bus), the token goes to the fallback
//! file, private to the user, and every command says so; it is read from
//! standard input, checked with the deployment, never printed.

use crate::cli::Server;
use crate::common::findings;
use std::path::{Path, PathBuf};

struct Home {
    dir: tempfile::TempDir,
    url: String,
}

impl Home {
    fn new(server: &Server) -> Home {
        Home {
            dir: tempfile::tempdir().unwrap(),
            url: server.url(),
        }
    }

    fn config(&self) -> PathBuf {
        self.dir
            .path()
            .join("config")
            .join("findings")
            .join("config.toml")
    }

    /// The binary in this home, with no session bus: the secret store
    /// cannot be reached, whatever the machine has.
    fn run(&self, args: &[&str], stdin: &str) -> (i32, String, String) {
        let out = findings()
            .args(args)
            .args(["--base-url", &self.url, "--deployment", "1234"])
            .env("HOME", self.dir.path())
            .env("XDG_CONFIG_HOME", self.dir.path().join("config"))
            .env("XDG_STATE_HOME", self.dir.path().join("state"))
            .env("XDG_RUNTIME_DIR", self.dir.path())
            .env_remove("DBUS_SESSION_BUS_ADDRESS")
            .write_stdin(stdin)
            .output()
            .unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    fn token_files(&self) -> Vec<PathBuf> {
        let folder = self.config().parent().unwrap().join("tokens");
        match std::fs::read_dir(folder) {
            Ok(entries) => entries.map(|e| e.unwrap().path()).collect(),
            Err(_) => Vec::new(),
        }
    }
}

#[cfg(unix)]
fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[test]
fn login_stores_the_token_status_says_where_from_and_logout_forgets_it() {
    let server = Server::start(20);
    let home = Home::new(&server);
    let secret = "demo-token";
    let (code, stdout, stderr) = home.run(&["auth", "login"], &format!("{secret}\n"));
    assert_eq!(code, 0, "{stderr}");
    assert!(
        !stdout.contains(secret) && !stderr.contains(secret),
        "{stderr}"
    );
    let fallback = !stderr.contains("stored in the secret store");
    if fallback {
        // No secret store here: the file, said so, private to the user.
        assert!(
            stderr.contains("no secret store: ")
                && stderr.contains("using the fallback file instead"),
            "{stderr}"
        );
        let files = home.token_files();
        assert_eq!(files.len(), 1, "{files:?}");
        assert_eq!(
            std::fs::read_to_string(&files[0]).unwrap(),
            format!("{secret}\n")
        );
        #[cfg(unix)]
        {
            assert_eq!(mode(&files[0]), 0o600);
            assert_eq!(mode(files[0].parent().unwrap()), 0o700);
        }
        eprintln!("the fallback file was used: no secret store reachable here");
    }
    assert!(stderr.contains("Acme Corp (demo) · 1234"), "{stderr}");
    // Status: where the token comes from, checked with the deployment.
    let (code, stdout, stderr) = home.run(&["auth", "status"], "");
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("stored by findings auth login"), "{stdout}");
    if fallback {
        assert!(
            stdout.contains("token: from ") && stdout.contains("tokens/"),
            "{stdout}"
        );
    }
    assert!(
        stdout.contains(
            "deployment: Acme Corp (demo) · 1234, the token checked with GetDeploymentByToken"
        ),
        "{stdout}"
    );
    assert!(!stdout.contains(secret));
    // Every command uses it.
    let (code, stdout, stderr) = home.run(&["issues", "--max", "1", "--format", "ndjson"], "");
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout.lines().count(), 1);
    // FINDINGS_TOKEN comes first, and status says so.
    let out = findings()
        .args(["auth", "status", "--base-url", &home.url])
        .env("HOME", home.dir.path())
        .env("XDG_RUNTIME_DIR", home.dir.path())
        .env_remove("DBUS_SESSION_BUS_ADDRESS")
        .env("FINDINGS_TOKEN", "demo-token")
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("token: from FINDINGS_TOKEN"),
        "{out:?}"
    );
    // Logout forgets it.
    let (code, _, stderr) = home.run(&["auth", "logout"], "");
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("removed from"), "{stderr}");
    assert!(home.token_files().is_empty());
    let (code, _, stderr) = home.run(&["auth", "status"], "");
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("run findings auth login"), "{stderr}");
}

#[test]
fn a_token_the_deployment_refuses_is_not_stored_and_none_comes_from_argv() {
    let server = Server::start(20);
    let home = Home::new(&server);
    let (code, _, stderr) = home.run(&["auth", "login"], "not-the-token\n");
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("the token was not accepted"), "{stderr}");
    assert!(!stderr.contains("not-the-token"), "{stderr}");
    assert!(home.token_files().is_empty());
    // Never on the command line.
    let (code, _, stderr) = home.run(&["auth", "login", "demo-token"], "");
    assert_eq!(code, 2, "{stderr}");
    // Nothing given: nothing stored.
    let (code, _, stderr) = home.run(&["auth", "login"], "\n");
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("no token given"), "{stderr}");
    assert!(home.token_files().is_empty());
}

/// On a terminal, `auth login` says whose token it asks for before it asks
/// (the profile, or none, and the server), takes it without echo, and names
/// the deployment it belongs to, its name and id each once.
#[cfg(unix)]
#[test]
fn login_on_a_terminal_names_whose_token_it_asks_for_before_asking() {
    let server = Server::start(20);
    let home = Home::new(&server);
    let dir = home.dir.path();
    let env: Vec<(&str, String)> = vec![
        ("HOME", dir.display().to_string()),
        ("XDG_CONFIG_HOME", dir.join("config").display().to_string()),
        ("XDG_STATE_HOME", dir.join("state").display().to_string()),
        ("XDG_RUNTIME_DIR", dir.display().to_string()),
        ("DBUS_SESSION_BUS_ADDRESS", String::new()),
    ];
    let args = [
        "auth",
        "login",
        "--base-url",
        &home.url,
        "--deployment",
        "1234",
    ];
    let mut pty = crate::common::pty::Pty::start(24, 120, &args, &env);
    let asked = pty.wait_for("not shown as typed:");
    assert!(
        asked.contains(&format!(
            "Token for {} (no profile), not shown as typed:",
            home.url
        )),
        "{asked}"
    );
    pty.press(b"demo-token\r");
    let done = pty.wait_for("stored in");
    assert!(!done.contains("demo-token"), "not echoed: {done}");
    assert!(done.contains("Acme Corp (demo) · 1234"), "{done}");
}
