//! End to end: the built binary in a pseudo-terminal. It must draw the list,
//! answer keys, quit on `q`, leave the terminal as it found it, and do the
//! same when it crashes.

use crate::common;

use common::pty::Pty;

#[test]
fn the_app_runs_in_a_real_terminal_and_restores_it() {
    let state = tempfile::tempdir().unwrap();
    let no_config = state.path().join("config-home");
    let mut s = Pty::start(
        30,
        100,
        &[],
        &[
            ("XDG_STATE_HOME", state.path().as_os_str()),
            ("XDG_CONFIG_HOME", no_config.as_os_str()),
        ],
    );
    let first = s.wait_for("loaded, more available");
    assert!(first.contains("DEMO"), "{first}");
    assert!(
        s.alternate_screen(),
        "the app draws on the alternate screen"
    );
    s.press(b"j");
    s.press(b"\r");
    s.wait_for("relevant since");
    s.press(b"l");
    // The Code tab replaced the Overview (whose fields it does not have).
    s.wait_until("the Code tab", |t| !t.contains("relevant since"));
    // Esc alone is ambiguous to terminals: the detail closing says it was
    // read alone, before the next keys.
    s.press(b"\x1b");
    s.wait_until("the detail closes", |t| !t.contains("Remediation"));
    // One triage: reviewed, sent with y, its counts said.
    s.press(b":triage reviewing checked in a pty\r");
    s.wait_for("Review: only y sends");
    // y sends once the review has read the findings again and shows the
    // request.
    s.wait_for("PATCH /api/agent/deployments");
    s.press(b"y");
    s.wait_for("updated");
    // The demo forgets the session's triage at exit: q asks, y quits.
    s.press(b"q");
    s.wait_for("Quit with unsent work?");
    s.press(b"y");
    let (status, alternate, raw) = s.finish();
    assert!(status.success(), "{status:?}");
    assert!(!alternate, "the terminal left the alternate screen");
    assert!(
        raw.contains("\x1b[?1049l"),
        "leave-alternate-screen was written"
    );
    assert!(!raw.contains("panicked"), "no panic");
}

#[test]
fn a_panic_restores_the_terminal_and_leaves_a_crash_log() {
    let state = tempfile::tempdir().unwrap();
    let no_config = state.path().join("config-home");
    let mut s = Pty::start(
        24,
        80,
        &[],
        &[
            ("FINDINGS_TEST_PANIC", "1".as_ref()),
            ("XDG_STATE_HOME", state.path().as_os_str()),
            ("XDG_CONFIG_HOME", no_config.as_os_str()),
        ],
    );
    s.wait_for("loaded, more available");
    s.press(b"\x1b[24~"); // F12
    let (status, alternate, out) = s.finish();
    assert_eq!(status.exit_code(), 101, "a crash exits non-zero");
    assert!(!alternate, "the terminal was restored");
    assert!(
        out.contains("findings crashed: test crash requested with F12"),
        "{out}"
    );
    let logs: Vec<_> = std::fs::read_dir(state.path().join("findings"))
        .expect("the state folder")
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("crash-")
        })
        .collect();
    assert_eq!(logs.len(), 1, "one crash log");
    assert!(
        out.contains(&*logs[0].to_string_lossy()),
        "the message names the log"
    );
    let log = std::fs::read_to_string(&logs[0]).unwrap();
    assert!(log.contains("test crash requested with F12"));
    assert!(!log.contains("demo-token"), "no token in the crash log");
}

