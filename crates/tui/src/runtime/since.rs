//! The comparison behind "since last visit" ([`ApiRequest::SinceLastVisit`]):
//! the last visit's snapshot is read into a compact map (a few numbers a
//! finding), every finding the filter matches now streams through it
//! (the next page asked for while one is compared) and into this visit's
//! snapshot, and the last one is read again for the findings now gone.
//! The same engine as `findings diff` ([`findings_snapshot::Differ`]: past
//! a million findings, partitioned on disk).
//!
//! [`ApiRequest::SinceLastVisit`]: crate::message::ApiRequest::SinceLastVisit

use crate::message::since::SinceReport;
use findings_base::atomic_file::{Access, AtomicFile, Replace};
use findings_client::{ApiError, Client};
use findings_model::ListIssuesRequest;
use findings_snapshot::BaselineFiles;
use findings_snapshot::{Differ, Entry, Halt, Header, SnapshotError, Writer};
use futures_util::StreamExt;
use std::io::BufWriter;

/// What the comparison carries from page to page (moved to a blocking
/// thread for each: comparing and writing a page of 1,000 takes a few ms).
struct Pass {
    baseline: Option<Differ>,
    next: Option<Writer<BufWriter<AtomicFile>>>,
    report: SinceReport,
}

/// Compares what `request` matches now with the last visit in `files`,
/// and keeps it as `files.next`. A network failure fails it (nothing is
/// kept); a last visit that cannot be read, or a snapshot that cannot be
/// written, is a note in the report.
pub async fn compare(
    client: &Client,
    mut request: ListIssuesRequest,
    files: BaselineFiles,
    now: findings_model::Timestamp,
) -> Result<SinceReport, ApiError> {
    // Who triaged comes from the activity history.
    request.include_activity_history = Some(true);
    request.limit = Some(findings_model::MAX_PAGE_SIZE);
    request.cursor = None;
    let header = Header::new(now, client.base_url(), client.deployment(), &request);
    let start_files = files.clone();
    let mut pass = blocking(move || start(&start_files, &header)).await?;
    let mut pages = std::pin::pin!(super::pages::every_page(client, request));
    while let Some(page) = pages.next().await {
        let page = page?;
        pass = blocking(move || {
            for item in &page.issues {
                if let Some(entry) = Entry::of(item) {
                    pass.compare(&entry);
                }
            }
            pass
        })
        .await?;
    }
    blocking(move || pass.finish(files)).await
}

async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| ApiError::Connection(format!("the comparison stopped: {e}")))
}

/// Reads the last visit (if any) and starts this one's snapshot.
fn start(files: &BaselineFiles, header: &Header) -> Pass {
    let mut report = SinceReport::default();
    // A regular file within the cap: a FIFO or a link to a device planted
    // there is a note, never a read without end.
    let baseline = match Differ::open(&files.last) {
        Err(SnapshotError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(SnapshotError::Io(e)) => {
            report
                .notes
                .push(format!("the last visit cannot be read: {e}"));
            None
        }
        Ok((header, baseline)) => {
            report.last_visit = Some(header.saved_at);
            Some(baseline)
        }
        Err(e) => {
            report.notes.push(format!(
                "the last visit cannot be read ({e}): compared with nothing"
            ));
            None
        }
    };
    let next = findings_base::atomic_file::create_folder(
        files.next.parent().unwrap_or(std::path::Path::new(".")),
        Access::Private,
    )
    .and_then(|()| AtomicFile::create(&files.next, Access::Private, Replace::Existing))
    .and_then(|file| Writer::new(BufWriter::new(file), header));
    let next = match next {
        Ok(writer) => Some(writer),
        Err(e) => {
            report
                .notes
                .push(format!("this visit cannot be kept for next time: {e}"));
            None
        }
    };
    Pass {
        baseline,
        next,
        report,
    }
}

impl Pass {
    fn compare(&mut self, entry: &Entry) {
        self.report.now += 1;
        if let Some(baseline) = &mut self.baseline {
            let report = &mut self.report;
            if let Err(e) = baseline.compare(entry, |change| report.add(change)) {
                report
                    .notes
                    .push(format!("the comparison with the last visit stopped: {e}"));
                self.baseline = None;
            }
        }
        if let Some(next) = &mut self.next
            && let Err(e) = next.entry(entry)
        {
            self.report
                .notes
                .push(format!("this visit cannot be kept for next time: {e}"));
            self.next = None;
        }
    }

    /// The findings gone since, and this visit's snapshot completed.
    fn finish(mut self, files: BaselineFiles) -> SinceReport {
        if let Some(baseline) = self.baseline.take() {
            let report = &mut self.report;
            let finished = baseline.finish(|change| {
                report.add(change);
                Ok::<(), std::convert::Infallible>(())
            });
            if let Err(Halt::Snapshot(e)) = finished {
                report
                    .notes
                    .push(format!("the findings gone since are not all known: {e}"));
            }
        }
        if let Some(next) = self.next {
            let kept = next
                .finish()
                .and_then(|out| out.into_inner().map_err(|e| e.into_error()))
                .and_then(AtomicFile::commit);
            match kept {
                Ok(()) => self.report.files = Some(files),
                Err(e) => self
                    .report
                    .notes
                    .push(format!("this visit cannot be kept for next time: {e}")),
            }
        }
        self.report
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A last visit planted as a FIFO or a link to an endless device is a
    /// note, at once (never a read without end), and compared with nothing.
    #[cfg(unix)]
    #[test]
    fn a_last_visit_that_is_no_regular_file_is_a_note_never_read() {
        let dir = tempfile::tempdir().unwrap();
        let request = ListIssuesRequest::default();
        let files = BaselineFiles::of(dir.path(), "work", &request);
        std::fs::create_dir_all(files.last.parent().unwrap()).unwrap();
        let header = Header::new(chrono::Utc::now(), "https://x.example", "1", &request);
        std::os::unix::fs::symlink("/dev/zero", &files.last).unwrap();
        let pass = start(&files, &header);
        assert!(pass.baseline.is_none());
        assert!(
            pass.report
                .notes
                .iter()
                .any(|n| n.contains("last visit") && n.contains("not a regular file")),
            "{:?}",
            pass.report.notes
        );
        std::fs::remove_file(&files.last).unwrap();
        findings_base::sys::make_fifo(&files.last).unwrap();
        let pass = start(&files, &header);
        assert!(pass.baseline.is_none(), "{:?}", pass.report.notes);
    }
}
