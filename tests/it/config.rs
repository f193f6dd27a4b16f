//! The config file, profiles and token sources, shell integration and
//! logging, as users run the binary: `FINDINGS_CONFIG` points into a
//! temporary folder, and a demo server in this process plays the platform.

use assert_cmd::Command;
use findings_demo::{DemoOptions, DemoServer};
use predicates::prelude::*;
use std::path::{Path, PathBuf};
use tempfile::TempDir;

/// The binary with no settings from the environment but the config path.
fn findings(config: &Path) -> Command {
    let mut cmd = Command::cargo_bin("findings").expect("binary built");
    for var in [
        "FINDINGS_BASE_URL",
        "FINDINGS_DEPLOYMENT",
        "FINDINGS_TOKEN",
        "FINDINGS_PROFILE",
        "FINDINGS_LOG",
        "FINDINGS_THEME",
        "NO_COLOR",
    ] {
        cmd.env_remove(var);
    }
    cmd.env("FINDINGS_CONFIG", config);
    cmd
}

/// A demo server in this process, for commands pointed at it by profile.
struct Server {
    runtime: tokio::runtime::Runtime,
    server: Option<DemoServer>,
}

impl Server {
    fn start() -> Server {
        let runtime = tokio::runtime::Runtime::new().unwrap();
        let server = runtime
            .block_on(DemoServer::start_local(DemoOptions {
                findings: 60,
                ..Default::default()
            }))
            .unwrap();
        Server {
            runtime,
            server: Some(server),
        }
    }

    fn url(&self) -> String {
        self.server.as_ref().unwrap().url()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _guard = self.runtime.enter();
        self.server.take();
    }
}

struct Setup {
    dir: TempDir,
    path: PathBuf,
}

impl Setup {
    fn new() -> Setup {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("findings").join("config.toml");
        Setup { dir, path }
    }

    /// Writes the config file, private to the user.
    fn write(&self, text: &str) -> &Self {
        std::fs::create_dir_all(self.path.parent().unwrap()).unwrap();
        std::fs::write(&self.path, text).unwrap();
        chmod(&self.path, 0o600);
        self
    }

    /// The binary with the config file at its usual place (the config
    /// folder is this setup's), not named by `FINDINGS_CONFIG`.
    fn cmd(&self) -> Command {
        let mut cmd = findings(&self.path);
        cmd.env_remove("FINDINGS_CONFIG")
            .env("XDG_CONFIG_HOME", self.dir.path())
            .env_remove("CI");
        cmd
    }
}

