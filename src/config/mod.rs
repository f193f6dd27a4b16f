//! Where to connect and how the app starts: flags, then environment, then a
//! profile of the config file, then defaults.
//!
//! The config file is TOML in the platform's config folder
//! (`$XDG_CONFIG_HOME/findings/config.toml` on Linux), or wherever
//! `FINDINGS_CONFIG` says. Unknown keys and impossible values are refused
//! with the file, the line and the key. A token in the file, or a
//! `token_file`, must not be readable by group or others (as ssh does with
//! keys); a `token_command` runs through `sh -c`, without stdin, and its
//! output is never shown.

use crate::api::model::{ListIssuesFilter, SortBy, SortDirection};
use crate::api::{ClientConfig, Token};
use crate::filter_spec::{self, LIST_FILTER};
use crate::tui::app::{PaneId, SavedView};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

pub const ENV_BASE_URL: &str = "FINDINGS_BASE_URL";
pub const ENV_DEPLOYMENT: &str = "FINDINGS_DEPLOYMENT";
pub const ENV_TOKEN: &str = "FINDINGS_TOKEN";
pub const ENV_CONFIG: &str = "FINDINGS_CONFIG";
pub const ENV_PROFILE: &str = "FINDINGS_PROFILE";
pub const ENV_LOG: &str = "FINDINGS_LOG";
pub const ENV_THEME: &str = "FINDINGS_THEME";

/// How long a `token_command` may run (it may ask for a passphrase).
pub const TOKEN_COMMAND_TIMEOUT: Duration = Duration::from_secs(60);
/// The most of a `token_command`'s output, or of a `token_file`, read.
const MAX_TOKEN_BYTES: u64 = 64 * 1024;

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

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

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
fn resolve_with(
    input: ConnectionInput,
    token: impl FnOnce() -> Result<Token, ConfigError>,
) -> Result<Target, ConfigError> {
    let Some(base_url) = input.base_url.filter(|u| !u.trim().is_empty()) else {
        return Ok(Target::Demo);
    };
    let base_url = normalize_url(&base_url);
    check_base_url(&base_url, input.allow_http)?;
    let deployment = input
        .deployment
        .filter(|d| !d.trim().is_empty())
        .ok_or_else(|| {
            ConfigError(format!(
                "no deployment: pass --deployment ID, set {ENV_DEPLOYMENT}, or set deployment in a profile"
            ))
        })?;
    let deployment = deployment.trim().to_owned();
    if !deployment.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ConfigError(format!(
            "deployment {deployment:?} must be a numeric id"
        )));
    }
    let token = token()?;
    let mut config = ClientConfig::new(base_url, deployment, token);
    config.connect_timeout = input.connect_timeout;
    config.request_timeout = input.request_timeout;
    Ok(Target::Remote(config))
}

fn normalize_url(url: &str) -> String {
    url.trim().trim_end_matches('/').to_owned()
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

// ---------------------------------------------------------------------------
// Folders
// ---------------------------------------------------------------------------

fn project_dirs() -> Option<directories::ProjectDirs> {
    directories::ProjectDirs::from("", "", "findings")
}

/// Where the config file is, and why there: `FINDINGS_CONFIG`, else the
/// platform's config folder.
pub fn config_path() -> Result<PathBuf, ConfigError> {
    if let Some(p) = std::env::var_os(ENV_CONFIG).filter(|p| !p.is_empty()) {
        return Ok(PathBuf::from(p));
    }
    project_dirs()
        .map(|d| d.config_dir().join("config.toml"))
        .ok_or_else(|| {
            ConfigError(format!(
                "cannot find the config folder (no home directory); set {ENV_CONFIG} to the config file's path"
            ))
        })
}

/// The user keymap merged over the defaults: `keymap.toml` beside the
/// config file.
pub fn keymap_path() -> Result<PathBuf, ConfigError> {
    let config = config_path()?;
    Ok(config.with_file_name("keymap.toml"))
}

/// The user theme file's usual place: `theme.toml` beside the config file
/// (the config file's `theme_file` names another).
pub fn theme_path(config: &Path) -> PathBuf {
    config.with_file_name("theme.toml")
}

/// The folder for state and logs: `$XDG_STATE_HOME/findings` on Linux, the
/// local data folder elsewhere.
pub fn state_dir() -> Option<PathBuf> {
    let dirs = project_dirs()?;
    Some(
        dirs.state_dir()
            .unwrap_or_else(|| dirs.data_local_dir())
            .to_path_buf(),
    )
}

// ---------------------------------------------------------------------------
// The file
// ---------------------------------------------------------------------------

/// The config file as written. Unknown keys are errors, so typos are caught.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigFile {
    /// The profile used when no `--profile` / `FINDINGS_PROFILE` is given.
    pub default_profile: Option<String>,
    #[serde(default)]
    pub profiles: BTreeMap<String, Profile>,
    /// Saved views for every profile.
    #[serde(default)]
    pub views: BTreeMap<String, View>,
    /// The TUI's theme when no profile, flag or environment names one.
    pub theme: Option<ThemeName>,
    /// The user theme file, if not `theme.toml` beside the config file.
    pub theme_file: Option<String>,
}

/// One `[profiles.NAME]` table.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(try_from = "RawProfile")]
pub struct Profile {
    pub base_url: Option<String>,
    pub deployment: Option<String>,
    pub token: Option<ProfileToken>,
    pub page_size: Option<i64>,
    pub default_pane: Option<PaneId>,
    pub default_sort: Option<SortBy>,
    pub default_direction: Option<SortDirection>,
    pub default_filters: Vec<String>,
    pub read_only: Option<bool>,
    pub allow_http: Option<bool>,
    pub views: BTreeMap<String, View>,
    pub theme: Option<ThemeName>,
}

/// Where a profile's token comes from (at most one of the three keys).
#[derive(Clone, PartialEq)]
pub enum ProfileToken {
    /// `token = "..."` in the file itself.
    Literal(Token),
    /// `token_file = "PATH"`: the file's first line.
    File(String),
    /// `token_command = "CMD"`: the first line of its output.
    Command(String),
}

impl fmt::Debug for ProfileToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProfileToken::Literal(_) => f.write_str("Literal(***)"),
            ProfileToken::File(p) => write!(f, "File({p:?})"),
            ProfileToken::Command(c) => write!(f, "Command({c:?})"),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawProfile {
    base_url: Option<String>,
    deployment: Option<DeploymentId>,
    token: Option<String>,
    token_command: Option<String>,
    token_file: Option<String>,
    page_size: Option<PageSize>,
    default_pane: Option<PaneName>,
    default_sort: Option<SortName>,
    default_direction: Option<DirectionName>,
    #[serde(default)]
    default_filters: Filters,
    read_only: Option<bool>,
    allow_http: Option<bool>,
    #[serde(default)]
    views: BTreeMap<String, View>,
    theme: Option<ThemeName>,
}

impl TryFrom<RawProfile> for Profile {
    type Error = String;

