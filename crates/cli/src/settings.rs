//! The settings in force: flags > environment > the profile of the config
//! file > defaults.

use super::Failure;
use super::args::ConnectionArgs;
use clap::ArgMatches;
use clap::parser::ValueSource;
use findings_client::Token;
use findings_config::{self as config, CommandLine, Effective, Given, Source};
use std::path::Path;
use std::time::Duration;

/// The effective settings, from the config file at its usual place.
pub(super) fn settings_here(
    conn: &ConnectionArgs,
    matches: &ArgMatches,
) -> Result<Effective, Failure> {
    settings(conn, matches, &config::config_path()?)
}

/// Flags > environment > the profile of the config file at `path` >
/// defaults.
pub(super) fn settings(
    conn: &ConnectionArgs,
    matches: &ArgMatches,
    path: &Path,
) -> Result<Effective, Failure> {
    let given = |value: &Option<String>, id: &str, flag: &'static str, env: &'static str| {
        value
            .clone()
            .map(|v| Given::new(v, source(value_source(matches, id), flag, env)))
    };
    let seconds = |value: Option<u64>, id: &str, flag: &'static str, env: &'static str| {
        value.map(|n| {
            let from = source(value_source(matches, id), flag, env);
            Given::new(Duration::from_secs(n), from)
        })
    };
    let cli = CommandLine {
        base_url: given(
            &conn.base_url,
            "base_url",
            "--base-url",
            config::ENV_BASE_URL,
        ),
        deployment: given(
            &conn.deployment,
            "deployment",
            "--deployment",
            config::ENV_DEPLOYMENT,
        ),
        profile: given(&conn.profile, "profile", "--profile", config::ENV_PROFILE),
        theme: given(&conn.theme, "theme", "--theme", config::ENV_THEME),
        allow_http: conn.allow_http,
        read_only: conn.read_only.then(|| {
            source(
                value_source(matches, "read_only"),
                "--read-only",
                config::ENV_READ_ONLY,
            )
        }),
        connect_timeout: seconds(
            conn.connect_timeout,
            "connect_timeout",
            "--connect-timeout",
            config::ENV_CONNECT_TIMEOUT,
        ),
        config_named: config_named(),
        request_timeout: seconds(conn.timeout, "timeout", "--timeout", config::ENV_TIMEOUT),
        no_progress: conn.quiet.then(|| {
            source(
                value_source(matches, "quiet"),
                "--quiet",
                config::ENV_NO_PROGRESS,
            )
        }),
    };
    let env_token = std::env::var(config::ENV_TOKEN).ok().map(Token::new);
    let loaded = config::load(path)?;
    let effective = config::effective(cli, env_token, path.to_owned(), loaded.as_ref())?;
    // The profile may turn progress off (-q already did, at the start).
    super::progress::set_quiet(!effective.progress.value);
    Ok(effective)
}

/// `FINDINGS_CONFIG`, when it names the config file.
fn config_named() -> Option<Source> {
    std::env::var_os(config::ENV_CONFIG)
        .filter(|p| !p.is_empty())
        .map(|_| Source::Env(config::ENV_CONFIG))
}

/// A value given by its flag or its environment variable: which.
fn source(from: Option<ValueSource>, flag: &'static str, env: &'static str) -> Source {
    match from {
        Some(ValueSource::EnvVariable) => Source::Env(env),
        _ => Source::Flag(flag),
    }
}

/// Where a global argument's value came from, looking through the
/// subcommands too (a global flag may be given after the subcommand).
fn value_source(matches: &ArgMatches, id: &str) -> Option<ValueSource> {
    let mut best = None;
    let mut m = Some(matches);
    while let Some(current) = m {
        if current.try_contains_id(id).unwrap_or(false) {
            best = best.max(current.value_source(id));
        }
        m = current.subcommand().map(|(_, sub)| sub);
    }
    best
}

/// `NO_COLOR` set to anything but "" (<https://no-color.org>).
pub(super) fn no_color() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}
