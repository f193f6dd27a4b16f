//! The HTTP client of the operations the app uses.
//!
//! One `reqwest::Client` (rustls, gzip, connection reuse) for everything.
//! Reads are retried per docs/src/api.md §13; the SCM PATCH never is.

mod actions;
mod pages;
mod reports;

use super::decoded::FromAnswer;
use super::error::ApiError;
use super::retry::RetryPolicy;
pub use super::transport::{Answer, MAX_BODY_BYTES, MAX_PAGE_ITEMS, decode};
use super::transport::{
    Bounds, connect_failure, innermost, log_status, read_body, redirect_target,
};
use findings_base::token::Token;
use findings_model::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::time::{Duration, Instant};

/// Everything needed to reach a deployment.
#[derive(Debug, Clone)]
pub struct ClientConfig {
    /// Base URL without trailing slash, e.g. `https://findings.example.com`.
    pub base_url: String,
    pub deployment: String,
    pub token: Token,
    pub connect_timeout: Duration,
    pub request_timeout: Duration,
    pub retry: RetryPolicy,
    /// Whether a plain-http base URL may go through the environment's
    /// proxy (`--allow-http`): the token would reach the proxy in clear
    /// text. https always may (the proxy sees only a tunnel).
    pub proxy_plain_http: bool,
}

impl ClientConfig {
    pub fn new(base_url: impl Into<String>, deployment: impl Into<String>, token: Token) -> Self {
        ClientConfig {
            base_url: base_url.into(),
            deployment: deployment.into(),
            token,
            connect_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
            retry: RetryPolicy::default(),
            proxy_plain_http: false,
        }
    }
}

/// The API client. Cheap to clone (the connection pool is shared).
#[derive(Debug, Clone)]
pub struct Client {
    http: reqwest::Client,
    base_url: String,
    deployment: String,
    token: Token,
    connect_timeout: Duration,
    request_timeout: Duration,
    retry: RetryPolicy,
}

/// reqwest is built without a crypto provider of its own: rustls uses the
/// process default, ring. Every HTTP client of the process needs it first
/// (installed once; a second call finds it in place).
pub fn install_crypto_provider() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

/// Whether an operation may be retried automatically.
#[derive(Debug, Clone, Copy)]
enum Idempotence {
    /// Retried, and its answer held to its bounds.
    Read(Bounds),
    Write,
}

impl Client {
    pub fn new(config: ClientConfig) -> Result<Self, ApiError> {
        check_deployment(&config.deployment)?;
        Self::build(config)
    }

    /// A client that knows no deployment yet: it may only ask which one
    /// the token belongs to ([`Client::discover_deployment`]).
    pub fn for_token(config: ClientConfig) -> Result<Self, ApiError> {
        Self::build(ClientConfig {
            deployment: String::new(),
            ..config
        })
    }

    /// This client (its connections shared) for deployment `id`.
    pub fn with_deployment(&self, id: &str) -> Result<Self, ApiError> {
        check_deployment(id)?;
        Ok(Client {
            deployment: id.to_owned(),
            ..self.clone()
        })
    }

