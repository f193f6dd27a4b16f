//! What a gate reads from the deployment, each read checked and failing
//! closed: the names (the repository must be one the deployment has, the
//! ref one it lists for it), whether the repository is archived, the
//! base's findings (the primary branch's, or a baseline file's), and the
//! ref's findings, weighed as they come (and kept as a baseline when
//! asked).

use super::verdict::{Base, Judge};
use crate::listing::RawListRequest;
use crate::progress::Progress;
use crate::snapshot::{open, snapshot_failure};
use crate::{Failure, Session};
use findings_base::atomic_file::{Access, AtomicFile, Replace};
use findings_base::text::one_line;
use findings_client::{Client, DEFAULT_MAX_PAGES, Follow, pages_following};
use findings_model::{
    IssueFiltersRequest, IssueFiltersResponse, IssueItem, ListIssuesFilter, ListIssuesRequest,
    MAX_PAGE_SIZE,
};
use findings_requests::filter_spec::did_you_mean;
use findings_snapshot::{Header, Writer};
use futures_util::StreamExt;
use std::io::BufWriter;
use std::path::Path;

/// The repository's refs as the deployment lists them.
pub struct Refs {
    pub primary: Option<String>,
}

/// Checks `repository` and `reference` against the deployment's names
/// (`GetIssueFilters`): a repository it lacks is a usage error (exit 2)
/// with the closest names; a ref it does not list for the repository, no
/// scan to gate (exit 1), likewise. Names that cannot be had stop the
/// gate (exit 1): nothing is gated on a guess.
pub async fn check_names(
    session: &Session,
    repository: &str,
    reference: &str,
) -> Result<Refs, Failure> {
    let answer = session
        .client
        .issue_filters(&IssueFiltersRequest::default())
        .await
        .map_err(|e| {
            Failure::Runtime(format!(
                "the deployment's names could not be fetched to check the repository and the \
                 ref ({}): nothing was gated",
                one_line(&e.to_string())
            ))
        })?;
    crate::names_cache::store(session.profile.as_deref(), &answer);
    check_answer(&answer, repository, reference)
}

fn check_answer(
    answer: &IssueFiltersResponse,
    repository: &str,
    reference: &str,
) -> Result<Refs, Failure> {
    let repositories = answer.values_of("repositoryNames");
    if repositories.is_empty() {
        return Err(Failure::Runtime(
            "the deployment's names list no repository: the repository cannot be checked, \
             nothing was gated"
                .into(),
        ));
    }
    if !repositories.iter().any(|r| r == repository) {
        let hint = did_you_mean(&repositories, repository)
            .unwrap_or_else(|| format!("it has {} and none is close", repositories.len()));
        return Err(Failure::Usage(format!(
            "--repository {:?}: the deployment has no such repository; {hint}",
            one_line(repository)
        )));
    }
    let group = answer
        .repo_ref_groups
        .iter()
        .find(|g| g.repo_name.as_deref() == Some(repository))
        .ok_or_else(|| {
            Failure::Runtime(format!(
                "the deployment lists no refs for {}: no scan to gate",
                one_line(repository)
            ))
        })?;
    let names: Vec<&str> = group
        .repo_refs
        .iter()
        .filter_map(|r| r.ref_name.as_deref())
        .collect();
    if !names.contains(&reference) {
        let hint = did_you_mean(&names, reference)
            .unwrap_or_else(|| format!("it lists {}", names.join(", ")));
        return Err(Failure::Runtime(format!(
            "ref {:?}: {} has no scan of such a ref; {hint}",
            one_line(reference),
            one_line(repository)
        )));
    }
    let primary = group
        .repo_refs
        .iter()
        .find(|r| r.is_primary == Some(true))
        .and_then(|r| r.ref_name.clone());
    Ok(Refs { primary })
}

/// The findings of `repository` (on `reference`, when given), in every
/// state.
pub fn findings_of(repository: &str, reference: Option<&str>) -> ListIssuesRequest {
    ListIssuesRequest {
        limit: Some(MAX_PAGE_SIZE),
        include_first_detected_at: Some(true),
        filter: Some(ListIssuesFilter {
            repository_names: vec![repository.to_owned()],
            refs: reference.map(|r| vec![r.to_owned()]).unwrap_or_default(),
            ..ListIssuesFilter::default()
        }),
        ..ListIssuesRequest::default()
    }
}

