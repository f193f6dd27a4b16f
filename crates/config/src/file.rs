//! The config file's format: its tables and keys, read and checked.

use super::ConfigError;
use super::token::{Keep, check_trusted};
use super::toml_error;
use super::values::{
    DeploymentId, DirectionName, Filters, MAX_CONNECT_TIMEOUT, MAX_REQUEST_TIMEOUT, PageSize,
    PaneName, Seconds, SortName, ThemeName,
};
use super::views::{SavedView, named_views};
use findings_base::atomic_file::read_capped_with_metadata;
use findings_base::token::Token;
use findings_model::{SortBy, SortDirection};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// The config file as written. Unknown keys are errors, so typos are caught.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigFile {
    /// The profile used when no `--profile` / `FINDINGS_PROFILE` is given.
    pub default_profile: Option<String>,
    #[serde(default)]
    pub profiles: BTreeMap<String, Profile>,
    /// Saved views for every profile.
    #[serde(default, deserialize_with = "named_views")]
    pub views: BTreeMap<String, SavedView>,
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
    /// Above this many findings a triage by filter asks a second `y`.
    pub triage_confirm_above: Option<u32>,
    /// Open-age targets by severity (days).
    pub sla_days: Option<super::values::SlaDays>,
    /// A pane's name (the wiring checks it names a pane). Read through
    /// `RawProfile`; skipped here so serde does not ask the input to live
    /// as long as the name.
    #[serde(skip)]
    pub default_pane: Option<&'static str>,
    pub default_sort: Option<SortBy>,
    pub default_direction: Option<SortDirection>,
    pub default_filters: Vec<String>,
    pub read_only: Option<bool>,
    pub allow_http: Option<bool>,
    pub views: BTreeMap<String, SavedView>,
    pub theme: Option<ThemeName>,
    /// Seconds to wait for a connection (`--connect-timeout`).
    pub connect_timeout: Option<u64>,
    /// Seconds to wait for a whole answer (`--timeout`).
    pub timeout: Option<u64>,
    /// Progress lines on stderr for a person (`false`: as `-q`).
    pub progress: Option<bool>,
    /// The policy of `findings gate` when the repository has none.
    pub gate: Option<super::GatePolicy>,
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
    triage_confirm_above: Option<u32>,
    sla_days: Option<super::values::SlaDays>,
    default_pane: Option<PaneName>,
    default_sort: Option<SortName>,
    default_direction: Option<DirectionName>,
    #[serde(default)]
    default_filters: Filters,
    read_only: Option<bool>,
    allow_http: Option<bool>,
    #[serde(default, deserialize_with = "named_views")]
    views: BTreeMap<String, SavedView>,
    theme: Option<ThemeName>,
    connect_timeout: Option<Seconds<MAX_CONNECT_TIMEOUT>>,
    timeout: Option<Seconds<MAX_REQUEST_TIMEOUT>>,
    progress: Option<bool>,
    gate: Option<super::GatePolicy>,
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
            && !super::connection::is_demo_url(url)
        {
            url::Url::parse(url.trim())
                .map_err(|e| format!("base_url {url:?} is not a URL: {e}"))?;
        }
        Ok(Profile {
            base_url: raw.base_url.filter(|u| !u.trim().is_empty()),
            deployment: raw.deployment.map(|d| d.0),
            token: tokens.pop().map(|(_, t)| t),
            page_size: raw.page_size.map(|p| p.0),
            triage_confirm_above: raw.triage_confirm_above,
            sla_days: raw.sla_days.map(|s| s.checked()).transpose()?,
            default_pane: raw.default_pane.map(|p| p.name()),
            default_sort: raw.default_sort.map(|s| s.0),
            default_direction: raw.default_direction.map(|d| d.0),
            default_filters: raw.default_filters.0,
            read_only: raw.read_only,
            allow_http: raw.allow_http,
            views: raw.views,
            theme: raw.theme,
            connect_timeout: raw.connect_timeout.map(|s| s.0),
            timeout: raw.timeout.map(|s| s.0),
            progress: raw.progress,
            gate: raw.gate,
        })
    }
}

/// A config file read from disk.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub path: PathBuf,
    pub file: ConfigFile,
}

/// Reads the config file; `None` when there is none.
pub fn load(path: &Path) -> Result<Option<Loaded>, ConfigError> {
    let cannot = |e: std::io::Error| {
        ConfigError(format!(
            "cannot read the config file {}: {e}",
            path.display()
        ))
    };
    // A regular file of a bounded size only: a FIFO or a device at the
    // path would otherwise hold the start forever, or fill the memory.
    let (text, meta) = match read_capped_with_metadata(path, crate::MAX_FILE_BYTES) {
        Ok(read) => read,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(cannot(e)),
    };
    let text = String::from_utf8(text)
        .map_err(|_| ConfigError(format!("config file {}: not UTF-8 text", path.display())))?;
    let file = parse(path, &text)?;
    if let Some((key, keep)) = file.trusted_key() {
        let holds = match keep {
            Keep::Secret => "holds a token",
            Keep::Commands => "says what to run or read",
        };
        check_trusted(
            &meta,
            path,
            &format!("config file {} {holds} ({key})", path.display()),
            keep,
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
    let file: ConfigFile = toml_error::parse("config file", path, text).map_err(ConfigError)?;
    if let Some(name) = &file.default_profile
        && !file.profiles.contains_key(name)
    {
        return Err(ConfigError(toml_error::located(
            "config file",
            path,
            toml_error::top_level_key_line(text, "default_profile"),
            Some("default_profile"),
            &format!("no profile {name:?}; profiles: {}", profile_names(&file)),
        )));
    }
    Ok(file)
}

pub(super) fn profile_names(file: &ConfigFile) -> String {
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
    /// The key that makes the file one to trust, and what it must keep
    /// from others: a literal `token` (the strictest) first, else the
    /// first `token_command` or `token_file`.
    fn trusted_key(&self) -> Option<(String, Keep)> {
        let find = |want: fn(&ProfileToken) -> Option<&'static str>| {
            self.profiles.iter().find_map(|(name, p)| {
                p.token
                    .as_ref()
                    .and_then(want)
                    .map(|key| format!("profiles.{name}.{key}"))
            })
        };
        find(|t| matches!(t, ProfileToken::Literal(_)).then_some("token"))
            .map(|k| (k, Keep::Secret))
            .or_else(|| {
                find(|t| match t {
                    ProfileToken::Command(_) => Some("token_command"),
                    ProfileToken::File(_) => Some("token_file"),
                    ProfileToken::Literal(_) => None,
                })
                .map(|k| (k, Keep::Commands))
            })
    }
}