    fn try_from(raw: RawProfile) -> Result<Profile, String> {
        let mut tokens = Vec::new();
        if let Some(t) = raw.token {
            tokens.push(("token", ProfileToken::Literal(Token::new(t.trim()))));
        }
        if let Some(f) = raw.token_file {
            tokens.push(("token_file", ProfileToken::File(f)));
        }
        if let Some(c) = raw.token_command {
            tokens.push(("token_command", ProfileToken::Command(c)));
        }
        if tokens.len() > 1 {
            let keys: Vec<&str> = tokens.iter().map(|(k, _)| *k).collect();
            return Err(format!(
                "a profile takes one token source, but this one sets {}; keep one",
                keys.join(" and ")
            ));
        }
        match tokens.first() {
            Some((key, ProfileToken::Literal(t))) if t.is_empty() => {
                return Err(format!("{key} is empty"));
            }
            Some((key, ProfileToken::File(s) | ProfileToken::Command(s)))
                if s.trim().is_empty() =>
            {
                return Err(format!("{key} is empty"));
            }
            _ => {}
        }
        if let Some(url) = &raw.base_url
            && !url.trim().is_empty()
        {
            reqwest::Url::parse(url.trim())
                .map_err(|e| format!("base_url {url:?} is not a URL: {e}"))?;
        }
        Ok(Profile {
            base_url: raw.base_url.filter(|u| !u.trim().is_empty()),
            deployment: raw.deployment.map(|d| d.0),
            token: tokens.pop().map(|(_, t)| t),
            page_size: raw.page_size.map(|p| p.0),
            default_pane: raw.default_pane.map(|p| p.0),
            default_sort: raw.default_sort.map(|s| s.0),
            default_direction: raw.default_direction.map(|d| d.0),
            default_filters: raw.default_filters.0,
            read_only: raw.read_only,
            allow_http: raw.allow_http,
            views: raw.views,
            theme: raw.theme,
        })
    }
}

/// A saved view: a named sort and set of filters of the Issues pane.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(try_from = "RawView")]
pub struct View {
    pub sort: Option<SortBy>,
    pub direction: Option<SortDirection>,
    pub filters: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawView {
    pane: Option<PaneName>,
    sort: Option<SortName>,
    direction: Option<DirectionName>,
    #[serde(default)]
    filters: Filters,
}

impl TryFrom<RawView> for View {
    type Error = String;

    fn try_from(raw: RawView) -> Result<View, String> {
        match raw.pane.map(|p| p.0) {
            None | Some(PaneId::Issues) => {}
            Some(other) => {
                return Err(format!(
                    "views apply to the issues pane; pane = {:?} is not supported",
                    other.title().to_lowercase()
                ));
            }
        }
        if raw.sort.is_none() && raw.direction.is_none() && raw.filters.0.is_empty() {
            return Err("a view needs a sort, a direction or filters".into());
        }
        Ok(View {
            sort: raw.sort.map(|s| s.0),
            direction: raw.direction.map(|d| d.0),
            filters: raw.filters.0,
        })
    }
}

/// A numeric deployment id, written as a string or an integer.
struct DeploymentId(String);

impl<'de> Deserialize<'de> for DeploymentId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = DeploymentId;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a numeric deployment id, e.g. 4711 or \"4711\"")
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<DeploymentId, E> {
                if v < 0 {
                    return Err(E::custom(format!(
                        "deployment must be a numeric id, not {v}"
                    )));
                }
                Ok(DeploymentId(v.to_string()))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<DeploymentId, E> {
                Ok(DeploymentId(v.to_string()))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<DeploymentId, E> {
                let v = v.trim();
                if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(E::custom(format!(
                        "deployment must be a numeric id, not {v:?}"
                    )));
                }
                Ok(DeploymentId(v.to_owned()))
            }
        }
        d.deserialize_any(V)
    }
}

#[derive(Deserialize)]
#[serde(try_from = "i64")]
struct PageSize(i64);

impl TryFrom<i64> for PageSize {
    type Error = String;
    fn try_from(n: i64) -> Result<PageSize, String> {
        if (1..=1000).contains(&n) {
            Ok(PageSize(n))
        } else {
            Err(format!("page_size must be 1 to 1000, not {n}"))
        }
    }
}

#[derive(Deserialize)]
#[serde(try_from = "String")]
struct PaneName(PaneId);

impl TryFrom<String> for PaneName {
    type Error = String;
    fn try_from(s: String) -> Result<PaneName, String> {
        PaneId::ALL
            .iter()
            .find(|p| p.title().eq_ignore_ascii_case(s.trim()))
            .map(|p| PaneName(*p))
            .ok_or_else(|| format!("unknown pane {s:?}; valid: report, issues, agentic, scm"))
    }
}

#[derive(Deserialize)]
#[serde(try_from = "String")]
struct SortName(SortBy);

impl TryFrom<String> for SortName {
    type Error = String;
    fn try_from(s: String) -> Result<SortName, String> {
        SortBy::parse_known(s.trim()).map(SortName).ok_or_else(|| {
            let names: Vec<&str> = SortBy::ALL.iter().map(SortBy::label).collect();
            format!("unknown sort field {s:?}; valid: {}", names.join(", "))
        })
    }
}

#[derive(Deserialize)]
#[serde(try_from = "String")]
struct DirectionName(SortDirection);

impl TryFrom<String> for DirectionName {
    type Error = String;
    fn try_from(s: String) -> Result<DirectionName, String> {
        SortDirection::parse_known(s.trim())
            .map(DirectionName)
            .ok_or_else(|| format!("direction {s:?} must be asc or desc"))
    }
}

/// A built-in theme's name, checked.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "String")]
pub struct ThemeName(pub String);

impl TryFrom<String> for ThemeName {
    type Error = String;
    fn try_from(s: String) -> Result<ThemeName, String> {
        crate::tui::theme::check_name(&s)?;
        Ok(ThemeName(s.trim().to_owned()))
    }
}

/// List issues filters as `FIELD=VALUE` strings, checked as `--filter` is.
#[derive(Deserialize, Default)]
#[serde(try_from = "Vec<String>")]
struct Filters(Vec<String>);

impl TryFrom<Vec<String>> for Filters {
    type Error = String;
    fn try_from(list: Vec<String>) -> Result<Filters, String> {
        let pairs = filter_pairs(&list)?;
        filter_spec::build::<ListIssuesFilter>(LIST_FILTER, "List issues", &pairs)
            .map_err(|e| e.0)?;
        Ok(Filters(list))
    }
}

/// Splits `FIELD=VALUE` strings (not yet checked against the schema).
pub fn filter_pairs(list: &[String]) -> Result<Vec<(String, String)>, String> {
    list.iter()
        .map(|raw| match raw.split_once('=') {
            Some((field, value)) if !field.trim().is_empty() => {
                Ok((field.trim().to_owned(), value.to_owned()))
            }
            _ => Err(format!(
                "filter {raw:?}: expected FIELD=VALUE, e.g. \"repositoryNames=acme/payments-api\""
            )),
        })
        .collect()
}

