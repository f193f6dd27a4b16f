//! `findings auth login | status | logout`: a deployment's token kept where
//! the desktop keeps secrets (or, where there is no secret store, in a file
//! only its owner may read, said so), for the profile and base URL in
//! force; where the token in force comes from, checked against the
//! deployment (`GetDeploymentByToken`); and forgetting it. The token is
//! read from standard input or typed without echo, never from the command
//! line, and never printed.

use super::Failure;
use clap::Subcommand;
use findings_client::{Client, Token};
use findings_config::{ConnectionInput, Effective, Target, TokenKey, stored};
use std::io::{IsTerminal, Read};

/// The longest token read.
const MAX_TOKEN_BYTES: u64 = 64 * 1024;

#[derive(Subcommand, Debug)]
pub enum AuthCommand {
    /// Store a token for the profile and base URL in force: read from
    /// standard input, else typed without echo; checked with the
    /// deployment before it is kept
    Login,
    /// Say where the token in force comes from (FINDINGS_TOKEN, the
    /// profile's token_command, token_file or token, or what auth login
    /// stored) and check it against the deployment; never prints it
    Status,
    /// Remove the token auth login stored for the profile and base URL in
    /// force
    Logout,
}

pub async fn run(command: AuthCommand, settings: &Effective) -> Result<(), Failure> {
    match command {
        AuthCommand::Login => login(settings).await,
        AuthCommand::Status => status(settings).await,
        AuthCommand::Logout => logout(settings),
    }
}

/// What a token is kept for; the demo needs none.
fn key_of(settings: &Effective) -> Result<TokenKey, Failure> {
    settings.token_key().ok_or_else(|| {
        Failure::Usage(
            "no base URL: a token is kept for a deployment's server; give --base-url, FINDINGS_BASE_URL or a profile with base_url".into(),
        )
    })
}

/// "profile work at https://findings.example.com".
fn said(key: &TokenKey) -> String {
    match &key.profile {
        Some(p) => format!("profile {p} at {}", key.base_url),
        None => format!("{} (no profile)", key.base_url),
    }
}

async fn login(settings: &Effective) -> Result<(), Failure> {
    let key = key_of(settings)?;
    // Whose token it is, said before it is asked for.
    let token = read_token(&said(&key))?;
    let deployment = check(settings, token.clone()).await?;
    let (at, why) = stored::save(&key, &token, settings.config_dir())
        .map_err(|e| Failure::Runtime(format!("the token was not stored: {e}")))?;
    if let Some(why) = why {
        eprintln!("findings: no secret store: {why}; using the fallback file instead");
    }
    eprintln!(
        "findings: token for {} ({deployment}) stored in {at}",
        said(&key)
    );
    if let Ok((_, origin)) = settings.token_origin()
        && !origin.contains("auth login")
    {
        eprintln!("findings: note: {origin} comes first, so it is the token used");
    }
    Ok(())
}

async fn status(settings: &Effective) -> Result<(), Failure> {
    let key = key_of(settings)?;
    let (token, origin) = settings.token_origin()?;
    println!("server: {}", said(&key));
    println!("token: from {origin}");
    let deployment = check(settings, token).await?;
    println!("deployment: {deployment}, the token checked with GetDeploymentByToken");
    Ok(())
}

fn logout(settings: &Effective) -> Result<(), Failure> {
    let key = key_of(settings)?;
    let removed = stored::remove(&key, settings.config_dir());
    if removed.is_empty() {
        eprintln!("findings: no token stored for {}", said(&key));
    }
    for at in removed {
        eprintln!("findings: token for {} removed from {at}", said(&key));
    }
    if let Ok((_, origin)) = settings.token_origin() {
        eprintln!("findings: note: a token still comes from {origin}");
    }
    Ok(())
}

/// The deployment `token` belongs to, as "Acme (1234)": the token is
/// checked with the server (`GET /api/agent/deployment`).
async fn check(settings: &Effective, token: Token) -> Result<String, Failure> {
    let key = key_of(settings)?;
    // The base URL's checks (https, or this machine, or --allow-http), and
    // the client's settings, as every command has them.
    let target = findings_config::resolve(ConnectionInput {
        base_url: Some(key.base_url.clone()),
        deployment: None,
        token: Some(token),
        allow_http: settings.allow_http.value,
        connect_timeout: settings.connect_timeout,
        request_timeout: settings.request_timeout,
    })?;
    let (Target::Discover(cfg) | Target::Remote(cfg)) = target else {
        return Err(Failure::Usage("no base URL".into()));
    };
    let client = Client::for_token(super::session::client_config(cfg))?;
    let (_, deployment) = client.discover_deployment().await.map_err(|e| {
        Failure::Runtime(format!(
            "the token was not accepted by {} (GET /api/agent/deployment): {e}",
            key.base_url
        ))
    })?;
    let id = deployment
        .path_id()
        .map_or("?".to_owned(), |i| i.to_string());
    let name = deployment.shown_name().map(findings_base::text::one_line);
    Ok(findings_model::shown_deployment(name.as_deref(), &id))
}

/// The token: standard input's first line when it is not a terminal, else
/// typed on the terminal without echo.
fn read_token(for_whom: &str) -> Result<Token, Failure> {
    let text = if std::io::stdin().is_terminal() {
        let prompt = format!(
            "Token for {}, not shown as typed: ",
            findings_base::text::one_line(for_whom)
        );
        prompt_without_echo(&prompt)?
    } else {
        let mut bytes = Vec::new();
        std::io::stdin()
            .take(MAX_TOKEN_BYTES)
            .read_to_end(&mut bytes)
            .map_err(|e| Failure::Usage(format!("cannot read the token: {e}")))?;
        String::from_utf8(bytes)
            .map_err(|_| Failure::Usage("the token is not UTF-8 text".into()))?
    };
    let token = text.lines().next().map(str::trim).unwrap_or("");
    if token.is_empty() {
        return Err(Failure::Usage("no token given; nothing was stored".into()));
    }
    Ok(Token::new(token))
}

/// A line typed on the terminal with echo off (put back after, even on an
/// error).
#[cfg(unix)]
fn prompt_without_echo(prompt: &str) -> Result<String, Failure> {
    use std::io::{BufRead, Write};
    use std::os::fd::AsRawFd;
    let tty = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/tty")
        .map_err(|e| {
            Failure::Usage(format!(
                "no terminal to type the token on ({e}); pipe it on standard input"
            ))
        })?;
    let echo_off = findings_base::sys::EchoOff::new(tty.as_raw_fd())
        .map_err(|_| Failure::Usage("cannot turn the terminal's echo off".into()))?;
    let mut out = &tty;
    let _ = out.write_all(prompt.as_bytes());
    let _ = out.flush();
    let mut line = String::new();
    let read = std::io::BufReader::new(&tty).read_line(&mut line);
    drop(echo_off);
    let _ = out.write_all(b"\n");
    read.map_err(|e| Failure::Usage(format!("cannot read the token: {e}")))?;
    Ok(line)
}

#[cfg(not(unix))]
fn prompt_without_echo(_: &str) -> Result<String, Failure> {
    Err(Failure::Usage(
        "pipe the token on standard input (typing it without echo needs a unix terminal here)"
            .into(),
    ))
}
