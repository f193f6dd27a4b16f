//! Where the commands connect: base URLs, the deployment, the token, and
//! when the embedded demo server stands in.

use super::*;
use findings_base::token::Token;
use std::time::Duration;

fn input(url: Option<&str>) -> ConnectionInput {
    ConnectionInput {
        base_url: url.map(str::to_owned),
        deployment: Some("42".into()),
        token: Some(Token::new("t")),
        connect_timeout: Duration::from_secs(10),
        request_timeout: Duration::from_secs(30),
        ..Default::default()
    }
}

#[test]
fn no_base_url_means_demo_and_demo_asks_for_it() {
    let nothing = Target::Demo(DemoWhy::NothingConfigured);
    assert_eq!(
        format!("{:?}", resolve(input(None))),
        format!("Ok({nothing:?})")
    );
    assert_eq!(
        format!("{:?}", resolve(input(Some("  ")))),
        format!("Ok({nothing:?})")
    );
    for asked in ["demo", " DEMO "] {
        assert!(
            matches!(
                resolve(input(Some(asked))),
                Ok(Target::Demo(DemoWhy::Asked))
            ),
            "{asked}"
        );
    }
}

#[test]
fn plain_http_only_to_loopback_or_when_allowed() {
    assert!(resolve(input(Some("http://127.0.0.1:8787"))).is_ok());
    assert!(resolve(input(Some("http://localhost:8787"))).is_ok());
    assert!(resolve(input(Some("http://[::1]:8787"))).is_ok());
    let err = resolve(input(Some("http://findings.example.com"))).unwrap_err();
    assert!(err.0.contains("--allow-http"), "{}", err.0);
    let mut allowed = input(Some("http://findings.example.com"));
    allowed.allow_http = true;
    assert!(resolve(allowed).is_ok());
    assert!(resolve(input(Some("https://findings.example.com/"))).is_ok());
}

/// url's IDNA goes through `idna_adapter` pinned to its unicode-rs backend
/// (Cargo.toml): a pin to the ASCII-only 1.0 would refuse this host.
#[test]
fn an_internationalised_host_is_accepted_and_sent_as_punycode() {
    assert!(resolve(input(Some("https://Bücher.example/findings"))).is_ok());
    let url = url::Url::parse("https://Bücher.example/findings").unwrap();
    assert_eq!(url.host_str(), Some("xn--bcher-kva.example"));
    // UTS 46 mapping: full-width letters fold to ASCII.
    let url = url::Url::parse("https://findings.\u{ff45}\u{ff58}ample").unwrap();
    assert_eq!(url.host_str(), Some("findings.example"));
}

#[test]
fn missing_token_is_named_and_a_missing_deployment_is_asked_for() {
    let mut i = input(Some("https://x"));
    i.token = None;
    assert!(resolve(i).unwrap_err().0.contains(ENV_TOKEN));
    for none in [None, Some("  ".to_owned())] {
        let mut i = input(Some("https://x"));
        i.deployment = none;
        match resolve(i).unwrap() {
            Target::Discover(cfg) => {
                assert_eq!(cfg.deployment, "");
                assert_eq!(cfg.token.expose(), "t");
            }
            other => panic!("{other:?}"),
        }
    }
    // Without a token there is nothing to ask with.
    let mut i = input(Some("https://x"));
    i.deployment = None;
    i.token = None;
    assert!(resolve(i).unwrap_err().0.contains(ENV_TOKEN));
    let mut i = input(Some("https://x"));
    i.deployment = Some("abc".into());
    assert!(resolve(i).unwrap_err().0.contains("numeric"));
}