/// A config file read from disk.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub path: PathBuf,
    pub file: ConfigFile,
}

/// Reads the config file; `None` when there is none.
pub fn load(path: &Path) -> Result<Option<Loaded>, ConfigError> {
    let text = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(ConfigError(format!(
                "cannot read the config file {}: {e}",
                path.display()
            )));
        }
    };
    let text = String::from_utf8(text)
        .map_err(|_| ConfigError(format!("config file {}: not UTF-8 text", path.display())))?;
    let file = parse(path, &text)?;
    if let Some(key) = file.literal_token_key() {
        check_private(
            path,
            &format!("config file {} holds a token ({key})", path.display()),
        )?;
    }
    Ok(Some(Loaded {
        path: path.to_owned(),
        file,
    }))
}

/// Parses the text of a config file; errors name the file, the line and the
/// key.
pub fn parse(path: &Path, text: &str) -> Result<ConfigFile, ConfigError> {
    let file: ConfigFile = match toml::Deserializer::parse(text) {
        Err(e) => return Err(parse_error(path, text, &e, None)),
        Ok(de) => serde_path_to_error::deserialize(de).map_err(|e| {
            let key = e.path().to_string();
            parse_error(path, text, e.inner(), Some(key))
        })?,
    };
    if let Some(name) = &file.default_profile
        && !file.profiles.contains_key(name)
    {
        let line = key_line(text, "default_profile")
            .map(|l| format!(", line {l}"))
            .unwrap_or_default();
        return Err(ConfigError(format!(
            "config file {}{line}, key default_profile: no profile {name:?}; profiles: {}",
            path.display(),
            profile_names(&file)
        )));
    }
    Ok(file)
}

fn parse_error(path: &Path, text: &str, e: &toml::de::Error, key: Option<String>) -> ConfigError {
    let line = e
        .span()
        .map(|span| text[..span.start.min(text.len())].matches('\n').count() + 1);
    let mut msg = format!("config file {}", path.display());
    if let Some(line) = line {
        msg.push_str(&format!(", line {line}"));
    }
    // A syntax error has no key from serde: take the one written on the line.
    let key = key
        .filter(|k| !k.is_empty() && k != ".")
        .or_else(|| line.and_then(|l| key_on_line(text, l)));
    if let Some(key) = key {
        msg.push_str(&format!(", key {key}"));
    }
    msg.push_str(": ");
    msg.push_str(&crate::text::one_line(e.message().trim()));
    ConfigError(msg)
}

/// The dotted key written on line `line` (1-based), under the table header
/// above it: `profiles.work.token` for `token = ...` after `[profiles.work]`.
/// Only the key is taken, never the value.
pub(crate) fn key_on_line(text: &str, line: usize) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let (key, _) = lines.get(line.checked_sub(1)?)?.split_once('=')?;
    let key = key.trim();
    let is_key = |k: &str| {
        !k.is_empty()
            && k.chars()
                .all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c))
    };
    if !is_key(key) {
        return None;
    }
    let table = lines[..line - 1].iter().rev().find_map(|l| {
        let l = l.trim();
        let inner = l.strip_prefix("[[").and_then(|r| r.strip_suffix("]]"));
        let inner = inner.or_else(|| l.strip_prefix('[').and_then(|r| r.strip_suffix(']')));
        inner.map(|t| t.trim().to_owned())
    });
    match table {
        Some(t) if is_key(&t) => Some(format!("{t}.{key}")),
        Some(_) => None,
        None => Some(key.to_owned()),
    }
}

/// The line of a top-level `key = ...` (for errors found after parsing).
fn key_line(text: &str, key: &str) -> Option<usize> {
    text.lines()
        .position(|l| {
            l.trim_start()
                .strip_prefix(key)
                .is_some_and(|rest| rest.trim_start().starts_with('='))
        })
        .map(|i| i + 1)
}

