//! The headless commands against a demo server that misbehaves on purpose
//! (src/demo/faults.rs): for each fault, the exit code, an error that names
//! what happened, no panic, retries only where docs/src/api.md §13 allows (counted
//! on the server), and the rows already fetched kept on stdout.

use crate::common;

use assert_cmd::Command;
use common::findings;
use findings_demo::faults::{FaultKind, Faults};
use findings_demo::{DemoOptions, DemoServer};
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::{Duration, Instant};

/// A demo server in this process, its faults set through the test API.
struct Server {
    runtime: Option<tokio::runtime::Runtime>,
    server: Option<DemoServer>,
}

impl Server {
    fn start(findings: usize, faults: Faults) -> Server {
        let runtime = tokio::runtime::Runtime::new().unwrap();
        let server = runtime
            .block_on(DemoServer::start_local(DemoOptions {
                findings,
                ..Default::default()
            }))
            .unwrap();
        server.set_faults(faults);
        Server {
            runtime: Some(runtime),
            server: Some(server),
        }
    }

    fn demo(&self) -> &DemoServer {
        self.server.as_ref().unwrap()
    }

    /// API requests received since the faults were set (retries included).
    fn requests(&self) -> u64 {
        self.demo().requests()
    }

    /// The binary, pointed at this server.
    fn findings(&self, args: &[&str]) -> Command {
        let mut cmd = findings();
        cmd.args(args)
            .env("FINDINGS_BASE_URL", self.demo().url())
            .env("FINDINGS_DEPLOYMENT", self.demo().deployment())
            .env("FINDINGS_TOKEN", self.demo().token());
        cmd
    }

    /// Runs the binary against this server.
    fn run(&self, args: &[&str]) -> Outcome {
        Outcome::of(&mut self.findings(args))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            {
                let _guard = runtime.enter();
                self.server.take();
            }
            // Requests held by `hang` must not keep the test waiting.
            runtime.shutdown_background();
        }
    }
}

/// What a run left behind.
struct Outcome {
    code: i32,
    stdout: String,
    stderr: String,
    took: Duration,
}

impl Outcome {
    fn of(cmd: &mut Command) -> Outcome {
        let started = Instant::now();
        let out = cmd.timeout(Duration::from_secs(60)).output().unwrap();
        let outcome = Outcome {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            took: started.elapsed(),
        };
        // Never a panic, whatever the server did.
        assert!(
            !outcome.stderr.contains("panicked") && outcome.code != 101,
            "panic: {}",
            outcome.stderr
        );
        assert!(
            !outcome.stderr.contains("demo-token"),
            "the token leaked: {}",
            outcome.stderr
        );
        outcome
    }

    /// Exit 1 with one error line on stderr naming each of `words`.
    fn fails_naming(&self, words: &[&str]) -> &Self {
        assert_eq!(self.code, 1, "stderr: {}", self.stderr);
        let error = self
            .stderr
            .lines()
            .find(|l| l.starts_with("findings: error: "))
            .unwrap_or_else(|| panic!("no error line: {}", self.stderr));
        for word in words {
            assert!(error.contains(word), "{word:?} not in {error:?}");
        }
        self
    }

    fn succeeds(&self) -> &Self {
        assert_eq!(self.code, 0, "stderr: {}", self.stderr);
        self
    }

    /// The ids of the ndjson lines on stdout, in order.
    fn ids(&self) -> Vec<String> {
        self.stdout
            .lines()
            .map(|l| {
                let v: Value = serde_json::from_str(l).expect("each line is JSON");
                v["issue"]["id"].as_str().expect("an id").to_owned()
            })
            .collect()
    }
}

const LIST: &[&str] = &["issues", "--max", "5", "--format", "ndjson"];

/// The ids the demo lists with no fault, for comparison.
fn clean_ids(findings: usize, args: &[&str]) -> Vec<String> {
    Server::start(findings, Faults::none())
        .run(args)
        .succeeds()
        .ids()
}

// ------------------------------------------------------------ every request

#[test]
fn latency_slows_every_answer_but_they_arrive() {
    let plan = Faults {
        latency: Duration::from_millis(400),
        ..Faults::none()
    };
    let server = Server::start(50, plan);
    let out = server.run(&["issues", "--all", "--limit", "20", "--format", "ndjson"]);
    out.succeeds();
    assert_eq!(
        out.ids(),
        clean_ids(50, &["issues", "--all", "--format", "ndjson"])
    );
    assert_eq!(server.requests(), 3);
    assert!(out.took >= Duration::from_millis(1200), "{:?}", out.took);
}