    fn build(config: ClientConfig) -> Result<Self, ApiError> {
        let base_url = config.base_url.trim_end_matches('/').to_owned();
        let parsed = reqwest::Url::parse(&base_url)
            .map_err(|e| ApiError::Config(format!("base URL {base_url:?} is not a URL: {e}")))?;
        if !matches!(parsed.scheme(), "http" | "https") {
            return Err(ApiError::Config(format!(
                "base URL {base_url:?} must start with https:// (or http:// for loopback)"
            )));
        }
        if !parsed.username().is_empty() || parsed.password().is_some() {
            return Err(ApiError::Config(format!(
                "base URL {} holds a user name or password: the token is sent as a bearer token; remove them from the URL",
                findings_base::redact::mask_url_credentials(&base_url)
            )));
        }
        install_crypto_provider();
        let mut builder = reqwest::Client::builder()
            .connect_timeout(config.connect_timeout)
            .timeout(config.request_timeout)
            .user_agent(concat!("findings-tui/", env!("CARGO_PKG_VERSION")))
            // Redirects are followed by `send`, by this client's rules
            // (reads within their origin, writes never), not reqwest's.
            .redirect(reqwest::redirect::Policy::none())
            // Compression buys nothing over loopback and costs both ends: a
            // 1,000-finding page (3 MB) takes the server ~50 ms to gzip.
            .gzip(!findings_base::net::is_loopback(&parsed));
        if parsed.scheme() == "http" && !config.proxy_plain_http {
            // A proxy of plain http would read the bearer token.
            builder = builder.no_proxy();
            // No TLS can follow: every request, redirects too, stays within
            // this origin, and no proxy stands between. An empty root store
            // spares parsing the platform's certificates at every start.
            builder = builder.tls_certs_only(std::iter::empty());
        }
        let http = builder
            .build()
            .map_err(|e| ApiError::Config(format!("cannot build the HTTP client: {e}")))?;
        Ok(Client {
            http,
            base_url,
            deployment: config.deployment,
            token: config.token,
            connect_timeout: config.connect_timeout,
            request_timeout: config.request_timeout,
            retry: config.retry,
        })
    }

    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    pub fn deployment(&self) -> &str {
        &self.deployment
    }

    /// POST /api/issues/{deploymentId}/counts
    /// (`PublicIssuesService_CountIssues`): how many agentic-workflow
    /// issues the filters match.
    pub async fn count_issues(
        &self,
        filters: Option<&SearchFilters>,
    ) -> Result<CountIssuesResponse, ApiError> {
        let path = format!("/api/issues/{}/counts", self.deployment);
        let body = CountIssuesRequest {
            deployment_id: Some(self.deployment.clone()),
            filters: filters.cloned(),
        };
        self.read(reqwest::Method::POST, &path, Some(&body), Bounds::ONE)
            .await
    }

    /// POST /api/agent/deployments/{deploymentId}/issues (`IssuesService_ListIssues`).
    /// The body always has `limit` (the caller's, else [`DEFAULT_PAGE_SIZE`])
    /// and the type selection at the top level.
    pub async fn list_issues(
        &self,
        req: &ListIssuesRequest,
    ) -> Result<ListIssuesResponse, ApiError> {
        ListIssuesResponse::from_answer(&self.list_issues_answer(req).await?)
    }

    /// List issues, its answer decoded as `R`: the JSON exports read the
    /// items as raw JSON and pass them through as the server sent them.
    pub async fn list_issues_as<R: DeserializeOwned>(
        &self,
        req: &ListIssuesRequest,
    ) -> Result<R, ApiError> {
        self.list_issues_answer(req).await?.decode()
    }

    /// List issues, its answer read and checked but not decoded yet: a
    /// listing asks for the next page before it decodes this one.
    pub async fn list_issues_answer(&self, req: &ListIssuesRequest) -> Result<Answer, ApiError> {
        let path = format!("/api/agent/deployments/{}/issues", self.deployment);
        let body = ListIssuesRequest {
            deployment_id: Some(self.deployment.clone()),
            // Every List issues request carries its page size.
            limit: Some(req.limit.unwrap_or(DEFAULT_PAGE_SIZE)),
            ..req.clone()
        };
        let bounds = Bounds::page(body.limit);
        self.read_raw(reqwest::Method::POST, &path, Some(&body), bounds)
            .await
    }

    /// POST .../issues/search (`IssuesService_ListIssueGroups`): one page of
    /// findings grouped by rule, with their counts.
    pub async fn list_issue_groups(
        &self,
        req: &ListIssueGroupsRequest,
    ) -> Result<ListIssueGroupsResponse, ApiError> {
        let path = format!("/api/agent/deployments/{}/issues/search", self.deployment);
        let body = ListIssueGroupsRequest {
            deployment_id: Some(self.deployment.clone()),
            ..req.clone()
        };
        let bounds = Bounds::page(body.limit);
        self.read(reqwest::Method::POST, &path, Some(&body), bounds)
            .await
    }

