//! `--dry-run`, on every write: without a terminal (a script, CI), the
//! exact request and what it would do are shown on stderr, nothing is
//! sent, exit 0; without it (nor `--yes`), the write refuses and says so.

use crate::cli::Server;
use crate::common::findings;
use findings_demo::dataset::{Dataset, finding_id};
use findings_demo::query::fix_job_error;
use findings_model::IssueType;

/// The binary against `server`, stdin closed: exit code, stdout, stderr.
fn run(server: &Server, args: &[&str]) -> (i32, String, String) {
    let out = findings()
        .args(args)
        .args(["--base-url", &server.url(), "--deployment", "1234"])
        .env("FINDINGS_TOKEN", "demo-token")
        .write_stdin("")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn ds(server: &Server) -> &Dataset {
    &server.demo().state().dataset
}

#[test]
fn every_write_shows_its_request_and_sends_nothing_on_dry_run() {
    let server = Server::start(300);
    let ds = ds(&server);
    let changes = ds.changes();
    let code_finding = (0..ds.rows.len())
        .find(|&i| {
            ds.issue(i, Default::default()).issue_type == Some(IssueType::Sast)
                && fix_job_error(ds, &changes, i).is_none()
        })
        .map(finding_id)
        .unwrap();
    let with_verdict = finding_id(
        (0..ds.rows.len())
            .find(|&i| ds.rows[i].verdict.is_some())
            .unwrap(),
    );
    let plain = finding_id((0..ds.rows.len()).find(|&i| !ds.rows[i].ticket).unwrap());
    drop(changes);
    let (_, configs_before, _) = run(&server, &["scm", "list", "--format", "json"]);
    let url = "https://tickets.example.com/browse/OPS-9";
    let cases: [(&[&str], &str); 9] = [
        (
            &["triage", &plain, "--state", "reviewing"],
            "PATCH /api/agent/deployments/1234/findings/v2",
        ),
        (
            &[
                "triage",
                "--repo",
                "acme/payments-api",
                "--state",
                "reviewing",
            ],
            "PATCH /api/agent/deployments/1234/findings/v2",
        ),
        (&["ticket", "create", &plain], "\"issueIds\""),
        (&["ticket", "link", url, &plain], "/tickets/link"),
        (&["ticket", "unlink", &plain], "/tickets/unlink"),
        (&["fix", &code_finding], "/fix_jobs"),
        (
            &["feedback", &with_verdict, "--agree"],
            "autotriage_feedback",
        ),
        (
            &[
                "remember",
                "--note",
                "test fixtures",
                "--repo",
                "acme/payments-api",
            ],
            "/memories/triage",
        ),
        (
            &["scm", "update", "1001", "--auto-scan", "off"],
            "PATCH /api/scm/deployments/1234/configs/1001",
        ),
    ];
    for (args, request) in cases {
        // Without --dry-run or --yes: refused, and --dry-run offered.
        let (code, _, err) = run(&server, args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.contains("or --dry-run to see what would be sent"),
            "{args:?}: {err}"
        );
        // With it: the request shown, nothing sent, exit 0.
        let (code, out, err) = run(&server, &[args, &["--dry-run"]].concat());
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(err.contains(request), "{args:?}: {err}");
        assert!(
            err.ends_with("findings: --dry-run: nothing was sent\n"),
            "{args:?}: {err}"
        );
        // It goes with asking, not with --yes.
        let (code, _, err) = run(&server, &[args, &["--dry-run", "--yes"]].concat());
        assert_eq!(code, 2, "{args:?}: {err}");
    }
    assert_eq!(ds.changes().generation, 0, "nothing was written");
    let (_, configs_after, _) = run(&server, &["scm", "list", "--format", "json"]);
    assert_eq!(configs_before, configs_after);
}
