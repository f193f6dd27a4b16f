//! curl fetching the pages a listing follows, as the raw transfer an
//! export or a load is compared with: the same requests one after the
//! other on one connection (`next` in a curl config), the bytes piped to
//! the bench and counted, nothing decoded or checked.

// Each bench that includes this uses a part of it.
#![allow(dead_code)]

use std::process::{Command, Stdio};
use std::time::Instant;

/// The request body of every page of 1,000, the first's and those from the
/// cursors `url` gives (the demo writes the cursor last): what `curl
/// --next` is fed to fetch the same pages as a listing that follows them.
pub async fn page_bodies(url: &str, token: &str) -> Vec<String> {
    let client = reqwest::Client::new();
    let mut bodies = vec![r#"{"limit":1000}"#.to_owned()];
    loop {
        let page = client
            .post(url)
            .bearer_auth(token)
            .header("content-type", "application/json")
            .body(bodies.last().expect("a body").clone())
            .send()
            .await
            .and_then(|r| r.error_for_status())
            .expect("a page")
            .bytes()
            .await
            .expect("its body");
        let tail = String::from_utf8_lossy(&page[page.len().saturating_sub(512)..]).into_owned();
        let Some(start) = tail.rfind(r#""cursor":""#) else {
            return bodies;
        };
        let rest = &tail[start + r#""cursor":""#.len()..];
        match rest.find('"').map(|end| &rest[..end]) {
            Some(c) if !c.is_empty() => bodies.push(format!(r#"{{"limit":1000,"cursor":"{c}"}}"#)),
            _ => return bodies,
        }
    }
}

/// A curl config (`curl -K FILE`) fetching every page of `bodies` from
/// `url` one after the other on one connection (`next`), each written to
/// standard output.
pub fn curl_config(url: &str, token: &str, bodies: &[String]) -> String {
    let quoted = |s: &str| format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""));
    let mut config = String::new();
    for (k, body) in bodies.iter().enumerate() {
        if k > 0 {
            config.push_str("next\n");
        }
        config.push_str(&format!(
            "url = {}\nrequest = \"POST\"\nheader = {}\nheader = \"Content-Type: application/json\"\ndata = {}\nsilent\nshow-error\nfail\n",
            quoted(url),
            quoted(&format!("Authorization: Bearer {token}")),
            quoted(body),
        ));
    }
    config
}

/// curl fetching every page its config names, its output piped here and
/// counted as an export's is; seconds.
pub fn curl_pages(config: &std::path::Path) -> f64 {
    let started = Instant::now();
    let mut child = Command::new("curl")
        .arg("-K")
        .arg(config)
        .stdout(Stdio::piped())
        .spawn()
        .expect("curl runs (the raw transfer is curl's)");
    let mut out = child.stdout.take().expect("stdout");
    std::io::copy(&mut out, &mut std::io::sink()).expect("curl's output");
    assert!(child.wait().expect("curl ends").success(), "curl failed");
    started.elapsed().as_secs_f64()
}

/// [`curl_config`] for the pages of `url`, written to a temporary file
/// named by `tag`; its path.
pub async fn curl_config_file(url: &str, token: &str, tag: &str) -> std::path::PathBuf {
    let bodies = page_bodies(url, token).await;
    let path =
        std::env::temp_dir().join(format!("findings-bench-{}-{tag}.curl", std::process::id()));
    std::fs::write(&path, curl_config(url, token, &bodies)).expect("curl's config written");
    path
}
