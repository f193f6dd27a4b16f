//! Which repository and ref a gate is for: the flags, else the CI's usual
//! variables, else the working copy's git remote and branch, read from
//! `.git/HEAD` and `.git/config` (no `git` is run: nothing is run on what
//! a checkout holds; each file read is bounded).

use std::path::{Path, PathBuf};

/// The most of `.git/HEAD`, `.git/config` or a `.git` file read.
const MAX_GIT_FILE: u64 = 256 * 1024;
/// The most folders climbed looking for a working copy's root.
const MAX_DEPTH: usize = 64;

/// A repository or a ref, and where it came from (said on stderr).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub value: String,
    pub from: String,
}

/// The CI services whose variables are read: the repository, then the
/// ref of a pull request, then the ref of the build.
const CI_VARIABLES: [(&str, &str, &str, &str); 4] = [
    (
        "GitHub Actions",
        "GITHUB_REPOSITORY",
        "GITHUB_HEAD_REF",
        "GITHUB_REF_NAME",
    ),
    (
        "GitLab CI",
        "CI_PROJECT_PATH",
        "CI_MERGE_REQUEST_SOURCE_BRANCH_NAME",
        "CI_COMMIT_REF_NAME",
    ),
    (
        "Bitbucket Pipelines",
        "BITBUCKET_REPO_FULL_NAME",
        "BITBUCKET_PR_SOURCE_BRANCH",
        "BITBUCKET_BRANCH",
    ),
    (
        "Azure Pipelines",
        "BUILD_REPOSITORY_NAME",
        "SYSTEM_PULLREQUEST_SOURCEBRANCH",
        "BUILD_SOURCEBRANCH",
    ),
];

/// The repository and ref from the CI's variables (`env` reads one):
/// each from the first service that sets it.
pub fn from_ci(env: &dyn Fn(&str) -> Option<String>) -> (Option<Found>, Option<Found>) {
    let given = |name: &str| env(name).filter(|v| !v.trim().is_empty());
    let mut repository = None;
    let mut reference = None;
    for (service, repo_var, pr_ref, build_ref) in CI_VARIABLES {
        if repository.is_none()
            && let Some(v) = given(repo_var)
        {
            repository = Some(Found {
                value: v.trim().to_owned(),
                from: format!("{repo_var} ({service})"),
            });
        }
        if reference.is_none() {
            reference = [pr_ref, build_ref].into_iter().find_map(|var| {
                given(var).map(|v| Found {
                    value: branch_name(v.trim()).to_owned(),
                    from: format!("{var} ({service})"),
                })
            });
        }
    }
    (repository, reference)
}

/// `refs/heads/x` and `refs/pull/..`-free names as branch names.
fn branch_name(name: &str) -> &str {
    name.strip_prefix("refs/heads/").unwrap_or(name)
}

/// A working copy's git directory and the folder holding its config (they
/// differ for a linked worktree).
struct GitDir {
    root: PathBuf,
    dir: PathBuf,
    common: PathBuf,
}

/// The working copy `start` is in: the nearest folder up with a `.git`.
fn find_git(start: &Path) -> Option<GitDir> {
    let mut at = Some(start);
    for _ in 0..MAX_DEPTH {
        let folder = at?;
        let dot_git = folder.join(".git");
        if dot_git.is_dir() {
            return Some(GitDir {
                root: folder.to_owned(),
                common: dot_git.clone(),
                dir: dot_git,
            });
        }
        if dot_git.is_file() {
            // A linked worktree or submodule: `gitdir: PATH`.
            let text = read(&dot_git)?;
            let dir = text.trim().strip_prefix("gitdir:")?.trim();
            let dir = folder.join(dir);
            let common = read(&dir.join("commondir"))
                .map(|c| dir.join(c.trim()))
                .unwrap_or_else(|| dir.clone());
            return Some(GitDir {
                root: folder.to_owned(),
                dir,
                common,
            });
        }
        at = folder.parent();
    }
    None
}

fn read(path: &Path) -> Option<String> {
    let (bytes, _) =
        findings_base::atomic_file::read_capped_with_metadata(path, MAX_GIT_FILE).ok()?;
    String::from_utf8(bytes).ok()
}

/// The root of the working copy `start` is in, if any.
pub fn repository_root(start: &Path) -> Option<PathBuf> {
    find_git(start).map(|g| g.root)
}

/// The repository (`owner/name` of the `origin` remote, else the first
/// remote) and the branch checked out, from the working copy at `start`.
pub fn from_git(start: &Path) -> (Option<Found>, Option<Found>) {
    let Some(git) = find_git(start) else {
        return (None, None);
    };
    let branch = read(&git.dir.join("HEAD")).and_then(|head| {
        let name = head.trim().strip_prefix("ref:")?.trim();
        Some(Found {
            value: branch_name(name).to_owned(),
            from: format!(
                "the branch checked out ({})",
                git.dir.join("HEAD").display()
            ),
        })
    });
    let config = git.common.join("config");
    let repository = read(&config).and_then(|text| {
        let url = remote_url(&text)?;
        Some(Found {
            value: repository_of_url(&url)?,
            from: format!("the git remote's URL ({})", config.display()),
        })
    });
    (repository, branch)
}