#[test]
fn a_503_is_retried_up_to_four_attempts_and_named() {
    let server = Server::start(50, Faults::failing(503));
    server
        .run(LIST)
        .fails_naming(&["server error", "HTTP 503", "injected"]);
    assert_eq!(
        server.requests(),
        4,
        "docs/src/api.md §13: at most 4 attempts"
    );
}

#[test]
fn a_500_is_not_retried() {
    let server = Server::start(50, Faults::failing(500));
    server.run(LIST).fails_naming(&["HTTP 500", "(INTERNAL)"]);
    assert_eq!(server.requests(), 1, "a 500 is not retried");
}

#[test]
fn a_passing_503_is_retried_to_success() {
    let server = Server::start(50, Faults::failing(503).times(2));
    let out = server.run(LIST);
    out.succeeds();
    assert_eq!(out.ids(), clean_ids(50, LIST));
    assert_eq!(server.requests(), 3);
}

#[test]
fn a_fail_rate_spoils_an_even_share() {
    // Every second request fails (the first succeeds): pages 2 and 3 each
    // need one retry, and all arrive.
    let plan = Faults {
        fail_rate: 0.5,
        fail_status: 502,
        ..Faults::none()
    };
    let server = Server::start(50, plan);
    let out = server.run(&["issues", "--all", "--limit", "20", "--format", "ndjson"]);
    out.succeeds();
    // The findings of projects not archived: still three pages of 20.
    assert_eq!(out.ids().len(), common::listed(50));
    assert_eq!(server.requests(), 5, "three pages, two of them tried twice");
}

#[test]
fn a_rate_limit_waits_for_retry_after_then_succeeds() {
    let plan = Faults::kind(FaultKind::RateLimit {
        retry_after_secs: 1,
    })
    .times(1);
    let server = Server::start(50, plan);
    let out = server.run(LIST);
    out.succeeds();
    assert_eq!(server.requests(), 2);
    assert!(out.took >= Duration::from_millis(950), "{:?}", out.took);
}

#[test]
fn a_lasting_rate_limit_gives_up_after_four_attempts() {
    let plan = Faults::kind(FaultKind::RateLimit {
        retry_after_secs: 0,
    });
    let server = Server::start(50, plan);
    server
        .run(LIST)
        .fails_naming(&["rate limited", "HTTP 429", "retry after 0s"]);
    assert_eq!(server.requests(), 4);
}

#[test]
fn a_connection_reset_mid_body_is_retried_then_named() {
    let server = Server::start(50, Faults::kind(FaultKind::Reset));
    server
        .run(LIST)
        .fails_naming(&["connection", "while reading the answer"]);
    assert_eq!(server.requests(), 4, "a broken connection is retried");
}

#[test]
fn truncated_json_is_named_and_not_retried() {
    let server = Server::start(50, Faults::kind(FaultKind::Truncate));
    let out = server.run(LIST);
    out.fails_naming(&["could not be read", "truncated"]);
    assert_eq!(
        server.requests(),
        1,
        "a complete but broken answer is final"
    );
    // The table path decodes into the model: the same answer.
    let out = server.run(&["issues", "--max", "5", "--format", "csv"]);
    out.fails_naming(&["truncated"]);
}

#[test]
fn json_labelled_with_another_content_type_is_still_read() {
    // The body decides: it is JSON, so it is read (no error, no retry).
    for t in ["text/plain; charset=utf-8", "application/octet-stream"] {
        let server = Server::start(50, Faults::kind(FaultKind::ContentType(t.into())));
        let out = server.run(LIST);
        out.succeeds();
        assert_eq!(out.ids(), clean_ids(50, LIST), "{t}");
        assert_eq!(server.requests(), 1);
    }
}

#[test]
fn an_html_error_page_is_named() {
    // A proxy's 502 page: retried (502), then named with its title.
    let server = Server::start(50, Faults::kind(FaultKind::Html { status: 502 }));
    server
        .run(LIST)
        .fails_naming(&["HTTP 502", "HTML page", "502 Bad Gateway"]);
    assert_eq!(server.requests(), 4);
    // A sign-in page with 200: not JSON, named with its content type.
    let server = Server::start(50, Faults::kind(FaultKind::Html { status: 200 }));
    let out = server.run(LIST);
    out.fails_naming(&["not JSON", "text/html", "Sign in"]);
    assert_eq!(server.requests(), 1);
    assert!(!out.stderr.contains('<'), "tags shown raw: {}", out.stderr);
}

