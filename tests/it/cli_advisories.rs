//! Every name a filter takes is checked the same way: an advisory
//! (`--cve`, `--filter cves=`, `--filter advisoryIds=`) in any case or by
//! its alias (the GHSA id its references name) finds its findings, a typo
//! is refused with the advisory meant; and a field of one finding type
//! given without a type asks for that type (other types would pass it).

use crate::cli::{Server, error_line, ndjson_ids};

/// The demo's Log4Shell advisory: 35 findings of the default data set.
const LOG4SHELL: &str = "CVE-2021-44228";

#[test]
fn an_advisory_in_any_case_or_by_its_alias_finds_its_findings_and_a_typo_is_refused() {
    let server = Server::start(findings_demo::DEFAULT_FINDINGS);
    let ids = |args: &[&str]| {
        let (code, stdout, stderr) = server.run(
            &[
                &["issues", "--all", "--json", "id", "--exit-code", "3"][..],
                args,
            ]
            .concat(),
        );
        (code, ndjson_ids(&stdout), stderr)
    };
    let (code, log4shell, _) = ids(&["--cve", LOG4SHELL]);
    assert_eq!(code, 3);
    assert_eq!(log4shell.len(), 35);
    for same in [
        &["--cve", "cve-2021-44228"][..],
        &["--cve", "GHSA-jfh8-c2jp-5v3q"],
        &["--filter", "cves=ghsa-JFH8-c2jp-5v3q"],
        &["--filter", "advisoryIds=cve-2021-44228"],
        // Without a type: the type the field narrows is asked for.
        &["--filter", "cves=CVE-2021-44228"],
    ] {
        let (code, found, stderr) = ids(same);
        assert_eq!(code, 3, "{same:?}: {stderr}");
        assert_eq!(found, log4shell, "{same:?}: {stderr}");
    }
    // The alias is said, with what is sent instead.
    let (_, _, stderr) = ids(&["--cve", "GHSA-jfh8-c2jp-5v3q"]);
    assert!(
        stderr.contains(
            "--cve \"GHSA-jfh8-c2jp-5v3q\" is an alias of CVE-2021-44228: the filter asks for CVE-2021-44228"
        ),
        "{stderr}"
    );
    // One digit off: refused, the advisory meant suggested, nothing listed.
    let before = server.demo().requests();
    let (code, found, stderr) = ids(&["--cve", "CVE-2021-44229"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(found.is_empty());
    assert_eq!(
        error_line(&stderr),
        "findings: error: --cve \"CVE-2021-44229\": the deployment has no such advisory; did you mean CVE-2021-44228?"
    );
    // The names, and the references of the advisories listed without a
    // CVE id (where it could be an alias): never the listing.
    assert_eq!(server.demo().requests() - before, 2);
    // Not an advisory id at all: refused before connecting.
    let before = server.demo().requests();
    let (code, _, stderr) = ids(&["--cve", "log4shell"]);
    assert_eq!(code, 2);
    assert!(
        error_line(&stderr).contains("not an advisory id"),
        "{stderr}"
    );
    assert_eq!(server.demo().requests(), before);
}

#[test]
fn a_field_of_one_type_asks_for_its_type_and_says_which_types_pass_it() {
    let server = Server::start(400);
    let run = |args: &[&str]| {
        server.run(&[&["issues", "--all", "--format", "ndjson"][..], args].concat())
    };
    // Alone: its type added, and said.
    let (code, stdout, stderr) = run(&["--filter", "reachabilities=reachable"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("reachabilities narrows sca findings only: the type sca is added"),
        "{stderr}"
    );
    let (_, typed, _) = run(&["--filter", "reachabilities=reachable", "--type", "sca"]);
    assert_eq!(ndjson_ids(&stdout), ndjson_ids(&typed));
    // With a type it does not narrow beside its own: said.
    let (code, _, stderr) = run(&["--cve", LOG4SHELL, "--type", "sca,code"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("cves narrows sca findings only: the code findings asked for pass it"),
        "{stderr}"
    );
    // With none of its types: it would narrow nothing, refused.
    let (code, stdout, stderr) = run(&["--filter", "secretTypes=AWS", "--type", "code"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stdout.is_empty());
    assert!(
        error_line(&stderr).contains(
            "secretTypes narrows secrets findings only, and the types asked for are code"
        ),
        "{stderr}"
    );
}