/// An archived repository is left out of List issues, so its gate would
/// see nothing and pass: asked once (one finding, archived ones included).
pub async fn refuse_archived(client: &Client, repository: &str) -> Result<(), Failure> {
    let mut probe = findings_of(repository, None);
    probe.limit = Some(1);
    probe.include_is_archived = Some(true);
    if let Some(f) = probe.filter.as_mut() {
        f.include_archived = Some(true);
    }
    let page = client.list_issues(&probe).await?;
    let archived = page
        .issues
        .iter()
        .filter_map(|i| i.issue.as_ref())
        .any(|i| i.is_archived == Some(true));
    if archived {
        return Err(Failure::Runtime(format!(
            "{} is archived: its findings are left out of every listing, so a gate would \
             pass on nothing; gate a repository that is scanned",
            one_line(repository)
        )));
    }
    Ok(())
}

/// The primary branch's findings, in every state.
pub async fn primary_branch(
    client: &Client,
    repository: &str,
    primary: &str,
) -> Result<Base, Failure> {
    let mut base = Base::default();
    let request = findings_of(repository, Some(primary));
    let mut pages = Box::pin(pages_following(
        client.clone(),
        request,
        DEFAULT_MAX_PAGES,
        Follow::Ahead,
    ));
    let mut progress = Progress::new("gate: read the primary branch", "findings");
    let mut seen = 0u64;
    while let Some(page) = pages.next().await {
        let page = page.inspect_err(|_| progress.done())?;
        seen += page.issues.len() as u64;
        for issue in page.issues.iter().filter_map(|i| i.issue.as_ref()) {
            base.add(issue);
        }
        progress.update(seen, None);
    }
    progress.done();
    Ok(base)
}

/// A baseline file's findings: one `--save-baseline` wrote for the same
/// server, deployment and repository (else refused, exit 2).
pub fn baseline(path: &Path, client: &Client, repository: &str) -> Result<(Base, Header), Failure> {
    let shown = one_line(&path.display().to_string()).into_owned();
    if !path.exists() {
        return Err(Failure::Runtime(format!(
            "no baseline at {shown}: the first run saves one on the primary branch, \
             `findings gate --save-baseline {shown}`, kept where the next runs find it \
             (a CI cache or artifact)"
        )));
    }
    let mut reader = open(path)?;
    let header = reader.header().clone();
    if header.version < 2 {
        return Err(Failure::Usage(format!(
            "{shown} is a version {} snapshot, without the findings' match ids: save a \
             baseline with `findings gate --save-baseline {shown}`",
            header.version
        )));
    }
    check_origin(&shown, &header, client)?;
    let theirs = header
        .request
        .filter
        .as_ref()
        .map(|f| f.repository_names.clone())
        .unwrap_or_default();
    if theirs != [repository] {
        let of = if theirs.is_empty() {
            "every repository".to_owned()
        } else {
            theirs.join(", ")
        };
        return Err(Failure::Usage(format!(
            "{shown} is a baseline of {}, not of {}: every finding would be new; \
             save one for this repository with `findings gate --save-baseline`",
            one_line(&of),
            one_line(repository)
        )));
    }
    let mut base = Base::default();
    while let Some((_, item)) = reader.next_item().map_err(|e| snapshot_failure(path, &e))? {
        if let Some(issue) = &item.issue {
            base.add(issue);
        }
    }
    Ok((base, header))
}

/// A baseline of another server or deployment is refused, as `diff`
/// refuses two sides of different origins.
fn check_origin(shown: &str, header: &Header, client: &Client) -> Result<(), Failure> {
    let known = |a: &str, b: &str| !a.trim().is_empty() && !b.trim().is_empty();
    let other_server = known(&header.base_url, client.base_url())
        && !findings_base::net::same_server(&header.base_url, client.base_url());
    let other_deployment = known(&header.deployment, client.deployment())
        && header.deployment.trim() != client.deployment().trim();
    if !other_server && !other_deployment {
        return Ok(());
    }
    let what = if other_server { "server" } else { "deployment" };
    Err(Failure::Usage(format!(
        "{shown} is a baseline of {}, deployment {}; this gate reads {}, deployment {}: \
         another {what}, where every finding would be new",
        one_line(&findings_base::redact::mask_url_credentials(
            &header.base_url
        )),
        one_line(&header.deployment),
        one_line(&findings_base::redact::mask_url_credentials(
            client.base_url()
        )),
        one_line(client.deployment()),
    )))
}

