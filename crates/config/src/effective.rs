//! The settings in force: flags > environment > profile > defaults, each
//! with where it came from.

use super::connection::{
    ConnectionInput, DEMO_BASE_URL, Target, is_demo_url, normalize_url, resolve_with,
};
use super::file::{ConfigFile, Loaded, Profile, ProfileToken, profile_names};
use super::paths::{expand_path, theme_path};
use super::stored_token::{self, TokenKey};
use super::theme_file::{BuiltinTheme, ThemeFile};
use super::token::{TOKEN_COMMAND_TIMEOUT, read_token_file, run_token_command};
use super::views::SavedView;
use super::{ConfigError, ENV_BASE_URL, ENV_TOKEN};
use findings_base::token::Token;
use findings_model::{SortBy, SortDirection};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Where a setting came from (`findings config show` says it).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Source {
    Flag(&'static str),
    Env(&'static str),
    Profile(String),
    /// A top-level key or table of the config file (`[views.NAME]`).
    File,
    /// The user theme file's `base`.
    ThemeFile,
    #[default]
    Default,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Flag(flag) => write!(f, "{flag}"),
            Source::Env(var) => write!(f, "{var}"),
            Source::Profile(name) => write!(f, "profile {name}"),
            Source::File => f.write_str("config file"),
            Source::ThemeFile => f.write_str("base of the theme file"),
            Source::Default => f.write_str("default"),
        }
    }
}

/// A value and where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Given<T> {
    pub value: T,
    pub source: Source,
}

impl<T> Given<T> {
    pub fn new(value: T, source: Source) -> Self {
        Given { value, source }
    }
}

/// What the command line says (each flag already merged with its env twin
/// by clap, with the source of the value).
#[derive(Debug, Clone, Default)]
pub struct CommandLine {
    pub base_url: Option<Given<String>>,
    pub deployment: Option<Given<String>>,
    pub profile: Option<Given<String>>,
    pub allow_http: bool,
    /// `--read-only` or `FINDINGS_READ_ONLY`, where it came from.
    pub read_only: Option<Source>,
    /// `--theme` or `FINDINGS_THEME` (not checked yet: only the TUI and
    /// `config show` use it).
    pub theme: Option<Given<String>>,
    /// `--connect-timeout` or `FINDINGS_CONNECT_TIMEOUT`; none: the
    /// profile's `connect_timeout`, else [`DEFAULT_CONNECT_TIMEOUT`].
    pub connect_timeout: Option<Given<Duration>>,
    /// `--timeout` or `FINDINGS_TIMEOUT`; none: the profile's `timeout`,
    /// else [`DEFAULT_REQUEST_TIMEOUT`].
    pub request_timeout: Option<Given<Duration>>,
    /// `-q` or `FINDINGS_NO_PROGRESS`, where it came from: no progress,
    /// whatever the profile says.
    pub no_progress: Option<Source>,
    /// `FINDINGS_CONFIG`, when it names the config file: a configuration
    /// was meant, so a missing base URL is not a cue for the demo.
    pub config_named: Option<Source>,
}

/// Where the token will come from.
#[derive(Debug, Clone, PartialEq)]
pub enum TokenSource {
    /// `FINDINGS_TOKEN` (it beats any profile).
    Env(Token),
    /// A profile's `token`, `token_file` or `token_command`.
    Profile {
        profile: String,
        token: ProfileToken,
    },
    /// The profile has a token, but it is kept for the profile's own base
    /// URL, which a flag or the environment replaced.
    Withheld {
        profile: String,
        profile_url: String,
    },
    None,
}

