//! A copy of the deployment's names (repositories, rules, teams, tags,
//! refs) for shell completion, which must answer at once and never reach
//! the network. A command that fetches the filter values to check a name
//! keeps them here, in the state folder, one file per profile, written
//! whole through [`atomic_file`] and private to the user; completion reads
//! it. The names come from the server: each is kept only if it is short
//! and [`fit_for_a_shell`] (it is inserted into a command line), and each
//! list is bounded.

use findings_base::atomic_file::{self, Access, Replace};
use findings_model::{IssueFiltersResponse, short_rule};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// The most names of one kind kept.
const MAX_NAMES: usize = 20_000;
/// The longest name kept.
const MAX_NAME_CHARS: usize = 300;
/// The most a cache file read may weigh.
const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// The names a profile's deployment had when last asked.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Names {
    pub repositories: Vec<String>,
    /// Rules by the name the RULE column shows, and by full id.
    pub rules: Vec<String>,
    pub teams: Vec<String>,
    pub tags: Vec<String>,
    pub refs: Vec<String>,
}

impl Names {
    pub fn of(answer: &IssueFiltersResponse) -> Names {
        let ids = answer.values_of("ruleIds");
        let mut rules: Vec<String> = ids.iter().map(|id| short_rule(id).to_owned()).collect();
        rules.extend(ids);
        Names {
            repositories: kept(answer.values_of("repositoryNames")),
            rules: kept(rules),
            teams: kept(answer.values_of("teamNames")),
            tags: kept(answer.values_of("repositoryTags")),
            refs: kept(answer.values_of("refs")),
        }
    }
}

/// The names fit to print to a shell, each once, sorted, bounded.
fn kept(names: Vec<String>) -> Vec<String> {
    let mut names: Vec<String> = names
        .into_iter()
        .filter(|n| !n.is_empty() && n.chars().count() <= MAX_NAME_CHARS)
        .filter(|n| fit_for_a_shell(n))
        .collect();
    names.sort();
    names.dedup();
    names.truncate(MAX_NAMES);
    names
}

/// Whether a name may be inserted into a shell's command line as it is:
/// every character in a set that no shell gives a meaning to (ASCII
/// letters, digits and `-_./:@+=,%^`). A name with anything else (`;`,
/// `$(`, a backtick, a space, a glob, a quote, a control, bidi or
/// zero-width character) is never offered, so Enter after Tab runs only
/// what the user typed.
pub fn fit_for_a_shell(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:@+=,%^".contains(c))
}

/// The cache file of `profile` (none: the settings without a profile). A
/// profile's name may hold anything, so it is percent-encoded into the
/// file's name (`..` or `/` never leave the folder).
pub fn path(profile: Option<&str>) -> Option<PathBuf> {
    const KEEP: &percent_encoding::AsciiSet =
        &percent_encoding::NON_ALPHANUMERIC.remove(b'-').remove(b'_');
    let name = match profile {
        Some(p) => format!(
            "profile-{}.json",
            percent_encoding::utf8_percent_encode(p, KEEP)
        ),
        None => "default.json".to_owned(),
    };
    Some(findings_config::state_dir()?.join("names").join(name))
}

/// Keeps `answer`'s names for `profile`. A failure is only logged:
/// completion is a convenience, the command's work is done.
pub fn store(profile: Option<&str>, answer: &IssueFiltersResponse) {
    let Some(path) = path(profile) else { return };
    let written = serde_json::to_vec(&Names::of(answer))
        .map_err(std::io::Error::other)
        .and_then(|bytes| {
            if let Some(folder) = path.parent() {
                atomic_file::create_folder(folder, Access::Private)?;
            }
            atomic_file::write(&path, &bytes, Access::Private, Replace::Existing)
        });
    if let Err(e) = written {
        tracing::warn!(path = %path.display(), error = %e, "the names for completion were not kept");
    }
}

/// The names kept for `profile`; none when there is no copy (or it cannot
/// be read).
pub fn load(profile: Option<&str>) -> Names {
    let Some(path) = path(profile) else {
        return Names::default();
    };
    // A regular file within its cap only (a FIFO or a device is not read).
    match findings_base::atomic_file::read_capped(&path, MAX_FILE_BYTES) {
        Ok(bytes) => serde_json::from_slice(&bytes).unwrap_or_default(),
        Err(_) => Names::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_unfit_for_a_shell_are_not_kept() {
        let kept = kept(vec![
            "acme/api".into(),
            "acme/api".into(),
            "evil\u{1b}]52;c;x\u{7}".into(),
            "two\nlines".into(),
            String::new(),
            "x".repeat(MAX_NAME_CHARS + 1),
            "acme/web".into(),
        ]);
        assert_eq!(kept, ["acme/api", "acme/web"]);
    }

    #[test]
    fn only_names_inert_in_a_shell_are_fit_for_it() {
        for hostile in [
            "x;touch${IFS}/tmp/p",
            "$(id)",
            "`id`",
            "a|b",
            "a&&b",
            "*",
            "a b",
            "a\tb",
            "a\u{202e}b",
            "a\u{200b}b",
            "~root",
            "a'b",
            "a\"b",
            "a\\b",
            "a>b",
            "{a,b}",
            "!x",
            "#x",
            "ä",
            "",
        ] {
            assert!(!fit_for_a_shell(hostile), "{hostile:?}");
        }
        for plain in [
            "acme/api",
            "main",
            "release-1.2",
            "user@host:x",
            "a+b=c,d%e^f_g",
        ] {
            assert!(fit_for_a_shell(plain), "{plain:?}");
        }
    }

    #[test]
    fn a_profile_name_never_leaves_the_folder() {
        let Some(path) = path(Some("../../etc/x y")) else {
            return; // no home folder here
        };
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        assert_eq!(name, "profile-%2E%2E%2F%2E%2E%2Fetc%2Fx%20y.json");
        assert_eq!(path.parent().unwrap().file_name().unwrap(), "names");
        assert_ne!(super::path(Some("default")), super::path(None));
    }
}
