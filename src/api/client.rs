//! The HTTP client of the operations the app uses.
//!
//! One `reqwest::Client` (rustls, gzip, connection reuse) for everything.
//! Reads are retried per docs/api.md §13; the SCM PATCH never is.

use super::error::ApiError;
use super::model::*;
use super::retry::RetryPolicy;
use super::token::Token;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::time::{Duration, Instant};

/// The most a single answer may weigh; larger bodies are refused unread.
pub const MAX_BODY_BYTES: usize = 64 * 1024 * 1024;

/// The page size List issues asks for when its caller gives none
/// (docs/api.md §8).
pub const LIST_PAGE_SIZE: i64 = 100;

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
#[derive(Debug, Clone, Copy, PartialEq)]
enum Idempotence {
    Read,
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
        install_crypto_provider();
        let http = reqwest::Client::builder()
            .connect_timeout(config.connect_timeout)
            .timeout(config.request_timeout)
            .user_agent(concat!("findings-tui/", env!("CARGO_PKG_VERSION")))
            // Compression buys nothing over loopback and costs both ends: a
            // 1,000-finding page (3 MB) takes the server ~50 ms to gzip.
            .gzip(!is_loopback(&parsed))
            .build()
            .map_err(|e| ApiError::Config(format!("cannot build the HTTP client: {e}")))?;
        Ok(Client {
            http,
            base_url,
            deployment: config.deployment,
            token: config.token,
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

    /// POST /api/reporting/{deploymentId}/findings
    pub async fn report_findings(&self, req: &ReportRequest) -> Result<ReportResponse, ApiError> {
        let path = format!("/api/reporting/{}/findings", self.deployment);
        self.send(reqwest::Method::POST, &path, Some(req), Idempotence::Read)
            .await
    }

    /// POST /api/issues/{deploymentId}/search
    pub async fn search_issues(
        &self,
        req: &SearchIssuesRequest,
    ) -> Result<SearchIssuesResponse, ApiError> {
        let path = format!("/api/issues/{}/search", self.deployment);
        let body = SearchIssuesRequest {
            deployment_id: Some(self.deployment.clone()),
            ..req.clone()
        };
        self.send(reqwest::Method::POST, &path, Some(&body), Idempotence::Read)
            .await
    }

    /// POST /api/agent/deployments/{deploymentId}/issues (`IssuesService_ListIssues`).
    /// The body always has `limit` (the caller's, else [`LIST_PAGE_SIZE`])
    /// and the type selection at the top level.
    pub async fn list_issues(
        &self,
        req: &ListIssuesRequest,
    ) -> Result<ListIssuesResponse, ApiError> {
        self.list_issues_as(req).await
    }

    /// List issues, its answer decoded as `R`: the JSON exports read the
    /// items as raw JSON and pass them through as the server sent them.
    pub async fn list_issues_as<R: DeserializeOwned>(
        &self,
        req: &ListIssuesRequest,
    ) -> Result<R, ApiError> {
        let path = format!("/api/agent/deployments/{}/issues", self.deployment);
        let body = ListIssuesRequest {
            deployment_id: Some(self.deployment.clone()),
            // Every List issues request carries its page size.
            limit: Some(req.limit.unwrap_or(LIST_PAGE_SIZE)),
            ..req.clone()
        };
        self.send(reqwest::Method::POST, &path, Some(&body), Idempotence::Read)
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
        self.send(reqwest::Method::POST, &path, Some(&body), Idempotence::Read)
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
        self.send(reqwest::Method::POST, &path, Some(&body), Idempotence::Read)
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
        self.send(reqwest::Method::GET, &path, None::<&()>, Idempotence::Read)
            .await
    }

    /// GET /api/agent/deployment (`DeploymentService_GetDeploymentByToken`):
    /// the deployment the token belongs to. Needs no deployment.
    pub async fn deployment_by_token(&self) -> Result<GetDeploymentByTokenResponse, ApiError> {
        self.send(
            reqwest::Method::GET,
            "/api/agent/deployment",
            None::<&()>,
            Idempotence::Read,
        )
        .await
    }

    /// Asks the deployment of the token and returns this client for it
    /// (its numeric `id` is the `{deploymentId}` of every path,
    /// docs/api.md §16), with the deployment as answered.
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
        let mut path = format!("/api/scm/deployments/{}/configs", self.deployment);
        let pairs = req.query_pairs();
        if !pairs.is_empty() {
            let query = url::form_urlencoded::Serializer::new(String::new())
                .extend_pairs(pairs)
                .finish();
            path.push('?');
            path.push_str(&query);
        }
        self.send(reqwest::Method::GET, &path, None::<&()>, Idempotence::Read)
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
                crate::text::one_line(config_id)
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

    /// A write: sent once, never retried (its outcome after a failure is
    /// unknown, see [`ApiError::write_outcome`]).
    async fn write<B: Serialize, R: DeserializeOwned>(
        &self,
        method: reqwest::Method,
        path: &str,
        body: &B,
    ) -> Result<R, ApiError> {
        self.send(method, path, Some(body), Idempotence::Write)
            .await
    }

    async fn send<B: Serialize, R: DeserializeOwned>(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<&B>,
        idempotence: Idempotence,
    ) -> Result<R, ApiError> {
        let url = format!("{}{}", self.base_url, path);
        let mut attempt = 0;
        loop {
            let started = Instant::now();
            let result = self.send_once(method.clone(), &url, body).await;
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
            tracing::info!(
                method = %method, path = %path, status = %status, retry = attempt,
                duration_ms = started.elapsed().as_millis() as u64,
                "request"
            );
            match result {
                Err(e)
                    if idempotence == Idempotence::Read
                        && e.is_retryable()
                        && attempt + 1 < self.retry.max_attempts =>
                {
                    tokio::time::sleep(self.retry.delay(attempt, retry_after)).await;
                    attempt += 1;
                }
                other => return other,
            }
        }
    }

    async fn send_once<B: Serialize, R: DeserializeOwned>(
        &self,
        method: reqwest::Method,
        url: &str,
        body: Option<&B>,
    ) -> Result<(u16, R), ApiError> {
        let mut request = self
            .http
            .request(method, url)
            .bearer_auth(self.token.expose())
            .header(reqwest::header::ACCEPT, "application/json");
        if let Some(body) = body {
            request = request.json(body);
        }
        let response = request.send().await.map_err(|e| self.transport_error(e))?;
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
        if response
            .content_length()
            .is_some_and(|n| n > MAX_BODY_BYTES as u64)
        {
            return Err(ApiError::TooLarge {
                limit_mb: MAX_BODY_BYTES / (1024 * 1024),
            });
        }
        let expected = response.content_length();
        let bytes = read_body(response).await.map_err(|(got, e)| {
            if e.is_timeout() {
                return self.transport_error(e);
            }
            // The answer had begun: say so, rather than reqwest's "error
            // decoding response body" (nothing was being decoded).
            let of = expected.map(|n| format!(" of {n}")).unwrap_or_default();
            ApiError::Connection(format!(
                "the connection closed while reading the answer, after {got}{of} bytes ({})",
                crate::text::one_line(&innermost(&e))
            ))
        })?;
        if !(200..300).contains(&status) {
            return Err(ApiError::from_status(status, &bytes, retry_after));
        }
        decode(&bytes, &content_type).map(|value| (status, value))
    }

    fn transport_error(&self, e: reqwest::Error) -> ApiError {
        if e.is_timeout() {
            ApiError::Timeout(self.request_timeout)
        } else {
            // reqwest's message names the URL, never the headers.
            let mut msg = e.to_string();
            let mut source = std::error::Error::source(&e);
            while let Some(s) = source {
                msg.push_str(": ");
                msg.push_str(&s.to_string());
                source = s.source();
            }
            ApiError::Connection(crate::text::one_line(&msg).into_owned())
        }
    }
}

/// A deployment id must be a number: it goes into every path.
fn check_deployment(id: &str) -> Result<(), ApiError> {
    if id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ApiError::Config(format!(
            "deployment id {:?} must be a number",
            crate::text::one_line(id)
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

/// `localhost` or a loopback address.
fn is_loopback(url: &reqwest::Url) -> bool {
    match url.host() {
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

/// The body, or how many bytes had arrived when reading it failed.
async fn read_body(mut response: reqwest::Response) -> Result<Vec<u8>, (usize, reqwest::Error)> {
    let mut bytes = Vec::new();
    loop {
        match response.chunk().await {
            Ok(Some(chunk)) => bytes.extend_from_slice(&chunk),
            Ok(None) => break,
            Err(e) => return Err((bytes.len(), e)),
        }
        if bytes.len() > MAX_BODY_BYTES {
            break;
        }
    }
    Ok(bytes)
}

/// The message of the deepest cause of `e` (what actually went wrong).
fn innermost(e: &(dyn std::error::Error + 'static)) -> String {
    let mut last: &dyn std::error::Error = e;
    while let Some(source) = last.source() {
        last = source;
    }
    last.to_string()
}

/// Decodes a success body, naming the JSON path of the first failure.
/// The status a log line gives a failed attempt: the HTTP status when the
/// server answered, else what went wrong.
fn log_status(e: &ApiError) -> String {
    if let Some(status) = e.status() {
        return status.to_string();
    }
    match e {
        ApiError::Timeout(_) => "timeout".into(),
        ApiError::Connection(_) => "connection-failed".into(),
        ApiError::Decode { .. } | ApiError::NotJson { .. } | ApiError::TooLarge { .. } => {
            "unreadable-answer".into()
        }
        _ => "error".into(),
    }
}

pub fn decode<R: DeserializeOwned>(bytes: &[u8], content_type: &str) -> Result<R, ApiError> {
    if bytes.len() > MAX_BODY_BYTES {
        return Err(ApiError::TooLarge {
            limit_mb: MAX_BODY_BYTES / (1024 * 1024),
        });
    }
    let looks_like_json = matches!(
        bytes.iter().find(|b| !b.is_ascii_whitespace()),
        Some(b'{') | Some(b'[')
    );
    if !looks_like_json {
        return Err(ApiError::NotJson {
            content_type: if content_type.is_empty() {
                "no content type".into()
            } else {
                crate::text::one_line(content_type).into_owned()
            },
            snippet: {
                let head = String::from_utf8_lossy(&bytes[..bytes.len().min(800)]);
                super::error::html_summary(&head).unwrap_or_else(|| {
                    crate::text::truncate(&crate::text::one_line(&head), 120).into_owned()
                })
            },
        });
    }
    // Both the path (it holds the server's key names) and the message (it
    // quotes the server's values) are untrusted: made safe and cut short.
    let safe =
        |s: &str, max: usize| crate::text::truncate(&crate::text::one_line(s), max).into_owned();
    let value = crate::json::decode(bytes).map_err(|e| {
        let message = safe(&e.message, 300);
        ApiError::Decode {
            path: if e.path == "." {
                "(top level)".into()
            } else {
                safe(&e.path, 200)
            },
            // An answer that ends inside the JSON was cut short: say so.
            message: if e.truncated {
                format!("the JSON is truncated ({message})")
            } else {
                message
            },
        }
    })?;
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_names_the_failing_path() {
        let body = br#"{"issues":[{"issue":{"id":"1"}},{"issue":{"line":"twelve"}}]}"#;
        let err = decode::<ListIssuesResponse>(body, "application/json").unwrap_err();
        match err {
            ApiError::Decode { path, .. } => assert_eq!(path, "issues[1].issue.line"),
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn html_is_not_json() {
        let err =
            decode::<ListIssuesResponse>(b"<html>502 Bad Gateway</html>", "text/html").unwrap_err();
        assert!(err.to_string().contains("not JSON (text/html)"), "{err}");
    }

    #[test]
    fn truncated_json_is_a_decode_error() {
        let err =
            decode::<ListIssuesResponse>(br#"{"issues":[{"issue":{"id":"1""#, "application/json")
                .unwrap_err();
        assert!(matches!(err, ApiError::Decode { .. }), "{err:?}");
        assert!(err.to_string().contains("the JSON is truncated"), "{err}");
        // A complete but wrong answer is not called truncated.
        let err = decode::<ListIssuesResponse>(br#"{"issues":7}"#, "application/json").unwrap_err();
        assert!(!err.to_string().contains("truncated"), "{err}");
    }

    #[test]
    fn an_html_page_is_named_by_its_title_not_shown_as_markup() {
        let page =
            b"<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body></body></html>";
        let err = decode::<ListIssuesResponse>(page, "text/html").unwrap_err();
        assert_eq!(
            err.to_string(),
            "the server's answer is not JSON (text/html): HTML page: Sign in"
        );
    }

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
