//! The connection a command works through: the configured deployment, the
//! deployment of the token when none is configured, or the embedded demo
//! server when no base URL is configured.

use super::Failure;
use findings_client::{Client, Token};
use findings_config::{
    DEMO_BASE_URL, DemoWhy, ENV_BASE_URL, Effective, Remote, SET_DEPLOYMENT, Target,
};
use findings_demo::{DemoOptions, DemoServer};
use findings_model::Deployment;

/// A connected client, and the demo server behind it when there is one
/// (kept alive for as long as the session).
pub struct Session {
    pub client: Client,
    pub demo: Option<DemoServer>,
    /// The deployment as the server named it, when it was asked for.
    pub discovered: Option<Deployment>,
    /// The profile in force (what the names kept for completion are of).
    pub profile: Option<String>,
    /// The saved views of the profile, for `--view NAME`.
    pub views: Vec<findings_config::SavedView>,
}

/// Who the session is for: the demo server stands in for "nothing
/// configured" only where a person sees it is the demo.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Audience {
    /// The TUI: a person at a terminal, who sees the DEMO badge.
    Tui,
    /// A headless command: its output may go to a file, a pipe or a CI
    /// log where one line on stderr is not seen.
    Headless,
}

impl Session {
    /// The session of a headless command.
    pub(super) async fn open(settings: &Effective) -> Result<Session, Failure> {
        Self::open_for(settings, Audience::Headless).await
    }

    pub(super) async fn open_for(
        settings: &Effective,
        audience: Audience,
    ) -> Result<Session, Failure> {
        let mut session = Self::connect(settings, audience).await?;
        session.profile = settings.profile.as_ref().map(|p| p.value.clone());
        session.views = settings.saved_views();
        Ok(session)
    }

    async fn connect(settings: &Effective, audience: Audience) -> Result<Session, Failure> {
        match settings.target()? {
            Target::Remote(cfg) => Ok(Session {
                client: Client::new(client_config(cfg))?,
                demo: None,
                discovered: None,
                profile: None,
                views: Vec::new(),
            }),
            Target::Discover(cfg) => {
                let (client, deployment) = discover(client_config(cfg)).await?;
                tracing::info!(deployment = %client.deployment(), "deployment of the token");
                Ok(Session {
                    client,
                    demo: None,
                    discovered: Some(deployment),
                    profile: None,
                    views: Vec::new(),
                })
            }
            Target::Demo(why) => {
                if why == DemoWhy::NothingConfigured
                    && audience == Audience::Headless
                    && let Some(nobody) = super::watching::nobody_watching()
                {
                    return Err(Failure::Usage(format!(
                        "no server configured and {nobody}: set {ENV_BASE_URL} (or --base-url) to the deployment's address, \
                         or {ENV_BASE_URL}={DEMO_BASE_URL} to run on the embedded demo server's data"
                    )));
                }
                let server = DemoServer::start_local(DemoOptions::default())
                    .await
                    .map_err(|e| Failure::Runtime(format!("cannot start the demo server: {e}")))?;
                if audience == Audience::Headless {
                    // Each run has its own demo data: say so, or a count
                    // after a triage looks like a disagreement.
                    let why = match why {
                        DemoWhy::Asked => "as the base URL asks",
                        DemoWhy::NothingConfigured => "nothing is configured",
                    };
                    eprintln!(
                        "findings: demo data: using the embedded demo server at {} (deployment {}), {why}: \
                         fresh demo data, without the triages of other runs (`findings demo serve` runs one to share)",
                        server.url(),
                        server.deployment()
                    );
                }
                let mut cfg = findings_client::ClientConfig::new(
                    server.url(),
                    server.deployment(),
                    Token::new(server.token()),
                );
                cfg.connect_timeout = settings.connect_timeout;
                cfg.request_timeout = settings.request_timeout;
                Ok(Session {
                    client: Client::new(cfg)?,
                    demo: Some(server),
                    discovered: None,
                    profile: None,
                    views: Vec::new(),
                })
            }
        }
    }
}

/// The client's configuration for a deployment the settings name.
pub(super) fn client_config(remote: Remote) -> findings_client::ClientConfig {
    let mut config =
        findings_client::ClientConfig::new(remote.base_url, remote.deployment, remote.token);
    config.connect_timeout = remote.connect_timeout;
    config.request_timeout = remote.request_timeout;
    // --allow-http accepts clear text on the way: to a proxy too.
    config.proxy_plain_http = remote.allow_http;
    config
}

/// The deployment of the token (docs/src/api.md §16); a failure says what to
/// configure instead.
async fn discover(cfg: findings_client::ClientConfig) -> Result<(Client, Deployment), Failure> {
    let client = Client::for_token(cfg)?;
    client.discover_deployment().await.map_err(|e| {
        // Configuring the deployment helps only when the question itself
        // is what failed; a bad token, host or certificate has its own fix.
        let fix = match (&e, e.hint()) {
            (findings_client::ApiError::NotFound(_), _) => format!(
                "check that the base URL is the platform's address (no extra path); if it is, {SET_DEPLOYMENT}"
            ),
            (findings_client::ApiError::Decode { .. }, _) => SET_DEPLOYMENT.to_owned(),
            (_, Some(hint)) => hint.to_owned(),
            (_, None) => SET_DEPLOYMENT.to_owned(),
        };
        Failure::Runtime(format!(
            "no deployment configured, and asking the server for the token's deployment (GET /api/agent/deployment) failed: {e}; {fix}"
        ))
    })
}
