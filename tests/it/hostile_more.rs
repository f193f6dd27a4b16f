//! Hardened, round three (issue 47): a `--jq` expression never reads the
//! token from the environment, the review's HTML shows what hides text,
//! a cursor guard and a read by id hold a fixed bound however a server
//! pages, and `report --kind summary` honours `--max-pages`. The servers
//! and helpers are `hostile`'s.

use crate::hostile::{Seen, TOKEN, cli, json, rand_suffix, recording, run, runtime, serve};
use std::path::Path;

/// A one-finding listing, for commands that only need an item to run over.
fn one_finding(seen: Seen) -> axum::Router {
    recording(seen, |_, _, _| {
        json(
            r#"{"issues":[{"issue":{"id":"1","ruleId":"r","severity":"SEVERITY_HIGH"}}],"cursor":""}"#
                .to_owned(),
        )
    })
}

/// What `--jq EXPR` printed over the one finding: one line a result.
fn jq_lines(cmd: &mut assert_cmd::Command) -> Vec<String> {
    let out = run(cmd, "");
    assert_eq!(out.code, 0, "{}", out.stderr);
    out.stdout.lines().map(str::to_owned).collect()
}

/// Decodes standard base64 (what `@base64` writes).
fn base64_decoded(text: &str) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut bits = 0u32;
    let mut held = 0;
    let mut out = Vec::new();
    for c in text.bytes().filter(|c| *c != b'=') {
        let v = ALPHABET.iter().position(|a| *a == c).expect("base64") as u32;
        bits = bits << 6 | v;
        held += 6;
        if held >= 8 {
            held -= 8;
            out.push((bits >> held) as u8);
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The whole environment an expression sees, encoded past the output's
/// masking: `env` and `$ENV`, each as base64 of its JSON.
const ENV_ENCODED: &str = "env, $ENV | tojson | @base64";

#[test]
fn jq_never_sees_the_token_in_the_environment() {
    let rt = runtime();
    let api = rt.block_on(serve(one_finding(Seen::default())));
    // FINDINGS_TOKEN, and another variable holding the same token.
    let lines = jq_lines(
        cli(api, &["issues", "--max", "1", "--jq", ENV_ENCODED])
            .env("COPY_OF_THE_TOKEN", format!("x-{TOKEN}-y"))
            .env("FINDINGS_KEPT_FOR_JQ", "kept"),
    );
    assert_eq!(lines.len(), 2, "{lines:?}");
    for line in &lines {
        let env = base64_decoded(line.trim_matches('"'));
        assert!(!env.contains(TOKEN), "the token reached jq: {env}");
        assert!(!env.contains("FINDINGS_TOKEN"), "{env}");
        assert!(!env.contains("COPY_OF_THE_TOKEN"), "{env}");
        // The rest of the environment is there, as jq's env has it.
        assert!(env.contains(r#""FINDINGS_KEPT_FOR_JQ":"kept""#), "{env}");
        assert!(env.contains(r#""FINDINGS_DEPLOYMENT":"1234""#), "{env}");
    }
}

/// A config file of one profile at `api` whose token comes from
/// `token_command`, private to the user.
fn profile_with_token_command(dir: &Path, api: std::net::SocketAddr, command: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join("config.toml");
    std::fs::write(
        &path,
        format!(
            "[profiles.work]\nbase_url = \"http://{api}\"\ndeployment = 1234\n\
             token_command = {command:?}\n"
        ),
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    path.to_string_lossy().into_owned()
}

#[cfg(unix)]
#[test]
fn jq_never_sees_a_token_the_config_resolved() {
    let rt = runtime();
    let seen = Seen::default();
    let api = rt.block_on(serve(one_finding(seen.clone())));
    let dir = tempfile::tempdir().unwrap();
    // The profile's command prints a variable of the environment: that
    // variable holds the token, under a name of the user's choosing.
    let config = profile_with_token_command(dir.path(), api, "printf %s \"$VAULT_EXPORT\"");
    let resolved = "resolved-by-command-5150";
    let mut cmd = cli(api, &["--profile", "work", "issues", "--max", "1"]);
    cmd.args(["--jq", ENV_ENCODED])
        .env_remove("FINDINGS_TOKEN")
        .env_remove("FINDINGS_BASE_URL")
        .env_remove("FINDINGS_DEPLOYMENT")
        .env("FINDINGS_CONFIG", &config)
        .env("VAULT_EXPORT", resolved);
    let lines = jq_lines(&mut cmd);
    // The token the command resolved is the one sent.
    assert!(
        seen.all().iter().all(|r| r.contains(resolved)),
        "{:?}",
        seen.all()
    );
    assert_eq!(lines.len(), 2, "{lines:?}");
    for line in &lines {
        let env = base64_decoded(line.trim_matches('"'));
        assert!(
            !env.contains(resolved),
            "the resolved token reached jq: {env}"
        );
        assert!(!env.contains("VAULT_EXPORT"), "{env}");
        assert!(env.contains("FINDINGS_CONFIG"), "{env}");
    }
}

/// A listing whose every page names a new cursor `size` bytes long.
fn endless_cursors(size: usize, seen: Seen) -> axum::Router {
    recording(seen, move |_, _, body| {
        let cursor = format!("{}{}", rand_suffix(body), "c".repeat(size));
        json(format!(
            r#"{{"issues":[{{"issue":{{"id":"{}","ruleId":"r","severity":"SEVERITY_HIGH"}}}}],"cursor":"{cursor}"}}"#,
            rand_suffix(&cursor)
        ))
    })
}

#[test]
fn report_kind_summary_honours_max_pages() {
    let rt = runtime();
    let seen = Seen::default();
    let api = rt.block_on(serve(endless_cursors(8, seen.clone())));
    let out = run(
        &mut cli(
            api,
            &[
                "report",
                "--kind",
                "summary",
                "--max-pages",
                "20",
                "--format",
                "json",
            ],
        ),
        "",
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr.contains("passed 20 pages without ending"),
        "{}",
        out.stderr
    );
    let listed = seen.all().iter().filter(|r| r.contains("/issues")).count();
    assert!(listed <= 21, "{listed} pages of the listing asked for");
}

/// A listing that answers every request with one finding of `ids` (the
/// first, then the next, ...) and `extra` findings never asked for, and
/// always one more page.
fn pages_past_the_ids(ids: &'static [&'static str], extra: usize, seen: Seen) -> axum::Router {
    let served = seen.clone();
    recording(seen, move |_, _, body| {
        let n = served.count();
        let mut items: Vec<String> = (0..extra)
            .map(|k| format!(r#"{{"issue":{{"id":"unasked-{n}-{k}","ruleId":"r"}}}}"#))
            .collect();
        if let Some(id) = ids.get(n - 1) {
            items.push(format!(r#"{{"issue":{{"id":"{id}","ruleId":"r"}}}}"#));
        }
        json(format!(
            r#"{{"issues":[{}],"cursor":"c{}"}}"#,
            items.join(","),
            rand_suffix(body)
        ))
    })
}

/// What the TUI fetches again after a write (and triage reads first): a
/// server that pads its pages with findings never asked for and never
/// stops paging costs one page an id, the asked ones kept, each once.
#[test]
fn a_read_by_id_stops_once_it_has_the_ids_asked() {
    const IDS: &[&str] = &["100001", "100002", "100003"];
    let rt = runtime();
    rt.block_on(async {
        let seen = Seen::default();
        let api = serve(pages_past_the_ids(IDS, 50, seen.clone())).await;
        let ids: Vec<String> = IDS.iter().map(|s| s.to_string()).collect();
        let items = findings_client::items_by_id(&crate::hostile::client(api), ids.clone())
            .await
            .unwrap();
        let got: Vec<String> = items
            .iter()
            .map(|i| i.issue.as_ref().unwrap().id().to_owned())
            .collect();
        assert_eq!(got, ids);
        assert_eq!(seen.count(), 3, "{:?}", seen.all());
        // Each page asked for the ids' number of items, not a thousand.
        assert!(
            seen.all().iter().all(|r| r.contains(r#""limit":3"#)),
            "{:?}",
            seen.all()
        );
    });
}

/// A server that never lists the asked findings and pages on is followed
/// one page an id and one more, then the read stops with an error that
/// says so (no flag raises this bound: it is the ids').
#[test]
fn a_read_by_id_of_a_finding_never_listed_stops_after_a_page_an_id() {
    let rt = runtime();
    rt.block_on(async {
        let seen = Seen::default();
        let api = serve(pages_past_the_ids(&[], 50, seen.clone())).await;
        let ids = vec!["100001".to_owned(), "100002".to_owned()];
        let e = findings_client::issues_by_id(&crate::hostile::client(api), ids, |i, _| {
            Some(i.id().to_owned())
        })
        .await
        .unwrap_err();
        assert!(
            e.to_string()
                .contains("the read of 2 finding(s) by id passed 3 pages without listing them"),
            "{e}"
        );
        assert_eq!(seen.count(), 3, "{:?}", seen.all());
    });
}

/// A finding whose message carries a C1 CSI, bidi, zero-width and
/// invisible characters (an escape too, which JSON escapes anyway).
const SLY: &str = "a\u{9b}2Jb\u{202e}gpj.exe\u{200b}\u{2066}\u{ad}\u{e0041}\u{1b}[2J 用户🔥";

fn sly_finding() -> axum::Router {
    recording(Seen::default(), |_, _, _| {
        let item = serde_json::json!({"issues": [{"issue": {
            "id": "7", "ruleId": "r", "severity": "SEVERITY_HIGH", "message": SLY,
            "aggregateState": "AGGREGATE_STATE_OPEN",
            "firstDetectedAt": "2026-01-01T00:00:00Z"
        }}], "cursor": ""});
        json(item.to_string())
    })
}

/// What `--jq` and `--json` print as JSON writes those characters as
/// `\uXXXX`, as every JSON output does: nothing of them reaches a
/// terminal, and the JSON means the same (jq's writer left them raw).
#[test]
fn jq_and_computed_json_results_write_what_acts_on_a_terminal_escaped() {
    let rt = runtime();
    let api = rt.block_on(serve(sly_finding()));
    for args in [
        &["--jq", "{m: .message}"][..],
        &["--jq", "[.message, {k: .message}]"],
        // Computed fields: the item written again by jaq.
        &["--json", "message,age"],
    ] {
        let mut all = vec!["issues", "--max", "1"];
        all.extend_from_slice(args);
        let out = run(&mut cli(api, &all), "");
        assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
        crate::hostile::assert_terminal_safe(&out.stdout, &format!("{args:?}"));
        for c in ['\u{ad}', '\u{e0041}'] {
            assert!(!out.stdout.contains(c), "{args:?}: {:?}", out.stdout);
        }
        let value: serde_json::Value = serde_json::from_str(out.stdout.trim()).unwrap();
        let message = value
            .pointer("/m")
            .or(value.pointer("/0"))
            .or(value.pointer("/message"))
            .and_then(|m| m.as_str());
        assert_eq!(message, Some(SLY), "{args:?}: the same JSON to a reader");
    }
}