fn profile_names(file: &ConfigFile) -> String {
    if file.profiles.is_empty() {
        "none".into()
    } else {
        file.profiles
            .keys()
            .map(|k| format!("{k:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl ConfigFile {
    /// The first `profiles.NAME.token` holding a literal token.
    fn literal_token_key(&self) -> Option<String> {
        self.profiles.iter().find_map(|(name, p)| {
            matches!(p.token, Some(ProfileToken::Literal(_)))
                .then(|| format!("profiles.{name}.token"))
        })
    }
}

/// Refuses a file holding a secret that group or others can read or write
/// (on unix: `mode & 0o077` must be 0).
#[cfg(unix)]
fn check_private(path: &Path, what: &str) -> Result<(), ConfigError> {
    use std::os::unix::fs::PermissionsExt;
    let meta = std::fs::metadata(path)
        .map_err(|e| ConfigError(format!("cannot read {}: {e}", path.display())))?;
    let mode = meta.permissions().mode() & 0o777;
    if mode & 0o077 != 0 {
        return Err(ConfigError(format!(
            "{what} and is open to group or others (mode {mode:03o}); refusing to use it. Fix: chmod 600 {}",
            shell_quote(&path.display().to_string())
        )));
    }
    Ok(())
}

#[cfg(not(unix))]
fn check_private(_path: &Path, _what: &str) -> Result<(), ConfigError> {
    Ok(())
}

/// Quotes a path for a shell command line when it needs it.
fn shell_quote(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+,:@%~".contains(c))
    {
        s.to_owned()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

// ---------------------------------------------------------------------------
// The effective settings
// ---------------------------------------------------------------------------

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
    pub read_only: bool,
    /// `--theme` or `FINDINGS_THEME` (not checked yet: only the TUI and
    /// `config show` use it).
    pub theme: Option<Given<String>>,
    pub connect_timeout: Duration,
    pub request_timeout: Duration,
    /// Where the two timeouts came from (flag, env or default).
    pub timeout_sources: (Source, Source),
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
    pub default_pane: Given<PaneId>,
    pub default_sort: Option<Given<SortBy>>,
    pub default_direction: Option<Given<SortDirection>>,
    pub default_filters: Option<Given<Vec<String>>>,
    pub read_only: Given<bool>,
    pub allow_http: Given<bool>,
    pub views: BTreeMap<String, Given<View>>,
    /// The theme named by a flag, the environment, the profile or the
    /// config file; `None`: the theme file's `base`, else `default`.
    pub theme: Option<Given<String>>,
    /// The user theme file: the config file's `theme_file` (source
    /// [`Source::File`]), else `theme.toml` beside it ([`Source::Default`]).
    pub theme_file: Given<PathBuf>,
    pub connect_timeout: Duration,
    pub request_timeout: Duration,
    pub timeout_sources: (Source, Source),
    /// Directory relative `token_file` paths are taken from.
    config_dir: PathBuf,
}

/// The TUI's theme as the settings make it, and why.
#[derive(Debug, Clone)]
pub struct ThemeChoice {
    pub theme: crate::tui::theme::Theme,
    /// The built-in in use and where its name came from.
    pub name: Given<String>,
    /// The theme file read, if there was one.
    pub file: Option<crate::tui::theme::ThemeFile>,
    /// `NO_COLOR` was set: no colours whatever the theme.
    pub no_color: bool,
}

pub const DEFAULT_PAGE_SIZE: i64 = 100;

/// Merges the command line, the environment's token and the config file.
pub fn effective(
    cli: CommandLine,
    env_token: Option<Token>,
    config_path: PathBuf,
    loaded: Option<&Loaded>,
) -> Result<Effective, ConfigError> {
    let empty = ConfigFile::default();
    let file = loaded.map_or(&empty, |l| &l.file);
    let profile_name = match cli.profile.filter(|p| !p.value.trim().is_empty()) {
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
    let base_url = pick(cli.base_url, profile.and_then(|p| p.base_url.as_ref()));
    let deployment = pick(cli.deployment, profile.and_then(|p| p.deployment.as_ref()));

    let token = match (env_token.filter(|t| !t.is_empty()), profile) {
        (Some(t), _) => TokenSource::Env(t),
        (None, Some(p)) => match &p.token {
            None => TokenSource::None,
            Some(token) => {
                // A profile's token goes only to the profile's own server.
                let withheld = match (&p.base_url, &base_url) {
                    (Some(own), Some(used)) => normalize_url(own) != normalize_url(&used.value),
                    _ => false,
                };
                if withheld {
                    TokenSource::Withheld {
                        profile: pname.clone(),
                        profile_url: p.base_url.clone().unwrap_or_default(),
                    }
                } else {
                    TokenSource::Profile {
                        profile: pname.clone(),
                        token: token.clone(),
                    }
                }
            }
        },
        (None, None) => TokenSource::None,
    };

    let or_default = |v: Option<bool>, flag: bool, name: &'static str| {
        if flag {
            Given::new(true, Source::Flag(name))
        } else if let Some(v) = v {
            Given::new(v, from_profile())
        } else {
            Given::new(false, Source::Default)
        }
    };
    let read_only = or_default(
        profile.and_then(|p| p.read_only),
        cli.read_only,
        "--read-only",
    );
    let allow_http = or_default(
        profile.and_then(|p| p.allow_http),
        cli.allow_http,
        "--allow-http",
    );

    let mut views: BTreeMap<String, Given<View>> = file
        .views
        .iter()
        .map(|(k, v)| (k.clone(), Given::new(v.clone(), Source::File)))
        .collect();
    if let Some(p) = profile {
        for (k, v) in &p.views {
            views.insert(k.clone(), Given::new(v.clone(), from_profile()));
        }
    }

    let config_dir = config_path
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let theme = cli
        .theme
        .filter(|t| !t.value.trim().is_empty())
        .or_else(|| {
            profile
                .and_then(|p| p.theme.as_ref())
                .map(|t| Given::new(t.0.clone(), from_profile()))
        })
        .or_else(|| {
            file.theme
                .as_ref()
                .map(|t| Given::new(t.0.clone(), Source::File))
        });
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
        default_pane: profile
            .and_then(|p| p.default_pane)
            .map_or(Given::new(PaneId::Issues, Source::Default), |p| {
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
        connect_timeout: cli.connect_timeout,
        request_timeout: cli.request_timeout,
        timeout_sources: cli.timeout_sources,
        profile: profile_name,
    })
}

impl Effective {
    /// Where to connect. The token is fetched (its file read, its command
    /// run) only when a real server is to be reached.
    pub fn target(&self) -> Result<Target, ConfigError> {
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

    fn fetch_token(&self) -> Result<Token, ConfigError> {
        match &self.token {
            TokenSource::Env(t) => Ok(t.clone()),
            TokenSource::Profile { profile, token } => match token {
                ProfileToken::Literal(t) => Ok(t.clone()),
                ProfileToken::File(path) => {
                    read_token_file(&expand_path(path, &self.config_dir), profile)
                }
                ProfileToken::Command(cmd) => run_token_command(cmd, TOKEN_COMMAND_TIMEOUT)
                    .map_err(|e| ConfigError(format!("token_command of profile {profile:?} {e}"))),
            },
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
            TokenSource::None => Err(ConfigError(match &self.profile {
                Some(p) => format!(
                    "no token: set {ENV_TOKEN}, or token_command or token_file in profile {:?} of {}",
                    p.value,
                    self.config_path.display()
                ),
                None => format!(
                    "no token: set {ENV_TOKEN}, or a profile with token_command or token_file in {}",
                    self.config_path.display()
                ),
            })),
        }
    }

    /// The TUI's theme: the theme file read and checked (a missing
    /// `theme.toml` is no file; a missing `theme_file` is an error), the
    /// theme name checked, `NO_COLOR` (when `no_color`) over both.
    pub fn theme_choice(&self, no_color: bool) -> Result<ThemeChoice, ConfigError> {
        use crate::tui::theme::{Theme, ThemeFile};
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
        let theme = Theme::new(&name.value, file.as_ref(), no_color)
            .map_err(|e| ConfigError(format!("{}: {e}", name.source)))?;
        Ok(ThemeChoice {
            theme,
            name,
            file,
            no_color,
        })
    }

    /// The saved views, as the TUI takes them.
    pub fn saved_views(&self) -> Vec<SavedView> {
        self.views
            .iter()
            .map(|(name, v)| SavedView {
                name: name.clone(),
                sort_by: v.value.sort.clone(),
                direction: v.value.direction.clone(),
                filters: v.value.filters.clone(),
            })
            .collect()
    }

    /// The page size the headless commands ask for when neither `--limit`
    /// nor `--max` says: a profile's `page_size`, else the server's default.
    pub fn page_size_override(&self) -> Option<i64> {
        (self.page_size.source != Source::Default).then_some(self.page_size.value)
    }
}

/// `~/x` from the home folder; a relative path from the config file's
/// folder.
fn expand_path(raw: &str, config_dir: &Path) -> PathBuf {
    let raw = raw.trim();
    if let Some(rest) = raw.strip_prefix("~/")
        && let Some(home) = directories::BaseDirs::new()
    {
        return home.home_dir().join(rest);
    }
    let p = PathBuf::from(raw);
    if p.is_absolute() {
        p
    } else {
        config_dir.join(p)
    }
}

fn read_token_file(path: &Path, profile: &str) -> Result<Token, ConfigError> {
    use std::io::Read;
    let what = format!("token_file {} (profile {profile:?})", path.display());
    let file =
        std::fs::File::open(path).map_err(|e| ConfigError(format!("cannot read {what}: {e}")))?;
    check_private(path, &format!("{what} holds a token"))?;
    let mut bytes = Vec::new();
    file.take(MAX_TOKEN_BYTES)
        .read_to_end(&mut bytes)
        .map_err(|e| ConfigError(format!("cannot read {what}: {e}")))?;
    let text =
        String::from_utf8(bytes).map_err(|_| ConfigError(format!("{what} is not UTF-8 text")))?;
    first_line(&text)
        .map(Token::new)
        .ok_or_else(|| ConfigError(format!("{what} is empty")))
}

/// The token of a command's output or a file: the first line, trimmed.
fn first_line(text: &str) -> Option<&str> {
    text.trim()
        .lines()
        .next()
        .map(str::trim)
        .filter(|t| !t.is_empty())
}

/// Runs `sh -c COMMAND` without stdin (its stderr goes to ours, so a
/// password manager can say what is wrong) and takes the first line of its
/// output. Errors name the exit status, never the output.
pub fn run_token_command(command: &str, timeout: Duration) -> Result<Token, String> {
    use std::io::Read;
    use std::process::{Command, Stdio};
    use std::time::Instant;
    #[cfg(unix)]
    let mut cmd = {
        let mut c = Command::new("sh");
        c.arg("-c").arg(command);
        c
    };
    #[cfg(not(unix))]
    let mut cmd = {
        let mut c = Command::new("cmd");
        c.arg("/C").arg(command);
        c
    };
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("could not be started: {e}"))?;
    let stdout = child.stdout.take().ok_or("could not be started")?;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        let result = stdout.take(MAX_TOKEN_BYTES).read_to_end(&mut buf);
        let _ = tx.send(result.map(|_| buf));
    });
    let deadline = Instant::now() + timeout;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() >= deadline => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "did not finish within {} s and was stopped",
                    timeout.as_secs()
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(format!("could not be waited for: {e}")),
        }
    };
    if !status.success() {
        return Err(format!(
            "failed ({status}); its output is not shown, run it yourself to see why"
        ));
    }
    let output = rx
        .recv_timeout(
            deadline
                .saturating_duration_since(Instant::now())
                .max(Duration::from_millis(100)),
        )
        .map_err(|_| "kept its output open after it exited".to_owned())?
        .map_err(|e| format!("output could not be read: {e}"))?;
    let text = String::from_utf8(output)
        .map_err(|_| "printed something that is not UTF-8 text".to_owned())?;
    first_line(&text)
        .map(Token::new)
        .ok_or_else(|| format!("printed nothing ({status}); it must print the token"))
}

