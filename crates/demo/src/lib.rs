//! The embedded demo server: a real HTTP server (axum) implementing every
//! operation of the published contract on a deterministic data set. Imports the model, never the
//! client or the TUI.

pub mod action_routes;
pub mod bad_request;
mod catalog;
pub mod cursor;
pub mod dataset;
pub mod deployment;
pub mod faults;
pub mod http;
mod issue_rule;
pub mod materialize;
pub mod offline_guard;
pub mod query;
mod read_routes;
mod rng;
pub mod routes;
pub mod scm;
mod snippets;
pub mod strict;
pub mod tap;

use chrono::{DateTime, Utc};
use dataset::Dataset;
use findings_model::ScmConfig;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use tokio::net::TcpListener;
use tokio::sync::oneshot;

pub const DEMO_DEPLOYMENT: &str = "1234";
pub const DEMO_TOKEN: &str = "demo-token";
/// The tokens the demo documents (docs/src/demo-server.md), so everyone
/// knows them: a server others can reach must not answer them.
pub const PUBLISHED_TOKENS: [&str; 3] = [
    DEMO_TOKEN,
    http::TOKEN_WITHOUT_ACTIONS,
    http::TOKEN_WITHOUT_WEB_API,
];
pub const DEFAULT_FINDINGS: usize = 2_000;
pub const MAX_FINDINGS: usize = 10_000_000;
pub const DEFAULT_SEED: u64 = 1;

/// What to serve.
#[derive(Debug, Clone)]
pub struct DemoOptions {
    pub findings: usize,
    pub seed: u64,
    pub token: String,
    /// Whether `token` is the only one answered: the built-in tokens
    /// (`demo-token-read-only`, `demo-token-no-web-api`) are for the
    /// embedded demo, and a server others may reach (`demo serve --token`)
    /// or a snapshot's must not open to a name everyone knows.
    pub own_token_only: bool,
    /// "Now" of the data set; the start of today (UTC) by default, so the
    /// data is the same all day and dates look current.
    pub anchor: Option<DateTime<Utc>>,
    /// Days the data has moved on since the anchor: findings new, fixed,
    /// reopened and triaged since, the same for the same seed and days
    /// (0: as generated).
    pub days_later: u32,
}

impl Default for DemoOptions {
    fn default() -> Self {
        DemoOptions {
            findings: DEFAULT_FINDINGS,
            seed: DEFAULT_SEED,
            token: DEMO_TOKEN.into(),
            own_token_only: false,
            anchor: None,
            days_later: 0,
        }
    }
}

/// Shared state of the running server.
pub struct DemoState {
    pub dataset: Dataset,
    pub orders: query::Orders,
    pub token: String,
    /// See [`DemoOptions::own_token_only`].
    pub own_token_only: bool,
    pub scm_configs: Mutex<Vec<ScmConfig>>,
    /// Fault injection (none unless asked for).
    pub faults: faults::FaultState,
    /// An observer of every exchange (none unless a test installs one).
    pub tap: tap::TapState,
    /// API requests served since start: the clock fix pull requests open
    /// by (docs/src/api.md "Fix pull requests").
    pub served: std::sync::atomic::AtomicU64,
}

impl DemoState {
    pub fn new(opts: &DemoOptions) -> Self {
        let anchor = opts.anchor.unwrap_or_else(|| {
            Utc::now()
                .date_naive()
                .and_hms_opt(0, 0, 0)
                .map(|t| t.and_utc())
                .unwrap_or_else(Utc::now)
        });
        let days = chrono::Duration::days(i64::from(opts.days_later));
        let dataset = Dataset::generate_moved_on(
            opts.findings.min(MAX_FINDINGS),
            opts.seed,
            anchor + days,
            DEMO_DEPLOYMENT,
            opts.days_later,
        );
        Self::of(dataset, &opts.token, opts.own_token_only)
    }

