//! `findings gate`: does this change bring findings the policy refuses?
//! For one repository and ref, the findings not on the primary branch
//! (matched by `matchBasedId`; old findings never fail a change), or not
//! in a baseline the same command saved, weighed by a policy
//! (`.findings/gate.toml`). Exit 0 pass, 3 fail (`--exit-code N`), 1 when
//! anything could not be read or checked, 2 for a usage error: never 0 on
//! a guess.
//!
//! `target` finds the repository and ref; `reads` reads and checks what the
//! deployment has; `verdict` decides; `outputs` writes what the CI shows.

mod outputs;
mod reads;
mod target;
mod verdict;

use crate::{Failure, Session, UsageError};
use clap::{Args, ValueHint};
use findings_base::atomic_file::{Access, Replace};
use findings_base::text::one_line;
use findings_config::{Effective, GATE_POLICY_FILE, GatePolicy, read_gate_policy};
use outputs::Scope;
use std::path::{Path, PathBuf};
use target::Found;
use verdict::{Judge, Verdict};

/// The exit code of a change the policy refuses, unless `--exit-code`.
pub const REFUSED: u8 = 3;

#[derive(Args, Debug, Clone)]
pub struct GateArgs {
    /// The repository, as the deployment names it (default: the CI's
    /// variables, GITHUB_REPOSITORY, CI_PROJECT_PATH, ...; else the working
    /// copy's git remote)
    #[arg(long = "repository", visible_alias = "repo", value_name = "NAME",
          value_hint = ValueHint::Other)]
    repository: Option<String>,
    /// The ref (branch) of the change (default: the CI's variables,
    /// GITHUB_HEAD_REF or GITHUB_REF_NAME, CI_MERGE_REQUEST_SOURCE_BRANCH_NAME
    /// or CI_COMMIT_REF_NAME, ...; else the branch checked out)
    #[arg(long = "ref", value_name = "REF", value_hint = ValueHint::Other)]
    reference: Option<String>,
    /// Against a baseline FILE (one --save-baseline wrote) instead of the
    /// primary branch: what is new or reopened since
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    baseline: Option<PathBuf>,
    /// Save the ref's findings, every state, as a baseline for later gates
    /// (a snapshot: `findings diff` and `snapshot show` read it)
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    save_baseline: Option<PathBuf>,
    /// The policy file (default: .findings/gate.toml at the working copy's
    /// root, else the profile's [gate] table, else critical and high fail)
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    policy: Option<PathBuf>,
    /// Write a Markdown summary for a pull-request comment (at most 65,536
    /// characters)
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath,
          help_heading = "Output")]
    summary: Option<PathBuf>,
    /// Write the refused findings as SARIF 2.1.0
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath,
          help_heading = "Output")]
    sarif: Option<PathBuf>,
    /// Write JUnit XML: a test case per rule of the policy, a failure per
    /// finding
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath,
          help_heading = "Output")]
    junit: Option<PathBuf>,
    /// Print the verdict as JSON on stdout
    #[arg(long, help_heading = "Output")]
    json: bool,
    /// The exit code of a refused change (not 0, 1 or 2: those say pass,
    /// error and usage)
    #[arg(long, value_name = "N", default_value_t = REFUSED,
          value_parser = refused_code, value_hint = ValueHint::Other,
          help_heading = "Output")]
    exit_code: u8,
}

fn refused_code(s: &str) -> Result<u8, String> {
    match s.trim().parse::<u8>() {
        Ok(n @ (0..=2)) => Err(format!(
            "{n} would read as {}: pick another (default {REFUSED})",
            ["a pass", "an error", "a usage error"][n as usize]
        )),
        Ok(n) => Ok(n),
        Err(_) => Err("takes a whole number, 3 to 255".into()),
    }
}

/// The policy in force and where it came from.
struct Chosen {
    policy: GatePolicy,
    from: String,
}

