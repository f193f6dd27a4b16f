//! Where to connect: flags, then environment, then the embedded demo server.
//! (Config-file profiles come later; the precedence will stay flags > env.)

use crate::api::{ClientConfig, Token};
use std::time::Duration;

pub const ENV_BASE_URL: &str = "FINDINGS_BASE_URL";
pub const ENV_DEPLOYMENT: &str = "FINDINGS_DEPLOYMENT";
pub const ENV_TOKEN: &str = "FINDINGS_TOKEN";

/// Connection settings as given (flags already merged with their env twins
/// by clap; the token comes only from the environment).
#[derive(Debug, Clone, Default)]
pub struct ConnectionInput {
    pub base_url: Option<String>,
    pub deployment: Option<String>,
    pub token: Option<Token>,
    pub allow_http: bool,
    pub connect_timeout: Duration,
    pub request_timeout: Duration,
}

/// Where the commands will talk to.
#[derive(Debug, Clone)]
pub enum Target {
    Remote(ClientConfig),
    /// No base URL from any source: the embedded demo server.
    Demo,
}

/// A problem with the given settings (a usage error, exit 2).
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigError(pub String);

pub fn resolve(input: ConnectionInput) -> Result<Target, ConfigError> {
    let Some(base_url) = input.base_url.filter(|u| !u.trim().is_empty()) else {
        return Ok(Target::Demo);
    };
    let base_url = base_url.trim().trim_end_matches('/').to_owned();
    check_base_url(&base_url, input.allow_http)?;
    let deployment = input
        .deployment
        .filter(|d| !d.trim().is_empty())
        .ok_or_else(|| {
            ConfigError(format!(
                "no deployment: pass --deployment ID or set {ENV_DEPLOYMENT}"
            ))
        })?;
    let deployment = deployment.trim().to_owned();
    if !deployment.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ConfigError(format!(
            "deployment {deployment:?} must be a numeric id"
        )));
    }
    let token = input
        .token
        .filter(|t| !t.is_empty())
        .ok_or_else(|| ConfigError(format!("no token: set {ENV_TOKEN}")))?;
    let mut config = ClientConfig::new(base_url, deployment, token);
    config.connect_timeout = input.connect_timeout;
    config.request_timeout = input.request_timeout;
    Ok(Target::Remote(config))
}

/// HTTPS only, except to this machine or with `--allow-http`.
fn check_base_url(url: &str, allow_http: bool) -> Result<(), ConfigError> {
    let parsed = reqwest::Url::parse(url)
        .map_err(|e| ConfigError(format!("base URL {url:?} is not a URL: {e}")))?;
    match parsed.scheme() {
        "https" => Ok(()),
        "http" if allow_http || is_loopback(&parsed) => Ok(()),
        "http" => Err(ConfigError(format!(
            "refusing plain http:// to {}: the token would cross the network unencrypted; use https:// (or --allow-http if you must)",
            parsed.host_str().unwrap_or("?")
        ))),
        other => Err(ConfigError(format!(
            "base URL scheme {other:?} is not supported; use https://"
        ))),
    }
}

fn is_loopback(url: &reqwest::Url) -> bool {
    match url.host() {
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn no_base_url_means_demo() {
        assert!(matches!(resolve(input(None)), Ok(Target::Demo)));
        assert!(matches!(resolve(input(Some("  "))), Ok(Target::Demo)));
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

    #[test]
    fn missing_token_or_deployment_is_named() {
        let mut i = input(Some("https://x"));
        i.token = None;
        assert!(resolve(i).unwrap_err().0.contains(ENV_TOKEN));
        let mut i = input(Some("https://x"));
        i.deployment = None;
        assert!(resolve(i).unwrap_err().0.contains("--deployment"));
        let mut i = input(Some("https://x"));
        i.deployment = Some("abc".into());
        assert!(resolve(i).unwrap_err().0.contains("numeric"));
    }
}
