//! The config file's format: its tables and keys, read and checked.

use super::ConfigError;
use super::token::check_private;
use super::values::{
    DeploymentId, DirectionName, Filters, PageSize, PaneName, SortName, ThemeName,
};
use super::views::View;
use crate::api::Token;
use crate::api::model::{SortBy, SortDirection};
use crate::tui::app::PaneId;
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
    /// The first `profiles.NAME.token` holding a literal token.
    fn literal_token_key(&self) -> Option<String> {
        self.profiles.iter().find_map(|(name, p)| {
            matches!(p.token, Some(ProfileToken::Literal(_)))
                .then(|| format!("profiles.{name}.token"))
        })
    }
}