    /// POST /api/agent/deployments/{deploymentId}/issue_counts
    /// (`IssuesService_GetIssueCounts`): how many findings the filter
    /// matches in each state, and how many are in archived projects.
    pub async fn issue_counts(
        &self,
        req: &GetIssueCountsRequest,
    ) -> Result<GetIssueCountsResponse, ApiError> {
        let path = format!("/api/agent/deployments/{}/issue_counts", self.deployment);
        let body = GetIssueCountsRequest {
            deployment_id: Some(self.deployment.clone()),
            ..req.clone()
        };
        self.read(reqwest::Method::POST, &path, Some(&body), Bounds::ONE)
            .await
    }

    /// POST /api/agent/deployments/{deploymentId}/issue_filters
    /// (`IssuesService_GetIssueFilters`): the values the filters can take.
    pub async fn issue_filters(
        &self,
        req: &IssueFiltersRequest,
    ) -> Result<IssueFiltersResponse, ApiError> {
        let path = format!("/api/agent/deployments/{}/issue_filters", self.deployment);
        let body = IssueFiltersRequest {
            deployment_id: Some(self.deployment.clone()),
            ..req.clone()
        };
        self.read(reqwest::Method::POST, &path, Some(&body), Bounds::ONE)
            .await
    }

    /// GET /api/agent/deployments/{deploymentId}/issues/v2/{issueId}
    /// (`IssuesService_GetIssue`): one finding with what only the
    /// single-issue fetch gives (code snippets, dataflow trace, related
    /// findings, the rule's explanation), its remediation, activity history
    /// and first detection, and whether it is archived. The answer is the
    /// bare Issue.
    pub async fn get_issue(&self, issue_id: &str) -> Result<Issue, ApiError> {
        if issue_id.is_empty() {
            return Err(ApiError::Config("a finding id is required".into()));
        }
        let path = format!(
            "/api/agent/deployments/{}/issues/v2/{}?includeIsArchived=true",
            self.deployment,
            path_segment(issue_id)
        );
        self.read(reqwest::Method::GET, &path, None::<&()>, Bounds::ONE)
            .await
    }

    /// GET /api/agent/deployment (`DeploymentService_GetDeploymentByToken`):
    /// the deployment the token belongs to. Needs no deployment.
    pub async fn deployment_by_token(&self) -> Result<GetDeploymentByTokenResponse, ApiError> {
        self.read(
            reqwest::Method::GET,
            "/api/agent/deployment",
            None::<&()>,
            Bounds::ONE,
        )
        .await
    }

    /// Asks the deployment of the token and returns this client for it
    /// (its numeric `id` is the `{deploymentId}` of every path,
    /// docs/src/api.md §16), with the deployment as answered.
    pub async fn discover_deployment(&self) -> Result<(Client, Deployment), ApiError> {
        let answer = self.deployment_by_token().await?;
        let Some(deployment) = answer.deployment else {
            return Err(ApiError::Decode {
                path: "deployment".into(),
                message: "the answer names no deployment".into(),
            });
        };
        let Some(id) = deployment.path_id() else {
            return Err(ApiError::Decode {
                path: "deployment.id".into(),
                message: "the deployment has no id".into(),
            });
        };
        Ok((self.with_deployment(&id.to_string())?, deployment))
    }

    /// GET /api/scm/deployments/{deploymentId}/configs
    /// (`ScmService_ListScmConfig`): one page of SCM configs. A read: retried
    /// like the others.
    pub async fn list_scm_configs(
        &self,
        req: &ListScmConfigsRequest,
    ) -> Result<ListScmConfigsResponse, ApiError> {
        ListScmConfigsResponse::from_answer(&self.scm_configs_answer(req).await?)
    }