#[test]
fn a_ten_megabyte_page_still_decodes() {
    let server = Server::start(50, Faults::kind(FaultKind::parse("huge").unwrap()));
    // Raw pass-through (ndjson) and decoded (csv) paths.
    let out = server.run(LIST);
    out.succeeds();
    assert_eq!(out.ids(), clean_ids(50, LIST));
    assert!(!out.stdout.contains("demoPadding"));
    let out = server.run(&["issues", "--max", "5", "--format", "csv"]);
    out.succeeds();
    assert_eq!(out.stdout.lines().count(), 6, "{}", out.stdout);
    assert_eq!(server.requests(), 2);
}

#[test]
fn a_page_over_the_client_limit_is_refused_once() {
    let server = Server::start(50, Faults::kind(FaultKind::parse("huge:70").unwrap()));
    server
        .run(LIST)
        .fails_naming(&["larger than", "MB", "refused"]);
    assert_eq!(server.requests(), 1, "the same answer would come again");
}

#[test]
fn a_looping_cursor_stops_with_the_pages_so_far() {
    let server = Server::start(50, Faults::kind(FaultKind::LoopCursor));
    let args = ["issues", "--all", "--limit", "10", "--format", "ndjson"];
    let out = server.run(&args);
    out.fails_naming(&["cursor it had already returned", "loop"]);
    // Page 1, then page 2 (answered with its own cursor): kept, then stop.
    let clean = clean_ids(50, &args);
    assert_eq!(out.ids(), clean[..20].to_vec());
    assert_eq!(server.requests(), 2);
}

#[test]
fn a_server_that_never_answers_times_out() {
    let server = Server::start(50, Faults::kind(FaultKind::Hang));
    let out = server.run(&["issues", "--max", "5", "--timeout", "1"]);
    out.fails_naming(&["timed out after 1s"]);
    assert_eq!(server.requests(), 1, "a timeout is not retried");
    assert!(out.took < Duration::from_secs(10), "{:?}", out.took);
}

// ------------------------------------------------------ later pages only

#[test]
fn rows_already_fetched_stay_on_stdout_when_a_later_page_fails() {
    // Retries fit within --timeout: the retried faults get room for all
    // four attempts; a hang needs only one timeout.
    let args = |timeout: &'static str| {
        [
            "issues",
            "--all",
            "--limit",
            "10",
            "--format",
            "ndjson",
            "--timeout",
            timeout,
        ]
    };
    let clean = clean_ids(50, &args("1"));
    let cases: [(Faults, &[&str], u64, &str); 5] = [
        (Faults::failing(503), &["HTTP 503"], 1 + 4, "20"),
        (Faults::failing(500), &["HTTP 500"], 1 + 1, "20"),
        (
            Faults::kind(FaultKind::Truncate),
            &["truncated"],
            1 + 1,
            "20",
        ),
        (Faults::kind(FaultKind::Reset), &["connection"], 1 + 4, "20"),
        (Faults::kind(FaultKind::Hang), &["timed out"], 1 + 1, "1"),
    ];
    for (plan, words, requests, timeout) in cases {
        let server = Server::start(50, plan.clone().with_cursor_only());
        let out = server.run(&args(timeout));
        out.fails_naming(words);
        assert_eq!(out.ids(), clean[..10].to_vec(), "{plan:?}");
        assert_eq!(server.requests(), requests, "{plan:?}");
    }
}

#[test]
fn fault_after_spares_the_first_requests() {
    // Two pages arrive, the third request fails.
    let server = Server::start(50, Faults::failing(500).after(2));
    let out = server.run(&["issues", "--all", "--limit", "10", "--format", "ndjson"]);
    out.fails_naming(&["HTTP 500"]);
    assert_eq!(out.ids().len(), 20);
    assert_eq!(server.requests(), 3);
}

