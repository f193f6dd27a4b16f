//! Every headless table fits the width it is given (`--width`, as a
//! terminal of 60 or 80 columns gives it): names keep their end and long
//! texts are cut with `…` or wrapped, never a line past the edge.

use crate::cli::Server;
use crate::common::anchor;
use findings_demo::DemoOptions;

fn demo(days_later: u32) -> Server {
    Server::with_options(DemoOptions {
        findings: 1500,
        anchor: Some(anchor()),
        days_later,
        ..Default::default()
    })
}

/// Runs `args` at `width`; the output must be a success with something in it.
fn at(server: &Server, width: usize, args: &[&str]) -> String {
    let width = width.to_string();
    let (code, stdout, stderr) = server.run(&[args, &["--width", &width]].concat());
    assert_eq!(code, 0, "{args:?}: {stderr}");
    assert!(
        !stdout.trim().is_empty(),
        "{args:?} printed nothing: {stderr}"
    );
    stdout
}

/// A line's columns as a terminal shows them (the cut helpers of
/// findings_base cut to the width: a line they leave whole fits).
fn columns(line: &str) -> usize {
    (1..=line.chars().count() + 1)
        .find(|&w| findings_base::text::cut_right(line, w) == line)
        .unwrap_or(0)
}

fn assert_fits(width: usize, args: &[&str], out: &str) {
    for line in out.lines() {
        let used = columns(line);
        assert!(
            used <= width,
            "{args:?} at {width}: a line of {used} columns:\n{line}\n\n{out}"
        );
    }
}

#[test]
fn every_table_fits_60_and_80_columns() {
    let dir = tempfile::tempdir().unwrap();
    let (before, after) = (demo(0), demo(14));
    let old = dir.path().join("old.snap");
    let old = old.to_str().unwrap();
    let (code, _, stderr) = before.run(&["snapshot", "save", "-o", old]);
    assert_eq!(code, 0, "{stderr}");

    let tables: &[&[&str]] = &[
        &["issues", "--max", "60", "--format", "table"],
        &[
            "issues",
            "--over-target",
            "--max",
            "30",
            "--format",
            "table",
        ],
        &[
            "issues",
            "--columns",
            "leadership",
            "--max",
            "30",
            "--format",
            "table",
        ],
        &[
            "issues",
            "--columns",
            "supply_chain",
            "--type",
            "sca",
            "--max",
            "30",
            "--format",
            "table",
        ],
        &["report", "--max", "30", "--format", "table"],
        &[
            "report", "--kind", "activity", "--period", "30d", "--format", "table",
        ],
        &["report", "--kind", "by-project", "--format", "table"],
        &[
            "report",
            "--kind",
            "backlog-by-rule",
            "--period",
            "30d",
            "--format",
            "table",
        ],
        &[
            "report",
            "--kind",
            "backlog-by-severity",
            "--period",
            "30d",
            "--format",
            "table",
        ],
        &[
            "report", "--kind", "open-age", "--period", "30d", "--format", "table",
        ],
        &[
            "report", "--kind", "opened", "--period", "30d", "--format", "table",
        ],
        &["search", "--format", "table"],
        &["scm", "list", "--format", "table"],
        &["ticket", "instances"],
        &["diff", old, "--format", "table"],
        &["snapshot", "show", old],
    ];
    for width in [60, 80] {
        for args in tables {
            let out = at(&after, width, args);
            assert_fits(width, args, &out);
        }
    }
}