    /// [`Client::list_scm_configs`], its answer not decoded yet.
    pub async fn scm_configs_answer(
        &self,
        req: &ListScmConfigsRequest,
    ) -> Result<Answer, ApiError> {
        let mut path = format!("/api/scm/deployments/{}/configs", self.deployment);
        let pairs = req.query_pairs();
        if !pairs.is_empty() {
            let query = url::form_urlencoded::Serializer::new(String::new())
                .extend_pairs(pairs)
                .finish();
            path.push('?');
            path.push_str(&query);
        }
        let bounds = Bounds::page(req.limit);
        self.read_raw(reqwest::Method::GET, &path, None::<&()>, bounds)
            .await
    }

    /// PATCH /api/scm/deployments/{deploymentId}/configs/{configId}.
    /// Never retried: the outcome of a failed write is unknown.
    pub async fn update_scm_config(
        &self,
        config_id: &str,
        patch: &ScmConfigPatch,
    ) -> Result<ScmConfigResponse, ApiError> {
        if config_id.is_empty()
            || !config_id
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        {
            return Err(ApiError::Config(format!(
                "config id {:?} may hold only letters, digits, '-' and '_'",
                findings_base::text::one_line(config_id)
            )));
        }
        let path = format!(
            "/api/scm/deployments/{}/configs/{}",
            self.deployment, config_id
        );
        let body = ScmConfigPatch {
            deployment_id: Some(self.deployment.clone()),
            config_id: Some(config_id.to_owned()),
            ..patch.clone()
        };
        // The access token is a secret from here on: an echo of the body
        // in an error answer is masked wherever it is shown.
        if let Some(token) = &body.access_token {
            findings_base::redact::register(token);
        }
        self.write(reqwest::Method::PATCH, &path, &body).await
    }

    /// PATCH /api/agent/deployments/{deploymentId}/findings/v2
    /// (`IssuesService_BulkUpdateIssues`): triages the findings the request's
    /// filter matches. Never retried: the outcome of a failed write is
    /// unknown.
    pub async fn update_findings(
        &self,
        req: &UpdateFindingsRequest,
    ) -> Result<UpdateFindingsResponse, ApiError> {
        let path = format!("/api/agent/deployments/{}/findings/v2", self.deployment);
        let body = UpdateFindingsRequest {
            deployment_id: Some(self.deployment.clone()),
            ..req.clone()
        };
        self.write(reqwest::Method::PATCH, &path, &body).await
    }

    /// POST /api/issues/{deploymentId}/issue/{issueId}
    /// (`PublicIssuesService_TriageIssue`): triages one agentic-workflow
    /// issue. Never retried.
    pub async fn triage_agentic_issue(
        &self,
        issue_id: &str,
        req: &TriageIssueRequest,
    ) -> Result<TriageIssueResponse, ApiError> {
        if issue_id.is_empty() {
            return Err(ApiError::Config("an issue id is required".into()));
        }
        let path = format!(
            "/api/issues/{}/issue/{}",
            self.deployment,
            path_segment(issue_id)
        );
        let body = TriageIssueRequest {
            deployment_id: Some(self.deployment.clone()),
            issue_id: Some(issue_id.to_owned()),
            ..req.clone()
        };
        self.write(reqwest::Method::POST, &path, &body).await
    }

    /// A read: retried, its answer held to `bounds` and decoded by this
    /// crate's concrete [`FromAnswer`] (this async body is compiled where
    /// it is polled; the decoding is not).
    async fn read<B: Serialize, R: FromAnswer>(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<&B>,
        bounds: Bounds,
    ) -> Result<R, ApiError> {
        R::from_answer(&self.read_raw(method, path, body, bounds).await?)
    }

    /// A read whose answer is checked (status, weight) but not decoded.
    async fn read_raw<B: Serialize>(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<&B>,
        bounds: Bounds,
    ) -> Result<Answer, ApiError> {
        self.send(method, path, body, Idempotence::Read(bounds))
            .await
    }