// ---------------------------------------------------------------------------
// `findings config init` and `show`
// ---------------------------------------------------------------------------

/// What `findings config init` writes: every setting, commented out, so the
/// file changes nothing until edited.
pub const EXAMPLE: &str = r#"# findings configuration (TOML).
#
# Precedence: command-line flags > environment (FINDINGS_BASE_URL,
# FINDINGS_DEPLOYMENT, FINDINGS_TOKEN, FINDINGS_PROFILE) > the profile in use >
# defaults. With no base URL from any source, findings uses its embedded demo
# server. `findings config show` prints what is in force.

# The profile used when neither --profile nor FINDINGS_PROFILE names one.
# default_profile = "work"

# The TUI's colours: default, dark, light or high-contrast (--theme and
# FINDINGS_THEME win over this, and a profile may set its own). A theme file,
# theme.toml beside this file or the one theme_file names, changes single
# styles (see the README, "Themes"). NO_COLOR=1 turns every colour off.
# theme = "light"
# theme_file = "~/.config/findings/theme.toml"

# [profiles.work]
# base_url = "https://findings.example.com"
# deployment = 4711
#
# The token: FINDINGS_TOKEN wins over these. Set at most one of the three.
# A command whose first line of output is the token (run with sh -c, no stdin):
# token_command = "pass show findings/work"
# Or a file holding it (must not be readable by others: chmod 600 FILE):
# token_file = "~/.config/findings/work.token"
# Or the token itself (this file must then be chmod 600):
# token = "..."
#
# Page size of the headless commands when --limit and --max are not given (1-1000).
# page_size = 200
# The pane the TUI opens on: report, issues, agentic or scm.
# default_pane = "issues"
# The Issues pane's first sort and filters (as `:sort` and `:filter` take them).
# default_sort = "severity"
# default_direction = "desc"
# default_filters = ["excludeHistorical=true"]
# Refuse every write (the SCM config update), as --read-only does.
# read_only = true
# This profile's theme (beats the top-level one).
# theme = "high-contrast"

# Saved views of the Issues pane, applied with `:view NAME`. A view in a
# profile (profiles.NAME.views.VIEW) belongs to it; views.VIEW to all.
# [views.secrets]
# sort = "severity"
# direction = "desc"
# filters = ["issueTypes=secrets", "excludeHistorical=true"]
#
# [profiles.work.views.payments]
# sort = "severity"
# filters = ["repositoryNames=acme/payments-api", "repositoryNames=acme/payments-web"]
"#;