/// Reads the ref's findings into `judge`, each as it comes; with `save`,
/// writes them (every state, whole) as a baseline there, replaced only
/// once every page has arrived. Returns how many were read.
pub async fn the_ref(
    client: &Client,
    request: ListIssuesRequest,
    judge: &mut Judge<'_>,
    save: Option<&Path>,
) -> Result<u64, Failure> {
    let mut writer = match save {
        Some(path) => Some(baseline_writer(client, &request, path)?),
        None => None,
    };
    let mut pages = Box::pin(pages_following(
        client.clone(),
        RawListRequest::new(request),
        DEFAULT_MAX_PAGES,
        Follow::Ahead,
    ));
    let mut progress = Progress::new("gate: read the ref", "findings");
    let mut read = 0u64;
    while let Some(page) = pages.next().await {
        let page = page.inspect_err(|_| progress.done())?;
        for raw in &page.issues {
            let item: IssueItem = findings_base::json::decode(raw.json().as_bytes())
                .map_err(|e| Failure::Runtime(format!("a finding of the ref: {e}")))?;
            let Some(issue) = item.issue else { continue };
            if let (Some((w, path)), true) = (writer.as_mut(), !issue.id().is_empty()) {
                w.item(raw.json().as_bytes())
                    .map_err(|e| cannot_write(path, &e))?;
            }
            read += 1;
            judge.weigh(issue);
        }
        progress.update(read, None);
    }
    progress.done();
    if let Some((w, path)) = writer {
        let count = w.count();
        let out = w.finish().map_err(|e| cannot_write(path, &e))?;
        let file = out
            .into_inner()
            .map_err(|e| cannot_write(path, &e.into_error()))?;
        file.commit().map_err(|e| cannot_write(path, &e))?;
        eprintln!(
            "findings: gate: saved a baseline of {} findings (every state) to {}",
            findings_base::text::thousands_of(count),
            one_line(&path.display().to_string())
        );
    }
    Ok(read)
}

type BaselineWriter<'p> = (Writer<BufWriter<AtomicFile>>, &'p Path);

fn baseline_writer<'p>(
    client: &Client,
    request: &ListIssuesRequest,
    path: &'p Path,
) -> Result<BaselineWriter<'p>, Failure> {
    let header = Header::new(
        findings_requests::clock::now().map_err(Failure::Usage)?,
        client.base_url(),
        client.deployment(),
        request,
    );
    // Findings are the owner's only (0600), as snapshots are.
    let file = AtomicFile::create(path, Access::Private, Replace::Existing)
        .map_err(|e| cannot_write(path, &e))?;
    let writer = Writer::new(BufWriter::new(file), &header).map_err(|e| cannot_write(path, &e))?;
    Ok((writer, path))
}

fn cannot_write(path: &Path, e: &std::io::Error) -> Failure {
    Failure::Runtime(format!(
        "cannot write the baseline {}: {e}",
        one_line(&path.display().to_string())
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use findings_model::{Annotated, RepoRef, RepoRefGroup};

    fn answer() -> IssueFiltersResponse {
        IssueFiltersResponse {
            repos: vec![Annotated {
                id: Some("1".into()),
                name: Some("acme/payments-api".into()),
            }],
            repo_ref_groups: vec![RepoRefGroup {
                repo_name: Some("acme/payments-api".into()),
                repo_refs: vec![
                    RepoRef {
                        ref_name: Some("main".into()),
                        is_primary: Some(true),
                        ..RepoRef::default()
                    },
                    RepoRef {
                        ref_name: Some("feature/checkout-v2".into()),
                        is_primary: Some(false),
                        ..RepoRef::default()
                    },
                ],
                has_primary_ref: Some(true),
            }],
            ..IssueFiltersResponse::default()
        }
    }

    fn message(f: Failure) -> (bool, String) {
        let usage = matches!(f, Failure::Usage(_));
        (usage, f.into_message())
    }

    #[test]
    fn the_repository_and_ref_are_checked_against_the_names() {
        let refs = check_answer(&answer(), "acme/payments-api", "feature/checkout-v2").unwrap();
        assert_eq!(refs.primary.as_deref(), Some("main"));
        let (usage, said) = message(
            check_answer(&answer(), "acme/payment-api", "main")
                .err()
                .unwrap(),
        );
        assert!(usage, "a repository the deployment lacks is a usage error");
        assert!(said.contains("did you mean acme/payments-api?"), "{said}");
        let (usage, said) = message(
            check_answer(&answer(), "acme/payments-api", "feature/checkout-v3")
                .err()
                .unwrap(),
        );
        assert!(!usage, "a ref with no scan is exit 1");
        assert!(said.contains("did you mean feature/checkout-v2?"), "{said}");
        let (_, said) = message(
            check_answer(&IssueFiltersResponse::default(), "acme/x", "main")
                .err()
                .unwrap(),
        );
        assert!(said.contains("cannot be checked"), "{said}");
    }
}