/// The policy: `--policy FILE`, else `.findings/gate.toml` at the working
/// copy's root, else the profile's `[gate]`, else the default.
fn policy(args: &GateArgs, settings: Option<&Effective>) -> Result<Chosen, Failure> {
    if let Some(path) = &args.policy {
        let policy = read_gate_policy(path)?.ok_or_else(|| {
            UsageError(format!(
                "--policy {}: no such file",
                one_line(&path.display().to_string())
            ))
        })?;
        return Ok(Chosen {
            policy,
            from: path.display().to_string(),
        });
    }
    let here = std::env::current_dir()?;
    if let Some(root) = target::repository_root(&here) {
        let path = root.join(GATE_POLICY_FILE);
        if let Some(policy) = read_gate_policy(&path)? {
            return Ok(Chosen {
                policy,
                from: path.display().to_string(),
            });
        }
    }
    if let Some(given) = settings.and_then(|s| s.gate.as_ref()) {
        return Ok(Chosen {
            policy: given.value.clone(),
            from: format!("the [gate] table of {}", given.source),
        });
    }
    Ok(Chosen {
        policy: GatePolicy::default(),
        from: format!(
            "the default (no {GATE_POLICY_FILE}, no --policy, no profile [gate]): new or \
             reopened critical and high findings fail; ignored ones count as handled"
        ),
    })
}

/// The repository and ref: the flags, else the CI's variables, else the
/// working copy.
fn target(args: &GateArgs) -> Result<(Found, Found), Failure> {
    let flag = |v: &Option<String>, name: &str| {
        v.as_ref().filter(|v| !v.trim().is_empty()).map(|v| Found {
            value: v.trim().to_owned(),
            from: name.to_owned(),
        })
    };
    let (ci_repo, ci_ref) = target::from_ci(&|name| std::env::var(name).ok());
    let (git_repo, git_ref) = target::from_git(&std::env::current_dir()?);
    let repository = flag(&args.repository, "--repository")
        .or(ci_repo)
        .or(git_repo)
        .ok_or_else(|| {
            UsageError(
                "no repository: give --repository NAME (or run in CI, or in a working copy \
                 with a remote)"
                    .into(),
            )
        })?;
    let reference = flag(&args.reference, "--ref")
        .or(ci_ref)
        .or(git_ref)
        .ok_or_else(|| {
            UsageError(
                "no ref: give --ref REF (or run in CI, or in a working copy on a branch)".into(),
            )
        })?;
    Ok((repository, reference))
}

/// Runs the gate with the settings in force.
pub async fn run(args: GateArgs, settings: &Effective) -> Result<(), Failure> {
    // Usage errors before anything is read.
    if args.baseline.is_some() && args.baseline == args.save_baseline {
        return Err(UsageError("--baseline and --save-baseline name the same file".into()).into());
    }
    let (repository, reference) = target(&args)?;
    let chosen = policy(&args, Some(settings))?;
    let now = findings_requests::clock::now().map_err(Failure::Usage)?;
    eprintln!(
        "findings: gate: repository {} (from {}), ref {} (from {}), policy {}",
        one_line(&repository.value),
        one_line(&repository.from),
        one_line(&reference.value),
        one_line(&reference.from),
        one_line(&chosen.from)
    );
    let session = Session::open(settings).await?;
    let file = args.save_baseline.as_deref();
    crate::destination::until_interrupted(
        file,
        gate(
            &args,
            &session,
            settings,
            &chosen.policy,
            (&repository.value, &reference.value),
            now,
        ),
    )
    .await
}