#[cfg(unix)]
fn chmod(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

#[cfg(not(unix))]
fn chmod(_: &Path, _: u32) {}

fn lines(out: &[u8]) -> usize {
    String::from_utf8_lossy(out).lines().count()
}

/// A config with a `demo` profile pointing at the server, and a `broken`
/// profile pointing at nothing.
fn profiles(url: &str, extra: &str) -> String {
    format!(
        r#"
[profiles.demo]
base_url = "{url}"
deployment = 1234
token_command = "echo demo-token"
{extra}

[profiles.broken]
base_url = "http://127.0.0.1:9"
deployment = "1234"
token = "unused"
"#
    )
}

// ---- config path, init, show ----

#[test]
fn config_path_prints_the_path_in_force() {
    let s = Setup::new();
    s.cmd()
        .args(["config", "path"])
        .assert()
        .success()
        .stdout(format!("{}\n", s.path.display()));
}

#[cfg(target_os = "linux")]
#[test]
fn config_path_defaults_to_the_xdg_config_folder() {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = Command::cargo_bin("findings").unwrap();
    cmd.env_remove("FINDINGS_CONFIG")
        .env("XDG_CONFIG_HOME", dir.path())
        .args(["config", "path"])
        .assert()
        .success()
        .stdout(format!(
            "{}\n",
            dir.path().join("findings/config.toml").display()
        ));
}

#[test]
fn config_init_writes_a_private_example_and_never_overwrites() {
    let s = Setup::new();
    s.cmd()
        .args(["config", "init"])
        .assert()
        .success()
        .stderr(predicate::str::contains(s.path.display().to_string()));
    let text = std::fs::read_to_string(&s.path).unwrap();
    assert!(text.contains("[profiles.work]") && text.contains("token_command"));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&s.path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    // The example configures no server: without a terminal, a command
    // asks for one (it never falls back to demo data unasked)...
    s.cmd()
        .args(["issues", "--max", "2", "--format", "ndjson"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no server configured"))
        .stderr(predicate::str::contains("FINDINGS_BASE_URL=demo"));
    // ...and runs on the demo server when asked.
    s.cmd()
        .env("FINDINGS_BASE_URL", "demo")
        .args(["issues", "--max", "2", "--format", "ndjson"])
        .assert()
        .success()
        .stderr(predicate::str::contains("embedded demo server"));

    std::fs::write(&s.path, "# mine\n").unwrap();
    s.cmd()
        .args(["config", "init"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("already exists"));
    assert_eq!(std::fs::read_to_string(&s.path).unwrap(), "# mine\n");
}

#[test]
fn config_show_prints_the_settings_with_their_sources_and_masks_tokens() {
    let s = Setup::new();
    s.write(
        r#"
default_profile = "work"
[profiles.work]
base_url = "https://findings.example.com"
deployment = 4711
token = "s3cr3t-in-file"
page_size = 300
default_pane = "report"
[views.crit]
filters = ["issueTypes=secrets"]
"#,
    );
    let out = s.cmd().args(["config", "show"]).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!stdout.contains("s3cr3t"), "{stdout}");
    assert!(stdout.contains("token = \"***\""), "{stdout}");
    assert!(stdout.contains(&s.path.display().to_string()), "{stdout}");
    assert!(stdout.contains("base_url = \"https://findings.example.com\""));
    assert!(stdout.contains("page_size = 300") && stdout.contains("# profile work"));
    assert!(stdout.contains("default_pane = \"report\""));
    assert!(stdout.contains("[views.crit]"), "{stdout}");

    // The environment and flags override, and show says so.
    let out = s
        .cmd()
        .env("FINDINGS_TOKEN", "env-s3cr3t")
        .env("FINDINGS_DEPLOYMENT", "99")
        .args(["config", "show", "--base-url", "https://other.example.com"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(!stdout.contains("s3cr3t"), "{stdout}");
    assert!(stdout.contains("# FINDINGS_TOKEN"), "{stdout}");
    assert!(stdout.contains("deployment = \"99\""), "{stdout}");
    assert!(stdout.contains("# FINDINGS_DEPLOYMENT"), "{stdout}");
    assert!(stdout.contains("# --base-url"), "{stdout}");
}

// ---- themes ----

/// The `theme = ...` line of `config show`, and its source comment.
fn shown_theme(s: &Setup, args: &[&str], env: &[(&str, &str)]) -> String {
    let mut cmd = s.cmd();
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.args(args).args(["config", "show"]).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = stdout
        .lines()
        .find(|l| l.starts_with("theme = "))
        .unwrap_or_else(|| panic!("no theme line in {stdout}"));
    // One space between the value and its source, for the asserts.
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn the_theme_comes_from_flag_env_profile_file_and_theme_file_in_that_order() {
    let s = Setup::new();
    // Nothing anywhere: the default.
    assert_eq!(shown_theme(&s, &[], &[]), "theme = \"default\" # default");
    let theme_file = s.path.with_file_name("theme.toml");
    std::fs::create_dir_all(theme_file.parent().unwrap()).unwrap();
    std::fs::write(&theme_file, "base = \"dark\"\n").unwrap();
    assert_eq!(
        shown_theme(&s, &[], &[]),
        "theme = \"dark\" # base of the theme file"
    );
    s.write("theme = \"light\"\ndefault_profile = \"w\"\n[profiles.w]\ntheme = \"high-contrast\"\n[profiles.plain]\n");
    assert_eq!(
        shown_theme(&s, &[], &[]),
        "theme = \"high-contrast\" # profile w"
    );
    assert_eq!(
        shown_theme(&s, &["--profile", "plain"], &[]),
        "theme = \"light\" # config file"
    );
    assert_eq!(
        shown_theme(&s, &[], &[("FINDINGS_THEME", "dark")]),
        "theme = \"dark\" # FINDINGS_THEME"
    );
    assert_eq!(
        shown_theme(&s, &["--theme", "default"], &[("FINDINGS_THEME", "dark")]),
        "theme = \"default\" # --theme"
    );
    // NO_COLOR is shown as winning over the theme.
    let out = s
        .cmd()
        .env("NO_COLOR", "1")
        .args(["config", "show"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("# NO_COLOR is set"), "{stdout}");
    let out = s
        .cmd()
        .env("NO_COLOR", "")
        .args(["config", "show"])
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&out.stdout).contains("NO_COLOR"));

    // An unknown name, from each source, names the valid ones.
    for (args, env, source) in [
        (&["--theme", "solarized"][..], None, "--theme"),
        (&[][..], Some("solarized"), "FINDINGS_THEME"),
    ] {
        let mut cmd = s.cmd();
        if let Some(v) = env {
            cmd.env("FINDINGS_THEME", v);
        }
        cmd.args(args)
            .args(["config", "show"])
            .assert()
            .code(2)
            .stderr(
                predicate::str::contains(format!("{source}: unknown theme \"solarized\"")).and(
                    predicate::str::contains("valid: default, dark, light, high-contrast"),
                ),
            );
    }
    s.write("[profiles.w]\ntheme = \"solarized\"\n");
    s.cmd().args(["config", "show"]).assert().code(2).stderr(
        predicate::str::contains("line 2")
            .and(predicate::str::contains("profiles.w.theme"))
            .and(predicate::str::contains("high-contrast")),
    );
    // The headless commands do not draw, so a theme does not stop them.
    s.write("");
    s.cmd()
        .env("FINDINGS_BASE_URL", "demo")
        .args(["issues", "--max", "1", "--theme", "solarized"])
        .assert()
        .success();
}

#[test]
fn a_theme_file_elsewhere_and_bad_theme_files() {
    let s = Setup::new();
    let mine = s.dir.path().join("mine.toml");
    std::fs::write(
        &mine,
        "base = \"light\"\n[styles]\nselected = { fg = \"black\", bg = \"#ffd700\" }\n",
    )
    .unwrap();
    s.write(&format!("theme_file = {:?}\n", mine.display().to_string()));
    let out = s.cmd().args(["config", "show"]).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("theme = \"light\""), "{stdout}");
    assert!(stdout.contains(&mine.display().to_string()), "{stdout}");
    assert!(stdout.contains("(sets selected)"), "{stdout}");

    // A theme_file that is not there is an error; theme.toml need not be.
    s.write("theme_file = \"gone.toml\"\n");
    s.cmd().args(["config", "show"]).assert().code(2).stderr(
        predicate::str::contains("gone.toml").and(predicate::str::contains("no such file")),
    );

    // A bad style: the file, the line, the key.
    s.write("");
    let theme = s.path.with_file_name("theme.toml");
    std::fs::write(
        &theme,
        "[styles]\ntitle = { fg = \"red\" }\nselected = { bg = \"blurple\" }\n",
    )
    .unwrap();
    s.cmd().args(["config", "show"]).assert().code(2).stderr(
        predicate::str::contains(theme.display().to_string())
            .and(predicate::str::contains("line 3"))
            .and(predicate::str::contains("styles.selected.bg"))
            .and(predicate::str::contains("blurple")),
    );
    std::fs::write(&theme, "[styles]\nselectd = { bg = \"red\" }\n").unwrap();
    s.cmd().args(["config", "show"]).assert().code(2).stderr(
        predicate::str::contains("line 2")
            .and(predicate::str::contains("unknown role \"selectd\""))
            .and(predicate::str::contains("severity_critical")),
    );
}

/// The binary in a pseudo-terminal: what it wrote and how it ended.
#[cfg(unix)]
mod in_a_terminal {
    use crate::common::pty::Pty;
    use std::ffi::OsStr;
    use std::path::Path;

    pub struct Run {
        pub code: u32,
        pub raw: String,
        /// The screen when `ready` was on it.
        pub screen: String,
    }

    /// Runs `findings ARGS` at 100x30; once `ready` is on the screen (if
    /// given), presses `q`.
    pub fn run(config: &Path, args: &[&str], env: &[(&str, &str)], ready: Option<&str>) -> Run {
        // Visits and crash logs go beside the test's config, not the user's.
        let state = config.parent().expect("the config's folder");
        // The config file at its usual place (FINDINGS_CONFIG would say a
        // configuration was meant, and the demo is not used unasked).
        let home = state.parent().expect("the config folder's parent");
        let mut vars: Vec<(&str, &OsStr)> = vec![
            ("XDG_CONFIG_HOME", home.as_os_str()),
            ("XDG_STATE_HOME", state.as_os_str()),
        ];
        vars.extend(env.iter().map(|(k, v)| (*k, OsStr::new(v))));
        let mut pty = Pty::start(30, 100, args, &vars);
        let mut screen = String::new();
        if let Some(ready) = ready {
            // The (whole) frame with `ready` is kept; then quit.
            screen = pty.wait_for(ready);
            pty.press(b"q");
        }
        let (status, _, raw) = pty.finish();
        Run {
            code: status.exit_code(),
            raw,
            screen,
        }
    }
}

#[cfg(unix)]
#[test]
fn a_bad_theme_file_stops_the_tui_before_it_takes_the_terminal() {
    let s = Setup::new();
    s.write("");
    let theme = s.path.with_file_name("theme.toml");
    std::fs::write(
        &theme,
        "base = \"light\"\n[styles]\nkey = { modifiers = [\"blinky\"] }\n",
    )
    .unwrap();
    let run = in_a_terminal::run(&s.path, &[], &[], None);
    assert_eq!(run.code, 2, "{}", run.raw);
    assert!(
        run.raw.contains(&theme.display().to_string()),
        "{}",
        run.raw
    );
    assert!(run.raw.contains("line 3"), "{}", run.raw);
    assert!(run.raw.contains("styles.key.modifiers"), "{}", run.raw);
    assert!(
        !run.raw.contains("\x1b[?1049h"),
        "the alternate screen was never entered: {:?}",
        run.raw
    );
    // An unknown --theme, the same.
    std::fs::remove_file(&theme).unwrap();
    let run = in_a_terminal::run(&s.path, &["--theme", "sepia"], &[], None);
    assert_eq!(run.code, 2, "{}", run.raw);
    assert!(
        run.raw.contains("--theme: unknown theme \"sepia\""),
        "{}",
        run.raw
    );
    assert!(!run.raw.contains("\x1b[?1049h"));
}

#[cfg(unix)]
#[test]
fn the_tui_draws_with_the_theme_and_without_colour_under_no_color() {
    let s = Setup::new();
    s.write("");
    // The light theme: its 256-colour selection band and severity colours.
    let run = in_a_terminal::run(&s.path, &["--theme", "light"], &[], Some("100 loaded"));
    assert_eq!(run.code, 0, "{}", run.screen);
    assert!(run.raw.contains("48;5;153"), "the light selection band");
    assert!(
        run.raw.contains("38;5;160"),
        "light's high severity: {:?}",
        run.raw
    );
    // A theme file over it.
    let theme = s.path.with_file_name("theme.toml");
    std::fs::write(
        &theme,
        "[styles]\nselected = { fg = \"black\", bg = \"#ffd700\" }\n",
    )
    .unwrap();
    let run = in_a_terminal::run(&s.path, &["--theme", "light"], &[], Some("100 loaded"));
    assert!(run.raw.contains("48;2;255;215;0"), "the file's selection");
    assert!(!run.raw.contains("48;5;153"));
    // NO_COLOR: no colour at all, the severities still written out.
    let run = in_a_terminal::run(
        &s.path,
        &["--theme", "light"],
        &[("NO_COLOR", "1")],
        Some("100 loaded"),
    );
    assert_eq!(run.code, 0);
    for sgr in ["[38;", "[48;", ";38;", ";48;"] {
        assert!(!run.raw.contains(sgr), "{sgr} in {:?}", run.raw);
    }
    assert!(
        run.raw.contains("\x1b[7m"),
        "the selection in reverse video: {:?}",
        run.raw
    );
    // The severities are written out in their column.
    assert!(run.screen.contains("SEVERITY"), "{}", run.screen);
    assert!(
        ["critical", "high", "medium", "low"]
            .iter()
            // (after the `•` column of new findings on a later visit, or
            // the ticket and fix PR flags)
            .all(|s| run.screen.lines().any(|l| {
                l.strip_prefix('│').is_some_and(|row| {
                    row.trim_start_matches(['•', 'T', 'P', ' '])
                        .starts_with(&format!("{s} "))
                })
            })),
        "{}",
        run.screen
    );
}

// ---- profiles and precedence, against a server ----

#[test]
fn a_profile_connects_and_sets_the_page_size() {
    let server = Server::start();
    let s = Setup::new();
    s.write(&profiles(&server.url(), "page_size = 7"));
    // --profile picks it; no demo notice: it talks to the server named.
    let out = s
        .cmd()
        .args(["--profile", "demo", "issues", "--format", "ndjson"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains("embedded demo server"), "{stderr}");
    assert_eq!(
        lines(&out.stdout),
        7,
        "page_size = 7 is the default --limit"
    );
    // --limit still beats it; the flag may come after the subcommand.
    let out = s
        .cmd()
        .args([
            "issues",
            "--limit",
            "3",
            "--format",
            "ndjson",
            "--profile",
            "demo",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(lines(&out.stdout), 3);
    // FINDINGS_PROFILE picks it too.
    s.cmd()
        .env("FINDINGS_PROFILE", "demo")
        .args(["issues", "--max", "2", "--format", "ndjson"])
        .assert()
        .success();
    // An unknown profile is named, with the ones there are.
    s.cmd()
        .args(["--profile", "nope", "issues"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("\"nope\"").and(predicate::str::contains("\"demo\"")));
}

#[test]
fn flags_beat_environment_beat_profile_beat_defaults() {
    let server = Server::start();
    let s = Setup::new();
    s.write(&format!(
        "default_profile = \"demo\"\n{}",
        profiles(&server.url(), "")
    ));
    // The default profile: reaches the server.
    s.cmd()
        .args(["issues", "--max", "2", "--format", "ndjson"])
        .assert()
        .success()
        .stderr(predicate::str::contains("embedded demo server").not());
    // The environment beats the profile: deployment 9999 is not found.
    s.cmd()
        .env("FINDINGS_DEPLOYMENT", "9999")
        .args(["issues", "--max", "2"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("not found"));
    // A flag beats the environment.
    s.cmd()
        .env("FINDINGS_DEPLOYMENT", "9999")
        .args([
            "issues",
            "--max",
            "2",
            "--deployment",
            "1234",
            "--format",
            "ndjson",
        ])
        .assert()
        .success();
    // FINDINGS_TOKEN beats the profile's token_command.
    s.cmd()
        .env("FINDINGS_TOKEN", "wrong-token")
        .args(["issues", "--max", "2"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("not authenticated"));
    // --profile beats default_profile.
    s.cmd()
        .args(["--profile", "broken", "issues", "--max", "1"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("the connection was refused"));
    // A file named that is not there is a mistake, not the defaults.
    findings(&s.dir.path().join("none.toml"))
        .env("FINDINGS_BASE_URL", "demo")
        .args(["issues", "--max", "1", "--format", "ndjson"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("none.toml, which does not exist"));
}

#[test]
fn a_profile_token_is_only_sent_to_the_profile_server() {
    let server = Server::start();
    let other = Server::start();
    let s = Setup::new();
    s.write(&profiles(&server.url(), "read_only = true"));
    s.cmd()
        .env("FINDINGS_BASE_URL", other.url())
        .args(["--profile", "demo", "issues", "--max", "1"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("no token")
                .and(predicate::str::contains("FINDINGS_TOKEN"))
                .and(predicate::str::contains("demo-token").not()),
        );
    // The profile's read_only refuses the write.
    s.cmd()
        .args([
            "--profile",
            "demo",
            "scm",
            "update",
            "1001",
            "--diff-scan",
            "on",
            "--yes",
        ])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("read-only").and(predicate::str::contains("profile demo")),
        );
}

// ---- bad files ----

#[test]
fn a_bad_file_names_the_file_the_line_and_the_key() {
    let s = Setup::new();
    s.write("[profiles.work]\nbase_url = \"https://x.example.com\"\npage_size = 0\n");
    s.cmd()
        .args(["issues", "--max", "1"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains(s.path.display().to_string())
                .and(predicate::str::contains("line 3"))
                .and(predicate::str::contains("profiles.work.page_size"))
                .and(predicate::str::contains("1 to 1000")),
        );
    // An unknown key (a typo) is refused, naming it and the valid ones.
    s.write("[profiles.work]\n\ntoken_comand = \"pass show x\"\n");
    s.cmd().args(["config", "show"]).assert().code(2).stderr(
        predicate::str::contains("line 3")
            .and(predicate::str::contains("token_comand"))
            .and(predicate::str::contains("token_command")),
    );
    // Not TOML at all.
    s.write("default_profile = \"a\"\n[profiles.a\n");
    s.cmd()
        .args(["config", "show"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("line 2"));
    // A filter field that List issues does not have.
    s.write("[views.mine]\nfilters = [\"owner=me\"]\n");
    s.cmd().args(["config", "show"]).assert().code(2).stderr(
        predicate::str::contains("views.mine.filters").and(predicate::str::contains("owner")),
    );
    // Commands that do not need the file work despite it.
    s.cmd().args(["config", "path"]).assert().success();
    s.cmd().args(["completions", "bash"]).assert().success();
}

// ---- tokens: permissions, token_file, token_command ----

#[cfg(unix)]
#[test]
fn a_token_readable_by_others_is_refused_with_the_fix() {
    let server = Server::start();
    let s = Setup::new();
    s.write(&format!(
        "[profiles.demo]\nbase_url = \"{}\"\ndeployment = 1234\ntoken = \"demo-token\"\n",
        server.url()
    ));
    chmod(&s.path, 0o644);
    s.cmd()
        .args(["--profile", "demo", "issues", "--max", "1"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains(format!("chmod 600 {}", s.path.display()))
                .and(predicate::str::contains("644"))
                .and(predicate::str::contains("demo-token").not()),
        );
    chmod(&s.path, 0o600);
    s.cmd()
        .args([
            "--profile",
            "demo",
            "issues",
            "--max",
            "1",
            "--format",
            "ndjson",
        ])
        .assert()
        .success();

    // A token_file: the same rule; a relative path is from the config folder.
    let token_path = s.path.parent().unwrap().join("demo.token");
    std::fs::write(&token_path, "  demo-token  \n").unwrap();
    chmod(&token_path, 0o640);
    s.write(&format!(
        "[profiles.demo]\nbase_url = \"{}\"\ndeployment = 1234\ntoken_file = \"demo.token\"\n",
        server.url()
    ));
    // The file itself holds no token now: group-readable is fine for it.
    chmod(&s.path, 0o644);
    s.cmd()
        .args(["--profile", "demo", "issues", "--max", "1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!(
            "chmod 600 {}",
            token_path.display()
        )));
    chmod(&token_path, 0o600);
    s.cmd()
        .args([
            "--profile",
            "demo",
            "issues",
            "--max",
            "1",
            "--format",
            "ndjson",
        ])
        .assert()
        .success();
    std::fs::write(&token_path, "\n \n").unwrap();
    s.cmd()
        .args(["--profile", "demo", "issues", "--max", "1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("empty"));
}

#[cfg(unix)]
#[test]
fn token_command_output_is_trimmed_and_failures_are_clear() {
    let server = Server::start();
    let s = Setup::new();
    let with = |cmd: &str| {
        s.write(&format!(
            "[profiles.demo]\nbase_url = \"{}\"\ndeployment = 1234\ntoken_command = {cmd:?}\n",
            server.url()
        ));
    };
    with("printf '  demo-token \\n'");
    s.cmd()
        .args([
            "--profile",
            "demo",
            "issues",
            "--max",
            "1",
            "--format",
            "ndjson",
        ])
        .assert()
        .success();
    // A failure names the exit status, never the output.
    with("echo leaked-output; exit 7");
    s.cmd()
        .args(["--profile", "demo", "issues", "--max", "1"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("exit status: 7")
                .and(predicate::str::contains("token_command"))
                .and(predicate::str::contains("leaked-output").not()),
        );
    with("true");
    s.cmd()
        .args(["--profile", "demo", "issues", "--max", "1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("printed nothing"));
    // The command is not run when it is not needed (demo, or env token).
    with("touch ran; echo demo-token");
    s.cmd()
        .env("FINDINGS_TOKEN", "demo-token")
        .current_dir(s.dir.path())
        .args([
            "--profile",
            "demo",
            "issues",
            "--max",
            "1",
            "--format",
            "ndjson",
        ])
        .assert()
        .success();
    s.cmd()
        .current_dir(s.dir.path())
        .args(["--profile", "demo", "config", "show"])
        .assert()
        .success()
        .stdout(predicate::str::contains("not run"));
    assert!(!s.dir.path().join("ran").exists());
}

// ---- shell integration ----

#[test]
fn completions_for_every_shell() {
    let s = Setup::new();
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let out = s.cmd().args(["completions", shell]).output().unwrap();
        assert!(out.status.success(), "{shell}");
        let script = String::from_utf8_lossy(&out.stdout);
        // The script asks the binary itself at each Tab.
        assert!(
            script.contains("FINDINGS_COMPLETE") && script.contains("findings"),
            "{shell}: {script}"
        );
    }
    s.cmd()
        .args(["completions", "tcsh"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("bash"));
}

#[cfg(unix)]
#[test]
fn the_bash_completion_script_loads() {
    if std::process::Command::new("bash")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("no bash here; skipping");
        return;
    }
    let s = Setup::new();
    let out = s.cmd().args(["completions", "bash"]).output().unwrap();
    let script = s.dir.path().join("findings.bash");
    std::fs::write(&script, &out.stdout).unwrap();
    let check = std::process::Command::new("bash")
        .arg("-n")
        .arg(&script)
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
    // Sourced, it registers a completion for `findings` that offers the
    // subcommands.
    let run = std::process::Command::new("bash")
        .arg("-c")
        .arg(format!(
            "source {}; complete -p findings; COMP_WORDS=(findings co); COMP_CWORD=1; COMP_LINE='findings co'; COMP_POINT=11; _clap_complete_findings findings co findings; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
            script.display()
        ))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(
        stdout.contains("-F _clap_complete_findings findings"),
        "{stdout}"
    );
    assert!(
        stdout.contains("config") && stdout.contains("completions"),
        "{stdout}"
    );
}

#[test]
fn man_prints_a_roff_page() {
    let s = Setup::new();
    let out = s.cmd().arg("man").output().unwrap();
    assert!(out.status.success());
    let page = String::from_utf8_lossy(&out.stdout);
    assert!(
        page.starts_with(".ie") || page.contains(".TH findings"),
        "{page}"
    );
    assert!(
        page.contains(".SH NAME") && page.contains("\\-\\-profile"),
        "{page}"
    );
    let dir = s.dir.path().join("man");
    s.cmd().args(["man", "--dir"]).arg(&dir).assert().success();
    assert!(dir.join("findings.1").exists());
    assert!(dir.join("findings-issues.1").exists());
}

// ---- logging ----

#[test]
fn the_log_file_has_a_line_per_request_and_never_a_token() {
    let server = Server::start();
    let s = Setup::new();
    let log = s.dir.path().join("logs").join("findings.log");
    let scm_secret = "scm-pat-0123456789-secret";
    let out = s
        .cmd()
        .env("FINDINGS_BASE_URL", server.url())
        .env("FINDINGS_DEPLOYMENT", "1234")
        .env("FINDINGS_TOKEN", "demo-token")
        .arg("--log-file")
        .arg(&log)
        .args([
            "scm",
            "update",
            "1001",
            "--access-token-stdin",
            "--yes",
            "--diff-scan",
            "on",
        ])
        .write_stdin(format!("{scm_secret}\n"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        !stderr.contains("request"),
        "logs never go to the terminal: {stderr}"
    );
    s.cmd()
        .env("FINDINGS_BASE_URL", server.url())
        .env("FINDINGS_DEPLOYMENT", "1234")
        .env("FINDINGS_TOKEN", "demo-token")
        .arg("--log-file")
        .arg(&log)
        .args(["issues", "--max", "3", "--format", "ndjson"])
        .assert()
        .success();
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    let patch = lines[0];
    for part in [
        "request",
        "method=PATCH",
        "path=/api/scm/deployments/1234/configs/1001",
        "status=200",
        "retry=0",
        "duration_ms=",
    ] {
        assert!(patch.contains(part), "{part} in {patch}");
    }
    assert!(lines[1].contains("method=POST") && lines[1].contains("/issues"));
    assert!(!text.contains(scm_secret), "{text}");
    assert!(!text.contains("demo-token"), "{text}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&log).unwrap().permissions().mode();
        assert_eq!(mode & 0o077, 0, "the log is private");
    }
}

#[test]
fn findings_log_alone_writes_to_the_state_folder() {
    let s = Setup::new();
    let state = s.dir.path().join("state");
    let mut cmd = s.cmd();
    cmd.env("FINDINGS_LOG", "debug")
        .env("FINDINGS_BASE_URL", "demo")
        .env("XDG_STATE_HOME", &state)
        .env("HOME", s.dir.path())
        .args(["issues", "--max", "1", "--format", "ndjson"]);
    let out = cmd.output().unwrap();
    assert!(out.status.success());
    assert!(!String::from_utf8_lossy(&out.stderr).contains("method="));
    #[cfg(target_os = "linux")]
    {
        let text = std::fs::read_to_string(state.join("findings/findings.log")).unwrap();
        assert!(text.contains("method=POST"), "{text}");
    }
    s.cmd()
        .env("FINDINGS_LOG", "loud")
        .args(["issues", "--max", "1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("FINDINGS_LOG"));
}

// ---- the TUI's hooks: default pane, default sort and filters, `:view` ----

mod tui_hooks {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    use findings_model::{
        IssueType, ListIssuesFilter, ListIssuesRequest, ListSelection, SortBy, SortDirection,
    };
    use findings_requests::filter_spec::{self, LIST_FILTER};
    use findings_tui::app::{App, Effect, Msg, Overlay, SavedView, Session};
    use findings_tui::keymap::Keymap;
    use findings_tui::message::ApiRequest;
    use findings_tui::theme::Theme;

    fn view(
        name: &str,
        sort: Option<SortBy>,
        dir: Option<SortDirection>,
        filters: &[&str],
    ) -> SavedView {
        SavedView {
            name: name.into(),
            sort_by: sort,
            direction: dir,
            filters: filters.iter().map(|s| s.to_string()).collect(),
        }
    }

    /// The type selection and filter object a request carries for `pairs`.
    fn filter(pairs: &[(&str, &str)]) -> (Vec<IssueType>, Option<ListIssuesFilter>) {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let selection: Option<ListSelection> =
            filter_spec::build(LIST_FILTER, "List issues", &pairs).unwrap();
        let mut req = ListIssuesRequest::default();
        selection.unwrap_or_default().apply_to(&mut req);
        (req.issue_types, req.filter)
    }

    fn selected(req: &ListIssuesRequest) -> (Vec<IssueType>, Option<ListIssuesFilter>) {
        (req.issue_types.clone(), req.filter.clone())
    }

    fn app(session: Session) -> App {
        App::new(
            session,
            Keymap::default_keymap(),
            Theme::no_color(),
            (120, 40),
        )
    }

    fn last_list_request(effects: &[Effect]) -> Option<ListIssuesRequest> {
        effects.iter().rev().find_map(|e| match e {
            Effect::Send {
                request: ApiRequest::ListRows(req),
                ..
            } => Some(req.clone()),
            _ => None,
        })
    }

    fn type_command(app: &mut App, line: &str) -> Vec<Effect> {
        let mut effects = app.update(Msg::Key(KeyEvent::new(
            KeyCode::Char(':'),
            KeyModifiers::NONE,
        )));
        for c in line.chars() {
            effects.extend(app.update(Msg::Key(KeyEvent::new(
                KeyCode::Char(c),
                KeyModifiers::NONE,
            ))));
        }
        effects.extend(app.update(Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE))));
        effects
    }

    #[test]
    fn the_default_view_shapes_the_first_request_and_view_applies_a_saved_one() {
        let mut app = app(Session {
            deployment: "1234".into(),
            demo: true,
            default_view: Some(view(
                "default",
                Some(SortBy::Severity),
                Some(SortDirection::Asc),
                &["issueTypes=sca"],
            )),
            views: vec![view(
                "secrets",
                Some(SortBy::Rule),
                None,
                &["issueTypes=secrets", "excludeHistorical=true"],
            )],
            ..Default::default()
        });
        let first = last_list_request(&app.start()).expect("the first page is asked for");
        assert_eq!(first.sort_by, Some(SortBy::Severity));
        assert_eq!(first.sort_direction, Some(SortDirection::Asc));
        assert_eq!(selected(&first), filter(&[("issueTypes", "sca")]));

        let effects = type_command(&mut app, "view secrets");
        let req = last_list_request(&effects).expect(":view reloads");
        assert_eq!(req.sort_by, Some(SortBy::Rule));
        assert_eq!(req.sort_direction, None, "a view is the whole sort");
        assert_eq!(
            selected(&req),
            filter(&[("issueTypes", "secrets"), ("excludeHistorical", "true")]),
            "a view replaces the filters"
        );
        assert_eq!(app.status.as_deref(), Some("view secrets"));

        let effects = type_command(&mut app, "view nope");
        assert!(last_list_request(&effects).is_none());
        match &app.overlay {
            Some(Overlay::Error { message, .. }) => {
                assert!(
                    message.contains("\"nope\"") && message.contains("secrets"),
                    "{message}"
                );
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_filter_form_offers_the_saved_views() {
        let mut app = app(Session {
            deployment: "1234".into(),
            demo: true,
            views: vec![
                view("crit", Some(SortBy::Severity), None, &["issueTypes=sast"]),
                view(
                    "secrets",
                    Some(SortBy::Rule),
                    Some(SortDirection::Asc),
                    &["issueTypes=secrets"],
                ),
            ],
            ..Default::default()
        });
        app.start();
        let key = |app: &mut App, code: KeyCode| {
            app.update(Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)))
        };
        key(&mut app, KeyCode::Char('f'));
        let mut terminal =
            ratatui::Terminal::new(ratatui::backend::TestBackend::new(120, 40)).unwrap();
        // Up from the first field reaches the last view.
        key(&mut app, KeyCode::Up);
        terminal
            .draw(|f| findings_tui::app::view::draw(f, &app))
            .unwrap();
        let screen: String = terminal
            .backend()
            .buffer()
            .content()
            .iter()
            .map(|c| c.symbol())
            .collect();
        assert!(screen.contains("[ View crit ]"), "{screen}");
        assert!(
            screen.contains("[ View secrets ] sort rule ↑ · issueTypes=secrets"),
            "{screen}"
        );
        let effects = key(&mut app, KeyCode::Enter);
        let req = last_list_request(&effects).expect("choosing a view reloads");
        assert_eq!(req.sort_by, Some(SortBy::Rule));
        assert_eq!(req.sort_direction, Some(SortDirection::Asc));
        assert_eq!(selected(&req), filter(&[("issueTypes", "secrets")]));
        assert!(app.issues().form.is_none(), "the form closes");
        assert_eq!(app.status.as_deref(), Some("view secrets"));
    }

    #[test]
    fn every_pane_of_the_registry_can_be_the_one_the_app_opens_on() {
        use findings_tui::message::PaneId;
        let names = findings_tui::panes::names();
        assert!(names.len() >= 4, "{names:?}");
        for (name, _) in names {
            let app = app(Session {
                default_pane: Some(PaneId(name.as_str())),
                ..Default::default()
            });
            assert_eq!(app.pane, PaneId(name.as_str()));
        }
    }

    #[test]
    fn the_default_pane_is_where_the_app_opens() {
        let mut app = app(Session {
            deployment: "1234".into(),
            default_pane: Some(findings_tui::panes::report::ID),
            ..Default::default()
        });
        assert_eq!(app.pane, findings_tui::panes::report::ID);
        let effects = app.start();
        assert!(effects.iter().any(|e| matches!(
            e,
            Effect::Send {
                request: ApiRequest::Report(_),
                ..
            }
        )));
        assert!(last_list_request(&effects).is_none());
    }
}

/// A server that answers 503 once, then an empty page: the log shows the
/// retry.
#[test]
fn the_log_counts_retries() {
    use std::io::{BufRead, BufReader, Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        let answers = [
            (
                "503 Service Unavailable",
                r#"{"error":"busy","code":"unavailable"}"#,
            ),
            ("200 OK", r#"{"issues":[]}"#),
        ];
        for (status, body) in answers {
            let Ok((stream, _)) = listener.accept() else {
                return;
            };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut length = 0usize;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
                if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap_or(0);
                }
            }
            let mut body_in = vec![0; length];
            let _ = reader.read_exact(&mut body_in);
            let mut stream = stream;
            let _ = write!(
                stream,
                "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    let s = Setup::new();
    let log = s.dir.path().join("retry.log");
    s.cmd()
        .env("FINDINGS_BASE_URL", &url)
        .env("FINDINGS_DEPLOYMENT", "1234")
        .env("FINDINGS_TOKEN", "tok-never-logged")
        .arg("--log-file")
        .arg(&log)
        .args(["issues", "--format", "ndjson"])
        .assert()
        .success();
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines[0].contains("status=503") && lines[0].contains("retry=0"),
        "{text}"
    );
    assert!(
        lines[1].contains("status=200") && lines[1].contains("retry=1"),
        "{text}"
    );
    assert!(!text.contains("tok-never-logged"));
}

/// The example of the book's Configuration page is a valid file.
#[test]
fn the_readme_example_is_a_valid_config() {
    let page = include_str!("../../docs/src/configuration.md");
    let section = &page[page.find("# Configuration").expect("the section")..];
    let start = section.find("```toml\n").expect("a TOML example") + "```toml\n".len();
    let example = &section[start..start + section[start..].find("```").unwrap()];
    let file = findings_config::parse(Path::new("configuration.md"), example)
        .unwrap_or_else(|e| panic!("{}", e.0));
    assert_eq!(file.default_profile.as_deref(), Some("work"));
    assert_eq!(file.profiles.len(), 2);
    assert_eq!(file.profiles["staging"].views.len(), 1);
    assert_eq!(file.views.len(), 1);
}

/// The theme file example of the book's Themes section (on the
/// Configuration page) is valid and does what the text says.
#[test]
fn the_readme_theme_example_is_a_valid_theme_file() {
    use findings_tui::theme::{Theme, ThemeFile};
    let page = include_str!("../../docs/src/configuration.md");
    let section = &page[page.find("## Themes").expect("the section")..];
    let start = section.find("```toml\n").expect("a TOML example") + "```toml\n".len();
    let example = &section[start..start + section[start..].find("```").unwrap()];
    let file = ThemeFile::parse(Path::new("theme.toml"), example).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(file.base.as_deref(), Some("light"));
    let theme = Theme::new("light", Some(&file), false).unwrap();
    assert_ne!(
        theme.selected(),
        Theme::builtin("light").unwrap().selected()
    );
}

/// The panes a profile or a keymap file names are checked against the
/// panes there are before the TUI starts (the panes declare their names
/// and key contexts), and the error names what there is. (`findings` on a
/// terminal runs these checks first; off a terminal it prints a summary.)
#[test]
fn a_pane_or_context_that_does_not_exist_is_said_with_those_there_are() {
    use findings_config::keymap_file::KeymapFile;
    use findings_tui::keymap::Keymap;
    use findings_tui::panes;
    assert_eq!(panes::find("scm").map(|p| p.0), Ok("scm"));
    assert_eq!(
        panes::find("dashboard"),
        Err("no such pane; panes: report, issues, agentic, scm".to_owned())
    );
    let user = |text: &str| {
        let file = KeymapFile::parse(Path::new("keymap.toml"), text).unwrap();
        Keymap::default_keymap()
            .with_overrides(file)
            .check(&panes::names())
    };
    // Every context of the default keymap is the app's or a pane's.
    assert_eq!(Keymap::default_keymap().check(&panes::names()), Ok(()));
    assert_eq!(
        user("[[scm_list]]\nkeys = [\"x\"]\naction = \"refresh\"\n"),
        Ok(())
    );
    let err = user("[[isues]]\nkeys = [\"x\"]\naction = \"refresh\"\n").unwrap_err();
    assert!(
        err.contains("unknown context [[isues]] (did you mean issues?)")
            && err.contains("scm_list"),
        "{err}"
    );
    let err = user("[[global]]\nkeys = [\"9\"]\nshow_pane = \"repot\"\n").unwrap_err();
    assert!(
        err.contains(
            "show_pane = \"repot\": no such pane (did you mean report?); panes: report, issues, agentic, scm"
        ),
        "{err}"
    );
}