#[test]
fn findings_new_since_the_last_visit_are_marked_and_the_visit_recorded() {
    let state = tempfile::tempdir().unwrap();
    let no_config = state.path().join("config-home");
    let dir = state.path().join("findings");
    std::fs::create_dir_all(&dir).unwrap();
    let last = chrono::Utc::now() - chrono::Duration::days(3);
    let visits = dir.join("visits.json");
    let other = r#""work": { "issues": "2026-01-01T00:00:00Z" }"#;
    std::fs::write(
        &visits,
        format!(
            r#"{{ "profiles": {{ "(demo)": {{ "issues": "{}" }}, {other} }} }}"#,
            last.to_rfc3339()
        ),
    )
    .unwrap();
    let mut s = Pty::start(
        30,
        120,
        &[],
        &[
            ("XDG_STATE_HOME", state.path().as_os_str()),
            ("XDG_CONFIG_HOME", no_config.as_os_str()),
        ],
    );
    let since = last.format("%Y-%m-%d %H:%M").to_string();
    let note = format!("new since {since}");
    // Rows marked, and counted in the status line.
    let zero = format!("{note}: 0 loaded");
    s.wait_until("new rows", |t| {
        t.contains(&note) && t.contains("│•") && !t.contains(&zero)
    });
    // `+`: only the new ones, asked of the server (relevant since the visit).
    s.press(b"+");
    let message = format!("only the findings new since your last visit ({since} UTC)");
    let screen = s.wait_until("the new findings", |t| {
        t.contains(&message) && t.contains("│•")
    });
    let rows = screen.lines().filter(|l| l.starts_with("│•")).count();
    let older = screen
        .lines()
        .filter(|l| l.starts_with("│ ") && l.contains("2026-"))
        .count();
    assert!(rows > 5 && older == 0, "{screen}");
    s.press(b"q");
    let (status, _, _) = s.finish();
    assert!(status.success(), "{status:?}");
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&visits).unwrap()).unwrap();
    let seen: chrono::DateTime<chrono::Utc> = written["profiles"]["(demo)"]["issues"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        (chrono::Utc::now() - seen).num_seconds() < 60,
        "the visit is recorded as now: {written}"
    );
    assert_eq!(
        written["profiles"]["work"]["issues"], "2026-01-01T00:00:00Z",
        "other profiles are kept"
    );
    assert!(
        written["profiles"]["(demo)"].get("report").is_none(),
        "the Report pane was not shown"
    );
}