    /// The state serving `dataset` (generated, or a snapshot's).
    pub fn of(dataset: Dataset, token: &str, own_token_only: bool) -> Self {
        let scm_configs = Mutex::new(dataset.scm_configs.clone());
        // Every sort order now, so no request waits for one.
        let orders = query::Orders::default();
        orders.prepare(&dataset);
        DemoState {
            dataset,
            orders,
            token: token.to_owned(),
            own_token_only,
            scm_configs,
            faults: faults::FaultState::default(),
            tap: tap::TapState::default(),
            served: Default::default(),
        }
    }
}

/// A running demo server. Dropping it stops the server.
pub struct DemoServer {
    addr: SocketAddr,
    token: String,
    state: Arc<DemoState>,
    shutdown: Option<oneshot::Sender<()>>,
}

impl DemoServer {
    /// Binds `addr` (port 0 for any free port) and serves in the background
    /// on the current tokio runtime.
    pub async fn start(opts: DemoOptions, addr: SocketAddr) -> std::io::Result<DemoServer> {
        let state = tokio::task::spawn_blocking(move || DemoState::new(&opts))
            .await
            .map_err(std::io::Error::other)?;
        Self::serve(state, addr).await
    }

    /// Serves a snapshot's findings ([`dataset::OfflineBuilder`]) on a
    /// free loopback port, read-only: every write is refused
    /// ([`offline_guard`]), and `token` is the only one answered.
    pub async fn start_offline(dataset: Dataset, token: &str) -> std::io::Result<DemoServer> {
        let token = token.to_owned();
        let state = tokio::task::spawn_blocking(move || DemoState::of(dataset, &token, true))
            .await
            .map_err(std::io::Error::other)?;
        Self::serve(state, SocketAddr::from(([127, 0, 0, 1], 0))).await
    }

    async fn serve(state: DemoState, addr: SocketAddr) -> std::io::Result<DemoServer> {
        let token = state.token.clone();
        let state = Arc::new(state);
        let listener = TcpListener::bind(addr).await?;
        let addr = listener.local_addr()?;
        let (tx, rx) = oneshot::channel();
        let app = routes::router(state.clone());
        tokio::spawn(async move {
            let _ = axum::serve(listener, app)
                .with_graceful_shutdown(async {
                    let _ = rx.await;
                })
                .await;
        });
        Ok(DemoServer {
            addr,
            token,
            state,
            shutdown: Some(tx),
        })
    }

    /// Starts on a free loopback port.
    pub async fn start_local(opts: DemoOptions) -> std::io::Result<DemoServer> {
        Self::start(opts, SocketAddr::from(([127, 0, 0, 1], 0))).await
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    pub fn deployment(&self) -> &str {
        DEMO_DEPLOYMENT
    }

    pub fn token(&self) -> &str {
        &self.token
    }

    /// The data set served (for tests that check answers against it).
    pub fn state(&self) -> &Arc<DemoState> {
        &self.state
    }

    /// Replaces the fault plan (test API; `faults::Faults::none()` to heal).
    /// Requests in flight keep the plan they started with.
    pub fn set_faults(&self, plan: faults::Faults) {
        self.state.faults.set(plan);
    }

    /// Hands every API exchange to `observer` (test API; `None` removes it).
    pub fn observe(&self, observer: Option<tap::Observer>) {
        self.state.tap.set(observer);
    }

    /// API requests received since the fault plan was last set.
    pub fn requests(&self) -> u64 {
        self.state.faults.requests()
    }

    /// Waits until at least `n` API requests have come since the fault plan
    /// was last set, at most `within`; whether they came.
    pub fn wait_for_requests(&self, n: u64, within: std::time::Duration) -> bool {
        self.state.faults.wait_for_requests(n, within)
    }
}

impl Drop for DemoServer {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }
}

/// A count, length or line as the wire's i64: a `usize` is at most
/// `isize::MAX`, so this is exact (and would saturate, never wrap).
pub(crate) fn wire_int(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}