async fn gate(
    args: &GateArgs,
    session: &Session,
    settings: &Effective,
    policy: &GatePolicy,
    (repository, reference): (&str, &str),
    now: findings_model::Timestamp,
) -> Result<(), Failure> {
    let client = &session.client;
    let refs = reads::check_names(session, repository, reference).await?;
    reads::refuse_archived(client, repository).await?;
    let (base, against) = match &args.baseline {
        Some(path) => baseline(path, client, repository)?,
        None => primary_branch(client, repository, reference, refs.primary).await?,
    };
    let mut judge = Judge::new(policy, base, now, settings.sla_days.value);
    let request = reads::findings_of(repository, Some(reference));
    reads::the_ref(client, request, &mut judge, args.save_baseline.as_deref()).await?;
    let verdict = judge.finish();
    let scope = Scope {
        repository: repository.to_owned(),
        reference: reference.to_owned(),
        against,
    };
    write_outputs(args, &verdict, policy, &scope)?;
    eprintln!("{}", outputs::verdict_line(&verdict, policy, &scope));
    if verdict.fails() {
        return Err(Failure::Refused(args.exit_code));
    }
    Ok(())
}

/// The base read from a baseline file, and how the verdict names it:
/// "baseline main.snap (main of 2026-12-01 09:00 UTC)".
fn baseline(
    path: &Path,
    client: &findings_client::Client,
    repository: &str,
) -> Result<(verdict::Base, String), Failure> {
    let (base, header) = reads::baseline(path, client, repository)?;
    let of = header
        .request
        .filter
        .as_ref()
        .and_then(|f| f.refs.first().cloned())
        .unwrap_or_else(|| "every ref".into());
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let saved = header.saved_at.format("%Y-%m-%d %H:%M UTC");
    Ok((base, format!("baseline {name} ({of} of {saved})")))
}

/// The base read from the primary branch, and its name; the primary
/// branch itself is its own base (nothing new, nothing read twice).
async fn primary_branch(
    client: &findings_client::Client,
    repository: &str,
    reference: &str,
    primary: Option<String>,
) -> Result<(verdict::Base, String), Failure> {
    let primary = primary.ok_or_else(|| {
        Failure::Runtime(format!(
            "the deployment names no primary branch for {}: nothing to compare with; \
             gate against a baseline (--baseline FILE)",
            one_line(repository)
        ))
    })?;
    if primary == reference {
        eprintln!(
            "findings: gate: {} is the primary branch: nothing on it is new against \
             itself (a baseline, --baseline FILE, tells what is new since)",
            one_line(reference)
        );
        return Ok((verdict::Base::itself(), primary));
    }
    let base = reads::primary_branch(client, repository, &primary).await?;
    Ok((base, primary))
}

/// The files asked for, each replaced whole, and the JSON verdict.
fn write_outputs(
    args: &GateArgs,
    verdict: &Verdict,
    policy: &GatePolicy,
    scope: &Scope,
) -> Result<(), Failure> {
    if let Some(path) = &args.summary {
        let text = outputs::summary(verdict, policy, scope, outputs::MAX_SUMMARY);
        write(path, text.as_bytes())?;
    }
    if let Some(path) = &args.junit {
        write(path, outputs::junit(verdict, policy, scope).as_bytes())?;
    }
    if let Some(path) = &args.sarif {
        let mut sarif = findings_export::sarif::SarifLog::new();
        let mut out = Vec::new();
        for r in &verdict.refused {
            sarif.add(&mut out, &r.issue)?;
        }
        sarif.finish(&mut out)?;
        write(path, &out)?;
    }
    if args.json {
        let value = outputs::json(verdict, policy, scope);
        let text = findings_base::json::pretty_at(&value, 0)
            .map_err(|e| Failure::Runtime(e.to_string()))?;
        println!("{text}");
    }
    Ok(())
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    findings_base::atomic_file::write(path, bytes, Access::Private, Replace::Existing).map_err(
        |e| {
            Failure::Runtime(format!(
                "cannot write {}: {e}",
                one_line(&path.display().to_string())
            ))
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_refused_exit_code_is_never_one_that_says_something_else() {
        assert!(refused_code("0").is_err());
        assert!(refused_code("1").is_err());
        assert!(refused_code("2").is_err());
        assert_eq!(refused_code("3"), Ok(3));
        assert_eq!(refused_code("77"), Ok(77));
        assert!(refused_code("256").is_err());
    }
}
