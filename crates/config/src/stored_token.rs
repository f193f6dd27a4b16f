//! The token `findings auth login` stored: in the platform's secret store
//! (the Secret Service on Linux, the Keychain on macOS, the Credential
//! Manager on Windows, through the `keyring` crate, cargo feature
//! `secret-store`), else in a file only its owner may read
//! (`tokens/` beside the config file, written whole through
//! [`atomic_file`]). Each is kept for one profile and one base URL: a
//! token goes only to the server it was stored for.
//!
//! It is the last source of a token: `FINDINGS_TOKEN`, then a profile's
//! `token_command`, `token_file` or `token`, then this.

use super::ConfigError;
use super::token::read_token_file;
use findings_base::atomic_file::{self, Access, Replace};
use findings_base::token::Token;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long the secret store may take to answer (it may be asleep, or
/// ask to be unlocked) before the file is used.
const SECRET_STORE_WAIT: Duration = Duration::from_secs(10);

/// What a stored token is for: a profile (or none) and a base URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenKey {
    pub profile: Option<String>,
    pub base_url: String,
}

/// Where a stored token is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoredAt {
    SecretStore,
    File(PathBuf),
}

impl std::fmt::Display for StoredAt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoredAt::SecretStore => f.write_str("the secret store"),
            StoredAt::File(p) => write!(f, "{} (readable by you only)", p.display()),
        }
    }
}

impl TokenKey {
    /// The secret store's account name: the profile and the server.
    #[cfg_attr(not(feature = "secret-store"), allow(dead_code))]
    fn account(&self) -> String {
        format!(
            "{} {}",
            self.profile.as_deref().unwrap_or("-"),
            self.base_url
        )
    }

    /// The fallback file, in `tokens/` beside the config file: its name
    /// percent-encodes the profile and the URL (nothing leaves the folder).
    pub fn file(&self, config_dir: &Path) -> PathBuf {
        const KEEP: &percent_encoding::AsciiSet =
            &percent_encoding::NON_ALPHANUMERIC.remove(b'-').remove(b'_');
        let enc = |s: &str| percent_encoding::utf8_percent_encode(s, KEEP).to_string();
        config_dir.join("tokens").join(format!(
            "{}@{}.token",
            enc(self.profile.as_deref().unwrap_or("-")),
            enc(&self.base_url)
        ))
    }
}

/// The token stored for `key`, and where: the secret store first, then
/// the file. `Ok(None)`: none stored.
pub fn load(key: &TokenKey, config_dir: &Path) -> Result<Option<(Token, StoredAt)>, ConfigError> {
    if let Ok(Some(secret)) = secret_store::get(key) {
        return Ok(Some((Token::new(secret), StoredAt::SecretStore)));
    }
    let file = key.file(config_dir);
    if !file.exists() {
        return Ok(None);
    }
    let what = key.profile.as_deref().unwrap_or("(no profile)");
    let token = read_token_file(&file, what)?;
    Ok(Some((token, StoredAt::File(file))))
}

/// Stores `token` for `key`: in the secret store, else (saying why) in the
/// file. A token kept in one place is removed from the other.
pub fn save(
    key: &TokenKey,
    token: &Token,
    config_dir: &Path,
) -> Result<(StoredAt, Option<String>), String> {
    let file = key.file(config_dir);
    match secret_store::set(key, token.expose()) {
        Ok(()) => {
            let _ = std::fs::remove_file(&file);
            Ok((StoredAt::SecretStore, None))
        }
        Err(why) => {
            if let Some(folder) = file.parent() {
                atomic_file::create_folder(folder, Access::Private)
                    .map_err(|e| format!("cannot create {}: {e}", folder.display()))?;
            }
            let line = format!("{}\n", token.expose());
            atomic_file::write(&file, line.as_bytes(), Access::Private, Replace::Existing)
                .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
            Ok((StoredAt::File(file), Some(why)))
        }
    }
}

/// Removes what is stored for `key`; where it was.
pub fn remove(key: &TokenKey, config_dir: &Path) -> Vec<StoredAt> {
    let mut removed = Vec::new();
    if secret_store::delete(key) == Ok(true) {
        removed.push(StoredAt::SecretStore);
    }
    let file = key.file(config_dir);
    if std::fs::remove_file(&file).is_ok() {
        removed.push(StoredAt::File(file));
    }
    removed
}

/// Runs `op` on a thread, giving up after [`SECRET_STORE_WAIT`] (a store
/// that never answers leaves the thread behind, not the command).
#[cfg_attr(not(feature = "secret-store"), allow(dead_code))]
fn within_wait<T: Send + 'static>(
    op: impl FnOnce() -> Result<T, String> + Send + 'static,
) -> Result<T, String> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(op());
    });
    rx.recv_timeout(SECRET_STORE_WAIT).unwrap_or_else(|_| {
        Err(format!(
            "the secret store did not answer within {} s",
            SECRET_STORE_WAIT.as_secs()
        ))
    })
}

#[cfg(feature = "secret-store")]
mod secret_store {
    use super::{TokenKey, within_wait};

    const SERVICE: &str = "findings";

    fn entry(key: &TokenKey) -> Result<keyring::Entry, String> {
        keyring::Entry::new(SERVICE, &key.account())
            .map_err(|e| format!("no secret store available ({e})"))
    }

    pub fn get(key: &TokenKey) -> Result<Option<String>, String> {
        let key = key.clone();
        within_wait(move || match entry(&key)?.get_password() {
            Ok(secret) => Ok(Some(secret)),
            Err(keyring::Error::NoEntry) => Ok(None),
            Err(e) => Err(e.to_string()),
        })
    }

    pub fn set(key: &TokenKey, secret: &str) -> Result<(), String> {
        let (key, secret) = (key.clone(), secret.to_owned());
        within_wait(move || {
            entry(&key)?
                .set_password(&secret)
                .map_err(|e| format!("the secret store refused it ({e})"))
        })
    }

    pub fn delete(key: &TokenKey) -> Result<bool, String> {
        let key = key.clone();
        within_wait(move || match entry(&key)?.delete_credential() {
            Ok(()) => Ok(true),
            Err(keyring::Error::NoEntry) => Ok(false),
            Err(e) => Err(e.to_string()),
        })
    }
}

/// Built without the `secret-store` feature: the file only.
#[cfg(not(feature = "secret-store"))]
mod secret_store {
    use super::TokenKey;

    const WHY: &str = "built without a secret store (cargo feature secret-store)";

    pub fn get(_: &TokenKey) -> Result<Option<String>, String> {
        Err(WHY.into())
    }

    pub fn set(_: &TokenKey, _: &str) -> Result<(), String> {
        Err(WHY.into())
    }

    pub fn delete(_: &TokenKey) -> Result<bool, String> {
        Err(WHY.into())
    }
}