/// `findings --snapshot FILE` in a real terminal at 80×24, the deployment
/// the snapshot came from stopped and the configured one unreachable: the
/// list is drawn from the file, with the SNAPSHOT badge, and no visit of
/// the profile is recorded. Opening it said so at once, on stderr.
#[test]
fn a_snapshot_opens_offline_in_a_real_terminal_with_no_deployment_at_all() {
    let state = tempfile::tempdir().unwrap();
    let no_config = state.path().join("config-home");
    let snap = state.path().join("review.snap");
    let server = crate::cli::Server::with_options(findings_demo::DemoOptions {
        findings: 300,
        anchor: Some(common::anchor()),
        ..Default::default()
    });
    let (code, _, stderr) = server.run(&["snapshot", "save", "-o", snap.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    drop(server);
    let mut s = Pty::start(
        24,
        80,
        &["--snapshot", snap.to_str().unwrap()],
        &[
            ("XDG_STATE_HOME", state.path().as_os_str()),
            ("XDG_CONFIG_HOME", no_config.as_os_str()),
            ("FINDINGS_BASE_URL", "http://127.0.0.1:9".as_ref()),
            ("FINDINGS_DEPLOYMENT", "1234".as_ref()),
            ("FINDINGS_TOKEN", "the-configured-secret".as_ref()),
        ],
    );
    let first = s.wait_for("loaded, more available");
    assert!(first.contains(" SNAPSHOT 20"), "{first}");
    assert!(!first.contains("DEMO"), "{first}");
    s.press(b"q");
    let (status, alternate, raw) = s.finish();
    assert!(status.success(), "{status:?}");
    assert!(!alternate);
    assert!(!raw.contains("panicked"));
    // Before the first frame, the terminal said what it was opening (a
    // big file takes seconds), and the line went before the TUI drew.
    let opening = raw.find("opening review.snap: 0 findings").expect(&raw);
    let wiped = raw[opening..].find("\r\x1b[2K").expect("the line wiped");
    let drawn = raw.find("loaded, more available").expect(&raw);
    assert!(opening + wiped < drawn, "{raw}");
    assert!(!state.path().join("findings").join("visits.json").exists());
}

/// Progress is for a person: on a CI runner's pseudo-terminal (`CI` set),
/// on a dumb terminal, with `FINDINGS_NO_PROGRESS` or a profile's
/// `progress = false`, opening a snapshot says nothing on stderr, where a
/// person's terminal was told at once (the test above).
#[test]
fn no_progress_reaches_a_terminal_that_is_no_person() {
    let state = tempfile::tempdir().unwrap();
    let snap = state.path().join("review.snap");
    let quiet_profile = state.path().join("quiet.toml");
    std::fs::write(
        &quiet_profile,
        "default_profile = \"ci\"\n[profiles.ci]\nprogress = false\n",
    )
    .unwrap();
    let no_config = state.path().join("none.toml");
    let server = crate::cli::Server::start(60);
    let (code, _, stderr) = server.run(&["snapshot", "save", "-o", snap.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    drop(server);
    for (var, value) in [
        ("CI", "true"),
        ("TERM", "dumb"),
        ("FINDINGS_NO_PROGRESS", "1"),
        ("FINDINGS_CONFIG", quiet_profile.to_str().unwrap()),
    ] {
        let config = if var == "FINDINGS_CONFIG" {
            value
        } else {
            no_config.to_str().unwrap()
        };
        let mut s = Pty::start(
            24,
            80,
            &["--snapshot", snap.to_str().unwrap()],
            &[
                ("XDG_STATE_HOME", state.path().to_str().unwrap()),
                ("FINDINGS_CONFIG", config),
                (var, value),
            ],
        );
        s.wait_for(" SNAPSHOT 20");
        s.press(b"q");
        let (status, _, raw) = s.finish();
        assert!(status.success(), "{var}: {status:?}");
        assert!(!raw.contains("opening review.snap"), "{var}={value}: {raw}");
    }
}

/// Ctrl-Z gives the terminal back and stops the app; `fg` (SIGCONT) takes
/// it again and draws the same screen, and the app goes on answering keys.
/// The pty answers no cursor-position query: the app must not ask one.
#[test]
fn ctrl_z_suspends_and_fg_redraws_the_same_screen() {
    let state = tempfile::tempdir().unwrap();
    let no_config = state.path().join("config-home");
    let mut s = Pty::start(
        30,
        100,
        &[],
        &[
            ("XDG_STATE_HOME", state.path().as_os_str()),
            ("XDG_CONFIG_HOME", no_config.as_os_str()),
        ],
    );
    s.wait_for("loaded, more available");
    s.press(b"j");
    let before = s.wait_until("the second row selected", |t| t.contains("2/100"));
    s.press(b"\x1a");
    assert!(s.wait_stopped(), "the app stopped itself");
    assert!(s.wait_given_back(), "the terminal was given back");
    s.resume();
    let after = s.wait_until_drawn("the screen again", |t| t.contains("2/100"));
    // A frame drawn whole writes the blanks a diff skips; the spinner may
    // have turned.
    let same = |t: &str| -> Vec<String> {
        t.lines()
            .map(|l| {
                l.trim_end()
                    .trim_start_matches(|c: char| ('\u{2800}'..='\u{28ff}').contains(&c))
                    .to_owned()
            })
            .collect()
    };
    assert_eq!(same(&after), same(&before), "the same screen, drawn whole");
    // It still answers keys, and quits cleanly.
    s.press(b"j");
    s.wait_until_drawn("the third row selected", |t| t.contains("3/100"));
    s.press(b"q");
    let (status, alternate, raw) = s.finish();
    assert!(status.success(), "{status:?}: {raw}");
    assert!(!alternate);
    assert!(!raw.contains("cursor position"), "no terminal error");
}

/// `demo serve --days-later N` prints `FINDINGS_NOW` for its clients: the
/// TUI counts ages to it as the headless commands do, and time still
/// passes from there.
#[test]
fn the_tui_counts_ages_to_findings_now() {
    let state = tempfile::tempdir().unwrap();
    let no_config = state.path().join("config-home");
    let today = chrono::Utc::now().date_naive();
    let later = (today + chrono::Days::new(1000))
        .and_hms_opt(0, 0, 0)
        .unwrap();
    let now = format!("{}Z", later.format("%Y-%m-%dT%H:%M:%S"));
    let mut s = Pty::start(
        30,
        100,
        &[],
        &[
            ("FINDINGS_NOW", now.as_ref()),
            ("XDG_STATE_HOME", state.path().as_os_str()),
            ("XDG_CONFIG_HOME", no_config.as_os_str()),
        ],
    );
    let screen = s.wait_for("loaded, more available");
    // Every open finding's age: first detected at most a year before
    // today, so counted to a now 1,000 days on, each is over 1,000 days.
    let ages: Vec<u64> = screen
        .split_whitespace()
        .filter_map(|w| w.strip_suffix('d')?.parse().ok())
        .collect();
    assert!(ages.len() >= 5, "{screen}");
    assert!(ages.iter().all(|&a| a >= 1000), "{ages:?}\n{screen}");
    s.press(b"q");
    let (status, _, _) = s.finish();
    assert!(status.success(), "{status:?}");
}

#[test]
fn a_findings_now_that_is_no_time_stops_every_command() {
    for args in [
        &[][..],
        &["issues", "--limit", "1"],
        &["report", "--kind", "activity"],
    ] {
        let out = crate::common::findings()
            .args(args)
            .env("FINDINGS_NOW", "yesterday")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("FINDINGS_NOW=\"yesterday\" is not an RFC 3339 time"),
            "{err}"
        );
    }
}