/// Every setting in force, after flags > environment > profile > defaults.
#[derive(Debug, Clone)]
pub struct Effective {
    pub config_path: PathBuf,
    pub config_exists: bool,
    pub profile: Option<Given<String>>,
    pub base_url: Option<Given<String>>,
    pub deployment: Option<Given<String>>,
    pub token: TokenSource,
    pub page_size: Given<i64>,
    /// Above this many findings a triage by filter asks a second `y`.
    pub triage_confirm_above: Given<u32>,
    /// Open-age targets by severity (days).
    pub sla_days: Given<super::values::SlaDays>,
    /// The profile's `[gate]` policy, if it has one.
    pub gate: Option<Given<super::GatePolicy>>,
    /// A pane's name (the wiring checks it names a pane of the TUI).
    pub default_pane: Given<&'static str>,
    pub default_sort: Option<Given<SortBy>>,
    pub default_direction: Option<Given<SortDirection>>,
    pub default_filters: Option<Given<Vec<String>>>,
    pub read_only: Given<bool>,
    pub allow_http: Given<bool>,
    pub views: BTreeMap<String, Given<SavedView>>,
    /// The theme named by a flag, the environment, the profile or the
    /// config file; `None`: the theme file's `base`, else `default`.
    pub theme: Option<Given<String>>,
    /// The user theme file: the config file's `theme_file` (source
    /// [`Source::File`]), else `theme.toml` beside it ([`Source::Default`]).
    pub theme_file: Given<PathBuf>,
    pub connect_timeout: Duration,
    pub request_timeout: Duration,
    /// Where the two timeouts came from (flag, env, profile or default).
    pub timeout_sources: (Source, Source),
    /// A base URL given empty (`FINDINGS_BASE_URL=` in a CI job whose
    /// variable is unset), and where.
    pub base_url_blank: Option<Source>,
    /// See [`CommandLine::config_named`].
    pub config_named: Option<Source>,
    /// Progress lines on stderr (still only for a person: a terminal, no
    /// `CI`, no `TERM=dumb`): off with `-q`, `FINDINGS_NO_PROGRESS` or a
    /// profile's `progress = false`.
    pub progress: Given<bool>,
    /// Directory relative `token_file` paths are taken from.
    config_dir: PathBuf,
}

/// The TUI's theme as the settings make it, and why (the TUI draws with
/// it: `tui::theme::Theme::chosen`).
#[derive(Debug, Clone)]
pub struct ThemeChoice {
    /// The built-in in use.
    pub builtin: BuiltinTheme,
    /// The built-in's name as given, and where it came from.
    pub name: Given<String>,
    /// The theme file read, if there was one.
    pub file: Option<ThemeFile>,
    /// `NO_COLOR` was set: no colours whatever the theme.
    pub no_color: bool,
}

pub use findings_model::DEFAULT_PAGE_SIZE;

/// Above this many findings a triage by filter asks a second `y`.
pub const DEFAULT_TRIAGE_CONFIRM_ABOVE: u32 = 50;

/// How long to wait for a connection, when nothing says.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long to wait for a whole answer, when nothing says.
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// Merges the command line, the environment's token and the config file.
pub fn effective(
    cli: CommandLine,
    env_token: Option<Token>,
    config_path: PathBuf,
    loaded: Option<&Loaded>,
) -> Result<Effective, ConfigError> {
    let empty = ConfigFile::default();
    let file = loaded.map_or(&empty, |l| &l.file);
    let (profile_name, profile) = chosen_profile(cli.profile, file, loaded, &config_path)?;
    let pname = profile_name
        .as_ref()
        .map(|p| p.value.clone())
        .unwrap_or_default();
    let from_profile = || Source::Profile(pname.clone());
    let pick = |given: Option<Given<String>>, from: Option<&String>| {
        given
            .filter(|g| !g.value.trim().is_empty())
            .or_else(|| from.map(|v| Given::new(v.clone(), from_profile())))
    };
    let base_url_blank = cli
        .base_url
        .as_ref()
        .filter(|g| g.value.trim().is_empty())
        .map(|g| g.source.clone());
    let base_url = pick(cli.base_url, profile.and_then(|p| p.base_url.as_ref()));
    let deployment = pick(cli.deployment, profile.and_then(|p| p.deployment.as_ref()));
    let token = token_source(env_token, profile, &pname, base_url.as_ref());

    let or_default = |v: Option<bool>, given: Option<Source>| {
        if let Some(source) = given {
            Given::new(true, source)
        } else if let Some(v) = v {
            Given::new(v, from_profile())
        } else {
            Given::new(false, Source::Default)
        }
    };
    let read_only = or_default(profile.and_then(|p| p.read_only), cli.read_only);
    let allow_http = or_default(
        profile.and_then(|p| p.allow_http),
        cli.allow_http.then_some(Source::Flag("--allow-http")),
    );

    let asked = (cli.connect_timeout, cli.request_timeout, cli.no_progress);
    let (connect_timeout, request_timeout, progress) = patience(asked, profile, &pname);
    let views = merged_views(file, profile, &pname);
    let config_dir = config_path
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let theme = chosen_theme(cli.theme, file, profile, &pname);
    let theme_file = match file.theme_file.as_deref().filter(|p| !p.trim().is_empty()) {
        Some(p) => Given::new(expand_path(p, &config_dir), Source::File),
        None => Given::new(theme_path(&config_path), Source::Default),
    };
    Ok(Effective {
        theme,
        theme_file,
        config_exists: loaded.is_some(),
        config_path,
        config_dir,
        base_url,
        deployment,
        token,
        page_size: profile
            .and_then(|p| p.page_size)
            .map_or(Given::new(DEFAULT_PAGE_SIZE, Source::Default), |n| {
                Given::new(n, from_profile())
            }),
        triage_confirm_above: profile.and_then(|p| p.triage_confirm_above).map_or(
            Given::new(DEFAULT_TRIAGE_CONFIRM_ABOVE, Source::Default),
            |n| Given::new(n, from_profile()),
        ),
        sla_days: profile.and_then(|p| p.sla_days).map_or(
            Given::new(super::values::SlaDays::default(), Source::Default),
            |s| Given::new(s, from_profile()),
        ),
        gate: profile
            .and_then(|p| p.gate.clone())
            .map(|g| Given::new(g, from_profile())),
        default_pane: profile
            .and_then(|p| p.default_pane)
            .map_or(Given::new("issues", Source::Default), |p| {
                Given::new(p, from_profile())
            }),
        default_sort: profile
            .and_then(|p| p.default_sort.clone())
            .map(|s| Given::new(s, from_profile())),
        default_direction: profile
            .and_then(|p| p.default_direction.clone())
            .map(|d| Given::new(d, from_profile())),
        default_filters: profile
            .filter(|p| !p.default_filters.is_empty())
            .map(|p| Given::new(p.default_filters.clone(), from_profile())),
        read_only,
        allow_http,
        views,
        connect_timeout: connect_timeout.value,
        request_timeout: request_timeout.value,
        timeout_sources: (connect_timeout.source, request_timeout.source),
        progress,
        base_url_blank,
        config_named: cli.config_named,
        profile: profile_name,
    })
}