    /// A write: sent once, never retried (its outcome after a failure is
    /// unknown, see [`ApiError::write_outcome`]).
    async fn write<B: Serialize, R: FromAnswer>(
        &self,
        method: reqwest::Method,
        path: &str,
        body: &B,
    ) -> Result<R, ApiError> {
        R::from_answer(
            &self
                .send(method, path, Some(body), Idempotence::Write)
                .await?,
        )
    }

    async fn send<B: Serialize>(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<&B>,
        idempotence: Idempotence,
    ) -> Result<Answer, ApiError> {
        let url = format!("{}{}", self.base_url, path);
        let url = reqwest::Url::parse(&url)
            .map_err(|e| ApiError::Config(format!("cannot make a URL of {path:?}: {e}")))?;
        // Retries, and the waits between them, fit in one --timeout.
        let deadline = Instant::now() + self.request_timeout;
        let mut attempt = 0;
        loop {
            let started = Instant::now();
            let result = self
                .send_once(method.clone(), &url, body, idempotence)
                .await;
            let retry_after = match &result {
                Err(ApiError::RateLimited { retry_after, .. }) => *retry_after,
                _ => None,
            };
            let (status, result) = match result {
                Ok((status, value)) => (status.to_string(), Ok(value)),
                Err(e) => (log_status(&e), Err(e)),
            };
            // One line per attempt: never a header or a body (the token and
            // the SCM access token travel there).
            // Saturating: u64 milliseconds are 584 million years.
            let duration_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
            tracing::info!(
                method = %method, path = %path, status = %status, retry = attempt,
                duration_ms = duration_ms,
                "request"
            );
            match result {
                Err(e)
                    if matches!(idempotence, Idempotence::Read(_))
                        && e.is_retryable()
                        && attempt + 1 < self.retry.max_attempts =>
                {
                    let delay = self.retry.delay(attempt, retry_after);
                    if Instant::now() + delay >= deadline {
                        // A wait past --timeout is no retry: say what failed.
                        return Err(e);
                    }
                    tokio::time::sleep(delay).await;
                    attempt += 1;
                }
                other => return other,
            }
        }
    }

    /// One attempt: the request, and the redirects a read may follow.
    async fn send_once<B: Serialize>(
        &self,
        method: reqwest::Method,
        url: &reqwest::Url,
        body: Option<&B>,
        idempotence: Idempotence,
    ) -> Result<(u16, Answer), ApiError> {
        let mut url = url.clone();
        let mut redirects = 0;
        loop {
            let mut request = self
                .http
                .request(method.clone(), url.clone())
                .bearer_auth(self.token.expose())
                .header(reqwest::header::ACCEPT, "application/json");
            if let Some(body) = body {
                request = request.json(body);
            }
            let response = request.send().await.map_err(|e| self.transport_error(e))?;
            if response.status().is_redirection() {
                let location = response
                    .headers()
                    .get(reqwest::header::LOCATION)
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("");
                let write = matches!(idempotence, Idempotence::Write);
                let status = response.status().as_u16();
                url = redirect_target(&url, status, location, write, redirects)?;
                redirects += 1;
                continue;
            }
            let bounds = match idempotence {
                Idempotence::Read(bounds) => bounds,
                Idempotence::Write => Bounds::ONE,
            };
            return self.read_answer(response, bounds).await;
        }
    }