/// The URL of remote `origin` in a git config's text, else of the first
/// remote that has one.
fn remote_url(config: &str) -> Option<String> {
    let mut section: Option<String> = None;
    let mut first = None;
    for line in config.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            section = line
                .strip_prefix("[remote")
                .and_then(|r| r.strip_suffix(']'))
                .map(|r| r.trim().trim_matches('"').to_owned());
            continue;
        }
        let Some(remote) = &section else { continue };
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        if key.trim() != "url" {
            continue;
        }
        let url = value.trim().trim_matches('"').to_owned();
        if remote == "origin" {
            return Some(url);
        }
        first.get_or_insert(url);
    }
    first
}

/// `owner/name` (or `group/sub/name`) of a remote URL: `https://host/a/b.git`,
/// `git@host:a/b.git`, `ssh://git@host:22/a/b`.
fn repository_of_url(url: &str) -> Option<String> {
    let url = url.trim().trim_end_matches('/');
    let url = url.strip_suffix(".git").unwrap_or(url);
    let path = if let Some((_, rest)) = url.split_once("://") {
        rest.split_once('/')?.1
    } else if let Some((_, rest)) = url.split_once(':') {
        rest
    } else {
        return None;
    };
    let path = path.trim_matches('/');
    let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
    (parts.len() >= 2 && parts.iter().all(|p| !p.contains(char::is_whitespace)))
        .then(|| parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ci_variables_give_the_pull_requests_branch_before_the_builds() {
        let vars = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| (*v).to_owned())
            }
        };
        let github = vars(&[
            ("GITHUB_REPOSITORY", "acme/payments-api"),
            ("GITHUB_HEAD_REF", "feature/x"),
            ("GITHUB_REF_NAME", "42/merge"),
        ]);
        let (repo, reference) = from_ci(&github);
        assert_eq!(repo.unwrap().value, "acme/payments-api");
        let reference = reference.unwrap();
        assert_eq!(reference.value, "feature/x");
        assert_eq!(reference.from, "GITHUB_HEAD_REF (GitHub Actions)");
        // A push build: GITHUB_HEAD_REF is set and empty.
        let push = vars(&[
            ("GITHUB_REPOSITORY", "acme/a"),
            ("GITHUB_HEAD_REF", ""),
            ("GITHUB_REF_NAME", "main"),
        ]);
        assert_eq!(from_ci(&push).1.unwrap().value, "main");
        let gitlab = vars(&[
            ("CI_PROJECT_PATH", "group/sub/app"),
            ("CI_COMMIT_REF_NAME", "main"),
        ]);
        let (repo, reference) = from_ci(&gitlab);
        assert_eq!(repo.unwrap().value, "group/sub/app");
        assert_eq!(reference.unwrap().value, "main");
        let azure = vars(&[("BUILD_SOURCEBRANCH", "refs/heads/release/1")]);
        assert_eq!(from_ci(&azure).1.unwrap().value, "release/1");
        assert_eq!(from_ci(&vars(&[])), (None, None));
    }

    #[test]
    fn a_remote_url_names_its_repository() {
        for (url, repo) in [
            (
                "https://github.com/acme/payments-api.git",
                "acme/payments-api",
            ),
            ("git@github.com:acme/payments-api.git", "acme/payments-api"),
            (
                "ssh://git@gitlab.example:2222/group/sub/app",
                "group/sub/app",
            ),
            ("https://user:tok@host/acme/x/", "acme/x"),
        ] {
            assert_eq!(repository_of_url(url).as_deref(), Some(repo), "{url}");
        }
        assert_eq!(repository_of_url("/srv/repo"), None);
        assert_eq!(repository_of_url("https://host/only"), None);
    }

    #[test]
    fn the_working_copy_gives_its_remote_and_branch() {
        let dir = tempfile::tempdir().unwrap();
        let git = dir.path().join(".git");
        std::fs::create_dir_all(&git).unwrap();
        std::fs::write(git.join("HEAD"), "ref: refs/heads/feature/x\n").unwrap();
        std::fs::write(
            git.join("config"),
            "[core]\n\tbare = false\n[remote \"upstream\"]\n\turl = git@h:other/one.git\n\
             [remote \"origin\"]\n\turl = https://h/acme/payments-api.git\n",
        )
        .unwrap();
        let nested = dir.path().join("src/deep");
        std::fs::create_dir_all(&nested).unwrap();
        let (repo, branch) = from_git(&nested);
        assert_eq!(repo.unwrap().value, "acme/payments-api");
        assert_eq!(branch.unwrap().value, "feature/x");
        assert_eq!(repository_root(&nested).as_deref(), Some(dir.path()));
        // Detached: no branch.
        std::fs::write(git.join("HEAD"), "0123456789abcdef\n").unwrap();
        assert_eq!(from_git(&nested).1, None);
    }
}