/// `findings config show`: the settings in force, secrets masked, each
/// with where it came from. With `theme`, the theme as the TUI would draw
/// with it (the theme file read); without, as the settings name it.
pub fn show(e: &Effective, theme: Option<&ThemeChoice>) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let q = |s: &str| toml_string(s);
    let _ = writeln!(
        out,
        "# config file: {}{}",
        e.config_path.display(),
        if e.config_exists {
            ""
        } else {
            " (does not exist)"
        }
    );
    let line = |out: &mut String, key: &str, value: String, source: &dyn fmt::Display| {
        let _ = writeln!(out, "{:<40} # {source}", format!("{key} = {value}"));
    };
    match &e.profile {
        Some(p) => line(&mut out, "profile", q(&p.value), &p.source),
        None => {
            let _ = writeln!(out, "# profile: none");
        }
    }
    match &e.base_url {
        Some(g) => line(&mut out, "base_url", q(&g.value), &g.source),
        None => {
            let _ = writeln!(out, "# base_url: none (the embedded demo server is used)");
        }
    }
    match &e.deployment {
        Some(g) => line(&mut out, "deployment", q(&g.value), &g.source),
        None => {
            let _ = writeln!(out, "# deployment: none");
        }
    }
    match &e.token {
        TokenSource::Env(_) => line(&mut out, "token", q("***"), &ENV_TOKEN),
        TokenSource::Profile { profile, token } => {
            let src = Source::Profile(profile.clone());
            match token {
                ProfileToken::Literal(_) => line(&mut out, "token", q("***"), &src),
                ProfileToken::File(p) => line(&mut out, "token_file", q(p), &src),
                ProfileToken::Command(c) => line(
                    &mut out,
                    "token_command",
                    q(c),
                    &format!("{src} (not run by show)"),
                ),
            }
        }
        TokenSource::Withheld {
            profile,
            profile_url,
        } => {
            let _ = writeln!(
                out,
                "# token: none (profile {profile}'s token is only sent to {profile_url})"
            );
        }
        TokenSource::None => {
            let _ = writeln!(out, "# token: none");
        }
    }
    line(
        &mut out,
        "page_size",
        e.page_size.value.to_string(),
        &e.page_size.source,
    );
    line(
        &mut out,
        "default_pane",
        q(&e.default_pane.value.title().to_lowercase()),
        &e.default_pane.source,
    );
    if let Some(s) = &e.default_sort {
        line(&mut out, "default_sort", q(s.value.label()), &s.source);
    }
    if let Some(d) = &e.default_direction {
        line(&mut out, "default_direction", q(d.value.label()), &d.source);
    }
    if let Some(f) = &e.default_filters {
        line(&mut out, "default_filters", toml_list(&f.value), &f.source);
    }
    line(
        &mut out,
        "read_only",
        e.read_only.value.to_string(),
        &e.read_only.source,
    );
    line(
        &mut out,
        "allow_http",
        e.allow_http.value.to_string(),
        &e.allow_http.source,
    );
    line(
        &mut out,
        "connect_timeout",
        e.connect_timeout.as_secs().to_string(),
        &e.timeout_sources.0,
    );
    line(
        &mut out,
        "timeout",
        e.request_timeout.as_secs().to_string(),
        &e.timeout_sources.1,
    );
    let default_theme = Given::new("default".to_owned(), Source::Default);
    let name = theme
        .map(|t| &t.name)
        .or(e.theme.as_ref())
        .unwrap_or(&default_theme);
    line(&mut out, "theme", q(&name.value), &name.source);
    let file_note = match theme {
        None => format!("{}", e.theme_file.source),
        Some(ThemeChoice { file: None, .. }) => format!("{} (not there)", e.theme_file.source),
        Some(ThemeChoice {
            file: Some(file), ..
        }) => {
            let roles: Vec<&str> = file.roles().iter().map(|r| r.name()).collect();
            if roles.is_empty() {
                format!("{} (sets no styles)", e.theme_file.source)
            } else {
                format!("{} (sets {})", e.theme_file.source, roles.join(", "))
            }
        }
    };
    line(
        &mut out,
        "theme_file",
        q(&e.theme_file.value.display().to_string()),
        &file_note,
    );
    if theme.is_some_and(|t| t.no_color) {
        let _ = writeln!(
            out,
            "# NO_COLOR is set: no colours, whatever the theme (bold, dim, reverse and underline only)"
        );
    }
    for (name, v) in &e.views {
        let _ = writeln!(out, "\n[views.{}]  # {}", toml_key(name), v.source);
        if let Some(s) = &v.value.sort {
            let _ = writeln!(out, "sort = {}", q(s.label()));
        }
        if let Some(d) = &v.value.direction {
            let _ = writeln!(out, "direction = {}", q(d.label()));
        }
        if !v.value.filters.is_empty() {
            let _ = writeln!(out, "filters = {}", toml_list(&v.value.filters));
        }
    }
    out
}

fn toml_string(s: &str) -> String {
    toml::Value::String(crate::text::one_line(s).into_owned()).to_string()
}

fn toml_list(items: &[String]) -> String {
    let parts: Vec<String> = items.iter().map(|s| toml_string(s)).collect();
    format!("[{}]", parts.join(", "))
}

