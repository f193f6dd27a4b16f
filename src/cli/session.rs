//! The connection a command works through: the configured deployment, or
//! the embedded demo server when no base URL is configured.

use super::Failure;
use crate::api::{Client, Token};
use crate::config::{Effective, Target};
use crate::demo::{DemoOptions, DemoServer};

/// A connected client, and the demo server behind it when there is one
/// (kept alive for as long as the session).
pub struct Session {
    pub client: Client,
    pub demo: Option<DemoServer>,
}

impl Session {
    pub(super) async fn open(settings: &Effective) -> Result<Session, Failure> {
        Self::open_quiet(settings, false).await
    }

    /// `quiet`: no demo notice on stderr (the TUI shows a DEMO badge).
    pub(super) async fn open_quiet(settings: &Effective, quiet: bool) -> Result<Session, Failure> {
        match settings.target()? {
            Target::Remote(cfg) => Ok(Session {
                client: Client::new(cfg)?,
                demo: None,
            }),
            Target::Demo => {
                let server = DemoServer::start_local(DemoOptions::default())
                    .await
                    .map_err(|e| Failure::Runtime(format!("cannot start the demo server: {e}")))?;
                if !quiet {
                    eprintln!(
                        "findings: no base URL configured; using the embedded demo server at {} (deployment {})",
                        server.url(),
                        server.deployment()
                    );
                }
                let mut cfg = crate::api::ClientConfig::new(
                    server.url(),
                    server.deployment(),
                    Token::new(server.token()),
                );
                cfg.connect_timeout = settings.connect_timeout;
                cfg.request_timeout = settings.request_timeout;
                Ok(Session {
                    client: Client::new(cfg)?,
                    demo: Some(server),
                })
            }
        }
    }
}