#[test]
fn a_listing_cut_short_says_partial_and_is_never_completed() {
    // Two pages of 10 arrive, the third fails (a 500 is not retried).
    let server = Server::start(50, Faults::none());
    let run = |args: &[&str]| {
        server.demo().set_faults(Faults::failing(500).after(2));
        let out = server.run(args);
        out.fails_naming(&["HTTP 500"]);
        // The partial line comes before the error's.
        let lines: Vec<&str> = out.stderr.lines().collect();
        let error = lines
            .iter()
            .position(|l| l.starts_with("findings: error: "))
            .unwrap();
        assert!(
            lines[..error]
                .iter()
                .any(|l| l.starts_with("findings: partial: ")),
            "{}",
            out.stderr
        );
        out
    };
    let issues = |format: &'static str| ["issues", "--all", "--limit", "10", "--format", format];

    let out = run(&issues("json"));
    assert!(
        out.stderr.contains(
            "findings: partial: 20 items written before the error; the JSON array is left unclosed"
        ),
        "{}",
        out.stderr
    );
    assert!(out.stdout.starts_with("[\n"), "{}", out.stdout);
    assert!(
        !out.stdout.trim_end().ends_with(']'),
        "the array is not closed"
    );
    assert!(
        serde_json::from_str::<Value>(&out.stdout).is_err(),
        "a parser must fail"
    );
    // What came is there: 20 items, each on its line.
    assert_eq!(out.stdout.lines().count(), 21);

    for (format, lines) in [("ndjson", 20), ("csv", 21), ("markdown", 22)] {
        let out = run(&issues(format));
        assert!(
            out.stderr
                .contains("findings: partial: 20 items written before the error\n"),
            "{format}: {}",
            out.stderr
        );
        assert_eq!(
            out.stdout.lines().count(),
            lines,
            "{format}: {}",
            out.stdout
        );
    }

    // SARIF and the report's JSON stream too: left unclosed, never
    // completed.
    let out = run(&issues("sarif"));
    assert!(
        out.stderr.contains(
            "findings: partial: 20 items written before the error; the SARIF document is left unclosed"
        ),
        "{}",
        out.stderr
    );
    assert!(out.stdout.starts_with("{\n"), "{}", out.stdout);
    assert!(
        serde_json::from_str::<Value>(&out.stdout).is_err(),
        "no SARIF document claims to be whole"
    );

    let out = run(&["report", "--all", "--limit", "10", "--format", "json"]);
    assert!(
        out.stderr.contains(
            "findings: partial: 20 findings written before the error; the JSON is left unclosed"
        ),
        "{}",
        out.stderr
    );
    assert!(out.stdout.starts_with("{\n"), "{}", out.stdout);
    assert!(serde_json::from_str::<Value>(&out.stdout).is_err());
    let out = run(&["search", "--all", "--limit", "2", "--format", "ndjson"]);
    assert!(
        out.stderr
            .contains("findings: partial: 4 items written before the error"),
        "{}",
        out.stderr
    );

    // Nothing written: nothing partial to speak of.
    server.demo().set_faults(Faults::failing(500));
    let out = server.run(&issues("json"));
    out.fails_naming(&["HTTP 500"]);
    assert!(!out.stderr.contains("partial"), "{}", out.stderr);
    assert!(out.stdout.is_empty());
}

// ------------------------------------------------------- other operations

#[test]
fn report_and_search_name_faults_too() {
    let server = Server::start(50, Faults::kind(FaultKind::Truncate));
    server
        .run(&["report", "--max", "5", "--format", "json"])
        .fails_naming(&["truncated"]);
    server
        .run(&["search", "--max", "5", "--format", "ndjson"])
        .fails_naming(&["truncated"]);
    assert_eq!(server.requests(), 2);
    let server = Server::start(50, Faults::kind(FaultKind::Html { status: 504 }));
    server
        .run(&["report", "--max", "5", "--format", "csv"])
        .fails_naming(&["HTTP 504", "HTML page"]);
    assert_eq!(server.requests(), 4, "504 is retried");
}

