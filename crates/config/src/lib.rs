//! Where to connect and how the app starts: flags, then environment, then a
//! profile of the config file, then defaults; and the formats of the user's
//! files (config, theme, keymap) with the names they use. The TUI imports
//! this module, never the reverse.
//!
//! The config file is TOML in the platform's config folder
//! (`$XDG_CONFIG_HOME/findings/config.toml` on Linux), or wherever
//! `FINDINGS_CONFIG` says. Unknown keys and impossible values are refused
//! with the file, the line and the key. A token in the file, or a
//! `token_file`, must be the user's (or root's) and not readable by group
//! or others (as ssh does with keys); a config file naming a
//! `token_command` or `token_file` must be the user's (or root's) and
//! writable by no one else. A `token_command` runs through `sh -c`,
//! without stdin, and its output is never shown.
//!
//! - `connection`: from the settings to a [`Target`], with the base URL's
//!   checks.
//! - `paths`: where the config, keymap, theme and state files are.
//! - `file`, `values`, `views`: the config file's format and its checks.
//! - `effective`: the settings in force and where each came from.
//! - `token`: reading a `token_file`, running a `token_command`.
//! - `show`: `findings config init` and `show`.
//! - `keymap_file`: the keymap file's format and its names.
//! - `theme_file`: the theme file's format and its names.
//! - `gate_policy`: the policy of `findings gate` (its file, or a
//!   profile's `[gate]` table).
//! - `toml_error`: how a mistake in any of our TOML files is reported.

mod connection;
mod edit;
mod effective;
mod file;
mod gate_policy;
pub mod keymap_file;
mod paths;
mod show;
mod stored_token;
pub mod theme_file;
mod token;
mod toml_error;
mod values;
mod views;

#[cfg(test)]
mod connection_tests;
#[cfg(test)]
mod file_tests;
#[cfg(test)]
mod tests;

use std::fmt;

/// The most a config, keymap or theme file may hold (a config of many
/// profiles and views is a few kilobytes): a larger one is refused unread.
pub const MAX_FILE_BYTES: u64 = 1 << 20;

pub use connection::{
    ConnectionInput, DEMO_BASE_URL, DemoWhy, Remote, SET_DEPLOYMENT, Target, is_demo_url, resolve,
};
pub use edit::{SavedAt, save_view, with_view};
pub use effective::{
    CommandLine, DEFAULT_CONNECT_TIMEOUT, DEFAULT_PAGE_SIZE, DEFAULT_REQUEST_TIMEOUT,
    DEFAULT_TRIAGE_CONFIRM_ABOVE, Effective, Given, Source, ThemeChoice, TokenSource, effective,
};
pub use file::{ConfigFile, Loaded, Profile, ProfileToken, load, parse};
pub use gate_policy::{
    Exemption, GATE_POLICY_FILE, GatePolicy, KindName, parse_gate_policy, read_gate_policy,
};
pub use paths::{config_path, keymap_path, state_dir, theme_path};
pub use show::{EXAMPLE, show};
pub use stored_token::{StoredAt, TokenKey};
pub use token::{TOKEN_COMMAND_TIMEOUT, run_token_command};

/// Storing, reading and removing the token of `findings auth login`.
pub mod stored {
    pub use super::stored_token::{load, remove, save};
}
pub use values::{MAX_CONNECT_TIMEOUT, MAX_REQUEST_TIMEOUT, SlaDays, ThemeName, filter_pairs};
pub use views::SavedView;

pub const ENV_BASE_URL: &str = "FINDINGS_BASE_URL";
pub const ENV_DEPLOYMENT: &str = "FINDINGS_DEPLOYMENT";
pub const ENV_TOKEN: &str = "FINDINGS_TOKEN";
pub const ENV_CONFIG: &str = "FINDINGS_CONFIG";
pub const ENV_PROFILE: &str = "FINDINGS_PROFILE";
pub const ENV_LOG: &str = "FINDINGS_LOG";
pub const ENV_THEME: &str = "FINDINGS_THEME";
pub const ENV_TIMEOUT: &str = "FINDINGS_TIMEOUT";
pub const ENV_CONNECT_TIMEOUT: &str = "FINDINGS_CONNECT_TIMEOUT";
pub const ENV_NO_PROGRESS: &str = "FINDINGS_NO_PROGRESS";
pub const ENV_FORMAT: &str = "FINDINGS_FORMAT";
pub const ENV_READ_ONLY: &str = "FINDINGS_READ_ONLY";
pub const ENV_LOG_FILE: &str = "FINDINGS_LOG_FILE";

/// A problem with the given settings (a usage error, exit 2).
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigError(pub String);

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
