//! `findings --snapshot FILE`: the TUI on a snapshot, with no network. The
//! snapshot's findings become the demo server's data set (the same query
//! engine filters, sorts and counts them), served in-process on 127.0.0.1
//! with a token of this run's own; writes are refused by the app and by
//! that server. The config's base URL and token are never used.

use super::Failure;
use super::session::Session;
use crate::progress::Progress;
use findings_client::{Client, ClientConfig, Token};
use findings_demo::DemoServer;
use findings_demo::dataset::{OfflineBuilder, StoredFindings};
use findings_model::IssueItem;
use findings_snapshot::{Header, Position, Reader, SnapshotError, Stored};
use std::path::Path;

/// A snapshot opened offline: the session on its in-process server, and
/// its header.
pub struct Opened {
    pub session: Session,
    pub header: Header,
}

/// Reads the snapshot through once (its findings into compact rows, their
/// places in the file kept) and serves it. Every problem with the file is
/// a usage error naming it (exit 2).
pub async fn open(path: &Path) -> Result<Opened, Failure> {
    let owned = path.to_owned();
    let (dataset, header) = tokio::task::spawn_blocking(move || read(&owned))
        .await
        .map_err(|e| Failure::Runtime(e.to_string()))??;
    let token = run_token();
    let server = DemoServer::start_offline(dataset, &token)
        .await
        .map_err(|e| Failure::Runtime(format!("cannot start the offline server: {e}")))?;
    let client = Client::new(ClientConfig::new(
        server.url(),
        header.deployment.clone(),
        Token::new(token),
    ))
    .map_err(|e| file_failure(path, &e.to_string()))?;
    Ok(Opened {
        session: Session {
            client,
            demo: Some(server),
            discovered: None,
            profile: None,
            views: Vec::new(),
        },
        header,
    })
}

fn read(path: &Path) -> Result<(findings_demo::dataset::Dataset, Header), Failure> {
    let failed = |e: SnapshotError| file_failure(path, &e.to_string());
    let file = findings_snapshot::open_file(path)
        .map_err(|e| file_failure(path, &format!("cannot open it: {e}")))?;
    let mut reader = Reader::new(file).map_err(failed)?;
    let header = reader.header().clone();
    if header.deployment.parse::<i64>().is_err() {
        return Err(file_failure(
            path,
            &format!(
                "its deployment {:?} is not a deployment id",
                findings_base::text::one_line(&header.deployment)
            ),
        ));
    }
    // Opened first: a change while it is read through is seen after.
    let stored = Stored::open(path).map_err(failed)?;
    let mut builder = OfflineBuilder::new();
    let mut positions = Vec::new();
    // Before the TUI starts, the terminal shows this (a big file takes
    // seconds), from the first moment.
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let mut progress = Progress::at_once(&format!("opening {name}"), "findings");
    let size = std::fs::metadata(path).map_or(0, |m| m.len());
    while let Some((position, item)) = reader.next_item().map_err(failed)? {
        builder
            .add(&item)
            .map_err(|e| file_failure(path, &e.to_string()))?;
        positions.push(position);
        // A fraction for display only: a few ulps of error cannot show.
        #[allow(clippy::cast_precision_loss)]
        let read = (size > 0).then(|| position.file_offset() as f64 / size as f64);
        progress.update(positions.len() as u64, read);
    }
    progress.done();
    stored.check().map_err(|_| {
        file_failure(
            path,
            "it changed on disk while it was read; open it once it is written",
        )
    })?;
    let store = SnapshotFindings {
        stored,
        positions,
        name: findings_base::text::one_line(&name).into_owned(),
        unread: std::sync::Mutex::new(None),
    };
    let dataset = builder
        .finish(header.saved_at, &header.deployment, Box::new(store))
        .map_err(|e| file_failure(path, &e.to_string()))?;
    Ok((dataset, header))
}

/// The stored findings of the data set: row `i` is the `i`th of the file.
struct SnapshotFindings {
    stored: Stored,
    positions: Vec<Position>,
    /// The file's name, as the answers say it.
    name: String,
    /// The first finding that could not be read, and why: from then on
    /// nothing is answered (the next could be read wrong).
    unread: std::sync::Mutex<Option<String>>,
}

impl StoredFindings for SnapshotFindings {
    fn item(&self, index: usize) -> Option<IssueItem> {
        let position = *self.positions.get(index)?;
        self.stored
            .item(position)
            .inspect_err(|e| {
                tracing::warn!("offline snapshot: finding {index}: {e}");
                let mut unread = self.unread.lock().unwrap_or_else(|e| e.into_inner());
                unread.get_or_insert_with(|| format!("finding {index} cannot be read: {e}"));
            })
            .ok()
    }

    fn unavailable(&self) -> Option<String> {
        let name = &self.name;
        if self.stored.check().is_err() {
            return Some(format!(
                "offline snapshot: {name} changed on disk since it was opened; reopen it"
            ));
        }
        let unread = self.unread.lock().unwrap_or_else(|e| e.into_inner());
        let why = unread.as_ref()?;
        Some(format!("offline snapshot: {name}: {why}; reopen it"))
    }
}

/// A token of this run only, for the in-process server: the config's
/// token is never sent, and nothing else on the machine knows this one.
fn run_token() -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    hasher.write_u32(std::process::id());
    format!("offline-{:016x}", hasher.finish())
}

fn file_failure(path: &Path, said: &str) -> Failure {
    Failure::Usage(format!(
        "--snapshot {}: {said}",
        findings_base::text::one_line(&path.display().to_string())
    ))
}

/// `--snapshot` reaches no deployment: flags that name one are refused
/// (their environment variables and the config's are left unused).
pub(super) fn check_offline(matches: &clap::ArgMatches) -> Result<(), Failure> {
    for (id, flag) in [
        ("base_url", "--base-url"),
        ("deployment", "--deployment"),
        ("allow_http", "--allow-http"),
    ] {
        if matches.value_source(id) == Some(clap::parser::ValueSource::CommandLine) {
            return Err(Failure::Usage(format!(
                "--snapshot opens a file offline; {flag} is for a deployment: give one or the other"
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use findings_client::ApiError;

    /// The server of `--snapshot` answers this run's token only: a name
    /// everyone knows (the embedded demo's tokens) opens nothing on it.
    #[test]
    fn the_snapshot_server_answers_its_run_token_only() {
        let runtime = tokio::runtime::Runtime::new().unwrap();
        runtime.block_on(async {
            // A snapshot of no findings is enough: the server is what is tested.
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("empty.snap");
            let header = Header::new(
                "2026-11-25T10:00:00Z".parse().unwrap(),
                "https://findings.example.com",
                "7",
                &Default::default(),
            );
            let bytes = findings_snapshot::Writer::new(Vec::new(), &header)
                .unwrap()
                .finish()
                .unwrap();
            std::fs::write(&path, bytes).unwrap();
            let opened = open(&path).await.unwrap();
            let server = opened.session.demo.as_ref().unwrap();
            let with = |token: &str| {
                Client::new(ClientConfig::new(
                    server.url(),
                    opened.header.deployment.clone(),
                    Token::new(token),
                ))
                .unwrap()
            };
            assert!(with(server.token()).deployment_by_token().await.is_ok());
            for built_in in findings_demo::PUBLISHED_TOKENS {
                let answer = with(built_in).deployment_by_token().await;
                assert!(
                    matches!(answer, Err(ApiError::Unauthorized(_))),
                    "{built_in}: {answer:?}"
                );
            }
        });
    }
}