#[test]
fn the_scm_update_is_never_retried() {
    let update = [
        "scm",
        "update",
        "1001",
        "--auto-scan",
        "off",
        "--yes",
        "--timeout",
        "1",
    ];
    let cases: [(Faults, &[&str]); 5] = [
        (Faults::failing(503), &["HTTP 503"]),
        (
            Faults::kind(FaultKind::RateLimit {
                retry_after_secs: 0,
            }),
            &["rate limited"],
        ),
        (
            Faults::kind(FaultKind::Reset),
            &["connection", "outcome is unknown", "not retried"],
        ),
        (
            Faults::kind(FaultKind::Hang),
            &["timed out", "outcome is unknown"],
        ),
        (Faults::kind(FaultKind::Truncate), &["truncated"]),
    ];
    for (plan, words) in cases {
        let server = Server::start(50, plan.clone());
        server.run(&update).fails_naming(words);
        assert_eq!(server.requests(), 1, "{plan:?}: the PATCH is sent once");
    }
}

// ---------------------------------------------------- `findings demo serve`

#[test]
fn demo_serve_fault_flags_print_the_plan_and_apply_it() {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("findings"))
        .args([
            "demo",
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--findings",
            "50",
            "--fault",
            "truncate",
            "--fault-after",
            "1",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    let url = first.rsplit(' ').next().unwrap().to_owned();
    let banner: Vec<String> = lines.by_ref().take(5).map(Result::unwrap).collect();
    let faults = banner
        .iter()
        .find(|l| l.trim_start().starts_with("faults"))
        .unwrap_or_else(|| panic!("no faults line: {banner:?}"));
    assert!(
        faults.contains("JSON cut in half") && faults.ends_with("after the first 1 request"),
        "{faults}"
    );
    let out = Outcome::of(
        findings()
            .args(["issues", "--all", "--limit", "10", "--format", "ndjson"])
            .env("FINDINGS_BASE_URL", &url)
            .env("FINDINGS_DEPLOYMENT", "1234")
            .env("FINDINGS_TOKEN", "demo-token"),
    );
    out.fails_naming(&["truncated"]);
    assert_eq!(out.ids().len(), 10, "the first page arrived");
    child.kill().unwrap();
    let _ = child.wait();
}

#[test]
fn without_fault_flags_the_banner_has_no_faults_line() {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("findings"))
        .args(["demo", "serve", "--addr", "127.0.0.1:0", "--findings", "10"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let lines: Vec<String> = BufReader::new(child.stdout.take().unwrap())
        .lines()
        .take_while(|l| l.as_ref().is_ok_and(|l| !l.starts_with("Try:")))
        .map(Result::unwrap)
        .collect();
    child.kill().unwrap();
    let _ = child.wait();
    assert!(lines.iter().any(|l| l.contains("SCM configs")), "{lines:?}");
    assert!(!lines.iter().any(|l| l.contains("faults")), "{lines:?}");
}

#[test]
fn bad_fault_flags_are_usage_errors() {
    for (args, says) in [
        (&["--fault", "explode"][..], "valid: rate-limit[:SECS]"),
        (
            &["--fault", "rate-limit:soon"],
            "SECS must be a whole number",
        ),
        (
            &["--fault", "huge:0"],
            "MB must be a whole number from 1 to 100",
        ),
        (&["--fail-rate", "1.5"], "not a fraction from 0 to 1"),
        (
            &["--fail-rate", "1", "--fail-status", "501"],
            "possible values",
        ),
        (&["--fail-status", "500"], "--fail-rate"),
        (&["--fault-after", "2"], "--fault <KIND>"),
        (&["--latency", "0"], "--latency"),
        (
            &["--fault", "hang", "--fault", "reset"],
            "cannot be used multiple times",
        ),
    ] {
        let mut cmd = findings();
        cmd.args(["demo", "serve", "--addr", "127.0.0.1:0"])
            .args(args);
        let out = Outcome::of(&mut cmd);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert!(out.stderr.contains(says), "{args:?}: {}", out.stderr);
    }
}

// ------------------------------------------------------------ `-o FILE`

/// What is in `dir` besides `keep` (temporary files left behind).
fn others_in(dir: &std::path::Path, keep: &str) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != keep)
        .collect()
}

