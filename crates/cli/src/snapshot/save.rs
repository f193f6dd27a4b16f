//! `findings snapshot save`: follow every page of List issues (1000 at a
//! time, with every include: remediation, activity history, archived,
//! first detection) and write each finding whole, as the server sent it,
//! as it comes, through the atomic writer.

use crate::listing::{FindingFilters, Names, RawListRequest};
use crate::progress::Progress;
use crate::{Failure, UsageError, at_least_one, offer};
use clap::{Args, ValueHint};
use findings_base::atomic_file::{Access, AtomicFile, Replace};
use findings_client::{Client, Follow, pages_following};
use findings_model::ListIssuesRequest;
use findings_snapshot::{Header, Writer};
use futures_util::StreamExt;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Filters")]
pub struct SaveArgs {
    #[command(flatten)]
    pub(crate) filters: FindingFilters,
    /// State, as the STATE column shows it (LIST)
    #[arg(long = "state", visible_alias = "current-state", value_name = "STATE",
          value_parser = offer(crate::listing::finding_states()),
          hide_possible_values = true)]
    states: Vec<String>,
    /// The snapshot file: replaced only once every page has arrived
    #[arg(short = 'o', long = "output", value_name = "FILE", required = true,
          value_hint = ValueHint::FilePath, help_heading = "Output")]
    path: PathBuf,
    /// Stop with an error after N pages, a guard against a server that
    /// never stops paging
    #[arg(long, value_name = "N", default_value_t = findings_client::DEFAULT_MAX_PAGES as u64,
          value_parser = at_least_one("--max-pages"), value_hint = ValueHint::Other,
          help_heading = "Output")]
    max_pages: u64,
}

impl SaveArgs {
    /// The request the filters make, every name checked by `names`.
    pub fn request(&self, names: &Names) -> Result<ListIssuesRequest, UsageError> {
        if self.filters.compares_first_detected() {
            return Err(UsageError(
                "--first-detected-since/--first-detected-until are compared by this tool, \
                 not by the server: a snapshot keeps the server's filter only"
                    .into(),
            ));
        }
        let mut req = self.filters.request(names, "--state", &self.states)?;
        // Everything the offline detail shows, and who triaged, for a diff.
        req.include_remediation = Some(true);
        req.include_activity_history = Some(true);
        req.include_is_archived = Some(true);
        req.include_first_detected_at = Some(true);
        req.limit = Some(findings_model::MAX_PAGE_SIZE);
        Ok(req)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Saves the snapshot; returns how many findings it holds.
pub async fn save(
    client: &Client,
    req: ListIssuesRequest,
    args: &SaveArgs,
) -> Result<u64, Failure> {
    let shown = findings_base::text::one_line(&args.path.display().to_string()).into_owned();
    let fail = |e: std::io::Error| Failure::Runtime(format!("cannot write {shown}: {e}"));
    let header = Header::new(
        findings_requests::clock::now().map_err(Failure::Usage)?,
        client.base_url(),
        client.deployment(),
        &req,
    );
    // Findings are the owner's only (0600), as the state files are.
    let file = AtomicFile::create(&args.path, Access::Private, Replace::Existing)
        .map_err(|e| Failure::Runtime(format!("cannot create {shown}: {e}")))?;
    let mut writer = Writer::new(BufWriter::new(file), &header).map_err(fail)?;
    // Every page is saved: the next is asked for while this one is written.
    let mut pages = Box::pin(pages_following(
        client.clone(),
        RawListRequest::new(req),
        // Saturating: a bound past usize is no bound (exact on 64 bits).
        usize::try_from(args.max_pages).unwrap_or(usize::MAX),
        Follow::Ahead,
    ));
    let mut progress = Progress::new("snapshot save", "findings");
    while let Some(page) = pages.next().await {
        // On an error the temporary file is dropped: FILE stays as it was.
        let page = page.inspect_err(|_| progress.done())?;
        for item in page.issues.iter().filter(|i| i.has_id()) {
            writer.item(item.json().as_bytes()).map_err(fail)?;
        }
        progress.update(writer.count(), None);
    }
    progress.done();
    let count = writer.count();
    let out = writer.finish().map_err(fail)?;
    let file = out.into_inner().map_err(|e| fail(e.into_error()))?;
    file.commit().map_err(fail)?;
    Ok(count)
}
