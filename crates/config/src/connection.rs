//! From the settings to where the commands talk: the embedded demo
//! server, or a real deployment over HTTPS.

use super::{ConfigError, ENV_TOKEN};
use findings_base::token::Token;
use std::time::Duration;

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

/// A real deployment, as the settings say to reach it. The wiring turns it
/// into the client's own configuration (configuration never imports the
/// client).
#[derive(Debug, Clone)]
pub struct Remote {
    /// Base URL without trailing slash, e.g. `https://findings.example.com`.
    pub base_url: String,
    /// Empty when the deployment is to be asked of the server.
    pub deployment: String,
    pub token: Token,
    pub connect_timeout: Duration,
    pub request_timeout: Duration,
    /// `--allow-http`: clear text accepted on the way, to a proxy too.
    pub allow_http: bool,
}

/// Where the commands will talk to.
#[derive(Debug, Clone)]
pub enum Target {
    Remote(Remote),
    /// A real server and a token, but no deployment from any source: the
    /// deployment is asked of the server (`GET /api/agent/deployment`,
    /// docs/src/api.md §16). The config's deployment is empty.
    Discover(Remote),
    /// The embedded demo server, and why.
    Demo(DemoWhy),
}

/// Why the embedded demo server is the target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DemoWhy {
    /// [`DEMO_BASE_URL`] as the base URL: asked for by name.
    Asked,
    /// Nothing at all configured. A person at a terminal gets the demo; a
    /// command with nobody watching (no terminal, `CI` set) is refused,
    /// since demo data in a CI log or an uploaded SARIF looks like a
    /// deployment's.
    NothingConfigured,
}

/// The base URL that asks for the embedded demo server by name
/// (`--base-url demo`, `FINDINGS_BASE_URL=demo`, `base_url = "demo"`).
pub const DEMO_BASE_URL: &str = "demo";

/// Whether `url` asks for the embedded demo server by name.
pub fn is_demo_url(url: &str) -> bool {
    url.trim().eq_ignore_ascii_case(DEMO_BASE_URL)
}

/// What to configure when the deployment cannot be found out.
pub const SET_DEPLOYMENT: &str =
    "pass --deployment ID, set FINDINGS_DEPLOYMENT, or set deployment in a profile";

pub fn resolve(input: ConnectionInput) -> Result<Target, ConfigError> {
    let token = input.token.clone();
    resolve_with(input, move || {
        token
            .filter(|t| !t.is_empty())
            .ok_or_else(|| ConfigError(format!("no token: set {ENV_TOKEN}")))
    })
}

/// [`resolve`], with the token asked for only once the base URL and the
/// deployment are known to be usable (a `token_command` is not run for a
/// setting that would be refused anyway).
pub(super) fn resolve_with(
    input: ConnectionInput,
    token: impl FnOnce() -> Result<Token, ConfigError>,
) -> Result<Target, ConfigError> {
    let Some(base_url) = input.base_url.filter(|u| !u.trim().is_empty()) else {
        return Ok(Target::Demo(DemoWhy::NothingConfigured));
    };
    if is_demo_url(&base_url) {
        return Ok(Target::Demo(DemoWhy::Asked));
    }
    let base_url = normalize_url(&base_url);
    check_base_url(&base_url, input.allow_http)?;
    let deployment = input
        .deployment
        .map(|d| d.trim().to_owned())
        .filter(|d| !d.is_empty());
    if let Some(d) = &deployment
        && !d.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(ConfigError(format!(
            "deployment {d:?} must be a numeric id"
        )));
    }
    let token = token()?;
    let config = Remote {
        base_url,
        deployment: deployment.clone().unwrap_or_default(),
        token,
        connect_timeout: input.connect_timeout,
        request_timeout: input.request_timeout,
        allow_http: input.allow_http,
    };
    Ok(match deployment {
        Some(_) => Target::Remote(config),
        None => Target::Discover(config),
    })
}

pub(super) fn normalize_url(url: &str) -> String {
    url.trim().trim_end_matches('/').to_owned()
}

/// HTTPS only, except to this machine or with `--allow-http`.
fn check_base_url(url: &str, allow_http: bool) -> Result<(), ConfigError> {
    let shown = findings_base::redact::mask_url_credentials(url);
    let parsed = url::Url::parse(url)
        .map_err(|e| ConfigError(format!("base URL {shown:?} is not a URL: {e}")))?;
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(ConfigError(format!(
            "base URL {shown} holds a user name or password: the token is sent as a bearer token (FINDINGS_TOKEN, token_command or token_file); remove them from the URL"
        )));
    }
    match parsed.scheme() {
        "https" => Ok(()),
        "http" if allow_http || findings_base::net::is_loopback(&parsed) => Ok(()),
        "http" => Err(ConfigError(format!(
            "refusing plain http:// to {}: the token would cross the network unencrypted; use https:// (or --allow-http if you must)",
            parsed.host_str().unwrap_or("?")
        ))),
        other => Err(ConfigError(format!(
            "base URL scheme {other:?} is not supported; use https://"
        ))),
    }
}