#[test]
fn output_file_is_written_whole_on_success() {
    let server = Server::start(50, Faults::none());
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("findings.ndjson");
    std::fs::write(&file, "an older export\n").unwrap();
    let path = file.to_str().unwrap();
    let out = server.run(&["issues", "--all", "--limit", "20", "-o", path]);
    out.succeeds();
    assert_eq!(out.stdout, "", "the items go to the file, not stdout");
    // The format comes from the name (ndjson here) and every page is there.
    let written = Outcome {
        stdout: std::fs::read_to_string(&file).unwrap(),
        ..out
    };
    assert_eq!(written.ids().len(), common::listed(50));
    assert!(others_in(dir.path(), "findings.ndjson").is_empty());
    // Every listing command takes it.
    for args in [
        &["report", "--max", "3", "--output", path][..],
        &["search", "--max", "3", "-o", path],
        &["scm", "list", "--format", "json", "-o", path],
    ] {
        std::fs::remove_file(&file).unwrap();
        server.run(args).succeeds();
        assert!(std::fs::metadata(&file).unwrap().len() > 0, "{args:?}");
    }
}

#[test]
fn a_failed_run_leaves_the_output_file_as_it_was_and_nothing_beside_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("out.csv");
    let path = file.to_str().unwrap();
    // The server fails mid-way: two pages arrive, the third fails.
    let server = Server::start(50, Faults::failing(500).after(2));
    std::fs::write(&file, "before\n").unwrap();
    server
        .run(&["issues", "--all", "--limit", "10", "-o", path])
        .fails_naming(&["HTTP 500", "out.csv is not written (left as it was)"]);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "before\n");
    assert_eq!(others_in(dir.path(), "out.csv"), Vec::<String>::new());
    // Every other listing command, failing at once.
    let server = Server::start(50, Faults::failing(500));
    for args in [
        &["report", "--all", "--format", "json", "-o", path][..],
        &["report", "--all", "--format", "csv", "-o", path],
        &["search", "--all", "-o", path],
        &["show", "100001", "-o", path],
        &["scm", "list", "-o", path],
    ] {
        server.run(args).fails_naming(&["HTTP 500"]);
        assert_eq!(
            std::fs::read_to_string(&file).unwrap(),
            "before\n",
            "{args:?}"
        );
        assert_eq!(
            others_in(dir.path(), "out.csv"),
            Vec::<String>::new(),
            "{args:?}"
        );
    }
}

/// Ctrl-C, SIGTERM (how CI cancels a job or ends one past its time) and
/// SIGHUP mid-export: `-o FILE` as it was, no temporary file beside it, the
/// shell's code for the signal; on stdout, the output said to be partial.
#[cfg(unix)]
#[test]
fn a_stop_signal_leaves_the_output_file_as_it_was_and_says_stdout_is_partial() {
    for (signal, code, name) in [
        ("INT", 130, "Ctrl-C"),
        ("TERM", 143, "SIGTERM"),
        ("HUP", 129, "SIGHUP"),
    ] {
        for to_file in [true, false] {
            // The first page arrives; the second never does.
            let server = Server::start(50, Faults::kind(FaultKind::Hang).after(1));
            let dir = tempfile::tempdir().unwrap();
            let file = dir.path().join("out.ndjson");
            std::fs::write(&file, "before\n").unwrap();
            let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("findings"));
            cmd.args(["issues", "--all", "--limit", "10"]);
            if to_file {
                cmd.arg("-o").arg(&file);
            }
            let child = cmd
                .env_remove("FINDINGS_PROFILE")
                .env("XDG_CONFIG_HOME", crate::common::empty_config_home())
                .env("FINDINGS_BASE_URL", server.demo().url())
                .env("FINDINGS_DEPLOYMENT", server.demo().deployment())
                .env("FINDINGS_TOKEN", server.demo().token())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            // Waits until the second page is asked for: the first is being
            // written.
            assert!(
                server.demo().wait_for_requests(2, Duration::from_secs(60)),
                "the second page was never asked for"
            );
            if to_file {
                assert_eq!(
                    others_in(dir.path(), "out.ndjson").len(),
                    1,
                    "a temporary file"
                );
            }
            let kill = std::process::Command::new("kill")
                .args([format!("-{signal}"), child.id().to_string()])
                .status()
                .unwrap();
            assert!(kill.success());
            let out = child.wait_with_output().unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(code), "{signal}: {stderr}");
            let left = if to_file {
                "out.ndjson is not written"
            } else {
                "the output is cut short (partial)"
            };
            assert!(
                stderr.contains(&format!("interrupted by {name}; ")) && stderr.contains(left),
                "{signal}: {stderr}"
            );
            assert_eq!(std::fs::read_to_string(&file).unwrap(), "before\n");
            assert_eq!(others_in(dir.path(), "out.ndjson"), Vec::<String>::new());
        }
    }
}