    /// Reads a final answer, held to `bounds`; decoded by the caller.
    async fn read_answer(
        &self,
        response: reqwest::Response,
        bounds: Bounds,
    ) -> Result<(u16, Answer), ApiError> {
        let status = response.status().as_u16();
        let retry_after = response
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map(Duration::from_secs);
        let content_type = response
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_owned();
        // Too large to read: a 2xx answer is TooLarge (a write's was
        // probably applied), another status is its own error (the server
        // said no), so what a write may have done is never misread.
        let too_large = || {
            if (200..300).contains(&status) {
                ApiError::TooLarge {
                    limit_mb: bounds.body_bytes.div_ceil(1024 * 1024),
                }
            } else {
                ApiError::from_status(status, b"", retry_after)
            }
        };
        if response
            .content_length()
            .is_some_and(|n| n > bounds.body_bytes as u64)
        {
            return Err(too_large());
        }
        let expected = response.content_length();
        let bytes = read_body(response, bounds.body_bytes)
            .await
            .map_err(|(got, e)| {
                if e.is_timeout() {
                    return self.transport_error(e);
                }
                // The answer had begun: say so, rather than reqwest's "error
                // decoding response body" (nothing was being decoded).
                let of = expected.map(|n| format!(" of {n}")).unwrap_or_default();
                ApiError::Connection(format!(
                    "the connection closed while reading the answer, after {got}{of} bytes ({})",
                    findings_base::text::one_line(&innermost(&e))
                ))
            })?;
        if bytes.len() > bounds.body_bytes {
            return Err(too_large());
        }
        if !(200..300).contains(&status) {
            return Err(ApiError::from_status(status, &bytes, retry_after));
        }
        Ok((
            status,
            Answer {
                bytes,
                content_type,
                bounds,
            },
        ))
    }

    fn transport_error(&self, e: reqwest::Error) -> ApiError {
        if e.is_timeout() {
            // reqwest marks a connect timeout as both.
            return if e.is_connect() {
                ApiError::ConnectTimeout(self.connect_timeout)
            } else {
                ApiError::Timeout(self.request_timeout)
            };
        }
        if let Some(failure) = connect_failure(&e) {
            return ApiError::Connect(failure);
        }
        // reqwest's message names the URL, never the headers.
        let mut msg = e.to_string();
        let mut source = std::error::Error::source(&e);
        while let Some(s) = source {
            msg.push_str(": ");
            msg.push_str(&s.to_string());
            source = s.source();
        }
        ApiError::Connection(findings_base::text::one_line(&msg).into_owned())
    }
}

/// A deployment id must be a number: it goes into every path.
fn check_deployment(id: &str) -> Result<(), ApiError> {
    if id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ApiError::Config(format!(
            "deployment id {:?} must be a number",
            findings_base::text::one_line(id)
        )));
    }
    Ok(())
}

/// `s` as one segment of a URL path: everything but letters, digits and
/// `-_~` percent-encoded (an id cannot reach another path: not even `..`).
fn path_segment(s: &str) -> String {
    const KEEP: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
        .remove(b'-')
        .remove(b'_')
        .remove(b'~');
    percent_encoding::utf8_percent_encode(s, KEEP).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_is_validated() {
        let bad = Client::new(ClientConfig::new("ftp://x", "1", Token::new("t")));
        assert!(bad.is_err());
        let bad = Client::new(ClientConfig::new("https://x", "12a", Token::new("t")));
        assert!(bad.is_err());
        assert!(Client::new(ClientConfig::new("https://x/", "12", Token::new("t"))).is_ok());
        // Without a deployment: only to ask for it, then for a numeric one.
        let unscoped = Client::for_token(ClientConfig::new("https://x", "", Token::new("t")));
        let unscoped = unscoped.unwrap();
        assert!(unscoped.with_deployment("abc").is_err());
        assert_eq!(unscoped.with_deployment("77").unwrap().deployment(), "77");
    }

    #[test]
    fn a_base_url_with_credentials_is_refused_without_printing_them() {
        let err = Client::new(ClientConfig::new(
            "https://me:hunter2@api.example.com",
            "1",
            Token::new("t"),
        ))
        .unwrap_err();
        let shown = err.to_string();
        assert!(shown.contains("user name or password"), "{shown}");
        assert!(!shown.contains("hunter2"), "{shown}");
    }

    #[test]
    fn backoff_grows_and_honours_retry_after() {
        let p = RetryPolicy::default();
        assert!(p.delay(0, None) <= Duration::from_millis(300));
        assert!(p.delay(3, None) >= Duration::from_millis(1200));
        assert!(p.delay(20, None) <= Duration::from_secs(10));
        assert_eq!(
            p.delay(0, Some(Duration::from_secs(2))),
            Duration::from_secs(2)
        );
    }
}