/// The timeouts (connect, whole answer) and progress: the command line's
/// (flag or environment), else the profile's, else the defaults.
fn patience(
    (connect, answer, no_progress): (
        Option<Given<Duration>>,
        Option<Given<Duration>>,
        Option<Source>,
    ),
    profile: Option<&Profile>,
    pname: &str,
) -> (Given<Duration>, Given<Duration>, Given<bool>) {
    let from_profile = || Source::Profile(pname.to_owned());
    let seconds = |given: Option<Given<Duration>>, from: Option<u64>, default: Duration| {
        given
            .or_else(|| from.map(|n| Given::new(Duration::from_secs(n), from_profile())))
            .unwrap_or(Given::new(default, Source::Default))
    };
    let connect = seconds(
        connect,
        profile.and_then(|p| p.connect_timeout),
        DEFAULT_CONNECT_TIMEOUT,
    );
    let answer = seconds(
        answer,
        profile.and_then(|p| p.timeout),
        DEFAULT_REQUEST_TIMEOUT,
    );
    let progress = match (no_progress, profile.and_then(|p| p.progress)) {
        (Some(source), _) => Given::new(false, source),
        (None, Some(on)) => Given::new(on, from_profile()),
        (None, None) => Given::new(true, Source::Default),
    };
    (connect, answer, progress)
}

/// The profile in force: the command line's (`--profile`,
/// `FINDINGS_PROFILE`), else the file's `default_profile`. A profile named
/// but not in the file is an error, not a silent fallback.
fn chosen_profile<'f>(
    given: Option<Given<String>>,
    file: &'f ConfigFile,
    loaded: Option<&Loaded>,
    config_path: &Path,
) -> Result<(Option<Given<String>>, Option<&'f Profile>), ConfigError> {
    let profile_name = match given.filter(|p| !p.value.trim().is_empty()) {
        Some(p) => Some(p),
        None => file
            .default_profile
            .clone()
            .map(|name| Given::new(name, Source::File)),
    };
    let profile = match &profile_name {
        None => None,
        Some(name) => match file.profiles.get(&name.value) {
            Some(p) => Some(p),
            None if loaded.is_none() => {
                return Err(ConfigError(format!(
                    "profile {:?} ({}): there is no config file at {} (create one with: findings config init)",
                    name.value,
                    name.source,
                    config_path.display()
                )));
            }
            None => {
                return Err(ConfigError(format!(
                    "no profile {:?} in {} ({}); profiles there: {}",
                    name.value,
                    config_path.display(),
                    name.source,
                    profile_names(file)
                )));
            }
        },
    };
    Ok((profile_name, profile))
}

