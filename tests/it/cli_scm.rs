//! `findings scm list`, what `scm update` says when the server does not
//! apply a field, and commands run with a token but no deployment (the
//! deployment asked of the server).

use crate::cli::Server;
use crate::common::findings;
use serde_json::Value;

#[test]
fn scm_list_shows_every_config_as_a_table_or_as_json() {
    let out = findings()
        .args(["scm", "list", "--format", "table"])
        .env("COLUMNS", "160")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{out:?}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 6, "a header and five configs:\n{stdout}");
    for header in [
        "ID",
        "TYPE",
        "NAMESPACE",
        "AUTO_SCAN",
        "NETWORK_BROKER",
        "DIFF_SCAN",
        "TOKEN",
        "LAST_SYNC",
        "STATUS",
    ] {
        assert!(lines[0].contains(header), "{header}: {}", lines[0]);
    }
    let cells: Vec<&str> = lines[3].split_whitespace().collect();
    assert_eq!(
        &cells[..7],
        ["1003", "host-b", "acme-mobile", "off", "off", "on", "no"],
        "{stdout}"
    );

    let out = findings()
        .args(["scm", "list", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let configs: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    let ids: Vec<&str> = configs.iter().map(|c| c["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["1001", "1002", "1003", "1004", "1005"]);
    assert_eq!(configs[2]["type"], "SCM_TYPE_HOST_B");

    // A config is no finding: no SARIF.
    let out = findings()
        .args(["scm", "list", "--format", "sarif"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("valid formats: table, json, ndjson, csv, markdown")
    );
}

#[test]
fn scm_update_sends_a_false_and_shows_it_applied() {
    let out = findings()
        .args([
            "scm",
            "update",
            "1001",
            "--auto-scan",
            "off",
            "--yes",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("\"autoScan\": false"), "{stderr}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["autoScan"], false);
}

/// A server that answers every PATCH with autoScan still on.
fn stubborn_server() -> (tokio::runtime::Runtime, String) {
    use axum::routing::patch;
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let addr = runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let router = axum::Router::new().route(
            "/api/scm/deployments/{d}/configs/{c}",
            patch(|| async {
                (
                    [("content-type", "application/json")],
                    r#"{"config":{"id":"1001","autoScan":true,"namespace":"acme"}}"#,
                )
            }),
        );
        tokio::spawn(async move { axum::serve(listener, router).await });
        addr
    });
    (runtime, format!("http://{addr}"))
}

#[test]
fn scm_update_says_plainly_when_the_server_did_not_apply_a_field() {
    let (_runtime, url) = stubborn_server();
    let out = findings()
        .args([
            "scm",
            "update",
            "1001",
            "--auto-scan",
            "off",
            "--yes",
            "--base-url",
            &url,
            "--deployment",
            "1234",
            "--format",
            "table",
        ])
        .env("FINDINGS_TOKEN", "t")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("autoScan is still on after the update (off was asked)"),
        "{stderr}"
    );
    // What came back is still shown.
    assert!(String::from_utf8_lossy(&out.stdout).contains("auto scan"));
}

#[test]
fn with_a_token_and_no_deployment_the_deployment_is_asked_for() {
    let server = Server::start(60);
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("requests.log");
    let run = |args: &[&str], token: &str, deployment: Option<&str>| {
        let mut cmd = findings();
        cmd.args(args)
            .arg("--log-file")
            .arg(&log)
            .env("FINDINGS_BASE_URL", server.url())
            .env("FINDINGS_TOKEN", token);
        if let Some(d) = deployment {
            cmd.env("FINDINGS_DEPLOYMENT", d);
        }
        cmd.output().unwrap()
    };
    let out = run(
        &["issues", "--max", "5", "--format", "ndjson"],
        "demo-token",
        None,
    );
    assert!(out.status.success(), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 5);
    let out = run(&["scm", "list", "--format", "json"], "demo-token", None);
    assert!(out.status.success(), "{out:?}");
    let configs: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(configs.len(), 5);
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(
        logged.contains("path=/api/agent/deployment status=200"),
        "{logged}"
    );
    assert!(
        logged.contains("path=/api/scm/deployments/1234/configs"),
        "{logged}"
    );

    // A deployment given: used as is, never looked up (9999 is unknown).
    std::fs::remove_file(&log).unwrap();
    let out = run(&["issues", "--max", "1"], "demo-token", Some("9999"));
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("deployment 9999 not found"));
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(!logged.contains("/api/agent/deployment "), "{logged}");

    // A failing lookup names what to fix: for a refused token, the
    // token, not the deployment.
    let out = run(&["issues", "--max", "1"], "wrong-token", None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    for words in ["GET /api/agent/deployment", "401", "FINDINGS_TOKEN"] {
        assert!(stderr.contains(words), "{words}: {stderr}");
    }
    assert!(!stderr.contains("--deployment"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}
