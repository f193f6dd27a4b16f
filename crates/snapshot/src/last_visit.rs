//! "Since last visit": the snapshot the TUI keeps per profile and filter
//! (ids, states and the few fields a diff compares: the format's entries),
//! in `since/` of the state folder.
//!
//! The comparison at a session's start writes what the deployment holds
//! then beside the last one (`NAME.next`); when the app ends, that becomes
//! the last visit. So each session is compared with the start of the one
//! before: what others changed during it shows next time, and an app that
//! crashed leaves the last visit as it was.

use findings_model::ListIssuesRequest;
use std::io;
use std::path::{Path, PathBuf};

/// The folder in the state folder.
pub const FOLDER: &str = "since";

/// The files of one profile and filter: the last visit's snapshot and the
/// one this session took.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BaselineFiles {
    pub last: PathBuf,
    pub next: PathBuf,
}

impl BaselineFiles {
    /// The files of `profile` (its key in the state files) and the filter
    /// of `request` (its filter, types and includes; not its page, cursor
    /// or sort, which do not change what matches).
    pub fn of(state_dir: &Path, profile: &str, request: &ListIssuesRequest) -> BaselineFiles {
        let mut request = request.clone();
        request.cursor = None;
        request.limit = None;
        request.sort_by = None;
        request.sort_direction = None;
        request.deployment_id = None;
        // What a page carries does not change what matches.
        request.include_remediation = None;
        request.include_activity_history = None;
        request.include_is_archived = None;
        request.include_first_detected_at = None;
        let filter = serde_json::to_string(&request).unwrap_or_default();
        let name = format!(
            "{:016x}",
            fnv1a(&[profile.as_bytes(), b"\n", filter.as_bytes()])
        );
        let folder = state_dir.join(FOLDER);
        BaselineFiles {
            last: folder.join(format!("{name}.fsnap")),
            next: folder.join(format!("{name}.fsnap.next")),
        }
    }

    /// This session's snapshot becomes the last visit (when it took one).
    pub fn promote(&self) -> io::Result<bool> {
        match std::fs::rename(&self.next, &self.last) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
            Err(e) => Err(e),
        }
    }
}

/// FNV-1a, 64 bits: a name stable across runs and builds (the standard
/// library's hasher is neither).
fn fnv1a(parts: &[&[u8]]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in parts.iter().flat_map(|p| p.iter()) {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;
    use findings_model::ListIssuesFilter;

    #[test]
    fn one_file_per_profile_and_filter_whatever_the_page_or_sort() {
        let dir = Path::new("/state");
        let plain = ListIssuesRequest::default();
        let paged = ListIssuesRequest {
            limit: Some(1000),
            cursor: Some("c".into()),
            ..ListIssuesRequest::default()
        };
        let filtered = ListIssuesRequest {
            filter: Some(ListIssuesFilter {
                repository_names: vec!["acme/ledger-core".into()],
                ..ListIssuesFilter::default()
            }),
            ..ListIssuesRequest::default()
        };
        let a = BaselineFiles::of(dir, "work", &plain);
        assert_eq!(a, BaselineFiles::of(dir, "work", &paged));
        assert_ne!(a, BaselineFiles::of(dir, "home", &plain));
        assert_ne!(a, BaselineFiles::of(dir, "work", &filtered));
        assert!(a.last.starts_with("/state/since"));
        // Stable across builds: the name is part of the state folder.
        assert_eq!(fnv1a(&[b"a"]), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn the_session_snapshot_becomes_the_last_visit_once() {
        let dir = std::env::temp_dir().join(format!("baselines-{}", std::process::id()));
        let files = BaselineFiles::of(&dir, "p", &ListIssuesRequest::default());
        std::fs::create_dir_all(files.next.parent().unwrap()).unwrap();
        assert!(!files.promote().unwrap(), "nothing taken: nothing kept");
        std::fs::write(&files.next, b"x").unwrap();
        assert!(files.promote().unwrap());
        assert_eq!(std::fs::read(&files.last).unwrap(), b"x");
        assert!(!files.next.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