/// Where the token comes from: the environment's beats the profile's.
fn token_source(
    env_token: Option<Token>,
    profile: Option<&Profile>,
    pname: &str,
    base_url: Option<&Given<String>>,
) -> TokenSource {
    match (env_token.filter(|t| !t.is_empty()), profile) {
        (Some(t), _) => TokenSource::Env(t),
        (None, Some(p)) => match &p.token {
            None => TokenSource::None,
            Some(token) => {
                // A profile's token goes only to the profile's own server.
                let withheld = match (&p.base_url, base_url) {
                    (Some(own), Some(used)) => normalize_url(own) != normalize_url(&used.value),
                    _ => false,
                };
                if withheld {
                    TokenSource::Withheld {
                        profile: pname.to_owned(),
                        profile_url: p.base_url.clone().unwrap_or_default(),
                    }
                } else {
                    TokenSource::Profile {
                        profile: pname.to_owned(),
                        token: token.clone(),
                    }
                }
            }
        },
        (None, None) => TokenSource::None,
    }
}

/// The file's top-level views, with the profile's views over them.
fn merged_views(
    file: &ConfigFile,
    profile: Option<&Profile>,
    pname: &str,
) -> BTreeMap<String, Given<SavedView>> {
    let mut views: BTreeMap<String, Given<SavedView>> = file
        .views
        .iter()
        .map(|(k, v)| (k.clone(), Given::new(v.clone(), Source::File)))
        .collect();
    if let Some(p) = profile {
        for (k, v) in &p.views {
            views.insert(
                k.clone(),
                Given::new(v.clone(), Source::Profile(pname.to_owned())),
            );
        }
    }
    views
}

/// The theme's name: the command line's, else the profile's, else the
/// file's top-level `theme`.
fn chosen_theme(
    given: Option<Given<String>>,
    file: &ConfigFile,
    profile: Option<&Profile>,
    pname: &str,
) -> Option<Given<String>> {
    given
        .filter(|t| !t.value.trim().is_empty())
        .or_else(|| {
            profile
                .and_then(|p| p.theme.as_ref())
                .map(|t| Given::new(t.0.clone(), Source::Profile(pname.to_owned())))
        })
        .or_else(|| {
            file.theme
                .as_ref()
                .map(|t| Given::new(t.0.clone(), Source::File))
        })
}

impl Effective {
    /// Where to connect. The token is fetched (its file read, its command
    /// run) only when a real server is to be reached.
    pub fn target(&self) -> Result<Target, ConfigError> {
        if let Some(source) = &self.config_named
            && !self.config_exists
        {
            // A file named but not there is a mistake (a typo, a secret
            // not mounted), not a request for the defaults.
            return Err(ConfigError(format!(
                "{source} names {}, which does not exist (`findings config init` creates it; unset {source} for the usual place)",
                self.config_path.display()
            )));
        }
        if self.base_url.is_none()
            && let Some(what) = self.configured_without_url()
        {
            return Err(ConfigError(format!(
                "no base URL, but {what}: set {ENV_BASE_URL} (or --base-url, or base_url in a profile) to the deployment's address, or {ENV_BASE_URL}={DEMO_BASE_URL} for the embedded demo server (used unasked only when nothing at all is configured)"
            )));
        }
        let input = ConnectionInput {
            base_url: self.base_url.as_ref().map(|g| g.value.clone()),
            deployment: self.deployment.as_ref().map(|g| g.value.clone()),
            token: None,
            allow_http: self.allow_http.value,
            connect_timeout: self.connect_timeout,
            request_timeout: self.request_timeout,
        };
        resolve_with(input, || self.fetch_token())
    }

    /// What is configured although the base URL is not, in words: the
    /// demo server is never used in place of a deployment someone meant.
    fn configured_without_url(&self) -> Option<String> {
        if let Some(source) = &self.base_url_blank {
            return Some(format!("{source} is set and empty"));
        }
        if let TokenSource::Env(_) = self.token {
            return Some(format!("{ENV_TOKEN} is set"));
        }
        if let Some(d) = &self.deployment {
            return Some(format!("a deployment is set ({})", d.source));
        }
        if let Some(p) = &self.profile {
            return Some(format!("profile {:?} is in force ({})", p.value, p.source));
        }
        self.config_named.as_ref().map(|source| {
            format!(
                "the config file {} is named by {source}",
                self.config_path.display()
            )
        })
    }

    fn fetch_token(&self) -> Result<Token, ConfigError> {
        self.token_origin().map(|(token, _)| token)
    }

