//! Where the files are: the config file, the keymap and theme files beside
//! it, and the folder for state and logs.

use super::{ConfigError, ENV_CONFIG};
use std::path::{Path, PathBuf};

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

/// `~/x` from the home folder; a relative path from the config file's
/// folder.
pub(super) fn expand_path(raw: &str, config_dir: &Path) -> PathBuf {
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