fn toml_key(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        s.to_owned()
    } else {
        toml_string(s)
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

    // ---- the file ----

    fn path() -> PathBuf {
        PathBuf::from("/cfg/findings/config.toml")
    }

    fn parse_ok(text: &str) -> ConfigFile {
        parse(&path(), text).unwrap_or_else(|e| panic!("{}", e.0))
    }

    fn parse_err(text: &str) -> String {
        parse(&path(), text).unwrap_err().0
    }

    #[test]
    fn the_example_parses_commented_and_uncommented() {
        let file = parse_ok(EXAMPLE);
        assert!(file.profiles.is_empty() && file.default_profile.is_none());
        // Uncomment every setting and table header: still a valid file.
        let uncommented: String = EXAMPLE
            .lines()
            .map(|l| match l.strip_prefix("# ") {
                Some(rest)
                    if rest.starts_with('[')
                        || rest.split_once(" = ").is_some_and(|(k, _)| {
                            k.chars().all(|c| c.is_ascii_lowercase() || c == '_')
                        }) =>
                {
                    rest
                }
                _ => l,
            })
            .filter(|l| !l.starts_with("token = ") && !l.starts_with("token_file = "))
            .collect::<Vec<_>>()
            .join("\n");
        let file = parse_ok(&uncommented);
        let work = &file.profiles["work"];
        assert_eq!(file.default_profile.as_deref(), Some("work"));
        assert_eq!(work.deployment.as_deref(), Some("4711"));
        assert_eq!(work.page_size, Some(200));
        assert_eq!(
            work.token,
            Some(ProfileToken::Command("pass show findings/work".into()))
        );
        assert_eq!(work.views["payments"].sort, Some(SortBy::Severity));
        assert_eq!(file.views["secrets"].filters.len(), 2);
        assert_eq!(file.theme, Some(ThemeName("light".into())));
        assert_eq!(work.theme, Some(ThemeName("high-contrast".into())));
        assert!(file.theme_file.is_some());
    }

    #[test]
    fn errors_name_the_file_the_line_and_the_key() {
        let err = parse_err("[profiles.work]\nbase_url = \"https://x\"\npage_size = 5000\n");
        assert!(err.contains("/cfg/findings/config.toml"), "{err}");
        assert!(err.contains("line 3"), "{err}");
        assert!(err.contains("profiles.work.page_size"), "{err}");
        assert!(err.contains("1 to 1000"), "{err}");

        let err = parse_err("[profiles.work]\n\nbase_ur = \"https://x\"\n");
        assert!(err.contains("line 3"), "{err}");
        assert!(err.contains("base_ur"), "{err}");
        assert!(err.contains("base_url"), "{err}: the valid keys are named");

        let err = parse_err("colour = \"red\"\n");
        assert!(err.contains("line 1") && err.contains("colour"), "{err}");

        let err = parse_err("[profiles.work]\ndeployment = \"abc\"\n");
        assert!(err.contains("line 2") && err.contains("numeric"), "{err}");

        let err = parse_err("[profiles.work]\ndefault_pane = \"dashboard\"\n");
        assert!(
            err.contains("profiles.work.default_pane") && err.contains("scm"),
            "{err}"
        );

        let err = parse_err("[profiles.work]\ndefault_sort = \"size\"\n");
        assert!(err.contains("relevant-since"), "{err}");

        let err = parse_err("[profiles.w]\ndefault_filters = [\"colour=red\"]\n");
        assert!(err.contains("line 2") && err.contains("colour"), "{err}");
        assert!(err.contains("repositoryNames"), "{err}: valid fields named");

        let err = parse_err("[views.v]\nfilters = [\"issueTypes=urgent\"]\n");
        assert!(
            err.contains("views.v.filters") && err.contains("urgent"),
            "{err}"
        );

        let err = parse_err("[views.v]\npane = \"scm\"\nsort = \"severity\"\n");
        assert!(err.contains("issues pane"), "{err}");

        // A syntax error: the line, and the key written on it, never the
        // value.
        let err = parse_err("default_profile = \n");
        assert!(err.contains("line 1, key default_profile"), "{err}");
        let err = parse_err("[profiles.w]\nbase_url = \"https://x\"\ntoken = s3cr3t\n");
        assert!(err.contains("line 3, key profiles.w.token"), "{err}");
        assert!(!err.contains("s3cr3t"), "{err}");
        let err = parse_err("[profiles.w\n");
        assert!(err.contains("line 1") && !err.contains("key"), "{err}");

        let err = parse_err("default_profile = \"nope\"\n[profiles.work]\n");
        assert!(err.contains("line 1") && err.contains("\"work\""), "{err}");
    }

    #[test]
    fn one_token_source_per_profile() {
        let err = parse_err("[profiles.w]\ntoken_command = \"x\"\ntoken_file = \"y\"\n");
        assert!(err.contains("token_file and token_command"), "{err}");
        assert!(err.contains("profiles.w"), "{err}");
        let err = parse_err("[profiles.w]\ntoken_command = \"  \"\n");
        assert!(err.contains("empty"), "{err}");
    }

    #[test]
    fn a_literal_token_is_masked_in_debug() {
        let file = parse_ok("[profiles.w]\ntoken = \"s3cr3t\"\n");
        let debug = format!("{file:?}");
        assert!(!debug.contains("s3cr3t"), "{debug}");
    }

    // ---- precedence ----

    const FILE: &str = r#"
default_profile = "work"
[profiles.work]
base_url = "https://work.example.com"
deployment = 11
token_command = "echo from-command"
page_size = 250
default_pane = "report"
default_sort = "severity"
read_only = true
[profiles.work.views.mine]
sort = "rule"
[profiles.other]
base_url = "https://other.example.com"
deployment = "22"
token = "literal"
[views.mine]
sort = "repo"
[views.all]
filters = ["excludeHistorical=true"]
"#;

    fn loaded() -> Loaded {
        Loaded {
            path: path(),
            file: parse_ok(FILE),
        }
    }

    fn cli() -> CommandLine {
        CommandLine {
            connect_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
            ..Default::default()
        }
    }

    fn given(v: &str, s: Source) -> Option<Given<String>> {
        Some(Given::new(v.to_owned(), s))
    }

    #[test]
    fn defaults_without_a_file() {
        let e = effective(cli(), None, path(), None).unwrap();
        assert!(e.base_url.is_none() && e.profile.is_none());
        assert_eq!(e.page_size, Given::new(100, Source::Default));
        assert_eq!(e.default_pane.value, PaneId::Issues);
        assert_eq!(e.page_size_override(), None);
        assert!(matches!(e.target(), Ok(Target::Demo)));
        assert_eq!(e.token, TokenSource::None);
    }

    #[test]
    fn the_default_profile_applies_below_flags_and_env() {
        let e = effective(cli(), None, path(), Some(&loaded())).unwrap();
        assert_eq!(e.profile, given("work", Source::File));
        assert_eq!(
            e.base_url,
            given("https://work.example.com", Source::Profile("work".into()))
        );
        assert_eq!(e.deployment.as_ref().unwrap().value, "11");
        assert_eq!(e.page_size.value, 250);
        assert_eq!(e.page_size_override(), Some(250));
        assert_eq!(e.default_pane.value, PaneId::Report);
        assert_eq!(e.default_sort.as_ref().unwrap().value, SortBy::Severity);
        assert!(e.read_only.value);
        // A profile's view replaces the top-level one of the same name.
        assert_eq!(e.views["mine"].value.sort, Some(SortBy::Rule));
        assert_eq!(e.views["all"].source, Source::File);
        match e.target().unwrap() {
            Target::Remote(cfg) => {
                assert_eq!(cfg.token.expose(), "from-command");
                assert_eq!(cfg.deployment, "11");
            }
            Target::Demo => panic!("the profile has a base URL"),
        }

        // The environment beats the profile, a flag beats both (clap has
        // already merged the flag with its env twin into one value).
        let mut c = cli();
        c.deployment = given("33", Source::Env(ENV_DEPLOYMENT));
        let e = effective(c.clone(), None, path(), Some(&loaded())).unwrap();
        assert_eq!(e.deployment, given("33", Source::Env(ENV_DEPLOYMENT)));
        c.deployment = given("44", Source::Flag("--deployment"));
        let e = effective(c, None, path(), Some(&loaded())).unwrap();
        assert_eq!(e.deployment, given("44", Source::Flag("--deployment")));
    }

    #[test]
    fn the_profile_flag_picks_another_profile() {
        let mut c = cli();
        c.profile = given("other", Source::Flag("--profile"));
        let e = effective(c, None, path(), Some(&loaded())).unwrap();
        assert_eq!(
            e.base_url.as_ref().unwrap().value,
            "https://other.example.com"
        );
        assert_eq!(e.page_size.source, Source::Default);
        assert!(!e.read_only.value);
        assert_eq!(e.views["mine"].value.sort, Some(SortBy::Repo));
        match e.target().unwrap() {
            Target::Remote(cfg) => assert_eq!(cfg.token.expose(), "literal"),
            Target::Demo => panic!(),
        }
        let mut c = cli();
        c.profile = given("nope", Source::Flag("--profile"));
        let err = effective(c, None, path(), Some(&loaded())).unwrap_err().0;
        assert!(
            err.contains("\"nope\"") && err.contains("\"other\""),
            "{err}"
        );
    }

    #[test]
    fn the_env_token_beats_the_profile_token() {
        let e = effective(
            cli(),
            Some(Token::new("env-token")),
            path(),
            Some(&loaded()),
        )
        .unwrap();
        assert!(matches!(e.token, TokenSource::Env(_)));
        match e.target().unwrap() {
            Target::Remote(cfg) => assert_eq!(cfg.token.expose(), "env-token"),
            Target::Demo => panic!(),
        }
    }

    #[test]
    fn a_profile_token_is_not_sent_to_another_server() {
        let mut c = cli();
        c.base_url = given("https://elsewhere.example.com", Source::Env(ENV_BASE_URL));
        let e = effective(c.clone(), None, path(), Some(&loaded())).unwrap();
        assert!(matches!(e.token, TokenSource::Withheld { .. }));
        let err = e.target().unwrap_err().0;
        assert!(
            err.contains(ENV_TOKEN) && err.contains("elsewhere"),
            "{err}"
        );
        // The same server, written with a trailing slash, keeps it.
        c.base_url = given("https://work.example.com/", Source::Flag("--base-url"));
        let e = effective(c, None, path(), Some(&loaded())).unwrap();
        assert!(matches!(e.token, TokenSource::Profile { .. }));
    }

    #[test]
    fn flags_turn_on_what_the_profile_leaves_off() {
        let mut c = cli();
        c.profile = given("other", Source::Flag("--profile"));
        c.read_only = true;
        let e = effective(c, None, path(), Some(&loaded())).unwrap();
        assert_eq!(e.read_only, Given::new(true, Source::Flag("--read-only")));
    }

    #[test]
    fn a_profile_without_a_file_is_an_error() {
        let mut c = cli();
        c.profile = given("work", Source::Env(ENV_PROFILE));
        let err = effective(c, None, path(), None).unwrap_err().0;
        assert!(err.contains("config init"), "{err}");
    }

    #[test]
    fn show_masks_the_token() {
        let mut c = cli();
        c.profile = given("other", Source::Flag("--profile"));
        let e = effective(c, None, path(), Some(&loaded())).unwrap();
        let out = show(&e, None);
        assert!(!out.contains("literal"), "{out}");
        assert!(out.contains("token = \"***\""), "{out}");
        assert!(out.contains("profile other"), "{out}");
        let e = effective(
            cli(),
            Some(Token::new("env-secret")),
            path(),
            Some(&loaded()),
        )
        .unwrap();
        let out = show(&e, None);
        assert!(
            !out.contains("env-secret") && out.contains(ENV_TOKEN),
            "{out}"
        );
    }

    #[test]
    fn the_theme_takes_flag_env_profile_and_file_in_that_order() {
        let text = "theme = \"dark\"\ndefault_profile = \"w\"\n[profiles.w]\ntheme = \"light\"\n[profiles.plain]\n";
        let loaded = Loaded {
            path: path(),
            file: parse_ok(text),
        };
        let e = effective(cli(), None, path(), Some(&loaded)).unwrap();
        assert_eq!(e.theme, given("light", Source::Profile("w".into())));
        let mut c = cli();
        c.profile = given("plain", Source::Flag("--profile"));
        let e = effective(c.clone(), None, path(), Some(&loaded)).unwrap();
        assert_eq!(e.theme, given("dark", Source::File));
        c.theme = given("high-contrast", Source::Env(ENV_THEME));
        let e = effective(c, None, path(), Some(&loaded)).unwrap();
        assert_eq!(e.theme, given("high-contrast", Source::Env(ENV_THEME)));
        let e = effective(cli(), None, path(), None).unwrap();
        assert_eq!(e.theme, None);
        assert_eq!(
            e.theme_file,
            Given::new(PathBuf::from("/cfg/findings/theme.toml"), Source::Default)
        );
        let loaded = Loaded {
            path: path(),
            file: parse_ok("theme_file = \"t/mine.toml\"\n"),
        };
        let e = effective(cli(), None, path(), Some(&loaded)).unwrap();
        assert_eq!(
            e.theme_file,
            Given::new(PathBuf::from("/cfg/findings/t/mine.toml"), Source::File)
        );
        let err = parse_err("[profiles.w]\n\ntheme = \"sepia\"\n");
        assert!(
            err.contains("line 3, key profiles.w.theme") && err.contains("high-contrast"),
            "{err}"
        );
    }

    #[test]
    fn the_theme_choice_reads_the_theme_file_and_checks_the_name() {
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("config.toml");
        let theme_file = dir.path().join("theme.toml");
        let e = effective(cli(), None, config.clone(), None).unwrap();
        let choice = e.theme_choice(false).unwrap();
        assert_eq!(choice.name, Given::new("default".into(), Source::Default));
        assert!(choice.file.is_none());
        assert!(show(&e, Some(&choice)).contains("default (not there)"));

        std::fs::write(
            &theme_file,
            "base = \"light\"\n[styles]\nselected = { fg = \"black\", bg = \"#ffd700\" }\n",
        )
        .unwrap();
        let gold = ratatui::style::Style::new()
            .fg(ratatui::style::Color::Black)
            .bg(ratatui::style::Color::Rgb(255, 215, 0));
        let choice = e.theme_choice(false).unwrap();
        assert_eq!(choice.name, Given::new("light".into(), Source::ThemeFile));
        assert_eq!(choice.theme.selected(), gold);
        let light = crate::tui::theme::Theme::builtin("light").unwrap();
        assert_eq!(choice.theme.error(), light.error());
        let out = show(&e, Some(&choice));
        assert!(out.contains("base of the theme file"), "{out}");
        assert!(out.contains("(sets selected)"), "{out}");
        assert!(!out.contains("NO_COLOR"), "{out}");

        // A named theme beats the file's base; the file's styles still apply.
        let mut c = cli();
        c.theme = given("dark", Source::Flag("--theme"));
        let e = effective(c.clone(), None, config.clone(), None).unwrap();
        let choice = e.theme_choice(false).unwrap();
        assert_eq!(choice.name.value, "dark");
        assert_eq!(choice.theme.selected(), gold);
        // NO_COLOR over both.
        let choice = e.theme_choice(true).unwrap();
        assert!(!choice.theme.is_color());
        assert_eq!(
            choice.theme.selected(),
            crate::tui::theme::Theme::no_color().selected()
        );
        assert!(show(&e, Some(&choice)).contains("NO_COLOR is set"));

        c.theme = given("sepia", Source::Env(ENV_THEME));
        let e = effective(c, None, config.clone(), None).unwrap();
        let err = e.theme_choice(true).unwrap_err().0;
        assert!(
            err.starts_with("FINDINGS_THEME: unknown theme \"sepia\""),
            "{err}"
        );

        std::fs::write(&theme_file, "[styles]\nkey = { fg = \"nope\" }\n").unwrap();
        let e = effective(cli(), None, config, None).unwrap();
        let err = e.theme_choice(false).unwrap_err().0;
        assert!(
            err.contains("line 2, key styles.key.fg") && err.contains("theme.toml"),
            "{err}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn token_command_output_is_trimmed_and_failures_named() {
        let t = run_token_command(
            "printf '  tok-123  \\nsecond line\\n'",
            TOKEN_COMMAND_TIMEOUT,
        )
        .unwrap();
        assert_eq!(t.expose(), "tok-123");
        let err = run_token_command("echo leaked; exit 3", TOKEN_COMMAND_TIMEOUT).unwrap_err();
        assert!(err.contains("exit status: 3"), "{err}");
        assert!(!err.contains("leaked"), "{err}");
        let err = run_token_command("true", TOKEN_COMMAND_TIMEOUT).unwrap_err();
        assert!(err.contains("printed nothing"), "{err}");
        let err = run_token_command("sleep 5", Duration::from_millis(200)).unwrap_err();
        assert!(err.contains("did not finish"), "{err}");
        // No stdin: a command that reads it sees its end at once.
        let err = run_token_command("cat", TOKEN_COMMAND_TIMEOUT).unwrap_err();
        assert!(err.contains("printed nothing"), "{err}");
    }

    #[test]
    fn paths_expand_from_home_and_the_config_folder() {
        let dir = Path::new("/cfg/findings");
        assert_eq!(expand_path("tok", dir), PathBuf::from("/cfg/findings/tok"));
        assert_eq!(expand_path("/abs/tok", dir), PathBuf::from("/abs/tok"));
        if let Some(home) = directories::BaseDirs::new() {
            assert_eq!(expand_path("~/t", dir), home.home_dir().join("t"));
        }
        assert_eq!(shell_quote("/a b/c"), "'/a b/c'");
        assert_eq!(shell_quote("/a/c.toml"), "/a/c.toml");
    }
}