    /// The token in force and where it came from ("FINDINGS_TOKEN",
    /// "token_file PATH of profile work", "the secret store (stored by
    /// findings auth login)"): its file read, its command run, the stored
    /// one looked up. The token itself is never said.
    pub fn token_origin(&self) -> Result<(Token, String), ConfigError> {
        match &self.token {
            TokenSource::Env(t) => Ok((t.clone(), ENV_TOKEN.to_owned())),
            TokenSource::Profile { profile, token } => match token {
                ProfileToken::Literal(t) => Ok((
                    t.clone(),
                    format!(
                        "token of profile {profile} in {}",
                        self.config_path.display()
                    ),
                )),
                ProfileToken::File(path) => {
                    let path = expand_path(path, &self.config_dir);
                    let token = read_token_file(&path, profile)?;
                    Ok((
                        token,
                        format!("token_file {} of profile {profile}", path.display()),
                    ))
                }
                ProfileToken::Command(cmd) => run_token_command(cmd, TOKEN_COMMAND_TIMEOUT)
                    .map(|t| (t, format!("token_command of profile {profile}")))
                    .map_err(|e| ConfigError(format!("token_command of profile {profile:?} {e}"))),
            },
            TokenSource::None => {
                let stored = match self.token_key() {
                    Some(key) => stored_token::load(&key, &self.config_dir)?,
                    None => None,
                };
                match stored {
                    Some((token, at)) => {
                        Ok((token, format!("{at}, stored by findings auth login")))
                    }
                    None => Err(self.no_token()),
                }
            }
            TokenSource::Withheld {
                profile,
                profile_url,
            } => Err(ConfigError(format!(
                "no token: profile {profile:?} has one, but only for its base_url {profile_url}, and the base URL in force is {} (from {}); set {ENV_TOKEN} for that server",
                self.base_url.as_ref().map_or("?", |g| g.value.as_str()),
                self.base_url
                    .as_ref()
                    .map_or(Source::Default, |g| g.source.clone()),
            ))),
        }
    }

    fn no_token(&self) -> ConfigError {
        ConfigError(match &self.profile {
            Some(p) => format!(
                "no token: set {ENV_TOKEN}, run findings auth login, or set token_command or token_file in profile {:?} of {}",
                p.value,
                self.config_path.display()
            ),
            None => format!(
                "no token: set {ENV_TOKEN}, run findings auth login, or use a profile with token_command or token_file in {}",
                self.config_path.display()
            ),
        })
    }

    /// What `findings auth login` stores a token for: the profile in force
    /// and the base URL. `None` without a base URL (the demo).
    pub fn token_key(&self) -> Option<TokenKey> {
        let base_url = self
            .base_url
            .as_ref()
            .filter(|u| !u.value.trim().is_empty() && !is_demo_url(&u.value))?;
        Some(TokenKey {
            profile: self.profile.as_ref().map(|p| p.value.clone()),
            base_url: normalize_url(&base_url.value),
        })
    }

    /// The folder of the config file (the stored token's file is there).
    pub fn config_dir(&self) -> &Path {
        &self.config_dir
    }

    /// The TUI's theme: the theme file read and checked (a missing
    /// `theme.toml` is no file; a missing `theme_file` is an error), the
    /// theme name checked, `NO_COLOR` (when `no_color`) over both.
    pub fn theme_choice(&self, no_color: bool) -> Result<ThemeChoice, ConfigError> {
        let path = &self.theme_file.value;
        let file = ThemeFile::read(path).map_err(ConfigError)?;
        if file.is_none() && self.theme_file.source != Source::Default {
            return Err(ConfigError(format!(
                "theme_file {} (config file {}): no such file",
                path.display(),
                self.config_path.display()
            )));
        }
        let name = self
            .theme
            .clone()
            .or_else(|| {
                let base = file.as_ref()?.base.clone()?;
                Some(Given::new(base, Source::ThemeFile))
            })
            .unwrap_or_else(|| Given::new("default".to_owned(), Source::Default));
        let builtin = BuiltinTheme::named(&name.value)
            .map_err(|e| ConfigError(format!("{}: {e}", name.source)))?;
        Ok(ThemeChoice {
            builtin,
            name,
            file,
            no_color,
        })
    }

    /// The saved views, as the TUI takes them.
    pub fn saved_views(&self) -> Vec<SavedView> {
        self.views.values().map(|v| v.value.clone()).collect()
    }

    /// The page size the headless commands ask for when neither `--limit`
    /// nor `--max` says: a profile's `page_size`, else the server's default.
    pub fn page_size_override(&self) -> Option<i64> {
        (self.page_size.source != Source::Default).then_some(self.page_size.value)
    }
}
